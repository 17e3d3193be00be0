// model/lockfile/LockMirror without a network: what each lock operation asks a network mirror for
// (the CLI's choices: the locked versions, the version the constraints select, the versions two
// files mention), opening a directory (Python-made mirror) or refusing a URL, and why a selected
// version of a network mirror cannot be used. The network side is in tst_lockui_network and the
// lock CLI suites (tst_interop_lockinit against terraform -net-mirror).

#include "model/lockfile/LockMirror.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/TestSupport.h"

#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

const char *kAlpha = "example.test/ns/alpha";
const char *kBeta = "example.test/ns/beta";

Version version(const char *text)
{
    return Version::parse(QString::fromLatin1(text)).value();
}

LockFile twoProviders()
{
    return parseLockFile(test::providerBlock(kAlpha, "1.0.0", "~> 1.0", {}) + test::providerBlock(kBeta, "2.0.0", "", {})).document;
}

} // namespace

class TestLockMirror : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void locations()
    {
        QVERIFY(isNetworkMirrorLocation(u"https://mirror.example.com/providers/"_s));
        QVERIFY(!isNetworkMirrorLocation(u"/srv/mirror"_s));
        QVERIFY(!isNetworkMirrorLocation(u"relative/dir"_s));
    }

    /// lock check / add-hashes: the file's providers (or the ones asked for) at their locked versions.
    void lockedVersionsRequest()
    {
        const LockMirrorRequest all = lockedVersions(twoProviders());
        QCOMPARE(test::toStrings(all.providers), (QStringList{QString::fromLatin1(kAlpha), QString::fromLatin1(kBeta)}));
        QCOMPARE(all.onlyVersions.value(test::addr(kAlpha)), QList<Version>{version("1.0.0")});
        QCOMPARE(all.onlyVersions.value(test::addr(kBeta)), QList<Version>{version("2.0.0")});
        QVERIFY(!all.choose);
        const LockMirrorRequest beta = lockedVersions(twoProviders(), {test::addr(kBeta)});
        QCOMPARE(test::toStrings(beta.providers), QStringList{QString::fromLatin1(kBeta)});
        QCOMPARE(beta.onlyVersions.size(), 1);
    }

    /// lock upgrade: every listed version may be read, then only the newest the recorded
    /// constraints allow (none: the newest release), as terraform reads one <version>.json.
    void upgradeVersionsRequest()
    {
        const LockMirrorRequest r = upgradeVersions(twoProviders());
        QCOMPARE(r.providers.size(), 2);
        QVERIFY(r.onlyVersions.isEmpty());
        QVERIFY(r.choose);
        const QList<Version> listed{version("1.0.0"), version("1.4.2"), version("2.0.0"), version("3.0.0-beta1")};
        QCOMPARE(r.choose(test::addr(kAlpha), listed), QList<Version>{version("1.4.2")});
        QCOMPARE(r.choose(test::addr(kBeta), listed), QList<Version>{version("2.0.0")});
        QCOMPARE(r.choose(test::addr("example.test/ns/other"), listed), QList<Version>{});
    }

    /// lock diff: the versions either file mentions.
    void provenanceVersionsRequest()
    {
        const LockFile after = parseLockFile(test::providerBlock(kAlpha, "1.1.0", "", {})).document;
        const LockMirrorRequest r = provenanceVersions(HashProvenanceIndex::wantedFor(twoProviders(), after));
        QCOMPARE(r.providers.size(), 2);
        QList<Version> alpha = r.onlyVersions.value(test::addr(kAlpha));
        std::sort(alpha.begin(), alpha.end());
        QCOMPARE(alpha, (QList<Version>{version("1.0.0"), version("1.1.0")}));
    }

    void openDirectoryOrRefuse()
    {
        const test::LockMirrorFixture fixture({{kAlpha, "1.0.0", "linux_amd64"}});
        QVERIFY2(fixture.error().isEmpty(), qPrintable(fixture.error()));
        QStringList warnings;
        const Result<LockMirror> dir = openLockMirror(fixture.root(), {}, &warnings);
        QVERIFY2(dir.ok(), dir.ok() ? "" : qPrintable(dir.error().message));
        QVERIFY(!dir->network);
        QCOMPARE(dir->location, fixture.root());
        QCOMPARE(dir->catalog.providers.size(), 1);
        QVERIFY(!selectedVersionUnusable(dir.value())); // only a network mirror's selection can be

        const Result<LockMirror> missing = openLockMirror(fixture.root() + u"/absent"_s, {}, &warnings);
        QVERIFY(!missing.ok());
        const Result<LockMirror> http = openLockMirror(u"http://mirror.example.com/"_s, {}, &warnings);
        QVERIFY(!http.ok());
        QVERIFY2(http.error().message.contains(u"https"_s), qPrintable(http.error().message));
        QVERIFY(warnings.isEmpty());
    }

    /// A network mirror read for the locked versions answers a later operation on the same
    /// versions as it is (the lock windows' first Add Hashes after Open Mirror…); other versions,
    /// or a version chooser (whose pick depends on index.json), read it again. The URL refuses
    /// connections, so a read again cannot give back the catalog read before.
    void sameRequestReusesTheRead()
    {
        const LockFile lock = twoProviders();
        LockMirror opened;
        opened.location = u"https://127.0.0.1:1/"_s;
        opened.network = NetworkMirrorOptions();
        opened.readFor = lockedVersions(lock);
        opened.readWarnings = {u"the first read's warning"_s};
        Provider marker;
        marker.address = test::addr(kAlpha);
        opened.catalog.providers << marker;

        QStringList warnings;
        const Result<LockMirror> same = lockMirrorFor(opened, lockedVersions(lock), &warnings);
        QVERIFY(same.ok());
        QCOMPARE(same->catalog.providers.size(), 1);
        QCOMPARE(warnings, QStringList{u"the first read's warning"_s}); // given again, as a read again would

        const auto readAgain = [&](const LockMirrorRequest &request) {
            QStringList w;
            const Result<LockMirror> r = lockMirrorFor(opened, request, &w);
            return !r.ok() || r->catalog.providers.isEmpty();
        };
        QVERIFY(readAgain(lockedVersions(lock, {test::addr(kBeta)})));
        QVERIFY(readAgain(upgradeVersions(lock)));
        const LockFile other =
            parseLockFile(test::providerBlock(kAlpha, "1.1.0", "~> 1.0", {}) + test::providerBlock(kBeta, "2.0.0", "", {})).document;
        QVERIFY(readAgain(lockedVersions(other)));
        // The same request but for a chooser is read again too.
        opened.readFor = upgradeVersions(lock);
        QVERIFY(readAgain(upgradeVersions(lock)));

        // A read that could not get every document (the connection is refused) is not kept for
        // reuse: the next operation reads again.
        QStringList refusedWarnings;
        const Result<LockMirror> refused = openLockMirror(u"https://127.0.0.1:1/"_s, lockedVersions(lock), &refusedWarnings);
        QVERIFY(refused.ok());
        QVERIFY(!refusedWarnings.isEmpty());
        QVERIFY(refused->network);
        QVERIFY(!refused->readFor);
    }

    /// How a network mirror is reached is the caller's (a browser URL source's settings): http to
    /// a loopback host only when they allow it, and kept for reading it again.
    void httpSettingsAreKept()
    {
        QStringList warnings;
        const Result<LockMirror> refused = openLockMirror(u"http://127.0.0.1:1/"_s, {}, &warnings);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(u"https"_s), qPrintable(refused.error().message));
        HttpSettings loopback;
        loopback.allowHttpLoopback = true;
        const Result<LockMirror> opened = openLockMirror(u"http://127.0.0.1:1/"_s, {}, &warnings, nullptr, loopback);
        QVERIFY2(opened.ok(), opened.ok() ? "" : qPrintable(opened.error().message));
        QVERIFY(opened->network && opened->network->http.allowHttpLoopback);
        const Result<LockMirror> again = lockMirrorFor(opened.value(), lockedVersions(twoProviders()), &warnings);
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().message));
        QVERIFY(again->network->http.allowHttpLoopback);
    }

    /// The wording lock upgrade and lock init print after "FILE: not changed: ".
    void unusableSelection()
    {
        LockMirror mirror;
        mirror.network = NetworkMirrorOptions();
        Provider p;
        p.address = test::addr(kAlpha);
        ProviderVersion v;
        v.version = version("2.0.0");
        p.versions << v;
        mirror.catalog.providers << p;
        QCOMPARE(
            selectedVersionUnusable(mirror).value_or(QString()),
            u"example.test/ns/alpha 2.0.0 is the selected version, but the mirror's 2.0.0.json could not be read (the warning above says why)"_s);
        mirror.catalog.providers[0].versions[0].hasVersionIndex = true;
        QCOMPARE(selectedVersionUnusable(mirror).value_or(QString()),
                 u"example.test/ns/alpha 2.0.0 is the selected version, but the mirror's 2.0.0.json lists no package"_s);
        Archive a;
        a.path = u"https://mirror.example.com/a.zip"_s;
        mirror.catalog.providers[0].versions[0].archives << a;
        QVERIFY(!selectedVersionUnusable(mirror));
    }
};

QTEST_GUILESS_MAIN(TestLockMirror)
#include "tst_lockmirror.moc"
