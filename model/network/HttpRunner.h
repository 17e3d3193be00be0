#pragma once
// The one HTTP engine of Provender: the mirror client, the archive verifier, the registry client
// and the OCI client (OciClient) all send their requests here. A queue of jobs (GET by default;
// HEAD, PUT, POST, PATCH, DELETE with a body from memory or streamed from a QIODevice) run with a
// bounded number in flight on one QNetworkAccessManager, in a local event loop (callable from the
// main thread or a worker thread). Every request goes over HTTP/1.1 (see startRequest).
// Redirects of GET and HEAD are followed here (not by Qt) so that the hop limit, the "never less
// safe" rule and the Authorization header rule are ours; other methods get the 3xx as their answer:
//   - at most `maxRedirects` hops, then "too many redirects";
//   - https -> http refused; http only to a loopback host and only when allowed;
//   - Authorization kept only for the origin (scheme, host, port) of the job's first URL: stricter
//     than Go's net/http, which keeps it for the same host or a subdomain.
// TLS peer verification is always on; extra CAs are added to the system ones. An inactivity
// timeout (QNetworkRequest::setTransferTimeout plus a backstop timer) ends stalled requests.

#include "model/core/Result.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QString>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
class QTimer;
class QEventLoop;
class QIODevice;

namespace provender {

struct RequestLogEntry;

struct HttpSettings
{
    int maxParallel = 4;
    int timeoutMs = 10000;           ///< inactivity timeout per request; also the min-rate window
    qint64 deadlineMs = 3600 * 1000; ///< total time of one request, redirects included (0 = none)
    /// Once the response headers are in, each `timeoutMs` window must bring at least
    /// minBytesPerSecond × timeoutMs / 1000 body bytes, or the request fails (0 = no check).
    qint64 minBytesPerSecond = 1024;
    /// A response's headers must be complete within this time of its request (each redirect hop;
    /// for a request with a body, of its last body bytes sent; 0 = no limit): bytes that trickle in
    /// before the headers are done are not rate-checked.
    int headersTimeoutMs = 60000;
    qint64 maxErrorBodyBytes = 64 * 1024; ///< cap on a non-200 body (error page, redirect body)
    /// How often a job whose sink is not ready (HttpJob::ready) is asked again without a wake
    /// (0 = only when it calls the wake).
    int pausedRecheckMs = 100;
    int maxRedirects = 5;                  ///< tofu's network mirror client; OciClient uses 10 (Go's net/http default, ORAS)
    bool allowHttpLoopback = false;        ///< http:// only to 127.0.0.0/8, ::1, localhost
    QList<QSslCertificate> caCertificates; ///< trusted in addition to the system CAs
    /// The system CAs; nullopt = systemTrustStore() of the process environment (TrustStore.h).
    std::optional<QList<QSslCertificate>> systemCertificates;
    QByteArray userAgent;
    QByteArray terraformVersion; ///< X-Terraform-Version ("" = not sent)
    /// Called (on the runner's thread) with each log line as soon as it is recorded: every
    /// completed or failed request and every redirect hop followed.
    std::function<void(const RequestLogEntry &entry)> onRequestLogged;
};

/// One line of the per-request log (for diagnosing a mirror). Never holds a token.
struct RequestLogEntry
{
    QString method = QStringLiteral("GET");
    QUrl url;
    int status = 0;       ///< 0: no HTTP response
    qint64 bytes = 0;     ///< body bytes received
    qint64 bytesSent = 0; ///< request body bytes sent
    qint64 elapsedMs = 0;
    bool authorization = false; ///< an Authorization header was sent
    QString error;              ///< "" when the exchange completed
    /// An answer the protocol expects and the client went on from, not a failure: an OCI
    /// registry's 401 challenge to an anonymous request, a 404 of a lookup of something that
    /// may be absent (a referrers list, a blob or manifest checked before it is pushed).
    bool expected = false;
};

struct HttpOutcome
{
    enum class Failure { None, Network, Timeout, Tls, TooLarge, Redirect, Refused, Cancelled, Sink };
    Failure failure = Failure::None;
    QString errorText; ///< for failures: what went wrong (TLS errors listed)
    QUrl finalUrl;     ///< after redirects
    int status = 0;
    QByteArray reason; ///< HTTP reason phrase
    QByteArray body;   ///< only when the job collects the body (collectBody, collectErrorBody)
    qint64 bytes = 0;
    qint64 bytesSent = 0;                  ///< request body bytes sent (HttpJob::body, bodyDevice)
    qint64 contentLength = -1;             ///< Content-Length of a 200 (-1 = not given)
    bool truncated = false;                ///< the 200 body was cut at maxBodyBytes (HttpJob::truncateAtMax)
    QHash<QByteArray, QByteArray> headers; ///< the response's headers (lower-case names)
    QByteArray header(const char *name) const { return headers.value(QByteArray(name)); }
    QByteArray contentType() const { return header("content-type"); }
    QByteArray retryAfter() const { return header("retry-after"); }

    bool ok() const { return failure == Failure::None && status == 200; }
    /// "404 Not Found"
    QString statusLine() const;
};

class HttpRunner;

/// Wakes an HttpRunner from any thread: a sink that refused data (HttpJob::ready) calls it once it
/// has room, and the runner reads the paused replies again at once. Copies share one target;
/// calls before the runner has handled the last one are merged; after the runner is gone a call
/// does nothing.
class HttpWake
{
public:
    void operator()() const;

private:
    friend class HttpRunner;
    struct Target;
    std::shared_ptr<Target> m_target;
};

struct HttpJob
{
    QUrl url;
    /// GET, HEAD, PUT, POST, PATCH, DELETE. Redirects are followed only for GET and HEAD (as
    /// Go's net/http does for a request with a body it cannot replay, and as ORAS relies on).
    QByteArray method = "GET";
    QList<std::pair<QByteArray, QByteArray>> headers; ///< extra request headers (Accept, Content-Type, …)
    QByteArray body;                                  ///< request body (not for GET/HEAD) ...
    /// ... or streamed from here: `bodySize` bytes from `bodyStart` (the device must stay open
    /// until onDone; never read into memory as a whole).
    QIODevice *bodyDevice = nullptr;
    qint64 bodyStart = 0;
    qint64 bodySize = 0;
    /// Called as the request body is sent, with the bytes sent so far.
    std::function<void(qint64 sent)> onUploadProgress;
    /// "Bearer ..." or "": sent only over https to the origin of `url` (never after a redirect
    /// to another scheme, host or port; never over http, but see authorizationOverLoopbackHttp).
    QByteArray authorization;
    /// http: to any host is allowed (archive downloads: terraform fetches them too; the hash
    /// protects the content). Otherwise http: only to loopback with allowHttpLoopback.
    bool allowPlainHttp = false;
    /// http: to a loopback host (with HttpSettings::allowHttpLoopback) may carry `authorization`
    /// (a plain-http local OCI registry); the mirror never sends a token over http.
    bool authorizationOverLoopbackHttp = false;
    bool collectBody = false; ///< keep the body of a 200 in HttpOutcome::body
    /// Keep the body of any other answer (an OCI error document) in HttpOutcome::body, within
    /// HttpSettings::maxErrorBodyBytes.
    bool collectErrorBody = false;
    /// A 200 body over maxBodyBytes is cut there and the job ends without failure
    /// (HttpOutcome::truncated) instead of Failure::TooLarge; no Content-Length check first.
    bool truncateAtMax = false;
    /// Cap on the body of a 200 (-1 = unlimited): a larger Content-Length is refused before any
    /// data is read, a body without one is cut off at the cap (Failure::TooLarge).
    qint64 maxBodyBytes = -1;
    /// Receives the body of a 200 as it arrives; return false to abort (Failure::Sink).
    std::function<bool(const char *data, qint64 size)> onData;
    /// Backpressure (optional): false while onData would have to wait (a hashing queue is full).
    /// The runner then leaves the body in the reply's bounded buffer (Qt stops reading the socket)
    /// and serves the other requests instead of blocking its one thread in onData with every
    /// other download behind it. A sink that answers false keeps `wake` and calls it (from any
    /// thread) once it has room (StreamedArchive::canWrite does); the runner also asks again every
    /// HttpSettings::pausedRecheckMs.
    std::function<bool(const HttpWake &wake)> ready;
    /// Called once a 200 response's headers are in (before any data), e.g. to (re)open a sink.
    std::function<void(const HttpOutcome &headers)> onStart;
    /// Looked at once a 200 response's headers are in, before any data (and before onStart): a
    /// non-empty answer refuses the response (Failure::Refused with that text) and aborts it.
    std::function<QString(const HttpOutcome &headers)> refuse;
    /// Whether the answer is one the protocol expects (RequestLogEntry::expected), given whether
    /// an Authorization header was sent. Asked only for a request that got an HTTP answer.
    std::function<bool(const HttpOutcome &outcome, bool authorization)> expected;
    std::function<void(HttpOutcome &&outcome)> onDone;
};

/// Whether `url` may be a mirror base URL: https, or http to loopback when allowed; no user info.
bool httpUrlAllowed(const QUrl &url, bool allowHttpLoopback, QString *why = nullptr);
bool isLoopbackHost(const QString &host);
/// Why a job may not request `url` ("" = it may): the rules above (scheme, host, user info, http).
QString requestUrlProblem(const QUrl &url, bool allowPlainHttp, bool allowHttpLoopback);
/// What to say to the user about a URL that has user info (a secret in the URL): how to give a
/// token instead.
QString userInfoRefusal();
/// `url` for messages and logs: user info removed, at most 200 characters (data: URLs are long).
QString displayUrl(const QUrl &url);
/// A URL as typed, for messages: user info (anything before '@' in the authority) replaced by
/// "…", whether or not the text parses.
QString redactUrlText(const QString &text);
/// Same scheme, host and port (default ports filled in).
bool sameOrigin(const QUrl &a, const QUrl &b);

class HttpRunner : public QObject
{
    Q_OBJECT
    friend class HttpWake; // calls resumePaused() on this thread
public:
    explicit HttpRunner(HttpSettings settings, QObject *parent = nullptr);
    ~HttpRunner() override;

    void enqueue(HttpJob job);
    /// Run the event loop until no job is queued or in flight (callbacks may enqueue more, or
    /// schedule some with `schedule`). `cancel` is polled; on cancel every job ends as Cancelled.
    void run(const std::atomic<bool> *cancel = nullptr);
    /// Enqueue `job` after `delayMs` (retries with backoff); run() waits for it.
    void schedule(HttpJob job, int delayMs);
    /// Keeps run() going while outside work (hashing) is pending; call done() when it ends.
    void holdOpen() { ++m_external; }
    void releaseHold();
    bool isCancelled() const { return m_cancelled; }

    const QList<RequestLogEntry> &log() const { return m_log; }

private:
    struct Active;
    HttpSettings m_settings;
    QSslConfiguration m_ssl;
    QNetworkAccessManager *m_nam = nullptr;
    QList<HttpJob> m_queue;
    QList<std::shared_ptr<Active>> m_active;
    QList<RequestLogEntry> m_log;
    int m_scheduled = 0;
    int m_external = 0;
    QList<std::shared_ptr<Active>> m_paused; ///< replies left unread while their job is not ready
    QTimer *m_resume = nullptr;              ///< asks the paused jobs again (pausedRecheckMs)
    HttpWake m_wake;                         ///< given to every ready(): resumePaused() from any thread
    bool m_cancelled = false;
    const std::atomic<bool> *m_cancel = nullptr; ///< run()'s, while it runs
    QEventLoop *m_loop = nullptr;

    void pump();
    void startRequest(const std::shared_ptr<Active> &a);
    /// Sends `request` with the job's method and body.
    QNetworkReply *sendRequest(QNetworkRequest &request, const HttpJob &job);
    /// Reads what the reply has into the job; stops early while the job is not ready (unless
    /// `drain`: the reply has finished and its rest must be taken).
    void onReadyRead(const std::shared_ptr<Active> &a, bool drain = false);
    void pauseReading(const std::shared_ptr<Active> &a);
    void resumePaused();
    void onFinished(const std::shared_ptr<Active> &a);
    void finish(const std::shared_ptr<Active> &a, HttpOutcome::Failure failure, const QString &text);
    void abortReply(const std::shared_ptr<Active> &a, HttpOutcome::Failure failure, const QString &text);
    /// A single-shot timer (a child of the runner) that ends `a`'s request as a Timeout, `why`.
    QTimer *timeoutTimer(const std::shared_ptr<Active> &a, const QString &why);
    void maybeQuit();
    /// Cancels every job when run()'s flag is set (polled, and looked at on upload progress).
    void checkCancel();
};

} // namespace provender
