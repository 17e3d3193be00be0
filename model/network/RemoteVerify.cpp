#include "model/network/RemoteVerify.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
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
    Sha256 sha;
    bool writeFailed = false;
    qint64 contentLength = -1;
};

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

} // namespace

NetworkReadReport readNetworkArchives(const QList<ArchiveRef> &archives, const RemoteVerifyOptions &options, const RemoteProgress &progress,
                                      const std::atomic<bool> *cancel, const ArchiveReadSink &sink)
{
    NetworkReadReport out;
    ArchiveReadSummary &summary = out.summary;
    if (cancel && cancel->load()) {
        summary.cancelled = true; // nothing requested
        return out;
    }

    const QList<std::shared_ptr<Download>> downloads = plannedDownloads(archives);

    QTemporaryDir temp;
    const bool keep = !options.cacheDir.isEmpty();
    const QString root = keep ? options.cacheDir : temp.path();
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
    qint64 done = 0;
    qint64 total = -1;
    auto report_progress = [&] {
        if (progress)
            progress(done, total);
    };

    std::function<HttpJob(const std::shared_ptr<Download> &)> makeJob;
    makeJob = [&](const std::shared_ptr<Download> &d) {
        HttpJob job;
        job.url = d->url;          // never an Authorization header
        job.allowPlainHttp = true; // as terraform; NetworkMirror reported it (InsecureUrl)
        job.maxBodyBytes = options.maxArchiveBytes;
        job.onStart = [&, d](const HttpOutcome &headers) {
            if (d->file)
                d->file->cancelWriting();
            const QString path = root + QLatin1Char('/') + d->target;
            QDir().mkpath(QFileInfo(path).absolutePath());
            d->file = std::make_unique<QSaveFile>(path);
            d->writeFailed = !d->file->open(QIODevice::WriteOnly);
            d->sha.reset();
            if (headers.contentLength >= 0 && d->contentLength < 0) {
                d->contentLength = headers.contentLength;
                total = std::max<qint64>(total, 0) + headers.contentLength;
            }
        };
        job.onData = [&, d](const char *data, qint64 size) {
            if (d->writeFailed || d->file->write(data, size) != size)
                return false;
            d->sha.addData(data, std::size_t(size));
            done += size;
            report_progress();
            return true;
        };
        job.onDone = [&, d](HttpOutcome &&o) {
            const QString url = displayUrl(d->url);
            if (o.ok()) {
                out.bytesDownloaded += o.bytes;
                summary.bytesRead += o.bytes;
                const QString path = root + QLatin1Char('/') + d->target;
                if (!d->file) { // empty body: no data ever arrived
                    QDir().mkpath(QFileInfo(path).absolutePath());
                    d->file = std::make_unique<QSaveFile>(path);
                    d->file->open(QIODevice::WriteOnly);
                    d->sha.reset();
                }
                if (!d->file->flush() || !d->file->commit()) { // flush first: Qt 6.4 commits after a failed flush
                    const QString why = QStringLiteral("cannot store the download of %1 at %2: %3").arg(url, path, d->file->errorString());
                    d->file.reset();
                    sink(d->index, failedRead(Verdict::Error, ErrorCode::Io, why));
                    return;
                }
                d->file.reset();
                const QByteArray streamedZh = d->sha.result();
                const qint64 bytes = o.bytes;
                runner.holdOpen();
                auto *watcher = new QFutureWatcher<Result<PackageHashes>>(&runner);
                QObject::connect(watcher, &QFutureWatcherBase::finished, &runner,
                                 [&summary, &runner, &sink, d, watcher, path, streamedZh, keep, bytes] {
                                     const Result<PackageHashes> hashed = watcher->result();
                                     watcher->deleteLater();
                                     if (!keep)
                                         QFile::remove(path);
                                     ArchiveRead read = storedRead(hashed, streamedZh, bytes, path, summary);
                                     sink(d->index, std::move(read));
                                     runner.releaseHold();
                                 });
                watcher->setFuture(QtConcurrent::run([path] { return hashZip(path); }));
                return;
            }
            if (d->file) {
                d->file->cancelWriting();
                d->file.reset();
            }
            if (o.failure == HttpOutcome::Failure::Cancelled)
                return; // stays Pending
            if (retryable(o) && d->attempt < options.retries) {
                const int delay = retryDelayMs(o, d->attempt, options);
                ++d->attempt;
                qCDebug(lcNetwork).noquote() << "retry" << d->attempt << "of" << url << "in" << delay << "ms";
                runner.schedule(makeJob(d), delay);
                return;
            }
            const QString attempts = d->attempt > 0 ? QStringLiteral(" (after %1 retries)").arg(d->attempt) : QString();
            sink(d->index, failedDownload(o, url, attempts, options.maxArchiveBytes));
        };
        return job;
    };
    for (const auto &d : std::as_const(downloads))
        runner.enqueue(makeJob(d));
    runner.run(cancel);
    out.log = runner.log();
    summary.cancelled = runner.isCancelled();
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
