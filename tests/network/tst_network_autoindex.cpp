// Provider discovery from HTML directory listings: htmlLinks() on hand-written HTML (nginx and
// Apache mod_autoindex shapes, quoting variants, entities, comments, broken markup), then
// crawlAutoindex() against a real nginx over HTTPS (tests/support/NginxFixture) serving a tree the
// test builds, once through nginx's own `autoindex on` and once through static Apache-style pages.
// Expected providers follow from the tree the test creates; which URLs were requested (same
// origin, below the base, depth and page limits) is read from nginx's access log.

#include "tests/support/NginxFixture.h"

#include "model/network/AutoindexCrawler.h"

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QSet>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

namespace {

using provender::test::writeFile;

/// An Apache 2.4 mod_autoindex (FancyIndexing, HTMLTable) page listing `entries` (names, '/' = directory).
QByteArray apachePage(const QString &title, const QStringList &entries)
{
    QByteArray html = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 3.2 Final//EN\">\n<html>\n <head>\n  <title>Index of " + title.toUtf8()
        + "</title>\n </head>\n <body>\n<h1>Index of " + title.toUtf8()
        + "</h1>\n  <table>\n   <tr><th valign=\"top\"><img src=\"/icons/blank.gif\" alt=\"[ICO]\"></th>"
          "<th><a href=\"?C=N;O=D\">Name</a></th><th><a href=\"?C=M;O=A\">Last modified</a></th>"
          "<th><a href=\"?C=S;O=A\">Size</a></th></tr>\n   <tr><th colspan=\"4\"><hr></th></tr>\n"
          "<tr><td valign=\"top\"><img src=\"/icons/back.gif\" alt=\"[PARENTDIR]\"></td><td><a href=\"../\">Parent "
          "Directory</a></td><td>&nbsp;</td><td align=\"right\">  - </td></tr>\n";
    for (const QString &e : entries) {
        const bool dir = e.endsWith(QLatin1Char('/'));
        html += "<tr><td valign=\"top\"><img src=\"/icons/" + QByteArray(dir ? "folder" : "text") + ".gif\" alt=\"["
            + QByteArray(dir ? "DIR" : "TXT") + "]\"></td><td><a href=\"" + e.toUtf8() + "\">" + e.toUtf8()
            + "</a></td><td align=\"right\">2026-11-30 10:00  </td><td align=\"right\">  - </td></tr>\n";
    }
    html += "   <tr><th colspan=\"4\"><hr></th></tr>\n</table>\n<address>Apache/2.4.62 (Debian) Server at m.example Port "
            "443</address>\n</body></html>\n";
    return html;
}

} // namespace

class TestNetworkAutoindex : public QObject
{
    Q_OBJECT
    test::NginxFixture m_nginx;
    QTemporaryDir m_tmp;
    QList<QSslCertificate> m_ca;
    bool m_started = false;

    AutoindexOptions options() const
    {
        AutoindexOptions o;
        o.http.caCertificates = m_ca;
        o.http.timeoutMs = 5000;
        return o;
    }
    QList<QByteArray> requestedPaths(qint64 from) const
    {
        QList<QByteArray> paths;
        for (const QByteArray &line : m_nginx.accessLogFrom(from).split('\n'))
            if (!line.isEmpty())
                paths << line.split(' ').value(1);
        return paths;
    }

private Q_SLOTS:
    void htmlLinks_data()
    {
        QTest::addColumn<QByteArray>("html");
        QTest::addColumn<QStringList>("links");
        QTest::newRow("nginx autoindex") << QByteArray(
            "<html>\r\n<head><title>Index of /</title></head>\r\n<body>\r\n<h1>Index of /</h1><hr><pre>"
            "<a href=\"../\">../</a>\r\n<a href=\"example.com/\">example.com/</a>                      "
            "30-Nov-2026 10:00       -\r\n<a href=\"index.json\">index.json</a>  30-Nov-2026 10:00   42\r\n"
            "</pre><hr></body>\r\n</html>\r\n")
                                         << QStringList{QStringLiteral("../"), QStringLiteral("example.com/"),
                                                        QStringLiteral("index.json")};
        QTest::newRow("apache autoindex") << apachePage(QStringLiteral("/m"), {QStringLiteral("example.com/")})
                                          << QStringList{QStringLiteral("?C=N;O=D"), QStringLiteral("?C=M;O=A"), QStringLiteral("?C=S;O=A"),
                                                         QStringLiteral("../"), QStringLiteral("example.com/")};
        QTest::newRow("quoting and case") << QByteArray(
            "<A HREF='one/'>1</A><a\nclass=x href=two/ >2</a><a title=\"a>b\" href = \"three/\">3</a>")
                                          << QStringList{QStringLiteral("one/"), QStringLiteral("two/"), QStringLiteral("three/")};
        QTest::newRow("entities") << QByteArray("<a href=\"a&amp;b/\">x</a><a href=\"&#x63;&#100;/\">y</a><a href=\"&bogus;/\">z</a>")
                                  << QStringList{QStringLiteral("a&b/"), QStringLiteral("cd/"), QStringLiteral("&bogus;/")};
        QTest::newRow("not links") << QByteArray(
            "<!-- <a href=\"hidden/\"> --><abbr href=\"no/\">x</abbr><link href=\"style.css\"><a name=top>t</a>"
            "<area href=\"no2/\">") << QStringList{};
        QTest::newRow("broken markup") << QByteArray("<a href=\"unterminated/") << QStringList{QStringLiteral("unterminated/")};
        QTest::newRow("truncated tag") << QByteArray("<a href=") << QStringList{QString()};
        QTest::newRow("lone bracket") << QByteArray("<a") << QStringList{};
        QTest::newRow("empty") << QByteArray() << QStringList{};
    }
    void htmlLinks()
    {
        QFETCH(QByteArray, html);
        QFETCH(QStringList, links);
        QCOMPARE(provender::htmlLinks(html), links);
    }

    void htmlLinksNeverCrash()
    {
        // Every prefix of a page with every kind of construct: no crash, no hang.
        const QByteArray page = apachePage(QStringLiteral("/x"), {QStringLiteral("a/"), QStringLiteral("b.json")})
            + "<a href='q'><!-- <a href=z> --><A HREF=r>&#xFFFFFFFF;&#55296;&amp";
        for (qsizetype i = 0; i <= page.size(); ++i)
            (void)provender::htmlLinks(page.left(i));
    }

    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::NginxFixture::missingTools());
        QVERIFY(m_tmp.isValid());
        const QString root = m_tmp.filePath(QStringLiteral("www"));
        const QByteArray json = "{\"versions\":{}}";
        // The nginx tree: three providers, a directory without index.json, an index.json too deep,
        // a directory name that is not a valid address, and a listing that is forbidden.
        for (const char *p : {"m/example.com/acme/good/index.json", "m/example.com/acme/other/index.json",
                              "m/registry.terraform.io/hashicorp/random/index.json", "m/example.com/acme/noindex/1.0.0.json",
                              "m/example.com/acme/good/deep/er/index.json", "m/bad_host!/ns/type/index.json",
                              "m/example.com/secret/thing/index.json", "outside/example.com/acme/out/index.json"})
            QVERIFY(writeFile(root + QLatin1Char('/') + QString::fromLatin1(p), json));
        // Apache-style static pages (index.html in each directory) listing one provider, a link to
        // another origin, an absolute link outside the base and links that climb out of it
        // through an encoded separator (nginx decodes "..%2F" before it resolves "..").
        const QString a = root + QStringLiteral("/apache");
        QVERIFY(writeFile(a + QStringLiteral("/index.html"),
                          apachePage(QStringLiteral("/apache"),
                                     {QStringLiteral("example.com/"), QStringLiteral("https://other.invalid/x/"),
                                      QStringLiteral("/outside/"), QStringLiteral("..%2Foutside/"),
                                      QStringLiteral("example.com/..%2F..%2Foutside/"), QStringLiteral("..%5Coutside/")})));
        QVERIFY(writeFile(a + QStringLiteral("/example.com/index.html"),
                          apachePage(QStringLiteral("/apache/example.com"), {QStringLiteral("acme/")})));
        QVERIFY(writeFile(a + QStringLiteral("/example.com/acme/index.html"),
                          apachePage(QStringLiteral("/apache/example.com/acme"), {QStringLiteral("thing/")})));
        QVERIFY(writeFile(a + QStringLiteral("/example.com/acme/thing/index.html"),
                          apachePage(QStringLiteral("/apache/example.com/acme/thing"),
                                     {QStringLiteral("1.0.0.json"), QStringLiteral("index.json"),
                                      QStringLiteral("terraform-provider-thing_1.0.0_linux_amd64.zip")})));
        QVERIFY(writeFile(a + QStringLiteral("/example.com/acme/thing/index.json"), json));

        QString error;
        QVERIFY2(m_nginx.makeCertificates(&error), qPrintable(error));
        const QString extra = QStringLiteral("    autoindex on;\n"
                                             "    location /m/example.com/secret/ { autoindex off; }\n"
                                             "    location /apache/ { autoindex off; types { text/html html; application/json json; } }\n"
                                             "    location /plain/ { autoindex off; }\n");
        QVERIFY2(m_nginx.start(root, extra, {}, &error), qPrintable(error));
        m_ca = QSslCertificate::fromPath(m_nginx.caFile());
        QCOMPARE(m_ca.size(), 1);
        m_started = true;
    }

    void nginxAutoindex()
    {
        const qint64 from = m_nginx.accessLogSize();
        const Result<AutoindexResult> r = crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("m/"), options());
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(test::toStrings(r.value().providers),
                 (QStringList{QStringLiteral("example.com/acme/good"), QStringLiteral("example.com/acme/other"),
                              QStringLiteral("registry.terraform.io/hashicorp/random")}));
        QVERIFY(!r.value().truncated);
        // The forbidden listing and the invalid host name are reported.
        const QString warnings = r.value().warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("m/example.com/secret/: 403 Forbidden")), qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("bad_host!/ns/type is not a provider address")), qPrintable(warnings));

        // Only directories below the base, never deeper than HOST/NS/TYPE/, each once; no JSON fetched.
        const QList<QByteArray> paths = requestedPaths(from);
        QCOMPARE(int(paths.size()), r.value().pagesFetched + 1); // + the forbidden one
        QCOMPARE(int(r.value().log.size()), int(paths.size()));
        QSet<QByteArray> unique(paths.begin(), paths.end());
        QCOMPARE(unique.size(), paths.size());
        for (const QByteArray &p : paths) {
            QVERIFY2(p.startsWith("/m/") && p.endsWith('/'), p.constData());
            QVERIFY2(p.count('/') <= 5, p.constData()); // /m/HOST/NS/TYPE/
        }
        QVERIFY(unique.contains("/m/example.com/acme/good/"));
        QVERIFY(!unique.contains("/m/example.com/acme/good/deep/"));
    }

    void apacheStylePages()
    {
        const qint64 from = m_nginx.accessLogSize();
        const Result<AutoindexResult> r = crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("apache"), options()); // no '/'
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(test::toStrings(r.value().providers), QStringList{QStringLiteral("example.com/acme/thing")});
        const QList<QByteArray> paths = requestedPaths(from);
        QCOMPARE(paths,
                 (QList<QByteArray>{"/apache/", "/apache/example.com/", "/apache/example.com/acme/", "/apache/example.com/acme/thing/"}));
    }

    void limits()
    {
        AutoindexOptions o = options();
        o.maxDepth = 2; // HOST/NS/ only: index.json links are never seen
        Result<AutoindexResult> r = crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("m/"), o);
        QVERIFY(r.ok());
        QVERIFY(r.value().providers.isEmpty());
        QVERIFY(!r.value().truncated);

        o = options();
        o.maxPages = 3;
        const qint64 from = m_nginx.accessLogSize();
        r = crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("m/"), o);
        QVERIFY(r.ok());
        QVERIFY(r.value().truncated);
        QCOMPARE(requestedPaths(from).size(), 3);
    }

    void noListing()
    {
        // A directory without a listing: the crawl fails with the reason.
        const Result<AutoindexResult> r = crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("plain/"), options());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("404 Not Found")), qPrintable(r.error().message));
        // A JSON document is not a listing.
        const Result<AutoindexResult> j =
            crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("m/example.com/acme/good/index.json/"), options());
        QVERIFY(!j.ok());
        // http:// to a non-loopback host is refused before any request.
        const Result<AutoindexResult> h = crawlAutoindex(QStringLiteral("http://mirror.example/"), options());
        QVERIFY(!h.ok());
        QCOMPARE(h.error().code, ErrorCode::InvalidArgument);
    }

    void cancelled()
    {
        std::atomic<bool> cancel{true};
        const Result<AutoindexResult> r = crawlAutoindex(m_nginx.baseUrl() + QStringLiteral("m/"), options(), &cancel);
        QVERIFY(r.ok());
        QVERIFY(r.value().cancelled);
        QVERIFY(r.value().providers.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNetworkAutoindex)
#include "tst_network_autoindex.moc"
