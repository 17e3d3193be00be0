// `provender verify https://…` end to end against real nginx (MirrorFixture.h): exit codes, JSON
// verdicts, credentials from a CLI config file (sent with index requests only, never printed),
// a lock file's pinned version and hashes, untrusted TLS, refused http. Skips without
// nginx/openssl/python3.

#include "tests/support/NginxFixture.h"
#include "tests/support/ServedMirror.h"

#include "tests/support/TestSupport.h"
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

namespace {

using Run = test::ProcessRun;

QMap<QString, QString> verdicts(const QJsonObject &doc)
{
    QMap<QString, QString> m;
    for (const QJsonValue &v : doc.value(QStringLiteral("archives")).toArray())
        m[v[QStringLiteral("platform")].toString()] = v[QStringLiteral("verdict")].toString();
    return m;
}

} // namespace

class TestNetworkCli : public QObject
{
    Q_OBJECT
    test::ServedMirror m_served;
    test::NginxFixture &m_nginx = m_served.nginx();
    QTemporaryDir m_tmp;
    QJsonObject m_expected;
    QProcessEnvironment m_env;
    QString m_config;
    const QByteArray m_token = "cli-s3cret-token-0123456789";

    Run provender(const QStringList &args) const { return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 240000, m_env); }
    QString hash(const char *platform, const char *kind) const
    {
        return m_expected.value(QLatin1StringView(platform)).toObject().value(QLatin1StringView(kind)).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        const QString mirror = m_tmp.filePath(QStringLiteral("mirror"));
        QString error;
        QVERIFY2(m_served.start(mirror, &error), qPrintable(error));
        m_expected = m_served.expected();

        m_config = m_tmp.filePath(QStringLiteral("cli.tfrc"));
        QFile cfg(m_config);
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write("credentials \"127.0.0.1:" + QByteArray::number(m_nginx.port()) + "\" {\n  token = \"" + m_token + "\"\n}\n");
        cfg.close();
        QDir().mkpath(m_tmp.filePath(QStringLiteral("home")));
        m_env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : m_env.keys())
            if (k.startsWith(QLatin1StringView("TF_")) || k.startsWith(QLatin1StringView("SSL_CERT")))
                m_env.remove(k);
        m_env.insert(QStringLiteral("HOME"), m_tmp.filePath(QStringLiteral("home")));
        m_env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), m_config);
        m_env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("*.debug=true")); // even debug logs must not show the token
    }

    void verifyJson()
    {
        const Run r = provender({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--provider"),
                                 QStringLiteral("example.com/acme/good"), QStringLiteral("--ca-file"), m_nginx.caFile(),
                                 QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1); // mismatch, missing, errors
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(!doc.isEmpty(), r.out.constData());
        const QMap<QString, QString> v = verdicts(doc);
        QCOMPARE(v.value(QStringLiteral("linux_amd64")), QStringLiteral("verified"));
        QCOMPARE(v.value(QStringLiteral("darwin_arm64")), QStringLiteral("verified"));
        QCOMPARE(v.value(QStringLiteral("windows_amd64")), QStringLiteral("mismatch"));
        QCOMPARE(v.value(QStringLiteral("linux_arm64")), QStringLiteral("unverified"));
        QCOMPARE(v.value(QStringLiteral("freebsd_amd64")), QStringLiteral("missing"));
        QCOMPARE(v.value(QStringLiteral("openbsd_amd64")), QStringLiteral("error"));
        QCOMPARE(v.value(QStringLiteral("linux_386")), QStringLiteral("error"));
        QCOMPARE(v.value(QStringLiteral("solaris_amd64")), QStringLiteral("verified"));
        for (const QJsonValue &a : doc.value(QStringLiteral("archives")).toArray())
            if (a[QStringLiteral("platform")].toString() == QLatin1StringView("linux_amd64"))
                QCOMPARE(a[QStringLiteral("zh")].toString(), hash("linux_amd64", "zh"));

        // docs/VERDICT-JSON.md: schema 1, the source, and what only a network mirror has under "network".
        QCOMPARE(doc.value(QStringLiteral("schema_version")).toInt(), 1);
        QCOMPARE(doc[QStringLiteral("source")][QStringLiteral("kind")].toString(), QStringLiteral("network"));
        QCOMPARE(doc[QStringLiteral("source")][QStringLiteral("location")].toString(), m_nginx.baseUrl());
        const QJsonObject network = doc.value(QStringLiteral("network")).toObject();
        QCOMPARE(network[QStringLiteral("credentials")][QStringLiteral("source")].toString(),
                 QStringLiteral("credentials block in ") + m_config);
        // Archives name their URL in "path", as every source names where the bytes came from.
        for (const QJsonValue &a : doc.value(QStringLiteral("archives")).toArray())
            if (a[QStringLiteral("platform")].toString() == QLatin1StringView("linux_amd64"))
                QCOMPARE(a[QStringLiteral("path")].toString(),
                         m_nginx.baseUrl() + QStringLiteral("example.com/acme/good/terraform-provider-good_1.0.0_linux_amd64.zip"));
        int json = 0, zips = 0;
        for (const QJsonValue &q : network.value(QStringLiteral("requests")).toArray()) {
            const bool isJson = q[QStringLiteral("url")].toString().endsWith(QLatin1StringView(".json"));
            (isJson ? json : zips) += 1;
            QCOMPARE(q[QStringLiteral("authorization")].toBool(), isJson);
        }
        QCOMPARE(json, 3);
        QCOMPARE(zips, 8);
        QVERIFY(!r.out.contains(m_token));
        QVERIFY(!r.err.contains(m_token));
        QVERIFY(!r.err.contains(m_token.left(8)));
    }

    void verifyTable()
    {
        const Run r =
            provender({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--provider"), QStringLiteral("example.com/acme/good"),
                       QStringLiteral("--ca-file"), m_nginx.caFile(), QStringLiteral("--retries"), QStringLiteral("0")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("Summary: 3 verified, 1 mismatch, 1 unverified, 1 missing, 2 error"), r.out.constData());
        QVERIFY2(r.out.contains("provider mirror does not have archive index for previously-reported example.com/acme/good version 2.0.0"),
                 r.out.constData());
        QVERIFY2(r.err.contains(QStringLiteral("Credentials for 127.0.0.1:%1: token ").arg(m_nginx.port()).toUtf8()), r.err.constData());
        QVERIFY(r.err.contains(QByteArray("from credentials block in " + m_config.toUtf8())));
        QVERIFY(!r.out.contains(m_token) && !r.err.contains(m_token));
    }

    void lockFile()
    {
        const QString lock = m_tmp.filePath(QStringLiteral("lock.hcl"));
        QFile f(lock);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QStringLiteral("provider \"example.com/acme/good\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"%1\",\n    \"%2\",\n  ]\n}\n")
                .arg(hash("linux_arm64", "h1"), hash("linux_amd64", "zh"))
                .toUtf8());
        f.close();
        const Run r = provender({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--lock"), lock, QStringLiteral("--ca-file"),
                                 m_nginx.caFile(), QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QMap<QString, QString> v = verdicts(doc);
        QCOMPARE(v.value(QStringLiteral("linux_arm64")), QStringLiteral("verified"));  // the lock's h1
        QCOMPARE(v.value(QStringLiteral("darwin_arm64")), QStringLiteral("mismatch")); // the lock lists no hash of it
        for (const QJsonValue &q : doc.value(QStringLiteral("network")).toObject().value(QStringLiteral("requests")).toArray())
            QVERIFY(!q[QStringLiteral("url")].toString().endsWith(QLatin1StringView("2.0.0.json"))); // only the pinned version
    }

    void untrustedCertificate()
    {
        const Run r = provender({QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--provider"),
                                 QStringLiteral("example.com/acme/good"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonArray anomalies = doc.value(QStringLiteral("anomalies")).toArray();
        QCOMPARE(anomalies.size(), 1);
        QVERIFY2(anomalies.at(0)[QStringLiteral("message")].toString().contains(QStringLiteral("TLS handshake with 127.0.0.1")),
                 r.out.constData());
        QCOMPARE(doc.value(QStringLiteral("archives")).toArray().size(), 0);
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("http refused") << QStringList{QStringLiteral("http://127.0.0.1:9/"), QStringLiteral("--provider"),
                                                     QStringLiteral("a/b")}
                                      << "must be at an https: URL";
        QTest::newRow("http remote") << QStringList{QStringLiteral("http://mirror.example/"), QStringLiteral("--allow-http-loopback"),
                                                    QStringLiteral("--provider"), QStringLiteral("a/b")}
                                     << "loopback";
        QTest::newRow("no providers") << QStringList{QStringLiteral("https://127.0.0.1:9/")} << "--provider ADDR or --lock FILE";
        QTest::newRow("bad provider") << QStringList{QStringLiteral("https://127.0.0.1:9/"), QStringLiteral("--provider"),
                                                     QStringLiteral("a//b")}
                                      << "--provider a//b";
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = provender(QStringList{QStringLiteral("verify")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestNetworkCli)
#include "tst_network_cli.moc"
