// `provender lock merge` as a user and as git run it.
//
//  - cli: exit codes (0 merged, 1 conflicts, 2 invalid input — OURS untouched), -o, one stderr
//    line per conflict, diagnostics with file:line:column; `provender lock --help`.
//  - terraformWritesTheSameBytes: the hand-written expected files below (block(), the canonical
//    form of tofu-formats.md §1.1, hashes from Python's make_lock_mirror.py) are byte for byte
//    what `terraform providers lock -fs-mirror` writes for the same providers and platforms —
//    so the union the merge must produce is terraform's file, not our own output.
//  - git: temporary repositories, the real git, the driver installed with `lock merge --install`:
//    two branches adding platform hashes merge cleanly to the union; an upgrade against added
//    hashes merges to the upgrade; different upgrades conflict with markers around that provider
//    only; rebase and cherry-pick go through the driver too (GIT_TRACE shows git running it).

#include "tests/support/FileSizeLimit.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/TerraformLock.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

using Run = test::ProcessRun;

const QByteArray kTerraform =
    "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";

Run runProvender(const QStringList &args, const QString &cwd = {})
{
    return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 120000, QProcessEnvironment::systemEnvironment(), cwd);
}

/// A provider block as terraform writes it; hashes sorted byte-wise here.
QByteArray block(const QByteArray &address, const QByteArray &version, const QByteArray &constraints, QList<QByteArray> hashes)
{
    std::sort(hashes.begin(), hashes.end());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    QByteArray b = "\nprovider \"" + address + "\" {\n";
    if (!constraints.isEmpty())
        b += "  version     = \"" + version + "\"\n  constraints = \"" + constraints + "\"\n";
    else
        b += "  version = \"" + version + "\"\n";
    b += "  hashes = [\n";
    for (const QByteArray &h : hashes)
        b += "    \"" + h + "\",\n";
    return b + "  ]\n}\n";
}

/// A git work tree in a temporary directory, with its own HOME and no system config.
class Repo
{
public:
    Repo()
    {
        QDir().mkpath(home());
        QDir().mkpath(work());
        m_env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : m_env.keys())
            if (k.startsWith(u"GIT_"_s))
                m_env.remove(k);
        m_env.insert(u"HOME"_s, home());
        m_env.insert(u"GIT_CONFIG_NOSYSTEM"_s, u"1"_s);
        m_env.insert(u"GIT_AUTHOR_NAME"_s, u"Test"_s);
        m_env.insert(u"GIT_AUTHOR_EMAIL"_s, u"test@example.test"_s);
        m_env.insert(u"GIT_COMMITTER_NAME"_s, u"Test"_s);
        m_env.insert(u"GIT_COMMITTER_EMAIL"_s, u"test@example.test"_s);
        m_env.insert(u"GIT_EDITOR"_s, u"true"_s);
        m_ok = git({u"init"_s, u"-q"_s, u"-b"_s, u"main"_s}).exitCode == 0
            && git({u"config"_s, u"commit.gpgsign"_s, u"false"_s}).exitCode == 0;
    }
    bool ok() const { return m_ok; }
    QString work() const { return m_dir.path() + u"/work"_s; }
    QString home() const { return m_dir.path() + u"/home"_s; }
    QString lockPath() const { return work() + u"/.terraform.lock.hcl"_s; }
    QByteArray lock() const { return test::readFile(lockPath()); }

    Run git(const QStringList &args, bool trace = false) const
    {
        QProcessEnvironment env = m_env;
        if (trace)
            env.insert(u"GIT_TRACE"_s, u"2"_s); // to stderr
        return test::runProcess(u"git"_s, args, 120000, env, work());
    }
    /// Writes the lock file and commits it (and anything else changed) on the current branch.
    bool commitLock(const QByteArray &bytes, const QString &message) const
    {
        return test::writeFile(lockPath(), bytes) && git({u"add"_s, u"-A"_s}).exitCode == 0
            && git({u"commit"_s, u"-q"_s, u"-m"_s, message}).exitCode == 0;
    }

private:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    bool m_ok = false;
};

QString describe(const Run &r)
{
    return u"exit %1\nstdout: %2\nstderr: %3"_s.arg(r.exitCode).arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err));
}

/// GIT_TRACE lines that show git running our driver.
bool ranDriver(const Run &r)
{
    return r.err.contains("run_command:") && r.err.contains(" lock merge ");
}

} // namespace

class TestLockMergeCli : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<test::LockMirrorFixture> m_mirror;
    QTemporaryDir m_dir;

    QByteArray h1(const char *address, const char *version, const char *platform) const
    {
        return m_mirror->expected(address, version, platform, "h1").toUtf8();
    }
    // The files of the scenarios: alpha and beta locked for some platforms.
    QByteArray alpha(const char *version, const QStringList &platforms) const
    {
        QList<QByteArray> hs;
        for (const QString &p : platforms)
            hs << h1("example.test/ns/alpha", version, p.toLatin1().constData());
        return block("example.test/ns/alpha", version, "~> " + QByteArray(version).left(3) + ".0", hs);
    }
    QByteArray beta(const QStringList &platforms) const
    {
        QList<QByteArray> hs;
        for (const QString &p : platforms)
            hs << h1("example.test/ns/beta", "2.0.0", p.toLatin1().constData());
        return block("example.test/ns/beta", "2.0.0", "2.0.0", hs);
    }
    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    /// A repository with the driver installed, `base` committed on main, branches a and b with
    /// `a` and `b` committed on them, a checked out.
    std::unique_ptr<Repo> twoBranches(const QByteArray &base, const QByteArray &a, const QByteArray &b)
    {
        auto repo = std::make_unique<Repo>();
        if (!repo->ok())
            return nullptr;
        const Run install = runProvender({u"lock"_s, u"merge"_s, u"--install"_s}, repo->work());
        if (install.exitCode != 0) {
            qWarning("%s", qPrintable(describe(install)));
            return nullptr;
        }
        if (!repo->commitLock(base, u"base"_s) || repo->git({u"checkout"_s, u"-q"_s, u"-b"_s, u"b"_s}).exitCode != 0
            || !repo->commitLock(b, u"b"_s) || repo->git({u"checkout"_s, u"-q"_s, u"-b"_s, u"a"_s, u"main"_s}).exitCode != 0
            || !repo->commitLock(a, u"a"_s))
            return nullptr;
        return repo;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        if (QStandardPaths::findExecutable(u"git"_s).isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, u"git is not installed"_s);
        QList<test::FixtureArchive> archives;
        for (const char *platform : {"linux_amd64", "darwin_arm64", "linux_arm64"}) {
            for (const char *v : {"1.0.0", "1.1.0", "1.2.0"})
                archives.append({"example.test/ns/alpha", v, platform});
            archives.append({"example.test/ns/beta", "2.0.0", platform});
        }
        m_mirror = std::make_unique<test::LockMirrorFixture>(archives);
        if (!m_mirror->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_mirror->error()));
        QVERIFY(!h1("example.test/ns/alpha", "1.0.0", "linux_amd64").isEmpty());
    }

    void lockHelpListsTheSubcommands()
    {
        const Run help = runProvender({u"lock"_s, u"--help"_s});
        QCOMPARE(help.exitCode, 0);
        for (const char *sub : {"fmt", "diff", "check", "add-hashes", "upgrade", "init", "merge"})
            QVERIFY2(help.out.contains(QByteArray("\n  " + QByteArray(sub) + ' ')), help.out.constData());
        QVERIFY(!help.err.contains("unknown"));
        const Run bare = runProvender({u"lock"_s});
        QCOMPARE(bare.exitCode, 0);
        QCOMPARE(bare.out, help.out);
        const Run unknown = runProvender({u"lock"_s, u"frobnicate"_s});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown subcommand 'frobnicate'"));
        QVERIFY(unknown.err.contains("  merge "));
        const Run mergeHelp = runProvender({u"lock"_s, u"merge"_s, u"--help"_s});
        QCOMPARE(mergeHelp.exitCode, 0);
        QVERIFY(mergeHelp.out.contains("--install") && mergeHelp.out.contains("--gui") && mergeHelp.out.contains("BASE OURS THEIRS"));
        // The window's own argument checks (it starts under QApplication, offscreen here).
        const Run guiUsage = runProvender({u"lock"_s, u"merge"_s, u"--gui"_s, u"a"_s, u"b"_s});
        QCOMPARE(guiUsage.exitCode, 2);
        QVERIFY2(guiUsage.err.contains("give BASE OURS THEIRS [-o OUT], or one file with conflict markers"), guiUsage.err.constData());
        const Run guiMissing = runProvender({u"lock"_s, u"merge"_s, u"--gui"_s, path("none1"), path("none2"), path("none3")});
        QCOMPARE(guiMissing.exitCode, 2);
        QVERIFY2(guiMissing.err.contains("Cannot open"), guiMissing.err.constData());
    }

    void cli()
    {
        const QByteArray base = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray ours = kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s});
        const QByteArray theirs =
            kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"linux_arm64"_s}) + beta({u"linux_amd64"_s, u"linux_arm64"_s});
        QVERIFY(test::writeFile(path("base"), base) && test::writeFile(path("ours"), ours) && test::writeFile(path("theirs"), theirs));

        // Clean, with -o: OURS untouched, OUT the merge.
        Run r = runProvender({u"lock"_s, u"merge"_s, path("base"), path("ours"), path("theirs"), u"-o"_s, path("out")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(test::readFile(path("ours")), ours);
        QCOMPARE(test::readFile(path("out")),
                 kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s, u"linux_arm64"_s}));
        QCOMPARE(QFileInfo(path("out")).permissions() & 0x0777, QFileDevice::Permissions(0x0644));
        QVERIFY2(r.err.isEmpty(), r.err.constData());

        // Clean, without -o: the result replaces OURS (what a git merge driver must do).
        QVERIFY(test::writeFile(path("ours2"), ours));
        r = runProvender({u"lock"_s, u"merge"_s, path("base"), path("ours2"), path("theirs")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(test::readFile(path("ours2")), test::readFile(path("out")));

        // Two conflicts: exit 1, one stderr line each, markers in the file.
        const QByteArray theirs2 = kTerraform + alpha("1.2.0", {u"linux_amd64"_s}); // beta removed, alpha upgraded elsewhere
        QVERIFY(test::writeFile(path("theirs2"), theirs2) && test::writeFile(path("ours3"), ours));
        r = runProvender({u"lock"_s, u"merge"_s, path("base"), path("ours3"), path("theirs2")});
        QCOMPARE(r.exitCode, 1);
        const QList<QByteArray> lines = r.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 3); // two conflicts and the count
        QVERIFY2(lines.at(0).contains("conflict: example.test/ns/alpha: both sides changed the version differently"),
                 lines.at(0).constData());
        QVERIFY2(lines.at(1).contains("conflict: example.test/ns/beta: one side removed it, the other changed it"),
                 lines.at(1).constData());
        QVERIFY(lines.at(2).contains("2 conflicts marked in"));
        const QByteArray marked = test::readFile(path("ours3"));
        QCOMPARE(marked.count("<<<<<<< ours\n"), 2);
        QCOMPARE(marked.count("\n=======\n"), 2);
        QCOMPARE(marked.count(">>>>>>> theirs\n"), 2);

        // Invalid input (any of the three): exit 2, file:line:column, OURS untouched.
        const QByteArray broken = kTerraform + "\nprovider \"example.test/ns/alpha\" {\n  version = \"1.0\"\n}\n";
        QVERIFY(test::writeFile(path("broken"), broken) && test::writeFile(path("ours4"), ours));
        for (const QStringList &files :
             {QStringList{path("broken"), path("ours4"), path("theirs")}, QStringList{path("base"), path("ours4"), path("broken")},
              QStringList{path("base"), path("broken"), path("theirs")}}) {
            r = runProvender(QStringList{u"lock"_s, u"merge"_s} + files);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QByteArray(path("broken").toUtf8() + ":5:13: error: Invalid provider version number")),
                     r.err.constData());
            QVERIFY(r.err.contains("nothing written"));
            QCOMPARE(test::readFile(path("ours4")), ours);
            QCOMPARE(test::readFile(path("broken")), broken);
        }
        // Missing file, wrong number of files.
        r = runProvender({u"lock"_s, u"merge"_s, path("base"), path("ours4"), path("nope")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no such file"));
        QCOMPARE(runProvender({u"lock"_s, u"merge"_s, path("base"), path("ours4")}).exitCode, 2);
        QCOMPARE(test::readFile(path("ours4")), ours);
    }

    void terraformWritesTheSameBytes()
    {
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the expected files are checked against it"));
        // `terraform providers lock -fs-mirror` in this sandbox (test::terraformProvidersLock:
        // runTerraform, an empty CLI config, no proxy), starting from no lock entries.
        QTemporaryDir sandbox;
        const auto lockWith = [&](const char *alphaConstraint, const QStringList &platforms) {
            const test::TerraformLockRun r = test::terraformProvidersLock(
                sandbox.path(), {},
                {{u"example.test/ns/alpha"_s, QString::fromLatin1(alphaConstraint)}, {u"example.test/ns/beta"_s, u"2.0.0"_s}},
                m_mirror->root(), platforms, {});
            if (r.run.exitCode != 0)
                qWarning("%s", qPrintable(describe(r.run)));
            return r.lockFile;
        };
        const QStringList all{u"linux_amd64"_s, u"darwin_arm64"_s, u"linux_arm64"_s};
        // The union of the git test below, and the upgrade's file.
        QCOMPARE(lockWith("~> 1.0.0", all), kTerraform + alpha("1.0.0", all) + beta(all));
        QCOMPARE(lockWith("~> 1.1.0", {u"linux_amd64"_s}), kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s}));
    }

    void gitMergeUnitesHashes()
    {
        const QByteArray base = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray a =
            kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"darwin_arm64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s});
        const QByteArray b = kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"linux_arm64"_s}) + beta({u"linux_amd64"_s, u"linux_arm64"_s});
        const std::unique_ptr<Repo> repo = twoBranches(base, a, b);
        QVERIFY(repo);
        const QString attributes = QString::fromUtf8(test::readFile(repo->work() + u"/.gitattributes"_s));
        QVERIFY2(attributes.contains(u".terraform.lock.hcl merge=tflock\n"_s), qPrintable(attributes));
        QVERIFY(repo->git({u"config"_s, u"merge.tflock.driver"_s}).out.contains(" lock merge %O %A %B"));
        const Run merge = repo->git({u"merge"_s, u"--no-edit"_s, u"b"_s}, true);
        QVERIFY2(merge.exitCode == 0, qPrintable(describe(merge)));
        QVERIFY2(ranDriver(merge), merge.err.constData());
        const QStringList all{u"linux_amd64"_s, u"darwin_arm64"_s, u"linux_arm64"_s};
        QCOMPARE(repo->lock(), kTerraform + alpha("1.0.0", all) + beta(all));
        QCOMPARE(repo->git({u"status"_s, u"--porcelain"_s}).out, QByteArray());
    }

    void gitMergeTakesTheUpgrade()
    {
        const QByteArray base = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray a = kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray b =
            kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"darwin_arm64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s});
        const std::unique_ptr<Repo> repo = twoBranches(base, a, b);
        QVERIFY(repo);
        const Run merge = repo->git({u"merge"_s, u"--no-edit"_s, u"b"_s}, true);
        QVERIFY2(merge.exitCode == 0, qPrintable(describe(merge)));
        QVERIFY(ranDriver(merge));
        QCOMPARE(repo->lock(), kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s}));
    }

    void gitMergeConflictsOnDifferentUpgrades()
    {
        const QByteArray base = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray a = kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray b = kTerraform + alpha("1.2.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"linux_arm64"_s});
        const std::unique_ptr<Repo> repo = twoBranches(base, a, b);
        QVERIFY(repo);
        const Run merge = repo->git({u"merge"_s, u"--no-edit"_s, u"b"_s}, true);
        QVERIFY2(merge.exitCode == 1, qPrintable(describe(merge)));
        QVERIFY(ranDriver(merge));
        QVERIFY2(
            merge.err.contains(
                "conflict: example.test/ns/alpha: both sides changed the version differently (ours upgraded 1.0.0 -> 1.1.0, theirs upgraded 1.0.0 -> 1.2.0)"),
            merge.err.constData());
        // Markers around alpha only; beta merged.
        const QByteArray expected = kTerraform + "\n<<<<<<< ours\n" + alpha("1.1.0", {u"linux_amd64"_s}).mid(1) + "=======\n"
            + alpha("1.2.0", {u"linux_amd64"_s}).mid(1) + ">>>>>>> theirs\n" + beta({u"linux_amd64"_s, u"linux_arm64"_s});
        QCOMPARE(repo->lock(), expected);
        QCOMPARE(repo->git({u"diff"_s, u"--name-only"_s, u"--diff-filter=U"_s}).out, QByteArray(".terraform.lock.hcl\n"));
        // The marked file splits back into the sides for the merge window.
        QVERIFY(repo->git({u"merge"_s, u"--abort"_s}).exitCode == 0);
        QCOMPARE(repo->lock(), a);
    }

    void gitRebaseUsesTheDriver()
    {
        const QByteArray base = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray a = kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"darwin_arm64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray b = kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"linux_arm64"_s}) + beta({u"linux_amd64"_s, u"linux_arm64"_s});
        const std::unique_ptr<Repo> repo = twoBranches(base, a, b);
        QVERIFY(repo);
        QVERIFY(repo->git({u"checkout"_s, u"-q"_s, u"b"_s}).exitCode == 0);
        const Run rebase = repo->git({u"rebase"_s, u"a"_s}, true);
        QVERIFY2(rebase.exitCode == 0, qPrintable(describe(rebase)));
        QVERIFY2(ranDriver(rebase), rebase.err.constData());
        QCOMPARE(repo->lock(),
                 kTerraform + alpha("1.0.0", {u"linux_amd64"_s, u"darwin_arm64"_s, u"linux_arm64"_s})
                     + beta({u"linux_amd64"_s, u"linux_arm64"_s}));
        QCOMPARE(repo->git({u"rev-list"_s, u"--count"_s, u"main..b"_s}).out.trimmed(), QByteArray("2")); // a's commit, then b's
    }

    void gitCherryPickUsesTheDriver()
    {
        const QByteArray base = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s});
        const QByteArray a = kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s});
        const QByteArray b = kTerraform + alpha("1.0.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"linux_arm64"_s});
        const std::unique_ptr<Repo> repo = twoBranches(base, a, b);
        QVERIFY(repo);
        const Run pick = repo->git({u"cherry-pick"_s, u"b"_s}, true);
        QVERIFY2(pick.exitCode == 0, qPrintable(describe(pick)));
        QVERIFY2(ranDriver(pick), pick.err.constData());
        QCOMPARE(repo->lock(),
                 kTerraform + alpha("1.1.0", {u"linux_amd64"_s}) + beta({u"linux_amd64"_s, u"darwin_arm64"_s, u"linux_arm64"_s}));
    }

    void installIsIdempotent()
    {
        Repo repo;
        QVERIFY(repo.ok());
        QVERIFY(test::writeFile(repo.work() + u"/.gitattributes"_s, "*.png binary"));
        for (int i = 0; i < 2; ++i) {
            const Run r = runProvender({u"lock"_s, u"merge"_s, u"--install"_s}, repo.work());
            QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        }
        QCOMPARE(test::readFile(repo.work() + u"/.gitattributes"_s), QByteArray("*.png binary\n.terraform.lock.hcl merge=tflock\n"));
        QCOMPARE(repo.git({u"check-attr"_s, u"merge"_s, u"--"_s, u"sub/.terraform.lock.hcl"_s}).out,
                 QByteArray("sub/.terraform.lock.hcl: merge: tflock\n"));
        // Outside a repository: exit 2.
        QTemporaryDir plain;
        QCOMPARE(runProvender({u"lock"_s, u"merge"_s, u"--install"_s}, plain.path()).exitCode, 2);
    }

    /// A .gitattributes write whose final flush fails (the file size limit: writes past 4 KiB fail
    /// with EFBIG, as on a full disk; the 8 KiB are written at flush()) is an error, and the file
    /// stays as it was: Qt 6.4's QSaveFile::commit() alone would rename the cut-off copy over it.
    void installLeavesGitattributesWhenTheWriteFails()
    {
        Repo repo;
        QVERIFY(repo.ok());
        QByteArray before;
        for (int i = 0; before.size() < 8 * 1024; ++i)
            before += "docs/image" + QByteArray::number(i) + ".png binary\n";
        const QString attributes = repo.work() + u"/.gitattributes"_s;
        QVERIFY(test::writeFile(attributes, before));

        test::FileSizeLimit limit(4096); // inherited: the child gets EFBIG, not the signal
        QVERIFY(limit.ok());
        const Run r = runProvender({u"lock"_s, u"merge"_s, u"--install"_s}, repo.work());
        QVERIFY(limit.restore());

        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(".gitattributes"), r.err.constData());
        QCOMPARE(test::readFile(attributes), before);
        const QStringList left = QDir(repo.work()).entryList({u".gitattributes*"_s}, QDir::Files | QDir::Hidden);
        QCOMPARE(left, QStringList{u".gitattributes"_s}); // no temporary file left
    }
};

QTEST_GUILESS_MAIN(TestLockMergeCli)
#include "tst_lockmerge_cli.moc"
