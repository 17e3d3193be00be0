#include "model/network/NetworkSource.h"

#include <QCoreApplication>
#include <QTemporaryFile>

namespace provender {

NetworkSource::NetworkSource(QString baseUrl, QList<ProviderAddress> providers, NetworkMirrorOptions mirror, RemoteVerifyOptions download)
    : m_baseUrl(std::move(baseUrl)),
      m_providers(std::move(providers)),
      m_mirror(std::move(mirror)),
      m_download(std::move(download))
{}

NetworkSource::NetworkSource(const Catalog &fetched, RemoteVerifyOptions download)
    : m_baseUrl(fetched.root),
      m_download(std::move(download)),
      m_fetched(fetched)
{}

SourceCapabilities NetworkSource::capabilities() const
{
    return SourceCapabilities::remote(true);
}

Result<Catalog> NetworkSource::list(const std::atomic<bool> *cancel)
{
    if (m_fetched)
        return *m_fetched;
    Result<NetworkCatalog> fetched = fetchNetworkCatalog(m_baseUrl, m_providers, m_mirror, cancel);
    if (!fetched.ok())
        return fetched.error();
    m_log += fetched->log;
    m_absent = fetched->absent;
    if (fetched->cancelled)
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    return std::move(fetched.value().catalog);
}

ArchiveReadSummary NetworkSource::readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                               const ArchiveReadSink &sink)
{
    RemoteVerifyOptions download = m_download;
    if (options.jobs > 0)
        download.http.maxParallel = options.jobs;
    const RemoteProgress progress = [&options](qint64 done, qint64 total) {
        if (options.progress)
            options.progress(done, total);
    };
    NetworkReadReport report = readNetworkArchives(archives, download, progress, options.cancel, sink);
    m_log += report.log;
    m_bytesDownloaded += report.bytesDownloaded;
    return report.summary;
}

Result<std::unique_ptr<QIODevice>> NetworkSource::openArchive(const Archive &archive, const std::atomic<bool> *cancel)
{
    if (!archive.present)
        return makeError(ErrorCode::NotFound, QStringLiteral("absent from the mirror: %1").arg(archive.fileName));
    // QTemporaryFile removes the download when the device is destroyed.
    auto tmp = std::make_unique<QTemporaryFile>();
    if (!tmp->open())
        return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary file: %1").arg(tmp->errorString()));
    HttpSettings settings = m_download.http;
    if (settings.userAgent.isEmpty())
        settings.userAgent = "Provender/" + QCoreApplication::applicationVersion().toUtf8();
    HttpRunner runner(settings);
    std::optional<Error> failure;
    HttpJob job;
    job.url = QUrl(archive.path); // never an Authorization header
    job.allowPlainHttp = true;
    job.maxBodyBytes = m_download.maxArchiveBytes;
    job.onStart = [&](const HttpOutcome &) {
        tmp->resize(0);
        tmp->seek(0);
    };
    job.onData = [&](const char *data, qint64 size) { return tmp->write(data, size) == size; };
    job.onDone = [&](HttpOutcome &&o) {
        if (o.ok())
            return;
        const QString url = displayUrl(job.url);
        if (o.failure == HttpOutcome::Failure::None)
            failure = makeError(o.status == 404 ? ErrorCode::NotFound : ErrorCode::Network,
                                QStringLiteral("unsuccessful request to %1: %2").arg(url, o.statusLine()));
        else if (o.failure == HttpOutcome::Failure::Cancelled)
            failure = makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
        else
            failure = makeError(ErrorCode::Network, QStringLiteral("%1: %2").arg(url, o.errorText));
    };
    runner.enqueue(job);
    runner.run(cancel);
    m_log += runner.log();
    if (failure)
        return *failure;
    if (!tmp->flush() || !tmp->seek(0))
        return makeError(ErrorCode::Io, QStringLiteral("cannot read back %1: %2").arg(tmp->fileName(), tmp->errorString()));
    return std::unique_ptr<QIODevice>(std::move(tmp));
}

} // namespace provender
