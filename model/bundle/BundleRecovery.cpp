// Bundle import, the parts that outlive one run: the journal, rolling an interrupted import back
// or forward (recoverInterruptedImport, run before every import), and the file-system steps the
// import's transaction (BundleImport.cpp) uses. The protocol: docs/ARCHITECTURE.md "bundle".

#include "model/bundle/BundleImport.h"

#include "model/bundle/BundleImportInternal.h"

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
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace provender {

namespace bundle_detail {

QByteArray encode(const QString &path)
{
    return QFile::encodeName(path);
}

namespace {

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

} // namespace

Error ioError(const QString &what, int error)
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
Result<void> cloneTree(const QString &from, const QString &to, int depth)
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

QJsonObject journalJson(const QString &id, const QString &state, const QList<Unit> &units)
{
    QJsonArray list;
    for (const Unit &u : units) {
        list.append(
            QJsonObject{{QStringLiteral("kind"), u.kind == Unit::Kind::Replace ? QStringLiteral("replace") : QStringLiteral("create")},
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
    const QByteArray bytes = QJsonDocument(journal).toJson();
    // flush() before commit(): see BundleWriter (Qt 6.4 commits after a failed final flush).
    if (f.write(bytes) != bytes.size() || !f.flush() || !f.commit())
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot write: %2").arg(path, f.errorString()));
    fsyncPath(QFileInfo(path).path());
    return {};
}

namespace {

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

} // namespace

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
            done = QStringLiteral("rolled back an interrupted import: %1 director%2 restored")
                       .arg(units.size())
                       .arg(units.size() == 1 ? QLatin1StringView("y") : QLatin1StringView("ies"));
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

} // namespace bundle_detail

using namespace bundle_detail;

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

} // namespace provender
