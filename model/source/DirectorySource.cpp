#include "model/source/DirectorySource.h"

#include <QFile>
#include <QFileInfo>

namespace provender {

MirrorSource::~MirrorSource() = default;

TrustAnchor MirrorSource::indexAnchor(const Archive &archive) const
{
    return TrustAnchor{TrustAnchor::Kind::OwnIndex, archive.declared ? archive.declared->indexFile : QString()};
}

DirectorySource::DirectorySource(QString root, ScanOptions scan) : m_root(std::move(root)), m_scan(scan) {}

SourceCapabilities DirectorySource::capabilities() const
{
    SourceCapabilities c;
    c.writable = QFileInfo(m_root).isWritable();
    c.indexExport = true;
    c.hashCache = true;
    c.parallelReads = true;
    return c;
}

Result<Catalog> DirectorySource::list(const std::atomic<bool> *)
{
    return scanFileSystemMirror(m_root, m_scan);
}

ArchiveReadSummary DirectorySource::readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                                 const ArchiveReadSink &sink)
{
    QList<HashRequest> requests;
    requests.reserve(archives.size());
    for (const ArchiveRef &ref : archives)
        requests.append(HashRequest{ref.archive->path, ref.archive->size});
    const HashRunSummary hashed = hashArchives(requests, options, [&](qsizetype index, HashOutcome &&outcome) {
        ArchiveRead read;
        read.hashes = std::move(outcome.hashes);
        read.fromCache = outcome.fromCache;
        sink(index, std::move(read));
    });
    ArchiveReadSummary summary;
    summary.hashed = hashed.hashed;
    summary.cacheHits = hashed.cacheHits;
    summary.bytesHashed = hashed.bytesHashed;
    summary.bytesRead = hashed.bytesHashed;
    summary.cancelled = hashed.cancelled;
    summary.cacheWarning = hashed.cacheWarning;
    return summary;
}

Result<std::unique_ptr<QIODevice>> DirectorySource::openArchive(const Archive &archive, const std::atomic<bool> *)
{
    if (!archive.present || archive.path.isEmpty())
        return makeError(ErrorCode::NotFound, QStringLiteral("absent from the mirror: %1").arg(archive.fileName));
    if (archive.layout != ArchiveLayout::Packed)
        return makeError(ErrorCode::Unsupported,
                         QStringLiteral("%1 is an unpacked package directory, not one stream of bytes").arg(archive.path));
    auto file = std::make_unique<QFile>(archive.path);
    if (!file->open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, QStringLiteral("cannot open %1: %2").arg(archive.path, file->errorString()));
    return std::unique_ptr<QIODevice>(std::move(file));
}

} // namespace provender
