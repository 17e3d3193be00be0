// LockMergeModel under QAbstractItemModelTester: the tree of a three-way merge (written out by hand
// below from the hand-written inputs), choices through the handler, dataChanged-only updates.

#include "model/lockitems/LockMergeModel.h"
#include "tests/support/LockTestSupport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace provender;
using namespace provender::lockmerge;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kTofu = provender::test::kTofuLockHeader;
constexpr auto block = provender::test::providerBlock; // every block here has hashes

const char *const A = "registry.opentofu.org/hashicorp/aws";
const char *const N = "registry.opentofu.org/hashicorp/null";

MergeResult sample()
{
    const QByteArray base = kTofu + block(A, "5.1.0", "~> 5.1", {"h1:AAAA="}) + block(N, "3.2.1", "", {"h1:CCCC="});
    const QByteArray ours = kTofu + block(A, "5.2.0", "~> 5.2", {"h1:BBBB="}) + block(N, "3.2.1", "", {"h1:CCCC=", "zh:1111"});
    const QByteArray theirs =
        kTofu + block(A, "5.3.0", "~> 5.3", {"h1:DDDD="}) + block(N, "3.2.1", "", {"h1:CCCC=", "zh:2222"}) + "\nmodule \"m\" {\n}\n";
    return mergeLockFiles(readMergeInput(base, u"base"_s), readMergeInput(ours, u"ours"_s), readMergeInput(theirs, u"theirs"_s));
}

} // namespace

class TestLockMergeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tree()
    {
        LockMergeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setMerge(sample());
        QCOMPARE(model.topRowCount(), 3);
        QCOMPARE(model.dump(),
                 u"registry.opentofu.org/hashicorp/aws | 5.1.0 | 5.2.0 (upgraded) | 5.3.0 (upgraded) | conflict: different versions\n"
                 "  version | 5.1.0 | 5.2.0 | 5.3.0 | ?\n"
                 "  constraints | ~> 5.1 | ~> 5.2 | ~> 5.3 | ?\n"
                 "  hashes | 1 | 1 | 1 | ?\n"
                 "    h1:AAAA= | ✓ |  |  | ?\n"
                 "    h1:BBBB= |  | ✓ |  | ?\n"
                 "    h1:DDDD= |  |  | ✓ | ?\n"
                 "registry.opentofu.org/hashicorp/null | 3.2.1 | 3.2.1 (changed) | 3.2.1 (changed) | union: 3.2.1\n"
                 "  version | 3.2.1 | 3.2.1 | 3.2.1 | 3.2.1\n"
                 "  constraints | (none) | (none) | (none) | (none)\n"
                 "  hashes | 1 | 2 | 2 | 3\n"
                 "    h1:CCCC= | ✓ | ✓ | ✓ | ✓\n"
                 "    zh:1111 |  | ✓ |  | ✓\n"
                 "    zh:2222 |  |  | ✓ | ✓\n"
                 "module \"m\" (kept verbatim) | — | — | ✓ (added) | theirs\n"_s);
        QCOMPARE(model.index(0, 0).data(LockMergeModel::StateRole).toString(), u"conflict"_s);
        QCOMPARE(model.index(1, 0).data(LockMergeModel::StateRole).toString(), u"merged"_s);
        QCOMPARE(model.index(0, 0).data(LockMergeModel::KeyRole).toString(), QString::fromLatin1(A));
        QCOMPARE(model.index(2, 0, model.index(2, 0, model.index(1, 0))).data(LockMergeModel::HashRole).toString(), u"zh:2222"_s);
        QCOMPARE(model.index(2, 0, model.index(2, 0, model.index(1, 0))).data(LockMergeModel::TopRowRole).toInt(), 1);
        // Different versions: no union offered.
        QVariantList offered = model.index(0, 0).data(LockMergeModel::ChoicesRole).toList();
        QCOMPARE(offered, (QVariantList{int(Choice::Automatic), int(Choice::Ours), int(Choice::Theirs), int(Choice::Base)}));
        QVERIFY(!model.isForeignRow(1));
        QVERIFY(model.isForeignRow(2));
        QCOMPARE(model.nextConflict(-1), 0);
        QCOMPARE(model.nextConflict(0), 0);
    }

    void choices()
    {
        LockMergeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setMerge(sample());
        // Without a handler the result column is not editable.
        QVERIFY(!(model.flags(model.index(0, LockMergeModel::ResultColumn)) & Qt::ItemIsEditable));
        QList<std::pair<int, Choice>> asked;
        model.setChoiceHandler([&](int top, Choice c) {
            asked.append({top, c});
            return model.setChoice(top, c);
        });
        QVERIFY(model.flags(model.index(0, LockMergeModel::ResultColumn)) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(0, LockMergeModel::OursColumn)) & Qt::ItemIsEditable));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy result(&model, &LockMergeModel::resultChanged);
        // Union is refused (different versions), theirs accepted.
        QVERIFY(!model.setData(model.index(0, LockMergeModel::ResultColumn), int(Choice::Union)));
        QVERIFY(model.setData(model.index(0, LockMergeModel::ResultColumn), int(Choice::Theirs)));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(reset.size(), 0);
        QVERIFY(changed.size() >= 1);
        QCOMPARE(result.size(), 1);
        QCOMPARE(model.index(0, LockMergeModel::ResultColumn).data().toString(), u"theirs (chosen): 5.3.0"_s);
        QCOMPARE(model.index(0, LockMergeModel::ResultColumn, model.index(0, 0)).data().toString(), u"5.3.0"_s);
        QCOMPARE(model.index(0, 0).data(LockMergeModel::StateRole).toString(), u"chosen"_s);
        QCOMPARE(model.index(2, LockMergeModel::ResultColumn, model.index(2, 0, model.index(0, 0))).data().toString(), u"✓"_s);
        QCOMPARE(model.merge().conflictCount(), 0);
        QCOMPARE(model.nextConflict(-1), -1);
        // Union for null (same version): all hashes; back to automatic.
        QVERIFY(model.setChoice(1, Choice::Ours));
        QCOMPARE(model.index(2, LockMergeModel::ResultColumn, model.index(1, 0)).data().toString(), u"2"_s); // the hashes row
        QVERIFY(model.setChoice(1, Choice::Automatic));
        QCOMPARE(model.index(1, 0).data(LockMergeModel::StateRole).toString(), u"merged"_s);
        // Out of range and unavailable choices are refused.
        QVERIFY(!model.setChoice(7, Choice::Ours));
        QVERIFY(!model.setChoice(2, Choice::Union));
        QVERIFY(model.setChoice(2, Choice::Ours)); // the foreign block: ours has none
        QCOMPARE(model.merge().bytes().contains("module"), false);
    }

    void empty()
    {
        LockMergeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setMerge(mergeLockFiles(readMergeInput({}, u"b"_s), readMergeInput({}, u"o"_s), readMergeInput({}, u"t"_s)));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.nextConflict(-1), -1);
        QCOMPARE(model.dump(), QString());
    }
};

QTEST_GUILESS_MAIN(TestLockMergeModel)
#include "tst_lockmergemodel.moc"
