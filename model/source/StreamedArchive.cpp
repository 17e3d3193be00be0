#include "model/source/StreamedArchive.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/ZipStreamFeeder.h"

#include <QFile>
#include <QFileInfo>

#include <cstdlib>
#include <cstring>
#include <future>
#include <mutex>

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

    // The file: opened by the constructor, then written only on the feeder's thread (its tap and
    // its done callback) until the feeder is gone.
    int fd = -1;
    bool direct = false;
    std::unique_ptr<char, AlignedFree> buffer;
    qint64 fill = 0;

    mutable std::mutex mutex;
    QString error; ///< why the file cannot be written ("" while it can)

    std::unique_ptr<ZipStreamFeeder> feeder;
    std::promise<void> settled; ///< the outcome is complete (or the tap failed)
    std::once_flag settleOnce;
    Outcome outcome;
    bool ended = false;
    bool finished = false;

    void settle()
    {
        std::call_once(settleOnce, [this] { settled.set_value(); });
    }

    bool fail(const QString &why)
    {
        const std::lock_guard lock(mutex);
        if (error.isEmpty())
            error = why;
        return false;
    }

    bool failErrno() { return fail(QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)))); }

    bool failed() const
    {
        const std::lock_guard lock(mutex);
        return !error.isEmpty();
    }

    void open()
    {
        const QByteArray name = QFile::encodeName(path);
        const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
        if (options.direct) {
            fd = ::open(name.constData(), flags | O_DIRECT, 0666); // the umask decides, as for QFile (a mirror is served)
            direct = fd >= 0;
        }
        if (fd < 0)
            fd = ::open(name.constData(), flags, 0666);
        if (fd < 0) {
            failErrno();
            return;
        }
        buffer.reset(static_cast<char *>(std::aligned_alloc(kAlign, kBufferBytes)));
        if (!buffer)
            fail(QStringLiteral("cannot write %1: out of memory").arg(path));
    }

    void closeFile()
    {
        if (fd >= 0 && ::close(fd) != 0)
            failErrno();
        fd = -1;
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
            if (n < 0)
                return failErrno();
            if (n == 0)
                return fail(QStringLiteral("cannot write %1: nothing was written").arg(path));
            data += n;
            size -= n;
        }
        return true;
    }

    /// Writes what the buffer holds: whole 4 KiB blocks while O_DIRECT is on (the rest stays),
    /// everything otherwise.
    bool flush()
    {
        const qint64 n = direct ? fill / kAlign * kAlign : fill;
        if (n == 0)
            return true;
        if (!writeOut(buffer.get(), n))
            return false;
        std::memmove(buffer.get(), buffer.get() + n, std::size_t(fill - n));
        fill -= n;
        return true;
    }

    /// The feeder's tap: each block into the buffer, written out when it is full or when the
    /// network is behind (the queue ran dry), so that what has arrived is on disk meanwhile.
    bool append(QByteArrayView block, bool queueEmpty)
    {
        if (fd < 0 || failed()) {
            settle(); // the stream stops here; nobody waits for a done call that will not come
            return false;
        }
        qint64 at = 0;
        while (at < block.size()) {
            const qint64 take = std::min<qint64>(kBufferBytes - fill, block.size() - at);
            std::memcpy(buffer.get() + fill, block.data() + at, std::size_t(take));
            fill += take;
            at += take;
            if (fill == kBufferBytes && !flush()) {
                settle();
                return false;
            }
        }
        if (queueEmpty && !flush()) {
            settle();
            return false;
        }
        return true;
    }

    /// The feeder's done call (its thread): the tail, fsync, close, and the hashes.
    void complete(Result<StreamingZipOutcome> &&walked)
    {
        if (fd >= 0 && !failed()) {
            bool ok = flush(); // whole blocks, still past the cache
            if (ok && direct && fill > 0 && !dropDirect())
                ok = failErrno();
            ok = ok && flush(); // the tail, through the cache
            if (ok && options.durable && ::fsync(fd) != 0)
                failErrno();
        }
        closeFile();
        buffer.reset();
        if (failed() || (!walked.ok() && walked.error().code == ErrorCode::Cancelled)) {
            const Error e = failed() ? makeError(ErrorCode::Io, error) : walked.error();
            outcome.written = e;
            outcome.hashes = e;
        } else if (!walked.ok()) {
            // The one pass failed for another reason: the file is complete, hashZip() decides.
            qCDebug(lcHash).noquote() << "streamed hash of" << path << "failed:" << walked.error().message;
            outcome.hashes = hashZip(path, {}, defaultZipLimits());
            outcome.size = QFileInfo(path).size();
            outcome.sha256 = Sha256::ofFile(path);
        } else {
            outcome.sha256 = walked->sha256;
            outcome.size = walked->size;
            if (walked->status == StreamingZipOutcome::Status::Hashed) {
                outcome.hashes = walked->hashes;
            } else {
                qCDebug(lcHash).noquote() << "streamed hash of" << path << "needs the file:" << walked->reason;
                outcome.hashes = hashZip(path, {}, defaultZipLimits());
            }
        }
        settle();
    }

    /// Stops the feeder (joins its thread); nothing touches the file after this.
    void stopFeeder(bool abort)
    {
        if (!feeder)
            return;
        if (abort)
            feeder->abort();
        feeder.reset();
    }
};

StreamedArchive::StreamedArchive(QString path, Options options) : d(std::make_unique<Worker>())
{
    d->path = std::move(path);
    d->options = options;
    d->open();
    Worker *w = d.get();
    d->feeder = std::make_unique<ZipStreamFeeder>(
        options.maxQueuedBytes, [w](Result<StreamingZipOutcome> &&z) { w->complete(std::move(z)); }, defaultZipLimits(),
        [w](QByteArrayView block, bool queueEmpty) { return w->append(block, queueEmpty); });
}

StreamedArchive::StreamedArchive(QString path) : StreamedArchive(std::move(path), Options{}) {}

StreamedArchive::~StreamedArchive()
{
    abandon();
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
    if (d->ended || d->finished || d->failed())
        return false;
    return d->feeder->push(data, size);
}

bool StreamedArchive::canWrite(qint64 size, std::function<void()> whenRoom) const
{
    if (d->ended || d->finished || d->failed())
        return true; // write() answers at once (false)
    return d->feeder->hasRoom(size, std::move(whenRoom));
}

void StreamedArchive::end()
{
    if (d->ended || d->finished)
        return;
    d->ended = true;
    d->feeder->finish();
}

StreamedArchive::Outcome StreamedArchive::finish()
{
    if (d->finished)
        return {};
    end();
    d->settled.get_future().wait();
    d->finished = true;
    d->stopFeeder(false);
    d->closeFile(); // after a failed tap: done never ran
    if (!d->error.isEmpty() && d->outcome.written.ok())
        d->outcome.written = makeError(ErrorCode::Io, d->error);
    return std::move(d->outcome);
}

void StreamedArchive::abandon()
{
    if (d->finished)
        return;
    d->finished = true;
    d->stopFeeder(true);
    d->closeFile();
}

} // namespace provender
