// Hostile bundles: path traversal, absolute names, links out of the bundle, devices, duplicate
// names, zip bombs inflating to several GiB, truncated and non-archives. Each is refused (verify
// reports it, import imports nothing) naming the entry; nothing is written outside the staging
// area (the target and a sentinel directory beside it are compared before and after); memory stays
// bounded (the kernel's peak-RSS mark, reset before each run). The bundles are made by Python's
// tarfile/zipfile and by hand-assembled zip records (tests/bundle/fixtures.py).

#include "BundleTestSupport.h"

#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleWriter.h"
#include "model/mirror/FileSystemMirror.h"

#include "tests/support/TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace provender::test;

namespace {

/// Peak RSS growth allowed while reading a hostile bundle (libarchive's buffers, our 256 KiB
/// chunks, the entry table); a bomb that were buffered would need GiBs.
constexpr qint64 kMaxGrowthKiB = 96 * 1024;

QStringList findNamed(const QString &root, const QString &name)
{
    QStringList out;
    QDirIterator it(root, {name}, QDir::AllEntries | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        out.append(it.next());
    return out;
}

} // namespace

class TestBundleHostile : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_target;   ///< a small mirror every import is tried against
    QString m_outside;  ///< a sentinel directory beside it
    QString m_good;     ///< a valid bundle (tar.gz)
    QMap<QString, QString> m_targetBefore;
    int m_counter = 0;

    QString fresh(const QString &name) { return m_tmp.path() + QStringLiteral("/%1-%2").arg(name).arg(++m_counter); }

    void checkNothingWritten()
    {
        QCOMPARE(snapshotDiff(m_targetBefore, snapshot(m_target)), QString());
        QCOMPARE(snapshot(m_outside).size(), 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        if (bundlePython().isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("python3 is not available: the hostile bundles are made with Python"));
        const QString source = m_tmp.path() + QStringLiteral("/source");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("mirror"), source}, &error).isNull(), qPrintable(error));
        m_target = m_tmp.path() + QStringLiteral("/target");
        QVERIFY(runTool(QStringLiteral("cp"), {QStringLiteral("-a"), source, m_target}));
        m_outside = m_tmp.path() + QStringLiteral("/outside");
        QVERIFY(QDir().mkpath(m_outside));
        m_targetBefore = snapshot(m_target);
        m_good = m_tmp.path() + QStringLiteral("/good.tar.gz");
        Result<Catalog> catalog = scanFileSystemMirror(source);
        QVERIFY(catalog.ok());
        BundleCreateOptions options;
        options.useCache = false;
        QVERIFY(createBundle(m_good, selectAll(catalog.value()), options).ok());
    }

    void hostileEntries_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("arg");          ///< where the fixture aims (relative: a unique name)
        QTest::addColumn<QString>("problem");      ///< expected BundleEntryProblem kind
        QTest::addColumn<QString>("entryContains");
        const QString outsideAbs = m_tmp.path() + QStringLiteral("/outside/absolute-evil.txt");
        QTest::newRow("tar ../ traversal") << "traversal" << "traversal-evil.txt" << "unsafe-path" << "traversal-evil.txt";
        QTest::newRow("tar absolute name") << "absolute" << outsideAbs << "unsafe-path" << "absolute-evil.txt";
        QTest::newRow("tar symlink escaping") << "symlink-escape" << "../../outside" << "link-outside" << "hashicorp/x";
        QTest::newRow("tar symlink named like the root") << "symlink-root" << "" << "unsafe-path" << "./";
        QTest::newRow("tar symlink absolute") << "symlink-absolute" << m_tmp.path() + QStringLiteral("/outside") << "link-outside" << "hashicorp/x";
        QTest::newRow("tar hard link outside") << "hardlink-outside" << "/etc/passwd" << "link-outside" << "hashicorp/h";
        QTest::newRow("tar device") << "device" << "" << "special-file" << "hashicorp/dev";
        QTest::newRow("tar fifo") << "fifo" << "" << "special-file" << "hashicorp/fifo";
        QTest::newRow("tar duplicate") << "duplicate" << "" << "duplicate-name" << "terraform-provider-x_1.0.0_linux_amd64.zip";
        QTest::newRow("tar file and directory") << "file-and-directory" << "" << "duplicate-name" << "hashicorp/x";
        QTest::newRow("zip ../ traversal") << "zip-traversal" << "zip-traversal-evil.txt" << "unsafe-path" << "zip-traversal-evil.txt";
        QTest::newRow("zip absolute name") << "zip-absolute" << m_tmp.path() + QStringLiteral("/outside/zip-absolute-evil.txt") << "unsafe-path" << "zip-absolute-evil.txt";
        QTest::newRow("zip duplicate") << "zip-duplicate" << "" << "duplicate-name" << "hashicorp/x/a";
        QTest::newRow("zip symlink escaping") << "zip-symlink" << "../../outside" << "link-outside" << "hashicorp/x";
    }

    void hostileEntries()
    {
        QFETCH(QString, kind);
        QFETCH(QString, arg);
        QFETCH(QString, problem);
        QFETCH(QString, entryContains);
        const QString bundle = fresh(kind) + (kind.startsWith(u"zip") ? QStringLiteral(".zip") : QStringLiteral(".tar.gz"));
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("hostile"), kind, bundle, arg}, &error).isNull(), qPrintable(error));

        Result<BundleContents> verified = verifyBundle(bundle);
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().toString()));
        QVERIFY(verified->hasFindings());
        const auto found = std::find_if(verified->problems.cbegin(), verified->problems.cend(), [&](const BundleEntryProblem &p) {
            return toString(p.kind) == problem && p.entry.contains(entryContains);
        });
        QVERIFY2(found != verified->problems.cend(),
                 qPrintable(QStringLiteral("no %1 problem naming %2 among %3").arg(problem, entryContains).arg(verified->problems.size())));

        for (const bool dry : {true, false}) {
            ImportOptions options;
            options.dryRun = dry;
            Result<ImportReport> imported = importBundle(bundle, m_target, options);
            QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
            QVERIFY(!imported->committed);
            QVERIFY(imported->blocked());
            QVERIFY2(imported->refusal.contains(entryContains), qPrintable(imported->refusal));
            checkNothingWritten();
        }
        if (!arg.isEmpty() && !arg.startsWith(u'/') && !arg.startsWith(u'.'))
            QCOMPARE(findNamed(m_tmp.path(), arg), QStringList());
        if (arg.startsWith(m_tmp.path()))
            QVERIFY(!QFile::exists(arg) || QFileInfo(arg).isDir());
    }

    void bombs_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<double>("gib");
        QTest::addColumn<qint64>("maxEntry");
        QTest::addColumn<qint64>("maxTotal");
        QTest::addColumn<bool>("import");
        QTest::addColumn<QString>("messageContains");
        const qint64 gib = qint64(1) << 30;
        // A zip whose one entry honestly declares 3 GiB: refused from its header, nothing inflated.
        QTest::newRow("zip declares 3 GiB") << "zip-honest" << 3.0 << gib << qint64(0) << true << "declares";
        // A zip whose entry says 1 MiB and inflates to 3 GiB: cut at 1 MiB.
        QTest::newRow("zip lies, 3 GiB") << "zip-lying" << 3.0 << qint64(4) * gib << qint64(0) << true << "1048576";
        // A tar.gz of three 1 GiB files: the total limit stops it (reading stops there).
        QTest::newRow("tar.gz 3 GiB in all") << "tar-gz" << 3.0 << 2 * gib << gib / 4 << true << "in all";
        // Verifying streams and needs no limit: all of it goes through SHA-256 in bounded memory.
        QTest::newRow("tar.gz 2 GiB, verify, no limits") << "tar-gz" << 2.0 << qint64(4) * gib << qint64(0) << false << "";
    }

    void bombs()
    {
        QFETCH(QString, kind);
        QFETCH(double, gib);
        QFETCH(qint64, maxEntry);
        QFETCH(qint64, maxTotal);
        QFETCH(bool, import);
        QFETCH(QString, messageContains);
        const QString bundle = fresh(kind) + (kind.startsWith(u"zip") ? QStringLiteral(".zip") : QStringLiteral(".tar.gz"));
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("bomb"), kind, bundle, QString::number(gib)}, &error).isNull(), qPrintable(error));
        QVERIFY2(QFileInfo(bundle).size() < (qint64(64) << 20), "the bomb itself must be small");
        BundleLimits limits;
        limits.maxEntryBytes = maxEntry;
        limits.maxTotalBytes = maxTotal;

        if (!resetPeakRss())
            PROVENDER_SKIP(provender::test::Missing::Platform, QStringLiteral("cannot reset the peak-RSS mark (/proc/self/clear_refs)"));
        qint64 base = currentRssKiB();
        {
            // The probe itself must see a large allocation, or the bound below proves nothing.
            QByteArray ballast(qsizetype(kMaxGrowthKiB + 16 * 1024) * 1024, 'x');
            QVERIFY2(peakRssKiB() - base > kMaxGrowthKiB, "the peak-RSS probe does not see allocations");
        }
        QVERIFY(resetPeakRss());
        base = currentRssKiB();
        Result<BundleContents> verified = verifyBundle(bundle, limits);
        qint64 growth = peakRssKiB() - base;
        qInfo("verify: peak RSS growth %lld KiB", growth);
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("verify grew RSS by %1 KiB").arg(growth)));
        if (messageContains.isEmpty()) {
            QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().toString()));
            QVERIFY(verified->problems.isEmpty());
            QCOMPARE(verified->contentBytes, qint64(gib * double(qint64(1) << 30)));
        } else {
            QVERIFY(verified.ok());
            QVERIFY(verified->hasFindings());
            QVERIFY(std::any_of(verified->problems.cbegin(), verified->problems.cend(), [&](const BundleEntryProblem &p) {
                return p.kind == BundleEntryProblem::Kind::TooLarge && p.message.contains(messageContains) && p.entry.contains(u"bomb");
            }));
        }
        if (!import)
            return;
        QVERIFY(resetPeakRss());
        base = currentRssKiB();
        ImportOptions options;
        options.limits = limits;
        Result<ImportReport> imported = importBundle(bundle, m_target, options);
        growth = peakRssKiB() - base;
        qInfo("import: peak RSS growth %lld KiB", growth);
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("import grew RSS by %1 KiB").arg(growth)));
        QVERIFY(imported.ok());
        QVERIFY(!imported->committed);
        QVERIFY2(imported->refusal.contains(u"bomb"), qPrintable(imported->refusal));
        checkNothingWritten();
    }

    void unreadable_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("cutPercent"); ///< keep this much of the good bundle; -1: not an archive
        QTest::newRow("tar.gz cut at 60%") << "cut.tar.gz" << 60;
        QTest::newRow("tar.gz cut at 5%") << "cut5.tar.gz" << 5;
        QTest::newRow("zip cut at 60%") << "cut.zip" << 60;
        QTest::newRow("not an archive") << "text.tar.gz" << -1;
        QTest::newRow("empty file") << "empty.zip" << 0;
    }

    void unreadable()
    {
        QFETCH(QString, name);
        QFETCH(int, cutPercent);
        const QString bundle = fresh(QStringLiteral("u")) + name;
        QByteArray bytes;
        if (cutPercent < 0) {
            bytes = QByteArray("this is not a bundle\n").repeated(100);
        } else {
            QString source = m_good;
            if (name.endsWith(u".zip")) {
                source = m_tmp.path() + QStringLiteral("/good.zip");
                if (!QFile::exists(source)) {
                    Result<Catalog> catalog = scanFileSystemMirror(m_target);
                    BundleCreateOptions options;
                    options.format = BundleFormat::Zip;
                    options.useCache = false;
                    QVERIFY(createBundle(source, selectAll(catalog.value()), options).ok());
                }
            }
            bytes = readFile(source);
            bytes.truncate(bytes.size() * cutPercent / 100);
        }
        QFile f(bundle);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();

        Result<BundleContents> verified = verifyBundle(bundle);
        QVERIFY(!verified.ok());
        QCOMPARE(int(verified.error().code), int(ErrorCode::CorruptArchive));
        Result<ImportReport> imported = importBundle(bundle, m_target);
        QVERIFY(!imported.ok());
        QCOMPARE(int(imported.error().code), int(ErrorCode::CorruptArchive));
        checkNothingWritten();
    }

    void sumsThatLie()
    {
        // SHA256SUMS may not name files outside the bundle either.
        QVERIFY(!parseSha256Sums(QByteArray(64, 'a') + "  ../../etc/passwd\n").ok());
        QVERIFY(!parseSha256Sums(QByteArray(64, 'a') + "  /etc/passwd\n").ok());
        QVERIFY(!parseSha256Sums(QByteArray(64, 'a') + "  a\n" + QByteArray(64, 'b') + "  ./a\n").ok());
        QVERIFY(!parseSha256Sums("not a sums line\n").ok());
        // Control characters, as in entry names (found by fuzz_bundlemeta: a path ending in CR
        // did not survive writing the list back); the error names the line.
        const Result<QMap<QString, QByteArray>> cr = parseSha256Sums(QByteArray(64, 'a') + "  ok\n" + QByteArray(64, 'a') + "  a.json\r\r\n");
        QVERIFY(!cr.ok());
        QCOMPARE(cr.error().location.line, 2);
        QVERIFY(!parseSha256Sums(QByteArray(64, 'a') + "  a\tb\n").ok());
        Result<QMap<QString, QByteArray>> ok = parseSha256Sums(QByteArray(64, 'A') + " *x/y\n");
        QVERIFY(ok.ok());
        QCOMPARE(ok->value(QStringLiteral("x/y")), QByteArray::fromHex(QByteArray(64, 'a')));
    }
};

QTEST_GUILESS_MAIN(TestBundleHostile)
#include "tst_bundle_hostile.moc"
