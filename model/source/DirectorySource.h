#pragma once
// A mirror laid out as a directory (tofu-formats.md §5, packed and unpacked): listed by
// scanFileSystemMirror(), archives read from disk through the hashing engine (hashArchives: the
// hash cache, a private thread pool, byte progress, cancel). Writable; indexes can be exported.
// A pulled mirror's `.provenance/` gives its releases' signed SHA256SUMS (signedRelease()).
// list() is not cancellable (the scan is parallel per provider and quick next to hashing).

#include "model/mirror/FileSystemMirror.h"
#include "model/source/MirrorSource.h"

#include <memory>

namespace provender {

class ReleaseProvenanceStore;

class DirectorySource final : public MirrorSource
{
public:
    explicit DirectorySource(QString root, ScanOptions scan = {});
    ~DirectorySource() override;

    Catalog::SourceKind kind() const override { return Catalog::SourceKind::Directory; }
    QString location() const override { return m_root; }
    SourceCapabilities capabilities() const override;
    Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) override;
    ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                    const ArchiveReadSink &sink) override;
    Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) override;
    /// ROOT/.provenance/HOST/NS/TYPE/VERSION (a pulled mirror's; checked once per release).
    const SignedRelease *signedRelease(const ProviderAddress &provider, const Version &version) const override;
    void setPinnedKeys(const QList<QByteArray> &keys) override;

private:
    QString m_root;
    ScanOptions m_scan;
    std::shared_ptr<ReleaseProvenanceStore> m_provenance;
};

} // namespace provender
