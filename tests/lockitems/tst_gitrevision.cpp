// git::readFileAtRevision / listRevisions against repositories built with the git command line
// (the expected bytes are what `git show REV:PATH` prints); the work tree must stay untouched.

#include "model/lockitems/GitRevision.h"

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

class TestGitRevision : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_git;

    QByteArray git(const QStringList &args, int *exitCode = nullptr)
    {
        QProcess p;
        p.setWorkingDirectory(m_dir.path() + u"/repo"_s);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"GIT_CONFIG_NOSYSTEM"_s, u"1"_s);
        env.insert(u"HOME"_s, m_dir.path());
        env.insert(u"GIT_AUTHOR_NAME"_s, u"T"_s);
        env.insert(u"GIT_AUTHOR_EMAIL"_s, u"t@example.test"_s);
        env.insert(u"GIT_COMMITTER_NAME"_s, u"T"_s);
        env.insert(u"GIT_COMMITTER_EMAIL"_s, u"t@example.test"_s);
        p.setProcessEnvironment(env);
        p.start(m_git, args);
        p.waitForFinished(60000);
        if (exitCode)
            *exitCode = p.exitCode();
        else if (p.exitCode() != 0)
            qWarning("git %s: %s", qPrintable(args.join(u' ')), p.readAllStandardError().constData());
        return p.readAllStandardOutput();
    }
    void write(const QString &rel, const QByteArray &bytes)
    {
        QFile f(m_dir.path() + u"/repo/"_s + rel);
        QDir().mkpath(QFileInfo(f).path());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
    }
    QString path(const QString &rel) const { return m_dir.path() + u"/repo/"_s + rel; }

private Q_SLOTS:
    void initTestCase()
    {
        m_git = QStandardPaths::findExecutable(u"git"_s);
        if (m_git.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("git is not installed"));
        QVERIFY(QDir().mkpath(m_dir.path() + u"/repo"_s));
        git({u"init"_s, u"-q"_s, u"-b"_s, u"main"_s});
        write(u"infra/.terraform.lock.hcl"_s, "first\n");
        git({u"add"_s, u"."_s});
        git({u"commit"_s, u"-q"_s, u"-m"_s, u"first version"_s});
        write(u"infra/.terraform.lock.hcl"_s, "second\r\n");
        git({u"commit"_s, u"-q"_s, u"-am"_s, u"second version"_s});
        git({u"tag"_s, u"v2"_s});
        git({u"checkout"_s, u"-q"_s, u"-b"_s, u"feature"_s});
        write(u"infra/.terraform.lock.hcl"_s, "feature\n");
        git({u"commit"_s, u"-q"_s, u"-am"_s, u"on a branch"_s});
        git({u"checkout"_s, u"-q"_s, u"main"_s});
        write(u"infra/.terraform.lock.hcl"_s, "work tree edit\n");
    }

    void read_data()
    {
        QTest::addColumn<QString>("revision");
        QTest::newRow("HEAD") << u"HEAD"_s;
        QTest::newRow("HEAD~1") << u"HEAD~1"_s;
        QTest::newRow("branch") << u"feature"_s;
        QTest::newRow("tag") << u"v2"_s;
        QTest::newRow("main") << u"main"_s;
    }

    void read()
    {
        QFETCH(QString, revision);
        const QByteArray expected = git({u"show"_s, revision + u":infra/.terraform.lock.hcl"_s});
        const QString commit = QString::fromLatin1(git({u"rev-parse"_s, revision + u"^{commit}"_s}).trimmed());
        QVERIFY(!expected.isEmpty());
        const Result<git::RevisionFile> r = git::readFileAtRevision(path(u"infra/.terraform.lock.hcl"_s), revision);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->bytes, expected);
        QCOMPARE(r->commitId, commit);
        QCOMPARE(r->repoPath, u"infra/.terraform.lock.hcl"_s);
        // The work tree and the checked-out branch are untouched.
        QFile f(path(u"infra/.terraform.lock.hcl"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("work tree edit\n"));
        QCOMPARE(git({u"rev-parse"_s, u"--abbrev-ref"_s, u"HEAD"_s}).trimmed(), QByteArray("main"));
    }

    void summary()
    {
        const Result<git::RevisionFile> r = git::readFileAtRevision(path(u"infra/.terraform.lock.hcl"_s), u"feature"_s);
        QVERIFY(r.ok());
        QCOMPARE(r->summary, u"on a branch"_s);
        // A path given through a subdirectory with `..` still maps into the repository.
        const Result<git::RevisionFile> r2 = git::readFileAtRevision(path(u"infra/../infra/.terraform.lock.hcl"_s), u"HEAD~1"_s);
        QVERIFY(r2.ok());
        QCOMPARE(r2->bytes, QByteArray("first\n"));
    }

    void errors()
    {
        const Result<git::RevisionFile> unknownRev = git::readFileAtRevision(path(u"infra/.terraform.lock.hcl"_s), u"nope"_s);
        QVERIFY(!unknownRev.ok());
        QCOMPARE(unknownRev.error().code, ErrorCode::NotFound);
        const Result<git::RevisionFile> noFile = git::readFileAtRevision(path(u"infra/other.hcl"_s), u"HEAD"_s);
        QVERIFY(!noFile.ok());
        QCOMPARE(noFile.error().code, ErrorCode::NotFound);
        QVERIFY(noFile.error().message.contains(u"infra/other.hcl"_s));
        const Result<git::RevisionFile> dir = git::readFileAtRevision(path(u"infra"_s), u"HEAD"_s);
        QVERIFY(!dir.ok());
        QTemporaryDir outside;
        const Result<git::RevisionFile> notRepo = git::readFileAtRevision(outside.path() + u"/x.hcl"_s, u"HEAD"_s);
        QVERIFY(!notRepo.ok());
        QCOMPARE(notRepo.error().code, ErrorCode::NotFound);
    }

    void revisions()
    {
        const Result<QStringList> r = git::listRevisions(path(u"infra/.terraform.lock.hcl"_s));
        QVERIFY(r.ok());
        QCOMPARE(r.value(), (QStringList{u"HEAD"_s, u"feature"_s, u"main"_s, u"v2"_s}));
    }

    /// A lock file git checks out with CRLF (.gitattributes eol=crlf) reads as the work tree has
    /// it, not as the LF blob: the expected bytes are the file git itself wrote on checkout.
    void checkoutFiltersApplied()
    {
        write(u".gitattributes"_s, "*.crlf.hcl text eol=crlf\n");
        write(u"eol/x.crlf.hcl"_s, "line one\nline two\n");
        git({u"add"_s, u".gitattributes"_s, u"eol/x.crlf.hcl"_s});
        git({u"commit"_s, u"-q"_s, u"-m"_s, u"crlf on checkout"_s});
        QVERIFY(QFile::remove(path(u"eol/x.crlf.hcl"_s)));
        git({u"checkout"_s, u"--"_s, u"eol/x.crlf.hcl"_s});
        QFile f(path(u"eol/x.crlf.hcl"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray workTree = f.readAll();
        QCOMPARE(workTree, QByteArray("line one\r\nline two\r\n")); // git converted on checkout
        const Result<git::RevisionFile> r = git::readFileAtRevision(path(u"eol/x.crlf.hcl"_s), u"HEAD"_s);
        QVERIFY2(r.ok(), r ? "" : qPrintable(r.error().message));
        QCOMPARE(r.value().bytes, workTree);
    }
};

QTEST_GUILESS_MAIN(TestGitRevision)
#include "tst_gitrevision.moc"
