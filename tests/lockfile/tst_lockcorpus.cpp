// Every real lock file of the shared corpus. Expected values come from the corpus manifest
// (MANIFEST.tsv, written from the files and from running terraform 1.11.4 on them): provider
// counts, header flavour, per-provider h1:/zh: counts, which files are malformed and which are
// in canonical layout. Canonical files must rewrite to exactly their own bytes.
// What terraform writes for the non-canonical ones is checked in tst_interop_lock.

#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

class TestLockCorpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void corpus_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("notes");
        const QString dir = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(dir, u"lockfiles"_s);
        const QByteArray manifest = test::readFile(test::sharedDir() + u"/corpus/MANIFEST.tsv"_s);
        QVERIFY2(!manifest.isEmpty(), "corpus/MANIFEST.tsv is missing");
        int rows = 0;
        for (const QByteArray &line : manifest.split('\n')) {
            const QList<QByteArray> cols = line.split('\t');
            if (cols.size() < 5 || !cols[0].startsWith("lockfiles/"))
                continue;
            const QString file = QString::fromUtf8(cols[0]);
            QTest::newRow(qPrintable(file.mid(10, 3))) << test::sharedDir() + u"/corpus/"_s + file << QString::fromUtf8(cols[4]);
            ++rows;
        }
        QVERIFY(rows >= 50);
        // Every file on disk is in the manifest.
        QCOMPARE(QDir(dir).entryList({u"*.hcl"_s}, QDir::Files).size(), rows);
    }

    void corpus()
    {
        QFETCH(QString, path);
        QFETCH(QString, notes);
        const QByteArray bytes = test::readFile(path);
        QVERIFY(!bytes.isEmpty());
        const LockParseResult r = parseLockFile(bytes);

        if (notes.contains(u"MALFORMED"_s)) {
            QVERIFY(r.hasErrors());
            // The manifest names terraform's diagnostics: `REJECTS it (... : A "x" / B at line N)`.
            static const QRegularExpression rejects(u"REJECTS it \\(exit 1: ([^\"/]+?) \"[^\"]*\" / ([^/]+?) at line (\\d+)\\)"_s);
            const QRegularExpressionMatch m = rejects.match(notes);
            if (m.hasMatch()) {
                const int line = m.captured(3).toInt();
                QStringList atLine;
                for (const LockDiagnostic &d : r.diagnostics)
                    if (d.range.line == line)
                        atLine << d.summary;
                QVERIFY2(atLine.contains(m.captured(1).trimmed()), qPrintable(atLine.join(u", "_s)));
                QVERIFY2(atLine.contains(m.captured(2).trimmed()), qPrintable(atLine.join(u", "_s)));
            }
            return;
        }
        QStringList errors;
        for (const LockDiagnostic &d : r.diagnostics)
            errors << d.toString(path);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));

        // "auto: <flavour> header; N providers; ..."
        static const QRegularExpression count(u"; (\\d+) providers;"_s);
        const QRegularExpressionMatch c = count.match(notes);
        QVERIFY(c.hasMatch());
        QCOMPARE(r.document.providers.size(), c.captured(1).toInt());
        if (notes.contains(u"auto: tofu header"_s))
            QCOMPARE(toString(r.document.flavour), u"tofu"_s);
        if (notes.contains(u"auto: terraform header"_s))
            QCOMPARE(toString(r.document.flavour), u"terraform"_s);

        // "h1/provider A-B, zh max Z"
        static const QRegularExpression hashes(u"h1/provider (\\d+)-(\\d+), zh max (\\d+)"_s);
        const QRegularExpressionMatch h = hashes.match(notes);
        if (h.hasMatch() && !r.document.providers.isEmpty()) {
            int minH1 = INT_MAX, maxH1 = 0, maxZh = 0;
            for (const ProviderLock &p : r.document.providers) {
                int h1 = 0, zh = 0;
                for (const HashString &s : p.hashes) {
                    h1 += s.scheme() == HashString::Scheme::H1;
                    zh += s.scheme() == HashString::Scheme::ZH;
                }
                minH1 = std::min(minH1, h1);
                maxH1 = std::max(maxH1, h1);
                maxZh = std::max(maxZh, zh);
            }
            QCOMPARE(minH1, h.captured(1).toInt());
            QCOMPARE(maxH1, h.captured(2).toInt());
            QCOMPARE(maxZh, h.captured(3).toInt());
        }

        const QByteArray written = writeLockFile(r.document);
        if (notes.contains(u"non-canonical layout"_s)) {
            QVERIFY(written != bytes);
            QVERIFY(!isCanonicalLockFile(bytes, r));
        } else {
            QVERIFY2(notes.contains(u"canonical layout"_s), "manifest row does not say whether the layout is canonical");
            QCOMPARE(written, bytes);
            QVERIFY(isCanonicalLockFile(bytes, r));
            QVERIFY(r.document.dropped.isEmpty());
        }
        // Rewriting is a fixed point.
        const LockParseResult again = parseLockFile(written);
        QVERIFY(!again.hasErrors());
        QVERIFY(again.document == r.document);
        QCOMPARE(writeLockFile(again.document), written);
    }
};

QTEST_GUILESS_MAIN(TestLockCorpus)
#include "tst_lockcorpus.moc"
