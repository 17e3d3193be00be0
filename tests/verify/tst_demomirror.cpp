// The demo mirror: deterministic bytes, safe regeneration, and the verdict of every planted case.
// The expected verdicts below are what DemoMirror.h says was planted, written out here by hand.

#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

namespace {

/// relative path -> sha256 of the content ("<dir>" for directories) plus mtime, for every entry.
QMap<QString, QString> treeOf(const QString &root)
{
    QMap<QString, QString> out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        QString value;
        if (info.isDir()) {
            value = QStringLiteral("<dir>");
        } else {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly))
                value = QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex());
        }
        value += QLatin1Char(' ') + QString::number(info.lastModified().toSecsSinceEpoch());
        out.insert(QDir(root).relativeFilePath(path), value);
    }
    return out;
}

} // namespace

class TestDemoMirror : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_tmp.isValid());
    }

    void deterministic()
    {
        const QString a = m_tmp.filePath(QStringLiteral("a"));
        const QString b = m_tmp.filePath(QStringLiteral("nested/b"));
        const Result<DemoMirrorReport> ra = generateDemoMirror(a);
        QVERIFY2(ra.ok(), qPrintable(ra.ok() ? QString() : ra.error().toString()));
        const Result<DemoMirrorReport> rb = generateDemoMirror(b);
        QVERIFY(rb.ok());
        QCOMPARE(ra->root, QFileInfo(a).absoluteFilePath());
        const QMap<QString, QString> ta = treeOf(a);
        QVERIFY(ta.size() > 30);
        QCOMPARE(ta, treeOf(b));
        // Nothing is left beside the target (staging directories are renamed or removed).
        QCOMPARE(QDir(m_tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 (QStringList{QStringLiteral("a"), QStringLiteral("nested")}));
    }

    void regenerateOverDemoButNotOverOtherDirs()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("again"));
        QVERIFY(generateDemoMirror(dir).ok());
        const QMap<QString, QString> first = treeOf(dir);
        // Damage it, then regenerate: the damage is gone and the bytes are the same as before.
        QVERIFY(QFile::remove(dir + QStringLiteral("/registry.opentofu.org/hashicorp/random/index.json")));
        QVERIFY(generateDemoMirror(dir).ok());
        QCOMPARE(treeOf(dir), first);

        const QString other = m_tmp.filePath(QStringLiteral("precious"));
        QVERIFY(QDir().mkpath(other));
        QFile f(other + QStringLiteral("/data.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
        f.close();
        const Result<DemoMirrorReport> r = generateDemoMirror(other);
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("refusing")));
        QCOMPARE(QDir(other).entryList(QDir::Files), QStringList{QStringLiteral("data.txt")});

        // An empty directory is fine.
        const QString empty = m_tmp.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        QVERIFY(generateDemoMirror(empty).ok());
    }

    void plantedVerdicts_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("matched"); // for verified: one of the matched hashes, checked with contains()
        const QString r = QStringLiteral("registry.opentofu.org/hashicorp/random ");
        const QString n = QStringLiteral("registry.opentofu.org/hashicorp/null ");
        const QString w = QStringLiteral("mirror.example.internal/acme/widgets ");
        for (const char *v : {"3.5.1", "3.6.0", "3.6.2"})
            for (const char *p : {"darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"}) {
                const bool planted = QByteArray(v) == "3.6.0" && QByteArray(p) == "linux_arm64";
                QTest::addRow("random %s %s", v, p) << r + QLatin1StringView(v) + QLatin1Char(' ') + QLatin1StringView(p)
                                                    << (planted ? "mismatch" : "verified") << (planted ? "" : "zh");
            }
        QTest::addRow("random extra") << r + QStringLiteral("3.6.2 freebsd_amd64") << "unverified"
                                      << "";
        for (const char *p : {"darwin_arm64", "linux_amd64"})
            QTest::addRow("null 3.2.1 %s", p) << n + QStringLiteral("3.2.1 ") + QLatin1StringView(p) << "verified"
                                              << "h1 (zip)"; // terraform checks an index's h1: against HashZip
        QTest::addRow("null missing") << n + QStringLiteral("3.2.1 windows_amd64") << "missing"
                                      << "";
        for (const char *p : {"darwin_arm64", "linux_amd64", "windows_amd64"})
            QTest::addRow("null 3.2.2 %s", p) << n + QStringLiteral("3.2.2 ") + QLatin1StringView(p) << "verified"
                                              << "h1 (zip)";
        for (const char *p : {"darwin_arm64", "linux_amd64", "linux_arm64"})
            QTest::addRow("widgets 1.0.0 %s", p) << w + QStringLiteral("1.0.0 ") + QLatin1StringView(p) << "unverified"
                                                 << "";
        for (const char *p : {"darwin_arm64", "linux_amd64", "linux_arm64"})
            QTest::addRow("widgets 1.1.0 %s", p) << w + QStringLiteral("1.1.0 ") + QLatin1StringView(p) << "verified"
                                                 << "zh";
        QTest::addRow("widgets corrupt") << w + QStringLiteral("1.1.0 windows_amd64") << "error"
                                         << "";
        for (const char *p : {"linux_amd64", "linux_arm64"})
            QTest::addRow("widgets beta %s", p) << w + QStringLiteral("1.2.0-beta.1 ") + QLatin1StringView(p) << "verified"
                                                << "zh";
    }

    void plantedVerdicts()
    {
        QFETCH(QString, key);
        QFETCH(QString, verdict);
        QFETCH(QString, matched);
        static QHash<QString, ArchiveResult> results;
        static int total = 0;
        if (results.isEmpty()) {
            const QString dir = m_tmp.filePath(QStringLiteral("verify"));
            QVERIFY(generateDemoMirror(dir).ok());
            const Result<Catalog> catalog = scanFileSystemMirror(dir);
            QVERIFY(catalog.ok());
            VerifyOptions options;
            options.useCache = false;
            const VerifyReport report = verifyCatalog(catalog.value(), options);
            for (const ArchiveResult &r : report.results)
                results.insert(r.key.toString(), r);
            total = int(report.results.size());
        }
        QCOMPARE(total, 28); // random 12 + 1 extra, null 6 (one missing), widgets 3 + 4 + 2
        QVERIFY2(results.contains(key), qPrintable(key));
        const ArchiveResult &r = results.value(key);
        QCOMPARE(toString(r.detail.verdict), verdict);
        if (!matched.isEmpty()) {
            QStringList got;
            for (HashMatch m : r.detail.matched)
                got.append(toString(m));
            QVERIFY2(got.contains(matched), qPrintable(got.join(QStringLiteral(", "))));
        }
        if (key.endsWith(QStringLiteral("3.2.2 linux_amd64")))
            QVERIFY(r.hashes && r.hashes->hasDirectoryEntries && r.hashes->h1Zip != r.hashes->h1Extracted);
    }
};

QTEST_GUILESS_MAIN(TestDemoMirror)
#include "tst_demomirror.moc"
