// The pipeline that hashes a bundle's entries on a pool while one thread reads the container
// (model/bundle/BundleHashing.h): every entry's bytes reach its task whole and in order (checked
// against QCryptographicHash of the bytes fed, not our Sha256), the blocks waiting in the queues
// never exceed the memory cap however slow the tasks, a failing read reaches both the reader and
// the task, and one hashing thread with many entries in flight finishes (no deadlock).

#include "model/bundle/BundleHashing.h"

#include <QCryptographicHash>
#include <QHash>
#include <QRandomGenerator>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>

using namespace provender;
using namespace provender::bundle_detail;

namespace {

/// Serves `bytes` in blocks of `block` bytes; fails with `failAt` (block index) when >= 0.
PullBytes blocksOf(const QByteArray &bytes, qsizetype block, int failAt = -1)
{
    auto at = std::make_shared<qsizetype>(0);
    auto served = std::make_shared<int>(0);
    return [bytes, block, at, served, failAt]() -> Result<QByteArrayView> {
        if (failAt >= 0 && (*served)++ == failAt)
            return makeError(ErrorCode::Io, QStringLiteral("the disk went away"));
        const qsizetype n = std::min(block, bytes.size() - *at);
        const QByteArrayView view(bytes.constData() + *at, n);
        *at += n;
        return view;
    };
}

QByteArray randomBytes(qsizetype size, quint32 seed)
{
    QByteArray out(size, Qt::Uninitialized);
    QRandomGenerator rng(seed);
    for (qsizetype i = 0; i < size; ++i)
        out[i] = char(rng.bounded(256));
    return out;
}

/// A task that hashes what it is served (optionally slowly) and records the digest by name.
struct Digests
{
    std::mutex mutex;
    QHash<int, QByteArray> byEntry;
    QHash<int, QString> errors;

    EntryHashPool::Task task(int entry, int sleepMsPerBlock = 0)
    {
        return [this, entry, sleepMsPerBlock](const PullBytes &bytes) {
            QCryptographicHash sha(QCryptographicHash::Sha256);
            for (;;) {
                Result<QByteArrayView> block = bytes();
                if (!block.ok()) {
                    const std::lock_guard lock(mutex);
                    errors.insert(entry, block.error().message);
                    return;
                }
                if (block->isEmpty())
                    break;
                if (sleepMsPerBlock > 0)
                    QThread::msleep(sleepMsPerBlock);
                sha.addData(*block);
            }
            const std::lock_guard lock(mutex);
            byEntry.insert(entry, sha.result());
        };
    }
};

} // namespace

class TestBundleHashing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyEntryWholeAndInOrder_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::newRow("1 thread") << 1;
        QTest::newRow("2 threads") << 2;
        QTest::newRow("8 threads") << 8;
    }

    void everyEntryWholeAndInOrder()
    {
        QFETCH(int, jobs);
        QList<QByteArray> entries;
        for (int i = 0; i < 60; ++i)
            entries.append(randomBytes(i % 7 == 0 ? 0 : qsizetype(QRandomGenerator(i).bounded(1, 600000)), quint32(i)));
        Digests digests;
        {
            EntryHashPool pool(jobs, qint64(1) << 20);
            QCOMPARE(pool.threads(), jobs);
            for (int i = 0; i < entries.size(); ++i)
                QVERIFY(pool.feed(blocksOf(entries.at(i), 4093 + i * 97), digests.task(i)).ok());
            pool.waitForDone();
        }
        QCOMPARE(digests.byEntry.size(), entries.size());
        QVERIFY(digests.errors.isEmpty());
        for (int i = 0; i < entries.size(); ++i)
            QCOMPARE(digests.byEntry.value(i), QCryptographicHash::hash(entries.at(i), QCryptographicHash::Sha256));
    }

    /// Slow tasks, a fast reader: the reader waits instead of queueing more than the cap.
    void queuedBytesStayUnderTheCap()
    {
        const qint64 cap = qint64(256) << 10;
        const qsizetype block = 16 << 10;
        Digests digests;
        EntryHashPool pool(2, cap);
        const QByteArray big = randomBytes(qsizetype(4) << 20, 7);
        for (int i = 0; i < 6; ++i)
            QVERIFY(pool.feed(blocksOf(big, block), digests.task(i, 1)).ok());
        pool.waitForDone();
        QVERIFY2(pool.peakQueuedBytes() <= cap, qPrintable(QString::number(pool.peakQueuedBytes())));
        QVERIFY(pool.peakQueuedBytes() >= block); // the queues were used
        for (int i = 0; i < 6; ++i)
            QCOMPARE(digests.byEntry.value(i), QCryptographicHash::hash(big, QCryptographicHash::Sha256));
    }

    /// A block larger than the cap still passes (alone), rather than stopping the reader for good.
    void aBlockLargerThanTheCapPasses()
    {
        Digests digests;
        EntryHashPool pool(1, 1000);
        const QByteArray bytes = randomBytes(100000, 3);
        QVERIFY(pool.feed(blocksOf(bytes, 50000), digests.task(0)).ok());
        pool.waitForDone();
        QCOMPARE(digests.byEntry.value(0), QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
    }

    /// The reader's failure (a damaged container, a limit, a cancel) is feed()'s result and the task's.
    void aFailingReadReachesReaderAndTask()
    {
        Digests digests;
        EntryHashPool pool(2);
        const QByteArray bytes = randomBytes(200000, 5);
        QVERIFY(pool.feed(blocksOf(bytes, 10000), digests.task(0)).ok());
        const Result<void> failed = pool.feed(blocksOf(bytes, 10000, 3), digests.task(1));
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().code, ErrorCode::Io);
        QVERIFY(pool.feed(blocksOf(bytes, 10000), digests.task(2)).ok());
        pool.waitForDone();
        QCOMPARE(digests.errors.value(1), QStringLiteral("the disk went away"));
        QVERIFY(!digests.byEntry.contains(1));
        QCOMPARE(digests.byEntry.value(0), QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
        QCOMPARE(digests.byEntry.value(2), QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
    }
};

QTEST_GUILESS_MAIN(TestBundleHashing)
#include "tst_bundle_hashing.moc"
