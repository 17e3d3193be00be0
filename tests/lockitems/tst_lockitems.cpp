// The lock GUI's item models under QAbstractItemModelTester, compared with dumps written by hand.
// Hashes, archive paths and provenance come from make_lock_mirror.py (Python's zipfile/hashlib),
// verdicts from the rules in DESIGN.md worked out on paper for the fixture.

#include "model/lockfile/LockCheck.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockitems/CoverageMatrixModel.h"
#include "model/lockitems/LockDiffTreeModel.h"
#include "model/lockitems/LockHashListModel.h"
#include "model/lockitems/LockProviderTableModel.h"
#include "model/lockitems/SideBySideDiff.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/LockMirrorFixture.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

const char *kAlpha = "example.test/ns/alpha";
const char *kBeta = "example.test/ns/beta";
const QString kFake = u"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="_s;

LockFile parse(const QByteArray &text)
{
    const LockParseResult r = parseLockFile(text);
    for (const LockDiagnostic &d : r.diagnostics)
        qWarning("%s", qPrintable(d.toString(u"test.hcl"_s)));
    return r.document;
}

QByteArray provider(const char *address, const char *version, const QStringList &hashes, const char *constraints = nullptr)
{
    QByteArray out = "provider \"" + QByteArray(address) + "\" {\n  version = \"" + version + "\"\n";
    if (constraints)
        out += "  constraints = \"" + QByteArray(constraints) + "\"\n";
    if (hashes.isEmpty())
        return out + "}\n";
    out += "  hashes = [\n";
    for (const QString &h : hashes)
        out += "    \"" + h.toUtf8() + "\",\n";
    return out + "  ]\n}\n";
}

/// Byte-wise sort of lines, the order lock files keep hashes in (tofu-formats.md §1.1).
QString sortedLines(QStringList lines)
{
    std::sort(lines.begin(), lines.end(), [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
    return lines.join(u'\n') + u'\n';
}

} // namespace

class TestLockItems : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::LockMirrorFixture> m_mirror;
    Catalog m_catalog;

    QString py(const char *address, const char *version, const char *platform, const char *field) const
    {
        return m_mirror->expected(address, version, platform, field);
    }
    QString fileOf(const char *address, const char *version, const char *platform) const
    {
        return QFileInfo(py(address, version, platform, "path")).fileName();
    }
    /// The fixture mirror's provenance of the hashes of `a` and `b` (HashProvenanceIndex::wantedFor).
    HashProvenanceIndex provenance(const LockFile &a, const LockFile &b) const
    {
        return HashProvenanceIndex::build(m_catalog, HashProvenanceIndex::wantedFor(a, b));
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Zips with directory entries: their zip-level h1: differs from the extracted one.
        m_mirror = std::make_unique<test::LockMirrorFixture>(QList<test::FixtureArchive>{
            {kAlpha, "1.0.0", "linux_amd64", false, true},
            {kAlpha, "1.0.0", "darwin_arm64", false, true},
            {kAlpha, "1.1.0", "linux_amd64", false, true},
            {kBeta, "2.0.0", "linux_amd64", false, true},
        });
        if (!m_mirror->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_mirror->error()));
        Result<Catalog> c = scanFileSystemMirror(m_mirror->root());
        QVERIFY2(c.ok(), c.ok() ? "" : qPrintable(c.error().message));
        m_catalog = c.value();
        QVERIFY(py(kAlpha, "1.0.0", "linux_amd64", "h1") != py(kAlpha, "1.0.0", "linux_amd64", "h1_zip"));
    }

    void providerTable()
    {
        const QString alphaLinuxH1 = py(kAlpha, "1.0.0", "linux_amd64", "h1");
        const QString alphaDarwinZh = py(kAlpha, "1.0.0", "darwin_arm64", "zh");
        const QString betaLinuxH1Zip = py(kBeta, "2.0.0", "linux_amd64", "h1_zip");
        const LockFile doc = parse(provider(kBeta, "2.0.0", {betaLinuxH1Zip})
                                   + provider(kAlpha, "1.0.0", {u"zz:abc"_s, alphaDarwinZh, alphaLinuxH1, kFake}, ">= 1.0.0"));
        QCOMPARE(doc.providers.size(), 2);

        LockProviderTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDocument(doc);
        QCOMPARE(model.dump(),
                 u"example.test/ns/alpha | 1.0.0 | >= 1.0.0 | 2 h1, 1 zh, 1 zz | \n"
                 "example.test/ns/beta | 2.0.0 |  | 1 h1 | \n"_s);

        model.setProvenance(provenance(doc, doc));
        QCOMPARE(model.dump(),
                 u"example.test/ns/alpha | 1.0.0 | >= 1.0.0 | 2 h1, 1 zh, 1 zz | darwin_arm64, linux_amd64\n"
                 "example.test/ns/beta | 2.0.0 |  | 1 h1 | linux_amd64\n"_s);
        QCOMPARE(model.index(0, 0).data(LockProviderTableModel::HashCountsRole).toMap().value(u"h1"_s).toInt(), 2);
        QCOMPARE(model.rowOf(ProviderAddress::parse(QString::fromLatin1(kBeta)).value()), 1);

        // Without an edit handler nothing is editable; with one, version/constraints edits go to it.
        QVERIFY(!(model.flags(model.index(0, LockProviderTableModel::VersionColumn)) & Qt::ItemIsEditable));
        QVERIFY(!model.setData(model.index(0, LockProviderTableModel::VersionColumn), u"1.1.0"_s));
        QString seen;
        model.setEditHandler([&seen](const ProviderAddress &a, LockProviderTableModel::Column c, const QString &v) {
            seen = u"%1 %2 %3"_s.arg(a.toString()).arg(int(c)).arg(v);
            return true;
        });
        QVERIFY(model.flags(model.index(0, LockProviderTableModel::ConstraintsColumn)) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(0, LockProviderTableModel::HashesColumn)) & Qt::ItemIsEditable));
        QVERIFY(model.setData(model.index(0, LockProviderTableModel::ConstraintsColumn), u"~> 1.0"_s));
        QCOMPARE(seen, u"example.test/ns/alpha 2 ~> 1.0"_s);
        QVERIFY(!model.setData(model.index(0, LockProviderTableModel::HashesColumn), u"x"_s));

        model.setDocument(LockFile());
        QCOMPARE(model.rowCount(), 0);
    }

    void hashList()
    {
        const QString linuxH1 = py(kAlpha, "1.0.0", "linux_amd64", "h1");
        const QString linuxH1Zip = py(kAlpha, "1.0.0", "linux_amd64", "h1_zip");
        const QString darwinZh = py(kAlpha, "1.0.0", "darwin_arm64", "zh");
        const QString newerH1 = py(kAlpha, "1.1.0", "linux_amd64", "h1");
        const LockFile doc = parse(provider(kAlpha, "1.0.0", {linuxH1, linuxH1Zip, darwinZh, newerH1, kFake, u"zz:abc"_s}));
        const LockFile newer = parse(provider(kAlpha, "1.1.0", {}));
        const HashProvenanceIndex prov = provenance(doc, newer);

        LockHashListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProvider(doc.providers.constFirst(), &prov);
        const QString f = fileOf(kAlpha, "1.0.0", "linux_amd64");
        const QString expected = sortedLines({
            linuxH1 + u" | h1 | linux_amd64 | "_s + f + u" — h1 (extracted)"_s,
            linuxH1Zip + u" | h1 | linux_amd64 | "_s + f + u" — h1 (zip)"_s,
            darwinZh + u" | zh | darwin_arm64 | "_s + fileOf(kAlpha, "1.0.0", "darwin_arm64") + u" — zh"_s,
            newerH1 + u" | h1 | linux_amd64 (1.1.0) | "_s + fileOf(kAlpha, "1.1.0", "linux_amd64") + u" — h1 (extracted)"_s,
            kFake + u" | h1 |  | "_s,
            u"zz:abc | zz |  | "_s,
        });
        QCOMPARE(model.dump(), expected);
        QCOMPARE(model.index(0, 0).data(LockHashListModel::HashRole).toString(), model.hashAt(0).toString());

        // Without provenance: hashes and schemes only.
        model.setProvider(doc.providers.constFirst(), nullptr);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.index(0, LockHashListModel::PlatformColumn).data().toString(), QString());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void diffTree()
    {
        const QString old100 = py(kAlpha, "1.0.0", "linux_amd64", "h1");
        const QString new110 = py(kAlpha, "1.1.0", "linux_amd64", "h1");
        const QString beta = py(kBeta, "2.0.0", "linux_amd64", "h1");
        const QString darwinZh = py(kAlpha, "1.0.0", "darwin_arm64", "zh");
        const LockFile a = parse(provider(kAlpha, "1.0.0", {old100, darwinZh}) + provider(kBeta, "2.0.0", {beta}));
        const LockFile b = parse(provider(kAlpha, "1.1.0", {new110}, "~> 1.0") + provider("example.test/ns/gamma", "0.1.0", {kFake}));
        const HashProvenanceIndex prov = provenance(a, b);

        LockDiffTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDiff(diffLockFiles(a, b, &prov));
        const QString expected = u"example.test/ns/alpha | upgraded 1.0.0 → 1.1.0\n"
                                 "  version | 1.0.0 → 1.1.0\n"
                                 "  constraints | (none) → ~> 1.0\n"
                                 "  hashes added | 1\n"
                                 "    linux_amd64 | h1 (extracted)\n"
                                 "      "_s
            + new110 + u" | h1 (extracted), "_s + fileOf(kAlpha, "1.1.0", "linux_amd64")
            + u"\n"
              "  hashes removed | 2\n"
              "    darwin_arm64 | zh\n"
              "      "_s
            + darwinZh + u" | zh, "_s + fileOf(kAlpha, "1.0.0", "darwin_arm64")
            + u"\n"
              "    linux_amd64 | h1 (extracted)\n"
              "      "_s
            + old100 + u" | h1 (extracted), "_s + fileOf(kAlpha, "1.0.0", "linux_amd64")
            + u"\n"
              "example.test/ns/beta | removed 2.0.0\n"
              "  hashes removed | 1\n"
              "    linux_amd64 | h1 (extracted)\n"
              "      "_s
            + beta + u" | h1 (extracted), "_s + fileOf(kBeta, "2.0.0", "linux_amd64")
            + u"\n"
              "example.test/ns/gamma | added 0.1.0\n"
              "  hashes added | 1\n"
              "    unknown platform | unknown\n"
              "      "_s
            + kFake + u" | unknown\n"_s;
        QCOMPARE(model.dump(), expected);

        const QModelIndex alpha = model.index(0, 0);
        QCOMPARE(alpha.data(LockDiffTreeModel::KindRole).toInt(), int(LockDiffTreeModel::Kind::Provider));
        QCOMPARE(alpha.data(LockDiffTreeModel::ChangeRole).toInt(), int(ProviderDiff::Change::Upgraded));
        const QModelIndex hash = model.index(0, 0, model.index(0, 0, model.index(2, 0, alpha)));
        QCOMPARE(hash.data(LockDiffTreeModel::HashRole).toString(), new110);
        QCOMPARE(hash.data(LockDiffTreeModel::PlatformRole).toString(), u"linux_amd64"_s);
        QCOMPARE(hash.data(LockDiffTreeModel::AddressRole).toString(), QString::fromLatin1(kAlpha));
        QCOMPARE(hash.parent().parent(), model.index(2, 0, alpha));

        // Without provenance every hash is of an unknown platform; equal files give an empty tree.
        model.setDiff(diffLockFiles(a, a));
        QCOMPARE(model.rowCount(), 0);
        model.setDiff(diffLockFiles(a, b));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, 0, model.index(2, 0, model.index(0, 0))).data().toString(), u"unknown platform"_s);
    }

    void coverage()
    {
        // A lock's h1: is checked against a packed archive as terraform init checks it: HashZip
        // of the zip (docs/VERDICTS.md), so the lock names the zip-level h1: here.
        const LockFile doc = parse(provider(kAlpha, "1.0.0", {py(kAlpha, "1.0.0", "linux_amd64", "h1_zip")})
                                   + provider(kBeta, "2.0.0", {kFake}) + provider("example.test/ns/gamma", "0.1.0", {kFake}));
        LockCheckOptions options;
        options.platforms = {Platform(u"linux"_s, u"amd64"_s), Platform(u"darwin"_s, u"arm64"_s)};
        CoverageMatrixModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setResult(checkLockAgainstMirror(doc, m_catalog, options));
        // alpha: its linux archive matches the lock's h1; darwin's archive matches none of the
        // lock's checkable hashes. beta: only a wrong h1; no darwin archive. gamma: not in the mirror.
        QCOMPARE(model.dump(),
                 u"example.test/ns/alpha 1.0.0: ✓ verified | ✗ mismatch\n"
                 "example.test/ns/beta 2.0.0: ✗ mismatch | – missing\n"
                 "example.test/ns/gamma 0.1.0: – missing | – missing\n"_s);
        QCOMPARE(model.toCsv(),
                 QByteArray("provider,version,linux_amd64,darwin_arm64\r\n"
                            "example.test/ns/alpha,1.0.0,verified,mismatch\r\n"
                            "example.test/ns/beta,2.0.0,mismatch,missing\r\n"
                            "example.test/ns/gamma,0.1.0,missing,missing\r\n"));
        const QModelIndex cell = model.index(0, 1);
        QCOMPARE(cell.data(CoverageMatrixModel::InMirrorRole).toBool(), true);
        QCOMPARE(cell.data(CoverageMatrixModel::MatchesLockRole).toBool(), false);
        QCOMPARE(cell.data(CoverageMatrixModel::PlatformRole).toString(), u"darwin_arm64"_s);
        QCOMPARE(cell.data(CoverageMatrixModel::VersionRole).toString(), u"1.0.0"_s);
        QCOMPARE(QFileInfo(cell.data(CoverageMatrixModel::ArchivePathRole).toString()).canonicalFilePath(),
                 QFileInfo(py(kAlpha, "1.0.0", "darwin_arm64", "path")).canonicalFilePath());
        QCOMPARE(model.index(0, 0).data(CoverageMatrixModel::MatchesLockRole).toBool(), true);
        QCOMPARE(model.index(2, 0).data(CoverageMatrixModel::InMirrorRole).toBool(), false);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), u"darwin_arm64"_s);
        model.setResult(LockCheckResult());
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
    }

    void sideBySide_data()
    {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<QString>("expected"); // "L|R" per row; ~ changed, . filler, = same
        QTest::newRow("equal") << QByteArray("x\ny\n") << QByteArray("x\ny\n") << u"=x|=x =y|=y"_s;
        QTest::newRow("replace and append") << QByteArray("a\nb\nc\n") << QByteArray("a\nB\nc\nd\n") << u"=a|=a ~b|~B =c|=c .|~d"_s;
        QTest::newRow("two replace one") << QByteArray("a\nb\nc\nd\n") << QByteArray("a\nX\nd\n") << u"=a|=a ~b|~X ~c|. =d|=d"_s;
        QTest::newRow("crlf vs lf") << QByteArray("a\r\nb\r\n") << QByteArray("a\nb\n") << u"~a|~a ~b|~b"_s;
        QTest::newRow("from empty") << QByteArray() << QByteArray("n\n") << u".|~n"_s;
        QTest::newRow("no final newline") << QByteArray("a\nb") << QByteArray("a\nb\n") << u"=a|=a ~b|~b"_s;
    }

    void sideBySide()
    {
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QFETCH(QString, expected);
        const SideBySideDiff d = alignSideBySide(a, b);
        auto mark = [](SideBySideDiff::RowKind k) {
            return k == SideBySideDiff::RowKind::Same ? u'=' : k == SideBySideDiff::RowKind::Changed ? u'~' : u'.';
        };
        QStringList rows;
        for (qsizetype i = 0; i < d.rowCount(); ++i)
            rows << QString(mark(d.leftKind.at(i))) + d.left.at(i) + u'|' + mark(d.rightKind.at(i)) + d.right.at(i);
        QCOMPARE(rows.join(u' '), expected);
        QCOMPARE(d.left.size(), d.right.size());
    }
};

QTEST_GUILESS_MAIN(TestLockItems)
#include "tst_lockitems.moc"
