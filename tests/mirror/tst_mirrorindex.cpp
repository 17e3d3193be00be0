// The network-mirror JSON reader (index.json, <version>.json) and the byte-exact renderers.
//
// Expected values come from: the exact examples of tofu-formats.md §4, the files terraform wrote
// in the shared corpus (corpus/mirror-json), error positions reported by Python's json module
// (the same character as Go's scanner except where noted), and the decoding rules of Go's
// encoding/json described in tofu-formats.md §6.

#include "model/mirror/IndexWriter.h"
#include "model/mirror/MirrorIndex.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VersionDocumentDump.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

QStringList issueKinds(const QList<MirrorIndexIssue> &issues)
{
    QStringList out;
    for (const MirrorIndexIssue &i : issues) {
        switch (i.kind) {
        case MirrorIndexIssue::Kind::InvalidVersionKey: out.append(QStringLiteral("invalid-version")); break;
        case MirrorIndexIssue::Kind::InvalidPlatformKey: out.append(QStringLiteral("invalid-platform")); break;
        case MirrorIndexIssue::Kind::InvalidHash: out.append(QStringLiteral("invalid-hash")); break;
        case MirrorIndexIssue::Kind::MissingUrl: out.append(QStringLiteral("missing-url")); break;
        case MirrorIndexIssue::Kind::NullArchive: out.append(QStringLiteral("null-archive")); break;
        case MirrorIndexIssue::Kind::TrailingData: out.append(QStringLiteral("trailing-data")); break;
        case MirrorIndexIssue::Kind::NoVersions: out.append(QStringLiteral("no-versions")); break;
        }
    }
    return out;
}

/// "key url [hashes]" per entry, for compact comparisons.
QStringList describe(const MirrorVersionDocument &doc)
{
    QStringList out;
    for (const MirrorArchiveEntry &e : doc.archives) {
        QStringList hashes;
        for (const HashString &h : e.hashes)
            hashes.append(h.toString());
        out.append(QStringLiteral("%1 %2 [%3]").arg(e.key, e.url, hashes.join(QLatin1Char(','))));
    }
    return out;
}

} // namespace

class TestMirrorIndex : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void indexJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("versions");
        QTest::addColumn<QStringList>("issues");

        QTest::newRow("terraform output") << QByteArray("{\n  \"versions\": {\n    \"4.16.0\": {},\n    \"4.62.0\": {}\n  }\n}")
                                          << QStringList{u"4.16.0"_s, u"4.62.0"_s} << QStringList{};
        QTest::newRow("empty map") << QByteArray(R"({"versions": {}})") << QStringList{} << QStringList{u"no-versions"_s};
        QTest::newRow("no versions member") << QByteArray("{}") << QStringList{} << QStringList{u"no-versions"_s};
        QTest::newRow("key case folded") << QByteArray(R"({"VERSIONS": {"1.0.0": {}}})") << QStringList{u"1.0.0"_s} << QStringList{};
        QTest::newRow("unknown fields ignored")
            << QByteArray(R"({"meta": [1, {"x": null}], "versions": {"1.0.0": {"protocols": ["5.0"], "platforms": []}}})")
            << QStringList{u"1.0.0"_s} << QStringList{};
        QTest::newRow("null versions") << QByteArray(R"({"versions": null})") << QStringList{} << QStringList{u"no-versions"_s};
        QTest::newRow("null document") << QByteArray("  null  ") << QStringList{} << QStringList{u"no-versions"_s};
        QTest::newRow("null version value") << QByteArray(R"({"versions": {"1.0.0": null}})") << QStringList{u"1.0.0"_s} << QStringList{};
        QTest::newRow("lenient version keys merge")
            << QByteArray(R"({"versions": {"2.0": {}, "2.0.0": {}}})") << QStringList{u"2.0.0"_s} << QStringList{};
        QTest::newRow("precedence order, not key order")
            << QByteArray(R"({"versions": {"10.0.0": {}, "2.0.0": {}, "1.0.0-beta": {}, "1.0.0": {}}})")
            << QStringList{u"1.0.0-beta"_s, u"1.0.0"_s, u"2.0.0"_s, u"10.0.0"_s} << QStringList{};
        QTest::newRow("invalid version key skipped")
            << QByteArray(R"({"versions": {"v1.0.0": {}, "1.0.0": {}}})") << QStringList{u"1.0.0"_s} << QStringList{u"invalid-version"_s};
        QTest::newRow("only the first value is read") << QByteArray("{\"versions\": {\"1.0.0\": {}}}\n{\"versions\": 5} garbage")
                                                      << QStringList{u"1.0.0"_s} << QStringList{u"trailing-data"_s};
        QTest::newRow("members that fold to one field merge") << QByteArray(R"({"versions": {"1.0.0": {}}, "Versions": {"2.0.0": {}}})")
                                                              << QStringList{u"1.0.0"_s, u"2.0.0"_s} << QStringList{};
        // encoding/json: "invalid UTF-16 surrogate pairs are not treated as an error. Instead, they
        // are replaced by the Unicode replacement character U+FFFD" (found by fuzz_mirrorindex).
        QTest::newRow("lone surrogate escapes decode as U+FFFD")
            << QByteArray(R"({"versions": {"1.0.0": {}, "\ud800": {}, "2\udc00": {}, "3\ud83d\u0041": {}, "4\ud83d\ude00": {}}})")
            << QStringList{u"1.0.0"_s}
            << QStringList{u"invalid-version"_s, u"invalid-version"_s, u"invalid-version"_s, u"invalid-version"_s};
        QTest::newRow("invalid UTF-8 in an ignored string")
            << QByteArray("{\"x\": \"\xff\xfe\", \"versions\": {\"1.0.0\": {}}}") << QStringList{u"1.0.0"_s} << QStringList{};
    }
    void indexJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, versions);
        QFETCH(QStringList, issues);
        Result<MirrorIndexDocument> doc = parseIndexJson(json, QStringLiteral("index.json"));
        QVERIFY2(doc.ok(), qPrintable(doc.ok() ? QString() : doc.error().toString()));
        QCOMPARE(test::toStrings(doc->versions), versions);
        QCOMPARE(issueKinds(doc->issues), issues);
    }

    void loneSurrogateKeys()
    {
        // The keys as Go decodes them (see indexJson "lone surrogate escapes decode as U+FFFD"),
        // in byte-wise order: "1.0.0", "2 U+FFFD", "3 U+FFFD A", "4 U+1F600", "U+FFFD".
        const QByteArray json = R"({"versions": {"1.0.0": {}, "\ud800": {}, "2\udc00": {}, "3\ud83d\u0041": {}, "4\ud83d\ude00": {}}})";
        Result<MirrorIndexDocument> doc = parseIndexJson(json, QStringLiteral("index.json"));
        QVERIFY(doc.ok());
        QCOMPARE(doc->keys, (QStringList{u"1.0.0"_s, u"2\uFFFD"_s, u"3\uFFFDA"_s, u"4\U0001F600"_s, u"\uFFFD"_s}));
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");

        // Positions as Python's json module reports them (the character that cannot be accepted).
        QTest::newRow("trailing comma") << QByteArray("{\n  \"versions\": {\n    \"1.0.0\": {},\n  }\n}") << 4 << 3
                                        << QStringLiteral("invalid character '}' looking for beginning of object key string");
        QTest::newRow("missing colon") << QByteArray("{\n  \"versions\" {}\n}") << 2 << 14 << QStringLiteral("after object key");
        QTest::newRow("missing comma") << QByteArray(
            "{\n  \"archives\": {\n    \"linux_amd64\": {\"url\": \"a.zip\" \"hashes\": []}\n  }\n}")
                                       << 3 << 36 << QStringLiteral("after object key:value pair");
        QTest::newRow("single quotes") << QByteArray("{\n\t'versions': {}\n}") << 2 << 2 << QStringLiteral("'\\''");
        QTest::newRow("columns count characters, not bytes")
            << QByteArray("{\"x\": \"h\xc3\xa9llo w\xc3\xb6rld\", \"versions\": {\"1.0.0\": {}},,}") << 1 << 48
            << QStringLiteral("looking for beginning of object key string");
        QTest::newRow("raw newline in a string") << QByteArray("{\n  \"versions\": {\n    \"1.0.0\n  }\n}") << 3 << 11
                                                 << QStringLiteral("invalid character '\\n' in string literal");
        QTest::newRow("unexpected end") << QByteArray(R"({"versions": {"1.0.0": {}})") << 1 << 27
                                        << QStringLiteral("unexpected end of JSON input");
        QTest::newRow("empty document") << QByteArray() << 1 << 1 << QStringLiteral("unexpected end of JSON input");
        QTest::newRow("byte order mark") << QByteArray("\xef\xbb\xbf{\"versions\": {}}") << 1 << 1
                                         << QStringLiteral("looking for beginning of value");
        // Go's scanner fails on the character after the bad one (Python points at the start of
        // the token): `tru}` fails at `}`, `\q` at `q`.
        QTest::newRow("bad literal") << QByteArray(R"({"versions": {"1.0.0": tru}})") << 1 << 27
                                     << QStringLiteral("in literal true (expecting 'e')");
        QTest::newRow("bad escape") << QByteArray(R"({"versions": {"1.0\q": {}}})") << 1 << 20
                                    << QStringLiteral("invalid character 'q' in string escape code");
        // Type errors: where the member is.
        QTest::newRow("versions is an array") << QByteArray("{\n  \"versions\": []\n}") << 2 << 3
                                              << QStringLiteral("\"versions\" must be an object, found an array");
        QTest::newRow("version maps to a number")
            << QByteArray("{\"versions\": {\n  \"1.0.0\": 1}}") << 2 << 3 << QStringLiteral("must map to an object, found a number");
        QTest::newRow("top level array") << QByteArray("  []") << 1 << 3 << QStringLiteral("must be an object, found an array");
    }
    void malformed()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        Result<MirrorIndexDocument> doc = parseIndexJson(json, QStringLiteral("dir/index.json"));
        QVERIFY(!doc.ok());
        QCOMPARE(doc.error().code, ErrorCode::InvalidArgument);
        QCOMPARE(doc.error().location.file, QStringLiteral("dir/index.json"));
        QVERIFY2(doc.error().message.contains(message), qPrintable(doc.error().message));
        QCOMPARE(doc.error().location.line, line);
        QCOMPARE(doc.error().location.column, column);
    }

    void versionJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("archives");
        QTest::addColumn<QStringList>("issues");

        QTest::newRow("terraform output") << QByteArray(
            "{\n  \"archives\": {\n    \"linux_amd64\": {\n      \"hashes\": [\n        \"h1:AAA=\"\n      ],\n"
            "      \"url\": \"terraform-provider-aws_4.16.0_linux_amd64.zip\"\n    }\n  }\n}")
                                          << QStringList{u"linux_amd64 terraform-provider-aws_4.16.0_linux_amd64.zip [h1:AAA=]"_s}
                                          << QStringList{};
        QTest::newRow("keys fold case, unknown fields ignored")
            << QByteArray(R"({"Archives": {"linux_amd64": {"URL": "a.zip", "HASHES": ["zh:00", "h1:x"], "size": 5}}})")
            << QStringList{u"linux_amd64 a.zip [zh:00,h1:x]"_s} << QStringList{};
        QTest::newRow("platform keys are not case folded")
            << QByteArray(R"({"archives": {"Linux_AMD64": {"url": "a.zip"}, "darwin_arm64": {"url": "b.zip"}}})")
            << QStringList{u"Linux_AMD64 a.zip []"_s, u"darwin_arm64 b.zip []"_s} << QStringList{};
        QTest::newRow("absolute url, empty hashes")
            << QByteArray("{\"archives\": {\"darwin_arm64\": {\"url\": \"https://example.com/x.zip\", \"hashes\": []}}}")
            << QStringList{u"darwin_arm64 https://example.com/x.zip []"_s} << QStringList{};
        QTest::newRow("null hashes and null url") << QByteArray(R"({"archives": {"linux_amd64": {"url": null, "hashes": null}}})")
                                                  << QStringList{u"linux_amd64  []"_s} << QStringList{u"missing-url"_s};
        QTest::newRow("null archive entry") << QByteArray(R"({"archives": {"linux_amd64": null, "windows_386": {"url": "w.zip"}}})")
                                            << QStringList{u"windows_386 w.zip []"_s} << QStringList{u"null-archive"_s};
        QTest::newRow("invalid platform key") << QByteArray(R"({"archives": {"linux-amd64": {"url": "a.zip"}}})") << QStringList{}
                                              << QStringList{u"invalid-platform"_s};
        QTest::newRow("hash without scheme, null hash")
            << QByteArray(R"({"archives": {"linux_amd64": {"url": "a.zip", "hashes": ["abc", null, "h1:ok"]}}})")
            << QStringList{u"linux_amd64 a.zip [h1:ok]"_s} << QStringList{u"invalid-hash"_s, u"invalid-hash"_s};
        QTest::newRow("null archives") << QByteArray(R"({"archives": null})") << QStringList{} << QStringList{};
    }
    void versionJson()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, archives);
        QFETCH(QStringList, issues);
        Result<MirrorVersionDocument> doc = parseVersionJson(json, QStringLiteral("1.0.0.json"));
        QVERIFY2(doc.ok(), qPrintable(doc.ok() ? QString() : doc.error().toString()));
        QCOMPARE(describe(doc.value()), archives);
        QCOMPARE(issueKinds(doc->issues), issues);
    }

    void versionJsonTypeErrors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("url number") << QByteArray(R"({"archives": {"linux_amd64": {"url": 5}}})")
                                    << QStringLiteral("\"url\" of archive \"linux_amd64\" must be a string, found a number");
        QTest::newRow("hashes string") << QByteArray(R"({"archives": {"linux_amd64": {"hashes": "h1:x"}}})")
                                       << QStringLiteral("must be an array of strings, found a string");
        QTest::newRow("hash number") << QByteArray(R"({"archives": {"linux_amd64": {"hashes": [1]}}})")
                                     << QStringLiteral("must hold only strings, found a number");
        QTest::newRow("archives array") << QByteArray(R"({"archives": []})") << QStringLiteral("\"archives\" must be an object");
        QTest::newRow("archive string") << QByteArray(R"({"archives": {"linux_amd64": "a.zip"}})")
                                        << QStringLiteral("archive \"linux_amd64\" must be an object, found a string");
    }
    void versionJsonTypeErrors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        Result<MirrorVersionDocument> doc = parseVersionJson(json, QStringLiteral("1.0.0.json"));
        QVERIFY(!doc.ok());
        QVERIFY2(doc.error().message.contains(message), qPrintable(doc.error().message));
        QVERIFY(doc.error().location.line >= 1);
    }

    /// Deterministic mutations of valid documents: every result is a document or an error with
    /// a position inside the input, never a crash or a hang.
    void mutationsNeverCrash()
    {
        const QList<QByteArray> seeds{
            "{\n  \"versions\": {\n    \"2.1.0\": {},\n    \"2.0\": null\n  }\n}",
            "{\"archives\": {\"linux_amd64\": {\"hashes\": [\"h1:abc=\", \"zh:00\"], \"url\": \"a%20b.zip\"}, \"x_y\": null}}",
        };
        const QByteArray alphabet("{}[]\":,\\ntuflse0123456789.-+eE \t\n\r\x00\x80\xc3\xa9\xef\xbb\xbfuU/");
        quint32 state = 12345;
        auto next = [&state] {
            state = state * 1103515245u + 12345u;
            return (state >> 8) & 0xFFFFFF;
        };
        int documents = 0, errors = 0;
        for (int round = 0; round < 4000; ++round) {
            QByteArray doc = seeds.at(round % seeds.size());
            for (int edits = 1 + int(next() % 4); edits > 0; --edits) {
                const qsizetype pos = qsizetype(next() % quint32(doc.size() + 1));
                switch (next() % 3) {
                case 0: doc.insert(pos, alphabet.at(qsizetype(next() % quint32(alphabet.size())))); break;
                case 1: doc.remove(pos, 1 + qsizetype(next() % 3)); break;
                default:
                    if (pos < doc.size())
                        doc[pos] = alphabet.at(qsizetype(next() % quint32(alphabet.size())));
                }
            }
            const auto check = [&](const auto &r) {
                if (r.ok()) {
                    ++documents;
                    return;
                }
                ++errors;
                QVERIFY(r.error().location.line >= 1);
                QVERIFY(r.error().location.line <= doc.count('\n') + 1);
            };
            check(parseIndexJson(doc, QStringLiteral("m.json")));
            check(parseVersionJson(doc, QStringLiteral("m.json")));
        }
        QVERIFY(documents > 0);
        QVERIFY(errors > 0);
        // Deep nesting is refused with a position, not by exhausting the stack.
        const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
        Result<MirrorIndexDocument> r = parseIndexJson(deep, QStringLiteral("deep.json"));
        QVERIFY(!r.ok());
        QCOMPARE(r.error().location.column, 1025); // the 1025th opening bracket
    }

    void locationOfOffsetCountsCodePoints()
    {
        const QByteArray text("ab\n\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80x\ny");
        QCOMPARE(locationOfOffset(text, 0, {}).toString(), QStringLiteral("1:1"));
        QCOMPARE(locationOfOffset(text, 3, {}).toString(), QStringLiteral("2:1"));
        QCOMPARE(locationOfOffset(text, 12, {}).toString(), QStringLiteral("2:4")); // 'x' after é 中 😀
        QCOMPARE(locationOfOffset(text, 14, {}).toString(), QStringLiteral("3:1"));
        QCOMPARE(locationOfOffset(text, 999, QStringLiteral("f")).toString(), QStringLiteral("f:3:2"));
    }

    // ---- rendering: the exact bytes of tofu-formats.md §4

    void renderSpecExamples()
    {
        const QByteArray index = "{\n  \"versions\": {\n    \"2.1.0\": {}\n  }\n}";
        QCOMPARE(renderIndexJson({QStringLiteral("2.1.0")}), index);

        const QByteArray version = QStringLiteral("{\n"
                                                  "  \"archives\": {\n"
                                                  "    \"linux_amd64\": {\n"
                                                  "      \"hashes\": [\n"
                                                  "        \"h1:\u2026\",\n"
                                                  "        \"zh:\u2026\"\n"
                                                  "      ],\n"
                                                  "      \"url\": \"terraform-provider-null_2.1.0_linux_amd64.zip\"\n"
                                                  "    },\n"
                                                  "    \"windows_386\": {\n"
                                                  "      \"hashes\": [\n"
                                                  "        \"h1:\u2026\"\n"
                                                  "      ],\n"
                                                  "      \"url\": \"terraform-provider-null_2.1.0_windows_386.zip\"\n"
                                                  "    }\n"
                                                  "  }\n"
                                                  "}")
                                       .toUtf8();
        // Given out of order: keys are sorted as Go sorts map keys.
        const QList<IndexArchiveRecord> records{
            {QStringLiteral("windows_386"), QStringLiteral("terraform-provider-null_2.1.0_windows_386.zip"), {QStringLiteral("h1:\u2026")}},
            {QStringLiteral("linux_amd64"),
             QStringLiteral("terraform-provider-null_2.1.0_linux_amd64.zip"),
             {QStringLiteral("h1:\u2026"), QStringLiteral("zh:\u2026")}},
        };
        QCOMPARE(renderVersionJson(records), version);
    }
    void renderEdges()
    {
        QCOMPARE(renderIndexJson({}), QByteArray("{\n  \"versions\": {}\n}"));
        // Byte-wise order: "10.0.0" sorts before "2.0.0"; duplicates collapse.
        QCOMPARE(renderIndexJson({QStringLiteral("2.0.0"), QStringLiteral("10.0.0"), QStringLiteral("2.0.0")}),
                 QByteArray("{\n  \"versions\": {\n    \"10.0.0\": {},\n    \"2.0.0\": {}\n  }\n}"));
        QCOMPARE(renderVersionJson({}), QByteArray("{\n  \"archives\": {}\n}"));
        QCOMPARE(
            renderVersionJson({{QStringLiteral("linux_amd64"), QStringLiteral("a.zip"), {}}}),
            QByteArray("{\n  \"archives\": {\n    \"linux_amd64\": {\n      \"hashes\": [],\n      \"url\": \"a.zip\"\n    }\n  }\n}"));
    }
    void goEscaping_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("plain") << QStringLiteral("a.zip") << QByteArray("\"a.zip\"");
        QTest::newRow("html-safe") << QStringLiteral("<a>&b") << QByteArray("\"\\u003ca\\u003e\\u0026b\"");
        QTest::newRow("quote, backslash") << QStringLiteral("\"\\") << QByteArray("\"\\\"\\\\\"");
        QTest::newRow("short escapes") << QStringLiteral("\b\f\n\r\t") << QByteArray("\"\\b\\f\\n\\r\\t\"");
        QTest::newRow("other controls") << QString(QChar(0x01)) + QChar(0x1f) << QByteArray("\"\\u0001\\u001f\"");
        QTest::newRow("line separators") << QStringLiteral("\u2028\u2029") << QByteArray("\"\\u2028\\u2029\"");
        QTest::newRow("other non-ASCII raw") << QStringLiteral("caf\u00e9 \u2026 \u007f")
                                             << QByteArray("\"caf\xc3\xa9 \xe2\x80\xa6 \x7f\"");
    }
    void goEscaping()
    {
        QFETCH(QString, text);
        QFETCH(QByteArray, json);
        QCOMPARE(goJsonQuote(text), json);
    }

    // ---- the corpus: index files terraform wrote, re-rendered byte for byte

    void corpus_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("note");
        const QString dir = test::corpusDir(QStringLiteral("mirror-json"));
        // In _data: without rows Qt would run corpus() once with no data and abort.
        PROVENDER_SKIP_UNLESS_CORPUS(dir, QStringLiteral("mirror-json"));
        QHash<QString, QString> notes;
        const QByteArray manifest = test::readFile(test::sharedDir() + QStringLiteral("/corpus/MANIFEST.tsv"));
        for (const QByteArray &line : manifest.split('\n')) {
            const QList<QByteArray> fields = line.split('\t');
            if (fields.size() >= 5 && fields.at(0).startsWith("mirror-json/"))
                notes.insert(QString::fromUtf8(fields.at(0).mid(12)), QString::fromUtf8(fields.at(4)));
        }
        const QStringList files = QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir + QLatin1Char('/') + f << notes.value(f);
    }
    void corpus()
    {
        QFETCH(QString, path);
        QFETCH(QString, note);
        const QByteArray bytes = test::readFile(path);
        QVERIFY(!bytes.isNull());
        const bool isIndex = path.endsWith(QStringLiteral("-index.json"));

        const QRegularExpression malformed(QStringLiteral("INVALID JSON \\(.*line (\\d+) column (\\d+)"));
        if (const auto m = malformed.match(note); m.hasMatch()) {
            // The manifest records where Python's json module stopped; we must stop there too.
            Result<MirrorIndexDocument> doc = parseIndexJson(bytes, path);
            QVERIFY(!doc.ok());
            QCOMPARE(doc.error().location.line, m.captured(1).toInt());
            QCOMPARE(doc.error().location.column, m.captured(2).toInt());
            return;
        }
        QByteArray rendered;
        if (isIndex) {
            Result<MirrorIndexDocument> doc = parseIndexJson(bytes, path);
            QVERIFY2(doc.ok(), qPrintable(doc.ok() ? QString() : doc.error().toString()));
            QVERIFY(doc->issues.isEmpty());
            QVERIFY(!doc->versions.isEmpty());
            rendered = renderIndexJson(test::toStrings(doc->versions));
        } else {
            Result<MirrorVersionDocument> doc = parseVersionJson(bytes, path);
            QVERIFY2(doc.ok(), qPrintable(doc.ok() ? QString() : doc.error().toString()));
            QVERIFY(!doc->archives.isEmpty());
            rendered = renderVersionJson(test::archiveRecords(*doc));
        }
        if (note.contains(QStringLiteral("hand-written")))
            QVERIFY2(rendered != bytes, "a hand-written file is not in terraform's format; the corpus note is wrong");
        else
            QCOMPARE(rendered, bytes);
    }
};

QTEST_GUILESS_MAIN(TestMirrorIndex)
#include "tst_mirrorindex.moc"
