#pragma once
// readArchives() for sources whose archives are downloads (RegistrySource, OciSource): the one
// loop "refuse before download, download to a temporary file while hashing it (StreamedArchive),
// the source's checks on the bytes, sink", with up to `jobs` downloads at once.
//
//   - `refuse(i)`: what the source decides before any byte is requested (a chain that does not
//     hold, a layer tofu would not fetch), or nullopt to download;
//   - `fetch(i, sink, cancel)`: streams archive i into `sink` (false: stop), blocking, on the
//     thread that calls it (the helper's workers when jobs > 1: make any client there); an error
//     with ErrorCode::NotFound is Missing, any other is Error — unless `bytesKept` says the
//     bytes received are to be judged (an OCI blob that does not match its digest);
//   - `check(i, bytes, read)`: after a complete download, the source's own checks on the SHA-256
//     and size (read.hashes already holds the streamed h1:/zh:, or the hashing error with
//     read.bytesZh set); it may turn the read into a refusal.
//
// The sink and the progress are called on the calling thread, as archives are decided; on cancel,
// archives not yet decided are not delivered. jobs <= 1: everything runs on the calling thread.

#include "model/source/MirrorSource.h"

#include <functional>
#include <optional>

namespace provender {

struct DownloadedBytes
{
    QByteArray sha256; ///< raw SHA-256 of the bytes received
    qint64 size = 0;
};

struct ArchiveDownloadSteps
{
    /// Downloads at once; 1: one after the other on the calling thread (a source whose clients
    /// must stay on it).
    int maxParallel = 1;
    std::function<std::optional<ArchiveRead>(qsizetype index)> refuse;
    std::function<Result<void>(qsizetype index, const std::function<bool(const char *, qint64)> &sink, const std::atomic<bool> *cancel)>
        fetch;
    /// A failed fetch whose bytes are still judged (hashed, then `check`): true keeps them.
    std::function<bool(const Error &error)> bytesKept;
    std::function<void(qsizetype index, const Result<void> &fetched, const DownloadedBytes &bytes, ArchiveRead &read)> check;
};

ArchiveReadSummary downloadArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options, const ArchiveReadSink &sink,
                                    const ArchiveDownloadSteps &steps);

} // namespace provender
