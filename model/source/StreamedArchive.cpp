#include "model/source/StreamedArchive.h"

#include "model/core/Logging.h"
#include "model/hashing/StreamingZipHasher.h"

#include <QFile>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace provender {

namespace {

constexpr qint64 kAlign = 4096;              ///< O_DIRECT: buffer address, length and offset
constexpr qint64 kBufferBytes = 1024 * 1024; ///< one write() to the file

struct AlignedFree
{
    void operator()(char *p) const { std::free(p); }
};

} // namespace

struct StreamedArchive::Worker
{
    QString path;
    Options options;

    // Shared between the producer and the worker thread.
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<QByteArray> queue;
    qint64 queued = 0;
    bool ended = false;
    bool abandoned = false;
    bool failed = false; ///< the file cannot be written; `error` says why
    QString error;

    // Producer side.
    qint64 given = 0;
    bool started = false;
    bool finished = false;
    std::thread thread;

    // Worker side.
    int fd = -1;
    bool direct = false;
    std::unique_ptr<char, AlignedFree> buffer;
    qint64 fill = 0;
    QByteArray current; ///< the block the hasher is looking at
    Outcome outcome;

    void fail(const QString &why)
    {
        const std::lock_guard lock(mutex);
        if (!failed) {
            failed = true;
            error = why;
        }
        changed.notify_all();
    }

    bool isFailed()
    {
        const std::lock_guard lock(mutex);
        return failed;
    }

    void open()
    {
        const QByteArray name = QFile::encodeName(path);
        const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
        if (options.direct) {
            fd = ::open(name.constData(), flags | O_DIRECT, 0600);
            direct = fd >= 0;
        }
        if (fd < 0)
            fd = ::open(name.constData(), flags, 0600);
        if (fd < 0) {
            fail(QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
            return;
        }
        buffer.reset(static_cast<char *>(std::aligned_alloc(kAlign, kBufferBytes)));
        if (!buffer)
            fail(QStringLiteral("cannot write %1: out of memory").arg(path));
    }

    /// Back to writes through the page cache (the tail, or a file system that refuses O_DIRECT).
    bool dropDirect()
    {
        const int fl = ::fcntl(fd, F_GETFL);
        if (fl < 0 || ::fcntl(fd, F_SETFL, fl & ~O_DIRECT) != 0)
            return false;
        direct = false;
        return true;
    }

    bool writeOut(const char *data, qint64 size)
    {
        while (size > 0) {
            const ssize_t n = ::write(fd, data, std::size_t(size));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EINVAL && direct && dropDirect()) // O_DIRECT accepted at open, refused here
                continue;
            if (n <= 0) {
                fail(QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(n < 0 ? errno : ENOSPC))));
                return false;
            }
            data += n;
            size -= n;
        }
        return true;
    }

    /// Writes what the buffer holds: whole 4 KiB blocks while O_DIRECT is on (the rest stays),
    /// everything otherwise.
    void flush()
    {
        if (fd < 0 || isFailed())
            return;
        const qint64 n = direct ? fill / kAlign * kAlign : fill;
        if (n == 0)
            return;
        if (!writeOut(buffer.get(), n))
            return;
        std::memmove(buffer.get(), buffer.get() + n, std::size_t(fill - n));
        fill -= n;
    }

    void append(const QByteArray &block)
    {
        if (fd < 0)
            return;
        qint64 at = 0;
        while (at < block.size()) {
            const qint64 take = std::min<qint64>(kBufferBytes - fill, block.size() - at);
            std::memcpy(buffer.get() + fill, block.constData() + at, std::size_t(take));
            fill += take;
            at += take;
            if (fill == kBufferBytes)
                flush();
            if (isFailed())
                return;
        }
    }

    Result<QByteArrayView> pull()
    {
        std::unique_lock lock(mutex);
        if (queue.empty() && !ended && !abandoned) {
            // The network is behind: put what has arrived on disk while waiting.
            lock.unlock();
            flush();
            lock.lock();
        }
        changed.wait(lock, [this] { return !queue.empty() || ended || abandoned; });
        if (abandoned)
            return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
        if (queue.empty())
            return QByteArrayView();
        current = std::move(queue.front());
        queue.pop_front();
        queued -= current.size();
        changed.notify_all();
        lock.unlock();
        append(current);
        return QByteArrayView(current);
    }

    void run()
    {
        open();
        const ZipLimits limits = defaultZipLimits();
        const Result<StreamingZipOutcome> walked = hashZipStream([this] { return pull(); }, limits.maxInflatedBytes, {}, limits);
        {
            const std::lock_guard lock(mutex);
            if (abandoned) {
                if (fd >= 0)
                    ::close(fd);
                fd = -1;
                return;
            }
        }
        // The tail: whole blocks still direct, the rest through the cache.
        flush();
        if (fd >= 0 && direct && fill > 0 && !dropDirect())
            fail(QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        flush();
        if (fd >= 0 && options.durable && !isFailed() && ::fsync(fd) != 0)
            fail(QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        if (fd >= 0 && ::close(fd) != 0 && !isFailed())
            fail(QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
        fd = -1;
        if (isFailed()) {
            outcome.written = makeError(ErrorCode::Io, error);
            outcome.hashes = makeError(ErrorCode::Io, error);
            return;
        }
        if (!walked.ok()) { // only a failing pull, which abandon() alone causes
            outcome.written = walked.error();
            outcome.hashes = walked.error();
            return;
        }
        outcome.sha256 = walked->sha256;
        outcome.size = walked->size;
        if (walked->status == StreamingZipOutcome::Status::Hashed) {
            outcome.hashes = walked->hashes;
        } else {
            qCDebug(lcHash).noquote() << "streamed hash of" << path << "needs the file:" << walked->reason;
            outcome.hashes = hashZip(path, {}, limits);
        }
    }

    void start()
    {
        if (!started) {
            started = true;
            thread = std::thread([this] { run(); });
        }
    }

    void stop(bool abandon)
    {
        if (finished)
            return;
        finished = true;
        start();
        {
            const std::lock_guard lock(mutex);
            (abandon ? abandoned : ended) = true;
        }
        changed.notify_all();
        thread.join();
    }
};

StreamedArchive::StreamedArchive(QString path, Options options) : d(std::make_unique<Worker>())
{
    d->path = std::move(path);
    d->options = options;
}

StreamedArchive::StreamedArchive(QString path) : StreamedArchive(std::move(path), Options{}) {}

StreamedArchive::~StreamedArchive()
{
    d->stop(true);
}

const QString &StreamedArchive::path() const
{
    return d->path;
}

QString StreamedArchive::writeError() const
{
    const std::lock_guard lock(d->mutex);
    return d->error;
}

bool StreamedArchive::write(const char *data, qint64 size)
{
    if (d->finished)
        return false;
    d->start();
    std::unique_lock lock(d->mutex);
    d->changed.wait(lock, [this] { return d->queued < d->options.maxQueuedBytes || d->failed; });
    if (d->failed)
        return false;
    d->queue.emplace_back(data, size);
    d->queued += size;
    d->given += size;
    d->changed.notify_all();
    return true;
}

void StreamedArchive::end()
{
    if (d->finished)
        return;
    d->start();
    {
        const std::lock_guard lock(d->mutex);
        d->ended = true;
    }
    d->changed.notify_all();
}

StreamedArchive::Outcome StreamedArchive::finish()
{
    d->stop(false);
    return std::move(d->outcome);
}

void StreamedArchive::abandon()
{
    d->stop(true);
}

} // namespace provender
