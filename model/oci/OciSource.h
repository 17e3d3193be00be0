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
// The verdicts then come from the engine (completeFromRead), like every source's. One OCI rule
// the engine cannot apply: with a lock file, tofu compares the layer digest with the lock's
// hashes *before* it downloads, so an h1:-only lock fails from an OCI mirror; the engine accepts
// the h1:. verifyOciMirror() (the CLI) applies it; docs/OCI.md names the difference.

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

    /// Every request so far (listing and reads).
    const QList<OciRequestLog> &requestLog() const { return m_log; }
    /// Providers whose repository does not exist (tofu's "provider not found"), from list().
    const QList<ProviderAddress> &absentProviders() const { return m_absent; }
    /// Repository -> where its credential came from (never the secret).
    const QHash<QString, QString> &credentials() const { return m_credentials; }
    qint64 bytesDownloaded() const { return m_counters.bytesDownloaded; }

private:
    struct Listed
    {
        QString repository; ///< registry/name
        QString digest;
        qint64 size = -1;
        QString refusal;      ///< why tofu refuses the archive before a download ("" = none)
        bool missing = false; ///< the refusal is a 404 (Missing rather than Error)
    };
    /// fetchBlob of `l` into `sink`; the repository's client is made on demand.
    Result<qint64> fetch(const Listed &l, const std::function<bool(const char *, qint64)> &sink);
    const Listed *find(const Archive &archive) const;

    OciMirrorOptions m_mirror;
    QList<ProviderAddress> m_providers;
    QHash<QString, QList<Version>> m_onlyVersions;
    QHash<QString, Listed> m_listed;                      ///< by blob URL + platform
    QHash<QString, std::shared_ptr<OciClient>> m_clients; ///< by repository
    QList<OciRequestLog> m_log;
    OciCounters m_counters;
    QList<ProviderAddress> m_absent;
    QHash<QString, QString> m_credentials;
};

} // namespace provender::oci
