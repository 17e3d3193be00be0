#pragma once
// The one hashing engine. Every path that hashes provider packages goes through hashArchives():
// verify (verifyCatalog, VerifyEngine), lock add-hashes / upgrade / check / diff --mirror and the
// lock windows (prehashArchives, ArchiveHashing.h), index (exportIndexes), bundle create and import.
//
// A run: stat every request and answer the unchanged ones from the HashCache (one range scan of
// the cache for a large run), then hash the rest on a private pool of `jobs` threads (all cores by
// default, largest first), each package by hashPackage(). Outcomes are values; they reach the caller on the
// calling thread, as they are decided. Byte progress over the whole run (cache hits count at
// once) is reported on the calling thread; a cancel (the progress callback returning false, or
// the `cancel` flag set from any thread) stops queued packages from starting and cancels the
// running ones at their next progress point.
//
// A package is stored in the cache only when its stamp (HashCache.h) was the same before and
// after hashing it, so a file rewritten while it was hashed is never cached.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace provender {

/// One package to hash: a zip file or an unpacked package directory.
struct HashRequest
{
    QString path;     ///< absolute; the same path twice is hashed once
    qint64 size = -1; ///< on-disk bytes, for progress only (-1: unknown, counted as 0)
};

struct HashRunOptions
{
    int jobs = 0;         ///< hashing threads; 0 = all cores (QThread::idealThreadCount())
    bool useCache = true; ///< false: hash everything (the cache is neither read nor written)
    QString cacheFile;    ///< "" = HashCache::defaultPath()
    /// Bytes done / total over the run, on the calling thread, at most ~10 times a second (and
    /// once at the end). Returning false cancels. The same type a single package's hashing takes.
    HashProgress progress;
    const std::atomic<bool> *cancel = nullptr; ///< polled; may be set from any thread
};

struct HashOutcome
{
    /// The hashes, or why not: a stat or hashing failure, or ErrorCode::Cancelled.
    Result<PackageHashes> hashes = makeError(ErrorCode::Cancelled, QStringLiteral("cancelled before it was hashed"));
    bool fromCache = false;
};

struct HashRunSummary
{
    int requests = 0;       ///< distinct paths asked for
    int hashed = 0;         ///< hashed in this run (successfully or not)
    int cacheHits = 0;      ///< answered from the cache
    qint64 bytesHashed = 0; ///< on-disk bytes of the packages hashed successfully
    bool cancelled = false;
    QString cacheWarning; ///< why the cache is off or was recreated ("" when fine)
};

/// Called on the calling thread once per request that is decided: cache hits and stat failures
/// first, in request order, then hashed packages as they finish. Requests left undone by a
/// cancel are not delivered (they keep HashOutcome's default, Cancelled).
using HashOutcomeSink = std::function<void(qsizetype index, HashOutcome &&outcome)>;

/// Streaming form (the verification engine uses it to decide verdicts as hashes arrive).
HashRunSummary hashArchives(const QList<HashRequest> &requests, const HashRunOptions &options, const HashOutcomeSink &sink);

struct HashRunReport
{
    QList<HashOutcome> outcomes; ///< one per request, same order
    HashRunSummary summary;
};

/// Hashes every request; blocks.
HashRunReport hashArchives(const QList<HashRequest> &requests, const HashRunOptions &options = {});

/// Progress and cancel of a run on a worker thread, shared with the window that shows it: the
/// run writes `done`/`total`, the window polls them (a timer, no signal per block) and sets
/// `cancel` (e.g. when it closes). Hold it in a shared_ptr captured by the worker.
struct SharedHashProgress
{
    std::atomic<qint64> done{0};
    std::atomic<qint64> total{0};
    std::atomic<bool> cancel{false};

    /// Points options.progress and options.cancel at this object (which must outlive the run).
    void attach(HashRunOptions &options);
    /// 0..100 (0 before the run has reported).
    int percent() const;
};

} // namespace provender
