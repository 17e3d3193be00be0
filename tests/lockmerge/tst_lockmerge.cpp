// lockmerge: the three-way merge rules, one test per rule of issue 18, on hand-written lock
// files; the expected bytes are written out by hand in the canonical form of tofu-formats.md §1.1
// (the `block()` helper below formats exactly that, independently of LockWriter), and — for the
// union — against real terraform-written files of the shared corpus: each corpus file split into
// three by deleting hash lines must merge back to itself, byte for byte.

#include "model/lockfile/LockMerge.h"
#include "model/lockfile/LockWriter.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QTest>

using namespace provender;
using namespace provender::lockmerge;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kTofu = provender::test::kTofuLockHeader;
const QByteArray kTerraform =
    "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";

/// One provider block as tofu writes it (leading blank line included), hashes in the given order.
constexpr auto block = provender::test::providerBlock;

const char *const A = "registry.opentofu.org/hashicorp/aws";
const char *const N = "registry.opentofu.org/hashicorp/null";
const char *const R = "registry.opentofu.org/hashicorp/random";

// Hash names sort as written: h1:A < h1:B < ... < zh:1 < zh:2.
const QByteArray hA = "h1:AAAA=", hB = "h1:BBBB=", hC = "h1:CCCC=", hD = "h1:DDDD=", z1 = "zh:1111", z2 = "zh:2222";

MergeInput in(const QByteArray &bytes, const char *name = "x.hcl")
{
    MergeInput i = readMergeInput(bytes, QString::fromLatin1(name));
    if (!i.ok())
        qWarning() << i.errors.value(0).toString(QString::fromLatin1(name));
    return i;
}

MergeResult merge(const QByteArray &base, const QByteArray &ours, const QByteArray &theirs)
{
    return mergeLockFiles(in(base, "base"), in(ours, "ours"), in(theirs, "theirs"));
}

/// Removes the lines of `text` whose 0-based number is in `lines`.
QByteArray withoutLines(const QByteArray &text, const QSet<int> &lines)
{
    QList<QByteArray> all = text.split('\n');
    QByteArray out;
    for (int i = 0; i < all.size(); ++i) {
        if (lines.contains(i))
            continue;
        out += all.at(i);
        if (i + 1 < all.size())
            out += '\n';
    }
    return out;
}

} // namespace

class TestLockMerge : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unchangedEverywhere()
    {
        const QByteArray f = kTofu + block(A, "5.1.0", ">= 5.0.0", {hA, z1}) + block(N, "3.2.1", "", {hB});
        const MergeResult r = merge(f, f, f);
        QCOMPARE(r.conflictCount(), 0);
        QCOMPARE(r.bytes(), f);
        QCOMPARE(toString(r.providers.at(0).outcome), toString(Outcome::Unchanged));
    }

    void hashesAddedOnBothSidesAreUnited()
    {
        const QByteArray base = kTofu + block(A, "5.1.0", ">= 5.0.0", {hB}) + block(N, "3.2.1", "", {hC});
        const QByteArray ours = kTofu + block(A, "5.1.0", ">= 5.0.0", {hA, hB}) + block(N, "3.2.1", "", {hC, z2});
        const QByteArray theirs = kTofu + block(A, "5.1.0", ">= 5.0.0", {hB, hD, z1}) + block(N, "3.2.1", "", {hC});
        const MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.conflictCount(), 0);
        QCOMPARE(r.bytes(), kTofu + block(A, "5.1.0", ">= 5.0.0", {hA, hB, hD, z1}) + block(N, "3.2.1", "", {hC, z2}));
        QCOMPARE(toString(r.providers.at(0).outcome), toString(Outcome::Union));
        QCOMPARE(toString(r.providers.at(1).outcome), toString(Outcome::Ours));
    }

    void hashRemovedOnOneSideStaysRemoved()
    {
        // Ours drops hC (the other side kept it untouched) and theirs adds hD: hC stays gone.
        const QByteArray base = kTofu + block(N, "3.2.1", "", {hB, hC});
        const QByteArray ours = kTofu + block(N, "3.2.1", "", {hB});
        const QByteArray theirs = kTofu + block(N, "3.2.1", "", {hB, hC, hD});
        const MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.bytes(), kTofu + block(N, "3.2.1", "", {hB, hD}));
        // ... and is said (stderr of the CLI): not a silent drop.
        QCOMPARE(r.noteLines(),
                 QStringList{QString::fromLatin1(N) + u": h1:CCCC= stays removed (ours removed it, theirs left it alone)"_s});
        QVERIFY(merge(base, base, theirs).noteLines().isEmpty()); // theirs' block whole: nothing removed
    }

    void upgradeOnOneSideWinsOverHashesOnTheOther()
    {
        const QByteArray base = kTofu + block(A, "5.1.0", "~> 5.1", {hA}) + block(N, "3.2.1", "", {hC});
        const QByteArray ours = kTofu + block(A, "5.1.0", "~> 5.1", {hA, hB, z1}) + block(N, "3.2.1", "", {hC, hD});
        const QByteArray theirs = kTofu + block(A, "5.4.0", "~> 5.4", {hD}) + block(N, "3.2.1", "", {hC});
        const MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.conflictCount(), 0);
        // The upgraded block whole (version, constraints, hashes); the other provider's hashes.
        QCOMPARE(r.bytes(), kTofu + block(A, "5.4.0", "~> 5.4", {hD}) + block(N, "3.2.1", "", {hC, hD}));
        QCOMPARE(toString(r.providers.at(0).outcome), toString(Outcome::Theirs));
        QCOMPARE(toString(r.providers.at(0).theirsChange()), toString(SideChange::Upgraded));
        // And the mirror image.
        QCOMPARE(merge(base, theirs, ours).bytes(), kTofu + block(A, "5.4.0", "~> 5.4", {hD}) + block(N, "3.2.1", "", {hC, hD}));
    }

    void differentUpgradesConflictOnlyThere()
    {
        const QByteArray base = kTofu + block(A, "5.1.0", "", {hA}) + block(N, "3.2.1", "", {hC}) + block(R, "3.0.0", "", {hB});
        const QByteArray ours = kTofu + block(A, "5.2.0", "", {hB}) + block(N, "3.2.1", "", {hC, hD}) + block(R, "3.0.0", "", {hB});
        const QByteArray theirs = kTofu + block(A, "5.3.0", "", {hC}) + block(N, "3.2.1", "", {hC}) + block(R, "3.0.0", "", {hB, z1});
        const MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.conflictCount(), 1);
        const QByteArray expected = kTofu + "\n<<<<<<< ours\n" + block(A, "5.2.0", "", {hB}).mid(1) + "=======\n"
            + block(A, "5.3.0", "", {hC}).mid(1) + ">>>>>>> theirs\n" + block(N, "3.2.1", "", {hC, hD}) + block(R, "3.0.0", "", {hB, z1});
        QCOMPARE(r.bytes(), expected);
        const QStringList lines = r.conflictLines();
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.at(0).startsWith(QLatin1StringView(A)), qPrintable(lines.at(0)));
        QVERIFY2(lines.at(0).contains(u"upgraded 5.1.0 -> 5.2.0"_s) && lines.at(0).contains(u"upgraded 5.1.0 -> 5.3.0"_s),
                 qPrintable(lines.at(0)));

        // diff3 style adds the base between the sides.
        WriteOptions o;
        o.diff3 = true;
        QVERIFY(r.bytes(o).contains(QByteArray("\n||||||| base\n" + block(A, "5.1.0", "", {hA}).mid(1) + "=======\n")));
    }

    void addedProviders()
    {
        const QByteArray base = kTofu + block(N, "3.2.1", "", {hC});
        // Added on one side.
        QCOMPARE(merge(base, base + block(R, "3.0.0", "", {hA}).mid(0), base).bytes(), base + block(R, "3.0.0", "", {hA}));
        QCOMPARE(merge(base, base, kTofu + block(A, "5.0.0", "", {hB}) + block(N, "3.2.1", "", {hC})).bytes(),
                 kTofu + block(A, "5.0.0", "", {hB}) + block(N, "3.2.1", "", {hC}));
        // Added on both, same version: the union.
        const MergeResult same = merge(base, base + block(R, "3.0.0", ">= 3.0.0", {hA}), base + block(R, "3.0.0", ">= 3.0.0", {hB}));
        QCOMPARE(same.conflictCount(), 0);
        QCOMPARE(same.bytes(), base + block(R, "3.0.0", ">= 3.0.0", {hA, hB}));
        // Added on both, same version, other constraints: a conflict.
        const MergeResult constraints = merge(base, base + block(R, "3.0.0", ">= 3.0.0", {hA}), base + block(R, "3.0.0", "~> 3.0", {hA}));
        QCOMPARE(constraints.conflictCount(), 1);
        QCOMPARE(int(constraints.providers.at(1).conflict), int(ConflictKind::ConstraintsDiffer));
        // Added on both, different versions: a conflict.
        const MergeResult differ = merge(base, base + block(R, "3.0.0", "", {hA}), base + block(R, "3.1.0", "", {hB}));
        QCOMPARE(differ.conflictCount(), 1);
        QCOMPARE(int(differ.providers.at(1).conflict), int(ConflictKind::DifferentVersions));
        QVERIFY(differ.conflictLines().at(0).contains(u"both sides added it with different versions (ours 3.0.0, theirs 3.1.0)"_s));
    }

    void removedProviders()
    {
        const QByteArray base = kTofu + block(A, "5.1.0", "", {hA}) + block(N, "3.2.1", "", {hC});
        const QByteArray withoutA = kTofu + block(N, "3.2.1", "", {hC});
        // Removed on one side, unchanged on the other: removed (either side).
        QCOMPARE(merge(base, withoutA, base).bytes(), withoutA);
        QCOMPARE(merge(base, base, withoutA).bytes(), withoutA);
        // Removed on both.
        QCOMPARE(merge(base, withoutA, withoutA).bytes(), withoutA);
        // Removed on one side, changed (hashes only) on the other: modify/delete conflict.
        const QByteArray changed = kTofu + block(A, "5.1.0", "", {hA, hB}) + block(N, "3.2.1", "", {hC});
        const MergeResult r = merge(base, withoutA, changed);
        QCOMPARE(r.conflictCount(), 1);
        QCOMPARE(int(r.providers.at(0).conflict), int(ConflictKind::ModifyDelete));
        QCOMPARE(r.bytes(),
                 kTofu + "\n<<<<<<< ours\n=======\n" + block(A, "5.1.0", "", {hA, hB}).mid(1) + ">>>>>>> theirs\n"
                     + block(N, "3.2.1", "", {hC}));
        QVERIFY(r.conflictLines().at(0).contains(u"ours removed it"_s));
        // ... and changed by its constraints only.
        const QByteArray constrained = kTofu + block(A, "5.1.0", ">= 5.0.0", {hA}) + block(N, "3.2.1", "", {hC});
        QCOMPARE(int(merge(base, constrained, withoutA).providers.at(0).conflict), int(ConflictKind::ModifyDelete));
    }

    void constraints()
    {
        const QByteArray base = kTofu + block(N, "3.2.1", ">= 3.0.0", {hC});
        // One side changed them, the other added hashes: both changes.
        const MergeResult one = merge(base, kTofu + block(N, "3.2.1", "~> 3.2", {hC}), kTofu + block(N, "3.2.1", ">= 3.0.0", {hC, hD}));
        QCOMPARE(one.bytes(), kTofu + block(N, "3.2.1", "~> 3.2", {hC, hD}));
        // Both changed them the same way.
        QCOMPARE(merge(base, kTofu + block(N, "3.2.1", "~> 3.2", {hC, hA}), kTofu + block(N, "3.2.1", "~> 3.2", {hC, hD})).bytes(),
                 kTofu + block(N, "3.2.1", "~> 3.2", {hA, hC, hD}));
        // Both changed them differently.
        const MergeResult both = merge(base, kTofu + block(N, "3.2.1", "~> 3.2", {hC}), kTofu + block(N, "3.2.1", "~> 3.2.1", {hC, hD}));
        QCOMPARE(both.conflictCount(), 1);
        QCOMPARE(int(both.providers.at(0).conflict), int(ConflictKind::ConstraintsDiffer));
        QVERIFY(both.conflictLines().at(0).contains(u"\"~> 3.2\""_s) && both.conflictLines().at(0).contains(u"\"~> 3.2.1\""_s));
        // Removing the constraints counts as a change.
        QCOMPARE(merge(base, kTofu + block(N, "3.2.1", "", {hC}), kTofu + block(N, "3.2.1", ">= 3.0.0", {hC, hD})).bytes(),
                 kTofu + block(N, "3.2.1", "", {hC, hD}));
    }

    void bothUpgradedToTheSameVersion()
    {
        const QByteArray base = kTofu + block(N, "3.2.1", "", {hA});
        const MergeResult r = merge(base, kTofu + block(N, "3.2.2", "", {hB}), kTofu + block(N, "3.2.2", "", {hC}));
        QCOMPARE(r.conflictCount(), 0);
        QCOMPARE(r.bytes(), kTofu + block(N, "3.2.2", "", {hB, hC})); // the old version's hA is not carried over
    }

    void header()
    {
        const QByteArray blocks = block("registry.terraform.io/hashicorp/null", "3.2.1", "", {hC});
        const QByteArray tofu = kTofu + blocks;
        const QByteArray tf = kTerraform + blocks;
        QCOMPARE(merge(tofu, tofu, tofu).bytes(), tofu);
        QCOMPARE(merge(tf, tf, tf).bytes(), tf);
        QCOMPARE(merge(tf, tofu, tf).bytes(), tofu);         // ours changed it
        QCOMPARE(merge(tf, tf, tofu).bytes(), tofu);         // theirs changed it
        QCOMPARE(merge(tofu, tf, tf).bytes(), tf);           // both
        QCOMPARE(merge(QByteArray(), tf, tofu).bytes(), tf); // no base: ours
    }

    void emptyBase()
    {
        // git passes an empty %O when both branches added the file.
        const MergeResult r =
            merge({}, kTofu + block(N, "3.2.1", "", {hA}), kTofu + block(N, "3.2.1", "", {hB}) + block(R, "3.0.0", "", {hC}));
        QCOMPARE(r.bytes(), kTofu + block(N, "3.2.1", "", {hA, hB}) + block(R, "3.0.0", "", {hC}));
    }

    void nonCanonicalInputsGiveCanonicalOutput()
    {
        const QByteArray base = kTofu + block(N, "3.2.1", "", {hC});
        const QByteArray ours = "provider \"registry.opentofu.org/hashicorp/null\" {\r\n version=\"3.2.1\"\r\n hashes=[\"" + hD + "\",\""
            + hC + "\",\"" + hD + "\"]\r\n}\r\n"; // no header, CRLF, unsorted, duplicate
        const MergeResult r = merge(base, ours, base);
        QCOMPARE(r.bytes(), kTofu + block(N, "3.2.1", "", {hC, hD}));
    }

    void foreignBlocksAreKept()
    {
        const QByteArray base = kTofu + block(N, "3.2.1", "", {hC}) + "\nmodule \"a\" {\n}\n";
        const QByteArray ours = kTofu + block(N, "3.2.1", "", {hC, hD}) + "\nmodule \"a\" {\n}\n\nfuture \"x\" {\n  y = 1\n}\n";
        const QByteArray theirs = kTofu + block(N, "3.2.1", "", {hC}) + "\nmodule \"a\" {\n}\n";
        const MergeInput o = in(ours);
        QVERIFY(o.ok()); // the unknown block is tolerated (kept verbatim)
        QCOMPARE(o.foreign.size(), 2);
        QCOMPARE(o.foreign.at(1).key, u"future \"x\""_s);
        const MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.conflictCount(), 0);
        QCOMPARE(r.bytes(), kTofu + block(N, "3.2.1", "", {hC, hD}) + "\nmodule \"a\" {\n}\n\nfuture \"x\" {\n  y = 1\n}\n");
        // Removed on one side: removed; changed differently on both: a conflict around it.
        QCOMPARE(merge(base, kTofu + block(N, "3.2.1", "", {hC}), base).bytes(), kTofu + block(N, "3.2.1", "", {hC}));
        const MergeResult c = merge(base, kTofu + block(N, "3.2.1", "", {hC}) + "\nmodule \"a\" {\n  b = 1\n}\n",
                                    kTofu + block(N, "3.2.1", "", {hC}) + "\nmodule \"a\" {\n  b = 2\n}\n");
        QCOMPARE(c.conflictCount(), 1);
        QCOMPARE(c.bytes(),
                 kTofu + block(N, "3.2.1", "", {hC})
                     + "\n<<<<<<< ours\nmodule \"a\" {\n  b = 1\n}\n=======\nmodule \"a\" {\n  b = 2\n}\n>>>>>>> theirs\n");
    }

    void invalidInputs_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("unclosed block") << QByteArray(kTofu
                                                      + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n")
                                        << -1 << -1;
        QTest::newRow("conflict markers") << QByteArray(kTofu + "<<<<<<< HEAD\n=======\n>>>>>>> b\n") << 3 << 1;
        QTest::newRow("bad version") << QByteArray(kTofu
                                                   + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2\"\n}\n")
                                     << 5 << 13;
        QTest::newRow("duplicate") << QByteArray(kTofu + block(N, "3.2.1", "", {hA}) + block(N, "3.2.1", "", {hA})) << 11 << 1;
        QTest::newRow("unknown attribute") << QByteArray(
            kTofu + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  foo = 1\n}\n")
                                           << 6 << 3;
    }

    void invalidInputs()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        QFETCH(int, column);
        const MergeInput i = readMergeInput(bytes, u"f.hcl"_s);
        QVERIFY(!i.ok());
        QVERIFY(i.errors.at(0).range.isValid());
        if (line < 0)
            return; // (where HCL reports an unclosed block is the parser's business: tst_lockparser)
        QCOMPARE(i.errors.at(0).range.line, line);
        QCOMPARE(i.errors.at(0).range.column, column);
    }

    void commentsAreReported()
    {
        const MergeInput i = in(kTofu + "# kept by git, lost by tofu\n" + block(N, "3.2.1", "", {hA}));
        QVERIFY(i.ok());
        QCOMPARE(i.dropped.size(), 1);
        QCOMPARE(i.dropped.at(0).range.line, 3);
        QVERIFY(i.dropped.at(0).text.contains(u"kept by git"_s));
    }

    void choices()
    {
        const QByteArray base = kTofu + block(N, "3.2.1", "", {hA});
        const QByteArray ours = kTofu + block(N, "3.2.1", "~> 3.2", {hA, hB});
        const QByteArray theirs = kTofu + block(N, "3.2.1", ">= 3.0.0", {hA, hC});
        MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.conflictCount(), 1);
        ProviderMerge &p = r.providers[0];
        QVERIFY(p.isAvailable(Choice::Union));
        p.choice = Choice::Union; // the hashes of both; ours' constraints (theirs' differ)
        QCOMPARE(r.conflictCount(), 0);
        QCOMPARE(r.bytes(), kTofu + block(N, "3.2.1", "~> 3.2", {hA, hB, hC}));
        p.choice = Choice::Theirs;
        QCOMPARE(r.bytes(), theirs);
        p.choice = Choice::Base;
        QCOMPARE(r.bytes(), base);
        // Union needs the same version on both sides.
        const MergeResult v = merge(base, kTofu + block(N, "3.2.2", "", {hB}), kTofu + block(N, "3.2.3", "", {hC}));
        QVERIFY(!v.providers.at(0).isAvailable(Choice::Union));
        QVERIFY(!v.providers.at(0).resolved(Choice::Union));
    }

    void conflictMarkersSplitBackIntoTheSides()
    {
        const QByteArray base = kTofu + block(A, "5.1.0", "", {hA}) + block(N, "3.2.1", "", {hC});
        const QByteArray ours = kTofu + block(A, "5.2.0", "", {hB}) + block(N, "3.2.1", "", {hC});
        const QByteArray theirs = kTofu + block(N, "3.2.1", "", {hC, hD});
        const MergeResult r = merge(base, ours, theirs);
        QCOMPARE(r.conflictCount(), 1);
        WriteOptions o;
        o.diff3 = true;
        const Result<ConflictSplit> s = splitConflictMarkers(r.bytes(o), u"m.hcl"_s);
        QVERIFY(s.ok());
        QCOMPARE(s->regions, 1);
        QCOMPARE(s->oursLabel, u"ours"_s);
        QCOMPARE(s->theirsLabel, u"theirs"_s);
        QVERIFY(hasConflictMarkers(r.bytes(o)));
        // Outside the region both sides share theirs' hash for null (already merged).
        const MergeInput so = in(s->ours), st = in(s->theirs);
        QVERIFY(so.ok() && st.ok());
        QCOMPARE(*so.document.find(so.document.providers.at(0).address), so.document.providers.at(0));
        QCOMPARE(so.document.providers.at(0).version.toString(), u"5.2.0"_s);
        QVERIFY(!st.document.contains(st.document.providers.at(0).address) || st.document.providers.size() == 1);
        QVERIFY(s->base.has_value());
        QCOMPARE(in(*s->base).document.providers.at(0).version.toString(), u"5.1.0"_s);
        // Merging the split sides again gives the same conflict (and nothing else).
        const MergeResult again = mergeLockFiles(in(*s->base), so, st);
        QCOMPARE(again.conflictLines(), r.conflictLines());

        // git's own style (labels, no base) splits too.
        const QByteArray gitStyle = "a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> feature\nd\n";
        const Result<ConflictSplit> g = splitConflictMarkers(gitStyle);
        QVERIFY(g.ok());
        QCOMPARE(g->ours, QByteArray("a\nb\nd\n"));
        QCOMPARE(g->theirs, QByteArray("a\nc\nd\n"));
        QVERIFY(!g->base);
        QCOMPARE(g->oursLabel, u"HEAD"_s);
        QCOMPARE(g->theirsLabel, u"feature"_s);
        QVERIFY(!hasConflictMarkers(kTofu + block(N, "3.2.1", "", {hC})));
    }

    void malformedMarkers_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::newRow("not closed") << QByteArray("a\n<<<<<<< ours\nb\n=======\nc\n") << 5;
        QTest::newRow("no separator") << QByteArray("<<<<<<< ours\nb\n>>>>>>> theirs\n") << 3;
        QTest::newRow("close outside") << QByteArray("a\n>>>>>>> theirs\n") << 2;
        QTest::newRow("nested") << QByteArray("<<<<<<< a\n<<<<<<< b\n") << 2;
    }

    void malformedMarkers()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        const Result<ConflictSplit> s = splitConflictMarkers(bytes, u"m.hcl"_s);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().location.line, line);
        QVERIFY(s.error().message.startsWith(u"m.hcl:"_s));
    }

    /// Real terraform-written files: drop some hash lines in ours, others in theirs, both sets in
    /// the base; the merge must give back the file exactly as terraform wrote it.
    void corpusUnionGivesTerraformsFile()
    {
        const QString dir = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(dir, u"lockfiles"_s);
        int checked = 0;
        for (const QFileInfo &fi : QDir(dir).entryInfoList({u"*.hcl"_s}, QDir::Files, QDir::Name)) {
            const QByteArray original = test::readFile(fi.filePath());
            const MergeInput parsed = readMergeInput(original, fi.fileName());
            // Only files as terraform left them (the corpus also has broken, commented and
            // hand-edited ones, e.g. `",  ]`); the filter selects inputs, the expected bytes
            // are still the file itself.
            if (!parsed.ok() || !parsed.foreign.isEmpty() || !isCanonicalLockFile(original, parseLockFile(original)))
                continue;
            // Hash lines: `    "scheme:...",`; the first of each list stays everywhere.
            QSet<int> oursDrop, theirsDrop;
            const QList<QByteArray> lines = original.split('\n');
            int inList = -1;
            for (int i = 0; i < lines.size(); ++i) {
                if (lines.at(i) == "  hashes = [") {
                    inList = 0;
                    continue;
                }
                if (inList < 0 || !lines.at(i).startsWith("    \""))
                    continue;
                ++inList;
                if (inList % 3 == 2)
                    oursDrop.insert(i);
                else if (inList % 3 == 0)
                    theirsDrop.insert(i);
            }
            if (oursDrop.isEmpty() || theirsDrop.isEmpty())
                continue;
            const QByteArray ours = withoutLines(original, theirsDrop); // ours added what theirs lacks
            const QByteArray theirs = withoutLines(original, oursDrop);
            const QByteArray base = withoutLines(original, oursDrop + theirsDrop);
            const MergeResult r =
                mergeLockFiles(readMergeInput(base, u"base"_s), readMergeInput(ours, u"ours"_s), readMergeInput(theirs, u"theirs"_s));
            QCOMPARE(r.conflictCount(), 0);
            if (r.bytes() != original)
                QFAIL(qPrintable(fi.fileName() + u": the merge differs from terraform's file:\n"_s + QString::fromUtf8(r.bytes())));
            ++checked;
        }
        QVERIFY2(checked >= 10, qPrintable(u"only %1 corpus files were usable"_s.arg(checked)));
        qInfo("%d corpus files merged back to themselves", checked);
    }
};

QTEST_GUILESS_MAIN(TestLockMerge)
#include "tst_lockmerge.moc"
