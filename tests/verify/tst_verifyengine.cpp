// The verification engine against a fixture built by Python's zipfile/hashlib (make_fixture.py):
// every expected hash comes from Python, every expected verdict from how the fixture was planted.

#include "model/verify/HashCache.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VerifyResults.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <condition_variable>
#include <mutex>
#include <thread>

#include <sys/stat.h>
#include <utime.h>

using namespace provender;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(provender::Verdict)
Q_DECLARE_METATYPE(provender::HashMatch)

namespace {

HashString hs(const QString &text)
{
    Result<HashString> h = HashString::parse(text);
    return h.ok() ? h.value() : HashString();
}

QStringList names(const QList<HashMatch> &matches)
{
    QStringList out;
    for (HashMatch m : matches)
        out.append(toString(m));
    return out;
}

/// Every field of a result as text, so that two results compare field by field with a readable diff.
QString dump(const ArchiveResult &r)
{
    QStringList out;
    out << r.key.toString() << toString(r.layout) << r.path << QString::number(r.size) << toString(r.detail.verdict)
        << names(r.detail.matched).join(u',') << r.detail.reason << r.error << (r.fromCache ? u"cache"_s : u"hashed"_s);
    QStringList contradicting, declared;
    for (const HashString &h : r.detail.contradicting)
        contradicting << h.toString();
    for (const HashString &h : r.declared)
        declared << h.toString();
    out << contradicting.join(u',') << declared.join(u',');
    if (r.hashes)
        out << QString::number(int(r.hashes->kind)) << r.hashes->zh.toString() << r.hashes->h1Zip.toString() << r.hashes->h1ZipError
            << r.hashes->h1Extracted.toString() << QString::number(r.hashes->hasDirectoryEntries) << r.hashes->extractionProblem
            << r.hashes->unsafeNames.join(u',') << QString::number(r.hashes->fileSize) << QString::number(r.hashes->contentBytes)
            << QString::number(r.hashes->entryCount);
    else
        out << u"no hashes"_s;
    return out.join(u" | ");
}

/// A catalog of `count` archives that are all declared by an index and absent: every verdict is
/// known without touching a file, so the engine produces batches as fast as it can.
Catalog missingCatalog(int count)
{
    static const char *const platforms[] = {"darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"};
    Provider provider;
    provider.address = ProviderAddress::parse(u"registry.opentofu.org/bench/many").value();
    for (int v = 0; v * 4 < count; ++v) {
        ProviderVersion version;
        version.version = Version::parse(QStringLiteral("1.%1.0").arg(v)).value();
        for (int p = 0; p < 4 && v * 4 + p < count; ++p) {
            Archive a;
            a.platform = Platform::parse(QString::fromLatin1(platforms[p])).value();
            a.present = false;
            a.declared =
                DeclaredArchive{QStringLiteral("terraform-provider-many_1.%1.0_%2.zip").arg(v).arg(QLatin1StringView(platforms[p])),
                                {},
                                QStringLiteral("/nonexistent/1.%1.0.json").arg(v),
                                {}};
            version.archives.append(a);
        }
        provider.versions.append(version);
    }
    Catalog catalog;
    catalog.root = QStringLiteral("/nonexistent");
    catalog.providers.append(provider);
    return catalog;
}

/// Aborts the test program when not released within `seconds`: a deadlock detector, not a
/// measure of speed (the bound is far above any plausible time).
class Watchdog
{
public:
    Watchdog(int seconds, const char *what)
        : m_thread([this, seconds, what] {
              std::unique_lock lock(m_mutex);
              if (!m_released.wait_for(lock, std::chrono::seconds(seconds), [this] { return m_done; }))
                  qFatal("watchdog: %s did not return within %d s (deadlock)", what, seconds);
          })
    {}
    ~Watchdog()
    {
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_released.notify_all();
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_released;
    bool m_done = false;
    std::thread m_thread;
};

/// Polls `engine.batchesInFlight()` WITHOUT running the event loop (so nothing queued is applied)
/// until it reaches `n`; false when it does not within a minute.
bool waitForInFlight(const VerifyEngine &engine, int n)
{
    for (int i = 0; i < 60000 / 5; ++i) {
        if (engine.batchesInFlight() >= n)
            return true;
        QThread::msleep(5);
    }
    return false;
}

} // namespace

class TestVerifyEngine : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QJsonObject m_fx;
    Catalog m_catalog;
    QString cacheFile() const { return m_dir.filePath(QStringLiteral("cache.sqlite")); }

    QString str(const char *platform, const char *field) const
    {
        return m_fx.value(QLatin1StringView(platform)).toObject().value(QLatin1StringView(field)).toString();
    }

    Archive packed(const char *platform, const QList<HashString> &declared)
    {
        Archive a;
        a.platform = Platform::parse(QString::fromLatin1(platform)).value();
        a.layout = ArchiveLayout::Packed;
        a.path = str(platform, "path");
        a.present = QFile::exists(a.path);
        a.fileName = QFileInfo(a.path).fileName();
        a.size = QFileInfo(a.path).size();
        if (!declared.isEmpty() || !a.present) {
            DeclaredArchive d;
            d.url = a.fileName;
            d.hashes = declared;
            d.indexFile = QFileInfo(a.path).absolutePath() + QStringLiteral("/1.0.0.json");
            a.declared = d;
        }
        return a;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it computes this test's expected hashes independently"));
        QVERIFY(m_dir.isValid());
        QProcess p;
        p.start(provender::test::python3(),
                {provender::test::sourceDir() + QStringLiteral("/tests/verify/make_fixture.py"), m_dir.filePath(QStringLiteral("mirror"))});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        m_fx = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QVERIFY(!m_fx.isEmpty());

        // The catalog a scan would produce, written out by hand so this test does not depend on
        // the scanner.
        Provider provider;
        provider.address = ProviderAddress::parse(u"registry.opentofu.org/hashicorp/alpha").value();
        ProviderVersion v;
        v.version = Version::parse(u"1.0.0").value();
        // darwin_amd64: zip with directory entries, declared by its extracted-folder h1 (lock-file form)
        v.archives.append(packed("darwin_amd64", {hs(str("darwin_amd64", "h1"))}));
        // darwin_arm64: zip with directory entries, declared by its zip-level h1 (`providers mirror` form)
        v.archives.append(packed("darwin_arm64", {hs(str("darwin_arm64", "h1zip"))}));
        // freebsd_amd64: no index lists it
        v.archives.append(packed("freebsd_amd64", {}));
        // linux_amd64: h1 and zh, both right
        v.archives.append(packed("linux_amd64", {hs(str("linux_amd64", "h1")), hs(str("linux_amd64", "zh"))}));
        // linux_arm64: truncated zip, declared by a (wrong) h1: — terraform checks the declared
        // checksums first and cannot compute an h1: of a broken zip: refused (docs/VERDICTS.md)
        v.archives.append(packed("linux_arm64", {hs(m_fx.value(QStringLiteral("wrong_h1")).toString())}));
        // openbsd_amd64: declared, absent
        Archive missing;
        missing.platform = Platform::parse(u"openbsd_amd64").value();
        missing.present = false;
        missing.declared = DeclaredArchive{QStringLiteral("terraform-provider-alpha_1.0.0_openbsd_amd64.zip"),
                                           {hs(m_fx.value(QStringLiteral("wrong_h1")).toString())},
                                           QStringLiteral("1.0.0.json"),
                                           {}};
        v.archives.append(missing);
        // solaris_amd64: unpacked directory (indexes never list those)
        Archive dir;
        dir.platform = Platform::parse(u"solaris_amd64").value();
        dir.layout = ArchiveLayout::Unpacked;
        dir.present = true;
        dir.path = str("solaris_amd64", "path");
        dir.size = 1;
        v.archives.append(dir);
        // windows_amd64: right zh, wrong h1 -> verified (terraform installs when one declared hash
        // matches; docs/VERDICTS.md), the wrong h1 is an anomaly
        v.archives.append(packed("windows_amd64", {hs(m_fx.value(QStringLiteral("wrong_h1")).toString()), hs(str("windows_amd64", "zh"))}));
        provider.versions.append(v);
        m_catalog.root = m_dir.filePath(QStringLiteral("mirror"));
        m_catalog.providers.append(provider);
    }

    void verdicts_data()
    {
        QTest::addColumn<QString>("platform");
        QTest::addColumn<Verdict>("verdict");
        QTest::addColumn<QList<HashMatch>>("matched");
        // terraform checks an index's h1: against the zip's own entries (HashZip), never the
        // extracted folder: with directory entries these differ and it refuses the package.
        QTest::newRow("dir entries, extracted h1 declared") << "darwin_amd64" << Verdict::Mismatch << QList<HashMatch>{};
        QTest::newRow("dir entries, zip h1 declared") << "darwin_arm64" << Verdict::Verified << QList<HashMatch>{HashMatch::H1Zip};
        QTest::newRow("not declared") << "freebsd_amd64" << Verdict::Unverified << QList<HashMatch>{};
        QTest::newRow("h1 and zh match") << "linux_amd64" << Verdict::Verified << QList<HashMatch>{HashMatch::H1Zip, HashMatch::ZH};
        QTest::newRow("corrupt zip") << "linux_arm64" << Verdict::Refused << QList<HashMatch>{};
        QTest::newRow("absent") << "openbsd_amd64" << Verdict::Missing << QList<HashMatch>{};
        QTest::newRow("unpacked, undeclared") << "solaris_amd64" << Verdict::Unverified << QList<HashMatch>{};
        QTest::newRow("wrong h1, right zh") << "windows_amd64" << Verdict::Verified << QList<HashMatch>{HashMatch::ZH};
    }

    void verdicts()
    {
        QFETCH(QString, platform);
        QFETCH(Verdict, verdict);
        QFETCH(QList<HashMatch>, matched);
        VerifyOptions options;
        options.useCache = false;
        const VerifyReport report = verifyCatalog(m_catalog, options);
        QCOMPARE(report.results.size(), 8);
        const ArchiveResult *r = test::resultFor(report, platform);
        QVERIFY(r);
        QCOMPARE(toString(r->detail.verdict), toString(verdict));
        QList<HashMatch> got = r->detail.matched;
        std::sort(got.begin(), got.end());
        QCOMPARE(names(got), names(matched));
        QVERIFY(!r->detail.reason.isEmpty());
        if (verdict == Verdict::Error) {
            QVERIFY(!r->error.isEmpty());
            QVERIFY(!r->hashes);
        }
        if (platform == QLatin1String("darwin_amd64")) {
            QCOMPARE(r->detail.contradicting, QList<HashString>{hs(str("darwin_amd64", "h1"))});
            QVERIFY2(r->detail.reason.contains(QLatin1String("doesn't match the expected checksum")), qPrintable(r->detail.reason));
            QVERIFY(verdictAnomalies(*r).isEmpty()); // a mismatch is the finding itself
        }
        if (platform == QLatin1String("windows_amd64")) {
            // The wrong h1 matches nothing: not the verdict, an anomaly.
            QCOMPARE(r->detail.contradicting, QList<HashString>{hs(m_fx.value(QStringLiteral("wrong_h1")).toString())});
            const QList<Anomaly> anomalies = verdictAnomalies(*r);
            QCOMPARE(anomalies.size(), 1);
            QCOMPARE(toString(anomalies.first().kind), QStringLiteral("declared-hash-matches-nothing"));
            QVERIFY(anomalies.first().message.contains(m_fx.value(QStringLiteral("wrong_h1")).toString()));
        }
        if (verdict == Verdict::Verified) {
            QCOMPARE(r->detail.anchors.size(), 1);
            QCOMPARE(toString(r->detail.anchors.first().kind), QStringLiteral("own-index"));
            QVERIFY(r->detail.anchors.first().isSelfConsistencyOnly());
        } else {
            QVERIFY(r->detail.anchors.isEmpty());
        }
        // Computed hashes equal Python's.
        if (r->hashes && r->layout == ArchiveLayout::Packed) {
            QCOMPARE(r->hashes->h1Extracted.toString(), str(platform.toLatin1().constData(), "h1"));
            QCOMPARE(r->hashes->h1Zip.toString(), str(platform.toLatin1().constData(), "h1zip"));
            QCOMPARE(r->hashes->zh.toString(), str(platform.toLatin1().constData(), "zh"));
        }
        if (r->hashes && r->layout == ArchiveLayout::Unpacked)
            QCOMPARE(r->hashes->h1Extracted.toString(), str("solaris_amd64", "h1"));
    }

    void summaryCounts()
    {
        VerifyOptions options;
        options.useCache = false;
        options.jobs = 1;
        qint64 lastDone = -1, lastTotal = -1;
        bool monotonic = true;
        const VerifyReport report = verifyCatalog(m_catalog, options, [&](qint64 done, qint64 total) {
            monotonic = monotonic && done >= lastDone && done <= total;
            lastDone = done;
            lastTotal = total;
        });
        const VerifySummary &s = report.summary;
        QCOMPARE(s.archives, 8);
        QCOMPARE(s.count(Verdict::Verified), 3);
        QCOMPARE(s.count(Verdict::Mismatch), 1);
        QCOMPARE(s.count(Verdict::Unverified), 2);
        QCOMPARE(s.count(Verdict::Missing), 1);
        QCOMPARE(s.count(Verdict::Error), 0);
        QCOMPARE(s.count(Verdict::Refused), 1); // the truncated zip
        QCOMPARE(s.count(Verdict::Pending), 0);
        QCOMPARE(s.hashed, 7);
        QCOMPARE(s.cacheHits, 0);
        QVERIFY(s.hasFindings());
        QVERIFY(!s.cancelled);
        QVERIFY(monotonic);
        QCOMPARE(lastDone, lastTotal); // all bytes accounted for at the end
        qint64 expectedTotal = 0;
        for (const Archive &a : m_catalog.providers.first().versions.first().archives)
            if (a.present)
                expectedTotal += a.size;
        QCOMPARE(lastTotal, expectedTotal);
    }

    void lockHashesCombine()
    {
        // A lock file lists hashes of every platform (verifyAgainstLock): any match verifies, and
        // an archive none of whose lock hashes matches is a mismatch.
        VerifyOptions options;
        options.useCache = false;
        const ProviderVersionKey key{m_catalog.providers.first().address, m_catalog.providers.first().versions.first().version};
        options.expected.insert(key, {hs(str("solaris_amd64", "h1")), hs(str("linux_amd64", "h1"))});
        const VerifyReport report = verifyCatalog(m_catalog, options);
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("solaris_amd64"))->detail.verdict), QStringLiteral("verified"));
        QCOMPARE(names(test::resultFor(report, QStringLiteral("solaris_amd64"))->detail.matched), names({HashMatch::H1Extracted}));
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("linux_amd64"))->detail.verdict), QStringLiteral("verified"));
        // freebsd matches none of the lock's hashes.
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("freebsd_amd64"))->detail.verdict), QStringLiteral("mismatch"));
        // The index verifies windows_amd64 (its zh), the lock does not: terraform checks both.
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("windows_amd64"))->detail.verdict), QStringLiteral("mismatch"));
        // The lock is the anchor, by its path.
        options.expectedFrom.insert(key, QStringLiteral("/reviewed/.terraform.lock.hcl"));
        const VerifyReport anchored = verifyCatalog(m_catalog, options);
        const ArchiveResult *solaris = test::resultFor(anchored, QStringLiteral("solaris_amd64"));
        QCOMPARE(solaris->detail.anchors.size(), 1);
        QCOMPARE(toString(solaris->detail.anchors.first().kind), QStringLiteral("lock-file"));
        QCOMPARE(solaris->detail.anchors.first().document, QStringLiteral("/reviewed/.terraform.lock.hcl"));
        QCOMPARE(describeAnchors(solaris->detail), QStringLiteral("lock file /reviewed/.terraform.lock.hcl"));
        // linux_amd64: its index and the lock both vouch, the lock first.
        const ArchiveResult *linux = test::resultFor(anchored, QStringLiteral("linux_amd64"));
        QCOMPARE(linux->detail.anchors.size(), 2);
        QCOMPARE(toString(linux->detail.anchors.at(0).kind), QStringLiteral("lock-file"));
        QCOMPARE(toString(linux->detail.anchors.at(1).kind), QStringLiteral("own-index"));
        // Coverage: a lock for another version covers nothing here.
        VerifyOptions other;
        other.useCache = false;
        other.lockCoverage = true;
        other.expected.insert(ProviderVersionKey{key.provider, Version::parse(QStringLiteral("9.9.9")).value()},
                              {hs(str("linux_amd64", "h1"))});
        const VerifyReport uncovered = verifyCatalog(m_catalog, other);
        QVERIFY(test::resultFor(uncovered, QStringLiteral("linux_amd64"))->detail.notCoveredByLock);
        QCOMPARE(toString(test::resultFor(uncovered, QStringLiteral("linux_amd64"))->detail.verdict), QStringLiteral("verified"));
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("openbsd_amd64"))->detail.verdict), QStringLiteral("missing"));
    }

    void cacheHitsAndMisses()
    {
        QFile::remove(cacheFile());
        VerifyOptions options;
        options.cacheFile = cacheFile();
        const VerifyReport first = verifyCatalog(m_catalog, options);
        QCOMPARE(first.summary.hashed, 7);
        QCOMPARE(first.summary.cacheHits, 0);
        QVERIFY2(first.summary.cacheWarning.isEmpty(), qPrintable(first.summary.cacheWarning));

        // Unchanged: everything but the corrupt zip (errors are never cached) comes from the cache.
        const VerifyReport second = verifyCatalog(m_catalog, options);
        QCOMPARE(second.summary.cacheHits, 6);
        QCOMPARE(second.summary.hashed, 1);
        for (qsizetype i = 0; i < first.results.size(); ++i) {
            QCOMPARE(toString(second.results.at(i).detail.verdict), toString(first.results.at(i).detail.verdict));
            QCOMPARE(second.results.at(i).hashes.has_value(), first.results.at(i).hashes.has_value());
            if (first.results.at(i).hashes) {
                QCOMPARE(second.results.at(i).hashes->h1Extracted, first.results.at(i).hashes->h1Extracted);
                QCOMPARE(second.results.at(i).hashes->h1Zip, first.results.at(i).hashes->h1Zip);
                QCOMPARE(second.results.at(i).hashes->zh, first.results.at(i).hashes->zh);
                QCOMPARE(second.results.at(i).hashes->hasDirectoryEntries, first.results.at(i).hashes->hasDirectoryEntries);
            }
        }
        QVERIFY(test::resultFor(second, QStringLiteral("linux_amd64"))->fromCache);

        // --no-cache hashes everything again.
        VerifyOptions noCache = options;
        noCache.useCache = false;
        QCOMPARE(verifyCatalog(m_catalog, noCache).summary.hashed, 7);

        // A file changed in place (same size, other bytes, other mtime) is hashed again and its
        // new content decides: the zip's declared hashes no longer match.
        const QString path = str("linux_amd64", "path");
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const QByteArray original = bytes;
        const QByteArray donor = [&] {
            QFile d(str("windows_amd64", "path"));
            return d.open(QIODevice::ReadOnly) ? d.readAll() : QByteArray();
        }();
        QVERIFY(!donor.isEmpty());
        f.seek(0);
        f.resize(0);
        f.write(donor);
        f.close();
        struct utimbuf later
        {
            time_t(2000000000), time_t(2000000000)
        };
        QCOMPARE(::utime(QFile::encodeName(path).constData(), &later), 0);
        Catalog changed = m_catalog;
        changed.providers[0].versions[0].archives[3].size = donor.size();
        const VerifyReport third = verifyCatalog(changed, options);
        QCOMPARE(third.summary.hashed, 2); // the changed zip + the corrupt one
        QCOMPARE(toString(test::resultFor(third, QStringLiteral("linux_amd64"))->detail.verdict), QStringLiteral("mismatch"));
        QVERIFY(!test::resultFor(third, QStringLiteral("linux_amd64"))->fromCache);

        // Restore for the other tests.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(original);
        f.close();
        QCOMPARE(toString(verifyCatalog(m_catalog, options).results.at(3).detail.verdict), QStringLiteral("verified"));
    }

    void damagedCacheIsNotFatal()
    {
        // The test before rewrote an archive: a file changed within the cache's racy window (about
        // 10 ms, docs/ARCHITECTURE.md "verify") is hashed but not stored, so let that window pass
        // first, or the count of cache hits below depends on the machine's speed.
        QThread::msleep(100);
        QFile f(cacheFile());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray(8192, 'x'));
        f.close();
        QFile::remove(cacheFile() + QStringLiteral("-wal"));
        QFile::remove(cacheFile() + QStringLiteral("-shm"));
        VerifyOptions options;
        options.cacheFile = cacheFile();
        const VerifyReport report = verifyCatalog(m_catalog, options);
        QCOMPARE(report.summary.hashed, 7);
        QVERIFY(report.summary.cacheWarning.contains(QStringLiteral("recreated")));
        QCOMPARE(report.summary.count(Verdict::Verified), 3);
        // ... and the recreated cache works.
        QCOMPARE(verifyCatalog(m_catalog, options).summary.cacheHits, 6);
    }

    void unusableCacheLocation()
    {
        VerifyOptions options;
        options.cacheFile = QStringLiteral("/dev/null/not-a-dir/cache.sqlite");
        const VerifyReport report = verifyCatalog(m_catalog, options);
        QCOMPARE(report.summary.hashed, 7);
        QCOMPARE(report.summary.count(Verdict::Verified), 3);
        QVERIFY(!report.summary.cacheWarning.isEmpty());
    }

    void cancelBeforeHashing()
    {
        std::atomic<bool> cancel{true};
        VerifyOptions options;
        options.useCache = false;
        const VerifyReport report = verifyCatalog(m_catalog, options, {}, &cancel);
        QVERIFY(report.summary.cancelled);
        QCOMPARE(report.summary.hashed, 0);
        QCOMPARE(report.summary.count(Verdict::Pending), 7);
        QCOMPARE(report.summary.count(Verdict::Missing), 1); // known without hashing
        for (const ArchiveResult &r : report.results)
            QCOMPARE(toString(r.detail.verdict),
                     r.key.platform.toString() == QStringLiteral("openbsd_amd64") ? QStringLiteral("missing") : QStringLiteral("pending"));
    }

    void asyncEngineDeliversOnItsThread()
    {
        VerifyEngine engine;
        QSignalSpy batches(&engine, &VerifyEngine::archivesVerified);
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        VerifyOptions options;
        options.useCache = false;
        engine.start(m_catalog, options);
        QVERIFY(engine.isRunning());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(!engine.isRunning());
        QSet<QString> seen;
        for (const QList<QVariant> &args : batches) {
            const auto list = args.at(0).value<QList<ArchiveResult>>();
            for (const ArchiveResult &r : list)
                seen.insert(r.key.platform.toString());
        }
        QCOMPARE(seen.size(), 8); // every archive, pending ones excluded, exactly once in total
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        QCOMPARE(summary.count(Verdict::Verified), 3);
    }

    void asyncNewRunSupersedesOld()
    {
        // The first run's signals must never arrive once a second run has started, however
        // far the first got: only the second catalog's summary (1 archive) may be delivered.
        Catalog small = m_catalog;
        small.providers[0].versions[0].archives = {m_catalog.providers[0].versions[0].archives.at(3)};
        VerifyEngine engine;
        QSignalSpy batches(&engine, &VerifyEngine::archivesVerified);
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        VerifyOptions options;
        options.useCache = false;
        const quint64 g1 = engine.start(m_catalog, options);
        const quint64 g2 = engine.start(small, options);
        QVERIFY(g2 > g1);
        QVERIFY(finished.wait(60000));
        QTest::qWait(200); // a stale finished() would be queued by now; none may appear
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.at(0).at(0).value<VerifySummary>().archives, 1);
        for (const QList<QVariant> &args : batches)
            for (const ArchiveResult &r : args.at(0).value<QList<ArchiveResult>>())
                QCOMPARE(r.key.platform.toString(), QStringLiteral("linux_amd64"));
    }

    void asyncCancel()
    {
        VerifyEngine engine;
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        VerifyOptions options;
        options.useCache = false;
        engine.start(m_catalog, options);
        engine.cancel();
        QVERIFY(finished.wait(60000));
        // Cancelled before the worker thread looked at the flag, or (rarely) after it finished:
        // either way every archive has a final verdict or is pending, and the flag says which.
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        int total = 0;
        for (int n : summary.counts)
            total += n;
        QCOMPARE(total, 8);
        if (summary.cancelled)
            QVERIFY(summary.count(Verdict::Pending) > 0 || summary.hashed == 7);
        else
            QCOMPARE(summary.count(Verdict::Pending), 0);
    }

    void engineBatchesEqualVerifyCatalog_data()
    {
        QTest::addColumn<bool>("useCache");
        QTest::addColumn<bool>("withLock");
        QTest::newRow("no cache") << false << false;
        QTest::newRow("warm cache") << true << false;
        QTest::newRow("lock hashes, no cache") << false << true;
        QTest::newRow("lock hashes, warm cache") << true << true;
    }

    void engineBatchesEqualVerifyCatalog()
    {
        // The GUI engine builds each result when it is decided and keeps none; what it delivers
        // must be exactly what verifyCatalog returns (whose values the tests above check against
        // Python): same verdicts, reasons and hashes, every archive exactly once.
        QFETCH(bool, useCache);
        QFETCH(bool, withLock);
        VerifyOptions options;
        options.useCache = useCache;
        options.cacheFile = m_dir.filePath(QStringLiteral("equal-cache.sqlite"));
        if (withLock) {
            const ProviderVersionKey key{m_catalog.providers.first().address, m_catalog.providers.first().versions.first().version};
            options.expected.insert(key, {hs(str("solaris_amd64", "h1")), hs(str("linux_amd64", "h1"))});
        }
        if (useCache)
            QVERIFY(verifyCatalog(m_catalog, options).summary.hashed > 0); // warm it (the corrupt zip is never cached)

        VerifyEngine engine;
        QSignalSpy batches(&engine, &VerifyEngine::archivesVerified);
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        engine.start(m_catalog, options);
        QVERIFY(finished.wait(60000));
        const VerifyReport expected = verifyCatalog(m_catalog, options);
        QCOMPARE(expected.results.size(), 8);

        QHash<QString, QString> got; // path or key -> dump
        for (const QList<QVariant> &args : std::as_const(batches))
            for (const ArchiveResult &r : args.at(0).value<QList<ArchiveResult>>()) {
                const QString id = r.key.toString() + u' ' + r.path;
                QVERIFY2(!got.contains(id), qPrintable(u"delivered twice: "_s + id));
                got.insert(id, dump(r));
            }
        QCOMPARE(got.size(), expected.results.size());
        QSet<QString> verdicts;
        int fromCache = 0;
        for (const ArchiveResult &r : expected.results) {
            const QString id = r.key.toString() + u' ' + r.path;
            QVERIFY2(got.contains(id), qPrintable(u"never delivered: "_s + id));
            QCOMPARE(got.value(id), dump(r));
            verdicts.insert(toString(r.detail.verdict));
            fromCache += r.fromCache ? 1 : 0;
        }
        // The fixture has every kind of outcome, so the comparison covers each path of the engine.
        for (const char *v : {"verified", "mismatch", "missing", "refused"})
            QVERIFY2(verdicts.contains(QLatin1StringView(v)), v);
        QCOMPARE(verdicts.contains(u"unverified"_s), !withLock); // a lock leaves nothing unverified here
        QCOMPARE(fromCache, useCache ? 6 : 0);

        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        QCOMPARE(summary.counts, expected.summary.counts);
        QCOMPARE(summary.hashed, expected.summary.hashed);
        QCOMPARE(summary.cacheHits, expected.summary.cacheHits);
        QCOMPARE(summary.bytesHashed, expected.summary.bytesHashed);
        QVERIFY(!summary.cancelled);
    }

    void backPressureBoundsBatchesInFlight()
    {
        // 20,000 missing archives are 40 batches the run can produce at once. A consumer that does
        // not return to the event loop for a while must never find more than the bound queued,
        // and every result must still arrive, exactly once and in catalog order.
        const int count = 20000;
        const Catalog catalog = missingCatalog(count);
        VerifyEngine engine;
        VerifyOptions options;
        options.useCache = false;
        int calls = 0, maxInFlight = 0, delivered = 0;
        bool reachedBound = false, inOrder = true;
        QStringList order;
        forEachArchive(catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
            order.append(ArchiveKey{p.address, v.version, a.platform}.toString());
        });
        connect(&engine, &VerifyEngine::archivesVerified, this, [&](const QList<ArchiveResult> &list) {
            ++calls;
            maxInFlight = std::max(maxInFlight, engine.batchesInFlight());
            if (calls == 1) {
                // Stay away from the event loop until the run has filled the queue, then a bit
                // longer: it must wait instead of queueing more.
                reachedBound = waitForInFlight(engine, VerifyEngine::maxBatchesInFlight);
                QThread::msleep(200);
                maxInFlight = std::max(maxInFlight, engine.batchesInFlight());
            } else if (calls % 8 == 0) {
                QThread::msleep(20);
            }
            for (const ArchiveResult &r : list) {
                inOrder = inOrder && delivered < order.size() && order.at(delivered) == r.key.toString();
                ++delivered;
            }
        });
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        engine.start(catalog, options);
        QVERIFY(finished.wait(120000));
        QVERIFY(reachedBound);
        QVERIFY2(maxInFlight <= VerifyEngine::maxBatchesInFlight, qPrintable(QString::number(maxInFlight)));
        QCOMPARE(maxInFlight, VerifyEngine::maxBatchesInFlight);
        QVERIFY(calls >= count / 512);
        QCOMPARE(delivered, count);
        QVERIFY(inOrder); // missing archives are decided in catalog order, and batches keep it
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        QCOMPARE(summary.count(Verdict::Missing), count);
        QCOMPARE(engine.batchesInFlight(), 0);
    }

    void cancelReleasesWaitingRun()
    {
        // Cancelling while the run waits for the consumer: the run goes on, what it decided still
        // arrives (every missing archive is decided before the cancel is looked at) and the summary
        // says cancelled.
        const int count = 20000;
        VerifyEngine engine;
        QSignalSpy batches(&engine, &VerifyEngine::archivesVerified);
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        VerifyOptions options;
        options.useCache = false;
        engine.start(missingCatalog(count), options);
        QVERIFY(waitForInFlight(engine, VerifyEngine::maxBatchesInFlight));
        engine.cancel();
        QVERIFY(finished.wait(60000));
        int delivered = 0;
        for (const QList<QVariant> &args : std::as_const(batches))
            delivered += int(args.at(0).value<QList<ArchiveResult>>().size());
        QCOMPARE(delivered, count);
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        QVERIFY(summary.cancelled);
        QCOMPARE(summary.count(Verdict::Missing), count);
    }

    void destroyWhileRunWaits()
    {
        // The engine's thread is inside ~VerifyEngine and will never apply the queued batches:
        // destroying the engine must release the waiting run instead of deadlocking.
        auto *engine = new VerifyEngine;
        int emitted = 0;
        connect(engine, &VerifyEngine::archivesVerified, this, [&emitted] { ++emitted; });
        VerifyOptions options;
        options.useCache = false;
        engine->start(missingCatalog(20000), options);
        QVERIFY(waitForInFlight(*engine, VerifyEngine::maxBatchesInFlight));
        QThread::msleep(50);
        QCOMPARE(engine->batchesInFlight(), VerifyEngine::maxBatchesInFlight); // the run waits
        {
            Watchdog watchdog(60, "~VerifyEngine with a run waiting on back-pressure");
            delete engine;
        }
        QTest::qWait(50); // nothing queued for the dead engine may run
        QCOMPARE(emitted, 0);
    }
};

QTEST_GUILESS_MAIN(TestVerifyEngine)
#include "tst_verifyengine.moc"
