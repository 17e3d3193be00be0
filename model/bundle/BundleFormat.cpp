#include "model/bundle/BundleFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>

namespace provender {

namespace {

struct FormatName
{
    BundleFormat format;
    QLatin1StringView name;
    QLatin1StringView suffix;
};

constexpr FormatName kFormats[] = {
    {BundleFormat::TarGz, QLatin1StringView("tar.gz"), QLatin1StringView(".tar.gz")},
    {BundleFormat::TarGz, QLatin1StringView("tgz"), QLatin1StringView(".tgz")},
    {BundleFormat::TarZst, QLatin1StringView("tar.zst"), QLatin1StringView(".tar.zst")},
    {BundleFormat::TarZst, QLatin1StringView("tzst"), QLatin1StringView(".tzst")},
    {BundleFormat::TarXz, QLatin1StringView("tar.xz"), QLatin1StringView(".tar.xz")},
    {BundleFormat::TarXz, QLatin1StringView("txz"), QLatin1StringView(".txz")},
    {BundleFormat::Tar, QLatin1StringView("tar"), QLatin1StringView(".tar")},
    {BundleFormat::Zip, QLatin1StringView("zip"), QLatin1StringView(".zip")},
};

bool isHex(QByteArrayView s)
{
    for (char c : s) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    }
    return true;
}

bool isUnsafeRelativePath(const QString &path)
{
    if (path.isEmpty() || path.startsWith(QLatin1Char('/')))
        return true;
    const QList<QStringView> parts = QStringView(path).split(QLatin1Char('/'));
    for (QStringView p : parts) {
        if (p == u"..")
            return true;
    }
    return false;
}

QJsonObject shortfallToJson(const BundleShortfall &s)
{
    QJsonObject o;
    o[QStringLiteral("provider")] = s.provider.toString();
    o[QStringLiteral("version")] = s.version.toString();
    if (s.platform.isValid())
        o[QStringLiteral("platform")] = s.platform.toString();
    if (!s.lockFile.isEmpty())
        o[QStringLiteral("lock_file")] = s.lockFile;
    o[QStringLiteral("reason")] = s.reason;
    return o;
}

} // namespace

QString toString(BundleFormat format)
{
    switch (format) {
    case BundleFormat::Tar: return QStringLiteral("tar");
    case BundleFormat::TarGz: return QStringLiteral("tar.gz");
    case BundleFormat::TarXz: return QStringLiteral("tar.xz");
    case BundleFormat::TarZst: return QStringLiteral("tar.zst");
    case BundleFormat::Zip: return QStringLiteral("zip");
    }
    return {};
}

std::optional<BundleFormat> bundleFormatFromString(QStringView s)
{
    for (const FormatName &f : kFormats) {
        if (s.compare(f.name, Qt::CaseInsensitive) == 0)
            return f.format;
    }
    return std::nullopt;
}

std::optional<BundleFormat> bundleFormatFromFileName(const QString &fileName)
{
    for (const FormatName &f : kFormats) {
        if (fileName.endsWith(f.suffix, Qt::CaseInsensitive))
            return f.format;
    }
    return std::nullopt;
}

bool isWritableBundleFormat(BundleFormat format)
{
    return format == BundleFormat::TarGz || format == BundleFormat::TarZst || format == BundleFormat::Zip;
}

QString bundleEntryPath(const QString &bundlePath, const QString &entryName)
{
    return bundlePath + kBundleEntrySeparator + entryName;
}

bool splitBundleEntryPath(const QString &path, QString *bundlePath, QString *entryName)
{
    qsizetype cut = -1;
    for (qsizetype at = path.indexOf(kBundleEntrySeparator); at >= 0; at = path.indexOf(kBundleEntrySeparator, at + 1)) {
        if (cut < 0)
            cut = at;
        if (bundleFormatFromFileName(path.left(at))) {
            cut = at;
            break;
        }
    }
    if (cut < 0)
        return false;
    if (bundlePath)
        *bundlePath = path.left(cut);
    if (entryName)
        *entryName = path.mid(cut + kBundleEntrySeparator.size());
    return true;
}

QString toString(BundleStage stage)
{
    switch (stage) {
    case BundleStage::Reading: return QStringLiteral("reading");
    case BundleStage::Hashing: return QStringLiteral("hashing");
    case BundleStage::Writing: return QStringLiteral("writing");
    case BundleStage::Committing: return QStringLiteral("committing");
    }
    return {};
}

QString toString(BundleEntryProblem::Kind kind)
{
    switch (kind) {
    case BundleEntryProblem::Kind::UnsafePath: return QStringLiteral("unsafe-path");
    case BundleEntryProblem::Kind::LinkOutside: return QStringLiteral("link-outside");
    case BundleEntryProblem::Kind::Link: return QStringLiteral("link");
    case BundleEntryProblem::Kind::SpecialFile: return QStringLiteral("special-file");
    case BundleEntryProblem::Kind::DuplicateName: return QStringLiteral("duplicate-name");
    case BundleEntryProblem::Kind::TooLarge: return QStringLiteral("too-large");
    case BundleEntryProblem::Kind::Unsupported: return QStringLiteral("unsupported");
    }
    return {};
}

QByteArray renderBundleManifest(const BundleManifest &m)
{
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("provender-bundle");
    o[QStringLiteral("format_version")] = m.formatVersion;
    o[QStringLiteral("generator")] = m.generator;
    o[QStringLiteral("created")] = m.created.toUTC().toString(Qt::ISODate);
    QJsonObject source;
    source[QStringLiteral("mirror")] = m.sourceMirror;
    source[QStringLiteral("selection")] = m.selection;
    if (!m.lockFiles.isEmpty())
        source[QStringLiteral("lock_files")] = QJsonArray::fromStringList(m.lockFiles);
    if (!m.platforms.isEmpty())
        source[QStringLiteral("platforms")] = QJsonArray::fromStringList(m.platforms);
    o[QStringLiteral("source")] = source;
    QJsonArray archives;
    for (const BundleManifestArchive &a : m.archives) {
        QJsonObject j;
        j[QStringLiteral("provider")] = a.provider;
        j[QStringLiteral("version")] = a.version;
        j[QStringLiteral("platform")] = a.platform;
        j[QStringLiteral("layout")] = a.layout;
        j[QStringLiteral("path")] = a.path;
        j[QStringLiteral("h1")] = a.h1;
        if (!a.zh.isEmpty())
            j[QStringLiteral("zh")] = a.zh;
        j[QStringLiteral("size")] = double(a.size);
        archives.append(j);
    }
    o[QStringLiteral("archives")] = archives;
    QJsonArray missing;
    for (const BundleShortfall &s : m.missing)
        missing.append(shortfallToJson(s));
    o[QStringLiteral("missing")] = missing;
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

Result<BundleManifest> parseBundleManifest(const QByteArray &bytes)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (doc.isNull())
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("%1: not valid JSON: %2 (at byte %3)").arg(kBundleManifestName, error.errorString()).arg(error.offset));
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != u"provender-bundle")
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: not a Provender bundle manifest").arg(kBundleManifestName));
    BundleManifest m;
    m.formatVersion = o.value(QStringLiteral("format_version")).toInt(0);
    if (m.formatVersion != 1)
        return makeError(ErrorCode::Unsupported,
                         QStringLiteral("%1: format version %2 is not supported (this Provender reads version 1)")
                             .arg(kBundleManifestName)
                             .arg(m.formatVersion));
    m.generator = o.value(QStringLiteral("generator")).toString();
    m.created = QDateTime::fromString(o.value(QStringLiteral("created")).toString(), Qt::ISODate);
    const QJsonObject source = o.value(QStringLiteral("source")).toObject();
    m.sourceMirror = source.value(QStringLiteral("mirror")).toString();
    m.selection = source.value(QStringLiteral("selection")).toString();
    for (const QJsonValue &v : source.value(QStringLiteral("lock_files")).toArray())
        m.lockFiles.append(v.toString());
    for (const QJsonValue &v : source.value(QStringLiteral("platforms")).toArray())
        m.platforms.append(v.toString());
    for (const QJsonValue &v : o.value(QStringLiteral("archives")).toArray()) {
        const QJsonObject j = v.toObject();
        BundleManifestArchive a;
        a.provider = j.value(QStringLiteral("provider")).toString();
        a.version = j.value(QStringLiteral("version")).toString();
        a.platform = j.value(QStringLiteral("platform")).toString();
        a.layout = j.value(QStringLiteral("layout")).toString();
        a.path = j.value(QStringLiteral("path")).toString();
        a.h1 = j.value(QStringLiteral("h1")).toString();
        a.zh = j.value(QStringLiteral("zh")).toString();
        // A size the manifest cannot mean (negative, fractional, beyond qint64, not a number) is
        // unknown (0), never a double cast out of range.
        a.size = qMax<qint64>(0, j.value(QStringLiteral("size")).toInteger(0));
        m.archives.append(a);
    }
    for (const QJsonValue &v : o.value(QStringLiteral("missing")).toArray()) {
        const QJsonObject j = v.toObject();
        BundleShortfall s;
        if (Result<ProviderAddress> p = ProviderAddress::parse(j.value(QStringLiteral("provider")).toString()); p)
            s.provider = p.value();
        if (Result<Version> ver = Version::parse(j.value(QStringLiteral("version")).toString()); ver)
            s.version = ver.value();
        if (Result<Platform> pl = Platform::parse(j.value(QStringLiteral("platform")).toString()); pl)
            s.platform = pl.value();
        s.lockFile = j.value(QStringLiteral("lock_file")).toString();
        s.reason = j.value(QStringLiteral("reason")).toString();
        m.missing.append(s);
    }
    return m;
}

QByteArray renderSha256Sums(const QMap<QString, QByteArray> &rawDigestByPath)
{
    // QMap<QString> orders by UTF-16 code units; sha256sum users expect byte order of the UTF-8.
    QList<QPair<QByteArray, QByteArray>> lines;
    lines.reserve(rawDigestByPath.size());
    for (auto it = rawDigestByPath.cbegin(); it != rawDigestByPath.cend(); ++it)
        lines.append({it.key().toUtf8(), it.value().toHex()});
    std::sort(lines.begin(), lines.end());
    QByteArray out;
    for (const auto &[path, hex] : std::as_const(lines))
        out += hex + "  " + path + '\n';
    return out;
}

Result<QMap<QString, QByteArray>> parseSha256Sums(const QByteArray &bytes)
{
    QMap<QString, QByteArray> out;
    const QList<QByteArray> lines = bytes.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QByteArray line = lines.at(i);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty()) {
            if (i + 1 == lines.size())
                break;
            continue;
        }
        const Location where{QString(kBundleSumsName), int(i + 1), 1};
        if (line.size() < 67 || !isHex(QByteArrayView(line).first(64)) || line.at(64) != ' '
            || (line.at(65) != ' ' && line.at(65) != '*')) {
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("line %1 is not `<sha256 hex>  <path>`").arg(i + 1), where);
        }
        const QByteArray rawPath = line.mid(66);
        const QString path = QString::fromUtf8(rawPath);
        if (path.toUtf8() != rawPath)
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("line %1: the path is not valid UTF-8").arg(i + 1), where);
        // Like entry names (and a trailing CR would not survive writing the list back).
        if (std::any_of(rawPath.cbegin(), rawPath.cend(), [](char c) { return uchar(c) < 0x20 || uchar(c) == 0x7f; }))
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("line %1: the path contains a control character").arg(i + 1),
                             where);
        QString clean = path;
        while (clean.startsWith(QLatin1StringView("./")))
            clean.remove(0, 2);
        if (isUnsafeRelativePath(clean))
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("line %1: unsafe path \"%2\"").arg(i + 1).arg(path), where);
        if (out.contains(clean))
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("line %1: \"%2\" is listed twice").arg(i + 1).arg(path), where);
        out.insert(clean, QByteArray::fromHex(line.first(64)));
    }
    return out;
}

QString provenderGenerator()
{
    return QStringLiteral("Provender " PROVENDER_VERSION);
}

} // namespace provender
