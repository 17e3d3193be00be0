#pragma once
// Client for the provider network mirror protocol (tofu-formats.md §6), producing the same Catalog
// as a filesystem scan: `<host>/<ns>/<type>/index.json`, then `<version>.json` for each version,
// resolved against the base URL as tofu does (RFC 3986; the base must end with '/'). Archives
// are not downloaded here (see RemoteVerify.h): Archive::path is the absolute archive URL
// (resolved against the final URL of its <version>.json), size -1, present = true.
//
// Every failure becomes an Anomaly whose path is the URL and whose message is tofu's wording:
//   index.json 404                -> ProviderNotInMirror, "provider <addr> was not found in any of the search locations"
//   <version>.json 404            -> IndexListsAbsentVersion, "provider mirror does not have archive index ..."
//   200 with a wrong Content-Type -> WrongContentType
//   401/403, other statuses, TLS, timeouts, redirects, body over the cap -> RequestFailed
//   JSON that does not parse      -> MalformedJson (with line/column)
// Archive URLs (docs/NETWORK.md "Rules for every URL"):
//   plain http: (unless http on loopback is allowed and the host is loopback) -> InsecureUrl
//     (the archive is still downloaded, as terraform does);
//   not http(s) (file:, data:, ...) -> RefusedUrl, the archive kept with that URL (shortened)
//     and refused by the runner (error verdict, nothing read);
//   user info in the URL -> RefusedUrl, removed from the URL (never shown or sent).
// The token goes only with index requests, only over https.

#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/mirror/Catalog.h"
#include "model/network/Credentials.h"
#include "model/network/HttpRunner.h"

#include <QHash>
#include <QList>
#include <QUrl>

#include <atomic>
#include <functional>
#include <optional>

namespace provender {

struct NetworkMirrorOptions
{
    HttpSettings http;                      ///< parallelism, timeout, CAs, http-on-loopback
    qint64 maxJsonBytes = 16 * 1024 * 1024; ///< cap on index.json / <version>.json bodies
    /// Token for index requests to the mirror's own origin, only when it is https (never sent
    /// with archive downloads, never over http, dropped on a redirect to another origin).
    /// Resolve it with findCredential(mirrorCredentialsHost(base)).
    std::optional<Credential> credential;
    /// Only these versions per provider (e.g. the ones a lock file pins); a provider not in the
    /// map gets every version its index.json lists.
    QHash<ProviderAddress, QList<Version>> onlyVersions;
    /// When set, which of the versions a provider's index.json lists (after onlyVersions) have
    /// their <version>.json read: e.g. only the one a lock upgrade selects, as terraform reads only
    /// the document of the version it selected from the index.
    std::function<QList<Version>(const ProviderAddress &provider, const QList<Version> &listed)> chooseVersions;
};

/// Checks a mirror base URL as tofu's CLI config does: it must parse, be https (or http to a
/// loopback host when allowed) and have a host. A base without a trailing '/' is accepted (as
/// tofu does) but `warning` says that its last segment will be replaced.
Result<QUrl> parseMirrorBaseUrl(const QString &text, bool allowHttpLoopback, QString *warning = nullptr);

/// `<host>/<ns>/<type>/<file>` resolved against `base` (RFC 3986). Invalid (empty) when the
/// provider host has a port (the relative reference would parse with a scheme, as in tofu).
QUrl mirrorDocumentUrl(const QUrl &base, const ProviderAddress &provider, const QString &fileName);

/// The host credentials are looked up for: comparison form, port kept unless 443.
QString mirrorCredentialsHost(const QUrl &base);

/// The warning when a token exists for a mirror whose URL is plain http (it is never sent).
QString credentialNotSentOverHttp(const QString &host);

struct NetworkCatalog
{
    Catalog catalog;               ///< sourceKind Network, root = the base URL
    QList<ProviderAddress> absent; ///< providers whose index.json was 404
    QList<RequestLogEntry> log;    ///< every request, in completion order
    bool cancelled = false;
};

/// Fetches the indexes of `providers` from the mirror at `baseUrl`. Blocks (runs a local event
/// loop; call it from any thread that may run one). Fails only for an unusable base URL.
Result<NetworkCatalog> fetchNetworkCatalog(const QString &baseUrl, const QList<ProviderAddress> &providers,
                                           const NetworkMirrorOptions &options = {}, const std::atomic<bool> *cancel = nullptr);

/// tofu's wording for a failed index/version request (before the "failed to query" wrapper).
QString mirrorRequestError(const HttpOutcome &outcome, bool versionDocument, const ProviderAddress &provider, const Version &version = {});

} // namespace provender
