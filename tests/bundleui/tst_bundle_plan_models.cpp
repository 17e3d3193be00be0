// BundleSelectionModel and ImportPlanModel: rows and roles follow the value types they are given,
// under QAbstractItemModelTester (which checks the model contract on every change).

#include "model/bundle/BundlePlanModels.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace provender;

namespace {

ProviderAddress addr(const char *s)
{
    return ProviderAddress::parse(QString::fromLatin1(s), u"registry.opentofu.org").value();
}

Version ver(const char *s)
{
    return Version::parse(QString::fromLatin1(s)).value();
}

BundleItem item(const char *provider, const char *version, const char *platform, qint64 size)
{
    BundleItem i;
    i.provider = addr(provider);
    i.version = ver(version);
    i.archive.platform = Platform::parse(QString::fromLatin1(platform)).value();
    i.archive.present = true;
    i.archive.size = size;
    i.archive.path = QStringLiteral("/m/%1").arg(QString::fromLatin1(platform));
    i.bundlePath = QStringLiteral("x/%1").arg(QString::fromLatin1(platform));
    return i;
}

ImportAction action(ImportAction::Kind kind, const char *platform)
{
    ImportAction a;
    a.kind = kind;
    a.key = ArchiveKey{addr("hashicorp/null"), ver("3.2.2"), Platform::parse(QString::fromLatin1(platform)).value()};
    a.entry = QStringLiteral("e/%1").arg(QString::fromLatin1(platform));
    a.targetPath = QStringLiteral("/t/%1").arg(QString::fromLatin1(platform));
    a.size = 10;
    a.reason = QStringLiteral("because %1").arg(QString::fromLatin1(platform));
    return a;
}

} // namespace

class TestBundlePlanModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void selectionRows()
    {
        BundleSelectionModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);

        BundleSelection s;
        s.items = {item("hashicorp/null", "3.2.2", "linux_amd64", 1000), item("hashicorp/null", "3.2.2", "darwin_arm64", 24)};
        BundleShortfall gap;
        gap.provider = addr("hashicorp/random");
        gap.version = ver("3.6.0");
        gap.platform = Platform::parse(u"windows_amd64").value();
        gap.reason = QStringLiteral("not in the mirror");
        gap.lockFile = QStringLiteral("/p/.terraform.lock.hcl");
        s.missing = {gap};
        model.setSelection(s);

        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(BundleSelectionModel::ColumnCount));
        QCOMPARE(model.totalBytes(), qint64(1024));
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) { return model.data(model.index(row, column), role); };
        QCOMPARE(cell(0, BundleSelectionModel::ProviderColumn).toString(), QStringLiteral("registry.opentofu.org/hashicorp/null"));
        QCOMPARE(cell(0, BundleSelectionModel::PlatformColumn).toString(), QStringLiteral("linux_amd64"));
        QCOMPARE(cell(0, BundleSelectionModel::SizeColumn, BundleSelectionModel::SortRole).toLongLong(), qint64(1000));
        QCOMPARE(cell(0, BundleSelectionModel::SizeColumn).toString(), QStringLiteral("1000 bytes"));
        QCOMPARE(cell(0, BundleSelectionModel::StatusColumn).toString(), QStringLiteral("included"));
        QCOMPARE(cell(1, 0, BundleSelectionModel::PathRole).toString(), QStringLiteral("/m/darwin_arm64"));
        QVERIFY(!cell(1, 0, BundleSelectionModel::MissingRole).toBool());
        QVERIFY(cell(2, 0, BundleSelectionModel::MissingRole).toBool());
        QCOMPARE(cell(2, BundleSelectionModel::VersionColumn).toString(), QStringLiteral("3.6.0"));
        QCOMPARE(cell(2, BundleSelectionModel::PlatformColumn).toString(), QStringLiteral("windows_amd64"));
        QCOMPARE(cell(2, BundleSelectionModel::StatusColumn).toString(), QStringLiteral("missing: not in the mirror"));
        QVERIFY(cell(2, 0, Qt::ToolTipRole).toString().contains(QStringLiteral("/p/.terraform.lock.hcl")));

        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.totalBytes(), qint64(0));
    }

    void planRows()
    {
        ImportPlanModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);

        ImportReport r;
        r.target = QStringLiteral("/t");
        r.actions = {action(ImportAction::Kind::Add, "linux_amd64"), action(ImportAction::Kind::Unchanged, "linux_arm64"),
                     action(ImportAction::Kind::Conflict, "darwin_arm64")};
        BundleEntryProblem bad;
        bad.kind = BundleEntryProblem::Kind::UnsafePath;
        bad.entry = QStringLiteral("../../etc/passwd");
        bad.message = QStringLiteral("a .. component");
        BundleEntryProblem link;
        link.kind = BundleEntryProblem::Kind::Link;
        link.entry = QStringLiteral("a/link");
        link.message = QStringLiteral("not followed");
        r.problems = {bad, link};
        BundleFileCheck ok;
        ok.name = QStringLiteral("fine.zip");
        BundleFileCheck mismatch;
        mismatch.status = BundleFileCheck::Status::Mismatch;
        mismatch.name = QStringLiteral("bad.zip");
        mismatch.expected = QStringLiteral("aa");
        mismatch.actual = QStringLiteral("bb");
        r.files = {ok, mismatch};
        model.setReport(r);

        // 3 actions, 2 entry problems, 1 SHA256SUMS line that is not ok.
        QCOMPARE(model.rowCount(), 6);
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) { return model.data(model.index(row, column), role); };
        QCOMPARE(cell(0, ImportPlanModel::ActionColumn).toString(), QStringLiteral("add"));
        QCOMPARE(cell(0, ImportPlanModel::ArchiveColumn).toString(),
                 QStringLiteral("registry.opentofu.org/hashicorp/null 3.2.2 linux_amd64"));
        // Shown relative to the target mirror; the full path is in the tooltip.
        QCOMPARE(cell(0, ImportPlanModel::TargetColumn).toString(), QStringLiteral("linux_amd64"));
        QVERIFY(cell(0, 0, Qt::ToolTipRole).toString().contains(QStringLiteral("/t/linux_amd64")));
        QCOMPARE(cell(0, ImportPlanModel::ReasonColumn).toString(), QStringLiteral("because linux_amd64"));
        QVERIFY(!cell(0, 0, ImportPlanModel::BlockingRole).toBool());
        QVERIFY(!cell(1, 0, ImportPlanModel::BlockingRole).toBool());
        QCOMPARE(cell(2, ImportPlanModel::ActionColumn).toString(), QStringLiteral("conflict"));
        QVERIFY(cell(2, 0, ImportPlanModel::BlockingRole).toBool());
        QCOMPARE(cell(2, 0, ImportPlanModel::ActionKindRole).toInt(), int(ImportAction::Kind::Conflict));
        QCOMPARE(cell(3, 0, ImportPlanModel::RowKindRole).toInt(), int(ImportPlanModel::EntryProblemRow));
        QCOMPARE(cell(3, ImportPlanModel::ActionColumn).toString(), QStringLiteral("refused"));
        QCOMPARE(cell(3, ImportPlanModel::ArchiveColumn).toString(), QStringLiteral("../../etc/passwd"));
        QVERIFY(cell(3, 0, ImportPlanModel::BlockingRole).toBool());
        QCOMPARE(cell(4, ImportPlanModel::ActionColumn).toString(), QStringLiteral("ignored"));
        QVERIFY(!cell(4, 0, ImportPlanModel::BlockingRole).toBool());
        QCOMPARE(cell(5, 0, ImportPlanModel::RowKindRole).toInt(), int(ImportPlanModel::FileCheckRow));
        QCOMPARE(cell(5, ImportPlanModel::ArchiveColumn).toString(), QStringLiteral("bad.zip"));
        QVERIFY(cell(5, ImportPlanModel::ReasonColumn).toString().contains(QStringLiteral("bb")));
        QVERIFY(cell(5, 0, ImportPlanModel::BlockingRole).toBool());
        QCOMPARE(cell(0, ImportPlanModel::SizeColumn, ImportPlanModel::SortRole).toLongLong(), qint64(10));

        model.setReport({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestBundlePlanModels)
#include "tst_bundle_plan_models.moc"
