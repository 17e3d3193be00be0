#include "model/network/HttpRunner.h"

#include "model/core/Logging.h"

#include "model/network/TrustStore.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>
#include <QTimer>

#include <limits>
#include <mutex>

namespace provender {

namespace {

/// Go's http.StatusText for the codes a mirror is likely to send (HTTP/2 has no reason phrase;
/// Go prints "404 Not Found" whatever the protocol).
QByteArray statusText(int code)
{
    switch (code) {
    case 200: return "OK";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 410: return "Gone";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return {};
    }
}

/// The response's headers, names in lower case.
QHash<QByteArray, QByteArray> headersOf(const QNetworkReply *reply)
{
    QHash<QByteArray, QByteArray> headers;
    for (const QNetworkReply::RawHeaderPair &h : reply->rawHeaderPairs())
        headers.insert(h.first.toLower(), h.second);
    return headers;
}

/// Ends a job that never ran: its onDone (if any) gets a Cancelled outcome.
void endCancelled(const HttpJob &job)
{
    HttpOutcome o;
    o.finalUrl = job.url;
    o.failure = HttpOutcome::Failure::Cancelled;
    o.errorText = QStringLiteral("cancelled");
    if (job.onDone)
        job.onDone(std::move(o));
}

} // namespace

QString HttpOutcome::statusLine() const
{
    const QByteArray text = reason.isEmpty() ? statusText(status) : reason;
    return text.isEmpty() ? QString::number(status) : QStringLiteral("%1 %2").arg(status).arg(QString::fromLatin1(text));
}

bool isLoopbackHost(const QString &host)
{
    QString h = host;
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    const QHostAddress address(h);
    if (!address.isNull())
        return address.isLoopback();
    return h.compare(QLatin1StringView("localhost"), Qt::CaseInsensitive) == 0;
}

QString userInfoRefusal()
{
    return QStringLiteral("the URL contains a user name or password (user info). Provender never sends a secret that is "
                          "part of a URL (it would show in logs, lists and settings): remove it and give the token as tofu "
                          "and terraform take it, in a credentials \"HOST\" { token = \"...\" } block of the CLI "
                          "configuration (TF_CLI_CONFIG_FILE, ~/.tofurc, ~/.terraformrc), in credentials.tfrc.json, or in "
                          "the environment variable TF_TOKEN_<host> (dots as _, dashes as __)");
}

QString displayUrl(const QUrl &url)
{
    QString text = url.adjusted(QUrl::RemoveUserInfo).toDisplayString();
    if (text.size() > 200)
        text = text.left(200) + QStringLiteral("… (%1 characters)").arg(text.size());
    return text;
}

QString redactUrlText(const QString &text)
{
    const qsizetype scheme = text.indexOf(QLatin1StringView("://"));
    const qsizetype start = scheme >= 0 ? scheme + 3 : 0;
    qsizetype end = text.size();
    for (const QChar c : {QLatin1Char('/'), QLatin1Char('?'), QLatin1Char('#')}) {
        const qsizetype i = text.indexOf(c, start);
        if (i >= 0 && i < end)
            end = i;
    }
    const qsizetype at = text.lastIndexOf(QLatin1Char('@'), end - 1);
    if (at < start)
        return text;
    return text.left(start) + QStringLiteral("…@") + text.mid(at + 1);
}

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    const QString sa = a.scheme().toLower(), sb = b.scheme().toLower();
    auto defaultPort = [](const QString &scheme) { return scheme == QLatin1StringView("https") ? 443 : 80; };
    return sa == sb && a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && a.port(defaultPort(sa)) == b.port(defaultPort(sb));
}

bool httpUrlAllowed(const QUrl &url, bool allowHttpLoopback, QString *why)
{
    const QString scheme = url.scheme().toLower();
    if (url.host().isEmpty()) {
        if (why)
            *why = QStringLiteral("the URL has no host");
        return false;
    }
    if (!url.userInfo().isEmpty()) {
        if (why)
            *why = userInfoRefusal();
        return false;
    }
    if (scheme == QLatin1StringView("https"))
        return true;
    if (scheme == QLatin1StringView("http")) {
        if (allowHttpLoopback && isLoopbackHost(url.host()))
            return true;
        if (why)
            *why = allowHttpLoopback ? QStringLiteral("http: is allowed only for a loopback address (127.0.0.1, ::1, localhost)")
                                     : QStringLiteral("the mirror must be at an https: URL (http: is allowed only for a "
                                                      "loopback address with --allow-http-loopback)");
        return false;
    }
    if (why)
        *why = QStringLiteral("the mirror must be at an https: URL");
    return false;
}

QString requestUrlProblem(const QUrl &url, bool allowPlainHttp, bool allowHttpLoopback)
{
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1StringView("https") && scheme != QLatin1StringView("http"))
        return QStringLiteral("only http: and https: URLs are requested, not %1 (nothing was read)")
            .arg(scheme.isEmpty() ? QStringLiteral("a URL without a scheme") : scheme + QLatin1Char(':'));
    if (url.host().isEmpty())
        return QStringLiteral("the URL has no host");
    if (!url.userInfo().isEmpty())
        return userInfoRefusal();
    if (scheme == QLatin1StringView("http") && !allowPlainHttp && !(allowHttpLoopback && isLoopbackHost(url.host())))
        return allowHttpLoopback ? QStringLiteral("http: is allowed only for a loopback address (127.0.0.1, ::1, localhost)")
                                 : QStringLiteral("http: is not allowed here (only https:, or http: to a loopback address "
                                                  "with --allow-http-loopback)");
    return {};
}

struct HttpRunner::Active
{
    HttpJob job;
    QUrl url;
    QByteArray authorization;
    int hops = 0;
    QPointer<QNetworkReply> reply;
    QTimer *watchdog = nullptr;
    QTimer *deadline = nullptr; ///< the whole job, redirects included
    QTimer *rate = nullptr;     ///< the min-rate window, running once a response's headers are in
    QTimer *headers = nullptr;  ///< until a response's headers are complete
    qint64 windowBytes = 0;     ///< body bytes read in the current rate window
    bool headersIn = false;
    qint64 otherBodyBytes = 0; ///< bytes of a non-200 body read (and dropped) so far
    QElapsedTimer elapsed;
    HttpOutcome outcome;
    QStringList sslErrors;
    bool started = false;
    bool done = false;
    std::optional<HttpOutcome::Failure> abortFailure;
    QString abortText;
};

struct HttpWake::Target
{
    std::mutex mutex;
    HttpRunner *runner = nullptr; ///< nullptr once the runner is gone
    std::atomic<bool> posted = false;
};

void HttpWake::operator()() const
{
    if (!m_target || m_target->posted.exchange(true))
        return; // one queued resumePaused() serves every wake before it runs
    const std::lock_guard lock(m_target->mutex);
    if (HttpRunner *runner = m_target->runner)
        QMetaObject::invokeMethod(
            runner,
            [runner, target = m_target] {
                target->posted = false;
                runner->resumePaused();
            },
            Qt::QueuedConnection);
}

HttpRunner::HttpRunner(HttpSettings settings, QObject *parent)
    : QObject(parent),
      m_settings(std::move(settings)),
      m_nam(new QNetworkAccessManager(this))
{
    m_wake.m_target = std::make_shared<HttpWake::Target>();
    m_wake.m_target->runner = this;
    m_ssl = QSslConfiguration::defaultConfiguration();
    m_ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    // The system CAs as tofu/terraform (Go's crypto/x509) find them, then --ca-file. When Go's
    // rules find nothing and neither SSL_CERT_FILE nor SSL_CERT_DIR is set (not a usual Linux),
    // Qt's own system store stays in use.
    bool replace = true;
    QList<QSslCertificate> system;
    if (m_settings.systemCertificates) {
        system = *m_settings.systemCertificates;
    } else {
        const TrustStore &store = systemTrustStore();
        system = store.certificates;
        replace = !system.isEmpty() || store.fromEnvironment;
    }
    if (replace)
        m_ssl.setCaCertificates(system + m_settings.caCertificates);
    else if (!m_settings.caCertificates.isEmpty())
        m_ssl.addCaCertificates(m_settings.caCertificates);
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_nam->setAutoDeleteReplies(false);
}

HttpRunner::~HttpRunner()
{
    {
        const std::lock_guard lock(m_wake.m_target->mutex);
        m_wake.m_target->runner = nullptr; // posted calls die with the object (~QObject)
    }
    for (const auto &a : std::as_const(m_active))
        if (a->reply) {
            a->done = true;
            a->reply->disconnect(this);
            a->reply->abort();
            a->reply->deleteLater();
        }
}

void HttpRunner::enqueue(HttpJob job)
{
    m_queue.append(std::move(job));
    pump();
}

void HttpRunner::schedule(HttpJob job, int delayMs)
{
    ++m_scheduled;
    QTimer::singleShot(std::max(0, delayMs), this, [this, job = std::move(job)]() mutable {
        --m_scheduled;
        if (m_cancelled) {
            endCancelled(job);
            maybeQuit();
            return;
        }
        enqueue(std::move(job));
    });
}

void HttpRunner::releaseHold()
{
    --m_external;
    pump();
    maybeQuit();
}

void HttpRunner::pump()
{
    if (m_cancelled) {
        const QList<HttpJob> queued = std::exchange(m_queue, {});
        for (const HttpJob &job : queued)
            endCancelled(job);
        return;
    }
    while (m_active.size() < std::max(1, m_settings.maxParallel) && !m_queue.isEmpty()) {
        auto a = std::make_shared<Active>();
        a->job = m_queue.takeFirst();
        a->url = a->job.url;
        a->authorization = a->job.authorization;
        m_active.append(a);
        a->elapsed.start();
        const QString problem = requestUrlProblem(a->url, a->job.allowPlainHttp, m_settings.allowHttpLoopback);
        if (!problem.isEmpty()) { // nothing is requested; ends on the next turn of the event loop
            QTimer::singleShot(0, this, [this, a, problem] {
                finish(a, HttpOutcome::Failure::Refused, QStringLiteral("refused to request %1: %2").arg(displayUrl(a->url), problem));
            });
            continue;
        }
        if (m_settings.deadlineMs > 0) {
            a->deadline = timeoutTimer(
                a,
                QStringLiteral("timed out: the request took longer than its total deadline of %1 s").arg(m_settings.deadlineMs / 1000.0));
            a->deadline->start(int(std::min<qint64>(m_settings.deadlineMs, std::numeric_limits<int>::max())));
        }
        startRequest(a);
    }
}

void HttpRunner::startRequest(const std::shared_ptr<Active> &a)
{
    QNetworkRequest request(a->url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    // Every request goes over HTTP/1.1, documents and archives alike:
    // - a body streamed into a sink (an archive being hashed or stored): there
    //   QNetworkReply::setReadBufferSize below stops reading the socket while the sink is behind,
    //   so memory stays bounded whatever the archive size. Qt's HTTP/2 ignores the read buffer
    //   size and acknowledges DATA frames as they arrive, so a sink slower than the network made
    //   the reply buffer hold most of the archive (bench/remote: +66 MiB for 4 x 128 MiB with
    //   --jobs 1, growing with the size; issue 16);
    // - documents: Qt 6.4's HTTP/2 loses requests when a server ends a connection with GOAWAY
    //   (nginx after keepalive_requests, 1,000 by default; CDNs when they rotate connections).
    //   The streams above the last one the server accepted fail with ContentReSendError and can
    //   be sent again, but a request queued while the connection is going away can stay queued
    //   on it and is never sent (no data until the inactivity timeout): a new manager per GOAWAY
    //   and holding new work back until the re-sent requests were answered still left requests
    //   stranded (tst_network_streaming::connectionsEndedByTheServerLoseNothing, 2 requests a
    //   connection). Over HTTP/1.1 a server ends a connection with "Connection: close" after a
    //   response, and Qt sends what was queued on a new connection.
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setTransferTimeout(m_settings.timeoutMs);
    request.setSslConfiguration(m_ssl);
    if (!m_settings.userAgent.isEmpty())
        request.setRawHeader("User-Agent", m_settings.userAgent);
    if (!m_settings.terraformVersion.isEmpty())
        request.setRawHeader("X-Terraform-Version", m_settings.terraformVersion);
    for (const auto &[name, value] : std::as_const(a->job.headers))
        request.setRawHeader(name, value);
    // The token goes only over https (or http to loopback where the job allows it) to the origin
    // of the job's first URL; once dropped (a redirect elsewhere) it stays dropped.
    const bool secure = a->url.scheme().compare(QLatin1StringView("https"), Qt::CaseInsensitive) == 0
        || (a->job.authorizationOverLoopbackHttp && m_settings.allowHttpLoopback && isLoopbackHost(a->url.host()));
    if (!a->authorization.isEmpty() && !(secure && sameOrigin(a->url, a->job.url)))
        a->authorization.clear();
    if (!a->authorization.isEmpty())
        request.setRawHeader("Authorization", a->authorization);

    a->started = false;
    a->headersIn = false;
    a->windowBytes = 0;
    a->otherBodyBytes = 0;
    if (a->rate)
        a->rate->stop();
    a->outcome = HttpOutcome{};
    a->sslErrors.clear();
    QNetworkReply *reply = sendRequest(request, a->job);
    a->reply = reply;
    reply->setReadBufferSize(2 * 1024 * 1024); // bounded memory whatever the body size (256 KiB made the HTTP thread wait, bench/pull)

    if (!a->watchdog) {
        a->watchdog = timeoutTimer(a, QStringLiteral("timed out: no data for %1 s").arg(m_settings.timeoutMs / 1000.0));
    }
    // Backstop for phases the transfer timeout might not cover (e.g. a stalled TLS handshake).
    a->watchdog->start(m_settings.timeoutMs + 2000);
    auto kick = [a] {
        if (a->watchdog && !a->done)
            a->watchdog->start();
    };
    connect(reply, &QNetworkReply::metaDataChanged, this, kick);
    if (m_settings.headersTimeoutMs > 0) {
        if (!a->headers) {
            a->headers = timeoutTimer(
                a,
                QStringLiteral("timed out: the response headers were not complete within %1 s").arg(m_settings.headersTimeoutMs / 1000.0));
        }
        a->headers->start(m_settings.headersTimeoutMs);
        connect(reply, &QNetworkReply::metaDataChanged, this, [a] {
            if (a->headers)
                a->headers->stop();
        });
    }
    if (m_settings.minBytesPerSecond > 0) {
        if (!a->rate) {
            a->rate = new QTimer(this);
            std::weak_ptr<Active> weak = a;
            connect(a->rate, &QTimer::timeout, this, [this, weak] {
                auto s = weak.lock();
                if (!s || s->done)
                    return;
                const qint64 needed = m_settings.minBytesPerSecond * m_settings.timeoutMs / 1000;
                if (s->windowBytes < needed) {
                    abortReply(s, HttpOutcome::Failure::Timeout,
                               QStringLiteral("too slow: %1 bytes in the last %2 s, below the minimum rate of %3 bytes/s")
                                   .arg(s->windowBytes)
                                   .arg(m_settings.timeoutMs / 1000.0)
                                   .arg(m_settings.minBytesPerSecond));
                    return;
                }
                s->windowBytes = 0;
            });
        }
        connect(reply, &QNetworkReply::metaDataChanged, this, [a, ms = m_settings.timeoutMs] {
            if (!a->headersIn && !a->done && a->rate) {
                a->headersIn = true;
                a->windowBytes = 0;
                a->rate->start(ms);
            }
        });
    }
    connect(reply, &QNetworkReply::downloadProgress, this, kick);
    connect(reply, &QNetworkReply::uploadProgress, this, [this, a, kick](qint64 sent, qint64) {
        kick();
        // The headers can only come once the body is sent: their time counts from the last byte.
        if (a->headers && a->headers->isActive())
            a->headers->start();
        a->outcome.bytesSent = std::max(a->outcome.bytesSent, sent);
        if (a->job.onUploadProgress && !a->done)
            a->job.onUploadProgress(a->outcome.bytesSent);
        checkCancel(); // at once: an upload is not sent on while the poll waits
    });
    connect(reply, &QNetworkReply::readyRead, this, [this, a] { onReadyRead(a); });
    connect(reply, &QNetworkReply::finished, this, [this, a] { onFinished(a); });
    connect(reply, &QNetworkReply::sslErrors, this, [a](const QList<QSslError> &errors) {
        for (const QSslError &e : errors)
            a->sslErrors.append(e.errorString());
        // Never ignored: the handshake fails and finished() reports it.
    });
}

QNetworkReply *HttpRunner::sendRequest(QNetworkRequest &request, const HttpJob &job)
{
    if (job.method == "GET")
        return m_nam->get(request);
    if (job.method == "HEAD")
        return m_nam->head(request);
    if (job.bodyDevice) {
        job.bodyDevice->seek(job.bodyStart);
        request.setHeader(QNetworkRequest::ContentLengthHeader, job.bodySize);
        return m_nam->sendCustomRequest(request, job.method, job.bodyDevice);
    }
    request.setHeader(QNetworkRequest::ContentLengthHeader, job.body.size());
    return m_nam->sendCustomRequest(request, job.method, job.body);
}

QTimer *HttpRunner::timeoutTimer(const std::shared_ptr<Active> &a, const QString &why)
{
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    std::weak_ptr<Active> weak = a;
    connect(timer, &QTimer::timeout, this, [this, weak, why] {
        if (auto s = weak.lock())
            abortReply(s, HttpOutcome::Failure::Timeout, why);
    });
    return timer;
}

void HttpRunner::abortReply(const std::shared_ptr<Active> &a, HttpOutcome::Failure failure, const QString &text)
{
    if (a->done || !a->reply)
        return;
    if (!a->abortFailure) {
        a->abortFailure = failure;
        a->abortText = text;
    }
    a->reply->abort(); // emits finished()
}

void HttpRunner::pauseReading(const std::shared_ptr<Active> &a)
{
    if (!m_paused.contains(a))
        m_paused.append(a);
    if (m_settings.pausedRecheckMs <= 0)
        return; // only the job's wake resumes it
    if (!m_resume) {
        m_resume = new QTimer(this);
        m_resume->setSingleShot(true);
        m_resume->setInterval(m_settings.pausedRecheckMs);
        connect(m_resume, &QTimer::timeout, this, &HttpRunner::resumePaused);
    }
    if (!m_resume->isActive())
        m_resume->start();
}

void HttpRunner::resumePaused()
{
    const QList<std::shared_ptr<Active>> paused = std::exchange(m_paused, {});
    for (const auto &a : paused)
        if (!a->done)
            onReadyRead(a); // pauses it again while its job is still not ready
}

void HttpRunner::onReadyRead(const std::shared_ptr<Active> &a, bool drain)
{
    QNetworkReply *reply = a->reply;
    if (!reply || a->done)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200) { // a redirect or error body: read and drop (or collect), up to a cap
        char sink[16384];
        qint64 n = 0;
        while (reply->bytesAvailable() > 0 && (n = reply->read(sink, sizeof sink)) > 0) {
            a->otherBodyBytes += n;
            a->windowBytes += n;
            if (a->job.collectErrorBody)
                a->outcome.body.append(
                    sink, qsizetype(std::min<qint64>(n, std::max<qint64>(0, m_settings.maxErrorBodyBytes - a->outcome.body.size()))));
            if (m_settings.maxErrorBodyBytes >= 0 && a->otherBodyBytes > m_settings.maxErrorBodyBytes) {
                abortReply(a, HttpOutcome::Failure::TooLarge,
                           QStringLiteral("the body of the %1 response exceeds the limit of %2 bytes for error responses")
                               .arg(status)
                               .arg(m_settings.maxErrorBodyBytes));
                return;
            }
        }
        return;
    }
    if (!a->started) {
        a->started = true;
        a->outcome.status = status;
        a->outcome.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
        a->outcome.finalUrl = a->url;
        const QVariant lengthHeader = reply->header(QNetworkRequest::ContentLengthHeader);
        const qint64 length = lengthHeader.isValid() ? lengthHeader.toLongLong() : -1;
        a->outcome.contentLength = length;
        a->outcome.headers = headersOf(reply);
        if (a->job.maxBodyBytes >= 0 && length > a->job.maxBodyBytes && !a->job.truncateAtMax) {
            abortReply(a, HttpOutcome::Failure::TooLarge,
                       QStringLiteral("response body of %1 bytes exceeds the limit of %2 bytes").arg(length).arg(a->job.maxBodyBytes));
            return;
        }
        if (a->job.refuse) {
            const QString refusal = a->job.refuse(a->outcome);
            if (!refusal.isEmpty()) {
                abortReply(a, HttpOutcome::Failure::Refused, refusal);
                return;
            }
        }
        if (a->job.onStart)
            a->job.onStart(a->outcome);
    }
    char buffer[65536];
    while (!a->done && reply->bytesAvailable() > 0) {
        if (!drain && a->job.ready && !a->job.ready(m_wake)) {
            pauseReading(a);
            return;
        }
        const qint64 n = reply->read(buffer, sizeof buffer);
        if (n <= 0)
            break;
        if (a->job.maxBodyBytes >= 0 && a->outcome.bytes + n > a->job.maxBodyBytes && a->job.truncateAtMax) {
            const qint64 take = a->job.maxBodyBytes - a->outcome.bytes;
            a->outcome.bytes += take;
            a->windowBytes += take;
            if (a->job.collectBody)
                a->outcome.body.append(buffer, qsizetype(take));
            if (take > 0 && a->job.onData && !a->job.onData(buffer, take)) {
                abortReply(a, HttpOutcome::Failure::Sink, QStringLiteral("could not store the download"));
                return;
            }
            a->outcome.truncated = true;
            abortReply(a, HttpOutcome::Failure::None, QString());
            return;
        }
        if (a->job.maxBodyBytes >= 0 && a->outcome.bytes + n > a->job.maxBodyBytes) {
            abortReply(a, HttpOutcome::Failure::TooLarge,
                       QStringLiteral("response body exceeds the limit of %1 bytes").arg(a->job.maxBodyBytes));
            return;
        }
        a->outcome.bytes += n;
        a->windowBytes += n;
        if (a->job.collectBody)
            a->outcome.body.append(buffer, n);
        if (a->job.onData && !a->job.onData(buffer, n)) {
            abortReply(a, HttpOutcome::Failure::Sink, QStringLiteral("could not store the download"));
            return;
        }
    }
}

void HttpRunner::onFinished(const std::shared_ptr<Active> &a)
{
    if (a->done)
        return;
    QNetworkReply *reply = a->reply;
    if (a->watchdog)
        a->watchdog->stop();
    if (a->abortFailure) {
        finish(a, *a->abortFailure, a->abortText);
        return;
    }
    onReadyRead(a, true); // whatever is left (at most the reply's buffer), even into a busy sink
    if (a->done)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) {
        const QNetworkReply::NetworkError error = reply->error();
        if (error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError) {
            finish(a, HttpOutcome::Failure::Timeout, QStringLiteral("timed out: no data for %1 s").arg(m_settings.timeoutMs / 1000.0));
        } else if (error == QNetworkReply::SslHandshakeFailedError || !a->sslErrors.isEmpty()) {
            finish(a, HttpOutcome::Failure::Tls,
                   QStringLiteral("TLS handshake with %1 failed: %2")
                       .arg(a->url.authority(), a->sslErrors.isEmpty() ? reply->errorString() : a->sslErrors.join(QStringLiteral("; "))));
        } else {
            finish(a, HttpOutcome::Failure::Network, reply->errorString());
        }
        return;
    }
    a->outcome.status = status;
    a->outcome.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
    a->outcome.finalUrl = a->url;
    a->outcome.headers = headersOf(reply);

    const bool redirect = (status == 301 || status == 302 || status == 303 || status == 307 || status == 308)
        && (a->job.method == "GET" || a->job.method == "HEAD");
    const QByteArray location = reply->rawHeader("Location");
    if (redirect && !location.isEmpty()) {
        const QUrl target = a->url.resolved(QUrl::fromEncoded(location));
        if (a->hops + 1 > m_settings.maxRedirects) {
            finish(a, HttpOutcome::Failure::Redirect, QStringLiteral("too many redirects (stopped after %1)").arg(m_settings.maxRedirects));
            return;
        }
        if (!target.isValid()) {
            finish(a, HttpOutcome::Failure::Redirect,
                   QStringLiteral("invalid redirect target \"%1\"").arg(redactUrlText(QString::fromLatin1(location.left(200)))));
            return;
        }
        if (a->url.scheme().compare(QLatin1StringView("https"), Qt::CaseInsensitive) == 0
            && target.scheme().compare(QLatin1StringView("http"), Qt::CaseInsensitive) == 0) {
            finish(a, HttpOutcome::Failure::Redirect, QStringLiteral("refused a redirect from https to %1").arg(displayUrl(target)));
            return;
        }
        const QString problem = requestUrlProblem(target, a->job.allowPlainHttp, m_settings.allowHttpLoopback);
        if (!problem.isEmpty()) {
            finish(a, HttpOutcome::Failure::Redirect, QStringLiteral("refused a redirect to %1: %2").arg(displayUrl(target), problem));
            return;
        }
        RequestLogEntry hop; // the hop being followed (a refused one is logged by finish())
        hop.method = QString::fromLatin1(a->job.method);
        hop.url = a->url;
        hop.status = status;
        hop.elapsedMs = a->elapsed.elapsed();
        hop.authorization = !a->authorization.isEmpty(); // sent with this hop's request
        m_log.append(hop);
        if (m_settings.onRequestLogged)
            m_settings.onRequestLogged(hop);
        // Stricter than Go's net/http (same host or a subdomain): the token follows a redirect only
        // within the origin (scheme, host, port) it was given for.
        if (!sameOrigin(target, a->job.url))
            a->authorization.clear();
        ++a->hops;
        reply->disconnect(this);
        reply->deleteLater();
        a->url = target;
        startRequest(a);
        return;
    }
    finish(a, HttpOutcome::Failure::None, QString());
}

void HttpRunner::finish(const std::shared_ptr<Active> &a, HttpOutcome::Failure failure, const QString &text)
{
    if (a->done)
        return;
    a->done = true;
    for (QTimer **timer : {&a->watchdog, &a->deadline, &a->rate, &a->headers})
        if (*timer) {
            (*timer)->stop();
            (*timer)->deleteLater();
            *timer = nullptr;
        }
    if (a->reply) {
        a->reply->disconnect(this);
        a->reply->deleteLater();
    }
    m_active.removeOne(a);
    m_paused.removeOne(a);
    a->outcome.failure = failure;
    a->outcome.errorText = text;
    if (a->outcome.finalUrl.isEmpty())
        a->outcome.finalUrl = a->url;

    RequestLogEntry entry;
    entry.method = QString::fromLatin1(a->job.method);
    entry.url = a->url;
    entry.status = a->outcome.status;
    entry.bytes = a->outcome.bytes;
    entry.bytesSent = a->outcome.bytesSent;
    entry.elapsedMs = a->elapsed.elapsed();
    entry.authorization = !a->authorization.isEmpty();
    entry.error = text;
    entry.expected = a->job.expected && text.isEmpty() && a->outcome.status != 0 && a->job.expected(a->outcome, entry.authorization);
    m_log.append(entry);
    if (m_settings.onRequestLogged)
        m_settings.onRequestLogged(entry);

    if (a->job.onDone)
        a->job.onDone(std::move(a->outcome));
    pump();
    maybeQuit();
}

void HttpRunner::maybeQuit()
{
    if (m_loop && m_queue.isEmpty() && m_active.isEmpty() && m_scheduled == 0 && m_external == 0)
        m_loop->quit();
}

void HttpRunner::checkCancel()
{
    if (m_cancelled || !m_cancel || !m_cancel->load())
        return;
    m_cancelled = true;
    const auto active = m_active;
    for (const auto &a : active)
        abortReply(a, HttpOutcome::Failure::Cancelled, QStringLiteral("cancelled"));
    pump();
    maybeQuit();
}

void HttpRunner::run(const std::atomic<bool> *cancel)
{
    QEventLoop loop;
    m_loop = &loop;
    m_cancel = cancel;
    QTimer poll;
    if (cancel) {
        connect(&poll, &QTimer::timeout, this, &HttpRunner::checkCancel);
        poll.start(50);
    }
    pump();
    if (!(m_queue.isEmpty() && m_active.isEmpty() && m_scheduled == 0 && m_external == 0))
        loop.exec();
    m_loop = nullptr;
    m_cancel = nullptr;
}

} // namespace provender
