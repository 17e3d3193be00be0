// `provender verify` and `provender demo-mirror` as a user runs them: exit codes, table, JSON, cache.
// Expected verdict counts are those planted by the demo mirror (DemoMirror.h), counted by hand;
// expected hashes of the clean mirror come from Python (make_fixture.py).

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestVerifyCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_demo;

    struct Run
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };

    Run provender(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_tmp.filePath(QStringLiteral("xdg-cache")));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PROVENDER_BINARY), args);
        if (!p.waitForFinished(120000))
            return {};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    }

    static QJsonObject findArchive(const QJsonObject &doc, const QString &provider, const QString &version, const QString &platform)
    {
        for (const QJsonValue &v : doc.value(QStringLiteral("archives")).toArray()) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("provider")).toString() == provider && o.value(QStringLiteral("version")).toString() == version
                && o.value(QStringLiteral("platform")).toString() == platform)
                return o;
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY2(QFile::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        m_demo = m_tmp.filePath(QStringLiteral("demo"));
        const Run r = provender({QStringLiteral("demo-mirror"), m_demo});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("Planted"));
    }

    void demoMirrorRefusesForeignDirectory()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("foreign"));
        QVERIFY(QDir().mkpath(dir));
        QFile f(dir + QStringLiteral("/x"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const Run r = provender({QStringLiteral("demo-mirror"), dir});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("refusing"));
    }

    void jsonOnDemo()
    {
        const Run r = provender({QStringLiteral("verify"), m_demo, QStringLiteral("--json"), QStringLiteral("--no-cache"),
                                 QStringLiteral("--jobs"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 1); // planted mismatch, missing and error
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject summary = doc.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("archives")).toInt(), 28);
        QCOMPARE(summary.value(QStringLiteral("verified")).toInt(), 21);
        QCOMPARE(summary.value(QStringLiteral("mismatch")).toInt(), 1);
        QCOMPARE(summary.value(QStringLiteral("unverified")).toInt(), 4);
        QCOMPARE(summary.value(QStringLiteral("missing")).toInt(), 1);
        QCOMPARE(summary.value(QStringLiteral("error")).toInt(), 1);
        QCOMPARE(summary.value(QStringLiteral("pending")).toInt(), 0);

        const QJsonObject mismatch = findArchive(doc, QStringLiteral("registry.opentofu.org/hashicorp/random"),
                                                 QStringLiteral("3.6.0"), QStringLiteral("linux_arm64"));
        QCOMPARE(mismatch.value(QStringLiteral("verdict")).toString(), QStringLiteral("mismatch"));
        QCOMPARE(mismatch.value(QStringLiteral("contradicting")).toArray().size(), 1);
        const QJsonObject dirEntries = findArchive(doc, QStringLiteral("registry.opentofu.org/hashicorp/null"),
                                                   QStringLiteral("3.2.2"), QStringLiteral("linux_amd64"));
        QVERIFY(dirEntries.value(QStringLiteral("matched")).toArray().contains(QStringLiteral("h1 (zip)")));
        QVERIFY(dirEntries.value(QStringLiteral("h1")).toString() != dirEntries.value(QStringLiteral("h1_zip")).toString());
        const QJsonObject corrupt = findArchive(doc, QStringLiteral("mirror.example.internal/acme/widgets"),
                                                QStringLiteral("1.1.0"), QStringLiteral("windows_amd64"));
        QCOMPARE(corrupt.value(QStringLiteral("verdict")).toString(), QStringLiteral("error"));
        QVERIFY(!corrupt.value(QStringLiteral("error")).toString().isEmpty());
        QVERIFY(doc.value(QStringLiteral("anomalies")).toArray().size() >= 1); // at least the undeclared zip
    }

    void tableOnDemo()
    {
        const Run r = provender({QStringLiteral("verify"), m_demo, QStringLiteral("--no-cache")});
        QCOMPARE(r.exitCode, 1);
        const QString text = QString::fromUtf8(r.out);
        QVERIFY(text.contains(QStringLiteral("PROVIDER")));
        QVERIFY(text.contains(QStringLiteral("Summary: 21 verified, 1 mismatch, 4 unverified, 1 missing, 1 error")));
        bool mismatchRow = false;
        for (const QString &line : text.split(QLatin1Char('\n')))
            if (line.contains(QStringLiteral("hashicorp/random")) && line.contains(QStringLiteral("3.6.0"))
                && line.contains(QStringLiteral("linux_arm64")))
                mismatchRow = line.contains(QStringLiteral("mismatch"));
        QVERIFY(mismatchRow);
    }

    void cacheAndNoCache()
    {
        const Run first = provender({QStringLiteral("verify"), m_demo, QStringLiteral("--json")});
        QCOMPARE(first.exitCode, 1);
        const Run second = provender({QStringLiteral("verify"), m_demo, QStringLiteral("--json")});
        const QJsonObject doc = QJsonDocument::fromJson(second.out).object();
        QCOMPARE(doc.value(QStringLiteral("summary")).toObject().value(QStringLiteral("cache_hits")).toInt(), 26); // 28 - missing - error
        QCOMPARE(doc.value(QStringLiteral("summary")).toObject().value(QStringLiteral("hashed")).toInt(), 1);
        QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("xdg-cache/Provender/provender/hashcache.sqlite")))
                || QFile::exists(m_tmp.filePath(QStringLiteral("xdg-cache/provender/hashcache.sqlite"))));
        const Run forced = provender({QStringLiteral("verify"), m_demo, QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QCOMPARE(QJsonDocument::fromJson(forced.out).object().value(QStringLiteral("summary")).toObject().value(QStringLiteral("cache_hits")).toInt(), 0);
    }

    void cleanMirrorExitsZero()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("python3 is not on PATH: it computes this test's expected hashes independently"));
        const QString fixture = m_tmp.filePath(QStringLiteral("fixture"));
        QProcess p;
        p.start(python, {provender::test::sourceDir() + QStringLiteral("/tests/verify/make_fixture.py"), fixture});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject fx = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        const QJsonObject linux = fx.value(QStringLiteral("linux_amd64")).toObject();

        const QString dir = m_tmp.filePath(QStringLiteral("clean/registry.opentofu.org/hashicorp/alpha"));
        QVERIFY(QDir().mkpath(dir));
        const QString zipName = QStringLiteral("terraform-provider-alpha_1.0.0_linux_amd64.zip");
        QVERIFY(QFile::copy(linux.value(QStringLiteral("path")).toString(), dir + QLatin1Char('/') + zipName));
        QFile index(dir + QStringLiteral("/index.json"));
        QVERIFY(index.open(QIODevice::WriteOnly));
        index.write("{\n  \"versions\": {\n    \"1.0.0\": {}\n  }\n}");
        index.close();
        QFile version(dir + QStringLiteral("/1.0.0.json"));
        QVERIFY(version.open(QIODevice::WriteOnly));
        version.write(QStringLiteral("{\n  \"archives\": {\n    \"linux_amd64\": {\n      \"hashes\": [\n        \"%1\"\n"
                                     "      ],\n      \"url\": \"%2\"\n    }\n  }\n}")
                          .arg(linux.value(QStringLiteral("h1zip")).toString(), zipName)
                          .toUtf8());
        version.close();

        const Run r = provender({QStringLiteral("verify"), m_tmp.filePath(QStringLiteral("clean")), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonObject a = findArchive(doc, QStringLiteral("registry.opentofu.org/hashicorp/alpha"), QStringLiteral("1.0.0"),
                                          QStringLiteral("linux_amd64"));
        QCOMPARE(a.value(QStringLiteral("verdict")).toString(), QStringLiteral("verified"));
        QCOMPARE(a.value(QStringLiteral("h1")).toString(), linux.value(QStringLiteral("h1")).toString());
        QCOMPARE(a.value(QStringLiteral("zh")).toString(), linux.value(QStringLiteral("zh")).toString());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no dir") << QStringList{QStringLiteral("verify")};
        QTest::newRow("not a dir") << QStringList{QStringLiteral("verify"), QStringLiteral("/nonexistent/mirror")};
        QTest::newRow("bad jobs") << QStringList{QStringLiteral("verify"), QStringLiteral("."), QStringLiteral("--jobs"), QStringLiteral("0")};
        QTest::newRow("unknown option") << QStringList{QStringLiteral("verify"), QStringLiteral("."), QStringLiteral("--frobnicate")};
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        const Run r = provender(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestVerifyCli)
#include "tst_verify_cli.moc"
