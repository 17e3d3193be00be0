// Interop: for the same nginx-served mirror (MirrorFixture.h), the archives Provender accepts
// (verdict verified or unverified — terraform installs an archive without hashes unchecked) are
// exactly those the real terraform accepts. terraform is run per platform as
// `terraform providers lock -net-mirror=<url> -platform=<os_arch>` (the same installer code as
// `terraform init`, which only installs the host platform), through test::runTerraform (a
// temporary CLI config, CHECKPOINT_DISABLE=1, proxies closed) with the test CA through
// SSL_CERT_FILE; it never leaves 127.0.0.1.
// Skips without terraform, nginx, openssl or python3.

#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/ServedMirror.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

class TestNetworkInterop : public QObject
{
    Q_OBJECT
    test::ServedMirror m_served;
    test::NginxFixture &m_nginx = m_served.nginx();
    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the network-mirror interop check needs it"));
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
        // terraform in the sandbox tf-sandbox (test::runTerraform: an empty CLI config, no proxy),
        // trusting the test CA only.
        const QString sandbox = m_tmp.filePath(QStringLiteral("tf-sandbox"));
        QStringList theirs;
        QString outputs;
        for (const QString &platform : std::as_const(platforms)) {
            QFile::remove(work + QStringLiteral("/.terraform.lock.hcl"));
            const test::ProcessRun tf =
                test::runTerraform(sandbox, work,
                                   {QStringLiteral("providers"), QStringLiteral("lock"), QStringLiteral("-no-color"),
                                    QStringLiteral("-net-mirror=") + m_nginx.baseUrl(), QStringLiteral("-platform=") + platform,
                                    QStringLiteral("example.com/acme/good")},
                                   m_nginx.trustOnlyThisCa(), 180000);
            QVERIFY(tf.finished);
            outputs += QStringLiteral("--- %1 (exit %2)\n%3\n").arg(platform).arg(tf.exitCode).arg(QString::fromUtf8(tf.err));
            if (tf.exitCode == 0)
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
