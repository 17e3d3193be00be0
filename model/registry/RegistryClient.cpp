#include "model/registry/RegistryClient.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/network/TrustStore.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <vector>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

QString hostForComparison(const QString &host)
{
    const Result<QString> n = ProviderAddress::normalizeHostname(host);
    return n.ok() ? n.value() : host.toLower();
}

/// terraform's wording for a failed registry request.
QString requestError(const HttpOutcome &o, const QString &what)
{
    if (o.failure != HttpOutcome::Failure::None)
        return u"could not query %1: %2"_s.arg(what, o.errorText);
    return u"could not query %1: %2"_s.arg(what, o.statusLine());
}

} // namespace

QHash<QString, QUrl> providerServicesFromCliConfig(const QByteArray &text, QStringList *warnings)
{
    QHash<QString, QUrl> out;
    for (const auto &[host, services] : parseCliConfigHostServices(text, warnings)) {
        const auto it = services.constFind(u"providers.v1"_s);
        if (it == services.constEnd())
            continue;
        const QUrl url(*it);
        if (!url.isValid() || (url.scheme() != "https"_L1 && url.scheme() != "http"_L1)) {
            if (warnings)
                warnings->append(u"host \"%1\": providers.v1 is not an http(s) URL: %2"_s.arg(host, *it));
            continue;
        }
        out.insert(hostForComparison(host), url);
    }
    return out;
}

QHash<QString, QUrl> providerServicesFromEnvironment(const QProcessEnvironment &env, const QString &homeDir, QStringList *warnings)
{
    const CredentialsLocations where = credentialsLocations(env, homeDir);
    if (where.cliConfigFile.isEmpty())
        return {};
    QFile f(where.cliConfigFile);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return providerServicesFromCliConfig(f.readAll(), warnings);
}

RegistryClient::RegistryClient(RegistryOptions options)
    : m_options(std::move(options)),
      m_http(std::make_unique<HttpRunner>(m_options.http))
{}

RegistryClient::~RegistryClient() = default;

const QList<RequestLogEntry> &RegistryClient::log() const
{
    return m_http->log();
}

QByteArray RegistryClient::authorizationFor(const QString &host)
{
    if (!m_options.useCredentials)
        return {};
    const auto it = m_tokens.constFind(host);
    if (it != m_tokens.constEnd())
        return *it;
    QByteArray header;
    if (const std::optional<Credential> c = findCredential(host, m_options.environment, m_options.homeDir))
        header = "Bearer " + c->token.toUtf8();
    m_tokens.insert(host, header);
    return header;
}

RegistryClient::Fetched RegistryClient::get(const QUrl &url, bool withToken, const QString &tokenHost, qint64 cap,
                                            const std::function<bool(const char *, qint64)> &sink, const std::atomic<bool> *cancel)
{
    Fetched f;
    HttpJob job;
    job.url = url;
    // The token only to the registry host itself, never over plain http.
    if (withToken && url.scheme() == "https"_L1
        && hostForComparison(url.host() + (url.port() > 0 && url.port() != 443 ? u":"_s + QString::number(url.port()) : QString()))
            == tokenHost)
        job.authorization = authorizationFor(tokenHost);
    if (sink) {
        job.onData = sink;
    } else {
        job.collectBody = true;
        job.maxBodyBytes = cap;
    }
    job.onDone = [&f](HttpOutcome &&o) { f.outcome = std::move(o); };
    m_http->enqueue(std::move(job));
    m_http->run(cancel);
    return f;
}

Result<QUrl> RegistryClient::providersBase(const QString &host)
{
    const QString key = hostForComparison(host);
    if (const auto it = m_bases.constFind(key); it != m_bases.constEnd())
        return *it;
    if (const auto it = m_options.serviceOverrides.constFind(key); it != m_options.serviceOverrides.constEnd()) {
        QUrl base = *it;
        if (!base.path().endsWith(u'/'))
            base.setPath(base.path() + u'/');
        m_bases.insert(key, base);
        return base;
    }
    // svchost/disco: https://HOST/.well-known/terraform.json, redirects followed, JSON object.
    const QUrl disco(u"https://%1/.well-known/terraform.json"_s.arg(key));
    if (!disco.isValid())
        return makeError(ErrorCode::InvalidArgument, u"invalid registry host %1"_s.arg(host));
    const Fetched f = get(disco, true, key, 1024 * 1024);
    if (f.outcome.status == 404)
        return makeError(ErrorCode::NotFound, u"host %1 does not provide a provider registry"_s.arg(host));
    if (!f.outcome.ok())
        return makeError(ErrorCode::Network,
                         u"failed to request discovery document: "_s
                             + (f.outcome.failure != HttpOutcome::Failure::None ? f.outcome.errorText : f.outcome.statusLine()));
    const QJsonDocument doc = QJsonDocument::fromJson(f.outcome.body);
    if (!doc.isObject())
        return makeError(ErrorCode::InvalidArgument, u"failed to decode discovery document for %1: not a JSON object"_s.arg(host));
    const QJsonValue v = doc.object().value(u"providers.v1"_s);
    if (!v.isString())
        return makeError(ErrorCode::NotFound, u"host %1 does not provide a provider registry"_s.arg(host));
    QUrl base = f.outcome.finalUrl.resolved(QUrl(v.toString()));
    if (base.scheme() != "https"_L1 && base.scheme() != "http"_L1)
        return makeError(ErrorCode::InvalidArgument, u"host %1: providers.v1 is not an http(s) URL"_s.arg(host));
    if (!base.path().endsWith(u'/'))
        base.setPath(base.path() + u'/');
    m_bases.insert(key, base);
    qCDebug(lcRegistry) << "providers.v1 of" << key << "is" << base;
    return base;
}

Result<RegistryVersions> RegistryClient::versions(const ProviderAddress &provider)
{
    const Result<QUrl> base = providersBase(provider.hostname());
    if (!base)
        return base.error();
    const QUrl url = base->resolved(QUrl(provider.ns() + u'/' + provider.type() + u"/versions"_s));
    const Fetched f = get(url, true, provider.hostname(), m_options.maxDocumentBytes);
    if (f.outcome.status == 404)
        return makeError(ErrorCode::NotFound,
                         u"provider registry %1 does not have a provider named %2"_s.arg(provider.displayHostname(), provider.toString()));
    if (f.outcome.status == 401 || f.outcome.status == 403)
        return makeError(
            ErrorCode::Network,
            u"unauthorized: host %1 requires authentication (set TF_TOKEN_… or a credentials block)"_s.arg(provider.displayHostname()));
    if (!f.outcome.ok())
        return makeError(ErrorCode::Network, requestError(f.outcome, provider.toString()));
    Result<RegistryVersions> v = parseRegistryVersions(f.outcome.body);
    if (!v)
        return makeError(ErrorCode::InvalidArgument, u"could not query %1: %2"_s.arg(provider.toString(), v.error().message));
    return v;
}

Result<RegistryDownload> RegistryClient::download(const ProviderAddress &provider, const Version &version, const Platform &platform)
{
    const Result<QUrl> base = providersBase(provider.hostname());
    if (!base)
        return base.error();
    const QUrl url = base->resolved(
        QUrl(u"%1/%2/%3/download/%4/%5"_s.arg(provider.ns(), provider.type(), version.toString(), platform.os(), platform.arch())));
    const Fetched f = get(url, true, provider.hostname(), m_options.maxDocumentBytes);
    if (f.outcome.status == 404)
        return makeError(ErrorCode::NotFound,
                         u"provider %1 %2 is not available for %3"_s.arg(provider.toString(), version.toString(), platform.toString()));
    if (f.outcome.status == 401 || f.outcome.status == 403)
        return makeError(ErrorCode::Network, u"unauthorized: host %1 requires authentication"_s.arg(provider.displayHostname()));
    if (!f.outcome.ok())
        return makeError(ErrorCode::Network, requestError(f.outcome, provider.toString()));
    Result<RegistryDownload> d = parseRegistryDownload(f.outcome.body, f.outcome.finalUrl, platform);
    if (!d)
        return makeError(ErrorCode::InvalidArgument, u"could not query %1: %2"_s.arg(provider.toString(), d.error().message));
    return d;
}

Result<QByteArray> RegistryClient::fetchDocument(const QUrl &url)
{
    const Fetched f = get(url, false, {}, m_options.maxDocumentBytes);
    if (!f.outcome.ok())
        return makeError(ErrorCode::Network,
                         u"%1: %2"_s.arg(url.toDisplayString(QUrl::RemoveUserInfo),
                                         f.outcome.failure != HttpOutcome::Failure::None ? f.outcome.errorText : f.outcome.statusLine()));
    return f.outcome.body;
}

Result<DownloadedArchive> RegistryClient::fetchArchive(const QUrl &url, const std::function<bool(const char *, qint64)> &sink,
                                                       const std::atomic<bool> *cancel)
{
    return fetchArchives({ArchiveFetch{url, sink, true, {}, {}}}, cancel).constFirst();
}

QList<Result<DownloadedArchive>> RegistryClient::fetchArchives(const QList<ArchiveFetch> &fetches, const std::atomic<bool> *cancel)
{
    struct State
    {
        Sha256 sha;
        DownloadedArchive out;
        bool tooLarge = false;
        HttpOutcome outcome;
    };
    const qint64 cap = m_options.maxArchiveBytes;
    std::vector<std::unique_ptr<State>> states;
    for (const ArchiveFetch &f : fetches) {
        states.push_back(std::make_unique<State>());
        State *st = states.back().get();
        HttpJob job;
        job.url = f.url; // no token: archives may live anywhere
        job.onData = [st, cap, sink = f.sink, hash = f.sha256](const char *data, qint64 size) {
            st->out.size += size;
            if (cap > 0 && st->out.size > cap) {
                st->tooLarge = true;
                return false;
            }
            if (hash)
                st->sha.addData(data, std::size_t(size));
            return sink(data, size);
        };
        job.ready = f.ready;
        job.onDone = [st, done = f.done](HttpOutcome &&o) {
            st->outcome = std::move(o);
            if (done)
                done(st->outcome.ok() && !st->tooLarge);
        };
        m_http->enqueue(std::move(job));
    }
    m_http->run(cancel);
    QList<Result<DownloadedArchive>> results;
    for (qsizetype i = 0; i < fetches.size(); ++i) {
        State &st = *states[size_t(i)];
        const QString where = fetches.at(i).url.toDisplayString(QUrl::RemoveUserInfo);
        if (st.tooLarge) {
            results << Result<DownloadedArchive>(
                makeError(ErrorCode::Network, u"%1: the archive is larger than the limit of %2 bytes"_s.arg(where).arg(cap)));
        } else if (!st.outcome.ok()) {
            results << Result<DownloadedArchive>(makeError(
                st.outcome.failure == HttpOutcome::Failure::Cancelled                              ? ErrorCode::Cancelled
                    : st.outcome.failure == HttpOutcome::Failure::None && st.outcome.status == 404 ? ErrorCode::NotFound
                                                                                                   : ErrorCode::Network,
                u"%1: %2"_s.arg(where, st.outcome.failure != HttpOutcome::Failure::None ? st.outcome.errorText : st.outcome.statusLine())));
        } else {
            if (fetches.at(i).sha256)
                st.out.sha256 = st.sha.result();
            st.out.finalUrl = st.outcome.finalUrl;
            results << Result<DownloadedArchive>(st.out);
        }
    }
    return results;
}

Result<QList<QSslCertificate>> readRegistryCaFile(const QString &path)
{
    Result<QList<QSslCertificate>> certs = readCaFile(path);
    if (!certs.ok())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("no certificate in %1").arg(path));
    return certs;
}

} // namespace provender
