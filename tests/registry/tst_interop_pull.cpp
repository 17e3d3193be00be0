// Interop: `provender mirror pull` and `terraform providers mirror` against the same origin
// registry — nginx on 127.0.0.1 over TLS serving the static providers.v1 tree of
// make_registry.py, SHA256SUMS signed by an ed25519 key that `gpg` makes here (terraform takes it
// as a community key: trust_signature empty), a temporary CLI config whose `host` block points
// registry.provender.test at nginx, SSL_CERT_FILE = the test CA, proxies at a closed port.
// For the same providers, constraints and platforms both tools must leave the same files: the
// same archives under the same names and byte-identical index.json / <version>.json (our
// .provenance/ folder aside, which terraform does not write). Run twice into the same directory,
// so that the indexes merge as terraform merges them (the first run reads terraform's
// configuration with --config, the second names the providers). And `lock add-hashes --registry` on a lock
// file that pins the versions writes, byte for byte, what `terraform providers lock -platform=…`
// writes for the same configuration; terraform installs from what `mirror pull --unpacked` writes
// (its h1: of the package folders is Python's). Skips without terraform.

#include "tests/support/GpgFixture.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kHost = u"registry.provender.test"_s;

/// Every file below `root` but .provenance/ (relative path -> bytes).
QMap<QString, QByteArray> tree(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        const QString rel = p.mid(root.size() + 1);
        if (!rel.startsWith(u".provenance/"_s))
            out.insert(rel, provender::test::readFile(p));
    }
    return out;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

struct Wanted
{
    QString type;
    QString constraint;
};

} // namespace

class TestInteropPull : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<provender::test::NginxFixture> m_nginx;
    std::unique_ptr<provender::test::GpgFixture> m_gpg;
    QString m_root, m_cliConfig;
    QJsonObject m_expected; // make_registry.py's own account: file names, sha256, h1 (Python's zipfile)
    QProcessEnvironment m_env;
    const QStringList m_platforms{u"linux_amd64"_s, u"darwin_arm64"_s};

    QString writeConfig(const QString &configName, const QList<Wanted> &wanted)
    {
        QString tf = u"terraform {\n  required_providers {\n"_s;
        for (const Wanted &w : wanted)
            tf += u"    %1 = {\n      source  = \"%2/acme/%1\"\n      version = \"%3\"\n    }\n"_s.arg(w.type, kHost, w.constraint);
        tf += u"  }\n}\n"_s;
        const QString dir = m_tmp.filePath(configName);
        return writeFile(dir + u"/main.tf"_s, tf.toUtf8()) ? dir : QString();
    }

    QString binary() const { return QStringLiteral(PROVENDER_BINARY); }

    provender::test::ProcessRun terraformMirror(const QString &configName, const QList<Wanted> &wanted, const QString &dest)
    {
        const QString dir = writeConfig(configName, wanted);
        if (dir.isEmpty())
            return {};
        QStringList args{u"providers"_s, u"mirror"_s, u"-no-color"_s};
        for (const QString &p : m_platforms)
            args << u"-platform="_s + p;
        args << dest;
        return provender::test::runProcess(provender::test::terraformPath(), args, 300000, m_env, dir);
    }

    provender::test::ProcessRun provenderPull(const QList<Wanted> &wanted, const QString &dest, const QStringList &extra = {})
    {
        QStringList args{u"mirror"_s, u"pull"_s, dest};
        for (const Wanted &w : wanted)
            args << kHost + u"/acme/"_s + w.type + u'=' + w.constraint;
        for (const QString &p : m_platforms)
            args << u"--platform"_s << p;
        args << u"--ca-file"_s << m_nginx->caFile() << extra;
        return provender::test::runProcess(binary(), args, 300000, m_env);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (provender::test::terraformPath().isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Terraform, u"needs terraform on PATH"_s);
        QStringList missing;
        if (!provender::test::NginxFixture::missingTools().isEmpty())
            missing << provender::test::NginxFixture::missingTools();
        if (!provender::test::GpgFixture::available())
            missing << u"gpg"_s;
        if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
            missing << u"python3"_s;
        if (!missing.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, u"needs "_s + missing.join(u", "_s));
        QVERIFY(QFileInfo(binary()).isExecutable());

        m_gpg = std::make_unique<provender::test::GpgFixture>();
        const QString fpr = m_gpg->generateKey(u"Acme Releases <releases@acme.test>"_s);
        QVERIFY2(!fpr.isEmpty(), qPrintable(m_gpg->lastError()));
        const QString keyFile = m_tmp.filePath(u"key.asc"_s);
        QVERIFY(writeFile(keyFile, m_gpg->exportKey(fpr)));

        m_root = m_tmp.filePath(u"registry"_s);
        const provender::test::ProcessRun made = provender::test::runProcess(
            u"python3"_s, {provender::test::sourceDir() + u"/tests/registry/make_registry.py"_s, m_root, keyFile}, 120000);
        QVERIFY2(made.exitCode == 0, made.err.constData());
        m_expected = QJsonDocument::fromJson(made.out).object();
        QVERIFY(!m_expected.isEmpty());
        for (const QString &type : {u"demo"_s, u"pair"_s}) {
            QDirIterator it(m_root + u"/files/"_s + type, {u"*_SHA256SUMS"_s}, QDir::Files, QDirIterator::Subdirectories);
            int signedCount = 0;
            while (it.hasNext()) {
                const QString sums = it.next();
                const QByteArray sig = m_gpg->sign(fpr, provender::test::readFile(sums));
                QVERIFY2(!sig.isEmpty() && writeFile(sums + u".sig"_s, sig), qPrintable(m_gpg->lastError()));
                ++signedCount;
            }
            QCOMPARE(signedCount, 3);
        }

        m_nginx = std::make_unique<provender::test::NginxFixture>();
        QString error;
        QVERIFY2(m_nginx->makeCertificates(&error), qPrintable(error));
        QVERIFY2(m_nginx->start(m_root, u"    location /v1/ { default_type application/json; }\n"_s, {}, &error), qPrintable(error));
        m_cliConfig = m_tmp.filePath(u"cli.tfrc"_s);
        QVERIFY(writeFile(m_cliConfig, u"host \"%1\" {\n  services = {\n    \"providers.v1\" = \"%2v1/providers/\"\n  }\n}\n"_s
                                           .arg(kHost, m_nginx->baseUrl())
                                           .toUtf8()));

        // Both tools get the same environment: nothing of the user's, loopback only.
        m_env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : m_env.keys())
            if (k.startsWith(u"TF_"_s) || k.startsWith(u"TOFU_"_s))
                m_env.remove(k);
        m_env.insert(u"TF_CLI_CONFIG_FILE"_s, m_cliConfig);
        m_env.insert(u"CHECKPOINT_DISABLE"_s, u"1"_s);
        m_env.insert(u"TF_IN_AUTOMATION"_s, u"1"_s);
        m_env.insert(u"TF_DATA_DIR"_s, m_tmp.filePath(u"tfdata"_s));
        m_env.insert(u"HOME"_s, m_tmp.filePath(u"home"_s));
        m_env.insert(u"SSL_CERT_FILE"_s, m_nginx->caFile());
        m_env.insert(u"SSL_CERT_DIR"_s, m_tmp.filePath(u"no-cert-dir"_s));
        m_env.insert(u"HTTPS_PROXY"_s, u"http://127.0.0.1:9"_s);
        m_env.insert(u"HTTP_PROXY"_s, u"http://127.0.0.1:9"_s);
        m_env.insert(u"NO_PROXY"_s, QString());
        QDir().mkpath(m_tmp.filePath(u"home"_s));
    }

    void pullWritesWhatTerraformProvidersMirrorWrites()
    {
        const QString theirs = m_tmp.filePath(u"terraform-mirror"_s);
        const QString ours = m_tmp.filePath(u"provender-mirror"_s);
        // Two runs into one directory: the second adds a version of `pair`, the indexes merge.
        const QList<QList<Wanted>> runs{
            {{u"demo"_s, u"~> 1.0"_s}, {u"pair"_s, u">= 0.1.0, < 0.3.0"_s}},
            {{u"pair"_s, u"0.1.0"_s}},
        };
        int n = 0;
        for (const QList<Wanted> &wanted : runs) {
            const provender::test::ProcessRun tf = terraformMirror(u"config%1"_s.arg(++n), wanted, theirs);
            QVERIFY2(tf.exitCode == 0, QByteArray(tf.out + tf.err).constData());
            // terraform checked the signature with the key the registry lists (its words: "self-signed").
            QVERIFY2(tf.out.contains("Package authenticated: self-signed"), tf.out.constData());
            // The first run reads terraform's own configuration (--config), the second is typed.
            const provender::test::ProcessRun pv =
                n == 1 ? provenderPull({}, ours, {u"--config"_s, m_tmp.filePath(u"config1"_s)}) : provenderPull(wanted, ours);
            QVERIFY2(pv.exitCode == 0, QByteArray(pv.out + pv.err).constData());
        }
        const QMap<QString, QByteArray> expected = tree(theirs);
        const QMap<QString, QByteArray> actual = tree(ours);
        // What this proves: demo 1.1.0 (not the 2.0.0-beta1 prerelease), pair 0.2.0 and 0.1.0, two
        // platforms each, and one index.json + <version>.json per version.
        const QString d = kHost + u"/acme/demo/"_s;
        const QString p = kHost + u"/acme/pair/"_s;
        QCOMPARE(expected.keys(),
                 (QStringList{d + u"1.1.0.json"_s, d + u"index.json"_s, d + u"terraform-provider-demo_1.1.0_darwin_arm64.zip"_s,
                              d + u"terraform-provider-demo_1.1.0_linux_amd64.zip"_s, p + u"0.1.0.json"_s, p + u"0.2.0.json"_s,
                              p + u"index.json"_s, p + u"terraform-provider-pair_0.1.0_darwin_arm64.zip"_s,
                              p + u"terraform-provider-pair_0.1.0_linux_amd64.zip"_s, p + u"terraform-provider-pair_0.2.0_darwin_arm64.zip"_s,
                              p + u"terraform-provider-pair_0.2.0_linux_amd64.zip"_s}));
        QCOMPARE(actual.keys(), expected.keys());
        for (auto it = expected.cbegin(); it != expected.cend(); ++it)
            QVERIFY2(actual.value(it.key()) == it.value(),
                     qPrintable(u"%1 differs:\n--- terraform\n%2\n--- provender\n%3"_s.arg(
                         it.key(), QString::fromUtf8(it.value().left(2000)), QString::fromUtf8(actual.value(it.key()).left(2000)))));
        // Ours also kept the proof, which terraform does not.
        QVERIFY(QFileInfo::exists(ours + u"/.provenance/"_s + kHost + u"/acme/pair/0.1.0/SHA256SUMS.sig"_s));
    }

    void lockAddHashesRegistryWritesWhatTerraformProvidersLockWrites()
    {
        const QList<Wanted> wanted{{u"demo"_s, u"~> 1.0"_s}, {u"pair"_s, u">= 0.1.0, < 0.3.0"_s}};
        const QString dir = writeConfig(u"lockconfig"_s, wanted);
        QVERIFY(!dir.isEmpty());
        QStringList args{u"providers"_s, u"lock"_s, u"-no-color"_s};
        for (const QString &p : m_platforms)
            args << u"-platform="_s + p;
        const provender::test::ProcessRun tf = provender::test::runProcess(provender::test::terraformPath(), args, 300000, m_env, dir);
        QVERIFY2(tf.exitCode == 0, QByteArray(tf.out + tf.err).constData());
        const QByteArray theirs = provender::test::readFile(dir + u"/.terraform.lock.hcl"_s);
        // terraform's file holds, per provider, the h1: of the extracted package Python computed
        // for each platform (demo's zips have a directory entry: not HashZip's h1:) and the
        // zh: (sha256) of each line of the signed SHA256SUMS — else comparing with it proves little.
        for (const auto &[type, version] : {std::pair{u"demo"_s, u"1.1.0"_s}, std::pair{u"pair"_s, u"0.2.0"_s}})
            for (const QString &platform : m_platforms) {
                const QJsonObject e = m_expected.value(type).toObject().value(version).toObject().value(platform).toObject();
                QVERIFY2(theirs.contains(e.value(u"h1_extracted"_s).toString().toUtf8()), theirs.constData());
                QVERIFY2(theirs.contains(QByteArray("zh:" + e.value(u"sha256"_s).toString().toUtf8())), theirs.constData());
            }

        // Ours starts from a lock file that pins the same versions and constraints, with no hashes.
        const QString lock = m_tmp.filePath(u"ours.terraform.lock.hcl"_s);
        QByteArray start = "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
        start += "\nprovider \"" + kHost.toUtf8() + "/acme/demo\" {\n  version     = \"1.1.0\"\n  constraints = \"~> 1.0\"\n}\n";
        start += "\nprovider \"" + kHost.toUtf8() + "/acme/pair\" {\n  version     = \"0.2.0\"\n  constraints = \">= 0.1.0, < 0.3.0\"\n}\n";
        QVERIFY(writeFile(lock, start));
        QStringList ours{u"lock"_s, u"add-hashes"_s, lock, u"--registry"_s, u"--ca-file"_s, m_nginx->caFile()};
        for (const QString &p : m_platforms)
            ours << u"--platform"_s << p;
        const provender::test::ProcessRun pv = provender::test::runProcess(binary(), ours, 300000, m_env);
        QVERIFY2(pv.exitCode == 0, QByteArray(pv.out + pv.err).constData());
        QCOMPARE(QString::fromUtf8(provender::test::readFile(lock)), QString::fromUtf8(theirs));

        // A refusal (here: a key that is not pinned) leaves the lock file as it was.
        QVERIFY(writeFile(lock, start));
        const QString otherKey = m_tmp.filePath(u"other.asc"_s);
        const QString other = m_gpg->generateKey(u"Somebody Else <else@acme.test>"_s);
        QVERIFY2(!other.isEmpty() && writeFile(otherKey, m_gpg->exportKey(other)), qPrintable(m_gpg->lastError()));
        const provender::test::ProcessRun refused =
            provender::test::runProcess(binary(), ours + QStringList{u"--pinned-keys"_s, otherKey}, 300000, m_env);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("not one of the pinned keys"), refused.err.constData());
        QCOMPARE(provender::test::readFile(lock), start);
    }

    void terraformInstallsFromAnUnpackedPull()
    {
        // terraform reads the unpacked layout --unpacked writes (a filesystem mirror) and hashes the
        // package folders: its h1: must be the one Python computed for the archives.
        const QString d = m_tmp.filePath(u"unpacked-mirror"_s);
        const provender::test::ProcessRun pv = provenderPull({{u"demo"_s, u"1.1.0"_s}}, d, {u"--unpacked"_s});
        QVERIFY2(pv.exitCode == 0, QByteArray(pv.out + pv.err).constData());
        const QString dir = writeConfig(u"unpackedconfig"_s, {{u"demo"_s, u"1.1.0"_s}});
        QVERIFY(!dir.isEmpty());
        QStringList args{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-fs-mirror="_s + d};
        for (const QString &p : m_platforms)
            args << u"-platform="_s + p;
        const provender::test::ProcessRun tf = provender::test::runProcess(provender::test::terraformPath(), args, 300000, m_env, dir);
        QVERIFY2(tf.exitCode == 0, QByteArray(tf.out + tf.err).constData());
        const QByteArray lock = provender::test::readFile(dir + u"/.terraform.lock.hcl"_s);
        for (const QString &platform : m_platforms)
            QVERIFY2(lock.contains(m_expected.value(u"demo"_s).toObject().value(u"1.1.0"_s).toObject().value(platform).toObject().value(u"h1_extracted"_s)
                                       .toString()
                                       .toUtf8()),
                     lock.constData());
        QCOMPARE(int(lock.count("\"h1:")), 2);
    }
};

QTEST_GUILESS_MAIN(TestInteropPull)
#include "tst_interop_pull.moc"
