// Interop (issue #3 (b) and (c)): a mirror whose indexes Provender exported, served over HTTPS by a
// real nginx on 127.0.0.1, is installed by the real `terraform init` through `network_mirror`; the
// h1: terraform writes into the lock file must be one `provender verify` reports. Then one archive
// is tampered with: terraform init and our verification must both fail on it.
//
// Everything is local: nginx is the shared test::NginxFixture (its own config, prefix and pid file
// in a temporary directory, a throw-away CA made by `openssl` at test time, trusted by terraform
// through SSL_CERT_FILE); terraform runs through test::runTerraform, in a sandbox per run whose CLI
// config's only installation method is the mirror on 127.0.0.1, with CHECKPOINT_DISABLE=1 and
// proxies closed. The zips are built by Python's zipfile.
// Skips with a clear message when terraform, nginx, openssl or python3 is absent.

#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VerifyResults.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

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
    test::NginxFixture m_nginx;
    QString m_mirror;
    QJsonObject m_expected;

    QString path(const QString &rel) const { return m_tmp.filePath(rel); }

    /// `terraform init` of a configuration that requires the fake provider, in a fresh sandbox
    /// (test::runTerraform) whose CLI config installs only from the mirror nginx serves.
    struct InitRun
    {
        int exitCode = -1;
        QString text; ///< terraform's output, then the lock file it wrote
    };
    InitRun terraformInit(const QString &name)
    {
        const QString sandbox = path(QStringLiteral("tf-") + name);
        QDir(sandbox).removeRecursively();
        const QString work = sandbox + QStringLiteral("/work");
        if (!test::writeFile(
                sandbox + QStringLiteral("/cli.tfrc"),
                QStringLiteral("provider_installation {\n  network_mirror {\n    url = \"%1\"\n  }\n}\n").arg(m_nginx.baseUrl()).toUtf8())
            || !test::writeFile(work + QStringLiteral("/main.tf"),
                                "terraform {\n  required_providers {\n    fake = {\n      source  = \"example.com/acme/fake\"\n"
                                "      version = \"1.0.0\"\n    }\n  }\n}\n"))
            return {};
        const test::ProcessRun r =
            test::runTerraform(sandbox, work, {QStringLiteral("init"), QStringLiteral("-input=false"), QStringLiteral("-no-color")},
                               m_nginx.trustOnlyThisCa());
        return {r.exitCode,
                QString::fromUtf8(r.err + "\n--- lock file ---\n" + test::readFile(work + QStringLiteral("/.terraform.lock.hcl")))};
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
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the network-mirror interop check needs it"));
        PROVENDER_SKIP_UNLESS_ON_PATH(test::NginxFixture::missingToolsWithPython());
        QVERIFY(m_tmp.isValid());

        // The mirror: Python builds the zips, Provender writes the indexes (terraform's default form).
        m_mirror = path(QStringLiteral("mirror"));
        QString error;
        const QByteArray zips = test::runPythonCode(QString::fromUtf8(kMakeZips), {m_mirror, QStringLiteral("one")}, &error);
        QVERIFY2(!zips.isNull(), qPrintable(error));
        m_expected = QJsonDocument::fromJson(zips).object();
        QVERIFY(!m_expected.isEmpty());
        const Result<IndexExportReport> exported = exportIndexes(m_mirror, IndexExportOptions{});
        QVERIFY2(exported.ok(), qPrintable(exported.ok() ? QString() : exported.error().toString()));
        QVERIFY(QFile::exists(m_mirror + QStringLiteral("/example.com/acme/fake/1.0.0.json")));

        // nginx on a free loopback port, with a certificate for 127.0.0.1 from a throw-away CA.
        QVERIFY2(m_nginx.makeCertificates(&error), qPrintable(error));
        QVERIFY2(m_nginx.start(m_mirror, {}, {}, &error), qPrintable(error));
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

        const InitRun init = terraformInit(QStringLiteral("good"));
        QVERIFY2(init.exitCode == 0, qPrintable(init.text));
        const QStringList h1 = lockH1(init.text, QStringLiteral("example.com/acme/fake"));
        QVERIFY2(!h1.isEmpty(), qPrintable(init.text));
        qInfo("terraform's lock file h1: %s", qPrintable(h1.join(QStringLiteral(", "))));
        // terraform records the extracted folder's h1 of the platform it installed, plus the
        // mirror's hash it checked; each must be a value our verification reports.
        QVERIFY2(h1.contains(linux->hashes->h1Extracted.toString()), qPrintable(init.text));
        const QStringList ours = {linux->hashes->h1Extracted.toString(), linux->hashes->h1Zip.toString()};
        for (const QString &h : h1)
            QVERIFY2(ours.contains(h), qPrintable(h + QStringLiteral(" is not ours\n") + init.text));
    }

    void tamperedArchiveFailsBoth()
    {
        // Replace the linux_amd64 zip by another build (other content), leaving the indexes alone.
        const QString scratch = path(QStringLiteral("scratch"));
        QString error;
        QVERIFY2(!test::runPythonCode(QString::fromUtf8(kMakeZips), {scratch, QStringLiteral("two")}, &error).isNull(), qPrintable(error));
        const QString name = QStringLiteral("/example.com/acme/fake/terraform-provider-fake_1.0.0_linux_amd64.zip");
        QVERIFY(QFile::remove(m_mirror + name));
        QVERIFY(QFile::copy(scratch + name, m_mirror + name));

        const VerifyReport report = verifyMirror();
        const ArchiveResult *linux = test::resultFor(report, QStringLiteral("linux_amd64"));
        QVERIFY(linux);
        QCOMPARE(toString(linux->detail.verdict), QStringLiteral("mismatch"));
        QCOMPARE(toString(test::resultFor(report, QStringLiteral("darwin_arm64"))->detail.verdict), QStringLiteral("verified"));
        QVERIFY(report.summary.hasFindings());

        const InitRun init = terraformInit(QStringLiteral("tampered"));
        QVERIFY2(init.exitCode != 0, qPrintable(init.text));
        QVERIFY2(init.text.contains(QStringLiteral("checksum")), qPrintable(init.text));
        qInfo("terraform init on the tampered mirror: %s",
              qPrintable(init.text.section(QStringLiteral("Error:"), 1, 1).simplified().left(200)));
    }
};

QTEST_GUILESS_MAIN(TestInteropNetMirror)
#include "tst_interop_netmirror.moc"
