// Interop (issue #3 (b) and (c)): a mirror whose indexes Provender exported, served over HTTPS by a
// real nginx on 127.0.0.1, is installed by the real `terraform init` through `network_mirror`; the
// h1: terraform writes into the lock file must be one `provender verify` reports. Then one archive
// is tampered with: terraform init and our verification must both fail on it.
//
// Everything is local: nginx gets its own config, prefix and pid file in a temporary directory and a
// self-signed certificate made by `openssl req` at test time (trusted by terraform through
// SSL_CERT_FILE); terraform runs with a temporary CLI config whose only installation method is
// the mirror on 127.0.0.1, and CHECKPOINT_DISABLE=1. The zips are built by Python's zipfile.
// Skips with a clear message when terraform, nginx, openssl or python3 is absent.

#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VerifyResults.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace provender;

namespace {

const char *kMakeZips = R"PY(
import base64, hashlib, json, os, sys, zipfile
root = sys.argv[1]
seed = sys.argv[2]
d = os.path.join(root, "example.com", "acme", "fake")
os.makedirs(d, exist_ok=True)
out = {}
def h1(entries):
    lines = "".join("%s  %s\n" % (hashlib.sha256(b).hexdigest(), n) for n, b in sorted(entries))
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()
for plat in ("linux_amd64", "darwin_arm64"):
    name = "terraform-provider-fake_1.0.0_%s.zip" % plat
    exe = "terraform-provider-fake_v1.0.0_x5"
    files = [(exe, ("#!/bin/sh\n# fake provider %s %s\nexit 1\n" % (plat, seed)).encode()),
             ("docs/README.md", b"fake provider docs\n")]
    with zipfile.ZipFile(os.path.join(d, name), "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("docs/", date_time=(2024, 1, 1, 0, 0, 0))
        info.external_attr = (0o40755 << 16) | 0x10
        z.writestr(info, b"")
        for n, b in files:
            info = zipfile.ZipInfo(n, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (0o100755 if n == exe else 0o100644) << 16
            z.writestr(info, b, zipfile.ZIP_DEFLATED)
    out[plat] = {"h1": h1(files), "h1zip": h1(files + [("docs/", b"")])}
json.dump(out, sys.stdout)
)PY";

QString findTool(const QString &name)
{
    const QString onPath = QStandardPaths::findExecutable(name);
    return onPath.isEmpty() ? QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")}) : onPath;
}

/// The h1: hashes of `provider`'s block in a lock file.
QStringList lockH1(const QString &lockText, const QString &provider)
{
    QStringList out;
    const qsizetype start = lockText.indexOf(QStringLiteral("provider \"%1\"").arg(provider));
    if (start < 0)
        return out;
    const qsizetype end = lockText.indexOf(QStringLiteral("\n}"), start);
    static const QRegularExpression re(QStringLiteral("\"(h1:[A-Za-z0-9+/=]+)\""));
    auto it = re.globalMatch(lockText.mid(start, end - start));
    while (it.hasNext())
        out.append(it.next().captured(1));
    return out;
}

} // namespace

class TestInteropNetMirror : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_terraform, m_nginx, m_openssl, m_python;
    QString m_mirror;
    QProcess m_server;
    quint16 m_port = 0;
    QJsonObject m_expected;
    QProcessEnvironment m_tfEnv;

    QString path(const QString &rel) const { return m_tmp.filePath(rel); }

    test::ProcessRun terraformInit(const QString &name)
    {
        const QString work = path(QStringLiteral("tf-") + name);
        QDir(work).removeRecursively();
        QDir().mkpath(work);
        QFile main(work + QStringLiteral("/main.tf"));
        if (!main.open(QIODevice::WriteOnly))
            return {};
        main.write("terraform {\n  required_providers {\n    fake = {\n      source  = \"example.com/acme/fake\"\n"
                   "      version = \"1.0.0\"\n    }\n  }\n}\n");
        main.close();
        test::ProcessRun r = test::runProcessMerged(
            m_terraform, {QStringLiteral("init"), QStringLiteral("-input=false"), QStringLiteral("-no-color")}, work, m_tfEnv);
        r.out += "\n--- lock file ---\n" + test::readFile(work + QStringLiteral("/.terraform.lock.hcl"));
        return r;
    }

    VerifyReport verifyMirror()
    {
        const Result<Catalog> catalog = scanFileSystemMirror(m_mirror);
        if (!catalog.ok())
            return {};
        VerifyOptions options;
        options.useCache = false;
        return verifyCatalog(catalog.value(), options);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_terraform = test::terraformPath();
        m_nginx = findTool(QStringLiteral("nginx"));
        m_openssl = findTool(QStringLiteral("openssl"));
        m_python = findTool(QStringLiteral("python3"));
        QStringList missing;
        if (m_terraform.isEmpty())
            missing << QStringLiteral("terraform");
        if (m_nginx.isEmpty())
            missing << QStringLiteral("nginx (Debian package nginx)");
        if (m_openssl.isEmpty())
            missing << QStringLiteral("openssl");
        if (m_python.isEmpty())
            missing << QStringLiteral("python3");
        if (!missing.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs %1 on PATH").arg(missing.join(QStringLiteral(", "))));
        QVERIFY(m_tmp.isValid());

        // The mirror: Python builds the zips, Provender writes the indexes (terraform's default form).
        m_mirror = path(QStringLiteral("mirror"));
        test::ProcessRun zips = test::runProcessMerged(
            m_python, {QStringLiteral("-c"), QString::fromUtf8(kMakeZips), m_mirror, QStringLiteral("one")}, m_tmp.path());
        QVERIFY2(zips.exitCode == 0, qPrintable(zips.text()));
        m_expected = QJsonDocument::fromJson(zips.out).object();
        QVERIFY(!m_expected.isEmpty());
        const Result<IndexExportReport> exported = exportIndexes(m_mirror, IndexExportOptions{});
        QVERIFY2(exported.ok(), qPrintable(exported.ok() ? QString() : exported.error().toString()));
        QVERIFY(QFile::exists(m_mirror + QStringLiteral("/example.com/acme/fake/1.0.0.json")));

        // A certificate for 127.0.0.1.
        const QString cert = path(QStringLiteral("cert.pem"));
        const QString key = path(QStringLiteral("key.pem"));
        test::ProcessRun ssl =
            test::runProcessMerged(m_openssl,
                                   {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                                    QStringLiteral("-nodes"), QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert,
                                    QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                                    QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1")},
                                   m_tmp.path());
        QVERIFY2(ssl.exitCode == 0, qPrintable(ssl.text()));

        // nginx on a free loopback port, everything in the temporary directory.
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            m_port = probe.serverPort();
        }
        const QString prefix = path(QStringLiteral("nginx"));
        QVERIFY(QDir().mkpath(prefix + QStringLiteral("/logs")));
        QString conf = QStringLiteral("daemon off;\nworker_processes 1;\npid %1/nginx.pid;\nerror_log %1/logs/error.log;\n%2"
                                      "events { worker_connections 32; }\n"
                                      "http {\n  access_log %1/logs/access.log;\n"
                                      "  client_body_temp_path %1/body; proxy_temp_path %1/proxy; fastcgi_temp_path %1/fastcgi;\n"
                                      "  uwsgi_temp_path %1/uwsgi; scgi_temp_path %1/scgi;\n"
                                      "  types { application/json json; application/zip zip; }\n  default_type application/octet-stream;\n"
                                      "  server {\n    listen 127.0.0.1:%3 ssl;\n    ssl_certificate %4;\n    ssl_certificate_key %5;\n"
                                      "    root %6;\n  }\n}\n")
                           .arg(prefix, ::geteuid() == 0 ? QStringLiteral("user root;\n") : QString())
                           .arg(m_port)
                           .arg(cert, key, m_mirror);
        QVERIFY(test::writeFile(prefix + QStringLiteral("/nginx.conf"), conf.toUtf8()));
        m_server.setProcessChannelMode(QProcess::MergedChannels);
        m_server.start(m_nginx,
                       {QStringLiteral("-p"), prefix, QStringLiteral("-c"), prefix + QStringLiteral("/nginx.conf"), QStringLiteral("-e"),
                        prefix + QStringLiteral("/logs/error.log")});
        QVERIFY2(m_server.waitForStarted(10000), qPrintable(m_server.errorString()));
        // Ready when it accepts connections (bounded wait).
        auto listening = [this] {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, m_port);
            return s.waitForConnected(200);
        };
        QTRY_VERIFY2_WITH_TIMEOUT(listening() || m_server.state() == QProcess::NotRunning, "nginx did not start", 10000);
        QVERIFY2(m_server.state() == QProcess::Running,
                 qPrintable(QString::fromUtf8(m_server.readAll() + test::readFile(prefix + QStringLiteral("/logs/error.log")))));

        // terraform: only the mirror, only loopback.
        const QString cli = path(QStringLiteral("terraform.rc"));
        QFile cliFile(cli);
        QVERIFY(cliFile.open(QIODevice::WriteOnly));
        cliFile.write(QStringLiteral("provider_installation {\n  network_mirror {\n    url = \"https://127.0.0.1:%1/\"\n  }\n}\n")
                          .arg(m_port)
                          .toUtf8());
        cliFile.close();
        m_tfEnv = QProcessEnvironment::systemEnvironment();
        m_tfEnv.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli);
        m_tfEnv.insert(QStringLiteral("CHECKPOINT_DISABLE"), QStringLiteral("1"));
        m_tfEnv.insert(QStringLiteral("SSL_CERT_FILE"), cert);
        m_tfEnv.insert(QStringLiteral("SSL_CERT_DIR"), path(QStringLiteral("no-cert-dir")));
        m_tfEnv.insert(QStringLiteral("TF_IN_AUTOMATION"), QStringLiteral("1"));
        m_tfEnv.remove(QStringLiteral("TF_PLUGIN_CACHE_DIR"));
        for (const char *proxy : {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"})
            m_tfEnv.remove(QString::fromLatin1(proxy));
        m_tfEnv.insert(QStringLiteral("NO_PROXY"), QStringLiteral("127.0.0.1"));
    }

    void cleanupTestCase()
    {
        test::stopProcess(m_server); // nginx: TERM = fast shutdown
    }

    void terraformInstallsWhatWeVerify()
    {
        const VerifyReport report = verifyMirror();
        QCOMPARE(report.results.size(), 2);
        const ArchiveResult *linux = test::resultFor(report, QStringLiteral("linux_amd64"));
        QVERIFY(linux && linux->hashes);
        QCOMPARE(toString(linux->detail.verdict), QStringLiteral("verified"));
        // Our hashes equal Python's (the zip has a directory entry: the two h1 differ).
        const QJsonObject py = m_expected.value(QStringLiteral("linux_amd64")).toObject();
        QCOMPARE(linux->hashes->h1Extracted.toString(), py.value(QStringLiteral("h1")).toString());
        QCOMPARE(linux->hashes->h1Zip.toString(), py.value(QStringLiteral("h1zip")).toString());
        QVERIFY(linux->hashes->h1Zip != linux->hashes->h1Extracted);
        QVERIFY(!report.summary.hasFindings());

        const test::ProcessRun init = terraformInit(QStringLiteral("good"));
        QVERIFY2(init.exitCode == 0, qPrintable(init.text()));
        const QStringList h1 = lockH1(init.text(), QStringLiteral("example.com/acme/fake"));
        QVERIFY2(!h1.isEmpty(), qPrintable(init.text()));
        qInfo("terraform's lock file h1: %s", qPrintable(h1.join(QStringLiteral(", "))));
        // terraform records the extracted folder's h1 of the platform it installed, plus the
        // mirror's hash it checked; each must be a value our verification reports.
        QVERIFY2(h1.contains(linux->hashes->h1Extracted.toString()), qPrintable(init.text()));
        const QStringList ours = {linux->hashes->h1Extracted.toString(), linux->hashes->h1Zip.toString()};
        for (const QString &h : h1)
            QVERIFY2(ours.contains(h), qPrintable(h + QStringLiteral(" is not ours\n") + init.text()));
    }

    void tamperedArchiveFailsBoth()
    {
        // Replace the linux_amd64 zip by another build (other content), leaving the indexes alone.
        const QString scratch = path(QStringLiteral("scratch"));
        test::ProcessRun zips = test::runProcessMerged(
            m_python, {QStringLiteral("-c"), QString::fromUtf8(kMakeZips), scratch, QStringLiteral("two")}, m_tmp.path());
        QVERIFY2(zips.exitCode == 0, qPrintable(zips.text()));
        const QString name = QStringLiteral("/example.com/acme/fake/terraform-provider-fake_1.0.0_linux_amd64.zip");
        QVERIFY(QFile::remove(m_mirror + name));
        QVERIFY(QFile::copy(scratch + name, m_mirror + name));

        const VerifyReport report = verifyMirror();
        const ArchiveResult *linux = test::resultFor(report, QStringLiteral("linux_amd64"));
        QVERIFY(linux);
        QCOMPARE(toString(linux->detail.verdict), QStringLiteral("mismatch"));
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("darwin_arm64"))->detail.verdict), QStringLiteral("verified"));
        QVERIFY(report.summary.hasFindings());

        const test::ProcessRun init = terraformInit(QStringLiteral("tampered"));
        QVERIFY2(init.exitCode != 0, qPrintable(init.text()));
        QVERIFY2(init.text().contains(QStringLiteral("checksum")), qPrintable(init.text()));
        qInfo("terraform init on the tampered mirror: %s",
              qPrintable(init.text().section(QStringLiteral("Error:"), 1, 1).simplified().left(200)));
    }
};

QTEST_GUILESS_MAIN(TestInteropNetMirror)
#include "tst_interop_netmirror.moc"
