// libFuzzer target for the autoindex reader (model/network/AutoindexCrawler.h): the input is a
// directory listing page; htmlLinks() takes its links and classifyAutoindexLink() decides, for
// pages at three depths below a base, what the crawler would do with each (list a directory, read
// an index.json, ignore). Besides "no crash, no hang, no leak, no UB" it checks the crawl's
// promise to stay below the base (written here independently of autoindexSegments()):
//  - links come out trimmed;
//  - a directory to list is on the base's scheme, host and port, has no query or fragment, its
//    path lies below the base's path and ends in '/', no segment of it decodes to `.`, `..` or
//    something containing a path separator, and its depth is its number of segments below the base;
//  - an index.json is exactly three directory levels below the base.

#include "FuzzSupport.h"

#include "model/core/ProviderAddress.h"
#include "model/network/AutoindexCrawler.h"

#include <QUrl>

#include <cstdint>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QString &detail)
{
    fuzz::fail("fuzz_autoindex", what, detail.toUtf8());
}

const QUrl &base()
{
    static const QUrl url(QStringLiteral("https://mirror.example:8443/m/"));
    return url;
}

void checkBelowBase(const QUrl &url, const QString &href, bool directory)
{
    if (url.scheme() != base().scheme() || url.host() != base().host() || url.port() != base().port())
        fail("a link leaves the base's origin", href + u" -> " + url.toString());
    if (url.hasQuery() || url.hasFragment())
        fail("a followed link has a query or fragment", href + u" -> " + url.toString());
    const QString path = url.path(QUrl::FullyEncoded);
    if (!path.startsWith(u"/m/") || (directory && !path.endsWith(u'/')))
        fail("a followed link is not below the base", href + u" -> " + url.toString());
    const QStringList segments = path.mid(3).split(u'/');
    for (const QString &segment : segments) {
        const QString s = QUrl::fromPercentEncoding(segment.toUtf8());
        if (s == u"." || s == u".." || s.contains(u'/') || s.contains(u'\\'))
            fail("a followed link has a segment that may leave the base", href + u" -> " + url.toString());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QStringList links = htmlLinks(bytes);
    static const QList<QUrl> pages = {base(), base().resolved(QUrl(QStringLiteral("registry.example/"))),
                                      base().resolved(QUrl(QStringLiteral("registry.example/ns/type/")))};
    for (const QString &href : links) {
        if (href != href.trimmed())
            fail("a link is not trimmed", href);
        for (const QUrl &page : pages) {
            const AutoindexLink link = classifyAutoindexLink(base(), page, href);
            switch (link.kind) {
            case AutoindexLink::Kind::Ignored: break;
            case AutoindexLink::Kind::Directory: {
                checkBelowBase(link.url, href, true);
                const qsizetype levels = link.url.path(QUrl::FullyEncoded).mid(3).count(u'/');
                if (link.depth != levels || link.depth < 1)
                    fail("a directory's depth is not its levels below the base", href + u" -> " + link.url.toString());
                break;
            }
            case AutoindexLink::Kind::IndexJson:
                checkBelowBase(link.url, href, false);
                if (!link.url.path(QUrl::FullyEncoded).endsWith(u"/index.json") || link.url.path(QUrl::FullyEncoded).mid(3).count(u'/') != 3
                    || link.address.count(u'/') < 2)
                    fail("an index.json not three levels below the base", href + u" -> " + link.url.toString());
                (void)ProviderAddress::parse(link.address);
                break;
            }
        }
    }
    return 0;
}
