#pragma once
// A persistent cache of package hashes (SQLite through QtSql), so that re-verifying an unchanged
// mirror hashes nothing. A row is reused only when the file's identity is unchanged: absolute
// path, device, inode, size, mtime and ctime (both in ns) — and, for an unpacked package
// directory, a fingerprint of every entry's name, device, inode, size, mtime and ctime inside it.
// ctime is the field a user cannot set: rewriting a file in place and restoring its mtime
// (`cp -p`, `touch -r`, utimensat) still moves its ctime, so the row no longer matches. A file
// whose ctime is too close to the moment it was stamped (within the file system's timestamp
// granularity, git's "racily clean" case) is hashed but not stored: a change in the same clock
// tick would leave every field the same.
//
// Trust: the file and its directory are private to the user (0600 / 0700; existing ones are
// tightened on open). A cache file that is not a regular file, belongs to another user or is
// writable by group or others (so someone else could have planted rows) is not trusted: it is
// deleted and recreated with a warning, like a damaged one.
//
// Threading: a HashCache object owns one database connection and must be used only on the
// thread that opened it (QSqlDatabase is per-thread). The verification engine keeps one on its
// coordinating thread and is the single writer; several processes may share the file (WAL).
//
// Failure policy: the cache is an optimization. A file that cannot be opened, is not a database,
// fails `PRAGMA quick_check`, has another schema or is not trusted (above) is deleted and
// recreated, with a warning (qCWarning and warning()); if that fails too the cache turns itself
// off (isOpen() == false, warning() says why) and every call is a no-op.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QSqlError;
class QSqlQuery;

namespace provender {

/// The identity of a file or package directory on disk, as the cache compares it.
struct FileStamp
{
    bool isDirectory = false;
    qint64 size = -1;       ///< file bytes, or the sum of file sizes inside a directory
    qint64 mtimeNs = 0;     ///< st_mtim in ns since the epoch (directory: the newest entry's)
    qint64 ctimeNs = 0;     ///< st_ctim in ns since the epoch (directory: the newest entry's)
    quint64 device = 0;     ///< st_dev of the file or directory itself
    quint64 inode = 0;      ///< st_ino of the file or directory itself
    QByteArray fingerprint; ///< directory only: SHA-256 over every entry's (name, dev, inode, size, mtime, ctime)
    /// When the stamp was taken (CLOCK_REALTIME, ns); not part of the identity. See isRacy().
    qint64 takenAtNs = 0;

    /// Same identity (takenAtNs is not compared).
    bool operator==(const FileStamp &other) const;
    /// The newest ctime is within the file system's timestamp granularity of takenAtNs: a change
    /// made just after the stamp could keep every field the same, so the row must not be stored.
    bool isRacy() const;
};

/// stat() the path (following symlinks, as the mirror scanner does) and, for a directory, every
/// entry below it (symlinked directories are not descended into, like HashDir).
Result<FileStamp> stampOf(const QString &path);

class HashCache
{
public:
    /// The on-disk schema this build reads and writes (PRAGMA user_version); any other is rebuilt.
    static constexpr int SchemaVersion = 5;
    /// Does not open anything yet; `file` "" means defaultPath().
    explicit HashCache(QString file = {});
    ~HashCache();
    HashCache(const HashCache &) = delete;
    HashCache &operator=(const HashCache &) = delete;

    /// QStandardPaths::CacheLocation + "/hashcache.sqlite".
    static QString defaultPath();

    /// Open (creating, or recreating a damaged file). Never fatal: false means the cache is off.
    bool open();
    bool isOpen() const { return m_open; }
    QString fileName() const { return m_file; }
    /// Why the cache is off or was recreated ("" when all went well).
    QString warning() const { return m_warning; }

    /// Load every row whose path starts with `pathPrefix` into memory, so that lookup() of many
    /// archives under one mirror costs one range scan instead of a query each.
    void preload(const QString &pathPrefix);

    /// Forget the preloaded rows (lookups query the database again); frees their memory.
    void dropPreload();

    /// The cached hashes of `absolutePath` if its row's stamp equals `stamp`.
    std::optional<PackageHashes> lookup(const QString &absolutePath, const FileStamp &stamp);

    /// Queue a row; written in one transaction by flush() (called automatically every
    /// `batchSize` rows and by the destructor). A racy stamp (FileStamp::isRacy) is not stored:
    /// returns false then (and when the cache is off).
    bool store(const QString &absolutePath, const FileStamp &stamp, const PackageHashes &hashes);
    bool flush();

    /// Rows in the database (for tests and the benchmark).
    qint64 rowCount();

private:
    struct Row
    {
        FileStamp stamp;
        PackageHashes hashes;
    };
    bool prepareLocation(); ///< private directory; an untrusted file removed (m_warning says why)
    bool openConnection();
    bool checkAndPrepareSchema();
    void closeConnection();
    void disable(const QString &why);
    bool execOrWarn(const QString &sql);
    /// Runs `sql` and appends column `column` of every row to `values`; false after failWith().
    bool queryColumn(const QString &sql, int column, QStringList *values);
    /// Keeps `error` as the warning (and whether it is a lock held elsewhere); returns false.
    bool failWith(const QSqlError &error);

    QString m_file;
    QString m_connectionName;
    QString m_warning;
    bool m_open = false;
    bool m_busy = false;                 ///< the last open attempt failed because another connection holds a lock
    std::unique_ptr<QSqlQuery> m_lookup; ///< prepared once, reused by lookup()
    /// Preloaded rows keyed by a 128-bit hash of the path (two independent 64-bit hashes), not
    /// by the path itself: 100,000 paths would cost tens of MiB.
    using PathKey = std::pair<size_t, size_t>;
    static PathKey pathKey(const QString &path);
    QHash<PathKey, Row> m_preloaded;
    bool m_hasPreload = false;
    QString m_preloadPrefix;
    struct Pending
    {
        QString path;
        Row row;
    };
    QList<Pending> m_pending;
    static constexpr int batchSize = 2000;
};

} // namespace provender
