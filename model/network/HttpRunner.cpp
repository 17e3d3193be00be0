#include "model/network/HttpRunner.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>
#include <QTimer>

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

bool httpUrlAllowed(const QUrl &url, bool allowHttpLoopback, QString *why)
{
    const QString scheme = url.scheme().toLower();
    if (url.host().isEmpty()) {
        if (why)
            *why = QStringLiteral("the URL has no host");
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

struct HttpRunner::Active
{
    HttpJob job;
    QUrl url;
    QByteArray authorization;
    int hops = 0;
    QPointer<QNetworkReply> reply;
    QTimer *watchdog = nullptr;
    QElapsedTimer elapsed;
    HttpOutcome outcome;
    QStringList sslErrors;
    bool started = false;
    bool done = false;
    std::optional<HttpOutcome::Failure> abortFailure;
    QString abortText;
};

HttpRunner::HttpRunner(HttpSettings settings, QObject *parent)
    : QObject(parent), m_settings(std::move(settings)), m_nam(new QNetworkAccessManager(this))
{
    m_ssl = QSslConfiguration::defaultConfiguration();
    m_ssl.setPeerVerifyMode(QSslSocket::VerifyPeer);
    if (!m_settings.caCertificates.isEmpty())
        m_ssl.addCaCertificates(m_settings.caCertificates);
    m_nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_nam->setAutoDeleteReplies(false);
}

HttpRunner::~HttpRunner()
{
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
            HttpOutcome o;
            o.finalUrl = job.url;
            o.failure = HttpOutcome::Failure::Cancelled;
            o.errorText = QStringLiteral("cancelled");
            if (job.onDone)
                job.onDone(std::move(o));
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
        for (const HttpJob &job : queued) {
            HttpOutcome o;
            o.finalUrl = job.url;
            o.failure = HttpOutcome::Failure::Cancelled;
            o.errorText = QStringLiteral("cancelled");
            if (job.onDone)
                job.onDone(std::move(o));
        }
        return;
    }
    while (m_active.size() < std::max(1, m_settings.maxParallel) && !m_queue.isEmpty()) {
        auto a = std::make_shared<Active>();
        a->job = m_queue.takeFirst();
        a->url = a->job.url;
        a->authorization = a->job.authorization;
        m_active.append(a);
        startRequest(a);
    }
}

void HttpRunner::startRequest(const std::shared_ptr<Active> &a)
{
    QNetworkRequest request(a->url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    request.setTransferTimeout(m_settings.timeoutMs);
    request.setSslConfiguration(m_ssl);
    if (!m_settings.userAgent.isEmpty())
        request.setRawHeader("User-Agent", m_settings.userAgent);
    if (!m_settings.terraformVersion.isEmpty())
        request.setRawHeader("X-Terraform-Version", m_settings.terraformVersion);
    if (!a->authorization.isEmpty())
        request.setRawHeader("Authorization", a->authorization);

    a->elapsed.start();
    a->started = false;
    a->outcome = HttpOutcome{};
    a->sslErrors.clear();
    QNetworkReply *reply = m_nam->get(request);
    a->reply = reply;
    reply->setReadBufferSize(256 * 1024); // bounded memory whatever the body size

    if (!a->watchdog) {
        a->watchdog = new QTimer(this);
        a->watchdog->setSingleShot(true);
        std::weak_ptr<Active> weak = a;
        connect(a->watchdog, &QTimer::timeout, this, [this, weak] {
            if (auto s = weak.lock())
                abortReply(s, HttpOutcome::Failure::Timeout,
                           QStringLiteral("timed out: no data for %1 s").arg(m_settings.timeoutMs / 1000.0));
        });
    }
    // Backstop for phases the transfer timeout might not cover (e.g. a stalled TLS handshake).
    a->watchdog->start(m_settings.timeoutMs + 2000);
    auto kick = [a] {
        if (a->watchdog && !a->done)
            a->watchdog->start();
    };
    connect(reply, &QNetworkReply::metaDataChanged, this, kick);
    connect(reply, &QNetworkReply::downloadProgress, this, kick);
    connect(reply, &QNetworkReply::readyRead, this, [this, a] { onReadyRead(a); });
    connect(reply, &QNetworkReply::finished, this, [this, a] { onFinished(a); });
    connect(reply, &QNetworkReply::sslErrors, this, [a](const QList<QSslError> &errors) {
        for (const QSslError &e : errors)
            a->sslErrors.append(e.errorString());
        // Never ignored: the handshake fails and finished() reports it.
    });
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

void HttpRunner::onReadyRead(const std::shared_ptr<Active> &a)
{
    QNetworkReply *reply = a->reply;
    if (!reply || a->done)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200) { // a redirect or error body: read and drop (never buffered)
        char sink[16384];
        while (reply->bytesAvailable() > 0 && reply->read(sink, sizeof sink) > 0) {
        }
        return;
    }
    if (!a->started) {
        a->started = true;
        a->outcome.status = status;
        a->outcome.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
        a->outcome.contentType = reply->rawHeader("Content-Type");
        a->outcome.finalUrl = a->url;
        const QVariant lengthHeader = reply->header(QNetworkRequest::ContentLengthHeader);
        const qint64 length = lengthHeader.isValid() ? lengthHeader.toLongLong() : -1;
        a->outcome.contentLength = length;
        if (a->job.collectBody && a->job.maxBodyBytes >= 0 && length > a->job.maxBodyBytes) {
            abortReply(a, HttpOutcome::Failure::TooLarge,
                       QStringLiteral("response body of %1 bytes exceeds the limit of %2 bytes").arg(length).arg(a->job.maxBodyBytes));
            return;
        }
        if (a->job.onStart)
            a->job.onStart(a->outcome);
    }
    char buffer[65536];
    while (!a->done && reply->bytesAvailable() > 0) {
        const qint64 n = reply->read(buffer, sizeof buffer);
        if (n <= 0)
            break;
        a->outcome.bytes += n;
        if (a->job.collectBody) {
            if (a->job.maxBodyBytes >= 0 && a->outcome.body.size() + n > a->job.maxBodyBytes) {
                abortReply(a, HttpOutcome::Failure::TooLarge,
                           QStringLiteral("response body exceeds the limit of %1 bytes").arg(a->job.maxBodyBytes));
                return;
            }
            a->outcome.body.append(buffer, n);
        }
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
    onReadyRead(a); // whatever is left
    if (a->done)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) {
        const QNetworkReply::NetworkError error = reply->error();
        if (error == QNetworkReply::OperationCanceledError || error == QNetworkReply::TimeoutError) {
            finish(a, HttpOutcome::Failure::Timeout,
                   QStringLiteral("timed out: no data for %1 s").arg(m_settings.timeoutMs / 1000.0));
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
    a->outcome.contentType = reply->rawHeader("Content-Type");
    a->outcome.retryAfter = reply->rawHeader("Retry-After");

    const bool redirect = status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    const QByteArray location = reply->rawHeader("Location");
    if (redirect && !location.isEmpty()) {
        const QUrl target = a->url.resolved(QUrl::fromEncoded(location));
        if (a->hops + 1 > m_settings.maxRedirects) {
            finish(a, HttpOutcome::Failure::Redirect, QStringLiteral("too many redirects (stopped after %1)").arg(m_settings.maxRedirects));
            return;
        }
        if (!target.isValid() || target.host().isEmpty()) {
            finish(a, HttpOutcome::Failure::Redirect, QStringLiteral("invalid redirect target \"%1\"").arg(QString::fromLatin1(location)));
            return;
        }
        if (a->url.scheme() == QLatin1StringView("https") && target.scheme() != QLatin1StringView("https")) {
            finish(a, HttpOutcome::Failure::Redirect,
                   QStringLiteral("refused a redirect from https to %1").arg(target.toDisplayString()));
            return;
        }
        QString why;
        if (!httpUrlAllowed(target, m_settings.allowHttpLoopback, &why)) {
            finish(a, HttpOutcome::Failure::Redirect, QStringLiteral("refused a redirect to %1: %2").arg(target.toDisplayString(), why));
            return;
        }
        // Go's net/http: the header survives only to the same host or a subdomain of the first one.
        const QString first = a->job.url.host().toLower();
        const QString next = target.host().toLower();
        if (!(next == first || next.endsWith(QLatin1Char('.') + first)))
            a->authorization.clear();
        RequestLogEntry hop; // the hop being followed (a refused one is logged by finish())
        hop.url = a->url;
        hop.status = status;
        hop.elapsedMs = a->elapsed.elapsed();
        hop.authorization = !a->authorization.isEmpty();
        m_log.append(hop);
        if (m_settings.onRequestLogged)
            m_settings.onRequestLogged(hop);
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
    if (a->watchdog) {
        a->watchdog->stop();
        a->watchdog->deleteLater();
        a->watchdog = nullptr;
    }
    if (a->reply) {
        a->reply->disconnect(this);
        a->reply->deleteLater();
    }
    m_active.removeOne(a);
    a->outcome.failure = failure;
    a->outcome.errorText = text;
    if (a->outcome.finalUrl.isEmpty())
        a->outcome.finalUrl = a->url;

    RequestLogEntry entry;
    entry.url = a->url;
    entry.status = a->outcome.status;
    entry.bytes = a->outcome.bytes;
    entry.elapsedMs = a->elapsed.elapsed();
    entry.authorization = !a->authorization.isEmpty();
    entry.error = text;
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

void HttpRunner::run(const std::atomic<bool> *cancel)
{
    QEventLoop loop;
    m_loop = &loop;
    QTimer poll;
    if (cancel) {
        connect(&poll, &QTimer::timeout, this, [this, cancel] {
            if (!m_cancelled && cancel->load()) {
                m_cancelled = true;
                const auto active = m_active;
                for (const auto &a : active)
                    abortReply(a, HttpOutcome::Failure::Cancelled, QStringLiteral("cancelled"));
                pump();
                maybeQuit();
            }
        });
        poll.start(50);
    }
    pump();
    if (!(m_queue.isEmpty() && m_active.isEmpty() && m_scheduled == 0 && m_external == 0))
        loop.exec();
    m_loop = nullptr;
}

} // namespace provender
