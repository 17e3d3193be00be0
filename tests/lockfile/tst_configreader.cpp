// The configuration reader (ConfigReader.h): what it finds, what it skips, where it reports.
// Expected requirements follow terraform's rules (internal/configs, v1.11) as documented in
// docs/LOCKFILES.md; the merged constraint strings are what terraform wrote for the same
// declarations (tst_interop_lockinit compares whole lock files with terraform's).

#include "model/lockfile/ConfigReader.h"
#include "model/lockfile/LockInit.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/LockInitConfigs.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

/// "address constraints" per required provider.
QStringList summary(const ConfigRequirements &r)
{
    QStringList out;
    for (const ConfigProviderRequirement &p : r.providers)
        out << QString(p.address.toString() + u' ' + p.constraints.toString()).trimmed();
    return out;
}

struct Tree
{
    QTemporaryDir dir;
    explicit Tree(const QMap<QString, QByteArray> &files)
    {
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            test::writeFile(dir.path() + u'/' + it.key(), it.value());
    }
    QString path() const { return dir.path(); }
};

const QByteArray kRequire =
    "terraform {\n  required_providers {\n    probe = { source = \"example.test/ns/probe\", version = \"1.0.0\" }\n  }\n}\n";

} // namespace

class TestConfigReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void requiredProvidersForms()
    {
        const ConfigFileContent c =
            parseConfigFile("terraform {\n"
                            "  required_version = \">= 1.0\"\n"
                            "  required_providers {\n"
                            "    aws = {\n"
                            "      source  = \"hashicorp/aws\"\n"
                            "      version = \"~> 5.0\"\n"
                            "    }\n"
                            "    legacy = \">= 2.0\"\n"
                            "    number = 3\n"
                            "    alias = { source = \"example.test/ns/alias\", configuration_aliases = [alias.east, alias.west] }\n"
                            "  }\n"
                            "}\n"
                            "",
                            u"main.tf"_s);
        QVERIFY2(c.diagnostics.isEmpty(), qPrintable(test::toStrings(c.diagnostics).join(u'\n')));
        QCOMPARE(c.requiredProviders.size(), 1);
        const auto &e = c.requiredProviders[0].entries;
        QCOMPARE(e.size(), 4);
        QCOMPARE(e[0].localName, u"aws"_s);
        QCOMPARE(e[0].source.value(), u"hashicorp/aws"_s);
        QCOMPARE(e[0].version.value(), u"~> 5.0"_s);
        QCOMPARE(e[0].position.line, 5);
        QCOMPARE(e[0].position.column, 17);
        QCOMPARE(e[1].localName, u"legacy"_s);
        QVERIFY(!e[1].source);
        QCOMPARE(e[1].version.value(), u">= 2.0"_s);
        QCOMPARE(e[2].version.value(), u"3"_s);
        QCOMPARE(e[3].configurationAliases, (QStringList{u"alias.east"_s, u"alias.west"_s}));
    }

    void quotedArgumentNameIsAnError()
    {
        // hclsyntax: "Argument names must not be quoted." even inside required_providers.
        const ConfigFileContent c = parseConfigFile("terraform {\n  required_providers {\n    \"aws\" = {}\n  }\n}\n", u"q.tf"_s);
        QCOMPARE(test::toStrings(c.diagnostics),
                 QStringList{u"q.tf:3:5: error: Invalid argument name: Argument names must not be quoted."_s});
    }

    void syntaxIsSkipped_data()
    {
        QTest::addColumn<QByteArray>("before");
        // Each row is one attribute or block full of syntax; a required_providers block after
        // it must still be found (the skip ended exactly at the end of the construct).
        QTest::newRow("for tuple") << QByteArray("a = [for s in var.list : upper(s) if s != \"}\"]\n");
        QTest::newRow("for object grouping") << QByteArray("a = { for k, v in var.map : v => k... if k != \"x\" }\n");
        QTest::newRow("splat") << QByteArray("a = aws_instance.x[*].id\nb = aws_instance.x.*.tags[\"n\"]\n");
        QTest::newRow("heredoc with braces") << QByteArray("a = <<EOT\n}}} {{{ terraform {\n  ]]] )))\nEOT\n");
        QTest::newRow("indented heredoc") << QByteArray("a = <<-EOT\n    x ${var.y} %{ if true }t%{ endif }\n    EOT\n");
        QTest::newRow("nested templates") << QByteArray("a = \"${join(\"}\", [for x in y : \"${x}{\"])}\"\n");
        QTest::newRow("escapes") << QByteArray("a = \"$${not} %%{not} \\\" \\\\ \\u00e9 \\U0001F600\"\n");
        QTest::newRow("operators") << QByteArray("a = (1 + 2) * 3 / 4 % 5 - -1 >= 0 && !false || null == null\n");
        QTest::newRow("conditional") << QByteArray("a = var.x ? { b = [1, { c = 2 }] } : { b = [] }\n");
        QTest::newRow("multi-line call") << QByteArray("a = merge(\n  { x = 1 },\n  { \"y\" = 2, (var.k) = 3 },\n)\n");
        QTest::newRow("provider function") << QByteArray("a = provider::terraform::encode_tfvars({ a = 1 })\n");
        QTest::newRow("expanded argument") << QByteArray("a = min(var.list...)\n");
        QTest::newRow("comments") << QByteArray("a = 1 /* } */ + 2 # }\n// terraform {\n/* required_providers {\n*/\n");
        QTest::newRow("blocks") << QByteArray(
            "resource \"x\" \"y\" {\n  dynamic \"d\" {\n    for_each = var.z\n    content { v = d.value }\n  }\n"
            "  lifecycle { ignore_changes = [tags] }\n}\n");
        QTest::newRow("single-line blocks") << QByteArray("variable \"v\" {}\noutput \"o\" { value = 1 }\n");
        QTest::newRow("crlf") << QByteArray("locals {\r\n  a = [\r\n    1,\r\n  ]\r\n}\r\n");
        QTest::newRow("syntax zoo") << test::kSyntaxZoo;
    }

    void syntaxIsSkipped()
    {
        QFETCH(QByteArray, before);
        const ConfigFileContent c = parseConfigFile(before + kRequire, u"zoo.tf"_s);
        QVERIFY2(!c.hasErrors(), qPrintable(test::toStrings(c.diagnostics).join(u'\n')));
        QCOMPARE(c.requiredProviders.size(), 1);
        QCOMPARE(c.requiredProviders[0].entries.size(), 1);
        QCOMPARE(c.requiredProviders[0].entries[0].source.value(), u"example.test/ns/probe"_s);
        // Inside a locals block too.
        const ConfigFileContent d = parseConfigFile("locals {\n" + before + "}\n" + kRequire, u"zoo.tf"_s);
        if (!before.startsWith("resource") && !before.startsWith("variable") && !before.contains("lifecycle")) {
            QVERIFY2(!d.hasErrors(), qPrintable(test::toStrings(d.diagnostics).join(u'\n')));
            QCOMPARE(d.requiredProviders.size(), 1);
        }
    }

    void diagnosticsHavePositions_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("unclosed block")
            << QByteArray("terraform {\n  required_providers {\n") << u"a.tf"_s
            << QStringList{
                   u"a.tf:2:22: error: Unclosed configuration block: There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s};
        QTest::newRow("missing value")
            << QByteArray("locals {\n  a =\n}\n") << u"a.tf"_s
            << QStringList{
                   u"a.tf:2:6: error: Invalid expression: Expected the start of an expression, but found an invalid expression token."_s};
        QTest::newRow("columns count characters")
            << QByteArray("locals {\n  é = \"ü\" \"x\"\n}\n") << u"a.tf"_s
            << QStringList{u"a.tf:2:11: error: Missing newline after argument: An argument definition must end with a newline."_s};
        QTest::newRow("source not a string") << QByteArray("terraform {\n  required_providers {\n    a = { source = 1 }\n  }\n}\n")
                                             << u"a.tf"_s
                                             << QStringList{u"a.tf:3:20: error: Invalid source: Source must be specified as a string."_s};
        QTest::newRow("json syntax") << QByteArray("{\n  \"terraform\": {\n    \"required_providers\": { \"a\": }\n  }\n}\n")
                                     << u"a.tf.json"_s
                                     << QStringList{u"a.tf.json:3:34: error: Invalid JSON: "_s}; // terraform: 3:34 (the message is Qt's)
        QTest::newRow("json value") << QByteArray(
            "{\n  \"terraform\": {\n    \"required_providers\": {\n      \"a\": { \"source\": 7 }\n    }\n  }\n}\n")
                                    << u"a.tf.json"_s
                                    << QStringList{u"a.tf.json:4:24: error: Invalid source: Source must be specified as a string."_s};
        QTest::newRow("json template source")
            << QByteArray("{\"terraform\": [{\"required_providers\": [{\"a\": {\"source\": \"${x}\"}}]}]}") << u"b.tf.json"_s
            << QStringList{u"b.tf.json:1:57: error: Invalid source: Source must be specified as a string."_s};
        QTest::newRow("json root")
            << QByteArray("[1]") << u"c.tf.json"_s
            << QStringList{u"c.tf.json:1:1: error: Invalid JSON configuration: The root of a JSON configuration file must be an object."_s};
    }

    void diagnosticsHavePositions()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        const QStringList got = test::toStrings(parseConfigFile(text, file).diagnostics);
        QCOMPARE(got.size(), expected.size());
        for (qsizetype i = 0; i < got.size(); ++i) {
            if (expected[i].endsWith(u"Invalid JSON: "_s))
                QVERIFY2(got[i].startsWith(expected[i]), qPrintable(got[i]));
            else
                QCOMPARE(got[i], expected[i]);
        }
    }

    void hostileNesting()
    {
        // Deep nesting is an error, not a stack overflow.
        for (const char *open : {"[", "(", "{ a = ", "\"${", "f("}) {
            QByteArray text = "locals {\n  a = ";
            for (int i = 0; i < 100000; ++i)
                text += open;
            const ConfigFileContent c = parseConfigFile(text + "\n}\n" + kRequire, u"deep.tf"_s);
            QVERIFY(c.hasErrors());
        }
        QByteArray blocks;
        for (int i = 0; i < 100000; ++i)
            blocks += "a {\n";
        QVERIFY(parseConfigFile(blocks, u"deep.tf"_s).hasErrors());
        QByteArray parens = "terraform {\n  required_providers {\n    a = { source = " + QByteArray(100000, '(') + "\"x/y\""
            + QByteArray(100000, ')') + " }\n  }\n}\n";
        QVERIFY(parseConfigFile(parens, u"deep.tf"_s).hasErrors());
    }

    void jsonBlocks()
    {
        const ConfigFileContent c = parseConfigFile(
            "{\n"
            "  \"//\": \"comment\",\n"
            "  \"terraform\": { \"required_providers\": { \"a\": { \"source\": \"example.test/ns/a\", \"version\": \"$${x}\" } } },\n"
            "  \"provider\": { \"p\": [{ \"alias\": \"one\", \"version\": \"~> 1.0\" }, { \"alias\": \"two\" }] },\n"
            "  \"resource\": { \"t_res\": { \"n\": { \"provider\": \"p.one\" } }, \"//\": \"comment\" },\n"
            "  \"data\": { \"d_src\": { \"n\": {} } },\n"
            "  \"ephemeral\": { \"e_res\": { \"n\": {} } },\n"
            "  \"check\": { \"c\": { \"data\": { \"k_src\": { \"n\": {} } } } },\n"
            "  \"import\": [{ \"to\": \"i_res.n\", \"id\": \"x\" }],\n"
            "  \"module\": { \"m\": { \"source\": \"./m\" } }\n"
            "}",
            u"x.tf.json"_s);
        // "$${x}" is an escaped literal, and not a valid constraint.
        // Positions: the JSON values (columns counted by Python for these lines).
        QCOMPARE(test::toStrings(c.diagnostics).size(), 2);
        QVERIFY(test::toStrings(c.diagnostics)[0].startsWith(
            u"x.tf.json:4:52: warning: Version constraints inside provider configuration blocks are deprecated"_s));
        QCOMPARE(test::toStrings(c.diagnostics)[1],
                 u"x.tf.json:3:91: error: Invalid version constraint: This string does not use correct version constraint syntax."_s);
        QCOMPARE(c.providers.size(), 2);
        QCOMPARE(c.providers[0].version.value(), u"~> 1.0"_s);
        QStringList resources;
        for (const ConfigFileContent::Resource &r : c.resources)
            resources << r.mode + u' ' + r.type + u'.' + r.name + u' ' + r.providerLocalName;
        resources.sort();
        QCOMPARE(resources, (QStringList{u"data d_src.n "_s, u"data k_src.n "_s, u"ephemeral e_res.n "_s, u"resource t_res.n p"_s}));
        QCOMPARE(c.imports.size(), 1);
        QCOMPARE(c.imports[0].toResource, u"i_res.n"_s);
        QCOMPARE(c.moduleCalls.size(), 1);
        QCOMPARE(c.moduleCalls[0].source.value(), u"./m"_s);
    }

    void impliedProviders()
    {
        Tree t({{u"main.tf"_s,
                 "terraform {\n"
                 "  required_providers {\n"
                 "    mycloud = { source = \"example.test/corp/cloud\", version = \">= 1.0\" }\n"
                 "  }\n"
                 "}\n"
                 "resource \"mycloud_vm\" \"a\" {}\n"
                 "resource \"other_vm\" \"b\" {\n"
                 "  provider = mycloud.east\n"
                 "}\n"
                 "data \"http\" \"c\" {}\n"
                 "ephemeral \"random_password\" \"d\" {}\n"
                 "check \"e\" {\n"
                 "  data \"dns_a_record_set\" \"f\" {}\n"
                 "}\n"
                 "import {\n"
                 "  to = tls_private_key.g\n"
                 "  id = \"x\"\n"
                 "}\n"
                 "import {\n"
                 "  to = mycloud_vm.a\n"
                 "  id = \"y\"\n"
                 "}\n"
                 "provider \"google\" {}\n"
                 "data \"terraform_remote_state\" \"s\" {}\n"
                 "resource \"terraform_data\" \"t\" {}\n"
                 ""}});
        const ConfigRequirements r = readConfigRequirements(t.path());
        QVERIFY2(!r.hasErrors(), qPrintable(test::toStrings(r.diagnostics).join(u'\n')));
        QCOMPARE(summary(r),
                 (QStringList{u"example.test/corp/cloud >= 1.0.0"_s, u"registry.terraform.io/hashicorp/dns"_s,
                              u"registry.terraform.io/hashicorp/google"_s, u"registry.terraform.io/hashicorp/http"_s,
                              u"registry.terraform.io/hashicorp/random"_s, u"registry.terraform.io/hashicorp/tls"_s}));
    }

    void constraintsMergeAcrossModules()
    {
        Tree t({{u"main.tf"_s,
                 "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/a\", version = \">= 0.1\" }\n  }\n}\n"
                 "module \"one\" {\n  source = \"./one\"\n}\nmodule \"two\" {\n  source = \"./two\"\n}\n"},
                {u"one/main.tf"_s,
                 "terraform {\n  required_providers {\n    x = { source = \"example.test/ns/a\", version = \"!= 0.9, < 2\" }\n  }\n}\n"
                 "module \"deeper\" {\n  source = \"../three\"\n}\n"},
                {u"two/main.tf"_s, "provider \"a\" {\n  version = \">= 0.1\"\n}\n"}, // another local name: hashicorp/a
                {u"three/main.tf.json"_s,
                 "{\"terraform\": {\"required_providers\": {\"a\": {\"source\": \"example.test/ns/a\", \"version\": \"~> 1.0\"}}}}"}});
        const ConfigRequirements r = readConfigRequirements(t.path());
        QVERIFY2(!r.hasErrors(), qPrintable(test::toStrings(r.diagnostics).join(u'\n')));
        // terraform v1.11.4 wrote ">= 0.1.0, != 0.9.0, ~> 1.0, < 2.0.0" for the same three
        // declarations (root, ./one, ../three).
        QCOMPARE(
            summary(r),
            (QStringList{u"example.test/ns/a >= 0.1.0, != 0.9.0, ~> 1.0, < 2.0.0"_s, u"registry.terraform.io/hashicorp/a >= 0.1.0"_s}));
        QCOMPARE(r.moduleDirectories.size(), 4);
        QCOMPARE(r.diagnostics.size(), 1); // the deprecated provider version
        QVERIFY(r.diagnostics[0].toString().contains(
            u"two/main.tf:2:13: warning: Version constraints inside provider configuration blocks are deprecated"_s));
    }

    void overridesAndDuplicates()
    {
        Tree t({{u"a.tf"_s,
                 "terraform {\n  required_providers {\n    p = { source = \"example.test/ns/p\", version = \"1.0.0\" }\n"
                 "    q = { source = \"example.test/ns/q\", version = \"2.0.0\" }\n  }\n}\n"},
                {u"override.tf"_s, "terraform {\n  required_providers {\n    p = { source = \"example.test/ns/other\" }\n  }\n}\n"},
                {u"b_override.tf.json"_s,
                 "{\"terraform\": {\"required_providers\": {\"q\": {\"source\": \"example.test/ns/q\", \"version\": \">= 3\"}}}}"},
                {u".hidden.tf"_s, "garbage {"},
                {u"backup.tf~"_s, "garbage {"},
                {u"#emacs.tf#"_s, "garbage {"}});
        const ConfigRequirements r = readConfigRequirements(t.path());
        QVERIFY2(!r.hasErrors(), qPrintable(test::toStrings(r.diagnostics).join(u'\n')));
        QCOMPARE(summary(r), (QStringList{u"example.test/ns/other"_s, u"example.test/ns/q >= 3.0.0"_s}));

        Tree dup(
            {{u"a.tf"_s, "terraform {\n  required_providers {\n  }\n}\n"}, {u"b.tf"_s, "terraform {\n  required_providers {\n  }\n}\n"}});
        const ConfigRequirements d = readConfigRequirements(dup.path());
        QCOMPARE(
            test::toStrings(d.diagnostics),
            QStringList{
                dup.path()
                + u"/b.tf:2:3: error: Duplicate required providers configuration: A module may have only one required providers configuration. The required providers were previously configured at "_s
                + dup.path() + u"/a.tf:2,3-21."_s});
    }

    void tofuFiles()
    {
        Tree t({{u"main.tf"_s, "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/from-tf\" }\n  }\n}\n"},
                {u"main.tofu"_s, "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/from-tofu\" }\n  }\n}\n"},
                {u"extra.tofu.json"_s, "{\"resource\": {\"null_resource\": {\"x\": {}}}}"}});
        // terraform reads only the .tf file.
        QCOMPARE(summary(readConfigRequirements(t.path())), QStringList{u"example.test/ns/from-tf"_s});
        // tofu: main.tofu hides main.tf; the default registry is tofu's.
        ConfigReadOptions o;
        o.flavour = LockFlavour::Tofu;
        QCOMPARE(summary(readConfigRequirements(t.path(), o)),
                 (QStringList{u"example.test/ns/from-tofu"_s, u"registry.opentofu.org/hashicorp/null"_s}));
        QCOMPARE(configDirFiles(t.path(), LockFlavour::Tofu).primary,
                 (QStringList{t.path() + u"/extra.tofu.json"_s, t.path() + u"/main.tofu"_s}));
    }

    void moduleSources()
    {
        Tree t({{u"main.tf"_s,
                 "module \"local\" {\n  source = \"./missing\"\n}\nmodule \"remote\" {\n  source = \"hashicorp/consul/aws\"\n}\n"
                 "module \"self\" {\n  source = \"./\"\n}\nmodule \"var\" {\n  source = var.x\n}\n"}});
        const ConfigRequirements r = readConfigRequirements(t.path());
        const QStringList d = test::toStrings(r.diagnostics);
        QVERIFY2(d.contains(t.path() + u"/main.tf:11:12: error: Variables not allowed: Variables may not be used here."_s),
                 qPrintable(d.join(u'\n')));
        QVERIFY2(d.contains(t.path() + u"/main.tf:2:12: error: Unreadable module directory: The directory "_s + t.path()
                            + u"/missing does not exist or cannot be read."_s),
                 qPrintable(d.join(u'\n')));
        QVERIFY2(
            d.contains(
                t.path()
                + u"/main.tf:5:12: error: Module not installed: This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration."_s),
            qPrintable(d.join(u'\n')));
        QVERIFY2(std::any_of(d.begin(), d.end(), [](const QString &s) { return s.contains(u"Module nesting too deep"_s); }),
                 qPrintable(d.join(u'\n')));

        // Two calls of "./" double the work at every level: 2^64 reads unless the total is bounded.
        Tree twice({{u"main.tf"_s, "module \"a\" {\n  source = \"./\"\n}\nmodule \"b\" {\n  source = \"./\"\n}\n"}});
        const QStringList dd = test::toStrings(readConfigRequirements(twice.path()).diagnostics);
        QVERIFY2(std::any_of(dd.begin(), dd.end(), [](const QString &s) { return s.contains(u"Too many module calls"_s); }),
                 qPrintable(dd.join(u'\n')));

        // An installed remote module is read from terraform's module manifest.
        Tree m(
            {{u"main.tf"_s, "module \"remote\" {\n  source  = \"hashicorp/consul/aws\"\n  version = \"1.0\"\n}\n"},
             {u".terraform/modules/modules.json"_s,
              "{\"Modules\":[{\"Key\":\"\",\"Source\":\"\",\"Dir\":\".\"},{\"Key\":\"remote\",\"Source\":\"registry.terraform.io/hashicorp/consul/aws\",\"Version\":\"1.0.0\",\"Dir\":\".terraform/modules/remote\"}]}"},
             {u".terraform/modules/remote/main.tf"_s, "terraform {\n  required_providers {\n    aws = \">= 4\"\n  }\n}\n"}});
        const ConfigRequirements mr = readConfigRequirements(m.path());
        QVERIFY2(!mr.hasErrors(), qPrintable(test::toStrings(mr.diagnostics).join(u'\n')));
        QCOMPARE(summary(mr), QStringList{u"registry.terraform.io/hashicorp/aws >= 4.0.0"_s});
    }

    void emptyOrMissingDirectory()
    {
        QTemporaryDir empty;
        QCOMPARE(test::toStrings(readConfigRequirements(empty.path()).diagnostics),
                 QStringList{u"error: No configuration files: The directory %1 contains no .tf or .tf.json files."_s.arg(empty.path())});
        QCOMPARE(test::toStrings(readConfigRequirements(empty.path() + u"/nope"_s).diagnostics),
                 QStringList{u"error: Failed to read module directory: Module directory %1/nope does not exist or cannot be read."_s.arg(
                     empty.path())});
    }

    void invalidConstraintFromGoVersions()
    {
        // go-version accepts four parts, go-versions (terraform's second parser) does not.
        Tree t({{u"main.tf"_s,
                 "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/a\", version = \">= 1.0.0.0\" }\n  }\n}\n"}});
        QCOMPARE(
            test::toStrings(readConfigRequirements(t.path()).diagnostics),
            QStringList{
                t.path()
                + u"/main.tf:3:5: error: Invalid version constraint: Incorrect version constraint syntax: invalid specification \">= 1.0.0.0\": too many numbered portions; only three are allowed (major, minor, patch)."_s});
    }

    void cli()
    {
        test::LockMirrorFixture mirror({{"example.test/ns/a", "1.0.0", "linux_amd64"}});
        QVERIFY2(mirror.error().isEmpty(), qPrintable(mirror.error()));
        Tree t({{u"main.tf"_s, "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/a\" }\n  }\n}\n"}});
        const auto run = [](const QStringList &args) { return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 60000); };
        const QString lock = t.path() + u"/.terraform.lock.hcl"_s;
        const QStringList base{u"lock"_s,     u"init"_s,     u"--config"_s,   t.path(),
                               u"--mirror"_s, mirror.root(), u"--platform"_s, u"linux_amd64"_s};

        test::ProcessRun r = run(base);
        QCOMPARE(r.exitCode, 0);
        const QByteArray first = test::readFile(lock);
        QVERIFY(
            first.contains(QByteArray(QByteArray("provider \"example.test/ns/a\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"")
                                      + mirror.expected("example.test/ns/a", "1.0.0", "linux_amd64", "h1").toUtf8() + "\",\n  ]\n}\n")));
        // An existing lock file is not replaced without --force.
        QVERIFY(test::writeFile(lock, "keep me"));
        r = run(base);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("already exists"));
        QCOMPARE(test::readFile(lock), QByteArray("keep me"));
        r = run(base + QStringList{u"--force"_s});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(test::readFile(lock), first);
        // tofu flavour: tofu's header and registry.
        r = run(base + QStringList{u"--flavour"_s, u"tofu"_s, u"-o"_s, t.path() + u"/tofu.hcl"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(test::readFile(t.path() + u"/tofu.hcl"_s).startsWith("# This file is maintained automatically by \"tofu init\"."));
        // No package for the platform: exit 1, nothing written.
        r = run(QStringList{u"lock"_s, u"init"_s, u"--config"_s, t.path(), u"--mirror"_s, mirror.root(), u"--platform"_s, u"darwin_arm64"_s,
                            u"-o"_s, t.path() + u"/none.hcl"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!QFileInfo::exists(t.path() + u"/none.hcl"_s));
        // A configuration error: exit 2 with file:line:column on stderr.
        QVERIFY(test::writeFile(t.path() + u"/bad.tf"_s, "locals {\n  a = [1\n}\n"));
        r = run(base + QStringList{u"-o"_s, t.path() + u"/bad.hcl"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains((t.path() + u"/bad.tf:3:1: error: Missing item separator"_s).toUtf8()), r.err.constData());
        QVERIFY(!QFileInfo::exists(t.path() + u"/bad.hcl"_s));
        QVERIFY(QFile::remove(t.path() + u"/bad.tf"_s));
        // --provider: only required providers (terraform: "Invalid provider argument").
        r = run(base + QStringList{u"--provider"_s, u"example.test/ns/other"_s, u"-o"_s, t.path() + u"/p.hcl"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("The provider example.test/ns/other is not required by the current configuration."), r.err.constData());
        r = run(base + QStringList{u"--provider"_s, u"example.test/ns/a"_s, u"-o"_s, t.path() + u"/p.hcl"_s});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(test::readFile(t.path() + u"/p.hcl"_s), first);
        // upgrade --config never downgrades: a constraint that excludes the locked version and
        // allows nothing newer is an error, and the file stays as it was.
        const QByteArray pinned = first;
        QVERIFY(test::writeFile(t.path() + u"/up.hcl"_s, pinned));
        Tree narrower({{u"main.tf"_s,
                        "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/a\", version = \"< 1.0\" }\n  }\n}\n"}});
        r = run({u"lock"_s, u"upgrade"_s, t.path() + u"/up.hcl"_s, u"--config"_s, narrower.path(), u"--mirror"_s, mirror.root()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("does not match configured version constraint < 1.0.0"), r.err.constData());
        QCOMPARE(test::readFile(t.path() + u"/up.hcl"_s), pinned);
        // Usage errors.
        QCOMPARE(run({u"lock"_s, u"init"_s, u"--config"_s, t.path()}).exitCode, 2);
        // A network mirror must be https (nothing is requested for this one).
        QCOMPARE(run(base.mid(0, 5)
                     + QStringList{u"http://mirror.example/"_s, u"--platform"_s, u"linux_amd64"_s, u"-o"_s, t.path() + u"/net.hcl"_s})
                     .exitCode,
                 2);
        // A mirror that does not answer (a closed port on 127.0.0.1): no version, nothing written.
        QCOMPARE(run(base.mid(0, 5)
                     + QStringList{u"https://127.0.0.1:9/"_s, u"--platform"_s, u"linux_amd64"_s, u"-o"_s, t.path() + u"/net.hcl"_s})
                     .exitCode,
                 1);
        QVERIFY(!QFileInfo::exists(t.path() + u"/net.hcl"_s));
    }

    void selection()
    {
        test::LockMirrorFixture mirror({{"example.test/ns/a", "1.0.0", "linux_amd64"},
                                        {"example.test/ns/a", "1.1.0", "linux_amd64"},
                                        {"example.test/ns/a", "1.2.0-beta", "linux_amd64"},
                                        {"example.test/ns/a", "1.3.0", "darwin_arm64"}});
        QVERIFY2(mirror.error().isEmpty(), qPrintable(mirror.error()));
        const Result<Catalog> catalog = scanFileSystemMirror(mirror.root());
        QVERIFY(catalog.ok());
        const auto pick = [&](const char *constraint) -> QString {
            Tree t({{u"main.tf"_s,
                     "terraform {\n  required_providers {\n    a = { source = \"example.test/ns/a\", version = \"" + QByteArray(constraint)
                         + "\" }\n  }\n}\n"}});
            lockinit::InitOptions o;
            o.platforms = {Platform::parse(u"linux_amd64"_s).value()};
            const Result<lockinit::InitResult> r = lockinit::initFromMirror(readConfigRequirements(t.path()), *catalog, o);
            if (!r.ok() || r->selections.isEmpty())
                return u"error"_s;
            const lockinit::SelectionNote &n = r->selections.constFirst();
            if (n.kind != lockinit::SelectionNote::Kind::Selected)
                return toString(n.kind);
            return QString(n.version.toString() + (r->hasProblems() ? u" (missing package)"_s : QString()));
        };
        QCOMPARE(pick("~> 1.0"), u"1.3.0 (missing package)"_s); // newest of any platform, as terraform picks
        QCOMPARE(pick("< 1.3"), u"1.1.0"_s);                    // 1.2.0-beta is a prerelease
        QCOMPARE(pick("1.2.0-beta"), u"1.2.0-beta"_s);          // named exactly
        QCOMPARE(pick("> 1.3"), u"no-matching-version"_s);
    }
};

QTEST_GUILESS_MAIN(TestConfigReader)
#include "tst_configreader.moc"
