#include "model/bundle/BundleMirror.h"

#include "model/bundle/BundleArchive.h"
#include "model/bundle/BundleHashing.h"
#include "model/bundle/BundleMirrorInternal.h"
#include "model/bundle/BundleSource.h"
#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/StreamingZipHasher.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/registry/ReleaseProvenanceStore.h"
#include "model/verify/VerifyEngine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QTemporaryDir>
#include <QTemporaryFile>

#include <fcntl.h>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace provender {

using namespace bundle_detail;

QString toString(BundleFileCheck::Status status)
{
    switch (status) {
    case BundleFileCheck::Status::Ok: return QStringLiteral("ok");
    case BundleFileCheck::Status::Mismatch: return QStringLiteral("mismatch");
    case BundleFileCheck::Status::Missing: return QStringLiteral("missing");
    case BundleFileCheck::Status::Unlisted: return QStringLiteral("unlisted");
    }
    return {};
}

QString BundleContents::entryName(const QString &catalogPath) const
{
    QString bundle, entry;
    if (!splitBundleEntryPath(catalogPath, &bundle, &entry) || bundle != path)
        return {};
    return entry;
}

bool BundleContents::hasFindings() const
{
    if (!problems.isEmpty() || !manifestError.isEmpty() || !sha256SumsError.isEmpty())
        return true;
    if (summary.hasFindings())
        return true;
    for (const BundleFileCheck &f : files) {
        if (f.status != BundleFileCheck::Status::Ok)
            return true;
    }
    return false;
}

namespace bundle_detail {

bool isProvenanceName(const QString &name)
{
    // [FOLDER/].provenance/HOST/NS/TYPE/VERSION/{SHA256SUMS, SHA256SUMS.sig, keys.asc}
    const QStringList parts = name.split(QLatin1Char('/'));
    const qsizetype at = parts.size() == 6 ? 0 : parts.size() == 7 ? 1 : -1;
    return at >= 0 && parts.at(at) == QLatin1StringView(".provenance") && provenanceFileNames().contains(parts.last());
}

bool isMetadataName(const QString &name)
{
    if (isProvenanceName(name))
        return true;
    const qsizetype parts = name.count(QLatin1Char('/')) + 1;
    if (parts <= 2) {
        const QString base = name.section(QLatin1Char('/'), -1);
        return base == kBundleSumsName || base == kBundleManifestName;
    }
    return (parts == 4 || parts == 5) && name.endsWith(QLatin1StringView(".json"));
}

QString choosePrefix(const QList<BundleEntry> &entries)
{
    // Candidates: the root, and the one folder everything is under (if there is one).
    QString top;
    bool single = true;
    for (const BundleEntry &e : entries) {
        const QString first = e.name.section(QLatin1Char('/'), 0, 0);
        const bool under = e.name.contains(QLatin1Char('/')) || e.type == BundleEntry::Type::Directory;
        if (!under || (!top.isEmpty() && first != top)) {
            single = false;
            break;
        }
        top = first;
    }
    if (!single || top.isEmpty())
        return {};
    auto score = [&](const QString &prefix) {
        qint64 s = 0;
        for (const BundleEntry &e : entries) {
            if (e.type != BundleEntry::Type::File || !e.name.startsWith(prefix))
                continue;
            const QString rel = e.name.mid(prefix.size());
            if (rel == kBundleSumsName || rel == kBundleManifestName) {
                s += 1000;
                continue;
            }
            const QStringList parts = rel.split(QLatin1Char('/'));
            if (parts.size() == 4 && parts.at(3).startsWith(QLatin1StringView("terraform-provider-"), Qt::CaseInsensitive)
                && parts.at(3).endsWith(QLatin1StringView(".zip"), Qt::CaseInsensitive))
                s += 1;
            else if (parts.size() >= 6)
                s += 1;
        }
        return s;
    };
    const QString prefix = top + QLatin1Char('/');
    return score(prefix) > score(QString()) ? prefix : QString();
}

namespace {

/// Replaces the skeleton's root with the bundle's entry prefix in every path of a catalog.
class PathMapper
{
public:
    PathMapper(const QString &from, const QString &to) : m_from(from), m_to(to) {}
    QString operator()(const QString &path) const
    {
        if (path == m_from)
            return m_to.endsWith(QLatin1Char('/')) ? m_to.chopped(1) : m_to;
        if (path.startsWith(m_from + QLatin1Char('/')))
            return m_to + path.mid(m_from.size() + 1);
        return path;
    }
    QString text(QString message) const { return message.replace(m_from + QLatin1Char('/'), m_to); }

private:
    QString m_from;
    QString m_to; ///< ends with '/' or "!/"
};

void mapCatalog(Catalog &catalog, const PathMapper &map)
{
    for (Provider &p : catalog.providers) {
        p.directory = map(p.directory);
        for (ProviderVersion &v : p.versions) {
            for (QList<Archive> *list : {&v.archives, &v.duplicates}) {
                for (Archive &a : *list) {
                    if (!a.path.isEmpty())
                        a.path = map(a.path);
                    a.inode = 0;
                    if (a.declared)
                        a.declared->indexFile = map(a.declared->indexFile);
                }
            }
        }
    }
    for (Anomaly &a : catalog.anomalies) {
        a.path = map(a.path);
        a.message = map.text(a.message);
        a.location.file = map(a.location.file);
    }
}

bool setTimes(const QString &path, const QDateTime &modified)
{
    if (!modified.isValid())
        return true;
    struct timespec times[2];
    times[0].tv_sec = times[1].tv_sec = time_t(modified.toSecsSinceEpoch());
    times[0].tv_nsec = times[1].tv_nsec = 0;
    return ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, AT_SYMLINK_NOFOLLOW) == 0;
}

} // namespace

Result<Catalog> catalogFromEntries(const QList<BundleEntry> &entries, const QHash<QString, QByteArray> &metadata, const QString &prefix,
                                   const QString &entryPathBase)
{
    QTemporaryDir skeleton;
    if (!skeleton.isValid())
        return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary directory: %1").arg(skeleton.errorString()));
    const QString root = skeleton.path() + QStringLiteral("/mirror");
    if (!QDir().mkpath(root))
        return makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(root));
    QList<QPair<QString, QDateTime>> directoryTimes;
    for (const BundleEntry &e : entries) {
        if (!e.name.startsWith(prefix) || e.name.size() == prefix.size())
            continue;
        const QString rel = e.name.mid(prefix.size());
        if (rel == kBundleSumsName || rel == kBundleManifestName)
            continue; // the bundle's own files, not part of the mirror tree
        const QString path = root + QLatin1Char('/') + rel;
        if (e.type == BundleEntry::Type::Directory) {
            QDir().mkpath(path);
            directoryTimes.append({path, e.modified});
            continue;
        }
        if (e.type != BundleEntry::Type::File && e.type != BundleEntry::Type::Hardlink)
            continue; // symbolic links are never laid out: the scanner must not see (or follow) them
                      // (a hard link is a second file with the same bytes)
        QDir().mkpath(QFileInfo(path).path());
        const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) {
            qCDebug(lcMirror) << "bundle skeleton: cannot create" << path;
            continue;
        }
        bool ok = true;
        const auto content = metadata.constFind(e.name);
        if (content != metadata.cend() && rel.endsWith(QLatin1StringView(".json"))) {
            ok = ::write(fd, content->constData(), size_t(content->size())) == content->size();
        } else {
            ok = ::ftruncate(fd, off_t(e.size)) == 0; // sparse: takes no space
        }
        ::close(fd);
        if (!ok)
            return makeError(ErrorCode::Io, QStringLiteral("cannot write the bundle's skeleton in %1").arg(skeleton.path()));
        setTimes(path, e.modified);
    }
    // Parents first made their mtime "now"; set directory times last, deepest first.
    for (auto it = directoryTimes.crbegin(); it != directoryTimes.crend(); ++it)
        setTimes(it->first, it->second);

    Result<Catalog> scanned = scanFileSystemMirror(root);
    if (!scanned.ok())
        return scanned.error();
    Catalog catalog = std::move(scanned).value();
    mapCatalog(catalog, PathMapper(root, entryPathBase + prefix));
    return catalog;
}

QList<BundleFileCheck> checkListedSums(const QMap<QString, QByteArray> &sums, const QString &prefix,
                                       const std::function<std::optional<QByteArray>(const QString &entry)> &digestOf,
                                       QSet<QString> *listed)
{
    QList<BundleFileCheck> out;
    for (auto it = sums.cbegin(); it != sums.cend(); ++it) {
        BundleFileCheck f;
        f.name = it.key();
        f.expected = QString::fromLatin1(it.value().toHex());
        listed->insert(prefix + it.key());
        if (const std::optional<QByteArray> actual = digestOf(prefix + it.key()); !actual) {
            f.status = BundleFileCheck::Status::Missing;
        } else {
            f.actual = QString::fromLatin1(actual->toHex());
            f.status = *actual == it.value() ? BundleFileCheck::Status::Ok : BundleFileCheck::Status::Mismatch;
        }
        out.append(f);
    }
    return out;
}

Result<VerifyReport> verifyForBundle(const Catalog &catalog, const VerifyOptions &options, const BundleProgress &progress)
{
    std::atomic<bool> cancel{false};
    VerifyReport verified = verifyCatalog(
        catalog, options,
        [&](qint64 done, qint64 total) {
            if (progress && !progress(BundleStage::Hashing, done, total))
                cancel = true;
        },
        &cancel);
    if (cancel || verified.summary.cancelled)
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    return verified;
}

} // namespace bundle_detail

namespace {

struct FileRecord
{
    QByteArray sha256;
    bool read = false;
};

using EntryIndex = QMap<QString, const BundleEntry *>; ///< by name: a prefix is one contiguous range

/// The entries under `prefix` (a name ending in '/').
QList<const BundleEntry *> entriesUnder(const EntryIndex &index, const QString &prefix)
{
    QList<const BundleEntry *> out;
    for (auto it = index.lowerBound(prefix); it != index.cend() && it.key().startsWith(prefix); ++it)
        out.append(it.value());
    return out;
}

/// Hashes of the package directory `dirEntry` (an unpacked package) from its files' digests.
Result<PackageHashes> hashUnpacked(const QString &dirEntry, const EntryIndex &index, const QHash<QString, FileRecord> &files)
{
    const QString prefix = dirEntry + QLatin1Char('/');
    QList<DirhashEntry> lines;
    PackageHashes h;
    h.kind = PackageHashes::Kind::Directory;
    for (const BundleEntry *entry : entriesUnder(index, prefix)) {
        const BundleEntry &e = *entry;
        if (e.type == BundleEntry::Type::Symlink)
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("the package holds a symbolic link (%1), which a bundle never extracts").arg(e.name));
        if (e.type != BundleEntry::Type::File && e.type != BundleEntry::Type::Hardlink)
            continue; // directories; a hard link is a copy of an earlier file (its digest is that file's)
        const FileRecord r = files.value(e.name);
        if (!r.read)
            return makeError(ErrorCode::Io, QStringLiteral("%1 was not read (see the problems)").arg(e.name));
        lines.append(DirhashEntry{e.name.mid(prefix.size()).toUtf8(), r.sha256});
        h.contentBytes += e.size;
        ++h.entryCount;
    }
    {
        QList<QByteArray> names;
        for (const DirhashEntry &l : std::as_const(lines))
            names.append(l.name);
        h.executableCandidates = executableCandidatesOf(names);
    }
    Result<HashString> h1 = dirhash1(std::move(lines));
    if (!h1.ok())
        return h1.error();
    h.h1Extracted = h1.value();
    return h;
}

VerdictDetail errorVerdict(const QString &why)
{
    VerdictDetail d;
    d.verdict = Verdict::Error;
    d.reason = why;
    return d;
}

/// What the verify pass learnt of every file entry: its SHA-256 and, for a zip, what the streaming
/// hasher made of it. The pool's tasks fill it (under `mutex`); hard links are resolved after.
struct EntryDigests
{
    std::mutex mutex;
    QHash<QString, FileRecord> files;
    QHash<QString, StreamingZipOutcome> zips;
    QList<QPair<QString, QString>> links; ///< hard link -> the earlier file it copies, in bundle order

    /// A second name of an earlier file has the same bytes, so the same digests (a link to a link
    /// comes after it, so bundle order resolves chains).
    void resolveLinks()
    {
        for (const auto &[link, target] : std::as_const(links)) {
            files.insert(link, files.value(target));
            if (const auto z = zips.constFind(target); z != zips.cend())
                zips.insert(link, z.value());
        }
    }
};

/// The SHA-256 of every byte `bytes` serves.
Result<QByteArray> sha256Of(const PullBytes &bytes)
{
    Sha256 sha;
    for (;;) {
        Result<QByteArrayView> block = bytes();
        if (!block.ok())
            return block.error();
        if (block->isEmpty())
            return sha.result();
        sha.addData(block->data(), std::size_t(block->size()));
    }
}

/// The verify pass's FileHandler: each file's bytes go to a hashing task on `pool` while the
/// reader goes on (BundleHashing.h).
FileHandler hashingHandler(EntryDigests &digests, EntryHashPool &pool, qint64 maxEntryBytes)
{
    return [&digests, &pool, maxEntryBytes](const BundleEntry &e, const PullBytes &pull, QString *) -> Result<void> {
        if (e.type == BundleEntry::Type::Hardlink) {
            digests.links.append({e.name, e.linkTarget});
            return {};
        }
        const bool zip = e.name.endsWith(QLatin1StringView(".zip"), Qt::CaseInsensitive);
        return pool.feed(pull, [&digests, name = e.name, zip, maxEntryBytes](const PullBytes &bytes) {
            FileRecord record;
            std::optional<StreamingZipOutcome> outcome;
            if (zip) {
                Result<StreamingZipOutcome> z = hashZipStream(bytes, maxEntryBytes);
                if (!z.ok())
                    return; // the reader's error (a limit, a damaged container, cancel): feed() returned it
                record.sha256 = z->sha256;
                outcome = std::move(z).value();
            } else {
                Result<QByteArray> sha = sha256Of(bytes);
                if (!sha.ok())
                    return;
                record.sha256 = sha.value();
            }
            record.read = true;
            const std::lock_guard lock(digests.mutex);
            digests.files.insert(name, record);
            if (outcome)
                digests.zips.insert(name, *outcome);
        });
    };
}

/// The listing half of openBundle(): format and counts, the mirror's prefix, its Catalog, the
/// manifest and the releases' proof from the pass. Returns SHA256SUMS's lines (empty when it has
/// none or it is unreadable: hasSha256Sums / sha256SumsError say which).
Result<QMap<QString, QByteArray>> listContents(BundleContents &out, const BundlePass &pass)
{
    out.format = pass.format;
    out.entryCount = pass.entryCount;
    out.contentBytes = pass.contentBytes;
    out.problems = pass.problems;
    out.mirrorPrefix = choosePrefix(pass.entries);

    Result<Catalog> catalog = catalogFromEntries(pass.entries, pass.metadata, out.mirrorPrefix, out.path + kBundleEntrySeparator);
    if (!catalog.ok())
        return catalog.error();
    out.catalog = std::move(catalog).value();
    out.catalog.sourceKind = Catalog::SourceKind::Bundle;
    out.catalog.root = out.path;

    const QString manifestName = out.mirrorPrefix + kBundleManifestName;
    if (const auto it = pass.metadata.constFind(manifestName); it != pass.metadata.cend()) {
        Result<BundleManifest> m = parseBundleManifest(it.value());
        if (m.ok())
            out.manifest = m.value();
        else
            out.manifestError = m.error().toString();
    }
    QMap<QString, QByteArray> sums;
    const QString sumsName = out.mirrorPrefix + kBundleSumsName;
    if (const auto it = pass.metadata.constFind(sumsName); it != pass.metadata.cend()) {
        Result<QMap<QString, QByteArray>> parsed = parseSha256Sums(it.value());
        if (parsed.ok()) {
            out.hasSha256Sums = true;
            sums = parsed.value();
        } else {
            out.sha256SumsError = parsed.error().toString();
        }
    }
    // A pulled mirror's proof (`bundle create` carries it): the release's signed SHA256SUMS.
    for (auto it = pass.metadata.cbegin(); it != pass.metadata.cend(); ++it)
        if (it.key().startsWith(out.mirrorPrefix) && isProvenanceName(it.key()))
            out.provenance.insert(it.key().mid(out.mirrorPrefix.size()), it.value());
    return sums;
}

/// The verdict half of openBundle(verify): one result per archive from what the pass read, the
/// zips it could not hash exactly spooled and hashed again, SHA256SUMS checked line by line, then
/// each archive decided by the engine's rules (completeFromRead).
class BundleVerdicts
{
public:
    BundleVerdicts(BundleContents &out, const BundlePass &pass, const EntryDigests &digests, const QMap<QString, QByteArray> &sums,
                   const BundleOpenOptions &options)
        : m_out(out),
          m_pass(pass),
          m_digests(digests),
          m_sums(sums),
          m_options(options),
          m_base(out.path + kBundleEntrySeparator)
    {
        for (const BundleEntry &e : std::as_const(pass.entries))
            m_index.insert(e.name, &e);
    }

    /// One result (and read) per archive, forEachArchive() order: what the pass gave it.
    void plan();
    /// Zips the single pass could not hash exactly: each spooled to a temporary file for hashZip().
    Result<void> spool(const BundleProgress &progress);
    /// SHA256SUMS: every line, then the files it does not list.
    void checkSums();
    /// Every archive's verdict, and the summary.
    void decide();

private:
    QString dataSource(const QString &entry) const;
    void planOne(const Provider &p, const ProviderVersion &v, const Archive &a);
    SumsCheck sumsCheck(const ArchiveResult &r) const;
    void complete(qsizetype i);

    BundleContents &m_out;
    const BundlePass &m_pass;
    const EntryDigests &m_digests;
    const QMap<QString, QByteArray> &m_sums;
    const BundleOpenOptions &m_options;
    const QString m_base; ///< `<bundle>!/`
    EntryIndex m_index;
    QList<ArchiveRef> m_refs;                     ///< results order
    QHash<QString, QList<qsizetype>> m_needSpool; ///< entry whose bytes to spool -> indexes in results
    std::unique_ptr<BundleSource> m_anchors;      ///< the anchors completeFromRead() names (decide())
};

/// The file whose bytes an entry has: itself, or for a hard link the file it copies.
QString BundleVerdicts::dataSource(const QString &entry) const
{
    QString at = entry;
    for (int hops = 0; hops < 64; ++hops) {
        const BundleEntry *e = m_index.value(at, nullptr);
        if (!e || e->type != BundleEntry::Type::Hardlink)
            break;
        at = e->linkTarget;
    }
    return at;
}

void BundleVerdicts::plan()
{
    m_out.verified = true;
    forEachArchive(m_out.catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) { planOne(p, v, a); });
    m_out.reads.resize(m_out.results.size());
}

void BundleVerdicts::planOne(const Provider &p, const ProviderVersion &v, const Archive &a)
{
    m_refs.append(ArchiveRef{&p, &v, &a});
    ArchiveResult r = initialResult(p.address, v.version, a);
    if (a.declared)
        r.declared = a.declared->hashes;
    if (!a.present) {
        m_out.results.append(r);
        return;
    }
    const QString entry = a.path.startsWith(m_base) ? a.path.mid(m_base.size()) : QString();
    const BundleEntry *listed = m_index.value(entry, nullptr);
    if (listed && !listed->refused.isEmpty()) {
        r.detail = errorVerdict(QStringLiteral("not hashed: the entry ") + listed->refused);
        r.error = r.detail.reason;
    } else if (a.layout == ArchiveLayout::Packed) {
        const auto z = m_digests.zips.constFind(entry);
        if (z == m_digests.zips.cend()) {
            r.detail = errorVerdict(QStringLiteral("not read: see the bundle's problems"));
            r.error = r.detail.reason;
        } else if (z->status == StreamingZipOutcome::Status::Hashed) {
            r.hashes = z->hashes;
        } else {
            m_needSpool[dataSource(entry)].append(m_out.results.size());
        }
    } else {
        Result<PackageHashes> h = hashUnpacked(entry, m_index, m_digests.files);
        if (h.ok()) {
            r.hashes = h.value();
        } else {
            r.detail = errorVerdict(h.error().message);
            r.error = r.detail.reason;
        }
    }
    m_out.results.append(r);
}

Result<void> BundleVerdicts::spool(const BundleProgress &progress)
{
    if (m_needSpool.isEmpty())
        return {};
    BundleReader again;
    if (Result<void> opened = again.open(m_out.path); !opened.ok())
        return opened.error();
    const FileHandler spoolOne = [&](const BundleEntry &e, const PullBytes &pull, QString *) -> Result<void> {
        const auto it = m_needSpool.constFind(e.name);
        if (it == m_needSpool.cend() || e.type != BundleEntry::Type::File)
            return {};
        QTemporaryFile tmp(QDir::tempPath() + QStringLiteral("/provender-bundle-XXXXXX.zip"));
        if (!tmp.open())
            return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary file: %1").arg(tmp.errorString()));
        if (Result<void> spooled = spoolEntry(pull, tmp); !spooled.ok())
            return spooled.error();
        const Result<PackageHashes> h = hashZip(tmp.fileName());
        // Not a readable zip: the bytes' SHA-256 (the first pass took it) is checked first, as
        // terraform checks a package's checksum before it extracts it (DirectorySource does the same).
        const FileRecord bytes = m_digests.files.value(e.name);
        for (const qsizetype i : it.value()) {
            ArchiveResult &r = m_out.results[i];
            if (h.ok()) {
                r.hashes = h.value();
                continue;
            }
            r.detail = errorVerdict(h.error().message);
            r.error = r.detail.reason;
            if (bytes.read && failedForItsBytes(h.error().code)) {
                m_out.reads[i].hashes = h.error();
                m_out.reads[i].bytesZh = HashString::zh(QString::fromLatin1(bytes.sha256.toHex()));
            }
        }
        return {};
    };
    const BundleProgress spoolProgress = progress
        ? BundleProgress([&](BundleStage, qint64 done, qint64 total) { return progress(BundleStage::Hashing, done, total); })
        : BundleProgress();
    Result<BundlePass> second = runBundlePass(again, m_options.limits, {}, spoolOne, spoolProgress);
    if (!second.ok())
        return second.error();
    return {};
}

void BundleVerdicts::checkSums()
{
    const QString &prefix = m_out.mirrorPrefix;
    QSet<QString> listed;
    m_out.files += checkListedSums(
        m_sums, prefix,
        [this](const QString &entry) -> std::optional<QByteArray> {
            const FileRecord r = m_digests.files.value(entry);
            return r.read ? std::optional<QByteArray>(r.sha256) : std::nullopt;
        },
        &listed);
    if (!m_out.hasSha256Sums)
        return;
    for (const BundleEntry &e : std::as_const(m_pass.entries)) {
        if ((e.type != BundleEntry::Type::File && e.type != BundleEntry::Type::Hardlink) || !e.name.startsWith(prefix)
            || listed.contains(e.name) || e.name == prefix + kBundleSumsName || !m_digests.files.value(e.name).read)
            continue;
        BundleFileCheck f;
        f.status = BundleFileCheck::Status::Unlisted;
        f.name = e.name.mid(prefix.size());
        f.actual = QString::fromLatin1(m_digests.files.value(e.name).sha256.toHex());
        m_out.files.append(f);
    }
}

/// How an archive fared against SHA256SUMS: its line (a zip), or every file's (an unpacked package).
SumsCheck BundleVerdicts::sumsCheck(const ArchiveResult &r) const
{
    const QString entry = r.path.mid(m_base.size());
    const QString &prefix = m_out.mirrorPrefix;
    if (r.layout == ArchiveLayout::Packed) {
        const auto s = m_sums.constFind(entry.mid(prefix.size()));
        if (s == m_sums.cend())
            return SumsCheck::NotListed;
        return QStringLiteral("zh:") + QString::fromLatin1(s->toHex()) == r.hashes->zh.toString() ? SumsCheck::Match : SumsCheck::Mismatch;
    }
    bool all = m_out.hasSha256Sums, bad = false;
    for (const BundleEntry *e : entriesUnder(m_index, entry + QLatin1Char('/'))) {
        if (e->type != BundleEntry::Type::File && e->type != BundleEntry::Type::Hardlink)
            continue;
        const auto s = m_sums.constFind(e->name.mid(prefix.size()));
        if (s == m_sums.cend())
            all = false;
        else if (s.value() != m_digests.files.value(e->name).sha256)
            bad = true;
    }
    return bad ? SumsCheck::Mismatch : all ? SumsCheck::Match : SumsCheck::NotListed;
}

/// completeFromRead() for result `i`, with the lock that covers it (if any); the bundle's
/// SHA256SUMS is a second own anchor.
void BundleVerdicts::complete(qsizetype i)
{
    ArchiveResult &r = m_out.results[i];
    const ProviderVersionKey pv{r.key.provider, r.key.version};
    const auto lock = m_options.expected.constFind(pv);
    const bool covered = lock != m_options.expected.cend();
    completeFromRead(r, ArchiveRead(m_out.reads.at(i)), m_refs.at(i), *m_anchors, covered ? &lock.value() : nullptr,
                     m_options.expectedFrom.value(pv), m_options.lockCoverage && !covered);
}

void BundleVerdicts::decide()
{
    m_anchors = std::make_unique<BundleSource>(m_out.path);
    m_anchors->setMirrorPrefix(m_out.mirrorPrefix);
    m_anchors->setProvenance(m_out.provenance);
    if (!m_options.pinnedKeys.isEmpty())
        m_anchors->setPinnedKeys(m_options.pinnedKeys);
    for (qsizetype i = 0; i < m_out.results.size(); ++i) {
        ArchiveResult &r = m_out.results[i];
        ArchiveRead &read = m_out.reads[i];
        if (r.detail.verdict == Verdict::Missing) {
            read.unavailable = Verdict::Missing;
            read.hashes = makeError(ErrorCode::NotFound, r.detail.reason);
        } else if (r.detail.verdict == Verdict::Error && read.bytesZh) {
            complete(i); // read, but not a readable zip: its checksum first (decideUnreadableArchive)
        } else if (r.detail.verdict == Verdict::Error) {
            read.hashes = makeError(ErrorCode::Io, r.detail.reason);
        } else if (r.detail.verdict == Verdict::Pending && r.hashes) {
            read.hashes = *r.hashes;
            read.checksums = sumsCheck(r);
            complete(i);
        }
        if (r.detail.verdict == Verdict::Error && r.error.isEmpty())
            r.error = r.detail.reason;
        ++m_out.summary.counts[size_t(r.detail.verdict)];
        ++m_out.summary.archives;
        if (r.hashes) {
            ++m_out.summary.hashed;
            m_out.summary.bytesHashed += r.size > 0 ? r.size : 0;
        }
    }
}

} // namespace

Result<BundleContents> openBundle(const QString &path, const BundleOpenOptions &options, const BundleProgress &progress)
{
    BundleContents out;
    out.path = QFileInfo(path).absoluteFilePath();
    BundleReader reader;
    if (Result<void> opened = reader.open(out.path); !opened.ok())
        return opened.error();
    out.fileSize = reader.fileSize();

    // One pass: the entries and the metadata, and with verify every file's bytes hashed on the pool.
    EntryDigests digests;
    Result<BundlePass> passed = [&] {
        EntryHashPool pool(options.jobs);
        const FileHandler onFile = options.verify ? hashingHandler(digests, pool, options.limits.maxEntryBytes) : FileHandler();
        Result<BundlePass> pass = runBundlePass(reader, options.limits, isMetadataName, onFile, progress);
        pool.waitForDone();
        return pass;
    }();
    if (!passed.ok())
        return passed.error();
    digests.resolveLinks();
    const BundlePass &pass = passed.value();
    Result<QMap<QString, QByteArray>> sums = listContents(out, pass);
    if (!sums.ok())
        return sums.error();
    if (!options.verify)
        return out;

    BundleVerdicts verdicts(out, pass, digests, sums.value(), options);
    verdicts.plan();
    if (Result<void> spooled = verdicts.spool(progress); !spooled.ok())
        return spooled.error();
    verdicts.checkSums();
    verdicts.decide();
    qCDebug(lcMirror) << "verified bundle" << out.path << out.results.size() << "archives";
    return out;
}

Result<BundleContents> verifyBundle(const QString &path, const BundleLimits &limits, const BundleProgress &progress)
{
    BundleOpenOptions options;
    options.limits = limits;
    options.verify = true;
    return openBundle(path, options, progress);
}

} // namespace provender
