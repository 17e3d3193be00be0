#include "model/lockfile/ConfigReader.h"

#include "model/core/GoCompat.h"
#include "model/core/Logging.h"
#include "model/lockfile/ConfigReaderInternal.h"
#include "model/lockfile/HclSyntax.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

using namespace Qt::StringLiterals;

namespace provender {

using namespace config_detail;

QString ConfigDiagnostic::toString() const
{
    QString where = file;
    if (line > 0)
        where += u':' + QString::number(line) + u':' + QString::number(column);
    QString oneLine = detail;
    oneLine.replace(u'\n', u' ');
    return (where.isEmpty() ? QString() : where + u": "_s) + (isError() ? u"error: "_s : u"warning: "_s) + summary
        + (oneLine.isEmpty() ? QString() : u": "_s + oneLine);
}

bool ConfigFileContent::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const ConfigDiagnostic &d) { return d.isError(); });
}

bool ConfigRequirements::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const ConfigDiagnostic &d) { return d.isError(); });
}

const ConfigProviderRequirement *ConfigRequirements::find(const ProviderAddress &address) const
{
    for (const ConfigProviderRequirement &p : providers)
        if (p.address == address)
            return &p;
    return nullptr;
}

ConfigFileContent parseConfigFile(const QByteArray &bytes, const QString &fileName)
{
    if (fileName.endsWith(u".json"_s))
        return config_detail::readJsonContent(bytes, fileName);
    return config_detail::readNativeContent(bytes, fileName);
}

// ---- Directories and modules ------------------------------------------------------------------

namespace {

/// configs.IsIgnoredFile.
bool isIgnoredFile(const QString &name)
{
    return name.startsWith(u'.') || name.endsWith(u'~') || (name.startsWith(u'#') && name.endsWith(u'#'));
}

QString configExtension(const QString &name, LockFlavour flavour)
{
    for (const char *ext : {".tf.json", ".tf"})
        if (name.endsWith(QLatin1StringView(ext)))
            return QLatin1StringView(ext);
    if (flavour == LockFlavour::Tofu)
        for (const char *ext : {".tofu.json", ".tofu"})
            if (name.endsWith(QLatin1StringView(ext)))
                return QLatin1StringView(ext);
    return {};
}

} // namespace

ConfigDirFiles configDirFiles(const QString &dir, LockFlavour flavour)
{
    ConfigDirFiles out;
    const QDir d(dir);
    QStringList names = d.entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
    std::sort(names.begin(), names.end(), [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
    QSet<QString> present(names.begin(), names.end());
    for (const QString &name : names) {
        const QString ext = configExtension(name, flavour);
        if (ext.isEmpty() || isIgnoredFile(name))
            continue;
        if (QFileInfo(d.filePath(name)).isDir())
            continue;
        const QString base = name.left(name.size() - ext.size());
        // tofu: a .tf(.json) file with a .tofu(.json) twin is ignored.
        if (flavour == LockFlavour::Tofu && ext.startsWith(u".tf"_s)) {
            QString twinExt = ext;
            twinExt.replace(u".tf"_s, u".tofu"_s);
            if (present.contains(base + twinExt))
                continue;
        }
        const bool isOverride = base == u"override"_s || base.endsWith(u"_override"_s);
        (isOverride ? out.overrides : out.primary).append(QDir::cleanPath(dir + u'/' + name));
    }
    return out;
}

namespace {

struct LoadedFile
{
    QString path;
    ConfigFileContent content;
};

class RequirementsCollector
{
public:
    RequirementsCollector(const QString &root, const ConfigReadOptions &options)
        : m_root(root),
          m_options(options),
          m_host(options.flavour == LockFlavour::Tofu ? QString(kOpenTofuRegistryHost) : QString(kTerraformRegistryHost))
    {}

    ConfigRequirements run()
    {
        const QFileInfo info(m_root);
        if (!info.isDir()) {
            m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, u"Failed to read module directory"_s,
                                                      u"Module directory %1 does not exist or cannot be read."_s.arg(m_root), QString(), 0,
                                                      0});
            return std::move(m_out);
        }
        const ConfigDirFiles files = configDirFiles(m_root, m_options.flavour);
        if (files.primary.isEmpty() && files.overrides.isEmpty()) {
            m_out.diagnostics.append(ConfigDiagnostic{
                ConfigDiagnostic::Severity::Error, u"No configuration files"_s,
                u"The directory %1 contains no %2 files."_s.arg(
                    m_root, m_options.flavour == LockFlavour::Tofu ? u".tf, .tf.json, .tofu or .tofu.json"_s : u".tf or .tf.json"_s),
                QString(), 0, 0});
            return std::move(m_out);
        }
        readModule(m_root, QString(), 0);
        for (auto it = m_reqs.begin(); it != m_reqs.end(); ++it) {
            ConfigProviderRequirement r;
            r.address = it->second.address;
            r.constraintTexts = it->second.texts;
            if (!r.constraintTexts.isEmpty()) {
                const Result<VersionConstraints> c = VersionConstraints::parse(r.constraintTexts.join(u", "_s));
                if (c.ok())
                    r.constraints = c.value();
            }
            m_out.providers.append(r);
        }
        std::sort(m_out.providers.begin(), m_out.providers.end(),
                  [](const ConfigProviderRequirement &a, const ConfigProviderRequirement &b) { return a.address < b.address; });
        return std::move(m_out);
    }

private:
    struct Req
    {
        ProviderAddress address;
        QStringList texts;
    };
    struct Resolved
    {
        ProviderAddress address;
        QString file;
        Position position;
        std::optional<QString> version;
        bool builtIn = false; ///< `terraform`: the built-in provider, nothing to lock
    };

    QString m_root;
    ConfigReadOptions m_options;
    QString m_host;
    ConfigRequirements m_out;
    std::map<QString, Req> m_reqs; ///< by address text (the final list is re-sorted)
    std::optional<QJsonObject> m_manifest;

    void error(const QString &file, const Position &p, const QString &summary, const QString &detail)
    {
        m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, summary, detail, file, p.line, p.column});
    }

    /// The address a local name implies when required_providers does not name it
    /// (addrs.ImpliedProviderForUnqualifiedType): `terraform` is the built-in provider.
    std::optional<ProviderAddress> implied(const QString &localName) const
    {
        const Result<QString> part = ProviderAddress::normalizePart(localName);
        if (!part.ok())
            return std::nullopt;
        if (part.value() == u"terraform"_s)
            return std::nullopt; // terraform.io/builtin/terraform: not lockable
        const Result<ProviderAddress> a = ProviderAddress::parse(QString(u"hashicorp/"_s + part.value()), m_host);
        return a.ok() ? std::optional<ProviderAddress>(a.value()) : std::nullopt;
    }

    /// Records a requirement (with or without a constraint text).
    void require(const ProviderAddress &a, const std::optional<QString> &version, const QString &file, const Position &p)
    {
        if (a.isBuiltIn())
            return;
        Req &r = m_reqs[a.toString()];
        r.address = a;
        if (!version)
            return;
        const Result<VersionConstraints> c = VersionConstraints::parse(*version);
        if (!c.ok()) {
            error(file, p, u"Invalid version constraint"_s, u"Incorrect version constraint syntax: %1."_s.arg(c.error().message));
            return;
        }
        if (!c->isEmpty())
            r.texts << *version;
    }

    QString moduleKey(const QString &parentKey, const QString &name) const { return parentKey.isEmpty() ? name : parentKey + u'.' + name; }

    std::optional<QString> installedModuleDir(const QString &key)
    {
        if (!m_manifest) {
            QFile f(QDir(m_root).filePath(u".terraform/modules/modules.json"_s));
            m_manifest = f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
        }
        for (const QJsonValue &m : m_manifest->value(u"Modules"_s).toArray()) {
            const QJsonObject o = m.toObject();
            if (o.value(u"Key"_s).toString() == key) {
                const QString dir = o.value(u"Dir"_s).toString();
                return QDir::isAbsolutePath(dir) ? dir : QDir(m_root).filePath(dir);
            }
        }
        return std::nullopt;
    }

    static bool isLocalSource(const QString &s)
    {
        return s.startsWith(u"./"_s) || s.startsWith(u"../"_s) || s.startsWith(u".\\"_s) || s.startsWith(u"..\\"_s);
    }

    static constexpr int kMaxModuleReads = 10000;
    int m_moduleReads = 0;
    bool m_moduleBudgetReported = false;

    /// The files of `paths`, read and parsed into `into` (their diagnostics into the result).
    void loadFiles(const QStringList &paths, QList<LoadedFile> &into)
    {
        for (const QString &path : paths) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) {
                m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, u"Failed to read file"_s,
                                                          u"The file %1 could not be read."_s.arg(gocompat::quote(path)), path, 0, 0});
                continue;
            }
            m_out.files << path;
            LoadedFile lf{path, parseConfigFile(f.readAll(), path)};
            m_out.diagnostics += lf.content.diagnostics;
            into.append(std::move(lf));
        }
    }

    /// The module calls of one module: each child read (local sources, installed modules), or why not.
    void readChildModules(const QList<LoadedFile> &primary, const QList<LoadedFile> &overrides, const QString &dir, const QString &key,
                          int depth)
    {
        QList<std::pair<ConfigFileContent::ModuleCall, QString>> calls;
        for (const LoadedFile &f : primary)
            for (const ConfigFileContent::ModuleCall &m : f.content.moduleCalls) {
                bool duplicate = false;
                for (const auto &c : std::as_const(calls))
                    duplicate = duplicate || c.first.name == m.name;
                if (duplicate)
                    continue; // terraform reports "Duplicate module call"; the first one counts here
                calls.append({m, f.path});
            }
        for (const LoadedFile &f : overrides)
            for (const ConfigFileContent::ModuleCall &m : f.content.moduleCalls)
                for (auto &c : calls)
                    if (c.first.name == m.name && m.source) {
                        c.first.source = m.source;
                        c.first.position = m.position;
                        c.second = f.path;
                    }
        for (const auto &[call, file] : std::as_const(calls)) {
            if (!call.source) {
                error(file, call.position, u"Missing required argument"_s,
                      u"The argument \"source\" is required, but no definition was found."_s);
                continue;
            }
            const QString childKey = moduleKey(key, call.name);
            QString childDir;
            if (isLocalSource(*call.source)) {
                QString rel = *call.source;
                rel.replace(u'\\', u'/');
                childDir = QDir::cleanPath(dir + u'/' + rel);
            } else if (const std::optional<QString> installed = installedModuleDir(childKey)) {
                childDir = *installed;
            } else {
                error(file, call.position, u"Module not installed"_s,
                      u"This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration."_s);
                continue;
            }
            if (depth >= 64) {
                error(file, call.position, u"Module nesting too deep"_s,
                      u"Module %1 calls modules more than 64 levels deep; is a module calling itself?"_s.arg(gocompat::quote(childKey)));
                continue;
            }
            // Depth alone does not bound the work: two calls of "./" in one module are 2^64 reads.
            if (++m_moduleReads > kMaxModuleReads) {
                if (!m_moduleBudgetReported)
                    error(file, call.position, u"Too many module calls"_s,
                          u"Reading module %1 would read more than %2 modules in all; is a module calling itself?"_s
                              .arg(gocompat::quote(childKey))
                              .arg(kMaxModuleReads));
                m_moduleBudgetReported = true;
                continue;
            }
            if (!QFileInfo(childDir).isDir()) {
                error(file, call.position, u"Unreadable module directory"_s,
                      u"The directory %1 does not exist or cannot be read."_s.arg(childDir));
                continue;
            }
            readModule(childDir, childKey, depth + 1);
        }
    }

    /// 2. Providers that resources, data sources and ephemeral resources imply, and 3. those of
    /// import blocks that generate configuration; `forLocalName` resolves a local name.
    void requireImplied(const QList<LoadedFile> &primary,
                        const std::function<std::optional<ProviderAddress>(const QString &)> &forLocalName)
    {
        QSet<QString> managed;
        for (const LoadedFile &f : primary)
            for (const ConfigFileContent::Resource &r : f.content.resources) {
                if (r.mode == u"resource"_s)
                    managed.insert(r.type + u'.' + r.name);
                const QString name = r.providerLocalName.isEmpty() ? r.type.section(u'_', 0, 0) : r.providerLocalName;
                if (const std::optional<ProviderAddress> a = forLocalName(name))
                    require(*a, std::nullopt, f.path, r.position);
            }
        // Import blocks that generate configuration.
        for (const LoadedFile &f : primary)
            for (const ConfigFileContent::ImportBlock &i : f.content.imports) {
                if (i.toResource.isEmpty() || managed.contains(i.toResource))
                    continue;
                const QString name =
                    i.providerLocalName.isEmpty() ? i.toResource.section(u'_', 0, 0).section(u'.', 0, 0) : i.providerLocalName;
                if (const std::optional<ProviderAddress> a = forLocalName(name))
                    require(*a, std::nullopt, f.path, i.position);
            }
    }

    void readModule(const QString &dir, const QString &key, int depth)
    {
        m_out.moduleDirectories << dir;
        const ConfigDirFiles files = configDirFiles(dir, m_options.flavour);
        QList<LoadedFile> primary, overrides;
        loadFiles(files.primary, primary);
        loadFiles(files.overrides, overrides);

        // required_providers: one block per module (primary files); override files replace
        // entries by local name.
        QHash<QString, Resolved> local;
        QStringList order;
        QString firstFile;
        Position firstPos;
        bool have = false;
        const auto take = [&](const LoadedFile &f, const ConfigFileContent::RequiredProvider &rp) {
            Resolved r;
            r.file = f.path;
            r.position = rp.versionPosition;
            r.version = rp.version;
            if (rp.source) {
                const Result<ProviderAddress> a = ProviderAddress::parse(*rp.source, m_host);
                if (!a.ok()) {
                    // registry-address's "<summary>: <detail>".
                    const QString m = a.error().message;
                    const qsizetype colon = m.indexOf(u": "_s);
                    if (colon > 0)
                        error(f.path, rp.position, m.left(colon), m.mid(colon + 2));
                    else
                        error(f.path, rp.position, u"Invalid provider source string"_s, m);
                    return;
                }
                r.address = a.value();
            } else {
                const Result<QString> part = ProviderAddress::normalizePart(rp.localName);
                if (!part.ok()) {
                    error(f.path, rp.position, u"Invalid provider name"_s, part.error().message);
                    return;
                }
                const std::optional<ProviderAddress> a = implied(rp.localName);
                if (!a) {
                    // `terraform = ...`: the built-in provider, nothing to lock.
                    Resolved builtIn = r;
                    builtIn.builtIn = true;
                    if (!order.contains(rp.localName))
                        order << rp.localName;
                    local.insert(rp.localName, builtIn);
                    return;
                }
                r.address = *a;
            }
            if (!order.contains(rp.localName))
                order << rp.localName;
            local.insert(rp.localName, r);
        };
        for (const LoadedFile &f : primary) {
            for (const ConfigFileContent::RequiredProvidersBlock &b : f.content.requiredProviders) {
                if (have) {
                    error(
                        f.path, b.position, u"Duplicate required providers configuration"_s,
                        u"A module may have only one required providers configuration. The required providers were previously configured at %1:%2,%3-%4."_s
                            .arg(firstFile)
                            .arg(firstPos.line)
                            .arg(firstPos.column)
                            .arg(firstPos.endColumn));
                    continue;
                }
                have = true;
                firstFile = f.path;
                firstPos = b.position;
                for (const ConfigFileContent::RequiredProvider &rp : b.entries)
                    take(f, rp);
            }
        }
        for (const LoadedFile &f : overrides)
            for (const ConfigFileContent::RequiredProvidersBlock &b : f.content.requiredProviders)
                for (const ConfigFileContent::RequiredProvider &rp : b.entries)
                    take(f, rp);

        const auto forLocalName = [&](const QString &name) -> std::optional<ProviderAddress> {
            if (local.contains(name)) {
                const Resolved &r = local[name];
                return r.builtIn ? std::nullopt : std::optional<ProviderAddress>(r.address);
            }
            return implied(name);
        };

        // 1. The module's own required_providers.
        for (const QString &name : std::as_const(order)) {
            const Resolved &r = local[name];
            if (!r.builtIn)
                require(r.address, r.version, r.file, r.position);
        }
        // 2. and 3. Providers that resources, data sources, ephemeral resources and import blocks imply.
        requireImplied(primary, forLocalName);
        // 4. Provider blocks, with their legacy version constraints.
        for (const QList<LoadedFile> *list : {&primary, &overrides})
            for (const LoadedFile &f : *list)
                for (const ConfigFileContent::ProviderBlock &p : f.content.providers)
                    if (const std::optional<ProviderAddress> a = forLocalName(p.localName))
                        require(*a, p.version, f.path, p.versionPosition);

        // 5. Child modules (override files may change a call's source).
        readChildModules(primary, overrides, dir, key, depth);
    }
};

} // namespace

ConfigRequirements readConfigRequirements(const QString &dir, const ConfigReadOptions &options)
{
    qCDebug(lcLock) << "reading the provider requirements of" << dir;
    return RequirementsCollector(dir, options).run();
}

} // namespace provender
