#include "model/network/NetworkMirror.h"

#include "model/core/Logging.h"
#include "model/mirror/MirrorIndex.h"

#include <QCoreApplication>

#include <map>

namespace provender {

Result<QUrl> parseMirrorBaseUrl(const QString &text, bool allowHttpLoopback, QString *warning)
{
    // Messages never echo user info (`https://user:secret@host/`): redactUrlText.
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid() || url.scheme().isEmpty())
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("Invalid URL for provider installation source: \"%1\" is not a valid URL").arg(redactUrlText(text)));
    QString why;
    if (!httpUrlAllowed(url, allowHttpLoopback, &why))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Cannot use \"%1\" as a URL for a network provider mirror: %2.").arg(redactUrlText(text), why));
    if (warning && !url.path().endsWith(QLatin1Char('/')))
        *warning = QStringLiteral("the mirror URL does not end with '/': like tofu, its last path segment \"%1\" is replaced "
                                  "when documents are requested")
                       .arg(url.fileName());
    return url;
}

QUrl mirrorDocumentUrl(const QUrl &base, const ProviderAddress &provider, const QString &fileName)
{
    // path.Join(host, ns, type, file), each segment UTF-8 percent-encoded (`+` kept as in Go).
    QByteArray rel;
    for (const QString &segment : {provider.hostname(), provider.ns(), provider.type(), fileName}) {
        if (!rel.isEmpty())
            rel += '/';
        rel += QUrl::toPercentEncoding(segment, "+:@!$&'()*,;=");
    }
    const QUrl reference = QUrl::fromEncoded(rel, QUrl::StrictMode);
    if (!reference.isValid() || !reference.scheme().isEmpty())
        return {}; // `example.com:8443/...` parses with a scheme: tofu's request fails the same way
    return base.resolved(reference);
}

QString credentialNotSentOverHttp(const QString &host)
{
    return QStringLiteral("the token for %1 is not sent: the mirror URL is plain http: (a token is sent only over https)").arg(host);
}

QString mirrorCredentialsHost(const QUrl &base)
{
    const QString host = base.host(QUrl::FullyEncoded).toLower();
    const int port = base.port();
    const QString withPort = port > 0 && port != 443 ? QStringLiteral("%1:%2").arg(host).arg(port) : host;
    const Result<QString> n = ProviderAddress::normalizeHostname(ProviderAddress::hostnameForDisplay(withPort));
    return n.ok() ? n.value() : withPort;
}

namespace {

QString contentTypeProblem(const QByteArray &contentType)
{
    QByteArray media = contentType;
    const qsizetype semi = media.indexOf(';');
    if (semi >= 0)
        media.truncate(semi);
    media = media.trimmed().toLower();
    if (media.isEmpty())
        return QStringLiteral("response has invalid Content-Type: mime: no media type");
    if (media != "application/json")
        return QStringLiteral("response has invalid Content-Type: must be application/json");
    return {};
}

QString hostOf(const QUrl &url)
{
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

} // namespace

QString mirrorRequestError(const HttpOutcome &o, bool versionDocument, const ProviderAddress &provider, const Version &version)
{
    using F = HttpOutcome::Failure;
    switch (o.failure) {
    case F::None: break;
    case F::TooLarge: return QStringLiteral("response rejected: %1").arg(o.errorText);
    case F::Cancelled: return QStringLiteral("cancelled");
    default: return QStringLiteral("request failed: %1").arg(o.errorText);
    }
    const int s = o.status;
    if (s == 200)
        return contentTypeProblem(o.contentType());
    if (s == 404)
        return versionDocument ? QStringLiteral("provider mirror does not have archive index for previously-reported %1 version %2")
                                     .arg(provider.toString(), version.toString())
                               : QStringLiteral("provider %1 was not found in any of the search locations").arg(provider.toString());
    if (s == 401 || s == 403)
        return QStringLiteral("host %1 rejected the given authentication credentials").arg(hostOf(o.finalUrl));
    if (s == 429 || (s >= 500 && s != 501))
        return QStringLiteral("request failed: %1 returned from %2").arg(o.statusLine(), o.finalUrl.toDisplayString());
    return QStringLiteral("server returned unsuccessful status %1").arg(s);
}

namespace {

struct ProviderState
{
    Provider provider;
    std::map<Version, ProviderVersion> versions;
};

AnomalyKind anomalyKindFor(MirrorIndexIssue::Kind k)
{
    switch (k) {
    case MirrorIndexIssue::Kind::InvalidVersionKey:
    case MirrorIndexIssue::Kind::InvalidPlatformKey: return AnomalyKind::UnparseableName;
    case MirrorIndexIssue::Kind::NoVersions: return AnomalyKind::ProviderUnavailable;
    default: return AnomalyKind::MalformedJson;
    }
}

/// The anomaly kind of a failed document request (not a 404, which depends on the document).
AnomalyKind anomalyKindFor(const HttpOutcome &o)
{
    if (o.failure == HttpOutcome::Failure::None && o.status == 200)
        return AnomalyKind::WrongContentType;
    return AnomalyKind::RequestFailed;
}

/// The request bearing the mirror's credential: "Bearer TOKEN" only over https to its own host.
QByteArray mirrorAuthorization(const QUrl &base, const NetworkMirrorOptions &options)
{
    const QString credentialHost = mirrorCredentialsHost(base);
    QByteArray authorization;
    if (options.credential && !options.credential->token.isEmpty()) {
        if (options.credential->host != credentialHost)
            qCWarning(lcNetwork) << "credential for" << options.credential->host << "not used for mirror host" << credentialHost;
        else if (base.scheme() != QLatin1StringView("https"))
            qCWarning(lcNetwork).noquote() << credentialNotSentOverHttp(credentialHost);
        else
            authorization = "Bearer " + options.credential->token.toUtf8();
    }
    return authorization;
}

/// One fetchNetworkCatalog() run: index.json of every provider, then the <version>.json of each
/// version it lists (or of the versions asked for), all on one HttpRunner.
class CatalogFetch
{
public:
    CatalogFetch(const QUrl &base, const NetworkMirrorOptions &options, NetworkCatalog &result, HttpRunner &runner)
        : m_base(base),
          m_options(options),
          m_result(result),
          m_catalog(result.catalog),
          m_runner(runner),
          m_authorization(mirrorAuthorization(base, options))
    {}

    void enqueueProvider(const ProviderAddress &provider)
    {
        if (m_states.count(provider.toString()))
            return;
        const QUrl indexUrl = mirrorDocumentUrl(m_base, provider, QStringLiteral("index.json"));
        if (!indexUrl.isValid()) {
            addAnomaly(AnomalyKind::InvalidAddress, provider.toString(),
                       wrap(provider, QStringLiteral("a provider host with a port cannot be served by a network mirror")));
            return;
        }
        ProviderState &state = m_states[provider.toString()];
        state.provider.address = provider;
        state.provider.directory = indexUrl.adjusted(QUrl::RemoveFilename).toString();
        m_runner.enqueue(documentJob(indexUrl, [this, provider](HttpOutcome &&o) { onIndex(provider, std::move(o)); }));
    }

    /// The providers that had an index, in address order, and the anomalies sorted by path.
    void finish()
    {
        for (auto &[name, state] : m_states) {
            if (!state.provider.hasIndex)
                continue;
            for (auto &[version, pv] : state.versions)
                state.provider.versions.append(std::move(pv));
            m_catalog.providers.append(std::move(state.provider));
        }
        std::sort(m_catalog.providers.begin(), m_catalog.providers.end(),
                  [](const Provider &a, const Provider &b) { return a.address.toString() < b.address.toString(); });
        std::stable_sort(m_catalog.anomalies.begin(), m_catalog.anomalies.end(),
                         [](const Anomaly &a, const Anomaly &b) { return std::tie(a.path, a.message) < std::tie(b.path, b.message); });
    }

private:
    QString wrap(const ProviderAddress &p, const QString &message) const
    {
        return QStringLiteral("failed to query provider mirror %1 for %2: %3").arg(m_base.toString(), p.toString(), message);
    }
    void addAnomaly(AnomalyKind kind, const QString &path, const QString &message, Location location = {})
    {
        m_catalog.anomalies.append(Anomaly{kind, path, message, std::move(location)});
    }
    /// A document that does not parse, in tofu's words.
    void addMalformed(const ProviderAddress &provider, const QString &url, const Error &error)
    {
        addAnomaly(AnomalyKind::MalformedJson, url,
                   wrap(provider, QStringLiteral("invalid response content from mirror server: %1").arg(error.message)), error.location);
    }
    /// What a document that parses breaks of the protocol (MirrorIndex.h).
    void addIssues(const QString &url, const QList<MirrorIndexIssue> &issues)
    {
        for (const MirrorIndexIssue &issue : issues)
            addAnomaly(anomalyKindFor(issue.kind), url, issue.message, issue.location);
    }
    HttpJob documentJob(const QUrl &url, std::function<void(HttpOutcome &&)> onDone) const
    {
        HttpJob job;
        job.url = url;
        job.authorization = m_authorization;
        job.collectBody = true;
        job.maxBodyBytes = m_options.maxJsonBytes;
        job.onDone = std::move(onDone);
        return job;
    }

    void onIndex(const ProviderAddress &provider, HttpOutcome &&o)
    {
        ProviderState &st = m_states[provider.toString()];
        const QString url = o.finalUrl.toString();
        if (!o.ok() || !contentTypeProblem(o.contentType()).isEmpty()) {
            if (o.failure == HttpOutcome::Failure::None && o.status == 404) {
                m_result.absent.append(provider);
                addAnomaly(AnomalyKind::ProviderNotInMirror, url, mirrorRequestError(o, false, provider));
            } else if (o.failure != HttpOutcome::Failure::Cancelled) {
                addAnomaly(anomalyKindFor(o), url, wrap(provider, mirrorRequestError(o, false, provider)));
            }
            return;
        }
        Result<MirrorIndexDocument> doc = parseIndexJson(o.body, url);
        if (!doc.ok()) {
            addMalformed(provider, url, doc.error());
            return;
        }
        st.provider.hasIndex = true;
        addIssues(url, doc.value().issues);
        QList<Version> wanted = doc.value().versions;
        const auto only = m_options.onlyVersions.constFind(provider);
        if (only != m_options.onlyVersions.constEnd()) {
            wanted.clear();
            for (const Version &v : *only) {
                if (doc.value().versions.contains(v))
                    wanted.append(v);
                else
                    addAnomaly(AnomalyKind::IndexListsAbsentVersion, url,
                               QStringLiteral("index.json does not list version %1 of %2 (no available releases match)")
                                   .arg(v.toString(), provider.toString()));
            }
        }
        if (m_options.chooseVersions) {
            const QList<Version> chosen = m_options.chooseVersions(provider, wanted);
            wanted.removeIf([&](const Version &v) { return !chosen.contains(v); });
        }
        for (const Version &version : std::as_const(wanted)) {
            ProviderVersion &pv = st.versions[version];
            pv.version = version;
            pv.listedInIndex = true;
            m_runner.enqueue(documentJob(mirrorDocumentUrl(m_base, provider, version.toString() + QStringLiteral(".json")),
                                         [this, provider, version](HttpOutcome &&vo) { onVersion(provider, version, std::move(vo)); }));
        }
    }

    void onVersion(const ProviderAddress &provider, const Version &version, HttpOutcome &&vo)
    {
        ProviderVersion &v = m_states[provider.toString()].versions[version];
        const QString vurl = vo.finalUrl.toString();
        if (!vo.ok() || !contentTypeProblem(vo.contentType()).isEmpty()) {
            if (vo.failure != HttpOutcome::Failure::Cancelled)
                addAnomaly(vo.failure == HttpOutcome::Failure::None && vo.status == 404 ? AnomalyKind::IndexListsAbsentVersion
                                                                                        : anomalyKindFor(vo),
                           vurl, wrap(provider, mirrorRequestError(vo, true, provider, version)));
            return;
        }
        Result<MirrorVersionDocument> vdoc = parseVersionJson(vo.body, vurl);
        if (!vdoc.ok()) {
            addMalformed(provider, vurl, vdoc.error());
            return;
        }
        v.hasVersionIndex = true;
        addIssues(vurl, vdoc.value().issues);
        for (const MirrorArchiveEntry &e : vdoc.value().archives)
            v.archives.append(archiveOf(e, vo.finalUrl, vurl,
                                        QStringLiteral("%1 %2 %3").arg(provider.toString(), version.toString(), e.platform.toString())));
        std::sort(v.archives.begin(), v.archives.end(), [](const Archive &x, const Archive &y) { return x.platform < y.platform; });
    }

    /// One archive of a <version>.json read from `finalUrl` (`where`: provider, version, platform).
    Archive archiveOf(const MirrorArchiveEntry &e, const QUrl &finalUrl, const QString &vurl, const QString &where)
    {
        Archive a;
        a.platform = e.platform;
        a.layout = ArchiveLayout::Packed;
        a.present = true;
        // `url` resolves against the final URL of the JSON document (after redirects).
        QUrl resolved = finalUrl.resolved(QUrl(e.url));
        if (!resolved.userInfo().isEmpty()) {
            resolved = resolved.adjusted(QUrl::RemoveUserInfo);
            addAnomaly(AnomalyKind::RefusedUrl, displayUrl(resolved),
                       QStringLiteral("the archive URL of %1 in %2 carries user info (a user name or password in "
                                      "the URL); it was removed and is never shown or sent")
                           .arg(where, vurl));
        }
        const QString scheme = resolved.scheme().toLower();
        if (scheme != QLatin1StringView("https") && scheme != QLatin1StringView("http")) {
            // Kept (the archive gets an error verdict) but shortened: the runner refuses
            // the scheme before anything is read.
            a.path = displayUrl(resolved);
            addAnomaly(AnomalyKind::RefusedUrl, a.path,
                       QStringLiteral("the archive URL of %1 in %2 is not an http: or https: URL (%3); it is "
                                      "refused and nothing is read")
                           .arg(where, vurl, scheme.isEmpty() ? QStringLiteral("no scheme") : scheme + QLatin1Char(':')));
        } else {
            a.path = resolved.toString(QUrl::FullyEncoded);
            if (scheme == QLatin1StringView("http") && !(m_options.http.allowHttpLoopback && isLoopbackHost(resolved.host())))
                addAnomaly(AnomalyKind::InsecureUrl, a.path,
                           QStringLiteral("the archive of %1 is downloaded over plain http: (%2): anyone on the "
                                          "network path can read or replace it; like terraform, Provender downloads "
                                          "it and only the hash check protects its content — serve archives over "
                                          "https")
                               .arg(where, displayUrl(resolved)));
        }
        a.fileName = resolved.fileName();
        a.size = -1;
        a.declared = DeclaredArchive{redactUrlText(e.url), e.hashes, vurl, e.invalidHashes};
        return a;
    }

    const QUrl m_base;
    const NetworkMirrorOptions &m_options;
    NetworkCatalog &m_result;
    Catalog &m_catalog;
    HttpRunner &m_runner;
    const QByteArray m_authorization;
    std::map<QString, ProviderState> m_states; ///< by address string: deterministic order
};

} // namespace

Result<NetworkCatalog> fetchNetworkCatalog(const QString &baseUrl, const QList<ProviderAddress> &providers,
                                           const NetworkMirrorOptions &options, const std::atomic<bool> *cancel)
{
    QString warning;
    Result<QUrl> parsed = parseMirrorBaseUrl(baseUrl, options.http.allowHttpLoopback, &warning);
    if (!parsed.ok())
        return parsed.error();
    const QUrl base = parsed.value();
    if (!warning.isEmpty())
        qCWarning(lcNetwork).noquote() << baseUrl << warning;

    NetworkCatalog result;
    Catalog &catalog = result.catalog;
    catalog.sourceKind = Catalog::SourceKind::Network;
    catalog.root = baseUrl;

    HttpSettings settings = options.http;
    if (settings.userAgent.isEmpty())
        settings.userAgent = "Provender/" + QCoreApplication::applicationVersion().toUtf8();
    HttpRunner runner(settings);
    CatalogFetch fetch(base, options, result, runner);
    for (const ProviderAddress &provider : providers)
        fetch.enqueueProvider(provider);
    runner.run(cancel);
    result.cancelled = runner.isCancelled();
    result.log = runner.log();
    fetch.finish();
    return result;
}

} // namespace provender
