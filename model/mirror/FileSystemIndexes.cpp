// The filesystem scan's check of a provider directory's index documents (index.json and
// <version>.json) against the archives its walk found.
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/FileSystemScan.h"

#include "model/mirror/MirrorIndex.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <optional>

namespace provender {

using namespace fsscan;

namespace {

/// The file name `url` designates when it is a plain relative reference to a file in the same
/// directory as the JSON document (`name.zip`, `./name.zip`, percent-encoded or not); nullopt
/// for absolute, root-relative, parent or subdirectory references.
std::optional<QString> localFileName(const QString &url)
{
    if (url.isEmpty())
        return std::nullopt;
    // The common case, a plain file name as `providers mirror` writes it: nothing to decode.
    if (std::none_of(url.cbegin(), url.cend(),
                     [](QChar c) {
                         return c == QLatin1Char('/') || c == QLatin1Char('%') || c == QLatin1Char(':') || c == QLatin1Char('?')
                             || c == QLatin1Char('#');
                     })
        && url != QLatin1StringView(".") && url != QLatin1StringView(".."))
        return url;
    // A scheme (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":") before any '/', '?' or '#'.
    for (qsizetype i = 0; i < url.size(); ++i) {
        const QChar c = url.at(i);
        if (c == QLatin1Char(':')) {
            if (i > 0 && url.at(0).isLetter() && url.at(0).unicode() < 0x80)
                return std::nullopt;
            break;
        }
        if (c == QLatin1Char('/') || c == QLatin1Char('?') || c == QLatin1Char('#'))
            break;
        if (!(c.unicode() < 0x80 && (c.isLetterOrNumber() || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('.'))))
            break;
    }
    QString path = url;
    const auto cut = std::find_if(path.cbegin(), path.cend(), [](QChar c) { return c == QLatin1Char('?') || c == QLatin1Char('#'); });
    path.truncate(cut - path.cbegin());
    if (path.startsWith(QLatin1Char('/')))
        return std::nullopt; // root-relative or network-path reference
    const QString decoded = QString::fromUtf8(QByteArray::fromPercentEncoding(path.toUtf8()));
    QStringList segments = decoded.split(QLatin1Char('/'));
    QStringList kept;
    for (const QString &s : std::as_const(segments)) {
        if (s == QLatin1Char('.'))
            continue;
        if (s == QLatin1StringView(".."))
            return std::nullopt;
        kept.append(s);
    }
    if (kept.size() != 1 || kept.first().isEmpty())
        return std::nullopt;
    return kept.first();
}

AnomalyKind kindOf(MirrorIndexIssue::Kind kind)
{
    switch (kind) {
    case MirrorIndexIssue::Kind::InvalidVersionKey:
    case MirrorIndexIssue::Kind::InvalidPlatformKey: return AnomalyKind::UnparseableName;
    case MirrorIndexIssue::Kind::NoVersions: return AnomalyKind::ProviderUnavailable;
    case MirrorIndexIssue::Kind::InvalidHash:
    case MirrorIndexIssue::Kind::MissingUrl:
    case MirrorIndexIssue::Kind::NullArchive:
    case MirrorIndexIssue::Kind::TrailingData: break;
    }
    return AnomalyKind::MalformedJson;
}

/// The whole file, read with open/fstat/read into one buffer of its size (there can be tens of
/// thousands of these documents; QFile costs several allocations per file). `error` gets
/// strerror's text, as QFile::errorString() would.
QByteArray readSmallFile(const QString &path, QString *error)
{
    const Fd fd(::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC));
    struct stat st;
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0) {
        *error = errnoText(errno);
        return {};
    }
    // Index documents are small; a cap keeps a hostile 10 GiB "index.json" from eating memory.
    constexpr qint64 kMaxIndexBytes = 64 * 1024 * 1024;
    if (st.st_size > kMaxIndexBytes) {
        *error = QStringLiteral("larger than 64 MiB, not read");
        return {};
    }
    // One byte more than its size, to see the end of the file without a second buffer.
    QByteArray bytes(qsizetype(st.st_size) + 1, Qt::Uninitialized);
    qsizetype used = 0;
    for (;;) {
        if (used == bytes.size()) {
            if (used > kMaxIndexBytes) { // it grew while being read
                *error = QStringLiteral("larger than 64 MiB, not read");
                return {};
            }
            bytes.resize(std::max<qsizetype>(used * 2, 4096));
        }
        const ssize_t n = ::read(fd.get(), bytes.data() + used, size_t(bytes.size() - used));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *error = errnoText(errno);
            return {};
        }
        if (n == 0)
            break;
        used += n;
    }
    bytes.truncate(used);
    return bytes;
}

} // namespace

void DirWalker::checkIndexes(ProviderDir &dir)
{
    QSet<Version> listed;
    const IndexState indexState = readIndexJson(dir, listed);
    const QMap<Version, VersionDoc> versionDocs = readVersionJsons(dir);
    ProviderAcc &acc = *dir.acc;
    if (indexState == IndexState::Ok)
        acc.provider.hasIndex = true;

    // --- <version>.json: attach declared hashes, find absent archives, stale documents
    for (auto it = versionDocs.cbegin(); it != versionDocs.cend(); ++it) {
        const Version &version = it.key();
        const VersionDoc &vd = it.value();
        const bool stale = indexState == IndexState::Absent || (indexState == IndexState::Ok && !listed.contains(version));
        if (stale)
            anomaly(AnomalyKind::StaleVersionIndex, vd.path,
                    indexState == IndexState::Absent
                        ? QStringLiteral("there is no index.json beside it, so no client ever reads it")
                        : QStringLiteral("index.json does not list %1, so no client ever reads this file").arg(version.toString()));
        if (!vd.doc)
            continue;
        if (stale && !acc.versions.contains(version))
            continue; // nothing to attach to; do not invent a version from a stale file
        VersionAcc &va = versionAcc(*dir.acc, version);
        va.pv.hasVersionIndex = true;
        for (const MirrorArchiveEntry &entry : vd.doc->archives)
            attachEntry(dir, va, vd, entry, stale);
    }

    if (indexState == IndexState::Ok)
        checkIndexListing(dir, versionDocs, listed);
}

/// index.json read and parsed (the versions it lists into `listed`).
IndexState DirWalker::readIndexJson(ProviderDir &dir, QSet<Version> &listed)
{
    if (dir.indexJson.isEmpty())
        return IndexState::Absent;
    QString readError;
    const QByteArray bytes = readSmallFile(dir.indexJson, &readError);
    Result<MirrorIndexDocument> doc =
        readError.isEmpty() ? parseIndexJson(bytes, dir.indexJson) : Result<MirrorIndexDocument>(makeError(ErrorCode::Io, readError));
    if (!doc) {
        if (doc.error().code == ErrorCode::Io)
            anomaly(AnomalyKind::UnreadableEntry, dir.indexJson, QStringLiteral("cannot read: ") + doc.error().message);
        else
            anomaly(AnomalyKind::MalformedJson, dir.indexJson, doc.error().message, doc.error().location);
        return IndexState::Malformed;
    }
    for (const MirrorIndexIssue &issue : std::as_const(doc->issues))
        anomaly(kindOf(issue.kind), dir.indexJson, issue.message, issue.location);
    for (const Version &v : std::as_const(doc->versions))
        listed.insert(v);
    return IndexState::Ok;
}

/// <version>.json files, read and parsed (a malformed or unreadable one without its document).
QMap<Version, VersionDoc> DirWalker::readVersionJsons(ProviderDir &dir)
{
    QMap<Version, VersionDoc> versionDocs;
    for (const auto &[version, path] : std::as_const(dir.versionJsons)) {
        QString readError;
        const QByteArray bytes = readSmallFile(path, &readError);
        VersionDoc vd{path, std::nullopt};
        if (!readError.isEmpty()) {
            anomaly(AnomalyKind::UnreadableEntry, path, QStringLiteral("cannot read: ") + readError);
        } else if (Result<MirrorVersionDocument> doc = parseVersionJson(bytes, path); !doc) {
            anomaly(AnomalyKind::MalformedJson, path, doc.error().message, doc.error().location);
        } else {
            for (const MirrorIndexIssue &issue : std::as_const(doc->issues))
                anomaly(kindOf(issue.kind), path, issue.message, issue.location);
            vd.doc = std::move(doc).value();
        }
        versionDocs.insert(version, vd);
    }
    return versionDocs;
}

/// One archive entry of a <version>.json: its declared hashes attached to the archive it names,
/// or an indexed-only archive (and an anomaly) when the file is elsewhere or absent.
void DirWalker::attachEntry(ProviderDir &dir, VersionAcc &va, const VersionDoc &vd, const MirrorArchiveEntry &entry, bool stale)
{
    const DeclaredArchive declared{entry.url, entry.hashes, vd.path, entry.invalidHashes};
    const std::optional<QString> local = localFileName(entry.url);
    const qsizetype primaryIndex = va.primary(entry.platform);
    Archive *primary = primaryIndex >= 0 ? &va.pv.archives[primaryIndex] : nullptr;

    auto addArchive = [&](Archive a) {
        a.declared = declared;
        if (!primary)
            va.pv.archives.append(std::move(a));
        else
            va.pv.duplicates.append(std::move(a));
    };

    if (!local) {
        // Served from elsewhere (absolute, root-relative or another directory): the copy
        // here, if any, is the one for this platform.
        if (primary) {
            if (!primary->declared)
                primary->declared = declared;
        } else if (!stale) {
            anomaly(AnomalyKind::IndexListsAbsentArchive, vd.path,
                    QStringLiteral("lists %1 at \"%2\", which is not in this directory").arg(entry.key, entry.url));
            Archive a;
            a.platform = entry.platform;
            a.fileName = entry.url.section(QLatin1Char('/'), -1).section(QLatin1Char('?'), 0, 0);
            a.indexedOnly = true;
            addArchive(std::move(a));
        }
        return;
    }

    // Is `a` the file *local names in this directory? (Without building its path.)
    const auto isNamedFile = [&](const Archive &a) {
        return a.present && a.fileName == *local && a.path.size() == dir.path.size() + 1 + local->size() && a.path.startsWith(dir.path);
    };
    // The url is mostly the file name itself: then the archive's copy of the name is
    // kept, and the document's string freed with the document.
    const auto declare = [&declared](Archive &a) {
        if (a.declared)
            return;
        a.declared = declared;
        if (a.declared->url == a.fileName)
            a.declared->url = a.fileName;
    };
    if (primary && isNamedFile(*primary)) {
        declare(*primary);
        return;
    }
    auto dup = std::find_if(va.pv.duplicates.begin(), va.pv.duplicates.end(), isNamedFile);
    if (dup != va.pv.duplicates.end()) {
        declare(*dup);
        return;
    }
    const QString path = dir.path + QLatin1Char('/') + *local;
    struct stat file;
    if (::stat(QFile::encodeName(path).constData(), &file) == 0 && S_ISREG(file.st_mode)) {
        // An existing file with a name outside the layout (or another platform's archive).
        Archive a;
        a.platform = entry.platform;
        a.present = true;
        a.path = path;
        a.fileName = *local;
        a.size = file.st_size;
        a.modified = mtimeOf(file);
        a.inode = file.st_ino;
        a.indexedOnly = true;
        addArchive(std::move(a));
        return;
    }
    if (stale)
        return;
    anomaly(AnomalyKind::IndexListsAbsentArchive, path,
            primary ? QStringLiteral("%1 lists \"%2\" for %3, which is absent (the archive on disk for %3 is %4)")
                          .arg(QFileInfo(vd.path).fileName(), entry.url, entry.key, primary->fileName)
                    : QStringLiteral("%1 lists \"%2\" for %3, which is absent").arg(QFileInfo(vd.path).fileName(), entry.url, entry.key));
    Archive a;
    a.platform = entry.platform;
    a.fileName = *local;
    a.indexedOnly = true;
    addArchive(std::move(a));
}

/// index.json against the directory: versions it lists that are absent, archives it does not reach.
void DirWalker::checkIndexListing(ProviderDir &dir, const QMap<Version, VersionDoc> &versionDocs, const QSet<Version> &listed)
{
    QSet<Version> packedHere;
    QSet<Version> unpackedHere;
    for (const Found &f : dir.found)
        (f.archive().layout == ArchiveLayout::Packed ? packedHere : unpackedHere).insert(f.version());
    QList<Version> listedSorted(listed.cbegin(), listed.cend());
    std::sort(listedSorted.begin(), listedSorted.end());
    for (const Version &version : std::as_const(listedSorted)) {
        VersionAcc &va = versionAcc(*dir.acc, version);
        va.pv.listedInIndex = true;
        if (versionDocs.contains(version) || packedHere.contains(version))
            continue;
        anomaly(
            AnomalyKind::IndexListsAbsentVersion, dir.indexJson,
            unpackedHere.contains(version)
                ? QStringLiteral(
                      "lists %1, but there is neither %1.json nor a packed archive of it (only unpacked packages, which network clients cannot download)")
                      .arg(version.toString())
                : QStringLiteral("lists %1, but there is neither %1.json nor an archive of it").arg(version.toString()),
            Location{dir.indexJson, 0, 0});
    }
    for (const Found &f : dir.found) {
        const Archive &archive = f.archive();
        if (archive.layout != ArchiveLayout::Packed || archive.declared)
            continue;
        const Version &version = f.version();
        const auto vd = versionDocs.constFind(version);
        QString why;
        if (!listed.contains(version)) {
            why = QStringLiteral("index.json does not list version %1").arg(version.toString());
        } else if (vd == versionDocs.cend()) {
            why = QStringLiteral("index.json lists %1 but %1.json is absent (clients get 404)").arg(version.toString());
        } else if (!vd->doc) {
            continue; // its <version>.json is malformed: already reported
        } else {
            QString url;
            for (const MirrorArchiveEntry &e : vd->doc->archives)
                if (e.platform == archive.platform)
                    url = e.url.isNull() ? QStringLiteral("") : e.url;
            why = url.isNull()
                ? QStringLiteral("%1.json does not list %2").arg(version.toString(), archive.platform.toString())
                : QStringLiteral("%1.json lists \"%2\" for %3 instead").arg(version.toString(), url, archive.platform.toString());
        }
        anomaly(AnomalyKind::ArchiveNotInIndex, archive.path, why);
    }
}

} // namespace provender
