#pragma once
// A network mirror (tofu-formats.md §6) as a MirrorSource: list() fetches the providers' indexes
// (fetchNetworkCatalog: the protocol cannot list providers, so they are given — typed, from a
// lock file or an autoindex crawl), readArchives() downloads each archive once, streamed to a
// file while its SHA-256 is computed, and hashes it (readNetworkArchives, RemoteVerify.h);
// openArchive() downloads one archive to a temporary file. Every request is logged
// (requestLog()); a token goes only with index requests (NetworkMirrorOptions::credential).
// Blocking calls run a local event loop: call them off the GUI thread.

#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"
#include "model/source/MirrorSource.h"

namespace provender {

class NetworkSource final : public MirrorSource
{
public:
    NetworkSource(QString baseUrl, QList<ProviderAddress> providers, NetworkMirrorOptions mirror = {}, RemoteVerifyOptions download = {});
    /// Over a catalog already fetched (list() returns it unchanged); for verifyNetworkCatalog().
    NetworkSource(const Catalog &fetched, RemoteVerifyOptions download);

    Catalog::SourceKind kind() const override { return Catalog::SourceKind::Network; }
    QString location() const override { return m_baseUrl; }
    SourceCapabilities capabilities() const override;
    Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) override;
    ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                    const ArchiveReadSink &sink) override;
    Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) override;

    /// Every request made so far (index documents, downloads), in completion order.
    const QList<RequestLogEntry> &requestLog() const { return m_log; }
    /// Providers whose index.json was 404 in the last list().
    const QList<ProviderAddress> &absentProviders() const { return m_absent; }
    qint64 bytesDownloaded() const { return m_bytesDownloaded; }
    const std::optional<Credential> &credential() const { return m_mirror.credential; }

private:
    QString m_baseUrl;
    QList<ProviderAddress> m_providers;
    NetworkMirrorOptions m_mirror;
    RemoteVerifyOptions m_download;
    std::optional<Catalog> m_fetched;
    QList<RequestLogEntry> m_log;
    QList<ProviderAddress> m_absent;
    qint64 m_bytesDownloaded = 0;
};

} // namespace provender
