// Hostile mirrors (issue 14 items 3 and 4; docs/NETWORK.md "Rules for every URL", "Limits",
// "Trust store"): real nginx over HTTPS on 127.0.0.1 (tests/support/NginxFixture) plus the Python
// server of HostileServer.h for what nginx cannot play (drip, endless error body, huge archive,
// redirects to any URL). Both log the Authorization header of every request, so "the token was
// (not) sent" is read from the servers, not from Provender. The served zip and its zh: come from
// Python's zipfile/hashlib; an archive whose URL must be refused declares that zip's real hash, so
// reading it would have verified — an error verdict proves nothing was read.
// The trust-store cases use a second throw-away CA made with openssl here. With terraform on PATH,
// two cases compare with it under the same environment: which archive URLs it installs from, and
// which SSL_CERT_FILE / SSL_CERT_DIR settings make it trust the server.

#include "tests/network/HostileServer.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VerifyResults.h"

#include "model/network/AutoindexCrawler.h"
#include "model/network/NetworkMirror.h"
#include "model/network/RemoteSession.h"
#include "model/network/RemoteVerify.h"
#include "model/network/TrustStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QMutex>
#include <QProcess>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace provender;

namespace {

ProviderAddress addr(const QString &s)
{
    return ProviderAddress::parse(s).value();
}

/// Every message logged through Qt while it lives (all categories, debug included).
struct LogCapture
{
    static inline QStringList *lines = nullptr;
    static inline QtMessageHandler previous = nullptr;
    static inline QMutex mutex; // messages come from worker threads too
    QStringList captured;
    LogCapture()
    {
        lines = &captured;
        QLoggingCategory::setFilterRules(QStringLiteral("provender.*.debug=true"));
        previous = qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &ctx, const QString &msg) {
            {
                const QMutexLocker locker(&mutex);
                if (lines)
                    lines->append(msg);
            }
            if (previous)
                previous(type, ctx, msg);
        });
    }
    ~LogCapture()
    {
        qInstallMessageHandler(previous);
        const QMutexLocker locker(&mutex);
        lines = nullptr;
        QLoggingCategory::setFilterRules(QString());
    }
};

/// Sets an environment variable for a scope (restores the old value).
struct ScopedEnv
{
    QByteArray name, old;
    bool had;
    ScopedEnv(const char *n, const QString &value) : name(n), old(qgetenv(n)), had(qEnvironmentVariableIsSet(n))
    {
        if (value.isNull())
            qunsetenv(n);
        else
            qputenv(n, value.toLocal8Bit());
    }
    ~ScopedEnv()
    {
        if (had)
            qputenv(name.constData(), old);
        else
            qunsetenv(name.constData());
    }
};

} // namespace

class TestNetworkHostile : public QObject
{
    Q_OBJECT
    test::NginxFixture m_nginx;
    QTemporaryDir m_tmp;
    QString m_root, m_python, m_otherCa, m_outside;
    QString m_zh;
    QProcess m_plain, m_tls;
    quint16 m_plainPort = 0, m_tlsPort = 0;
    QList<QSslCertificate> m_ca;

    bool startServer(QProcess &p, const QString &log, bool tls, quint16 *port, QString *error)
    {
        QStringList args{QStringLiteral("-c"), QString::fromUtf8(test::kHostileServer), m_root, log};
        if (tls)
            args << m_nginx.path(QStringLiteral("server.pem")) << m_nginx.path(QStringLiteral("server.key"));
        p.start(m_python, args);
        if (!p.waitForStarted(30000)) {
            *error = p.errorString();
            return false;
        }
        while (!p.canReadLine())
            if (!p.waitForReadyRead(30000)) {
                *error = QStringLiteral("the Python server printed no port: ") + QString::fromUtf8(p.readAllStandardError());
                return false;
            }
        *port = quint16(p.readLine().trimmed().toUInt());
        return *port != 0;
    }
    QString plainLog() const { return m_tmp.filePath(QStringLiteral("plain.log")); }
    QString tlsLog() const { return m_tmp.filePath(QStringLiteral("tls.log")); }
    /// The Python servers' logs (nginx's: NginxFixture::accessLogSize/accessLogFrom).
    static qint64 sizeOf(const QString &path) { return QFileInfo(path).size(); }
    static QByteArray readFrom(const QString &path, qint64 offset)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        f.seek(offset);
        return f.readAll();
    }
    QString tlsUrl(const QString &rel = {}) const { return QStringLiteral("https://127.0.0.1:%1/").arg(m_tlsPort) + rel; }
    QString plainUrl(const QString &rel = {}) const { return QStringLiteral("http://127.0.0.1:%1/").arg(m_plainPort) + rel; }

    NetworkMirrorOptions mirrorOptions() const
    {
        NetworkMirrorOptions o;
        o.http.caCertificates = m_ca;
        o.http.timeoutMs = 5000;
        return o;
    }
    /// The limits a drip test sets on mirrorOptions()'s HTTP settings (-1: left as they are).
    struct DripLimits
    {
        int timeoutMs = -1;
        qint64 minBytesPerSecond = -1;
        qint64 deadlineMs = -1;
        int headersTimeoutMs = -1;
    };
    /// Fetches example.com/acme/clean from `path` (a server that drips) with `limits`: the fetch
    /// must end with exactly one anomaly, which contains each of `anomaly`.
    void checkDrip(const QString &path, const DripLimits &limits, const QStringList &anomaly) const
    {
        NetworkMirrorOptions options = mirrorOptions();
        if (limits.timeoutMs >= 0)
            options.http.timeoutMs = limits.timeoutMs;
        if (limits.minBytesPerSecond >= 0)
            options.http.minBytesPerSecond = limits.minBytesPerSecond;
        if (limits.deadlineMs >= 0)
            options.http.deadlineMs = limits.deadlineMs;
        if (limits.headersTimeoutMs >= 0)
            options.http.headersTimeoutMs = limits.headersTimeoutMs;
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(tlsUrl(path), {addr(QStringLiteral("example.com/acme/clean"))}, options);
        QVERIFY(fetched.ok());
        const QString why = test::soleAnomalyMismatch(fetched.value().catalog, anomaly);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
    RemoteVerifyOptions verifyOptions() const
    {
        RemoteVerifyOptions o;
        o.http.caCertificates = m_ca;
        o.http.timeoutMs = 5000;
        o.retries = 0;
        return o;
    }
    test::ProcessRun cli(const QStringList &args, const QProcessEnvironment &env) const
    {
        return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 240000, env);
    }
    /// `terraform providers lock -net-mirror=<nginx> -platform=P example.com/acme/TYPE` succeeds
    /// with this environment (SSL_CERT_* as given, none else: initTestCase unset them; the sandbox
    /// tf-sandbox of test::runTerraform: an empty CLI config, CHECKPOINT_DISABLE=1, proxies closed).
    bool terraformAccepts(const QString &type, const QString &platform, const QProcessEnvironment &extra, QString *output) const
    {
        const QString work = m_tmp.filePath(QStringLiteral("tf-") + type);
        QDir().mkpath(work);
        QFile main(work + QStringLiteral("/main.tf"));
        if (!main.open(QIODevice::WriteOnly))
            return false;
        main.write("terraform {\n  required_providers {\n    p = {\n      source  = \"example.com/acme/" + type.toUtf8()
                   + "\"\n      version = \"1.0.0\"\n    }\n  }\n}\n");
        main.close();
        QFile::remove(work + QStringLiteral("/.terraform.lock.hcl"));
        const test::ProcessRun r = test::runTerraform(m_tmp.filePath(QStringLiteral("tf-sandbox")), work,
                                                      {QStringLiteral("providers"), QStringLiteral("lock"), QStringLiteral("-no-color"),
                                                       QStringLiteral("-net-mirror=") + m_nginx.baseUrl(),
                                                       QStringLiteral("-platform=") + platform, QStringLiteral("example.com/acme/") + type},
                                                      extra, 180000);
        *output = QString::fromUtf8(r.err);
        return r.exitCode == 0;
    }
    QProcessEnvironment cleanEnv() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env.keys())
            if (k.startsWith(QLatin1StringView("TF_")) || k.startsWith(QLatin1StringView("SSL_CERT")))
                env.remove(k);
        env.insert(QStringLiteral("HOME"), m_tmp.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), m_tmp.filePath(QStringLiteral("none.tfrc")));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("provender.*.debug=true"));
        return env;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::NginxFixture::missingToolsWithPython());
        m_python = test::python3();
        for (const char *v : {"SSL_CERT_FILE", "SSL_CERT_DIR"})
            qunsetenv(v);
        QVERIFY(m_tmp.isValid());
        QDir().mkpath(m_tmp.filePath(QStringLiteral("home")));
        m_root = m_tmp.filePath(QStringLiteral("mirror"));
        QVERIFY(QDir().mkpath(m_root));
        QString error;
        QVERIFY2(m_nginx.makeCertificates(&error), qPrintable(error));
        m_ca = QSslCertificate::fromPath(m_nginx.caFile(), QSsl::Pem);
        QCOMPARE(m_ca.size(), 1);
        QVERIFY2(startServer(m_plain, plainLog(), false, &m_plainPort, &error), qPrintable(error));
        QVERIFY2(startServer(m_tls, tlsLog(), true, &m_tlsPort, &error), qPrintable(error));
        // /xo/ sends every request to the Python TLS server: the same host, another port — another origin.
        const QString extra = QStringLiteral("    absolute_redirect off;\n"
                                             "    location /xo/ { rewrite ^/xo/(.*)$ https://127.0.0.1:%1/$1 redirect; }\n"
                                             "    location /down/ { rewrite ^/down/(.*)$ http://127.0.0.1:%2/$1 redirect; }\n")
                                  .arg(m_tlsPort)
                                  .arg(m_plainPort);
        QVERIFY2(m_nginx.start(m_root, extra, {}, &error), qPrintable(error));

        m_outside = m_tmp.filePath(QStringLiteral("outside.zip"));
        QProcess py;
        py.start(m_python,
                 {QStringLiteral("-c"), QString::fromUtf8(test::kMakeHostileMirror), m_root, QString::number(m_nginx.port()),
                  QString::number(m_plainPort), QString::number(m_tlsPort), m_outside});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        m_zh = QJsonDocument::fromJson(py.readAllStandardOutput()).object().value(QStringLiteral("zh")).toString();
        QVERIFY(m_zh.startsWith(QLatin1StringView("zh:")));

        // A second throw-away CA that signed nothing we serve.
        QProcess ossl;
        m_otherCa = m_tmp.filePath(QStringLiteral("other-ca.pem"));
        ossl.start(QStandardPaths::findExecutable(QStringLiteral("openssl")),
                   {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                    QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                    QStringLiteral("-keyout"), m_tmp.filePath(QStringLiteral("other-ca.key")), QStringLiteral("-out"), m_otherCa,
                    QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=Provender Other CA")});
        QVERIFY(ossl.waitForFinished(60000));
        QVERIFY2(ossl.exitCode() == 0, ossl.readAllStandardError().constData());
    }

    void cleanupTestCase()
    {
        for (QProcess *p : {&m_plain, &m_tls})
            if (p->state() != QProcess::NotRunning) {
                p->kill();
                p->waitForFinished(10000);
            }
    }

    // --- Rules for every URL -------------------------------------------------------------------

    void cleanControl()
    {
        // The control: the same zip over https from the mirror verifies, with no anomaly.
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/clean"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        QVERIFY2(fetched.value().catalog.anomalies.isEmpty(), qPrintable(test::anomaliesText(fetched.value().catalog)));
        const RemoteVerifyReport r = verifyNetworkCatalog(fetched.value().catalog, verifyOptions());
        QCOMPARE(r.report.results.size(), 1);
        QCOMPARE(toString(r.report.results.at(0).detail.verdict), toString(Verdict::Verified));
    }

    void nonHttpArchiveUrlsAreRefusedAndNothingIsRead()
    {
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/schemes"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        const Catalog &c = fetched.value().catalog;
        QCOMPARE(c.archiveCount(), 6); // every archive kept: nothing lost
        const qint64 tlsStart = sizeOf(tlsLog());
        const RemoteVerifyReport r = verifyNetworkCatalog(c, verifyOptions());
        QCOMPARE(r.report.results.size(), 6);

        // Direct file:, data:, ftp: — refused before any request; each declared the real hash of
        // the zip it points at, so reading it would have verified.
        for (const char *platform : {"linux_amd64", "darwin_arm64", "freebsd_amd64"}) {
            const ArchiveResult *a = test::resultFor(r.report, QLatin1StringView(platform));
            QVERIFY(a);
            QCOMPARE(toString(a->detail.verdict), toString(Verdict::Error));
            QVERIFY2(a->detail.reason.contains(QStringLiteral("only http: and https: URLs are requested")), qPrintable(a->detail.reason));
            QVERIFY2(a->detail.reason.contains(QStringLiteral("nothing was read")), qPrintable(a->detail.reason));
            QVERIFY(!a->hashes);
        }
        QVERIFY(test::resultFor(r.report, QStringLiteral("linux_amd64"))->detail.reason.contains(QStringLiteral("file:")));
        QVERIFY(test::resultFor(r.report, QStringLiteral("darwin_arm64"))->detail.reason.contains(QStringLiteral("data:")));
        QVERIFY(test::resultFor(r.report, QStringLiteral("freebsd_amd64"))->detail.reason.contains(QStringLiteral("ftp:")));
        // The long data: URL is shortened wherever it is shown.
        QVERIFY(test::resultFor(r.report, QStringLiteral("darwin_arm64"))->path.size() < 300);
        // Each is also an anomaly of the catalog (refused-url) naming the platform.
        int refused = 0;
        for (const Anomaly &a : c.anomalies)
            refused += a.kind == AnomalyKind::RefusedUrl;
        QCOMPARE(refused, 4); // file:, data:, ftp: and the user info of openbsd_amd64

        // Redirects to file: and data: — the https request is made (the server logs it), the
        // redirect is refused.
        for (const char *platform : {"windows_amd64", "linux_arm64"}) {
            const ArchiveResult *a = test::resultFor(r.report, QLatin1StringView(platform));
            QVERIFY(a);
            QCOMPARE(toString(a->detail.verdict), toString(Verdict::Error));
            QVERIFY2(a->detail.reason.contains(QStringLiteral("refused a redirect to ")), qPrintable(a->detail.reason));
            QVERIFY2(a->detail.reason.contains(QStringLiteral("only http: and https: URLs are requested")), qPrintable(a->detail.reason));
        }
        QVERIFY(test::resultFor(r.report, QStringLiteral("windows_amd64"))
                    ->detail.reason.contains(QStringLiteral("refused a redirect to file://")));
        QVERIFY(test::resultFor(r.report, QStringLiteral("linux_arm64"))
                    ->detail.reason.contains(QStringLiteral("refused a redirect to data:")));
        const QByteArray served = readFrom(tlsLog(), tlsStart);
        QCOMPARE(served.count("GET /redirect?to="), 2);

        // User info in an archive URL: removed (never shown, never sent as Basic auth), the
        // archive downloaded without it and verified.
        const ArchiveResult *u = test::resultFor(r.report, QStringLiteral("openbsd_amd64"));
        QVERIFY(u);
        QCOMPARE(toString(u->detail.verdict), toString(Verdict::Verified));
        QVERIFY(!u->path.contains(QStringLiteral("archive-Pa55-s3cret")));
        QVERIFY(!u->path.contains(QStringLiteral("archive-user")));
        QVERIFY(!test::anomaliesText(c).contains(QStringLiteral("archive-Pa55-s3cret")));
        for (const RequestLogEntry &e : r.log)
            QVERIFY(!e.url.toString().contains(QStringLiteral("s3cret")));
        const QByteArray access = m_nginx.accessLogFrom(0);
        QVERIFY(!access.isEmpty());
        for (const QByteArray &line : access.split('\n'))
            if (line.contains("acme/clean/terraform-provider-clean"))
                QVERIFY2(line.endsWith("auth=\"-\""), line.constData()); // no Basic auth from the user info
    }

    void plainHttpArchiveIsDownloadedWithAnAnomaly()
    {
        const qint64 plainStart = sizeOf(plainLog());
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/plainhttp"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        const Catalog &c = fetched.value().catalog;
        QCOMPARE(c.anomalies.size(), 1);
        const Anomaly &a = c.anomalies.at(0);
        QCOMPARE(toString(a.kind), QStringLiteral("insecure-url"));
        const QString url = plainUrl(QStringLiteral("example.com/acme/clean/terraform-provider-clean_1.0.0_linux_amd64.zip"));
        QCOMPARE(a.path, url);
        QVERIFY2(a.message.contains(url) && a.message.contains(QStringLiteral("plain http:"))
                     && a.message.contains(QStringLiteral("read or replace")),
                 qPrintable(a.message));
        const RemoteVerifyReport r = verifyNetworkCatalog(c, verifyOptions());
        QCOMPARE(toString(r.report.results.at(0).detail.verdict), toString(Verdict::Verified)); // as terraform: downloaded
        QVERIFY(readFrom(plainLog(), plainStart).contains("GET /example.com/acme/clean/terraform-provider-clean_1.0.0_linux_amd64.zip"));

        // With http allowed on loopback (a mirror under test on this machine), it is no anomaly.
        NetworkMirrorOptions loopback = mirrorOptions();
        loopback.http.allowHttpLoopback = true;
        const Result<NetworkCatalog> allowed =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/plainhttp"))}, loopback);
        QVERIFY(allowed.ok());
        QVERIFY2(allowed.value().catalog.anomalies.isEmpty(), qPrintable(test::anomaliesText(allowed.value().catalog)));
    }

    void plainHttpArchiveCli()
    {
        const QProcessEnvironment env = cleanEnv();
        const QStringList common{QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--ca-file"), m_nginx.caFile(),
                                 QStringLiteral("--json")};
        // The control: a clean provider passes even with --strict.
        test::ProcessRun r = cli(
            common + QStringList{QStringLiteral("--provider"), QStringLiteral("example.com/acme/clean"), QStringLiteral("--strict")}, env);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        // Plain http archive: verified, the anomaly in the JSON, exit 0 ...
        r = cli(common + QStringList{QStringLiteral("--provider"), QStringLiteral("example.com/acme/plainhttp")}, env);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc[QStringLiteral("archives")].toArray().at(0)[QStringLiteral("verdict")].toString(), QStringLiteral("verified"));
        const QJsonArray anomalies = doc[QStringLiteral("anomalies")].toArray();
        QCOMPARE(anomalies.size(), 1);
        QCOMPARE(anomalies.at(0)[QStringLiteral("kind")].toString(), QStringLiteral("insecure-url"));
        QVERIFY(anomalies.at(0)[QStringLiteral("path")].toString().startsWith(plainUrl()));
        // ... and 1 with --strict.
        r = cli(common
                    + QStringList{QStringLiteral("--provider"), QStringLiteral("example.com/acme/plainhttp"), QStringLiteral("--strict")},
                env);
        QVERIFY2(r.exitCode == 1, QByteArray(r.out + r.err).constData());
        // The table names the URL and the risk.
        r = cli({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--ca-file"), m_nginx.caFile(), QStringLiteral("--provider"),
                 QStringLiteral("example.com/acme/plainhttp")},
                env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QByteArray("insecure-url: " + plainUrl().toUtf8())) && r.out.contains("only the hash check protects"),
                 r.out.constData());
    }

    // --- The token ------------------------------------------------------------------------------

    void tokenNeverOverHttp()
    {
        // A plain-http mirror on loopback with a token for it: index requests go without it.
        NetworkMirrorOptions options = mirrorOptions();
        options.http.allowHttpLoopback = true;
        options.credential =
            Credential{QStringLiteral("127.0.0.1:%1").arg(m_plainPort), QStringLiteral("http-s3cret-token"), QStringLiteral("test")};
        const qint64 start = sizeOf(plainLog());
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(plainUrl(), {addr(QStringLiteral("example.com/acme/clean"))}, options);
        QVERIFY(fetched.ok());
        QCOMPARE(fetched.value().catalog.archiveCount(), 1); // the mirror was read
        const QByteArray log = readFrom(plainLog(), start);
        QCOMPARE(log.count("GET /example.com/acme/clean/"), 2); // index.json, 1.0.0.json
        QVERIFY2(!log.contains("Bearer"), log.constData());
        for (const RequestLogEntry &e : fetched.value().log)
            QVERIFY(!e.authorization);

        // The control: the same over https to the Python server — the token is sent.
        options.credential->host = QStringLiteral("127.0.0.1:%1").arg(m_tlsPort);
        const qint64 tlsStart = sizeOf(tlsLog());
        QVERIFY(fetchNetworkCatalog(tlsUrl(), {addr(QStringLiteral("example.com/acme/clean"))}, options).ok());
        QCOMPARE(readFrom(tlsLog(), tlsStart).count("auth=\"Bearer http-s3cret-token\""), 2);
    }

    void tokenNotSentToAnotherOrigin()
    {
        // nginx redirects /xo/... to the Python server on another port of the same host. Go's rule
        // (same host or subdomain) would keep the header; ours (same origin) drops it.
        NetworkMirrorOptions options = mirrorOptions();
        options.credential =
            Credential{QStringLiteral("127.0.0.1:%1").arg(m_nginx.port()), QStringLiteral("xo-s3cret-token"), QStringLiteral("test")};
        const qint64 nginxStart = m_nginx.accessLogSize();
        const qint64 tlsStart = sizeOf(tlsLog());
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl() + QStringLiteral("xo/"), {addr(QStringLiteral("example.com/acme/clean"))}, options);
        QVERIFY(fetched.ok());
        QVERIFY2(fetched.value().catalog.anomalies.isEmpty(), qPrintable(test::anomaliesText(fetched.value().catalog)));
        QCOMPARE(fetched.value().catalog.archiveCount(), 1); // followed: nothing lost
        const QByteArray nginxLog = m_nginx.accessLogFrom(nginxStart);
        QCOMPARE(nginxLog.count("/xo/example.com/acme/clean/"), 2);
        QCOMPARE(nginxLog.count("auth=\"Bearer xo-s3cret-token\""), 2); // the first hop had it
        const QByteArray other = readFrom(tlsLog(), tlsStart);
        QCOMPARE(other.count("GET /example.com/acme/clean/"), 2);
        QVERIFY2(!other.contains("Bearer"), other.constData());
    }

    // --- User info in the mirror URL -------------------------------------------------------------

    void userInfoMirrorUrlRefused()
    {
        const QString url = QStringLiteral("https://mirror-user:Url-S3cret-9@127.0.0.1:%1/").arg(m_nginx.port());
        const Result<QUrl> parsed = parseMirrorBaseUrl(url, false);
        QVERIFY(!parsed.ok());
        const QString m = parsed.error().message;
        QVERIFY2(m.contains(QStringLiteral("user name or password")) && m.contains(QStringLiteral("credentials"))
                     && m.contains(QStringLiteral("TF_TOKEN_")),
                 qPrintable(m));
        QVERIFY2(!m.contains(QStringLiteral("Url-S3cret-9")) && !m.contains(QStringLiteral("mirror-user")), qPrintable(m));
        const qint64 start = m_nginx.accessLogSize();
        QVERIFY(!fetchNetworkCatalog(url, {addr(QStringLiteral("example.com/acme/clean"))}, mirrorOptions()).ok());
        AutoindexOptions crawl;
        crawl.http.caCertificates = m_ca;
        const Result<AutoindexResult> listed = crawlAutoindex(url, crawl);
        QVERIFY(!listed.ok());
        QVERIFY(!listed.error().message.contains(QStringLiteral("Url-S3cret-9")));
        QCOMPARE(m_nginx.accessLogSize(), start); // not one request
        // An unparseable URL with user info is not echoed either.
        const Result<QUrl> bad = parseMirrorBaseUrl(QStringLiteral("https://u:Url-S3cret-9@127.0.0.1:99999999/"), false);
        QVERIFY(!bad.ok());
        QVERIFY2(!bad.error().message.contains(QStringLiteral("Url-S3cret-9")), qPrintable(bad.error().message));
    }

    void secretsInNoOutputChannel()
    {
        // A secret in the URL's user info and one in a credentials file: run the library (the GUI's
        // RemoteSession) and the CLI (table and JSON, debug logging on) and search every channel.
        const QByteArray urlSecret = "Ui-s3cret-QWERTY-123";
        const QByteArray fileSecret = "File-s3cret-ASDFGH-456";
        const QString config = m_tmp.filePath(QStringLiteral("secret.tfrc"));
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("credentials \"127.0.0.1:" + QByteArray::number(m_nginx.port()) + "\" {\n  token = \"" + fileSecret + "\"\n}\n");
        }
        const QString userInfoUrl =
            QStringLiteral("https://someone:%1@127.0.0.1:%2/").arg(QString::fromLatin1(urlSecret)).arg(m_nginx.port());
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), config);
        auto leaks = [&](const QByteArray &text) {
            return text.contains(urlSecret) || text.contains(fileSecret) || text.contains(fileSecret.left(8))
                || text.contains(urlSecret.left(8));
        };

        // CLI.
        QByteArray everything;
        for (const QStringList &extra : {QStringList{}, QStringList{QStringLiteral("--json")}}) {
            test::ProcessRun r = cli(QStringList{QStringLiteral("verify"), userInfoUrl, QStringLiteral("--provider"),
                                                 QStringLiteral("example.com/acme/clean"), QStringLiteral("--ca-file"), m_nginx.caFile()}
                                         + extra,
                                     env);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("user name or password") && r.err.contains("credentials"), r.err.constData());
            everything += r.out + r.err;
            r = cli(QStringList{QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--provider"),
                                QStringLiteral("example.com/acme/clean"), QStringLiteral("--ca-file"), m_nginx.caFile()}
                        + extra,
                    env);
            QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
            everything += r.out + r.err;
        }
        QVERIFY(everything.contains("Credentials for 127.0.0.1:"));            // the token was found and used ...
        QVERIFY(everything.contains("\"credentials\""));                       // ... in both forms
        QVERIFY2(everything.contains("trust store:"), "debug logging was on"); // the log output is in there
        QVERIFY2(!leaks(everything), everything.constData());

        // Library: RemoteSession as the GUI drives it, with every log message captured.
        LogCapture capture;
        QByteArray seen;
        for (const QString &base : {userInfoUrl, m_nginx.baseUrl()}) {
            RemoteSession session;
            QSignalSpy finished(&session, &RemoteSession::finished);
            QSignalSpy failed(&session, &RemoteSession::failed);
            QSignalSpy messages(&session, &RemoteSession::message);
            QSignalSpy requests(&session, &RemoteSession::requestFinished);
            RemoteRequest request;
            request.baseUrl = base;
            request.providers = {addr(QStringLiteral("example.com/acme/clean"))};
            request.caFile = m_nginx.caFile();
            QProcessEnvironment libEnv;
            libEnv.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), config);
            request.environment = libEnv;
            request.homeDir = m_tmp.filePath(QStringLiteral("home"));
            session.start(request);
            QTRY_VERIFY_WITH_TIMEOUT(finished.size() + failed.size() == 1, 120000);
            for (const auto &args : std::as_const(failed))
                seen += args.at(0).toString().toUtf8() + '\n';
            for (const auto &args : std::as_const(messages))
                seen += args.at(0).toString().toUtf8() + '\n';
            for (const auto &args : std::as_const(requests)) {
                const auto e = args.at(0).value<RequestLogEntry>();
                seen += e.url.toString().toUtf8() + ' ' + e.error.toUtf8() + '\n';
            }
            if (base == userInfoUrl) {
                QCOMPARE(failed.size(), 1);
                QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("user name or password")),
                         qPrintable(failed.at(0).at(0).toString()));
            } else {
                QCOMPARE(finished.size(), 1);
                QVERIFY(session.credential().has_value());
                QCOMPARE(session.credential()->token.toUtf8(), fileSecret); // it was really read
            }
        }
        seen += capture.captured.join(QLatin1Char('\n')).toUtf8();
        QVERIFY2(seen.contains("Credentials for 127.0.0.1:"), seen.constData());
        QVERIFY2(!leaks(seen), seen.constData());
    }

    // --- Limits ---------------------------------------------------------------------------------

    void dripFailsByMinimumRate()
    {
        // One byte a second never trips a 3 s stall timeout; the rate check ends it.
        checkDrip(QStringLiteral("drip/"), {.timeoutMs = 3000, .minBytesPerSecond = 100, .deadlineMs = 0},
                  {QStringLiteral("request failed: too slow: "), QStringLiteral("below the minimum rate of 100 bytes/s")});
    }

    void dripFailsByDeadline()
    {
        // No rate check: only the deadline can end it.
        checkDrip(QStringLiteral("drip/"), {.timeoutMs = 3000, .minBytesPerSecond = 0, .deadlineMs = 5000},
                  {QStringLiteral("request failed: timed out: the request took longer than its total deadline of 5 s")});
    }

    void dripHeadersFailByHeadersTimeout()
    {
        // Header bytes a second apart. The rate check starts with the body; Qt's transfer timeout
        // counts no header bytes, so the stall timeout (10 s here) would end it too; the headers'
        // own limit, shorter here, is the backstop that does not depend on that.
        checkDrip(QStringLiteral("driphead/"), {.timeoutMs = 10000, .deadlineMs = 0, .headersTimeoutMs = 4000},
                  {QStringLiteral("request failed: timed out: the response headers were not complete within 4 s")});
    }

    void dripCli()
    {
        const test::ProcessRun r =
            cli({QStringLiteral("verify"), tlsUrl(QStringLiteral("drip/")), QStringLiteral("--provider"),
                 QStringLiteral("example.com/acme/clean"), QStringLiteral("--ca-file"), m_nginx.caFile(), QStringLiteral("--timeout"),
                 QStringLiteral("2"), QStringLiteral("--min-rate"), QStringLiteral("1K")},
                cleanEnv());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("too slow: ") && r.out.contains("below the minimum rate of 1024 bytes/s"), r.out.constData());
        const test::ProcessRun bad = cli({QStringLiteral("verify"), tlsUrl(), QStringLiteral("--provider"), QStringLiteral("a/b"),
                                          QStringLiteral("--max-archive-size"), QStringLiteral("lots")},
                                         cleanEnv());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--max-archive-size needs a size in bytes"), bad.err.constData());
    }

    void sizeCaps()
    {
        const QString cache = m_tmp.filePath(QStringLiteral("cache"));
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/limits"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        QCOMPARE(fetched.value().catalog.archiveCount(), 3);
        RemoteVerifyOptions options = verifyOptions();
        options.maxArchiveBytes = 100000;
        options.cacheDir = cache;
        const qint64 start = sizeOf(tlsLog());
        RemoteVerifyReport r = verifyNetworkCatalog(fetched.value().catalog, options);
        // No Content-Length: cut off at the cap.
        const ArchiveResult *body = test::resultFor(r.report, QStringLiteral("linux_amd64"));
        QCOMPARE(toString(body->detail.verdict), toString(Verdict::Error));
        QVERIFY2(body->detail.reason.contains(
                     QStringLiteral("response body exceeds the limit of 100000 bytes (the maximum archive size is 100000 bytes)")),
                 qPrintable(body->detail.reason));
        // An error body that never ends: cut off at 64 KiB.
        const ArchiveResult *error = test::resultFor(r.report, QStringLiteral("windows_amd64"));
        QCOMPARE(toString(error->detail.verdict), toString(Verdict::Error));
        QVERIFY2(error->detail.reason.contains(
                     QStringLiteral("the body of the 500 response exceeds the limit of 65536 bytes for error responses")),
                 qPrintable(error->detail.reason));
        // Nothing half-downloaded is left in the cache.
        QDir dir(cache);
        QStringList files;
        for (QDirIterator it(cache, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();)
            files << it.next();
        QVERIFY2(files.isEmpty(), qPrintable(files.join(QLatin1Char(' '))));

        // The default archive cap (2 GiB) refuses a declared 3 GiB before reading the body.
        options.maxArchiveBytes = RemoteVerifyOptions{}.maxArchiveBytes;
        QCOMPARE(options.maxArchiveBytes, qint64(2) * 1024 * 1024 * 1024);
        r = verifyNetworkCatalog(fetched.value().catalog, options);
        const ArchiveResult *length = test::resultFor(r.report, QStringLiteral("darwin_arm64"));
        QCOMPARE(toString(length->detail.verdict), toString(Verdict::Error));
        QVERIFY2(length->detail.reason.contains(QStringLiteral("response body of 3221225472 bytes exceeds the limit of 2147483648 bytes")),
                 qPrintable(length->detail.reason));
        // The server saw the clients go away early: the 1 MB body and the endless error body were not read through.
        QTRY_VERIFY_WITH_TIMEOUT(readFrom(tlsLog(), start).count("sent ") >= 2, 30000);
        for (const QByteArray &line : readFrom(tlsLog(), start).split('\n'))
            if (line.startsWith("sent ") && line.contains("/hugeerror/"))
                QVERIFY2(line.split(' ').at(1).toLongLong() < 64 * 1024 * 1024, line.constData());

        // An error body on an index request is capped too.
        const Result<NetworkCatalog> index =
            fetchNetworkCatalog(tlsUrl(QStringLiteral("hugeerror/")), {addr(QStringLiteral("example.com/acme/clean"))}, mirrorOptions());
        QVERIFY(index.ok());
        const QString why =
            test::soleAnomalyMismatch(index.value().catalog, QStringLiteral("exceeds the limit of 65536 bytes for error responses"));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // --- Against terraform ------------------------------------------------------------------------

    void archiveUrlsLikeTerraform()
    {
        // Which archives of `schemes` and `plainhttp` terraform installs = which Provender verifies.
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform is skipped"));
        const QProcessEnvironment trust = [&] {
            QProcessEnvironment e;
            e.insert(QStringLiteral("SSL_CERT_FILE"), m_nginx.caFile());
            return e;
        }();
        for (const QString &type : {QStringLiteral("schemes"), QStringLiteral("plainhttp")}) {
            const Result<NetworkCatalog> fetched =
                fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/") + type)}, mirrorOptions());
            QVERIFY(fetched.ok());
            const RemoteVerifyReport r = verifyNetworkCatalog(fetched.value().catalog, verifyOptions());
            QStringList ours, theirs;
            QString outputs;
            for (const ArchiveResult &a : r.report.results) {
                const QString platform = a.key.platform.toString();
                if (a.detail.verdict == Verdict::Verified)
                    ours << platform;
                QString output;
                if (terraformAccepts(type, platform, trust, &output))
                    theirs << platform;
                outputs += QStringLiteral("--- %1 %2\n%3\n").arg(type, platform, output);
            }
            if (ours != theirs)
                qWarning().noquote() << outputs;
            QCOMPARE(ours, theirs);
            // One each: schemes' openbsd_amd64 (user info; terraform sends it as Basic auth, nginx
            // ignores it; Provender drops it) and plainhttp's linux_amd64 (downloaded over http by both).
            QCOMPARE(theirs.size(), 1);
        }
    }

    void downgradeRedirectUnlikeTerraform()
    {
        // A documented difference (docs/NETWORK.md): terraform follows an archive's https -> http
        // redirect; Provender refuses it.
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform is skipped"));
        QProcessEnvironment trust;
        trust.insert(QStringLiteral("SSL_CERT_FILE"), m_nginx.caFile());
        const qint64 start = sizeOf(plainLog());
        QString output;
        QVERIFY2(terraformAccepts(QStringLiteral("downgrade"), QStringLiteral("linux_amd64"), trust, &output), qPrintable(output));
        QVERIFY(readFrom(plainLog(), start).contains("GET /example.com/acme/clean/terraform-provider-clean_1.0.0_linux_amd64.zip"));
        const Result<NetworkCatalog> fetched =
            fetchNetworkCatalog(m_nginx.baseUrl(), {addr(QStringLiteral("example.com/acme/downgrade"))}, mirrorOptions());
        QVERIFY(fetched.ok());
        const RemoteVerifyReport r = verifyNetworkCatalog(fetched.value().catalog, verifyOptions());
        QCOMPARE(toString(r.report.results.at(0).detail.verdict), toString(Verdict::Error));
        QVERIFY2(r.report.results.at(0).detail.reason.contains(QStringLiteral("refused a redirect from https to http://127.0.0.1:")),
                 qPrintable(r.report.results.at(0).detail.reason));
    }

    void trustStoreLikeTerraform_data()
    {
        QTest::addColumn<QString>("certFile"); // null = unset; "CA", "OTHER", or a path
        QTest::addColumn<QString>("certDir");  // null = unset; "CADIR", "EMPTY", "EMPTY:CADIR"
        QTest::addColumn<bool>("trusted");
        QTest::newRow("neither") << QString() << QString() << false;
        QTest::newRow("file") << "CA" << QString() << true;
        QTest::newRow("file absent, dir") << "/nonexistent/ca.pem"
                                          << "CADIR" << true;
        QTest::newRow("dir list") << QString() << "EMPTY:CADIR" << true;
        QTest::newRow("both name another CA") << "OTHER"
                                              << "EMPTY" << false;
    }
    void trustStoreLikeTerraform()
    {
        // The same environment for terraform and for `provender verify` (no --ca-file): both trust
        // the server or neither does.
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform is skipped"));
        QFETCH(QString, certFile);
        QFETCH(QString, certDir);
        QFETCH(bool, trusted);
        const QString caDir = m_tmp.filePath(QStringLiteral("tf-ca-dir"));
        const QString empty = m_tmp.filePath(QStringLiteral("tf-empty-dir"));
        QDir().mkpath(caDir);
        QDir().mkpath(empty);
        if (!QFileInfo::exists(caDir + QStringLiteral("/ca.pem")))
            QVERIFY(QFile::copy(m_nginx.caFile(), caDir + QStringLiteral("/ca.pem")));
        certFile.replace(QStringLiteral("OTHER"), m_otherCa).replace(QStringLiteral("CA"), m_nginx.caFile());
        certDir.replace(QStringLiteral("CADIR"), caDir).replace(QStringLiteral("EMPTY"), empty);
        QProcessEnvironment extra;
        if (!certFile.isNull())
            extra.insert(QStringLiteral("SSL_CERT_FILE"), certFile);
        if (!certDir.isNull())
            extra.insert(QStringLiteral("SSL_CERT_DIR"), certDir);
        QString output;
        const bool terraform = terraformAccepts(QStringLiteral("clean"), QStringLiteral("linux_amd64"), extra, &output);
        QProcessEnvironment env = cleanEnv();
        env.insert(extra);
        const test::ProcessRun r =
            cli({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--provider"), QStringLiteral("example.com/acme/clean")}, env);
        QVERIFY2(terraform == trusted, qPrintable(output));
        QVERIFY2((r.exitCode == 0) == trusted, QByteArray(r.out + r.err).constData());
        if (!trusted)
            QVERIFY2(r.out.contains("TLS handshake"), r.out.constData());
    }

    // --- Trust store (Go's crypto/x509 on Linux) ------------------------------------------------------

    void trustStoreRules()
    {
        const QString nginxCa = m_nginx.caFile();
        const QSslCertificate ours = m_ca.at(0);
        const QList<QSslCertificate> other = QSslCertificate::fromPath(m_otherCa, QSsl::Pem);
        QCOMPARE(other.size(), 1);
        const QString empty = m_tmp.filePath(QStringLiteral("empty-dir"));
        QVERIFY(QDir().mkpath(empty));

        // Neither set: Go's lists (the system store); our test CA is not in it.
        const TrustStore system = loadTrustStore({}, {});
        QVERIFY(!system.fromEnvironment);
        QVERIFY(!system.certificates.contains(ours));

        // SSL_CERT_FILE replaces the file list; the default directories are still read.
        const TrustStore fileOnly = loadTrustStore(nginxCa, {});
        QVERIFY(fileOnly.fromEnvironment);
        QVERIFY(fileOnly.certificates.contains(ours));
        QCOMPARE(fileOnly.sources.value(0), nginxCa);
        const TrustStore defaultDirs = loadTrustStore({}, {}, {}, defaultCertDirectories()); // no file at all
        for (const QSslCertificate &c : defaultDirs.certificates)
            QVERIFY(fileOnly.certificates.contains(c));

        // Both set: exactly what they name.
        const TrustStore both = loadTrustStore(nginxCa, empty);
        QCOMPARE(both.certificates.size(), 1);
        QCOMPARE(both.certificates.at(0), ours);

        // SSL_CERT_DIR is colon-separated; every directory is read, every file in it; a symlink
        // whose target has no '/' (c_rehash's HASH.0) is skipped, the file it names is read once.
        const QString dirA = m_tmp.filePath(QStringLiteral("certs-a"));
        const QString dirB = m_tmp.filePath(QStringLiteral("certs-b"));
        QVERIFY(QDir().mkpath(dirA) && QDir().mkpath(dirB));
        QVERIFY(QFile::copy(nginxCa, dirA + QStringLiteral("/test-ca.crt")));
        QVERIFY(QFile::link(QStringLiteral("test-ca.crt"), dirA + QStringLiteral("/abcdef01.0")));
        QVERIFY(QFile::copy(m_otherCa, dirB + QStringLiteral("/other.pem")));
        const TrustStore dirs = loadTrustStore(QStringLiteral("/nonexistent/ca.pem"), dirA + QStringLiteral(":") + dirB);
        QCOMPARE(dirs.certificates.size(), 2);
        QVERIFY(dirs.certificates.contains(ours) && dirs.certificates.contains(other.at(0)));
        QVERIFY(dirs.warnings.isEmpty()); // an absent file or directory is no error
        QCOMPARE(dirs.sources, (QStringList{dirA, dirB}));

        // Only the first file that can be read counts (Go stops there).
        const TrustStore first = loadTrustStore({}, empty, {QStringLiteral("/nonexistent/a.pem"), m_otherCa, nginxCa}, {});
        QCOMPARE(first.certificates.size(), 1);
        QCOMPARE(first.certificates.at(0), other.at(0));
        // Set but naming nothing: an empty store (as Go), not the system one.
        QVERIFY(loadTrustStore(QStringLiteral("/nonexistent/a.pem"), empty).certificates.isEmpty());
    }

    void trustStoreFromEnvironment()
    {
        NetworkMirrorOptions options = mirrorOptions();
        options.http.caCertificates.clear(); // no --ca-file
        const ProviderAddress clean = addr(QStringLiteral("example.com/acme/clean"));
        {
            // The control: neither variable, no --ca-file: untrusted.
            const Result<NetworkCatalog> r = fetchNetworkCatalog(m_nginx.baseUrl(), {clean}, options);
            QVERIFY(r.ok());
            QVERIFY2(test::anomaliesText(r.value().catalog).contains(QStringLiteral("TLS handshake")),
                     qPrintable(test::anomaliesText(r.value().catalog)));
        }
        {
            ScopedEnv file("SSL_CERT_FILE", m_nginx.caFile());
            const Result<NetworkCatalog> r = fetchNetworkCatalog(m_nginx.baseUrl(), {clean}, options);
            QVERIFY(r.ok());
            QVERIFY2(r.value().catalog.anomalies.isEmpty(), qPrintable(test::anomaliesText(r.value().catalog)));
            QCOMPARE(r.value().catalog.archiveCount(), 1);
            // Archive downloads use the same store.
            RemoteVerifyOptions v = verifyOptions();
            v.http.caCertificates.clear();
            QCOMPARE(toString(verifyNetworkCatalog(r.value().catalog, v).report.results.at(0).detail.verdict), toString(Verdict::Verified));
        }
        {
            const QString dir = m_tmp.filePath(QStringLiteral("env-dir"));
            QVERIFY(QDir().mkpath(dir));
            QFile::remove(dir + QStringLiteral("/ca.pem"));
            QVERIFY(QFile::copy(m_nginx.caFile(), dir + QStringLiteral("/ca.pem")));
            ScopedEnv file("SSL_CERT_FILE", QStringLiteral("/nonexistent/ca.pem"));
            ScopedEnv dirs("SSL_CERT_DIR", m_tmp.filePath(QStringLiteral("empty-dir")) + QStringLiteral(":") + dir);
            const Result<NetworkCatalog> r = fetchNetworkCatalog(m_nginx.baseUrl(), {clean}, options);
            QVERIFY(r.ok());
            QVERIFY2(r.value().catalog.anomalies.isEmpty(), qPrintable(test::anomaliesText(r.value().catalog)));
        }
        {
            // Both naming another CA only: our server is not trusted (the system store is replaced).
            ScopedEnv file("SSL_CERT_FILE", m_otherCa);
            ScopedEnv dirs("SSL_CERT_DIR", m_tmp.filePath(QStringLiteral("empty-dir")));
            const Result<NetworkCatalog> r = fetchNetworkCatalog(m_nginx.baseUrl(), {clean}, options);
            QVERIFY(r.ok());
            QVERIFY2(test::anomaliesText(r.value().catalog).contains(QStringLiteral("TLS handshake")),
                     qPrintable(test::anomaliesText(r.value().catalog)));
            // --ca-file is added on top.
            QVERIFY(fetchNetworkCatalog(m_nginx.baseUrl(), {clean}, mirrorOptions()).value().catalog.anomalies.isEmpty());
        }
        // The CLI honours them too.
        QProcessEnvironment env = cleanEnv();
        env.insert(QStringLiteral("SSL_CERT_FILE"), m_nginx.caFile());
        const test::ProcessRun r =
            cli({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--provider"), QStringLiteral("example.com/acme/clean")}, env);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY(r.out.contains("Summary: 1 verified"));
    }
};

QTEST_GUILESS_MAIN(TestNetworkHostile)
#include "tst_network_hostile.moc"
