// Hostile bundles: path traversal, absolute names, links out of the bundle, devices, duplicate
// names, names that are one on macOS/Windows (case folding, NFC/NFD), bidi control characters,
// symbolic links inside the mirror tree, hard links to nothing, compressions that libarchive would
// hand to an external program, zip bombs inflating to several GiB, gzip/xz/zstd bombs, zip bombs
// (overlapping entries, an inflate budget) inside a tar, truncated and non-archives, a symlinked
// work directory, a target file system that would fill up. Each is refused (verify reports it,
// import imports nothing) naming the entry; nothing is written outside the staging area (the target
// and a sentinel directory beside it are compared before and after: every path, mode and SHA-256);
// memory stays bounded (the kernel's peak-RSS mark, reset before each run). Tar hard links to an
// earlier file are read as a copy of it and imported (Python's zipfile gives the expected hashes).
// The bundles are made by Python's tarfile/zipfile/lzma/bz2 and by hand-assembled zip records and
// zstd frames (tests/bundle/fixtures.py, tests/hashing/zipbombs.py).

#include "BundleTestSupport.h"

#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleWriter.h"
#include "model/mirror/FileSystemMirror.h"

#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/statvfs.h>

using namespace provender;
using namespace provender::test;

namespace {

/// Peak RSS growth allowed while reading a hostile bundle (libarchive's buffers, our 256 KiB
/// chunks, the verify pass's hashing queues — 64 MiB at most, EntryHashPool — and the entry
/// table); a bomb that were buffered would need GiBs.
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
    QString m_target;  ///< a small mirror every import is tried against
    QString m_outside; ///< a sentinel directory beside it
    QString m_good;    ///< a valid bundle (tar.gz)
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
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("the hostile bundles are made with Python"));
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
        QTest::addColumn<QString>("arg");     ///< where the fixture aims (relative: a unique name)
        QTest::addColumn<QString>("problem"); ///< expected BundleEntryProblem kind
        QTest::addColumn<QString>("entryContains");
        QTest::addColumn<QStringList>("messageContains"); ///< the verify problem's message names these
        const QString outsideAbs = m_tmp.path() + QStringLiteral("/outside/absolute-evil.txt");
        QTest::newRow("tar ../ traversal") << "traversal"
                                           << "traversal-evil.txt"
                                           << "unsafe-path"
                                           << "traversal-evil.txt" << QStringList();
        QTest::newRow("tar absolute name") << "absolute" << outsideAbs << "unsafe-path"
                                           << "absolute-evil.txt" << QStringList();
        QTest::newRow("tar symlink escaping") << "symlink-escape"
                                              << "../../outside"
                                              << "link-outside"
                                              << "hashicorp/x" << QStringList();
        QTest::newRow("tar symlink named like the root") << "symlink-root"
                                                         << ""
                                                         << "unsafe-path"
                                                         << "./" << QStringList();
        QTest::newRow("tar symlink absolute") << "symlink-absolute" << m_tmp.path() + QStringLiteral("/outside") << "link-outside"
                                              << "hashicorp/x" << QStringList();
        QTest::newRow("tar hard link outside") << "hardlink-outside"
                                               << "/etc/passwd"
                                               << "link-outside"
                                               << "hashicorp/h" << QStringList();
        QTest::newRow("tar device") << "device"
                                    << ""
                                    << "special-file"
                                    << "hashicorp/dev" << QStringList();
        QTest::newRow("tar fifo") << "fifo"
                                  << ""
                                  << "special-file"
                                  << "hashicorp/fifo" << QStringList();
        QTest::newRow("tar duplicate") << "duplicate"
                                       << ""
                                       << "duplicate-name"
                                       << "terraform-provider-x_1.0.0_linux_amd64.zip" << QStringList();
        QTest::newRow("tar file and directory") << "file-and-directory"
                                                << ""
                                                << "duplicate-name"
                                                << "hashicorp/x" << QStringList();
        QTest::newRow("zip ../ traversal") << "zip-traversal"
                                           << "zip-traversal-evil.txt"
                                           << "unsafe-path"
                                           << "zip-traversal-evil.txt" << QStringList();
        QTest::newRow("zip absolute name") << "zip-absolute" << m_tmp.path() + QStringLiteral("/outside/zip-absolute-evil.txt")
                                           << "unsafe-path"
                                           << "zip-absolute-evil.txt" << QStringList();
        QTest::newRow("zip duplicate") << "zip-duplicate"
                                       << ""
                                       << "duplicate-name"
                                       << "hashicorp/x/a" << QStringList();
        QTest::newRow("zip symlink escaping") << "zip-symlink"
                                              << "../../outside"
                                              << "link-outside"
                                              << "hashicorp/x" << QStringList();
        QTest::newRow("tar hard link to nothing in the bundle")
            << "hardlink-missing"
            << ""
            << "link-outside"
            << "terraform-provider-h_1.0.0_linux_amd64.zip" << QStringList{QStringLiteral("not-in-the-bundle.zip")};
        QTest::newRow("tar symlink inside the mirror tree")
            << "symlink-inside"
            << ""
            << "link"
            << "terraform-provider-s_1.0.0_darwin_arm64.zip" << QStringList{QStringLiteral("never followed")};
        QTest::newRow("tar directories differing in case")
            << "case-directories"
            << ""
            << "duplicate-name"
            << "hashicorp/X/"
            << QStringList{QStringLiteral("\"registry.terraform.io/hashicorp/x\""), QStringLiteral("\"registry.terraform.io/hashicorp/X\""),
                           QStringLiteral("case-insensitive")};
        QTest::newRow("tar names equal under full case folding")
            << "case-full-folding"
            << ""
            << "duplicate-name"
            << "STRASSE.txt" << QStringList{QString::fromUtf8("stra\u00dfe.txt"), QStringLiteral("STRASSE.txt")};
        QTest::newRow("tar NFC and NFD of one name")
            << "nfc-nfd"
            << ""
            << "duplicate-name" << QString::fromUtf8("cafe\u0301.txt")
            << QStringList{QString::fromUtf8("caf\u00e9.txt"), QString::fromUtf8("cafe\u0301.txt"), QStringLiteral("normalizing")};
        // In pax headers (UTF-8) libarchive normalizes names to NFC as it reads them: the two are then
        // one name already, refused as a plain duplicate.
        QTest::newRow("tar NFC and NFD of one name, pax headers")
            << "nfc-nfd-pax"
            << ""
            << "duplicate-name" << QString::fromUtf8("caf\u00e9.txt") << QStringList{QStringLiteral("a second entry")};
        QTest::newRow("tar right-to-left override in a name")
            << "bidi-override"
            << ""
            << "unsafe-path"
            << "linux_amd64<U+202E>txt.zip" << QStringList{QStringLiteral("U+202E"), QStringLiteral("bidirectional")};
        QTest::newRow("tar isolates around a name") << "bidi-isolate"
                                                    << ""
                                                    << "unsafe-path"
                                                    << "<U+2067>terraform-provider-x" << QStringList{QStringLiteral("U+2067")};
        QTest::newRow("zip names differing in case")
            << "zip-case"
            << ""
            << "duplicate-name"
            << "hashicorp/x/readme" << QStringList{QStringLiteral("hashicorp/x/README"), QStringLiteral("hashicorp/x/readme")};
    }

    void hostileEntries()
    {
        QFETCH(QString, kind);
        QFETCH(QString, arg);
        QFETCH(QString, problem);
        QFETCH(QString, entryContains);
        QFETCH(QStringList, messageContains);
        const QString bundle = fresh(kind) + (kind.startsWith(u"zip") ? QStringLiteral(".zip") : QStringLiteral(".tar.gz"));
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("hostile"), kind, bundle, arg}, &error).isNull(), qPrintable(error));

        Result<BundleContents> verified = verifyBundle(bundle);
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().toString()));
        QVERIFY(verified->hasFindings());
        const auto found = std::find_if(verified->problems.cbegin(), verified->problems.cend(), [&](const BundleEntryProblem &p) {
            return toString(p.kind) == problem && p.entry.contains(entryContains);
        });
        QStringList seen;
        for (const BundleEntryProblem &p : verified->problems)
            seen.append(toString(p.kind) + QStringLiteral(" ") + p.entry + QStringLiteral(": ") + p.message);
        QVERIFY2(found != verified->problems.cend(),
                 qPrintable(QStringLiteral("no %1 problem naming %2 among:\n%3").arg(problem, entryContains, seen.join(u'\n'))));
        for (const QString &part : messageContains)
            QVERIFY2(found->message.contains(part), qPrintable(found->message));

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
        // Verifying streams: all of it goes through SHA-256 in bounded memory, within the automatic
        // total limit (32 times the bundle's size, at least 4 GiB).
        QTest::newRow("tar.gz 2 GiB, verify, automatic limits") << "tar-gz" << 2.0 << qint64(4) * gib << qint64(0) << false << "";
        // xz and zstd bombs (one stream, 1 GiB files): stopped at the total limit.
        QTest::newRow("tar.xz 2 GiB, limit 1.5 GiB in all") << "tar-xz" << 2.0 << qint64(4) * gib << gib * 3 / 2 << true << "in all";
        QTest::newRow("tar.zst 3 GiB, limit 2 GiB in all") << "tar-zst" << 3.0 << qint64(4) * gib << 2 * gib << true << "in all";
        // One 5 GiB entry of a 100 KiB tar.zst: beyond the automatic total (4 GiB here), refused
        // from its header before anything is inflated.
        QTest::newRow("tar.zst 5 GiB entry, automatic limit")
            << "tar-zst-one" << 5.0 << qint64(8) * gib << qint64(0) << true << "automatic";
    }

    void bombs()
    {
        QFETCH(QString, kind);
        QFETCH(double, gib);
        QFETCH(qint64, maxEntry);
        QFETCH(qint64, maxTotal);
        QFETCH(bool, import);
        QFETCH(QString, messageContains);
        const QString suffix = kind.startsWith(u"zip") ? QStringLiteral(".zip")
            : kind.startsWith(u"tar-xz")               ? QStringLiteral(".tar.xz")
            : kind.startsWith(u"tar-zst")              ? QStringLiteral(".tar.zst")
                                                       : QStringLiteral(".tar.gz");
        const QString bundle = fresh(kind) + suffix;
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
            // ... and the archive it would have been gets an `error` verdict naming the limit.
            QVERIFY(std::any_of(verified->results.cbegin(), verified->results.cend(), [&](const ArchiveResult &r) {
                return r.detail.verdict == Verdict::Error && r.detail.reason.contains(messageContains) && r.path.contains(u"bomb");
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

    void zipBombsInside_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason");
        QTest::newRow("overlapping entries (better zip bomb) in a tar.gz") << "tar-zip-overlap"
                                                                           << "overlapping entries";
        QTest::newRow("9 GiB declared in a tar.gz") << "tar-zip-budget"
                                                    << "inflate limit";
    }

    void zipBombsInside()
    {
        // The provider zip inside the bundle is the bomb: the streaming hasher stays within the zip
        // limits and leaves the verdict to hashZip(), which refuses before inflating.
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        const QString bundle = fresh(kind) + QStringLiteral(".tar.gz");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("bomb"), kind, bundle, QStringLiteral("1")}, &error).isNull(), qPrintable(error));
        QVERIFY(resetPeakRss());
        qint64 base = currentRssKiB();
        Result<BundleContents> verified = verifyBundle(bundle);
        qint64 growth = peakRssKiB() - base;
        qInfo("verify: peak RSS growth %lld KiB", growth);
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("verify grew RSS by %1 KiB").arg(growth)));
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().toString()));
        QCOMPARE(verified->results.size(), 1);
        QCOMPARE(toString(verified->results.first().detail.verdict), QStringLiteral("error"));
        QVERIFY2(verified->results.first().detail.reason.contains(reason), qPrintable(verified->results.first().detail.reason));
        QVERIFY(verified->hasFindings());

        QVERIFY(resetPeakRss());
        base = currentRssKiB();
        ImportOptions options;
        options.allowUnverified = true; // even so: an error verdict is never imported
        Result<ImportReport> imported = importBundle(bundle, m_target, options);
        growth = peakRssKiB() - base;
        QVERIFY2(growth < kMaxGrowthKiB, qPrintable(QStringLiteral("import grew RSS by %1 KiB").arg(growth)));
        QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
        QVERIFY(!imported->committed);
        QCOMPARE(imported->count(ImportAction::Kind::Rejected), 1);
        QVERIFY2(imported->refusal.contains(reason), qPrintable(imported->refusal));
        checkNothingWritten();
    }

    void refusedCompressions_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("bzip2") << "bzip2";
        QTest::newRow("lzop (an external program here: no liblzo2)") << "lzop";
        QTest::newRow("lrzip (always an external program)") << "lrzip";
        QTest::newRow("grzip (always an external program)") << "grzip";
        QTest::newRow("lz4") << "lz4";
    }

    void refusedCompressions()
    {
        // libarchive's filter_all() would run `lzop -d`, `lrzip -d`, `grzip -d` from PATH for these
        // (checked against the previous reader: each fake program below left its marker). Put fakes
        // first on PATH that leave a marker: none may run, and the bundle is refused by name.
        QFETCH(QString, kind);
        const QString bin = m_tmp.path() + QStringLiteral("/fakebin");
        const QString markers = m_tmp.path() + QStringLiteral("/markers");
        QDir().mkpath(bin);
        QDir().mkpath(markers);
        for (const char *program : {"lzop", "lrzip", "grzip", "lz4", "bzip2", "gzip", "xz", "zstd", "unzstd"}) {
            QFile f(bin + u'/' + QLatin1StringView(program));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray("#!/bin/sh\necho ran >> ") + QFile::encodeName(markers) + "/" + program + "\ncat >/dev/null\nexit 1\n");
            f.close();
            QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        }
        const QByteArray savedPath = qgetenv("PATH");
        qputenv("PATH", QFile::encodeName(bin) + ':' + savedPath);
        const QString bundle = fresh(kind) + QStringLiteral(".tar.") + kind;
        QString error;
        const bool made = !runFixture({QStringLiteral("hostile"), kind, bundle}, &error).isNull();
        Result<BundleContents> verified = made ? verifyBundle(bundle) : Result<BundleContents>(makeError(ErrorCode::Internal, error));
        Result<ImportReport> imported = made ? importBundle(bundle, m_target) : Result<ImportReport>(makeError(ErrorCode::Internal, error));
        qputenv("PATH", savedPath);
        QVERIFY2(made, qPrintable(error));
        QCOMPARE(QDir(markers).entryList(QDir::Files), QStringList());
        QVERIFY(!verified.ok());
        QCOMPARE(int(verified.error().code), int(ErrorCode::Unsupported));
        QVERIFY2(verified.error().message.contains(QStringLiteral("compressed with ") + kind), qPrintable(verified.error().message));
        QVERIFY2(verified.error().message.contains(u"never runs an external decompressor"), qPrintable(verified.error().message));
        QVERIFY(!imported.ok());
        QCOMPARE(int(imported.error().code), int(ErrorCode::Unsupported));
        checkNothingWritten();
    }

    void hardLinksResolved()
    {
        // GNU/Python tar store the second name of a file as a hard link: read as a copy of the
        // earlier file, verified, and imported — never dropped.
        const QString bundle = fresh(QStringLiteral("hardlinked")) + QStringLiteral(".tar.gz");
        QString error;
        const QByteArray printed = runFixture({QStringLiteral("hardlinked"), bundle}, &error);
        QVERIFY2(!printed.isNull(), qPrintable(error));
        const QJsonObject expected = QJsonDocument::fromJson(printed).object();
        Result<BundleContents> verified = verifyBundle(bundle);
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().toString()));
        QCOMPARE(verified->problems.size(), 0);
        QCOMPARE(verified->results.size(), 2);
        QStringList entries;
        for (const ArchiveResult &r : verified->results) {
            entries.append(verified->entryName(r.path));
            QVERIFY2(r.hashes, qPrintable(r.detail.reason));
            QCOMPARE(r.hashes->h1Zip.toString(), expected.value(u"h1").toString());
            QCOMPARE(r.hashes->zh.toString(), expected.value(u"zh").toString());
        }
        entries.sort();
        QStringList names{expected.value(u"first").toString(), expected.value(u"second").toString()};
        names.sort();
        QCOMPARE(entries, names);

        const QString target = fresh(QStringLiteral("hardlink-target"));
        ImportOptions options;
        options.allowUnverified = true; // the fixture has no index: nothing declares a hash
        Result<ImportReport> imported = importBundle(bundle, target, options);
        QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        QCOMPARE(imported->count(ImportAction::Kind::Add), 2);
        for (const QString &name : names) {
            const QByteArray bytes = readFile(target + u'/' + name);
            QCOMPARE(QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()),
                     expected.value(u"sha256").toString());
        }
        QVERIFY(!QFileInfo::exists(target + u'/' + kImportWorkDirName));
    }

    void symlinkedWorkDirectory_data()
    {
        QTest::addColumn<QString>("pointsAt"); ///< "dir": an empty directory outside; "file"; "dangling"
        QTest::newRow("link to a directory outside") << "dir";
        QTest::newRow("link to a file") << "file";
        QTest::newRow("dangling link") << "dangling";
    }

    void symlinkedWorkDirectory()
    {
        // Someone made <target>/.provender-import a symbolic link: nothing may be written through it.
        QFETCH(QString, pointsAt);
        const QString target = fresh(QStringLiteral("linked-work"));
        QVERIFY(runTool(QStringLiteral("cp"), {QStringLiteral("-a"), m_target, target}));
        const QString elsewhere = fresh(QStringLiteral("elsewhere"));
        if (pointsAt == u"dir")
            QVERIFY(QDir().mkpath(elsewhere));
        if (pointsAt == u"file") {
            QFile f(elsewhere);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("precious\n");
        }
        QVERIFY(QFile::link(elsewhere, target + u'/' + kImportWorkDirName));
        const QMap<QString, QString> before = snapshot(target);
        const QMap<QString, QString> elsewhereBefore = QFileInfo(elsewhere).isDir() ? snapshot(elsewhere) : QMap<QString, QString>();
        const QByteArray fileBefore = pointsAt == u"file" ? readFile(elsewhere) : QByteArray();

        for (const bool dry : {true, false}) {
            ImportOptions options;
            options.dryRun = dry;
            Result<ImportReport> imported = importBundle(m_good, target, options);
            QVERIFY(!imported.ok());
            QVERIFY2(imported.error().message.contains(u"is a symbolic link") && imported.error().message.contains(kImportWorkDirName),
                     qPrintable(imported.error().message));
        }
        Result<QString> recovered = recoverInterruptedImport(target);
        QVERIFY(!recovered.ok());
        QVERIFY2(recovered.error().message.contains(u"is a symbolic link"), qPrintable(recovered.error().message));
        QCOMPARE(snapshotDiff(before, snapshot(target)), QString());
        if (pointsAt == u"dir")
            QCOMPARE(snapshotDiff(elsewhereBefore, snapshot(elsewhere)), QString());
        if (pointsAt == u"file")
            QCOMPARE(readFile(elsewhere), fileBefore);
        if (pointsAt == u"dangling")
            QVERIFY(!QFileInfo::exists(elsewhere));
    }

    void refusesBeforeTheDiskFills()
    {
        // The import keeps `minFreeBytes` free: here all but 64 MiB of what the file system has, and a
        // bundle with a 1 GiB entry. It is refused from the entry's declared size, before a byte of it
        // is written.
        const QString bundle = fresh(QStringLiteral("big")) + QStringLiteral(".tar.gz");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("bomb"), QStringLiteral("tar-gz"), bundle, QStringLiteral("1")}, &error).isNull(),
                 qPrintable(error));
        struct statvfs vfs;
        QVERIFY(::statvfs(QFile::encodeName(m_target).constData(), &vfs) == 0);
        const qint64 free = qint64(vfs.f_bavail) * qint64(vfs.f_frsize);
        ImportOptions options;
        options.minFreeBytes = free - (qint64(64) << 20);
        options.limits.maxTotalBytes = qint64(8) << 30; // not the limit that stops it
        Result<ImportReport> imported = importBundle(bundle, m_target, options);
        QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
        QVERIFY(!imported->committed);
        QCOMPARE(imported->bytesStaged, qint64(0));
        QVERIFY2(imported->refusal.contains(u"free") && imported->refusal.contains(u"bomb"), qPrintable(imported->refusal));
        QVERIFY(std::any_of(imported->problems.cbegin(), imported->problems.cend(), [](const BundleEntryProblem &p) {
            return p.kind == BundleEntryProblem::Kind::TooLarge && p.message.contains(u"keeps");
        }));
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

    void manifestSizesOutOfRange_data()
    {
        QTest::addColumn<QByteArray>("size");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("fits") << QByteArray("1234") << qint64(1234);
        QTest::newRow("beyond qint64") << QByteArray("9").repeated(300) << qint64(0); // fuzz_bundlemeta's finding
        QTest::newRow("1e300") << QByteArray("1e300") << qint64(0);
        QTest::newRow("negative") << QByteArray("-5") << qint64(0);
        QTest::newRow("fraction") << QByteArray("1.5") << qint64(0);
        QTest::newRow("string") << QByteArray("\"12\"") << qint64(0);
    }

    void manifestSizesOutOfRange()
    {
        // The manifest's size is information only; a value it cannot mean reads as unknown (0),
        // never as a double cast out of range (undefined behaviour that UBSan stopped on).
        QFETCH(QByteArray, size);
        QFETCH(qint64, expected);
        const QByteArray manifest =
            R"({"format": "provender-bundle", "format_version": 1, "archives": [{"provider": "registry.example/ns/x",
            "version": "1.0.0", "platform": "linux_amd64", "size": )"
            + size + "}]}";
        const Result<BundleManifest> parsed = parseBundleManifest(manifest);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value().archives.size(), 1);
        QCOMPARE(parsed.value().archives.at(0).size, expected);
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
        const Result<QMap<QString, QByteArray>> cr =
            parseSha256Sums(QByteArray(64, 'a') + "  ok\n" + QByteArray(64, 'a') + "  a.json\r\r\n");
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
