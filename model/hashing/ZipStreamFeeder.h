#pragma once
// A zip's h1:/zh: computed on a thread of its own while its bytes are pushed in, front to back:
// a download. The producer (the thread that receives the body) calls push() per block and
// finish() at the end; a worker thread runs hashZipStream() (StreamingZipHasher.h) over the blocks
// as they come, so that hashing overlaps the transfer instead of re-reading the stored file after
// it. At most `maxQueuedBytes` wait between them: push() blocks while the worker is behind, which
// bounds memory whatever the archive size (the network side then waits in its own buffers).
//
// The worker is a dedicated thread, not a pool thread: every in-flight download needs its consumer
// running, or a producer blocked in push() would wait for a pool slot that never comes.
//
// `done` is called once, on the worker thread, with hashZipStream()'s answer after finish(); not
// when abort() came first. Callers trust only Status::Hashed and otherwise hash the stored file with hashZip()
// (that is what decides every awkward zip, with its messages); `sha256` is always the bytes' digest.

#include "model/core/Result.h"
#include "model/hashing/StreamingZipHasher.h"

#include <QByteArray>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace provender {

class ZipStreamFeeder
{
public:
    using Done = std::function<void(Result<StreamingZipOutcome> &&outcome)>;
    /// Sees every block on the worker thread before the hasher does, with whether the queue is
    /// empty after it (StreamedArchive writes the file there); false aborts the stream.
    using Tap = std::function<bool(QByteArrayView block, bool queueEmpty)>;

    ZipStreamFeeder(qint64 maxQueuedBytes, Done done, const ZipLimits &limits = defaultZipLimits(), Tap tap = {});
    /// Aborts (if not finished) and joins the worker.
    ~ZipStreamFeeder();
    ZipStreamFeeder(const ZipStreamFeeder &) = delete;
    ZipStreamFeeder &operator=(const ZipStreamFeeder &) = delete;

    /// Copies the block into the queue; blocks while the queue is full. False after abort().
    bool push(const char *data, qint64 size);
    /// Whether push() of `size` bytes would return without waiting. When it would not and
    /// `whenRoom` is given, the worker calls `whenRoom` once (on its thread) when it would and the
    /// queue is at most half full, or when the stream is aborted; a later hasRoom() with a
    /// callback replaces an earlier one.
    bool hasRoom(qint64 size, std::function<void()> whenRoom = {});
    /// The end of the stream: the worker finishes and calls `done`.
    void finish();
    /// Stops the worker without calling `done` (the transfer failed or starts again).
    void abort();
    /// The most bytes that waited in the queue at once (tests check the bound).
    qint64 peakQueuedBytes() const;

private:
    void work(const ZipLimits &limits);
    Result<QByteArrayView> next();

    const qint64 m_maxQueued;
    Done m_done;
    Tap m_tap;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<QByteArray> m_queue;
    qint64 m_queued = 0;
    qint64 m_peakQueued = 0;
    bool m_finished = false;
    bool m_aborted = false;
    QByteArray m_current;             ///< the block the worker's last view points into
    std::function<void()> m_whenRoom; ///< hasRoom()'s callback, while the room is not there
    qint64 m_roomWanted = 0;          ///< the size that hasRoom() asked for

    bool roomFor(qint64 size) const { return m_aborted || m_queued == 0 || m_queued + size <= m_maxQueued; }
    /// m_whenRoom, taken out when there is room now (call it without the lock).
    std::function<void()> takeWhenRoom();
    std::thread m_thread;
};

} // namespace provender
