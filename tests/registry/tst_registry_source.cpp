// An origin registry as a MirrorSource (model/registry/RegistrySource): make_registry.py's tree
// (zips, SHA256SUMS, download documents with and without `packages`, every hash from Python's
// hashlib/zipfile) served by nginx over TLS, its SHA256SUMS signed by a key gpg makes here. The
// catalog's versions, platforms and declared hashes are Python's; verdicts go through the same
// engine as every source's, with the anchor "signed by key ID X" where X is what gpg itself says of
// the key; every broken link of the chain is a refusal with its reason, and nothing is downloaded
// for a refused archive.

#include "model/registry/RegistrySource.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/RegistryFixture.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace provender;

class TestRegistrySource : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::RegistryFixture m_registry;
    QString m_keyId;
    QByteArray m_otherKey;

    RegistryOptions options() const
    {
        RegistryOptions o;
        o.http.caCertificates = QSslCertificate::fromPath(m_registry.caFile());
        o.serviceOverrides.insert(test::RegistryFixture::host(), QUrl(m_registry.baseUrl() + u"v1/providers/"_s));
        o.environment = m_registry.environment();
        o.useCredentials = false;
        o.http.maxParallel = 2;
        return o;
    }

    static PullRequest want(const QString &type, const QString &version = {})
    {
        PullRequest r;
        r.provider = ProviderAddress::parse(QString(test::RegistryFixture::host() + u"/acme/"_s + type)).value();
        if (!version.isEmpty())
            r.exact = Version::parse(version).value();
        return r;
    }

    QJsonObject expected(const QString &type, const QString &version, const QString &platform) const
    {
        return m_registry.expected().value(type).toObject().value(version).toObject().value(platform).toObject();
    }

    /// verifySource over everything the source lists: "provider version platform" -> result.
    static QHash<QString, ArchiveResult> verify(RegistrySource &source)
    {
        const Result<Catalog> listed = source.list();
        if (!listed)
            return {};
        VerifyOptions vo;
        vo.useCache = false;
        QHash<QString, ArchiveResult> out;
        for (const ArchiveResult &r : verifySource(source, *listed, vo).results)
            out.insert(r.key.toString(), r);
        return out;
    }

    QString key(const QString &type, const QString &version, const QString &platform) const
    {
        return test::RegistryFixture::host() + u"/acme/"_s + type + u' ' + version + u' ' + platform;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::RegistryFixture::missingTools());
        QString error;
        QVERIFY2(m_registry.start(m_tmp.path(), &error), qPrintable(error));
        // The key ID as gpg itself gives it (the last 16 hex digits of the fingerprint).
        const test::ProcessRun shown = test::runProcess(u"gpg"_s, {u"--with-colons"_s, u"--show-keys"_s, m_tmp.filePath(u"key.asc"_s)},
                                                        60000, m_registry.environment());
        QVERIFY2(shown.exitCode == 0, shown.err.constData());
        for (const QByteArray &line : shown.out.split('\n'))
            if (line.startsWith("fpr:") && m_keyId.isEmpty())
                m_keyId = QString::fromLatin1(line.split(':').value(9)).right(16);
        QCOMPARE(m_keyId.size(), 16);
        // unlisted: signed by a key the registry does not list; badsig: SHA256SUMS changed after signing.
        const QString other = m_registry.gpg().generateKey(u"Somebody Else <else@acme.test>"_s);
        QVERIFY2(!other.isEmpty(), qPrintable(m_registry.gpg().lastError()));
        m_otherKey = m_registry.gpg().exportKey(other);
        const QString files = m_registry.root() + u"/files/"_s;
        const QString unlisted = files + u"unlisted/1.0.0/terraform-provider-unlisted_1.0.0_SHA256SUMS"_s;
        QFile sig(unlisted + u".sig"_s);
        QVERIFY(sig.open(QIODevice::WriteOnly | QIODevice::Truncate));
        sig.write(m_registry.gpg().sign(other, test::readFile(unlisted)));
        sig.close();
        QFile badsig(files + u"badsig/1.0.0/terraform-provider-badsig_1.0.0_SHA256SUMS"_s);
        QVERIFY(badsig.open(QIODevice::Append));
        badsig.write("0000000000000000000000000000000000000000000000000000000000000000  extra.zip\n");
    }

    void catalog()
    {
        // demo without a version or platforms: every version, the platforms its versions document lists.
        RegistrySource source(options(), {want(u"demo"_s), want(u"packaged"_s, u"1.0.0"_s)});
        const Result<Catalog> c = source.list();
        QVERIFY2(c.ok(), c.ok() ? "" : qPrintable(c.error().message));
        QCOMPARE(c->root, source.location());
        QCOMPARE(c->root, u"registry:"_s + test::RegistryFixture::host());
        QVERIFY(c->anomalies.isEmpty());
        QCOMPARE(c->providers.size(), 2);
        const Provider &demo = c->providers.at(0);
        QCOMPARE(demo.address.type(), u"demo"_s);
        QStringList versions;
        for (const ProviderVersion &v : demo.versions)
            versions << v.version.toString();
        QStringList pythonVersions = m_registry.expected().value(u"demo"_s).toObject().keys();
        QCOMPARE(versions, (QStringList{u"1.0.0"_s, u"1.1.0"_s, u"2.0.0-beta1"_s}));
        QCOMPARE(pythonVersions.size(), versions.size());
        for (const ProviderVersion &v : demo.versions) {
            QCOMPARE(v.archives.size(), 2);
            for (const Archive &a : v.archives) {
                const QJsonObject e = expected(u"demo"_s, v.version.toString(), a.platform.toString());
                QCOMPARE(a.fileName, e.value(u"file"_s).toString());
                QVERIFY(a.declared.has_value());
                // No `packages`: the document's shasum only, as zh:.
                QCOMPARE(a.declared->hashes, (QList<HashString>{HashString::zh(e.value(u"sha256"_s).toString())}));
                QVERIFY(a.path.startsWith(m_registry.baseUrl()));
            }
        }
        // packaged: the shasum and the platform's `packages` h1: (Python's), its size.
        const Provider &packaged = c->providers.at(1);
        QCOMPARE(packaged.versions.size(), 1);
        for (const Archive &a : packaged.versions.at(0).archives) {
            const QJsonObject e = expected(u"packaged"_s, u"1.0.0"_s, a.platform.toString());
            QCOMPARE(a.declared->hashes,
                     (QList<HashString>{HashString::zh(e.value(u"sha256"_s).toString()),
                                        HashString::parse(e.value(u"h1_extracted"_s).toString()).value()}));
            QCOMPARE(a.size, qint64(e.value(u"size"_s).toInteger()));
        }
    }

    void signedVerdicts()
    {
        RegistrySource source(options(), {want(u"demo"_s, u"1.1.0"_s), want(u"packaged"_s, u"1.0.0"_s)},
                              {Platform(u"linux"_s, u"amd64"_s), Platform(u"darwin"_s, u"arm64"_s)});
        const QHash<QString, ArchiveResult> got = verify(source);
        QCOMPARE(got.size(), 4);
        for (const QString &type : {u"demo"_s, u"packaged"_s}) {
            const QString version = type == u"demo"_s ? u"1.1.0"_s : u"1.0.0"_s;
            for (const QString &platform : {u"linux_amd64"_s, u"darwin_arm64"_s}) {
                const ArchiveResult r = got.value(key(type, version, platform));
                QVERIFY2(r.detail.verdict == Verdict::Verified, qPrintable(key(type, version, platform) + u": "_s + r.detail.reason));
                QVERIFY(r.hashes.has_value());
                QCOMPARE(r.hashes->zh.toString(), u"zh:"_s + expected(type, version, platform).value(u"sha256"_s).toString());
                QCOMPARE(r.hashes->h1Extracted.toString(), expected(type, version, platform).value(u"h1_extracted"_s).toString());
                QCOMPARE(r.detail.anchors.size(), 1);
                QVERIFY(r.detail.anchors.at(0).kind == TrustAnchor::Kind::Signature);
                const QString sums = m_registry.baseUrl() + u"files/%1/%2/terraform-provider-%1_%2_SHA256SUMS"_s.arg(type, version);
                QCOMPARE(r.detail.anchors.at(0).document, sums + u" signed by key ID "_s + m_keyId);
            }
        }
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("pinOther");
        QTest::addColumn<QString>("reason");
        QTest::newRow("sum missing") << u"nosum"_s << false << u"checksum list has no SHA-256 hash for"_s;
        QTest::newRow("another sum") << u"wrongsum"_s << false << u"checksum list has unexpected SHA-256 hash"_s;
        QTest::newRow("bad signature") << u"badsig"_s << false << u"invalid signature"_s;
        QTest::newRow("unlisted key") << u"unlisted"_s << false << u"unknown issuer"_s;
        QTest::newRow("unpinned key") << u"demo"_s << true << u"not one of the pinned keys"_s;
        QTest::newRow("packages size") << u"pkgsize"_s << false << u"registry response indicates a package of size"_s;
        QTest::newRow("packages zh:") << u"pkgzh"_s << false << u"registry response expected sha256sum is"_s;
    }

    void refusals()
    {
        QFETCH(QString, type);
        QFETCH(bool, pinOther);
        QFETCH(QString, reason);
        SignatureOptions signature;
        if (pinOther)
            signature.pinnedKeys << m_otherKey;
        const QString version = u"1.0.0"_s;
        RegistrySource source(options(), {want(type, version)}, {Platform(u"linux"_s, u"amd64"_s)}, signature);
        const QHash<QString, ArchiveResult> got = verify(source);
        QCOMPARE(got.size(), 1);
        const ArchiveResult r = got.value(key(type, version, u"linux_amd64"_s));
        QCOMPARE(toString(r.detail.verdict), u"refused"_s);
        QVERIFY2(r.detail.reason.contains(reason), qPrintable(r.detail.reason));
        QVERIFY(r.detail.anchors.isEmpty());
        // Refused before a download (all but the size check, which needs the bytes): no zip asked for.
        int zipRequests = 0;
        for (const RequestLogEntry &e : source.requestLog())
            zipRequests += e.url.path().endsWith(u".zip"_s);
        QCOMPARE(zipRequests, type == u"pkgsize"_s ? 1 : 0);
    }

    void tamperedDownloadIsAMismatch()
    {
        // The bytes served are not the document's shasum: the engine's zh: check, as from any source.
        RegistrySource source(options(), {want(u"tampered"_s, u"1.0.0"_s)}, {Platform(u"linux"_s, u"amd64"_s)});
        const ArchiveResult r = verify(source).value(key(u"tampered"_s, u"1.0.0"_s, u"linux_amd64"_s));
        QCOMPARE(toString(r.detail.verdict), u"mismatch"_s);
        QCOMPARE(r.detail.contradicting,
                 (QList<HashString>{HashString::zh(expected(u"tampered"_s, u"1.0.0"_s, u"linux_amd64"_s).value(u"sha256"_s).toString())}));
    }

    void openArchive()
    {
        RegistrySource source(options(), {want(u"demo"_s, u"1.1.0"_s)}, {Platform(u"linux"_s, u"amd64"_s)});
        const Result<Catalog> c = source.list();
        QVERIFY(c.ok());
        const Archive &a = c->providers.at(0).versions.at(0).archives.at(0);
        Result<std::unique_ptr<QIODevice>> dev = source.openArchive(a);
        QVERIFY2(dev.ok(), dev.ok() ? "" : qPrintable(dev.error().message));
        QCOMPARE(QString::fromLatin1(QCryptographicHash::hash((*dev)->readAll(), QCryptographicHash::Sha256).toHex()),
                 expected(u"demo"_s, u"1.1.0"_s, u"linux_amd64"_s).value(u"sha256"_s).toString());
        // A refused archive is never opened.
        RegistrySource refused(options(), {want(u"nosum"_s, u"1.0.0"_s)}, {Platform(u"linux"_s, u"amd64"_s)});
        const Result<Catalog> rc = refused.list();
        QVERIFY(rc.ok());
        QVERIFY(!refused.openArchive(rc->providers.at(0).versions.at(0).archives.at(0)).ok());
    }
};

QTEST_GUILESS_MAIN(TestRegistrySource)
#include "tst_registry_source.moc"
