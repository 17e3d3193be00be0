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

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace provender {

namespace {

// Bump when the table layout or the meaning of a stored hash changes: older files are recreated.
// fingerprint is NULL for files (QtSql binds an empty QByteArray as NULL).
constexpr int kSchemaVersion = 3;

std::atomic<quint64> g_connectionCounter{0};

qint64 mtimeNsOf(const struct stat &st)
{
    return qint64(st.st_mtim.tv_sec) * 1000000000LL + qint64(st.st_mtim.tv_nsec);
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

} // namespace

Result<FileStamp> stampOf(const QString &path)
{
    struct stat st;
    const QByteArray native = QFile::encodeName(path);
    if (::stat(native.constData(), &st) != 0)
        return makeError(ErrorCode::Io, QStringLiteral("cannot stat %1: %2").arg(path, errnoText(errno)));
    FileStamp stamp;
    stamp.inode = quint64(st.st_ino);
    stamp.mtimeNs = mtimeNsOf(st);
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
    QDirIterator it(base, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString entryPath = it.next();
        const QByteArray rel = QFile::encodeName(entryPath.mid(base.size() + 1));
        struct stat est;
        QByteArray line;
        if (::stat(QFile::encodeName(entryPath).constData(), &est) != 0) {
            line = rel + QByteArrayLiteral("\0?\n");
        } else {
            line = rel + '\0' + QByteArray::number(qint64(est.st_size)) + '\0'
                   + QByteArray::number(mtimeNsOf(est)) + '\0' + QByteArray::number(quint64(est.st_ino)) + '\n';
            if (!S_ISDIR(est.st_mode))
                stamp.size += qint64(est.st_size);
            stamp.mtimeNs = std::max(stamp.mtimeNs, mtimeNsOf(est));
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
    QDir().mkpath(QFileInfo(m_file).absolutePath());
    closeConnection(); // re-opening after disable(): do not leak the old connection
    m_busy = false;
    if (openConnection() && checkAndPrepareSchema()) {
        m_open = true;
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
        QFile::remove(m_file + suffix);
    qCWarning(lcVerify) << "hash cache" << m_file << "is damaged, recreating it:" << why;
    m_warning.clear();
    if (openConnection() && checkAndPrepareSchema()) {
        m_open = true;
        m_warning = QStringLiteral("the hash cache %1 was damaged and has been recreated (%2)").arg(m_file, why);
        return true;
    }
    disable(QStringLiteral("cannot use the hash cache %1: %2").arg(m_file, m_warning));
    return false;
}

bool HashCache::openConnection()
{
    m_connectionName = QStringLiteral("provender-hashcache-%1").arg(g_connectionCounter.fetch_add(1));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(m_file);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open()) {
        m_warning = db.lastError().text();
        m_busy = isBusy(db.lastError());
        return false;
    }
    return true;
}

bool HashCache::execOrWarn(const QString &sql)
{
    QSqlQuery q(QSqlDatabase::database(m_connectionName, false));
    if (!q.exec(sql)) {
        m_warning = q.lastError().text();
        m_busy = isBusy(q.lastError());
        return false;
    }
    return true;
}

bool HashCache::checkAndPrepareSchema()
{
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    {
        // A file that is not a database fails here ("file is not a database").
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA quick_check"))) {
            m_warning = q.lastError().text();
            m_busy = isBusy(q.lastError());
            return false;
        }
        if (!q.next() || q.value(0).toString() != QStringLiteral("ok")) {
            m_warning = QStringLiteral("integrity check failed: ") + q.value(0).toString();
            return false;
        }
    }
    int version = 0;
    {
        QSqlQuery q(db);
        if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) {
            m_warning = q.lastError().text();
            m_busy = isBusy(q.lastError());
            return false;
        }
        version = q.value(0).toInt();
    }
    if (!execOrWarn(QStringLiteral("PRAGMA journal_mode=WAL")) || !execOrWarn(QStringLiteral("PRAGMA synchronous=NORMAL")))
        return false;
    if (version != kSchemaVersion) {
        if (!execOrWarn(QStringLiteral("DROP TABLE IF EXISTS hashes")))
            return false;
        if (!execOrWarn(QStringLiteral(
                "CREATE TABLE hashes ("
                " path TEXT PRIMARY KEY NOT NULL,"
                " size INTEGER NOT NULL,"
                " mtime_ns INTEGER NOT NULL,"
                " inode INTEGER NOT NULL,"
                " fingerprint BLOB,"
                " kind INTEGER NOT NULL,"
                " hashes BLOB NOT NULL" // encodeHashes(): one value to read instead of nine
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

constexpr QLatin1StringView kColumns("size, mtime_ns, inode, fingerprint, kind, hashes");

QByteArray encodeHashes(const PackageHashes &h)
{
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_6_4);
    s << quint8(h.hasDirectoryEntries ? 1 : 0) << qint64(h.fileSize) << qint64(h.contentBytes) << qint32(h.entryCount)
      << h.zh.toString() << h.h1Zip.toString() << h.h1Extracted.toString() << h.unsafeNames;
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
    s >> flags >> fileSize >> contentBytes >> entries >> zh >> h1Zip >> h1Extracted >> h.unsafeNames;
    if (s.status() != QDataStream::Ok)
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
template<typename Row>
bool readRow(const QSqlQuery &q, int first, Row &row)
{
    row.stamp.size = q.value(first + 0).toLongLong();
    row.stamp.mtimeNs = q.value(first + 1).toLongLong();
    row.stamp.inode = quint64(q.value(first + 2).toLongLong());
    row.stamp.fingerprint = q.value(first + 3).toByteArray();
    row.stamp.isDirectory = q.value(first + 4).toInt() == int(PackageHashes::Kind::Directory);
    row.hashes.kind = row.stamp.isDirectory ? PackageHashes::Kind::Directory : PackageHashes::Kind::Zip;
    return decodeHashes(q.value(first + 5).toByteArray(), row.hashes);
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
            m_preloaded.insert(pathKey(path), std::move(row));
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

void HashCache::store(const QString &absolutePath, const FileStamp &stamp, const PackageHashes &hashes)
{
    if (!m_open)
        return;
    m_pending.append({absolutePath, Row{stamp, hashes}});
    if (m_pending.size() >= batchSize)
        flush();
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
                       + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?)"));
        for (const Pending &p : std::as_const(m_pending)) {
            if (!ok)
                break;
            q.bindValue(0, p.path);
            q.bindValue(1, p.row.stamp.size);
            q.bindValue(2, p.row.stamp.mtimeNs);
            q.bindValue(3, qint64(p.row.stamp.inode));
            q.bindValue(4, p.row.stamp.fingerprint); // NULL for files
            q.bindValue(5, int(p.row.hashes.kind));
            q.bindValue(6, encodeHashes(p.row.hashes));
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
