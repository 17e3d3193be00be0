#include "model/oci/OciClient.h"
#include "model/oci/OciClientInternal.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/network/HttpRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QUrlQuery>

namespace provender::oci {

namespace {

/// `Bearer realm="…",service="…",scope="…"` -> scheme + params (lower-case keys).
QString parseChallenge(const QByteArray &header, QHash<QString, QString> *params)
{
    const QString text = QString::fromLatin1(header).trimmed();
    const qsizetype space = text.indexOf(QLatin1Char(' '));
    const QString scheme = (space < 0 ? text : text.left(space)).toLower();
    if (space < 0)
        return scheme;
    qsizetype i = space + 1;
    while (i < text.size()) {
        while (i < text.size() && (text.at(i) == QLatin1Char(' ') || text.at(i) == QLatin1Char(',')))
            ++i;
        const qsizetype eq = text.indexOf(QLatin1Char('='), i);
        if (eq < 0)
            break;
        const QString key = text.mid(i, eq - i).trimmed().toLower();
        i = eq + 1;
        QString value;
        if (i < text.size() && text.at(i) == QLatin1Char('"')) {
            ++i;
            while (i < text.size() && text.at(i) != QLatin1Char('"')) {
                if (text.at(i) == QLatin1Char('\\') && i + 1 < text.size())
                    ++i;
                value += text.at(i++);
            }
            ++i;
        } else {
            while (i < text.size() && text.at(i) != QLatin1Char(','))
                value += text.at(i++);
            value = value.trimmed();
        }
        params->insert(key, value);
    }
    return scheme;
}

OciFailure parseFailure(int status, const QByteArray &reason, const QByteArray &body)
{
    OciFailure f;
    f.status = status;
    QStringList messages;
    const QJsonArray errors = QJsonDocument::fromJson(body).object().value(QLatin1StringView("errors")).toArray();
    for (const QJsonValue &e : errors) {
        const QJsonObject o = e.toObject();
        const QString code = o.value(QLatin1StringView("code")).toString();
        f.codes.append(code);
        const QString m = o.value(QLatin1StringView("message")).toString();
        messages.append(m.isEmpty() ? code : QStringLiteral("%1: %2").arg(code, m));
    }
    // HTTP/2 has no reason phrase: use the standard one.
    static const QHash<int, const char *> phrases = {{400, "Bad Request"},        {401, "Unauthorized"},
                                                     {403, "Forbidden"},          {404, "Not Found"},
                                                     {405, "Method Not Allowed"}, {409, "Conflict"},
                                                     {413, "Payload Too Large"},  {416, "Range Not Satisfiable"},
                                                     {429, "Too Many Requests"},  {500, "Internal Server Error"},
                                                     {502, "Bad Gateway"},        {503, "Service Unavailable"}};
    const QString phrase = reason.isEmpty() ? QString::fromLatin1(phrases.value(status, "")) : QString::fromLatin1(reason);
    f.message = phrase.isEmpty() ? QString::number(status) : QStringLiteral("%1 %2").arg(status).arg(phrase);
    if (!messages.isEmpty())
        f.message += QStringLiteral(" (") + messages.join(QStringLiteral("; ")) + QLatin1Char(')');
    return f;
}

const QByteArray kManifestAccept = "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json, "
                                   "application/vnd.docker.distribution.manifest.list.v2+json, "
                                   "application/vnd.docker.distribution.manifest.v2+json";

} // namespace

OciClient::OciClient(RepositoryAddress repository, std::optional<OciCredential> credential, OciClientOptions options)
    : m_repo(std::move(repository)),
      m_credential(std::move(credential)),
      m_options(std::move(options))
{
    m_runner = makeRunner();
    // http only for a loopback registry and only when allowed (tests, local registries).
    const QString host = m_repo.registry.section(QLatin1Char(':'), 0, 0);
    m_scheme =
        m_options.plainHttp && m_options.allowHttpLoopback && isLoopbackHost(host) ? QStringLiteral("http") : QStringLiteral("https");
}

OciClient::~OciClient() = default;

QUrl OciClient::apiUrl(const QString &path) const
{
    return QUrl(QStringLiteral("%1://%2/v2/%3/%4").arg(m_scheme, m_repo.registry, m_repo.repository, path));
}

QString OciClient::credentialDescription() const
{
    return m_credential ? m_credential->describe() : QString();
}

std::unique_ptr<HttpRunner> OciClient::makeRunner()
{
    // The registry's requests follow the network mirror's rules (HttpRunner: TLS, redirects,
    // limits, the request log); only the numbers differ where OCI needs it.
    HttpSettings settings;
    settings.maxParallel = 1;
    settings.timeoutMs = m_options.timeoutMs;
    settings.maxRedirects = kMaxRedirects;
    settings.maxErrorBodyBytes = kMaxErrorBody;
    settings.allowHttpLoopback = m_options.allowHttpLoopback;
    settings.caCertificates = m_options.caCertificates;
    settings.userAgent = m_options.userAgent;
    settings.onRequestLogged = [this](const RequestLogEntry &entry) { record(entry); };
    return std::make_unique<HttpRunner>(std::move(settings));
}

HttpJob OciClient::jobFor(const Exchange &ex, const QUrl &url, const QByteArray &authorization, Response *r)
{
    HttpJob job;
    job.url = url;
    job.method = ex.method;
    job.headers = ex.headers;
    job.authorization = authorization;
    job.authorizationOverLoopbackHttp = true; // a plain-http registry is allowed only on loopback
    job.body = ex.body;
    job.bodyDevice = ex.device;
    job.bodyStart = ex.deviceStart;
    job.bodySize = ex.deviceSize;
    job.onUploadProgress = ex.uploadProgress;
    job.collectErrorBody = true;
    job.collectBody = !ex.sink;
    job.onData = ex.sink;
    job.maxBodyBytes = ex.maxCollect;
    job.truncateAtMax = ex.truncateSilently;
    if (ex.checkHeaders)
        job.refuse = [check = ex.checkHeaders](const HttpOutcome &headers) { return check(headers.headers); };
    // The protocol's own answers: the registry's challenge to a request sent without credentials
    // (send() answers it with a token or Basic credentials, as ORAS does), and the 404 of a lookup
    // whose caller takes "absent" as an answer. Neither counts as a failed request. A 401 from
    // another origin (after a redirect) is not answered: a failure.
    job.expected = [this, url, challenge = ex.challengeIsAnswer, notFound = ex.notFoundIsAnswer](const HttpOutcome &o, bool authorized) {
        return (o.status == 401 && !authorized && challenge && sameOrigin(o.finalUrl, url)
                && canAnswerChallenge(o.header("www-authenticate")))
            || (o.status == 404 && notFound);
    };
    job.onDone = [r](HttpOutcome &&o) {
        r->status = o.status;
        r->reason = o.reason;
        r->headers = std::move(o.headers);
        r->body = std::move(o.body);
        r->received = o.bytes;
        r->sent = o.bytesSent;
        r->truncated = o.truncated;
        r->url = o.finalUrl;
        switch (o.failure) {
        case HttpOutcome::Failure::None: break;
        case HttpOutcome::Failure::Sink: r->sinkStopped = true; break;
        case HttpOutcome::Failure::Cancelled:
            r->cancelled = true;
            r->error = QStringLiteral("cancelled");
            r->status = 0; // no answer was taken: a caller that looks at the status first sees none
            break;
        case HttpOutcome::Failure::Refused:
            if (o.status != 0) // Exchange::checkHeaders refused the response
                r->refused = o.errorText;
            r->error = o.errorText;
            break;
        default: r->error = o.errorText; break;
        }
    };
    return job;
}

OciClient::Response OciClient::sendOnce(Exchange &ex, const QUrl &url, const QByteArray &authorization)
{
    // A runner that saw a cancel stays cancelled: the requests after it (closing an upload
    // session) go out on a new one.
    if (m_runner->isCancelled())
        m_runner = makeRunner();
    Response r;
    r.url = url;
    m_runner->enqueue(jobFor(ex, url, authorization, &r));
    m_runner->run(ex.cancellable ? m_options.cancel : nullptr);
    return r;
}

bool OciClient::canAnswerChallenge(const QByteArray &challenge) const
{
    QHash<QString, QString> params;
    const QString scheme = parseChallenge(challenge, &params);
    if (scheme == QLatin1StringView("bearer"))
        return true; // a token request follows (anonymous or not); it is logged on its own
    return scheme == QLatin1StringView("basic") && m_credential.has_value();
}

void OciClient::record(const RequestLogEntry &e)
{
    ++m_counters.requests;
    m_counters.bytesDownloaded += e.bytes;
    qCDebug(lcOci).noquote() << e.method << e.url.toString() << e.status << e.bytes << "bytes" << e.elapsedMs << "ms"
                             << (e.authorization ? "(auth)" : "");
    m_log.append(e);
    if (m_options.onRequest)
        m_options.onRequest(e);
}

OciClient::Response OciClient::send(Exchange &ex)
{
    QString scope = !ex.scope.isEmpty()
        ? ex.scope
        : QStringLiteral("repository:%1:%2").arg(m_repo.repository, ex.push ? QStringLiteral("pull,push") : QStringLiteral("pull"));
    if (!ex.extraScope.isEmpty())
        scope += QLatin1Char(' ') + ex.extraScope; // space-separated, as the token protocol joins them
    QByteArray auth = m_authByScope.value(scope, m_basicForHost);
    Response r = sendOnce(ex, ex.url, auth);
    // Credentials are only ever offered to the registry itself (ORAS's Credential callback
    // answers only for the registry's host:port), never to a host a redirect led to.
    if (!r.error.isEmpty() || r.status != 401 || !sameOrigin(r.url, ex.url))
        return r;
    const Result<QByteArray> a = authorize(r.header("www-authenticate"), scope, ex.cancellable);
    if (!a.ok()) {
        r.error = a.error().message;
        r.cancelled = a.error().code == ErrorCode::Cancelled;
        return r;
    }
    if (a.value().isEmpty() || a.value() == auth)
        return r;
    return sendOnce(ex, ex.url, a.value());
}

Result<QByteArray> OciClient::authorize(const QByteArray &challenge, const QString &scope, bool cancellable)
{
    QHash<QString, QString> params;
    const QString scheme = parseChallenge(challenge, &params);
    if (m_credential && m_credential->kind == OciCredential::Kind::Helper && !m_helperResolved) {
        m_helperResolved = true;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const Result<OciCredential> c = runCredentialHelper(*m_credential, env);
        if (!c.ok())
            return c.error();
        m_credential = c.value();
    }
    if (scheme == QLatin1StringView("basic")) {
        if (!m_credential || m_credential->kind != OciCredential::Kind::Basic)
            return QByteArray();
        m_basicForHost = "Basic " + (m_credential->username + QLatin1Char(':') + m_credential->password).toUtf8().toBase64();
        return m_basicForHost;
    }
    if (scheme != QLatin1StringView("bearer"))
        return makeError(ErrorCode::Unsupported, QStringLiteral("the registry asks for unsupported authentication \"%1\"").arg(scheme));
    QStringList scopes = scope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QString challengeScope = params.value(QStringLiteral("scope"));
    for (const QString &s : challengeScope.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (!scopes.contains(s))
            scopes.append(s);
    // ORAS fetchBearerToken: a configured access token is sent as it is (tofu's oci_credentials
    // always has one next to its refresh token, so the refresh grant below is not reached from a
    // tofu configuration).
    if (m_credential && !m_credential->accessToken.isEmpty()) {
        const QByteArray header = "Bearer " + m_credential->accessToken.toUtf8();
        m_authByScope.insert(scope, header);
        return header;
    }
    const QUrl realm(params.value(QStringLiteral("realm")));
    if (!realm.isValid() || realm.host().isEmpty())
        return makeError(ErrorCode::Network, QStringLiteral("the registry's Bearer challenge has no usable realm"));
    Exchange tokenRequest;
    tokenRequest.challengeIsAnswer = false; // a 401 of the token service is a refusal
    tokenRequest.cancellable = cancellable;
    QUrl tokenUrl = realm;
    QByteArray basic;
    if (m_credential && !m_credential->refreshToken.isEmpty()) {
        // OAuth2 refresh-token grant (ORAS fetchOAuth2Token).
        tokenRequest.method = "POST";
        QUrlQuery form;
        form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("refresh_token"));
        form.addQueryItem(QStringLiteral("refresh_token"), m_credential->refreshToken);
        if (params.contains(QStringLiteral("service")))
            form.addQueryItem(QStringLiteral("service"), params.value(QStringLiteral("service")));
        form.addQueryItem(QStringLiteral("client_id"), QStringLiteral("provender"));
        form.addQueryItem(QStringLiteral("scope"), scopes.join(QLatin1Char(' ')));
        tokenRequest.body = form.toString(QUrl::FullyEncoded).toLatin1();
        tokenRequest.headers.emplaceBack("Content-Type", "application/x-www-form-urlencoded");
    } else {
        // Distribution token GET (ORAS fetchDistributionToken), with Basic credentials when we have them.
        QUrlQuery q(tokenUrl);
        if (params.contains(QStringLiteral("service")))
            q.addQueryItem(QStringLiteral("service"), params.value(QStringLiteral("service")));
        for (const QString &s : std::as_const(scopes))
            q.addQueryItem(QStringLiteral("scope"), s);
        tokenUrl.setQuery(q);
        if (m_credential && m_credential->kind == OciCredential::Kind::Basic)
            basic = "Basic " + (m_credential->username + QLatin1Char(':') + m_credential->password).toUtf8().toBase64();
    }
    tokenRequest.url = tokenUrl;
    ++m_counters.tokenRequests;
    const Response r = sendOnce(tokenRequest, tokenUrl, basic);
    if (!r.error.isEmpty())
        return makeError(r.cancelled ? ErrorCode::Cancelled : ErrorCode::Network,
                         QStringLiteral("token request to %1: %2").arg(realm.toString(), r.error));
    if (r.status != 200)
        return makeError(ErrorCode::Network,
                         QStringLiteral("token request to %1: %2").arg(realm.toString(), parseFailure(r.status, r.reason, r.body).message));
    const QJsonObject o = QJsonDocument::fromJson(r.body).object();
    QString token = o.value(QLatin1StringView("access_token")).toString();
    if (token.isEmpty())
        token = o.value(QLatin1StringView("token")).toString();
    if (token.isEmpty())
        return makeError(ErrorCode::Network, QStringLiteral("token request to %1: the answer has no token").arg(realm.toString()));
    const QByteArray header = "Bearer " + token.toUtf8();
    m_authByScope.insert(scope, header);
    return header;
}

Error OciClient::failure(const Response &r, const QString &what)
{
    if (r.cancelled) {
        m_failure = OciFailure{0, {}, r.error};
        return makeError(ErrorCode::Cancelled, QStringLiteral("%1: cancelled").arg(what));
    }
    if (!r.error.isEmpty() && r.status == 0) {
        m_failure = OciFailure{0, {}, r.error};
        return makeError(ErrorCode::Network, QStringLiteral("%1: %2").arg(what, r.error));
    }
    m_failure = parseFailure(r.status, r.reason, r.body);
    QString message = QStringLiteral("%1: %2").arg(what, m_failure.message);
    if (r.status == 401)
        message += m_credential ? QStringLiteral(" — the registry refused %1").arg(m_credential->describe())
                                : QStringLiteral(" — no credentials are configured for %1").arg(m_repo.toString());
    if (!r.error.isEmpty())
        message += QStringLiteral(": ") + r.error;
    return makeError(r.status == 404 ? ErrorCode::NotFound : ErrorCode::Network, message);
}

Result<QStringList> OciClient::listTags()
{
    QUrl url = apiUrl(QStringLiteral("tags/list"));
    if (m_options.tagPageSize > 0)
        url.setQuery(QStringLiteral("n=%1").arg(m_options.tagPageSize));
    return listPages(url, "tags", QString(), QStringLiteral("listing tags of %1").arg(m_repo.toString()));
}

Result<void> OciClient::checkApi()
{
    Exchange ex;
    ex.url = QUrl(QStringLiteral("%1://%2/v2/").arg(m_scheme, m_repo.registry));
    ex.maxCollect = 64 << 10;
    ex.truncateSilently = true;
    const Response r = send(ex);
    if (r.success())
        return {};
    const QString what = QStringLiteral("checking %1 (GET /v2/)").arg(m_repo.registry);
    if (r.status == 0 || r.status == 401)
        return failure(r, what);
    Error e = failure(r, what);
    e.message =
        QStringLiteral("%1 does not answer as an OCI registry: GET /v2/ gave %2, not 200 or 401").arg(m_repo.registry, m_failure.message);
    return e;
}

Result<QStringList> OciClient::listCatalog()
{
    QUrl url(QStringLiteral("%1://%2/v2/_catalog").arg(m_scheme, m_repo.registry));
    if (m_options.catalogPageSize > 0)
        url.setQuery(QStringLiteral("n=%1").arg(m_options.catalogPageSize));
    // The token scope Distribution's token auth asks for the catalog (docs/spec/auth/scope.md).
    return listPages(url, "repositories", QStringLiteral("registry:catalog:*"),
                     QStringLiteral("listing the repositories of %1").arg(m_repo.registry));
}

Result<QStringList> OciClient::listPages(QUrl url, const char *key, const QString &scope, const QString &what)
{
    QStringList names;
    const QString origin = url.scheme() + QLatin1Char(':') + url.authority();
    for (int page = 0; page < 10000; ++page) {
        Exchange ex;
        ex.url = url;
        ex.scope = scope;
        ex.maxCollect = 16 << 20;
        const Response r = send(ex);
        if (!r.success())
            return failure(r, what);
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(r.body, &e);
        if (e.error != QJsonParseError::NoError || !doc.isObject())
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("%1: the answer is not a JSON object (%2)")
                                 .arg(what, e.error != QJsonParseError::NoError ? e.errorString() : QStringLiteral("JSON")));
        const QJsonValue list = doc.object().value(QLatin1StringView(key));
        if (!list.isArray() && !list.isNull() && !list.isUndefined())
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: \"%2\" is not an array").arg(what, QLatin1StringView(key)));
        for (const QJsonValue &t : list.toArray()) {
            if (!t.isString())
                return makeError(ErrorCode::InvalidArgument,
                                 QStringLiteral("%1: \"%2\" has an entry that is not a string").arg(what, QLatin1StringView(key)));
            names.append(t.toString());
        }
        // Link: </v2/name/tags/list?last=x&n=y>; rel="next" (RFC 5988, as distribution-spec shows it)
        const QByteArray link = r.header("link");
        if (link.isEmpty() || !link.contains("rel=\"next\""))
            return names;
        const qsizetype a = link.indexOf('<'), b = link.indexOf('>');
        if (a < 0 || b < a)
            return names;
        const QUrl next = url.resolved(QUrl::fromEncoded(link.mid(a + 1, b - a - 1)));
        // The next page stays on the registry (a Link elsewhere would take our credentials there).
        if (next.scheme() + QLatin1Char(':') + next.authority() != origin)
            return makeError(ErrorCode::Network,
                             QStringLiteral("%1: the next page is on another host (%2): not followed").arg(what, next.toString()));
        if (next == url)
            return makeError(ErrorCode::Network, QStringLiteral("%1: the next page link points to the same page").arg(what));
        url = next;
    }
    return makeError(ErrorCode::Network, QStringLiteral("%1: more than 10000 pages").arg(what));
}

Result<FetchedManifest> OciClient::headManifest(const QString &reference, Absent absent)
{
    Exchange ex;
    ex.notFoundIsAnswer = absent == Absent::IsAnswer;
    ex.method = "HEAD";
    ex.url = apiUrl(QStringLiteral("manifests/") + reference);
    ex.headers.emplaceBack("Accept", kManifestAccept);
    const Response r = send(ex);
    if (!r.success())
        return failure(r, QStringLiteral("resolving %1:%2").arg(m_repo.toString(), reference));
    FetchedManifest m;
    m.contentType = QString::fromLatin1(r.header("content-type"));
    m.digest = QString::fromLatin1(r.header("docker-content-digest"));
    bool ok = false;
    m.size = r.header("content-length").toLongLong(&ok);
    if (!ok)
        m.size = -1;
    return m;
}

Result<FetchedManifest> OciClient::getManifest(const QString &reference, qint64 maxBytes, Absent absent)
{
    Exchange ex;
    ex.notFoundIsAnswer = absent == Absent::IsAnswer;
    ex.url = apiUrl(QStringLiteral("manifests/") + reference);
    ex.headers.emplaceBack("Accept", kManifestAccept);
    ex.maxCollect = maxBytes;
    ex.truncateSilently = true;
    const Response r = send(ex);
    if (!r.success() && !(r.truncated && r.status >= 200 && r.status < 300))
        return failure(r, QStringLiteral("fetching manifest %1@%2").arg(m_repo.toString(), reference));
    FetchedManifest m;
    m.body = r.body;
    m.contentType = QString::fromLatin1(r.header("content-type"));
    m.digest = QString::fromLatin1(r.header("docker-content-digest"));
    m.size = r.body.size();
    return m;
}

Result<std::optional<QByteArray>> OciClient::getReferrers(const QString &digest)
{
    Exchange ex;
    ex.url = apiUrl(QStringLiteral("referrers/") + digest);
    ex.notFoundIsAnswer = true; // no referrers API (Distribution 2.8): the caller uses the tag schema
    ex.headers.emplaceBack("Accept", QByteArray(kMediaTypeIndex.data(), kMediaTypeIndex.size()));
    ex.maxCollect = kManifestSizeLimitMiB << 20;
    const Response r = send(ex);
    if (r.status == 404)
        return std::optional<QByteArray>();
    if (!r.success())
        return failure(r, QStringLiteral("listing the referrers of %1@%2").arg(m_repo.toString(), digest));
    return std::optional<QByteArray>(r.body);
}

Result<std::optional<qint64>> OciClient::headBlob(const QString &digest)
{
    Exchange ex;
    ex.method = "HEAD";
    ex.url = apiUrl(QStringLiteral("blobs/") + digest);
    ex.notFoundIsAnswer = true; // not there yet: the caller uploads it
    ++m_counters.blobHeads;
    const Response r = send(ex);
    if (r.error.isEmpty() && r.status == 404)
        return std::optional<qint64>();
    if (!r.success())
        return failure(r, QStringLiteral("checking blob %1 in %2").arg(digest, m_repo.toString()));
    return std::optional<qint64>(r.header("content-length").toLongLong());
}

Result<qint64> OciClient::fetchBlob(const QString &digest, qint64 expectedSize, const std::function<bool(const char *, qint64)> &sink)
{
    // Provender's own cap, before anything is requested: tofu would start any download the
    // descriptor asks for, but a descriptor is the registry's word and disks are finite.
    if (expectedSize < 0)
        return makeError(
            ErrorCode::InvalidArgument,
            QStringLiteral("fetching blob %1: its descriptor declares no valid size (%2): not downloaded").arg(digest).arg(expectedSize));
    if (expectedSize > m_options.maxBlobBytes)
        return makeError(ErrorCode::Unsupported,
                         QStringLiteral("fetching blob %1: its descriptor declares %2 bytes, more than the largest "
                                        "archive downloaded (%3 bytes, --max-archive-size): not downloaded")
                             .arg(digest)
                             .arg(expectedSize)
                             .arg(m_options.maxBlobBytes));
    Sha256 sha;
    qint64 got = 0;
    bool sinkFailed = false;
    Exchange ex;
    ex.url = apiUrl(QStringLiteral("blobs/") + digest);
    // ORAS blobStore.Fetch (oras-go v2.6 registry/remote/repository.go): a 200 whose
    // Content-Length is not the descriptor's size is refused, and so is a Docker-Content-Digest
    // that names another digest — before the body is read.
    ex.checkHeaders = [&](const QHash<QByteArray, QByteArray> &headers) -> QString {
        const QByteArray length = headers.value("content-length");
        bool ok = false;
        const qint64 announced = length.toLongLong(&ok);
        if (!length.isEmpty() && (!ok || announced != expectedSize))
            return QStringLiteral("GET \"%1\": mismatch Content-Length (the response announces %2 bytes, the "
                                  "descriptor %3)")
                .arg(ex.url.toString(), QString::fromLatin1(length))
                .arg(expectedSize);
        const QByteArray announcedDigest = headers.value("docker-content-digest");
        if (!announcedDigest.isEmpty() && QString::fromLatin1(announcedDigest) != digest)
            return QStringLiteral("GET \"%1\": invalid response; digest mismatch in Docker-Content-Digest: "
                                  "received \"%2\" when expecting \"%3\"")
                .arg(ex.url.toString(), QString::fromLatin1(announcedDigest), digest);
        return {};
    };
    // LimitReader: the body is cut at the descriptor's size (the reply aborted there).
    ex.maxCollect = expectedSize;
    ex.truncateSilently = true;
    ex.sink = [&](const char *data, qint64 size) {
        sha.addData(data, std::size_t(size));
        if (!sink(data, size)) {
            sinkFailed = true;
            return false;
        }
        got += size;
        return true;
    };
    const Response r = send(ex);
    if (sinkFailed)
        return makeError(ErrorCode::Io, QStringLiteral("fetching blob %1: the download could not be stored").arg(digest));
    if (!r.refused.isEmpty())
        return makeError(ErrorCode::Network, r.refused);
    if (!r.sinkStopped && !r.success())
        return failure(r, QStringLiteral("fetching blob %1 from %2").arg(digest, m_repo.toString()));
    if (got < expectedSize)
        return makeError(ErrorCode::CorruptArchive,
                         QStringLiteral("incorrect response size: expected %1 bytes, but got %2 bytes").arg(expectedSize).arg(got));
    const QString actual = QStringLiteral("sha256:") + QString::fromLatin1(sha.result().toHex());
    if (actual != digest)
        return makeError(ErrorCode::CorruptArchive,
                         QStringLiteral("provider package does not match digest %1 (the bytes hash to %2)").arg(digest, actual));
    return got;
}

} // namespace provender::oci
