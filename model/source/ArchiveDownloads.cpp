#include "model/source/ArchiveDownloads.h"

#include "model/source/StreamedArchive.h"

#include <QFile>
#include <QTemporaryDir>
#include <QThreadPool>

#include <condition_variable>
#include <deque>
#include <mutex>

namespace provender {

namespace {

/// One archive, on whatever thread: its read, or nullopt when a cancel came first.
std::optional<ArchiveRead> downloadOne(qsizetype i, const QString &file, const ArchiveDownloadSteps &steps, const std::atomic<bool> &stop,
                                       const std::atomic<bool> *cancel)
{
    const auto halted = [&] { return stop.load() || (cancel && cancel->load()); };
    if (halted())
        return std::nullopt;
    if (steps.refuse)
        if (std::optional<ArchiveRead> refused = steps.refuse(i))
            return refused;
    StreamedArchive stream(file);
    // A cancel stops a download at once, not only between archives.
    const Result<void> fetched = steps.fetch(
        i, [&](const char *data, qint64 n) { return stream.write(data, n) && !halted(); }, cancel);
    ArchiveRead read;
    if (halted()) {
        stream.abandon();
        QFile::remove(file);
        return std::nullopt;
    }
    if (!fetched.ok() && !(steps.bytesKept && steps.bytesKept(fetched.error()))) {
        const QString writeError = stream.writeError(); // a full disk is the reason, not the download
        stream.abandon();
        QFile::remove(file);
        read.unavailable = fetched.error().code == ErrorCode::NotFound ? Verdict::Missing : Verdict::Error;
        read.hashes = writeError.isEmpty() ? fetched.error() : makeError(ErrorCode::Io, writeError);
        return read;
    }
    StreamedArchive::Outcome bytes = stream.finish();
    QFile::remove(file);
    if (!bytes.written.ok()) {
        read.unavailable = Verdict::Error;
        read.hashes = bytes.written.error();
        return read;
    }
    read.size = bytes.size;
    read.hashes = std::move(bytes.hashes);
    if (!read.hashes.ok() && failedForItsBytes(read.hashes.error().code)) // not a readable zip: checksum first (decideUnreadableArchive)
        read.bytesZh = HashString::zh(QString::fromLatin1(bytes.sha256.toHex()));
    if (steps.check)
        steps.check(i, fetched, DownloadedBytes{bytes.sha256, bytes.size}, read);
    return read;
}

} // namespace

ArchiveReadSummary downloadArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options, const ArchiveReadSink &sink,
                                    const ArchiveDownloadSteps &steps)
{
    ArchiveReadSummary summary;
    QTemporaryDir downloads;
    qint64 total = 0;
    for (const ArchiveRef &ref : archives)
        total += std::max<qint64>(ref.archive->size, 0);
    std::atomic<bool> stop{false};
    const auto stopped = [&] {
        if (options.cancel && options.cancel->load())
            stop = true;
        return stop.load();
    };
    // Delivers one decided read on the calling thread; false once the run is to stop.
    const auto deliver = [&](qsizetype i, ArchiveRead &&read) {
        if (read.size >= 0) // downloaded
            summary.bytesRead += read.size;
        if (read.hashes.ok() && !read.unavailable) {
            ++summary.hashed;
            summary.bytesHashed += read.hashes.value().fileSize;
        }
        const bool downloaded = read.size >= 0;
        sink(i, std::move(read));
        if (downloaded && options.progress && !options.progress(summary.bytesRead, total))
            stop = true;
        return !stopped();
    };
    const auto fileFor = [&](qsizetype i) { return downloads.filePath(QStringLiteral("%1.zip").arg(i)); };

    if (steps.maxParallel <= 1) {
        for (qsizetype i = 0; i < archives.size() && !stopped(); ++i) {
            std::optional<ArchiveRead> read = downloadOne(i, fileFor(i), steps, stop, options.cancel);
            if (!read || !deliver(i, std::move(*read)))
                break;
        }
        summary.cancelled = stopped();
        return summary;
    }

    // Workers take the next archive; the calling thread delivers what they decide.
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::pair<qsizetype, ArchiveRead>> decided;
    std::atomic<qsizetype> next{0};
    const int workers = std::max(1, std::min<int>(steps.maxParallel, int(archives.size())));
    int running = workers; // workers not yet done (they count it down)
    QThreadPool pool;
    pool.setMaxThreadCount(workers);
    for (int w = 0; w < workers; ++w)
        pool.start([&] {
            for (qsizetype i = next++; i < archives.size(); i = next++) {
                std::optional<ArchiveRead> read = downloadOne(i, fileFor(i), steps, stop, options.cancel);
                if (!read)
                    break;
                const std::lock_guard lock(mutex);
                decided.emplace_back(i, std::move(*read));
                changed.notify_all();
            }
            const std::lock_guard lock(mutex);
            --running;
            changed.notify_all();
        });
    std::unique_lock lock(mutex);
    for (;;) {
        // Polled so that a cancel set from another thread stops the downloads in flight.
        changed.wait_for(lock, std::chrono::milliseconds(100), [&] { return !decided.empty() || running == 0; });
        while (!decided.empty()) {
            auto [i, read] = std::move(decided.front());
            decided.pop_front();
            lock.unlock();
            deliver(i, std::move(read));
            lock.lock();
        }
        stopped();
        if (running == 0)
            break;
    }
    lock.unlock();
    pool.waitForDone();
    summary.cancelled = stopped();
    return summary;
}

} // namespace provender
