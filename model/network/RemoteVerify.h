#pragma once
// Streaming verification of the archives of a network Catalog (fetchNetworkCatalog): each archive
// is downloaded once, written to a file while its SHA-256 (zh:) is computed in the same pass
// (bounded memory: the reply buffer is capped), then hashed as a zip (h1:) from that file.
// Archive requests never carry credentials; plain http: archive URLs are downloaded (as
// terraform does; NetworkMirror reports them as InsecureUrl), other schemes are refused. Retries as tofu's archive download (§6):
// connection errors, timeouts, 429 and 5xx except 501, `retries` times with exponential backoff (honouring Retry-After up to the maximum
// backoff).
//
// Verdicts as for local mirrors (decideVerdict / lock semantics), plus: 404 -> Missing
// ("unsuccessful request to <url>: 404 Not Found"), other HTTP statuses, TLS and connection
// failures -> Error with the status line or the TLS error text.

#include "model/network/HttpRunner.h"
#include "model/source/MirrorSource.h"
#include "model/verify/VerifyTypes.h"

#include <atomic>
#include <functional>

namespace provender {

struct RemoteVerifyOptions
{
    HttpSettings http;    ///< parallel downloads, inactivity timeout, CAs, http-on-loopback
    int retries = 2;      ///< tofu's default download_retry_count
    int backoffMs = 1000; ///< first retry delay (go-retryablehttp: 1 s ... 30 s)
    int maxBackoffMs = 30000;
    /// Cap on one archive download (the biggest real provider zips are a few hundred MiB at most): a
    /// larger Content-Length is refused before reading, a longer body is cut off -> Error.
    qint64 maxArchiveBytes = qint64(2) * 1024 * 1024 * 1024;
    /// Keep the downloads here (`<dir>/<host>/<ns>/<type>/<version>/<file>`, written atomically);
    /// "" = a temporary directory removed when done.
    QString cacheDir;
    ExpectedHashes expected;                         ///< extra expected hashes per provider version (lock-file semantics)
    QHash<ProviderVersionKey, QString> expectedFrom; ///< the lock files they came from (anchors)
    bool lockCoverage = false;                       ///< mark archives of provider versions `expected` lacks as not covered
    /// Called (on the calling thread) with each archive's result as soon as it is final (not
    /// Pending): for streaming results to a GUI.
    std::function<void(const ArchiveResult &result)> onResult;
};

/// `done` = bytes downloaded so far over all archives; `total` = sum of the Content-Length of the
/// downloads started so far (grows as downloads start; -1 before the first).
using RemoteProgress = std::function<void(qint64 done, qint64 total)>;

struct RemoteVerifyReport
{
    VerifyReport report; ///< one result per archive of the catalog, in catalog order
    QList<RequestLogEntry> log;
    qint64 bytesDownloaded = 0;
};

struct NetworkReadReport
{
    ArchiveReadSummary summary;
    QList<RequestLogEntry> log;
    qint64 bytesDownloaded = 0;
};

/// Downloads and hashes `archives` (their Archive::path is the URL): what a NetworkSource's
/// readArchives() does. Outcomes go to `sink` on the calling thread; verdicts are not decided
/// here (the engine's completeFromRead does it). Blocks (local event loop).
NetworkReadReport readNetworkArchives(const QList<ArchiveRef> &archives, const RemoteVerifyOptions &options, const RemoteProgress &progress,
                                      const std::atomic<bool> *cancel, const ArchiveReadSink &sink);

/// verifySource() over a NetworkSource of `catalog`. Blocks (local event loop). Hashing runs on the global thread pool. `cancel` is polled:
/// archives not finished stay Pending and summary.cancelled is set.
RemoteVerifyReport verifyNetworkCatalog(const Catalog &catalog, const RemoteVerifyOptions &options = {},
                                        const RemoteProgress &progress = {}, const std::atomic<bool> *cancel = nullptr);

} // namespace provender
