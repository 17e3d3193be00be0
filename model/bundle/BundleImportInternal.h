#pragma once
// Internal to the bundle import (BundleImport.cpp: the transaction; BundleRecovery.cpp: the
// journal, the work area and its lock, rolling an interrupted import back or forward, and the
// file-system steps both use).

#include "model/bundle/BundleArchive.h"
#include "model/bundle/BundleImport.h"
#include "model/core/Result.h"
#include "model/mirror/Catalog.h"
#include "model/verify/VerifyTypes.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QLatin1StringView>
#include <QList>
#include <QSet>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <optional>

#include <cerrno>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace provender {
class ReleaseProvenanceStore;
}

namespace provender::bundle_detail {

constexpr QLatin1StringView kJournalName("journal.json");
constexpr QLatin1StringView kLockName("lock");

QByteArray encode(const QString &path);

Error ioError(const QString &what, int error = errno);

/// lstat; 0 when absent.
quint64 inodeOf(const QString &path);

bool exists(const QString &path);

void fsyncPath(const QString &path);

/// A test hook: with PROVENDER_TEST_IMPORT_PAUSE=<phase> the process stops itself (SIGSTOP) at
/// that phase after saying so on stderr, so that a test can SIGKILL it exactly there (or run a
/// second import against it). Phases: staging, staged, prepared, swapped, committed, cleaned (the
/// work directory removed, the lock not yet released) (docs/BUNDLES.md).
void testPause(const char *phase);

/// Swaps two paths atomically when the file system can; false (errno EINVAL/ENOSYS) when not.
bool exchange(const QString &a, const QString &b);

bool renameNoReplace(const QString &from, const QString &to);

bool copyFile(const QString &from, const QString &to, mode_t mode);

/// A complete copy of directory `from` at `to` (which must not exist): files hard-linked (copied
/// when linking fails; `*.json` always copied, because index export rewrites those), links
/// recreated, modes kept.
Result<void> cloneTree(const QString &from, const QString &to, int depth = 0);

/// With the lock held: roll back or finish whatever the work directory holds; then empty it.
/// Returns what was done.
Result<QString> recoverLocked(const QString &target, const QString &work);

/// One directory an import swaps (Replace) or moves into place (Create), as the journal lists it.
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

/// The journal's JSON (state "prepared" or "committed"), and writing it durably.
QJsonObject journalJson(const QString &id, const QString &state, const QList<Unit> &units);

Result<void> writeJournal(const QString &path, const QJsonObject &journal);

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
                return makeError(ErrorCode::Io,
                                 QStringLiteral("another import into %1 is running (it holds the lock on the directory); "
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

inline QList<QString> parentsOf(const QString &rel)
{
    QList<QString> out;
    for (qsizetype slash = rel.indexOf(QLatin1Char('/')); slash >= 0; slash = rel.indexOf(QLatin1Char('/'), slash + 1))
        out.append(rel.left(slash));
    return out;
}

/// One import, as a transaction with one method per phase. open() takes the lock (after
/// recovering an interrupted import); read() stages and hashes what the bundle holds; verify()
/// checks its SHA256SUMS and decides every archive's verdict; plan() compares with the target
/// and decides every action (a dry run ends here); stage() builds the complete new copy of every
/// directory that changes; commit() journals "prepared", swaps, journals "committed"; recover()
/// rolls a failed commit back through the journal. The members are destroyed in reverse order,
/// so the reader closes before the work area is released, and the work area goes before a dry
/// run's temporary staging directory.
class ImportTransaction
{
public:
    ImportTransaction(const QString &bundlePath, const QString &targetDir, const ImportOptions &options, const BundleProgress &progress)
        : m_options(options),
          m_progress(progress)
    {
        m_report.bundle = QFileInfo(bundlePath).absoluteFilePath();
        m_report.target = QDir::cleanPath(QFileInfo(targetDir).absoluteFilePath());
        m_report.dryRun = options.dryRun;
        m_target = m_report.target;
    }

    Result<ImportReport> run()
    {
        if (Result<void> opened = open(); !opened.ok())
            return opened.error();
        // Each of these may end the import with the report as it stands (a refusal, a dry run).
        for (Result<bool> (ImportTransaction::*phase)() :
             {&ImportTransaction::read, &ImportTransaction::verify, &ImportTransaction::plan}) {
            Result<bool> goOn = (this->*phase)();
            if (!goOn.ok())
                return goOn.error();
            if (!goOn.value())
                return m_report;
        }
        if (Result<void> staged = stage(); !staged.ok())
            return staged.error();
        if (Result<void> committed = commit(); !committed.ok())
            return committed.error();
        return m_report;
    }

private:
    struct Move
    {
        QString from; ///< staged archive (absolute)
        Placement to;
        bool replace = false;
    };

    Result<void> open();
    Result<bool> read();
    Result<bool> verify();
    Result<bool> plan();
    Result<void> stage();
    Result<void> commit();
    Error recover(const Error &e);

    /// Free bytes where the import stages; -1 when unknown.
    qint64 freeBytes() const;
    /// The refusal when staging `needed` more bytes would take the file system below the reserve.
    QString noSpace(qint64 free, qint64 needed) const;
    /// read(): one entry of the bundle, staged when the mirror layout can use it, and hashed.
    Result<void> stageEntry(const BundleEntry &e, const PullBytes &pull, QString *refused);
    /// The bundle entry name of a path under the staged mirror tree.
    QString entryOf(const QString &stagedPath) const;
    /// plan(): the target's archives of the versions the bundle brings, hashed in one engine run.
    Result<void> hashTargetArchives();
    /// stage(): the good proof of every release the import brings, into a staged copy of
    /// `.provenance/HOST/NS/TYPE` (one more unit of the transaction).
    Result<void> stageProvenance(QSet<QString> &unitPaths);
    /// stage(): a Replace unit for the target's directory `path`, cloned (hard links) into the
    /// staged tree.
    Result<void> addReplaceUnit(const QString &path);
    /// stage(): a Create unit for `path`, which the target lacks (its staged directory is the caller's).
    void addCreateUnit(const QString &path);
    /// stage(): the highest of `dir`'s parents (HOST, HOST/NS, …) the target lacks; `dir` when all exist.
    QString highestMissing(const QString &dir) const;
    /// plan(): the action for one archive of the bundle.
    void planArchive(const Provider &p, const Provider *existingProvider, const ProviderVersion &v, const Archive &a, bool duplicate);

    ImportReport m_report;
    QString m_target;
    const ImportOptions &m_options;
    const BundleProgress &m_progress;
    // open()
    std::optional<QTemporaryDir> m_dryStaging; ///< a dry run that cannot stage in the target stages here
    std::optional<WorkArea> m_area;
    bool m_targetExists = false;
    QString m_id;
    QString m_stage;
    QString m_extractRoot;
    qint64 m_reserve = 0;
    BundleLimits m_limits;
    // read()
    BundleReader m_reader;
    QHash<QString, QByteArray> m_sha;
    bool m_paused = false;
    QSet<QString> m_staged;
    BundlePass m_pass;
    // verify()
    QString m_prefix;
    QString m_stagedRoot;
    QString m_entryBase;
    QMap<QString, QByteArray> m_sums;
    bool m_hasSums = false;
    Catalog m_bundleCatalog;
    QHash<QString, ArchiveResult> m_resultByPath;
    std::shared_ptr<ReleaseProvenanceStore> m_provenance; ///< the staged `.provenance/`
    // plan()
    Catalog m_targetCatalog;
    QHash<QString, PackageHashes> m_targetHashes;
    QList<Move> m_moves;
    // stage(), commit()
    QList<Unit> m_units;
    QString m_newRoot;
    QString m_journalPath;
};

} // namespace provender::bundle_detail
