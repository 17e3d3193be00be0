#pragma once
// A mirror laid out as a directory (tofu-formats.md §5, packed and unpacked): listed by
// scanFileSystemMirror(), archives read from disk through the hashing engine (hashArchives: the
// hash cache, a private thread pool, byte progress, cancel). Writable; indexes can be exported.
// list() is not cancellable (the scan is parallel per provider and quick next to hashing).

#include "model/mirror/FileSystemMirror.h"
#include "model/source/MirrorSource.h"

namespace provender {

class DirectorySource final : public MirrorSource
{
public:
    explicit DirectorySource(QString root, ScanOptions scan = {});

    Catalog::SourceKind kind() const override { return Catalog::SourceKind::Directory; }
    QString location() const override { return m_root; }
    SourceCapabilities capabilities() const override;
    Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) override;
    ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                    const ArchiveReadSink &sink) override;
    Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) override;

private:
    QString m_root;
    ScanOptions m_scan;
};

} // namespace provender
