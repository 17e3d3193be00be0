#pragma once
// Hashing a bundle's entries on all cores while one thread reads the container (docs/BUNDLES.md,
// "Verifying in place"; docs/ARCHITECTURE.md, bundle). Internal to provender_bundle.
//
// A tar.gz (or .tar.xz, .tar.zst) can only be read front to back, so its entries come one after
// another on the reading thread. Their hashing (SHA-256 of every byte, and for a provider zip its
// h1:/zh: by StreamingZipHasher) does not have to wait: the reader copies each block of an entry
// into that entry's queue and goes on, and a task on a private pool of `jobs` threads (HashRunOptions'
// meaning: 0 = all cores) hashes it from there. Memory is bounded, whatever the bundle: at most
// `memoryCap` bytes of blocks wait in the queues (32 MiB per hashing thread, at most 64 MiB,
// unless given; the reader waits when they are full) and at most 4 × jobs entries are in flight. Why that much: one
// entry is hashed by one thread, so a second thread only has work when the reader can run ahead
// to the next entry, i.e. when the rest of the current one fits in the queues; with provider zips
// of tens of MiB, a few MiB would keep one thread busy at a time. Nothing is spilled to disk: that
// would add a write and a read of the same bytes (on tmpfs, RAM again).
//
// Order: feed() returns when the entry's last block is queued, not when it is hashed; results are
// complete after waitForDone(). A task never waits for the reader except for the entry being fed,
// so the pipeline cannot deadlock.

#include "model/core/Result.h"
#include "model/hashing/StreamingZipHasher.h"

#include <QThreadPool>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace provender::bundle_detail {

class EntryHashPool
{
public:
    /// What hashes one entry, on a pool thread: `bytes` serves the entry's blocks in order, then
    /// an empty view (or the error the reader met).
    using Task = std::function<void(const PullBytes &bytes)>;

    /// Queued bytes per hashing thread when no cap is given, and at most in all.
    static constexpr qint64 kMemoryPerThread = qint64(32) << 20;
    static constexpr qint64 kMaxMemory = qint64(64) << 20;

    /// `memoryCap` 0: kMemoryPerThread × the threads, at most kMaxMemory.
    explicit EntryHashPool(int jobs = 0, qint64 memoryCap = 0);
    ~EntryHashPool(); ///< waits for every task
    EntryHashPool(const EntryHashPool &) = delete;
    EntryHashPool &operator=(const EntryHashPool &) = delete;

    /// Reads `pull` to its end on this thread and hands the blocks to `task` on the pool. When
    /// `pull` fails, the task's bytes end with the same error and feed() returns it.
    Result<void> feed(const PullBytes &pull, Task task);
    /// Blocks until every task fed so far has finished.
    void waitForDone();

    int threads() const { return m_pool.maxThreadCount(); }
    /// The most bytes that ever waited in the queues at once (tests, benchmarks).
    qint64 peakQueuedBytes() const;

private:
    struct Queue;
    PullBytes servedFrom(const std::shared_ptr<Queue> &queue);
    void finished(const std::shared_ptr<Queue> &queue);

    QThreadPool m_pool;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    qint64 m_memoryCap = 0;
    qint64 m_queuedBytes = 0; ///< blocks waiting in every queue
    qint64 m_peakQueuedBytes = 0;
    int m_maxEntries;
    int m_entries = 0; ///< tasks fed and not finished
};

} // namespace provender::bundle_detail
