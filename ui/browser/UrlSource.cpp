#include "ui/browser/UrlSource.h"

#include "model/network/NetworkMirror.h"

#include <QSettings>
#include <QSslCertificate>
#include <QUrl>
#include <QVariantMap>

namespace provender::ui {

namespace {

const QString kRequestsKey = QStringLiteral("remote/requests");
constexpr int kMaxRemembered = 10;

QString sourceName(RemoteRequest::ProviderSource s)
{
    switch (s) {
    case RemoteRequest::ProviderSource::Addresses: return QStringLiteral("addresses");
    case RemoteRequest::ProviderSource::LockFile: return QStringLiteral("lock");
    case RemoteRequest::ProviderSource::Autoindex: return QStringLiteral("autoindex");
    }
    return {};
}

} // namespace

bool isMirrorUrl(const QString &text)
{
    const QString t = text.trimmed();
    return t.startsWith(QLatin1StringView("https://"), Qt::CaseInsensitive)
        || t.startsWith(QLatin1StringView("http://"), Qt::CaseInsensitive);
}

RemoteRequest requestForUrl(const QString &url)
{
    RemoteRequest r;
    r.baseUrl = url.trimmed();
    r.source = RemoteRequest::ProviderSource::Autoindex;
    const QVariantList stored = QSettings().value(kRequestsKey).toList();
    for (const QVariant &v : stored) {
        const QVariantMap m = v.toMap();
        if (m.value(QStringLiteral("url")).toString() != r.baseUrl)
            continue;
        const QString source = m.value(QStringLiteral("source")).toString();
        if (source == QLatin1StringView("addresses")) {
            r.source = RemoteRequest::ProviderSource::Addresses;
            for (const QString &a : m.value(QStringLiteral("providers")).toStringList())
                if (const Result<ProviderAddress> p = ProviderAddress::parse(a); p.ok())
                    r.providers.append(p.value());
        } else if (source == QLatin1StringView("lock")) {
            r.source = RemoteRequest::ProviderSource::LockFile;
        }
        r.lockFile = m.value(QStringLiteral("lockFile")).toString();
        r.caFile = m.value(QStringLiteral("caFile")).toString();
        r.allowHttpLoopback = m.value(QStringLiteral("allowHttpLoopback")).toBool();
        r.cacheDir = m.value(QStringLiteral("cacheDir")).toString();
        break;
    }
    return r;
}

void rememberUrlRequest(const RemoteRequest &request)
{
    if (!QUrl(request.baseUrl).userInfo().isEmpty())
        return; // never a secret in the settings file
    QVariantMap m;
    m.insert(QStringLiteral("url"), request.baseUrl);
    m.insert(QStringLiteral("source"), sourceName(request.source));
    QStringList providers;
    for (const ProviderAddress &a : request.providers)
        providers.append(a.toString());
    m.insert(QStringLiteral("providers"), providers);
    m.insert(QStringLiteral("lockFile"), request.lockFile);
    m.insert(QStringLiteral("caFile"), request.caFile);
    m.insert(QStringLiteral("allowHttpLoopback"), request.allowHttpLoopback);
    m.insert(QStringLiteral("cacheDir"), request.cacheDir);
    QVariantList stored = QSettings().value(kRequestsKey).toList();
    stored.removeIf([&request](const QVariant &v) { return v.toMap().value(QStringLiteral("url")).toString() == request.baseUrl; });
    stored.prepend(m);
    QSettings().setValue(kRequestsKey, stored.mid(0, kMaxRemembered));
}

Result<RemoteVerifyOptions> remoteVerifyOptions(const RemoteRequest &request)
{
    // The same settings RemoteSession::start derives from a request.
    RemoteVerifyOptions o;
    o.http.maxParallel = std::max(1, request.maxParallel);
    o.http.timeoutMs = std::max(1, request.timeoutMs);
    o.http.deadlineMs = std::max<qint64>(0, request.deadlineMs);
    o.http.minBytesPerSecond = std::max<qint64>(0, request.minBytesPerSecond);
    o.http.maxErrorBodyBytes = request.maxErrorBodyBytes;
    o.http.allowHttpLoopback = request.allowHttpLoopback;
    if (!request.caFile.isEmpty()) {
        const QList<QSslCertificate> certs = QSslCertificate::fromPath(request.caFile, QSsl::Pem);
        if (certs.isEmpty())
            return makeError(ErrorCode::Io, QStringLiteral("%1: no PEM certificate could be read").arg(request.caFile));
        o.http.caCertificates = certs;
    }
    if (request.source == RemoteRequest::ProviderSource::LockFile) {
        const Result<LockSelection> lock = lockSelection(request.lockFile);
        if (!lock.ok())
            return lock.error();
        o.expected = lock.value().expected;
    }
    o.retries = request.retries;
    o.backoffMs = request.backoffMs;
    o.maxBackoffMs = request.maxBackoffMs;
    o.cacheDir = request.cacheDir;
    o.maxArchiveBytes = request.maxArchiveBytes;
    return o;
}

Result<OpenedUrl> openNetworkSource(const RemoteRequest &request, std::function<void(const RequestLogEntry &)> onRequest,
                                    const std::atomic<bool> *cancel)
{
    // The steps RemoteSession runs before its fetch, with the same words for what goes wrong.
    Result<RemoteVerifyOptions> download = remoteVerifyOptions(request);
    if (!download.ok())
        return download.error();
    RemoteVerifyOptions options = download.value();
    options.http.onRequestLogged = std::move(onRequest);
    OpenedUrl out;
    out.expected = options.expected;
    QString warning;
    const Result<QUrl> base = parseMirrorBaseUrl(request.baseUrl, request.allowHttpLoopback, &warning);
    if (!base.ok())
        return base.error();
    if (!warning.isEmpty())
        out.notes.append(warning);
    NetworkMirrorOptions mirror;
    mirror.http = options.http;
    mirror.maxJsonBytes = request.maxJsonBytes;
    QList<ProviderAddress> providers;
    switch (request.source) {
    case RemoteRequest::ProviderSource::Addresses:
        providers = request.providers;
        break;
    case RemoteRequest::ProviderSource::LockFile: {
        const Result<LockSelection> lock = lockSelection(request.lockFile);
        if (!lock.ok())
            return lock.error();
        out.notes += lock.value().warnings;
        providers = lock.value().providers;
        mirror.onlyVersions = lock.value().onlyVersions;
        break;
    }
    case RemoteRequest::ProviderSource::Autoindex: {
        AutoindexOptions crawl = request.autoindex;
        crawl.http = options.http;
        const Result<AutoindexResult> found = crawlAutoindex(base.value().toString(), crawl, cancel);
        if (!found.ok())
            return found.error();
        if (found.value().cancelled)
            return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
        out.notes += found.value().warnings;
        providers = found.value().providers;
        break;
    }
    }
    if (providers.isEmpty())
        return makeError(ErrorCode::NotFound,
                         request.source == RemoteRequest::ProviderSource::Autoindex
                             ? QStringLiteral("the directory listing of %1 shows no provider (no HOST/NAMESPACE/TYPE/index.json)")
                                   .arg(request.baseUrl)
                             : QStringLiteral("no providers to check: a network mirror cannot list its providers; name them, "
                                              "choose a lock file or use the mirror's directory listing"));
    if (request.useCredentials) {
        QStringList warnings;
        mirror.credential = findCredential(mirrorCredentialsHost(base.value()), request.environment, request.homeDir, &warnings);
        out.notes += warnings;
        if (mirror.credential) {
            out.notes.append(QStringLiteral("Credentials for %1: token %2 from %3")
                                 .arg(mirror.credential->host, mirror.credential->maskedToken(), mirror.credential->source));
            if (base.value().scheme() != QLatin1StringView("https"))
                out.notes.append(credentialNotSentOverHttp(mirror.credential->host));
        }
    }
    out.source = std::make_shared<NetworkSource>(request.baseUrl, providers, mirror, options);
    return out;
}

} // namespace provender::ui
