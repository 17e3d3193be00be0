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
