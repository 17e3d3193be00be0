#include "model/hashing/ZipStreamFeeder.h"

#include <utility>

namespace provender {

ZipStreamFeeder::ZipStreamFeeder(qint64 maxQueuedBytes, Done done, const ZipLimits &limits, Tap tap)
    : m_maxQueued(std::max<qint64>(maxQueuedBytes, 1)),
      m_done(std::move(done)),
      m_tap(std::move(tap)),
      m_thread([this, limits] { work(limits); })
{}

ZipStreamFeeder::~ZipStreamFeeder()
{
    abort();
    if (m_thread.joinable())
        m_thread.join();
}

bool ZipStreamFeeder::push(const char *data, qint64 size)
{
    if (size <= 0)
        return true;
    std::unique_lock lock(m_mutex);
    // A block larger than the cap still goes in once the queue is empty.
    m_changed.wait(lock, [&] { return roomFor(size); });
    if (m_aborted)
        return false;
    m_queue.emplace_back(data, size);
    m_queued += size;
    m_peakQueued = std::max(m_peakQueued, m_queued);
    m_changed.notify_all();
    return true;
}

bool ZipStreamFeeder::hasRoom(qint64 size, std::function<void()> whenRoom)
{
    const std::lock_guard lock(m_mutex);
    if (roomFor(size))
        return true;
    if (whenRoom) {
        m_whenRoom = std::move(whenRoom);
        m_roomWanted = size;
    }
    return false;
}

std::function<void()> ZipStreamFeeder::takeWhenRoom()
{
    // Not at the first block's worth of room: a receiver woken for every block would hand each
    // block across threads on its own (bench/remote: 8 % more CPU than asking every millisecond).
    // At half a queue, it takes several blocks at a time.
    if (!m_whenRoom || !roomFor(m_roomWanted) || (!m_aborted && m_queued > m_maxQueued / 2))
        return {};
    return std::exchange(m_whenRoom, {});
}

void ZipStreamFeeder::finish()
{
    const std::lock_guard lock(m_mutex);
    m_finished = true;
    m_changed.notify_all();
}

void ZipStreamFeeder::abort()
{
    std::function<void()> wake;
    {
        const std::lock_guard lock(m_mutex);
        m_aborted = true;
        m_queue.clear();
        m_queued = 0;
        m_changed.notify_all();
        wake = takeWhenRoom();
    }
    if (wake)
        wake();
}

qint64 ZipStreamFeeder::peakQueuedBytes() const
{
    const std::lock_guard lock(m_mutex);
    return m_peakQueued;
}

Result<QByteArrayView> ZipStreamFeeder::next()
{
    std::unique_lock lock(m_mutex);
    m_current.clear();
    m_changed.wait(lock, [&] { return m_aborted || !m_queue.empty() || m_finished; });
    if (m_aborted)
        return makeError(ErrorCode::Cancelled, QStringLiteral("the transfer was abandoned"));
    if (m_queue.empty())
        return QByteArrayView(); // finished: the end of the stream
    m_current = std::move(m_queue.front());
    m_queue.pop_front();
    m_queued -= m_current.size();
    m_changed.notify_all();
    if (const std::function<void()> wake = takeWhenRoom()) {
        lock.unlock();
        wake();
        lock.lock();
    }
    if (m_tap) {
        const bool empty = m_queue.empty();
        lock.unlock();
        if (!m_tap(QByteArrayView(m_current), empty)) {
            abort();
            return makeError(ErrorCode::Cancelled, QStringLiteral("the transfer was abandoned"));
        }
    }
    return QByteArrayView(m_current);
}

void ZipStreamFeeder::work(const ZipLimits &limits)
{
    Result<StreamingZipOutcome> outcome = hashZipStream([this] { return next(); }, limits.maxInflatedBytes, {}, limits);
    {
        const std::lock_guard lock(m_mutex);
        if (m_aborted)
            return;
    }
    if (m_done)
        m_done(std::move(outcome));
}

} // namespace provender
