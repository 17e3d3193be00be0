// `provender mirror pull` against a real registry: nginx on 127.0.0.1 over TLS serves a static
// providers.v1 tree made by make_registry.py (zips, sums and expected h1: from Python's zipfile
// and hashlib), SHA256SUMS signed by keys that `gpg` makes in the test, and a CLI config whose
// `host` block points registry.provender.test at it. Every refusal leaves the mirror untouched;
// a pull killed with SIGKILL and run again completes without a partial file.

#include "tests/support/GpgFixture.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {

const QString kHost = u"registry.provender.test"_s;

using provender::test::writeFile;

} // namespace

class TestMirrorPull : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<provender::test::NginxFixture> m_nginx;
    std::unique_ptr<provender::test::GpgFixture> m_gpg;
    QJsonObject m_expected;
    QString m_root, m_cliConfig, m_otherKeyFile, m_goodKeyFile, m_goodFingerprint;

    QString binary() const { return QStringLiteral(PROVENDER_BINARY); }

    provender::test::ProcessRun pull(const QStringList &args, int timeoutMs = 180000) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"TF_CLI_CONFIG_FILE"_s, m_cliConfig);
        env.insert(u"HOME"_s, m_tmp.filePath(u"home"_s));
        env.insert(u"HTTPS_PROXY"_s, u"http://127.0.0.1:9"_s); // nothing but loopback, never a proxy
        env.insert(u"NO_PROXY"_s, u"127.0.0.1"_s);
        return provender::test::runProcess(
            binary(), QStringList{u"mirror"_s, u"pull"_s} + args + QStringList{u"--ca-file"_s, m_nginx->caFile()}, timeoutMs, env);
    }

    /// `provender ARGS…` with the registry's CLI config (and, with --registry, its CA).
    provender::test::ProcessRun provender(const QStringList &args) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"TF_CLI_CONFIG_FILE"_s, m_cliConfig);
        env.insert(u"HOME"_s, m_tmp.filePath(u"home"_s));
        env.insert(u"HTTPS_PROXY"_s, u"http://127.0.0.1:9"_s);
        env.insert(u"NO_PROXY"_s, u"127.0.0.1"_s);
        return provender::test::runProcess(binary(), args, 180000, env);
    }

    /// The provenance entries `lock diff --json` gives for `hash` (added to the new file).
    static QJsonArray provenanceOf(const QByteArray &json, const QString &hash)
    {
        for (const QJsonValue &p : QJsonDocument::fromJson(json).object().value(u"providers"_s).toArray())
            for (const QJsonValue &h : p.toObject().value(u"hashes_added"_s).toArray())
                if (h.toObject().value(u"hash"_s).toString() == hash)
                    return h.toObject().value(u"provenance"_s).toArray();
        return {};
    }

    QString dest(const QString &name) const { return m_tmp.filePath(u"mirrors/"_s + name); }

    QJsonObject expected(const QString &type, const QString &version, const QString &platform) const
    {
        return m_expected.value(type).toObject().value(version).toObject().value(platform).toObject();
    }

    bool sign(const QString &type, const QString &version, const QString &fpr, bool otherBytes = false)
    {
        const QString base = m_root + u"/files/%1/%2/terraform-provider-%1_%2_SHA256SUMS"_s.arg(type, version);
        QByteArray doc = provender::test::readFile(base);
        if (otherBytes)
            doc += "0000000000000000000000000000000000000000000000000000000000000000  extra.zip\n";
        const QByteArray sig = m_gpg->sign(fpr, doc);
        QFile f(base + u".sig"_s);
        return !sig.isEmpty() && f.open(QIODevice::WriteOnly) && f.write(sig) == sig.size();
    }

private Q_SLOTS:
    void initTestCase()
    {
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
        const QString good = m_gpg->generateKey(u"Acme Releases <releases@acme.test>"_s);
        const QString other = m_gpg->generateKey(u"Somebody Else <else@acme.test>"_s);
        QVERIFY2(!good.isEmpty() && !other.isEmpty(), qPrintable(m_gpg->lastError()));
        m_goodFingerprint = good;
        m_goodKeyFile = m_tmp.filePath(u"good.asc"_s);
        m_otherKeyFile = m_tmp.filePath(u"other.asc"_s);
        for (const auto &[fpr, file] : {std::pair{good, m_goodKeyFile}, std::pair{other, m_otherKeyFile}}) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(m_gpg->exportKey(fpr));
        }

        m_root = m_tmp.filePath(u"registry"_s);
        const provender::test::ProcessRun made = provender::test::runProcess(
            u"python3"_s, {provender::test::sourceDir() + u"/tests/support/make_registry.py"_s, m_root, m_goodKeyFile}, 120000);
        QVERIFY2(made.exitCode == 0, made.err.constData());
        m_expected = QJsonDocument::fromJson(made.out).object();
        QVERIFY(!m_expected.isEmpty());
        for (const char *type :
             {"demo", "wrongsum", "nosum", "tampered", "unsafe", "packaged", "pkgzh", "pkgsize", "pkgmissing", "pkgh1", "pkgunsigned"})
            for (const QString &v : m_expected.value(QLatin1StringView(type)).toObject().keys())
                QVERIFY2(sign(QLatin1StringView(type), v, good), qPrintable(m_gpg->lastError()));
        QVERIFY(sign(u"badsig"_s, u"1.0.0"_s, good, true));
        QVERIFY(sign(u"unlisted"_s, u"1.0.0"_s, other));

        m_nginx = std::make_unique<provender::test::NginxFixture>();
        QString error;
        QVERIFY2(m_nginx->makeCertificates(&error), qPrintable(error));
        // The slow location lets the SIGKILL test catch a download half-way.
        QVERIFY2(m_nginx->start(m_root,
                                u"    location /v1/ { default_type application/json; }\n"
                                "    location /slow/ { alias %1/files/; limit_rate 2k; }\n"_s.arg(m_root),
                                {}, &error),
                 qPrintable(error));
        m_cliConfig = m_tmp.filePath(u"cli.tfrc"_s);
        QFile conf(m_cliConfig);
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write(u"host \"%1\" {\n  services = {\n    \"providers.v1\" = \"%2v1/providers/\"\n  }\n}\n"_s.arg(kHost, m_nginx->baseUrl())
                       .toUtf8());
        conf.close();
        QDir().mkpath(m_tmp.filePath(u"home"_s));
    }

    void pullsSignedArchivesAndIndexes()
    {
        const QString d = dest(u"good"_s);
        const provender::test::ProcessRun r =
            pull({d, kHost + u"/acme/demo=~> 1.0"_s, u"--platform"_s, u"linux_amd64"_s, u"--platform"_s, u"darwin_arm64"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        // ~> 1.0 picks 1.1.0 (newest, not the 2.0.0 prerelease).
        for (const QString &platform : {u"linux_amd64"_s, u"darwin_arm64"_s}) {
            const QJsonObject e = expected(u"demo"_s, u"1.1.0"_s, platform);
            const QString path = d + u'/' + kHost + u"/acme/demo/"_s + e.value(u"file"_s).toString();
            QCOMPARE(provender::test::readFile(path), provender::test::readFile(e.value(u"zip"_s).toString()));
            QVERIFY2(r.out.contains(QString(u"fetched "_s + kHost + u"/acme/demo 1.1.0 "_s + platform + u" (signed by key"_s).toUtf8()),
                     r.out.constData());
        }
        QVERIFY(!QFileInfo::exists(d + u'/' + kHost + u"/acme/demo/terraform-provider-demo_1.0.0_linux_amd64.zip"_s));
        // Indexes as terraform providers mirror writes them: the versions, and the h1: Python computed.
        const QJsonObject index =
            QJsonDocument::fromJson(provender::test::readFile(d + u'/' + kHost + u"/acme/demo/index.json"_s)).object();
        QCOMPARE(index.value(u"versions"_s).toObject().keys(), QStringList{u"1.1.0"_s});
        const QJsonObject version =
            QJsonDocument::fromJson(provender::test::readFile(d + u'/' + kHost + u"/acme/demo/1.1.0.json"_s)).object();
        const QJsonObject archive = version.value(u"archives"_s).toObject().value(u"linux_amd64"_s).toObject();
        QCOMPARE(archive.value(u"hashes"_s).toArray().first().toString(),
                 expected(u"demo"_s, u"1.1.0"_s, u"linux_amd64"_s).value(u"h1"_s).toString());
        // The provenance: the release's own SHA256SUMS and signature, byte for byte, and the key.
        const QString prov = d + u"/.provenance/"_s + kHost + u"/acme/demo/1.1.0/"_s;
        QCOMPARE(provender::test::readFile(prov + u"SHA256SUMS"_s),
                 provender::test::readFile(m_root + u"/files/demo/1.1.0/terraform-provider-demo_1.1.0_SHA256SUMS"_s));
        QCOMPARE(provender::test::readFile(prov + u"SHA256SUMS.sig"_s),
                 provender::test::readFile(m_root + u"/files/demo/1.1.0/terraform-provider-demo_1.1.0_SHA256SUMS.sig"_s));
        QVERIFY(provender::test::readFile(prov + u"keys.asc"_s).contains("BEGIN PGP PUBLIC KEY BLOCK"));
        QVERIFY(!QFileInfo::exists(d + u"/.provender-pull"_s));

        // Again: nothing is downloaded (nginx saw no second GET of a zip), the files are the same.
        const QMap<QString, QByteArray> before = provender::test::fileTree(d);
        const int zipGets = int(provender::test::readFile(m_nginx->accessLogPath()).count(".zip "));
        const provender::test::ProcessRun again =
            pull({d, kHost + u"/acme/demo=~> 1.0"_s, u"--platform"_s, u"linux_amd64"_s, u"--platform"_s, u"darwin_arm64"_s});
        QVERIFY2(again.exitCode == 0, QByteArray(again.out + again.err).constData());
        QVERIFY2(again.out.contains(QByteArray("present " + kHost.toUtf8() + "/acme/demo 1.1.0 linux_amd64")), again.out.constData());
        QCOMPARE(int(provender::test::readFile(m_nginx->accessLogPath()).count(".zip ")), zipGets);
        QCOMPARE(provender::test::fileTree(d), before);
    }

    void pullsWhatALockFilePins()
    {
        const QString lock = m_tmp.filePath(u"pins.hcl"_s);
        QFile f(lock);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("provider \"" + kHost.toUtf8() + "/acme/demo\" {\n  version = \"1.0.0\"\n}\n"));
        f.close();
        const QString d = dest(u"locked"_s);
        const provender::test::ProcessRun r = pull({d, u"--lock"_s, lock, u"--platform"_s, u"linux_amd64"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QJsonArray archives = QJsonDocument::fromJson(r.out).object().value(u"archives"_s).toArray();
        QCOMPARE(archives.size(), 1);
        QCOMPARE(archives.at(0).toObject().value(u"version"_s).toString(), u"1.0.0"_s);
        QCOMPARE(archives.at(0).toObject().value(u"status"_s).toString(), u"fetched"_s);
        QVERIFY(archives.at(0).toObject().value(u"signed_by"_s).toString().size() == 16);
    }

    void lockDiffNamesPlatformsFromSignedSums()
    {
        // A mirror pulled for linux_amd64 only keeps the release's signed SHA256SUMS, which lists
        // darwin_arm64 too: `lock diff --mirror` names the platform of darwin_arm64's zh: although
        // that archive is not on disk (issue 19 item 5), and says who signed the list. The key ID
        // is the last 16 hex digits of the fingerprint gpg gave.
        const QString d = dest(u"provenance"_s);
        const provender::test::ProcessRun pulled = pull({d, kHost + u"/acme/demo=1.1.0"_s, u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(pulled.exitCode == 0, QByteArray(pulled.out + pulled.err).constData());
        const QString linuxZh = u"zh:"_s + expected(u"demo"_s, u"1.1.0"_s, u"linux_amd64"_s).value(u"sha256"_s).toString();
        const QString darwinZh = u"zh:"_s + expected(u"demo"_s, u"1.1.0"_s, u"darwin_arm64"_s).value(u"sha256"_s).toString();
        QVERIFY(darwinZh.size() == 67 && linuxZh.size() == 67);
        const QByteArray block = "provider \"" + kHost.toUtf8() + "/acme/demo\" {\n  version = \"1.1.0\"\n";
        const QString before = m_tmp.filePath(u"diff-before.hcl"_s), after = m_tmp.filePath(u"diff-after.hcl"_s);
        QVERIFY(writeFile(before, block + "}\n"));
        QVERIFY(writeFile(after, block + "  hashes = [\n    \"" + darwinZh.toUtf8() + "\",\n    \"" + linuxZh.toUtf8() + "\",\n  ]\n}\n"));
        const QString keyId = m_goodFingerprint.right(16);

        provender::test::ProcessRun diff = provender({u"lock"_s, u"diff"_s, before, after, u"--mirror"_s, d, u"--json"_s});
        QCOMPARE(diff.exitCode, 1); // they differ
        QJsonArray darwin = provenanceOf(diff.out, darwinZh);
        QCOMPARE(darwin.size(), 1);
        QCOMPARE(darwin.at(0).toObject().value(u"platform"_s).toString(), u"darwin_arm64"_s);
        QCOMPARE(darwin.at(0).toObject().value(u"origin"_s).toString(), u"zh (SHA256SUMS)"_s);
        QCOMPARE(darwin.at(0).toObject().value(u"note"_s).toString(), u"signed by key ID "_s + keyId);
        // linux_amd64 is on disk: its zh: comes from the archive itself, listed once.
        const QJsonArray linux = provenanceOf(diff.out, linuxZh);
        QCOMPARE(linux.size(), 1);
        QCOMPARE(linux.at(0).toObject().value(u"platform"_s).toString(), u"linux_amd64"_s);
        QCOMPARE(linux.at(0).toObject().value(u"origin"_s).toString(), u"zh"_s);
        // The text form says the same.
        diff = provender({u"lock"_s, u"diff"_s, before, after, u"--mirror"_s, d});
        QVERIFY2(
            diff.out.contains(QString(darwinZh + u"  (darwin_arm64 1.1.0 zh (SHA256SUMS), signed by key ID "_s + keyId + u')').toUtf8()),
            diff.out.constData());

        // From the origin registry instead of a mirror: the same platform, the list's URL as source.
        diff = provender({u"lock"_s, u"diff"_s, before, after, u"--registry"_s, u"--ca-file"_s, m_nginx->caFile(), u"--json"_s});
        QCOMPARE(diff.exitCode, 1);
        darwin = provenanceOf(diff.out, darwinZh);
        QCOMPARE(darwin.size(), 1);
        QCOMPARE(darwin.at(0).toObject().value(u"platform"_s).toString(), u"darwin_arm64"_s);
        QVERIFY(darwin.at(0).toObject().value(u"archive"_s).toString().startsWith(m_nginx->baseUrl()));
        QCOMPARE(provenanceOf(diff.out, linuxZh).at(0).toObject().value(u"platform"_s).toString(), u"linux_amd64"_s);

        // Pinned to another key: the signed list is not used, with the reason; nothing is named.
        diff = provender({u"lock"_s, u"diff"_s, before, after, u"--mirror"_s, d, u"--pinned-keys"_s, m_otherKeyFile, u"--json"_s});
        QVERIFY2(diff.err.contains("is not used"), diff.err.constData());
        QVERIFY(provenanceOf(diff.out, darwinZh).isEmpty());

        // One flipped byte in the kept SHA256SUMS: the signature no longer holds, so nothing is named.
        const QString sums = d + u"/.provenance/"_s + kHost + u"/acme/demo/1.1.0/SHA256SUMS"_s;
        QByteArray bytes = provender::test::readFile(sums);
        bytes[10] = bytes[10] == 'a' ? 'b' : 'a';
        QVERIFY(writeFile(sums, bytes));
        diff = provender({u"lock"_s, u"diff"_s, before, after, u"--mirror"_s, d, u"--json"_s});
        QVERIFY2(diff.err.contains("SHA256SUMS") && diff.err.contains("is not used"), diff.err.constData());
        QVERIFY(provenanceOf(diff.out, darwinZh).isEmpty());
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("reason");
        QTest::newRow("SHA256SUMS lists another sum") << u"wrongsum"_s << QStringList() << u"checksum list has unexpected SHA-256 hash"_s;
        QTest::newRow("SHA256SUMS lacks the archive") << u"nosum"_s << QStringList() << u"checksum list has no SHA-256 hash for"_s;
        QTest::newRow("archive is not what shasum says") << u"tampered"_s << QStringList() << u"archive has incorrect checksum"_s;
        QTest::newRow("signature over other bytes") << u"badsig"_s << QStringList() << u"invalid signature"_s;
        QTest::newRow("signed by an unlisted key") << u"unlisted"_s << QStringList() << u"unknown issuer"_s;
        QTest::newRow("key not pinned") << u"demo"_s << QStringList{u"--pinned-keys"_s, m_otherKeyFile} << u"not one of the pinned keys"_s;
    }

    void refusals()
    {
        QFETCH(QString, type);
        QFETCH(QStringList, extra);
        QFETCH(QString, reason);
        const QString d = dest(u"refused-"_s + type);
        // A mirror with something in it already: a refusal must leave it exactly as it was.
        QVERIFY(QDir().mkpath(d + u"/example.com/acme/kept"_s));
        QFile keep(d + u"/example.com/acme/kept/terraform-provider-kept_1.0.0_linux_amd64.zip"_s);
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.write("kept");
        keep.close();
        const QMap<QString, QByteArray> before = provender::test::fileTree(d);
        const provender::test::ProcessRun r =
            pull(QStringList{d, kHost + u"/acme/"_s + type + u"=1.0.0"_s, u"--platform"_s, u"linux_amd64"_s} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QByteArray("refused " + kHost.toUtf8() + "/acme/" + type.toUtf8() + " 1.0.0 linux_amd64: ")),
                 r.out.constData());
        QVERIFY2(r.out.contains(reason.toUtf8()), r.out.constData());
        QCOMPARE(provender::test::fileTree(d), before);
    }

    void unpackedLayout()
    {
        const QString d = dest(u"unpacked"_s);
        const QStringList args{
            d, kHost + u"/acme/demo=1.1.0"_s, u"--platform"_s, u"linux_amd64"_s, u"--platform"_s, u"darwin_arm64"_s, u"--unpacked"_s};
        const provender::test::ProcessRun r = pull(args);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        for (const QString &platform : {u"linux_amd64"_s, u"darwin_arm64"_s}) {
            // What Python's zipfile says the archive holds: name -> [sha256, executable].
            const QString zip = expected(u"demo"_s, u"1.1.0"_s, platform).value(u"zip"_s).toString();
            const provender::test::ProcessRun listed = provender::test::runProcess(
                u"python3"_s,
                {u"-c"_s,
                 u"import hashlib, json, sys, zipfile\n"
                 "z = zipfile.ZipFile(sys.argv[1])\n"
                 "print(json.dumps({i.filename: [hashlib.sha256(z.read(i)).hexdigest(), bool((i.external_attr >> 16) & 0o111)]"
                 " for i in z.infolist() if not i.is_dir()}))\n"_s,
                 zip},
                60000);
            QVERIFY2(listed.exitCode == 0, listed.err.constData());
            const QJsonObject want = QJsonDocument::fromJson(listed.out).object();
            QVERIFY(want.contains(u"docs/README.md"_s) && want.contains(u"terraform-provider-demo_v1.1.0"_s));
            const QString pkg = d + u'/' + kHost + u"/acme/demo/1.1.0/"_s + platform;
            QJsonObject got;
            QDirIterator it(pkg, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString f = it.next();
                got.insert(f.mid(pkg.size() + 1),
                           QJsonArray{QString::fromLatin1(
                                          QCryptographicHash::hash(provender::test::readFile(f), QCryptographicHash::Sha256).toHex()),
                                      bool(QFileInfo(f).permissions() & QFileDevice::ExeOwner)});
            }
            QCOMPARE(got, want);
        }
        // No zip and no index in an unpacked mirror; the provenance is kept as for a packed one.
        QVERIFY(!QFileInfo::exists(d + u'/' + kHost + u"/acme/demo/index.json"_s));
        QVERIFY(!QFileInfo::exists(d + u'/' + kHost + u"/acme/demo/terraform-provider-demo_1.1.0_linux_amd64.zip"_s));
        QVERIFY(QFileInfo::exists(d + u"/.provenance/"_s + kHost + u"/acme/demo/1.1.0/SHA256SUMS.sig"_s));
        QVERIFY(!QFileInfo::exists(d + u"/.provender-pull"_s));
        // Again: the folders are there with the archive's h1:, so they stay as they are.
        const QMap<QString, QByteArray> before = provender::test::fileTree(d);
        const provender::test::ProcessRun again = pull(args);
        QVERIFY2(again.exitCode == 0, QByteArray(again.out + again.err).constData());
        QVERIFY2(again.out.contains(QByteArray("present " + kHost.toUtf8() + "/acme/demo 1.1.0 linux_amd64")), again.out.constData());
        QCOMPARE(provender::test::fileTree(d), before);
    }

    void unpackedRefusesUnsafeEntries()
    {
        const QString d = dest(u"unpacked-unsafe"_s);
        QVERIFY(QDir().mkpath(d));
        const QMap<QString, QByteArray> before = provender::test::fileTree(d);
        const provender::test::ProcessRun r =
            pull({d, kHost + u"/acme/unsafe=1.0.0"_s, u"--platform"_s, u"linux_amd64"_s, u"--unpacked"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QByteArray("refused " + kHost.toUtf8() + "/acme/unsafe 1.0.0 linux_amd64: cannot be unpacked safely")),
                 r.out.constData());
        QVERIFY2(r.out.contains("escape.txt"), r.out.constData());
        QCOMPARE(provender::test::fileTree(d), before);
        QVERIFY(!QFileInfo::exists(m_tmp.filePath(u"mirrors/escape.txt"_s)));
        QVERIFY(!QFileInfo::exists(d + u'/' + kHost + u"/acme/unsafe/1.0.0"_s));
    }

    /// `lock add-hashes --registry` on a lock file pinning acme/TYPE 1.0.0, for linux_amd64.
    provender::test::ProcessRun addHashes(const QString &lock, const QString &type) const
    {
        if (!writeFile(lock, QByteArray("provider \"" + kHost.toUtf8() + "/acme/" + type.toUtf8() + "\" {\n  version = \"1.0.0\"\n}\n")))
            return {};
        return provender(
            {u"lock"_s, u"add-hashes"_s, lock, u"--registry"_s, u"--ca-file"_s, m_nginx->caFile(), u"--platform"_s, u"linux_amd64"_s});
    }

    static QStringList lockedHashes(const QByteArray &lock)
    {
        QStringList out;
        for (const QByteArray &line : lock.split('\n'))
            if (const QByteArray t = line.trimmed(); t.startsWith("\"h1:") || t.startsWith("\"zh:"))
                out << QString::fromLatin1(t.mid(1, t.indexOf('"', 1) - 1));
        return out;
    }

    void addHashesRecordsRegistryPackages()
    {
        // A registry that publishes `packages` (OpenTofu's, rfc/20251027-provider-registry-hashes.md):
        // asked for linux_amd64 only, the lock file gets darwin_arm64's h1: too — from the document,
        // as tofu's installer records hashes ReportedByRegistry — and Python's h1: is that value.
        // Only the linux_amd64 zip was downloaded (tofu also downloads each platform it is asked for).
        const QString lock = m_tmp.filePath(u"packaged.hcl"_s);
        const int darwinGets = int(provender::test::readFile(m_nginx->accessLogPath()).count("packaged_1.0.0_darwin_arm64.zip"));
        const provender::test::ProcessRun r = addHashes(lock, u"packaged"_s);
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QStringList want;
        for (const QString &platform : {u"linux_amd64"_s, u"darwin_arm64"_s}) {
            want << expected(u"packaged"_s, u"1.0.0"_s, platform).value(u"h1_extracted"_s).toString();
            want << u"zh:"_s + expected(u"packaged"_s, u"1.0.0"_s, platform).value(u"sha256"_s).toString();
        }
        want.sort();
        QCOMPARE(lockedHashes(provender::test::readFile(lock)), want);
        QCOMPARE(int(provender::test::readFile(m_nginx->accessLogPath()).count("packaged_1.0.0_darwin_arm64.zip")), darwinGets);

        // Without `packages` (demo): darwin_arm64 has its zh: from the signed SHA256SUMS, but no h1:.
        const provender::test::ProcessRun plain = addHashes(lock, u"demo"_s);
        QVERIFY2(plain.exitCode == 0, QByteArray(plain.out + plain.err).constData());
        const QStringList got = lockedHashes(provender::test::readFile(lock));
        QVERIFY(!got.contains(expected(u"demo"_s, u"1.0.0"_s, u"darwin_arm64"_s).value(u"h1_extracted"_s).toString()));
        QVERIFY(got.contains(u"zh:"_s + expected(u"demo"_s, u"1.0.0"_s, u"darwin_arm64"_s).value(u"sha256"_s).toString()));
        QCOMPARE(got.size(), 3);
    }

    void packagesRefusals_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("reason");
        // tofu's registryPackageAuthentication, in its words.
        QTest::newRow("zh: is not the shasum") << u"pkgzh"_s << u"registry response expected sha256sum is \""_s;
        QTest::newRow("package_size is not the archive's")
            << u"pkgsize"_s
            << u"registry response indicates a package of size %1, but received a package of size %2"_s
                   .arg(expected(u"pkgsize"_s, u"1.0.0"_s, u"linux_amd64"_s).value(u"size"_s).toInt() + 1)
                   .arg(expected(u"pkgsize"_s, u"1.0.0"_s, u"linux_amd64"_s).value(u"size"_s).toInt());
        QTest::newRow("no entry for the platform")
            << u"pkgmissing"_s << u"registry response missing package with platform \"linux_amd64\""_s;
    }

    void packagesRefusals()
    {
        QFETCH(QString, type);
        QFETCH(QString, reason);
        // `mirror pull`: refused, the mirror as it was (here: empty, so not created beyond staging).
        const QString d = dest(u"pkg-"_s + type);
        QVERIFY(QDir().mkpath(d));
        const provender::test::ProcessRun r = pull({d, kHost + u"/acme/"_s + type + u"=1.0.0"_s, u"--platform"_s, u"linux_amd64"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QByteArray("refused " + kHost.toUtf8() + "/acme/" + type.toUtf8() + " 1.0.0 linux_amd64: ")),
                 r.out.constData());
        QVERIFY2(r.out.contains(reason.toUtf8()), r.out.constData());
        QCOMPARE(provender::test::fileTree(d), (QMap<QString, QByteArray>{}));
        // `lock add-hashes --registry`: the lock file stays as it was.
        const QString lock = m_tmp.filePath(u"pkg-"_s + type + u".hcl"_s);
        const provender::test::ProcessRun a = addHashes(lock, type);
        QCOMPARE(a.exitCode, 1);
        QVERIFY2(a.err.contains(reason.toUtf8()), a.err.constData());
        QCOMPARE(provender::test::readFile(lock),
                 QByteArray("provider \"" + kHost.toUtf8() + "/acme/" + type.toUtf8() + "\" {\n  version = \"1.0.0\"\n}\n"));
    }

    void addHashesRefusesReportedHashesThatDisagree_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("reason");
        QTest::newRow("h1: is not the archive's") << u"pkgh1"_s
                                                  << u"the registry reports an h1: that is not the archive's ("_s
                + expected(u"pkgh1"_s, u"1.0.0"_s, u"linux_amd64"_s).value(u"h1_extracted"_s).toString();
        QTest::newRow("zh: the signature does not cover") << u"pkgunsigned"_s << u", which the signed SHA256SUMS does not list"_s;
    }

    void addHashesRefusesReportedHashesThatDisagree()
    {
        // tofu accepts both (it checks only the downloaded platform's size and zh:, and records the
        // rest unchecked); `mirror pull` does too. `lock add-hashes` is stricter: nothing is written.
        QFETCH(QString, type);
        QFETCH(QString, reason);
        const provender::test::ProcessRun pulled =
            pull({dest(u"pkg-"_s + type), kHost + u"/acme/"_s + type + u"=1.0.0"_s, u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(pulled.exitCode == 0, QByteArray(pulled.out + pulled.err).constData());
        const QString lock = m_tmp.filePath(u"pkg-"_s + type + u".hcl"_s);
        const provender::test::ProcessRun a = addHashes(lock, type);
        QCOMPARE(a.exitCode, 1);
        QVERIFY2(a.err.contains(reason.toUtf8()), a.err.constData());
        QVERIFY2(a.err.contains("not changed"), a.err.constData());
        QCOMPARE(provender::test::readFile(lock),
                 QByteArray("provider \"" + kHost.toUtf8() + "/acme/" + type.toUtf8() + "\" {\n  version = \"1.0.0\"\n}\n"));
    }

    void badRequests_data()
    {
        // Arguments after DEST; what stderr must name (the argument as typed, the file and line).
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("named");
        QTest::newRow("address with an empty namespace") << QStringList{kHost + u"//demo"_s} << QStringList{kHost + u"//demo:"_s};
        QTest::newRow("address with too many parts") << QStringList{u"a/b/c/d"_s} << QStringList{u"a/b/c/d:"_s};
        QTest::newRow("bad constraint") << QStringList{kHost + u"/acme/demo=~> banana"_s}
                                        << QStringList{kHost + u"/acme/demo=~> banana:"_s};
        QTest::newRow("good then bad") << QStringList{kHost + u"/acme/demo"_s, u"not an address"_s} << QStringList{u"not an address:"_s};
        QTest::newRow("missing lock file") << QStringList{u"--lock"_s, u"@TMP@/no-such.lock.hcl"_s}
                                           << QStringList{u"@TMP@/no-such.lock.hcl"_s};
        // Two errors (lines 2 and 5): both are reported, each with its file and line.
        QTest::newRow("broken lock file") << QStringList{u"--lock"_s, u"@TMP@/broken.lock.hcl"_s}
                                          << QStringList{u"@TMP@/broken.lock.hcl:2:"_s, u"@TMP@/broken.lock.hcl:5:"_s};
    }

    void badRequests()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, named);
        QVERIFY(writeFile(m_tmp.filePath(u"broken.lock.hcl"_s),
                          "provider \"registry.terraform.io/hashicorp/null\" {\n"
                          "  version = 3\n"
                          "}\n"
                          "provider \"registry.terraform.io/hashicorp/random\" {\n"
                          "  version = [\n"
                          "}\n"));
        for (QString &a : args)
            a.replace(u"@TMP@"_s, m_tmp.path());
        const QString d = dest(u"bad-request-"_s + QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-'));
        const provender::test::ProcessRun r = pull(QStringList{d} + args + QStringList{u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(r.exitCode == 2, QByteArray(r.out + r.err).constData());
        for (QString n : named) {
            n.replace(u"@TMP@"_s, m_tmp.path());
            QVERIFY2(r.err.contains(n.toUtf8()), r.err.constData());
        }
        QVERIFY2(r.err.startsWith("provender mirror pull: "), r.err.constData());
        QVERIFY(!QFileInfo::exists(d)); // nothing requested, nothing written
    }

    void dryRunWritesNothing()
    {
        const QString d = dest(u"dry"_s);
        const provender::test::ProcessRun r = pull({d, kHost + u"/acme/demo"_s, u"--platform"_s, u"linux_amd64"_s, u"--dry-run"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.out.contains(QByteArray("would fetch " + kHost.toUtf8() + "/acme/demo 1.1.0 linux_amd64")), r.out.constData());
        QVERIFY(!QFileInfo::exists(d));
    }

    void killedPullLeavesNoPartialFile()
    {
        // The download documents of a copy of demo point at the rate-limited /slow/ location.
        const QString slowDoc = m_root + u"/v1/providers/acme/demo/1.0.0/download/linux/amd64"_s;
        const QByteArray original = provender::test::readFile(slowDoc);
        QByteArray slowed = original;
        slowed.replace("\"/files/demo/1.0.0/terraform-provider-demo_1.0.0_linux_amd64.zip\"",
                       "\"/slow/demo/1.0.0/terraform-provider-demo_1.0.0_linux_amd64.zip\"");
        QVERIFY(slowed != original);
        {
            QFile f(slowDoc);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(slowed);
        }
        const QString d = dest(u"killed"_s);
        const QString final = d + u'/' + kHost + u"/acme/demo/terraform-provider-demo_1.0.0_linux_amd64.zip"_s;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"TF_CLI_CONFIG_FILE"_s, m_cliConfig);
        env.insert(u"HOME"_s, m_tmp.filePath(u"home"_s));
        p.setProcessEnvironment(env);
        p.start(binary(),
                {u"mirror"_s, u"pull"_s, d, kHost + u"/acme/demo=1.0.0"_s, u"--platform"_s, u"linux_amd64"_s, u"--ca-file"_s,
                 m_nginx->caFile()});
        QVERIFY(p.waitForStarted());
        // Wait until bytes have arrived in the staging folder, then SIGKILL.
        const QString staging = d + u"/.provender-pull/terraform-provider-demo_1.0.0_linux_amd64.zip"_s;
        QVERIFY(QTest::qWaitFor([&] { return QFileInfo(staging).size() > 0 || p.state() == QProcess::NotRunning; }, 120000));
        QVERIFY2(p.state() == QProcess::Running, "the rate-limited download finished before it could be killed");
        ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished();
        QVERIFY(!QFileInfo::exists(final));
        {
            QFile f(slowDoc);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(original);
        }
        const provender::test::ProcessRun r = pull({d, kHost + u"/acme/demo=1.0.0"_s, u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(provender::test::readFile(final),
                 provender::test::readFile(expected(u"demo"_s, u"1.0.0"_s, u"linux_amd64"_s).value(u"zip"_s).toString()));
        QVERIFY(!QFileInfo::exists(d + u"/.provender-pull"_s));
    }
};

QTEST_GUILESS_MAIN(TestMirrorPull)
#include "tst_mirror_pull.moc"
