// The streaming zip hasher (one front-to-back pass, as inside a tar stream) against hashZip()
// (random access through the central directory) on awkward zips from two independent writers:
// Python's zipfile (seekable and streaming, zip64, comments, junk, damage) and QuaZip/minizip
// (data descriptors on every entry). Whenever the stream says "Hashed", every field must equal
// hashZip()'s; when hashZip() fails, the stream must not claim a result. Each zip is fed in 1-byte,
// odd-sized and 256 KiB chunks, so that headers and data descriptors straddle every boundary.

#include "BundleTestSupport.h"
#include "model/hashing/PackageHashes.h"
#include "model/hashing/StreamingZipHasher.h"
#include "tests/support/ZipFixture.h"

#include "tests/support/TestSupport.h"

#include <QCryptographicHash>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using provender::test::ZipEntrySpec;

namespace {

Result<StreamingZipOutcome> hashInChunks(const QByteArray &bytes, qsizetype chunk, bool randomChunks)
{
    qsizetype at = 0;
    QRandomGenerator rng(42);
    const PullBytes pull = [&]() -> Result<QByteArrayView> {
        if (at >= bytes.size())
            return QByteArrayView();
        qsizetype n = randomChunks ? qsizetype(rng.bounded(1, 5000)) : chunk;
        n = qMin(n, bytes.size() - at);
        const QByteArrayView view(bytes.constData() + at, n);
        at += n;
        return view;
    };
    return hashZipStream(pull, qint64(1) << 32);
}

} // namespace

class TestStreamingZip : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QStringList m_names;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("the zip fixtures are written with Python's zipfile"));
        QString error;
        const QByteArray names = provender::test::runFixture({QStringLiteral("zips"), m_dir.path()}, &error);
        QVERIFY2(!names.isNull(), qPrintable(error));
        for (const QByteArray &line : names.split('\n'))
            if (!line.isEmpty())
                m_names.append(m_dir.path() + QLatin1Char('/') + QString::fromUtf8(line) + QStringLiteral(".zip"));

        // QuaZip (minizip) writes a data descriptor after every entry, stored ones included.
        QByteArray big(600000, Qt::Uninitialized);
        QRandomGenerator rng(7);
        for (qsizetype i = 0; i < big.size(); ++i)
            big[i] = char(i % 3 == 0 ? rng.bounded(256) : 'z');
        const QList<QPair<QString, QList<ZipEntrySpec>>> quazip = {
            {QStringLiteral("quazip-mixed"),
             {ZipEntrySpec::executable("terraform-provider-q_v1.0.0", big), ZipEntrySpec::directory("docs/"),
              ZipEntrySpec::file("docs/a.md", QByteArray(70000, 'a')),
              ZipEntrySpec::file("stored", big.left(100000), ZipEntrySpec::Store)}},
            {QStringLiteral("quazip-stored-only"),
             {ZipEntrySpec::file("one", "PK\x07\x08 looks like a descriptor", ZipEntrySpec::Store),
              ZipEntrySpec::file("two", QByteArray(), ZipEntrySpec::Store)}},
            {QStringLiteral("quazip-dos-directory"),
             {ZipEntrySpec{"dir-by-attributes", {}, ZipEntrySpec::Store, 040755, 0}, ZipEntrySpec::file("x", "y")}},
            {QStringLiteral("quazip-level0-deflate"), {ZipEntrySpec{"incompressible", big, ZipEntrySpec::Deflate, 0100644, 0}}},
        };
        for (const auto &[name, entries] : quazip) {
            const QString path = m_dir.path() + QLatin1Char('/') + name + QStringLiteral(".zip");
            QString error;
            QVERIFY2(provender::test::writeZip(path, entries, false, &error), qPrintable(error));
            m_names.append(path);
        }
    }

    void sameAsHashZip_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("mustStream");
        // Zips written front to back without tricks must be hashed in the one pass.
        const QStringList streamable = {QStringLiteral("plain"),
                                        QStringLiteral("stream"),
                                        QStringLiteral("zip64"),
                                        QStringLiteral("stream-zip64"),
                                        QStringLiteral("zip64-sizes-in-extra-only"),
                                        QStringLiteral("comment"),
                                        QStringLiteral("duplicates"),
                                        QStringLiteral("dotdot"),
                                        QStringLiteral("empty-file"),
                                        QStringLiteral("empty-archive"),
                                        QStringLiteral("stored-descriptor-with-signature-in-data"),
                                        QStringLiteral("quazip-mixed"),
                                        QStringLiteral("quazip-stored-only"),
                                        QStringLiteral("quazip-dos-directory"),
                                        QStringLiteral("quazip-level0-deflate")};
        for (const QString &path : std::as_const(m_names)) {
            const QString name = QFileInfo(path).completeBaseName();
            QTest::newRow(qPrintable(name)) << path << streamable.contains(name);
        }
    }

    void sameAsHashZip()
    {
        QFETCH(QString, path);
        QFETCH(bool, mustStream);
        const QByteArray bytes = provender::test::readFile(path);
        QVERIFY(!bytes.isNull());
        const Result<PackageHashes> reference = hashZip(path);

        struct Feed
        {
            const char *name;
            qsizetype chunk;
            bool random;
        };
        const QList<Feed> feeds = {{"1-byte", 1, false}, {"random", 0, true}, {"256KiB", 256 << 10, false}};
        for (const Feed &feed : feeds) {
            if (feed.chunk == 1 && bytes.size() > 200000)
                continue; // byte-at-a-time on the small ones only (it is slow, not different)
            Result<StreamingZipOutcome> streamed = hashInChunks(bytes, feed.chunk, feed.random);
            QVERIFY2(streamed.ok(), qPrintable(streamed.ok() ? QString() : streamed.error().toString()));
            const StreamingZipOutcome &s = streamed.value();
            // The whole stream's SHA-256 is always there (it is SHA256SUMS's value).
            QCOMPARE(s.size, bytes.size());
            QCOMPARE(QString::fromLatin1(s.sha256.toHex()),
                     QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
            if (mustStream)
                QVERIFY2(s.status == StreamingZipOutcome::Status::Hashed,
                         qPrintable(QStringLiteral("%1: %2").arg(QLatin1StringView(feed.name), s.reason)));
            if (s.status != StreamingZipOutcome::Status::Hashed)
                continue;
            QVERIFY2(reference.ok(),
                     qPrintable(QStringLiteral("the stream hashed a zip that hashZip refuses: ")
                                + (reference.ok() ? QString() : reference.error().message)));
            const PackageHashes &a = s.hashes;
            const PackageHashes &b = reference.value();
            QCOMPARE(a.zh.toString(), b.zh.toString());
            QCOMPARE(a.h1Zip.toString(), b.h1Zip.toString());
            QCOMPARE(a.h1ZipError, b.h1ZipError);
            QCOMPARE(a.h1Extracted.toString(), b.h1Extracted.toString());
            QCOMPARE(a.hasDirectoryEntries, b.hasDirectoryEntries);
            QCOMPARE(a.extractionProblem, b.extractionProblem);
            QCOMPARE(a.unsafeNames, b.unsafeNames);
            QCOMPARE(a.fileSize, b.fileSize);
            QCOMPARE(a.contentBytes, b.contentBytes);
            QCOMPARE(a.entryCount, b.entryCount);
        }
    }

    // Independent of hashZip: Python's own h1 of a streamed (data-descriptor) zip.
    void pythonH1()
    {
        const QString path = m_dir.path() + QStringLiteral("/stream.zip");
        QProcess p;
        p.start(provender::test::python3(),
                {QStringLiteral("-c"),
                 QStringLiteral("import sys; sys.path.insert(0, sys.argv[1]); import fixtures; print(fixtures.hash_zip(sys.argv[2]))"),
                 QFileInfo(provender::test::fixturesScript()).path(), path});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString expected = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        Result<StreamingZipOutcome> s = hashInChunks(provender::test::readFile(path), 4096, false);
        QVERIFY(s.ok());
        QCOMPARE(int(s->status), int(StreamingZipOutcome::Status::Hashed));
        QCOMPARE(s->hashes.h1Zip.toString(), expected);
    }

    // The stream always reads to the end, even when it gives up early.
    void drainsOnFallback()
    {
        const QByteArray junk = QByteArray("not a zip at all") + QByteArray(100000, 'x');
        Result<StreamingZipOutcome> s = hashInChunks(junk, 777, false);
        QVERIFY(s.ok());
        QCOMPARE(int(s->status), int(StreamingZipOutcome::Status::NeedsRandomAccess));
        QCOMPARE(s->size, junk.size());
        QCOMPARE(s->sha256, QCryptographicHash::hash(junk, QCryptographicHash::Sha256));
    }

    void sourceErrorsAndCancel()
    {
        const PullBytes failing = []() -> Result<QByteArrayView> { return makeError(ErrorCode::Io, QStringLiteral("disk on fire")); };
        Result<StreamingZipOutcome> s = hashZipStream(failing, 1 << 20);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().message, QStringLiteral("disk on fire"));

        const QByteArray bytes = provender::test::readFile(m_dir.path() + QStringLiteral("/plain.zip"));
        qsizetype at = 0;
        const PullBytes pull = [&]() -> Result<QByteArrayView> {
            const qsizetype n = qMin<qsizetype>(1000, bytes.size() - at);
            const QByteArrayView v(bytes.constData() + at, n);
            at += n;
            return v;
        };
        int calls = 0;
        s = hashZipStream(pull, 1 << 20, [&](qint64) { return ++calls < 5; });
        QVERIFY(!s.ok());
        QCOMPARE(int(s.error().code), int(ErrorCode::Cancelled));
    }
};

QTEST_GUILESS_MAIN(TestStreamingZip)
#include "tst_streamingzip.moc"
