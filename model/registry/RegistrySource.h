#pragma once
// An origin registry (providers.v1) as a MirrorSource (model/source/MirrorSource.h), for given
// providers: what the one browser and the verification engine need from it.
//
//   list()          per provider its versions (a lock file's exact one, those a constraint allows,
//                   or all), per version the platforms asked for (or those the versions document
//                   lists), each platform's download document. An archive's declared hashes are the
//                   document's `shasum` as zh: and, when the registry publishes `packages`, that
//                   platform's h1:/zh: (docs/REGISTRY.md). Each release's SHA256SUMS and signature are
//                   fetched and checked once (ReleaseSignature, private keyring, pinned keys).
//   indexAnchor()   Signature — "SHA256SUMS-URL signed by key ID X" — when the chain holds
//                   (SHA256SUMS line = shasum, signature good, key pinned when pins are given).
//   readArchives()  an archive whose chain does not hold is never downloaded: Refused with the
//                   reason in terraform's words (what tofu refuses); otherwise up to `jobs`
//                   downloads at once (downloadArchives, model/source/ArchiveDownloads.h), each
//                   streamed to a temporary file and hashed on the way, checked against
//                   `packages` (size, zh:) as tofu does, and removed; the engine then decides the
//                   verdict from the hashes.
//   openArchive()   one download as a temporary file.
//
// Blocking (the registry client runs local event loops): call from a worker thread. Each call
// makes its own RegistryClient on the calling thread (the engine reads on other threads than the
// one that listed), so the source can move between threads between calls.

#include "model/registry/MirrorPull.h"
#include "model/registry/RegistryClient.h"
#include "model/registry/ReleaseSignature.h"
#include "model/source/MirrorSource.h"

#include <QHash>

#include <memory>

namespace provender {

class RegistrySource final : public MirrorSource
{
public:
    /// `platforms` empty: every platform the versions document lists for a version.
    RegistrySource(RegistryOptions options, QList<PullRequest> providers, QList<Platform> platforms = {}, SignatureOptions signature = {});
    ~RegistrySource() override;

    Catalog::SourceKind kind() const override { return Catalog::SourceKind::Network; }
    /// `registry:` + the hosts of the providers, comma-separated.
    QString location() const override;
    SourceCapabilities capabilities() const override;
    Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) override;
    TrustAnchor indexAnchor(const Archive &archive) const override;
    ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                    const ArchiveReadSink &sink) override;
    Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) override;

    /// Every request so far (listing and reads).
    const QList<RequestLogEntry> &requestLog() const { return m_log; }

private:
    struct Listed
    {
        RegistryDownload meta;
        PackageAuthentication chain; ///< checked with the document's shasum (before any download)
        QByteArray sums, signature;  ///< the release's SHA256SUMS and its signature
        QString sumsUrl;
    };
    const Listed *find(const Archive &archive) const;

    RegistryOptions m_options;
    QList<PullRequest> m_providers;
    QList<Platform> m_platforms;
    SignatureOptions m_signature;
    QList<RequestLogEntry> m_log;
    QHash<QString, Listed> m_listed; ///< by download URL + platform
};

} // namespace provender
