// `provender hash` as a user runs it: the built executable, exit codes 0/2, text and --json.
// Expected hashes: tofu-formats.md §3.5 (h1:) and coreutils' sha256sum (zh:).

#include "tests/support/TestSupport.h"
#include "tests/support/ZipFixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using provender::test::ZipEntrySpec;

namespace {

const QByteArray Placeholder = "# This is just a placeholder file for discovery testing, not a real provider plugin.\n";
using namespace Qt::StringLiterals;

const QString NullH1 = QStringLiteral("h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=");

using Run = provender::test::ProcessRun;

/// The suite's own hash cache (XDG_CACHE_HOME), never the user's.
QString g_cacheHome;

Run runHash(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!g_cacheHome.isEmpty())
        env.insert(QStringLiteral("XDG_CACHE_HOME"), g_cacheHome);
    return provender::test::runProcess(QStringLiteral(PROVENDER_BINARY), QStringList{QStringLiteral("hash")} + args, 120000, env);
}

QString sha256sum(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("sha256sum"), {path});
    p.waitForFinished(60000);
    return QString::fromLatin1(p.readAllStandardOutput().left(64));
}

} // namespace

class TestCliHash : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_zip;     // the 85-byte placeholder as terraform-provider-null
    QString m_dir;     // the same, unpacked
    QString m_dirsZip; // with directory entries: two different h1
    QString m_corrupt; // not a zip

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY2(QFileInfo::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        g_cacheHome = m_tmp.filePath(QStringLiteral("cache-home"));
        m_zip = m_tmp.filePath(QStringLiteral("terraform-provider-null_2.1.0_linux_amd64.zip"));
        QVERIFY(provender::test::writeZip(m_zip, {ZipEntrySpec::executable("terraform-provider-null", Placeholder)}));
        m_dir = m_tmp.filePath(QStringLiteral("unpacked"));
        QVERIFY(QDir().mkpath(m_dir));
        QFile f(m_dir + QStringLiteral("/terraform-provider-null"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(Placeholder);
        f.close();
        m_dirsZip = m_tmp.filePath(QStringLiteral("dirs.zip"));
        QVERIFY(provender::test::writeZip(m_dirsZip,
                                          {ZipEntrySpec::directory("docs/"), ZipEntrySpec::file("docs/README.md", "r"),
                                           ZipEntrySpec::executable("terraform-provider-null", Placeholder)}));
        m_corrupt = m_tmp.filePath(QStringLiteral("corrupt.zip"));
        QFile c(m_corrupt);
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write("not a zip\n");
    }

    void textOutput()
    {
        const Run r = runHash({m_zip, m_dir});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.isEmpty());
        const QString text = QString::fromUtf8(r.out);
        // Each hash is printed as the exact token a lock file holds, at the start of its line.
        QVERIFY2(text.contains(u"\n  "_s + NullH1 + u"   ("_s), r.out.constData());
        QVERIFY2(text.contains(u"\n  zh:"_s + sha256sum(m_zip) + u"   ("_s), r.out.constData());
        QVERIFY(!text.contains(u"h1: "_s) && !text.contains(u"zh: "_s));
        QVERIFY(text.indexOf(m_zip) < text.indexOf(m_dir));
        QCOMPARE(text.count(NullH1), 2); // the zip and the directory agree
    }

    void twoH1ForDirectoryEntries()
    {
        const Run r = runHash({m_dirsZip});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out).count(QStringLiteral("\n  h1:")), 2);
    }

    void jsonShape()
    {
        const Run r = runHash({QStringLiteral("--json"), m_zip, m_dir, m_dirsZip});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        QVERIFY(doc.isArray());
        const QJsonArray a = doc.array();
        QCOMPARE(a.size(), 3);
        const QJsonObject zip = a.at(0).toObject();
        QCOMPARE(zip.value(QStringLiteral("path")).toString(), m_zip);
        QCOMPARE(zip.value(QStringLiteral("kind")).toString(), QStringLiteral("zip"));
        QCOMPARE(zip.value(QStringLiteral("h1")).toString(), NullH1);
        QCOMPARE(zip.value(QStringLiteral("h1_zip")).toString(), NullH1);
        QCOMPARE(zip.value(QStringLiteral("zh")).toString(), QStringLiteral("zh:") + sha256sum(m_zip));
        QCOMPARE(zip.value(QStringLiteral("has_directory_entries")).toBool(), false);
        QCOMPARE(zip.value(QStringLiteral("file_size")).toInteger(), QFileInfo(m_zip).size());
        QCOMPARE(zip.value(QStringLiteral("content_bytes")).toInteger(), 85);
        QVERIFY(!zip.contains(QStringLiteral("error")));
        const QJsonObject dir = a.at(1).toObject();
        QCOMPARE(dir.value(QStringLiteral("kind")).toString(), QStringLiteral("directory"));
        QCOMPARE(dir.value(QStringLiteral("h1")).toString(), NullH1);
        QVERIFY(!dir.contains(QStringLiteral("zh")));
        const QJsonObject dirs = a.at(2).toObject();
        QCOMPARE(dirs.value(QStringLiteral("has_directory_entries")).toBool(), true);
        QVERIFY(dirs.value(QStringLiteral("h1")).toString() != dirs.value(QStringLiteral("h1_zip")).toString());
    }

    void orderKeptWithManyJobs()
    {
        // A big archive first, small ones after: output order is still argument order.
        const QString big = m_tmp.filePath(QStringLiteral("big.zip"));
        QByteArray data;
        for (int i = 0; i < 400000; ++i)
            data += QByteArray::number(i * 2654435761u, 16);
        QVERIFY(provender::test::writeZip(big, {ZipEntrySpec::file("terraform-provider-big", data)}));
        const QStringList paths{big, m_zip, m_dir, m_dirsZip, m_zip, m_dir};
        const Run r = runHash(QStringList{QStringLiteral("--json"), QStringLiteral("--jobs"), QStringLiteral("4")} + paths);
        QCOMPARE(r.exitCode, 0);
        const QJsonArray a = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(a.size(), paths.size());
        for (qsizetype i = 0; i < paths.size(); ++i)
            QCOMPARE(a.at(i).toObject().value(QStringLiteral("path")).toString(), paths.at(i));
        const Run one = runHash({QStringLiteral("--json"), QStringLiteral("-j"), QStringLiteral("1"), big});
        QJsonObject again = QJsonDocument::fromJson(one.out).array().at(0).toObject();
        QJsonObject first = a.at(0).toObject();
        QVERIFY(again.take(QStringLiteral("from_cache")).toBool()); // the same bytes, now from the cache
        first.remove(QStringLiteral("from_cache"));
        QCOMPARE(again, first);
    }

    /// `provender hash` goes through the hash cache: a second run answers an unchanged file from
    /// it (from_cache), a file rewritten in place with the same size and its old mtime restored
    /// (the `cp -p` / `touch -r` trick) is hashed again — its ctime moved — and gets the new
    /// bytes' hashes (SHA-256 from sha256sum, not from us); --no-cache neither reads nor writes.
    void cacheHitAndRewrite()
    {
        const QString zip = m_tmp.filePath(QStringLiteral("cached/terraform-provider-cached_1.0.0_linux_amd64.zip"));
        QDir().mkpath(QFileInfo(zip).path());
        QVERIFY(provender::test::writeZip(zip, {ZipEntrySpec::file("terraform-provider-cached", QByteArray(4096, 'a'))}));
        auto hashOnce = [&](const QStringList &extra) {
            const Run r = runHash(QStringList{QStringLiteral("--json")} + extra + QStringList{zip});
            if (r.exitCode != 0)
                qWarning("%s", r.err.constData());
            return QJsonDocument::fromJson(r.out).array().at(0).toObject();
        };
        const QJsonObject first = hashOnce({});
        QCOMPARE(first.value(QStringLiteral("from_cache")).toBool(), false);
        QCOMPARE(first.value(QStringLiteral("zh")).toString(), QStringLiteral("zh:") + sha256sum(zip));
        const QJsonObject second = hashOnce({});
        QCOMPARE(second.value(QStringLiteral("from_cache")).toBool(), true);
        QCOMPARE(second.value(QStringLiteral("zh")), first.value(QStringLiteral("zh")));
        QCOMPARE(second.value(QStringLiteral("h1")), first.value(QStringLiteral("h1")));
        QCOMPARE(hashOnce({QStringLiteral("--no-cache")}).value(QStringLiteral("from_cache")).toBool(), false);

        // Same size, same mtime, other bytes: the same zip with 'b' for 'a' (deflates to the same
        // length) written over it in place.
        const QFileInfo before(zip);
        const QDateTime mtime = before.lastModified();
        const QString other = m_tmp.filePath(QStringLiteral("other.zip"));
        QVERIFY(provender::test::writeZip(other, {ZipEntrySpec::file("terraform-provider-cached", QByteArray(4096, 'b'))}));
        const QByteArray bytes = provender::test::readFile(other);
        QCOMPARE(qint64(bytes.size()), before.size());
        QTest::qSleep(20); // let the coarse clock tick, so the ctime differs from the stamp's
        {
            QFile f(zip);
            QVERIFY(f.open(QIODevice::ReadWrite)); // in place: same inode
            QCOMPARE(f.write(bytes), qint64(bytes.size()));
            f.close();
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(mtime, QFileDevice::FileModificationTime));
        }
        const QFileInfo after(zip);
        QCOMPARE(after.size(), before.size());
        QCOMPARE(after.lastModified(), mtime);
        const QJsonObject third = hashOnce({});
        QCOMPARE(third.value(QStringLiteral("from_cache")).toBool(), false);
        QCOMPARE(third.value(QStringLiteral("zh")).toString(), QStringLiteral("zh:") + sha256sum(zip));
        QVERIFY(third.value(QStringLiteral("zh")) != first.value(QStringLiteral("zh")));
    }

    void errorsExitTwo()
    {
        const QString missing = m_tmp.filePath(QStringLiteral("missing.zip"));
        Run r = runHash({m_zip, missing});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.contains(NullH1.mid(3).toLatin1())); // the good one is still printed
        QVERIFY(r.err.contains("missing.zip: error:"));

        r = runHash({QStringLiteral("--json"), m_corrupt});
        QCOMPARE(r.exitCode, 2);
        const QJsonObject o = QJsonDocument::fromJson(r.out).array().at(0).toObject();
        QCOMPARE(o.value(QStringLiteral("path")).toString(), m_corrupt);
        QVERIFY(o.value(QStringLiteral("error")).toString().contains(QStringLiteral("not a valid zip file")));
        QVERIFY(!o.contains(QStringLiteral("h1")));
    }

    void usage()
    {
        QCOMPARE(runHash({}).exitCode, 2);
        QCOMPARE(runHash({QStringLiteral("--jobs"), QStringLiteral("0"), m_zip}).exitCode, 2);
        QCOMPARE(runHash({QStringLiteral("--no-such-option"), m_zip}).exitCode, 2);
        const Run help = runHash({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--jobs"));
    }
};

QTEST_GUILESS_MAIN(TestCliHash)
#include "tst_cli_hash.moc"
