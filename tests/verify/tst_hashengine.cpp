// hashArchives() and prehashArchives(): the one engine every hashing path goes through. Expected
// hashes come from Python's zipfile/hashlib (same_size_zips.py), never from Provender.

#include "model/verify/ArchiveHashing.h"
#include "model/verify/HashCache.h"
#include "model/verify/HashEngine.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace provender;

class TestHashEngine : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QJsonObject m_fx; ///< {"a": {...}, "b": {...}}: two zips of the same size, other contents

    QString fx(const char *which, const char *field) const
    {
        return m_fx.value(QLatin1StringView(which)).toObject().value(QLatin1StringView(field)).toString();
    }
    QString cacheFile() const { return m_dir.filePath(QStringLiteral("cache/hashes.sqlite")); }

    /// Two fresh zips of the same size (a and b) at `dirA`/`dirB`; fills m_fx.
    bool makeZips(const QString &a, const QString &b)
    {
        QProcess p;
        p.start(provender::test::python3(), {provender::test::sourceDir() + QStringLiteral("/tests/verify/same_size_zips.py"), a, b});
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            return false;
        m_fx = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        return !m_fx.isEmpty();
    }

    /// Until the file's last change is older than the timestamp granularity, the cache would not
    /// store it (HashCache.h, "racily clean"); wait that out so the test is about the rewrite.
    static bool waitUntilNotRacy(const QString &path)
    {
        for (int i = 0; i < 400; ++i) {
            const Result<FileStamp> s = stampOf(path);
            if (s.ok() && !s->isRacy())
                return true;
            QThread::msleep(10);
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it computes this test's expected hashes independently"));
        QVERIFY(makeZips(m_dir.filePath(QStringLiteral("a.zip")), m_dir.filePath(QStringLiteral("b.zip"))));
    }

    void outcomesInRequestOrder()
    {
        const QString a = fx("a", "path"), b = fx("b", "path");
        const QString absent = m_dir.filePath(QStringLiteral("absent.zip"));
        HashRunOptions options;
        options.useCache = false;
        options.jobs = 2;
        const HashRunReport r = hashArchives({{a, 1}, {absent, 1}, {b, 1}, {a, 1}}, options);
        QCOMPARE(r.outcomes.size(), 4);
        QCOMPARE(r.summary.requests, 3); // a twice: hashed once
        QCOMPARE(r.summary.hashed, 3);
        QVERIFY(!r.summary.cancelled);
        QVERIFY(r.outcomes.at(0).hashes.ok());
        QCOMPARE(r.outcomes.at(0).hashes->h1Extracted.toString(), fx("a", "h1"));
        QCOMPARE(r.outcomes.at(0).hashes->zh.toString(), fx("a", "zh"));
        QVERIFY(!r.outcomes.at(1).hashes.ok());
        QVERIFY(r.outcomes.at(1).hashes.error().code != ErrorCode::Cancelled);
        QCOMPARE(r.outcomes.at(2).hashes->h1Extracted.toString(), fx("b", "h1"));
        QCOMPARE(r.outcomes.at(3).hashes->h1Extracted.toString(), fx("a", "h1"));
    }

    void secondRunFromTheCache()
    {
        const QString a = fx("a", "path"), b = fx("b", "path");
        QVERIFY(waitUntilNotRacy(a) && waitUntilNotRacy(b));
        HashRunOptions options;
        options.cacheFile = cacheFile();
        const HashRunReport first = hashArchives({{a, 10}, {b, 10}}, options);
        QCOMPARE(first.summary.hashed, 2);
        QCOMPARE(first.summary.cacheHits, 0);
        QVERIFY2(first.summary.cacheWarning.isEmpty(), qPrintable(first.summary.cacheWarning));
        const HashRunReport second = hashArchives({{a, 10}, {b, 10}}, options);
        QCOMPARE(second.summary.hashed, 0);
        QCOMPARE(second.summary.cacheHits, 2);
        QVERIFY(second.outcomes.at(0).fromCache && second.outcomes.at(1).fromCache);
        QCOMPARE(second.outcomes.at(0).hashes->h1Extracted.toString(), fx("a", "h1"));
        QCOMPARE(second.outcomes.at(1).hashes->h1Extracted.toString(), fx("b", "h1"));
        // --no-cache reads nothing.
        HashRunOptions off = options;
        off.useCache = false;
        QCOMPARE(hashArchives({{a, 10}, {b, 10}}, off).summary.hashed, 2);
    }

    void progressRunsToTheTotal()
    {
        HashRunOptions options;
        options.useCache = false;
        QList<std::pair<qint64, qint64>> calls;
        options.progress = [&](qint64 done, qint64 total) {
            calls.append({done, total});
            return true;
        };
        const qint64 sa = QFileInfo(fx("a", "path")).size(), sb = QFileInfo(fx("b", "path")).size();
        const HashRunReport r = hashArchives({{fx("a", "path"), sa}, {fx("b", "path"), sb}}, options);
        QVERIFY(!r.summary.cancelled);
        QVERIFY(!calls.isEmpty());
        for (qsizetype i = 0; i < calls.size(); ++i) {
            QCOMPARE(calls.at(i).second, sa + sb);
            if (i > 0)
                QVERIFY(calls.at(i).first >= calls.at(i - 1).first);
        }
        QCOMPARE(calls.constLast().first, sa + sb);
    }

    void cancelStopsTheRun_data()
    {
        QTest::addColumn<bool>("byProgress");
        QTest::newRow("progress returns false") << true;
        QTest::newRow("cancel flag") << false;
    }

    void cancelStopsTheRun()
    {
        QFETCH(bool, byProgress);
        HashRunOptions options;
        options.useCache = false;
        std::atomic<bool> cancel{!byProgress};
        if (byProgress)
            options.progress = [](qint64, qint64) { return false; }; // the first report (before hashing starts)
        else
            options.cancel = &cancel;
        const HashRunReport r = hashArchives({{fx("a", "path"), 1}, {fx("b", "path"), 1}}, options);
        QVERIFY(r.summary.cancelled);
        QCOMPARE(r.summary.hashed, 0);
        for (const HashOutcome &o : r.outcomes) {
            QVERIFY(!o.hashes.ok());
            QCOMPARE(o.hashes.error().code, ErrorCode::Cancelled);
        }
    }

    void sharedProgressCancels()
    {
        SharedHashProgress shared;
        HashRunOptions options;
        options.useCache = false;
        shared.attach(options);
        shared.cancel = true;
        const HashRunReport r = hashArchives({{fx("a", "path"), 1}}, options);
        QVERIFY(r.summary.cancelled);
        SharedHashProgress fresh;
        HashRunOptions more;
        more.useCache = false;
        fresh.attach(more);
        QVERIFY(!hashArchives({{fx("a", "path"), 100}}, more).summary.cancelled);
        QCOMPARE(fresh.percent(), 100);
    }

    void prehashAnswersEveryArchive()
    {
        // An operation that asks per archive (like the lock-file functions): every archive it asks
        // for is hashed once, up front; the answers are the engine's.
        Archive a;
        a.path = fx("a", "path");
        a.present = true;
        a.size = 1;
        Archive b = a;
        b.path = fx("b", "path");
        Archive absent;
        absent.present = false;
        int pass = 0;
        QStringList asked;
        auto operation = [&](const ArchiveHasher &hasher) {
            ++pass;
            QStringList got;
            for (const Archive *x : {&a, &absent, &a})
                got << (hasher(*x).ok() ? hasher(*x)->h1Extracted.toString() : hasher(*x).error().message);
            if (pass > 1) // asks for one more archive than the recording pass saw
                got << hasher(b)->h1Extracted.toString();
            asked = got;
        };
        HashRunOptions options;
        options.useCache = false;
        HashRunSummary summary;
        const ArchiveHasher hasher = prehashArchives(operation, options, &summary);
        QCOMPARE(pass, 1);
        QCOMPARE(summary.requests, 1); // a, once; absent is not hashed
        QCOMPARE(summary.hashed, 1);
        operation(hasher);
        QCOMPARE(asked, (QStringList{fx("a", "h1"), QStringLiteral("the archive is not on disk"), fx("a", "h1"), fx("b", "h1")}));
    }

    void inPlaceRewriteWithRestoredMtimeIsHashedAgain()
    {
        // The cache-tamper case: verify (the cache fills), rewrite an archive in place with other
        // bytes of the same size and put its mtime back (`touch -r`), verify again: the new bytes
        // decide, not the cache.
        const QString root = m_dir.filePath(QStringLiteral("tamper"));
        const QString dir = root + QStringLiteral("/registry.opentofu.org/hashicorp/tamper");
        QVERIFY(QDir().mkpath(dir));
        const QString path = dir + QStringLiteral("/terraform-provider-tamper_1.0.0_linux_amd64.zip");
        QVERIFY(QFile::copy(fx("a", "path"), path));
        QFile donor(fx("b", "path"));
        QVERIFY(donor.open(QIODevice::ReadOnly));
        const QByteArray other = donor.readAll();
        QCOMPARE(other.size(), QFileInfo(path).size());

        Archive archive;
        archive.platform = Platform::parse(u"linux_amd64").value();
        archive.present = true;
        archive.path = path;
        archive.size = other.size();
        archive.declared = DeclaredArchive{
            QFileInfo(path).fileName(), {HashString::parse(fx("a", "h1zip")).value()}, dir + QStringLiteral("/1.0.0.json"), {}};
        ProviderVersion v;
        v.version = Version::parse(u"1.0.0").value();
        v.archives.append(archive);
        Provider p;
        p.address = ProviderAddress::parse(u"registry.opentofu.org/hashicorp/tamper").value();
        p.versions.append(v);
        Catalog catalog;
        catalog.root = root;
        catalog.providers.append(p);
        VerifyOptions options;
        options.cacheFile = m_dir.filePath(QStringLiteral("tamper-cache.sqlite"));

        QVERIFY(waitUntilNotRacy(path));
        const VerifyReport first = verifyCatalog(catalog, options);
        QCOMPARE(toString(first.results.at(0).detail.verdict), QStringLiteral("verified"));
        const VerifyReport second = verifyCatalog(catalog, options);
        QCOMPARE(second.summary.cacheHits, 1); // the cache is in play
        QVERIFY(second.results.at(0).fromCache);

        // No truncation: the same inode, the same size throughout; inode, size and mtime as before.
        const QString premise = test::rewriteKeepingTimes(path, other, false);
        QVERIFY2(premise.isEmpty(), qPrintable(premise));

        const VerifyReport third = verifyCatalog(catalog, options);
        QCOMPARE(third.summary.cacheHits, 0);
        QCOMPARE(third.summary.hashed, 1);
        const ArchiveResult &r = third.results.at(0);
        QVERIFY(!r.fromCache);
        QVERIFY(r.hashes);
        QCOMPARE(r.hashes->h1Extracted.toString(), fx("b", "h1"));
        QCOMPARE(r.hashes->zh.toString(), fx("b", "zh"));
        QCOMPARE(toString(r.detail.verdict), QStringLiteral("mismatch"));
    }
};

QTEST_GUILESS_MAIN(TestHashEngine)
#include "tst_hashengine.moc"
