#pragma once
// The GUI-facing driver for a remote (network) mirror: one run = choose providers (typed
// addresses, a lock file, or the mirror's HTML autoindex), fetch their indexes
// (fetchNetworkCatalog), then download and verify every archive (verifyNetworkCatalog) — all on a
// worker thread. Its signals have the same shape as VerifyEngine's (archivesVerified, progress,
// finished), so a window that shows a local mirror can show a remote one by listening to a
// RemoteSession instead, plus catalogReady (the catalog to put in the tree), failed (the run
// could not start: bad URL, unreadable lock file, no listing, no providers) and requestFinished
// (one line of the per-request log, as each request ends).
//
// Signals are emitted on the thread the session lives in (the GUI thread), only for the newest
// run (a new start() cancels the previous one). A run ends with exactly one of finished() or
// failed(). Results are batched (a few batches per second). No widgets, no item models.

#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/mirror/Catalog.h"
#include "model/network/AutoindexCrawler.h"
#include "model/network/Credentials.h"
#include "model/network/HttpRunner.h"
#include "model/network/NetworkSource.h"
#include "model/verify/VerifyTypes.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QProcessEnvironment>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>

namespace provender {

/// What to open: the mirror, where its providers come from, and the connection settings.
struct RemoteRequest
{
    enum class ProviderSource { Addresses, LockFile, Autoindex };

    QString baseUrl;
    ProviderSource source = ProviderSource::Addresses;
    QList<ProviderAddress> providers; ///< Addresses
    QString lockFile;                 ///< LockFile: providers, pinned versions and hashes
    AutoindexOptions autoindex;       ///< Autoindex: depth/page limits (its http is ignored)

    QString caFile; ///< extra trusted CAs (PEM); "" = system CAs only
    bool allowHttpLoopback = false;
    QString cacheDir;           ///< keep downloads here; "" = a temporary directory
    bool useCredentials = true; ///< look up a token for the mirror host (index requests only)
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment(); ///< for TF_TOKEN_* etc.
    QString homeDir;                                                            ///< "" = the user's home
    int maxParallel = 4;
    int timeoutMs = 10000;                                       ///< inactivity timeout, also the min-rate window
    qint64 deadlineMs = HttpSettings{}.deadlineMs;               ///< total per request (0 = none)
    qint64 minBytesPerSecond = HttpSettings{}.minBytesPerSecond; ///< 0 = no rate check
    qint64 maxErrorBodyBytes = HttpSettings{}.maxErrorBodyBytes;
    qint64 maxArchiveBytes = qint64(2) * 1024 * 1024 * 1024; ///< as RemoteVerifyOptions
    qint64 maxJsonBytes = 16 * 1024 * 1024;                  ///< as NetworkMirrorOptions
    int retries = 2;
    int backoffMs = 1000;
    int maxBackoffMs = 30000;
};

/// Providers, pinned versions and expected hashes of a lock file (as `provender verify --lock`).
struct LockSelection
{
    QList<ProviderAddress> providers;
    QHash<ProviderAddress, QList<Version>> onlyVersions;
    ExpectedHashes expected;
    QStringList warnings; ///< the lock file's diagnostics
};
Result<LockSelection> lockSelection(const QString &lockFile);

/// The credential the session would use for `baseUrl` (nullopt: none, or the URL is unusable).
std::optional<Credential> mirrorCredential(const QString &baseUrl, const QProcessEnvironment &env, const QString &homeDir = QString(),
                                           QStringList *warnings = nullptr);

/// The HTTP settings of a request (parallelism, timeouts, caps, http on loopback; no CAs yet).
HttpSettings httpSettings(const RemoteRequest &request);

/// A RemoteRequest resolved into a MirrorSource (what the GUI and RemoteSession open a URL as).
struct RemoteSourceSetup
{
    std::unique_ptr<NetworkSource> source; ///< not listed yet: call list(), then verify it
    VerifyOptions verify;                  ///< the lock file's hashes (LockFile requests)
    std::optional<Credential> credential;  ///< used for index requests (never shown: maskedToken())
    QStringList notes;                     ///< warnings (URL, lock file, crawl, credentials) to show
    bool cancelled = false;                ///< the crawl was cancelled: `source` is null
};

/// Resolves `request`: checks the URL and the CA file, finds the providers (typed, from the lock
/// file, or by crawling the mirror's autoindex — which makes requests: call it off the GUI
/// thread), looks up the credential, and makes the NetworkSource with the request's limits.
/// `http` is httpSettings(request) plus anything the caller adds (a request-log hook). Fails with
/// the message to show when the request cannot be opened.
Result<RemoteSourceSetup> openRemoteSource(const RemoteRequest &request, HttpSettings http, const std::atomic<bool> *cancel = nullptr);

class RemoteSession : public QObject
{
    Q_OBJECT
public:
    explicit RemoteSession(QObject *parent = nullptr);
    /// Cancels the running session and waits for its thread.
    ~RemoteSession() override;

    /// Starts a run (cancels a previous one). Returns the new generation.
    quint64 start(const RemoteRequest &request);
    /// Cancel the current run: finished() follows with summary.cancelled set.
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }

    /// The newest run's catalog (empty before catalogReady) and the log of its requests so far.
    const Catalog &catalog() const { return m_catalog; }
    const QList<RequestLogEntry> &requestLog() const { return m_log; }
    /// The credential used for index requests of the newest run (never the token in a message).
    const std::optional<Credential> &credential() const { return m_credential; }

Q_SIGNALS:
    /// The providers' indexes are fetched: the catalog to show (archives Pending, anomalies set).
    void catalogReady(const provender::Catalog &catalog);
    /// A batch of results.
    void archivesVerified(const QList<provender::ArchiveResult> &results);
    /// Bytes downloaded so far / sum of Content-Length of the downloads started (-1 = unknown yet).
    void progress(qint64 done, qint64 total);
    /// The run ended (completed or cancelled); nothing more is emitted for it.
    void finished(const provender::VerifySummary &summary);
    /// The run could not start or fetch anything useful; nothing more is emitted for it.
    void failed(const QString &message);
    /// One request ended (completed, failed, or a redirect hop followed).
    void requestFinished(const provender::RequestLogEntry &entry);
    /// Informational lines (warnings about the URL, the lock file, the crawl, the credentials).
    void message(const QString &text);

private:
    struct Run;
    std::shared_ptr<Run> m_current;
    QList<std::shared_ptr<Run>> m_runs;
    quint64 m_generation = 0;
    bool m_running = false;
    Catalog m_catalog;
    QList<RequestLogEntry> m_log;
    std::optional<Credential> m_credential;
    QList<ArchiveResult> m_batch;
    QTimer m_flushTimer;

    void flush();
    void reap();
    /// The body of a run's thread (start()).
    void work(const std::shared_ptr<Run> &run, const RemoteRequest &request, const HttpSettings &http);
};

} // namespace provender

Q_DECLARE_METATYPE(provender::RequestLogEntry)
Q_DECLARE_METATYPE(provender::Catalog)
