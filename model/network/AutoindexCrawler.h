#pragma once
// Provider discovery from a mirror's HTML directory listing (nginx `autoindex on`, Apache
// mod_autoindex, or any static page of links): the network mirror protocol has no "list
// everything" request, but many mirrors are plain static trees served with a listing.
//
// The crawl is polite and bounded: at most `maxParallel` requests at once (default 2), only
// directories below the base URL on the same origin (scheme, host, port; redirects elsewhere are
// not followed into), at most `maxDepth` directory levels below the base (HOST/NS/TYPE = 3) and at
// most `maxPages` listing pages. Links are taken from `<a href>` attributes; query links (Apache's
// sort headers), fragments, parent links and anything outside the base are ignored. A directory
// `<base>HOST/NS/TYPE/` whose listing links `index.json` is a provider (when HOST/NS/TYPE is a valid
// provider address). No credentials are sent (listings are public, like archives).

#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/network/HttpRunner.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <optional>

namespace provender {

struct AutoindexOptions
{
    HttpSettings http;                     ///< maxParallel is capped at 2 by the crawler
    int maxDepth = 3;                      ///< directory levels below the base that are listed
    int maxPages = 500;                    ///< listing pages fetched at most
    qint64 maxPageBytes = 4 * 1024 * 1024; ///< cap on one listing page
};

struct AutoindexResult
{
    QList<ProviderAddress> providers; ///< sorted by address string, no duplicates
    QStringList warnings;             ///< pages that failed or were not HTML, invalid names, limits hit
    QList<RequestLogEntry> log;
    int pagesFetched = 0;
    bool truncated = false; ///< maxPages stopped the crawl
    bool cancelled = false;
};

/// The `href` values of the `<a>` elements of an HTML page, entity-decoded, in page order.
/// Tolerant of any input (quoted, single-quoted or bare attribute values, upper case tags).
QStringList htmlLinks(const QByteArray &html);

/// The path segments of `url` below the directory `base` (its path ends in '/'), percent-decoded:
/// `<base>a/b/` gives a, b, ""; `<base>a/index.json` gives a, index.json. nullopt when `url` is
/// not on the base's origin (scheme, host, port), not below its path, or has a segment that is
/// `.` or `..` or holds an encoded `/` or `\` (`..%2F` climbs out on servers that decode first).
std::optional<QStringList> autoindexSegments(const QUrl &base, const QUrl &url);

/// What a crawl of `base` makes of one `href` of the listing page at `pageUrl` (the page's final
/// URL): nothing (query and fragment links, anything outside the base, the base itself), a
/// directory below the base, or an `index.json` three levels below it.
struct AutoindexLink
{
    enum class Kind { Ignored, Directory, IndexJson };
    Kind kind = Kind::Ignored;
    QUrl url;        ///< the resolved URL, fragment removed (Directory, IndexJson)
    int depth = 0;   ///< Directory: directory levels below the base
    QString address; ///< IndexJson: `HOST/NS/TYPE` from the path, percent-decoded (not yet checked)
};
AutoindexLink classifyAutoindexLink(const QUrl &base, const QUrl &pageUrl, const QString &href);

/// Crawls the listing at `baseUrl` (https, or http to loopback when allowed; a missing trailing
/// '/' is added). Blocks (local event loop). Fails when the base URL is unusable or its own
/// listing cannot be fetched or is not HTML (the server offers no autoindex).
Result<AutoindexResult> crawlAutoindex(const QString &baseUrl, const AutoindexOptions &options = {},
                                       const std::atomic<bool> *cancel = nullptr);

} // namespace provender
