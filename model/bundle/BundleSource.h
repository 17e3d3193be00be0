#pragma once
// A bundle file as a MirrorSource: listed and read in place (openBundle(), BundleMirror.h), never
// extracted. readArchives() is one streaming pass through the container that hashes every entry
// on `jobs` threads while it reads (plus a second pass for the zips it must spool); an entry that
// is not a readable zip comes with its bytes' SHA-256 (`bytesZh`, decided checksum first); its SHA256SUMS is a second own anchor
// (checksumsAnchor); a `.provenance/` it carries gives the releases' signed SHA256SUMS
// (signedRelease). openArchive() copies one member to a temporary file the device removes.
// Read-only: no index export, no cache (the pass reads the container anyway).

#include "model/bundle/BundleFormat.h"
#include "model/bundle/BundleMirror.h"
#include "model/source/MirrorSource.h"

#include <QDateTime>

#include <memory>

namespace provender {

class ReleaseProvenanceStore;

class BundleSource final : public MirrorSource
{
public:
    explicit BundleSource(const QString &path, BundleLimits limits = {});

    Catalog::SourceKind kind() const override { return Catalog::SourceKind::Bundle; }
    QString location() const override { return m_path; }
    SourceCapabilities capabilities() const override { return {}; }
    Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) override;
    std::optional<TrustAnchor> checksumsAnchor() const override;
    ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                    const ArchiveReadSink &sink) override;
    Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) override;

    /// The release's proof the bundle carries (BundleContents::provenance; list() sets it).
    const SignedRelease *signedRelease(const ProviderAddress &provider, const Version &version) const override;
    void setPinnedKeys(const QList<QByteArray> &keys) override;
    void setProvenance(const QHash<QString, QByteArray> &files);

    /// "" or "<folder>/": where the mirror tree sits in the bundle (known after list()).
    void setMirrorPrefix(const QString &prefix) { m_prefix = prefix; }
    /// Read ahead: list() makes the hashing pass too (one pass over the container instead of two
    /// when the archives are read right after listing, as `provender verify BUNDLE` does), and the
    /// next readArchives() answers from it if the file is unchanged. `progress` reports that pass.
    void setReadAhead(bool readAhead, BundleProgress progress = {})
    {
        m_readAhead = readAhead;
        m_readAheadProgress = std::move(progress);
    }
    /// Hashing threads of the read-ahead pass (readArchives() takes its options' `jobs`); 0 = all cores.
    void setJobs(int jobs) { m_jobs = jobs; }
    /// What the last readArchives() pass found besides the archives' hashes: the entry problems,
    /// every SHA256SUMS line, the manifest (null before a pass, or when it failed).
    const BundleContents *lastRead() const { return m_lastRead.get(); }

private:
    QString m_path; ///< absolute
    BundleLimits m_limits;
    QString m_prefix;
    QList<QByteArray> m_pinnedKeys;
    std::shared_ptr<ReleaseProvenanceStore> m_provenance;
    std::shared_ptr<const BundleContents> m_lastRead;
    bool m_readAhead = false;
    int m_jobs = 0;
    BundleProgress m_readAheadProgress;
    std::shared_ptr<const BundleContents> m_ahead; ///< the pass list() made, until readArchives() uses it
    QDateTime m_aheadModified;
    qint64 m_aheadSize = -1;
};

} // namespace provender
