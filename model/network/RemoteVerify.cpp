#include "model/network/RemoteVerify.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/ZipStreamFeeder.h"
#include "model/network/NetworkSource.h"
#include "model/verify/VerifyEngine.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

namespace provender {

namespace {

struct Download
{
    int index = 0; ///< into the requested archives
    QUrl url;
    QString target; ///< where the file goes
    int attempt = 0;
    std::unique_ptr<QSaveFile> file;
    std::unique_ptr<ZipStreamFeeder> hasher; ///< h1:/zh: while the bytes arrive
    bool writeFailed = false;
    qint64 contentLength = -1;
    QString path; ///< the stored download, once complete
    qint64 bytes = 0;
};

/// Bytes that may wait between a download and the thread hashing it (per download in flight).
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

/// The SHA-256 of a file's bytes (empty when it cannot be read).
QByteArray fileSha256(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    Sha256 sha;
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 n = file.read(block.data(), block.size());
        if (n < 0)
            return {};
        if (n == 0)
            return sha.result();
        sha.addData(block.constData(), std::size_t(n));
    }
}

/// What a stored download read as, once hashed: its hashes, or why not (`streamedZh`: the SHA-256
/// of the bytes as they arrived).
ArchiveRead storedRead(const Result<PackageHashes> &hashed, const QByteArray &streamedZh, qint64 bytes, const QString &path,
                       ArchiveReadSummary &summary)
{
    const HashString zh = HashString::zh(QString::fromLatin1(streamedZh.toHex()));
    ArchiveRead read;
    read.size = bytes;
    if (!hashed.ok()) {
        // Not a zip: terraform's hash check still runs first (docs/VERDICTS.md).
        read.hashes = hashed.error();
        read.bytesZh = zh;
    } else if (hashed.value().zh.toString() != zh.toString()) {
        read.unavailable = Verdict::Error;
        read.hashes = makeError(ErrorCode::Io, QStringLiteral("the stored download changed while it was hashed: %1").arg(path));
    } else {
        read.hashes = hashed.value();
        ++summary.hashed;
        summary.bytesHashed += hashed.value().fileSize;
    }
    return read;
}

/// How long to wait before retry `attempt` + 1: exponential backoff, or the server's Retry-After
/// seconds, at most maxBackoffMs either way.
int retryDelayMs(const HttpOutcome &o, int attempt, const RemoteVerifyOptions &options)
{
    int delay = int(std::min<qint64>(qint64(options.backoffMs) << attempt, options.maxBackoffMs));
    bool isNumber = false;
    const int retryAfter = o.retryAfter.trimmed().toInt(&isNumber);
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

/// The downloads of one readNetworkArchives() call, as HttpRunner jobs: each body is stored under
/// `root` and hashed while it arrives (ZipStreamFeeder); a zip that one pass cannot decide is
/// hashed from the stored file with hashZip(), checked against the streamed zh:.
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
    {}

    HttpJob job(const std::shared_ptr<Download> &d)
    {
        HttpJob job;
        job.url = d->url;          // never an Authorization header
        job.allowPlainHttp = true; // as terraform; NetworkMirror reported it (InsecureUrl)
        job.maxBodyBytes = m_options.maxArchiveBytes;
        job.onStart = [this, d](const HttpOutcome &headers) { started(*d, headers); };
        job.onData = [this, d](const char *data, qint64 size) { return received(*d, data, size); };
        job.onDone = [this, d](HttpOutcome &&o) { finished(d, std::move(o)); };
        return job;
    }

private:
    QString pathOf(const Download &d) const { return m_root + QLatin1Char('/') + d.target; }

    void openStore(Download &d)
    {
        if (d.file)
            d.file->cancelWriting();
        const QString path = pathOf(d);
        QDir().mkpath(QFileInfo(path).absolutePath());
        d.file = std::make_unique<QSaveFile>(path);
        d.writeFailed = !d.file->open(QIODevice::WriteOnly);
        d.hasher = streamHasher(&d);
    }

    void started(Download &d, const HttpOutcome &headers)
    {
        openStore(d); // again when the request is sent again: the new body replaces the old
        if (headers.contentLength >= 0 && d.contentLength < 0) {
            d.contentLength = headers.contentLength;
            m_total = std::max<qint64>(m_total, 0) + headers.contentLength;
        }
    }

    bool received(Download &d, const char *data, qint64 size)
    {
        if (d.writeFailed || d.file->write(data, size) != size || !d.hasher->push(data, size))
            return false;
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
        if (d->file) {
            d->file->cancelWriting();
            d->file.reset();
        }
        d->hasher.reset();
        if (o.failure == HttpOutcome::Failure::Cancelled)
            return; // stays Pending
        const QString url = displayUrl(d->url);
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

    /// A complete body: commit the stored file, then wait for its hashes.
    void stored(Download &d, qint64 bytes)
    {
        m_out.bytesDownloaded += bytes;
        m_out.summary.bytesRead += bytes;
        if (!d.file) // empty body: no data ever arrived
            openStore(d);
        if (!d.file->flush() || !d.file->commit()) { // flush first: Qt 6.4 commits after a failed flush
            const QString why =
                QStringLiteral("cannot store the download of %1 at %2: %3").arg(displayUrl(d.url), pathOf(d), d.file->errorString());
            d.file.reset();
            d.hasher.reset();
            m_sink(d.index, failedRead(Verdict::Error, ErrorCode::Io, why));
            return;
        }
        d.file.reset();
        d.path = pathOf(d);
        d.bytes = bytes;
        m_runner.holdOpen(); // until the hashes are in (streamed, or from the stored file)
        d.hasher->finish();
    }

    /// `d` stays valid: readNetworkArchives() holds every Download until run() returns.
    std::unique_ptr<ZipStreamFeeder> streamHasher(Download *d)
    {
        return std::make_unique<ZipStreamFeeder>(kHashQueueBytes, [this, d](Result<StreamingZipOutcome> &&z) {
            // On the hashing thread: hand the outcome to the runner's thread.
            QMetaObject::invokeMethod(
                &m_runner, [this, d, z = std::move(z)] { hashed(*d, z); }, Qt::QueuedConnection);
        });
    }

    void hashed(Download &d, const Result<StreamingZipOutcome> &z)
    {
        d.hasher.reset(); // joins the finished thread
        if (z.ok() && z->status == StreamingZipOutcome::Status::Hashed)
            finishRead(d, z->hashes, z->sha256);
        else
            hashStored(d, z.ok() ? z->sha256 : QByteArray()); // hashZip() decides
    }

    void hashStored(Download &d, const QByteArray &streamedZh)
    {
        using Stored = std::pair<Result<PackageHashes>, QByteArray>;
        auto *watcher = new QFutureWatcher<Stored>(&m_runner);
        QObject::connect(watcher, &QFutureWatcherBase::finished, &m_runner, [this, &d, watcher] {
            const Stored result = watcher->result();
            watcher->deleteLater();
            finishRead(d, result.first, result.second);
        });
        watcher->setFuture(QtConcurrent::run([path = d.path, streamedZh] {
            // No streamed digest (the one pass failed): the stored file's, for the checksum-first rule.
            return Stored(hashZip(path), streamedZh.isEmpty() ? fileSha256(path) : streamedZh);
        }));
    }

    void finishRead(Download &d, const Result<PackageHashes> &hashed, const QByteArray &streamedZh)
    {
        if (!m_keep)
            QFile::remove(d.path);
        m_sink(d.index, storedRead(hashed, streamedZh, d.bytes, d.path, m_out.summary));
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
