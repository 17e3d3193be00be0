// MirrorTreeModel (and ArchiveFilterProxyModel over it) under QAbstractItemModelTester: population,
// incremental verification, filtering and sorting; textual dumps compared with trees written by
// hand from the fixture below (sizes, counts and worst-wins verdicts worked out on paper).

#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

Archive archive(const char *platform, qint64 size, int declared, ArchiveLayout layout = ArchiveLayout::Packed, const QString &path = {})
{
    Archive a;
    a.platform = Platform::parse(QString::fromLatin1(platform)).value();
    a.layout = layout;
    a.present = size >= 0;
    a.path = !a.present ? QString() : path.isEmpty() ? QStringLiteral("/m/%1-%2").arg(QLatin1StringView(platform)).arg(size) : path;
    a.size = size;
    if (declared > 0) {
        DeclaredArchive d{QStringLiteral("x.zip"), {}, QStringLiteral("/m/1.0.0.json"), {}};
        for (int i = 0; i < declared; ++i)
            d.hashes.append(
                HashString::parse(QStringLiteral("zh:%1%2").arg(QLatin1StringView(platform).size()).arg(size * 10 + i)).value());
        a.declared = d;
    }
    return a;
}

ProviderVersion version(const char *v, QList<Archive> archives)
{
    ProviderVersion pv;
    pv.version = Version::parse(QString::fromLatin1(v)).value();
    pv.archives = std::move(archives);
    return pv;
}

/// Versions deliberately out of order: the model must sort them by precedence.
Catalog sampleCatalog()
{
    Catalog c;
    c.root = QStringLiteral("/m");
    Provider alpha;
    alpha.address = ProviderAddress::parse(u"registry.opentofu.org/hashicorp/alpha").value();
    alpha.directory = QStringLiteral("/m/registry.opentofu.org/hashicorp/alpha");
    alpha.versions = {version("2.0.0", {archive("linux_amd64", 1600, 0)}),
                      version("1.10.0", {archive("darwin_arm64", 400, 0), archive("linux_amd64", -1, 1)}),
                      version("2.0.0-beta", {archive("linux_amd64", 800, 0)}),
                      version("1.9.0", {archive("linux_amd64", 100, 2), archive("linux_arm64", 200, 1)})};
    Provider beta;
    beta.address = ProviderAddress::parse(u"example.com/acme/beta").value();
    ProviderVersion bv = version("0.1.0", {archive("windows_amd64", 10, 0, ArchiveLayout::Unpacked)});
    bv.duplicates = {archive("windows_amd64", 20, 1, ArchiveLayout::Packed, QStringLiteral("/m/dup.zip"))};
    beta.versions = {bv};
    c.providers = {alpha, beta};
    return c;
}

/// sampleCatalog() after a rescan: 1.10.0 darwin_arm64 gone, 1.11.0 added, a new provider on the
/// same host and a new host, and the two copies of beta 0.1.0 swapped (the packed one now first).
Catalog rescannedCatalog()
{
    Catalog c = sampleCatalog();
    Provider &alpha = c.providers[0];
    alpha.versions[1].archives.removeFirst(); // 1.10.0 darwin_arm64
    alpha.versions.append(version("1.11.0", {archive("linux_amd64", 50, 0)}));
    Provider gamma;
    gamma.address = ProviderAddress::parse(u"registry.opentofu.org/hashicorp/gamma").value();
    gamma.directory = QStringLiteral("/m/registry.opentofu.org/hashicorp/gamma");
    gamma.versions = {version("0.0.1", {archive("darwin_amd64", 5, 1)})};
    Provider &beta = c.providers[1];
    std::swap(beta.versions[0].archives, beta.versions[0].duplicates);
    Provider zeta;
    zeta.address = ProviderAddress::parse(u"z.example/zed/zeta").value();
    zeta.versions = {version("1.0.0", {archive("linux_amd64", 7, 0)})};
    c.providers = {alpha, gamma, beta, zeta};
    return c;
}

QModelIndex find(const QAbstractItemModel &m, const QStringList &names)
{
    QModelIndex parent;
    for (const QString &name : names) {
        QModelIndex found;
        for (int r = 0; r < m.rowCount(parent); ++r)
            if (m.index(r, 0, parent).data().toString() == name) {
                found = m.index(r, 0, parent);
                break;
            }
        if (!found.isValid())
            return {};
        parent = found;
    }
    return parent;
}

ArchiveResult resultWith(const MirrorTreeModel &m, const QStringList &path, Verdict v, int nth = 0)
{
    QModelIndex idx = find(m, path);
    if (nth)
        idx = idx.siblingAtRow(idx.row() + nth);
    const std::optional<ArchiveResult> r = m.resultAt(idx);
    Q_ASSERT(r);
    ArchiveResult out = *r;
    out.detail.verdict = v;
    out.detail.reason = QStringLiteral("because");
    return out;
}

/// Dump of a (proxy) model: names only, two spaces per level.
QString names(const QAbstractItemModel &m, const QModelIndex &parent = {}, int depth = 0)
{
    QString out;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        out += QString(depth * 2, QLatin1Char(' ')) + i.data().toString() + QLatin1Char('\n');
        out += names(m, i, depth + 1);
    }
    return out;
}

QString lines(std::initializer_list<const char *> ls)
{
    QString out;
    for (const char *l : ls)
        out += QString::fromUtf8(l) + QLatin1Char('\n');
    return out;
}

/// A larger catalog from a fixed seed: two hosts, providers with many versions, platforms in
/// varying sets, absent archives, duplicates and a provider that displays like another.
Catalog generatedCatalog(quint32 seed, int providers)
{
    QRandomGenerator rng(seed);
    const QStringList platforms{u"linux_amd64"_s, u"linux_arm64"_s, u"darwin_arm64"_s, u"windows_amd64"_s, u"freebsd_386"_s};
    Catalog c;
    c.root = QStringLiteral("/m");
    for (int p = 0; p < providers; ++p) {
        Provider pr;
        const QString host = p % 3 == 0 ? u"example.com"_s : u"registry.opentofu.org"_s;
        pr.address = ProviderAddress::parse(QStringLiteral("%1/ns%2/type%3").arg(host).arg(p % 4).arg(p)).value();
        pr.directory = QStringLiteral("/m/%1/ns%2/type%3").arg(host).arg(p % 4).arg(p);
        const int versions = 1 + int(rng.bounded(12));
        for (int v = 0; v < versions; ++v) {
            // Out of precedence order on purpose, with pre-releases.
            const QString text = QStringLiteral("%1.%2.%3%4")
                                     .arg(rng.bounded(3))
                                     .arg(v)
                                     .arg(rng.bounded(20))
                                     .arg(rng.bounded(4) == 0 ? u"-rc1"_s : QString());
            bool dup = false;
            for (const ProviderVersion &have : std::as_const(pr.versions))
                dup = dup || have.version.toString() == text;
            if (dup)
                continue;
            QList<Archive> archives;
            for (const QString &platform : platforms) {
                if (rng.bounded(3) == 0)
                    continue;
                const qint64 size = rng.bounded(5) == 0 ? -1 : qint64(rng.bounded(100000));
                Archive a = archive(platform.toLatin1().constData(), size, int(rng.bounded(3)));
                if (a.present)
                    a.path = QStringLiteral("%1/%2/%3.zip").arg(pr.directory, text, platform);
                archives.append(a);
            }
            ProviderVersion pv = version(text.toLatin1().constData(), archives);
            if (!archives.isEmpty() && rng.bounded(6) == 0) {
                Archive d = archive(archives.first().platform.toString().toLatin1().constData(), 7, 1, ArchiveLayout::Unpacked);
                d.path = QStringLiteral("%1/%2/dup").arg(pr.directory, text);
                pv.duplicates.append(d);
            }
            pr.versions.append(pv);
        }
        c.providers.append(pr);
    }
    return c;
}

/// Qt's own machinery as the reference: recursive filtering over MirrorTreeModel::rowMatches (the
/// leaf test alone) and QSortFilterProxyModel's QVariant comparison of SortRole.
class ReferenceProxy : public QSortFilterProxyModel
{
public:
    explicit ReferenceProxy(const MirrorTreeModel *tree) : m_tree(tree)
    {
        setSortRole(MirrorTreeModel::SortRole);
        setSortCaseSensitivity(Qt::CaseInsensitive);
        setRecursiveFilteringEnabled(true);
        setDynamicSortFilter(true);
    }
    void setFilter(const MirrorTreeModel::RowFilter &f)
    {
        m_filter = f;
        invalidate();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override { return m_tree->rowMatches(row, parent, m_filter); }

private:
    const MirrorTreeModel *m_tree;
    MirrorTreeModel::RowFilter m_filter;
};

/// Every row of a (proxy) model with all its columns, two spaces per level.
QString fullDump(const QAbstractItemModel &m, const QModelIndex &parent = {}, int depth = 0)
{
    QString out;
    for (int r = 0; r < m.rowCount(parent); ++r) {
        const QModelIndex i = m.index(r, 0, parent);
        QStringList cells;
        for (int c = 0; c < m.columnCount(parent); ++c)
            cells.append(i.siblingAtColumn(c).data().toString());
        out += QString(depth * 2, QLatin1Char(' ')) + cells.join(u" | "_s) + QLatin1Char('\n');
        out += fullDump(m, i, depth + 1);
    }
    return out;
}

/// Random results for some leaves of `model` (any verdict, sometimes computed hashes).
QList<ArchiveResult> randomResults(const MirrorTreeModel &model, QRandomGenerator &rng, int count)
{
    QList<QModelIndex> leaves;
    std::function<void(const QModelIndex &)> collect = [&](const QModelIndex &parent) {
        for (int r = 0; r < model.rowCount(parent); ++r) {
            const QModelIndex i = model.index(r, 0, parent);
            if (model.resultAt(i))
                leaves.append(i);
            else
                collect(i);
        }
    };
    collect({});
    QList<ArchiveResult> out;
    for (int n = 0; n < count && !leaves.isEmpty(); ++n) {
        ArchiveResult r = *model.resultAt(leaves.at(int(rng.bounded(int(leaves.size())))));
        r.detail.verdict = Verdict(rng.bounded(6));
        r.detail.reason = u"random"_s;
        if (rng.bounded(2)) {
            PackageHashes h;
            h.zh = HashString::parse(QStringLiteral("zh:%1").arg(rng.bounded(1000000), 6, 10, QLatin1Char('0'))).value();
            r.hashes = h;
        }
        out.append(r);
    }
    return out;
}

} // namespace

class TestMirrorTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void populationAndVerification();
    void proxyFilterAndSort_data();
    void proxyFilterAndSort();
    void resetVerdicts();
    void rescanMerge();
    void mergeIntoEmptyAndUnchanged();
    void pathLookupAndPlatforms();
    void platformFilter_data();
    void platformFilter();
    void emptyParentsHaveNoVerdict();
    void filterEqualsQtRecursiveFiltering_data();
    void filterEqualsQtRecursiveFiltering();
    void sortEqualsQtVariantSort_data();
    void sortEqualsQtVariantSort();
    void buildTreeOnABusyGlobalPool();
};

void TestMirrorTreeModel::populationAndVerification()
{
    MirrorTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(sampleCatalog());

    // name | platforms | size (bytes) | verdict | declared | layout
    QCOMPARE(model.dump(),
             lines({
                 "registry.opentofu.org | 3 | 3100 | missing | 4 | packed",
                 "  hashicorp/alpha | 3 | 3100 | missing | 4 | packed",
                 "    1.9.0 | 2 | 300 | pending | 3 | packed",
                 "      linux_amd64 | linux_amd64 | 100 | pending | 2 | packed",
                 "      linux_arm64 | linux_arm64 | 200 | pending | 1 | packed",
                 "    1.10.0 | 2 | 400 | missing | 1 | packed",
                 "      darwin_arm64 | darwin_arm64 | 400 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | -1 | missing | 1 | packed",
                 "    2.0.0-beta | 1 | 800 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 800 | pending | 0 | packed",
                 "    2.0.0 | 1 | 1600 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 1600 | pending | 0 | packed",
                 "example.com | 1 | 30 | pending | 1 | mixed",
                 "  acme/beta | 1 | 30 | pending | 1 | mixed",
                 "    0.1.0 | 1 | 30 | pending | 1 | mixed",
                 "      windows_amd64 | windows_amd64 | 10 | pending | 0 | unpacked",
                 "      windows_amd64 | windows_amd64 | 20 | pending | 1 | packed",
             }));
    QCOMPARE(model.archiveCount(), 8);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Pending)], 7);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Missing)], 1);
    QCOMPARE(find(model, {u"registry.opentofu.org"_s, u"hashicorp/alpha"_s}).data(MirrorTreeModel::PathRole).toString(),
             u"/m/registry.opentofu.org/hashicorp/alpha"_s);
    QCOMPARE(find(model, {u"registry.opentofu.org"_s, u"hashicorp/alpha"_s}).data(MirrorTreeModel::KindRole).toInt(),
             int(MirrorTreeModel::ProviderNode));

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy counts(&model, &MirrorTreeModel::countsChanged);

    const QString reg = u"registry.opentofu.org"_s, alpha = u"hashicorp/alpha"_s;
    model.applyResults({resultWith(model, {reg, alpha, u"1.9.0"_s, u"linux_amd64"_s}, Verdict::Verified),
                        resultWith(model, {reg, alpha, u"1.9.0"_s, u"linux_arm64"_s}, Verdict::Mismatch),
                        resultWith(model, {u"example.com"_s, u"acme/beta"_s, u"0.1.0"_s, u"windows_amd64"_s}, Verdict::Verified)});
    // Runs of adjacent changed rows per parent: {1.9.0: rows 0-1}, {alpha: 0}, {registry: 0},
    // {0.1.0: 0}, {acme/beta: 0}, {example.com: 0}, {root: rows 0-1} = 7 signals.
    QCOMPARE(changed.size(), 7);
    QCOMPARE(counts.size(), 1);
    QCOMPARE(model.dump(),
             lines({
                 "registry.opentofu.org | 3 | 3100 | mismatch | 4 | packed",
                 "  hashicorp/alpha | 3 | 3100 | mismatch | 4 | packed",
                 "    1.9.0 | 2 | 300 | mismatch | 3 | packed",
                 "      linux_amd64 | linux_amd64 | 100 | verified | 2 | packed",
                 "      linux_arm64 | linux_arm64 | 200 | mismatch | 1 | packed",
                 "    1.10.0 | 2 | 400 | missing | 1 | packed",
                 "      darwin_arm64 | darwin_arm64 | 400 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | -1 | missing | 1 | packed",
                 "    2.0.0-beta | 1 | 800 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 800 | pending | 0 | packed",
                 "    2.0.0 | 1 | 1600 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 1600 | pending | 0 | packed",
                 "example.com | 1 | 30 | pending | 1 | mixed",
                 "  acme/beta | 1 | 30 | pending | 1 | mixed",
                 "    0.1.0 | 1 | 30 | pending | 1 | mixed",
                 "      windows_amd64 | windows_amd64 | 10 | verified | 0 | unpacked",
                 "      windows_amd64 | windows_amd64 | 20 | pending | 1 | packed",
             }));

    ArchiveResult errored = resultWith(model, {reg, alpha, u"2.0.0"_s, u"linux_amd64"_s}, Verdict::Error);
    errored.size = 1000; // a result may carry a fresh size: parents follow
    model.applyResults({resultWith(model, {reg, alpha, u"1.10.0"_s, u"darwin_arm64"_s}, Verdict::Verified),
                        resultWith(model, {reg, alpha, u"2.0.0-beta"_s, u"linux_amd64"_s}, Verdict::Unverified), errored,
                        resultWith(model, {u"example.com"_s, u"acme/beta"_s, u"0.1.0"_s, u"windows_amd64"_s}, Verdict::Verified, 1)});
    QCOMPARE(model.dump(),
             lines({
                 "registry.opentofu.org | 3 | 2500 | mismatch | 4 | packed",
                 "  hashicorp/alpha | 3 | 2500 | mismatch | 4 | packed",
                 "    1.9.0 | 2 | 300 | mismatch | 3 | packed",
                 "      linux_amd64 | linux_amd64 | 100 | verified | 2 | packed",
                 "      linux_arm64 | linux_arm64 | 200 | mismatch | 1 | packed",
                 "    1.10.0 | 2 | 400 | missing | 1 | packed",
                 "      darwin_arm64 | darwin_arm64 | 400 | verified | 0 | packed",
                 "      linux_amd64 | linux_amd64 | -1 | missing | 1 | packed",
                 "    2.0.0-beta | 1 | 800 | unverified | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 800 | unverified | 0 | packed",
                 "    2.0.0 | 1 | 1000 | error | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 1000 | error | 0 | packed",
                 "example.com | 1 | 30 | verified | 1 | mixed",
                 "  acme/beta | 1 | 30 | verified | 1 | mixed",
                 "    0.1.0 | 1 | 30 | verified | 1 | mixed",
                 "      windows_amd64 | windows_amd64 | 10 | verified | 0 | unpacked",
                 "      windows_amd64 | windows_amd64 | 20 | verified | 1 | packed",
             }));
    QCOMPARE(reset.size(), 0);
    QCOMPARE(layout.size(), 0);
    const auto &c = model.verdictCounts();
    QCOMPARE(c[size_t(Verdict::Verified)], 4);
    QCOMPARE(c[size_t(Verdict::Mismatch)], 1);
    QCOMPARE(c[size_t(Verdict::Missing)], 1);
    QCOMPARE(c[size_t(Verdict::Unverified)], 1);
    QCOMPARE(c[size_t(Verdict::Error)], 1);
    QCOMPARE(c[size_t(Verdict::Pending)], 0);

    // An unknown archive is ignored.
    ArchiveResult unknown = errored;
    unknown.path = QStringLiteral("/elsewhere.zip");
    changed.clear();
    model.applyResults({unknown});
    QCOMPARE(changed.size(), 0);
}

void TestMirrorTreeModel::proxyFilterAndSort_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("verdict"); // -1: all
    QTest::addColumn<QString>("expected");

    QTest::newRow("no filter") << QString() << -1
                               << lines({"registry.opentofu.org", "  hashicorp/alpha", "    1.9.0", "      linux_amd64",
                                         "      linux_arm64", "    1.10.0", "      darwin_arm64", "      linux_amd64", "    2.0.0-beta",
                                         "      linux_amd64", "    2.0.0", "      linux_amd64", "example.com", "  acme/beta", "    0.1.0",
                                         "      windows_amd64", "      windows_amd64"});
    QTest::newRow("only mismatch") << QString() << int(Verdict::Mismatch)
                                   << lines({"registry.opentofu.org", "  hashicorp/alpha", "    1.9.0", "      linux_arm64"});
    QTest::newRow("only missing") << QString() << int(Verdict::Missing)
                                  << lines({"registry.opentofu.org", "  hashicorp/alpha", "    1.10.0", "      linux_amd64"});
    QTest::newRow("platform text") << u"windows"_s << -1
                                   << lines({"example.com", "  acme/beta", "    0.1.0", "      windows_amd64", "      windows_amd64"});
    QTest::newRow("version + platform") << u"2.0.0 linux"_s << -1
                                        << lines({"registry.opentofu.org", "  hashicorp/alpha", "    2.0.0-beta", "      linux_amd64",
                                                  "    2.0.0", "      linux_amd64"});
    // archive("windows_amd64", 20, 1) declares zh:13200 ("windows_amd64" is 13 characters).
    QTest::newRow("hash prefix") << u"zh:132"_s << -1 << lines({"example.com", "  acme/beta", "    0.1.0", "      windows_amd64"});
    // Case-insensitive, words matched in any piece (upper-case input, a hash and a platform).
    QTest::newRow("upper case") << u"ZH:132 WINDOWS"_s << -1 << lines({"example.com", "  acme/beta", "    0.1.0", "      windows_amd64"});
    // A word spanning host, namespace and type of the address.
    QTest::newRow("address") << u"opentofu.org/hashicorp/alpha 1.9"_s << -1
                             << lines(
                                    {"registry.opentofu.org", "  hashicorp/alpha", "    1.9.0", "      linux_amd64", "      linux_arm64"});
    QTest::newRow("text and verdict") << u"alpha"_s << int(Verdict::Pending)
                                      << lines({"registry.opentofu.org", "  hashicorp/alpha", "    1.10.0", "      darwin_arm64",
                                                "    2.0.0-beta", "      linux_amd64", "    2.0.0", "      linux_amd64"});
    QTest::newRow("nothing") << u"nomatch"_s << -1 << QString();
}

void TestMirrorTreeModel::proxyFilterAndSort()
{
    QFETCH(QString, text);
    QFETCH(int, verdict);
    QFETCH(QString, expected);

    MirrorTreeModel model;
    ArchiveFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(sampleCatalog());
    const QString reg = u"registry.opentofu.org"_s, alpha = u"hashicorp/alpha"_s;
    proxy.setTextFilter(text);
    proxy.setVerdictFilter(verdict < 0 ? std::nullopt : std::optional<Verdict>(Verdict(verdict)));
    // Results arrive while the filter is on (rows enter and leave the proxy).
    model.applyResults({resultWith(model, {reg, alpha, u"1.9.0"_s, u"linux_amd64"_s}, Verdict::Verified),
                        resultWith(model, {reg, alpha, u"1.9.0"_s, u"linux_arm64"_s}, Verdict::Mismatch)});
    QCOMPARE(names(proxy), expected);
}

void TestMirrorTreeModel::resetVerdicts()
{
    MirrorTreeModel model;
    ArchiveFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(sampleCatalog());
    const QString reg = u"registry.opentofu.org"_s, alpha = u"hashicorp/alpha"_s;
    model.applyResults({resultWith(model, {reg, alpha, u"1.9.0"_s, u"linux_arm64"_s}, Verdict::Mismatch)});

    // Natural version order, both directions (go-versions: 1.9.0 < 1.10.0 < 2.0.0-beta < 2.0.0).
    proxy.sort(MirrorTreeModel::NameColumn, Qt::DescendingOrder);
    const QModelIndex alphaProxy = find(proxy, {reg, alpha});
    QStringList order;
    for (int r = 0; r < proxy.rowCount(alphaProxy); ++r)
        order.append(proxy.index(r, 0, alphaProxy).data().toString());
    QCOMPARE(order, (QStringList{u"2.0.0"_s, u"2.0.0-beta"_s, u"1.10.0"_s, u"1.9.0"_s}));
    // Verdict column: worst first when ascending.
    proxy.sort(MirrorTreeModel::VerdictColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0, alphaProxy).data().toString(), u"1.9.0"_s);
    QCOMPARE(proxy.index(1, 0, alphaProxy).data().toString(), u"1.10.0"_s);

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.resetVerdicts();
    QCOMPARE(reset.size(), 0);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Pending)], 7);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Missing)], 1);
    QCOMPARE(find(model, {reg}).data(MirrorTreeModel::VerdictRole).toInt(), int(Verdict::Missing));
}

void TestMirrorTreeModel::rescanMerge()
{
    MirrorTreeModel model;
    ArchiveFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(MirrorTreeModel::NameColumn, Qt::DescendingOrder);
    model.setCatalog(sampleCatalog());
    const QString reg = u"registry.opentofu.org"_s, alpha = u"hashicorp/alpha"_s;
    model.applyResults({resultWith(model, {reg, alpha, u"1.9.0"_s, u"linux_arm64"_s}, Verdict::Mismatch)});

    // What a view holds on to: selection and expansion are persistent indexes of the proxy.
    const QPersistentModelIndex keptLeaf = find(model, {reg, alpha, u"1.9.0"_s, u"linux_arm64"_s});
    const QPersistentModelIndex keptVersion = find(model, {reg, alpha, u"1.10.0"_s});
    const QPersistentModelIndex goneLeaf = find(model, {reg, alpha, u"1.10.0"_s, u"darwin_arm64"_s});
    const QPersistentModelIndex keptProxyProvider = find(proxy, {reg, alpha});
    QVERIFY(keptLeaf.isValid() && keptVersion.isValid() && goneLeaf.isValid() && keptProxyProvider.isValid());

    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    proxy.setTextFilter(u"linux"_s); // a filter is on while the merge happens
    model.mergeCatalog(rescannedCatalog());
    proxy.setTextFilter({});

    QCOMPARE(reset.size(), 0);
    QCOMPARE(layout.size(), 0);
    // Removed: darwin_arm64 under 1.10.0; the packed copy of beta 0.1.0 (it moved before the
    // unpacked one, so it leaves and comes back). Inserted: 1.11.0, gamma, the packed copy, z.example.
    QCOMPARE(removed.size(), 2);
    QCOMPARE(inserted.size(), 4);

    // Hand-computed: kept leaves are back to pending (the rescan's initial results), sizes and
    // declared counts summed over the new tree, 1.10.0 keeps only its missing archive.
    QCOMPARE(model.dump(),
             lines({
                 "registry.opentofu.org | 3 | 2755 | missing | 5 | packed",
                 "  hashicorp/alpha | 2 | 2750 | missing | 4 | packed",
                 "    1.9.0 | 2 | 300 | pending | 3 | packed",
                 "      linux_amd64 | linux_amd64 | 100 | pending | 2 | packed",
                 "      linux_arm64 | linux_arm64 | 200 | pending | 1 | packed",
                 "    1.10.0 | 1 | 0 | missing | 1 | packed",
                 "      linux_amd64 | linux_amd64 | -1 | missing | 1 | packed",
                 "    1.11.0 | 1 | 50 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 50 | pending | 0 | packed",
                 "    2.0.0-beta | 1 | 800 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 800 | pending | 0 | packed",
                 "    2.0.0 | 1 | 1600 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 1600 | pending | 0 | packed",
                 "  hashicorp/gamma | 1 | 5 | pending | 1 | packed",
                 "    0.0.1 | 1 | 5 | pending | 1 | packed",
                 "      darwin_amd64 | darwin_amd64 | 5 | pending | 1 | packed",
                 "example.com | 1 | 30 | pending | 1 | mixed",
                 "  acme/beta | 1 | 30 | pending | 1 | mixed",
                 "    0.1.0 | 1 | 30 | pending | 1 | mixed",
                 "      windows_amd64 | windows_amd64 | 20 | pending | 1 | packed",
                 "      windows_amd64 | windows_amd64 | 10 | pending | 0 | unpacked",
                 "z.example | 1 | 7 | pending | 0 | packed",
                 "  zed/zeta | 1 | 7 | pending | 0 | packed",
                 "    1.0.0 | 1 | 7 | pending | 0 | packed",
                 "      linux_amd64 | linux_amd64 | 7 | pending | 0 | packed",
             }));
    QCOMPARE(model.archiveCount(), 10);

    // Kept rows survive as the same persistent indexes (at their new places); removed ones die.
    QVERIFY(keptLeaf.isValid());
    QCOMPARE(keptLeaf.data().toString(), u"linux_arm64"_s);
    QCOMPARE(keptLeaf.parent().data().toString(), u"1.9.0"_s);
    QVERIFY(keptVersion.isValid());
    QCOMPARE(keptVersion.data().toString(), u"1.10.0"_s);
    QCOMPARE(model.rowCount(keptVersion), 1);
    QVERIFY(!goneLeaf.isValid());
    QVERIFY(keptProxyProvider.isValid());
    QCOMPARE(keptProxyProvider.data().toString(), alpha);
    // Versions of the proxy still in natural descending order, the new one included.
    QStringList order;
    for (int r = 0; r < proxy.rowCount(keptProxyProvider); ++r)
        order.append(proxy.index(r, 0, keptProxyProvider).data().toString());
    QCOMPARE(order, (QStringList{u"2.0.0"_s, u"2.0.0-beta"_s, u"1.11.0"_s, u"1.10.0"_s, u"1.9.0"_s}));

    // Results reach the merged tree, new rows included.
    model.applyResults({resultWith(model, {reg, u"hashicorp/gamma"_s, u"0.0.1"_s, u"darwin_amd64"_s}, Verdict::Verified),
                        resultWith(model, {u"example.com"_s, u"acme/beta"_s, u"0.1.0"_s, u"windows_amd64"_s}, Verdict::Error)});
    QCOMPARE(find(model, {reg, u"hashicorp/gamma"_s}).siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString(), u"verified"_s);
    QCOMPARE(find(model, {u"example.com"_s}).siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString(), u"error"_s);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Verified)], 1);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Error)], 1);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Pending)], 7);
    QCOMPARE(model.verdictCounts()[size_t(Verdict::Missing)], 1);

    // And back: merging the first scan again gives exactly setCatalog's tree.
    model.mergeCatalog(sampleCatalog());
    MirrorTreeModel direct;
    direct.setCatalog(sampleCatalog());
    QCOMPARE(model.dump(), direct.dump());
    QCOMPARE(reset.size(), 0);
}

void TestMirrorTreeModel::mergeIntoEmptyAndUnchanged()
{
    MirrorTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    model.mergeCatalog(sampleCatalog());
    QCOMPARE(inserted.size(), 1); // both hosts in one insertion at the root
    MirrorTreeModel direct;
    direct.setCatalog(sampleCatalog());
    QCOMPARE(model.dump(), direct.dump());

    inserted.clear();
    model.mergeCatalog(sampleCatalog()); // nothing changed on disk: no rows move
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(removed.size(), 0);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(model.dump(), direct.dump());

    model.mergeCatalog(Catalog{}); // everything gone
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.archiveCount(), 0);
    QCOMPARE(reset.size(), 0);
}

void TestMirrorTreeModel::pathLookupAndPlatforms()
{
    MirrorTreeModel model;
    model.setCatalog(sampleCatalog());
    QCOMPARE(model.platforms(), (QStringList{u"darwin_arm64"_s, u"linux_amd64"_s, u"linux_arm64"_s, u"windows_amd64"_s}));
    const QString dir = u"/m/registry.opentofu.org/hashicorp/alpha"_s;
    // The archive itself.
    QCOMPARE(model.indexForPath(u"/m/linux_arm64-200"_s).data().toString(), u"linux_arm64"_s);
    QCOMPARE(model.indexForPath(u"/m/linux_arm64-200"_s).parent().data().toString(), u"1.9.0"_s);
    // A version index and a packed file name of a version: the version row (1.10.0, not 1.1...).
    QCOMPARE(model.indexForPath(dir + u"/1.10.0.json"_s).data().toString(), u"1.10.0"_s);
    QCOMPARE(model.indexForPath(dir + u"/terraform-provider-alpha_2.0.0-beta_linux_amd64.zip"_s).data().toString(), u"2.0.0-beta"_s);
    // The provider's index.json, and something unrelated.
    QCOMPARE(model.indexForPath(dir + u"/index.json"_s).data().toString(), u"hashicorp/alpha"_s);
    QVERIFY(!model.indexForPath(u"/elsewhere/index.json"_s).isValid());
    // A file inside the unpacked package of beta.
    QCOMPARE(model.indexForPath(u"/m/windows_amd64-10/terraform-provider-beta.exe"_s).data(MirrorTreeModel::SizeRole).toLongLong(), 10);
}

void TestMirrorTreeModel::platformFilter_data()
{
    QTest::addColumn<QString>("platform");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("linux_arm64") << u"linux_arm64"_s << QString()
                                 << lines({"registry.opentofu.org", "  hashicorp/alpha", "    1.9.0", "      linux_arm64"});
    // Exact platform, not a substring: "linux_amd64" must not bring linux_arm64.
    QTest::newRow("linux_amd64 + 1.1") << u"linux_amd64"_s << u"1.1"_s
                                       << lines({"registry.opentofu.org", "  hashicorp/alpha", "    1.10.0", "      linux_amd64"});
    QTest::newRow("none") << u"solaris_amd64"_s << QString() << QString();
}

void TestMirrorTreeModel::platformFilter()
{
    QFETCH(QString, platform);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    MirrorTreeModel model;
    ArchiveFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(sampleCatalog());
    proxy.setPlatformFilter(platform);
    proxy.setTextFilter(text);
    QCOMPARE(names(proxy), expected);
    proxy.setPlatformFilter({});
    proxy.setTextFilter({});
    QCOMPARE(model.rowCount(), proxy.rowCount());
}

void TestMirrorTreeModel::emptyParentsHaveNoVerdict()
{
    // A version without archives (a network mirror's version whose <version>.json 404s) and a
    // provider that has only such versions: nothing below them to judge, so no verdict (no
    // badge, empty verdict cell, invalid VerdictRole), 0 bytes, 0 platforms — never "verified".
    Catalog c;
    Provider p;
    p.address = ProviderAddress::parse(u"registry.opentofu.org/hashicorp/alpha").value();
    p.versions = {version("1.0.0", {archive("linux_amd64", 100, 1)}), version("2.0.0", {})};
    Provider q;
    q.address = ProviderAddress::parse(u"example.com/acme/empty").value();
    q.versions = {version("0.1.0", {})};
    c.providers = {p, q};

    MirrorTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(c);
    QCOMPARE(model.dump(),
             lines({
                 "registry.opentofu.org | 1 | 100 | pending | 1 | packed",
                 "  hashicorp/alpha | 1 | 100 | pending | 1 | packed",
                 "    1.0.0 | 1 | 100 | pending | 1 | packed",
                 "      linux_amd64 | linux_amd64 | 100 | pending | 1 | packed",
                 "    2.0.0 | 0 | 0 |  | 0 | ",
                 "example.com | 0 | 0 |  | 0 | ",
                 "  acme/empty | 0 | 0 |  | 0 | ",
                 "    0.1.0 | 0 | 0 |  | 0 | ",
             }));
    const QModelIndex empty = find(model, {u"registry.opentofu.org"_s, u"hashicorp/alpha"_s, u"2.0.0"_s});
    QVERIFY(empty.isValid());
    QVERIFY(!empty.data(MirrorTreeModel::VerdictRole).isValid());
    QVERIFY(!empty.siblingAtColumn(MirrorTreeModel::VerdictColumn).data(MirrorTreeModel::VerdictRole).isValid());
    QVERIFY(!find(model, {u"example.com"_s}).data(MirrorTreeModel::VerdictRole).isValid());
    // Its non-empty sibling still has one; verifying the leaf does not give the empty one a verdict.
    const QModelIndex full = find(model, {u"registry.opentofu.org"_s, u"hashicorp/alpha"_s, u"1.0.0"_s});
    QCOMPARE(full.data(MirrorTreeModel::VerdictRole).toInt(), int(Verdict::Pending));
    model.applyResults(
        {resultWith(model, {u"registry.opentofu.org"_s, u"hashicorp/alpha"_s, u"1.0.0"_s, u"linux_amd64"_s}, Verdict::Verified)});
    QCOMPARE(full.data(MirrorTreeModel::VerdictRole).toInt(), int(Verdict::Verified));
    QVERIFY(!empty.data(MirrorTreeModel::VerdictRole).isValid());
    // Sorting by verdict puts a parent without verdict after the verified ones.
    QVERIFY(empty.siblingAtColumn(MirrorTreeModel::VerdictColumn).data(MirrorTreeModel::SortRole).toInt()
            > full.siblingAtColumn(MirrorTreeModel::VerdictColumn).data(MirrorTreeModel::SortRole).toInt());
}

void TestMirrorTreeModel::filterEqualsQtRecursiveFiltering_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("verdict"); // -1: any
    QTest::addColumn<QString>("platform");
    QTest::newRow("none") << QString() << -1 << QString();
    QTest::newRow("verdict") << QString() << int(Verdict::Mismatch) << QString();
    QTest::newRow("platform") << QString() << -1 << u"linux_arm64"_s;
    QTest::newRow("text") << u"type1"_s << -1 << QString();
    QTest::newRow("hash") << u"zh:11"_s << -1 << QString();
    QTest::newRow("all three") << u"ns2 1."_s << int(Verdict::Verified) << u"darwin_arm64"_s;
    QTest::newRow("nothing") << u"nomatch"_s << -1 << QString();
}

// ArchiveFilterProxyModel tests each node once and memoizes whole subtrees (acceptsRow) instead of
// Qt's recursive filtering: the visible tree must stay what Qt's recursive filtering shows while
// results stream in, the filter changes, and a rescan merges — whichever proxy is asked first.
void TestMirrorTreeModel::filterEqualsQtRecursiveFiltering()
{
    QFETCH(QString, text);
    QFETCH(int, verdict);
    QFETCH(QString, platform);

    MirrorTreeModel model;
    ArchiveFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    ReferenceProxy reference(&model);
    reference.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCatalog(generatedCatalog(7, 40));
    QRandomGenerator rng(11);

    MirrorTreeModel::RowFilter filter;
    filter.verdict = verdict < 0 ? std::nullopt : std::optional<Verdict>(Verdict(verdict));
    filter.platform = platform;
    filter.words = text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const auto apply = [&] {
        proxy.setTextFilter(text);
        proxy.setVerdictFilter(filter.verdict);
        proxy.setPlatformFilter(platform);
        reference.setFilter(filter);
    };
    apply();
    QVERIFY(!fullDump(reference).isEmpty() || text == u"nomatch"_s || verdict >= 0);
    QCOMPARE(fullDump(proxy), fullDump(reference));
    for (int round = 0; round < 6; ++round) {
        model.applyResults(randomResults(model, rng, 25)); // both proxies have mappings now
        QCOMPARE(fullDump(proxy), fullDump(reference));
    }
    // Off and on again; then results while some subtrees were never mapped.
    proxy.setTextFilter(QString());
    proxy.setVerdictFilter(std::nullopt);
    proxy.setPlatformFilter(QString());
    reference.setFilter({});
    QCOMPARE(fullDump(proxy), fullDump(reference));
    apply();
    model.applyResults(randomResults(model, rng, 60));
    QCOMPARE(fullDump(proxy), fullDump(reference));
    // A rescan merged under the filter: kept rows take fresh (pending) results.
    model.mergeCatalog(generatedCatalog(8, 45));
    QCOMPARE(fullDump(proxy), fullDump(reference));
    model.applyResults(randomResults(model, rng, 60));
    QCOMPARE(fullDump(proxy), fullDump(reference));
}

void TestMirrorTreeModel::sortEqualsQtVariantSort_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<bool>("descending");
    for (int c = 0; c < MirrorTreeModel::ColumnCount; ++c)
        for (bool d : {false, true})
            QTest::addRow("column %d %s", c, d ? "descending" : "ascending") << c << d;
}

// ArchiveFilterProxyModel::lessThan compares nodes directly (MirrorTreeModel::compareRows): every
// column in both orders must sort as Qt's QVariant comparison of SortRole does.
void TestMirrorTreeModel::sortEqualsQtVariantSort()
{
    QFETCH(int, column);
    QFETCH(bool, descending);
    MirrorTreeModel model;
    model.setCatalog(generatedCatalog(3, 30));
    QRandomGenerator rng(5);
    model.applyResults(randomResults(model, rng, 200)); // mixed verdicts and sizes
    ArchiveFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    ReferenceProxy reference(&model);
    reference.setSourceModel(&model);
    const Qt::SortOrder order = descending ? Qt::DescendingOrder : Qt::AscendingOrder;
    proxy.sort(column, order);
    reference.sort(column, order);
    const QString dump = fullDump(reference);
    QVERIFY(dump.count(QLatin1Char('\n')) > 300);
    QCOMPARE(fullDump(proxy), dump);
}

// The window builds the tree on a global-pool thread (its scan worker). buildTree's own parallel
// part must not need another global-pool thread: with none free (one core, or two scans at once)
// it would wait forever.
void TestMirrorTreeModel::buildTreeOnABusyGlobalPool()
{
    Catalog big = generatedCatalog(9, 60);
    // Above buildTree's threshold for building in parallel (4,096 archives).
    while (big.archiveCount() < 5000) {
        Catalog more = generatedCatalog(quint32(big.providers.size()), 60);
        for (Provider &p : more.providers) {
            p.address =
                ProviderAddress::parse(QStringLiteral("more.example/m%1/%2").arg(big.providers.size()).arg(p.address.type())).value();
            big.providers.append(p);
        }
    }
    QThreadPool *global = QThreadPool::globalInstance();
    const int before = global->maxThreadCount();
    global->setMaxThreadCount(1);
    QFuture<int> built = QtConcurrent::run([&big] { return MirrorTreeModel::buildTree(big).archiveCount(); });
    QTRY_VERIFY_WITH_TIMEOUT(built.isFinished(), 60000);
    global->setMaxThreadCount(before);
    int leaves = 0; // every archive and every other copy of one is a row
    for (const Provider &p : std::as_const(big.providers))
        for (const ProviderVersion &v : p.versions)
            leaves += int(v.archives.size() + v.duplicates.size());
    QCOMPARE(built.result(), leaves);
}

QTEST_GUILESS_MAIN(TestMirrorTreeModel)
#include "tst_mirrortreemodel.moc"
