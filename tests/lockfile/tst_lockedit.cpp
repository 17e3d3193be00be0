// Edit operations. Pure functions must leave their input untouched; mirror-based ones must
// record the hashes that Python's zipfile/hashlib computed for the fixture archives
// (make_lock_mirror.py), following `providers lock -fs-mirror` (tofu-formats.md §8: the h1: of
// the extracted package per requested platform) and the upgrade rules of §2.5/§2.6
// (prereleases only when named exactly).

#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockWriter.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/LockTestSupport.h"

#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

ProviderAddress addr(const char *a)
{
    return ProviderAddress::parse(QString::fromUtf8(a)).value();
}

HashString hash(const QString &h)
{
    return HashString::parse(h).value();
}

Platform platform(const char *p)
{
    return Platform::parse(QString::fromUtf8(p)).value();
}

} // namespace

class TestLockEdit : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<test::LockMirrorFixture> m_fixture;
    Catalog m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        m_fixture = std::make_unique<test::LockMirrorFixture>(QList<test::FixtureArchive>{
            {"example.test/ns/widget", "1.0.0", "linux_amd64"},
            {"example.test/ns/widget", "1.0.0", "darwin_arm64"},
            {"example.test/ns/widget", "1.1.0", "linux_amd64"},
            {"example.test/ns/widget", "1.1.0", "windows_amd64"},
            {"example.test/ns/widget", "1.2.0-beta1", "linux_amd64"},
            {"example.test/ns/widget", "2.0.0", "linux_amd64"},
            {"example.test/ns/gadget", "3.0.0", "linux_amd64", true},
            {"example.test/ns/broken", "1.0.0", "linux_amd64", false, false, true},
        });
        if (!m_fixture->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_fixture->error()));
        const Result<Catalog> c = scanFileSystemMirror(m_fixture->root());
        QVERIFY2(c.ok(), c.ok() ? "" : qPrintable(c.error().message));
        m_catalog = c.value();
    }

    void pureOperations()
    {
        LockFile doc;
        doc.setProvider(test::providerLock("example.test/ns/widget", "1.0.0", "~> 1.0", {u"h1:a"_s, u"zh:b"_s}));
        const QByteArray before = writeLockFile(doc);

        const Result<LockFile> added = lockedit::addProvider(doc, test::providerLock("example.test/ns/gadget", "3.0.0"));
        QVERIFY(added.ok());
        QCOMPARE(added->providers.size(), 2);
        QCOMPARE(added->providers[0].address.toString(), u"example.test/ns/gadget"_s); // canonical order
        QVERIFY(!lockedit::addProvider(doc, test::providerLock("example.test/ns/widget", "9.9.9")).ok());

        const Result<LockFile> removed = lockedit::removeProvider(doc, addr("example.test/ns/widget"));
        QVERIFY(removed.ok());
        QVERIFY(removed->providers.isEmpty());
        QCOMPARE(lockedit::removeProvider(doc, addr("example.test/ns/none")).error().code, ErrorCode::NotFound);

        const Result<LockFile> v = lockedit::setVersion(doc, addr("example.test/ns/widget"), Version::parse(u"1.1.0"_s).value());
        QVERIFY(v.ok());
        QCOMPARE(v->providers[0].version.toString(), u"1.1.0"_s);
        QVERIFY(v->providers[0].hashes.isEmpty()); // hashes belonged to 1.0.0
        const Result<LockFile> kept = lockedit::setVersion(doc, addr("example.test/ns/widget"), Version::parse(u"1.1.0"_s).value(), true);
        QCOMPARE(kept->providers[0].hashes.size(), 2);
        const Result<LockFile> same = lockedit::setVersion(doc, addr("example.test/ns/widget"), Version::parse(u"1.0.0"_s).value());
        QCOMPARE(same->providers[0].hashes.size(), 2); // same version: nothing to drop

        const Result<LockFile> c =
            lockedit::setConstraints(doc, addr("example.test/ns/widget"), VersionConstraints::parse(u">=1,<2"_s).value());
        QCOMPARE(c->providers[0].constraints.toString(), u">= 1.0.0, < 2.0.0"_s);
        const Result<LockFile> noC = lockedit::setConstraints(doc, addr("example.test/ns/widget"), VersionConstraints());
        QVERIFY(!writeLockFile(noC.value()).contains("constraints"));

        const Result<LockFile> h =
            lockedit::addHashes(doc, addr("example.test/ns/widget"), {hash(u"zh:b"_s), hash(u"h0:c"_s), hash(u"h1:a"_s)});
        QCOMPARE(test::toStrings(h->providers[0].hashes), (QStringList{u"h0:c"_s, u"h1:a"_s, u"zh:b"_s}));
        const Result<LockFile> r = lockedit::removeHashes(doc, addr("example.test/ns/widget"), {hash(u"h1:a"_s), hash(u"h1:zzz"_s)});
        QCOMPARE(test::toStrings(r->providers[0].hashes), QStringList{u"zh:b"_s});

        // None of this touched the original.
        QCOMPARE(writeLockFile(doc), before);
    }

    void addHashesFromMirror()
    {
        LockFile doc;
        doc.setProvider(test::providerLock("example.test/ns/widget", "1.0.0", "", {u"h1:already-there"_s}));
        lockedit::MirrorHashOptions o;
        o.platforms = {platform("linux_amd64"), platform("darwin_arm64")};
        const Result<lockedit::MirrorEditResult> r = lockedit::addHashesFromMirror(doc, m_catalog, o);
        QVERIFY(r.ok());
        QVERIFY(!r->hasProblems());
        const QString linux = m_fixture->expected("example.test/ns/widget", "1.0.0", "linux_amd64", "h1");
        const QString darwin = m_fixture->expected("example.test/ns/widget", "1.0.0", "darwin_arm64", "h1");
        QVERIFY(linux.startsWith(u"h1:"_s) && darwin.startsWith(u"h1:"_s) && linux != darwin);
        QStringList want{u"h1:already-there"_s, linux, darwin};
        want.sort();
        QCOMPARE(test::toStrings(r->document.providers[0].hashes), want);
        QCOMPARE(r->notes.size(), 2);
        QCOMPARE(r->notes[0].newHashes, 1);
        QCOMPARE(doc.providers[0].hashes.size(), 1); // input untouched

        // Again: nothing new.
        const Result<lockedit::MirrorEditResult> again = lockedit::addHashesFromMirror(r->document, m_catalog, o);
        QCOMPARE(again->document.providers[0].hashes, r->document.providers[0].hashes);
        QCOMPARE(again->notes[0].newHashes, 0);

        // With zh:, the zip's SHA-256 as well.
        o.includeZh = true;
        o.platforms = {platform("linux_amd64")};
        const Result<lockedit::MirrorEditResult> zh = lockedit::addHashesFromMirror(doc, m_catalog, o);
        QVERIFY(test::toStrings(zh->document.providers[0].hashes)
                    .contains(m_fixture->expected("example.test/ns/widget", "1.0.0", "linux_amd64", "zh")));
        QCOMPARE(zh->document.providers[0].hashes.size(), 3);
    }

    void addHashesProblems()
    {
        LockFile doc;
        doc.setProvider(test::providerLock("example.test/ns/widget", "1.0.0"));
        doc.setProvider(test::providerLock("example.test/ns/gadget", "3.0.0"));
        doc.setProvider(test::providerLock("example.test/ns/broken", "1.0.0"));
        doc.setProvider(test::providerLock("example.test/ns/absent", "1.0.0"));
        doc.setProvider(test::providerLock("example.test/ns/widget-old", "1.0.0"));
        lockedit::MirrorHashOptions o;
        o.platforms = {platform("linux_amd64"), platform("windows_386")};
        o.includeZh = true;
        o.providers = {addr("example.test/ns/widget"), addr("example.test/ns/gadget"), addr("example.test/ns/broken"),
                       addr("example.test/ns/absent")};
        const Result<lockedit::MirrorEditResult> r = lockedit::addHashesFromMirror(doc, m_catalog, o);
        QVERIFY(r.ok());
        QVERIFY(r->hasProblems());
        QStringList kinds;
        for (const lockedit::MirrorHashNote &n : r->notes)
            kinds << n.provider.type() + u' ' + n.platform.toString() + u' ' + toString(n.kind);
        QCOMPARE(kinds,
                 (QStringList{
                     u"absent linux_amd64 provider not in mirror"_s,
                     u"absent windows_386 provider not in mirror"_s,
                     u"broken linux_amd64 hash failed"_s,
                     u"broken windows_386 platform not in mirror"_s,
                     u"gadget linux_amd64 no zip for zh"_s,
                     u"gadget linux_amd64 added"_s,
                     u"gadget windows_386 platform not in mirror"_s,
                     u"widget linux_amd64 added"_s,
                     u"widget windows_386 platform not in mirror"_s,
                 }));
        // The unpacked package contributes its directory h1: only.
        QCOMPARE(test::toStrings(r->document.find(addr("example.test/ns/gadget"))->hashes),
                 QStringList{m_fixture->expected("example.test/ns/gadget", "3.0.0", "linux_amd64", "h1")});

        QVERIFY(!lockedit::addHashesFromMirror(doc, m_catalog, {}).ok()); // no platform
        lockedit::MirrorHashOptions unknown;
        unknown.platforms = {platform("linux_amd64")};
        unknown.providers = {addr("example.test/ns/nope")};
        QCOMPARE(lockedit::addHashesFromMirror(doc, m_catalog, unknown).error().code, ErrorCode::NotFound);

        // A version the mirror lacks.
        LockFile v;
        v.setProvider(test::providerLock("example.test/ns/widget", "9.0.0"));
        lockedit::MirrorHashOptions one;
        one.platforms = {platform("linux_amd64")};
        QVERIFY(lockedit::addHashesFromMirror(v, m_catalog, one)->notes[0].kind == lockedit::MirrorHashNote::Kind::VersionMissing);
    }

    void upgrade_data()
    {
        QTest::addColumn<QString>("locked");
        QTest::addColumn<QString>("constraints");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("kind");
        QTest::newRow("pessimistic minor") << u"1.0.0"_s << u"~> 1.0"_s << u"1.1.0"_s << int(lockedit::UpgradeNote::Kind::Upgraded);
        QTest::newRow("no constraints") << u"1.0.0"_s << QString() << u"2.0.0"_s << int(lockedit::UpgradeNote::Kind::Upgraded);
        QTest::newRow("lower bound") << u"1.0.0"_s << u">= 1.0.0"_s << u"2.0.0"_s << int(lockedit::UpgradeNote::Kind::Upgraded);
        // A prerelease only when a constraint names it exactly.
        QTest::newRow("exact prerelease") << u"1.0.0"_s << u"1.2.0-beta1"_s << u"1.2.0-beta1"_s
                                          << int(lockedit::UpgradeNote::Kind::Upgraded);
        QTest::newRow("already newest") << u"2.0.0"_s << QString() << u"2.0.0"_s << int(lockedit::UpgradeNote::Kind::UpToDate);
        QTest::newRow("never downgrades") << u"3.0.0"_s << QString() << u"3.0.0"_s << int(lockedit::UpgradeNote::Kind::UpToDate);
        QTest::newRow("nothing allowed") << u"1.0.0"_s << u"> 5.0.0"_s << u"1.0.0"_s << int(lockedit::UpgradeNote::Kind::NotInMirror);
    }

    void upgrade()
    {
        QFETCH(QString, locked);
        QFETCH(QString, constraints);
        QFETCH(QString, expected);
        QFETCH(int, kind);
        LockFile doc;
        doc.setProvider(
            test::providerLock("example.test/ns/widget", locked.toUtf8().constData(), constraints.toUtf8().constData(), {u"h1:old"_s}));
        const Result<lockedit::UpgradeResult> r = lockedit::upgradeFromMirror(doc, m_catalog, {});
        QVERIFY(r.ok());
        QCOMPARE(r->notes.size(), 1);
        QCOMPARE(int(r->notes[0].kind), kind);
        const ProviderLock &p = r->document.providers[0];
        QCOMPARE(p.version.toString(), expected);
        QCOMPARE(p.constraints.toString(), doc.providers[0].constraints.toString());
        if (kind != int(lockedit::UpgradeNote::Kind::Upgraded)) {
            QCOMPARE(test::toStrings(p.hashes), QStringList{u"h1:old"_s});
            QVERIFY(!r->changed());
            return;
        }
        QVERIFY(r->changed());
        // Every platform of the new version, hashed by Python.
        QStringList want;
        for (const char *pl : {"linux_amd64", "darwin_arm64", "windows_amd64"}) {
            const QString h = m_fixture->expected("example.test/ns/widget", expected.toUtf8().constData(), pl, "h1");
            if (!h.isEmpty())
                want << h;
        }
        want.sort();
        QVERIFY(!want.isEmpty());
        QCOMPARE(test::toStrings(p.hashes), want);
    }

    void upgradeOnlyChosenProviders()
    {
        LockFile doc;
        doc.setProvider(test::providerLock("example.test/ns/widget", "1.0.0"));
        doc.setProvider(test::providerLock("example.test/ns/gadget", "2.0.0"));
        lockedit::UpgradeOptions o;
        o.providers = {addr("example.test/ns/gadget")};
        o.platforms = {platform("linux_amd64")};
        const Result<lockedit::UpgradeResult> r = lockedit::upgradeFromMirror(doc, m_catalog, o);
        QCOMPARE(r->document.find(addr("example.test/ns/widget"))->version.toString(), u"1.0.0"_s);
        QCOMPARE(r->document.find(addr("example.test/ns/gadget"))->version.toString(), u"3.0.0"_s);
        QCOMPARE(r->notes.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLockEdit)
#include "tst_lockedit.moc"
