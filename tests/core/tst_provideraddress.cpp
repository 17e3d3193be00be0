// Provider source addresses. Expected values: tofu-formats.md §2.1-§2.4, the upstream tables of
// opentofu/registry-address (provider_test.go: TestParseProviderSource, TestParseProviderPart) and
// opentofu/svchost (svchost_test.go: TestForComparison, TestHostnameForDisplay), and the error
// formats of registry-address's ParseProviderSource ("<summary>: <detail>", quirks included).

#include "model/core/ProviderAddress.h"
#include "tests/support/TestSupport.h"

#include <QTest>

using namespace provender;

namespace {
QString u8(const char *s)
{
    return QString::fromUtf8(s);
}

/// The columns of a normalization table: the input, what it normalizes to, the error ("" for none).
void normalizeColumns()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("want");
    QTest::addColumn<QString>("error");
}

void normalizeRow(const char *name, const char *in, const char *want, const char *error)
{
    QTest::newRow(name) << u8(in) << u8(want) << u8(error);
}

/// A normalization's result `r` against the row: the error it must fail with, else the value.
void compareNormalized(const Result<QString> &r, const QString &want, const QString &error)
{
    if (!error.isEmpty()) {
        QVERIFY2(!r.ok(), qPrintable(r.ok() ? r.value() : QString()));
        QCOMPARE(r.error().message, error);
    } else {
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(r.value(), want);
    }
}
} // namespace

class TestProviderAddress : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("defaultHost");
        QTest::addColumn<QString>("host"); // comparison form
        QTest::addColumn<QString>("ns");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("string"); // String(): display host
        auto row = [](const char *in, const char *host, const char *ns, const char *type, const char *str,
                      const char *def = "registry.opentofu.org") {
            QTest::addRow("%s (default %s)", in, def) << u8(in) << u8(def) << u8(host) << u8(ns) << u8(type) << u8(str);
        };
        // registry-address TestParseProviderSource (+ ParseProviderSourceString's "hashicorp")
        row("registry.opentofu.org/hashicorp/aws", "registry.opentofu.org", "hashicorp", "aws", "registry.opentofu.org/hashicorp/aws");
        row("registry.opentofu.org/HashiCorp/AWS", "registry.opentofu.org", "hashicorp", "aws", "registry.opentofu.org/hashicorp/aws");
        row("opentofu.org/builtin/opentofu", "opentofu.org", "builtin", "opentofu", "opentofu.org/builtin/opentofu");
        row("terraform.io/builtin/terraform", "terraform.io", "builtin", "terraform", "terraform.io/builtin/terraform");
        row("terraform", "registry.opentofu.org", "hashicorp", "terraform", "registry.opentofu.org/hashicorp/terraform");
        // a 1-part address returns before the type-prefix checks (registry-address; terraform agrees)
        row("terraform-provider-aws", "registry.opentofu.org", "hashicorp", "terraform-provider-aws",
            "registry.opentofu.org/hashicorp/terraform-provider-aws");
        row("hashicorp/aws", "registry.opentofu.org", "hashicorp", "aws", "registry.opentofu.org/hashicorp/aws");
        row("HashiCorp/AWS", "registry.opentofu.org", "hashicorp", "aws", "registry.opentofu.org/hashicorp/aws");
        row("aws", "registry.opentofu.org", "hashicorp", "aws", "registry.opentofu.org/hashicorp/aws");
        row("AWS", "registry.opentofu.org", "hashicorp", "aws", "registry.opentofu.org/hashicorp/aws");
        row("example.com/foo-bar/baz-boop", "example.com", "foo-bar", "baz-boop", "example.com/foo-bar/baz-boop");
        row("foo-bar/baz-boop", "registry.opentofu.org", "foo-bar", "baz-boop", "registry.opentofu.org/foo-bar/baz-boop");
        row("localhost:8080/foo/bar", "localhost:8080", "foo", "bar", "localhost:8080/foo/bar");
        // tofu-formats.md §2.1 normalization examples
        row("AwesomeCorp/x", "registry.opentofu.org", "awesomecorp", "x", "registry.opentofu.org/awesomecorp/x");
        row("Café/x", "registry.opentofu.org", "café", "x", "registry.opentofu.org/café/x");
        row("ＡＢＣ/ﬁle", "registry.opentofu.org", "abc", "file", "registry.opentofu.org/abc/file");
        row("straße/x", "registry.opentofu.org", "straße", "x", "registry.opentofu.org/straße/x");
        row("CAFÉ.fr/a/b", "xn--caf-dma.fr", "a", "b", "café.fr/a/b");
        row("Registry.OpenTofu.org/a/b", "registry.opentofu.org", "a", "b", "registry.opentofu.org/a/b");
        row("ＥＸＡＭＰＬＥ.com/a/b", "example.com", "a", "b", "example.com/a/b");
        row("example.com:443/a/b", "example.com", "a", "b", "example.com/a/b");
        row("example.com:08443/a/b", "example.com:8443", "a", "b", "example.com:8443/a/b");
        row("this/one/okay", "this", "one", "okay", "this/one/okay"); // single-label host (§1.2)
        row("terraform.io/test/x", "terraform.io", "test", "x", "terraform.io/test/x");
        // svchost TestForComparison hosts inside an address
        row("Испытание.com/a/b", "xn--80akhbyknj4f.com", "a", "b", "испытание.com/a/b");
        row("münchen.de/a/b", "xn--mnchen-3ya.de", "a", "b", "münchen.de/a/b");         // precomposed ü
        row("mu\xcc\x88nchen.de/a/b", "xn--mnchen-3ya.de", "a", "b", "münchen.de/a/b"); // u + combining diaeresis
        row("HashiCorp.com/a/b", "hashicorp.com", "a", "b", "hashicorp.com/a/b");
        row("1example.com/a/b", "1example.com", "a", "b", "1example.com/a/b");
        row("http:80/a/b", "http:80", "a", "b", "http:80/a/b");
        // legacy namespace on the default host (§2.1)
        row("-/aws", "registry.opentofu.org", "-", "aws", "registry.opentofu.org/-/aws");
        row("registry.opentofu.org/-/aws", "registry.opentofu.org", "-", "aws", "registry.opentofu.org/-/aws");
        // Terraform's default host (§2.1 constants, §10)
        row("hashicorp/aws", "registry.terraform.io", "hashicorp", "aws", "registry.terraform.io/hashicorp/aws", "registry.terraform.io");
        row("aws", "registry.terraform.io", "hashicorp", "aws", "registry.terraform.io/hashicorp/aws", "registry.terraform.io");
    }
    void parse()
    {
        QFETCH(QString, input);
        QFETCH(QString, defaultHost);
        QFETCH(QString, host);
        QFETCH(QString, ns);
        QFETCH(QString, type);
        QFETCH(QString, string);
        const Result<ProviderAddress> a = ProviderAddress::parse(input, defaultHost);
        QVERIFY2(a.ok(), qPrintable(a.ok() ? QString() : a.error().message));
        QCOMPARE(a->hostname(), host);
        QCOMPARE(a->ns(), ns);
        QCOMPARE(a->type(), type);
        QCOMPARE(a->toString(), string);
        QVERIFY(!a->isNull());
        // String() is canonical: it parses back to the same address and prints the same
        // (except a 1-part type with a forbidden prefix, which only the 3-part form checks).
        if (type.startsWith(QStringLiteral("terraform-"))) {
            QVERIFY(!ProviderAddress::parse(string, defaultHost).ok());
            return;
        }
        const Result<ProviderAddress> again = ProviderAddress::parse(string, defaultHost);
        QVERIFY(again.ok());
        QCOMPARE(again.value(), a.value());
        QCOMPARE(again->toString(), string);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("error");
        const QString format = QStringLiteral("Invalid provider source string: The \"source\" attribute must be in the "
                                              "format \"[hostname/][namespace/]name\"");
        const QString letters = QStringLiteral("must contain only letters, digits, and dashes, and may not use leading "
                                               "or trailing dashes");
        auto type = [](const QString &given, const QString &source, const QString &why) {
            return QStringLiteral("Invalid provider type: Invalid provider type \"%1\" in source \"%2\": %3\"").arg(given, source, why);
        };
        auto ns = [](const QString &source, const QString &why) {
            return QStringLiteral("Invalid provider namespace: Invalid provider namespace \"\" in source \"%1\": %2\"").arg(source, why);
        };
        auto host = [](const QString &source, const QString &why) {
            return QStringLiteral("Invalid provider source hostname: Invalid provider source hostname namespace \"\" in "
                                  "source \"%1\": %2\"")
                .arg(source, why);
        };
        auto row = [](const QString &in, const QString &error) { QTest::newRow(qPrintable(in)) << in << error; };

        // registry-address TestParseProviderSource error rows
        row(QStringLiteral("example.com/too/many/parts/here"), format);
        row(QStringLiteral("/too///many//slashes"), format);
        row(QStringLiteral("///"), format);
        row(QStringLiteral("/ / /"), format);
        row(QStringLiteral(""), format);
        row(QStringLiteral("a//b"), format);
        row(QStringLiteral("badhost!/hashicorp/aws"),
            host(QStringLiteral("badhost!/hashicorp/aws"), QStringLiteral("idna: disallowed rune U+0021")));
        row(QStringLiteral("example.com/badnamespace!/aws"), ns(QStringLiteral("example.com/badnamespace!/aws"), letters));
        row(QStringLiteral("example.com/bad--namespace/aws"),
            ns(QStringLiteral("example.com/bad--namespace/aws"), QStringLiteral("cannot use multiple consecutive dashes")));
        row(QStringLiteral("example.com/-badnamespace/aws"), ns(QStringLiteral("example.com/-badnamespace/aws"), letters));
        row(QStringLiteral("example.com/badnamespace-/aws"), ns(QStringLiteral("example.com/badnamespace-/aws"), letters));
        row(QStringLiteral("example.com/bad.namespace/aws"),
            ns(QStringLiteral("example.com/bad.namespace/aws"), QStringLiteral("dots are not allowed")));
        row(QStringLiteral("example.com/hashicorp/badtype!"),
            type(QStringLiteral("badtype!"), QStringLiteral("example.com/hashicorp/badtype!"), letters));
        row(QStringLiteral("example.com/hashicorp/bad--type"),
            type(QStringLiteral("bad--type"), QStringLiteral("example.com/hashicorp/bad--type"),
                 QStringLiteral("cannot use multiple consecutive dashes")));
        row(QStringLiteral("example.com/hashicorp/-badtype"),
            type(QStringLiteral("-badtype"), QStringLiteral("example.com/hashicorp/-badtype"), letters));
        row(QStringLiteral("example.com/hashicorp/badtype-"),
            type(QStringLiteral("badtype-"), QStringLiteral("example.com/hashicorp/badtype-"), letters));
        row(QStringLiteral("example.com/hashicorp/bad.type"),
            type(QStringLiteral("bad.type"), QStringLiteral("example.com/hashicorp/bad.type"), QStringLiteral("dots are not allowed")));
        row(QStringLiteral("example.com/opentofu/opentofu-provider-bad"),
            QStringLiteral("Invalid provider type: Provider source \"example.com/opentofu/opentofu-provider-bad\" has a "
                           "type with the prefix \"opentofu-provider-\", which isn't valid. Although that prefix is "
                           "sometimes used in the names of version control repositories for OpenTofu providers, provider "
                           "source strings should not include it.\n\nDid you mean \"example.com/opentofu/bad\"?"));
        row(QStringLiteral("example.com/opentofu/opentofu-bad"),
            QStringLiteral("Invalid provider type: Provider source \"example.com/opentofu/opentofu-bad\" has a type with "
                           "the prefix \"opentofu-\", which isn't allowed because it would be redundant to name an "
                           "OpenTofu provider with that prefix. If you are the author of this provider, rename it to not "
                           "include the prefix."));
        row(QStringLiteral("example.com/opentofu/terraform-provider-bad"),
            QStringLiteral("Invalid provider type: Provider source \"example.com/opentofu/terraform-provider-bad\" has a "
                           "type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often "
                           "used in the names of version control repositories for Terraform providers, provider source "
                           "strings should not include it.\n\nDid you mean \"example.com/opentofu/bad\"?"));
        row(QStringLiteral("example.com/opentofu/terraform-bad"),
            QStringLiteral("Invalid provider type: Provider source \"example.com/opentofu/terraform-bad\" has a type with "
                           "the prefix \"terraform-\", which isn't allowed because it would be redundant to name a "
                           "Terraform provider with that prefix. If you are the author of this provider, rename it to not "
                           "include the prefix."));
        // ForDisplay() omits the default host in the suggestion; String() keeps it in the other message.
        row(QStringLiteral("hashicorp/terraform-provider-aws"),
            QStringLiteral("Invalid provider type: Provider source \"hashicorp/terraform-provider-aws\" has a type with "
                           "the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in "
                           "the names of version control repositories for Terraform providers, provider source strings "
                           "should not include it.\n\nDid you mean \"hashicorp/aws\"?"));
        row(QStringLiteral("hashicorp/terraform-aws"),
            QStringLiteral("Invalid provider type: Provider source \"registry.opentofu.org/hashicorp/terraform-aws\" has "
                           "a type with the prefix \"terraform-\", which isn't allowed because it would be redundant to "
                           "name a Terraform provider with that prefix. If you are the author of this provider, rename it "
                           "to not include the prefix."));
        // the suggestion is only made when the rest is a valid type
        row(QStringLiteral("x/terraform-provider--a"),
            type(QStringLiteral("terraform-provider--a"), QStringLiteral("x/terraform-provider--a"),
                 QStringLiteral("cannot use multiple consecutive dashes")));
        // tofu-formats.md §2.1 rejected parts
        row(QStringLiteral("a/foo_bar"), type(QStringLiteral("foo_bar"), QStringLiteral("a/foo_bar"), letters));
        row(QStringLiteral("-foo/x"), ns(QStringLiteral("-foo/x"), letters));
        row(QStringLiteral("foo-/x"), ns(QStringLiteral("foo-/x"), letters));
        row(QStringLiteral("a b/x"), ns(QStringLiteral("a b/x"), letters));
        row(QStringLiteral("ab--cd/x"), ns(QStringLiteral("ab--cd/x"), QStringLiteral("cannot use multiple consecutive dashes")));
        // hosts (§2.1)
        row(QStringLiteral("a..b/x/y"),
            host(QStringLiteral("a..b/x/y"), QStringLiteral("hostname contains empty label (two consecutive periods)")));
        row(QStringLiteral("xn--caf-dma.fr/a/b"),
            host(QStringLiteral("xn--caf-dma.fr/a/b"),
                 QStringLiteral("hostname label \"xn--caf-dma\" specified in punycode format; service hostnames must be "
                                "given in unicode")));
        row(QStringLiteral("example.com:boo/a/b"),
            host(QStringLiteral("example.com:boo/a/b"), QStringLiteral("port portion contains non-digit characters")));
        row(QStringLiteral("example.com:65536/a/b"),
            host(QStringLiteral("example.com:65536/a/b"), QStringLiteral("port number is greater than 65535")));
        row(QStringLiteral("foo_bar.com/a/b"), host(QStringLiteral("foo_bar.com/a/b"), QStringLiteral("idna: disallowed rune U+005F")));
        // legacy namespace elsewhere (§2.1)
        row(QStringLiteral("example.com/-/aws"),
            QStringLiteral("Invalid provider namespace: The legacy provider namespace \"-\" can be used only with "
                           "hostname registry.opentofu.org."));
    }
    void errors()
    {
        QFETCH(QString, input);
        QFETCH(QString, error);
        const Result<ProviderAddress> a = ProviderAddress::parse(input);
        QVERIFY2(!a.ok(), qPrintable(a.ok() ? a->toString() : QString()));
        QCOMPARE(a.error().message, error);
        QCOMPARE(a.error().code, ErrorCode::InvalidArgument);
    }

    void legacyWithTerraformDefault()
    {
        const auto tf = kTerraformRegistryHost;
        const Result<ProviderAddress> a = ProviderAddress::parse(u"-/aws", tf);
        QVERIFY(a.ok());
        QCOMPARE(a->toString(), QStringLiteral("registry.terraform.io/-/aws"));
        QVERIFY(a->isLegacy());
        const Result<ProviderAddress> b = ProviderAddress::parse(u"registry.opentofu.org/-/aws", tf);
        QVERIFY(!b.ok());
        QCOMPARE(b.error().message,
                 QStringLiteral("Invalid provider namespace: The legacy provider namespace \"-\" can "
                                "be used only with hostname registry.terraform.io."));
    }

    void normalizePart_data()
    {
        normalizeColumns();
        const auto row = normalizeRow;
        // registry-address TestParseProviderPart
        row("foo", "foo", "foo", "");
        row("FOO", "FOO", "foo", "");
        row("Foo", "Foo", "foo", "");
        row("abc-123", "abc-123", "abc-123", "");
        row("cyrillic", "Испытание", "испытание", "");
        row("precomposed", "münchen", "münchen", "");
        row("combining", "mu\xcc\x88nchen", "münchen", "");
        row("abc--123", "abc--123", "", "cannot use multiple consecutive dashes");
        row("punycode", "xn--80akhbyknj4f", "", "cannot use multiple consecutive dashes");
        row("abc.123", "abc.123", "", "dots are not allowed");
        row("-abc123", "-abc123", "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
        row("abc123-", "abc123-", "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
        row("empty", "", "", "must have at least one character");
        // tofu-formats.md §2.1 examples (checked there with golang.org/x/net/idna)
        row("AWS", "AWS", "aws", "");
        row("AwesomeCorp", "AwesomeCorp", "awesomecorp", "");
        row("Café", "Café", "café", "");
        row("fullwidth", "ＡＢＣ", "abc", "");
        row("ligature", "ﬁle", "file", "");
        row("sharp s kept", "straße", "straße", "");
        row("foo_bar", "foo_bar", "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
        row("-foo", "-foo", "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
        row("foo-", "foo-", "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
        row("a b", "a b", "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
        row("ab--cd", "ab--cd", "", "cannot use multiple consecutive dashes");
        // joiner outside its allowed context (CONTEXTJ), which Qt's QUrl::toAce would accept
        row("zwj",
            "ab\xe2\x80\x8d"
            "cd",
            "", "must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
    }
    void normalizePart()
    {
        QFETCH(QString, input);
        QFETCH(QString, want);
        QFETCH(QString, error);
        compareNormalized(ProviderAddress::normalizePart(input), want, error);
        if (!QTest::currentTestFailed() && error.isEmpty())
            QCOMPARE(ProviderAddress::normalizePart(want).value(), want); // idempotent
    }

    void normalizeHostname_data()
    {
        normalizeColumns();
        const auto row = normalizeRow;
        // svchost TestForComparison, every row
        row("empty", "", "", "empty string is not a valid hostname");
        row("example.com", "example.com", "example.com", "");
        row("example.com:443", "example.com:443", "example.com", "");
        row("example.com:81", "example.com:81", "example.com:81", "");
        row("example.com:081", "example.com:081", "example.com:81", "");
        row("invalid", "invalid", "invalid", "");
        row("localhost", "localhost", "localhost", "");
        row("localhost:1211", "localhost:1211", "localhost:1211", "");
        row("HashiCorp.com", "HashiCorp.com", "hashicorp.com", "");
        row("1example.com", "1example.com", "1example.com", "");
        row("Испытание.com", "Испытание.com", "xn--80akhbyknj4f.com", "");
        row("münchen precomposed", "münchen.de", "xn--mnchen-3ya.de", "");
        row("münchen combining", "mu\xcc\x88nchen.de", "xn--mnchen-3ya.de", "");
        row("blah..blah", "blah..blah", "", "hostname contains empty label (two consecutive periods)");
        row("example.com:boo", "example.com:boo", "", "port portion contains non-digit characters");
        row("example.com:80:boo", "example.com:80:boo", "", "port portion contains non-digit characters");
        row("example.com:9999999", "example.com:9999999", "", "port number is greater than 65535");
        row("https://example.com", "https://example.com", "", "need just a hostname and optional port number, not a full URL");
        row("https://example.com:80", "https://example.com:80", "", "need just a hostname and optional port number, not a full URL");
        row("http:80", "http:80", "http:80", "");
        row("https:80", "https:80", "https:80", "");
        // tofu-formats.md §2.1
        row("CAFÉ.fr", "CAFÉ.fr", "xn--caf-dma.fr", "");
        row("Registry.OpenTofu.org", "Registry.OpenTofu.org", "registry.opentofu.org", "");
        row("fullwidth", "ＥＸＡＭＰＬＥ.com", "example.com", "");
        row(":08443", "example.com:08443", "example.com:8443", "");
        row("user punycode", "xn--caf-dma.fr", "",
            "hostname label \"xn--caf-dma\" specified in punycode format; service hostnames must be given in unicode");
        row("space", "a b.com", "", "idna: disallowed rune U+0020");
        row("leading hyphen label", "-a.com", "", "idna: invalid label \"-a\"");
        row("trailing hyphen label", "a-.com", "", "idna: invalid label \"a-\"");
        row("hyphens 3-4", "ab--c.com", "", "idna: invalid label \"ab--c\"");
        row("sharp s nontransitional", "straße.de", "xn--strae-oqa.de", "");
        row("long label allowed", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com", "");
    }
    void normalizeHostname()
    {
        QFETCH(QString, input);
        QFETCH(QString, want);
        QFETCH(QString, error);
        compareNormalized(ProviderAddress::normalizeHostname(input), want, error);
    }

    void hostnameForDisplay_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("want");
        // svchost TestHostnameForDisplay + §2.1
        QTest::newRow("ascii") << u8("example.com") << u8("example.com");
        QTest::newRow("port") << u8("example.com:81") << u8("example.com:81");
        QTest::newRow("cyrillic") << u8("xn--80akhbyknj4f.com") << u8("испытание.com");
        QTest::newRow("cyrillic port") << u8("xn--80akhbyknj4f.com:8080") << u8("испытание.com:8080");
        QTest::newRow("münchen") << u8("xn--mnchen-3ya.de") << u8("münchen.de");
        QTest::newRow("café") << u8("xn--caf-dma.fr") << u8("café.fr");
    }
    void hostnameForDisplay()
    {
        QFETCH(QString, input);
        QFETCH(QString, want);
        QCOMPARE(ProviderAddress::hostnameForDisplay(input), want);
    }

    void forms()
    {
        // §2.2
        const ProviderAddress def = ProviderAddress::parse(u"hashicorp/aws").value();
        QCOMPARE(def.toString(), QStringLiteral("registry.opentofu.org/hashicorp/aws"));
        QCOMPARE(def.forDisplay(), QStringLiteral("hashicorp/aws"));
        QCOMPARE(def.forDisplay(kTerraformRegistryHost), QStringLiteral("registry.opentofu.org/hashicorp/aws"));
        const ProviderAddress idn = ProviderAddress::parse(u"CAFÉ.fr:8443/Ns/T").value();
        QCOMPARE(idn.hostname(), QStringLiteral("xn--caf-dma.fr:8443"));
        QCOMPARE(idn.displayHostname(), QStringLiteral("café.fr:8443"));
        QCOMPARE(idn.toString(), QStringLiteral("café.fr:8443/ns/t"));
        QCOMPARE(idn.forDisplay(), QStringLiteral("café.fr:8443/ns/t"));
        QVERIFY(ProviderAddress().isNull());
        QCOMPARE(ProviderAddress().toString(), QString());
    }

    void builtInAndLegacy()
    {
        // §2.1 constants; §1.2 (terraform.io/test/... is a normal host)
        QVERIFY(ProviderAddress::parse(u"terraform.io/builtin/terraform").value().isBuiltIn());
        QVERIFY(ProviderAddress::parse(u"opentofu.org/builtin/foo").value().isBuiltIn());
        QVERIFY(!ProviderAddress::parse(u"terraform.io/test/foo").value().isBuiltIn());
        QVERIFY(!ProviderAddress::parse(u"registry.opentofu.org/builtin/foo").value().isBuiltIn());
        QVERIFY(ProviderAddress::parse(u"-/aws").value().isLegacy());
        QVERIFY(!ProviderAddress::parse(u"hashicorp/aws").value().isLegacy());
        QVERIFY(!ProviderAddress::parse(u"terraform.io/builtin/terraform").value().isLegacy());
    }

    void ordering()
    {
        // §2.4: component-wise on the comparison form
        QList<ProviderAddress> list;
        for (const char *s :
             {"registry.terraform.io/hashicorp/aws", "example.com-b/x/y", "example.com/x/y", "registry.opentofu.org/hashicorp/google",
              "registry.opentofu.org/hashicorp/aws", "registry.opentofu.org/aaa/zzz", "café.fr/a/b", "d.fr/a/b"}) {
            list.append(ProviderAddress::parse(u8(s)).value());
        }
        std::sort(list.begin(), list.end());
        QCOMPARE(test::toStrings(list),
                 (QStringList{u8("d.fr/a/b"), u8("example.com/x/y"), u8("example.com-b/x/y"), u8("registry.opentofu.org/aaa/zzz"),
                              u8("registry.opentofu.org/hashicorp/aws"), u8("registry.opentofu.org/hashicorp/google"),
                              u8("registry.terraform.io/hashicorp/aws"), u8("café.fr/a/b")}));
        const ProviderAddress x = ProviderAddress::parse(u"a/b").value();
        QCOMPARE(x, ProviderAddress::parse(u"registry.opentofu.org/A/B").value());
        QVERIFY(qHash(x) == qHash(ProviderAddress::parse(u"registry.opentofu.org/a/b").value()));
    }

    void neverCrashes()
    {
        const QStringList inputs = {QString(5000, QLatin1Char('a')) + QStringLiteral("/b/c"),
                                    QString(2000, QChar(0x00e9)) + QStringLiteral(".com/b/c"),
                                    QString(QChar(0xD800)) + QStringLiteral("/x"),
                                    QStringLiteral("\u3002/x"),
                                    QStringLiteral("a\u3002b/x/y"),
                                    QStringLiteral("a:+80/x/y"),
                                    QStringLiteral("a:-1/x/y"),
                                    QStringLiteral(".a/x/y"),
                                    QStringLiteral("a./x/y"),
                                    QStringLiteral("a../x/y"),
                                    QStringLiteral("\u202e/x"),
                                    QStringLiteral("\U0001F600/x"),
                                    QStringLiteral(":/x/y"),
                                    QStringLiteral("a:/x/y")};
        for (const QString &s : inputs) {
            const Result<ProviderAddress> a = ProviderAddress::parse(s);
            if (a.ok())
                QVERIFY(!a->toString().isEmpty());
            else
                QVERIFY(!a.error().message.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestProviderAddress)
#include "tst_provideraddress.moc"
