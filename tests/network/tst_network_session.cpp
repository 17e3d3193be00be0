// RemoteSession (the GUI's asynchronous driver for a network mirror) against a real nginx over
// HTTPS serving the mirror of MirrorFixture.h (zips, JSON and declared hashes made by Python, so
// every expected verdict follows from how the fixture was built), with `autoindex on` so that
// discovery from the listing can be checked too. Signals are observed with QSignalSpy while the
// test's event loop runs (the session never blocks the thread it lives on). Which requests
// carried a token is read from nginx's access log; the RequestLogModel is checked with
// QAbstractItemModelTester while the session feeds it.

#include "tests/support/NginxFixture.h"
#include "tests/support/ServedMirror.h"

#include "model/network/RemoteSession.h"
#include "model/network/RequestLogModel.h"

#include "tests/support/TestSupport.h"
#include "tests/support/VerifyResults.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

namespace {

ProviderAddress addr(const char *s)
{
    return ProviderAddress::parse(QString::fromLatin1(s)).value();
}

/// Everything one run emitted, collected in order.
struct Recorder
{
    QList<ArchiveResult> results;
    QList<RequestLogEntry> requests;
    QStringList messages;
    std::optional<Catalog> catalog;
    std::optional<VerifySummary> summary;
    std::optional<QString> failure;
    int batches = 0;
    QList<qint64> progress;
    bool resultBeforeCatalog = false;

    explicit Recorder(RemoteSession *s)
    {
        QObject::connect(s, &RemoteSession::catalogReady, s, [this](const Catalog &c) { catalog = c; });
        QObject::connect(s, &RemoteSession::archivesVerified, s, [this](const QList<ArchiveResult> &r) {
            if (!catalog)
                resultBeforeCatalog = true;
            results += r;
            ++batches;
        });
        QObject::connect(s, &RemoteSession::progress, s, [this](qint64 done, qint64) { progress << done; });
        QObject::connect(s, &RemoteSession::finished, s, [this](const VerifySummary &v) { summary = v; });
        QObject::connect(s, &RemoteSession::failed, s, [this](const QString &m) { failure = m; });
        QObject::connect(s, &RemoteSession::requestFinished, s, [this](const RequestLogEntry &e) { requests << e; });
        QObject::connect(s, &RemoteSession::message, s, [this](const QString &m) { messages << m; });
    }
    bool ended() const { return summary || failure; }
    const ArchiveResult *find(const QString &platform) const { return test::resultFor(results, platform); }
};

} // namespace

class TestNetworkSession : public QObject
{
    Q_OBJECT
    test::ServedMirror m_served;
    test::NginxFixture &m_nginx = m_served.nginx();
    QTemporaryDir m_tmp;
    QJsonObject m_expected;

    RemoteRequest request() const
    {
        RemoteRequest r;
        r.baseUrl = m_nginx.baseUrl();
        r.caFile = m_nginx.caFile();
        r.timeoutMs = 5000;
        r.backoffMs = 10;
        r.maxBackoffMs = 50;
        r.environment = QProcessEnvironment(); // no TF_TOKEN_*, no CLI config
        r.homeDir = m_tmp.filePath(QStringLiteral("home"));
        return r;
    }
    /// request() for the good provider from `stall`, a server that accepts and never answers, with
    /// a timeout far beyond the test's.
    RemoteRequest stalledRequest(const QTcpServer &stall) const
    {
        RemoteRequest r = request();
        r.baseUrl = QStringLiteral("https://127.0.0.1:%1/").arg(stall.serverPort());
        r.timeoutMs = 600000;
        r.providers = {addr("example.com/acme/good")};
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        QVERIFY(m_tmp.isValid());
        const QString mirror = m_tmp.filePath(QStringLiteral("mirror"));
        QString error;
        QVERIFY2(m_served.start(mirror, &error, QStringLiteral("    autoindex on;\n")), qPrintable(error));
        m_expected = m_served.expected();
    }

    void everyVerdictThroughSignals()
    {
        RemoteSession session;
        Recorder rec(&session);
        RequestLogModel log;
        QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(&session, &RemoteSession::requestFinished, &log, &RequestLogModel::append);

        RemoteRequest req = request();
        req.providers = {addr("example.com/acme/good")};
        session.start(req);
        QVERIFY(session.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(rec.ended(), 60000);
        QVERIFY2(!rec.failure, qPrintable(rec.failure.value_or(QString())));
        QVERIFY(!session.isRunning());
        QVERIFY(rec.catalog);
        QCOMPARE(rec.catalog->archiveCount(), 8);
        QVERIFY(!rec.resultBeforeCatalog);
        QCOMPARE(rec.results.size(), 8);
        QVERIFY(rec.batches >= 1);

        for (const test::ServedVerdict &w : test::kServedVerdicts) {
            const ArchiveResult *r = rec.find(QString::fromLatin1(w.platform));
            QVERIFY2(r, w.platform);
            QCOMPARE(toString(r->detail.verdict), toString(w.verdict));
        }
        QCOMPARE(rec.find(QStringLiteral("linux_amd64"))->hashes->zh.toString(),
                 m_expected.value(QStringLiteral("linux_amd64")).toObject().value(QStringLiteral("zh")).toString());
        QCOMPARE(rec.summary->count(Verdict::Verified), 3);
        QCOMPARE(rec.summary->count(Verdict::Error), 2);
        QVERIFY(!rec.summary->cancelled);
        QVERIFY(!rec.progress.isEmpty());
        QVERIFY(rec.progress.last() > 3 * 1024 * 1024);

        // Request log: the documents, every archive, the 404 once and the 500 three times (2 retries).
        auto count = [&rec](const QString &suffix, int status) {
            int n = 0;
            for (const RequestLogEntry &e : std::as_const(rec.requests))
                n += e.url.toString().endsWith(suffix) && e.status == status;
            return n;
        };
        QCOMPARE(count(QStringLiteral("/good/index.json"), 200), 1);
        QCOMPARE(count(QStringLiteral("/good/2.0.0.json"), 404), 1);
        QCOMPARE(count(QStringLiteral("/absent.zip"), 404), 1);
        QCOMPARE(count(QStringLiteral("/status/500/x.zip"), 500), 3);
        QCOMPARE(rec.requests.size(), session.requestLog().size());
        QCOMPARE(log.rowCount(), int(rec.requests.size()));
        // 2.0.0.json 404, absent.zip 404, three 500s.
        QCOMPARE(log.failedCount(), 5);
        for (const RequestLogEntry &e : std::as_const(rec.requests))
            QVERIFY(!e.authorization); // no credentials configured
    }

    void lockFileAndToken()
    {
        // A lock pinning 1.0.0 (Python's linux_arm64 h1: the lock verifies the archive whose index has
        // no hashes) and a token for the mirror host in a CLI config file.
        const QString lock = m_tmp.filePath(QStringLiteral("lock.hcl"));
        {
            QFile f(lock);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("provider \"example.com/acme/good\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"%1\",\n  ]\n}\n")
                        .arg(m_expected.value(QStringLiteral("linux_arm64")).toObject().value(QStringLiteral("h1")).toString())
                        .toUtf8());
        }
        const QString config = m_tmp.filePath(QStringLiteral("cli.tfrc"));
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("credentials \"127.0.0.1:%1\" {\n  token = \"sessiontoken-abcdef\"\n}\n").arg(m_nginx.port()).toUtf8());
        }
        RemoteSession session;
        Recorder rec(&session);
        RemoteRequest req = request();
        req.source = RemoteRequest::ProviderSource::LockFile;
        req.lockFile = lock;
        req.environment.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), config);
        const qint64 from = m_nginx.accessLogSize();
        session.start(req);
        QTRY_VERIFY_WITH_TIMEOUT(rec.ended(), 60000);
        QVERIFY2(!rec.failure, qPrintable(rec.failure.value_or(QString())));
        QCOMPARE(rec.catalog->providers.size(), 1);
        QCOMPARE(rec.catalog->providers.at(0).versions.size(), 1); // only the pinned version
        QCOMPARE(toString(rec.find(QStringLiteral("linux_arm64"))->detail.verdict), toString(Verdict::Verified));
        QCOMPARE(toString(rec.find(QStringLiteral("darwin_arm64"))->detail.verdict), toString(Verdict::Mismatch));

        QVERIFY(session.credential());
        QCOMPARE(session.credential()->source.contains(config), true);
        const QString shown = rec.messages.join(QLatin1Char('\n'));
        QVERIFY2(shown.contains(QStringLiteral("sess…")) && !shown.contains(QStringLiteral("sessiontoken")), qPrintable(shown));
        // The token went with the two JSON requests only, per the server and per the log.
        const test::NginxFixture::AuthorizationLog sent = m_nginx.authorizationsFrom(from, "Bearer sessiontoken-abcdef");
        QVERIFY2(sent.wrong.isEmpty(), qPrintable(sent.wrong));
        QCOMPARE(sent.json, 2);
        QVERIFY(sent.other >= 8);
        for (const RequestLogEntry &e : std::as_const(rec.requests))
            QCOMPARE(e.authorization, e.url.path().endsWith(QStringLiteral(".json")));
    }

    void discoveryFromAutoindex()
    {
        RemoteSession session;
        Recorder rec(&session);
        RemoteRequest req = request();
        req.source = RemoteRequest::ProviderSource::Autoindex;
        session.start(req);
        QTRY_VERIFY_WITH_TIMEOUT(rec.ended(), 60000);
        QVERIFY2(!rec.failure, qPrintable(rec.failure.value_or(QString())));
        // The providers of the fixture the listing shows: index.json was requested for each; the
        // forbidden directory answers 403 (no listing), so it is not discovered.
        QStringList indexRequests;
        for (const RequestLogEntry &e : std::as_const(rec.requests))
            if (e.url.path().endsWith(QStringLiteral("/index.json")))
                indexRequests << e.url.path();
        indexRequests.sort();
        QCOMPARE(
            indexRequests,
            (QStringList{QStringLiteral("/example.com/acme/badjson/index.json"), QStringLiteral("/example.com/acme/good/index.json"),
                         QStringLiteral("/example.com/acme/huge/index.json"), QStringLiteral("/example.com/acme/wrongtype/index.json")}));
        QVERIFY2(rec.messages.join(QLatin1Char('\n')).contains(QStringLiteral("forbidden/: 403 Forbidden")),
                 qPrintable(rec.messages.join(QLatin1Char('\n'))));
        QStringList kinds;
        for (const Anomaly &a : rec.catalog->anomalies)
            kinds << toString(a.kind) + QLatin1Char(' ') + a.path.section(QLatin1Char('/'), -2);
        QVERIFY2(kinds.contains(QStringLiteral("malformed-json badjson/index.json")), qPrintable(kinds.join(QLatin1Char('\n'))));
        QVERIFY2(kinds.contains(QStringLiteral("wrong-content-type wrongtype/index.json")), qPrintable(kinds.join(QLatin1Char('\n'))));
        QCOMPARE(rec.results.size(), 8);
    }

    void cancelWhileStalled()
    {
        // A server that accepts and never answers: the session stays responsive and cancel ends it.
        QTcpServer stall;
        QVERIFY(stall.listen(QHostAddress::LocalHost, 0));
        RemoteSession session;
        Recorder rec(&session);
        QSignalSpy connected(&stall, &QTcpServer::newConnection);
        session.start(stalledRequest(stall));
        // Cancel only once the request really hangs on the stalled server.
        QVERIFY(connected.wait(20000));
        QVERIFY(!rec.ended());
        session.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(rec.summary.has_value(), 20000);
        QVERIFY(rec.summary->cancelled);
        QVERIFY(!rec.failure);
    }

    void supersededRunIsSilent()
    {
        QTcpServer stall;
        QVERIFY(stall.listen(QHostAddress::LocalHost, 0));
        RemoteSession session;
        Recorder rec(&session);
        const quint64 first = session.start(stalledRequest(stall));
        RemoteRequest fast = request();
        fast.providers = {addr("example.com/acme/absent")};
        const quint64 second = session.start(fast);
        QVERIFY(second > first);
        QTRY_VERIFY_WITH_TIMEOUT(rec.ended(), 20000);
        QVERIFY(!rec.summary->cancelled); // the second run's finish, not the first's cancel
        QCOMPARE(rec.catalog->anomalies.size(), 1);
        QCOMPARE(toString(rec.catalog->anomalies.at(0).kind), QStringLiteral("provider-not-in-mirror"));
        for (const RequestLogEntry &e : std::as_const(rec.requests))
            QCOMPARE(e.url.port(), int(m_nginx.port()));
    }

    void failures_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("source");
        QTest::addColumn<QString>("lockFile");
        QTest::addColumn<QString>("expected");
        QTest::newRow("http refused") << QStringLiteral("http://mirror.example/") << int(RemoteRequest::ProviderSource::Addresses)
                                      << QString() << QStringLiteral("Cannot use \"http://mirror.example/\"");
        QTest::newRow("no providers") << QString() << int(RemoteRequest::ProviderSource::Addresses) << QString()
                                      << QStringLiteral("no providers to check");
        QTest::newRow("missing lock") << QString() << int(RemoteRequest::ProviderSource::LockFile)
                                      << QStringLiteral("/nonexistent/.terraform.lock.hcl")
                                      << QStringLiteral("/nonexistent/.terraform.lock.hcl");
        QTest::newRow("no listing") << QStringLiteral("example.com/acme/forbidden/") << int(RemoteRequest::ProviderSource::Autoindex)
                                    << QString() << QStringLiteral("403 Forbidden");
    }
    void failures()
    {
        QFETCH(QString, url);
        QFETCH(int, source);
        QFETCH(QString, lockFile);
        QFETCH(QString, expected);
        RemoteSession session;
        Recorder rec(&session);
        RemoteRequest req = request();
        if (url.startsWith(QStringLiteral("http")))
            req.baseUrl = url;
        else
            req.baseUrl += url;
        req.source = RemoteRequest::ProviderSource(source);
        req.lockFile = lockFile;
        session.start(req);
        QTRY_VERIFY_WITH_TIMEOUT(rec.ended(), 20000);
        QVERIFY(rec.failure);
        QVERIFY(!rec.summary);
        QVERIFY2(rec.failure->contains(expected), qPrintable(*rec.failure));
        QVERIFY(!session.isRunning());
    }
};

QTEST_GUILESS_MAIN(TestNetworkSession)
#include "tst_network_session.moc"
