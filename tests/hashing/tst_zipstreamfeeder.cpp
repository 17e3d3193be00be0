// ZipStreamFeeder: a zip's hashes computed on a thread of its own while its bytes are pushed (how
// `verify URL` hashes a download as it arrives). The expected values are independent: Python's
// zipfile writes the zips (deflated, stored, streamed with data descriptors, zip64), and
// tests/hashing/refhash.py (zipfile + hashlib) gives their zh: and h1:.

#include "model/hashing/ZipStreamFeeder.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <future>
#include <semaphore>

using namespace provender;

namespace {

QString refhash()
{
    return provender::test::sourceDir() + QStringLiteral("/tests/hashing/refhash.py");
}

/// A feeder with a queue of 1000 bytes whose worker, in its tap, counts the blocks it takes and
/// waits on each until letGo(): what is pushed after the first block stays queued. A test that
/// fails half-way still lets the worker go (the destructor), so the feeder can be joined.
struct HeldFeeder
{
    ~HeldFeeder() { letGo(); }
    void letGo()
    {
        if (!let)
            release.set_value();
        let = true;
    }

    bool let = false;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> taps = 0;
    ZipStreamFeeder feeder{1000, [](Result<StreamingZipOutcome> &&) {}, defaultZipLimits(),
                           [this](QByteArrayView, bool) {
                               ++taps;
                               released.wait();
                               return true;
                           }};
};

/// Pushes `bytes` in blocks of random size (1..max), then finishes; the feeder's answer.
Result<StreamingZipOutcome> feed(const QByteArray &bytes, qint64 queueCap, int maxBlock, qint64 *peak = nullptr)
{
    std::promise<Result<StreamingZipOutcome>> promise;
    std::future<Result<StreamingZipOutcome>> answer = promise.get_future();
    ZipStreamFeeder feeder(queueCap, [&promise](Result<StreamingZipOutcome> &&z) { promise.set_value(std::move(z)); });
    QRandomGenerator rng(7);
    for (qsizetype at = 0; at < bytes.size();) {
        const qsizetype n = qMin<qsizetype>(rng.bounded(1, maxBlock + 1), bytes.size() - at);
        if (!feeder.push(bytes.constData() + at, n))
            return makeError(ErrorCode::Internal, QStringLiteral("push refused"));
        at += n;
    }
    feeder.finish();
    Result<StreamingZipOutcome> out = answer.get();
    if (peak)
        *peak = feeder.peakQueuedBytes();
    return out;
}

} // namespace

class TestZipStreamFeeder : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("Python's zipfile writes the zips"));
        // Deflated with a second file, stored, streamed (data descriptors: the writer cannot seek
        // back), and zip64 (forced on a small entry).
        const QString code = QStringLiteral(R"PY(
import io, os, random, sys, zipfile
out = sys.argv[1]
rnd = random.Random(3)
payload = bytes(rnd.getrandbits(8) if i % 4 == 0 else 97 for i in range(700000))
class Unseekable(io.RawIOBase):
    def __init__(self, f): self.f = f
    def writable(self): return True
    def write(self, b): return self.f.write(b)
with zipfile.ZipFile(os.path.join(out, 'deflated.zip'), 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('terraform-provider-x_v1.0.0', payload)
    z.writestr('LICENSE', b'MIT\n' * 100)
with zipfile.ZipFile(os.path.join(out, 'stored.zip'), 'w', zipfile.ZIP_STORED) as z:
    z.writestr('terraform-provider-x_v1.0.0', payload[:300000])
with open(os.path.join(out, 'streamed.zip'), 'wb') as f:
    with zipfile.ZipFile(Unseekable(f), 'w', zipfile.ZIP_DEFLATED) as z:
        with z.open('terraform-provider-x_v1.0.0', 'w') as e: e.write(payload)
        with z.open('README.md', 'w') as e: e.write(b'# read me\n')
with zipfile.ZipFile(os.path.join(out, 'zip64.zip'), 'w', zipfile.ZIP_DEFLATED) as z:
    with z.open('terraform-provider-x_v1.0.0', 'w', force_zip64=True) as e: e.write(payload[:50000])
)PY");
        QString error;
        const QByteArray ran = provender::test::runPythonCode(code, {m_dir.path()}, &error);
        QVERIFY2(!ran.isNull(), qPrintable(error));
    }

    void sameAsPython_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("queueCap");
        QTest::addColumn<int>("maxBlock");
        for (const char *name : {"deflated", "stored", "streamed", "zip64"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1, tiny queue").arg(QLatin1StringView(name))))
                << QString::fromLatin1(name) << qint64(3000) << 5000;
            QTest::newRow(qPrintable(QStringLiteral("%1, 4 MiB queue").arg(QLatin1StringView(name))))
                << QString::fromLatin1(name) << (qint64(4) << 20) << 70000;
        }
    }

    void sameAsPython()
    {
        QFETCH(QString, name);
        QFETCH(qint64, queueCap);
        QFETCH(int, maxBlock);
        const QString path = m_dir.filePath(name + QStringLiteral(".zip"));
        QString error;
        const QByteArray json = provender::test::runPython({refhash(), QStringLiteral("zip"), path}, &error);
        QVERIFY2(!json.isNull(), qPrintable(error));
        const QJsonObject expected = QJsonDocument::fromJson(json).object();

        const Result<StreamingZipOutcome> z = feed(provender::test::readFile(path), queueCap, maxBlock);
        QVERIFY2(z.ok(), qPrintable(z.ok() ? QString() : z.error().toString()));
        QCOMPARE(int(z->status), int(StreamingZipOutcome::Status::Hashed)); // written front to back: one pass
        QCOMPARE(z->hashes.zh.toString(), expected.value(QStringLiteral("zh")).toString());
        QCOMPARE(z->hashes.h1Zip.toString(), expected.value(QStringLiteral("h1_zip")).toString());
        QCOMPARE(QStringLiteral("zh:") + QString::fromLatin1(z->sha256.toHex()), expected.value(QStringLiteral("zh")).toString());
    }

    // Memory stays bounded whatever the stream's size: the producer waits while the queue is full.
    // (A block larger than the cap goes in alone.)
    void queueStaysBounded()
    {
        const QByteArray junk = QByteArray("not a zip") + QByteArray(5 << 20, 'j');
        qint64 peak = 0;
        const Result<StreamingZipOutcome> z = feed(junk, 64 << 10, 4096, &peak);
        QVERIFY(z.ok());
        QCOMPARE(int(z->status), int(StreamingZipOutcome::Status::NeedsRandomAccess));
        QCOMPARE(z->sha256, QCryptographicHash::hash(junk, QCryptographicHash::Sha256));
        QCOMPARE(z->size, junk.size());
        QVERIFY2(peak > 0 && peak <= (64 << 10), qPrintable(QString::number(peak)));

        const QByteArray block(200 << 10, 'b');
        const Result<StreamingZipOutcome> one = feed(block, 64 << 10, 200 << 10, &peak);
        QVERIFY(one.ok());
        QCOMPARE(one->sha256, QCryptographicHash::hash(block, QCryptographicHash::Sha256));
        QVERIFY2(peak <= (200 << 10), qPrintable(QString::number(peak)));
    }

    // hasRoom() says whether push() would wait: a receiver serving several downloads reads the
    // others meanwhile (HttpJob::ready). The worker is held in the tap after taking its first
    // block, so what is pushed next stays queued.
    void hasRoomWhilePushWouldWait()
    {
        HeldFeeder held;
        ZipStreamFeeder &feeder = held.feeder;
        const QByteArray block(600, 'x');
        QVERIFY(feeder.hasRoom(600)); // empty
        QVERIFY(feeder.push(block.constData(), 600));
        QTRY_COMPARE(held.taps.load(), 1); // the worker holds the first block; the queue is empty again
        QVERIFY(feeder.hasRoom(600));
        QVERIFY(feeder.push(block.constData(), 600)); // queued: 600 of 1000
        QVERIFY(feeder.hasRoom(400));
        QVERIFY(!feeder.hasRoom(401)); // push() would wait
        QVERIFY(!feeder.hasRoom(600));
        held.letGo();
        QTRY_VERIFY(feeder.hasRoom(1000)); // the worker took it
        feeder.abort();
    }

    // hasRoom()'s callback: called once, by the worker, when the room asked for is there (the
    // HTTP runner reads the reply again then instead of asking every millisecond); not while it
    // is not; a newer callback replaces the older; abort() calls a pending one.
    void whenRoomIsCalledOnceWhenThereIsRoom()
    {
        HeldFeeder held;
        ZipStreamFeeder &feeder = held.feeder;
        const QByteArray block(600, 'x');
        QVERIFY(feeder.push(block.constData(), 600));
        QTRY_COMPARE(held.taps.load(), 1);
        QVERIFY(feeder.push(block.constData(), 600)); // queued: 600 of 1000
        std::atomic<int> older = 0, newer = 0;
        QVERIFY(!feeder.hasRoom(600, [&] { ++older; }));
        QVERIFY(!feeder.hasRoom(600, [&] { ++newer; }));
        QVERIFY(feeder.hasRoom(100, [&] { ++older; })); // room: nothing stored
        QCOMPARE(newer.load() + older.load(), 0);
        held.letGo(); // the worker takes the queued block: the queue is empty
        QTRY_COMPARE(newer.load(), 1);
        QTRY_COMPARE(held.taps.load(), 2);
        QCOMPARE(older.load(), 0);
        QCOMPARE(newer.load(), 1); // once

        // abort() wakes a receiver that still waits (it then finds the stream gone).
        HeldFeeder second;
        std::atomic<int> aborted = 0;
        QVERIFY(second.feeder.push(block.constData(), 600));
        QVERIFY(second.feeder.push(block.constData(), 600)); // returns once the worker took the first
        QVERIFY(!second.feeder.hasRoom(600, [&] { ++aborted; }));
        second.feeder.abort();
        QCOMPARE(aborted.load(), 1);
        second.letGo();
    }

    // The callback waits until the queue is at most half full, not for the first block's worth of
    // room: a receiver woken per block would hand every block across threads on its own. The
    // worker takes one block per permit here; it decides about the callback as it takes a block,
    // before its tap counts it.
    void whenRoomWaitsForHalfAQueue()
    {
        std::counting_semaphore<64> gate(0);
        std::atomic<int> taps = 0;
        ZipStreamFeeder feeder(
            1000, [](Result<StreamingZipOutcome> &&) {}, defaultZipLimits(),
            [&](QByteArrayView, bool) {
                ++taps;
                gate.acquire();
                return true;
            });
        const auto letGo = qScopeGuard([&] { gate.release(32); }); // never leave the worker waiting
        const QByteArray block(300, 'x');
        QVERIFY(feeder.push(block.constData(), 300));
        QTRY_COMPARE(taps.load(), 1); // the worker holds block 1; the queue is empty
        for (int i = 0; i < 3; ++i)
            QVERIFY(feeder.push(block.constData(), 300)); // queued: 900 of 1000
        std::atomic<int> woken = 0;
        QVERIFY(!feeder.hasRoom(200, [&] { ++woken; }));
        gate.release(); // block 2 taken: 600 queued, room for 200 but more than half full
        QTRY_COMPARE(taps.load(), 2);
        QCOMPARE(woken.load(), 0);
        gate.release(); // block 3 taken: 300 queued
        QTRY_COMPARE(woken.load(), 1);
        feeder.abort();
    }

    // A transfer that fails or starts again: the worker stops, `done` is never called, and pushes
    // after it are refused; destroying a feeder mid-stream does not hang.
    void abortAndDestroy()
    {
        std::atomic<int> calls = 0;
        {
            ZipStreamFeeder feeder(1024, [&calls](Result<StreamingZipOutcome> &&) { ++calls; });
            const QByteArray some(10000, 'x');
            QVERIFY(feeder.push(some.constData(), 1000));
            feeder.abort();
            QVERIFY(!feeder.push(some.constData(), some.size()));
        }
        {
            ZipStreamFeeder feeder(1024, [&calls](Result<StreamingZipOutcome> &&) { ++calls; });
            QVERIFY(feeder.push("PK\x03\x04", 4));
        } // destroyed without finish()
        QCOMPARE(calls.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TestZipStreamFeeder)
#include "tst_zipstreamfeeder.moc"
