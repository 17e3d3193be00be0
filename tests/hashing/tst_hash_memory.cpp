// Memory bound of hashZip: a zip that is ~5 MB on disk but inflates to 5.5 GiB (one zip64
// entry over 4 GiB, one 1 GiB entry) must hash with a peak RSS growth under 64 MiB. The peak
// is the kernel's VmHWM after resetting it through /proc/self/clear_refs. Expected hashes come
// from Python's hashlib (tests/hashing/refhash.py zeros N).

#include "model/hashing/PackageHashes.h"
#include "model/hashing/Sha256.h"
#include "tests/support/ProcessMemory.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ZipFixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <cstring>

#include <zlib.h>

using namespace provender;

namespace {

/// For QVERIFY2 messages: evaluated even when the check passes, so it must not touch error() of a value.
template<typename T> QString errorText(const provender::Result<T> &r)
{
    return r.ok() ? QString() : r.error().toString();
}

/// A raw DEFLATE stream of `size` zero bytes, made by repeating one fully flushed segment
/// (a full flush resets the window, so segments are independent), and the CRC-32 of the data.
QByteArray deflatedZeros(quint64 size, quint32 *crc)
{
    const uInt block = 1u << 20;
    QByteArray zeros(block, '\0');
    z_stream zs;
    std::memset(&zs, 0, sizeof zs);
    deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
    QByteArray segment(64 << 10, '\0');
    zs.next_in = reinterpret_cast<Bytef *>(zeros.data());
    zs.avail_in = block;
    zs.next_out = reinterpret_cast<Bytef *>(segment.data());
    zs.avail_out = uInt(segment.size());
    deflate(&zs, Z_FULL_FLUSH);
    segment.truncate(segment.size() - zs.avail_out);
    QByteArray tail(64, '\0');
    zs.next_out = reinterpret_cast<Bytef *>(tail.data());
    zs.avail_out = uInt(tail.size());
    deflate(&zs, Z_FINISH);
    tail.truncate(tail.size() - zs.avail_out);
    deflateEnd(&zs);

    Q_ASSERT(size % block == 0);
    const quint64 count = size / block;
    const uLong blockCrc = crc32(0, reinterpret_cast<const Bytef *>(zeros.constData()), block);
    uLong total = 0;
    QByteArray out;
    out.reserve(qsizetype(count) * segment.size() + tail.size());
    for (quint64 i = 0; i < count; ++i) {
        out += segment;
        total = crc32_combine(total, blockCrc, block);
    }
    out += tail;
    *crc = quint32(total);
    return out;
}

bool addRawEntry(QuaZip &zip, const QByteArray &name, const QByteArray &raw, quint64 size, quint32 crc)
{
    QuaZipNewInfo info(QString::fromLatin1(name));
    info.uncompressedSize = qint64(size);
    info.externalAttr = 0100644u << 16;
    QuaZipFile out(&zip);
    if (!out.open(QIODevice::WriteOnly, info, nullptr, crc, Z_DEFLATED, 9, true))
        return false;
    if (out.write(raw) != raw.size())
        return false;
    out.close();
    return out.getZipError() == 0;
}

} // namespace

class TestHashMemory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void measurementWorks()
    {
        // The method itself must be able to see growth, or the bound below proves nothing.
        if (provender::test::peakRssKiB() < 0 || !provender::test::resetPeakRss())
            PROVENDER_SKIP(provender::test::Missing::Platform,
                           QStringLiteral("/proc/self/status VmHWM or /proc/self/clear_refs is not available on this kernel"));
        const qint64 before = provender::test::currentRssKiB();
        const std::size_t bytes = std::size_t(96) << 20;
        // volatile: the compiler must not drop the allocation; freed BEFORE the peak is read,
        // as the hasher's buffers would be.
        char *volatile block = static_cast<char *>(std::malloc(bytes));
        QVERIFY(block);
        for (std::size_t i = 0; i < bytes; i += 4096)
            block[i] = 1;
        std::free(block);
        const qint64 peak = provender::test::peakRssKiB();
        QVERIFY2(peak - before >= 90 * 1024, qPrintable(QStringLiteral("peak grew by only %1 KiB").arg(peak - before)));
    }

    void multiGigabyteZipInBoundedMemory()
    {
        if (provender::test::peakRssKiB() < 0 || !provender::test::resetPeakRss())
            PROVENDER_SKIP(provender::test::Missing::Platform,
                           QStringLiteral("/proc/self/status VmHWM or /proc/self/clear_refs is not available on this kernel"));
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const quint64 bigSize = (quint64(9) << 29);   // 4.5 GiB: needs zip64
        const quint64 smallSize = (quint64(1) << 30); // 1 GiB
        const QString path = tmp.filePath(QStringLiteral("bomb.zip"));
        {
            QuaZip zip(path);
            zip.setZip64Enabled(true);
            QVERIFY(zip.open(QuaZip::mdCreate));
            quint32 crc = 0;
            QByteArray raw = deflatedZeros(bigSize, &crc);
            QVERIFY(addRawEntry(zip, "zeros-4.5GiB", raw, bigSize, crc));
            raw = deflatedZeros(smallSize, &crc);
            QVERIFY(addRawEntry(zip, "zeros-1GiB", raw, smallSize, crc));
            zip.close();
            QCOMPARE(zip.getZipError(), 0);
        }
        const qint64 onDisk = QFileInfo(path).size();
        QVERIFY2(onDisk < (16 << 20), "the test archive should be small on disk");

        QString error;
        const QByteArray bigHex = provender::test::runPython(
            {provender::test::sourceDir() + QStringLiteral("/tests/hashing/refhash.py"), QStringLiteral("zeros"), QString::number(bigSize)},
            &error);
        const QByteArray smallHex = provender::test::runPython({provender::test::sourceDir() + QStringLiteral("/tests/hashing/refhash.py"),
                                                                QStringLiteral("zeros"), QString::number(smallSize)},
                                                               &error);
        if (bigHex.isNull() || smallHex.isNull())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("independent reference unavailable: ") + error);

        // Warm up: libraries, OpenSSL's method table, first allocations.
        {
            const QString small = tmp.filePath(QStringLiteral("small.zip"));
            QVERIFY(provender::test::writeZip(small, {provender::test::ZipEntrySpec::file("x", QByteArray(1 << 20, 'x'))}));
            QVERIFY(hashZip(small).ok());
        }
        QVERIFY(provender::test::resetPeakRss());
        const qint64 baseline = provender::test::currentRssKiB();
        qint64 lastDone = 0;
        const Result<PackageHashes> z = hashZip(path, [&](qint64 done, qint64) {
            lastDone = done;
            return true;
        });
        const qint64 peak = provender::test::peakRssKiB();
        QVERIFY2(z.ok(), qPrintable(errorText(z)));
        qDebug("baseline RSS %lld KiB, peak %lld KiB, growth %lld KiB while inflating %llu bytes", baseline, peak, peak - baseline,
               (unsigned long long)(bigSize + smallSize));
        QVERIFY2(peak - baseline < 64 * 1024, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(peak - baseline)));

        QCOMPARE(z->contentBytes, qint64(bigSize + smallSize));
        QCOMPARE(lastDone, qint64(bigSize + smallSize) + onDisk);
        const QByteArray big = QByteArray::fromHex(bigHex.trimmed());
        const QByteArray small = QByteArray::fromHex(smallHex.trimmed());
        const HashString expected = dirhash1({{"zeros-4.5GiB", big}, {"zeros-1GiB", small}}).value();
        QCOMPARE(z->h1Zip, expected);
        QCOMPARE(z->h1Extracted, expected);
    }
};

QTEST_GUILESS_MAIN(TestHashMemory)
#include "tst_hash_memory.moc"
