// Interop: for the same nginx-served mirror (MirrorFixture.h), the archives Provender accepts
// (verdict verified or unverified — terraform installs an archive without hashes unchecked) are
// exactly those the real terraform accepts. terraform is run per platform as
// `terraform providers lock -net-mirror=<url> -platform=<os_arch>` (the same installer code as
// `terraform init`, which only installs the host platform), with a temporary CLI config,
// CHECKPOINT_DISABLE=1 and the test CA through SSL_CERT_FILE; it never leaves 127.0.0.1.
// Skips without terraform, nginx, openssl or python3.

#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/ServedMirror.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

class TestNetworkInterop : public QObject
{
    Q_OBJECT
    test::ServedMirror m_served;
    test::NginxFixture &m_nginx = m_served.nginx();
    QTemporaryDir m_tmp;
    QString m_terraform;

private Q_SLOTS:
    void initTestCase()
    {
        m_terraform = test::terraformPath();
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        if (m_terraform.isEmpty())
            PROVENDER_SKIP(test::Missing::Terraform, QStringLiteral("terraform is not on PATH: the network-mirror interop check needs it"));
        const QString mirror = m_tmp.filePath(QStringLiteral("mirror"));
        QString error;
        QVERIFY2(m_served.start(mirror, &error), qPrintable(error));
    }

    void sameArchivesAccepted()
    {
        const ProviderAddress good = ProviderAddress::parse(u"example.com/acme/good").value();
        NetworkMirrorOptions options;
        options.http.caCertificates = QSslCertificate::fromPath(m_nginx.caFile());
        const Result<NetworkCatalog> fetched = fetchNetworkCatalog(m_nginx.baseUrl(), {good}, options);
        QVERIFY(fetched.ok());
        RemoteVerifyOptions vo;
        vo.http.caCertificates = options.http.caCertificates;
        vo.backoffMs = 10;
        const RemoteVerifyReport verified = verifyNetworkCatalog(fetched.value().catalog, vo);
        QStringList platforms, ours;
        for (const ArchiveResult &r : verified.report.results) {
            platforms << r.key.platform.toString();
            if (r.detail.verdict == Verdict::Verified || r.detail.verdict == Verdict::Unverified)
                ours << r.key.platform.toString();
        }
        QCOMPARE(platforms.size(), 8);

        // terraform, one platform at a time.
        const QString work = m_tmp.filePath(QStringLiteral("tf"));
        QVERIFY(QDir().mkpath(work));
        QFile main(work + QStringLiteral("/main.tf"));
        QVERIFY(main.open(QIODevice::WriteOnly));
        main.write("terraform {\n  required_providers {\n    good = {\n      source  = \"example.com/acme/good\"\n"
                   "      version = \"1.0.0\"\n    }\n  }\n}\n");
        main.close();
        const QString cli = m_tmp.filePath(QStringLiteral("empty.tfrc"));
        QFile cliFile(cli);
        QVERIFY(cliFile.open(QIODevice::WriteOnly));
        cliFile.close();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env.keys())
            if (k.startsWith(QLatin1StringView("TF_")) || k.contains(QLatin1StringView("proxy"), Qt::CaseInsensitive))
                env.remove(k);
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli);
        env.insert(QStringLiteral("CHECKPOINT_DISABLE"), QStringLiteral("1"));
        env.insert(QStringLiteral("SSL_CERT_FILE"), m_nginx.caFile());
        env.insert(QStringLiteral("SSL_CERT_DIR"), m_tmp.filePath(QStringLiteral("no-cert-dir")));
        env.insert(QStringLiteral("HOME"), m_tmp.path());
        env.insert(QStringLiteral("NO_PROXY"), QStringLiteral("127.0.0.1"));
        QStringList theirs;
        QString outputs;
        for (const QString &platform : std::as_const(platforms)) {
            QFile::remove(work + QStringLiteral("/.terraform.lock.hcl"));
            QProcess tf;
            tf.setWorkingDirectory(work);
            tf.setProcessEnvironment(env);
            tf.setProcessChannelMode(QProcess::MergedChannels);
            tf.start(m_terraform,
                     {QStringLiteral("providers"), QStringLiteral("lock"), QStringLiteral("-no-color"),
                      QStringLiteral("-net-mirror=") + m_nginx.baseUrl(), QStringLiteral("-platform=") + platform,
                      QStringLiteral("example.com/acme/good")});
            QVERIFY(tf.waitForFinished(180000));
            const QString output = QString::fromUtf8(tf.readAll());
            outputs += QStringLiteral("--- %1 (exit %2)\n%3\n").arg(platform).arg(tf.exitCode()).arg(output);
            if (tf.exitStatus() == QProcess::NormalExit && tf.exitCode() == 0)
                theirs << platform;
        }
        ours.sort();
        theirs.sort();
        if (ours != theirs)
            qWarning().noquote() << outputs;
        QCOMPARE(ours, theirs);
        QVERIFY(!theirs.isEmpty() && theirs.size() < platforms.size()); // the fixture has both kinds
    }
};

QTEST_GUILESS_MAIN(TestNetworkInterop)
#include "tst_network_interop.moc"
