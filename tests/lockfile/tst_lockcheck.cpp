// Lock × mirror matrix. Expected verdicts follow DESIGN.md's vocabulary and verifyAgainstLock's
// lock-file rule; the hashes that should match are Python's (make_lock_mirror.py).

#include "model/lockfile/LockCheck.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/LockTestSupport.h"

#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

ProviderLock lock(const char *address, const char *version, const QStringList &hashes = {})
{
    return provender::test::providerLock(address, version, "", hashes);
}

QString matrix(const LockCheckResult &r)
{
    QStringList rows;
    for (const LockCheckRow &row : r.rows) {
        QStringList cells;
        for (const LockCheckCell &c : row.cells)
            cells << toString(c.verdict());
        rows << row.address.type() + u": "_s + cells.join(u' ');
    }
    return rows.join(u"; "_s);
}

} // namespace

class TestLockCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matrixOfVerdicts()
    {
        test::LockMirrorFixture f({
            {"example.test/ns/good", "1.0.0", "linux_amd64"},
            {"example.test/ns/good", "1.0.0", "darwin_arm64", false, true},
            {"example.test/ns/bad", "1.0.0", "linux_amd64"},
            {"example.test/ns/nohash", "1.0.0", "linux_amd64"},
            {"example.test/ns/corrupt", "1.0.0", "linux_amd64", false, false, true},
            {"example.test/ns/otherversion", "2.0.0", "linux_amd64"},
            {"example.test/ns/unpacked", "1.0.0", "linux_amd64", true},
        });
        if (!f.error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + f.error()));
        const Result<Catalog> catalog = scanFileSystemMirror(f.root());
        QVERIFY(catalog.ok());

        LockFile doc;
        // good: linux by its extracted h1:, darwin by its zip-level h1: (both count, DESIGN.md).
        doc.setProvider(lock("example.test/ns/good", "1.0.0",
                             {f.expected("example.test/ns/good", "1.0.0", "linux_amd64", "h1"),
                              f.expected("example.test/ns/good", "1.0.0", "darwin_arm64", "h1_zip")}));
        doc.setProvider(lock("example.test/ns/bad", "1.0.0", {u"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="_s, u"test:ignored"_s}));
        doc.setProvider(lock("example.test/ns/nohash", "1.0.0", {u"test:unknown-scheme-only"_s}));
        doc.setProvider(lock("example.test/ns/corrupt", "1.0.0", {u"h1:x"_s}));
        doc.setProvider(lock("example.test/ns/otherversion", "1.0.0", {u"h1:x"_s}));
        doc.setProvider(lock("example.test/ns/absent", "1.0.0", {u"h1:x"_s}));
        doc.setProvider(lock("example.test/ns/unpacked", "1.0.0", {f.expected("example.test/ns/unpacked", "1.0.0", "linux_amd64", "h1")}));

        const LockCheckResult r = checkLockAgainstMirror(doc, catalog.value());
        QStringList cols;
        for (const Platform &p : r.platforms)
            cols << p.toString();
        QCOMPARE(cols, (QStringList{u"darwin_arm64"_s, u"linux_amd64"_s})); // what the locked versions offer
        QCOMPARE(matrix(r),
                 u"absent: missing missing; bad: missing mismatch; corrupt: missing error; "
                 "good: verified verified; nohash: missing unverified; otherversion: missing missing; "
                 "unpacked: missing verified"_s);
        QVERIFY(r.hasFindings());
        QCOMPARE(r.count(Verdict::Verified), 3);

        const LockCheckRow &good = r.rows[3];
        QVERIFY(good.providerInMirror && good.versionInMirror);
        QVERIFY(good.cells[0].detail.matched == QList<HashMatch>{HashMatch::H1Zip});
        // The lock's h1: is the extracted folder's; for a packed archive terraform compares HashZip,
        // equal here (no directory entries): docs/VERDICTS.md.
        QVERIFY(good.cells[1].detail.matched == QList<HashMatch>{HashMatch::H1Zip});
        QVERIFY(good.cells[1].archivePath.endsWith(u"terraform-provider-good_1.0.0_linux_amd64.zip"_s));
        const LockCheckRow &other = r.rows[5];
        QVERIFY(other.providerInMirror && !other.versionInMirror);
        QVERIFY(!r.rows[0].providerInMirror);

        // Chosen platforms are the columns, in the order given.
        LockCheckOptions o;
        o.platforms = {Platform::parse(u"linux_amd64"_s).value(), Platform::parse(u"windows_amd64"_s).value()};
        LockFile onlyGood;
        onlyGood.setProvider(doc.providers[3]);
        const LockCheckResult chosen = checkLockAgainstMirror(onlyGood, catalog.value(), o);
        QCOMPARE(matrix(chosen), u"good: verified missing"_s);
        QVERIFY(chosen.hasFindings());
        o.platforms.removeLast();
        QVERIFY(!checkLockAgainstMirror(onlyGood, catalog.value(), o).hasFindings());
    }
};

QTEST_GUILESS_MAIN(TestLockCheck)
#include "tst_lockcheck.moc"
