#pragma once
// A small client for the OCI Distribution API v2 (distribution-spec v1.1) over Qt Network, for one
// repository. Synchronous: each call runs a local event loop (main thread or a worker thread with
// no other event loop of its own).
//   tags      GET /v2/<name>/tags/list, following `Link: <…>; rel="next"` pages
//   manifests GET/HEAD /v2/<name>/manifests/<ref> with Accept of the OCI index and manifest types;
//             bodies capped (tofu's 4 MiB rule is checked by the caller from the size)
//   blobs     HEAD; cross-repository mount; GET streamed to a sink with the SHA-256 computed as the bytes
//   arrive (never
//             the whole blob in memory) and checked against the digest; upload by POST + PUT
//             ?digest= (monolithic, streamed from the file) or POST + PATCH chunks + PUT
//   manifest  PUT
// Auth as ORAS (which tofu uses) does it: anonymous first; on 401 the WWW-Authenticate challenge
// decides — Basic: username/password; Bearer: the configured access token as it is, else a token
// from the realm for the scope (the OAuth2 refresh-token POST when there is only a refresh token,
// else a GET, with Basic credentials when there are some).
// Tokens are cached per scope and never logged. Every request goes through HttpRunner, the network
// mirror's engine, so TLS (peer verification always on, the system CAs as tofu finds them plus
// extra CAs), the URL rules (https only, http only to loopback when allowed), redirects (GET/HEAD
// only, never https -> http, Authorization only for the first URL's origin), the timeouts and the
// request log are the same rules as for network mirrors; OCI's numbers: 10 redirect hops (Go's
// net/http default, which ORAS and so tofu use), 1 MiB for an error body.

#include "model/core/Result.h"
#include "model/network/HttpRunner.h"
#include "model/oci/OciAuth.h"
#include "model/oci/OciFormat.h"

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QUrl>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QIODevice;

namespace provender::oci {

/// One line of the request log: HttpRunner's, which sends every request (`bytes` = received).
using OciRequestLog = RequestLogEntry;

struct OciClientOptions
{
    QList<QSslCertificate> caCertificates; ///< trusted besides the system CAs
    int timeoutMs = 30000;                 ///< inactivity timeout per request (HttpSettings::timeoutMs)
    bool allowHttpLoopback = false;
    bool plainHttp = false; ///< talk http:// (only to a loopback registry, with allowHttpLoopback)
    QByteArray userAgent = "Provender";
    /// Blobs larger than this are uploaded in PATCH chunks of this size, smaller ones with one
    /// PUT; both stream from the file (never a whole blob or chunk in memory). 0 = always one PUT.
    qint64 chunkSize = 64ll << 20;
    /// The environment for credential helpers.
    /// `n` of the tag list request (distribution-spec pagination; the registry then answers
    /// with a `Link` header for the next page). 0 = not sent: the registry decides.
    int tagPageSize = 0;
    /// `n` of the `_catalog` request (the same pagination). 0 = not sent.
    int catalogPageSize = 0;
    /// The largest blob fetchBlob() downloads: a descriptor that declares more (or no size) is
    /// refused before any request, and no more than the descriptor's size is ever read.
    qint64 maxBlobBytes = qint64(2) * 1024 * 1024 * 1024;
    /// Called on the client's thread with each request as it is logged (the browser's request
    /// log); never sees a secret (the log has none).
    std::function<void(const OciRequestLog &entry)> onRequest;
    /// May be set from any thread: a request in flight is aborted (looked at as its body is sent
    /// and received, and every 100 ms while it waits) and fails with Cancelled; an upload's session
    /// is then deleted, so the registry keeps no partial blob.
    const std::atomic<bool> *cancel = nullptr;
};

struct OciCounters
{
    int requests = 0;
    int blobHeads = 0;   ///< HEAD /blobs/
    int blobUploads = 0; ///< uploads started (POST /blobs/uploads/)
    int blobMounts = 0;  ///< cross-repository mounts tried (POST /blobs/uploads/?mount=)
    int blobChunks = 0;  ///< PATCH requests
    int manifestPuts = 0;
    int tokenRequests = 0;
    qint64 bytesUploaded = 0;
    qint64 bytesDownloaded = 0;

    OciCounters &operator+=(const OciCounters &c)
    {
        requests += c.requests;
        blobHeads += c.blobHeads;
        blobUploads += c.blobUploads;
        blobMounts += c.blobMounts;
        blobChunks += c.blobChunks;
        manifestPuts += c.manifestPuts;
        tokenRequests += c.tokenRequests;
        bytesUploaded += c.bytesUploaded;
        bytesDownloaded += c.bytesDownloaded;
        return *this;
    }
};

/// A failed exchange: the HTTP status (0 = none) and the OCI error codes of the body.
struct OciFailure
{
    int status = 0;
    QStringList codes; ///< e.g. NAME_UNKNOWN, MANIFEST_UNKNOWN, UNAUTHORIZED
    QString message;
};

struct FetchedManifest
{
    QByteArray body;
    QString contentType;
    QString digest;   ///< Docker-Content-Digest ("" when not sent)
    qint64 size = -1; ///< Content-Length (HEAD) or body size (GET)
};

class OciClient
{
public:
    OciClient(RepositoryAddress repository, std::optional<OciCredential> credential, OciClientOptions options = {});
    ~OciClient();
    OciClient(const OciClient &) = delete;
    OciClient &operator=(const OciClient &) = delete;

    const RepositoryAddress &repository() const { return m_repo; }
    /// https://<registry>/v2/<name>/<path>
    QUrl apiUrl(const QString &path) const;

    /// All tags (every page). Failure codes in lastFailure().
    Result<QStringList> listTags();
    /// GET /v2/ (distribution-spec "end-1", the API version check), credentials as for the
    /// repository: nothing when the registry answers 200; a failure naming why otherwise — the
    /// transport error (unreachable, TLS), the status (401 with credentials refused or missing),
    /// or "not an OCI registry" when the answer is neither 200 nor 401 (a plain web server).
    Result<void> checkApi();
    /// The registry's repositories: GET /v2/_catalog (distribution-spec "Listing Repositories"),
    /// every page of `Link: <…>; rel="next"`, scope `registry:catalog:*`. Registries may refuse
    /// (401/403/404 — GHCR, ECR and Docker Hub do not offer it); failure codes in lastFailure().
    /// Only the registry of repository() is used.
    Result<QStringList> listCatalog();
    /// Whether the caller takes a 404 as an answer ("not there yet") rather than a failure; only
    /// the request log's "failed" count sees the difference (OciRequestLog::expected).
    enum class Absent { IsFailure, IsAnswer };
    /// HEAD of a manifest: content type, digest and size without the body.
    Result<FetchedManifest> headManifest(const QString &reference, Absent absent = Absent::IsFailure);
    /// GET of a manifest; more than `maxBytes` of body is an error (the read stops there).
    Result<FetchedManifest> getManifest(const QString &reference, qint64 maxBytes = 4ll << 20, Absent absent = Absent::IsFailure);
    /// GET /v2/<name>/referrers/<digest> (distribution-spec "Listing Referrers"): the image index
    /// of the manifests whose subject is `digest`, or nullopt when the registry answers 404 (it has
    /// no referrers API: Distribution 2.8; clients then use the referrers tag schema).
    Result<std::optional<QByteArray>> getReferrers(const QString &digest);
    /// Size of a blob, nullopt when the registry does not have it (404).
    Result<std::optional<qint64>> headBlob(const QString &digest);
    /// Streams a blob into `sink`, as ORAS's blob Fetch + tofu's fetchOCIBlobToTemporaryFile
    /// read it: `expectedSize` (the descriptor's) must be 0..maxBlobBytes, else nothing is
    /// requested; a 200 whose Content-Length differs from it is refused before its body is read
    /// ("mismatch Content-Length"), as is a Docker-Content-Digest header naming another digest;
    /// at most `expectedSize` bytes are read (tofu's LimitReader; the reply is aborted there, so a
    /// registry that keeps sending is cut off), fewer is "incorrect response size"; then the
    /// SHA-256 of what was read must equal `digest` ("does not match digest"). Returns the bytes
    /// read.
    Result<qint64> fetchBlob(const QString &digest, qint64 expectedSize, const std::function<bool(const char *, qint64)> &sink);
    /// Uploads `size` bytes from `device` (positioned at the start) as blob `digest`; `progress`
    /// (on this thread) gets the bytes of the blob sent so far, chunk after chunk.
    Result<void> uploadBlob(QIODevice *device, qint64 size, const QString &digest, const std::function<void(qint64 sent)> &progress = {});
    Result<void> uploadBlob(const QByteArray &data);
    /// Cross-repository mount (POST ?mount=&from=) of a blob the registry has in `fromRepository`:
    /// true when mounted (201), false when the registry declined (202: the session it opened is
    /// cancelled and the caller uploads).
    Result<bool> mountBlob(const QString &digest, const QString &fromRepository);
    /// PUT /manifests/<reference>; returns the digest the registry reports.
    Result<QString> putManifest(const QString &reference, const QString &mediaType, const QByteArray &body);

    const OciFailure &lastFailure() const { return m_failure; }
    const QList<OciRequestLog> &log() const { return m_log; }
    const OciCounters &counters() const { return m_counters; }
    /// The credential as it is now: after a credential helper ran, the Basic credential it
    /// answered (another client of the repository can then start from it: the helper runs once).
    const std::optional<OciCredential> &credential() const { return m_credential; }
    /// Where the credential came from ("" = none), for messages.
    QString credentialDescription() const;

    static constexpr int kMaxRedirects = 10;                 ///< Go's net/http default (ORAS, tofu)
    static constexpr qint64 kMaxErrorBody = qint64(1) << 20; ///< an error answer's body, kept for its OCI error codes

private:
    struct Exchange;
    struct Response;
    RepositoryAddress m_repo;
    std::optional<OciCredential> m_credential;
    bool m_helperResolved = false;
    OciClientOptions m_options;
    std::unique_ptr<HttpRunner> m_runner;
    QString m_scheme;
    QHash<QString, QByteArray> m_authByScope; ///< scope -> Authorization header value
    QByteArray m_basicForHost;                ///< set once the registry asked for Basic
    OciFailure m_failure;
    QList<OciRequestLog> m_log;
    OciCounters m_counters;

    Response send(Exchange &ex);
    /// One request (its redirects followed by HttpRunner), no 401 retry; logged by record().
    Response sendOnce(Exchange &ex, const QUrl &url, const QByteArray &authorization);
    std::unique_ptr<HttpRunner> makeRunner();
    /// The HttpRunner job of `ex` to `url`; its onDone fills `*r`.
    HttpJob jobFor(const Exchange &ex, const QUrl &url, const QByteArray &authorization, Response *r);
    /// Each line of HttpRunner's log (every request and redirect hop) into the OCI request log.
    void record(const RequestLogEntry &e);
    /// Whether send() can answer this WWW-Authenticate challenge (Bearer: a token request;
    /// Basic: only with a credential): then the 401 is part of the protocol, not a failure.
    bool canAnswerChallenge(const QByteArray &challenge) const;
    /// `cancellable`: whether OciClientOptions::cancel may stop the token request (as the request
    /// that needs it).
    Result<QByteArray> authorize(const QByteArray &challenge, const QString &scope, bool cancellable);
    Error failure(const Response &r, const QString &what);
    /// GET `url` and every page its `Link: rel="next"` headers name, collecting the `key` array.
    Result<QStringList> listPages(QUrl url, const char *key, const QString &scope, const QString &what);
};

} // namespace provender::oci
