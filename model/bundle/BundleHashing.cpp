#include "model/bundle/BundleHashing.h"

#include <QByteArray>
#include <QThread>

#include <deque>
#include <optional>

namespace provender::bundle_detail {

/// One entry's blocks between the reader and its task.
struct EntryHashPool::Queue
{
    std::deque<QByteArray> blocks;
    bool closed = false;        ///< the reader has queued the last block (or the error)
    std::optional<Error> error; ///< what the reader's pull failed with
    bool abandoned = false;     ///< the task returned: the rest is not queued
};

EntryHashPool::EntryHashPool(int jobs, qint64 memoryCap)
{
    const int threads = jobs > 0 ? jobs : std::max(1, QThread::idealThreadCount());
    m_pool.setMaxThreadCount(threads);
    m_maxEntries = 4 * threads;
    m_memoryCap = memoryCap > 0 ? memoryCap : std::min(kMemoryPerThread * threads, kMaxMemory);
}

EntryHashPool::~EntryHashPool()
{
    waitForDone();
}

void EntryHashPool::waitForDone()
{
    // Every queue fed is closed (feed() closes it before it returns), so every task ends.
    m_pool.waitForDone();
}

qint64 EntryHashPool::peakQueuedBytes() const
{
    const std::lock_guard lock(m_mutex);
    return m_peakQueuedBytes;
}

PullBytes EntryHashPool::servedFrom(const std::shared_ptr<Queue> &queue)
{
    auto current = std::make_shared<QByteArray>(); // the view handed out stays valid until the next call
    return [this, queue, current]() -> Result<QByteArrayView> {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !queue->blocks.empty() || queue->closed; });
        if (queue->blocks.empty()) {
            if (queue->error)
                return *queue->error;
            current->clear();
            return QByteArrayView();
        }
        *current = std::move(queue->blocks.front());
        queue->blocks.pop_front();
        m_queuedBytes -= current->size();
        m_changed.notify_all();
        return QByteArrayView(*current);
    };
}

void EntryHashPool::finished(const std::shared_ptr<Queue> &queue)
{
    std::lock_guard lock(m_mutex);
    queue->abandoned = true;
    for (const QByteArray &block : queue->blocks)
        m_queuedBytes -= block.size();
    queue->blocks.clear();
    --m_entries;
    m_changed.notify_all();
}

Result<void> EntryHashPool::feed(const PullBytes &pull, Task task)
{
    auto queue = std::make_shared<Queue>();
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_entries < m_maxEntries; });
        ++m_entries;
    }
    m_pool.start([this, queue, task = std::move(task)] {
        task(servedFrom(queue));
        finished(queue);
    });
    auto close = [&](std::optional<Error> error) {
        std::lock_guard lock(m_mutex);
        queue->error = std::move(error);
        queue->closed = true;
        m_changed.notify_all();
    };
    for (;;) {
        Result<QByteArrayView> block = pull();
        if (!block.ok()) {
            close(block.error());
            return block.error();
        }
        if (block->isEmpty())
            break;
        QByteArray copy(block->data(), block->size());
        std::unique_lock lock(m_mutex);
        // One block always fits (an empty pipeline takes it whatever its size).
        m_changed.wait(lock, [&] { return queue->abandoned || m_queuedBytes == 0 || m_queuedBytes + copy.size() <= m_memoryCap; });
        if (queue->abandoned)
            break;
        m_queuedBytes += copy.size();
        m_peakQueuedBytes = std::max(m_peakQueuedBytes, m_queuedBytes);
        queue->blocks.push_back(std::move(copy));
        m_changed.notify_all();
    }
    close(std::nullopt);
    return {};
}

} // namespace provender::bundle_detail
