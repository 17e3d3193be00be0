#include "model/bundle/BundleImport.h"

#include "model/bundle/BundleArchive.h"
#include "model/bundle/BundleMirrorInternal.h"
#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "model/verify/HashEngine.h"

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
#include <optional>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

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

namespace {

constexpr QLatin1StringView kJournalName("journal.json");
constexpr QLatin1StringView kLockName("lock");

QByteArray encode(const QString &path)
{
    return QFile::encodeName(path);
}

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

Error ioError(const QString &what, int error = errno)
{
    return makeError(ErrorCode::Io, what + QStringLiteral(": ") + errnoText(error));
}

/// lstat; 0 when absent.
quint64 inodeOf(const QString &path)
{
    struct stat st;
    if (::lstat(encode(path).constData(), &st) != 0)
        return 0;
    return quint64(st.st_ino);
}

bool exists(const QString &path)
{
    struct stat st;
    return ::lstat(encode(path).constData(), &st) == 0;
}

void fsyncPath(const QString &path)
{
    const int fd = ::open(encode(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

/// A test hook: with PROVENDER_TEST_IMPORT_PAUSE=<phase> the process stops itself (SIGSTOP) at
/// that phase after saying so on stderr, so that a test can SIGKILL it exactly there (or run a
/// second import against it). Phases: staging, staged, prepared, swapped, committed, cleaned (the
/// work directory removed, the lock not yet released) (docs/BUNDLES.md).
void testPause(const char *phase)
{
    static const QByteArray wanted = qgetenv("PROVENDER_TEST_IMPORT_PAUSE");
    if (wanted.isEmpty() || wanted != phase)
        return;
    std::fprintf(stderr, "provender-test: paused at %s\n", phase);
    std::fflush(stderr);
    ::raise(SIGSTOP);
}

/// Swaps two paths atomically when the file system can; false (errno EINVAL/ENOSYS) when not.
bool exchange(const QString &a, const QString &b)
{
    return ::renameat2(AT_FDCWD, encode(a).constData(), AT_FDCWD, encode(b).constData(), RENAME_EXCHANGE) == 0;
}

bool renameNoReplace(const QString &from, const QString &to)
{
    if (::renameat2(AT_FDCWD, encode(from).constData(), AT_FDCWD, encode(to).constData(), RENAME_NOREPLACE) == 0)
        return true;
    if (errno != EINVAL && errno != ENOSYS)
        return false;
    if (exists(to)) {
        errno = EEXIST;
        return false;
    }
    return ::rename(encode(from).constData(), encode(to).constData()) == 0;
}

bool copyFile(const QString &from, const QString &to, mode_t mode)
{
    QFile in(from);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    const int fd = ::open(encode(to).constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 07777);
    if (fd < 0)
        return false;
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    bool ok = true;
    for (;;) {
        const qint64 n = in.read(buffer.data(), buffer.size());
        if (n < 0) {
            ok = false;
            break;
        }
        if (n == 0)
            break;
        if (::write(fd, buffer.constData(), size_t(n)) != n) {
            ok = false;
            break;
        }
    }
    ok = ::fsync(fd) == 0 && ok;
    ::close(fd);
    return ok;
}

/// A complete copy of directory `from` at `to` (which must not exist): files hard-linked (copied
/// when linking fails; `*.json` always copied, because index export rewrites those), links
/// recreated, modes kept.
Result<void> cloneTree(const QString &from, const QString &to, int depth = 0)
{
    struct stat st;
    if (::lstat(encode(from).constData(), &st) != 0)
        return ioError(from);
    if (depth > 64)
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: nested too deeply").arg(from));
    if (::mkdir(encode(to).constData(), st.st_mode & 07777) != 0)
        return ioError(QStringLiteral("cannot create %1").arg(to));
    const QStringList names = QDir(from).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString &name : names) {
        const QString src = from + QLatin1Char('/') + name;
        const QString dst = to + QLatin1Char('/') + name;
        struct stat s;
        if (::lstat(encode(src).constData(), &s) != 0)
            return ioError(src);
        if (S_ISDIR(s.st_mode)) {
            if (Result<void> r = cloneTree(src, dst, depth + 1); !r.ok())
                return r;
        } else if (S_ISLNK(s.st_mode)) {
            QByteArray target(4096, Qt::Uninitialized);
            const ssize_t n = ::readlink(encode(src).constData(), target.data(), size_t(target.size()));
            if (n < 0)
                return ioError(src);
            target.truncate(n);
            if (::symlink(target.constData(), encode(dst).constData()) != 0)
                return ioError(QStringLiteral("cannot create %1").arg(dst));
        } else if (S_ISREG(s.st_mode)) {
            const bool json = name.endsWith(QLatin1StringView(".json"));
            if (json || ::link(encode(src).constData(), encode(dst).constData()) != 0) {
                if (!copyFile(src, dst, s.st_mode))
                    return ioError(QStringLiteral("cannot copy %1").arg(src));
            }
        }
        // devices, FIFOs, sockets in a provider directory are left behind
    }
    return {};
}

struct Unit
{
    enum class Kind { Replace, Create };
    Kind kind = Kind::Replace;
    QString path;   ///< relative to the target
    QString staged; ///< relative to the target
    QString backup; ///< relative to the target (where the old copy goes without RENAME_EXCHANGE)
    quint64 oldInode = 0;
    quint64 newInode = 0;
};

QJsonObject journalJson(const QString &id, const QString &state, const QList<Unit> &units)
{
    QJsonArray list;
    for (const Unit &u : units) {
        list.append(QJsonObject{{QStringLiteral("kind"), u.kind == Unit::Kind::Replace ? QStringLiteral("replace") : QStringLiteral("create")},
                                {QStringLiteral("path"), u.path},
                                {QStringLiteral("staged"), u.staged},
                                {QStringLiteral("backup"), u.backup},
                                {QStringLiteral("old_inode"), QString::number(u.oldInode)},
                                {QStringLiteral("new_inode"), QString::number(u.newInode)}});
    }
    return QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("state"), state}, {QStringLiteral("units"), list}};
}

Result<void> writeJournal(const QString &path, const QJsonObject &journal)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot write: %2").arg(path, f.errorString()));
    f.write(QJsonDocument(journal).toJson());
    if (!f.commit())
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot write: %2").arg(path, f.errorString()));
    fsyncPath(QFileInfo(path).path());
    return {};
}

/// Undo one unit of a `prepared` journal. Files are never deleted here: a new copy is moved into
/// `trash` (removed with the work directory afterwards).
Result<void> rollBack(const QString &target, const Unit &u, const QString &trash)
{
    const QString path = target + QLatin1Char('/') + u.path;
    const quint64 here = inodeOf(path);
    if (u.kind == Unit::Kind::Create) {
        if (here != 0 && here == u.newInode && ::rename(encode(path).constData(), encode(trash).constData()) != 0)
            return ioError(QStringLiteral("cannot move %1 out of the mirror").arg(path));
        return {};
    }
    if (here == u.oldInode)
        return {};
    QString old;
    const QStringList candidates{target + QLatin1Char('/') + u.staged, target + QLatin1Char('/') + u.backup};
    for (const QString &candidate : candidates) {
        if (inodeOf(candidate) == u.oldInode)
            old = candidate;
    }
    if (old.isEmpty())
        return makeError(ErrorCode::Io, QStringLiteral("cannot roll back %1: its previous copy is nowhere to be found").arg(path));
    if (here != 0) {
        if (here != u.newInode)
            return makeError(ErrorCode::Io, QStringLiteral("cannot roll back %1: it is neither the old nor the new copy").arg(path));
        if (::rename(encode(path).constData(), encode(trash).constData()) != 0)
            return ioError(QStringLiteral("cannot move %1 out of the mirror").arg(path));
    }
    if (::rename(encode(old).constData(), encode(path).constData()) != 0)
        return ioError(QStringLiteral("cannot move %1 back to %2").arg(old, path));
    fsyncPath(QFileInfo(path).path());
    return {};
}

/// With the lock held: roll back or finish whatever the work directory holds; then empty it.
/// Returns what was done.
Result<QString> recoverLocked(const QString &target, const QString &work)
{
    const QString journalPath = work + QLatin1Char('/') + kJournalName;
    QString done;
    if (QFile::exists(journalPath)) {
        QFile f(journalPath);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(ErrorCode::Io, QStringLiteral("%1: cannot read: %2").arg(journalPath, f.errorString()));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        const QString state = j.value(QStringLiteral("state")).toString();
        QList<Unit> units;
        for (const QJsonValue &v : j.value(QStringLiteral("units")).toArray()) {
            const QJsonObject o = v.toObject();
            Unit u;
            u.kind = o.value(QStringLiteral("kind")).toString() == u"create" ? Unit::Kind::Create : Unit::Kind::Replace;
            u.path = o.value(QStringLiteral("path")).toString();
            u.staged = o.value(QStringLiteral("staged")).toString();
            u.backup = o.value(QStringLiteral("backup")).toString();
            u.oldInode = o.value(QStringLiteral("old_inode")).toString().toULongLong();
            u.newInode = o.value(QStringLiteral("new_inode")).toString().toULongLong();
            if (u.path.isEmpty() || u.path.contains(QLatin1StringView("..")) || u.path.startsWith(QLatin1Char('/')))
                return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: damaged journal").arg(journalPath));
            units.append(u);
        }
        if (state == u"committed") {
            done = QStringLiteral("finished an interrupted import (it had been committed): removed its leftovers");
        } else if (state == u"prepared") {
            const QString trashRoot = work + QStringLiteral("/trash");
            QDir().mkpath(trashRoot);
            for (qsizetype i = units.size() - 1; i >= 0; --i) {
                if (Result<void> r = rollBack(target, units.at(i), trashRoot + QLatin1Char('/') + QString::number(i)); !r.ok())
                    return r.error();
            }
            done = QStringLiteral("rolled back an interrupted import: %1 director%2 restored").arg(units.size()).arg(units.size() == 1 ? QLatin1StringView("y") : QLatin1StringView("ies"));
        } else {
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: damaged journal (state \"%2\")").arg(journalPath, state));
        }
    }
    // Remove everything: staging areas, old copies, the journal (last).
    const QStringList names = QDir(work).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    bool leftovers = false;
    for (const QString &name : names) {
        if (name == kJournalName)
            continue;
        leftovers = leftovers || name != kLockName; // `lock`: the lock file of earlier versions
        const QString path = work + QLatin1Char('/') + name;
        if (QFileInfo(path).isDir() && !QFileInfo(path).isSymLink())
            QDir(path).removeRecursively();
        else
            QFile::remove(path);
    }
    if (QFile::exists(journalPath) && !QFile::remove(journalPath))
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot remove").arg(journalPath));
    if (done.isEmpty() && leftovers)
        done = QStringLiteral("removed the staging area of an interrupted import (the mirror had not been changed)");
    fsyncPath(target);
    return done;
}

/// The work directory `<dir>/.provender-import` and the lock that keeps a second import out.
///
/// The lock is flock(2) on `<dir>` itself, opened O_RDONLY|O_DIRECTORY: a directory an import
/// never deletes, so the lock is never held on a name that can disappear (a lock *file* inside the
/// work directory, removed with it, would let a second import lock the orphaned file while a third
/// creates and locks a new one, both then proceeding). The kernel drops the lock when its holder
/// dies, even by SIGKILL, so a killed import leaves no lock that needs guessing about. The work
/// directory is created, emptied and removed only while the lock is held.
///
/// The work directory must be a plain directory: a symbolic link there (or anything else) is
/// refused, never followed, so no staged byte is written through it.
class WorkArea
{
public:
    explicit WorkArea(const QString &dir) : m_dir(dir), m_path(dir + QLatin1Char('/') + kImportWorkDirName) {}
    ~WorkArea() { release(); }

    Result<void> acquire()
    {
        const int fd = ::open(encode(m_dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            return ioError(QStringLiteral("cannot open %1").arg(m_dir));
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            ::close(fd);
            if (error == EWOULDBLOCK)
                return makeError(ErrorCode::Io, QStringLiteral("another import into %1 is running (it holds the lock on the directory); "
                                                               "nothing was done — try again when it has finished")
                                                    .arg(m_dir));
            return ioError(QStringLiteral("cannot lock %1").arg(m_dir), error);
        }
        if (Result<void> r = checkWorkDirectory(true); !r.ok()) {
            ::close(fd);
            return r;
        }
        m_fd = fd;
        return {};
    }
    /// Removes the work directory (when it is still a plain directory) and drops the lock.
    void release()
    {
        if (m_fd < 0)
            return;
        struct stat st;
        if (!m_keep && ::lstat(encode(m_path).constData(), &st) == 0 && S_ISDIR(st.st_mode))
            QDir(m_path).removeRecursively();
        fsyncPath(m_dir);
        testPause("cleaned"); // the work directory is gone, the lock still held
        ::close(m_fd);
        m_fd = -1;
    }
    /// release() keeps the work directory (a journal that recovery still needs).
    void keep() { m_keep = true; }
    const QString &path() const { return m_path; }

private:
    Result<void> checkWorkDirectory(bool create)
    {
        struct stat st;
        if (::lstat(encode(m_path).constData(), &st) != 0) {
            if (errno != ENOENT)
                return ioError(m_path);
            if (!create)
                return {};
            if (::mkdir(encode(m_path).constData(), 0700) != 0)
                return ioError(QStringLiteral("cannot create %1").arg(m_path));
            if (::lstat(encode(m_path).constData(), &st) != 0)
                return ioError(m_path);
        }
        if (S_ISLNK(st.st_mode))
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("%1 is a symbolic link: an import never stages through a link (it would write "
                                            "wherever the link points); nothing was written — remove the link and try again")
                                 .arg(m_path));
        if (!S_ISDIR(st.st_mode))
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("%1 is not a directory; nothing was written — remove it and try again").arg(m_path));
        return {};
    }

    QString m_dir;
    QString m_path;
    int m_fd = -1;
    bool m_keep = false;
};

/// Where an archive of the bundle goes in the target.
struct Placement
{
    QString providerDir; ///< relative to the target: HOST/NS/TYPE
    QString rel;         ///< relative to the target: the archive file or package directory
};

QList<QString> parentsOf(const QString &rel)
{
    QList<QString> out;
    for (qsizetype slash = rel.indexOf(QLatin1Char('/')); slash >= 0; slash = rel.indexOf(QLatin1Char('/'), slash + 1))
        out.append(rel.left(slash));
    return out;
}

} // namespace

Result<QString> recoverInterruptedImport(const QString &targetDir)
{
    const QString target = QFileInfo(targetDir).absoluteFilePath();
    const QString work = target + QLatin1Char('/') + kImportWorkDirName;
    if (!exists(work))
        return QString();
    WorkArea area(target);
    if (Result<void> r = area.acquire(); !r.ok())
        return r.error();
    Result<QString> done = recoverLocked(target, work);
    if (!done.ok()) {
        area.keep(); // the work directory (and journal) for a later attempt
        return done;
    }
    area.release();
    if (!done->isEmpty())
        qCInfo(lcMirror) << target << ":" << done.value();
    return done;
}

Result<ImportReport> importBundle(const QString &bundlePath, const QString &targetDir, const ImportOptions &options,
                                  const BundleProgress &progress)
{
    ImportReport report;
    report.bundle = QFileInfo(bundlePath).absoluteFilePath();
    report.target = QDir::cleanPath(QFileInfo(targetDir).absoluteFilePath());
    report.dryRun = options.dryRun;
    const QString &target = report.target;

    // --- the target and its work area
    std::optional<QTemporaryDir> dryStaging; // a dry run that cannot stage in the target stages here
    const QFileInfo targetInfo(target);
    if (!targetInfo.exists()) {
        if (!QFileInfo(targetInfo.path()).isDir())
            return makeError(ErrorCode::NotFound, QStringLiteral("%1: no such directory (nor its parent)").arg(target));
        if (!options.dryRun && !QDir().mkdir(target))
            return makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(target));
    } else if (!targetInfo.isDir()) {
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: not a directory").arg(target));
    }
    const bool targetExists = QFileInfo(target).isDir();
    // A dry run stages in the target when it can (same file system, same free space), else in a
    // temporary directory: it never needs to write to the target.
    const bool stageInTarget = targetExists && (!options.dryRun || QFileInfo(target).isWritable());
    const QString work = target + QLatin1Char('/') + kImportWorkDirName;
    if (options.dryRun && QFile::exists(work + QLatin1Char('/') + kJournalName)) {
        // A journal: an import running now (it holds the lock), or one that was interrupted.
        WorkArea probe(target);
        if (Result<void> r = probe.acquire(); !r.ok())
            return r.error();
        probe.keep();
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1 holds an interrupted import; recover it first (provender bundle recover %1)").arg(target));
    }
    if (!options.dryRun) {
        Result<QString> recovered = recoverInterruptedImport(target);
        if (!recovered.ok())
            return recovered.error();
        report.recovery = recovered.value();
    }
    if (!stageInTarget) {
        dryStaging.emplace();
        if (!dryStaging->isValid())
            return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary directory: %1").arg(dryStaging->errorString()));
    }
    WorkArea area(stageInTarget ? target : dryStaging->path());
    if (Result<void> r = area.acquire(); !r.ok())
        return r.error();
    const QString id = QString::number(QRandomGenerator::global()->generate64(), 36);
    const QString stage = area.path() + QLatin1Char('/') + id;
    const QString extractRoot = stage + QStringLiteral("/bundle");
    if (!QDir().mkpath(extractRoot))
        return makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(extractRoot));

    // Free space, asked again before every file and every 64 MiB written (others write too): an
    // import never takes the file system below options.minFreeBytes.
    auto freeBytes = [&]() -> qint64 {
        struct statvfs vfs;
        if (::statvfs(encode(area.path()).constData(), &vfs) != 0)
            return -1;
        return qint64(vfs.f_bavail) * qint64(vfs.f_frsize);
    };
    const qint64 reserve = qMax<qint64>(0, options.minFreeBytes);
    auto noSpace = [&](qint64 free, qint64 needed) {
        return QStringLiteral("needs %1 more bytes on %2, which has %3 free and keeps %4 free for everything else; "
                              "nothing was imported (free some space, or import elsewhere)")
            .arg(needed)
            .arg(target)
            .arg(free)
            .arg(reserve);
    };
    BundleLimits limits = options.limits;
    if (limits.maxTotalBytes <= 0) {
        const qint64 automatic = automaticTotalBytes(QFileInfo(report.bundle).size());
        if (const qint64 free = freeBytes(); free >= 0 && free - reserve < automatic)
            limits.maxTotalBytes = qMax<qint64>(1, free - reserve);
    }

    // --- 1. extract what the mirror layout can use into staging, hash every file
    BundleReader reader;
    if (Result<void> opened = reader.open(report.bundle); !opened.ok())
        return opened.error();
    QHash<QString, QByteArray> sha;
    bool paused = false;
    QSet<QString> staged;
    const FileHandler onFile = [&](const BundleEntry &e, const PullBytes &pull, QString *refused) -> Result<void> {
        // Anything at the layout's depth (HOST/NS/TYPE/x, possibly under one folder) is staged.
        const bool stageIt = e.name.count(QLatin1Char('/')) >= 3;
        int fd = -1;
        const QString path = extractRoot + QLatin1Char('/') + e.name;
        if (e.type == BundleEntry::Type::Hardlink) {
            // A second name of an earlier file: a hard link to its staged copy (a copy where links
            // fail), the same digest.
            sha.insert(e.name, sha.value(e.linkTarget));
            if (!stageIt)
                return {};
            if (!staged.contains(e.linkTarget))
                return makeError(ErrorCode::Unsupported,
                                 QStringLiteral("%1 is a hard link to %2, which lies outside the bundle's mirror tree: "
                                                "such a bundle cannot be imported")
                                     .arg(displayEntryName(e.name), displayEntryName(e.linkTarget)));
            const QString from = extractRoot + QLatin1Char('/') + e.linkTarget;
            if (!QDir().mkpath(QFileInfo(path).path()))
                return makeError(ErrorCode::Io, QStringLiteral("cannot create a directory for %1 in the staging area").arg(e.name));
            if (::link(encode(from).constData(), encode(path).constData()) != 0) {
                if (const qint64 free = freeBytes(); free >= 0 && e.size > free - reserve) {
                    *refused = noSpace(free, e.size);
                    return {};
                }
                if (!copyFile(from, path, (e.mode & 0100) ? 0755 : 0644))
                    return ioError(QStringLiteral("cannot copy %1 to %2 in the staging area").arg(from, path));
                report.bytesStaged += e.size;
            }
            staged.insert(e.name);
            return {};
        }
        if (stageIt && e.sizeKnown) {
            if (const qint64 free = freeBytes(); free >= 0 && e.size > free - reserve) {
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
                report.bytesStaged += block->size();
                written += block->size();
                sinceCheck += block->size();
                if (sinceCheck >= (qint64(64) << 20)) {
                    sinceCheck = 0;
                    const qint64 free = freeBytes();
                    const qint64 left = e.sizeKnown ? qMax<qint64>(0, e.size - written) : 0;
                    if (free >= 0 && free - reserve < left) {
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
            staged.insert(e.name);
        sha.insert(e.name, digest.result());
        if (stageIt && !paused) {
            paused = true;
            testPause("staging");
        }
        return {};
    };
    Result<BundlePass> passed = runBundlePass(reader, limits, isMetadataName, onFile, progress, /*stopAtFatal=*/true);
    if (!passed.ok())
        return passed.error();
    BundlePass &pass = passed.value();
    // A symbolic link inside the mirror tree (where files are staged) cannot be imported
    // faithfully: an import never creates links. Refused rather than silently left out.
    for (BundleEntryProblem &p : pass.problems) {
        if (p.kind != BundleEntryProblem::Kind::Link)
            continue;
        for (const BundleEntry &e : std::as_const(pass.entries)) {
            if (e.type == BundleEntry::Type::Symlink && displayEntryName(e.rawName) == p.entry && e.name.count(QLatin1Char('/')) >= 3) {
                p.kind = BundleEntryProblem::Kind::Unsupported;
                p.message = QStringLiteral("a symbolic link (to %1) inside the mirror tree: an import never creates links, so it "
                                           "cannot import this bundle faithfully")
                                .arg(e.linkTarget);
                break;
            }
        }
    }
    report.problems = pass.problems;
    for (const BundleEntryProblem &p : pass.problems) {
        if (p.isFatal()) {
            report.refusal = QStringLiteral("the bundle has an entry that is refused: %1: %2").arg(p.entry, p.message);
            return report;
        }
    }

    // --- 2. the bundle's mirror tree, its SHA256SUMS, its verdicts
    const QString prefix = choosePrefix(pass.entries);
    const QString stagedRoot = prefix.isEmpty() ? extractRoot : extractRoot + QLatin1Char('/') + prefix.chopped(1);
    const QString entryBase = report.bundle + kBundleEntrySeparator + prefix;
    QMap<QString, QByteArray> sums;
    bool hasSums = false;
    if (const auto it = pass.metadata.constFind(prefix + kBundleSumsName); it != pass.metadata.cend()) {
        Result<QMap<QString, QByteArray>> parsed = parseSha256Sums(it.value());
        if (!parsed.ok()) {
            report.refusal = QStringLiteral("its SHA256SUMS cannot be read: %1").arg(parsed.error().toString());
            return report;
        }
        sums = parsed.value();
        hasSums = true;
    }
    QSet<QString> listed;
    for (auto it = sums.cbegin(); it != sums.cend(); ++it) {
        BundleFileCheck f;
        f.name = it.key();
        f.expected = QString::fromLatin1(it.value().toHex());
        listed.insert(prefix + it.key());
        const auto actual = sha.constFind(prefix + it.key());
        if (actual == sha.cend()) {
            f.status = BundleFileCheck::Status::Missing;
        } else {
            f.actual = QString::fromLatin1(actual->toHex());
            f.status = actual.value() == it.value() ? BundleFileCheck::Status::Ok : BundleFileCheck::Status::Mismatch;
        }
        report.files.append(f);
    }
    if (hasSums) {
        for (const BundleEntry &e : pass.entries) {
            if (e.type == BundleEntry::Type::File && e.name.startsWith(prefix) && !listed.contains(e.name)
                && e.name != prefix + kBundleSumsName)
                report.files.append(BundleFileCheck{BundleFileCheck::Status::Unlisted, e.name.mid(prefix.size()), QString(),
                                                    QString::fromLatin1(sha.value(e.name).toHex())});
        }
    }

    Catalog bundleCatalog;
    if (QFileInfo(stagedRoot).isDir()) {
        Result<Catalog> scanned = scanFileSystemMirror(stagedRoot);
        if (!scanned.ok())
            return scanned.error();
        bundleCatalog = std::move(scanned).value();
    }
    auto entryOf = [&](const QString &stagedPath) {
        return stagedPath.startsWith(stagedRoot + QLatin1Char('/')) ? prefix + stagedPath.mid(stagedRoot.size() + 1) : stagedPath;
    };
    for (Anomaly a : bundleCatalog.anomalies) {
        if (a.path.startsWith(stagedRoot))
            a.path = report.bundle + kBundleEntrySeparator + entryOf(a.path);
        a.message.replace(stagedRoot + QLatin1Char('/'), entryBase);
        a.location.file.replace(stagedRoot + QLatin1Char('/'), entryBase);
        report.anomalies.append(a);
    }

    VerifyOptions verifyOptions;
    verifyOptions.jobs = options.jobs;
    verifyOptions.useCache = false;
    std::atomic<bool> cancel{false};
    const VerifyReport verified = verifyCatalog(bundleCatalog, verifyOptions, [&](qint64 done, qint64 total) {
        if (progress && !progress(BundleStage::Hashing, done, total))
            cancel = true;
    }, &cancel);
    if (cancel || verified.summary.cancelled)
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    QHash<QString, ArchiveResult> resultByPath;
    QMap<QString, QByteArray> shaByName; // sorted: the files of a package are one range
    for (auto it = sha.cbegin(); it != sha.cend(); ++it)
        shaByName.insert(it.key(), it.value());
    for (ArchiveResult r : verified.results) {
        const QString entry = entryOf(r.path);
        const QString rel = entry.mid(prefix.size());
        if (r.hashes && r.detail.verdict != Verdict::Error && r.detail.verdict != Verdict::Missing) {
            SumsCheck check = SumsCheck::NotListed;
            if (r.layout == ArchiveLayout::Packed) {
                if (const auto s = sums.constFind(rel); s != sums.cend())
                    check = QStringLiteral("zh:") + QString::fromLatin1(s->toHex()) == r.hashes->zh.toString()
                                ? SumsCheck::Match
                                : SumsCheck::Mismatch;
            } else {
                bool all = hasSums, bad = false;
                const QString under = entry + QLatin1Char('/');
                for (auto it = shaByName.lowerBound(under); it != shaByName.cend() && it.key().startsWith(under); ++it) {
                    const auto s = sums.constFind(it.key().mid(prefix.size()));
                    if (s == sums.cend())
                        all = false;
                    else if (s.value() != it.value())
                        bad = true;
                }
                check = bad ? SumsCheck::Mismatch : all ? SumsCheck::Match : SumsCheck::NotListed;
            }
            const ProviderVersionKey pv{r.key.provider, r.key.version};
            const auto lock = options.expected.constFind(pv);
            const bool covered = lock != options.expected.cend();
            r.detail = decideBundleArchive(*r.hashes, r.key.provider.type(), r.declared,
                                           TrustAnchor{TrustAnchor::Kind::OwnIndex, report.bundle},
                                           check,
                                           TrustAnchor{TrustAnchor::Kind::OwnChecksums,
                                                       report.bundle + kBundleEntrySeparator + prefix + kBundleSumsName},
                                           covered ? &lock.value() : nullptr,
                                           TrustAnchor{TrustAnchor::Kind::LockFile, options.expectedFrom.value(pv)});
            r.detail.notCoveredByLock = options.lockCoverage && !covered;
        }
        resultByPath.insert(r.path, r);
    }

    // --- 3. plan against the target
    Catalog targetCatalog;
    if (targetExists) {
        Result<Catalog> scanned = scanFileSystemMirror(target);
        if (!scanned.ok())
            return scanned.error();
        targetCatalog = std::move(scanned).value();
    }
    struct Move
    {
        QString from;  ///< staged archive (absolute)
        Placement to;
        bool replace = false;
    };
    QList<Move> moves;
    // The target's archives of every version the bundle brings are what the plan compares the
    // bundle's with: hash them in one engine run (all cores, the hash cache) before planning.
    // A failure here is left to the plan's own call, which says why in its words.
    QHash<QString, PackageHashes> targetHashes;
    {
        QList<HashRequest> requests;
        for (const Provider &p : bundleCatalog.providers)
            for (const Provider &tp : targetCatalog.providers) {
                if (!(tp.address == p.address))
                    continue;
                for (const ProviderVersion &v : p.versions)
                    for (const ProviderVersion &tv : tp.versions) {
                        if (tv.version != v.version)
                            continue;
                        for (const QList<Archive> *list : {&tv.archives, &tv.duplicates})
                            for (const Archive &ta : *list)
                                if (ta.present && !ta.path.isEmpty())
                                    requests.append(HashRequest{ta.path, ta.size});
                    }
            }
        HashRunOptions hashOptions;
        hashOptions.jobs = options.jobs;
        hashOptions.useCache = options.useCache;
        hashOptions.cacheFile = options.cacheFile;
        hashOptions.progress = [&](qint64 done, qint64 total) { return !progress || progress(BundleStage::Hashing, done, total); };
        const HashRunReport hashed = hashArchives(requests, hashOptions);
        if (hashed.summary.cancelled)
            return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
        for (qsizetype i = 0; i < requests.size(); ++i)
            if (hashed.outcomes.at(i).hashes.ok())
                targetHashes.insert(requests.at(i).path, hashed.outcomes.at(i).hashes.value());
    }
    for (const Provider &p : bundleCatalog.providers) {
        const Provider *existingProvider = nullptr;
        for (const Provider &tp : targetCatalog.providers)
            if (tp.address == p.address)
                existingProvider = &tp;
        for (const ProviderVersion &v : p.versions) {
            auto plan = [&](const Archive &a, bool duplicate) {
                ImportAction act;
                act.key = ArchiveKey{p.address, v.version, a.platform};
                act.layout = a.layout;
                act.entry = entryOf(a.path);
                act.size = a.size;
                if (!a.present || a.indexedOnly)
                    return; // index-only names and absent archives are anomalies of the bundle, not archives
                const ArchiveResult r = resultByPath.value(a.path);
                act.verdict = r.detail.verdict;
                if (duplicate) {
                    act.kind = ImportAction::Kind::Skipped;
                    act.reason = QStringLiteral("another copy of the same version and platform comes first in the bundle");
                    report.actions.append(act);
                    return;
                }
                const QString relArchive = QDir(stagedRoot).relativeFilePath(a.path);
                const QStringList parts = relArchive.split(QLatin1Char('/'));
                Placement to;
                to.providerDir = existingProvider ? QDir(target).relativeFilePath(existingProvider->directory)
                                                  : parts.mid(0, 3).join(QLatin1Char('/'));
                to.rel = to.providerDir + QLatin1Char('/') + parts.mid(3).join(QLatin1Char('/'));
                act.targetPath = target + QLatin1Char('/') + to.rel;

                const bool lockVouches = std::any_of(r.detail.anchors.cbegin(), r.detail.anchors.cend(), [](const TrustAnchor &t) {
                    return t.kind == TrustAnchor::Kind::LockFile;
                });
                if (options.requireLock && r.detail.verdict == Verdict::Verified && !lockVouches) {
                    act.kind = ImportAction::Kind::Rejected;
                    act.reason = r.detail.notCoveredByLock
                                     ? QStringLiteral("no lock file given covers %1 %2 (--require-lock)")
                                           .arg(p.address.toString(), v.version.toString())
                                     : QStringLiteral("no lock file hash vouches for it, only %1 (--require-lock)")
                                           .arg(describeAnchors(r.detail));
                    report.actions.append(act);
                    return;
                }
                if (r.detail.verdict != Verdict::Verified && !(r.detail.verdict == Verdict::Unverified && options.allowUnverified && !options.requireLock)) {
                    act.kind = ImportAction::Kind::Rejected;
                    act.reason = r.detail.verdict == Verdict::Unverified
                                     ? QStringLiteral("nothing in the bundle declares a hash for it (import with --allow-unverified to accept it)")
                                     : r.detail.reason;
                    report.actions.append(act);
                    return;
                }
                const QString bundleH1 = r.hashes ? r.hashes->h1Extracted.toString() : QString();
                struct stat st;
                if (::lstat(encode(act.targetPath).constData(), &st) == 0) {
                    act.existingPath = act.targetPath;
                    bool same = false;
                    QString why;
                    const auto known = targetHashes.constFind(act.targetPath);
                    if (a.layout == ArchiveLayout::Packed && S_ISREG(st.st_mode) && known != targetHashes.cend()
                        && known->kind == PackageHashes::Kind::Zip) {
                        same = r.hashes && known->zh == r.hashes->zh;
                        why = QStringLiteral("the mirror has a different file there");
                    } else if (a.layout == ArchiveLayout::Packed && S_ISREG(st.st_mode)) {
                        Result<HashString> zh = hashFileZh(act.targetPath);
                        same = zh.ok() && r.hashes && zh.value() == r.hashes->zh;
                        why = zh.ok() ? QStringLiteral("the mirror has a different file there") : zh.error().message;
                    } else if (a.layout == ArchiveLayout::Unpacked && S_ISDIR(st.st_mode)) {
                        Result<PackageHashes> h = known != targetHashes.cend() && known->kind == PackageHashes::Kind::Directory
                                                      ? Result<PackageHashes>(known.value())
                                                      : hashDirectory(act.targetPath);
                        same = h.ok() && h->h1Extracted.toString() == bundleH1;
                        why = h.ok() ? QStringLiteral("the mirror has a different package there") : h.error().message;
                    } else {
                        why = QStringLiteral("the mirror has something else there");
                    }
                    if (same) {
                        act.kind = ImportAction::Kind::Unchanged;
                        act.reason = QStringLiteral("already in the mirror");
                    } else if (options.replace && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
                        act.kind = ImportAction::Kind::Replace;
                        act.reason = why;
                        moves.append(Move{a.path, to, true});
                    } else {
                        act.kind = ImportAction::Kind::Conflict;
                        act.reason = why + (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ? QStringLiteral(" (--replace replaces it)") : QString());
                    }
                    report.actions.append(act);
                    return;
                }
                // The same version and platform under another name?
                const Archive *other = nullptr;
                if (existingProvider) {
                    for (const ProviderVersion &tv : existingProvider->versions) {
                        if (tv.version != v.version)
                            continue;
                        for (const QList<Archive> *list : {&tv.archives, &tv.duplicates})
                            for (const Archive &ta : *list)
                                if (!other && ta.present && ta.platform == a.platform)
                                    other = &ta;
                    }
                }
                if (other) {
                    act.existingPath = other->path;
                    const auto known = targetHashes.constFind(other->path);
                    Result<PackageHashes> h = known != targetHashes.cend() ? Result<PackageHashes>(known.value()) : hashPackage(other->path);
                    if (h.ok() && h->h1Extracted.toString() == bundleH1) {
                        act.kind = ImportAction::Kind::Unchanged;
                        act.reason = QStringLiteral("already in the mirror as %1").arg(other->path);
                    } else {
                        act.kind = ImportAction::Kind::Conflict;
                        act.reason = QStringLiteral("the mirror already has a different %1 %2 for %3 at %4")
                                         .arg(p.address.toString(), v.version.toString(), a.platform.toString(), other->path);
                    }
                    report.actions.append(act);
                    return;
                }
                act.kind = ImportAction::Kind::Add;
                moves.append(Move{a.path, to, false});
                report.actions.append(act);
            };
            for (const Archive &a : v.archives)
                plan(a, false);
            for (const Archive &a : v.duplicates)
                plan(a, true);
        }
    }
    if (report.blocked()) {
        QStringList why;
        for (const ImportAction &a : std::as_const(report.actions))
            if (a.kind == ImportAction::Kind::Conflict || a.kind == ImportAction::Kind::Rejected)
                why.append(QStringLiteral("%1: %2").arg(a.entry, a.reason));
        for (const BundleFileCheck &f : std::as_const(report.files))
            if (f.status != BundleFileCheck::Status::Ok)
                why.append(QStringLiteral("%1: %2 in SHA256SUMS").arg(f.name, toString(f.status)));
        report.refusal = QStringLiteral("nothing was imported: ") + why.join(QStringLiteral("; "));
        return report;
    }
    if (options.dryRun || moves.isEmpty())
        return report;

    // --- 4. stage a complete new copy of every directory that changes
    QList<Unit> units;
    QSet<QString> unitPaths;
    const QString newRoot = stage + QStringLiteral("/new");
    QDir().mkpath(newRoot);
    for (const Move &m : std::as_const(moves)) {
        if (QFileInfo(target + QLatin1Char('/') + m.to.providerDir).isDir()) {
            if (unitPaths.contains(m.to.providerDir))
                continue;
            unitPaths.insert(m.to.providerDir);
            Unit u;
            u.kind = Unit::Kind::Replace;
            u.path = m.to.providerDir;
            u.staged = QString(kImportWorkDirName) + u'/' + id + QStringLiteral("/new/") + u.path;
            u.backup = QString(kImportWorkDirName) + u'/' + id + QStringLiteral("/old/") + QString::number(units.size());
            QDir().mkpath(QFileInfo(newRoot + QLatin1Char('/') + u.path).path());
            if (Result<void> r = cloneTree(target + QLatin1Char('/') + u.path, newRoot + QLatin1Char('/') + u.path); !r.ok())
                return r.error();
            units.append(u);
            continue;
        }
        // The highest missing directory of HOST, HOST/NS, HOST/NS/TYPE is staged whole.
        QString missing = m.to.providerDir;
        for (const QString &parent : parentsOf(m.to.providerDir + QLatin1Char('/'))) {
            if (!QFileInfo(target + QLatin1Char('/') + parent).exists()) {
                missing = parent;
                break;
            }
        }
        if (QFileInfo::exists(target + QLatin1Char('/') + missing) && !QFileInfo(target + QLatin1Char('/') + missing).isDir())
            return makeError(ErrorCode::Io, QStringLiteral("%1/%2 is not a directory").arg(target, missing));
        if (unitPaths.contains(missing))
            continue;
        unitPaths.insert(missing);
        Unit u;
        u.kind = Unit::Kind::Create;
        u.path = missing;
        u.staged = QString(kImportWorkDirName) + u'/' + id + QStringLiteral("/new/") + u.path;
        QDir().mkpath(newRoot + QLatin1Char('/') + u.path);
        units.append(u);
    }
    for (const Move &m : std::as_const(moves)) {
        const QString to = newRoot + QLatin1Char('/') + m.to.rel;
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
    // Indexes, regenerated from what each staged directory holds.
    IndexExportOptions indexOptions;
    indexOptions.withZh = options.withZh;
    indexOptions.jobs = options.jobs;
    indexOptions.useCache = false; // staged paths, gone after the import: rows for them would only be litter
    Result<IndexExportReport> indexed = exportIndexes(newRoot, indexOptions, [&](qint64 done, qint64 total) {
        return !progress || progress(BundleStage::Hashing, done, total);
    });
    if (!indexed.ok())
        return indexed.error();
    for (const IndexFileResult &f : indexed->files)
        if (f.status != IndexFileResult::Status::Unchanged)
            report.indexFiles.append(target + f.path.mid(newRoot.size()));
    testPause("staged");

    // --- 5. journal, swap, commit
    for (Unit &u : units) {
        u.newInode = inodeOf(target + QLatin1Char('/') + u.staged);
        if (u.kind == Unit::Kind::Replace)
            u.oldInode = inodeOf(target + QLatin1Char('/') + u.path);
    }
    QDir().mkpath(stage + QStringLiteral("/old"));
    {
        const int fd = ::open(encode(target).constData(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::syncfs(fd); // every staged byte is on disk before the journal says "prepared"
            ::close(fd);
        }
    }
    if (progress && !progress(BundleStage::Committing, 0, units.size()))
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    const QString journalPath = area.path() + QLatin1Char('/') + kJournalName;
    if (Result<void> r = writeJournal(journalPath, journalJson(id, QStringLiteral("prepared"), units)); !r.ok())
        return r.error();
    testPause("prepared");

    auto undo = [&](const Error &e) -> Result<ImportReport> {
        Result<QString> rolled = recoverLocked(target, area.path());
        if (!rolled.ok()) {
            area.keep();
            return makeError(ErrorCode::Io, e.message + QStringLiteral("; rolling back failed too: ") + rolled.error().message
                                                + QStringLiteral(" (the journal in %1 is kept)").arg(area.path()));
        }
        return e;
    };
    for (qsizetype i = 0; i < units.size(); ++i) {
        const Unit &u = units.at(i);
        const QString path = target + QLatin1Char('/') + u.path;
        const QString staged = target + QLatin1Char('/') + u.staged;
        if (u.kind == Unit::Kind::Create) {
            if (!renameNoReplace(staged, path))
                return undo(ioError(QStringLiteral("cannot move %1 into place").arg(path)));
        } else if (!exchange(path, staged)) {
            if (errno != EINVAL && errno != ENOSYS)
                return undo(ioError(QStringLiteral("cannot swap %1 with its new copy").arg(path)));
            const QString backup = target + QLatin1Char('/') + u.backup;
            if (::rename(encode(path).constData(), encode(backup).constData()) != 0)
                return undo(ioError(QStringLiteral("cannot move %1 aside").arg(path)));
            if (::rename(encode(staged).constData(), encode(path).constData()) != 0)
                return undo(ioError(QStringLiteral("cannot move the new copy of %1 into place").arg(path)));
        }
        fsyncPath(QFileInfo(path).path());
        if (i == 0)
            testPause("swapped");
        if (progress)
            progress(BundleStage::Committing, i + 1, units.size());
    }
    if (Result<void> r = writeJournal(journalPath, journalJson(id, QStringLiteral("committed"), units)); !r.ok())
        return undo(r.error());
    report.committed = true;
    testPause("committed");
    // Old copies and staging go with the work area; the journal last.
    QDir(stage).removeRecursively();
    QFile::remove(journalPath);
    area.release();
    fsyncPath(target);
    qCDebug(lcMirror) << "imported" << report.bundle << "into" << target << moves.size() << "archives," << units.size()
                      << "directories swapped";
    return report;
}

} // namespace provender
