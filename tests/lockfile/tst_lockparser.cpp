// Lock-file reader: syntax, decoding, diagnostics (wording, severity, position), dropped content.
// Expected values: the diagnostic table and reader facts of tofu-formats.md §1.2/§1.3, the
// `# ERROR: <summary>` marker convention of tofu's locks-files fixtures (our fixtures in data/
// are checked against the real terraform by tests/interop/tst_interop_lock), and positions
// counted by hand from the inputs below.

#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QMap>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

QString dataDir()
{
    return test::sourceDir() + u"/tests/lockfile/data"_s;
}

LockParseResult parseTofu(const QByteArray &text, const QString &toolVersion = {})
{
    LockParseOptions o;
    o.flavour = LockFlavour::Tofu;
    o.toolVersion = toolVersion;
    return parseLockFile(text, o);
}

QString dump(const QList<LockDiagnostic> &ds)
{
    QStringList lines;
    for (const LockDiagnostic &d : ds)
        lines << d.toString(u"f"_s);
    return lines.join(u'\n');
}

} // namespace

class TestLockParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(dataDir());
        const QStringList files = dir.entryList({u"*.hcl"_s}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 8, "tests/lockfile/data is missing");
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    // Every line marked `# ERROR: A | B` reports exactly those summaries on that line, every
    // `# WARNING: X` that warning, and no other line reports anything.
    void fixtures()
    {
        QFETCH(QString, path);
        const QByteArray bytes = test::readFile(path);
        QVERIFY(!bytes.isEmpty());
        QMap<int, QSet<QString>> wantErrors, wantWarnings;
        const QList<QByteArray> lines = bytes.split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString line = QString::fromUtf8(lines.at(i));
            for (const auto &[marker, map] : {std::pair{u"# ERROR: "_s, &wantErrors}, std::pair{u"# WARNING: "_s, &wantWarnings}}) {
                const qsizetype at = line.indexOf(marker);
                if (at < 0)
                    continue;
                for (const QString &s : line.mid(at + marker.size()).split(u" | "_s))
                    (*map)[int(i + 1)].insert(s.trimmed());
            }
        }
        LockParseOptions o;
        o.flavour = LockFlavour::Terraform;
        const LockParseResult r = parseLockFile(bytes, o);
        QMap<int, QSet<QString>> gotErrors, gotWarnings;
        for (const LockDiagnostic &d : r.diagnostics) {
            QVERIFY2(d.range.isValid(), qPrintable(d.summary));
            (d.isError() ? gotErrors : gotWarnings)[d.range.line].insert(d.summary);
        }
        QCOMPARE(gotErrors, wantErrors);
        QCOMPARE(gotWarnings, wantWarnings);
    }

    void validFixture()
    {
        const LockParseResult r = parseLockFile(test::readFile(dataDir() + u"/valid-provider-locks.hcl"_s));
        QVERIFY2(!r.hasErrors(), qPrintable(dump(r.diagnostics)));
        const LockFile &doc = r.document;
        QCOMPARE(doc.providers.size(), 3);
        // ProviderAddress order: all-the-things < version-and-constraints < version-only.
        QCOMPARE(doc.providers[0].address.toString(), u"example.com/test/all-the-things"_s);
        QCOMPARE(doc.providers[0].version.toString(), u"3.0.10"_s);
        QCOMPARE(doc.providers[0].constraints.toString(), u">= 3.0.2"_s);
        QStringList hashes;
        for (const HashString &h : doc.providers[0].hashes)
            hashes << h.toString();
        // Sorted and de-duplicated, unknown scheme kept (§1.3).
        QCOMPARE(hashes, (QStringList{u"test:placeholder-hash-1"_s, u"test:placeholder-hash-2"_s, u"test:placeholder-hash-3"_s}));
        QCOMPARE(doc.providers[1].address.toString(), u"example.com/test/version-and-constraints"_s);
        QCOMPARE(doc.providers[1].constraints.toString(), u"~> 1.2"_s);
        QVERIFY(doc.providers[2].constraints.isEmpty());
        QVERIFY(doc.providers[2].hashes.isEmpty());
        // Every comment of the file is something a rewrite drops.
        QStringList comments;
        for (const DroppedContent &d : doc.dropped) {
            QVERIFY(d.kind == DroppedContent::Kind::Comment);
            comments << d.text;
        }
        QCOMPARE(comments.size(), 3);
        QVERIFY(comments[0].startsWith(u"// Comments of every style"_s));
        QCOMPARE(comments[1], u"/* a block\n   comment */"_s);
        QCOMPARE(comments[2], u"# trailing comment"_s);
        QCOMPARE(doc.dropped[1].range.line, 2);
        QCOMPARE(doc.dropped[1].range.endLine, 3);
    }

    void emptyFile()
    {
        const LockParseResult r = parseLockFile(test::readFile(dataDir() + u"/empty.hcl"_s));
        QVERIFY(!r.hasErrors());
        QVERIFY(r.diagnostics.isEmpty());
        QVERIFY(r.document.providers.isEmpty());
        const LockParseResult nothing = parseLockFile(QByteArray());
        QVERIFY(nothing.diagnostics.isEmpty());
    }

    // The diagnostic table of tofu-formats.md §1.2, with exact details and positions.
    void diagnostics_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("expected"); // "severity line:col summary | detail"

        const QByteArray p = "provider \"registry.opentofu.org/a/b\" {\n";
        auto row = [](const char *name, const QByteArray &input, const QStringList &expected) { QTest::newRow(name) << input << expected; };
        row("unknown top-level block", "doodad \"x\" {}\n",
            {u"error 1:1 Unsupported block type | Blocks of type \"doodad\" are not expected here."_s});
        row("unknown block with suggestion", "providr \"x\" {}\n",
            {u"error 1:1 Unsupported block type | Blocks of type \"providr\" are not expected here. Did you mean \"provider\"?"_s});
        row("top-level attribute", "x = 1\n", {u"error 1:1 Unsupported argument | An argument named \"x\" is not expected here."_s});
        row("provider without label", "provider {\n}\n",
            {u"error 1:10 Missing source_addr for provider | All provider blocks must have 1 labels (source_addr)."_s});
        row("provider with two labels", "provider \"a\" \"b\" {\n}\n",
            {u"error 1:14 Extraneous label for provider | Only 1 labels (source_addr) are expected for provider blocks."_s});
        row("module block", "module \"m\" {\n}\nmodule \"n\" {\n}\n",
            {u"warning 1:1 Dependency locks for modules are not yet supported | OpenTofu v1.2.3 only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of OpenTofu that also supports dependency locks for modules."_s});
        row("unparseable address", "provider \"a/b/c/d\" {\n}\n",
            {u"error 1:10 Invalid provider source address | The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\"."_s});
        row("built-in provider", "provider \"terraform.io/builtin/foo\" {\n}\n",
            {u"error 1:10 Invalid provider source address | Cannot lock a version for built-in provider terraform.io/builtin/foo. Built-in providers are bundled inside OpenTofu itself, so you can't select a version for them independently of the OpenTofu release you are currently running."_s});
        row("legacy provider", "provider \"registry.opentofu.org/-/null\" {\n}\n",
            {u"error 1:10 Invalid provider source address | Provider source address registry.opentofu.org/-/null is a special provider that is not eligible for dependency locking."_s});
        row("two-part address", "provider \"hashicorp/aws\" {\n}\n",
            {u"error 1:10 Non-normalized provider source address | The provider source address for this provider lock must be written as \"registry.opentofu.org/hashicorp/aws\", the fully-qualified and normalized form."_s});
        row("duplicate provider", p + "  version = \"1.0.0\"\n}\n" + p + "  version = \"1.0.0\"\n}\n",
            {u"error 4:1 Duplicate provider lock | This lockfile already declared a lock for provider registry.opentofu.org/a/b at .terraform.lock.hcl:1,1-37."_s});
        row("unknown attribute", p + "  version = \"1.0.0\"\n  hash = \"x\"\n}\n",
            {u"error 3:3 Unsupported argument | An argument named \"hash\" is not expected here. Did you mean \"hashes\"?"_s});
        row("nested block", p + "  version = \"1.0.0\"\n  x {\n  }\n}\n",
            {u"error 3:3 Unsupported block type | Blocks of type \"x\" are not expected here."_s});
        row("attribute redefined", p + "  version = \"1.0.0\"\n  version = \"1.0.0\"\n}\n",
            {u"error 3:3 Attribute redefined | The argument \"version\" was already set at .terraform.lock.hcl:2,3-10. Each argument may be set only once."_s});
        row("version missing", p + "}\n",
            {u"error 1:38 Missing required argument | The argument \"version\" is required, but no definition was found."_s});
        row("version null", p + "  version = null\n}\n",
            {u"error 2:13 Missing required argument | A provider lock block must contain a \"version\" argument."_s});
        row("version unparseable", p + "  version = \"v1.0.0\"\n}\n",
            {u"error 2:13 Invalid provider version number | The selected version number for provider registry.opentofu.org/a/b is invalid: a \"v\" prefix should not be used."_s,
             u"error 2:13 Invalid provider version number | The selected version number for provider registry.opentofu.org/a/b must be written in normalized form: \"0.0.0\"."_s});
        row("version not canonical", p + "  version = \"1.0\"\n}\n",
            {u"error 2:13 Invalid provider version number | The selected version number for provider registry.opentofu.org/a/b must be written in normalized form: \"1.0.0\"."_s});
        row("version as a number", p + "  version = 1\n}\n",
            {u"error 2:13 Invalid provider version number | The selected version number for provider registry.opentofu.org/a/b must be written in normalized form: \"1.0.0\"."_s});
        row("constraints unparseable", p + "  version = \"1.0.0\"\n  constraints = \"=> 1.0\"\n}\n",
            {u"error 3:17 Invalid provider version constraints | The recorded version constraints for provider registry.opentofu.org/a/b are invalid: invalid specification \"=> 1.0\": invalid constraint operator \"=>\"; did you mean \">=\"?."_s,
             u"error 3:17 Invalid provider version constraints | The recorded version constraints for provider registry.opentofu.org/a/b must be written in normalized form: \"\"."_s});
        row("constraints not canonical", p + "  version = \"1.0.0\"\n  constraints = \"~>1\"\n}\n",
            {u"error 3:17 Invalid provider version constraints | The recorded version constraints for provider registry.opentofu.org/a/b must be written in normalized form: \"~> 1.0\"."_s});
        row("hashes not a list", p + "  version = \"1.0.0\"\n  hashes = \"h1:x\"\n}\n",
            {u"error 3:13 Invalid expression | A static list expression is required."_s});
        row("hashes empty", p + "  version = \"1.0.0\"\n  hashes = []\n}\n",
            {u"error 3:12 Invalid provider hash set | The \"hashes\" argument must either be omitted or contain at least one hash value."_s});
        row("hash without scheme", p + "  version = \"1.0.0\"\n  hashes = [\n    \"abc\",\n  ]\n}\n",
            {u"error 3:12 Invalid provider hash string | Cannot interpret \"abc\" as a provider hash: hash string must start with a scheme keyword followed by a colon."_s});
        row("hash with empty scheme", p + "  version = \"1.0.0\"\n  hashes = [\":abc\"]\n}\n",
            {u"error 3:12 Invalid provider hash string | Cannot interpret \":abc\" as a provider hash: hash string must start with a scheme keyword followed by a colon."_s});
        row("variable", p + "  version = foo\n}\n",
            {u"error 2:13 Variables not allowed | Variables may not be used here."_s,
             u"error 2:13 Unsuitable value type | Unsuitable value: value must be known"_s});
        // The next rows were checked against terraform 1.11 (`init -json`), host rewritten.
        row("unterminated string", p + "  version = \"1.0.0\n}\n",
            {u"error 2:19 Invalid multi-line string | Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."_s,
             u"error 3:2 Invalid multi-line string | Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."_s,
             u"error 2:19 Unterminated template string | No closing marker was found for the string."_s});
        row("bad escape", p + "  version = \"1.0.\\q\"\n}\n",
            {u"error 2:18 Invalid escape sequence | The symbol \"q\" is not a valid escape sequence selector."_s,
             u"error 2:13 Invalid provider version number | The selected version number for provider registry.opentofu.org/a/b is invalid: invalid characters \"q\"."_s,
             u"error 2:13 Invalid provider version number | The selected version number for provider registry.opentofu.org/a/b must be written in normalized form: \"0.0.0\"."_s});
        row("invalid UTF-8", "provider \"a/b\xff\" {\n}\n",
            {u"error 1:14 Invalid character encoding | All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor."_s,
             u"error 1:14 Invalid string literal | This item is not valid in a string literal."_s,
             u"error 1:10 Non-normalized provider source address | The provider source address for this provider lock must be written as \"registry.opentofu.org/a/b\", the fully-qualified and normalized form."_s});
        row("invalid UTF-8 in a comment is fine", "# \xff\n", {});
        row("invalid character", "provider \"a/b\" @ {\n}\n",
            {u"error 1:16 Invalid character | This character is not used within the language."_s,
             u"error 1:16 Invalid block definition | Either a quoted string block label or an opening brace (\"{\") is expected here."_s,
             u"error 1:10 Non-normalized provider source address | The provider source address for this provider lock must be written as \"registry.opentofu.org/a/b\", the fully-qualified and normalized form."_s});
    }

    void diagnostics()
    {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, expected);
        const LockParseResult r = parseTofu(input, u"1.2.3"_s);
        QStringList got;
        for (const LockDiagnostic &d : r.diagnostics)
            got << u"%1 %2:%3 %4 | %5"_s.arg(d.isError() ? u"error"_s : u"warning"_s)
                       .arg(d.range.line)
                       .arg(d.range.column)
                       .arg(d.summary, d.detail);
        QCOMPARE(got, expected);
    }

    void terraformFlavourWording()
    {
        LockParseOptions o;
        o.flavour = LockFlavour::Terraform;
        o.toolVersion = u"1.11.4"_s;
        const LockParseResult r = parseLockFile("provider \"hashicorp/aws\" {\n}\nmodule \"x\" {\n}\n", o);
        QCOMPARE(r.diagnostics.size(), 2);
        QCOMPARE(
            r.diagnostics[0].detail,
            u"The provider source address for this provider lock must be written as \"registry.terraform.io/hashicorp/aws\", the fully-qualified and normalized form."_s);
        QVERIFY(r.diagnostics[1].detail.startsWith(u"Terraform v1.11.4 only supports dependency locks for providers"_s));
    }

    void accepts_data()
    {
        QTest::addColumn<QByteArray>("input");
        const QByteArray body = "  version = \"1.0.0\"\n  hashes = [\n    \"h1:a\",\n    \"h1:b\"\n  ]\n}\n";
        QTest::newRow("LF") << QByteArray("provider \"registry.opentofu.org/a/b\" {\n" + body);
        QByteArray crlf = "provider \"registry.opentofu.org/a/b\" {\n" + body;
        crlf.replace("\n", "\r\n");
        QTest::newRow("CRLF") << crlf;
        QTest::newRow("BOM") << QByteArray("\xEF\xBB\xBFprovider \"registry.opentofu.org/a/b\" {\n" + body);
        QTest::newRow("BOM+CRLF") << QByteArray("\xEF\xBB\xBF" + crlf);
        QTest::newRow("tabs and spaces") << QByteArray(
            "provider\t\"registry.opentofu.org/a/b\"   {\n\tversion\t=   \"1.0.0\"\n  hashes=[\"h1:a\",\"h1:b\",]\n}\n");
        QTest::newRow("one line list, no trailing comma")
            << QByteArray("provider \"registry.opentofu.org/a/b\" {\n  hashes = [\"h1:b\", \"h1:a\"]\n  version = \"1.0.0\"\n}\n");
        QTest::newRow("no final newline") << QByteArray("provider \"registry.opentofu.org/a/b\" {\n" + body.chopped(1));
        QTest::newRow("comments everywhere") << QByteArray(
            "/* x */ provider /* y */ \"registry.opentofu.org/a/b\" { // z\n  version /* a */ = \"1.0.0\" # b\n  hashes = [ # c\n    \"h1:a\", // d\n    /* e */ \"h1:b\" /* f */\n  ] /* g */\n} # h");
        QTest::newRow("escaped version") << QByteArray(
            "provider \"registry.opentofu.org/a/b\" {\n  version = \"\\u0031.0.0\"\n  hashes = [\"h1:a\", \"h1:b\", \"h1:a\"]\n}\n");
        QTest::newRow("interpolated literal") << QByteArray(
            "provider \"registry.opentofu.org/a/b\" {\n  version = \"${\"1.0\"}.0\"\n  hashes = [\"h1:${\"a\"}\", \"h1:b\"]\n}\n");
        QTest::newRow("heredoc")
            << QByteArray(
                   "provider \"registry.opentofu.org/a/b\" {\n  version = <<-EOT\n    1.0.0\n    EOT\n  hashes = [\"h1:a\", \"h1:b\"]\n}\n")
                   .replace("1.0.0\n    EOT", "1.0.0\n    EOT");
    }

    // The same lock, written in every syntax variant the reader accepts.
    void accepts()
    {
        QFETCH(QByteArray, input);
        const LockParseResult r = parseTofu(input);
        if (QByteArray(QTest::currentDataTag()) == "heredoc") {
            // A heredoc keeps its final newline, so the version is "1.0.0\n": not canonical.
            QVERIFY(r.hasErrors());
            QCOMPARE(r.errors().first().summary, u"Invalid provider version number"_s);
            return;
        }
        QVERIFY2(!r.hasErrors(), qPrintable(dump(r.diagnostics)));
        QCOMPARE(r.document.providers.size(), 1);
        const ProviderLock &p = r.document.providers.first();
        QCOMPARE(p.address.toString(), u"registry.opentofu.org/a/b"_s);
        QCOMPARE(p.version.toString(), u"1.0.0"_s);
        QCOMPARE(p.hashes.size(), 2);
        QCOMPARE(p.hashes[0].toString(), u"h1:a"_s);
        QCOMPARE(p.hashes[1].toString(), u"h1:b"_s);
    }

    void crlfPositions()
    {
        const QByteArray in = "provider \"registry.opentofu.org/a/b\" {\r\n  version = \"1.0\"\r\n}\r\n";
        const LockParseResult r = parseTofu("\xEF\xBB\xBF" + in);
        QCOMPARE(r.diagnostics.size(), 1);
        QCOMPARE(r.diagnostics[0].range.line, 2);
        QCOMPARE(r.diagnostics[0].range.column, 13);
        QCOMPARE(r.diagnostics[0].range.endColumn, 18);
        QCOMPARE(r.diagnostics[0].range.byte, qsizetype(3 + 40 + 12)); // BOM + line 1 with CRLF + indentation
    }

    void columnsCountCharacters()
    {
        // "é" is two bytes but one column; the unknown attribute on line 3 starts at column 3.
        const QByteArray in = "provider \"registry.opentofu.org/a/b\" {\n  version = \"1.0.0\" # ééé\n  éx = 1\n}\n";
        const LockParseResult r = parseTofu(in);
        QCOMPARE(r.diagnostics.size(), 1);
        QCOMPARE(r.diagnostics[0].summary, u"Unsupported argument"_s);
        QCOMPARE(r.diagnostics[0].range.column, 3);
        QCOMPARE(r.diagnostics[0].range.endColumn, 5);
    }

    void templateEscapes()
    {
        // `$${` and `%%{` are escapes for literal `${` and `%{` (§1.2); `$$` alone is literal.
        const QByteArray in =
            "provider \"registry.opentofu.org/a/b\" {\n  version = \"1.0.0\"\n  hashes = [\"x:$${a}\", \"y:%%{b}\", \"z:$$c\", \"w:\\\"\\\\\\n\\t\"]\n}\n";
        const LockParseResult r = parseTofu(in);
        QVERIFY2(!r.hasErrors(), qPrintable(dump(r.diagnostics)));
        QStringList hashes;
        for (const HashString &h : r.document.providers.first().hashes)
            hashes << h.toString();
        QCOMPARE(hashes, (QStringList{u"w:\"\\\n\t"_s, u"x:${a}"_s, u"y:%{b}"_s, u"z:$$c"_s}));
    }

    void flavourDetection_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("flavour");
        QTest::addColumn<bool>("standardHeader");
        QTest::addColumn<QString>("tool");
        const QByteArray tofu =
            "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";
        const QByteArray tf =
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
        const QByteArray tofuProvider = "\nprovider \"registry.opentofu.org/a/b\" {\n  version = \"1.0.0\"\n}\n";
        const QByteArray tfProvider = "\nprovider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n}\n";
        QTest::newRow("tofu header") << tofu + tfProvider << u"tofu"_s << true << u"tofu init"_s;
        QTest::newRow("terraform header") << tf + tofuProvider << u"terraform"_s << true << u"terraform init"_s;
        QTest::newRow("opentf header") << QByteArray(
            "# This file is maintained automatically by \"opentf init\".\n# Manual edits may be lost in future updates.\n")
                                       << u"tofu"_s << false << u"opentf init"_s;
        QTest::newRow("stacks header") << QByteArray(
            "# This file is maintained automatically by \"terraform stacks providers lock\".\n# Manual edits may be lost in future updates.\n")
                                       << u"terraform"_s << false << u"terraform stacks providers lock"_s;
        QTest::newRow("header after a licence comment")
            << "# SPDX-License-Identifier: MPL-2.0\n\n" + tofu << u"tofu"_s << false << u"tofu init"_s;
        QTest::newRow("no header, opentofu hosts") << QByteArray(tofuProvider) << u"tofu"_s << false << QString();
        QTest::newRow("no header, terraform hosts") << QByteArray(tfProvider) << u"terraform"_s << false << QString();
        QTest::newRow("no header, mixed hosts")
            << tofuProvider + QByteArray(tfProvider).replace("a/b", "a/c") << u"terraform"_s << false << QString();
        QTest::newRow("empty") << QByteArray() << u"terraform"_s << false << QString();
    }

    void flavourDetection()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, flavour);
        QFETCH(bool, standardHeader);
        QFETCH(QString, tool);
        const LockParseResult r = parseLockFile(input);
        QCOMPARE(toString(r.document.flavour), flavour);
        QCOMPARE(r.document.hasStandardHeader, standardHeader);
        QCOMPARE(r.document.headerTool, tool);
        QCOMPARE(toString(detectFlavour(input)), flavour);
    }

    void droppedContent()
    {
        const QByteArray in = "# This file is maintained automatically by \"terraform stacks providers lock\".\n"
                              "# Manual edits may be lost in future updates.\n"
                              "\n"
                              "# keep me?\n"
                              "provider \"registry.terraform.io/a/b\" {\n"
                              "  version = \"1.0.0\" // pinned\n"
                              "  colour = \"red\"\n"
                              "}\n"
                              "module \"m\" {\n"
                              "  x = 1\n"
                              "}\n";
        const LockParseResult r = parseLockFile(in);
        QStringList got;
        for (const DroppedContent &d : r.document.dropped)
            got << u"%1@%2: %3"_s.arg(toString(d.kind)).arg(d.range.line).arg(d.text);
        QCOMPARE(got,
                 (QStringList{
                     u"header@1: # This file is maintained automatically by \"terraform stacks providers lock\"."_s,
                     u"comment@4: # keep me?"_s,
                     u"comment@6: // pinned"_s,
                     u"unknown attribute@7: colour"_s,
                     u"module block@9: module \"m\" {\n  x = 1\n}"_s,
                 }));
        QCOMPARE(r.document.moduleBlocks, QStringList{u"module \"m\" {\n  x = 1\n}"_s});
        QVERIFY(r.document.wouldDropContent());
        // A canonical file drops nothing.
        const LockParseResult clean = parseLockFile(writeLockFile(r.document));
        QVERIFY(clean.document.dropped.isEmpty());
        QVERIFY(!clean.document.wouldDropContent());
    }

    void invalidProviderIsDropped()
    {
        const LockParseResult r = parseTofu("provider \"aws\" {\n  version = \"1.0.0\"\n}\n");
        QVERIFY(r.hasErrors());
        QVERIFY(r.document.providers.isEmpty());
        QCOMPARE(r.document.dropped.size(), 1);
        QVERIFY(r.document.dropped[0].kind == DroppedContent::Kind::InvalidProvider);
    }

    void readLockFileErrors()
    {
        const Result<LockParseResult> missing = readLockFile(u"/nonexistent/dir/.terraform.lock.hcl"_s);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        const Result<LockParseResult> dir = readLockFile(QDir::tempPath());
        QVERIFY(!dir.ok());
        QCOMPARE(dir.error().message, u"Failed to read file: The configuration file \"%1\" could not be read."_s.arg(QDir::tempPath()));
    }

    // Pseudo-random mutations of real and fixture files: the parser must never crash or hang,
    // and whatever parses without errors must survive a write/re-read round trip unchanged.
    void mutationsNeverCrash()
    {
        QList<QByteArray> seeds;
        const QDir data(dataDir());
        for (const QString &f : data.entryList({u"*.hcl"_s}, QDir::Files, QDir::Name))
            seeds << test::readFile(data.filePath(f));
        const QString corpus = test::corpusDir(u"lockfiles"_s);
        if (corpus.isEmpty())
            PROVENDER_CORPUS_OPTIONAL(u"lockfiles"_s);
        if (!corpus.isEmpty()) {
            const QDir c(corpus);
            for (const QString &f : c.entryList({u"*.hcl"_s}, QDir::Files, QDir::Name).mid(0, 20))
                seeds << test::readFile(c.filePath(f));
        }
        static const char alphabet[] = "{}[]()\"'=,.:$%~#/*\\\n\r\t -_abcxyz019<>\xc3\xa9\xff\x00";
        QRandomGenerator rng(20240917);
        int roundTrips = 0;
        for (int i = 0; i < 3000; ++i) {
            QByteArray b = seeds.at(rng.bounded(int(seeds.size())));
            const int edits = 1 + rng.bounded(6);
            for (int e = 0; e < edits && !b.isEmpty(); ++e) {
                const int pos = rng.bounded(int(b.size()));
                switch (rng.bounded(4)) {
                case 0: b[pos] = alphabet[rng.bounded(int(sizeof(alphabet) - 1))]; break;
                case 1: b.insert(pos, alphabet[rng.bounded(int(sizeof(alphabet) - 1))]); break;
                case 2: b.remove(pos, 1 + rng.bounded(8)); break;
                case 3: b.truncate(pos); break;
                }
            }
            const LockParseResult r = parseLockFile(b);
            for (const LockDiagnostic &d : r.diagnostics)
                QVERIFY(!d.summary.isEmpty() && d.range.isValid());
            if (r.hasErrors())
                continue;
            const QByteArray written = writeLockFile(r.document);
            const LockParseResult again = parseLockFile(written);
            QVERIFY2(!again.hasErrors(), written.constData());
            QVERIFY(again.document == r.document);
            QCOMPARE(writeLockFile(again.document), written);
            ++roundTrips;
        }
        QVERIFY(roundTrips > 100); // the property was really exercised
    }

    // Inputs that would be quadratic with naive bookkeeping; a regression shows as a timeout.
    void pathologicalInputsStayLinear()
    {
        // 200,000 comments on one line: every one is a dropped item with a position.
        const LockParseResult comments = parseTofu(QByteArray("/**/").repeated(200000));
        QCOMPARE(comments.document.dropped.size(), 200000);
        QCOMPARE(comments.document.dropped.last().range.column, 4 * 199999 + 1);

        // 20,000 providers in reverse order.
        QByteArray reversed;
        for (int i = 19999; i >= 0; --i)
            reversed += "provider \"example.com/ns/p" + QByteArray::number(100000 + i) + "\" {\n  version = \"1.0.0\"\n}\n";
        const LockParseResult r = parseTofu(reversed);
        QVERIFY(!r.hasErrors());
        QCOMPARE(r.document.providers.size(), 20000);
        QCOMPARE(r.document.providers.first().address.type(), u"p100000"_s);
        QCOMPARE(r.document.providers.last().address.type(), u"p119999"_s);

        // 50,000 arguments in one block, the last one a redefinition.
        QByteArray many = "provider \"example.com/ns/p\" {\n  version = \"1.0.0\"\n";
        for (int i = 0; i < 50000; ++i)
            many += "  a" + QByteArray::number(i) + " = 1\n";
        many += "  a7 = 2\n}\n";
        const LockParseResult m = parseTofu(many);
        QCOMPARE(m.diagnostics.first().summary, u"Attribute redefined"_s);
        QCOMPARE(m.diagnostics.first().range.line, 50003);
        QCOMPARE(m.diagnostics.first().detail,
                 u"The argument \"a7\" was already set at .terraform.lock.hcl:10,3-5. Each argument may be set only once."_s);
    }

    void columnsOnLongLines()
    {
        // Positions far into a long line of two-byte characters (cursor steps fall inside them).
        QByteArray label;
        for (int i = 0; i < 5001; ++i)
            label += "\xc3\xa9";
        const LockParseResult r = parseTofu("provider \"" + label + "\" {} # x\n");
        QVERIFY(r.hasErrors());
        const LockDiagnostic &d = r.diagnostics.first();
        QCOMPARE(d.range.column, 10);
        QCOMPARE(d.range.endColumn, 10 + 5001 + 2);
        QCOMPARE(r.document.dropped.last().range.column, 10 + 5001 + 2 + 4);
    }

    void deepNestingIsBounded()
    {
        const QByteArray deep = "provider \"registry.opentofu.org/a/b\" {\n  version = " + QByteArray(100000, '[') + "\n}\n";
        const LockParseResult r = parseTofu(deep);
        QVERIFY(r.hasErrors());
        const QByteArray blocks = QByteArray().fill('x', 0) + QByteArray("a {\n").repeated(5000);
        QVERIFY(parseTofu(blocks).hasErrors());
        const QByteArray interps = "provider \"registry.opentofu.org/a/b\" {\n  version = " + QByteArray("\"${").repeated(20000) + "\n}\n";
        QVERIFY(parseTofu(interps).hasErrors());
    }
};

QTEST_GUILESS_MAIN(TestLockParser)
#include "tst_lockparser.moc"
