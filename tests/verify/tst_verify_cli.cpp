// `provender verify` and `provender demo-mirror` as a user runs them: exit codes, table, JSON, cache.
// Expected verdict counts are those planted by the demo mirror (DemoMirror.h), counted by hand;
// expected hashes of the clean mirror come from Python (make_fixture.py).

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

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

    Run provender(const QStringList &args, const QString &cacheHome = {})
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), cacheHome.isEmpty() ? m_tmp.filePath(QStringLiteral("xdg-cache")) : cacheHome);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(PROVENDER_BINARY), args);
        if (!p.waitForFinished(120000))
            return {};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
    }

    static QString cacheFileUnder(const QString &cacheHome) { return cacheHome + QStringLiteral("/Provender/provender/hashcache.sqlite"); }

    /// Runs a Python snippet (the independent side of these tests); false when it fails.
    static bool python(const QStringList &args, QByteArray *out = nullptr)
    {
        QProcess p;
        p.start(provender::test::python3(), args);
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning() << p.readAllStandardError();
            return false;
        }
        if (out)
            *out = p.readAllStandardOutput();
        return true;
    }

    /// A tamper mirror (tamperMirror) made under m_tmp/NAME, and the cache home of its runs.
    struct TamperFixture
    {
        QString root;
        QString cacheHome; ///< m_tmp/NAME-cache
        QJsonObject fx;    ///< tamperMirror()'s result; empty when Python failed
        QString zip;       ///< the archive in the mirror
    };
    TamperFixture tamperFixture(const QString &name)
    {
        TamperFixture t{m_tmp.filePath(name), m_tmp.filePath(name + QStringLiteral("-cache")), {}, {}};
        t.fx = tamperMirror(t.root);
        t.zip = t.fx.value(QStringLiteral("zip")).toString();
        return t;
    }

    /// A packed mirror with one archive (a of same_size_zips.py) whose index declares its h1:,
    /// and b, the same size with other bytes, beside it. Returns the zips' hashes (Python's).
    QJsonObject tamperMirror(const QString &root)
    {
        const QString dir = root + QStringLiteral("/registry.opentofu.org/hashicorp/tamper");
        QDir().mkpath(dir);
        const QString zip = dir + QStringLiteral("/terraform-provider-tamper_1.0.0_linux_amd64.zip");
        QByteArray out;
        if (!python({provender::test::sourceDir() + QStringLiteral("/tests/verify/same_size_zips.py"), zip,
                     root + QStringLiteral("/other.zip")},
                    &out))
            return {};
        const QJsonObject fx = QJsonDocument::fromJson(out).object();
        QFile index(dir + QStringLiteral("/index.json"));
        index.open(QIODevice::WriteOnly);
        index.write("{\n  \"versions\": {\n    \"1.0.0\": {}\n  }\n}\n");
        index.close();
        QFile version(dir + QStringLiteral("/1.0.0.json"));
        version.open(QIODevice::WriteOnly);
        version.write(QStringLiteral("{\n  \"archives\": {\n    \"linux_amd64\": {\n      \"hashes\": [\n        \"%1\"\n"
                                     "      ],\n      \"url\": \"terraform-provider-tamper_1.0.0_linux_amd64.zip\"\n    }\n  }\n}\n")
                          .arg(fx.value(QStringLiteral("a")).toObject().value(QStringLiteral("h1zip")).toString())
                          .toUtf8());
        version.close();
        QJsonObject result = fx;
        result.insert(QStringLiteral("zip"), zip);
        return result;
    }

    /// Overwrites `path` in place with `donor`'s bytes (same size) and restores its atime/mtime
    /// to the nanosecond, like `cp --preserve=timestamps` over it or `touch -r` — in Python.
    static bool rewriteKeepingMtime(const QString &path, const QString &donor)
    {
        return python(
            {QStringLiteral("-c"),
             QStringLiteral("import os, sys\n"
                            "p, d = sys.argv[1], open(sys.argv[2], 'rb').read()\n"
                            "st = os.stat(p)\n"
                            "assert len(d) == st.st_size\n"
                            "with open(p, 'r+b') as f:\n"
                            "    f.write(d)\n"
                            "os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))\n"
                            "after = os.stat(p)\n"
                            "assert (after.st_ino, after.st_size, after.st_mtime_ns) == (st.st_ino, st.st_size, st.st_mtime_ns)\n"),
             path, donor});
    }

    /// The archive paths the hash cache holds rows for, read with Python's sqlite3.
    static QStringList cachedPaths(const QString &cacheFile)
    {
        QByteArray out;
        if (!python({QStringLiteral("-c"),
                     QStringLiteral("import sqlite3, sys\n"
                                    "for (p,) in sqlite3.connect(sys.argv[1]).execute('SELECT path FROM hashes ORDER BY path'):\n"
                                    "    print(p)\n"),
                     cacheFile},
                    &out))
            return {QStringLiteral("<python failed>")};
        return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    static int modeOf(const QString &path)
    {
        return int(QFileInfo(path).permissions()
                   & (QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup
                      | QFile::ReadOther | QFile::WriteOther | QFile::ExeOther));
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

        const QJsonObject mismatch = findArchive(doc, QStringLiteral("registry.opentofu.org/hashicorp/random"), QStringLiteral("3.6.0"),
                                                 QStringLiteral("linux_arm64"));
        QCOMPARE(mismatch.value(QStringLiteral("verdict")).toString(), QStringLiteral("mismatch"));
        // The demo plants a wrong h1: and zh: (terraform installs when one declared hash matches).
        QCOMPARE(mismatch.value(QStringLiteral("contradicting")).toArray().size(), 2);
        const QJsonObject dirEntries = findArchive(doc, QStringLiteral("registry.opentofu.org/hashicorp/null"), QStringLiteral("3.2.2"),
                                                   QStringLiteral("linux_amd64"));
        QVERIFY(dirEntries.value(QStringLiteral("matched")).toArray().contains(QStringLiteral("h1 (zip)")));
        QVERIFY(dirEntries.value(QStringLiteral("h1")).toString() != dirEntries.value(QStringLiteral("h1_zip")).toString());
        // The anchor (docs/VERDICTS.md): only the mirror's own index vouches for it.
        const QJsonArray anchors = dirEntries.value(QStringLiteral("anchors")).toArray();
        QCOMPARE(anchors.size(), 1);
        QCOMPARE(anchors.at(0)[QStringLiteral("kind")].toString(), QStringLiteral("own-index"));
        QVERIFY(anchors.at(0)[QStringLiteral("document")].toString().endsWith(QLatin1String("/3.2.2.json")));
        QCOMPARE(anchors.at(0)[QStringLiteral("self_consistency_only")].toBool(), true);
        QVERIFY(dirEntries.value(QStringLiteral("anchor")).toString().startsWith(QLatin1String("consistent with its own index")));
        QVERIFY(mismatch.value(QStringLiteral("anchors")).toArray().isEmpty()); // nothing vouches for a mismatch
        const QJsonObject corrupt = findArchive(doc, QStringLiteral("mirror.example.internal/acme/widgets"), QStringLiteral("1.1.0"),
                                                QStringLiteral("windows_amd64"));
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
        QVERIFY(text.contains(QStringLiteral("ANCHOR")));
        QVERIFY(text.contains(QStringLiteral("own index")));
        QVERIFY(text.contains(QStringLiteral("consistent with its own index only")));
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
        QCOMPARE(QJsonDocument::fromJson(forced.out)
                     .object()
                     .value(QStringLiteral("summary"))
                     .toObject()
                     .value(QStringLiteral("cache_hits"))
                     .toInt(),
                 0);
    }

    void cleanMirrorExitsZero()
    {
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it computes this test's expected hashes independently"));
        const QString fixture = m_tmp.filePath(QStringLiteral("fixture"));
        QProcess p;
        p.start(provender::test::python3(), {provender::test::sourceDir() + QStringLiteral("/tests/verify/make_fixture.py"), fixture});
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

    void tamperedInPlaceIsHashedAgain()
    {
        // The cache-tamper case as a user meets it: verify (the cache fills), overwrite the
        // archive in place with other bytes of the same size, restore its mtime, verify again.
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it computes this test's expected hashes independently"));
        const auto [root, cacheHome, fx, zip] = tamperFixture(QStringLiteral("tamper-verify"));
        QVERIFY(!fx.isEmpty());
        const QString platform = QStringLiteral("linux_amd64"), provider = QStringLiteral("registry.opentofu.org/hashicorp/tamper");
        QThread::msleep(50); // past the timestamp granularity: the first run may store the row (HashCache.h)

        const Run first = provender({QStringLiteral("verify"), root, QStringLiteral("--json")}, cacheHome);
        QCOMPARE(first.exitCode, 0);
        const Run second = provender({QStringLiteral("verify"), root, QStringLiteral("--json")}, cacheHome);
        QCOMPARE(second.exitCode, 0);
        const QJsonObject cached = QJsonDocument::fromJson(second.out).object();
        QCOMPARE(cached.value(QStringLiteral("summary")).toObject().value(QStringLiteral("cache_hits")).toInt(), 1);
        QCOMPARE(findArchive(cached, provider, QStringLiteral("1.0.0"), platform).value(QStringLiteral("from_cache")).toBool(), true);

        QVERIFY(rewriteKeepingMtime(zip, root + QStringLiteral("/other.zip")));
        const Run third = provender({QStringLiteral("verify"), root, QStringLiteral("--json")}, cacheHome);
        QCOMPARE(third.exitCode, 1);
        const QJsonObject doc = QJsonDocument::fromJson(third.out).object();
        const QJsonObject summary = doc.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("hashed")).toInt(), 1);
        QCOMPARE(summary.value(QStringLiteral("cache_hits")).toInt(), 0);
        const QJsonObject a = findArchive(doc, provider, QStringLiteral("1.0.0"), platform);
        QCOMPARE(a.value(QStringLiteral("from_cache")).toBool(), false);
        QCOMPARE(a.value(QStringLiteral("verdict")).toString(), QStringLiteral("mismatch"));
        QCOMPARE(a.value(QStringLiteral("h1")).toString(), fx.value(QStringLiteral("b")).toObject().value(QStringLiteral("h1")).toString());
        // The table says so too.
        const Run table = provender({QStringLiteral("verify"), root}, cacheHome);
        QVERIFY2(QString::fromUtf8(table.out).contains(QStringLiteral("(0 hashed, 1 from the cache)")), table.out.constData());
        QVERIFY(QString::fromUtf8(table.out).contains(QStringLiteral("mismatch")));
    }

    void untrustedCacheIsRebuiltWithAWarning()
    {
        const QString cacheHome = m_tmp.filePath(QStringLiteral("untrusted-cache"));
        const QString root = m_tmp.filePath(QStringLiteral("tamper-verify")); // from the test above
        if (!QFileInfo::exists(root))
            PROVENDER_SKIP(provender::test::Missing::Package,
                           QStringLiteral("python3 is not on PATH: the mirror of the test before is missing"));
        const Run first = provender({QStringLiteral("verify"), root, QStringLiteral("--json")}, cacheHome);
        const QString cache = cacheFileUnder(cacheHome);
        QVERIFY2(QFile::exists(cache), qPrintable(cache));
        QCOMPARE(modeOf(cache), int(QFile::ReadOwner | QFile::WriteOwner));                                     // 0600
        QCOMPARE(modeOf(QFileInfo(cache).path()), int(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)); // 0700
        QVERIFY(first.err.isEmpty() || !first.err.contains("warning"));
        // Someone else may write to it now: its rows cannot be trusted.
        QVERIFY(QFile::setPermissions(cache, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther | QFile::WriteOther));
        const Run second = provender({QStringLiteral("verify"), root, QStringLiteral("--json")}, cacheHome);
        QVERIFY2(second.err.contains("provender verify: warning: the hash cache") && second.err.contains("not trusted")
                     && second.err.contains("writable by others"),
                 second.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(second.out).object().value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("cache_hits")).toInt(), 0);
        QVERIFY(summary.value(QStringLiteral("cache_warning")).toString().contains(QStringLiteral("not trusted")));
        QCOMPARE(modeOf(cache), int(QFile::ReadOwner | QFile::WriteOwner));
        // Not a database at all: rebuilt, with a warning.
        for (const char *suffix : {"", "-wal", "-shm"})
            QFile::remove(cache + QLatin1StringView(suffix));
        QFile junk(cache);
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write(QByteArray(4096, 'j'));
        junk.close();
        QVERIFY(QFile::setPermissions(cache, QFile::ReadOwner | QFile::WriteOwner));
        const Run third = provender({QStringLiteral("verify"), root}, cacheHome);
        QVERIFY2(third.err.contains("provender verify: warning: the hash cache") && third.err.contains("recreated"), third.err.constData());
    }

    void lockAddHashesThroughTheCache()
    {
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it computes this test's expected hashes independently"));
        const auto [root, cacheHome, fx, zip] = tamperFixture(QStringLiteral("tamper-lock"));
        QVERIFY(!fx.isEmpty());
        const QString lock = m_tmp.filePath(QStringLiteral("tamper.lock.hcl"));
        auto writeLock = [&] {
            QFile f(lock);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\n"
                    "provider \"registry.opentofu.org/hashicorp/tamper\" {\n  version = \"1.0.0\"\n}\n");
        };
        auto lockText = [&] {
            QFile f(lock);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        const QStringList addHashes{QStringLiteral("lock"),       QStringLiteral("add-hashes"), lock, QStringLiteral("--mirror"), root,
                                    QStringLiteral("--platform"), QStringLiteral("linux_amd64")};
        const QString h1a = fx.value(QStringLiteral("a")).toObject().value(QStringLiteral("h1")).toString();
        const QString h1b = fx.value(QStringLiteral("b")).toObject().value(QStringLiteral("h1")).toString();
        QThread::msleep(50);

        // --no-cache: nothing is written to the cache.
        writeLock();
        Run r = provender(addHashes + QStringList{QStringLiteral("--no-cache"), QStringLiteral("--jobs"), QStringLiteral("2")}, cacheHome);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(lockText().contains(h1a));
        QVERIFY(!QFile::exists(cacheFileUnder(cacheHome)));

        // With the cache: the archive's row is there afterwards.
        writeLock();
        r = provender(addHashes, cacheHome);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(lockText().contains(h1a));
        QCOMPARE(cachedPaths(cacheFileUnder(cacheHome)), QStringList{zip});

        // Rewritten in place with its mtime restored: the lock gets the new content's hash.
        QVERIFY(rewriteKeepingMtime(zip, root + QStringLiteral("/other.zip")));
        writeLock();
        r = provender(addHashes, cacheHome);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(lockText().contains(h1b), qPrintable(lockText()));
        QVERIFY(!lockText().contains(h1a));
    }

    void hashingOptionsEverywhere_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString d = m_tmp.filePath(QStringLiteral("demo")), l = m_tmp.filePath(QStringLiteral("tamper.lock.hcl"));
        const QString b = m_tmp.filePath(QStringLiteral("x.tar.gz"));
        QTest::newRow("verify") << QStringList{QStringLiteral("verify"), d};
        QTest::newRow("index") << QStringList{QStringLiteral("index"), d, QStringLiteral("--dry-run")};
        QTest::newRow("lock add-hashes") << QStringList{
            QStringLiteral("lock"),       QStringLiteral("add-hashes"), l, QStringLiteral("--mirror"), d,
            QStringLiteral("--platform"), QStringLiteral("linux_amd64")};
        QTest::newRow("lock upgrade") << QStringList{QStringLiteral("lock"), QStringLiteral("upgrade"), l, QStringLiteral("--mirror"), d};
        QTest::newRow("lock check") << QStringList{QStringLiteral("lock"), QStringLiteral("check"), l, QStringLiteral("--mirror"), d};
        QTest::newRow("lock diff") << QStringList{QStringLiteral("lock"), QStringLiteral("diff"), l, l, QStringLiteral("--mirror"), d};
        QTest::newRow("bundle create") << QStringList{QStringLiteral("bundle"), QStringLiteral("create"), b, QStringLiteral("--mirror"), d,
                                                      QStringLiteral("--all")};
        QTest::newRow("bundle import") << QStringList{QStringLiteral("bundle"), QStringLiteral("import"), b, QStringLiteral("--into"), d};
    }

    void hashingOptionsEverywhere()
    {
        // Every command that hashes takes --jobs N and --no-cache, and refuses a bad N alike.
        QFETCH(QStringList, args);
        const Run bad = provender(args + QStringList{QStringLiteral("--jobs"), QStringLiteral("0"), QStringLiteral("--no-cache")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--jobs needs a positive number, not '0'"), bad.err.constData());
        const Run help = provender(args.mid(0, args.first() == QStringLiteral("verify") || args.first() == QStringLiteral("index") ? 1 : 2)
                                   + QStringList{QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("--jobs <N>") && help.out.contains("--no-cache"), help.out.constData());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no dir") << QStringList{QStringLiteral("verify")};
        QTest::newRow("not a dir") << QStringList{QStringLiteral("verify"), QStringLiteral("/nonexistent/mirror")};
        QTest::newRow("bad jobs") << QStringList{QStringLiteral("verify"), QStringLiteral("."), QStringLiteral("--jobs"),
                                                 QStringLiteral("0")};
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
