#include "model/bundle/BundleMirror.h"

#include "model/bundle/BundleArchive.h"
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

} // namespace

Result<BundleContents> openBundle(const QString &path, const BundleOpenOptions &options, const BundleProgress &progress)
{
    BundleContents out;
    out.path = QFileInfo(path).absoluteFilePath();
    BundleReader reader;
    if (Result<void> opened = reader.open(out.path); !opened.ok())
        return opened.error();
    out.fileSize = reader.fileSize();

    QHash<QString, FileRecord> files;
    QHash<QString, StreamingZipOutcome> zips;
    FileHandler onFile;
    if (options.verify) {
        onFile = [&](const BundleEntry &e, const PullBytes &pull, QString *) -> Result<void> {
            FileRecord record;
            if (e.type == BundleEntry::Type::Hardlink) {
                // A second name of an earlier file: the same bytes, so the same digests.
                files.insert(e.name, files.value(e.linkTarget));
                if (const auto z = zips.constFind(e.linkTarget); z != zips.cend())
                    zips.insert(e.name, z.value());
                return {};
            }
            if (e.name.endsWith(QLatin1StringView(".zip"), Qt::CaseInsensitive)) {
                Result<StreamingZipOutcome> z = hashZipStream(pull, options.limits.maxEntryBytes);
                if (!z.ok())
                    return z.error();
                record.sha256 = z->sha256;
                zips.insert(e.name, std::move(z).value());
            } else {
                Sha256 sha;
                for (;;) {
                    Result<QByteArrayView> block = pull();
                    if (!block.ok())
                        return block.error();
                    if (block->isEmpty())
                        break;
                    sha.addData(block->data(), std::size_t(block->size()));
                }
                record.sha256 = sha.result();
            }
            record.read = true;
            files.insert(e.name, record);
            return {};
        };
    }
    Result<BundlePass> passed = runBundlePass(reader, options.limits, isMetadataName, onFile, progress);
    if (!passed.ok())
        return passed.error();
    BundlePass &pass = passed.value();
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
    if (!options.verify)
        return out;

    // --- verdicts
    out.verified = true;
    EntryIndex index;
    for (const BundleEntry &e : std::as_const(pass.entries))
        index.insert(e.name, &e);
    const QString base = out.path + kBundleEntrySeparator;
    // The file whose bytes an entry has: itself, or for a hard link the file it copies.
    auto dataSource = [&](const QString &entry) {
        QString at = entry;
        for (int hops = 0; hops < 64; ++hops) {
            const BundleEntry *e = index.value(at, nullptr);
            if (!e || e->type != BundleEntry::Type::Hardlink)
                break;
            at = e->linkTarget;
        }
        return at;
    };
    QHash<QString, QList<qsizetype>> needSpool; // entry whose bytes to spool -> indexes in results
    QList<ArchiveRef> refs;                     // results order
    forEachArchive(out.catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
        refs.append(ArchiveRef{&p, &v, &a});
        ArchiveResult r = initialResult(p.address, v.version, a);
        if (a.declared)
            r.declared = a.declared->hashes;
        if (!a.present) {
            out.results.append(r);
            return;
        }
        const QString entry = a.path.startsWith(base) ? a.path.mid(base.size()) : QString();
        const BundleEntry *listed = index.value(entry, nullptr);
        if (listed && !listed->refused.isEmpty()) {
            r.detail = errorVerdict(QStringLiteral("not hashed: the entry ") + listed->refused);
            r.error = r.detail.reason;
        } else if (a.layout == ArchiveLayout::Packed) {
            const auto z = zips.constFind(entry);
            if (z == zips.cend()) {
                r.detail = errorVerdict(QStringLiteral("not read: see the bundle's problems"));
                r.error = r.detail.reason;
            } else if (z->status == StreamingZipOutcome::Status::Hashed) {
                r.hashes = z->hashes;
            } else {
                needSpool[dataSource(entry)].append(out.results.size());
            }
        } else {
            Result<PackageHashes> h = hashUnpacked(entry, index, files);
            if (h.ok()) {
                r.hashes = h.value();
            } else {
                r.detail = errorVerdict(h.error().message);
                r.error = r.detail.reason;
            }
        }
        out.results.append(r);
    });

    // Zips the single pass could not hash exactly: spool each to a temporary file for hashZip().
    if (!needSpool.isEmpty()) {
        BundleReader again;
        if (Result<void> opened = again.open(out.path); !opened.ok())
            return opened.error();
        BundleLimits limits = options.limits;
        const FileHandler spool = [&](const BundleEntry &e, const PullBytes &pull, QString *) -> Result<void> {
            const auto it = needSpool.constFind(e.name);
            if (it == needSpool.cend() || e.type != BundleEntry::Type::File)
                return {};
            QTemporaryFile tmp(QDir::tempPath() + QStringLiteral("/provender-bundle-XXXXXX.zip"));
            if (!tmp.open())
                return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary file: %1").arg(tmp.errorString()));
            for (;;) {
                Result<QByteArrayView> block = pull();
                if (!block.ok())
                    return block.error();
                if (block->isEmpty())
                    break;
                if (tmp.write(block->data(), block->size()) != block->size())
                    return makeError(ErrorCode::Io, QStringLiteral("cannot write %1: %2").arg(tmp.fileName(), tmp.errorString()));
            }
            tmp.flush();
            const Result<PackageHashes> h = hashZip(tmp.fileName());
            for (const qsizetype i : it.value()) {
                ArchiveResult &r = out.results[i];
                if (h.ok()) {
                    r.hashes = h.value();
                } else {
                    r.detail = errorVerdict(h.error().message);
                    r.error = r.detail.reason;
                }
            }
            return {};
        };
        const BundleProgress spoolProgress = progress
            ? BundleProgress([&](BundleStage, qint64 done, qint64 total) { return progress(BundleStage::Hashing, done, total); })
            : BundleProgress();
        Result<BundlePass> second = runBundlePass(again, limits, {}, spool, spoolProgress);
        if (!second.ok())
            return second.error();
    }

    // SHA256SUMS: every line, then the files it does not list.
    const QString prefix = out.mirrorPrefix;
    QSet<QString> listed;
    for (auto it = sums.cbegin(); it != sums.cend(); ++it) {
        BundleFileCheck f;
        f.name = it.key();
        f.expected = QString::fromLatin1(it.value().toHex());
        listed.insert(prefix + it.key());
        const FileRecord r = files.value(prefix + it.key());
        if (!r.read) {
            f.status = BundleFileCheck::Status::Missing;
        } else {
            f.actual = QString::fromLatin1(r.sha256.toHex());
            f.status = r.sha256 == it.value() ? BundleFileCheck::Status::Ok : BundleFileCheck::Status::Mismatch;
        }
        out.files.append(f);
    }
    if (out.hasSha256Sums) {
        for (const BundleEntry &e : std::as_const(pass.entries)) {
            if ((e.type != BundleEntry::Type::File && e.type != BundleEntry::Type::Hardlink) || !e.name.startsWith(prefix)
                || listed.contains(e.name) || e.name == prefix + kBundleSumsName || !files.value(e.name).read)
                continue;
            BundleFileCheck f;
            f.status = BundleFileCheck::Status::Unlisted;
            f.name = e.name.mid(prefix.size());
            f.actual = QString::fromLatin1(files.value(e.name).sha256.toHex());
            out.files.append(f);
        }
    }

    // What reading each archive gave, then its verdict by the engine's rules (completeFromRead),
    // the bundle's SHA256SUMS as a second own anchor.
    BundleSource anchors(out.path);
    anchors.setMirrorPrefix(out.mirrorPrefix);
    anchors.setProvenance(out.provenance);
    if (!options.pinnedKeys.isEmpty())
        anchors.setPinnedKeys(options.pinnedKeys);
    out.reads.resize(out.results.size());
    for (qsizetype i = 0; i < out.results.size(); ++i) {
        ArchiveResult &r = out.results[i];
        ArchiveRead &read = out.reads[i];
        if (r.detail.verdict == Verdict::Missing) {
            read.unavailable = Verdict::Missing;
            read.hashes = makeError(ErrorCode::NotFound, r.detail.reason);
        } else if (r.detail.verdict == Verdict::Error) {
            read.hashes = makeError(ErrorCode::Io, r.detail.reason);
        } else if (r.detail.verdict == Verdict::Pending && r.hashes) {
            const QString entry = r.path.mid(base.size());
            const QString rel = entry.mid(prefix.size());
            SumsCheck check = SumsCheck::NotListed;
            if (r.layout == ArchiveLayout::Packed) {
                if (const auto s = sums.constFind(rel); s != sums.cend())
                    check = QStringLiteral("zh:") + QString::fromLatin1(s->toHex()) == r.hashes->zh.toString() ? SumsCheck::Match
                                                                                                               : SumsCheck::Mismatch;
            } else {
                // SHA256SUMS lists each file of an unpacked package.
                bool all = out.hasSha256Sums, bad = false;
                for (const BundleEntry *e : entriesUnder(index, entry + QLatin1Char('/'))) {
                    if (e->type != BundleEntry::Type::File && e->type != BundleEntry::Type::Hardlink)
                        continue;
                    const auto s = sums.constFind(e->name.mid(prefix.size()));
                    if (s == sums.cend())
                        all = false;
                    else if (s.value() != files.value(e->name).sha256)
                        bad = true;
                }
                check = bad ? SumsCheck::Mismatch : all ? SumsCheck::Match : SumsCheck::NotListed;
            }
            read.hashes = *r.hashes;
            read.checksums = check;
            const ProviderVersionKey pv{r.key.provider, r.key.version};
            const auto lock = options.expected.constFind(pv);
            const bool covered = lock != options.expected.cend();
            completeFromRead(r, ArchiveRead(read), refs.at(i), anchors, covered ? &lock.value() : nullptr, options.expectedFrom.value(pv),
                             options.lockCoverage && !covered);
        }
        if (r.detail.verdict == Verdict::Error && r.error.isEmpty())
            r.error = r.detail.reason;
        ++out.summary.counts[size_t(r.detail.verdict)];
        ++out.summary.archives;
        if (r.hashes) {
            ++out.summary.hashed;
            out.summary.bytesHashed += r.size > 0 ? r.size : 0;
        }
    }
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
