// A bundle made from a lock file, imported into an empty directory, satisfies `terraform init`
// with that lock file through a `filesystem_mirror` — the real terraform is the judge.
//
// The lock file is terraform's own (`terraform providers lock -fs-mirror` over a source mirror of
// fake providers under a made-up host, two versions and two platforms). Provender bundles exactly
// what that lock file needs for the running platform, imports it into an empty directory, and
// `terraform init -lockfile=readonly` installs from there, checking every package against the
// lock file's hashes. A control run against the empty directory must fail, so the test can.
// terraform runs with a temporary CLI config, CHECKPOINT_DISABLE=1 and proxies pointing at a
// closed port on 127.0.0.1: it never leaves the machine.

#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleWriter.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ZipFixture.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using provender::test::ZipEntrySpec;

namespace {

constexpr QLatin1StringView kHost("registry.example.internal");

struct TerraformRun
{
    int exitCode = -1;
    QString output;
};

} // namespace

class TestInteropBundle : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_root;
    QString m_platform; ///< terraform's own platform

    TerraformRun terraform(const QString &workDir, const QStringList &args, const QString &mirror)
    {
        QString config;
        if (!mirror.isEmpty()) {
            config =
                QStringLiteral("provider_installation {\n  filesystem_mirror {\n    path    = \"%1\"\n    include = [\"%2/*/*\"]\n  }\n}\n")
                    .arg(mirror, kHost);
        } else {
            config = QStringLiteral("provider_installation {\n  filesystem_mirror {\n    path    = \"%1\"\n  }\n}\n")
                         .arg(m_root + QStringLiteral("/nothing"));
        }
        const QString cliConfig = workDir + QStringLiteral("/../cli-") + QFileInfo(workDir).fileName() + QStringLiteral(".tfrc");
        test::writeFile(cliConfig, config.toUtf8());
        // terraform in the sandbox m_root (test::runTerraform: home/, tmp/, no proxy) with this
        // run's CLI config and data directory.
        QProcessEnvironment extra;
        extra.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cliConfig);
        extra.insert(QStringLiteral("TF_DATA_DIR"), workDir + QStringLiteral("/.terraform"));
        extra.insert(QStringLiteral("XDG_DATA_HOME"), m_root + QStringLiteral("/home/.local/share"));
        const provender::test::ProcessRun r = provender::test::runTerraform(m_root, workDir, args, extra, 300000);
        TerraformRun run;
        if (!r.finished) {
            run.output = QStringLiteral("terraform did not finish in time");
            return run;
        }
        run.exitCode = r.exitCode;
        run.output = QString::fromUtf8(r.err); // stderr, then stdout
        return run;
    }

    QString configDir(const QString &name)
    {
        const QString dir = m_root + u'/' + name;
        test::writeFile(dir + QStringLiteral("/main.tf"),
                        QStringLiteral("terraform {\n  required_providers {\n"
                                       "    hello = {\n      source  = \"%1/fake/hello\"\n      version = \"1.0.0\"\n    }\n"
                                       "    world = {\n      source  = \"%1/fake/world\"\n      version = \"~> 2.0\"\n    }\n"
                                       "  }\n}\n")
                            .arg(kHost)
                            .toUtf8());
        return dir;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the bundle interop check needs the real terraform (v1.11)"));
        QVERIFY(m_tmp.isValid());
        m_root = m_tmp.path();
        m_platform = provender::test::terraformPlatform();
        QVERIFY2(!m_platform.isEmpty(), "terraform version -json gave no platform");
    }

    void lockFileBundleSatisfiesTerraformInit()
    {
        // Source mirror: hello 1.0.0 and 1.1.0, world 2.0.0 and 2.1.0, each for this platform and another.
        const QString source = m_root + QStringLiteral("/source");
        const QString other = m_platform == u"darwin_arm64" ? QStringLiteral("linux_amd64") : QStringLiteral("darwin_arm64");
        int count = 0;
        for (const auto &[type, versions] :
             {std::pair{QStringLiteral("hello"), QStringList{QStringLiteral("1.0.0"), QStringLiteral("1.1.0")}},
              std::pair{QStringLiteral("world"), QStringList{QStringLiteral("2.0.0"), QStringLiteral("2.1.0")}}}) {
            for (const QString &version : versions) {
                for (const QString &platform : {m_platform, other}) {
                    const QString path =
                        QStringLiteral("%1/%2/fake/%3/terraform-provider-%3_%4_%5.zip").arg(source, kHost, type, version, platform);
                    QDir().mkpath(QFileInfo(path).path());
                    const QByteArray binary = QStringLiteral("#!/bin/sh\n# fake %1 %2 %3\nexit 1\n").arg(type, version, platform).toUtf8();
                    QString error;
                    QVERIFY2(
                        provender::test::writeZip(
                            path,
                            {ZipEntrySpec::executable(QStringLiteral("terraform-provider-%1_v%2").arg(type, version).toUtf8(), binary)},
                            false, &error),
                        qPrintable(error));
                    ++count;
                }
            }
        }
        QCOMPARE(count, 8);

        // terraform writes the lock file (this platform only).
        const QString locking = configDir(QStringLiteral("locking"));
        TerraformRun run = terraform(locking,
                                     {QStringLiteral("providers"), QStringLiteral("lock"), QStringLiteral("-no-color"),
                                      QStringLiteral("-fs-mirror=") + source, QStringLiteral("-platform=") + m_platform},
                                     source);
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        const QString lockFile = locking + QStringLiteral("/.terraform.lock.hcl");
        const QByteArray lockBytes = provender::test::readFile(lockFile);
        QVERIFY(lockBytes.contains("2.1.0")); // "~> 2.0" picked the newest
        QVERIFY(!lockBytes.contains("1.1.0"));

        // Provender: exactly what the lock file needs for this platform.
        Result<Catalog> catalog = scanFileSystemMirror(source);
        QVERIFY(catalog.ok());
        Result<BundleSelection> selection = selectForLockFiles(catalog.value(), {lockFile}, {Platform::parse(m_platform).value()});
        QVERIFY2(selection.ok(), qPrintable(selection.ok() ? QString() : selection.error().toString()));
        QVERIFY(selection->missing.isEmpty());
        QCOMPARE(selection->items.size(), 2);
        const QString bundle = m_root + QStringLiteral("/for-lock.tar.gz");
        BundleCreateOptions options;
        options.useCache = false;
        Result<BundleCreateReport> created = createBundle(bundle, selection.value(), options);
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().toString()));
        QStringList inBundle;
        for (const BundleManifestArchive &a : created->manifest.archives)
            inBundle.append(a.path.section(u'/', -1));
        QCOMPARE(inBundle,
                 QStringList({QStringLiteral("terraform-provider-hello_1.0.0_%1.zip").arg(m_platform),
                              QStringLiteral("terraform-provider-world_2.1.0_%1.zip").arg(m_platform)}));
        Result<BundleContents> verified = verifyBundle(bundle);
        QVERIFY(verified.ok());
        QVERIFY(!verified->hasFindings());

        const QString mirror = m_root + QStringLiteral("/imported");
        QVERIFY(QDir().mkpath(mirror));
        Result<ImportReport> imported = importBundle(bundle, mirror);
        QVERIFY(imported.ok());
        QVERIFY2(imported->committed, qPrintable(imported->refusal));

        // Control: without the bundle, init must fail.
        const QString control = configDir(QStringLiteral("control"));
        QFile::copy(lockFile, control + QStringLiteral("/.terraform.lock.hcl"));
        run = terraform(
            control,
            {QStringLiteral("init"), QStringLiteral("-input=false"), QStringLiteral("-no-color"), QStringLiteral("-lockfile=readonly")},
            QString());
        QVERIFY2(run.exitCode != 0, qPrintable(run.output));
        QVERIFY2(run.output.contains(QLatin1StringView("fake/hello")), qPrintable(run.output));
        qInfo("control: %s", qPrintable(run.output.simplified().left(300)));

        // The judge: install from the imported mirror, every package checked against the lock file.
        const QString work = configDir(QStringLiteral("work"));
        QVERIFY(QFile::copy(lockFile, work + QStringLiteral("/.terraform.lock.hcl")));
        run = terraform(
            work,
            {QStringLiteral("init"), QStringLiteral("-input=false"), QStringLiteral("-no-color"), QStringLiteral("-lockfile=readonly")},
            mirror);
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        QVERIFY2(run.output.contains(QStringLiteral("Installed %1/fake/hello v1.0.0").arg(kHost)), qPrintable(run.output));
        QVERIFY2(run.output.contains(QStringLiteral("Installed %1/fake/world v2.1.0").arg(kHost)), qPrintable(run.output));
        QCOMPARE(provender::test::readFile(work + QStringLiteral("/.terraform.lock.hcl")), lockBytes);
    }
};

QTEST_GUILESS_MAIN(TestInteropBundle)
#include "tst_interop_bundle.moc"
