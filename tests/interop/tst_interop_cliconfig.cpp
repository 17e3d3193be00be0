// Interop: the CLI configuration reader (model/network/CliConfigSyntax.h) and the credentials and
// host blocks read through it (model/network/Credentials.h) against the real terraform, which
// reads that file with hashicorp/hcl v1.
//
// syntax: each text is terraform's CLI config (TF_CLI_CONFIG_FILE) for `terraform version`, which
// loads it first and reports "Error parsing FILE: At LINE:COLUMN: …" when hcl v1 rejects it. The
// texts use setting names terraform does not know (`zz`), so only the syntax can fail. Our
// reader must reject exactly the texts terraform rejects, at the same line and column (JSON-form
// texts: the verdict only; hcl's JSON parser gives some errors without a position).
//
// decoding: texts that parse, with the settings terraform's `Config` struct decodes
// (model/network/CliConfigDecode.h) in many forms; `terraform version` reports "Error parsing …"
// when hcl v1's decoder fails on one, or crashes while it loads the file. Our reader must say
// that terraform uses nothing in the file exactly then. The mutations of syntaxOfMutatedTexts
// reach the decoder too.
//
// credentials: a `host` block sends terraform's providers.v1 requests to a small HTTP server on
// 127.0.0.1 (python3) that records the Authorization header; `terraform init` for a provider of
// that host asks it for the versions. The token terraform sends (or that it sends none) must be
// the one findCredential() finds in the same file — duplicate blocks, nested and `=` forms,
// escapes, tokens of other types (hcl v1's decoder fails on some mixes, and terraform then
// ignores the whole file), the JSON form, a file with a syntax error, the decoder's order and
// case rules, settings it cannot decode, and errors terraform only reports.

#include "model/network/CliConfigSyntax.h"
#include "model/network/Credentials.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

constexpr auto kHost = "registry.provender.test";

/// Where terraform's "Error parsing …: [At ]L:C:" for `text` is, as 1000 * line + column (0: it
/// parsed; -2: an error without a position, as hcl v1's JSON parser gives some), or -1 when
/// terraform did not run.
int terraformParseErrorAt(const QString &sandbox, const QByteArray &text, QString *output)
{
    QFile f(sandbox + u"/cli.tfrc"_s);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size())
        return -1;
    f.close();
    const test::ProcessRun run = test::runTerraform(sandbox, sandbox, {u"version"_s});
    *output = QString::fromUtf8(run.err);
    if (!run.finished)
        return -1;
    if (!output->contains(u"Error parsing"_s))
        return 0;
    static const QRegularExpression parseError(u"Error parsing [^\\n]*: (?:At )?(\\d+):(\\d+):"_s);
    const QRegularExpressionMatch m = parseError.match(*output);
    return m.hasMatch() ? 1000 * m.captured(1).toInt() + m.captured(2).toInt() : -2;
}

/// Where our reader's error for `text` is, as 1000 * line + column (0: it parses).
int ourParseErrorAt(const QByteArray &text, QString *message)
{
    const Result<QList<cliconfig::Item>> r = cliconfig::parse(text);
    if (r.ok())
        return 0;
    *message = r.error().message;
    static const QRegularExpression at(u"^line (\\d+), column (\\d+)"_s);
    const QRegularExpressionMatch m = at.match(r.error().message);
    return m.hasMatch() ? 1000 * m.captured(1).toInt() + m.captured(2).toInt() : -1;
}

/// Whether terraform crashed (`output`: what terraformParseErrorAt() gave).
bool terraformCrashed(const QString &output)
{
    return output.contains(u"TERRAFORM CRASH"_s) || output.contains(u"panic:"_s);
}

/// Whether terraform uses nothing from the CLI config `text`: `terraform version` reports "Error
/// parsing FILE: …" (hcl v1 could not parse or decode it) or crashes while it loads it (1), or
/// not (0); -1 when terraform did not run.
int terraformUsesNothing(const QString &sandbox, const QByteArray &text, QString *output)
{
    const int at = terraformParseErrorAt(sandbox, text, output);
    if (at != 0)
        return at == -1 ? -1 : 1;
    return terraformCrashed(*output) ? 1 : 0;
}

/// Whether our reader says terraform uses nothing from `text` (warnings: what it said).
bool weSayTerraformUsesNothing(const QByteArray &text, QStringList *warnings)
{
    parseCliConfigCredentials(text, warnings);
    return std::any_of(warnings->cbegin(), warnings->cend(), [](const QString &w) {
        return w.contains(u"nothing in the file is used"_s) || w.contains(u"terraform uses nothing in the file"_s);
    });
}

} // namespace

class TestInteropCliConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void syntax_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("json");
        const auto row = [](const char *name, const QByteArray &text) { QTest::newRow(name) << text << false; };
        const auto jsonRow = [](const char *name, const QByteArray &text) { QTest::newRow(name) << text << true; };
        // Blocks, attributes, lists, objects, commas.
        row("block", "zz \"a\" {\n  b = \"c\"\n}\n");
        row("nested blocks", "zz \"a\" {\n  yy {\n    b = 1\n  }\n}\n");
        row("object value, commas", "zz = {b = 1, c = 2}\n");
        row("top-level comma", "zz = 1, yy = 2\n");
        row("list trailing comma", "zz = [1, 2,]\n");
        row("list double comma", "zz = [1,,2]\n");
        row("list of lists and objects", "zz = [[1], {a = 1}, true, \"s\"]\n");
        row("list without comma", "zz = [1 2]\n");
        row("identifier in list", "zz = [a]\n");
        row("no comma after a nested list", "zz = [[1] 2, [3] [4]]\n");
        row("no comma after an object in a list", "zz = [{a = 1} 2]\n");
        row("identifier value", "zz = b\n");
        row("number key", "1 = 2\n");
        row("two labels and =", "zz \"a\" \"b\" = {}\n");
        row("key at end", "zz \"a\"\n");
        row("key then brace", "zz {\n  a \"b\" }\n}\n");
        row("= at end", "zz =\n");
        row("= at end of block", "zz {\n  a =\n");
        row("missing value in block", "zz {\n  b =\n}\n");
        row("missing value in block, extra brace", "zz {\n  b = }\n}\n");
        row("unclosed block", "zz {\n  a = 1\n");
        row("stray close brace", "zz = 1\n}\n");
        row("lone =", "= 1\n");
        row("empty", "");
        row("only comments", "# a\n// b\n/* c */\n");
        // Comments.
        row("unterminated block comment", "zz = 1\n/* open\n");
        row("single slash", "zz = 1 / 2\n");
        row("comment after value", "zz = 1 /* c */ # d\n");
        // Strings.
        row("newline in string", "zz = \"abc\n\"\n");
        row("string at end", "zz = \"abc");
        row("escapes", "zz = \"\\a\\b\\f\\n\\r\\t\\v\\\\\\\" \\101 \\x41 \\u00e9 \\U0001F600\"\n");
        row("illegal escape", "zz = \"\\q\"\n");
        row("short hex escape", "zz = \"\\x4\"\n");
        row("octal 8", "zz = \"\\8\"\n");
        row("two bad escapes", "zz = \"\\q\"\nyy = \"\\w\"\n");
        row("interpolation with quotes", "zz = \"${f(\"}\")}\"\n");
        row("interpolation over lines", "zz = \"${\n}\"\n");
        row("unterminated interpolation", "zz = \"${a\n");
        // Heredocs.
        row("heredoc", "zz = <<EOT\nline\nEOT\n");
        row("indented heredoc", "zz = <<-EOT\n    line\n  EOT\n");
        row("indented heredoc, anchor at column 1", "zz = <<-EOT\nline\nEOT\n");
        row("heredoc, indented anchor", "zz = <<EOT\nline\n  EOT\n");
        row("heredoc, trailing text after anchor", "zz = <<EOT\nline\nEOT x\n");
        row("heredoc without last newline", "zz = <<EOT\nline\nEOT");
        row("heredoc not terminated", "zz = <<EOT\nline\n");
        row("zero-length anchor", "zz = <<\nline\n\n");
        row("invalid anchor", "zz = <<E-T\nline\nE-T\n");
        row("heredoc in list", "zz = [<<EOT\na\nEOT\n, 1]\n");
        row("CRLF heredoc", "zz = <<EOT\r\nline\r\nEOT\r\n");
        // Numbers and identifiers.
        row("numbers", "a = 0x1F\nb = 1e5\nc = .5\nd = -1\ne = 1.5e-3\nf = 089.5\ng = 0\n");
        row("empty hex", "zz = 0x\n");
        row("illegal octal", "zz = 089\n");
        row("identifier characters", "zz.a-b_c9 = 1\n");
        row("unicode identifier", "caf\xc3\xa9 = 1\n");
        row("illegal character", "zz = 1\n@\n");
        row("invalid UTF-8 in a comment", "# \xff\nzz = 1\n");
        row("NUL byte", QByteArray("zz = 1\n\0\n", 9));
        row("CRLF", "zz \"a\" {\r\n  b = 1\r\n}\r\n");
        // The JSON form: chosen by the first non-space character, whatever the file's name.
        jsonRow("json", "{\"zz\": {\"a\": {\"b\": 1}}, \"yy\": [1, {\"c\": true}], \"xx\": null}\n");
        jsonRow("json after spaces", "\n  {\"zz\": \"a\"}\n");
        jsonRow("json, broken", "{\"zz\": }\n");
        jsonRow("json, text after it", "{\"zz\": 1}\nxx\n");
        jsonRow("json, words end at a period", "{\"a\": [true.], \"b\": [.5, 1]}\n");
        jsonRow("json, a period after it", "{\"zz\": {\"a\": 1}}. \"b\": 2}\n");
        jsonRow("json, a list at the top", "[1]\n");
        jsonRow("json, unclosed", "{\"zz\": 1\n");
        jsonRow("json, list without commas", "{\"zz\": [1 2]}\n");
        jsonRow("json, trailing comma", "{\"zz\": 1,}\n");
        jsonRow("json, two objects", "{\"a\": 1}{\"b\": 2}\n");
        jsonRow("json, no colon", "{\"zz\" 1}\n");
        jsonRow("json, bare key", "{zz: 1}\n");
        jsonRow("json, leading zero", "{\"zz\": 01}\n");
        jsonRow("json, illegal escape", "{\"zz\": \"\\q\"}\n");
        jsonRow("json, bad keyword", "{\"zz\": tru}\n");
        jsonRow("json, lone minus", "{\"zz\": -}\n");
        jsonRow("json, number forms", "{\"a\": -0, \"b\": 1e5, \"c\": 2.5E-3, \"d\": [true, \"x\", 1.5]}\n");
        jsonRow("json, fraction without digits", "{\"a\": 1.}\n");
        jsonRow("json, exponent without digits", "{\"a\": 1.5e}\n");
        jsonRow("json, escapes", "{\"a\": \"\\u00e9 \\/ \\t\"}\n");
        jsonRow("json, nested lists", "{\"a\": [[1], [{\"b\": 2}]]}\n");
        jsonRow("json, nested list alone", "{\"a\": [[1]], \"b\": 2}\n");
        jsonRow("json, value after a nested list", "{\"a\": [1, [2], 3]}\n");
        jsonRow("json, null in a list", "{\"a\": [null]}\n");
        jsonRow("json, objects in a list", "{\"a\": [{\"b\": 1}, {\"c\": 2}], \"d\": [true]}\n");
        jsonRow("json, newline in string", "{\"zz\": \"a\nb\"}\n");
    }
    void syntax()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, json);
        PROVENDER_SKIP_UNLESS_TERRAFORM(u"terraform judges which CLI config texts hcl v1 accepts"_s);
        QTemporaryDir sandbox;
        QVERIFY(sandbox.isValid());
        QString terraformOutput;
        const int theirs = terraformParseErrorAt(sandbox.path(), text, &terraformOutput);
        QVERIFY2(theirs != -1, qPrintable(u"terraform did not run: "_s + terraformOutput));
        QString ourMessage;
        const int ours = ourParseErrorAt(text, &ourMessage);
        const QString both = u"terraform: %1\nours: %2"_s.arg(terraformOutput.trimmed(), ourMessage);
        QVERIFY2((ours == 0) == (theirs == 0), qPrintable(both));
        if (!json)
            QVERIFY2(ours == theirs, qPrintable(both));
    }

    // decoding: texts hcl v1 parses, with the settings terraform's `Config` struct decodes (and
    // crashes on) in every form we know; terraform's verdict (it uses nothing in the file, or it
    // does) must be ours. The expected verdicts are terraform's, as it runs.
    void decoding_data()
    {
        QTest::addColumn<QByteArray>("text");
        const auto row = [](const char *name, const QByteArray &text) { QTest::newRow(name) << text; };
        // Strings: a string, heredoc or integer token; a block or an empty object crashes it.
        row("string setting: list", "plugin_cache_dir = []\n");
        row("string setting: integer", "plugin_cache_dir = 1\n");
        row("string setting: hexadecimal", "plugin_cache_dir = 0x1F\n");
        row("string setting: fraction", "plugin_cache_dir = 1.5\n");
        row("string setting: boolean", "plugin_cache_dir = true\n");
        row("string setting: heredoc", "plugin_cache_dir = <<EOT\n/tmp\nEOT\n");
        row("string setting: empty object", "plugin_cache_dir = {}\n");
        row("string setting: empty block", "plugin_cache_dir {}\n");
        row("string setting: labelled block", "plugin_cache_dir \"x\" {}\n");
        row("string setting: upper case", "PLUGIN_CACHE_DIR = []\n");
        row("string setting: mixed case", "Plugin_Cache_Dir = true\n");
        row("string setting: second value", "plugin_cache_dir = \"/tmp\"\nplugin_cache_dir = []\n");
        row("string setting: JSON null", "{\"plugin_cache_dir\": null}\n");
        row("string setting: JSON list", "{\"plugin_cache_dir\": []}\n");
        row("string setting: JSON empty object", "{\"plugin_cache_dir\": {}}\n");
        // Booleans: true or false only.
        row("boolean setting: true", "plugin_cache_may_break_dependency_lock_file = true\n");
        row("boolean setting: string", "plugin_cache_may_break_dependency_lock_file = \"true\"\n");
        row("boolean setting: integer", "plugin_cache_may_break_dependency_lock_file = 1\n");
        row("boolean setting: block", "plugin_cache_may_break_dependency_lock_file {}\n");
        row("boolean setting: JSON null", "{\"plugin_cache_may_break_dependency_lock_file\": null}\n");
        // Settings only terraform's Config has.
        row("terraform only: disable_checkpoint", "disable_checkpoint = \"yes\"\n");
        row("terraform only: disable_checkpoint_signature", "disable_checkpoint_signature = 1\n");
        row("terraform only: disable_checkpoint true", "disable_checkpoint = true\n");
        row("terraform only: providers not an object", "providers = 1\n");
        row("terraform only: providers of strings", "providers { a = \"x\" }\n");
        row("terraform only: providers of booleans", "providers { a = true }\n");
        row("terraform only: providers block", "providers \"a\" {}\n");
        row("terraform only: provisioners list", "provisioners = []\n");
        row("terraform only: JSON providers object", "{\"providers\": {\"a\": {\"b\": \"c\"}}}\n");
        // Settings neither has: nothing to decode.
        row("unknown settings", "registryprotocols = 1\nzz = [1.5]\nprovider_installation { bogus {} }\n");
        // credentials: any values; a later value of an attribute into the first one's type.
        row("credentials: boolean", "credentials \"h\" { token = true }\n");
        row("credentials: fraction", "credentials \"h\" { token = 1.5 }\n");
        row("credentials: list", "credentials \"h\" { token = [1] }\n");
        row("credentials: object", "credentials \"h\" { token = {a = 1} }\n");
        row("credentials: object in a list", "credentials \"h\" { token = [{a = 1}] }\n");
        row("credentials: object in an object in a list", "credentials \"h\" { token = [{a = {b = 1}}] }\n");
        row("credentials: nested block", "credentials \"h\" { token = \"a\" }\ncredentials \"h\" { nested { a = 1 } }\n");
        row("credentials: two labels", "credentials \"h\" \"x\" { token = \"b\" }\n");
        row("credentials: one and two labels", "credentials \"h\" { token = \"a\" }\ncredentials \"h\" \"x\" { token = \"b\" }\n");
        row("credentials: object, invalid host", "credentials \"bad host!\" { x = {a = 1} }\n");
        row("credentials: integer out of range", "credentials \"h\" { token = 99999999999999999999 }\n");
        row("credentials: largest integer", "credentials \"h\" { token = 9223372036854775807 }\n");
        row("credentials: smallest integer", "credentials \"h\" { token = -9223372036854775808 }\n");
        row("credentials: hexadecimal out of range", "credentials \"h\" { token = 0x8000000000000000 }\n");
        row("credentials: fraction out of range", "credentials \"h\" { token = 1e999 }\n");
        row("credentials: fraction underflows", "credentials \"h\" { x = 1e-400 }\n");
        row("credentials: largest fraction", "credentials \"h\" { x = 1.7976931348623158e308 }\n");
        row("credentials: just above the largest", "credentials \"h\" { x = 1.7976931348623159e308 }\n");
        row("credentials: deep out of range", "credentials \"h\" { x = [1.5, [true, {a = 1e999}]] }\n");
        row("credentials: string then fraction, one block", "credentials \"h\" { token = \"a\"\n token = 1.5 }\n");
        row("credentials: list then integer", "credentials \"h\" { token = [1] }\ncredentials \"h\" { token = 2 }\n");
        row("credentials: list then object", "credentials \"h\" { token = [1] }\ncredentials \"h\" { token = {a=1} }\n");
        row("credentials: object then list", "credentials \"h\" { token = {a=1} }\ncredentials \"h\" { token = [1] }\n");
        row("credentials: object then string", "credentials \"h\" { token = {a=1} }\ncredentials \"h\" { token = \"x\" }\n");
        row("credentials: boolean then string", "credentials \"h\" { token = true }\ncredentials \"h\" { token = \"true\" }\n");
        row("credentials: fraction then integer", "credentials \"h\" { token = 1.5 }\ncredentials \"h\" { token = 2 }\n");
        row("credentials: fraction then hexadecimal", "credentials \"h\" { token = 1.5 }\ncredentials \"h\" { token = 0x10 }\n");
        row("credentials: fraction then octal", "credentials \"h\" { x = 1.5 }\ncredentials \"h\" { x = 017 }\n");
        row("credentials: fraction then string", "credentials \"h\" { token = 1.5 }\ncredentials \"h\" { token = \"2\" }\n");
        row("credentials: integer then heredoc", "credentials \"h\" { token = 5 }\ncredentials \"h\" { token = <<EOT\n5\nEOT\n}\n");
        for (const char *s : {" 5", "0b101", "1_000", "+5", "0o17", "08", "0x_1F", "1__0", "-0x10", "99999999999999999999", ""}) {
            const QByteArray text = "credentials \"h\" { token = 5 }\ncredentials \"h\" { token = \"" + QByteArray(s) + "\" }\n";
            QTest::addRow("credentials: integer then \"%s\"", s) << text;
        }
        row("credentials: integer then JSON null", "{\"credentials\": [{\"h\": {\"token\": 5}}, {\"h\": {\"token\": null}}]}\n");
        row("credentials: = form after a block", "credentials \"h\" { token = \"a\" }\ncredentials = { h = { token = 1.5 } }\n");
        row("credentials: = form before a block", "credentials = { h = { token = 1.5 } }\ncredentials \"h\" { token = \"a\" }\n");
        row("credentials: two spellings of a host", "credentials \"h\" { token = \"a\" }\ncredentials \"H\" { token = 1.5 }\n");
        row("credentials: upper-case name", "CREDENTIALS \"h\" { token = {a = 1} }\n");
        row("credentials: JSON list of objects", "{\"credentials\": {\"h\": {\"token\": [{\"b\": 1}]}}}\n");
        row("credentials: JSON object", "{\"credentials\": {\"h\": {\"token\": {\"b\": 1}}}}\n");
        row("credentials: JSON null", "{\"credentials\": {\"h\": {\"token\": null}}}\n");
        // host: services an object of any values, agreeing within one block.
        row("host: services in two blocks", "host \"h\" { services = { a = \"x\" } }\nhost \"h\" { services = { a = true } }\n");
        row("host: services twice in a block", "host \"h\" { services = { a = \"x\" }\n services = { a = true } }\n");
        row("host: services value out of range", "host \"h\" { services = { a = 1e999 } }\n");
        row("host: services value an object", "host \"h\" { services = { a = { b = 1 } } }\n");
        row("host: services a list", "host \"h\" { services = [] }\n");
        row("host: services in a labelled block", "host \"h\" \"x\" { services = [] }\n");
        row("host: mixed-case services", "host \"h\" { Services = 1 }\n");
        row("host: upper-case name", "HOST \"h\" { services = 1 }\n");
        row("host: not an object", "host = { h = 1 }\n");
        // credentials_helper: objects; args a list of strings.
        row("helper: args of strings and integers", "credentials_helper \"x\" { args = [\"a\", 1] }\n");
        row("helper: args with a fraction", "credentials_helper \"x\" { args = [\"a\", 1.5] }\n");
        row("helper: args a string", "credentials_helper \"x\" { args = \"a\" }\n");
        row("helper: args an empty object", "credentials_helper \"x\" { args = {} }\n");
        row("helper: args an object", "credentials_helper \"x\" { args = { a = \"b\" } }\n");
        row("helper: args a labelled block", "credentials_helper \"x\" { args \"y\" {} }\n");
        row("helper: args of booleans", "credentials_helper \"x\" { args = [true] }\n");
        row("helper: args of lists", "credentials_helper \"x\" { args = [[]] }\n");
        row("helper: JSON args", "{\"credentials_helper\": {\"x\": {\"args\": [\"a\"]}}, \"zz\": null}\n");
        row("helper: not an object", "credentials_helper = 1\n");
        row("helper: entry not an object", "credentials_helper = { x = 1 }\n");
        row("helper: two helpers", "credentials_helper \"x\" {}\ncredentials_helper \"y\" {}\n");
    }
    void decoding()
    {
        QFETCH(QByteArray, text);
        PROVENDER_SKIP_UNLESS_TERRAFORM(u"terraform judges which CLI config texts hcl v1 decodes"_s);
        QTemporaryDir sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(cliconfig::parse(text).ok());
        QString terraformOutput;
        const int theirs = terraformUsesNothing(sandbox.path(), text, &terraformOutput);
        QVERIFY2(theirs != -1, qPrintable(u"terraform did not run: "_s + terraformOutput));
        QStringList warnings;
        const bool ours = weSayTerraformUsesNothing(text, &warnings);
        const QString both = u"terraform: %1\nours: %2"_s.arg(terraformOutput.trimmed().left(600), warnings.join(u"; "_s));
        QVERIFY2(ours == (theirs == 1), qPrintable(both));
    }

    // The same comparisons over texts nobody chose: 240 seeded mutations (a character deleted,
    // inserted, replaced, a span doubled, or the value after an `=` or `:` replaced by one of
    // another type) of a few valid CLI configs, HCL and JSON. Where our reader parses a text, its
    // decode verdict must be terraform's; where it does not, terraform's error must be at the
    // same place.
    void syntaxOfMutatedTexts()
    {
        PROVENDER_SKIP_UNLESS_TERRAFORM(u"terraform judges which CLI config texts hcl v1 accepts"_s);
        QTemporaryDir sandbox;
        QVERIFY(sandbox.isValid());
        // Names terraform does not decode (zz, yy, …), where a mutation changes only the syntax,
        // and the settings terraform decodes, where it may change their shape. (Before these went
        // in, 9,600 mutations of such texts from other seeds, 289 of them refused by decoding,
        // gave no mismatch.)
        const QList<QByteArray> bases{
            QByteArray("zz \"a.example\" {\n  token = \"x\\\"y\"\n}\nyy \"h.example\" {\n  services = {\n    \"providers.v1\" = ")
                + "\"https://h/v1/\",\n  }\n}\n",
            "zz = [1, 2.5, -3, 0x1F, true, \"s\", [\"t\"], {a = 1}]\n# c\n// d\n/* e */\nyy \"l\" \"m\" {\n  k = <<EOT\nbody\nEOT\n}\n",
            "xx {\n  docker_credentials_helper = \"x\"\n  discover_ambient_credentials = false\n}\nw = \"${f(\"}\")}\"\n",
            "{\"zz\": {\"a.example\": {\"token\": \"x\"}}, \"yy\": [1, {\"b\": true}], \"xx\": null}\n",
            QByteArray("credentials \"a.example\" {\n  token = \"x\"\n}\nhost \"h.example\" {\n  services = {\n    \"providers.v1\" = ")
                + "\"https://h/v1/\",\n  }\n}\nplugin_cache_dir = \"/tmp\"\n",
            QByteArray(
                "credentials \"a\" { token = [1, 2.5, {b = true}] }\ncredentials \"a\" { token = [0x1F] }\ndisable_checkpoint = false\n")
                + "credentials_helper \"x\" {\n  args = [\"a\", 1]\n}\nplugin_cache_may_break_dependency_lock_file = true\n",
            "{\"credentials\": {\"a.example\": {\"token\": \"x\"}}, \"host\": {\"h\": {\"services\": {\"p\": \"u\"}}}, \"plugin_cache_dir\": \"d\"}\n",
        };
        const QByteArray alphabet = "{}[]=\",#/*\n <-.0a$\\:e";
        // Values of other types, for a value after an `=` or `:`.
        const QList<QByteArray> values{
            "[]",   "{}",     "1.5",  "true", "\"s\"", "7", "{a = 1}", "[{b = 2}]", "1e999", "99999999999999999999", "<<EOT\n8\nEOT\n",
            "null", "\"08\"", "[[1]]"};
        QRandomGenerator rng(20261206);
        int rejectedByTerraform = 0;
        int rejectedByDecoding = 0;
        for (int i = 0; i < 240; ++i) {
            QByteArray text = bases.at(i % bases.size());
            for (int m = 0, n = 1 + int(rng.bounded(3)); m < n; ++m) {
                const qsizetype at = rng.bounded(text.size());
                const char c = alphabet.at(rng.bounded(alphabet.size()));
                switch (rng.bounded(5)) {
                case 0: text.remove(at, 1); break;
                case 1: text.insert(at, c); break;
                case 2: text[at] = c; break;
                case 3: text.insert(at, text.mid(at, rng.bounded(1, 8))); break;
                default: { // the value after the next `=` or `:` replaced
                    qsizetype eq = at;
                    while (eq < text.size() && text.at(eq) != '=' && text.at(eq) != ':')
                        ++eq;
                    qsizetype end = ++eq;
                    while (end < text.size() && !QByteArrayView("\n,}]").contains(text.at(end)))
                        ++end;
                    if (eq < text.size())
                        text.replace(eq, end - eq, QByteArray(" " + values.at(rng.bounded(values.size()))));
                    break;
                }
                }
            }
            QString terraformOutput, ourMessage;
            const int theirs = terraformParseErrorAt(sandbox.path(), text, &terraformOutput);
            QVERIFY2(theirs != -1, qPrintable(u"terraform did not run: "_s + terraformOutput));
            const bool theyUseNothing = theirs != 0 || terraformCrashed(terraformOutput);
            const int ours = ourParseErrorAt(text, &ourMessage);
            QStringList warnings;
            const bool weUseNothing = ours != 0 || weSayTerraformUsesNothing(text, &warnings);
            rejectedByTerraform += theyUseNothing;
            rejectedByDecoding += theyUseNothing && ours == 0;
            const QString both =
                u"text: %1\nterraform: %2\nours: %3"_s.arg(QString::fromUtf8(text.toPercentEncoding(" \n{}[]=\",#/*<-.$:")),
                                                           terraformOutput.trimmed().left(600), ourMessage + warnings.join(u"; "_s));
            QVERIFY2(weUseNothing == theyUseNothing, qPrintable(both));
            if (ours != 0 && !text.trimmed().startsWith('{'))
                QVERIFY2(ours == theirs, qPrintable(both));
        }
        QVERIFY2(rejectedByTerraform > 40, qPrintable(QString::number(rejectedByTerraform))); // the mutations do break texts
        QVERIFY2(rejectedByDecoding > 3, qPrintable(QString::number(rejectedByDecoding)));    // and settings terraform decodes
    }

    void credentials_data()
    {
        QTest::addColumn<QByteArray>("text"); ///< the CLI config after the host block (with "SERVICES": all of it)
        /// Where terraform is known to read the file otherwise than tofu and Provender (who warn):
        /// "terraform only", a setting only terraform's Config decodes fails, so terraform uses
        /// nothing in the file; "last host block", the host's blocks merged by tofu and Provender,
        /// of which terraform uses only the last (whose services have no providers.v1).
        QTest::addColumn<QString>("differs");
        const auto row = [](const char *name, const QByteArray &text) { QTest::newRow(name) << text << QString(); };
        row("one block", "credentials \"registry.provender.test\" { token = \"plain\" }\n");
        row("two blocks",
            "credentials \"registry.provender.test\" { token = \"first\" }\n"
            "credentials \"registry.provender.test\" { token = \"second\" }\n");
        row("two tokens in a block", "credentials \"registry.provender.test\" {\n  token = \"x\"\n  token = \"y\"\n}\n");
        row("second block without a token",
            "credentials \"registry.provender.test\" { token = \"kept\" }\n"
            "credentials \"registry.provender.test\" { other = \"z\" }\n");
        row("nested form", "credentials {\n  \"registry.provender.test\" {\n    token = \"nested\"\n  }\n}\n");
        row("= form", "credentials = { \"registry.provender.test\" = { token = \"assigned\" } }\n");
        row("escapes", "credentials \"registry.provender.test\" { token = \"a\\u0041\\x42\\101\\\"q\" }\n");
        row("interpolation kept", "credentials \"registry.provender.test\" { token = \"a${b(\"c\")}d\" }\n");
        row("number token", "credentials \"registry.provender.test\" { token = 12 }\n");
        row("string then number",
            "credentials \"registry.provender.test\" { token = \"s\" }\n"
            "credentials \"registry.provender.test\" { token = 12 }\n");
        row("string then number, then string",
            "credentials \"registry.provender.test\" { token = \"s\" }\n"
            "credentials \"registry.provender.test\" { token = 12 }\n"
            "credentials \"registry.provender.test\" { token = \"t\" }\n");
        row("string then boolean",
            "credentials \"registry.provender.test\" { token = \"s\" }\n"
            "credentials \"registry.provender.test\" { token = true }\n");
        row("string then fraction",
            "credentials \"registry.provender.test\" { token = \"s\" }\n"
            "credentials \"registry.provender.test\" { token = 1.5 }\n");
        row("string then list",
            "credentials \"registry.provender.test\" { token = \"s\" }\n"
            "credentials \"registry.provender.test\" { token = [\"l\"] }\n");
        row("integer then string",
            "credentials \"registry.provender.test\" { token = 12 }\n"
            "credentials \"registry.provender.test\" { token = \"s\" }\n");
        row("integer then integer string",
            "credentials \"registry.provender.test\" { token = 12 }\n"
            "credentials \"registry.provender.test\" { token = \"13\" }\n");
        row("credentials not an object", "credentials = \"x\"\n");
        row("a host's services not an object",
            "credentials \"registry.provender.test\" { token = \"t\" }\n"
            "host \"other.provender.test\" { services = \"x\" }\n");
        row("upper-case host", "credentials \"REGISTRY.Provender.test\" { token = \"upper\" }\n");
        row("other host", "credentials \"other.provender.test\" { token = \"nope\" }\n");
        row("syntax error later", "credentials \"registry.provender.test\" { token = \"x\" }\nbroken \"\n");
        row("json",
            "{\"host\": {\"registry.provender.test\": {\"services\": {\"providers.v1\": \"SERVICES\"}}},"
            " \"credentials\": {\"registry.provender.test\": {\"token\": \"json\"}}}\n");
        // Decoding: labelled blocks are decoded before the `=` and nested forms, names in any case.
        row("= form before a block",
            "credentials = { \"registry.provender.test\" = { token = \"assigned-first\" } }\n"
            "credentials \"registry.provender.test\" { token = \"block-second\" }\n");
        row("nested form before a block",
            "credentials { \"registry.provender.test\" { token = \"nested-first\" } }\n"
            "credentials \"registry.provender.test\" { token = \"block-second\" }\n");
        row("integer in = form before a string block",
            "credentials = { \"registry.provender.test\" = { token = 12 } }\n"
            "credentials \"registry.provender.test\" { token = \"s\" }\n");
        row("upper-case credentials", "CREDENTIALS \"registry.provender.test\" { token = \"upper\" }\n");
        row("mixed-case credentials", "Credentials { \"registry.provender.test\" { token = \"mixed\" } }\n");
        row("upper-case token", "credentials \"registry.provender.test\" { TOKEN = \"upper\" }\n");
        row("upper-case host and services",
            "HOST \"registry.provender.test\" { Services = { \"providers.v1\" = \"SERVICES\" } }\n"
            "credentials \"registry.provender.test\" { token = \"t\" }\n");
        // Decoding failures of settings Provender does not read: nothing in the file is used.
        row("plugin_cache_dir a list", "credentials \"registry.provender.test\" { token = \"t\" }\nplugin_cache_dir = []\n");
        row("helper args of fractions",
            "credentials \"registry.provender.test\" { token = \"t\" }\ncredentials_helper \"x\" { args = [1.5] }\n");
        row("services value out of range",
            "credentials \"registry.provender.test\" { token = \"t\" }\nhost \"other.provender.test\" { services = { a = 1e999 } }\n");
        row("an object in another host's credentials",
            "credentials \"registry.provender.test\" { token = \"t\" }\ncredentials \"other.provender.test\" { x = { a = 1 } }\n");
        QTest::newRow("disable_checkpoint a string (terraform only)")
            << QByteArray("credentials \"registry.provender.test\" { token = \"t\" }\ndisable_checkpoint = \"x\"\n") << u"terraform only"_s;
        QTest::newRow("providers of lists (terraform only)")
            << QByteArray("credentials \"registry.provender.test\" { token = \"t\" }\nproviders { a = [] }\n") << u"terraform only"_s;
        QTest::newRow("two blocks of the host (last host block)")
            << QByteArray("host \"registry.provender.test\" { services = { \"providers.v1\" = \"SERVICES\" } }\n"
                          "host \"registry.provender.test\" { services = { \"modules.v1\" = \"https://127.0.0.1:1/\" } }\n"
                          "credentials \"registry.provender.test\" { token = \"t\" }\n")
            << u"last host block"_s;
        // Errors terraform only reports: it still uses the file.
        row("two credentials helpers",
            "credentials \"registry.provender.test\" { token = \"t\" }\ncredentials_helper \"a\" {}\ncredentials_helper \"b\" {}\n");
        row("invalid provider_installation methods",
            "credentials \"registry.provender.test\" { token = \"t\" }\nprovider_installation {\n  bogus {}\n  network_mirror {}\n"
            "  direct { include = \"x\" }\n  direct {}\n}\n");
        row("provider_installation with =", "credentials \"registry.provender.test\" { token = \"t\" }\nprovider_installation = {}\n");
        row("plugin_cache_dir missing", "credentials \"registry.provender.test\" { token = \"t\" }\nplugin_cache_dir = \"/nonexistent\"\n");
        row("an object in an invalid host's credentials",
            "credentials \"registry.provender.test\" { token = \"t\" }\ncredentials \"bad host!\" { x = { a = 1 } }\n");
        row("a services value an object",
            "credentials \"registry.provender.test\" { token = \"t\" }\nhost \"other.provender.test\" { services = { a = { b = 1 } } }\n");
    }
    void credentials()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, differs);
        PROVENDER_SKIP_UNLESS_TERRAFORM(u"terraform shows which token a CLI config gives a host"_s);
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it runs the recording server (Debian package python3)"));
        QTemporaryDir sandbox;
        QVERIFY(sandbox.isValid());
        const QString log = sandbox.filePath(u"requests.log"_s);

        // The recording server: answers 404 to everything and writes one line per request.
        QProcess server;
        server.setProgram(test::python3());
        server.setArguments({u"-c"_s,
                             u"import http.server, sys\n"
                             "log = open(sys.argv[1], 'a', buffering=1)\n"
                             "class H(http.server.BaseHTTPRequestHandler):\n"
                             "    def do_GET(self):\n"
                             "        log.write('%s %s\\n' % (self.path, self.headers.get('Authorization')))\n"
                             "        self.send_response(404); self.end_headers()\n"
                             "    def log_message(self, *a): pass\n"
                             "s = http.server.HTTPServer(('127.0.0.1', 0), H)\n"
                             "print(s.server_address[1], flush=True)\n"
                             "s.serve_forever()\n"_s,
                             log});
        server.start();
        QVERIFY(server.waitForReadyRead(20000));
        const int port = server.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        const auto stop = qScopeGuard([&server] {
            server.kill();
            server.waitForFinished();
        });

        const QByteArray services = u"http://127.0.0.1:%1/v1/providers/"_s.arg(port).toUtf8();
        QByteArray config = text;
        if (config.contains("SERVICES"))
            config.replace("SERVICES", services);
        else
            config.prepend("host \"" + QByteArray(kHost) + "\" {\n  services = {\n    \"providers.v1\" = \"" + services + "\"\n  }\n}\n");
        QFile cli(sandbox.filePath(u"cli.tfrc"_s));
        QVERIFY(cli.open(QIODevice::WriteOnly) && cli.write(config) == config.size());
        cli.close();
        QDir(sandbox.path()).mkpath(u"project"_s);
        QFile mainTf(sandbox.filePath(u"project/main.tf"_s));
        QVERIFY(mainTf.open(QIODevice::WriteOnly));
        mainTf.write("terraform {\n  required_providers {\n    x = { source = \"registry.provender.test/acme/x\" }\n  }\n}\n");
        mainTf.close();

        const test::ProcessRun run =
            test::runTerraform(sandbox.path(), sandbox.filePath(u"project"_s), {u"init"_s, u"-input=false"_s, u"-no-color"_s});
        QVERIFY2(run.finished, run.err.constData());
        QFile requests(log);
        QVERIFY(requests.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = requests.readAll().split('\n');
        // terraform's view: the Authorization of its versions request ("" when it sent none).
        QString theirs;
        bool asked = false;
        for (const QByteArray &l : lines) {
            if (!l.startsWith("/v1/providers/acme/x/versions "))
                continue;
            asked = true;
            const QByteArray auth = l.mid(l.indexOf(' ') + 1);
            theirs = auth == "None" ? QString() : QString::fromUtf8(auth.mid(QByteArrayView("Bearer ").size()));
        }

        // Ours, from the same file: the token, and the providers.v1 URL the requests went to.
        QProcessEnvironment env;
        env.insert(u"TF_CLI_CONFIG_FILE"_s, cli.fileName());
        QStringList warnings;
        const std::optional<Credential> found = findCredential(QString::fromLatin1(kHost), env, sandbox.filePath(u"home"_s), &warnings);
        const QString ours = found ? found->token : QString();
        QStringList ourServices;
        QStringList serviceWarnings;
        for (const auto &[host, map] : parseCliConfigHostServices(config, &serviceWarnings))
            ourServices << host + u" "_s + map.value(u"providers.v1"_s);

        const QString both = u"terraform: %1 (asked: %2)\nours: %3 (warnings: %4; hosts: %5)\nterraform said: %6"_s.arg(
            theirs, asked ? u"yes"_s : u"no"_s, ours, warnings.join(u"; "_s), ourServices.join(u", "_s),
            QString::fromUtf8(run.err.right(600)));
        if (differs == u"terraform only"_s) {
            // terraform uses nothing in the file, so it asks nobody; tofu and we use all of it.
            QVERIFY2(!asked && found && !ourServices.isEmpty(), qPrintable(both));
            QVERIFY2(warnings.size() == 1 && warnings.first().contains(u"terraform uses nothing in the file"_s), qPrintable(both));
            return;
        }
        if (differs == u"last host block"_s) {
            // terraform's host is its last block, which has no providers.v1: it asks nobody. We
            // merge the blocks, as tofu 1.12 does, and say what terraform sees instead.
            QVERIFY2(!asked && found && ourServices == QStringList{QString::fromLatin1(kHost) + u" "_s + QString::fromUtf8(services)},
                     qPrintable(both));
            QVERIFY2(serviceWarnings.size() == 1
                         && serviceWarnings.first().contains(u"terraform uses only the last block's (modules.v1), tofu 1.12 and later "
                                                             "merge them service by service (modules.v1, providers.v1)"_s),
                     qPrintable(serviceWarnings.join(u"; "_s)));
            return;
        }
        QVERIFY2(!serviceWarnings.join(u'\n').contains(u"give different services"_s), qPrintable(serviceWarnings.join(u"; "_s)));
        // A file hcl v1 cannot parse: terraform has no host block either, so it asks nobody.
        QCOMPARE_NE(asked, ourServices.isEmpty());
        if (asked)
            QVERIFY2(ours == theirs, qPrintable(both));
        else
            QVERIFY2(!found && !warnings.isEmpty(), qPrintable(both));
    }
};

QTEST_GUILESS_MAIN(TestInteropCliConfig)
#include "tst_interop_cliconfig.moc"
