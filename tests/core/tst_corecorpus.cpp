// Every provider label, version, constraints string and hash in the real lock files of the shared
// corpus must be accepted and already canonical: `terraform` 1.11 loads every one of these files
// (MANIFEST.tsv), except those the manifest marks MALFORMED, which are skipped here.

#include "model/core/HashString.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Version.h"
#include "model/core/VersionConstraints.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace provender;

class TestCoreCorpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lockFile_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::corpusDir(QStringLiteral("lockfiles"));
        PROVENDER_SKIP_UNLESS_CORPUS(dir, QStringLiteral("lockfiles"));
        const QByteArray manifest = test::readFile(test::sharedDir() + QStringLiteral("/corpus/MANIFEST.tsv"));
        QVERIFY2(!manifest.isEmpty(), "corpus/MANIFEST.tsv is missing or empty");
        QSet<QString> malformed;
        for (const QByteArray &line : manifest.split('\n')) {
            const QList<QByteArray> cols = line.split('\t');
            if (cols.size() >= 5 && cols[4].contains("MALFORMED"))
                malformed.insert(QFileInfo(QString::fromUtf8(cols[0])).fileName());
        }
        const QStringList files = QDir(dir).entryList({QStringLiteral("*.hcl")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString &f : files) {
            if (!malformed.contains(f))
                QTest::newRow(qPrintable(f)) << QDir(dir).filePath(f);
        }
    }
    void lockFile()
    {
        QFETCH(QString, path);
        const QString text = QString::fromUtf8(test::readFile(path));
        QVERIFY(!text.isEmpty());
        static const QRegularExpression labelRe(QStringLiteral("^provider\\s+\"([^\"]*)\""), QRegularExpression::MultilineOption);
        static const QRegularExpression versionRe(QStringLiteral("^\\s*version\\s*=\\s*\"([^\"]*)\""), QRegularExpression::MultilineOption);
        static const QRegularExpression constraintsRe(QStringLiteral("^\\s*constraints\\s*=\\s*\"([^\"]*)\""),
                                                      QRegularExpression::MultilineOption);
        static const QRegularExpression hashRe(QStringLiteral("^\\s*\"([^\"]*)\",?\\s*$"), QRegularExpression::MultilineOption);
        int labels = 0, versions = 0, hashes = 0;
        for (const auto &m : labelRe.globalMatch(text)) {
            const QString label = m.captured(1);
            const Result<ProviderAddress> a = ProviderAddress::parse(label, kTerraformRegistryHost);
            QVERIFY2(a.ok(), qPrintable(label + QStringLiteral(": ") + (a.ok() ? QString() : a.error().message)));
            QCOMPARE(a->toString(), label);
            QVERIFY(!a->isBuiltIn());
            QVERIFY(!a->isLegacy());
            ++labels;
        }
        for (const auto &m : versionRe.globalMatch(text)) {
            const QString v = m.captured(1);
            QVERIFY2(Version::parse(v).ok(), qPrintable(v));
            QVERIFY2(Version::isCanonical(v), qPrintable(v));
            ++versions;
        }
        for (const auto &m : constraintsRe.globalMatch(text)) {
            const QString c = m.captured(1);
            const Result<VersionConstraints> parsed = VersionConstraints::parse(c);
            QVERIFY2(parsed.ok(), qPrintable(c + QStringLiteral(": ") + (parsed.ok() ? QString() : parsed.error().message)));
            QCOMPARE(parsed->toString(), c);
            QVERIFY(VersionConstraints::isCanonical(c));
        }
        for (const auto &m : hashRe.globalMatch(text)) {
            QVERIFY2(HashString::parse(m.captured(1)).ok(), qPrintable(m.captured(1)));
            ++hashes;
        }
        QCOMPARE(versions, labels); // every block has exactly one version
        m_labels += labels;
        m_hashes += hashes;
    }
    void totals()
    {
        if (test::corpusDir(QStringLiteral("lockfiles")).isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Corpus, QStringLiteral("shared corpus not found"));
        // The extraction really found things (the valid files hold about 300 provider blocks).
        QVERIFY2(m_labels >= 250, qPrintable(QString::number(m_labels)));
        QVERIFY2(m_hashes >= 2000, qPrintable(QString::number(m_hashes)));
    }

private:
    int m_labels = 0;
    int m_hashes = 0;
};

QTEST_GUILESS_MAIN(TestCoreCorpus)
#include "tst_corecorpus.moc"
