#include "model/verify/HashCache.h"

#include "model/core/Logging.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace provender {

namespace {

// Bump when the table layout or the meaning of a stored hash changes: older files are recreated.
// fingerprint is NULL for files (QtSql binds an empty QByteArray as NULL).
// 4: device and ctime in the key; every PackageHashes field stored (h1ZipError, extractionProblem).
// 5: executableCandidates (the install-time executable check, docs/VERDICTS.md).
constexpr int kSchemaVersion = HashCache::SchemaVersion;

// encodeHashes()/decodeHashes() store every field of PackageHashes. A new field must be stored
// too (and kSchemaVersion bumped), or a cache hit would silently drop it.
static_assert(sizeof(PackageHashes) == 232,
              "PackageHashes changed: store the new field in encodeHashes/decodeHashes "
              "and bump kSchemaVersion, then update this size");

std::atomic<quint64> g_connectionCounter{0};

qint64 nsOf(const struct timespec &t)
{
    return qint64(t.tv_sec) * 1000000000LL + qint64(t.tv_nsec);
}

qint64 realtimeNs()
{
    struct timespec t;
    ::clock_gettime(CLOCK_REALTIME, &t);
    return nsOf(t);
}

QString errnoText(int e)
{
    return QString::fromLocal8Bit(std::strerror(e));
}

std::optional<HashString> hashFromText(const QString &text)
{
    if (text.isEmpty())
        return HashString();
    Result<HashString> h = HashString::parse(text);
    if (!h.ok())
        return std::nullopt;
    return h.value();
}

// SQLITE_BUSY (5) or SQLITE_LOCKED (6), also as an extended code: the file is in use, not damaged.
bool isBusy(const QSqlError &e)
{
    bool ok = false;
    const int code = e.nativeErrorCode().toInt(&ok);
    return ok && ((code & 0xff) == 5 || (code & 0xff) == 6);
}

QByteArray identityLine(const struct stat &st)
{
    return QByteArray::number(quint64(st.st_dev)) + '\0' + QByteArray::number(quint64(st.st_ino)) + '\0'
        + QByteArray::number(qint64(st.st_size)) + '\0' + QByteArray::number(nsOf(st.st_mtim)) + '\0'
        + QByteArray::number(nsOf(st.st_ctim));
}

} // namespace

bool FileStamp::operator==(const FileStamp &o) const
{
    return isDirectory == o.isDirectory && size == o.size && mtimeNs == o.mtimeNs && ctimeNs == o.ctimeNs && device == o.device
        && inode == o.inode && fingerprint == o.fingerprint;
}

bool FileStamp::isRacy() const
{
    // The kernel stamps ctime from a clock that ticks every few ms (CLOCK_REALTIME_COARSE), and
    // file systems without sub-second timestamps (FAT: 2 s) truncate further. A ctime with no
    // sub-second part is taken as such a file system's.
    qint64 granularity = 2'000'000'000LL;
    if (ctimeNs % 1000000000LL != 0) {
        struct timespec res
        {
            0, 4000000
        };
        ::clock_getres(CLOCK_REALTIME_COARSE, &res);
        granularity = std::max<qint64>(10'000'000LL, 2 * nsOf(res));
    }
    return takenAtNs == 0 || ctimeNs > takenAtNs - granularity;
}

Result<FileStamp> stampOf(const QString &path)
{
    struct stat st;
    const QByteArray native = QFile::encodeName(path);
    const qint64 takenAt = realtimeNs(); // before the stat: a change after it has a later ctime
    if (::stat(native.constData(), &st) != 0)
        return makeError(ErrorCode::Io, QStringLiteral("cannot stat %1: %2").arg(path, errnoText(errno)));
    FileStamp stamp;
    stamp.takenAtNs = takenAt;
    stamp.device = quint64(st.st_dev);
    stamp.inode = quint64(st.st_ino);
    stamp.mtimeNs = nsOf(st.st_mtim);
    stamp.ctimeNs = nsOf(st.st_ctim);
    if (!S_ISDIR(st.st_mode)) {
        stamp.size = qint64(st.st_size);
        return stamp;
    }

    // A package directory: its own stat says nothing about the files' contents, so fold every
    // entry's identity into a fingerprint.
    stamp.isDirectory = true;
    stamp.size = 0;
    struct Entry
    {
        QByteArray name;
        QByteArray line;
    };
    QList<Entry> entries;
    const QString base = QDir(path).absolutePath();
    QDirIterator it(base, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString entryPath = it.next();
        const QByteArray rel = QFile::encodeName(entryPath.mid(base.size() + 1));
        struct stat est;
        QByteArray line;
        if (::stat(QFile::encodeName(entryPath).constData(), &est) != 0) {
            line = rel + QByteArrayLiteral("\0?\n");
        } else {
            line = rel + '\0' + identityLine(est) + '\n';
            if (!S_ISDIR(est.st_mode))
                stamp.size += qint64(est.st_size);
            stamp.mtimeNs = std::max(stamp.mtimeNs, nsOf(est.st_mtim));
            stamp.ctimeNs = std::max(stamp.ctimeNs, nsOf(est.st_ctim));
        }
        entries.append({rel, line});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.name < b.name; });
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (const Entry &e : entries)
        h.addData(e.line);
    stamp.fingerprint = h.result();
    return stamp;
}

HashCache::HashCache(QString file) : m_file(file.isEmpty() ? defaultPath() : std::move(file)) {}

HashCache::~HashCache()
{
    if (m_open)
        flush();
    closeConnection();
}

QString HashCache::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/hashcache.sqlite");
}

bool HashCache::open()
{
    if (m_open)
        return true;
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        disable(QStringLiteral("the Qt SQLite driver (QSQLITE, Debian package libqt6sql6-sqlite) is not installed"));
        return false;
    }
    closeConnection(); // re-opening after disable(): do not leak the old connection
    m_busy = false;
    m_warning.clear();
    if (!prepareLocation()) {
        disable(QStringLiteral("cannot use the hash cache %1: %2").arg(m_file, m_warning));
        return false;
    }
    const QString distrusted = m_warning; // an untrusted file was removed: say so once open
    m_warning.clear();
    if (openConnection() && checkAndPrepareSchema()) {
        m_open = true;
        m_warning = distrusted;
        return true;
    }
    if (m_busy) {
        // Another process (the GUI and the CLI share the default file) holds a lock: deleting the
        // file and its -wal/-shm under it would destroy its data. Stay off for this run.
        const QString why = m_warning;
        closeConnection();
        disable(QStringLiteral("the hash cache %1 is in use by another process: %2").arg(m_file, why));
        return false;
    }
    // Damaged, foreign or unreadable: start afresh once.
    const QString why = m_warning;
    closeConnection();
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")})
        ::unlink(QFile::encodeName(m_file + suffix).constData());
    qCWarning(lcVerify).noquote() << "hash cache" << m_file << "cannot be used, recreating it:" << why;
    m_warning.clear();
    if (prepareLocation() && openConnection() && checkAndPrepareSchema()) {
        m_open = true;
        m_warning = QStringLiteral("the hash cache %1 could not be used (%2) and has been recreated").arg(m_file, why);
        return true;
    }
    disable(QStringLiteral("cannot use the hash cache %1: %2").arg(m_file, m_warning));
    return false;
}

bool HashCache::prepareLocation()
{
    const uid_t me = ::geteuid();
    const QString dir = QFileInfo(m_file).absolutePath();
    const QByteArray nativeDir = QFile::encodeName(dir);
    struct stat ds;
    if (::stat(nativeDir.constData(), &ds) != 0) {
        if (!QDir().mkpath(dir)) {
            m_warning = QStringLiteral("cannot create the directory %1").arg(dir);
            return false;
        }
        ::chmod(nativeDir.constData(), 0700);
        if (::stat(nativeDir.constData(), &ds) != 0) {
            m_warning = QStringLiteral("cannot stat %1: %2").arg(dir, errnoText(errno));
            return false;
        }
    }
    if (!S_ISDIR(ds.st_mode)) {
        m_warning = QStringLiteral("%1 is not a directory").arg(dir);
        return false;
    }
    if (ds.st_uid == me) {
        if ((ds.st_mode & 077) != 0 && ::chmod(nativeDir.constData(), ds.st_mode & 0700) != 0)
            qCWarning(lcVerify).noquote() << "cannot make" << dir << "private:" << errnoText(errno);
    } else if ((ds.st_mode & 022) != 0 && (ds.st_mode & S_ISVTX) == 0) {
        // Someone else's directory that others may write to: any file in it could be swapped.
        m_warning = QStringLiteral("the directory %1 belongs to another user and others can write to it").arg(dir);
        return false;
    }

    // The database and its companions: ours, regular, written by nobody else.
    const QString suffixes[] = {QString(), QStringLiteral("-wal"), QStringLiteral("-shm"), QStringLiteral("-journal")};
    QStringList distrust;
    for (const QString &suffix : suffixes) {
        const QString path = m_file + suffix;
        const QByteArray native = QFile::encodeName(path);
        struct stat st;
        if (::lstat(native.constData(), &st) != 0) {
            if (errno != ENOENT)
                distrust << QStringLiteral("cannot stat %1: %2").arg(path, errnoText(errno));
            continue;
        }
        if (!S_ISREG(st.st_mode))
            distrust << QStringLiteral("%1 is not a regular file").arg(path);
        else if (st.st_uid != me)
            distrust << QStringLiteral("%1 belongs to user %2, not %3").arg(path).arg(st.st_uid).arg(me);
        else if ((st.st_mode & 022) != 0)
            distrust << QStringLiteral("%1 is writable by %2")
                            .arg(path, (st.st_mode & 002) ? QStringLiteral("others") : QStringLiteral("its group"));
        else if ((st.st_mode & 077) != 0 && ::chmod(native.constData(), 0600) != 0)
            qCWarning(lcVerify).noquote() << "cannot make" << path << "private:" << errnoText(errno);
    }
    if (!distrust.isEmpty()) {
        for (const QString &suffix : suffixes) {
            const QByteArray native = QFile::encodeName(m_file + suffix);
            if (::unlink(native.constData()) != 0 && errno != ENOENT) {
                m_warning = QStringLiteral("it is not trusted (%1) and cannot be removed: %2")
                                .arg(distrust.join(QStringLiteral("; ")), errnoText(errno));
                return false;
            }
        }
        m_warning = QStringLiteral("the hash cache %1 was not trusted (%2) and has been recreated")
                        .arg(m_file, distrust.join(QStringLiteral("; ")));
        qCWarning(lcVerify).noquote() << m_warning;
    }
    // Created here, private from the first byte (SQLite gives -wal and -shm the same mode).
    const int fd = ::open(QFile::encodeName(m_file).constData(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0)
        ::close(fd);
    else if (errno != EEXIST) {
        m_warning = QStringLiteral("cannot create %1: %2").arg(m_file, errnoText(errno));
        return false;
    }
    return true;
}

bool HashCache::openConnection()
{
    m_connectionName = QStringLiteral("provender-hashcache-%1").arg(g_connectionCounter.fetch_add(1));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(m_file);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open())
        return failWith(db.lastError());
    return true;
}

bool HashCache::failWith(const QSqlError &error)
{
    m_warning = error.text();
    m_busy = isBusy(error);
    return false;
}

bool HashCache::execOrWarn(const QString &sql)
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!q.exec(sql))
        return failWith(q.lastError());
    return true;
}

bool HashCache::queryColumn(const QString &sql, int column, QStringList *values)
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!q.exec(sql))
        return failWith(q.lastError());
    while (q.next())
        *values << q.value(column).toString();
    return true;
}

bool HashCache::checkAndPrepareSchema()
{
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    {
        // A file that is not a database fails here ("file is not a database").
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA quick_check")))
            return failWith(q.lastError());
        if (!q.next() || q.value(0).toString() != QStringLiteral("ok")) {
            m_warning = QStringLiteral("integrity check failed: ") + q.value(0).toString();
            return false;
        }
    }
    int version = 0;
    {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
            return failWith(q.lastError());
        version = q.value(0).toInt();
    }
    // The expected layout, exactly: a file of our version with other columns was written by
    // something else and is not trusted; a fresh file has version 0 and no table at all.
    static const QStringList expectedColumns = {QStringLiteral("path"),        QStringLiteral("device"),   QStringLiteral("inode"),
                                                QStringLiteral("size"),        QStringLiteral("mtime_ns"), QStringLiteral("ctime_ns"),
                                                QStringLiteral("fingerprint"), QStringLiteral("kind"),     QStringLiteral("hashes")};
    QStringList tables;
    if (!queryColumn(QStringLiteral("SELECT name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger', 'index') ORDER BY name"), 0,
                     &tables))
        return false;
    if (version == kSchemaVersion) {
        QStringList columns;
        if (!queryColumn(QStringLiteral("PRAGMA table_info(hashes)"), 1, &columns))
            return false;
        if (columns != expectedColumns || tables != QStringList{QStringLiteral("hashes")}) {
            m_warning = QStringLiteral("it has schema version %1 but not its tables").arg(version);
            return false;
        }
    } else if (version != 0 || !tables.isEmpty()) {
        m_warning = version == 0 ? QStringLiteral("it is another program's database")
                                 : QStringLiteral("it has schema version %1, not %2").arg(version).arg(kSchemaVersion);
        return false;
    }
    if (!execOrWarn(QStringLiteral("PRAGMA journal_mode=WAL")) || !execOrWarn(QStringLiteral("PRAGMA synchronous=NORMAL")))
        return false;
    if (version != kSchemaVersion) {
        if (!execOrWarn(QStringLiteral("CREATE TABLE hashes ("
                                       " path TEXT PRIMARY KEY NOT NULL,"
                                       " device INTEGER NOT NULL,"
                                       " inode INTEGER NOT NULL,"
                                       " size INTEGER NOT NULL,"
                                       " mtime_ns INTEGER NOT NULL,"
                                       " ctime_ns INTEGER NOT NULL,"
                                       " fingerprint BLOB,"
                                       " kind INTEGER NOT NULL,"
                                       " hashes BLOB NOT NULL" // encodeHashes(): one value to read instead of eleven
                                       ") WITHOUT ROWID")))
            return false;
        if (!execOrWarn(QStringLiteral("PRAGMA user_version=%1").arg(kSchemaVersion)))
            return false;
    }
    return true;
}

void HashCache::closeConnection()
{
    m_lookup.reset();
    if (m_connectionName.isEmpty())
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connectionName);
    m_connectionName.clear();
}

void HashCache::disable(const QString &why)
{
    m_lookup.reset();
    m_open = false;
    m_warning = why;
    m_pending.clear();
    m_preloaded.clear();
    m_hasPreload = false;
    qCWarning(lcVerify).noquote() << "hash cache off:" << why;
}

namespace {

constexpr QLatin1StringView kColumns("device, inode, size, mtime_ns, ctime_ns, fingerprint, kind, hashes");

QByteArray encodeHashes(const PackageHashes &h)
{
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_6_4);
    s << quint8(h.hasDirectoryEntries ? 1 : 0) << qint64(h.fileSize) << qint64(h.contentBytes) << qint32(h.entryCount) << h.zh.toString()
      << h.h1Zip.toString() << h.h1ZipError << h.h1Extracted.toString() << h.extractionProblem << h.unsafeNames << h.executableCandidates;
    return out;
}

bool decodeHashes(const QByteArray &bytes, PackageHashes &h)
{
    QDataStream s(bytes);
    s.setVersion(QDataStream::Qt_6_4);
    quint8 flags = 0;
    qint64 fileSize = 0, contentBytes = 0;
    qint32 entries = 0;
    QString zh, h1Zip, h1Extracted;
    s >> flags >> fileSize >> contentBytes >> entries >> zh >> h1Zip >> h.h1ZipError >> h1Extracted >> h.extractionProblem >> h.unsafeNames
        >> h.executableCandidates;
    if (s.status() != QDataStream::Ok || !s.atEnd())
        return false;
    const auto z = hashFromText(zh);
    const auto hz = hashFromText(h1Zip);
    const auto he = hashFromText(h1Extracted);
    if (!z || !hz || !he)
        return false;
    h.zh = *z;
    h.h1Zip = *hz;
    h.h1Extracted = *he;
    h.hasDirectoryEntries = (flags & 1) != 0;
    h.fileSize = fileSize;
    h.contentBytes = contentBytes;
    h.entryCount = entries;
    return true;
}

// Reads the columns of kColumns starting at `first`; false when the stored value does not decode.
template<typename Row> bool readRow(const QSqlQuery &q, int first, Row &row)
{
    row.stamp.device = quint64(q.value(first + 0).toLongLong());
    row.stamp.inode = quint64(q.value(first + 1).toLongLong());
    row.stamp.size = q.value(first + 2).toLongLong();
    row.stamp.mtimeNs = q.value(first + 3).toLongLong();
    row.stamp.ctimeNs = q.value(first + 4).toLongLong();
    row.stamp.fingerprint = q.value(first + 5).toByteArray();
    row.stamp.isDirectory = q.value(first + 6).toInt() == int(PackageHashes::Kind::Directory);
    row.hashes.kind = row.stamp.isDirectory ? PackageHashes::Kind::Directory : PackageHashes::Kind::Zip;
    return decodeHashes(q.value(first + 7).toByteArray(), row.hashes);
}

} // namespace

void HashCache::preload(const QString &pathPrefix)
{
    if (!m_open)
        return;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    q.setForwardOnly(true);
    // SQLite compares the stored UTF-8 bytes, so the paths starting with the prefix are one
    // contiguous run from `prefix` on, in primary-key order. (An upper bound of prefix + U+FFFF
    // would miss paths with characters above U+FFFF: their UTF-8 lead byte F0..F4 sorts after EF.)
    q.prepare(QStringLiteral("SELECT path, ") + kColumns + QStringLiteral(" FROM hashes WHERE path >= ? ORDER BY path"));
    q.addBindValue(pathPrefix);
    if (!q.exec()) {
        qCWarning(lcVerify) << "hash cache preload failed:" << q.lastError().text();
        return;
    }
    m_preloaded.clear();
    while (q.next()) {
        const QString path = q.value(0).toString();
        if (!path.startsWith(pathPrefix))
            break;
        Row row;
        if (readRow(q, 1, row))
            m_preloaded.insert(pathKey(path), row);
    }
    m_hasPreload = true;
    m_preloadPrefix = pathPrefix;
    qCDebug(lcVerify) << "hash cache preloaded" << m_preloaded.size() << "rows under" << pathPrefix;
}

HashCache::PathKey HashCache::pathKey(const QString &path)
{
    return {qHash(path, size_t(0x9e3779b97f4a7c15ULL)), qHash(path, size_t(0xc2b2ae3d27d4eb4fULL))};
}

void HashCache::dropPreload()
{
    m_preloaded = {};
    m_hasPreload = false;
    m_preloadPrefix.clear();
}

std::optional<PackageHashes> HashCache::lookup(const QString &absolutePath, const FileStamp &stamp)
{
    if (!m_open)
        return std::nullopt;
    if (m_hasPreload && absolutePath.startsWith(m_preloadPrefix)) {
        const auto it = m_preloaded.constFind(pathKey(absolutePath));
        if (it == m_preloaded.constEnd() || !(it->stamp == stamp))
            return std::nullopt;
        return it->hashes;
    }
    if (!m_lookup) {
        m_lookup = std::make_unique<QSqlQuery>(QSqlDatabase::database(m_connectionName, false));
        m_lookup->setForwardOnly(true);
        if (!m_lookup->prepare(QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM hashes WHERE path = ?"))) {
            qCWarning(lcVerify) << "hash cache lookup failed:" << m_lookup->lastError().text();
            m_lookup.reset();
            return std::nullopt;
        }
    }
    QSqlQuery &q = *m_lookup;
    q.bindValue(0, absolutePath);
    if (!q.exec()) {
        qCWarning(lcVerify) << "hash cache lookup failed:" << q.lastError().text();
        return std::nullopt;
    }
    Row row;
    const bool hit = q.next() && readRow(q, 0, row) && row.stamp == stamp;
    q.finish();
    if (!hit)
        return std::nullopt;
    return row.hashes;
}

bool HashCache::store(const QString &absolutePath, const FileStamp &stamp, const PackageHashes &hashes)
{
    if (!m_open)
        return false;
    if (stamp.isRacy()) {
        qCDebug(lcVerify) << "not caching" << absolutePath << "(changed too recently to trust its stamp)";
        return false;
    }
    m_pending.append({absolutePath, Row{stamp, hashes}});
    if (m_pending.size() >= batchSize)
        flush();
    return true;
}

bool HashCache::flush()
{
    if (!m_open)
        return false;
    if (m_pending.isEmpty())
        return true;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    if (!db.transaction()) {
        disable(QStringLiteral("cannot write the hash cache: ") + db.lastError().text());
        return false;
    }
    bool ok = true;
    {
        QSqlQuery q(db);
        ok = q.prepare(QStringLiteral("INSERT OR REPLACE INTO hashes (path, ") + kColumns
                       + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (const Pending &p : std::as_const(m_pending)) {
            if (!ok)
                break;
            q.bindValue(0, p.path);
            q.bindValue(1, qint64(p.row.stamp.device));
            q.bindValue(2, qint64(p.row.stamp.inode));
            q.bindValue(3, p.row.stamp.size);
            q.bindValue(4, p.row.stamp.mtimeNs);
            q.bindValue(5, p.row.stamp.ctimeNs);
            q.bindValue(6, p.row.stamp.fingerprint); // NULL for files
            q.bindValue(7, int(p.row.hashes.kind));
            q.bindValue(8, encodeHashes(p.row.hashes));
            ok = q.exec();
            if (!ok)
                m_warning = q.lastError().text();
        }
    }
    if (!ok || !db.commit()) {
        const QString why = ok ? db.lastError().text() : m_warning;
        db.rollback();
        disable(QStringLiteral("cannot write the hash cache: ") + why);
        return false;
    }
    for (const Pending &p : std::as_const(m_pending))
        if (m_hasPreload && p.path.startsWith(m_preloadPrefix))
            m_preloaded.insert(pathKey(p.path), p.row);
    m_pending.clear();
    return true;
}

qint64 HashCache::rowCount()
{
    if (!m_open)
        return 0;
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM hashes")) || !q.next())
        return 0;
    return q.value(0).toLongLong();
}

} // namespace provender
