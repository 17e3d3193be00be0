// hashZip()'s limits against zip bombs (ZipLimits): overlapping entries (D. Fifield's "better zip
// bomb", and many central entries on one local header), a declared total beyond the inflate
// budget, more entries than the cap. Each is refused before anything is inflated — an error
// naming the limit, peak RSS growth a few MiB — and through the verify engine becomes an `error`
// verdict with that message. Legitimate zips just under a limit still hash, with the h1: Python's
// zipfile gives (tests/hashing/refhash.py). The zips are assembled record by record by
// tests/hashing/zipbombs.py (Python's zlib for DEFLATE and CRC-32); which entries overlap is
// computed there from the offsets it wrote.

#include "model/hashing/PackageHashes.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/ProcessMemory.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ZipFixture.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace provender::test;

namespace {

/// Peak RSS growth allowed while refusing a bomb: the entry table and a read buffer. Inflating
/// any of these bombs would take GiBs of output through 256 KiB buffers (bounded too), so the real
/// evidence that nothing was inflated is the message and the progress callback's count.
constexpr qint64 kMaxGrowthKiB = 32 * 1024;

template<typename T> QString errorText(const Result<T> &r)
{
    return r.ok() ? QString() : r.error().toString();
}

} // namespace

class TestHashLimits : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    QJsonObject bomb(const QStringList &args)
    {
        QString error;
        const QByteArray out = runPython(QStringList{sourceDir() + QStringLiteral("/tests/hashing/zipbombs.py")} + args, &error);
        if (out.isNull())
            return QJsonObject{{QStringLiteral("error"), error}};
        return QJsonDocument::fromJson(out).object();
    }

    /// hashZip with `limits`: the result, with peak RSS growth and the bytes the progress saw.
    Result<PackageHashes> measured(const QString &path, const ZipLimits &limits, qint64 *growthKiB, qint64 *progressed)
    {
        resetPeakRss();
        const qint64 base = currentRssKiB();
        qint64 last = 0;
        Result<PackageHashes> r = hashZip(
            path,
            [&](qint64 done, qint64) {
                last = done;
                return true;
            },
            limits);
        *growthKiB = peakRssKiB() - base;
        *progressed = last;
        return r;
    }

    /// The verdict the verify engine gives the zip when it sits in a filesystem mirror.
    ArchiveResult verdictOf(const QString &zip)
    {
        const QString root = m_tmp.filePath(QStringLiteral("mirror-") + QFileInfo(zip).baseName());
        const QString dir = root + QStringLiteral("/registry.terraform.io/hashicorp/bomb");
        QDir().mkpath(dir);
        QFile::copy(zip, dir + QStringLiteral("/terraform-provider-bomb_1.0.0_linux_amd64.zip"));
        Result<Catalog> catalog = scanFileSystemMirror(root);
        if (!catalog.ok())
            return {};
        VerifyOptions options;
        options.useCache = false;
        const VerifyReport report = verifyCatalog(catalog.value(), options);
        return report.results.value(0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it makes the zips"));
        if (!resetPeakRss() || peakRssKiB() < 0)
            PROVENDER_SKIP(Missing::Platform, QStringLiteral("cannot reset or read the peak-RSS mark (/proc/self/clear_refs, VmHWM)"));
        // Warm up: libraries, first allocations.
        const QString small = m_tmp.filePath(QStringLiteral("small.zip"));
        QVERIFY(writeZip(small, {ZipEntrySpec::file("x", QByteArray(1 << 20, 'x'))}));
        QVERIFY(hashZip(small).ok());
    }

    void overlappingEntries_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("kernelMiB");
        QTest::addColumn<int>("files");
        // 32 files each inflating a 64 MiB kernel (+ the headers they quote): 2 GiB declared, under
        // the 8 GiB budget, so only the overlap rule can refuse it.
        QTest::newRow("better zip bomb (quoted local headers)") << "overlap" << 64 << 32;
        QTest::newRow("twenty central entries on one local header") << "shared" << 64 << 20;
    }

    void overlappingEntries()
    {
        QFETCH(QString, kind);
        QFETCH(int, kernelMiB);
        QFETCH(int, files);
        const QString path = m_tmp.filePath(kind + QStringLiteral(".zip"));
        const QJsonObject expected = bomb({kind, path, QString::number(kernelMiB), QString::number(files)});
        QVERIFY2(!expected.contains(u"error"), qPrintable(expected.value(u"error").toString()));
        QVERIFY(expected.value(u"declared_total").toDouble() < double(ZipLimits{}.maxInflatedBytes));

        qint64 growth = 0, progressed = 0;
        const Result<PackageHashes> r = measured(path, ZipLimits{}, &growth, &progressed);
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().code), int(ErrorCode::CorruptArchive));
        const QString message = r.error().message;
        QVERIFY2(message.contains(u"overlapping entries"), qPrintable(message));
        QVERIFY2(message.contains(u'"' + expected.value(u"first").toString() + u'"')
                     && message.contains(u'"' + expected.value(u"second").toString() + u'"'),
                 qPrintable(message));
        QCOMPARE(progressed, qint64(0)); // refused before the first byte was read for hashing
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(growth)));

        const ArchiveResult verdict = verdictOf(path);
        QCOMPARE(toString(verdict.detail.verdict), QStringLiteral("error"));
        QVERIFY2(verdict.detail.reason.contains(u"overlapping entries"), qPrintable(verdict.detail.reason));
    }

    void inflateBudget()
    {
        // Three honest, disjoint entries of 3 GiB of zeros: 9 GiB declared, beyond the default 8 GiB.
        const QString path = m_tmp.filePath(QStringLiteral("budget9.zip"));
        const QJsonObject expected = bomb({QStringLiteral("budget"), path, QStringLiteral("3"), QStringLiteral("3")});
        QVERIFY2(!expected.contains(u"error"), qPrintable(expected.value(u"error").toString()));
        QCOMPARE(qint64(expected.value(u"declared_total").toDouble()), qint64(9) << 30);
        qint64 growth = 0, progressed = 0;
        const Result<PackageHashes> r = measured(path, ZipLimits{}, &growth, &progressed);
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().code), int(ErrorCode::Unsupported));
        QVERIFY2(r.error().message.contains(QString::number(ZipLimits{}.maxInflatedBytes))
                     && r.error().message.contains(u"PROVENDER_ZIP_MAX_INFLATE_BYTES"),
                 qPrintable(r.error().message));
        QCOMPARE(progressed, qint64(0));
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(growth)));
        const ArchiveResult verdict = verdictOf(path);
        QCOMPARE(toString(verdict.detail.verdict), QStringLiteral("error"));
        QVERIFY2(verdict.detail.reason.contains(u"inflate limit"), qPrintable(verdict.detail.reason));

        // The budget is the caller's: the same rule just below and just above 3 GiB.
        const QString three = m_tmp.filePath(QStringLiteral("budget3.zip"));
        QVERIFY(!bomb({QStringLiteral("budget"), three, QStringLiteral("3"), QStringLiteral("1")}).contains(u"error"));
        ZipLimits tight;
        tight.maxInflatedBytes = (qint64(3) << 30) - 1;
        const Result<PackageHashes> refused = hashZip(three, {}, tight);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(QString::number(tight.maxInflatedBytes)), qPrintable(refused.error().message));
        tight.maxInflatedBytes = qint64(3) << 30;
        const Result<PackageHashes> hashed = hashZip(three, {}, tight);
        QVERIFY2(hashed.ok(), qPrintable(errorText(hashed)));
        QString error;
        const QByteArray ref = runPython({sourceDir() + QStringLiteral("/tests/hashing/refhash.py"), QStringLiteral("zip"), three}, &error);
        QVERIFY2(!ref.isNull(), qPrintable(error));
        QCOMPARE(hashed->h1Zip.toString(), QJsonDocument::fromJson(ref).object().value(u"h1_zip").toString());
    }

    void entryCount()
    {
        const QString path = m_tmp.filePath(QStringLiteral("many.zip"));
        QVERIFY(!bomb({QStringLiteral("many"), path, QStringLiteral("10001")}).contains(u"error"));
        qint64 growth = 0, progressed = 0;
        const Result<PackageHashes> r = measured(path, ZipLimits{}, &growth, &progressed);
        QVERIFY(!r.ok());
        QCOMPARE(int(r.error().code), int(ErrorCode::Unsupported));
        QVERIFY2(r.error().message.contains(u"more than 10000 entries") && r.error().message.contains(u"PROVENDER_ZIP_MAX_ENTRIES"),
                 qPrintable(r.error().message));
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(growth)));
        const ArchiveResult verdict = verdictOf(path);
        QCOMPARE(toString(verdict.detail.verdict), QStringLiteral("error"));
        QVERIFY2(verdict.detail.reason.contains(u"10000 entries"), qPrintable(verdict.detail.reason));

        // With a higher cap (here the process default, as the environment or a program sets it)
        // the same zip hashes like Python's zipfile says.
        const ZipLimits before = defaultZipLimits();
        ZipLimits raised = before;
        raised.maxEntries = 10001;
        setDefaultZipLimits(raised);
        const Result<PackageHashes> hashed = hashZip(path);
        setDefaultZipLimits(before);
        QVERIFY2(hashed.ok(), qPrintable(errorText(hashed)));
        QCOMPARE(hashed->entryCount, 10001);
        QString error;
        const QByteArray ref = runPython({sourceDir() + QStringLiteral("/tests/hashing/refhash.py"), QStringLiteral("zip"), path}, &error);
        QVERIFY2(!ref.isNull(), qPrintable(error));
        QCOMPARE(hashed->h1Zip.toString(), QJsonDocument::fromJson(ref).object().value(u"h1_zip").toString());
        QVERIFY(!hashZip(path).ok()); // the default is back
    }

    void environmentSetsTheDefaults()
    {
        // The process-wide defaults come from the environment when it sets them (read at the first
        // use): a child process shows it. `provender hash` prints the refusal.
        const QString path = m_tmp.filePath(QStringLiteral("env.zip"));
        QVERIFY(writeZip(path, {ZipEntrySpec::file("a", "1"), ZipEntrySpec::file("b", "2"), ZipEntrySpec::file("c", "3")}));
        QVERIFY(hashZip(path).ok());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PROVENDER_ZIP_MAX_ENTRIES"), QStringLiteral("2"));
        const ProcessRun run = runProcess(QStringLiteral(PROVENDER_BINARY), {QStringLiteral("hash"), path}, 60000, env);
        QVERIFY2(run.exitCode != 0, run.out.constData());
        QVERIFY2(run.err.contains("more than 2 entries") || run.out.contains("more than 2 entries"),
                 QByteArray(run.out + run.err).constData());
        env.insert(QStringLiteral("PROVENDER_ZIP_MAX_ENTRIES"), QStringLiteral("3"));
        const ProcessRun ok = runProcess(QStringLiteral(PROVENDER_BINARY), {QStringLiteral("hash"), path}, 60000, env);
        QVERIFY2(ok.exitCode == 0, QByteArray(ok.out + ok.err).constData());
    }
};

QTEST_GUILESS_MAIN(TestHashLimits)
#include "tst_hash_limits.moc"
