// Provenance that travels (issue 19 item 4 and its Done-when line): `provender mirror pull` from a
// registry that nginx serves on 127.0.0.1 (RegistryFixture: make_registry.py writes the zips and
// the SHA256SUMS, a key gpg makes signs them) keeps each release's SHA256SUMS, signature and key
// under .provenance/. Then the registry is stopped, and everything below runs offline:
//   - `verify DIR` shows every archive "signed" with gpg's own key ID and user ID, and the zh:
//     Python's hashlib computed; each refusal of issue 19 item 2 (a flipped byte in the signed
//     SHA256SUMS, another sum, a missing line, an unknown, unpinned, expired or revoked key, a
//     missing signature) makes the archives not verified, with the reason;
//   - `bundle create` carries .provenance/ (Python's tarfile lists it, byte for byte), `bundle
//     verify` and `verify BUNDLE` show every archive signed, `bundle import` copies .provenance/
//     into another directory, and `verify` there shows every archive signed;
//   - a copy of the bundle with one byte flipped in an archive, and one with one byte flipped in
//     the release's SHA256SUMS (the bundle's own SHA256SUMS rewritten by hashlib so that only the
//     signature can tell), are caught by `bundle verify` and refused by `bundle import`, which
//     leaves its target as it was.

#include "tests/support/GpgFixture.h"
#include "tests/support/RegistryFixture.h"
#include "tests/support/TestSupport.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

const QString kHost = provender::test::RegistryFixture::host();

/// gpg's own account of a key: its 64-bit key ID (field 5 of the `pub` line of --with-colons).
QString gpgKeyId(const QProcessEnvironment &env, const QString &who)
{
    const provender::test::ProcessRun r =
        provender::test::runProcess(u"gpg"_s, {u"--batch"_s, u"--with-colons"_s, u"--list-keys"_s, who}, 60000, env);
    for (const QByteArray &line : r.out.split('\n'))
        if (line.startsWith("pub:"))
            return QString::fromLatin1(line.split(':').value(4));
    return {};
}

} // namespace

class TestProvenance : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QProcessEnvironment m_env;
    QJsonObject m_expected;
    QString m_mirror;                                   ///< pulled: demo 1.1.0 and pair 0.2.0 for two platforms
    QString m_keyId;                                    ///< the registry's signing key, as gpg names it
    QString m_keyFile;                                  ///< its public key (what --pinned-keys takes)
    std::unique_ptr<provender::test::GpgFixture> m_gpg; ///< other keys, made here
    QString m_otherFpr, m_otherKeyId, m_otherKeyFile;
    QString m_expiredFpr, m_revokedFpr;

    const QString kUid = u"Acme Releases <releases@acme.test>"_s;
    const QStringList kPlatforms{u"linux_amd64"_s, u"darwin_arm64"_s};

    provender::test::ProcessRun provender(const QStringList &args) const
    {
        return provender::test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 300000, m_env);
    }

    QString copyOfMirror(const QString &name) const
    {
        const QString to = m_tmp.filePath(u"copies/"_s + name);
        QDir().mkpath(QFileInfo(to).path());
        const provender::test::ProcessRun cp = provender::test::runProcess(u"cp"_s, {u"-a"_s, m_mirror, to}, 60000);
        return cp.exitCode == 0 ? to : QString();
    }

    static QString provenanceDir(const QString &mirror, const QString &type, const QString &version)
    {
        return mirror + u"/.provenance/"_s + kHost + u"/acme/"_s + type + u'/' + version;
    }

    /// Every archive of `verify --json` output, by "type version platform".
    static QHash<QString, QJsonObject> archives(const QByteArray &json)
    {
        QHash<QString, QJsonObject> out;
        for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value(u"archives"_s).toArray()) {
            const QJsonObject a = v.toObject();
            out.insert(a.value(u"provider"_s).toString().section(u'/', -1) + u' ' + a.value(u"version"_s).toString() + u' '
                           + a.value(u"platform"_s).toString(),
                       a);
        }
        return out;
    }

    /// Every archive of the pulled releases is verified, first anchor the registry key's signature,
    /// with the zh: make_registry.py's hashlib computed.
    void checkAllSigned(const QByteArray &json, const QString &where)
    {
        const QHash<QString, QJsonObject> all = archives(json);
        QCOMPARE(all.size(), 4);
        for (const auto &[type, version] : {std::pair{u"demo"_s, u"1.1.0"_s}, std::pair{u"pair"_s, u"0.2.0"_s}}) {
            for (const QString &platform : kPlatforms) {
                const QJsonObject a = all.value(type + u' ' + version + u' ' + platform);
                QVERIFY2(!a.isEmpty(), qPrintable(where + u": no "_s + type + u' ' + platform));
                QCOMPARE(a.value(u"verdict"_s).toString(), u"verified"_s);
                const QJsonObject anchor = a.value(u"anchors"_s).toArray().first().toObject();
                QCOMPARE(anchor.value(u"kind"_s).toString(), u"signature"_s);
                QCOMPARE(anchor.value(u"key_id"_s).toString(), m_keyId);
                QCOMPARE(anchor.value(u"signer"_s).toString(), kUid);
                QVERIFY2(anchor.value(u"document"_s)
                             .toString()
                             .endsWith(u".provenance/"_s + kHost + u"/acme/"_s + type + u'/' + version + u"/SHA256SUMS"_s),
                         qPrintable(anchor.value(u"document"_s).toString()));
                QVERIFY(a.value(u"anchor"_s).toString().startsWith(u"signed by "_s + m_keyId + u" ("_s + kUid + u')'));
                const QJsonObject e = m_expected.value(type).toObject().value(version).toObject().value(platform).toObject();
                QCOMPARE(a.value(u"zh"_s).toString(), u"zh:"_s + e.value(u"sha256"_s).toString());
            }
        }
    }

    /// Re-sign `sums` for demo 1.1.0 in `mirror` with `fpr` of m_gpg; keys.asc gets `keysOf` (an fpr of m_gpg) unless empty.
    bool resign(const QString &mirror, const QByteArray &sums, const QString &fpr, const QString &keysOf, const QString &fakedTime = {})
    {
        const QString dir = provenanceDir(mirror, u"demo"_s, u"1.1.0"_s);
        const QByteArray sig = m_gpg->sign(fpr, sums, fakedTime);
        if (sig.isEmpty() || !provender::test::writeFile(dir + u"/SHA256SUMS"_s, sums)
            || !provender::test::writeFile(dir + u"/SHA256SUMS.sig"_s, sig))
            return false;
        return keysOf.isEmpty() || provender::test::writeFile(dir + u"/keys.asc"_s, m_gpg->exportKey(keysOf));
    }

    QByteArray demoSums() const { return provender::test::readFile(provenanceDir(m_mirror, u"demo"_s, u"1.1.0"_s) + u"/SHA256SUMS"_s); }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(provender::test::RegistryFixture::missingTools());
        QVERIFY(QFileInfo(QStringLiteral(PROVENDER_BINARY)).isExecutable());
        auto registry = std::make_unique<provender::test::RegistryFixture>();
        QString error;
        QVERIFY2(registry->start(m_tmp.path(), &error), qPrintable(error));
        m_env = registry->environment();
        m_expected = registry->expected();
        m_keyId = gpgKeyId(registry->gpg().environment(), u"releases@acme.test"_s);
        QCOMPARE(m_keyId.size(), 16);
        m_keyFile = m_tmp.filePath(u"key.asc"_s); // RegistryFixture::start wrote the registry's key there
        QVERIFY(provender::test::readFile(m_keyFile).contains("BEGIN PGP PUBLIC KEY BLOCK"));

        m_mirror = m_tmp.filePath(u"pulled"_s);
        QStringList args{u"mirror"_s, u"pull"_s, m_mirror, kHost + u"/acme/demo=1.1.0"_s, kHost + u"/acme/pair=0.2.0"_s};
        for (const QString &p : kPlatforms)
            args << u"--platform"_s << p;
        args << u"--ca-file"_s << registry->caFile();
        const provender::test::ProcessRun pulled = provender(args);
        QVERIFY2(pulled.exitCode == 0, QByteArray(pulled.out + pulled.err).constData());
        QVERIFY(QFileInfo::exists(provenanceDir(m_mirror, u"demo"_s, u"1.1.0"_s) + u"/SHA256SUMS.sig"_s));
        QVERIFY(QFileInfo::exists(provenanceDir(m_mirror, u"pair"_s, u"0.2.0"_s) + u"/SHA256SUMS.sig"_s));
        registry.reset(); // nginx stopped: everything below is offline

        m_gpg = std::make_unique<provender::test::GpgFixture>();
        m_otherFpr = m_gpg->generateKey(u"Somebody Else <else@acme.test>"_s);
        m_expiredFpr = m_gpg->generateKey(u"Expired <expired@acme.test>"_s, u"1d"_s, u"20200101T000000"_s);
        m_revokedFpr = m_gpg->generateKey(u"Revoked <revoked@acme.test>"_s);
        QVERIFY2(!m_otherFpr.isEmpty() && !m_expiredFpr.isEmpty() && !m_revokedFpr.isEmpty(), qPrintable(m_gpg->lastError()));
        m_otherKeyId = gpgKeyId(m_gpg->environment(), m_otherFpr);
        m_otherKeyFile = m_tmp.filePath(u"other.asc"_s);
        QVERIFY(provender::test::writeFile(m_otherKeyFile, m_gpg->exportKey(m_otherFpr)));
    }

    void verifyShowsEveryArchiveSigned()
    {
        const provender::test::ProcessRun json = provender({u"verify"_s, m_mirror, u"--json"_s, u"--no-cache"_s});
        QVERIFY2(json.exitCode == 0, QByteArray(json.out + json.err).constData());
        checkAllSigned(json.out, u"verify DIR"_s);
        // The table names the key too.
        const provender::test::ProcessRun table = provender({u"verify"_s, m_mirror, u"--no-cache"_s});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains(QString(u"signed "_s + m_keyId).toUtf8()), table.out.constData());
        // Pinned to the registry's own key: the same.
        const provender::test::ProcessRun pinned = provender({u"verify"_s, m_mirror, u"--json"_s, u"--pinned-keys"_s, m_keyFile});
        QVERIFY2(pinned.exitCode == 0, QByteArray(pinned.out + pinned.err).constData());
        checkAllSigned(pinned.out, u"verify DIR --pinned-keys"_s);
    }

    void verifyRefuses_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("linux");  // expected verdict of demo 1.1.0 linux_amd64
        QTest::addColumn<QString>("darwin"); // … and darwin_arm64
        QTest::addColumn<QString>("reason"); // in the linux archive's reason
        QTest::newRow("flipped byte in SHA256SUMS") << u"flip"_s << u"refused"_s << u"refused"_s << u"invalid signature"_s;
        QTest::newRow("another sum for one archive")
            << u"othersum"_s << u"mismatch"_s << u"verified"_s << u"archive has incorrect checksum"_s;
        QTest::newRow("no line for one archive") << u"noline"_s << u"refused"_s << u"verified"_s << u"checksum list has no SHA-256 hash"_s;
        QTest::newRow("signed by a key not kept") << u"unknown"_s << u"refused"_s << u"refused"_s << u"unknown issuer"_s;
        QTest::newRow("key not pinned") << u"unpinned"_s << u"refused"_s << u"refused"_s << u"is not one of the pinned keys"_s;
        QTest::newRow("expired key") << u"expired"_s << u"refused"_s << u"refused"_s << u"has expired"_s;
        QTest::newRow("revoked key") << u"revoked"_s << u"refused"_s << u"refused"_s << u"has been revoked"_s;
        QTest::newRow("no signature file") << u"nosig"_s << u"refused"_s << u"refused"_s << u"SHA256SUMS.sig is missing"_s;
    }

    void verifyRefuses()
    {
        QFETCH(QString, kind);
        QFETCH(QString, linux);
        QFETCH(QString, darwin);
        QFETCH(QString, reason);
        const QString m = copyOfMirror(kind);
        QVERIFY(!m.isEmpty());
        const QString dir = provenanceDir(m, u"demo"_s, u"1.1.0"_s);
        const QString linuxSha = m_expected.value(u"demo"_s)
                                     .toObject()
                                     .value(u"1.1.0"_s)
                                     .toObject()
                                     .value(u"linux_amd64"_s)
                                     .toObject()
                                     .value(u"sha256"_s)
                                     .toString();
        QByteArray sums = demoSums();
        QVERIFY(sums.contains(linuxSha.toLatin1()));
        QStringList extra;
        if (kind == u"flip") {
            sums[0] = char(sums.at(0) ^ 0x01);
            QVERIFY(provender::test::writeFile(dir + u"/SHA256SUMS"_s, sums));
        } else if (kind == u"othersum") {
            sums.replace(linuxSha.toLatin1(), QCryptographicHash::hash("other bytes", QCryptographicHash::Sha256).toHex());
            QVERIFY2(resign(m, sums, m_otherFpr, m_otherFpr), qPrintable(m_gpg->lastError()));
        } else if (kind == u"noline") {
            QByteArray kept;
            for (const QByteArray &line : sums.split('\n'))
                if (!line.isEmpty() && !line.contains("linux_amd64"))
                    kept += line + '\n';
            QVERIFY2(resign(m, kept, m_otherFpr, m_otherFpr), qPrintable(m_gpg->lastError()));
        } else if (kind == u"unknown") {
            QVERIFY2(resign(m, sums, m_otherFpr, {}), qPrintable(m_gpg->lastError())); // keys.asc: still the registry's key
        } else if (kind == u"unpinned") {
            extra << u"--pinned-keys"_s << m_otherKeyFile; // the registry's key signed, another is pinned
        } else if (kind == u"expired") {
            QVERIFY2(resign(m, sums, m_expiredFpr, m_expiredFpr, u"20200101T010000"_s), qPrintable(m_gpg->lastError()));
        } else if (kind == u"revoked") {
            QVERIFY2(resign(m, sums, m_revokedFpr, {}), qPrintable(m_gpg->lastError()));
            QVERIFY(m_gpg->revoke(m_revokedFpr));
            QVERIFY(provender::test::writeFile(dir + u"/keys.asc"_s, m_gpg->exportKey(m_revokedFpr)));
        } else if (kind == u"nosig") {
            QVERIFY(QFile::remove(dir + u"/SHA256SUMS.sig"_s));
        }
        const provender::test::ProcessRun r = provender(QStringList{u"verify"_s, m, u"--json"_s, u"--no-cache"_s} + extra);
        QVERIFY2(r.exitCode == (linux == u"verified"_s && darwin == u"verified"_s ? 0 : 1), QByteArray(r.out + r.err).constData());
        const QHash<QString, QJsonObject> all = archives(r.out);
        const QJsonObject l = all.value(u"demo 1.1.0 linux_amd64"_s);
        const QJsonObject d = all.value(u"demo 1.1.0 darwin_arm64"_s);
        QCOMPARE(l.value(u"verdict"_s).toString(), linux);
        QCOMPARE(d.value(u"verdict"_s).toString(), darwin);
        QVERIFY2(l.value(u"reason"_s).toString().contains(reason), qPrintable(l.value(u"reason"_s).toString()));
        QVERIFY(l.value(u"anchors"_s).toArray().isEmpty() || linux == u"verified"_s);
        if (darwin == u"verified"_s) { // re-signed by the other key, which keys.asc now holds
            const QJsonObject anchor = d.value(u"anchors"_s).toArray().first().toObject();
            QCOMPARE(anchor.value(u"kind"_s).toString(), u"signature"_s);
            QCOMPARE(anchor.value(u"key_id"_s).toString(), m_otherKeyId);
        }
        // The other release's proof is untouched: still signed (unless its key is not pinned).
        const QJsonObject pair = all.value(u"pair 0.2.0 linux_amd64"_s);
        QCOMPARE(pair.value(u"verdict"_s).toString(), kind == u"unpinned"_s ? u"refused"_s : u"verified"_s);
    }

    void bundleCarriesTheProof()
    {
        const QString bundle = m_tmp.filePath(u"pulled.tar.gz"_s);
        const provender::test::ProcessRun made =
            provender({u"bundle"_s, u"create"_s, bundle, u"--mirror"_s, m_mirror, u"--all"_s, u"--no-cache"_s});
        QVERIFY2(made.exitCode == 0, QByteArray(made.out + made.err).constData());
        // Python's tarfile: the proof is in the bundle, byte for byte as the mirror keeps it.
        QString error;
        const QByteArray listing = provender::test::runPythonCode(
            u"import sys, tarfile, json\n"
            "t = tarfile.open(sys.argv[1])\n"
            "print(json.dumps({m.name: t.extractfile(m).read().hex() for m in t.getmembers() if m.isfile() and m.name.startswith('.provenance/')}))\n"_s,
            {bundle}, &error);
        const QJsonObject members = QJsonDocument::fromJson(listing).object();
        QVERIFY2(!members.isEmpty(), qPrintable(error));
        for (const auto &[type, version] : {std::pair{u"demo"_s, u"1.1.0"_s}, std::pair{u"pair"_s, u"0.2.0"_s}})
            for (const QString &name : {u"SHA256SUMS"_s, u"SHA256SUMS.sig"_s, u"keys.asc"_s}) {
                const QString entry = u".provenance/"_s + kHost + u"/acme/"_s + type + u'/' + version + u'/' + name;
                QCOMPARE(QByteArray::fromHex(members.value(entry).toString().toLatin1()),
                         provender::test::readFile(m_mirror + u'/' + entry));
            }
        QCOMPARE(members.size(), 6);

        // Verified on "the other side": in place, twice (bundle verify, verify BUNDLE).
        const provender::test::ProcessRun verified = provender({u"bundle"_s, u"verify"_s, bundle, u"--json"_s});
        QVERIFY2(verified.exitCode == 0, QByteArray(verified.out + verified.err).constData());
        checkAllSigned(verified.out, u"bundle verify"_s);
        const provender::test::ProcessRun inPlace = provender({u"verify"_s, bundle, u"--json"_s, u"--pinned-keys"_s, m_keyFile});
        QVERIFY2(inPlace.exitCode == 0, QByteArray(inPlace.out + inPlace.err).constData());
        checkAllSigned(inPlace.out, u"verify BUNDLE"_s);
        const provender::test::ProcessRun unpinned =
            provender({u"bundle"_s, u"verify"_s, bundle, u"--json"_s, u"--pinned-keys"_s, m_otherKeyFile});
        QCOMPARE(unpinned.exitCode, 1);
        for (const QJsonObject &a : archives(unpinned.out))
            QCOMPARE(a.value(u"verdict"_s).toString(), u"refused"_s);

        // Imported elsewhere, then verified there: every archive signed, the proof copied.
        const QString target = m_tmp.filePath(u"elsewhere"_s);
        const provender::test::ProcessRun imported = provender({u"bundle"_s, u"import"_s, bundle, u"--into"_s, target});
        QVERIFY2(imported.exitCode == 0, QByteArray(imported.out + imported.err).constData());
        for (const QString &entry : members.keys())
            QCOMPARE(provender::test::readFile(target + u'/' + entry), provender::test::readFile(m_mirror + u'/' + entry));
        QVERIFY(!QFileInfo::exists(target + u"/.provender-import"_s));
        const provender::test::ProcessRun there = provender({u"verify"_s, target, u"--json"_s, u"--no-cache"_s});
        QVERIFY2(there.exitCode == 0, QByteArray(there.out + there.err).constData());
        checkAllSigned(there.out, u"verify after import"_s);

        // A second import of the same bundle: nothing changes, the proof stays.
        const QMap<QString, QByteArray> before = provender::test::fileTree(target);
        const provender::test::ProcessRun again = provender({u"bundle"_s, u"import"_s, bundle, u"--into"_s, target});
        QVERIFY2(again.exitCode == 0, QByteArray(again.out + again.err).constData());
        QCOMPARE(provender::test::fileTree(target), before);
    }

    void bundleTamperIsCaught_data()
    {
        QTest::addColumn<QString>("member");
        QTest::addColumn<int>("offset");
        QTest::addColumn<bool>("fixSums");
        QTest::addColumn<QString>("verdict"); // of the demo 1.1.0 linux_amd64 archive
        QTest::addColumn<QString>("reason");
        QTest::newRow("one byte of an archive")
            << u"%1/acme/demo/terraform-provider-demo_1.1.0_linux_amd64.zip"_s.arg(kHost) << 40 << false << QString() << QString();
        QTest::newRow("one byte of SHA256SUMS, the bundle's sums rewritten")
            << u".provenance/%1/acme/demo/1.1.0/SHA256SUMS"_s.arg(kHost) << 0 << true << u"refused"_s << u"invalid signature"_s;
        QTest::newRow("one byte of SHA256SUMS")
            << u".provenance/%1/acme/demo/1.1.0/SHA256SUMS"_s.arg(kHost) << 5 << false << u"refused"_s << u"invalid signature"_s;
    }

    void bundleTamperIsCaught()
    {
        QFETCH(QString, member);
        QFETCH(int, offset);
        QFETCH(bool, fixSums);
        QFETCH(QString, verdict);
        QFETCH(QString, reason);
        const QString bundle = m_tmp.filePath(u"pulled.tar.gz"_s);
        QVERIFY(QFileInfo::exists(bundle)); // bundleCarriesTheProof made it
        const QString copy = m_tmp.filePath(
            u"tampered-%1.tar.gz"_s.arg(QString::fromLatin1(QTest::currentDataTag())).replace(u' ', u'-').replace(u',', u'-'));
        QStringList args{provender::test::sourceDir() + u"/tests/provenance/rebundle.py"_s, bundle, copy, member, QString::number(offset)};
        if (fixSums)
            args << u"--fix-sums"_s;
        QString error;
        const QJsonObject flipped = QJsonDocument::fromJson(provender::test::runPython(args, &error)).object();
        QVERIFY2(!flipped.isEmpty() && flipped.value(u"old"_s) != flipped.value(u"new"_s), qPrintable(error));

        const provender::test::ProcessRun verified = provender({u"bundle"_s, u"verify"_s, copy, u"--json"_s});
        QCOMPARE(verified.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(verified.out).object();
        const QJsonObject linux = archives(verified.out).value(u"demo 1.1.0 linux_amd64"_s);
        QVERIFY2(linux.value(u"verdict"_s).toString() != u"verified"_s, qPrintable(linux.value(u"reason"_s).toString()));
        if (!verdict.isEmpty()) {
            QCOMPARE(linux.value(u"verdict"_s).toString(), verdict);
            QVERIFY2(linux.value(u"reason"_s).toString().contains(reason), qPrintable(linux.value(u"reason"_s).toString()));
        }
        // With the bundle's own sums rewritten, they all agree: only the signature catches it.
        bool sumsOk = true;
        for (const QJsonValue &f : doc.value(u"bundle"_s).toObject().value(u"files"_s).toArray())
            sumsOk = sumsOk && f.toObject().value(u"status"_s).toString() == u"ok"_s;
        QCOMPARE(sumsOk, fixSums);
        // The other release is still signed.
        QCOMPARE(archives(verified.out).value(u"pair 0.2.0 linux_amd64"_s).value(u"verdict"_s).toString(), u"verified"_s);

        // Import refuses it and leaves the target as it was: empty, and a mirror that has the files.
        const QString fresh = m_tmp.filePath(u"fresh-%1"_s.arg(offset) + (fixSums ? u"-fixed"_s : QString()));
        const provender::test::ProcessRun intoFresh = provender({u"bundle"_s, u"import"_s, copy, u"--into"_s, fresh});
        QCOMPARE(intoFresh.exitCode, 1);
        QVERIFY(provender::test::fileTree(fresh).isEmpty());
        const QString existing = copyOfMirror(u"import-target-"_s + QString::number(offset) + (fixSums ? u"-fixed"_s : QString()));
        QVERIFY(!existing.isEmpty());
        const QMap<QString, QByteArray> before = provender::test::fileTree(existing);
        const provender::test::ProcessRun intoExisting = provender({u"bundle"_s, u"import"_s, copy, u"--into"_s, existing, u"--replace"_s});
        QCOMPARE(intoExisting.exitCode, 1);
        QCOMPARE(provender::test::fileTree(existing), before);
    }
};

QTEST_GUILESS_MAIN(TestProvenance)
#include "tst_provenance.moc"
