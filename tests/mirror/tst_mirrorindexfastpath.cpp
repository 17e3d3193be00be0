// The <version>.json fast path (model/mirror/MirrorIndexFastPath.h) against the full reader.
//
// Expected values: the full reader (parseVersionJsonFull, itself tested against Go's decoding
// rules in tst_mirrorindex). Documents: the corpus's real <version>.json files, documents written
// by renderVersionJson, hand-written variants of every shape the fast path must decline, and
// tens of thousands of random mutations of all of these. Whenever the fast path accepts, its
// result must equal the full reader's (which must then report no issue); parseVersionJson must
// always equal the full reader.

#include "model/mirror/IndexWriter.h"
#include "model/mirror/MirrorIndex.h"
#include "model/mirror/MirrorIndexFastPath.h"
#include "tests/support/TestSupport.h"
#include "tests/support/VersionDocumentDump.h"

#include <QDir>
#include <QRandomGenerator>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

/// Documents in the shape tools write, from a seeded generator.
QList<QByteArray> generatedDocuments()
{
    QRandomGenerator rng(20261130);
    const QStringList platforms{u"darwin_amd64"_s, u"darwin_arm64"_s,  u"freebsd_386"_s, u"linux_amd64"_s,   u"linux_arm"_s,
                                u"linux_arm64"_s,  u"openbsd_amd64"_s, u"windows_386"_s, u"windows_amd64"_s, u"solaris_amd64"_s};
    QList<QByteArray> docs;
    for (int d = 0; d < 60; ++d) {
        QList<IndexArchiveRecord> records;
        const int n = int(rng.bounded(0, 6));
        QStringList chosen = platforms;
        for (int i = 0; i < n && !chosen.isEmpty(); ++i) {
            const QString platform = chosen.takeAt(rng.bounded(chosen.size()));
            QStringList hashes;
            const int hashCount = int(rng.bounded(0, 4));
            for (int h = 0; h < hashCount; ++h)
                hashes.append(h % 2 ? u"zh:%1"_s.arg(qulonglong(rng.generate64()), 16, 16, QLatin1Char('0'))
                                    : u"h1:%1="_s.arg(qulonglong(rng.generate()), 0, 36));
            records.append({platform, u"terraform-provider-x_1.%1.0_%2.zip"_s.arg(d).arg(platform), hashes});
        }
        std::sort(records.begin(), records.end(), [](const auto &a, const auto &b) { return a.platform < b.platform; });
        docs.append(renderVersionJson(records));
    }
    return docs;
}

/// Shapes the fast path must read, and shapes it must leave to the full reader.
QList<QByteArray> handWrittenDocuments()
{
    return {
        R"({"archives":{"linux_amd64":{"hashes":["h1:a="],"url":"a.zip"}}})",
        R"({"archives":{"linux_amd64":{"url":"a.zip","hashes":["h1:a=","zh:00"]}}})",
        " \t\r\n{ \"archives\" : { \"linux_amd64\" : { \"url\" : \"a.zip\" , \"hashes\" : [ ] } } } \n",
        R"({"archives":{}})",
        R"({"archives":{"a_b":{"url":"x"},"c_d":{"url":"y"}}})",
        R"({"archives":{"c_d":{"url":"y"},"a_b":{"url":"x"}}})", // keys out of order
        R"({"archives":{"a_b":{"url":"x"},"a_b":{"url":"y"}}})", // repeated key
        R"({"Archives":{"a_b":{"url":"x"}}})",                   // other case
        R"({"archives":{"a_b":{"URL":"x"}}})",
        R"({"archives":{"a_b":{"url":"x","url":"y"}}})", // repeated member
        R"({"archives":{"a_b":{"url":"x","hashes":["h1:a"],"hashes":[]}}})",
        R"({"archives":{"a_b":{"url":"x","size":3}}})", // unknown member
        R"({"archives":{"a_b":{"url":"x"}},"extra":1})",
        R"({"archives":{"a_b":{"url":""}}})",          // empty url
        R"({"archives":{"a_b":{"hashes":["h1:a"]}}})", // no url
        R"({"archives":{"a_b":{}}})",
        R"({"archives":{"a_b":null}})",
        R"({"archives":null})",
        R"(null)",
        R"({"archives":{"a_b":{"url":"x","hashes":["nohash"]}}})", // invalid hash
        R"({"archives":{"a_b":{"url":"x","hashes":[":x"]}}})",
        R"({"archives":{"a_b":{"url":"x","hashes":[null]}}})",
        R"({"archives":{"a_b":{"url":"x","hashes":null}}})",
        R"({"archives":{"ab":{"url":"x"}}})", // invalid platform
        R"({"archives":{"a_b_c":{"url":"x"}}})",
        R"({"archives":{"a b_c":{"url":"x"}}})",
        R"({"archives":{"":{"url":"x"}}})",
        R"({"archives":{"a_b":{"url":"x\u0041"}}})", // escapes
        R"({"archives":{"a_b":{"url":"x\/y"}}})",
        "{\"archives\":{\"a_b\":{\"url\":\"caf\xc3\xa9.zip\"}}}", // non-ASCII
        "{\"archives\":{\"a_b\":{\"url\":\"\xff.zip\"}}}",
        "{\"archives\":{\"a_b\":{\"url\":\"tab\there\"}}}", // raw control character
        R"({"archives":{"a_b":{"url":"x"}}} {})",           // trailing data
        R"({"archives":{"a_b":{"url":"x"}}}})",
        R"({"archives":{"a_b":{"url":"x"}})",   // truncated
        R"({"archives":{"a_b":{"url":"x",}}})", // trailing comma
        R"({"archives":{"a_b":{"url":"x","hashes":["h1:a",]}}})",
        R"({"archives":{"a_b":{"url":1}}})",
        R"({"archives":[]})",
        R"([])",
        "",
        "\xef\xbb\xbf{\"archives\":{}}", // byte-order mark
    };
}

QList<QByteArray> corpusDocuments()
{
    QList<QByteArray> docs;
    const QString dir = test::corpusDir(u"mirror-json"_s);
    if (dir.isEmpty())
        return docs;
    const QStringList names = QDir(dir).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    for (const QString &name : names)
        if (!name.endsWith(u"-index.json"_s))
            docs.append(test::readFile(dir + u'/' + name));
    return docs;
}

QByteArray mutate(QByteArray doc, QRandomGenerator &rng)
{
    static const QByteArray interesting = QByteArrayLiteral("{}[]\":, \t\n\\_aAzZ019.-/\x01\x7f\xc3\xa9nulltrue");
    const int edits = int(rng.bounded(1, 4));
    for (int e = 0; e < edits; ++e) {
        const qsizetype pos = doc.isEmpty() ? 0 : qsizetype(rng.bounded(doc.size()));
        const char c = interesting.at(rng.bounded(interesting.size()));
        switch (rng.bounded(6)) {
        case 0:
            if (!doc.isEmpty())
                doc.remove(pos, 1);
            break;
        case 1: doc.insert(pos, c); break;
        case 2:
            if (!doc.isEmpty())
                doc[pos] = c;
            break;
        case 3: { // duplicate a range (repeats keys, members, entries)
            const qsizetype len = qsizetype(rng.bounded(1, 40));
            doc.insert(pos, doc.mid(pos, len));
            break;
        }
        case 4:
            if (!doc.isEmpty())
                doc[pos] = char(std::toupper(static_cast<unsigned char>(doc.at(pos))));
            break;
        default: doc.truncate(pos); break;
        }
    }
    return doc;
}

} // namespace

class TestMirrorIndexFastPath : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fastPathEqualsFullReader()
    {
        QList<QByteArray> seeds = generatedDocuments() + handWrittenDocuments();
        const QList<QByteArray> corpus = corpusDocuments();
        if (corpus.isEmpty()) {
            PROVENDER_CORPUS_OPTIONAL(u"mirror-json"_s);
            qWarning("shared corpus (mirror-json) absent: generated and hand-written documents only");
        }
        seeds += corpus;

        QRandomGenerator rng(5);
        QList<QByteArray> docs = seeds;
        for (int round = 0; round < 200; ++round)
            for (const QByteArray &seed : std::as_const(seeds))
                docs.append(mutate(seed, rng));

        int accepted = 0;
        int acceptedMutations = 0;
        for (qsizetype i = 0; i < docs.size(); ++i) {
            const QByteArray &doc = docs.at(i);
            const Result<MirrorVersionDocument> full = mirror_detail::parseVersionJsonFull(doc, u"v.json"_s);
            const std::optional<MirrorVersionDocument> fast = mirror_detail::parseVersionJsonFast(doc);
            if (fast) {
                ++accepted;
                acceptedMutations += i >= seeds.size();
                if (!full || !full->issues.isEmpty() || test::dumpVersionDocument(*fast) != test::dumpVersionDocument(full))
                    QFAIL(qPrintable(u"fast path accepted %1\nfast:\n%2\nfull:\n%3"_s.arg(
                        QString::fromLatin1(doc.toPercentEncoding(" {}[]\":,_/.=")), test::dumpVersionDocument(*fast),
                        test::dumpVersionDocument(full))));
            }
            QCOMPARE(test::dumpVersionDocument(parseVersionJson(doc, u"v.json"_s)), test::dumpVersionDocument(full));
        }
        // Both sides are exercised: tool-written documents take the fast path, and so do some
        // mutations (e.g. whitespace, a changed hash or url); most mutations do not.
        for (const QByteArray &doc : generatedDocuments())
            QVERIFY(mirror_detail::parseVersionJsonFast(doc).has_value());
        for (const QByteArray &doc : corpus)
            QVERIFY(mirror_detail::parseVersionJsonFast(doc).has_value());
        QVERIFY2(acceptedMutations > 500, qPrintable(QString::number(acceptedMutations)));
        QVERIFY2(docs.size() - accepted > 5000, qPrintable(QString::number(docs.size() - accepted)));
        qInfo("%d of %lld documents took the fast path (%d mutations)", accepted, qlonglong(docs.size()), acceptedMutations);
    }
};

QTEST_GUILESS_MAIN(TestMirrorIndexFastPath)
#include "tst_mirrorindexfastpath.moc"
