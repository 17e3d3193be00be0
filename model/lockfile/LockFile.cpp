#include "model/lockfile/LockFile.h"

#include "model/core/GoCompat.h"
#include "model/core/Logging.h"
#include "model/lockfile/HclSyntax.h"
#include "model/lockfile/LockFastPath.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <cstring>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

constexpr auto kTofuDefaultVersion = "1.12.0";
constexpr auto kTerraformDefaultVersion = "1.11.4";

LockSourceRange toLockRange(const hcl::SourceMap &map, hcl::Span span)
{
    const hcl::Range r = map.range(span);
    return LockSourceRange{r.start.line, r.start.column, r.start.byte, r.end.line, r.end.column, r.end.byte};
}

QString toolName(LockFlavour f)
{
    return f == LockFlavour::Tofu ? u"OpenTofu"_s : u"Terraform"_s;
}

QLatin1StringView defaultHost(LockFlavour f)
{
    return f == LockFlavour::Tofu ? kOpenTofuRegistryHost : kTerraformRegistryHost;
}

/// The tool named by a header line, or "" when the comment is not a header line.
QString headerToolOf(QByteArrayView comment)
{
    static const QRegularExpression re(uR"re(^#\s*This file is maintained automatically by "([^"]*)"\.\s*$)re"_s);
    const QRegularExpressionMatch m = re.match(QString::fromUtf8(comment));
    return m.hasMatch() ? m.captured(1) : QString();
}

bool isManualEditsLine(QByteArrayView comment)
{
    return QByteArrayView(comment).trimmed() == "# Manual edits may be lost in future updates.";
}

std::optional<LockFlavour> flavourOfTool(const QString &tool)
{
    const QString t = tool.toLower();
    if (t.startsWith(u"tofu"_s) || t.startsWith(u"opentofu"_s) || t.startsWith(u"opentf"_s))
        return LockFlavour::Tofu;
    if (t.contains(u"terraform"_s) || t.startsWith(u"tfstacks"_s))
        return LockFlavour::Terraform;
    return std::nullopt;
}

QString standardTool(LockFlavour f)
{
    return f == LockFlavour::Tofu ? u"tofu init"_s : u"terraform init"_s;
}

struct HeaderInfo
{
    QString tool;               ///< from the header line, "" when none
    qsizetype headerToken = -1; ///< index of the header line comment
    qsizetype editsToken = -1;  ///< index of the "Manual edits" line following it
    bool atStart = false;       ///< the header is the first thing in the file
};

HeaderInfo findHeader(const QByteArray &data, const std::vector<hcl::Token> &tokens)
{
    HeaderInfo h;
    for (size_t k = 0; k < tokens.size(); ++k) {
        const hcl::Token &t = tokens[k];
        if (t.type != hcl::Tok::Comment)
            continue;
        const QByteArrayView text(data.constData() + t.begin, t.end - t.begin);
        const QString tool = headerToolOf(text);
        if (tool.isEmpty())
            continue;
        h.tool = tool;
        h.headerToken = qsizetype(k);
        h.atStart = k == 0;
        if (k + 1 < tokens.size() && tokens[k + 1].type == hcl::Tok::Comment) {
            const hcl::Token &n = tokens[k + 1];
            if (isManualEditsLine(QByteArrayView(data.constData() + n.begin, n.end - n.begin)))
                h.editsToken = qsizetype(k) + 1;
        }
        break;
    }
    return h;
}

/// Flavour from the provider labels when there is no header: registry.opentofu.org only -> Tofu.
LockFlavour flavourFromLabels(const QByteArray &data, const std::vector<hcl::Token> &tokens)
{
    bool tofuHost = false;
    bool otherHost = false;
    static const QByteArray tofuPrefix = "registry.opentofu.org/";
    for (size_t k = 0; k + 2 < tokens.size(); ++k) {
        const hcl::Token &t = tokens[k];
        if (t.type != hcl::Tok::Ident || t.end - t.begin != 8 || memcmp(data.constData() + t.begin, "provider", 8) != 0)
            continue;
        if (tokens[k + 1].type != hcl::Tok::OQuote || tokens[k + 2].type != hcl::Tok::QuotedLit)
            continue;
        const hcl::Token &label = tokens[k + 2];
        if (QByteArrayView(data.constData() + label.begin, label.end - label.begin).startsWith(tofuPrefix))
            tofuHost = true;
        else
            otherHost = true;
    }
    return tofuHost && !otherHost ? LockFlavour::Tofu : LockFlavour::Terraform;
}

class Decoder
{
public:
    Decoder(const hcl::SourceMap &map, const LockParseOptions &options, LockFlavour flavour)
        : m_map(map),
          m_options(options),
          m_flavour(flavour)
    {
        m_toolVersion = options.toolVersion;
        if (m_toolVersion.isEmpty())
            m_toolVersion = QString::fromLatin1(flavour == LockFlavour::Tofu ? kTofuDefaultVersion : kTerraformDefaultVersion);
    }

    QList<LockDiagnostic> diagnostics;

    LockDiagnostic make(const QString &summary, const QString &detail, hcl::Span subject) const
    {
        return {LockDiagnostic::Severity::Error, summary, detail, toLockRange(m_map, subject)};
    }

    void addHcl(const hcl::Diagnostic &d) { diagnostics.append(fromHcl(d)); }

    LockDiagnostic fromHcl(const hcl::Diagnostic &d) const
    {
        LockDiagnostic out;
        out.severity = d.severity == hcl::Diagnostic::Severity::Error ? LockDiagnostic::Severity::Error : LockDiagnostic::Severity::Warning;
        out.summary = d.summary;
        out.detail = d.detail;
        if (d.hasRelated)
            out.detail.replace(u"{related}"_s, m_map.range(d.related).toString(m_options.fileName));
        out.range = toLockRange(m_map, d.subject);
        return out;
    }

    void error(const QString &summary, const QString &detail, hcl::Span subject)
    {
        diagnostics.append({LockDiagnostic::Severity::Error, summary, detail, toLockRange(m_map, subject)});
    }

    /// One top-level block, in file order (streamed from the parser).
    void block(const hcl::Block &b, LockFile &doc)
    {
        const bool isProvider = b.type == u"provider"_s;
        const bool isModule = b.type == u"module"_s;
        if (!isProvider && !isModule) {
            // hcl Body.Content: an unexpected block type.
            QString suggestion;
            for (const QString &candidate : {u"provider"_s, u"module"_s}) {
                if (gocompat::levenshtein(b.type, candidate) < 3) {
                    suggestion = u" Did you mean %1?"_s.arg(gocompat::quote(candidate));
                    break;
                }
            }
            m_blockDiags.append(make(u"Unsupported block type"_s,
                                     u"Blocks of type %1 are not expected here.%2"_s.arg(gocompat::quote(b.type), suggestion), b.typeSpan));
            markDropped(doc, DroppedContent::Kind::UnknownBlock, b);
            return;
        }
        // hcl Body.PartialContent: label counts.
        const QString labelName = isProvider ? u"source_addr"_s : u"path"_s;
        if (b.labels.size() > 1) {
            m_labelDiags.append(make(u"Extraneous label for %1"_s.arg(b.type),
                                     u"Only 1 labels (%1) are expected for %2 blocks."_s.arg(labelName, b.type), b.labelSpans[1]));
            markDropped(doc, isProvider ? DroppedContent::Kind::InvalidProvider : DroppedContent::Kind::ModuleBlock, b);
            return;
        }
        if (b.labels.isEmpty()) {
            m_labelDiags.append(make(u"Missing %1 for %2"_s.arg(labelName, b.type),
                                     u"All %1 blocks must have 1 labels (%2)."_s.arg(b.type, labelName), b.openBraceSpan));
            markDropped(doc, isProvider ? DroppedContent::Kind::InvalidProvider : DroppedContent::Kind::ModuleBlock, b);
            return;
        }
        // decodeLocksFromHCL
        if (isModule) {
            if (!m_seenModule) {
                diagnostics.append(
                    {LockDiagnostic::Severity::Warning, u"Dependency locks for modules are not yet supported"_s,
                     u"%1 v%2 only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of %1 that also supports dependency locks for modules."_s
                         .arg(toolName(m_flavour), m_toolVersion),
                     toLockRange(m_map, b.typeSpan)});
                m_seenModule = true;
            }
            const hcl::Span full = b.fullSpan();
            doc.moduleBlocks.append(QString::fromUtf8(m_map.data().mid(full.begin, full.end - full.begin)));
            markDropped(doc, DroppedContent::Kind::ModuleBlock, b);
            return;
        }
        std::optional<ProviderLock> lock = decodeProvider(b, doc);
        if (!lock)
            return;
        const auto dup = m_seen.constFind(lock->address);
        if (dup != m_seen.cend()) {
            error(u"Duplicate provider lock"_s,
                  u"This lockfile already declared a lock for provider %1 at %2."_s.arg(
                      lock->address.toString(), m_map.range(dup.value()).toString(m_options.fileName)),
                  b.typeSpan);
            markDropped(doc, DroppedContent::Kind::DuplicateProvider, b);
            return;
        }
        m_seen.insert(lock->address, b.defSpan());
        lock->normalizeHashes();
        doc.providers.append(std::move(*lock)); // sorted once in finish()
    }

    /// After the last block: the top-level attributes (all unexpected), then the final order of
    /// diagnostics as tofu reports them: syntax, labels, unexpected attributes and blocks,
    /// then each block's own in file order.
    QList<LockDiagnostic> finish(const hcl::File &file, LockFile &doc)
    {
        // Canonical order in one sort (inserting each block in place is quadratic for a
        // reversed file); addresses are unique here.
        if (!std::is_sorted(doc.providers.cbegin(), doc.providers.cend(),
                            [](const ProviderLock &a, const ProviderLock &b) { return a.address < b.address; }))
            std::stable_sort(doc.providers.begin(), doc.providers.end(),
                             [](const ProviderLock &a, const ProviderLock &b) { return a.address < b.address; });
        for (const hcl::Attribute &a : file.body.attributes) {
            QString suggestion;
            if (a.name == u"provider"_s || a.name == u"module"_s)
                suggestion = u" Did you mean to define a block of type %1?"_s.arg(gocompat::quote(a.name));
            m_attrDiags.append(make(u"Unsupported argument"_s,
                                    u"An argument named %1 is not expected here.%2"_s.arg(gocompat::quote(a.name), suggestion),
                                    a.nameSpan));
            doc.dropped.append({DroppedContent::Kind::UnknownAttribute, a.name, toLockRange(m_map, a.span)});
        }
        QList<LockDiagnostic> out;
        out.reserve(file.diagnostics.size() + m_labelDiags.size() + m_attrDiags.size() + m_blockDiags.size() + diagnostics.size());
        for (const hcl::Diagnostic &d : file.diagnostics)
            out.append(fromHcl(d));
        out += m_labelDiags;
        out += m_attrDiags;
        out += m_blockDiags;
        out += diagnostics;
        return out;
    }

private:
    const hcl::SourceMap &m_map;
    const LockParseOptions &m_options;
    LockFlavour m_flavour;
    QString m_toolVersion;
    bool m_seenModule = false;
    QHash<ProviderAddress, hcl::Span> m_seen; ///< address -> the first block's definition
    QList<LockDiagnostic> m_labelDiags, m_attrDiags, m_blockDiags;

    void markDropped(LockFile &doc, DroppedContent::Kind kind, const hcl::Block &b)
    {
        const hcl::Span full = b.fullSpan();
        QString text = kind == DroppedContent::Kind::ModuleBlock
            ? QString::fromUtf8(m_map.data().mid(full.begin, full.end - full.begin))
            : b.type + (b.labels.isEmpty() ? QString() : u" "_s + gocompat::quote(b.labels.first()));
        doc.dropped.append({kind, text, toLockRange(m_map, full)});
    }

    std::optional<ProviderLock> decodeProvider(const hcl::Block &b, LockFile &doc)
    {
        const QString raw = b.labels.first();
        const hcl::Span labelSpan = b.labelSpans.front();
        const Result<ProviderAddress> parsed = ProviderAddress::parse(raw, defaultHost(m_flavour));
        if (!parsed.ok()) {
            error(
                u"Invalid provider source address"_s,
                u"The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\"."_s,
                labelSpan);
            markDropped(doc, DroppedContent::Kind::InvalidProvider, b);
            return std::nullopt;
        }
        const ProviderAddress &addr = parsed.value();
        if (addr.isBuiltIn()) {
            error(
                u"Invalid provider source address"_s,
                u"Cannot lock a version for built-in provider %1. Built-in providers are bundled inside %2 itself, so you can't select a version for them independently of the %2 release you are currently running."_s
                    .arg(addr.toString(), toolName(m_flavour)),
                labelSpan);
            markDropped(doc, DroppedContent::Kind::InvalidProvider, b);
            return std::nullopt;
        }
        if (addr.isLegacy()) {
            error(u"Invalid provider source address"_s,
                  u"Provider source address %1 is a special provider that is not eligible for dependency locking."_s.arg(addr.toString()),
                  labelSpan);
            markDropped(doc, DroppedContent::Kind::InvalidProvider, b);
            return std::nullopt;
        }
        const QString canonical = addr.toString();
        if (canonical != raw) {
            error(
                u"Non-normalized provider source address"_s,
                u"The provider source address for this provider lock must be written as %1, the fully-qualified and normalized form."_s.arg(
                    gocompat::quote(canonical)),
                labelSpan);
            markDropped(doc, DroppedContent::Kind::InvalidProvider, b);
            return std::nullopt;
        }

        ProviderLock lock;
        lock.address = addr;
        lock.sourceRange = toLockRange(m_map, b.fullSpan());

        // Body.Content with the provider schema.
        static const QStringList schema = {u"version"_s, u"constraints"_s, u"hashes"_s};
        const hcl::Attribute *version = nullptr;
        const hcl::Attribute *constraints = nullptr;
        const hcl::Attribute *hashes = nullptr;
        for (const hcl::Attribute &a : b.body.attributes) {
            if (a.name == u"version"_s)
                version = &a;
            else if (a.name == u"constraints"_s)
                constraints = &a;
            else if (a.name == u"hashes"_s)
                hashes = &a;
        }
        if (!version) {
            const hcl::Span missing{b.body.span.begin, b.body.span.begin};
            error(u"Missing required argument"_s, u"The argument \"version\" is required, but no definition was found."_s, missing);
        }
        for (const hcl::Attribute &a : b.body.attributes) {
            if (schema.contains(a.name))
                continue;
            QString suggestion;
            for (const QString &candidate : schema) {
                const bool defined = (candidate == u"version"_s && version) || (candidate == u"constraints"_s && constraints)
                    || (candidate == u"hashes"_s && hashes);
                if (!defined && gocompat::levenshtein(a.name, candidate) < 3) {
                    suggestion = u" Did you mean %1?"_s.arg(gocompat::quote(candidate));
                    break;
                }
            }
            error(u"Unsupported argument"_s, u"An argument named %1 is not expected here.%2"_s.arg(gocompat::quote(a.name), suggestion),
                  a.nameSpan);
            doc.dropped.append({DroppedContent::Kind::UnknownAttribute, a.name, toLockRange(m_map, a.span)});
        }
        for (const hcl::Block &nested : b.body.blocks) {
            QString suggestion;
            if (schema.contains(nested.type))
                suggestion = u" Did you mean to define argument %1? If so, use the equals sign to assign it a value."_s.arg(
                    gocompat::quote(nested.type));
            error(u"Unsupported block type"_s,
                  u"Blocks of type %1 are not expected here.%2"_s.arg(gocompat::quote(nested.type), suggestion), nested.typeSpan);
            markDropped(doc, DroppedContent::Kind::UnknownBlock, nested);
        }

        if (version)
            decodeVersion(addr, *version, lock);
        if (constraints)
            decodeConstraints(addr, *constraints, lock);
        if (hashes)
            decodeHashes(*hashes, lock);
        return lock;
    }

    void addAll(const QList<hcl::Diagnostic> &ds)
    {
        for (const hcl::Diagnostic &d : ds)
            addHcl(d);
    }

    void decodeVersion(const ProviderAddress &addr, const hcl::Attribute &attr, ProviderLock &lock)
    {
        QList<hcl::Diagnostic> ds;
        QString raw;
        bool isNull = false;
        const bool ok = hcl::decodeString(attr.expr, true, &raw, &isNull, ds);
        addAll(ds);
        if (!ok)
            return;
        if (isNull) {
            error(u"Missing required argument"_s, u"A provider lock block must contain a \"version\" argument."_s, attr.expr.span);
            return;
        }
        const Result<Version> v = Version::parse(raw);
        Version version;
        if (!v.ok()) {
            error(u"Invalid provider version number"_s,
                  u"The selected version number for provider %1 is invalid: %2."_s.arg(addr.toString(), v.error().message), attr.expr.span);
        } else {
            version = v.value();
        }
        const QString canonical = version.toString();
        if (canonical != raw)
            error(u"Invalid provider version number"_s,
                  u"The selected version number for provider %1 must be written in normalized form: %2."_s.arg(addr.toString(),
                                                                                                               gocompat::quote(canonical)),
                  attr.expr.span);
        lock.version = version;
    }

    void decodeConstraints(const ProviderAddress &addr, const hcl::Attribute &attr, ProviderLock &lock)
    {
        QList<hcl::Diagnostic> ds;
        QString raw;
        const bool ok = hcl::decodeString(attr.expr, false, &raw, nullptr, ds);
        addAll(ds);
        if (!ok)
            return;
        const Result<VersionConstraints> c = VersionConstraints::parse(raw);
        VersionConstraints constraints;
        if (!c.ok()) {
            error(u"Invalid provider version constraints"_s,
                  u"The recorded version constraints for provider %1 are invalid: %2."_s.arg(addr.toString(), c.error().message),
                  attr.expr.span);
        } else {
            constraints = c.value();
        }
        const QString canonical = constraints.toString();
        if (canonical != raw)
            error(u"Invalid provider version constraints"_s,
                  u"The recorded version constraints for provider %1 must be written in normalized form: %2."_s.arg(
                      addr.toString(), gocompat::quote(canonical)),
                  attr.expr.span);
        lock.constraints = constraints;
    }

    void decodeHashes(const hcl::Attribute &attr, ProviderLock &lock)
    {
        const std::vector<hcl::Expr> *items = hcl::staticList(attr.expr);
        if (!items) {
            error(u"Invalid expression"_s, u"A static list expression is required."_s, attr.expr.startSpan());
            return;
        }
        if (items->empty()) {
            error(u"Invalid provider hash set"_s, u"The \"hashes\" argument must either be omitted or contain at least one hash value."_s,
                  attr.expr.span);
            return;
        }
        lock.hashes.reserve(qsizetype(items->size()));
        for (const hcl::Expr &item : *items) {
            QList<hcl::Diagnostic> ds;
            QString raw;
            const bool ok = hcl::decodeString(item, false, &raw, nullptr, ds);
            addAll(ds);
            if (!ok)
                continue;
            Result<HashString> h = HashString::parse(raw);
            if (!h.ok()) {
                error(u"Invalid provider hash string"_s,
                      u"Cannot interpret %1 as a provider hash: hash string must start with a scheme keyword followed by a colon."_s.arg(
                          gocompat::quote(raw)),
                      attr.expr.span);
                continue;
            }
            lock.hashes.append(std::move(h).value());
        }
        lock.normalizeHashes();
    }
};

} // namespace

// ---- small types ----------------------------------------------------------------------------

QString toString(LockFlavour f)
{
    return f == LockFlavour::Tofu ? u"tofu"_s : u"terraform"_s;
}

std::optional<LockFlavour> lockFlavourFromString(QStringView s)
{
    const QString t = s.toString().toLower();
    if (t == u"tofu"_s || t == u"opentofu"_s)
        return LockFlavour::Tofu;
    if (t == u"terraform"_s)
        return LockFlavour::Terraform;
    return std::nullopt;
}

QString LockSourceRange::toHclString(const QString &fileName) const
{
    if (line == endLine)
        return u"%1:%2,%3-%4"_s.arg(fileName).arg(line).arg(column).arg(endColumn);
    return u"%1:%2,%3-%4,%5"_s.arg(fileName).arg(line).arg(column).arg(endLine).arg(endColumn);
}

QString LockDiagnostic::toString(const QString &fileName) const
{
    QString where = fileName;
    if (range.isValid())
        where += u':' + QString::number(range.line) + u':' + QString::number(range.column);
    QString oneLine = detail;
    oneLine.replace(u'\n', u' ');
    return where + (isError() ? u": error: "_s : u": warning: "_s) + summary + u": "_s + oneLine;
}

QString toString(DroppedContent::Kind k)
{
    switch (k) {
    case DroppedContent::Kind::Comment: return u"comment"_s;
    case DroppedContent::Kind::Header: return u"header"_s;
    case DroppedContent::Kind::ModuleBlock: return u"module block"_s;
    case DroppedContent::Kind::UnknownBlock: return u"unknown block"_s;
    case DroppedContent::Kind::UnknownAttribute: return u"unknown attribute"_s;
    case DroppedContent::Kind::InvalidProvider: return u"invalid provider block"_s;
    case DroppedContent::Kind::DuplicateProvider: return u"duplicate provider block"_s;
    }
    return {};
}

bool utf8Less(QStringView a, QStringView b)
{
    return gocompat::compareUtf8(a, b) < 0; // byte-wise UTF-8 order, Go's `<` on strings
}

void ProviderLock::normalizeHashes()
{
    if (std::is_sorted(hashes.cbegin(), hashes.cend(),
                       [](const HashString &a, const HashString &b) { return utf8Less(a.toString(), b.toString()); })
        && std::adjacent_find(hashes.cbegin(), hashes.cend()) == hashes.cend())
        return;
    std::sort(hashes.begin(), hashes.end(), [](const HashString &a, const HashString &b) { return utf8Less(a.toString(), b.toString()); });
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
}

const ProviderLock *LockFile::find(const ProviderAddress &address) const
{
    const qsizetype i = indexOf(address);
    return i < 0 ? nullptr : &providers.at(i);
}

qsizetype LockFile::indexOf(const ProviderAddress &address) const
{
    const auto it = std::lower_bound(providers.cbegin(), providers.cend(), address,
                                     [](const ProviderLock &l, const ProviderAddress &a) { return l.address < a; });
    if (it != providers.cend() && it->address == address)
        return it - providers.cbegin();
    return -1;
}

void LockFile::setProvider(ProviderLock lock)
{
    lock.normalizeHashes();
    if (providers.isEmpty() || providers.constLast().address < lock.address) {
        providers.append(std::move(lock)); // files are usually sorted already
        return;
    }
    const auto it = std::lower_bound(providers.begin(), providers.end(), lock.address,
                                     [](const ProviderLock &l, const ProviderAddress &a) { return l.address < a; });
    if (it != providers.end() && it->address == lock.address)
        *it = std::move(lock);
    else
        providers.insert(it, std::move(lock));
}

bool LockFile::removeProvider(const ProviderAddress &address)
{
    const qsizetype i = indexOf(address);
    if (i < 0)
        return false;
    providers.removeAt(i);
    return true;
}

bool LockFile::locksEqual(const LockFile &other) const
{
    if (providers.size() != other.providers.size())
        return false;
    for (qsizetype i = 0; i < providers.size(); ++i) {
        const ProviderLock &a = providers.at(i);
        const ProviderLock &b = other.providers.at(i);
        if (!(a.address == b.address) || !(a.version == b.version) || a.hashes != b.hashes)
            return false;
    }
    return true;
}

bool LockParseResult::hasErrors() const
{
    return std::any_of(diagnostics.cbegin(), diagnostics.cend(), [](const LockDiagnostic &d) { return d.isError(); });
}

QList<LockDiagnostic> LockParseResult::errors() const
{
    QList<LockDiagnostic> out;
    for (const LockDiagnostic &d : diagnostics)
        if (d.isError())
            out.append(d);
    return out;
}

// ---- parsing --------------------------------------------------------------------------------

LockParseResult parseLockFile(const QByteArray &bytes, const LockParseOptions &options)
{
    // Files in the exact shape tofu/terraform write take the byte-level fast path; anything else
    // (including every file with a diagnostic) the full parser (LockFastPath.h).
    std::optional<LockParseResult> fast = lockfile_detail::parseLockFileFast(bytes, options);
    LockParseResult result = fast ? std::move(*fast) : lockfile_detail::parseLockFileFull(bytes, options);
    qCDebug(lcLock) << "parsed lock file:" << result.document.providers.size() << "providers," << result.diagnostics.size() << "diagnostics"
                    << (fast ? "(fast path)" : "");
    return result;
}

LockParseResult lockfile_detail::parseLockFileFull(const QByteArray &bytes, const LockParseOptions &options)
{
    LockParseResult result;
    const hcl::SourceMap map(bytes);
    std::vector<hcl::Token> tokens = hcl::scan(bytes);

    const HeaderInfo header = findHeader(bytes, tokens);
    LockFlavour detected = flavourFromLabels(bytes, tokens);
    if (const auto f = flavourOfTool(header.tool))
        detected = *f;
    const LockFlavour flavour = options.flavour.value_or(detected);

    LockFile &doc = result.document;
    doc.flavour = flavour;
    doc.headerTool = header.tool;
    doc.hasStandardHeader = header.atStart && header.editsToken == header.headerToken + 1 && header.tool == standardTool(flavour);

    // Comments: everything except the header lines is lost on a canonical rewrite; a header
    // naming another tool is replaced.
    const bool headerIsStandard = header.tool == standardTool(flavour);
    for (size_t k = 0; k < tokens.size(); ++k) {
        const hcl::Token &t = tokens[k];
        if (t.type != hcl::Tok::Comment)
            continue;
        QString text = QString::fromUtf8(bytes.constData() + t.begin, t.end - t.begin);
        while (text.endsWith(u'\n') || text.endsWith(u'\r'))
            text.chop(1);
        const LockSourceRange range = toLockRange(map, {t.begin, t.end});
        if (qsizetype(k) == header.headerToken) {
            if (!headerIsStandard)
                doc.dropped.append({DroppedContent::Kind::Header, text, range});
            continue;
        }
        if (qsizetype(k) == header.editsToken)
            continue;
        doc.dropped.append({DroppedContent::Kind::Comment, text, range});
    }

    // Blocks are decoded as the parser completes them, so a huge file never has its whole
    // syntax tree in memory.
    Decoder decoder(map, options, flavour);
    const hcl::File file = hcl::parseTokens(bytes, std::move(tokens), [&](hcl::Block &&b) { decoder.block(b, doc); });
    result.diagnostics = decoder.finish(file, doc);
    std::stable_sort(doc.dropped.begin(), doc.dropped.end(),
                     [](const DroppedContent &a, const DroppedContent &b) { return a.range.byte < b.range.byte; });
    return result;
}

Result<LockParseResult> readLockFile(const QString &path, LockParseOptions options)
{
    const QFileInfo info(path);
    if (!info.exists())
        return makeError(ErrorCode::NotFound, u"%1: no such file"_s.arg(path), Location{path, 0, 0});
    if (info.isDir())
        return makeError(ErrorCode::Io, u"Failed to read file: The configuration file \"%1\" could not be read."_s.arg(path),
                         Location{path, 0, 0});
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, u"%1: %2"_s.arg(path, f.errorString()), Location{path, 0, 0});
    const QByteArray bytes = f.readAll();
    if (f.error() != QFileDevice::NoError)
        return makeError(ErrorCode::Io, u"%1: %2"_s.arg(path, f.errorString()), Location{path, 0, 0});
    if (options.fileName.isEmpty())
        options.fileName = path;
    return parseLockFile(bytes, options);
}

LockFlavour detectFlavour(const QByteArray &bytes)
{
    const std::vector<hcl::Token> tokens = hcl::scan(bytes);
    const HeaderInfo header = findHeader(bytes, tokens);
    if (const auto f = flavourOfTool(header.tool))
        return *f;
    return flavourFromLabels(bytes, tokens);
}

} // namespace provender
