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

#include "tests/support/RegistryFixture.h"
#include "tests/support/TestSupport.h"

#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kHost = provender::test::RegistryFixture::host();

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

using provender::test::writeFile;

using Wanted = provender::test::RegistryFixture::Wanted;

} // namespace

class TestInteropPull : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    provender::test::RegistryFixture m_registry;
    QJsonObject m_expected; // make_registry.py's own account: file names, sha256, h1 (Python's zipfile)
    QProcessEnvironment m_env;
    const QStringList m_platforms{u"linux_amd64"_s, u"darwin_arm64"_s};

    QString writeConfig(const QString &configName, const QList<Wanted> &wanted)
    {
        const QString dir = m_tmp.filePath(configName);
        return provender::test::RegistryFixture::writeConfiguration(dir, wanted) ? dir : QString();
    }

    QString binary() const { return QStringLiteral(PROVENDER_BINARY); }

    provender::test::ProcessRun terraformMirror(const QString &configName, const QList<Wanted> &wanted, const QString &dest)
    {
        const QString dir = writeConfig(configName, wanted);
        if (dir.isEmpty())
            return {};
        return m_registry.terraformMirror(dir, m_platforms, dest);
    }

    provender::test::ProcessRun provenderPull(const QList<Wanted> &wanted, const QString &dest, const QStringList &extra = {})
    {
        QStringList args{u"mirror"_s, u"pull"_s, dest};
        for (const Wanted &w : wanted)
            args << kHost + u"/acme/"_s + w.type + u'=' + w.constraint;
        for (const QString &p : m_platforms)
            args << u"--platform"_s << p;
        args << u"--ca-file"_s << m_registry.caFile() << extra;
        return provender::test::runProcess(binary(), args, 300000, m_env);
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform is skipped"));
        PROVENDER_SKIP_UNLESS_ON_PATH(provender::test::RegistryFixture::missingTools());
        QVERIFY(QFileInfo(binary()).isExecutable());

        // Both tools get the same environment: nothing of the user's, loopback only.
        QString error;
        QVERIFY2(m_registry.start(m_tmp.path(), &error), qPrintable(error));
        for (const QString &type : {u"demo"_s, u"pair"_s}) { // three signed releases each
            QDirIterator it(m_registry.root() + u"/files/"_s + type, {u"*_SHA256SUMS.sig"_s}, QDir::Files, QDirIterator::Subdirectories);
            int signedCount = 0;
            for (; it.hasNext(); it.next())
                ++signedCount;
            QCOMPARE(signedCount, 3);
        }
        m_expected = m_registry.expected();
        m_env = m_registry.environment();
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
            QVERIFY2(tf.exitCode == 0, tf.err.constData());
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
                 (QStringList{
                     d + u"1.1.0.json"_s, d + u"index.json"_s, d + u"terraform-provider-demo_1.1.0_darwin_arm64.zip"_s,
                     d + u"terraform-provider-demo_1.1.0_linux_amd64.zip"_s, p + u"0.1.0.json"_s, p + u"0.2.0.json"_s, p + u"index.json"_s,
                     p + u"terraform-provider-pair_0.1.0_darwin_arm64.zip"_s, p + u"terraform-provider-pair_0.1.0_linux_amd64.zip"_s,
                     p + u"terraform-provider-pair_0.2.0_darwin_arm64.zip"_s, p + u"terraform-provider-pair_0.2.0_linux_amd64.zip"_s}));
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
        const provender::test::ProcessRun tf = m_registry.terraform(dir, args);
        QVERIFY2(tf.exitCode == 0, tf.err.constData());
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
        QByteArray start =
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
        start += "\nprovider \"" + kHost.toUtf8() + "/acme/demo\" {\n  version     = \"1.1.0\"\n  constraints = \"~> 1.0\"\n}\n";
        start += "\nprovider \"" + kHost.toUtf8() + "/acme/pair\" {\n  version     = \"0.2.0\"\n  constraints = \">= 0.1.0, < 0.3.0\"\n}\n";
        QVERIFY(writeFile(lock, start));
        QStringList ours{u"lock"_s, u"add-hashes"_s, lock, u"--registry"_s, u"--ca-file"_s, m_registry.caFile()};
        for (const QString &p : m_platforms)
            ours << u"--platform"_s << p;
        const provender::test::ProcessRun pv = provender::test::runProcess(binary(), ours, 300000, m_env);
        QVERIFY2(pv.exitCode == 0, QByteArray(pv.out + pv.err).constData());
        QCOMPARE(QString::fromUtf8(provender::test::readFile(lock)), QString::fromUtf8(theirs));

        // A refusal (here: a key that is not pinned) leaves the lock file as it was.
        QVERIFY(writeFile(lock, start));
        const QString otherKey = m_tmp.filePath(u"other.asc"_s);
        provender::test::GpgFixture &gpg = m_registry.gpg();
        const QString other = gpg.generateKey(u"Somebody Else <else@acme.test>"_s);
        QVERIFY2(!other.isEmpty() && writeFile(otherKey, gpg.exportKey(other)), qPrintable(gpg.lastError()));
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
        const provender::test::ProcessRun tf = m_registry.terraform(dir, args);
        QVERIFY2(tf.exitCode == 0, tf.err.constData());
        const QByteArray lock = provender::test::readFile(dir + u"/.terraform.lock.hcl"_s);
        for (const QString &platform : m_platforms)
            QVERIFY2(lock.contains(m_expected.value(u"demo"_s)
                                       .toObject()
                                       .value(u"1.1.0"_s)
                                       .toObject()
                                       .value(platform)
                                       .toObject()
                                       .value(u"h1_extracted"_s)
                                       .toString()
                                       .toUtf8()),
                     lock.constData());
        QCOMPARE(int(lock.count("\"h1:")), 2);
    }
};

QTEST_GUILESS_MAIN(TestInteropPull)
#include "tst_interop_pull.moc"
