// HashCache: hits only for an unchanged identity, damaged files recreated, never fatal.

#include "model/verify/HashCache.h"
#include "tests/support/TestSupport.h"

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

using namespace provender;

Q_DECLARE_METATYPE(provender::FileStamp)

namespace {

PackageHashes sampleHashes(int n)
{
    PackageHashes h;
    h.kind = PackageHashes::Kind::Zip;
    // Arbitrary well-formed values: the cache must give back exactly what it was given.
    h.zh = HashString::parse(QStringLiteral("zh:%1").arg(n, 64, 16, QLatin1Char('0'))).value();
    h.h1Zip = HashString::parse(QStringLiteral("h1:zip%1=").arg(n)).value();
    h.h1Extracted = HashString::parse(QStringLiteral("h1:ext%1=").arg(n)).value();
    h.h1ZipError = n % 4 == 0 ? QStringLiteral("zip error %1").arg(n) : QString();
    h.extractionProblem = n % 5 == 0 ? QStringLiteral("entry contains '..': ../%1").arg(n) : QString();
    h.hasDirectoryEntries = n % 2 == 1;
    h.unsafeNames = n % 3 == 0 ? QStringList{QStringLiteral("../evil"), QStringLiteral("/abs")} : QStringList{};
    h.fileSize = 1000 + n;
    h.contentBytes = 5000 + n;
    h.entryCount = n;
    return h;
}

FileStamp stamp(qint64 size, qint64 mtime, quint64 inode, qint64 ctime = 1, quint64 device = 64769)
{
    FileStamp s;
    s.size = size;
    s.mtimeNs = mtime;
    s.ctimeNs = ctime;
    s.device = device;
    s.inode = inode;
    s.takenAtNs = ctime + 60'000'000'000LL; // a minute later: not racy
    return s;
}

int modeOf(const QString &path)
{
    struct stat st;
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

bool sameHashes(const PackageHashes &a, const PackageHashes &b)
{
    return a.kind == b.kind && a.zh == b.zh && a.h1Zip == b.h1Zip && a.h1ZipError == b.h1ZipError && a.h1Extracted == b.h1Extracted
        && a.hasDirectoryEntries == b.hasDirectoryEntries && a.extractionProblem == b.extractionProblem && a.unsafeNames == b.unsafeNames
        && a.fileSize == b.fileSize && a.contentBytes == b.contentBytes && a.entryCount == b.entryCount;
}

/// Stores the sample rows 0..count-1: `folder`/<n>.zip with stamp(n, n, n) and sampleHashes(n).
void storeSamples(HashCache &cache, int count, const QString &folder = QStringLiteral("/m"))
{
    for (int n = 0; n < count; ++n)
        cache.store(QStringLiteral("%1/%2.zip").arg(folder).arg(n), stamp(n, n, n), sampleHashes(n));
}

/// Stores the one sample row most tests need ("/m/a.zip" with stamp(1, 1, 1) and sampleHashes(1))
/// and flushes it: flush()'s answer.
bool storeOneRow(HashCache &cache)
{
    cache.store(QStringLiteral("/m/a.zip"), stamp(1, 1, 1), sampleHashes(1));
    return cache.flush();
}

using provender::test::writeFile;

} // namespace

class TestHashCache : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString file(const QString &name) const { return m_dir.filePath(name); }
    /// file(name), with whatever an earlier test left there removed.
    QString freshFile(const QString &name) const
    {
        const QString path = file(name);
        QFile::remove(path);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
            PROVENDER_SKIP(provender::test::Missing::Package,
                           QStringLiteral("the Qt SQLite driver is not installed (Debian package libqt6sql6-sqlite)"));
    }

    void defaultPathIsInCacheLocation()
    {
        QCOMPARE(HashCache::defaultPath(),
                 QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/hashcache.sqlite"));
    }

    void roundTripAndIdentity_data()
    {
        QTest::addColumn<FileStamp>("probe");
        QTest::addColumn<bool>("hit");
        QTest::newRow("same") << stamp(100, 5, 7) << true;
        QTest::newRow("size changed") << stamp(101, 5, 7) << false;
        QTest::newRow("mtime changed by 1 ns") << stamp(100, 6, 7) << false;
        QTest::newRow("inode changed") << stamp(100, 5, 8) << false;
        QTest::newRow("ctime changed by 1 ns") << stamp(100, 5, 7, 2) << false;
        QTest::newRow("device changed") << stamp(100, 5, 7, 1, 64770) << false;
        FileStamp later = stamp(100, 5, 7);
        later.takenAtNs += 1000;
        QTest::newRow("stamped at another time") << later << true;
        FileStamp dir = stamp(100, 5, 7);
        dir.isDirectory = true;
        QTest::newRow("now a directory") << dir << false;
        FileStamp fp = stamp(100, 5, 7);
        fp.fingerprint = QByteArray(32, 'a');
        QTest::newRow("fingerprint differs") << fp << false;
    }

    void roundTripAndIdentity()
    {
        QFETCH(FileStamp, probe);
        QFETCH(bool, hit);
        const QString db = freshFile(QStringLiteral("roundtrip.sqlite"));
        {
            HashCache cache(db);
            QVERIFY(cache.open());
            QVERIFY(cache.warning().isEmpty());
            cache.store(QStringLiteral("/m/a.zip"), stamp(100, 5, 7), sampleHashes(3));
            QVERIFY(cache.flush());
        }
        HashCache cache(db); // a new connection reads what the old one wrote
        QVERIFY(cache.open());
        QCOMPARE(cache.rowCount(), 1);
        const std::optional<PackageHashes> got = cache.lookup(QStringLiteral("/m/a.zip"), probe);
        QCOMPARE(got.has_value(), hit);
        if (hit) {
            const PackageHashes want = sampleHashes(3);
            QCOMPARE(got->kind, want.kind);
            QCOMPARE(got->zh, want.zh);
            QCOMPARE(got->h1Zip, want.h1Zip);
            QCOMPARE(got->h1Extracted, want.h1Extracted);
            QCOMPARE(got->hasDirectoryEntries, want.hasDirectoryEntries);
            QCOMPARE(got->unsafeNames, want.unsafeNames);
            QCOMPARE(got->fileSize, want.fileSize);
            QCOMPARE(got->contentBytes, want.contentBytes);
            QCOMPARE(got->entryCount, want.entryCount);
        }
        QVERIFY(!cache.lookup(QStringLiteral("/m/other.zip"), probe));
    }

    void everyFieldRoundTrips()
    {
        // Every field of PackageHashes comes back, also the reasons a package would be refused
        // (a hit that dropped extractionProblem would turn a refused package into an installable one).
        const QString db = freshFile(QStringLiteral("fields.sqlite"));
        {
            HashCache cache(db);
            QVERIFY(cache.open());
            storeSamples(cache, 20);
        }
        HashCache cache(db);
        QVERIFY(cache.open());
        int withError = 0, withProblem = 0;
        for (int n = 0; n < 20; ++n) {
            const std::optional<PackageHashes> got = cache.lookup(QStringLiteral("/m/%1.zip").arg(n), stamp(n, n, n));
            QVERIFY(got);
            QVERIFY2(sameHashes(*got, sampleHashes(n)), qPrintable(QString::number(n)));
            withError += got->h1ZipError.isEmpty() ? 0 : 1;
            withProblem += got->extractionProblem.isEmpty() ? 0 : 1;
        }
        QCOMPARE(withError, 5);
        QCOMPARE(withProblem, 4);
    }

    void racyStampIsNotStored_data()
    {
        QTest::addColumn<qint64>("ctime");
        QTest::addColumn<qint64>("takenAfter"); // ns between the last change and the stamp
        QTest::addColumn<bool>("stored");
        const qint64 ms = 1'000'000LL;
        // Sub-second ctime: the kernel's timestamp clock ticks every few ms.
        QTest::newRow("ns, same tick") << qint64(1'700'000'000'123'456'789LL) << qint64(1 * ms) << false;
        QTest::newRow("ns, 5 ms later") << qint64(1'700'000'000'123'456'789LL) << qint64(5 * ms) << false;
        QTest::newRow("ns, 1 s later") << qint64(1'700'000'000'123'456'789LL) << qint64(1000 * ms) << true;
        // Whole-second ctime: a file system with coarse timestamps (FAT: 2 s).
        QTest::newRow("s, 1.5 s later") << qint64(1'700'000'000'000'000'000LL) << qint64(1500 * ms) << false;
        QTest::newRow("s, 3 s later") << qint64(1'700'000'000'000'000'000LL) << qint64(3000 * ms) << true;
    }

    void racyStampIsNotStored()
    {
        // A change in the same timestamp tick as the stamp would keep every field the same: such
        // a row is never written (git's "racily clean" rule).
        QFETCH(qint64, ctime);
        QFETCH(qint64, takenAfter);
        QFETCH(bool, stored);
        const QString db = freshFile(QStringLiteral("racy.sqlite"));
        HashCache cache(db);
        QVERIFY(cache.open());
        FileStamp s = stamp(10, ctime, 3, ctime);
        s.takenAtNs = ctime + takenAfter;
        QCOMPARE(s.isRacy(), !stored);
        QCOMPARE(cache.store(QStringLiteral("/m/a.zip"), s, sampleHashes(1)), stored);
        QVERIFY(cache.flush());
        QCOMPARE(cache.rowCount(), stored ? 1 : 0);
    }

    void replaceKeepsOneRowPerPath()
    {
        const QString db = file(QStringLiteral("replace.sqlite"));
        HashCache cache(db);
        QVERIFY(cache.open());
        cache.store(QStringLiteral("/m/a.zip"), stamp(1, 1, 1), sampleHashes(1));
        cache.store(QStringLiteral("/m/a.zip"), stamp(2, 2, 2), sampleHashes(2));
        QVERIFY(cache.flush());
        QCOMPARE(cache.rowCount(), 1);
        QVERIFY(!cache.lookup(QStringLiteral("/m/a.zip"), stamp(1, 1, 1)));
        QCOMPARE(cache.lookup(QStringLiteral("/m/a.zip"), stamp(2, 2, 2))->entryCount, 2);
    }

    void preloadAnswersLikeQueries()
    {
        const QString db = file(QStringLiteral("preload.sqlite"));
        {
            HashCache cache(db);
            QVERIFY(cache.open());
            storeSamples(cache, 300, QStringLiteral("/mirror/p"));
            cache.store(QStringLiteral("/elsewhere/x.zip"), stamp(1, 1, 1), sampleHashes(1));
            cache.store(QStringLiteral("/mirror-other/y.zip"), stamp(1, 1, 1), sampleHashes(1));
        }
        HashCache cache(db);
        QVERIFY(cache.open());
        QCOMPARE(cache.rowCount(), 302);
        cache.preload(QStringLiteral("/mirror/"));
        for (int i = 0; i < 300; i += 37) {
            QCOMPARE(cache.lookup(QStringLiteral("/mirror/p/%1.zip").arg(i), stamp(i, i, i))->entryCount, i);
            QVERIFY(!cache.lookup(QStringLiteral("/mirror/p/%1.zip").arg(i), stamp(i + 1, i, i)));
        }
        QVERIFY(!cache.lookup(QStringLiteral("/mirror/p/nope.zip"), stamp(1, 1, 1)));
        // Outside the preloaded prefix: answered by a query.
        QCOMPARE(cache.lookup(QStringLiteral("/elsewhere/x.zip"), stamp(1, 1, 1))->entryCount, 1);
        QCOMPARE(cache.lookup(QStringLiteral("/mirror-other/y.zip"), stamp(1, 1, 1))->entryCount, 1);
        // A row stored after the preload is found too.
        cache.store(QStringLiteral("/mirror/p/new.zip"), stamp(9, 9, 9), sampleHashes(9));
        QVERIFY(cache.flush());
        QCOMPARE(cache.lookup(QStringLiteral("/mirror/p/new.zip"), stamp(9, 9, 9))->entryCount, 9);
    }

    void preloadCoversEveryCharacter_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("ascii") << QStringLiteral("plain.zip");
        QTest::newRow("latin-1") << QStringLiteral("caf\u00e9.zip");
        QTest::newRow("cjk") << QStringLiteral("\u4e2d\u6587.zip");
        QTest::newRow("last BMP") << QStringLiteral("\uffee.zip");
        // Above U+FFFF: UTF-8 lead byte F0, which SQLite sorts after any BMP character's.
        QTest::newRow("emoji") << QStringLiteral("\U0001F600.zip");
        QTest::newRow("plane 16") << QStringLiteral("\U00100000.zip");
    }

    void preloadCoversEveryCharacter()
    {
        // A row under the preloaded prefix must be found whatever characters its path holds
        // (lookup() answers from the preload alone for such a path).
        QFETCH(QString, name);
        const QString db = freshFile(QStringLiteral("preload-chars.sqlite"));
        const QString path = QStringLiteral("/mirror/") + name; // the character right after the prefix matters
        {
            HashCache cache(db);
            QVERIFY(cache.open());
            cache.store(path, stamp(4, 4, 4), sampleHashes(4));
            cache.store(QStringLiteral("/mirror0/z.zip"), stamp(5, 5, 5), sampleHashes(5)); // sorts after the run
        }
        HashCache cache(db);
        QVERIFY(cache.open());
        QCOMPARE(cache.lookup(path, stamp(4, 4, 4)).has_value(), true); // by query
        cache.preload(QStringLiteral("/mirror/"));
        const std::optional<PackageHashes> got = cache.lookup(path, stamp(4, 4, 4));
        QVERIFY2(got.has_value(), qPrintable(path));
        QCOMPARE(got->entryCount, 4);
        QCOMPARE(cache.lookup(QStringLiteral("/mirror0/z.zip"), stamp(5, 5, 5)).has_value(), true);
    }

    void damagedFileIsRecreated_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("text") << QByteArray("this is not a database\n").repeated(200);
        QTest::newRow("zeros") << QByteArray(4096, '\0');
        QTest::newRow("sqlite header then garbage")
            << QByteArray("SQLite format 3\0", 16) + QByteArray(100, '\xff') + QByteArray(4000, 'g');
    }

    void damagedFileIsRecreated()
    {
        QFETCH(QByteArray, content);
        const QString db = file(QStringLiteral("damaged.sqlite"));
        QVERIFY(writeFile(db, content));
        HashCache cache(db);
        QVERIFY(cache.open());
        QVERIFY(cache.isOpen());
        QVERIFY2(cache.warning().contains(QStringLiteral("recreated")), qPrintable(cache.warning()));
        QCOMPARE(cache.rowCount(), 0);
        QVERIFY(storeOneRow(cache));
        QVERIFY(cache.lookup(QStringLiteral("/m/a.zip"), stamp(1, 1, 1)));
    }

    void truncatedDatabaseIsRecreated()
    {
        const QString db = freshFile(QStringLiteral("truncated.sqlite"));
        {
            HashCache cache(db);
            QVERIFY(cache.open());
            storeSamples(cache, 2000);
            QVERIFY(cache.flush());
        }
        // Fold the WAL into the main file, then cut the file in the middle of its pages.
        {
            QSqlDatabase c = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("checkpoint"));
            c.setDatabaseName(db);
            QVERIFY(c.open());
            QSqlQuery(c).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
            QSqlQuery(c).exec(QStringLiteral("PRAGMA journal_mode=DELETE"));
            c.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("checkpoint"));
        QFile f(db);
        QVERIFY(f.size() > 8192);
        QVERIFY(f.resize(f.size() / 3));
        HashCache cache(db);
        QVERIFY(cache.open()); // never fatal
        const qint64 rows = cache.rowCount();
        QVERIFY2(cache.warning().contains(QStringLiteral("recreated")), qPrintable(cache.warning()));
        QCOMPARE(rows, 0);
    }

    void otherSchemaIsReplaced()
    {
        const QString db = freshFile(QStringLiteral("schema.sqlite"));
        {
            QSqlDatabase c = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("schema"));
            c.setDatabaseName(db);
            QVERIFY(c.open());
            QVERIFY(QSqlQuery(c).exec(QStringLiteral("CREATE TABLE hashes (path TEXT, something TEXT)")));
            QVERIFY(QSqlQuery(c).exec(QStringLiteral("INSERT INTO hashes VALUES ('/m/a.zip', 'x')")));
            QVERIFY(QSqlQuery(c).exec(QStringLiteral("PRAGMA user_version=99")));
            c.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("schema"));
        HashCache cache(db);
        QVERIFY(cache.open());
        QVERIFY2(cache.warning().contains(QStringLiteral("schema version 99")) && cache.warning().contains(QStringLiteral("recreated")),
                 qPrintable(cache.warning()));
        QCOMPARE(cache.rowCount(), 0);
        QVERIFY(storeOneRow(cache));
        QCOMPARE(cache.rowCount(), 1);
    }

    void foreignDatabaseIsReplaced_data()
    {
        QTest::addColumn<QStringList>("statements");
        QTest::addColumn<QString>("reason");
        // Our version number, someone else's table: rows it holds could say anything.
        QTest::newRow("our version, other columns")
            << QStringList{QStringLiteral("CREATE TABLE hashes (path TEXT PRIMARY KEY, hashes BLOB)"),
                           QStringLiteral("INSERT INTO hashes VALUES ('/m/a.zip', x'00')"),
                           QStringLiteral("PRAGMA user_version=%1").arg(HashCache::SchemaVersion)}
            << QStringLiteral("not its tables");
        QTest::newRow("our version, an extra trigger")
            << QStringList{QStringLiteral(
                               "CREATE TABLE hashes (path TEXT PRIMARY KEY NOT NULL, device INTEGER NOT NULL, inode INTEGER NOT NULL,"
                               " size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, fingerprint BLOB,"
                               " kind INTEGER NOT NULL, hashes BLOB NOT NULL) WITHOUT ROWID"),
                           QStringLiteral("CREATE TRIGGER t AFTER INSERT ON hashes BEGIN SELECT 1; END"),
                           QStringLiteral("PRAGMA user_version=%1").arg(HashCache::SchemaVersion)}
            << QStringLiteral("not its tables");
        QTest::newRow("another program's database")
            << QStringList{QStringLiteral("CREATE TABLE notes (x TEXT)"), QStringLiteral("INSERT INTO notes VALUES ('keep?')")}
            << QStringLiteral("another program's database");
        QTest::newRow("schema 3 (device and ctime not in the key)") << QStringList{
            QStringLiteral("CREATE TABLE hashes (path TEXT PRIMARY KEY NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,"
                           " inode INTEGER NOT NULL, fingerprint BLOB, kind INTEGER NOT NULL, hashes BLOB NOT NULL) WITHOUT ROWID"),
            QStringLiteral("PRAGMA user_version=3")} << QStringLiteral("schema version 3, not %1").arg(HashCache::SchemaVersion);
    }

    void foreignDatabaseIsReplaced()
    {
        QFETCH(QStringList, statements);
        QFETCH(QString, reason);
        const QString db = file(QStringLiteral("foreign.sqlite"));
        for (const char *suffix : {"", "-wal", "-shm"})
            QFile::remove(db + QLatin1StringView(suffix));
        {
            QSqlDatabase c = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("foreign"));
            c.setDatabaseName(db);
            QVERIFY(c.open());
            for (const QString &sql : statements)
                QVERIFY2(QSqlQuery(c).exec(sql), qPrintable(sql));
            c.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("foreign"));
        HashCache cache(db);
        QVERIFY(cache.open());
        QVERIFY2(cache.warning().contains(reason) && cache.warning().contains(QStringLiteral("recreated")), qPrintable(cache.warning()));
        QCOMPARE(cache.rowCount(), 0);
        QVERIFY(storeOneRow(cache));
        HashCache again(db);
        QVERIFY(again.open());
        QVERIFY2(again.warning().isEmpty(), qPrintable(again.warning())); // our own file now
        QCOMPARE(again.rowCount(), 1);
    }

    void lockedDatabaseIsNotDeleted()
    {
        // Another connection (e.g. the GUI while the CLI runs) holds an exclusive lock on a good
        // cache file: open() must wait, then turn the cache off — not take the lock error for
        // damage and delete the file (and its -wal/-shm) under the other user.
        const QString db = freshFile(QStringLiteral("locked.sqlite"));
        const QString name = QStringLiteral("locker");
        {
            QSqlDatabase c = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            c.setDatabaseName(db);
            QVERIFY(c.open());
            QSqlQuery q(c);
            // Rollback journal: an exclusive lock keeps readers out too (in WAL mode it would not).
            QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode=DELETE")));
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE keep (x INTEGER)")));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO keep VALUES (42)")));
            QVERIFY(q.exec(QStringLiteral("BEGIN EXCLUSIVE")));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO keep VALUES (43)")));
        }
        struct stat before;
        QCOMPARE(::stat(QFile::encodeName(db).constData(), &before), 0);
        {
            HashCache cache(db);
            QVERIFY(!cache.open()); // after the busy timeout
            QVERIFY(!cache.isOpen());
            QVERIFY2(cache.warning().contains(QStringLiteral("in use")), qPrintable(cache.warning()));
        }
        struct stat after;
        QCOMPARE(::stat(QFile::encodeName(db).constData(), &after), 0);
        QCOMPARE(quint64(after.st_ino), quint64(before.st_ino)); // the same file, not a recreated one
        {
            QSqlDatabase c = QSqlDatabase::database(name, false);
            QSqlQuery q(c);
            QVERIFY(q.exec(QStringLiteral("COMMIT")));
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM keep")) && q.next());
            QCOMPARE(q.value(0).toInt(), 2);
            c.close();
        }
        QSqlDatabase::removeDatabase(name);
    }

    void writeFailureTurnsCacheOff()
    {
        // Rows that cannot be written once the cache is open (another connection adds a
        // constraint our rows violate): the first flush fails and the cache turns itself off,
        // without harm.
        const QString db = freshFile(QStringLiteral("readonly.sqlite"));
        HashCache cache(db);
        QVERIFY(cache.open());
        {
            QSqlDatabase c = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("trigger"));
            c.setDatabaseName(db);
            QVERIFY(c.open());
            QVERIFY(QSqlQuery(c).exec(
                QStringLiteral("CREATE TRIGGER no_insert BEFORE INSERT ON hashes BEGIN SELECT RAISE(ABORT, 'no writes'); END")));
            c.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("trigger"));
        storeSamples(cache, 10);
        QVERIFY(!cache.flush());
        QVERIFY(!cache.isOpen());
        QVERIFY(cache.warning().contains(QStringLiteral("no writes")));
        cache.store(QStringLiteral("/m/x.zip"), stamp(1, 1, 1), sampleHashes(1));
        QVERIFY(!cache.lookup(QStringLiteral("/m/x.zip"), stamp(1, 1, 1)));
    }

    void unusableLocationTurnsCacheOff()
    {
        HashCache cache(QStringLiteral("/dev/null/sub/cache.sqlite"));
        QVERIFY(!cache.open());
        QVERIFY(!cache.isOpen());
        QVERIFY(!cache.warning().isEmpty());
        cache.store(QStringLiteral("/m/a.zip"), stamp(1, 1, 1), sampleHashes(1)); // no-op, no crash
        QVERIFY(!cache.flush());
        QVERIFY(!cache.lookup(QStringLiteral("/m/a.zip"), stamp(1, 1, 1)));
    }

    void stampOfFile()
    {
        const QString path = file(QStringLiteral("f.bin"));
        QVERIFY(writeFile(path, "hello"));
        struct stat st;
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        const Result<FileStamp> s = stampOf(path);
        QVERIFY(s.ok());
        QVERIFY(!s->isDirectory);
        QCOMPARE(s->size, 5);
        QCOMPARE(s->inode, quint64(st.st_ino));
        QCOMPARE(s->mtimeNs, qint64(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec);
        QCOMPARE(s->ctimeNs, qint64(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec);
        QCOMPARE(s->device, quint64(st.st_dev));
        QVERIFY(s->takenAtNs > 0);
        QVERIFY(!stampOf(file(QStringLiteral("does-not-exist"))).ok());
    }

    void inPlaceRewriteWithRestoredMtimeChangesTheStamp()
    {
        // What `cp -p` over an existing file or `touch -r` after an edit leaves: same inode, same
        // size, the old mtime. Only ctime (which no user call can set) tells.
        const QString path = file(QStringLiteral("rewritten.bin"));
        QVERIFY(writeFile(path, QByteArray(4096, 'a')));
        const Result<FileStamp> s1 = stampOf(path);
        QVERIFY(s1.ok());
        // O_TRUNC: the same inode. The premise: everything but ctime is as before.
        const QString premise = test::rewriteKeepingTimes(path, QByteArray(4096, 'b'), true);
        QVERIFY2(premise.isEmpty(), qPrintable(premise));
        const Result<FileStamp> s2 = stampOf(path);
        QVERIFY(s2.ok());
        QCOMPARE(s2->mtimeNs, s1->mtimeNs);
        QCOMPARE(s2->size, s1->size);
        QVERIFY(s2->ctimeNs != s1->ctimeNs);
        QVERIFY(!(s2.value() == s1.value()));
    }

    void newCacheIsPrivate()
    {
        const QString dir = file(QStringLiteral("private/sub"));
        const QString db = dir + QStringLiteral("/cache.sqlite");
        HashCache cache(db);
        QVERIFY(cache.open());
        QVERIFY(storeOneRow(cache));
        QCOMPARE(modeOf(dir), 0700);
        QCOMPARE(modeOf(db), 0600);
        QVERIFY(QFile::exists(db + QStringLiteral("-wal")));
        QCOMPARE(modeOf(db + QStringLiteral("-wal")), 0600);
        QCOMPARE(modeOf(db + QStringLiteral("-shm")), 0600);
    }

    void existingCacheIsMadePrivate()
    {
        // A cache of an earlier version, readable by everyone: tightened, its rows kept.
        const QString dir = file(QStringLiteral("loose"));
        const QString db = dir + QStringLiteral("/cache.sqlite");
        {
            HashCache cache(db);
            QVERIFY(cache.open());
            cache.store(QStringLiteral("/m/a.zip"), stamp(1, 1, 1), sampleHashes(1));
        }
        QCOMPARE(::chmod(QFile::encodeName(dir).constData(), 0755), 0);
        QCOMPARE(::chmod(QFile::encodeName(db).constData(), 0644), 0);
        HashCache cache(db);
        QVERIFY(cache.open());
        QVERIFY2(cache.warning().isEmpty(), qPrintable(cache.warning()));
        QCOMPARE(modeOf(dir), 0700);
        QCOMPARE(modeOf(db), 0600);
        QCOMPARE(cache.rowCount(), 1);
    }

    void untrustedCacheIsRebuilt_data()
    {
        QTest::addColumn<QString>("tamper");
        QTest::addColumn<QString>("reason");
        QTest::newRow("group-writable") << QStringLiteral("chmod 0660") << QStringLiteral("writable by its group");
        QTest::newRow("world-writable") << QStringLiteral("chmod 0606") << QStringLiteral("writable by others");
        QTest::newRow("another user's") << QStringLiteral("chown") << QStringLiteral("belongs to user 65534");
        QTest::newRow("another user's -wal") << QStringLiteral("chown wal") << QStringLiteral("-wal belongs to user 65534");
        QTest::newRow("a symbolic link") << QStringLiteral("symlink") << QStringLiteral("not a regular file");
    }

    void untrustedCacheIsRebuilt()
    {
        // Rows someone else could have written are never used: the file is replaced by an empty
        // private one, with a warning that says why.
        QFETCH(QString, tamper);
        QFETCH(QString, reason);
        const QString dir = file(QStringLiteral("untrusted-") + QString::number(qHash(tamper)));
        const QString db = dir + QStringLiteral("/cache.sqlite");
        const QString elsewhere = dir + QStringLiteral("/elsewhere.sqlite");
        for (const QString &f : {db, elsewhere}) {
            HashCache cache(f);
            QVERIFY(cache.open());
            QVERIFY(storeOneRow(cache));
        }
        const QByteArray native = QFile::encodeName(db);
        if (tamper == QStringLiteral("chmod 0660"))
            QCOMPARE(::chmod(native.constData(), 0660), 0);
        else if (tamper == QStringLiteral("chmod 0606"))
            QCOMPARE(::chmod(native.constData(), 0606), 0);
        else if (tamper == QStringLiteral("chown")) {
            if (::geteuid() != 0)
                PROVENDER_SKIP(provender::test::Missing::Platform, QStringLiteral("giving a file to another user needs root"));
            QCOMPARE(::chown(native.constData(), 65534, 65534), 0);
        } else if (tamper == QStringLiteral("chown wal")) {
            // A write-ahead log planted by someone else would be replayed into the database.
            if (::geteuid() != 0)
                PROVENDER_SKIP(provender::test::Missing::Platform, QStringLiteral("giving a file to another user needs root"));
            QVERIFY(writeFile(db + QStringLiteral("-wal"), QByteArray(64, 'w')));
            QCOMPARE(::chmod(QFile::encodeName(db + QStringLiteral("-wal")).constData(), 0600), 0);
            QCOMPARE(::chown(QFile::encodeName(db + QStringLiteral("-wal")).constData(), 65534, 65534), 0);
        } else if (tamper == QStringLiteral("symlink")) {
            for (const char *suffix : {"", "-wal", "-shm"})
                QFile::remove(db + QLatin1StringView(suffix));
            QVERIFY(QFile::link(elsewhere, db));
        }
        HashCache cache(db);
        QVERIFY(cache.open());
        QVERIFY2(cache.warning().contains(QStringLiteral("not trusted")), qPrintable(cache.warning()));
        QVERIFY2(cache.warning().contains(reason), qPrintable(cache.warning()));
        QCOMPARE(cache.rowCount(), 0);
        QVERIFY(!cache.lookup(QStringLiteral("/m/a.zip"), stamp(1, 1, 1)));
        struct stat st;
        QCOMPARE(::lstat(native.constData(), &st), 0);
        QVERIFY(S_ISREG(st.st_mode));
        QCOMPARE(st.st_uid, ::geteuid());
        QCOMPARE(int(st.st_mode & 07777), 0600);
        // A link's target is not touched.
        HashCache other(elsewhere);
        QVERIFY(other.open());
        QCOMPARE(other.rowCount(), 1);
    }

    void stampOfDirectoryFollowsContents()
    {
        const QString dir = file(QStringLiteral("pkg"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/sub")));
        QVERIFY(writeFile(dir + QStringLiteral("/a"), "aaaa"));
        QVERIFY(writeFile(dir + QStringLiteral("/sub/b"), "bb"));
        struct utimbuf fixed
        {
            time_t(1600000000), time_t(1600000000)
        };
        auto pin = [&] {
            for (const char *p : {"/a", "/sub/b", "/sub", ""})
                ::utime(QFile::encodeName(dir + QLatin1StringView(p)).constData(), &fixed);
        };
        pin();
        const Result<FileStamp> before = stampOf(dir);
        QVERIFY(before.ok());
        QVERIFY(before->isDirectory);
        QCOMPARE(before->size, 6);
        QCOMPARE(before->fingerprint.size(), 32);
        QCOMPARE(stampOf(dir).value(), before.value()); // stable
        // Setting the times again (as a copy tool restoring them after a rewrite would) moves
        // the entries' ctime: the stamp differs although sizes and mtimes are the same.
        pin();
        const Result<FileStamp> repinned = stampOf(dir);
        QCOMPARE(repinned->size, before->size);
        QCOMPARE(repinned->mtimeNs, before->mtimeNs);
        QVERIFY(!(repinned.value() == before.value()));

        // Same size and pinned times, but another file replaced it atomically (a new inode, as a
        // copy tool that writes a temporary file and renames it would): the stamp differs.
        QVERIFY(writeFile(dir + QStringLiteral("/sub/c"), "xy"));
        QCOMPARE(::rename(QFile::encodeName(dir + QStringLiteral("/sub/c")).constData(),
                          QFile::encodeName(dir + QStringLiteral("/sub/b")).constData()),
                 0);
        pin();
        const Result<FileStamp> after = stampOf(dir);
        QCOMPARE(after->size, before->size);
        QVERIFY(!(after.value() == before.value()));
    }
};

QTEST_GUILESS_MAIN(TestHashCache)
#include "tst_hashcache.moc"
