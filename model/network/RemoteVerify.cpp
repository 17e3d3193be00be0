#include "model/network/RemoteVerify.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"

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
    int index = 0;              ///< into the results
    QUrl url;
    QString target;             ///< where the file goes
    int attempt = 0;
    std::unique_ptr<QSaveFile> file;
    Sha256 sha;
    bool writeFailed = false;
    const QList<HashString> *lock = nullptr;
    QString lockFrom;           ///< the lock file(s) `lock` came from
    bool notCovered = false;    ///< lock files given, none covers this provider version
    QString providerType;
    QString indexUrl;           ///< the <version>.json that declared the archive
    QStringList invalidHashes;  ///< hash strings it gave without a scheme
    qint64 contentLength = -1;
};

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

} // namespace

RemoteVerifyReport verifyNetworkCatalog(const Catalog &catalog, const RemoteVerifyOptions &options,
                                        const RemoteProgress &progress, const std::atomic<bool> *cancel)
{
    RemoteVerifyReport out;
    VerifyReport &report = out.report;

    QList<std::shared_ptr<Download>> downloads;
    auto decided = [&report, &options](int index) {
        if (options.onResult)
            options.onResult(report.results.at(index));
    };
    forEachArchive(catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
        ArchiveResult r = initialResult(p.address, v.version, a);
        r.path = a.path;
        const int index = int(report.results.size());
        report.results.append(r);
        if (!a.present) {
            decided(index);
            return;
        }
        auto d = std::make_shared<Download>();
        d->index = index;
        d->url = QUrl(a.path);
        const QString name = QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(p.address.type(), v.version.toString(),
                                                                                   a.platform.toString());
        d->target = QStringLiteral("%1/%2/%3/%4/%5").arg(safeSegment(p.address.hostname()), safeSegment(p.address.ns()),
                                                          safeSegment(p.address.type()), safeSegment(v.version.toString()),
                                                          safeSegment(name));
        const auto it = options.expected.constFind(ProviderVersionKey{p.address, v.version});
        if (it != options.expected.constEnd())
            d->lock = &it.value();
        d->lockFrom = options.expectedFrom.value(ProviderVersionKey{p.address, v.version});
        d->notCovered = options.lockCoverage && !d->lock;
        d->providerType = p.address.type();
        if (a.declared) {
            d->indexUrl = a.declared->indexFile;
            d->invalidHashes = a.declared->invalidHashes;
        }
        downloads.append(d);
    });
    report.summary.archives = int(report.results.size());

    QTemporaryDir temp;
    const bool keep = !options.cacheDir.isEmpty();
    const QString root = keep ? options.cacheDir : temp.path();
    if (!keep && !temp.isValid()) {
        for (const auto &d : std::as_const(downloads)) {
            ArchiveResult &r = report.results[d->index];
            r.detail.verdict = Verdict::Error;
            r.detail.reason = r.error = QStringLiteral("cannot create a temporary directory: %1").arg(temp.errorString());
            decided(d->index);
        }
    } else {
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
            job.url = d->url; // never an Authorization header
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
                ArchiveResult &r = report.results[d->index];
                const QString url = displayUrl(d->url);
                if (o.ok()) {
                    out.bytesDownloaded += o.bytes;
                    const QString path = root + QLatin1Char('/') + d->target;
                    if (!d->file) { // empty body: no data ever arrived
                        QDir().mkpath(QFileInfo(path).absolutePath());
                        d->file = std::make_unique<QSaveFile>(path);
                        d->file->open(QIODevice::WriteOnly);
                        d->sha.reset();
                    }
                    if (!d->file->commit()) {
                        r.detail.verdict = Verdict::Error;
                        r.detail.reason = r.error = QStringLiteral("cannot store the download of %1 at %2: %3")
                                                        .arg(url, path, d->file->errorString());
                        d->file.reset();
                        decided(d->index);
                        return;
                    }
                    d->file.reset();
                    const QByteArray streamedZh = d->sha.result();
                    r.size = o.bytes;
                    runner.holdOpen();
                    auto *watcher = new QFutureWatcher<Result<PackageHashes>>(&runner);
                    QObject::connect(watcher, &QFutureWatcherBase::finished, &runner, [&report, &runner, &decided, d, watcher, path, streamedZh, keep] {
                        ArchiveResult &res = report.results[d->index];
                        const Result<PackageHashes> hashed = watcher->result();
                        watcher->deleteLater();
                        if (!keep)
                            QFile::remove(path);
                        if (!hashed.ok()) {
                            // Not a zip: terraform's hash check still runs first (docs/VERDICTS.md).
                            res.error = hashed.error().message;
                            res.detail = decideUnreadableArchive(HashString::zh(QString::fromLatin1(streamedZh.toHex())),
                                                                 res.error, res.declared);
                            applyInvalidDeclaredHashes(res.detail, d->invalidHashes, d->indexUrl);
                        } else if (hashed.value().zh.toString()
                                   != QStringLiteral("zh:") + QString::fromLatin1(streamedZh.toHex())) {
                            res.detail.verdict = Verdict::Error;
                            res.detail.reason = res.error = QStringLiteral("the stored download changed while it was hashed: %1").arg(path);
                        } else {
                            res.hashes = hashed.value();
                            // Network-mirror rules (docs/VERDICTS.md): the zip's h1 (HashZip) or zh.
                            res.detail = decideArchive(hashed.value(), d->providerType, res.declared,
                                                       TrustAnchor{TrustAnchor::Kind::OwnIndex, d->indexUrl}, d->lock,
                                                       TrustAnchor{TrustAnchor::Kind::LockFile, d->lockFrom});
                            applyInvalidDeclaredHashes(res.detail, d->invalidHashes, d->indexUrl);
                            res.detail.notCoveredByLock = d->notCovered;
                            ++report.summary.hashed;
                            report.summary.bytesHashed += hashed.value().fileSize;
                        }
                        decided(d->index);
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
                    int delay = int(std::min<qint64>(qint64(options.backoffMs) << d->attempt, options.maxBackoffMs));
                    bool isNumber = false;
                    const int retryAfter = o.retryAfter.trimmed().toInt(&isNumber);
                    if (isNumber && retryAfter >= 0)
                        delay = int(std::min<qint64>(qint64(retryAfter) * 1000, options.maxBackoffMs));
                    ++d->attempt;
                    qCDebug(lcNetwork).noquote() << "retry" << d->attempt << "of" << url << "in" << delay << "ms";
                    runner.schedule(makeJob(d), delay);
                    return;
                }
                const QString attempts = d->attempt > 0 ? QStringLiteral(" (after %1 retries)").arg(d->attempt) : QString();
                if (o.failure == HttpOutcome::Failure::None) {
                    r.detail.verdict = o.status == 404 ? Verdict::Missing : Verdict::Error;
                    r.detail.reason = QStringLiteral("unsuccessful request to %1: %2").arg(url, o.statusLine()) + attempts;
                } else if (o.failure == HttpOutcome::Failure::Refused) {
                    r.detail.verdict = Verdict::Error;
                    r.detail.reason = o.errorText; // names the URL (shortened, without user info)
                } else if (o.failure == HttpOutcome::Failure::TooLarge) {
                    r.detail.verdict = Verdict::Error;
                    r.detail.reason = QStringLiteral("%1: %2 (the maximum archive size is %3 bytes)")
                                          .arg(url, o.errorText)
                                          .arg(options.maxArchiveBytes);
                } else {
                    r.detail.verdict = Verdict::Error;
                    r.detail.reason = QStringLiteral("%1: %2").arg(url, o.errorText) + attempts;
                }
                if (r.detail.verdict == Verdict::Error)
                    r.error = r.detail.reason;
                decided(d->index);
            };
            return job;
        };
        for (const auto &d : std::as_const(downloads))
            runner.enqueue(makeJob(d));
        runner.run(cancel);
        out.log = runner.log();
        report.summary.cancelled = runner.isCancelled();
    }
    for (const ArchiveResult &r : std::as_const(report.results))
        ++report.summary.counts[size_t(r.detail.verdict)];
    return out;
}

} // namespace provender
