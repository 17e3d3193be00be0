#include "model/bundle/BundleImport.h"

#include "model/bundle/BundleArchive.h"
#include "model/bundle/BundleImportInternal.h"
#include "model/bundle/BundleMirrorInternal.h"
#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "model/registry/ReleaseProvenanceStore.h"
#include "model/verify/HashEngine.h"
#include "model/verify/VerifyEngine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSet>
#include <QTemporaryDir>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace provender {

using namespace bundle_detail;

QString toString(ImportAction::Kind kind)
{
    switch (kind) {
    case ImportAction::Kind::Add: return QStringLiteral("add");
    case ImportAction::Kind::Unchanged: return QStringLiteral("unchanged");
    case ImportAction::Kind::Replace: return QStringLiteral("replace");
    case ImportAction::Kind::Conflict: return QStringLiteral("conflict");
    case ImportAction::Kind::Rejected: return QStringLiteral("rejected");
    case ImportAction::Kind::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

int ImportReport::count(ImportAction::Kind kind) const
{
    return int(std::count_if(actions.cbegin(), actions.cend(), [kind](const ImportAction &a) { return a.kind == kind; }));
}

bool ImportReport::blocked() const
{
    if (count(ImportAction::Kind::Conflict) > 0 || count(ImportAction::Kind::Rejected) > 0)
        return true;
    for (const BundleEntryProblem &p : problems)
        if (p.isFatal())
            return true;
    for (const BundleFileCheck &f : files)
        if (f.status != BundleFileCheck::Status::Ok)
            return true;
    return false;
}

namespace bundle_detail {

Result<void> ImportTransaction::open()
{
    const QFileInfo targetInfo(m_target);
    if (!targetInfo.exists()) {
        if (!QFileInfo(targetInfo.path()).isDir())
            return makeError(ErrorCode::NotFound, QStringLiteral("%1: no such directory (nor its parent)").arg(m_target));
        if (!m_options.dryRun && !QDir().mkdir(m_target))
            return makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(m_target));
    } else if (!targetInfo.isDir()) {
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: not a directory").arg(m_target));
    }
    m_targetExists = QFileInfo(m_target).isDir();
    // A dry run stages in the target when it can (same file system, same free space), else in a
    // temporary directory: it never needs to write to the target.
    const bool stageInTarget = m_targetExists && (!m_options.dryRun || QFileInfo(m_target).isWritable());
    const QString work = m_target + QLatin1Char('/') + kImportWorkDirName;
    if (m_options.dryRun && QFile::exists(work + QLatin1Char('/') + kJournalName)) {
        // A journal: an import running now (it holds the lock), or one that was interrupted.
        WorkArea probe(m_target);
        if (Result<void> r = probe.acquire(); !r.ok())
            return r.error();
        probe.keep();
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1 holds an interrupted import; recover it first (provender bundle recover %1)").arg(m_target));
    }
    if (!m_options.dryRun) {
        Result<QString> recovered = recoverInterruptedImport(m_target);
        if (!recovered.ok())
            return recovered.error();
        m_report.recovery = recovered.value();
    }
    if (!stageInTarget) {
        m_dryStaging.emplace();
        if (!m_dryStaging->isValid())
            return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary directory: %1").arg(m_dryStaging->errorString()));
    }
    m_area.emplace(stageInTarget ? m_target : m_dryStaging->path());
    if (Result<void> r = m_area->acquire(); !r.ok())
        return r.error();
    m_id = QString::number(QRandomGenerator::global()->generate64(), 36);
    m_stage = m_area->path() + QLatin1Char('/') + m_id;
    m_extractRoot = m_stage + QStringLiteral("/bundle");
    if (!QDir().mkpath(m_extractRoot))
        return makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(m_extractRoot));

    // Free space, asked again before every file and every 64 MiB written (others write too): an
    // import never takes the file system below options.minFreeBytes.
    m_reserve = qMax<qint64>(0, m_options.minFreeBytes);
    m_limits = m_options.limits;
    if (m_limits.maxTotalBytes <= 0) {
        const qint64 automatic = automaticTotalBytes(QFileInfo(m_report.bundle).size());
        if (const qint64 free = freeBytes(); free >= 0 && free - m_reserve < automatic)
            m_limits.maxTotalBytes = qMax<qint64>(1, free - m_reserve);
    }

    return {};
}

qint64 ImportTransaction::freeBytes() const
{
    struct statvfs vfs;
    if (::statvfs(encode(m_area->path()).constData(), &vfs) != 0)
        return -1;
    return qint64(vfs.f_bavail) * qint64(vfs.f_frsize);
}

QString ImportTransaction::noSpace(qint64 free, qint64 needed) const
{
    return QStringLiteral("needs %1 more bytes on %2, which has %3 free and keeps %4 free for everything else; "
                          "nothing was imported (free some space, or import elsewhere)")
        .arg(needed)
        .arg(m_target)
        .arg(free)
        .arg(m_reserve);
}

Result<bool> ImportTransaction::read()
{
    if (Result<void> opened = m_reader.open(m_report.bundle); !opened.ok())
        return opened.error();
    const FileHandler onFile = [this](const BundleEntry &e, const PullBytes &pull, QString *refused) {
        return stageEntry(e, pull, refused);
    };
    Result<BundlePass> passed = runBundlePass(m_reader, m_limits, isMetadataName, onFile, m_progress, /*stopAtFatal=*/true);
    if (!passed.ok())
        return passed.error();
    m_pass = std::move(passed).value();
    // A symbolic link inside the mirror tree (where files are staged) cannot be imported
    // faithfully: an import never creates links. Refused rather than silently left out.
    for (BundleEntryProblem &p : m_pass.problems) {
        if (p.kind != BundleEntryProblem::Kind::Link)
            continue;
        for (const BundleEntry &e : std::as_const(m_pass.entries)) {
            if (e.type == BundleEntry::Type::Symlink && displayEntryName(e.rawName) == p.entry && e.name.count(QLatin1Char('/')) >= 3) {
                p.kind = BundleEntryProblem::Kind::Unsupported;
                p.message = QStringLiteral("a symbolic link (to %1) inside the mirror tree: an import never creates links, so it "
                                           "cannot import this bundle faithfully")
                                .arg(e.linkTarget);
                break;
            }
        }
    }
    m_report.problems = m_pass.problems;
    for (const BundleEntryProblem &p : m_pass.problems) {
        if (p.isFatal()) {
            m_report.refusal = QStringLiteral("the bundle has an entry that is refused: %1: %2").arg(p.entry, p.message);
            return false;
        }
    }

    return true;
}

Result<void> ImportTransaction::stageEntry(const BundleEntry &e, const PullBytes &pull, QString *refused)
{
    // Anything at the layout's depth (HOST/NS/TYPE/x, possibly under one folder) is staged.
    const bool stageIt = e.name.count(QLatin1Char('/')) >= 3;
    int fd = -1;
    const QString path = m_extractRoot + QLatin1Char('/') + e.name;
    if (e.type == BundleEntry::Type::Hardlink) {
        // A second name of an earlier file: a hard link to its staged copy (a copy where links
        // fail), the same digest.
        m_sha.insert(e.name, m_sha.value(e.linkTarget));
        if (!stageIt)
            return {};
        if (!m_staged.contains(e.linkTarget))
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("%1 is a hard link to %2, which lies outside the bundle's mirror tree: "
                                            "such a bundle cannot be imported")
                                 .arg(displayEntryName(e.name), displayEntryName(e.linkTarget)));
        const QString from = m_extractRoot + QLatin1Char('/') + e.linkTarget;
        if (!QDir().mkpath(QFileInfo(path).path()))
            return makeError(ErrorCode::Io, QStringLiteral("cannot create a directory for %1 in the staging area").arg(e.name));
        if (::link(encode(from).constData(), encode(path).constData()) != 0) {
            if (const qint64 free = freeBytes(); free >= 0 && e.size > free - m_reserve) {
                *refused = noSpace(free, e.size);
                return {};
            }
            if (!copyFile(from, path, (e.mode & 0100) ? 0755 : 0644))
                return ioError(QStringLiteral("cannot copy %1 to %2 in the staging area").arg(from, path));
            m_report.bytesStaged += e.size;
        }
        m_staged.insert(e.name);
        return {};
    }
    if (stageIt && e.sizeKnown) {
        if (const qint64 free = freeBytes(); free >= 0 && e.size > free - m_reserve) {
            *refused = noSpace(free, e.size);
            return {};
        }
    }
    if (stageIt) {
        if (!QDir().mkpath(QFileInfo(path).path()))
            return makeError(ErrorCode::Io, QStringLiteral("cannot create a directory for %1 in the staging area").arg(e.name));
        // O_EXCL | O_NOFOLLOW: names are checked and unique and no link is ever created
        // here, so this only guards the guard.
        fd = ::open(encode(path).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (e.mode & 0100) ? 0755 : 0644);
        if (fd < 0)
            return ioError(QStringLiteral("cannot create %1").arg(path));
    }
    Sha256 digest;
    Result<void> status;
    qint64 written = 0;
    qint64 sinceCheck = 0;
    for (;;) {
        if (!refused->isEmpty())
            break;
        Result<QByteArrayView> block = pull();
        if (!block.ok()) {
            status = block.error();
            break;
        }
        if (block->isEmpty())
            break;
        digest.addData(block->data(), std::size_t(block->size()));
        if (fd >= 0) {
            const char *p = block->data();
            qsizetype left = block->size();
            while (left > 0) {
                const ssize_t n = ::write(fd, p, size_t(left));
                if (n < 0) {
                    if (errno == EINTR)
                        continue;
                    status = ioError(QStringLiteral("cannot write %1").arg(path));
                    break;
                }
                p += n;
                left -= n;
            }
            if (!status.ok())
                break;
            m_report.bytesStaged += block->size();
            written += block->size();
            sinceCheck += block->size();
            if (sinceCheck >= (qint64(64) << 20)) {
                sinceCheck = 0;
                const qint64 free = freeBytes();
                const qint64 left = e.sizeKnown ? qMax<qint64>(0, e.size - written) : 0;
                if (free >= 0 && free - m_reserve < left) {
                    *refused = noSpace(free, qMax<qint64>(left, 1));
                    break;
                }
            }
        }
    }
    if (fd >= 0) {
        if (status.ok() && refused->isEmpty() && ::fsync(fd) != 0)
            status = ioError(QStringLiteral("cannot write %1").arg(path));
        ::close(fd);
        if (!status.ok() || !refused->isEmpty())
            QFile::remove(path);
    }
    if (!status.ok() || !refused->isEmpty())
        return status;
    if (fd >= 0)
        m_staged.insert(e.name);
    m_sha.insert(e.name, digest.result());
    if (stageIt && !m_paused) {
        m_paused = true;
        testPause("staging");
    }
    return {};
}

Result<bool> ImportTransaction::verify()
{
    m_prefix = choosePrefix(m_pass.entries);
    m_stagedRoot = m_prefix.isEmpty() ? m_extractRoot : m_extractRoot + QLatin1Char('/') + m_prefix.chopped(1);
    m_entryBase = m_report.bundle + kBundleEntrySeparator + m_prefix;
    if (const auto it = m_pass.metadata.constFind(m_prefix + kBundleSumsName); it != m_pass.metadata.cend()) {
        Result<QMap<QString, QByteArray>> parsed = parseSha256Sums(it.value());
        if (!parsed.ok()) {
            m_report.refusal = QStringLiteral("its SHA256SUMS cannot be read: %1").arg(parsed.error().toString());
            return false;
        }
        m_sums = parsed.value();
        m_hasSums = true;
    }
    QSet<QString> listed;
    m_report.files += checkListedSums(
        m_sums, m_prefix,
        [this](const QString &entry) -> std::optional<QByteArray> {
            const auto actual = m_sha.constFind(entry);
            return actual == m_sha.cend() ? std::nullopt : std::optional<QByteArray>(actual.value());
        },
        &listed);
    if (m_hasSums) {
        for (const BundleEntry &e : m_pass.entries) {
            if (e.type == BundleEntry::Type::File && e.name.startsWith(m_prefix) && !listed.contains(e.name)
                && e.name != m_prefix + kBundleSumsName)
                m_report.files.append(BundleFileCheck{BundleFileCheck::Status::Unlisted, e.name.mid(m_prefix.size()), QString(),
                                                      QString::fromLatin1(m_sha.value(e.name).toHex())});
        }
    }

    if (QFileInfo(m_stagedRoot).isDir()) {
        Result<Catalog> scanned = scanFileSystemMirror(m_stagedRoot);
        if (!scanned.ok())
            return scanned.error();
        m_bundleCatalog = std::move(scanned).value();
    }
    for (Anomaly a : m_bundleCatalog.anomalies) {
        if (a.path.startsWith(m_stagedRoot))
            a.path = m_report.bundle + kBundleEntrySeparator + entryOf(a.path);
        a.message.replace(m_stagedRoot + QLatin1Char('/'), m_entryBase);
        a.location.file.replace(m_stagedRoot + QLatin1Char('/'), m_entryBase);
        m_report.anomalies.append(a);
    }

    VerifyOptions verifyOptions;
    verifyOptions.jobs = m_options.jobs;
    verifyOptions.useCache = false;
    const Result<VerifyReport> verified = verifyForBundle(m_bundleCatalog, verifyOptions, m_progress);
    if (!verified.ok())
        return verified.error();
    // The proof of releases the bundle carries, staged with the rest: checked here (offline), named
    // by its bundle entry.
    m_provenance = ReleaseProvenanceStore::forDirectory(m_stagedRoot, SignatureOptions{m_options.pinnedKeys}, m_entryBase);
    QMap<QString, QByteArray> shaByName; // sorted: the files of a package are one range
    for (auto it = m_sha.cbegin(); it != m_sha.cend(); ++it)
        shaByName.insert(it.key(), it.value());
    for (ArchiveResult r : verified->results) {
        const QString entry = entryOf(r.path);
        const QString rel = entry.mid(m_prefix.size());
        if (r.hashes && r.detail.verdict != Verdict::Error && r.detail.verdict != Verdict::Missing) {
            SumsCheck check = SumsCheck::NotListed;
            if (r.layout == ArchiveLayout::Packed) {
                if (const auto s = m_sums.constFind(rel); s != m_sums.cend())
                    check = QStringLiteral("zh:") + QString::fromLatin1(s->toHex()) == r.hashes->zh.toString() ? SumsCheck::Match
                                                                                                               : SumsCheck::Mismatch;
            } else {
                bool all = m_hasSums, bad = false;
                const QString under = entry + QLatin1Char('/');
                for (auto it = shaByName.lowerBound(under); it != shaByName.cend() && it.key().startsWith(under); ++it) {
                    const auto s = m_sums.constFind(it.key().mid(m_prefix.size()));
                    if (s == m_sums.cend())
                        all = false;
                    else if (s.value() != it.value())
                        bad = true;
                }
                check = bad ? SumsCheck::Mismatch : all ? SumsCheck::Match : SumsCheck::NotListed;
            }
            const ProviderVersionKey pv{r.key.provider, r.key.version};
            const auto lock = m_options.expected.constFind(pv);
            const bool covered = lock != m_options.expected.cend();
            r.detail = decideBundleArchive(
                *r.hashes, r.key.provider.type(), r.declared, TrustAnchor{TrustAnchor::Kind::OwnIndex, m_report.bundle}, check,
                TrustAnchor{TrustAnchor::Kind::OwnChecksums, m_report.bundle + kBundleEntrySeparator + m_prefix + kBundleSumsName},
                covered ? &lock.value() : nullptr, TrustAnchor{TrustAnchor::Kind::LockFile, m_options.expectedFrom.value(pv)});
            if (const SignedRelease *release = m_provenance->release(r.key.provider, r.key.version))
                applySignedRelease(r.detail, *r.hashes, r.key.provider.type(), r.key.version, r.key.platform, *release);
            r.detail.notCoveredByLock = m_options.lockCoverage && !covered;
        }
        m_resultByPath.insert(r.path, r);
    }

    return true;
}

QString ImportTransaction::entryOf(const QString &stagedPath) const
{
    return stagedPath.startsWith(m_stagedRoot + QLatin1Char('/')) ? m_prefix + stagedPath.mid(m_stagedRoot.size() + 1) : stagedPath;
}

Result<bool> ImportTransaction::plan()
{
    if (m_targetExists) {
        Result<Catalog> scanned = scanFileSystemMirror(m_target);
        if (!scanned.ok())
            return scanned.error();
        m_targetCatalog = std::move(scanned).value();
    }
    if (Result<void> hashed = hashTargetArchives(); !hashed.ok())
        return hashed.error();
    for (const Provider &p : m_bundleCatalog.providers) {
        const Provider *existingProvider = nullptr;
        for (const Provider &tp : m_targetCatalog.providers)
            if (tp.address == p.address)
                existingProvider = &tp;
        for (const ProviderVersion &v : p.versions) {
            for (const Archive &a : v.archives)
                planArchive(p, existingProvider, v, a, false);
            for (const Archive &a : v.duplicates)
                planArchive(p, existingProvider, v, a, true);
        }
    }
    if (m_report.blocked()) {
        QStringList why;
        for (const ImportAction &a : std::as_const(m_report.actions))
            if (a.kind == ImportAction::Kind::Conflict || a.kind == ImportAction::Kind::Rejected)
                why.append(QStringLiteral("%1: %2").arg(a.entry, a.reason));
        for (const BundleFileCheck &f : std::as_const(m_report.files))
            if (f.status != BundleFileCheck::Status::Ok)
                why.append(QStringLiteral("%1: %2 in SHA256SUMS").arg(f.name, toString(f.status)));
        m_report.refusal = QStringLiteral("nothing was imported: ") + why.join(QStringLiteral("; "));
        return false;
    }
    return !m_options.dryRun && !m_moves.isEmpty();
}

Result<void> ImportTransaction::stage()
{
    QSet<QString> unitPaths;
    m_newRoot = m_stage + QStringLiteral("/new");
    QDir().mkpath(m_newRoot);
    for (const Move &m : std::as_const(m_moves)) {
        if (QFileInfo(m_target + QLatin1Char('/') + m.to.providerDir).isDir()) {
            if (unitPaths.contains(m.to.providerDir))
                continue;
            unitPaths.insert(m.to.providerDir);
            if (Result<void> r = addReplaceUnit(m.to.providerDir); !r.ok())
                return r.error();
            continue;
        }
        // The highest missing directory of HOST, HOST/NS, HOST/NS/TYPE is staged whole.
        const QString missing = highestMissing(m.to.providerDir);
        if (QFileInfo::exists(m_target + QLatin1Char('/') + missing) && !QFileInfo(m_target + QLatin1Char('/') + missing).isDir())
            return makeError(ErrorCode::Io, QStringLiteral("%1/%2 is not a directory").arg(m_target, missing));
        if (unitPaths.contains(missing))
            continue;
        unitPaths.insert(missing);
        addCreateUnit(missing);
        QDir().mkpath(m_newRoot + QLatin1Char('/') + missing);
    }
    for (const Move &m : std::as_const(m_moves)) {
        const QString to = m_newRoot + QLatin1Char('/') + m.to.rel;
        QDir().mkpath(QFileInfo(to).path());
        if (m.replace && exists(to)) {
            if (QFileInfo(to).isDir() && !QFileInfo(to).isSymLink())
                QDir(to).removeRecursively(); // our hard-linked copy; the mirror's files keep their other name
            else
                QFile::remove(to);
        }
        if (::rename(encode(m.from).constData(), encode(to).constData()) != 0)
            return ioError(QStringLiteral("cannot move %1 into the staged copy").arg(m.from));
    }
    if (Result<void> r = stageProvenance(unitPaths); !r.ok())
        return r.error();
    // Indexes, regenerated from what each staged directory holds.
    IndexExportOptions indexOptions;
    indexOptions.withZh = m_options.withZh;
    indexOptions.jobs = m_options.jobs;
    indexOptions.useCache = false; // staged paths, gone after the import: rows for them would only be litter
    Result<IndexExportReport> indexed = exportIndexes(
        m_newRoot, indexOptions, [&](qint64 done, qint64 total) { return !m_progress || m_progress(BundleStage::Hashing, done, total); });
    if (!indexed.ok())
        return indexed.error();
    for (const IndexFileResult &f : indexed->files)
        if (f.status != IndexFileResult::Status::Unchanged)
            m_report.indexFiles.append(m_target + f.path.mid(m_newRoot.size()));
    testPause("staged");

    return {};
}

Result<void> ImportTransaction::addReplaceUnit(const QString &path)
{
    Unit u;
    u.kind = Unit::Kind::Replace;
    u.path = path;
    u.staged = QString(kImportWorkDirName) + u'/' + m_id + QStringLiteral("/new/") + u.path;
    u.backup = QString(kImportWorkDirName) + u'/' + m_id + QStringLiteral("/old/") + QString::number(m_units.size());
    QDir().mkpath(QFileInfo(m_newRoot + QLatin1Char('/') + u.path).path());
    if (Result<void> r = cloneTree(m_target + QLatin1Char('/') + u.path, m_newRoot + QLatin1Char('/') + u.path); !r.ok())
        return r.error();
    m_units.append(u);
    return {};
}

void ImportTransaction::addCreateUnit(const QString &path)
{
    Unit u;
    u.kind = Unit::Kind::Create;
    u.path = path;
    u.staged = QString(kImportWorkDirName) + u'/' + m_id + QStringLiteral("/new/") + u.path;
    m_units.append(u);
}

QString ImportTransaction::highestMissing(const QString &dir) const
{
    for (const QString &parent : parentsOf(dir + QLatin1Char('/')))
        if (!QFileInfo(m_target + QLatin1Char('/') + parent).exists())
            return parent;
    return dir;
}

Result<void> ImportTransaction::stageProvenance(QSet<QString> &unitPaths)
{
    QSet<QString> releases;
    for (const ImportAction &a : std::as_const(m_report.actions)) {
        if (a.kind == ImportAction::Kind::Rejected || a.kind == ImportAction::Kind::Conflict || a.kind == ImportAction::Kind::Skipped)
            continue;
        const SignedRelease *release = m_provenance->release(a.key.provider, a.key.version);
        if (release && release->valid) // only a proof that holds goes into the target
            releases.insert(provenanceRelativeDirectory(a.key.provider, a.key.version));
    }
    for (const QString &dir : std::as_const(releases)) {
        const QString typeDir = dir.section(QLatin1Char('/'), 0, -2); // .provenance/HOST/NS/TYPE
        if (!unitPaths.contains(typeDir)) {
            if (QFileInfo(m_target + QLatin1Char('/') + typeDir).isDir()) {
                unitPaths.insert(typeDir);
                if (Result<void> r = addReplaceUnit(typeDir); !r.ok())
                    return r.error();
            } else {
                // The highest missing directory of .provenance, …/HOST, …/NS, …/TYPE is staged whole.
                const QString missing = highestMissing(typeDir);
                if (exists(m_target + QLatin1Char('/') + missing) && !QFileInfo(m_target + QLatin1Char('/') + missing).isDir())
                    return makeError(ErrorCode::Io, QStringLiteral("%1/%2 is not a directory").arg(m_target, missing));
                if (!unitPaths.contains(missing)) {
                    unitPaths.insert(missing);
                    addCreateUnit(missing);
                }
                unitPaths.insert(typeDir);
            }
        }
        // The release's folder: exactly the three files of the bundle (a clone's old copy goes; its
        // files are links, the mirror's own keep their name until the swap).
        const QString to = m_newRoot + QLatin1Char('/') + dir;
        if (exists(to))
            QDir(to).removeRecursively();
        if (!QDir().mkpath(to))
            return makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(to));
        for (const QString &name : provenanceFileNames()) {
            const QString from = m_stagedRoot + QLatin1Char('/') + dir + QLatin1Char('/') + name;
            if (::rename(encode(from).constData(), encode(to + QLatin1Char('/') + name).constData()) != 0)
                return ioError(QStringLiteral("cannot move %1 into the staged copy").arg(from));
        }
    }
    return {};
}

Result<void> ImportTransaction::commit()
{
    for (Unit &u : m_units) {
        u.newInode = inodeOf(m_target + QLatin1Char('/') + u.staged);
        if (u.kind == Unit::Kind::Replace)
            u.oldInode = inodeOf(m_target + QLatin1Char('/') + u.path);
    }
    QDir().mkpath(m_stage + QStringLiteral("/old"));
    {
        const int fd = ::open(encode(m_target).constData(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::syncfs(fd); // every staged byte is on disk before the journal says "prepared"
            ::close(fd);
        }
    }
    if (m_progress && !m_progress(BundleStage::Committing, 0, m_units.size()))
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    m_journalPath = m_area->path() + QLatin1Char('/') + kJournalName;
    if (Result<void> r = writeJournal(m_journalPath, journalJson(m_id, QStringLiteral("prepared"), m_units)); !r.ok())
        return r.error();
    testPause("prepared");

    for (qsizetype i = 0; i < m_units.size(); ++i) {
        const Unit &u = m_units.at(i);
        const QString path = m_target + QLatin1Char('/') + u.path;
        const QString staged = m_target + QLatin1Char('/') + u.staged;
        if (u.kind == Unit::Kind::Create) {
            if (!renameNoReplace(staged, path))
                return recover(ioError(QStringLiteral("cannot move %1 into place").arg(path)));
        } else if (!exchange(path, staged)) {
            if (errno != EINVAL && errno != ENOSYS)
                return recover(ioError(QStringLiteral("cannot swap %1 with its new copy").arg(path)));
            const QString backup = m_target + QLatin1Char('/') + u.backup;
            if (::rename(encode(path).constData(), encode(backup).constData()) != 0)
                return recover(ioError(QStringLiteral("cannot move %1 aside").arg(path)));
            if (::rename(encode(staged).constData(), encode(path).constData()) != 0)
                return recover(ioError(QStringLiteral("cannot move the new copy of %1 into place").arg(path)));
        }
        fsyncPath(QFileInfo(path).path());
        if (i == 0)
            testPause("swapped");
        if (m_progress)
            m_progress(BundleStage::Committing, i + 1, m_units.size());
    }
    if (Result<void> r = writeJournal(m_journalPath, journalJson(m_id, QStringLiteral("committed"), m_units)); !r.ok())
        return recover(r.error());
    m_report.committed = true;
    testPause("committed");
    // Old copies and staging go with the work area; the journal last.
    QDir(m_stage).removeRecursively();
    QFile::remove(m_journalPath);
    m_area->release();
    fsyncPath(m_target);
    qCDebug(lcMirror) << "imported" << m_report.bundle << "into" << m_target << m_moves.size() << "archives," << m_units.size()
                      << "directories swapped";
    return {};
}

Error ImportTransaction::recover(const Error &e)
{
    Result<QString> rolled = recoverLocked(m_target, m_area->path());
    if (!rolled.ok()) {
        m_area->keep();
        return makeError(ErrorCode::Io,
                         e.message + QStringLiteral("; rolling back failed too: ") + rolled.error().message
                             + QStringLiteral(" (the journal in %1 is kept)").arg(m_area->path()));
    }
    return e;
}

} // namespace bundle_detail

Result<ImportReport> importBundle(const QString &bundlePath, const QString &targetDir, const ImportOptions &options,
                                  const BundleProgress &progress)
{
    return ImportTransaction(bundlePath, targetDir, options, progress).run();
}

} // namespace provender
