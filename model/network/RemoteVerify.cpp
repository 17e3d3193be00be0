#include "model/network/RemoteVerify.h"

#include "model/core/Logging.h"
#include "model/network/NetworkSource.h"
#include "model/source/StreamedArchive.h"
#include "model/verify/VerifyEngine.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdio>

namespace provender {

namespace {

struct Download
{
    int index = 0; ///< into the requested archives
    QUrl url;
    QString target; ///< where the file goes
    int attempt = 0;
    std::unique_ptr<StreamedArchive> file; ///< written and hashed (zh:, h1:) while the bytes arrive
    qint64 contentLength = -1;
    qint64 received = 0; ///< body bytes of the current attempt (progress)
};

/// Bytes that may wait between a download and the thread writing and hashing it (per download in
/// flight): beyond it the network side waits in its own 2 MiB reply buffer.
constexpr qint64 kHashQueueBytes = qint64(1) << 20;

ArchiveRead failedRead(Verdict verdict, ErrorCode code, const QString &reason)
{
    ArchiveRead read;
    read.unavailable = verdict;
    read.hashes = makeError(code, reason);
    return read;
}

bool retryable(const HttpOutcome &o)
{
    using F = HttpOutcome::Failure;
    if (o.failure == F::Network || o.failure == F::Timeout)
        return true;
    if (o.failure != F::None)
        return false; // TLS, redirect rules, cancel, local write errors: retrying cannot help
    return o.status == 429 || (o.status >= 500 && o.status != 501);
}

QString safeSegment(const QString &s)
{
    QString out = s;
    out.replace(QLatin1Char('/'), QLatin1Char('_'));
    out.replace(QLatin1Char('\\'), QLatin1Char('_'));
    if (out.isEmpty() || out == QLatin1StringView(".") || out == QLatin1StringView(".."))
        out = QStringLiteral("_");
    return out;
}

/// One download per requested archive, stored under HOST/NS/TYPE/VERSION/ as the zip's name.
QList<std::shared_ptr<Download>> plannedDownloads(const QList<ArchiveRef> &archives)
{
    QList<std::shared_ptr<Download>> downloads;
    for (qsizetype i = 0; i < archives.size(); ++i) {
        const ArchiveRef &ref = archives.at(i);
        const ProviderAddress &provider = ref.provider->address;
        const Version &version = ref.version->version;
        auto d = std::make_shared<Download>();
        d->index = int(i);
        d->url = QUrl(ref.archive->path);
        const QString name =
            QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(provider.type(), version.toString(), ref.archive->platform.toString());
        d->target = QStringLiteral("%1/%2/%3/%4/%5")
                        .arg(safeSegment(provider.hostname()), safeSegment(provider.ns()), safeSegment(provider.type()),
                             safeSegment(version.toString()), safeSegment(name));
        downloads.append(d);
    }
    return downloads;
}

/// What a complete download read as, once written and hashed (StreamedArchive: from the one pass
/// over the bytes, or hashZip() on the stored file for a zip the pass cannot decide).
ArchiveRead storedRead(const StreamedArchive::Outcome &streamed, const QString &url, const QString &path, ArchiveReadSummary &summary)
{
    ArchiveRead read;
    read.size = streamed.size;
    if (!streamed.written.ok()) {
        read.unavailable = Verdict::Error;
        read.hashes = makeError(
            ErrorCode::Io, QStringLiteral("cannot store the download of %1 at %2: %3").arg(url, path, streamed.written.error().message));
    } else if (!streamed.hashes.ok()) {
        // Not a zip: terraform's hash check still runs first (docs/VERDICTS.md).
        read.hashes = streamed.hashes.error();
        if (failedForItsBytes(streamed.hashes.error().code))
            read.bytesZh = HashString::zh(QString::fromLatin1(streamed.sha256.toHex()));
    } else {
        read.hashes = streamed.hashes.value();
        ++summary.hashed;
        summary.bytesHashed += streamed.hashes->fileSize;
    }
    return read;
}

/// How long to wait before retry `attempt` + 1: exponential backoff, or the server's Retry-After
/// seconds, at most maxBackoffMs either way.
int retryDelayMs(const HttpOutcome &o, int attempt, const RemoteVerifyOptions &options)
{
    int delay = int(std::min<qint64>(qint64(options.backoffMs) << attempt, options.maxBackoffMs));
    bool isNumber = false;
    const int retryAfter = o.retryAfter().trimmed().toInt(&isNumber);
    if (isNumber && retryAfter >= 0)
        delay = int(std::min<qint64>(qint64(retryAfter) * 1000, options.maxBackoffMs));
    return delay;
}

/// The read of a download that failed for good (`attempts`: " (after N retries)" or "").
ArchiveRead failedDownload(const HttpOutcome &o, const QString &url, const QString &attempts, qint64 maxArchiveBytes)
{
    if (o.failure == HttpOutcome::Failure::None) {
        const QString why = QStringLiteral("unsuccessful request to %1: %2").arg(url, o.statusLine()) + attempts;
        return o.status == 404 ? failedRead(Verdict::Missing, ErrorCode::NotFound, why)
                               : failedRead(Verdict::Error, ErrorCode::Network, why);
    }
    if (o.failure == HttpOutcome::Failure::Refused) // errorText names the URL (shortened, without user info)
        return failedRead(Verdict::Error, ErrorCode::Network, o.errorText);
    if (o.failure == HttpOutcome::Failure::TooLarge)
        return failedRead(Verdict::Error, ErrorCode::Network,
                          QStringLiteral("%1: %2 (the maximum archive size is %3 bytes)").arg(url, o.errorText).arg(maxArchiveBytes));
    return failedRead(Verdict::Error, ErrorCode::Network, QStringLiteral("%1: %2").arg(url, o.errorText) + attempts);
}

/// The downloads of one readNetworkArchives() call, as HttpRunner jobs: each body is written under
/// `root` and hashed while it arrives, on a thread of its own (StreamedArchive), so nothing reads
/// the file back unless the zip needs random access. In the cache directory a download is written
/// as NAME.part and renamed once complete.
class ArchiveDownloads
{
public:
    ArchiveDownloads(HttpRunner &runner, const RemoteVerifyOptions &options, const RemoteProgress &progress, const ArchiveReadSink &sink,
                     NetworkReadReport &out, QString root, bool keep)
        : m_runner(runner),
          m_options(options),
          m_progress(progress),
          m_sink(sink),
          m_out(out),
          m_root(std::move(root)),
          m_keep(keep)
    {
        // Threads that only wait for a download's writer (StreamedArchive::finish). Never the
        // global pool: the GUI runs this very function on it (JobTracker), and with every global
        // thread inside a verify the waits would never start (tst_network_mirror::verifyOnABusyGlobalPool).
        m_waiters.setMaxThreadCount(std::max(1, m_options.http.maxParallel));
    }

    HttpJob job(const std::shared_ptr<Download> &d)
    {
        HttpJob job;
        job.url = d->url;          // never an Authorization header
        job.allowPlainHttp = true; // as terraform; NetworkMirror reported it (InsecureUrl)
        job.maxBodyBytes = m_options.maxArchiveBytes;
        job.onStart = [this, d](const HttpOutcome &headers) { started(*d, headers); };
        job.onData = [this, d](const char *data, qint64 size) { return received(*d, data, size); };
        job.ready = [d](const HttpWake &wake) { return !d->file || d->file->canWrite(64 * 1024, wake); };
        job.onDone = [this, d](HttpOutcome &&o) { finished(d, std::move(o)); };
        return job;
    }

private:
    QString pathOf(const Download &d) const { return m_root + QLatin1Char('/') + d.target; }
    QString writingPathOf(const Download &d) const { return pathOf(d) + (m_keep ? QStringLiteral(".part") : QString()); }

    void drop(Download &d)
    {
        if (!d.file)
            return;
        d.file->abandon();
        QFile::remove(d.file->path());
        d.file.reset();
        m_done -= d.received; // the bytes of a failed attempt no longer count as progress
        d.received = 0;
    }

    void openStore(Download &d)
    {
        drop(d); // sent again: the new body replaces the old
        const QString path = writingPathOf(d);
        QDir().mkpath(QFileInfo(path).absolutePath());
        StreamedArchive::Options options;
        options.maxQueuedBytes = kHashQueueBytes;
        d.file = std::make_unique<StreamedArchive>(path, options);
    }

    void started(Download &d, const HttpOutcome &headers)
    {
        openStore(d);
        if (headers.contentLength >= 0 && d.contentLength < 0) {
            d.contentLength = headers.contentLength;
            m_total = std::max<qint64>(m_total, 0) + headers.contentLength;
        }
    }

    bool received(Download &d, const char *data, qint64 size)
    {
        if (!d.file->write(data, size))
            return false;
        d.received += size;
        m_done += size;
        if (m_progress)
            m_progress(m_done, m_total);
        return true;
    }

    void finished(const std::shared_ptr<Download> &d, HttpOutcome &&o)
    {
        if (o.ok()) {
            stored(*d, o.bytes);
            return;
        }
        const QString url = displayUrl(d->url);
        if (o.failure == HttpOutcome::Failure::Sink && d->file && !d->file->writeError().isEmpty()) {
            const QString why =
                QStringLiteral("cannot store the download of %1 at %2: %3").arg(url, d->file->path(), d->file->writeError());
            drop(*d);
            m_sink(d->index, failedRead(Verdict::Error, ErrorCode::Io, why));
            return;
        }
        drop(*d);
        if (o.failure == HttpOutcome::Failure::Cancelled)
            return; // stays Pending
        if (retryable(o) && d->attempt < m_options.retries) {
            const int delay = retryDelayMs(o, d->attempt, m_options);
            ++d->attempt;
            qCDebug(lcNetwork).noquote() << "retry" << d->attempt << "of" << url << "in" << delay << "ms";
            m_runner.schedule(job(d), delay);
            return;
        }
        const QString attempts = d->attempt > 0 ? QStringLiteral(" (after %1 retries)").arg(d->attempt) : QString();
        m_sink(d->index, failedDownload(o, url, attempts, m_options.maxArchiveBytes));
    }

    /// A complete body: the worker finishes writing and hashing while the other downloads go on.
    void stored(Download &d, qint64 bytes)
    {
        m_out.bytesDownloaded += bytes;
        m_out.summary.bytesRead += bytes;
        if (!d.file) // empty body: no data ever arrived
            openStore(d);
        d.file->end();
        m_runner.holdOpen(); // until the hashes are in
        auto *watcher = new QFutureWatcher<StreamedArchive::Outcome>(&m_runner);
        QObject::connect(watcher, &QFutureWatcherBase::finished, &m_runner, [this, &d, watcher] {
            const StreamedArchive::Outcome outcome = watcher->result();
            watcher->deleteLater();
            hashed(d, outcome);
        });
        // finish() waits for the worker thread, so a thread of our own (not the runner's) does it.
        watcher->setFuture(QtConcurrent::run(&m_waiters, [file = d.file.get()] { return file->finish(); }));
    }

    void hashed(Download &d, const StreamedArchive::Outcome &outcome)
    {
        const QString written = d.file->path();
        d.file.reset();
        QString path = written;
        if (m_keep && outcome.written.ok()) {
            path = pathOf(d);
            // rename(2) replaces an older copy atomically (QFile::rename would not replace it).
            if (::rename(QFile::encodeName(written).constData(), QFile::encodeName(path).constData()) != 0) {
                QFile::remove(written);
                path = written; // hashed all the same; nothing half-written stays in the cache
            }
        } else {
            QFile::remove(written); // a temporary download, or a .part that could not be written
        }
        m_sink(d.index, storedRead(outcome, displayUrl(d.url), path, m_out.summary));
        m_runner.releaseHold();
    }

    HttpRunner &m_runner;
    const RemoteVerifyOptions &m_options;
    const RemoteProgress &m_progress;
    const ArchiveReadSink &m_sink;
    NetworkReadReport &m_out;
    const QString m_root;
    const bool m_keep;
    qint64 m_done = 0;
    qint64 m_total = -1;
    QThreadPool m_waiters;
};

} // namespace

NetworkReadReport readNetworkArchives(const QList<ArchiveRef> &archives, const RemoteVerifyOptions &options, const RemoteProgress &progress,
                                      const std::atomic<bool> *cancel, const ArchiveReadSink &sink)
{
    NetworkReadReport out;
    if (cancel && cancel->load()) {
        out.summary.cancelled = true; // nothing requested
        return out;
    }

    const QList<std::shared_ptr<Download>> downloads = plannedDownloads(archives);

    QTemporaryDir temp;
    const bool keep = !options.cacheDir.isEmpty();
    if (!keep && !temp.isValid()) {
        for (const auto &d : std::as_const(downloads))
            sink(d->index,
                 failedRead(Verdict::Error, ErrorCode::Io,
                            QStringLiteral("cannot create a temporary directory: %1").arg(temp.errorString())));
        return out;
    }
    HttpSettings settings = options.http;
    if (settings.userAgent.isEmpty())
        settings.userAgent = "Provender/" + QCoreApplication::applicationVersion().toUtf8();
    HttpRunner runner(settings);
    ArchiveDownloads jobs(runner, options, progress, sink, out, keep ? options.cacheDir : temp.path(), keep);
    for (const auto &d : std::as_const(downloads))
        runner.enqueue(jobs.job(d));
    runner.run(cancel);
    out.log = runner.log();
    out.summary.cancelled = runner.isCancelled();
    return out;
}

RemoteVerifyReport verifyNetworkCatalog(const Catalog &catalog, const RemoteVerifyOptions &options, const RemoteProgress &progress,
                                        const std::atomic<bool> *cancel)
{
    NetworkSource source(catalog, options);
    VerifyOptions verify;
    verify.expected = options.expected;
    verify.expectedFrom = options.expectedFrom;
    verify.lockCoverage = options.lockCoverage;
    RemoteVerifyReport out;
    out.report = verifySource(source, catalog, verify, progress, cancel, options.onResult);
    out.log = source.requestLog();
    out.bytesDownloaded = source.bytesDownloaded();
    return out;
}

} // namespace provender
