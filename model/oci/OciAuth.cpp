#include "model/oci/OciAuth.h"

#include "model/core/Logging.h"
#include "model/network/CliConfigDecode.h"
#include "model/network/CliConfigSyntax.h"
#include "model/network/Credentials.h"
#include "model/oci/OciFormat.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>

namespace provender::oci {

QString OciCredential::describe() const
{
    QString what;
    switch (kind) {
    case Kind::Basic: what = QStringLiteral("username %1 (password %2 characters)").arg(username).arg(password.size()); break;
    case Kind::OAuth: what = QStringLiteral("OAuth access and refresh tokens"); break;
    case Kind::Helper: what = QStringLiteral("credential helper docker-credential-%1").arg(helper); break;
    }
    return source.isEmpty() ? what : what + QStringLiteral(" from ") + source;
}

int propertyNameSpecificity(const QString &propertyName, const QString &registry, const QString &repository)
{
    // ociauthconfig/docker_cli_credentials_config.go ContainersAuthPropertyNameMatch.
    if (propertyName.isEmpty())
        return 0;
    QString gotDomain = propertyName, gotPath;
    if (propertyName.contains(QLatin1Char('/'))) {
        const Result<RepositoryAddress> a = parseRepositoryAddressPrefix(propertyName);
        if (!a.ok())
            return 0;
        gotDomain = a.value().registry;
        gotPath = a.value().repository;
    }
    if (gotDomain != registry)
        return 0;
    if (gotPath.isEmpty())
        return 2;
    const QStringList want = repository.split(QLatin1Char('/'));
    const QStringList got = gotPath.split(QLatin1Char('/'));
    if (got.size() > want.size())
        return 0;
    for (qsizetype i = 0; i < got.size(); ++i)
        if (got.at(i) != want.at(i))
            return 0;
    return 2 + int(got.size());
}

namespace {

// The CLI config's syntax is read by model/network/CliConfigSyntax.h (hcl v1's rules, both forms).
using HItem = cliconfig::Item;
using HValue = cliconfig::Value;

/// The first `name = …` of a block's body (tofu decodes these blocks itself; the first counts).
const HValue *findAttr(const HValue &body, QLatin1StringView name)
{
    const QList<const HValue *> values = cliconfig::attributeValues({&body}, name);
    return values.isEmpty() ? nullptr : values.first();
}

Result<std::optional<QString>> stringAttr(const HValue &body, QLatin1StringView name, const QString &where)
{
    const HValue *v = findAttr(body, name);
    if (!v)
        return std::optional<QString>();
    if (!v->isString())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: \"%2\" must be a string").arg(where, name));
    return std::optional<QString>(v->text);
}

bool validHelperName(const QString &n)
{
    return !n.isEmpty() && !n.contains(QLatin1Char('/')) && !n.contains(QLatin1Char('\\'));
}

Result<OciCredentialsPolicy::Entry> credentialsBlock(const QString &label, const HValue &body, const QString &where)
{
    // decodeOCICredentialsBlockBody (oci_credentials.go:456-595).
    const Result<RepositoryAddress> prefix = parseRepositoryAddressPrefix(label);
    if (!prefix.ok())
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("The oci_credentials block at %1 has an invalid block label: %2.").arg(where, prefix.error().message));
    std::optional<QString> user, pass, access, refresh, helper;
    for (auto [name, target] : {std::pair{QLatin1StringView("username"), &user},
                                {QLatin1StringView("password"), &pass},
                                {QLatin1StringView("access_token"), &access},
                                {QLatin1StringView("refresh_token"), &refresh},
                                {QLatin1StringView("docker_credentials_helper"), &helper}}) {
        Result<std::optional<QString>> v = stringAttr(body, name, where);
        if (!v.ok())
            return v.error();
        *target = v.value();
    }
    const bool basic = user || pass, oauth = access || refresh, helped = helper.has_value();
    const int styles = int(basic) + int(oauth) + int(helped);
    if (styles == 0)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The oci_credentials block at %1 must set either username+password, "
                                        "access_token+refresh_token, or docker_credentials_helper.")
                             .arg(where));
    if (styles > 1)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The oci_credentials block at %1 must set only one group out of "
                                        "username+password, access_token+refresh_token, or docker_credentials_helper.")
                             .arg(where));
    OciCredentialsPolicy::Entry e;
    e.prefix = label;
    e.credential.source = QStringLiteral("explicit oci_credentials \"%1\" block (%2)").arg(label, where);
    if (basic) {
        if (!user || !pass)
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("The oci_credentials block at %1 must set both username and password "
                                            "together when using static credentials.")
                                 .arg(where));
        e.credential.kind = OciCredential::Kind::Basic;
        e.credential.username = *user;
        e.credential.password = *pass;
    } else if (oauth) {
        if (!access || !refresh)
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("The oci_credentials block at %1 must set both access_token and "
                                            "refresh_token together when using OAuth-style credentials.")
                                 .arg(where));
        e.credential.kind = OciCredential::Kind::OAuth;
        e.credential.accessToken = *access;
        e.credential.refreshToken = *refresh;
    } else {
        if (!prefix.value().repository.isEmpty())
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("The oci_credentials block at %1 cannot set docker_credentials_helper with a "
                                            "repository path: credential helpers only support credentials for whole domains.")
                                 .arg(where));
        if (!validHelperName(*helper))
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("The oci_credentials block at %1 specifies the invalid Docker credential "
                                            "helper name \"%2\".")
                                 .arg(where, *helper));
        e.credential.kind = OciCredential::Kind::Helper;
        e.credential.helper = *helper;
    }
    return e;
}

QStringList ambientFiles(const QProcessEnvironment &env, const QString &home)
{
    // dockerCLIStyleAuthFileSearchLocations on Linux (docker_cli_credentials_config.go:259-286).
    QStringList out;
    const QString run = env.value(QStringLiteral("XDG_RUNTIME_DIR"));
    if (!run.isEmpty())
        out << QDir(run).filePath(QStringLiteral("containers/auth.json"));
    QString config = env.value(QStringLiteral("XDG_CONFIG_HOME"));
    if (config.isEmpty())
        config = QDir(home).filePath(QStringLiteral(".config"));
    out << QDir(config).filePath(QStringLiteral("containers/auth.json"));
    out << QDir(home).filePath(QStringLiteral(".docker/config.json"));
    out << QDir(home).filePath(QStringLiteral(".dockercfg"));
    return out;
}

} // namespace

Result<OciCredentialsPolicy> parseCliConfigOciBlocks(const QByteArray &text, const QString &file, QStringList *dockerStyleFiles,
                                                     bool *discoverAmbient)
{
    OciCredentialsPolicy policy;
    if (discoverAmbient)
        *discoverAmbient = true;
    Result<QList<HItem>> parsed = cliconfig::parse(text);
    if (!parsed.ok())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: %2").arg(file, parsed.error().message));
    // tofu uses nothing in a file its decoder refuses (model/network/CliConfigDecode.h), so its
    // oci_credentials count for nothing either: an error, as for a file it cannot parse.
    if (const std::optional<cliconfig::DecodeProblem> refused = cliconfig::decodeProblems(parsed.value()).tofu)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("%1: line %2: %3 (tofu uses nothing in this file)").arg(file).arg(refused->line).arg(refused->message));
    const QList<HItem> items = parsed.value();
    int defaults = 0;
    for (const HItem &item : std::as_const(items)) {
        const QString where = item.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(item.line) : file;
        if (item.keys.first() == QLatin1StringView("oci_credentials")) {
            if (item.keys.size() != 2)
                return makeError(ErrorCode::InvalidArgument,
                                 QStringLiteral("The oci_credentials block at %1 must have one label, giving an "
                                                "OCI repository address prefix.")
                                     .arg(where));
            if (item.assign || item.value->type != HValue::Type::Object)
                return makeError(ErrorCode::InvalidArgument,
                                 QStringLiteral("The oci_credentials block at %1 must not be introduced with an equals sign.").arg(where));
            Result<OciCredentialsPolicy::Entry> e = credentialsBlock(item.keys.at(1), *item.value, where);
            if (!e.ok())
                return e.error();
            policy.entries.append(e.value());
        } else if (item.keys.first() == QLatin1StringView("oci_default_credentials")) {
            if (++defaults > 1)
                return makeError(ErrorCode::InvalidArgument,
                                 QStringLiteral("%1: only one oci_default_credentials block is allowed").arg(where));
            if (item.keys.size() > 1 || item.value->type != HValue::Type::Object)
                return makeError(ErrorCode::InvalidArgument,
                                 QStringLiteral("The oci_default_credentials block at %1 must not have any labels.").arg(where));
            const HValue &body = *item.value;
            bool discover = true;
            if (const HValue *d = findAttr(body, QLatin1StringView("discover_ambient_credentials"))) {
                if (d->type != HValue::Type::Bool)
                    return makeError(ErrorCode::InvalidArgument,
                                     QStringLiteral("%1: discover_ambient_credentials must be a bool").arg(where));
                discover = d->boolean;
            }
            if (discoverAmbient)
                *discoverAmbient = discover;
            if (const HValue *f = findAttr(body, QLatin1StringView("docker_style_config_files"))) {
                if (f->type != HValue::Type::List)
                    return makeError(ErrorCode::InvalidArgument,
                                     QStringLiteral("%1: docker_style_config_files must be a list of strings").arg(where));
                if (!discover)
                    return makeError(ErrorCode::InvalidArgument,
                                     QStringLiteral("The oci_default_credentials block at %1 disables discovery of ambient "
                                                    "credentials, but also sets docker_style_config_files which is relevant "
                                                    "only when ambient credentials discovery is enabled.")
                                         .arg(where));
                if (dockerStyleFiles) {
                    dockerStyleFiles->clear();
                    const QDir base = QFileInfo(file).absoluteDir();
                    for (const HValue &v : f->list)
                        dockerStyleFiles->append(QDir::cleanPath(base.absoluteFilePath(v.text)));
                    if (dockerStyleFiles->isEmpty())
                        dockerStyleFiles->append(QString()); // given but empty: no ambient files at all
                }
            }
            Result<std::optional<QString>> helper = stringAttr(body, QLatin1StringView("docker_credentials_helper"), where);
            if (!helper.ok())
                return helper.error();
            if (helper.value()) {
                if (!validHelperName(*helper.value()))
                    return makeError(ErrorCode::InvalidArgument,
                                     QStringLiteral("The oci_default_credentials block at %1 specifies the invalid Docker "
                                                    "credential helper name \"%2\".")
                                         .arg(where, *helper.value()));
                OciCredentialsPolicy::Entry e;
                e.credential.kind = OciCredential::Kind::Helper;
                e.credential.helper = *helper.value();
                e.credential.source = QStringLiteral("oci_default_credentials block (%1)").arg(where);
                e.credential.specificity = 1;
                policy.entries.append(e);
            }
        }
    }
    return policy;
}

Result<QList<OciCredentialsPolicy::Entry>> parseDockerStyleConfig(const QByteArray &json, const QString &file)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &e);
    if (e.error != QJsonParseError::NoError)
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("parsing %1: invalid JSON syntax: %2").arg(file, e.errorString()));
    const QJsonObject root = doc.object();
    QList<OciCredentialsPolicy::Entry> out;
    const QJsonObject auths = root.value(QLatin1StringView("auths")).toObject();
    for (auto it = auths.begin(); it != auths.end(); ++it) {
        const QJsonValue a = it.value().toObject().value(QLatin1StringView("auth"));
        if (!a.isString() || a.toString().isEmpty())
            continue; // identity tokens etc.: tofu ignores entries without "auth"
        const auto decoded = QByteArray::fromBase64Encoding(a.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("parsing %1: auth for \"%2\" is not base64").arg(file, it.key()));
        const qsizetype colon = decoded.decoded.indexOf(':');
        if (colon < 0)
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("auth object for \"%1\" in %2 does not have base64-encoded "
                                            "username:password pair")
                                 .arg(it.key(), file));
        OciCredentialsPolicy::Entry entry;
        entry.prefix = it.key();
        entry.credential.kind = OciCredential::Kind::Basic;
        entry.credential.username = QString::fromUtf8(decoded.decoded.left(colon));
        entry.credential.password = QString::fromUtf8(decoded.decoded.mid(colon + 1));
        entry.credential.source = QStringLiteral("\"auths\" entry \"%1\" in %2").arg(it.key(), file);
        out.append(entry);
    }
    const QJsonObject helpers = root.value(QLatin1StringView("credHelpers")).toObject();
    for (auto it = helpers.begin(); it != helpers.end(); ++it) {
        if (it.value().toString().isEmpty())
            continue;
        OciCredentialsPolicy::Entry entry;
        entry.prefix = it.key();
        entry.credential.kind = OciCredential::Kind::Helper;
        entry.credential.helper = it.value().toString();
        entry.credential.source = QStringLiteral("\"credHelpers\" entry \"%1\" in %2").arg(it.key(), file);
        entry.credential.specificity = -2; // domain only, exact match (not a prefix)
        out.append(entry);
    }
    const QString store = root.value(QLatin1StringView("credsStore")).toString();
    if (!store.isEmpty()) {
        OciCredentialsPolicy::Entry entry;
        entry.credential.kind = OciCredential::Kind::Helper;
        entry.credential.helper = store;
        entry.credential.source = QStringLiteral("\"credsStore\" in %1").arg(file);
        entry.credential.specificity = 1;
        out.append(entry);
    }
    return out;
}

Result<OciCredentialsPolicy> loadCredentialsPolicy(const QProcessEnvironment &env, const QString &homeDir, QStringList *warnings)
{
    const QString home = homeDir.isEmpty() ? env.value(QStringLiteral("HOME"), QDir::homePath()) : homeDir;
    const CredentialsLocations loc = credentialsLocations(env, home);
    OciCredentialsPolicy policy;
    QStringList dockerFiles;
    bool discover = true;
    if (!loc.cliConfigFile.isEmpty() && QFileInfo::exists(loc.cliConfigFile)) {
        QFile f(loc.cliConfigFile);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(ErrorCode::Io, QStringLiteral("%1: %2").arg(loc.cliConfigFile, f.errorString()));
        Result<OciCredentialsPolicy> blocks = parseCliConfigOciBlocks(f.read(4 << 20), loc.cliConfigFile, &dockerFiles, &discover);
        if (!blocks.ok())
            return blocks.error();
        policy = blocks.value();
        policy.consulted.append(loc.cliConfigFile);
    }
    if (!discover)
        return policy;
    const bool fixed = !dockerFiles.isEmpty();
    const QStringList files = fixed ? dockerFiles : ambientFiles(env, home);
    QString previous;
    for (const QString &path : files) {
        if (path.isEmpty() || path == previous)
            continue;
        previous = path;
        QFile f(path);
        if (!f.exists()) {
            if (fixed)
                return makeError(ErrorCode::Io,
                                 QStringLiteral("failed to read Docker-style config files: reading %1: no such file").arg(path));
            continue;
        }
        if (!f.open(QIODevice::ReadOnly)) {
            if (fixed)
                return makeError(ErrorCode::Io,
                                 QStringLiteral("failed to read Docker-style config files: reading %1: %2").arg(path, f.errorString()));
            if (warnings)
                warnings->append(QStringLiteral("reading %1: %2").arg(path, f.errorString()));
            continue;
        }
        policy.consulted.append(path);
        Result<QList<OciCredentialsPolicy::Entry>> entries = parseDockerStyleConfig(f.read(4 << 20), path);
        if (!entries.ok()) {
            // tofu: errors in explicitly named files fail; in discovered ones they are logged.
            if (fixed)
                return makeError(ErrorCode::InvalidArgument,
                                 QStringLiteral("failed to read Docker-style config files: %1").arg(entries.error().message));
            if (warnings)
                warnings->append(entries.error().message);
            continue;
        }
        policy.entries.append(entries.value());
    }
    return policy;
}

std::optional<OciCredential> credentialFor(const OciCredentialsPolicy &policy, const QString &registry, const QString &repository)
{
    // CredentialsConfigs.CredentialsSourceForRepository: strictly more specific wins; ties keep the first.
    std::optional<OciCredential> best;
    int bestSpec = 0;
    for (const OciCredentialsPolicy::Entry &e : policy.entries) {
        int spec = 0;
        if (e.credential.specificity == 1)
            spec = 1;
        else if (e.credential.specificity == -2)
            spec = e.prefix == registry ? 2 : 0;
        else
            spec = propertyNameSpecificity(e.prefix, registry, repository);
        if (spec <= bestSpec)
            continue;
        best = e.credential;
        best->specificity = spec;
        if (best->kind == OciCredential::Kind::Helper)
            best->serverUrl = QStringLiteral("https://") + registry;
        bestSpec = spec;
    }
    return best;
}

Result<OciCredential> runCredentialHelper(const OciCredential &helper, const QProcessEnvironment &env)
{
    const QString program = QStringLiteral("docker-credential-") + helper.helper;
    const QString path = QStandardPaths::findExecutable(program, env.value(QStringLiteral("PATH")).split(QLatin1Char(':')));
    if (path.isEmpty())
        return makeError(ErrorCode::NotFound,
                         QStringLiteral("\"%1\" credential helper failed: %2 not found on PATH").arg(helper.helper, program));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(path, {QStringLiteral("get")});
    if (!p.waitForStarted(10000))
        return makeError(ErrorCode::Io, QStringLiteral("\"%1\" credential helper failed: %2").arg(helper.helper, p.errorString()));
    p.write(helper.serverUrl.toUtf8());
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(1000);
        return makeError(ErrorCode::Io, QStringLiteral("\"%1\" credential helper did not answer within 60 s").arg(helper.helper));
    }
    const QByteArray output = p.readAllStandardOutput();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        // The helper's output may name the error ("credentials not found in native keychain");
        // it never holds the secret on failure.
        return makeError(
            ErrorCode::Io,
            QStringLiteral("\"%1\" credential helper failed: %2").arg(helper.helper, QString::fromUtf8(output.trimmed().left(200))));
    }
    const QJsonObject o = QJsonDocument::fromJson(output).object();
    OciCredential c = helper;
    c.kind = OciCredential::Kind::Basic;
    c.username = o.value(QLatin1StringView("Username")).toString();
    c.password = o.value(QLatin1StringView("Secret")).toString();
    if (c.username == QLatin1StringView("<token>"))
        return makeError(ErrorCode::Unsupported,
                         QStringLiteral("\"%1\" credential helper returned OAuth-style credentials, but only "
                                        "username/password-style is allowed from a credential helper")
                             .arg(helper.helper));
    c.source = QStringLiteral("docker-credential-%1 (%2)").arg(helper.helper, helper.source);
    return c;
}

} // namespace provender::oci
