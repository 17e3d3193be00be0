// `provender verify --json` on every kind of source prints one document (docs/VERDICT-JSON.md,
// schema 1): the conformance fixture (conformance_fixture.py: Python's zipfile/hashlib/tarfile)
// as a directory, as .tar.gz and .zip bundles (`verify BUNDLE` and `bundle verify BUNDLE`) and
// served by nginx (`verify https://…`). Checked against the spec — the members each document
// and each archive must have, and nothing else — and against the fixture's verdicts and hashes;
// and the sources against each other. Also the shared prologue: the same error prefix and exit
// codes for bad usage whatever the source.

#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

namespace {

QSet<QString> keysOf(const QJsonObject &o)
{
    const QStringList k = o.keys();
    return QSet<QString>(k.cbegin(), k.cend());
}

QSet<QString> setOf(std::initializer_list<const char *> names)
{
    QSet<QString> out;
    for (const char *n : names)
        out.insert(QString::fromLatin1(n));
    return out;
}

} // namespace

class TestSourceCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QJsonObject m_expected;
    test::NginxFixture m_nginx;

    test::ProcessRun provender(const QStringList &args) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_tmp.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("HOME"), m_tmp.filePath(QStringLiteral("home")));
        for (const QString &k : env.keys())
            if (k.startsWith(QLatin1StringView("TF_")) || k.startsWith(QLatin1StringView("SSL_CERT")))
                env.remove(k);
        return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 240000, env);
    }

    /// The command line of each row: kind, location, args.
    void addRows()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("location");
        QTest::addColumn<QStringList>("args");
        const QString dir = m_tmp.filePath(QStringLiteral("mirror"));
        const QString tgz = m_tmp.filePath(QStringLiteral("bundle.tar.gz"));
        const QString zip = m_tmp.filePath(QStringLiteral("bundle.zip"));
        QTest::newRow("verify DIR") << QStringLiteral("directory") << dir
                                    << QStringList{QStringLiteral("verify"), dir, QStringLiteral("--json"), QStringLiteral("--no-cache")};
        QTest::newRow("verify BUNDLE.tar.gz") << QStringLiteral("bundle") << tgz
                                              << QStringList{QStringLiteral("verify"), tgz, QStringLiteral("--json")};
        QTest::newRow("verify BUNDLE.zip") << QStringLiteral("bundle") << zip
                                           << QStringList{QStringLiteral("verify"), zip, QStringLiteral("--json")};
        QTest::newRow("bundle verify") << QStringLiteral("bundle") << tgz
                                       << QStringList{QStringLiteral("bundle"), QStringLiteral("verify"), tgz, QStringLiteral("--json")};
        QTest::newRow("verify URL") << QStringLiteral("network") << m_nginx.baseUrl()
                                    << QStringList{QStringLiteral("verify"),     m_nginx.baseUrl(),
                                                   QStringLiteral("--provider"), QStringLiteral("example.com/acme/demo"),
                                                   QStringLiteral("--provider"), QStringLiteral("example.com/acme/other"),
                                                   QStringLiteral("--ca-file"),  m_nginx.caFile(),
                                                   QStringLiteral("--retries"),  QStringLiteral("0"),
                                                   QStringLiteral("--json")};
    }

    QJsonObject expectedArchive(const QJsonObject &a) const
    {
        const QString key = a.value(u"provider").toString() + QLatin1Char(' ') + a.value(u"version").toString() + QLatin1Char(' ')
            + a.value(u"platform").toString();
        for (const QJsonValue &v : m_expected.value(u"archives").toArray()) {
            const QJsonObject e = v.toObject();
            if (e.value(u"provider").toString() + QLatin1Char(' ') + e.value(u"version").toString() + QLatin1Char(' ')
                    + e.value(u"platform").toString()
                == key)
                return e;
        }
        return {};
    }

    /// What must agree between sources: everything but where the bytes are and how that is worded.
    static QJsonObject comparable(QJsonObject a)
    {
        for (const char *k : {"path", "size", "reason", "anchor", "from_cache", "error"})
            a.remove(QString::fromLatin1(k));
        QJsonArray kinds;
        for (const QJsonValue &an : a.value(u"anchors").toArray())
            kinds.append(an[QStringLiteral("kind")]);
        a[QStringLiteral("anchors")] = kinds;
        return a;
    }

    QHash<QString, QJsonObject> m_reference; ///< the directory's archives, comparable()

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::NginxFixture::missingToolsWithPython());
        const QString python = test::python3();
        QVERIFY(m_tmp.isValid());
        QDir().mkpath(m_tmp.filePath(QStringLiteral("home")));
        const test::ProcessRun py =
            test::runProcess(python, {test::sourceDir() + QStringLiteral("/tests/source/conformance_fixture.py"), m_tmp.path()}, 120000);
        if (py.exitCode != 0)
            QFAIL(qPrintable(QStringLiteral("conformance_fixture.py failed: ") + QString::fromUtf8(py.err)));
        m_expected = QJsonDocument::fromJson(py.out).object();
        QString error;
        QVERIFY2(m_nginx.makeCertificates(&error), qPrintable(error));
        QVERIFY2(m_nginx.start(m_tmp.filePath(QStringLiteral("mirror")), {}, {}, &error), qPrintable(error));
    }

    /// The document as docs/VERDICT-JSON.md specifies it, with the fixture's verdicts and hashes.
    void document_data() { addRows(); }
    void document()
    {
        QFETCH(QString, kind);
        QFETCH(QString, location);
        QFETCH(QStringList, args);
        const test::ProcessRun r = provender(args);
        QCOMPARE(r.exitCode, 1); // the fixture plants a mismatch, a missing and a corrupt archive
        QJsonParseError parseError;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, r.out.constData());

        // Top level: exactly the documented members, the extension only for its kind.
        QSet<QString> top = setOf({"schema_version", "source", "root", "archives", "anomalies", "summary"});
        if (kind != QLatin1StringView("directory"))
            top.insert(kind);
        QCOMPARE(keysOf(doc), top);
        QCOMPARE(doc.value(u"schema_version").toInt(), 1);
        QCOMPARE(keysOf(doc.value(u"source").toObject()), setOf({"kind", "location"}));
        QCOMPARE(doc.value(u"source")[QStringLiteral("kind")].toString(), kind);
        const QString where = kind == QLatin1StringView("network") ? location : QFileInfo(location).absoluteFilePath();
        if (kind == QLatin1StringView("network"))
            QCOMPARE(doc.value(u"source")[QStringLiteral("location")].toString(), where);
        else
            QCOMPARE(QFileInfo(doc.value(u"source")[QStringLiteral("location")].toString()).canonicalFilePath(),
                     QFileInfo(where).canonicalFilePath());
        QCOMPARE(doc.value(u"root"), doc.value(u"source")[QStringLiteral("location")]);

        // Archives: the documented members, no others; verdicts and hashes as the fixture says.
        const QJsonArray archives = doc.value(u"archives").toArray();
        QCOMPARE(archives.size(), m_expected.value(u"archives").toArray().size());
        QMap<QString, int> counts;
        const QSet<QString> always = setOf({"provider", "version", "platform", "layout", "path", "size", "verdict", "reason", "anchors",
                                            "anchor", "matched", "contradicting", "declared", "from_cache"});
        for (const QJsonValue &v : archives) {
            const QJsonObject a = v.toObject();
            const QJsonObject e = expectedArchive(a);
            QVERIFY2(!e.isEmpty(), qPrintable(QString::fromUtf8(QJsonDocument(a).toJson())));
            const QString verdict = e.value(u"verdict").toString();
            QCOMPARE(a.value(u"verdict").toString(), verdict);
            ++counts[verdict];
            QSet<QString> want = always;
            if (e.contains(u"h1"))
                want += setOf({"h1", "h1_zip", "zh"});
            if (verdict == QLatin1StringView("error"))
                want.insert(QStringLiteral("error"));
            QCOMPARE(keysOf(a), want);
            QCOMPARE(a.value(u"layout").toString(), QStringLiteral("packed"));
            QCOMPARE(a.value(u"declared").toArray(), e.value(u"declared").toArray());
            QCOMPARE(a.value(u"contradicting").toArray(), e.value(u"contradicting").toArray());
            if (e.contains(u"h1")) {
                QCOMPARE(a.value(u"h1_zip").toString(), e.value(u"h1").toString());
                QCOMPARE(a.value(u"zh").toString(), e.value(u"zh").toString());
                QCOMPARE(a.value(u"size").toInteger(), e.value(u"size").toInteger());
                QVERIFY2(a.value(u"path").toString().endsWith(e.value(u"path").toString()), qPrintable(a.value(u"path").toString()));
            }
            for (const QJsonValue &an : a.value(u"anchors").toArray())
                QCOMPARE(keysOf(an.toObject()), setOf({"kind", "document", "text", "self_consistency_only"}));
            if (verdict == QLatin1StringView("verified")) {
                QCOMPARE(a.value(u"anchors").toArray().size(), 1);
                QCOMPARE(a.value(u"anchors")[0][QStringLiteral("kind")].toString(), QStringLiteral("own-index"));
                QVERIFY(a.value(u"anchors")[0][QStringLiteral("document")].toString().endsWith(e.value(u"index").toString()));
            } else {
                QVERIFY(a.value(u"anchors").toArray().isEmpty());
            }
        }

        // Summary: the documented counters.
        const QJsonObject summary = doc.value(u"summary").toObject();
        QSet<QString> summaryKeys = setOf({"verified", "mismatch", "unverified", "refused", "missing", "error", "pending", "archives",
                                           "hashed", "cache_hits", "anomalies"});
        if (kind == QLatin1StringView("network"))
            summaryKeys.insert(QStringLiteral("bytes_downloaded"));
        QCOMPARE(keysOf(summary), summaryKeys);
        for (const QString &v : {QStringLiteral("verified"), QStringLiteral("mismatch"), QStringLiteral("unverified"),
                                 QStringLiteral("refused"), QStringLiteral("missing"), QStringLiteral("error"), QStringLiteral("pending")})
            QCOMPARE(summary.value(v).toInt(), counts.value(v));
        QCOMPARE(summary.value(u"archives").toInt(), int(archives.size()));
        QCOMPARE(summary.value(u"cache_hits").toInt(), 0);
        const QJsonArray anomalies = doc.value(u"anomalies").toArray();
        QCOMPARE(summary.value(u"anomalies").toInt(), int(anomalies.size()));
        QStringList kinds;
        for (const QJsonValue &an : anomalies) {
            const QSet<QString> k = keysOf(an.toObject());
            QVERIFY(k.contains(QStringLiteral("kind")) && k.contains(QStringLiteral("path")) && k.contains(QStringLiteral("message")));
            kinds.append(an[QStringLiteral("kind")].toString());
        }
        kinds.sort();
        // Every source: the stray declared hash; the listing sources also see the absent file.
        QStringList wantKinds{QStringLiteral("declared-hash-matches-nothing")};
        if (kind != QLatin1StringView("network"))
            wantKinds.append(QStringLiteral("index-lists-absent-archive"));
        wantKinds.sort();
        QCOMPARE(kinds, wantKinds);

        // The kind's own member.
        if (kind == QLatin1StringView("bundle")) {
            const QJsonObject b = doc.value(u"bundle").toObject();
            QCOMPARE(b.value(u"format").toString(),
                     location.endsWith(QLatin1StringView(".zip")) ? QStringLiteral("zip") : QStringLiteral("tar.gz"));
            QCOMPARE(b.value(u"has_sha256sums").toBool(), false);
            QCOMPARE(b.value(u"ok").toBool(), false);
            QVERIFY(b.value(u"problems").toArray().isEmpty());
        } else if (kind == QLatin1StringView("network")) {
            const QJsonObject n = doc.value(u"network").toObject();
            QCOMPARE(keysOf(n), setOf({"absent_providers", "requests"})); // no token anywhere: no credentials member
            QVERIFY(n.value(u"absent_providers").toArray().isEmpty());
            QVERIFY(n.value(u"requests").toArray().size() >= 5);
            QVERIFY(summary.value(u"bytes_downloaded").toInteger() > 0);
        }
    }

    /// Every source gives the same archives, member for member (but where the bytes are).
    void sourcesAgree_data() { addRows(); }
    void sourcesAgree()
    {
        QFETCH(QStringList, args);
        const test::ProcessRun r = provender(args);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QHash<QString, QJsonObject> got;
        for (const QJsonValue &v : doc.value(u"archives").toArray()) {
            const QJsonObject a = v.toObject();
            got.insert(a.value(u"provider").toString() + QLatin1Char(' ') + a.value(u"version").toString() + QLatin1Char(' ')
                           + a.value(u"platform").toString(),
                       comparable(a));
        }
        QVERIFY(!got.isEmpty());
        if (m_reference.isEmpty()) { // the first row, the directory
            m_reference = got;
            return;
        }
        QCOMPARE(got.size(), m_reference.size());
        for (auto it = m_reference.cbegin(); it != m_reference.cend(); ++it)
            QVERIFY2(got.value(it.key()) == it.value(),
                     qPrintable(it.key() + QStringLiteral(":\n") + QString::fromUtf8(QJsonDocument(got.value(it.key())).toJson())
                                + QStringLiteral("directory:\n") + QString::fromUtf8(QJsonDocument(it.value()).toJson())));
    }

    /// The shared prologue: the same prefix and exit code 2 for bad usage, whatever the source.
    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString dir = m_tmp.filePath(QStringLiteral("mirror"));
        const QString tgz = m_tmp.filePath(QStringLiteral("bundle.tar.gz"));
        QTest::newRow("dir --jobs 0") << QStringList{QStringLiteral("verify"), dir, QStringLiteral("--jobs"), QStringLiteral("0")}
                                      << QStringLiteral("provender verify: --jobs needs a positive number, not '0'");
        QTest::newRow("bundle --jobs x") << QStringList{QStringLiteral("verify"), tgz, QStringLiteral("--jobs"), QStringLiteral("x")}
                                         << QStringLiteral("provender verify: --jobs needs a positive number, not 'x'");
        QTest::newRow("url --jobs x") << QStringList{QStringLiteral("verify"),     m_nginx.baseUrl(),
                                                     QStringLiteral("--jobs"),     QStringLiteral("x"),
                                                     QStringLiteral("--provider"), QStringLiteral("example.com/acme/demo")}
                                      << QStringLiteral("provender verify: --jobs needs a non-negative number, not 'x'");
        QTest::newRow("no source") << QStringList{QStringLiteral("verify")}
                                   << QStringLiteral("provender verify: give exactly one mirror directory or bundle file (see --help)");
        QTest::newRow("two sources") << QStringList{QStringLiteral("verify"), dir, tgz}
                                     << QStringLiteral("provender verify: give exactly one mirror directory or bundle file (see --help)");
        QTest::newRow("absent")
            << QStringList{QStringLiteral("verify"), m_tmp.filePath(QStringLiteral("nothing-here"))}
            << QStringLiteral("provender verify: %1: no such directory or bundle file").arg(m_tmp.filePath(QStringLiteral("nothing-here")));
        QTest::newRow("unknown option") << QStringList{QStringLiteral("verify"), dir, QStringLiteral("--frobnicate")}
                                        << QStringLiteral("provender verify: Unknown option 'frobnicate'.");
        QTest::newRow("url unknown option") << QStringList{QStringLiteral("verify"), m_nginx.baseUrl(), QStringLiteral("--frobnicate")}
                                            << QStringLiteral("provender verify: Unknown option 'frobnicate'.");
        // The other commands share the prologue: the same prefix and exit code.
        QTest::newRow("bundle verify unknown option")
            << QStringList{QStringLiteral("bundle"), QStringLiteral("verify"), tgz, QStringLiteral("--frobnicate")}
            << QStringLiteral("provender bundle verify: Unknown option 'frobnicate'.");
        QTest::newRow("index unknown option") << QStringList{QStringLiteral("index"), dir, QStringLiteral("--frobnicate")}
                                              << QStringLiteral("provender index: Unknown option 'frobnicate'.");
        QTest::newRow("hash --jobs 0") << QStringList{QStringLiteral("hash"), tgz, QStringLiteral("--jobs"), QStringLiteral("0")}
                                       << QStringLiteral("provender hash: --jobs needs a positive number, not '0'");
        QTest::newRow("hash nothing") << QStringList{QStringLiteral("hash")}
                                      << QStringLiteral("provender hash: give at least one zip archive or package directory (see --help)");
        QTest::newRow("not a bundle") << QStringList{QStringLiteral("verify"),
                                                     m_tmp.filePath(QStringLiteral("mirror/example.com/acme/demo/index.json"))}
                                      << QStringLiteral("provender verify: cannot read the mirror ");
    }
    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const test::ProcessRun r = provender(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).startsWith(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSourceCli)
#include "tst_source_cli.moc"
