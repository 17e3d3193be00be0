// `provender lock ...` as a user runs it: exit codes (DESIGN.md: 0 ok, 1 findings, 2 usage or
// unreadable input), files left untouched when nothing may be written, warnings before content
// is dropped, and the JSON shapes. Hashes that must appear come from Python (make_lock_mirror.py).

#include "tests/support/LockMirrorFixture.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

using Run = test::ProcessRun;

Run run(const QStringList &args)
{
    // The hash cache of these runs lives in a directory of their own, not the user's.
    static QTemporaryDir cacheHome;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), cacheHome.path());
    return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 60000, env);
}

const QByteArray kHeader = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";

} // namespace

class TestLockCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<test::LockMirrorFixture> m_mirror;
    QString path(const char *name) const { return m_dir.filePath(QString::fromUtf8(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        m_mirror = std::make_unique<test::LockMirrorFixture>(QList<test::FixtureArchive>{
            {"example.test/ns/widget", "1.0.0", "linux_amd64"},
            {"example.test/ns/widget", "1.0.0", "darwin_arm64"},
            {"example.test/ns/widget", "1.1.0", "linux_amd64"},
        });
        if (!m_mirror->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_mirror->error()));
    }

    void fmt()
    {
        const QByteArray messy = "# my note\nprovider \"example.test/ns/widget\" {\n  version=\"1.0.0\"\n  hashes=[\"zh:2\",\"h1:1\"]\n}\n";
        const QByteArray canonical = kHeader
            + "\nprovider \"example.test/ns/widget\" {\n  version = \"1.0.0\"\n  hashes = [\n"
              "    \"h1:1\",\n    \"zh:2\",\n  ]\n}\n";
        QVERIFY(test::writeFile(path("fmt.hcl"), messy));
        Run r = run({u"lock"_s, u"fmt"_s, u"--check"_s, path("fmt.hcl")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.startsWith("--- "));
        QCOMPARE(test::readFile(path("fmt.hcl")), messy); // --check never writes

        r = run({u"lock"_s, u"fmt"_s, u"--flavour"_s, u"tofu"_s, path("fmt.hcl")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(":1: warning: the canonical form drops this comment: # my note"), r.err.constData());
        QCOMPARE(test::readFile(path("fmt.hcl")), canonical);
        QCOMPARE(run({u"lock"_s, u"fmt"_s, u"--check"_s, path("fmt.hcl")}).exitCode, 0);

        // Keeps the file's own flavour unless told otherwise.
        r = run({u"lock"_s, u"fmt"_s, u"--flavour"_s, u"terraform"_s, path("fmt.hcl")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(test::readFile(path("fmt.hcl")).startsWith("# This file is maintained automatically by \"terraform init\"."));
        QCOMPARE(run({u"lock"_s, u"fmt"_s, path("fmt.hcl")}).exitCode, 0);
        QVERIFY(test::readFile(path("fmt.hcl")).contains("\"terraform init\""));

        // A file with errors is not touched.
        const QByteArray broken = "provider \"aws\" {\n  version = \"1.0\"\n}\n";
        QVERIFY(test::writeFile(path("broken.hcl"), broken));
        r = run({u"lock"_s, u"fmt"_s, path("broken.hcl")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("broken.hcl:1:10: error: Non-normalized provider source address"));
        QCOMPARE(test::readFile(path("broken.hcl")), broken);

        QCOMPARE(run({u"lock"_s, u"fmt"_s}).exitCode, 2);
        QCOMPARE(run({u"lock"_s, u"fmt"_s, path("missing.hcl")}).exitCode, 2);
        QCOMPARE(run({u"lock"_s, u"fmt"_s, u"--flavour"_s, u"nope"_s, path("fmt.hcl")}).exitCode, 2);
        QCOMPARE(run({u"lock"_s, u"fmt"_s, u"--bogus"_s, path("fmt.hcl")}).exitCode, 2);
    }

    void diff()
    {
        QVERIFY(test::writeFile(path("a.hcl"),
                                kHeader + "\nprovider \"example.test/ns/widget\" {\n  version = \"1.0.0\"\n  hashes = [\n    \""
                                    + m_mirror->expected("example.test/ns/widget", "1.0.0", "linux_amd64", "h1").toUtf8()
                                    + "\",\n  ]\n}\n"));
        QVERIFY(test::writeFile(path("b.hcl"),
                                kHeader + "\nprovider \"example.test/ns/widget\" {\n  version = \"1.1.0\"\n  hashes = [\n    \""
                                    + m_mirror->expected("example.test/ns/widget", "1.1.0", "linux_amd64", "h1").toUtf8()
                                    + "\",\n  ]\n}\n"));
        QVERIFY(test::writeFile(path("a2.hcl"), test::readFile(path("a.hcl")).replace("  version", "    version")));
        Run r = run({u"lock"_s, u"diff"_s, path("a.hcl"), path("b.hcl")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("~ example.test/ns/widget: upgraded 1.0.0 -> 1.1.0"));
        QVERIFY(r.out.contains("@@ "));
        // Formatting only: no semantic change.
        r = run({u"lock"_s, u"diff"_s, path("a.hcl"), path("a2.hcl")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("no semantic change"));

        r = run({u"lock"_s, u"diff"_s, path("a.hcl"), path("b.hcl"), u"--mirror"_s, m_mirror->root(), u"--json"_s});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o.value(u"changed"_s).toBool());
        const QJsonObject p = o.value(u"providers"_s).toArray().first().toObject();
        QCOMPARE(p.value(u"change"_s).toString(), u"upgraded"_s);
        QCOMPARE(p.value(u"old_version"_s).toString(), u"1.0.0"_s);
        const QJsonObject added = p.value(u"hashes_added"_s).toArray().first().toObject();
        QCOMPARE(added.value(u"scheme"_s).toString(), u"h1:"_s);
        const QJsonObject prov = added.value(u"provenance"_s).toArray().first().toObject();
        QCOMPARE(prov.value(u"platform"_s).toString(), u"linux_amd64"_s);
        QCOMPARE(prov.value(u"origin"_s).toString(), u"h1 (extracted)"_s);
        QVERIFY(!o.value(u"text_diff"_s).toString().isEmpty());

        QCOMPARE(run({u"lock"_s, u"diff"_s, path("a.hcl")}).exitCode, 2);
        QCOMPARE(run({u"lock"_s, u"diff"_s, path("a.hcl"), path("broken.hcl")}).exitCode, 2);
    }

    void checkAndAddHashes()
    {
        const QByteArray noHashes = kHeader + "\nprovider \"example.test/ns/widget\" {\n  version = \"1.0.0\"\n}\n";
        QVERIFY(test::writeFile(path("c.hcl"), noHashes));
        Run r = run({u"lock"_s, u"check"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root()});
        QCOMPARE(r.exitCode, 0); // unverified is not a finding
        QVERIFY(r.out.contains("unverified"));

        // Missing platform: nothing written, exit 1.
        r = run({u"lock"_s, u"add-hashes"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root(), u"--platform"_s, u"windows_amd64"_s});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(test::readFile(path("c.hcl")), noHashes);

        r = run({u"lock"_s, u"add-hashes"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root(), u"--platform"_s, u"linux_amd64"_s,
                 u"--platform"_s, u"darwin_arm64"_s, u"--zh"_s});
        QCOMPARE(r.exitCode, 0);
        const QByteArray updated = test::readFile(path("c.hcl"));
        for (const char *pl : {"linux_amd64", "darwin_arm64"})
            for (const char *field : {"h1", "zh"})
                QVERIFY(updated.contains(m_mirror->expected("example.test/ns/widget", "1.0.0", pl, field).toUtf8()));

        r = run({u"lock"_s, u"check"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root(), u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(u"platforms"_s).toArray().size(), 2);
        QCOMPARE(o.value(u"summary"_s).toObject().value(u"verified"_s).toInt(), 2);

        r = run({u"lock"_s, u"check"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root(), u"--platform"_s, u"windows_amd64"_s, u"--json"_s});
        QCOMPARE(r.exitCode, 1);
        o = QJsonDocument::fromJson(r.out).object();
        const QJsonObject cell = o.value(u"providers"_s).toArray().first().toObject().value(u"cells"_s).toArray().first().toObject();
        QCOMPARE(cell.value(u"verdict"_s).toString(), u"missing"_s);

        QCOMPARE(run({u"lock"_s, u"check"_s, path("c.hcl")}).exitCode, 2);                                       // no --mirror
        QCOMPARE(run({u"lock"_s, u"check"_s, path("c.hcl"), u"--mirror"_s, path("nonexistent")}).exitCode, 2);   // bad mirror
        QCOMPARE(run({u"lock"_s, u"add-hashes"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root()}).exitCode, 2); // no --platform
        QCOMPARE(run({u"lock"_s, u"add-hashes"_s, path("c.hcl"), u"--mirror"_s, m_mirror->root(), u"--platform"_s, u"bad"_s}).exitCode, 2);
    }

    void upgrade()
    {
        QVERIFY(test::writeFile(
            path("u.hcl"),
            kHeader + "\nprovider \"example.test/ns/widget\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n}\n"));
        Run r = run({u"lock"_s, u"upgrade"_s, path("u.hcl"), u"--mirror"_s, m_mirror->root()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("example.test/ns/widget: 1.0.0 -> 1.1.0"));
        const QByteArray expected = kHeader
            + "\nprovider \"example.test/ns/widget\" {\n  version     = \"1.1.0\"\n  constraints = \"~> 1.0\"\n"
              "  hashes = [\n    \""
            + m_mirror->expected("example.test/ns/widget", "1.1.0", "linux_amd64", "h1").toUtf8() + "\",\n  ]\n}\n";
        QCOMPARE(test::readFile(path("u.hcl")), expected);
        r = run({u"lock"_s, u"upgrade"_s, path("u.hcl"), u"--mirror"_s, m_mirror->root()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("is the newest the mirror offers"));
        QCOMPARE(run({u"lock"_s, u"upgrade"_s, path("u.hcl"), u"--mirror"_s, m_mirror->root(), u"--provider"_s, u"example.test/ns/nope"_s})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestLockCli)
#include "tst_lock_cli.moc"
