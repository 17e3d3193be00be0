// The network mirror client and remote verification against a real nginx over HTTPS on
// 127.0.0.1 (tests/support/NginxFixture). The mirror, its zips and the hashes its JSON declares
// are made by Python (zipfile, hashlib: an independent implementation of zh: and h1:), so each
// archive's expected verdict follows from how the fixture was built. Request-level facts (which
// requests carried Authorization, how often a 500 was retried) come from nginx's access log.
// Skips with a clear message when nginx, openssl or python3 is absent.

#include "tests/support/FileSizeLimit.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/ServedMirror.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VerifyResults.h"

#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdio>
#include <unistd.h>

using namespace provender;

namespace {

ProviderAddress addr(const QString &s)
{
    return ProviderAddress::parse(s).value();
}

const Anomaly *anomalyFor(const Catalog &c, const QString &pathPart)
{
    for (const Anomaly &a : c.anomalies)
        if (a.path.contains(pathPart))
            return &a;
    return nullptr;
}

/// Answers every request with a JSON header and then spaces forever (no Content-Length).
class EndlessJsonServer : public QTcpServer
{
public:
    qint64 written = 0;

protected:
    void incomingConnection(qintptr handle) override
    {
        auto *s = new QTcpSocket(this);
        s->setSocketDescriptor(handle);
        connect(s, &QTcpSocket::readyRead, s, [this, s] {
            s->readAll();
            if (s->property("answered").toBool())
                return;
            s->setProperty("answered", true);
            s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"versions\": {}");
            auto more = [this, s] {
                if (s->state() == QAbstractSocket::ConnectedState && s->bytesToWrite() < 256 * 1024) {
                    written += s->write(QByteArray(64 * 1024, ' '));
                }
            };
            connect(s, &QTcpSocket::bytesWritten, s, more);
            more();
        });
        connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
    }
};

} // namespace

class TestNetworkMirror : public QObject
{
    Q_OBJECT
    test::ServedMirror m_served;
    test::NginxFixture &m_nginx = m_served.nginx();
    QTemporaryDir m_tmp;
    QString m_mirror;
    QJsonObject m_expected;
    QList<QSslCertificate> m_ca;

    NetworkMirrorOptions mirrorOptions() const
    {
        NetworkMirrorOptions o;
        o.http.caCertificates = m_ca;
        o.http.timeoutMs = 5000;
        o.maxJsonBytes = 1024 * 1024;
        return o;
    }
    RemoteVerifyOptions verifyOptions() const
    {
        RemoteVerifyOptions o;
        o.http.caCertificates = m_ca;
        o.http.timeoutMs = 5000;
        o.retries = 2;
        o.backoffMs = 10;
        o.maxBackoffMs = 50;
        return o;
    }
private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        QVERIFY(m_tmp.isValid());
        m_mirror = m_tmp.filePath(QStringLiteral("mirror"));
        QString error;
        QVERIFY2(m_served.start(m_mirror, &error), qPrintable(error));
        m_expected = m_served.expected();
        m_ca = QSslCertificate::fromPath(m_nginx.caFile());
        QCOMPARE(m_ca.size(), 1);
    }

    void everyVerdict()
    {
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY2(fetched.ok(), qPrintable(fetched.ok() ? QString() : fetched.error().message));
        const Catalog &catalog = fetched.value().catalog;
        QVERIFY(catalog.sourceKind == Catalog::SourceKind::Network);
        QCOMPARE(catalog.providers.size(), 1);
        QCOMPARE(catalog.providers.at(0).versions.size(), 2); // 1.0.0 and the listed-but-absent 2.0.0
        QCOMPARE(catalog.archiveCount(), 8);

        // 404 on <version>.json: tofu's protocol error.
        const Anomaly *v2 = anomalyFor(catalog, QStringLiteral("2.0.0.json"));
        QVERIFY2(v2, qPrintable(test::anomaliesText(catalog)));
        QCOMPARE(toString(v2->kind), toString(AnomalyKind::IndexListsAbsentVersion));
        QCOMPARE(v2->message,
                 QStringLiteral("failed to query provider mirror %1 for example.com/acme/good: provider mirror does not "
                                "have archive index for previously-reported example.com/acme/good version 2.0.0")
                     .arg(m_nginx.baseUrl()));

        const qint64 logStart = m_nginx.accessLogSize();
        QList<qint64> progress;
        const RemoteVerifyReport verified =
            verifyNetworkCatalog(catalog, verifyOptions(), [&](qint64 done, qint64) { progress.append(done); });
        const VerifyReport &report = verified.report;
        QCOMPARE(report.results.size(), 8);

        for (const test::ServedVerdict &w : test::kServedVerdicts) {
            const ArchiveResult *r = test::resultFor(report, QString::fromLatin1(w.platform));
            QVERIFY2(r, w.platform);
            QVERIFY2(
                r->detail.verdict == w.verdict,
                qPrintable(
                    QStringLiteral("%1: %2 (%3)").arg(QString::fromLatin1(w.platform), toString(r->detail.verdict), r->detail.reason)));
        }
        // Hashes agree with Python's.
        for (const QString &platform : {QStringLiteral("linux_amd64"), QStringLiteral("darwin_arm64"), QStringLiteral("windows_amd64")}) {
            const ArchiveResult *r = test::resultFor(report, platform);
            QVERIFY(r->hashes);
            QCOMPARE(r->hashes->zh.toString(), m_expected.value(platform).toObject().value(QStringLiteral("zh")).toString());
            QCOMPARE(r->hashes->h1Extracted.toString(), m_expected.value(platform).toObject().value(QStringLiteral("h1")).toString());
        }
        QCOMPARE(test::resultFor(report, QStringLiteral("freebsd_amd64"))->detail.reason,
                 QStringLiteral("unsuccessful request to %1example.com/acme/good/absent.zip: 404 Not Found").arg(m_nginx.baseUrl()));
        const ArchiveResult *e500 = test::resultFor(report, QStringLiteral("openbsd_amd64"));
        QVERIFY2(e500->detail.reason.contains(QStringLiteral("500 Internal Server Error")), qPrintable(e500->detail.reason));
        QVERIFY2(test::resultFor(report, QStringLiteral("linux_386"))->error.size() > 0, "a corrupt zip is an error with a reason");
        // `../` resolved against the JSON document's URL.
        QCOMPARE(test::resultFor(report, QStringLiteral("solaris_amd64"))->path,
                 m_nginx.baseUrl() + QStringLiteral("example.com/acme/good/terraform-provider-good_1.0.0_linux_amd64.zip"));

        // Progress in bytes, ending at everything downloaded.
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last(), verified.bytesDownloaded);
        QVERIFY(verified.bytesDownloaded > 3 * 1024 * 1024);

        // Two retries of the 500 (3 requests), as tofu's default download_retry_count.
        const QByteArray log = m_nginx.accessLogFrom(logStart);
        QCOMPARE(log.count("GET /status/500/x.zip 500"), 3);
        QCOMPARE(log.count("GET /example.com/acme/good/absent.zip 404"), 1); // a 404 is not retried
    }

    void providerLevelFailures()
    {
        NetworkMirrorOptions options = mirrorOptions();
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(),
                                {addr(QStringLiteral("example.com/acme/absent")), addr(QStringLiteral("example.com/acme/wrongtype")),
                                 addr(QStringLiteral("example.com/acme/forbidden")), addr(QStringLiteral("example.com/acme/badjson")),
                                 addr(QStringLiteral("example.com/acme/huge"))},
                                options);
        QVERIFY(fetched.ok());
        const Catalog &c = fetched.value().catalog;
        QCOMPARE(c.providers.size(), 0);
        QCOMPARE(fetched.value().absent.size(), 1);
        const QString base = m_nginx.baseUrl();
        const QString prefix = QStringLiteral("failed to query provider mirror %1 for ").arg(base);

        const Anomaly *absent = anomalyFor(c, QStringLiteral("/absent/"));
        QVERIFY2(absent, qPrintable(test::anomaliesText(c)));
        QCOMPARE(absent->message, QStringLiteral("provider example.com/acme/absent was not found in any of the search locations"));
        QCOMPARE(toString(absent->kind), QStringLiteral("provider-not-in-mirror"));

        const Anomaly *wrongType = anomalyFor(c, QStringLiteral("/wrongtype/"));
        QVERIFY(wrongType);
        QCOMPARE(wrongType->message,
                 prefix + QStringLiteral("example.com/acme/wrongtype: response has invalid Content-Type: must be application/json"));
        QCOMPARE(toString(wrongType->kind), QStringLiteral("wrong-content-type"));

        const Anomaly *forbidden = anomalyFor(c, QStringLiteral("/forbidden/"));
        QVERIFY(forbidden);
        QCOMPARE(forbidden->message,
                 prefix
                     + QStringLiteral("example.com/acme/forbidden: host 127.0.0.1:%1 rejected the given "
                                      "authentication credentials")
                           .arg(m_nginx.port()));
        QCOMPARE(toString(forbidden->kind), QStringLiteral("request-failed"));

        const Anomaly *bad = anomalyFor(c, QStringLiteral("/badjson/"));
        QVERIFY(bad);
        QCOMPARE(toString(bad->kind), toString(AnomalyKind::MalformedJson));
        QVERIFY2(
            bad->message.startsWith(prefix + QStringLiteral("example.com/acme/badjson: invalid response content from mirror server: ")),
            qPrintable(bad->message));
        QCOMPARE(bad->location.line, 3); // `oops` is on line 3 of the document Python wrote

        const Anomaly *huge = anomalyFor(c, QStringLiteral("/huge/"));
        QVERIFY(huge);
        QVERIFY2(huge->message.contains(QStringLiteral("exceeds the limit of 1048576 bytes")), qPrintable(huge->message));
    }

    void hugeBodyWithoutLengthStopsAtTheCap()
    {
        EndlessJsonServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        NetworkMirrorOptions options = mirrorOptions();
        options.http.allowHttpLoopback = true;
        options.maxJsonBytes = 256 * 1024;
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(QStringLiteral("http://127.0.0.1:%1/").arg(server.serverPort()),
                                                                   {addr(QStringLiteral("example.com/acme/endless"))}, options);
        QVERIFY(fetched.ok());
        const Catalog &c = fetched.value().catalog;
        const QString why = test::soleAnomalyMismatch(c, QStringLiteral("exceeds the limit of 262144 bytes"));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(server.written > 256 * 1024); // the server really sent more than the cap
    }

    void redirects()
    {
        // Two hops (/r1/ -> /r2/ -> /): documents and archive URLs resolve against the final URL.
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(m_nginx.baseUrl() + QStringLiteral("r1/"),
                                                                   {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        const Catalog &c = fetched.value().catalog;
        QCOMPARE(c.archiveCount(), 8);
        for (const Archive &a : c.providers.at(0).versions.at(0).archives)
            if (a.platform.toString() == QLatin1StringView("linux_amd64"))
                QCOMPARE(a.path, m_nginx.baseUrl() + QStringLiteral("example.com/acme/good/terraform-provider-good_1.0.0_linux_amd64.zip"));

        // A loop: the 6th redirect fails.
        const Result<NetworkCatalog> loop = fetchNetworkCatalog(m_nginx.baseUrl() + QStringLiteral("loop/"),
                                                                {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY(loop.ok());
        const QString why = test::soleAnomalyMismatch(loop.value().catalog, QStringLiteral("request failed: too many redirects"));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        int hops = 0;
        for (const RequestLogEntry &e : loop.value().log)
            hops += e.status == 302;
        QCOMPARE(hops, 6); // five followed, the sixth refused

        // https -> http is never followed, even with http allowed on loopback.
        NetworkMirrorOptions options = mirrorOptions();
        options.http.allowHttpLoopback = true;
        const Result<NetworkCatalog> down =
            fetchNetworkCatalog(m_nginx.baseUrl() + QStringLiteral("tohttp/"), {addr(QStringLiteral("example.com/acme/good"))}, options);
        QVERIFY(down.ok());
        const QString whyDown =
            test::soleAnomalyMismatch(down.value().catalog, QStringLiteral("refused a redirect from https to http://127.0.0.1:9/"));
        QVERIFY2(whyDown.isEmpty(), qPrintable(whyDown));
    }

    void tokenOnlyOnIndexRequests()
    {
        NetworkMirrorOptions options = mirrorOptions();
        options.credential =
            Credential{QStringLiteral("127.0.0.1:%1").arg(m_nginx.port()), QStringLiteral("s3cret-token"), QStringLiteral("test")};
        const qint64 logStart = m_nginx.accessLogSize();
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, options);
        QVERIFY(fetched.ok());
        const RemoteVerifyReport verified = verifyNetworkCatalog(fetched.value().catalog, verifyOptions());
        QCOMPARE(verified.report.summary.count(Verdict::Verified), 3);
        for (const RequestLogEntry &e : fetched.value().log)
            QVERIFY(!e.error.contains(QStringLiteral("s3cret")));

        const test::NginxFixture::AuthorizationLog sent = m_nginx.authorizationsFrom(logStart, "Bearer s3cret-token");
        QVERIFY2(sent.wrong.isEmpty(), qPrintable(sent.wrong));
        QCOMPARE(sent.json, 3);   // index.json, 1.0.0.json, 2.0.0.json
        QVERIFY(sent.other >= 8); // every archive URL (plus retries of the 500)

        // A token for another host is not sent.
        options.credential->host = QStringLiteral("other.example");
        const qint64 second = m_nginx.accessLogSize();
        QVERIFY(fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, options).ok());
        QVERIFY(!m_nginx.accessLogFrom(second).contains("Bearer"));
    }

    void untrustedCertificates()
    {
        // Without our CA: the system store does not trust it.
        NetworkMirrorOptions options = mirrorOptions();
        options.http.caCertificates.clear();
        Result<NetworkCatalog> fetched = fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, options);
        QVERIFY(fetched.ok());
        QCOMPARE(fetched.value().catalog.providers.size(), 0);
        const QString why = test::soleAnomalyMismatch(
            fetched.value().catalog, QStringLiteral("request failed: TLS handshake with 127.0.0.1:%1 failed: ").arg(m_nginx.port()));
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // A server certificate not issued by the CA we trust.
        test::NginxFixture other;
        QString error;
        QVERIFY2(other.makeCertificates(&error), qPrintable(error));
        QVERIFY2(other.start(m_mirror, {}, {}, &error, true), qPrintable(error));
        fetched = fetchNetworkCatalog(other.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        const QString whyOther = test::soleAnomalyMismatch(fetched.value().catalog, QStringLiteral("TLS handshake"));
        QVERIFY2(whyOther.isEmpty(), qPrintable(whyOther));
        QCOMPARE(fetched.value().catalog.providers.size(), 0);

        // Archives from a server we do not trust: error with the TLS text, never retried into success.
        Catalog remote;
        remote.sourceKind = Catalog::SourceKind::Network;
        Provider p;
        p.address = addr(QStringLiteral("example.com/acme/good"));
        ProviderVersion v;
        v.version = Version::parse(u"1.0.0").value();
        Archive a;
        a.platform = Platform::parse(u"linux_amd64").value();
        a.present = true;
        a.path = other.baseUrl() + QStringLiteral("example.com/acme/good/terraform-provider-good_1.0.0_linux_amd64.zip");
        v.archives.append(a);
        p.versions.append(v);
        remote.providers.append(p);
        const RemoteVerifyReport r = verifyNetworkCatalog(remote, verifyOptions());
        QCOMPARE(r.report.results.size(), 1);
        QCOMPARE(toString(r.report.results.at(0).detail.verdict), toString(Verdict::Error));
        QVERIFY2(r.report.results.at(0).error.contains(QStringLiteral("TLS handshake")), qPrintable(r.report.results.at(0).error));
    }

    void stalledServerTimesOut()
    {
        QTcpServer stall; // accepts and never answers (not even the TLS handshake)
        QVERIFY(stall.listen(QHostAddress::LocalHost, 0));
        NetworkMirrorOptions options = mirrorOptions();
        options.http.timeoutMs = 1000;
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(QStringLiteral("https://127.0.0.1:%1/").arg(stall.serverPort()),
                                                                   {addr(QStringLiteral("example.com/acme/good"))}, options);
        QVERIFY(fetched.ok());
        const QString why = test::soleAnomalyMismatch(fetched.value().catalog, QStringLiteral("request failed: timed out"));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void cancel()
    {
        QTcpServer stall;
        QVERIFY(stall.listen(QHostAddress::LocalHost, 0));
        std::atomic<bool> cancelled{true};
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(QStringLiteral("https://127.0.0.1:%1/").arg(stall.serverPort()),
                                {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions(), &cancelled);
        QVERIFY(fetched.ok());
        QVERIFY(fetched.value().cancelled);
        QCOMPARE(fetched.value().catalog.providers.size(), 0);
    }

    void lockFileExpectations()
    {
        // A lock pinning 1.0.0 with linux_amd64's h1 (Python's) verifies an archive whose index has no hashes.
        NetworkMirrorOptions options = mirrorOptions();
        const ProviderAddress good = addr(QStringLiteral("example.com/acme/good"));
        const Version v1 = Version::parse(u"1.0.0").value();
        options.onlyVersions[good] = {v1, Version::parse(u"9.9.9").value()};
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(m_nginx.baseUrl(), {good}, options);
        QVERIFY(fetched.ok());
        QCOMPARE(fetched.value().catalog.providers.at(0).versions.size(), 1); // 2.0.0 not requested
        QVERIFY(anomalyFor(fetched.value().catalog, QStringLiteral("index.json"))->message.contains(QStringLiteral("9.9.9")));
        RemoteVerifyOptions vo = verifyOptions();
        // Lock semantics: the lock lists hashes of several platforms; any one matching verifies.
        auto expectedHash = [this](const char *platform, const char *kind) {
            return HashString::parse(m_expected.value(QLatin1StringView(platform)).toObject().value(QLatin1StringView(kind)).toString())
                .value();
        };
        vo.expected[ProviderVersionKey{good, v1}] = {expectedHash("linux_arm64", "h1"), expectedHash("linux_amd64", "zh")};
        const RemoteVerifyReport r = verifyNetworkCatalog(fetched.value().catalog, vo);
        QCOMPARE(toString(test::resultFor(r.report, QStringLiteral("linux_arm64"))->detail.verdict), toString(Verdict::Verified));
        QCOMPARE(toString(test::resultFor(r.report, QStringLiteral("linux_amd64"))->detail.verdict), toString(Verdict::Verified));
        // darwin_arm64: its index's h1 matches, but the lock lists hashes and none is its own.
        QCOMPARE(toString(test::resultFor(r.report, QStringLiteral("darwin_arm64"))->detail.verdict), toString(Verdict::Mismatch));
    }

    // The GUI verifies on the global thread pool (JobTracker). Found by review: verify URL used to
    // wait for a task it had queued on that same pool (the hashing of each finished download), so
    // with every pool thread inside a verify (one verify on a 1-CPU machine, two at once on 2
    // cores) it never returned.
    void verifyOnABusyGlobalPool_data()
    {
        QTest::addColumn<int>("poolThreads");
        QTest::addColumn<int>("concurrentJobs");
        QTest::newRow("pool of 1, one verify") << 1 << 1;
        QTest::newRow("pool of 2, two verifies") << 2 << 2;
    }

    void verifyOnABusyGlobalPool()
    {
        QFETCH(int, poolThreads);
        QFETCH(int, concurrentJobs);
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        const Catalog catalog = fetched.value().catalog;
        const RemoteVerifyOptions vo = verifyOptions();
        const int before = QThreadPool::globalInstance()->maxThreadCount();
        QThreadPool::globalInstance()->setMaxThreadCount(poolThreads);
        QList<QFuture<qsizetype>> jobs;
        for (int i = 0; i < concurrentJobs; ++i)
            jobs << QtConcurrent::run([catalog, vo] { return verifyNetworkCatalog(catalog, vo).report.results.size(); });
        const bool done = QTest::qWaitFor(
            [&] { return std::all_of(jobs.cbegin(), jobs.cend(), [](const QFuture<qsizetype> &j) { return j.isFinished(); }); }, 60000);
        if (!done) {
            // The pool threads never return: a normal exit would hang in the pool's destructor.
            std::fprintf(stderr, "FAIL: verify URL did not finish on a global pool of %d with %d verifies\n", poolThreads, concurrentJobs);
            std::fflush(stderr);
            ::_exit(3);
        }
        QThreadPool::globalInstance()->setMaxThreadCount(before);
        for (const QFuture<qsizetype> &j : std::as_const(jobs))
            QCOMPARE(j.result(), catalog.archiveCount());
    }

    void cacheDirectoryKeepsDownloads()
    {
        QTemporaryDir cache;
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        RemoteVerifyOptions vo = verifyOptions();
        vo.cacheDir = cache.path();
        verifyNetworkCatalog(fetched.value().catalog, vo);
        const QString kept = cache.filePath(QStringLiteral("example.com/acme/good/1.0.0/terraform-provider-good_1.0.0_linux_amd64.zip"));
        QVERIFY(QFile::exists(kept));
        QVERIFY(!QFile::exists(kept + QStringLiteral(".part"))); // written as NAME.part, renamed once complete
        QFile f(kept);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QStringLiteral("zh:") + QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex()),
                 m_expected.value(QStringLiteral("linux_amd64")).toObject().value(QStringLiteral("zh")).toString());
        QVERIFY(
            !QFile::exists(cache.filePath(QStringLiteral("example.com/acme/good/1.0.0/terraform-provider-good_1.0.0_freebsd_amd64.zip"))));
    }

    /// A download that cannot be stored in full (the file size limit: writes past 1 KiB fail with
    /// EFBIG, as on a full disk, here at the small archives' last write) is an error that says so,
    /// never a verdict on the bytes that were hashed while they arrived.
    void failedStoreIsAnError()
    {
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/good"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        test::FileSizeLimit limit(1024);
        QVERIFY(limit.ok());
        const RemoteVerifyReport verified = verifyNetworkCatalog(fetched.value().catalog, verifyOptions());
        QVERIFY(limit.restore());
        for (const QString &platform : {QStringLiteral("darwin_arm64"), QStringLiteral("windows_amd64")}) { // 5000 and 7000 bytes
            const ArchiveResult *r = test::resultFor(verified.report, platform);
            QVERIFY2(r, qPrintable(platform));
            QCOMPARE(toString(r->detail.verdict), toString(Verdict::Error));
            QVERIFY2(r->detail.reason.contains(QStringLiteral("cannot store the download")), qPrintable(r->detail.reason));
        }
    }
};

QTEST_GUILESS_MAIN(TestNetworkMirror)
#include "tst_network_mirror.moc"
