// The release trust chain: SHA256SUMS + detached OpenPGP signature + the registry's signing keys,
// checked with GPGME in a private keyring. Keys and signatures are made by the real `gpg` in the
// test; expected sums come from coreutils' sha256sum, not from our own code.

#include "model/registry/RegistryDocuments.h"
#include "model/registry/ReleaseSignature.h"
#include "tests/support/GpgFixture.h"
#include "tests/support/TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

/// sha256sum(1) of `data`, raw bytes.
QByteArray coreutilsSha256(const QByteArray &data)
{
    QTemporaryDir dir;
    QFile f(dir.filePath(u"blob"_s));
    f.open(QIODevice::WriteOnly);
    f.write(data);
    f.close();
    const test::ProcessRun r = test::runProcess(u"sha256sum"_s, {f.fileName()}, 30000);
    return QByteArray::fromHex(r.out.left(64));
}

} // namespace

class TestRegistrySignature : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::GpgFixture> m_gpg;
    QString m_good, m_other, m_expired, m_revoked;
    QByteArray m_goodKey, m_otherKey, m_expiredKey, m_revokedKey;
    QByteArray m_sums;
    QByteArray m_zipA = "fake provider zip for linux_amd64\n", m_zipB = "fake provider zip for darwin_arm64\n";

private Q_SLOTS:
    void initTestCase()
    {
        if (!test::GpgFixture::available())
            PROVENDER_SKIP(test::Missing::Package, u"gpg is not installed (Debian: gnupg)"_s);
        if (QStandardPaths::findExecutable(u"sha256sum"_s).isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"sha256sum (coreutils) is needed for the independent sums"_s);
        m_gpg = std::make_unique<test::GpgFixture>();
        m_good = m_gpg->generateKey(u"Good Signer <good@provender.test>"_s);
        m_other = m_gpg->generateKey(u"Other Signer <other@provender.test>"_s);
        // Made and used in 2020 with a one-day lifetime: expired today.
        m_expired = m_gpg->generateKey(u"Expired Signer <expired@provender.test>"_s, u"1d"_s, u"20200101T000000"_s);
        m_revoked = m_gpg->generateKey(u"Revoked Signer <revoked@provender.test>"_s);
        QVERIFY2(!m_good.isEmpty() && !m_other.isEmpty() && !m_expired.isEmpty() && !m_revoked.isEmpty(), qPrintable(m_gpg->lastError()));
        m_goodKey = m_gpg->exportKey(m_good);
        m_otherKey = m_gpg->exportKey(m_other);
        m_expiredKey = m_gpg->exportKey(m_expired);
        m_sums = coreutilsSha256(m_zipA).toHex() + "  terraform-provider-demo_1.0.0_linux_amd64.zip\n" + coreutilsSha256(m_zipB).toHex()
            + "  terraform-provider-demo_1.0.0_darwin_arm64.zip\n";
        QVERIFY(!m_goodKey.isEmpty() && !m_otherKey.isEmpty() && !m_expiredKey.isEmpty());
    }

    void goodSignature()
    {
        const QByteArray sig = m_gpg->sign(m_good, m_sums);
        QVERIFY2(!sig.isEmpty(), qPrintable(m_gpg->lastError()));
        const SignatureCheck c = verifyDetachedSignature(m_sums, sig, {m_otherKey, m_goodKey});
        QVERIFY2(c.valid, qPrintable(c.reason));
        QCOMPARE(c.fingerprint, m_good);
        QCOMPARE(c.keyId, m_good.right(16));
        QCOMPARE(c.userIds, QStringList{u"Good Signer <good@provender.test>"_s});
    }

    void armouredSignature()
    {
        // gpg --armor --detach-sign: registries may publish either form.
        const QString in = QDir::tempPath() + u"/provender-sig-armour"_s;
        QFile f(in);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(m_sums);
        f.close();
        const test::ProcessRun r =
            test::runProcess(u"gpg"_s,
                             {u"--batch"_s, u"--pinentry-mode"_s, u"loopback"_s, u"--passphrase"_s, QString(), u"--yes"_s,
                              u"--local-user"_s, m_good, u"--armor"_s, u"--output"_s, in + u".asc"_s, u"--detach-sign"_s, in},
                             60000, m_gpg->environment());
        QCOMPARE(r.exitCode, 0);
        const SignatureCheck c = verifyDetachedSignature(m_sums, test::readFile(in + u".asc"_s), {m_goodKey});
        QFile::remove(in);
        QFile::remove(in + u".asc"_s);
        QVERIFY2(c.valid, qPrintable(c.reason));
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("signer");
        QTest::addColumn<int>("document"); // 0 as signed, 1 one byte flipped
        QTest::addColumn<QString>("keys"); // which keys the registry lists
        QTest::addColumn<QString>("pinned");
        QTest::addColumn<QString>("reason");
        QTest::newRow("flipped byte") << u"good"_s << 1 << u"good"_s << QString() << u"invalid signature"_s;
        QTest::newRow("unlisted key") << u"other"_s << 0 << u"good"_s << QString() << u"unknown issuer"_s;
        QTest::newRow("no keys listed") << u"good"_s << 0 << QString() << QString() << u"unknown issuer"_s;
        QTest::newRow("expired key") << u"expired"_s << 0 << u"expired"_s << QString() << u"has expired"_s;
        QTest::newRow("revoked key") << u"revoked"_s << 0 << u"revoked"_s << QString() << u"revoked"_s;
        QTest::newRow("not pinned") << u"good"_s << 0 << u"good"_s << u"other"_s << u"not one of the pinned keys"_s;
        QTest::newRow("garbage key") << u"good"_s << 0 << u"garbage"_s << QString() << u"error decoding signing key"_s;
    }

    void refusals()
    {
        QFETCH(QString, signer);
        QFETCH(int, document);
        QFETCH(QString, keys);
        QFETCH(QString, pinned);
        QFETCH(QString, reason);
        const QHash<QString, QString> fpr{{u"good"_s, m_good}, {u"other"_s, m_other}, {u"expired"_s, m_expired}, {u"revoked"_s, m_revoked}};
        const QByteArray sig = m_gpg->sign(fpr.value(signer), m_sums, signer == u"expired"_s ? u"20200101T000100"_s : QString());
        QVERIFY2(!sig.isEmpty(), qPrintable(m_gpg->lastError()));
        if (signer == u"revoked"_s)
            QVERIFY2(m_gpg->revoke(m_revoked), qPrintable(m_gpg->lastError()));
        const auto key = [&](const QString &which) {
            return which == u"garbage"_s
                ? QByteArray("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----\n")
                : m_gpg->exportKey(fpr.value(which));
        };
        QList<QByteArray> listed;
        if (!keys.isEmpty())
            listed << key(keys);
        SignatureOptions options;
        if (!pinned.isEmpty())
            options.pinnedKeys << key(pinned);
        QByteArray doc = m_sums;
        if (document == 1)
            doc[10] = doc[10] == 'a' ? 'b' : 'a';
        const SignatureCheck c = verifyDetachedSignature(doc, sig, listed, options);
        QVERIFY(!c.valid);
        QVERIFY2(c.reason.contains(reason), qPrintable(c.reason));
    }

    void pinnedKeyAccepted()
    {
        const QByteArray sig = m_gpg->sign(m_good, m_sums);
        SignatureOptions options;
        options.pinnedKeys = {m_otherKey, m_goodKey};
        const SignatureCheck c = verifyDetachedSignature(m_sums, sig, {m_goodKey}, options);
        QVERIFY2(c.valid, qPrintable(c.reason));
    }

    void userKeyringIsNotConsulted()
    {
        // GNUPGHOME names a keyring that has the signer's key; the registry lists another key.
        // The private keyring must not see the user's: unknown issuer.
        const QByteArray sig = m_gpg->sign(m_other, m_sums);
        qputenv("GNUPGHOME", m_gpg->environment().value(u"GNUPGHOME"_s).toLocal8Bit());
        const SignatureCheck c = verifyDetachedSignature(m_sums, sig, {m_goodKey});
        qunsetenv("GNUPGHOME");
        QVERIFY(!c.valid);
        QVERIFY2(c.reason.contains(u"unknown issuer"_s), qPrintable(c.reason));
    }

    void packageChain()
    {
        const QByteArray sig = m_gpg->sign(m_good, m_sums);
        RegistryDownload meta;
        meta.filename = u"terraform-provider-demo_1.0.0_linux_amd64.zip"_s;
        meta.sha256 = coreutilsSha256(m_zipA);
        meta.signingKeys << RegistrySigningKey{m_good.right(16), m_goodKey, {}, {}, {}};
        PackageAuthentication a = authenticateRegistryPackage(meta, coreutilsSha256(m_zipA), m_zipA.size(), m_sums, sig);
        QVERIFY2(a.signedOk, qPrintable(a.reason));
        QCOMPARE(a.signature.keyId, m_good.right(16));
        // Every line of the signed SHA256SUMS is vouched for (terraform's AcceptableHashes).
        QCOMPARE(a.vouchedHashes.size(), 2);
        QCOMPARE(a.vouchedHashes.at(0).toString(), u"zh:"_s + QString::fromLatin1(coreutilsSha256(m_zipA).toHex()));
        QCOMPARE(a.vouchedHashes.at(1).toString(), u"zh:"_s + QString::fromLatin1(coreutilsSha256(m_zipB).toHex()));

        // The archive that arrived is not the one the registry described.
        a = authenticateRegistryPackage(meta, coreutilsSha256(m_zipB), m_zipB.size(), m_sums, sig);
        QVERIFY(!a.signedOk);
        QVERIFY2(a.reason.startsWith(u"archive has incorrect checksum"_s), qPrintable(a.reason));
        // SHA256SUMS without the file name, or with another sum for it.
        RegistryDownload missing = meta;
        missing.filename = u"terraform-provider-demo_1.0.0_windows_386.zip"_s;
        a = authenticateRegistryPackage(missing, coreutilsSha256(m_zipA), m_zipA.size(), m_sums, sig);
        QCOMPARE(a.reason, u"checksum list has no SHA-256 hash for \"terraform-provider-demo_1.0.0_windows_386.zip\""_s);
        RegistryDownload other = meta;
        other.sha256 = coreutilsSha256(m_zipB);
        a = authenticateRegistryPackage(other, coreutilsSha256(m_zipB), m_zipB.size(), m_sums, sig);
        QVERIFY2(a.reason.startsWith(u"checksum list has unexpected SHA-256 hash"_s), qPrintable(a.reason));
    }

    void downloadDocument()
    {
        const QUrl docUrl(u"https://registry.provender.test/v1/providers/acme/demo/1.0.0/download/linux/amd64"_s);
        QJsonObject o{
            {u"protocols"_s, QJsonArray{u"5.0"_s}},
            {u"os"_s, u"linux"_s},
            {u"arch"_s, u"amd64"_s},
            {u"filename"_s, u"terraform-provider-demo_1.0.0_linux_amd64.zip"_s},
            {u"download_url"_s, u"../../../files/demo.zip"_s},
            {u"SHASUM"_s, QString::fromLatin1(coreutilsSha256(m_zipA).toHex())}, // Go matches keys without case
            {u"shasums_url"_s, u"https://files.provender.test/SHA256SUMS"_s},
            {u"shasums_signature_url"_s, u"SHA256SUMS.sig"_s},
            {u"signing_keys"_s,
             QJsonObject{{u"gpg_public_keys"_s, QJsonArray{QJsonObject{{u"key_id"_s, u"ABCD"_s}, {u"ascii_armor"_s, u"KEY"_s}}}}}}};
        Result<RegistryDownload> d = parseRegistryDownload(QJsonDocument(o).toJson(), docUrl, Platform(u"linux"_s, u"amd64"_s));
        QVERIFY2(d.ok(), d.ok() ? "" : qPrintable(d.error().message));
        QCOMPARE(d->downloadUrl, QUrl(u"https://registry.provender.test/v1/providers/acme/demo/files/demo.zip"_s)); // Python urljoin agrees
        QCOMPARE(d->shasumsSignatureUrl,
                 QUrl(u"https://registry.provender.test/v1/providers/acme/demo/1.0.0/download/linux/SHA256SUMS.sig"_s));
        QCOMPARE(d->sha256, coreutilsSha256(m_zipA));
        QCOMPARE(d->signingKeys.size(), 1);
        QCOMPARE(d->signingKeys.at(0).asciiArmor, QByteArray("KEY"));

        QJsonObject bad = o;
        bad[u"download_url"_s] = u"file:///etc/passwd"_s;
        d = parseRegistryDownload(QJsonDocument(bad).toJson(), docUrl, Platform(u"linux"_s, u"amd64"_s));
        QVERIFY(!d.ok());
        QCOMPARE(d.error().message, u"registry response includes invalid download URL: must use http or https scheme"_s);
        d = parseRegistryDownload(QJsonDocument(o).toJson(), docUrl, Platform(u"darwin"_s, u"arm64"_s));
        QVERIFY(!d.ok());
        QCOMPARE(d.error().message, u"registry response to request for darwin_arm64 archive has incorrect target linux_amd64"_s);
        bad = o;
        bad.remove(u"SHASUM"_s);
        bad[u"shasum"_s] = u"abc"_s;
        d = parseRegistryDownload(QJsonDocument(bad).toJson(), docUrl, Platform(u"linux"_s, u"amd64"_s));
        QVERIFY(!d.ok());
        QCOMPARE(d.error().message, u"registry response includes invalid SHA256 hash \"abc\""_s);

        // `packages` (tofu's registry_client.go): read for every platform; a bad platform key or hash
        // string is an error for the whole document, in tofu's words (the hash's is ParseHash's).
        QJsonObject withPackages = o;
        withPackages[u"packages"_s] = QJsonObject{
            {u"linux_amd64"_s, QJsonObject{{u"hashes"_s, QJsonArray{u"zh:00"_s, u"h1:AA="_s, u"x9:kept"_s}}, {u"package_size"_s, 35}}},
            {u"darwin_arm64"_s, QJsonObject{{u"hashes"_s, QJsonArray{u"h1:BB="_s}}, {u"package_size"_s, 36}}}};
        d = parseRegistryDownload(QJsonDocument(withPackages).toJson(), docUrl, Platform(u"linux"_s, u"amd64"_s));
        QVERIFY2(d.ok(), d.ok() ? "" : qPrintable(d.error().message));
        QCOMPARE(d->packages.size(), 2);
        QCOMPARE(d->packages.at(0).platform.toString(), u"darwin_arm64"_s);
        QCOMPARE(d->package(Platform(u"linux"_s, u"amd64"_s))->packageSize, 35);
        QCOMPARE(d->package(Platform(u"linux"_s, u"amd64"_s))->hashes.size(), 3);
        bad = withPackages;
        bad[u"packages"_s] = QJsonObject{{u"linux-amd64"_s, QJsonObject{}}};
        d = parseRegistryDownload(QJsonDocument(bad).toJson(), docUrl, Platform(u"linux"_s, u"amd64"_s));
        QVERIFY(!d.ok());
        QVERIFY2(d.error().message.startsWith(u"registry response includes invalid package platform \"linux-amd64\": "_s),
                 qPrintable(d.error().message));
        bad[u"packages"_s] = QJsonObject{{u"linux_amd64"_s, QJsonObject{{u"hashes"_s, QJsonArray{u":nothing"_s}}}}};
        d = parseRegistryDownload(QJsonDocument(bad).toJson(), docUrl, Platform(u"linux"_s, u"amd64"_s));
        QVERIFY(!d.ok());
        QVERIFY2(d.error().message.startsWith(u"registry response includes invalid package hash \":nothing\": "_s),
                 qPrintable(d.error().message));
    }

    void sumsFileShapes()
    {
        // Not a checksums file: vouches for nothing (terraform's AcceptableHashes returns nil).
        QVERIFY(sha256SumsEntries("hello world\n").isEmpty());
        QVERIFY(sha256SumsEntries(m_sums + "just-one-field\n").isEmpty());
        QCOMPARE(sha256SumsEntries(m_sums).size(), 2);
        // Tabs and several spaces separate fields like Go's bytes.Fields.
        const QByteArray tabbed = coreutilsSha256(m_zipA).toHex() + "\t\tname.zip\r\n";
        QCOMPARE(*sha256SumsLookup(tabbed, u"name.zip"_s), coreutilsSha256(m_zipA));
        QVERIFY(!sha256SumsLookup("xyz name.zip\n", u"name.zip"_s).ok());

        // A name that is not UTF-8 keeps its sum but matches no file name: decoded, "\xff" would
        // read as U+FFFD, the name the second line really has (found by fuzz_remotedocs).
        const QByteArray a = coreutilsSha256(m_zipA).toHex(), b = coreutilsSha256(m_zipB).toHex();
        const QByteArray lossy = a + "  \xff\n" + b + "  \xef\xbf\xbd\n";
        const QList<Sha256SumsEntry> entries = sha256SumsEntries(lossy);
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(0).sha256, coreutilsSha256(m_zipA));
        QVERIFY(entries.at(0).filename.isEmpty());
        QCOMPARE(entries.at(1).filename, QString(QChar(0xFFFD)));
        QCOMPARE(*sha256SumsLookup(lossy, QString(QChar(0xFFFD))), coreutilsSha256(m_zipB));
        QCOMPARE(sha256SumsHashes(lossy).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestRegistrySignature)
#include "tst_registry_signature.moc"
