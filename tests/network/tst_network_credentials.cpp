// Credentials as tofu resolves them and URL building (tofu-formats.md §6). Expected values are
// the examples of the spec.

#include "model/network/Credentials.h"
#include "model/network/NetworkMirror.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

class TestNetworkCredentials : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tokenVariable_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QString>("host");
        QTest::newRow("dots") << "app_terraform_io"
                              << "app.terraform.io";
        QTest::newRow("dash") << "my__host_example_com"
                              << "my-host.example.com";
        QTest::newRow("punycode") << "env_xn____caf__dma_fr"
                                  << "env.xn--caf-dma.fr";
        QTest::newRow("literal dots") << "configured.example.com"
                                      << "configured.example.com";
        QTest::newRow("upper case") << "CONFIGUREDUPPERCASE_EXAMPLE_COM"
                                    << "configureduppercase.example.com";
        QTest::newRow("invalid") << "bad__"
                                 << "";
    }
    void tokenVariable()
    {
        QFETCH(QString, suffix);
        QFETCH(QString, host);
        QCOMPARE(hostFromTokenVariable(suffix), host);
    }

    void cliConfigBlocks()
    {
        const QByteArray text = "# comment\n"
                                "provider_installation {\n  network_mirror {\n    url = \"https://m/\"\n  }\n}\n"
                                "// credentials \"commented.example\" { token = \"no\" }\n"
                                "/* credentials \"block.example\" { token = \"no\" } */\n"
                                "credentials \"app.terraform.io\" {\n  token = \"abc\\\"def\"\n}\n"
                                "credentials \"notoken.example\" {\n  other = \"x\"\n}\n"
                                "credentials \"Second.Example\" { token = \"xyz\" }\n";
        const auto blocks = parseCliConfigCredentials(text);
        QCOMPARE(blocks.size(), 2);
        QCOMPARE(blocks.at(0).first, QStringLiteral("app.terraform.io"));
        QCOMPARE(blocks.at(0).second, QStringLiteral("abc\"def"));
        QCOMPARE(blocks.at(1).first, QStringLiteral("Second.Example"));
        QCOMPARE(blocks.at(1).second, QStringLiteral("xyz"));
    }

    void cliConfigAsTerraformReadsIt_data()
    {
        // What terraform 1.11.4 sent for these files (tests/interop/tst_interop_cliconfig.cpp
        // checks every row against the running terraform; these rows keep the rule where it is
        // absent). "" = no token.
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("token");
        QTest::newRow("later block wins") << QByteArray("credentials \"h.example\" { token = \"first\" }\n"
                                                        "credentials \"h.example\" { token = \"second\" }\n")
                                          << u"second"_s;
        QTest::newRow("block without token keeps the earlier one") << QByteArray("credentials \"h.example\" { token = \"kept\" }\n"
                                                                                 "credentials \"h.example\" { other = \"z\" }\n")
                                                                   << u"kept"_s;
        QTest::newRow("nested form") << QByteArray("credentials {\n  \"h.example\" {\n    token = \"nested\"\n  }\n}\n") << u"nested"_s;
        QTest::newRow("= form") << QByteArray("credentials = { \"h.example\" = { token = \"assigned\" } }\n") << u"assigned"_s;
        QTest::newRow("Go escapes") << QByteArray("credentials \"h.example\" { token = \"a\\u0041\\x42\\101\\\"q\" }\n") << u"aABA\"q"_s;
        QTest::newRow("number token") << QByteArray("credentials \"h.example\" { token = 12 }\n") << QString();
        QTest::newRow("number after a string") << QByteArray("credentials \"h.example\" { token = \"s\" }\n"
                                                             "credentials \"h.example\" { token = 12 }\n")
                                               << u"12"_s;
        QTest::newRow("JSON form") << QByteArray("{\"credentials\": {\"h.example\": {\"token\": \"json\"}}}") << u"json"_s;
        // The decoder takes the labelled blocks first, then the `=` and nested forms; setting names
        // in any case, a credentials block's attributes as written.
        QTest::newRow("= form before a block") << QByteArray("credentials = { \"h.example\" = { token = \"assigned\" } }\n"
                                                             "credentials \"h.example\" { token = \"block\" }\n")
                                               << u"assigned"_s;
        QTest::newRow("integer in = form before a string block") << QByteArray("credentials = { \"h.example\" = { token = 12 } }\n"
                                                                               "credentials \"h.example\" { token = \"s\" }\n")
                                                                 << u"12"_s;
        QTest::newRow("upper-case setting") << QByteArray("CREDENTIALS \"h.example\" { token = \"upper\" }\n") << u"upper"_s;
        QTest::newRow("upper-case token") << QByteArray("credentials \"h.example\" { TOKEN = \"upper\" }\n") << QString();
        QTest::newRow("syntax error anywhere") << QByteArray("credentials \"h.example\" { token = \"x\" }\nbroken \"\n") << QString();
    }
    void cliConfigAsTerraformReadsIt()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, token);
        QStringList warnings;
        const auto blocks = parseCliConfigCredentials(text, &warnings);
        QString got;
        for (const auto &[host, t] : blocks)
            if (host == u"h.example"_s)
                got = t;
        QCOMPARE(got, token);
        // A text hcl v1 rejects: nothing from it, and a warning that says where.
        if (QByteArrayView(QTest::currentDataTag()) == "syntax error anywhere") {
            QCOMPARE(blocks.size(), 0);
            QCOMPARE(warnings.size(), 1);
            QVERIFY2(warnings.first().startsWith(u"line 2, column 9: literal not terminated"_s), qPrintable(warnings.first()));
        } else {
            QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        }
    }

    void cliConfigDecoding_data()
    {
        // Whether tofu and terraform use a CLI config that parses, by how hcl v1 decodes it into
        // their `Config` struct (model/network/CliConfigDecode.h). `used`: "both", "neither", or
        // the one that uses it when the other does not. The terraform verdicts are what terraform
        // 1.11.4 did with these files (tests/interop/tst_interop_cliconfig.cpp, decoding and
        // credentials, checks each rule against the running terraform; these rows keep the rules
        // where it is absent); the tofu-only ones come from tofu's source, quoted by the row.
        QTest::addColumn<QByteArray>("text"); ///< after `credentials "h.example" { token = "t" }`
        QTest::addColumn<QString>("used");
        QTest::addColumn<QString>("warning"); ///< a part of the one warning ("": none)
        const auto row = [](const char *name, const QByteArray &text, const QString &used, const QString &warning) {
            QTest::newRow(name) << text << used << warning;
        };
        const QString unused = u"; nothing in the file is used"_s;
        row("a string setting", "plugin_cache_dir = \"/tmp\"\n", u"both"_s, QString());
        row("a string setting, an integer", "plugin_cache_dir = 1\n", u"both"_s, QString());
        row("a string setting, a list", "plugin_cache_dir = []\n", u"neither"_s,
            u"line 2: plugin_cache_dir is a list, not a string"_s + unused);
        row("a string setting, a fraction", "plugin_cache_dir = 1.5\n", u"neither"_s, u"line 2: plugin_cache_dir is a fraction"_s);
        row("a string setting, an empty block (terraform crashes)", "plugin_cache_dir {}\n", u"neither"_s, u"is an object"_s);
        row("a string setting, a labelled block", "plugin_cache_dir \"x\" {}\n", u"neither"_s, u"is a labelled block"_s);
        row("a string setting in capitals", "PLUGIN_CACHE_DIR = true\n", u"neither"_s, u"plugin_cache_dir is a boolean"_s);
        row("a boolean setting, a string", "plugin_cache_may_break_dependency_lock_file = \"true\"\n", u"neither"_s,
            u"is a string, not true or false"_s);
        row("a boolean setting, JSON null",
            "{\"credentials\": {\"h.example\": {\"token\": \"t\"}}, \"plugin_cache_may_break_dependency_lock_file\": null}", u"neither"_s,
            u"is null, not true or false"_s);
        // Settings only terraform's Config has (tofu's internal/command/cliconfig/cliconfig.go
        // Config has no Providers, Provisioners, DisableCheckpoint(Signature)).
        row("terraform only: disable_checkpoint a string", "disable_checkpoint = \"yes\"\n", u"tofu"_s,
            u"line 2: disable_checkpoint is a string, not true or false; terraform uses nothing in the file"_s);
        row("terraform only: providers of lists", "providers { a = [] }\n", u"tofu"_s, u"providers \"a\" is a list, not a string"_s);
        // tofu 1.12's hcl v1.0.1-vault-7 decodes a host's blocks into one ConfigHost (decodePtr:
        // "if pointer is not nil, decode into existing value"); terraform's v1.0.0 makes a new one.
        row("tofu only: services values of two blocks",
            "host \"o.example\" { services = { a = \"x\" } }\nhost \"o.example\" { services = { a = true } }\n", u"terraform"_s,
            u"line 3: host \"o.example\" services a is a boolean, not a string (the type of its first value); tofu uses nothing"_s);
        // tofu 1.12's hcl.Parse (v1.0.1-vault-7 hcl/parser/parser.go:110-121) refuses an argument
        // set twice in one body, naming the second's key as written (%q) and position; blocks may
        // repeat, keys compare as written, the JSON parser has no such check, and an item's value is
        // parsed before its key is checked. terraform's v1.0.0 takes the last value.
        const QString tofuCannotParse = u" was already set. Each argument can only be defined once; tofu uses nothing in the file (tofu "
                                        "1.12 and later cannot parse it), terraform uses it, and so does Provender"_s;
        row("tofu only: a token set twice in one block", "credentials \"o.example\" {\n  token = \"a\"\n  token = \"b\"\n}\n",
            u"terraform"_s, u"line 4: The argument \"token\" at 4:3"_s + tofuCannotParse);
        row("tofu only: a setting set twice", "plugin_cache_dir = \"/a\"\nplugin_cache_dir = \"/b\"\n", u"terraform"_s,
            u"line 3: The argument \"plugin_cache_dir\" at 3:1"_s + tofuCannotParse);
        row("tofu only: a key set twice in an object value", "host \"o.example\" { services = { a = \"x\", a = \"y\" } }\n", u"terraform"_s,
            u"line 2: The argument \"a\" at 2:42"_s + tofuCannotParse);
        row("tofu only: the repeat inside a value first", "zz = 1\nzz = { b = 1, b = 2 }\n", u"terraform"_s,
            u"line 3: The argument \"b\" at 3:15"_s + tofuCannotParse);
        row("tofu only: a quoted key set twice", "\"plugin_cache_dir\" = \"/a\"\n\"plugin_cache_dir\" = \"/b\"\n", u"terraform"_s,
            u"line 3: The argument \"\\\"plugin_cache_dir\\\"\" at 3:1"_s + tofuCannotParse);
        row("a key, then the same key quoted", "plugin_cache_dir = \"/a\"\n\"plugin_cache_dir\" = \"/b\"\n", u"both"_s, QString());
        row("a key, then in capitals", "credentials \"o.example\" { token = \"a\"\n  TOKEN = \"b\" }\n", u"both"_s, QString());
        row("the same argument in two blocks", "credentials \"o.example\" { token = \"a\" }\ncredentials \"o.example\" { token = \"b\" }\n",
            u"both"_s, QString());
        row("a block set twice", "zz {}\nzz {}\n", u"both"_s, QString());
        row("a setting set twice, JSON form",
            "{\"credentials\": {\"h.example\": {\"token\": \"t\"}}, \"plugin_cache_dir\": \"/a\", \"plugin_cache_dir\": \"/b\"}", u"both"_s,
            QString());
        row("services values of one block", "host \"o.example\" { services = { a = \"x\" }\n  services = { a = true } }\n", u"neither"_s,
            u"host \"o.example\" services a is a boolean"_s);
        row("a services value out of range", "host \"o.example\" { services = { a = 1e999 } }\n", u"neither"_s, u"Go cannot read 1e999"_s);
        // credentials: any values, a later one into the Go type of the first.
        row("an object in credentials (both crash)", "credentials \"o.example\" { x = { a = 1 } }\n", u"neither"_s,
            u"line 2: credentials \"o.example\" x holds an object"_s);
        row("an object in credentials, JSON form (both crash)",
            "{\"credentials\": {\"h.example\": {\"token\": \"t\"}, \"o.example\": {\"x\": {\"a\": 1}}}}", u"neither"_s,
            u"line 1: credentials \"o.example\" x holds an object"_s);
        row("a block in credentials (both crash)", "credentials \"o.example\" { x { a = 1 } }\n", u"neither"_s, u"holds an object"_s);
        row("two labels (both crash)", "credentials \"o.example\" \"x\" { token = \"b\" }\n", u"neither"_s, u"holds an object"_s);
        row("an object in a list in credentials", "credentials \"o.example\" { x = [{ a = 1 }] }\n", u"both"_s, QString());
        row("an object in an invalid host's credentials", "credentials \"bad host!\" { x = { a = 1 } }\n", u"both"_s, QString());
        row("an integer out of range", "credentials \"o.example\" { x = 99999999999999999999 }\n", u"neither"_s, u"as an int"_s);
        row("a fraction that underflows", "credentials \"o.example\" { x = 1e-400 }\n", u"both"_s, QString());
        row("a list, then an object", "credentials \"o.example\" { x = [1] }\ncredentials \"o.example\" { x = { a = 1 } }\n", u"both"_s,
            QString());
        row("a list, then an integer", "credentials \"o.example\" { x = [1] }\ncredentials \"o.example\" { x = 2 }\n", u"neither"_s,
            u"line 3: credentials \"o.example\" x is an integer, not a list (the type of its first value)"_s);
        row("an integer, then a heredoc", "credentials \"o.example\" { x = 5 }\ncredentials \"o.example\" { x = <<EOT\n5\nEOT\n}\n",
            u"neither"_s, u"is a heredoc, not an integer"_s);
        for (const char *goReads : {"0b101", "1_000", "+5", "0o17", "-0x10"})
            QTest::addRow("an integer, then \"%s\"", goReads)
                << QByteArray("credentials \"o.example\" { x = 5 }\ncredentials \"o.example\" { x = \"" + QByteArray(goReads) + "\" }\n")
                << u"both"_s << QString();
        for (const char *goRefuses : {" 5", "08", "1__0", "99999999999999999999", ""})
            QTest::addRow("an integer, then \"%s\"", goRefuses)
                << QByteArray("credentials \"o.example\" { x = 5 }\ncredentials \"o.example\" { x = \"" + QByteArray(goRefuses) + "\" }\n")
                << u"neither"_s << u"Go cannot read"_s;
        row("a fraction, then hexadecimal", "credentials \"o.example\" { x = 1.5 }\ncredentials \"o.example\" { x = 0x10 }\n", u"neither"_s,
            u"Go cannot read 0x10 as a float64"_s);
        // credentials_helper: objects whose args is a list of strings; two of them are only reported.
        row("helper args of a fraction", "credentials_helper \"x\" { args = [\"a\", 1.5] }\n", u"neither"_s,
            u"credentials_helper \"x\" args is a fraction, not a string"_s);
        row("helper args an empty object", "credentials_helper \"x\" { args = {} }\n", u"both"_s, QString());
        row("two helpers", "credentials_helper \"x\" {}\ncredentials_helper \"y\" {}\n", u"both"_s, QString());
        row("invalid provider_installation", "provider_installation = {}\n", u"both"_s, QString());
    }
    void cliConfigDecoding()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, used);
        QFETCH(QString, warning);
        if (!text.startsWith('{'))
            text.prepend("credentials \"h.example\" { token = \"t\" }\n");
        QStringList warnings;
        const auto blocks = parseCliConfigCredentials(text, &warnings);
        const bool read = !blocks.isEmpty() && blocks.first().second == u"t"_s;
        QCOMPARE(read, used != u"neither"_s);
        QCOMPARE(warnings.size(), warning.isEmpty() ? 0 : 1);
        if (warning.isEmpty())
            return;
        QVERIFY2(warnings.first().contains(warning), qPrintable(warnings.first()));
        const QString who = used == u"neither"_s ? u"nothing in the file is used"_s
            : used == u"tofu"_s                  ? u"terraform uses nothing in the file"_s
                                                 : u"tofu uses nothing in the file"_s;
        QVERIFY2(used != u"both"_s && warnings.first().contains(who), qPrintable(warnings.first()));
    }

    void cliConfigHostBlocks()
    {
        // The shape tofu/terraform document for `host` blocks, among other blocks and comments.
        const QByteArray text = "# comment\n"
                                "credentials \"example.com\" { token = \"x\" }\n"
                                "host \"registry.example.test\" {\n"
                                "  services = {\n"
                                "    \"providers.v1\" = \"https://127.0.0.1:8443/v1/providers/\",\n"
                                "    \"modules.v1\"   = \"https://127.0.0.1:8443/v1/modules/\"\n"
                                "  }\n"
                                "}\n"
                                "provider_installation {\n  direct {}\n}\n"
                                "host \"other.test\" { services = { \"login.v1\" = \"https://x/\" } }\n";
        QStringList warnings;
        const auto hosts = parseCliConfigHostServices(text, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(hosts.size(), 2);
        QCOMPARE(hosts.at(0).first, QStringLiteral("registry.example.test"));
        QCOMPARE(hosts.at(0).second.value(QStringLiteral("providers.v1")), QStringLiteral("https://127.0.0.1:8443/v1/providers/"));
        QCOMPARE(hosts.at(0).second.value(QStringLiteral("modules.v1")), QStringLiteral("https://127.0.0.1:8443/v1/modules/"));
        QCOMPARE(hosts.at(1).second.keys(), QStringList{QStringLiteral("login.v1")});
        // Two blocks of one host: merged service by service, as tofu 1.12 merges them, with a
        // warning naming what terraform uses instead: the last block alone (its hcl v1.0.0
        // decodes each block into a new ConfigHost; tst_interop_cliconfig shows terraform doing it).
        QStringList merged;
        const auto twice = parseCliConfigHostServices("host \"h.example\" { services = { a = \"x\", b = \"y\" } }\n"
                                                      "host \"h.example\" { services = { b = \"z\" } }\n",
                                                      &merged);
        QCOMPARE(twice.size(), 1);
        QCOMPARE(twice.first().second, (QHash<QString, QString>{{u"a"_s, u"x"_s}, {u"b"_s, u"z"_s}}));
        QCOMPARE(merged,
                 QStringList{u"host \"h.example\" has 2 blocks that give different services: terraform uses only the last block's "
                             "(b), tofu 1.12 and later merge them service by service (a, b), and so does Provender"_s});
        // Where the last block alone gives the same services, nothing to say.
        QStringList same;
        QCOMPARE(parseCliConfigHostServices("host \"h.example\" { services = { a = \"x\" } }\n"
                                            "host \"h.example\" { services = { a = \"y\" } }\n",
                                            &same)
                     .first()
                     .second.value(u"a"_s),
                 u"y"_s);
        QVERIFY2(same.isEmpty(), qPrintable(same.join(u'\n')));
        // A nested `host` (inside another block) is not a host block.
        QVERIFY(parseCliConfigHostServices("provider_installation { host \"x\" { services = { \"providers.v1\" = \"https://x/\" } } }")
                    .isEmpty());
    }

    void precedence()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString rc = home.filePath(QStringLiteral("cli.tfrc"));
        QVERIFY(test::writeFile(rc,
                                "credentials \"mirror.example\" { token = \"from-config\" }\n"
                                "credentials \"127.0.0.1:8443\" { token = \"with-port\" }\n"));
        QVERIFY(test::writeFile(
            home.filePath(QStringLiteral(".terraform.d/credentials.tfrc.json")),
            "{\"credentials\": {\"json.example\": {\"token\": \"from-json\"}, \"mirror.example\": {\"token\": \"json-loses\"}}}"));
        QProcessEnvironment env;
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), rc);

        auto c = findCredential(QStringLiteral("mirror.example"), env, home.path());
        QVERIFY(c);
        QCOMPARE(c->token, QStringLiteral("from-config"));
        QVERIFY(c->source.contains(rc));

        c = findCredential(QStringLiteral("json.example"), env, home.path());
        QVERIFY(c);
        QCOMPARE(c->token, QStringLiteral("from-json"));
        QVERIFY(c->source.endsWith(QStringLiteral("credentials.tfrc.json")));

        c = findCredential(QStringLiteral("127.0.0.1:8443"), env, home.path());
        QVERIFY(c);
        QCOMPARE(c->token, QStringLiteral("with-port"));
        QVERIFY(!findCredential(QStringLiteral("127.0.0.1"), env, home.path())); // the port is part of the host

        env.insert(QStringLiteral("TF_TOKEN_mirror_example"), QStringLiteral("from-env"));
        c = findCredential(QStringLiteral("Mirror.Example"), env, home.path());
        QVERIFY(c);
        QCOMPARE(c->token, QStringLiteral("from-env"));
        QCOMPARE(c->source, QStringLiteral("environment variable TF_TOKEN_mirror_example"));
        QVERIFY(!c->maskedToken().contains(QStringLiteral("from-env")));

        QVERIFY(!findCredential(QStringLiteral("other.example"), env, home.path()));
    }

    void homeFiles()
    {
        QTemporaryDir home;
        QVERIFY(test::writeFile(home.filePath(QStringLiteral(".terraformrc")), "credentials \"t.example\" { token = \"rc\" }\n"));
        QProcessEnvironment env;
        QCOMPARE(credentialsLocations(env, home.path()).cliConfigFile, home.filePath(QStringLiteral(".terraformrc")));
        QCOMPARE(findCredential(QStringLiteral("t.example"), env, home.path())->token, QStringLiteral("rc"));
        // ~/.tofurc wins when both exist.
        QVERIFY(test::writeFile(home.filePath(QStringLiteral(".tofurc")), "credentials \"t.example\" { token = \"tofurc\" }\n"));
        QCOMPARE(findCredential(QStringLiteral("t.example"), env, home.path())->token, QStringLiteral("tofurc"));
    }

    void documentUrl_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::newRow("slash") << "https://m/providers/"
                               << "hashicorp/aws"
                               << "index.json"
                               << "https://m/providers/registry.opentofu.org/hashicorp/aws/index.json";
        // §6: without the trailing slash the last segment is replaced.
        QTest::newRow("no slash") << "https://m/providers"
                                  << "hashicorp/aws"
                                  << "index.json"
                                  << "https://m/registry.opentofu.org/hashicorp/aws/index.json";
        QTest::newRow("version with +") << "https://m/"
                                        << "example.com/acme/fake"
                                        << "1.0.0+build.json"
                                        << "https://m/example.com/acme/fake/1.0.0+build.json";
        QTest::newRow("punycode host") << "https://m/"
                                       << "café.fr/acme/fake"
                                       << "index.json"
                                       << "https://m/xn--caf-dma.fr/acme/fake/index.json";
    }
    void documentUrl()
    {
        QFETCH(QString, base);
        QFETCH(QString, provider);
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const Result<ProviderAddress> a = ProviderAddress::parse(provider);
        QVERIFY(a.ok());
        QCOMPARE(mirrorDocumentUrl(QUrl(base), a.value(), file).toString(QUrl::FullyEncoded), expected);
    }

    void portQualifiedProviderHost()
    {
        const Result<ProviderAddress> a = ProviderAddress::parse(QStringLiteral("example.com:8443/acme/fake"));
        QVERIFY2(a.ok(), "a provider address with a port (tofu accepts host:port) must parse");
        QVERIFY(!mirrorDocumentUrl(QUrl(QStringLiteral("https://m/")), a.value(), QStringLiteral("index.json")).isValid());
    }

    void credentialsHost()
    {
        QCOMPARE(mirrorCredentialsHost(QUrl(QStringLiteral("https://Mirror.Example:443/x/"))), QStringLiteral("mirror.example"));
        QCOMPARE(mirrorCredentialsHost(QUrl(QStringLiteral("https://mirror.example:8443/"))), QStringLiteral("mirror.example:8443"));
        QCOMPARE(mirrorCredentialsHost(QUrl(QStringLiteral("https://café.fr/"))), QStringLiteral("xn--caf-dma.fr"));
    }

    void baseUrl_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("allowHttpLoopback");
        QTest::addColumn<bool>("ok");
        QTest::newRow("https") << "https://m.example/" << false << true;
        QTest::newRow("http refused") << "http://127.0.0.1:8080/" << false << false;
        QTest::newRow("http loopback allowed") << "http://127.0.0.1:8080/" << true << true;
        QTest::newRow("http localhost allowed") << "http://localhost:8080/" << true << true;
        QTest::newRow("http ::1 allowed") << "http://[::1]:8080/" << true << true;
        QTest::newRow("http remote refused") << "http://m.example/" << true << false;
        QTest::newRow("ftp") << "ftp://m.example/" << true << false;
        QTest::newRow("no host") << "https:///x/" << false << false;
        QTest::newRow("garbage") << "not a url" << false << false;
    }
    void baseUrl()
    {
        QFETCH(QString, url);
        QFETCH(bool, allowHttpLoopback);
        QFETCH(bool, ok);
        const Result<QUrl> r = parseMirrorBaseUrl(url, allowHttpLoopback);
        QCOMPARE(r.ok(), ok);
        if (!ok)
            QVERIFY2(r.error().message.contains(QStringLiteral("URL")), qPrintable(r.error().message));
    }
};

QTEST_GUILESS_MAIN(TestNetworkCredentials)
#include "tst_network_credentials.moc"
