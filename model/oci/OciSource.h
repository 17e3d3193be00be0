#pragma once
// An OCI registry used as an `oci_mirror`, as a MirrorSource (docs/ARCHITECTURE.md "Sources"):
// what the one browser and the verification engine need from it.
//
//   list()          per provider the repository from the template, versions from tags, platforms
//                   from each index, each platform's manifest and archive/zip layer — the listing
//                   half of verifyOciMirror (the same walk). An archive tofu would refuse before
//                   any download (two manifests for its platform, no zip layer, an oversized or
//                   corrupt manifest) is listed, and reading it reports `unavailable` = Error with
//                   tofu's words; what fails a whole version or provider is an anomaly.
//   readArchives()  each blob streamed to a temporary file (OciClient::fetchBlob: the size cap,
//                   ORAS's Content-Length / Docker-Content-Digest checks, never past the
//                   descriptor's size), hashed, removed. Bytes that do not match the digest are
//                   hashed as served, so the engine's index check (the digest's zh:) says mismatch.
//   openArchive()   one blob as a temporary file.
//
// The verdicts then come from the engine (completeFromRead), like every source's, including tofu's
// one OCI-only lock rule: lockCheckedBeforeRead() names the layer digest, which a lock file must
// list before tofu downloads at all (so an h1:-only lock fails from an OCI mirror). verifyOciMirror()
// (the CLI) is this source run through verifySource().
//
// Threads: list(), readArchives() and openArchive() may be called on different threads (the
// browser lists on one worker and verifies on another): each call makes its own clients (a
// client's HttpRunner, a QObject with timers, belongs to the thread that made it), starting from the
// credential the repository's last client ended with, so a credential helper runs once.

#include "model/oci/OciMirror.h"
#include "model/source/MirrorSource.h"

#include <QHash>

namespace provender::oci {

class OciSource final : public MirrorSource
{
public:
    /// `onlyVersions` as OciVerifyOptions::onlyVersions (from a lock file); empty: every version.
    OciSource(OciMirrorOptions mirror, QList<ProviderAddress> providers, QHash<QString, QList<Version>> onlyVersions = {});

    Catalog::SourceKind kind() const override { return Catalog::SourceKind::Network; }
    /// `oci://` + the repository template.
    QString location() const override;
    SourceCapabilities capabilities() const override;
    Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) override;
    ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                    const ArchiveReadSink &sink) override;
    Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) override;

    /// When no provider's tags could be listed, list() fails with why — the registry is
    /// unreachable, refuses the credentials, is no OCI registry (GET /v2/ checked then), or has
    /// none of the providers — instead of returning an empty catalog with anomalies (the
    /// browser's open then says so; `verify` keeps reporting anomalies and absent providers).
    void setRequireAnswer(bool require) { m_requireAnswer = require; }

    /// Every request so far (listing and reads).
    const QList<OciRequestLog> &requestLog() const { return m_log; }
    /// Providers whose repository does not exist (tofu's "provider not found"), from list().
    const QList<ProviderAddress> &absentProviders() const { return m_absent; }
    /// Repository -> where its credential came from (never the secret).
    const QHash<QString, QString> &credentials() const { return m_credentials; }
    qint64 bytesDownloaded() const { return m_counters.bytesDownloaded; }
    /// Requests, bytes, token requests so far (listing and reads).
    const OciCounters &counters() const { return m_counters; }
    /// The layer digest as zh: (tofu compares it with a lock's hashes before the download).
    std::optional<HashString> lockCheckedBeforeRead(const Archive &archive) const override;

private:
    struct Listed
    {
        QString repository; ///< registry/name
        QString digest;
        qint64 size = -1;
        QString refusal;        ///< why tofu refuses the archive before a download ("" = none)
        bool missing = false;   ///< the refusal is a 404 (Missing rather than Error)
        QString signedDocument; ///< the release's signed SHA256SUMS ("" = none)
        QString signedSha256;   ///< what it lists for the archive (hex, "" = nothing)
    };
    using Clients = QHash<QString, std::shared_ptr<OciClient>>; ///< by repository, for one call
    /// Streams a listed blob into `sink` with the repository's client in `clients` (made here, with
    /// `cancel` stopping its requests in flight, when there is none yet).
    Result<qint64> fetch(const Listed &l, const std::function<bool(const char *, qint64)> &sink, Clients &clients,
                         const std::atomic<bool> *cancel);
    /// Keeps what the call's clients ended with (credentials after a helper ran).
    void keepCredentials(const Clients &clients);
    const Listed *find(const Archive &archive) const;
    /// Why nothing could be listed (setRequireAnswer), from `listing`.
    Error nothingListed(const OciListing &listing);

    OciMirrorOptions m_mirror;
    QList<ProviderAddress> m_providers;
    QHash<QString, QList<Version>> m_onlyVersions;
    QHash<QString, Listed> m_listed;          ///< by blob URL + platform
    QHash<QString, OciCredential> m_resolved; ///< repository -> the credential its last client ended with
    QList<OciRequestLog> m_log;
    OciCounters m_counters;
    QList<ProviderAddress> m_absent;
    QHash<QString, QString> m_credentials;
    bool m_requireAnswer = false;
};

} // namespace provender::oci
