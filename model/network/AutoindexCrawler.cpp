#include "model/network/AutoindexCrawler.h"

#include "model/core/Logging.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <map>

namespace provender {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

/// HTML character references that matter in URLs (named: the XML five; numeric: any).
QString decodeEntities(const QByteArray &raw)
{
    const QString text = QString::fromUtf8(raw);
    if (!text.contains(QLatin1Char('&')))
        return text;
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c != QLatin1Char('&')) {
            out.append(c);
            continue;
        }
        const qsizetype semi = text.indexOf(QLatin1Char(';'), i + 1);
        if (semi < 0 || semi - i > 12) {
            out.append(c);
            continue;
        }
        const QStringView name = QStringView(text).mid(i + 1, semi - i - 1);
        QString replacement;
        if (name == u"amp")
            replacement = QStringLiteral("&");
        else if (name == u"lt")
            replacement = QStringLiteral("<");
        else if (name == u"gt")
            replacement = QStringLiteral(">");
        else if (name == u"quot")
            replacement = QStringLiteral("\"");
        else if (name == u"apos")
            replacement = QStringLiteral("'");
        else if (name.startsWith(u'#')) {
            bool ok = false;
            const uint code =
                (name.size() > 1 && (name.at(1) == u'x' || name.at(1) == u'X')) ? name.mid(2).toUInt(&ok, 16) : name.mid(1).toUInt(&ok, 10);
            if (ok && code > 0 && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF)) {
                const char32_t cp = char32_t(code);
                replacement = QString::fromUcs4(&cp, 1);
            }
        }
        if (replacement.isNull()) {
            out.append(c);
            continue;
        }
        out.append(replacement);
        i = semi;
    }
    return out;
}

} // namespace

QStringList htmlLinks(const QByteArray &html)
{
    QStringList links;
    const qsizetype n = html.size();
    qsizetype i = 0;
    while (i < n) {
        const qsizetype lt = html.indexOf('<', i);
        if (lt < 0 || lt + 2 >= n)
            break;
        i = lt + 1;
        if (html.at(i) == '!') { // comment or doctype: skip a comment as a whole
            if (html.mid(i, 3) == "!--") {
                const qsizetype end = html.indexOf("-->", i + 3);
                i = end < 0 ? n : end + 3;
            }
            continue;
        }
        if (lower(html.at(i)) != 'a' || !(isSpace(html.at(i + 1)) || html.at(i + 1) == '/'))
            continue;
        i += 1;
        // Attributes up to the closing '>'.
        while (i < n && html.at(i) != '>') {
            while (i < n && (isSpace(html.at(i)) || html.at(i) == '/'))
                ++i;
            const qsizetype nameStart = i;
            while (i < n && !isSpace(html.at(i)) && html.at(i) != '=' && html.at(i) != '>' && html.at(i) != '/')
                ++i;
            QByteArray name = html.mid(nameStart, i - nameStart).toLower();
            while (i < n && isSpace(html.at(i)))
                ++i;
            QByteArray value;
            bool hasValue = false;
            if (i < n && html.at(i) == '=') {
                ++i;
                while (i < n && isSpace(html.at(i)))
                    ++i;
                hasValue = true;
                if (i < n && (html.at(i) == '"' || html.at(i) == '\'')) {
                    const char quote = html.at(i);
                    const qsizetype end = html.indexOf(quote, i + 1);
                    const qsizetype stop = end < 0 ? n : end;
                    value = html.mid(i + 1, stop - i - 1);
                    i = end < 0 ? n : end + 1;
                } else {
                    const qsizetype start = i;
                    while (i < n && !isSpace(html.at(i)) && html.at(i) != '>')
                        ++i;
                    value = html.mid(start, i - start);
                }
            }
            if (name.isEmpty() && !hasValue) {
                if (i < n && html.at(i) != '>')
                    ++i; // a stray character: move on
                continue;
            }
            if (name == "href" && hasValue) {
                links.append(decodeEntities(value).trimmed());
                // keep scanning to the end of the tag; a second href is ignored
                while (i < n && html.at(i) != '>')
                    ++i;
            }
        }
    }
    return links;
}

std::optional<QStringList> autoindexSegments(const QUrl &base, const QUrl &url)
{
    const auto defaultPort = [](const QUrl &u) { return u.scheme() == QLatin1StringView("https") ? 443 : 80; };
    if (url.scheme() != base.scheme() || url.host().compare(base.host(), Qt::CaseInsensitive) != 0
        || url.port(defaultPort(url)) != base.port(defaultPort(base)))
        return std::nullopt;
    const QString basePath = base.path(QUrl::FullyEncoded);
    const QString path = url.path(QUrl::FullyEncoded);
    if (!path.startsWith(basePath))
        return std::nullopt;
    QStringList segments = path.mid(basePath.size()).split(QLatin1Char('/'));
    for (QString &s : segments) {
        s = QUrl::fromPercentEncoding(s.toUtf8());
        // An encoded separator ("..%2F") is one segment here but several to a server that
        // decodes before it resolves dot segments (nginx does; "\\" on Windows servers).
        if (s == QLatin1StringView("..") || s == QLatin1StringView(".") || s.contains(QLatin1Char('/')) || s.contains(QLatin1Char('\\')))
            return std::nullopt;
    }
    return segments;
}

AutoindexLink classifyAutoindexLink(const QUrl &base, const QUrl &pageUrl, const QString &href)
{
    AutoindexLink link;
    if (href.isEmpty() || href.startsWith(QLatin1Char('?')) || href.startsWith(QLatin1Char('#')))
        return link;
    const QUrl ref(href);
    if (!ref.isValid() || ref.hasQuery())
        return link;
    QUrl target = pageUrl.resolved(ref);
    target.setFragment(QString());
    const std::optional<QStringList> segs = autoindexSegments(base, target);
    if (!segs || segs->size() < 2)
        return link; // outside the base, the base itself
    if (segs->constLast().isEmpty()) {
        link.kind = AutoindexLink::Kind::Directory;
        link.url = target;
        link.depth = int(segs->size()) - 1; // directories below the base
    } else if (segs->size() == 4 && segs->constLast() == QLatin1StringView("index.json")) {
        link.kind = AutoindexLink::Kind::IndexJson;
        link.url = target;
        link.address = segs->mid(0, 3).join(QLatin1Char('/'));
    }
    return link;
}

Result<AutoindexResult> crawlAutoindex(const QString &baseUrl, const AutoindexOptions &options, const std::atomic<bool> *cancel)
{
    QUrl base(baseUrl.trimmed(), QUrl::StrictMode);
    if (!base.isValid() || base.scheme().isEmpty() || base.host().isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("\"%1\" is not a valid URL").arg(redactUrlText(baseUrl)));
    QString why;
    if (!httpUrlAllowed(base, options.http.allowHttpLoopback, &why))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("cannot crawl \"%1\": %2").arg(redactUrlText(baseUrl), why));
    base.setQuery(QString());
    base.setFragment(QString());
    if (!base.path().endsWith(QLatin1Char('/')))
        base.setPath(base.path() + QLatin1Char('/'));

    HttpSettings settings = options.http;
    settings.maxParallel = std::clamp(settings.maxParallel, 1, 2);
    if (settings.userAgent.isEmpty())
        settings.userAgent = "Provender/" + QCoreApplication::applicationVersion().toUtf8();
    HttpRunner runner(settings);

    AutoindexResult result;
    std::map<QString, ProviderAddress> found; // by address string: sorted, unique
    QSet<QString> seen;                       // directory paths queued (encoded)
    QSet<QString> invalidNames;
    std::optional<QString> rootError;
    int pagesQueued = 0;

    std::function<void(const QUrl &, int)> enqueuePage;
    enqueuePage = [&](const QUrl &url, int depth) {
        const QString key = url.path(QUrl::FullyEncoded);
        if (seen.contains(key))
            return;
        if (pagesQueued >= options.maxPages) {
            if (!result.truncated)
                result.warnings.append(QStringLiteral("stopped after %1 pages (the page limit)").arg(options.maxPages));
            result.truncated = true;
            return;
        }
        seen.insert(key);
        ++pagesQueued;
        HttpJob job;
        job.url = url;
        job.collectBody = true;
        job.maxBodyBytes = options.maxPageBytes;
        job.onDone = [&, url, depth](HttpOutcome &&o) {
            const bool isRoot = depth == 0;
            auto fail = [&](const QString &message) {
                if (isRoot)
                    rootError = message;
                else
                    result.warnings.append(message);
            };
            if (o.failure == HttpOutcome::Failure::Cancelled)
                return;
            if (!o.ok()) {
                fail(QStringLiteral("%1: %2").arg(url.toDisplayString(),
                                                  o.failure == HttpOutcome::Failure::None ? o.statusLine() : o.errorText));
                return;
            }
            ++result.pagesFetched;
            QByteArray media = o.contentType();
            if (const qsizetype semi = media.indexOf(';'); semi >= 0)
                media.truncate(semi);
            media = media.trimmed().toLower();
            if (media != "text/html" && media != "application/xhtml+xml") {
                fail(QStringLiteral("%1 is not a directory listing (Content-Type %2)")
                         .arg(url.toDisplayString(), media.isEmpty() ? QStringLiteral("none") : QString::fromLatin1(media)));
                return;
            }
            const QUrl pageUrl = o.finalUrl.isValid() ? o.finalUrl : url;
            if (!autoindexSegments(base, pageUrl)) {
                fail(QStringLiteral("%1 redirected outside the mirror to %2").arg(url.toDisplayString(), pageUrl.toDisplayString()));
                return;
            }
            for (const QString &href : htmlLinks(o.body)) {
                const AutoindexLink link = classifyAutoindexLink(base, pageUrl, href);
                if (link.kind == AutoindexLink::Kind::Directory) {
                    if (link.depth > depth && link.depth <= options.maxDepth)
                        enqueuePage(link.url, link.depth);
                    continue;
                }
                if (link.kind == AutoindexLink::Kind::IndexJson) {
                    const QString &address = link.address;
                    Result<ProviderAddress> parsed = ProviderAddress::parse(address);
                    if (parsed.ok()) {
                        found.emplace(parsed.value().toString(), parsed.value());
                    } else if (!invalidNames.contains(address)) {
                        invalidNames.insert(address);
                        result.warnings.append(QStringLiteral("%1 is not a provider address: %2").arg(address, parsed.error().message));
                    }
                }
            }
        };
        runner.enqueue(std::move(job));
    };

    if (cancel && cancel->load()) {
        result.cancelled = true;
        return result;
    }
    enqueuePage(base, 0);
    runner.run(cancel);
    result.cancelled = runner.isCancelled() || (cancel && cancel->load());
    result.log = runner.log();
    if (rootError && !result.cancelled)
        return makeError(ErrorCode::Network, QStringLiteral("the mirror offers no directory listing: %1").arg(*rootError));
    for (auto &[key, address] : found)
        result.providers.append(address);
    qCDebug(lcNetwork) << "autoindex crawl of" << base.toDisplayString() << "found" << result.providers.size() << "providers in"
                       << result.pagesFetched << "pages";
    return result;
}

} // namespace provender
