// ArchiveTableModel, ArchiveFilterProxyModel and AnomalyListModel under QAbstractItemModelTester.

#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace provender;

namespace {

Archive archive(const char *platform, bool present = true, ArchiveLayout layout = ArchiveLayout::Packed)
{
    Archive a;
    a.platform = Platform::parse(QString::fromLatin1(platform)).value();
    a.layout = layout;
    a.present = present;
    a.path = present ? QStringLiteral("/m/%1").arg(QLatin1StringView(platform)) : QString();
    a.size = present ? 2048 : -1;
    if (!present)
        a.declared = DeclaredArchive{QStringLiteral("x.zip"), {HashString::parse(u"h1:abc=").value()}, QStringLiteral("/m/1.0.0.json")};
    return a;
}

ProviderVersion version(const char *v, QList<Archive> archives)
{
    ProviderVersion pv;
    pv.version = Version::parse(QString::fromLatin1(v)).value();
    pv.archives = std::move(archives);
    return pv;
}

/// rows: 0 alpha 1.9.0 linux_amd64, 1 alpha 1.9.0 linux_arm64, 2 alpha 1.10.0 darwin_arm64,
/// 3 alpha 1.10.0 linux_amd64 (missing), 4 alpha 2.0.0-beta linux_amd64, 5 alpha 2.0.0 linux_amd64,
/// 6 beta 0.1.0 windows_amd64 (unpacked), 7 beta 0.1.0 windows_amd64 (duplicate, packed)
Catalog sampleCatalog()
{
    Catalog c;
    c.root = QStringLiteral("/m");
    Provider alpha;
    alpha.address = ProviderAddress::parse(u"registry.opentofu.org/hashicorp/alpha").value();
    alpha.versions = {version("1.9.0", {archive("linux_amd64"), archive("linux_arm64")}),
                      version("1.10.0", {archive("darwin_arm64"), archive("linux_amd64", false)}),
                      version("2.0.0-beta", {archive("linux_amd64")}), version("2.0.0", {archive("linux_amd64")})};
    Provider beta;
    beta.address = ProviderAddress::parse(u"example.com/acme/beta").value();
    ProviderVersion bv = version("0.1.0", {archive("windows_amd64", true, ArchiveLayout::Unpacked)});
    Archive dup = archive("windows_amd64");
    dup.path = QStringLiteral("/m/dup.zip");
    bv.duplicates = {dup};
    beta.versions = {bv};
    c.providers = {alpha, beta};
    c.anomalies = {Anomaly{AnomalyKind::MalformedJson, QStringLiteral("/m/h/n/t/1.0.0.json"), QStringLiteral("bad"),
                           Location{QStringLiteral("/m/h/n/t/1.0.0.json"), 3, 7}},
                   Anomaly{AnomalyKind::ArchiveNotInIndex, QStringLiteral("/m/h/n/t/x.zip"), QStringLiteral("not listed"), {}}};
    return c;
}

ArchiveResult resultFor(const ArchiveTableModel &model, int row, Verdict verdict)
{
    ArchiveResult r = model.resultAt(row);
    r.detail.verdict = verdict;
    r.detail.reason = QStringLiteral("because");
    if (verdict == Verdict::Verified) {
        r.detail.matched = {HashMatch::H1Zip};
        PackageHashes h;
        h.kind = PackageHashes::Kind::Zip;
        h.h1Extracted = HashString::parse(u"h1:EXT=").value();
        h.h1Zip = HashString::parse(u"h1:ZIP=").value();
        h.zh = HashString::parse(u"zh:00ff").value();
        r.hashes = h;
    }
    return r;
}

QStringList sl(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out.append(QString::fromLatin1(i));
    return out;
}

QStringList column(const QAbstractItemModel &m, int col, int role = Qt::DisplayRole)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, col).data(role).toString());
    return out;
}

} // namespace

class TestArchiveTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layoutFromCatalog()
    {
        ArchiveTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy counts(&model, &ArchiveTableModel::countsChanged);
        model.setCatalog(sampleCatalog());
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.columnCount(), int(ArchiveTableModel::ColumnCount));
        QVERIFY(counts.size() >= 1);
        QCOMPARE(column(model, ArchiveTableModel::VerdictColumn),
                 sl({"pending", "pending", "pending", "missing", "pending", "pending", "pending", "pending"}));
        QCOMPARE(model.verdictCounts()[size_t(Verdict::Pending)], 7);
        QCOMPARE(model.verdictCounts()[size_t(Verdict::Missing)], 1);
        QCOMPARE(model.index(0, ArchiveTableModel::ProviderColumn).data().toString(),
                 QStringLiteral("registry.opentofu.org/hashicorp/alpha"));
        QCOMPARE(model.index(2, ArchiveTableModel::VersionColumn).data().toString(), QStringLiteral("1.10.0"));
        QCOMPARE(model.index(6, ArchiveTableModel::LayoutColumn).data().toString(), QStringLiteral("unpacked"));
        QCOMPARE(model.index(7, 0).data(ArchiveTableModel::PathRole).toString(), QStringLiteral("/m/dup.zip"));
        QCOMPARE(model.index(0, ArchiveTableModel::SizeColumn).data(ArchiveTableModel::SortRole).toLongLong(), 2048);
        QCOMPARE(model.index(3, 0).data(ArchiveTableModel::DeclaredRole).toStringList(), sl({"h1:abc="}));
        QCOMPARE(model.index(3, 0).data(ArchiveTableModel::VerdictRole).toInt(), int(Verdict::Missing));
        QCOMPARE(model.headerData(ArchiveTableModel::H1Column, Qt::Horizontal).toString(), QStringLiteral("h1"));
        QVERIFY(!model.index(0, 0).data(Qt::ToolTipRole).toString().isEmpty());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void batchedDataChanged()
    {
        ArchiveTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCatalog(sampleCatalog());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy counts(&model, &ArchiveTableModel::countsChanged);
        ArchiveResult unknown = resultFor(model, 0, Verdict::Verified);
        unknown.key.platform = Platform::parse(u"plan9_386").value();
        model.applyResults({resultFor(model, 5, Verdict::Mismatch), resultFor(model, 0, Verdict::Verified), unknown,
                            resultFor(model, 1, Verdict::Verified), resultFor(model, 2, Verdict::Error),
                            resultFor(model, 7, Verdict::Unverified)});
        // Rows 0-2 and 5 and 7: three runs of adjacent rows, three signals, each over the result columns.
        QCOMPARE(changed.size(), 3);
        QCOMPARE(counts.size(), 1);
        QList<QPair<int, int>> ranges;
        for (const QList<QVariant> &args : changed) {
            const QModelIndex tl = args.at(0).toModelIndex();
            const QModelIndex br = args.at(1).toModelIndex();
            QCOMPARE(tl.column(), int(ArchiveTableModel::VerdictColumn));
            QCOMPARE(br.column(), int(ArchiveTableModel::ZhColumn));
            ranges.append({tl.row(), br.row()});
        }
        QCOMPARE(ranges, (QList<QPair<int, int>>{{0, 2}, {5, 5}, {7, 7}}));
        QCOMPARE(column(model, ArchiveTableModel::VerdictColumn),
                 sl({"verified", "verified", "error", "missing", "pending", "mismatch", "pending", "unverified"}));
        QCOMPARE(model.verdictCounts()[size_t(Verdict::Verified)], 2);
        QCOMPARE(model.verdictCounts()[size_t(Verdict::Pending)], 2);
        QCOMPARE(model.index(0, ArchiveTableModel::DetailColumn).data().toString(), QStringLiteral("h1 (zip)"));
        QCOMPARE(model.index(0, ArchiveTableModel::H1Column).data().toString(), QStringLiteral("h1:EXT="));
        QCOMPARE(model.index(0, ArchiveTableModel::ZhColumn).data().toString(), QStringLiteral("zh:00ff"));
        QCOMPARE(model.index(0, 0).data(ArchiveTableModel::H1ZipRole).toString(), QStringLiteral("h1:ZIP="));
        QCOMPARE(model.index(2, ArchiveTableModel::DetailColumn).data().toString(), QStringLiteral("because"));
        // The unpacked row 6 and the packed duplicate row 7 share a key: only the path told them apart.
        QCOMPARE(model.index(6, ArchiveTableModel::VerdictColumn).data().toString(), QStringLiteral("pending"));

        model.resetVerdicts();
        QCOMPARE(column(model, ArchiveTableModel::VerdictColumn),
                 sl({"pending", "pending", "pending", "missing", "pending", "pending", "pending", "pending"}));
        QCOMPARE(model.index(0, ArchiveTableModel::H1Column).data().toString(), QString());
    }

    void proxyFiltersAndSorts()
    {
        ArchiveTableModel model;
        ArchiveFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCatalog(sampleCatalog());
        model.applyResults({resultFor(model, 0, Verdict::Verified), resultFor(model, 5, Verdict::Mismatch)});

        proxy.sort(ArchiveTableModel::VersionColumn, Qt::AscendingOrder);
        QCOMPARE(column(proxy, ArchiveTableModel::VersionColumn),
                 sl({"0.1.0", "0.1.0", "1.9.0", "1.9.0", "1.10.0", "1.10.0", "2.0.0-beta", "2.0.0"}));

        proxy.sort(ArchiveTableModel::VerdictColumn, Qt::AscendingOrder); // most severe first
        QCOMPARE(proxy.index(0, ArchiveTableModel::VerdictColumn).data().toString(), QStringLiteral("mismatch"));
        QCOMPARE(proxy.index(1, ArchiveTableModel::VerdictColumn).data().toString(), QStringLiteral("missing"));
        QCOMPARE(proxy.index(7, ArchiveTableModel::VerdictColumn).data().toString(), QStringLiteral("verified"));

        proxy.setVerdictFilter(Verdict::Pending);
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setTextFilter(QStringLiteral("ARM64"));
        QCOMPARE(proxy.rowCount(), 2); // 1.9.0 linux_arm64, 1.10.0 darwin_arm64
        proxy.setTextFilter(QStringLiteral("linux arm"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setVerdictFilter(std::nullopt);
        proxy.setTextFilter(QStringLiteral("acme/beta"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setTextFilter({});
        QCOMPARE(proxy.rowCount(), 8);
        // Live updates pass through the filter.
        proxy.setVerdictFilter(Verdict::Error);
        QCOMPARE(proxy.rowCount(), 0);
        model.applyResults({resultFor(model, 4, Verdict::Error)});
        QCOMPARE(proxy.rowCount(), 1);
    }

    void anomalies()
    {
        AnomalyListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Catalog c = sampleCatalog();
        model.setAnomalies(c.anomalies, c.root);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.index(0, AnomalyListModel::KindColumn).data().toString(), QStringLiteral("malformed-json"));
        QCOMPARE(model.index(0, AnomalyListModel::LocationColumn).data().toString(), QStringLiteral("h/n/t/1.0.0.json:3:7"));
        QCOMPARE(model.index(1, AnomalyListModel::LocationColumn).data().toString(), QStringLiteral("h/n/t/x.zip"));
        QCOMPARE(model.index(1, AnomalyListModel::MessageColumn).data().toString(), QStringLiteral("not listed"));
        QCOMPARE(model.index(0, 0).data(AnomalyListModel::KindRole).toInt(), int(AnomalyKind::MalformedJson));
        QCOMPARE(model.index(0, 0).data(AnomalyListModel::LineRole).toInt(), 3);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestArchiveTableModel)
#include "tst_archivetablemodel.moc"
