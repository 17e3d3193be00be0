// LockDiffWindow offscreen: the semantic summary of two hand-written lock files (expected tree
// written by hand), side-by-side rows and synchronized scrolling, a summary item scrolls the text
// to its line, drag and drop, a lock file against HEAD of a git repository made with git, and
// the command-line entry's usage errors.

#include "model/items/MirrorTreeModel.h"
#include "model/lockitems/LockDiffTreeModel.h"
#include "model/mirror/DemoMirror.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/TestSupport.h"
#include "ui/MainWindow.h"
#include "ui/lock/LockCodeEditor.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockUi.h"

#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

QByteArray block(const char *address, const char *version, const QList<const char *> &hashes, const char *constraints = nullptr)
{
    QByteArray out = "\nprovider \"" + QByteArray(address) + "\" {\n  version = \"" + version + "\"\n";
    if (constraints)
        out =
            "\nprovider \"" + QByteArray(address) + "\" {\n  version     = \"" + version + "\"\n  constraints = \"" + constraints + "\"\n";
    out += "  hashes = [\n";
    for (const char *h : hashes)
        out += "    \"" + QByteArray(h) + "\",\n";
    return out + "  ]\n}\n";
}

const QByteArray kHeader = "# This file is maintained automatically by \"tofu init\".\n"
                           "# Manual edits may be lost in future updates.\n";
const char *kZh = "zh:1111111111111111111111111111111111111111111111111111111111111111";

QByteArray fileA()
{
    QByteArray out = kHeader + block("registry.opentofu.org/hashicorp/null", "3.2.1", {"h1:old1="});
    for (int i = 0; i < 20; ++i) // unchanged providers, so that the text scrolls
        out += block(QByteArray("registry.opentofu.org/other/p" + QByteArray::number(10 + i)).constData(), "1.0.0", {"h1:same="});
    return out + block("registry.opentofu.org/hashicorp/random", "3.6.0", {"h1:r="}, "~> 3.6");
}

QByteArray fileB()
{
    QByteArray out = kHeader + block("registry.opentofu.org/acme/widgets", "1.0.0", {kZh})
        + block("registry.opentofu.org/hashicorp/null", "3.2.2", {"h1:new1=", "h1:new2="});
    for (int i = 0; i < 20; ++i)
        out += block(QByteArray("registry.opentofu.org/other/p" + QByteArray::number(10 + i)).constData(), "1.0.0", {"h1:same="});
    return out + block("registry.opentofu.org/hashicorp/random", "3.6.0", {"h1:r="}, "~> 3.6");
}

const QString kExpectedTree = u"registry.opentofu.org/acme/widgets | added 1.0.0\n"
                              "  hashes added | 1\n"
                              "    unknown platform | unknown\n"
                              "      zh:1111111111111111111111111111111111111111111111111111111111111111 | unknown\n"
                              "registry.opentofu.org/hashicorp/null | upgraded 3.2.1 → 3.2.2\n"
                              "  version | 3.2.1 → 3.2.2\n"
                              "  hashes added | 2\n"
                              "    unknown platform | unknown\n"
                              "      h1:new1= | unknown\n"
                              "      h1:new2= | unknown\n"
                              "  hashes removed | 1\n"
                              "    unknown platform | unknown\n"
                              "      h1:old1= | unknown\n"_s;

using test::writeFile;

} // namespace

class TestLockDiffWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_tmp.path() + u'/' + name;
        writeFile(path, bytes);
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the main window keeps settings
        QCoreApplication::setOrganizationName(u"ProvenderTest"_s);
        QCoreApplication::setApplicationName(u"tst_lockdiffwindow"_s);
    }

    /// git difftool passes /dev/null for the side of an added or deleted lock file.
    void addedOrDeletedFile()
    {
        const QString b = write(u"b.hcl"_s, fileB());
        LockDiffWindow added;
        QVERIFY(added.openFiles(u"/dev/null"_s, b));
        QVERIFY2(added.summaryText().startsWith(u"Providers: "_s) && added.summaryText().contains(u"added"_s),
                 qPrintable(added.summaryText()));
        QVERIFY2(added.summaryText().contains(u" 0 removed"_s), qPrintable(added.summaryText())); // nothing was there before
        LockDiffWindow deleted;
        QVERIFY(deleted.openFiles(b, u"/dev/null"_s));
        QVERIFY2(deleted.summaryText().contains(u"removed"_s), qPrintable(deleted.summaryText()));
    }

    void semanticSummary()
    {
        LockDiffWindow w;
        QVERIFY(w.openFiles(write(u"a.hcl"_s, fileA()), write(u"b.hcl"_s, fileB())));
        QCOMPARE(w.model()->dump(), kExpectedTree);
        QCOMPARE(w.summaryText(), u"Providers: 1 added, 1 upgraded. Hashes: 3 added, 1 removed."_s);
        QCOMPARE(w.findChild<QLabel *>(u"summaryLabel"_s)->text(), w.summaryText());

        // Side by side: the same number of rows on both sides; the removed hash faces the added ones.
        const SideBySideDiff &rows = w.sideBySide();
        QCOMPARE(rows.left.size(), rows.right.size());
        QCOMPARE(w.leftEditor()->blockCount(), int(rows.rowCount()));
        QCOMPARE(w.rightEditor()->blockCount(), int(rows.rowCount()));
        const int oldRow = rows.findRow(u"h1:old1="_s, true, false);
        QVERIFY(oldRow > 0);
        QCOMPARE(rows.leftKind.at(oldRow), SideBySideDiff::RowKind::Changed);
        QVERIFY(rows.right.at(oldRow).contains(u"h1:new1="_s));

        // Selecting a hash item scrolls both texts to its line.
        w.resize(900, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *tree = w.findChild<QTreeView *>(u"semanticView"_s);
        const QModelIndex null = w.model()->index(1, 0);
        const QModelIndex added = w.model()->index(1, 0, null);
        const QModelIndex new2 = w.model()->index(1, 0, w.model()->index(0, 0, added));
        QCOMPARE(new2.data().toString(), u"h1:new2="_s);
        tree->setCurrentIndex(new2);
        const int row = w.lastTargetRow();
        QVERIFY(row >= 0);
        QVERIFY(rows.right.at(row).contains(u"\"h1:new2=\""_s));
        QCOMPARE(w.rightEditor()->textCursor().blockNumber(), row);
        QCOMPARE(w.leftEditor()->textCursor().blockNumber(), row);
        // The random block is at the end: selecting it... is not a change; pick the widgets provider.
        tree->setCurrentIndex(w.model()->index(0, 0));
        QVERIFY(rows.right.at(w.lastTargetRow()).startsWith(u"provider \"registry.opentofu.org/acme/widgets\""_s));

        // Scrolling one side scrolls the other.
        QScrollBar *left = w.leftEditor()->verticalScrollBar();
        QScrollBar *right = w.rightEditor()->verticalScrollBar();
        QVERIFY(left->maximum() > 10);
        left->setValue(7);
        QCOMPARE(right->value(), 7);
        right->setValue(12);
        QCOMPARE(left->value(), 12);
    }

    void identicalAndFormatting()
    {
        LockDiffWindow w;
        w.setTexts(fileA(), u"a"_s, fileA(), u"b"_s);
        QCOMPARE(w.model()->rowCount(), 0);
        QCOMPARE(w.summaryText(), u"The files are identical."_s);
        QByteArray crlf = fileA();
        crlf.replace("\n", "\r\n");
        w.setTexts(fileA(), u"a"_s, crlf, u"b"_s);
        QCOMPARE(w.model()->rowCount(), 0);
        QCOMPARE(w.summaryText(), u"No semantic change (formatting only)."_s);
    }

    void dragAndDrop()
    {
        LockDiffWindow w;
        w.resize(800, 400);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(write(u"da.hcl"_s, fileA())), QUrl::fromLocalFile(write(u"db.hcl"_s, fileB()))});
        // As a drag would: enter (the window accepts files), then drop.
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QCOMPARE(w.model()->dump(), kExpectedTree);
        // One file dropped on the left half replaces the old side: now both sides are B.
        QMimeData one;
        one.setUrls({QUrl::fromLocalFile(m_tmp.path() + u"/db.hcl"_s)});
        QDragEnterEvent enterLeft(QPoint(10, 10), Qt::CopyAction, &one, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enterLeft);
        QDropEvent dropLeft(QPointF(10, 10), Qt::CopyAction, &one, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &dropLeft);
        QCOMPARE(w.model()->rowCount(), 0);
    }

    /// A lock file against HEAD of a repository made by git: HEAD has A, the work tree B.
    void gitHead()
    {
        const QString git = QStandardPaths::findExecutable(u"git"_s);
        if (git.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("git is not installed"));
        const QString repo = m_tmp.path() + u"/repo"_s;
        QVERIFY(QDir().mkpath(repo));
        auto run = [&](const QStringList &args) {
            QProcess p;
            p.setWorkingDirectory(repo);
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(u"GIT_CONFIG_NOSYSTEM"_s, u"1"_s);
            env.insert(u"HOME"_s, m_tmp.path());
            for (const char *k : {"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"})
                env.insert(QString::fromLatin1(k), u"T"_s);
            for (const char *k : {"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"})
                env.insert(QString::fromLatin1(k), u"t@example.test"_s);
            p.setProcessEnvironment(env);
            p.start(git, args);
            p.waitForFinished(60000);
            return p.exitCode();
        };
        QCOMPARE(run({u"init"_s, u"-q"_s}), 0);
        const QString path = repo + u"/.terraform.lock.hcl"_s;
        QVERIFY(writeFile(path, fileA()));
        QCOMPARE(run({u"add"_s, u".terraform.lock.hcl"_s}), 0);
        QCOMPARE(run({u"commit"_s, u"-q"_s, u"-m"_s, u"lock"_s}), 0);
        QVERIFY(writeFile(path, fileB()));

        LockDiffWindow w;
        QVERIFY2(w.compareWithRevision(path, u"HEAD"_s), qPrintable(w.errorText()));
        QCOMPARE(w.model()->dump(), kExpectedTree);
        QVERIFY(w.findChild<QLabel *>(u"leftLabel"_s)->text().contains(u".terraform.lock.hcl at HEAD"_s));
        QCOMPARE(test::readFile(path), fileB()); // the work tree is untouched
        QVERIFY(!w.compareWithRevision(path, u"no-such-branch"_s));
        QVERIFY(!w.errorText().isEmpty());
    }

    /// installLockUi adds its actions to the main window's menus; a coverage click selects the
    /// archive in the main window's mirror tree.
    void mainWindowHook()
    {
        test::LockMirrorFixture fixture(
            {{"example.test/ns/alpha", "1.0.0", "linux_amd64"}, {"example.test/ns/alpha", "1.0.0", "darwin_arm64"}});
        QVERIFY2(fixture.error().isEmpty(), qPrintable(fixture.error()));
        MainWindow w;
        installLockUi(&w);
        auto names = [](QMenu *menu) {
            QStringList out;
            for (QAction *a : menu->actions())
                out << a->objectName();
            return out;
        };
        QVERIFY(names(w.menu(MainWindow::Menu::File)).contains(u"actionOpenLockFile"_s));
        QVERIFY(names(w.menu(MainWindow::Menu::File)).contains(u"actionCompareLockFiles"_s));
        QVERIFY(names(w.menu(MainWindow::Menu::Tools)).contains(u"actionCoverageMatrix"_s));

        QSignalSpy opened(&w, &MainWindow::mirrorOpened);
        w.openMirror(fixture.root());
        QVERIFY(opened.wait(60000));
        const QString path = fixture.expected("example.test/ns/alpha", "1.0.0", "darwin_arm64", "path");
        QVERIFY(selectArchiveInBrowser(&w, path));
        auto *view = w.findChild<QTreeView *>(u"archiveView"_s);
        QCOMPARE(view->currentIndex().data(MirrorTreeModel::PathRole).toString(), path);
        QVERIFY(!selectArchiveInBrowser(&w, fixture.root() + u"/nope.zip"_s));
        QVERIFY(!selectArchiveInBrowser(&w, QString()));
    }

    /// What `provender FILE.hcl` (and the desktop entry for lock files) does: the lock file opens
    /// in an editor window that uses the main window's mirror; other paths are not lock files.
    void openLockEditorFromCommandLine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString lock = dir.filePath(u".terraform.lock.hcl"_s);
        QVERIFY(test::writeFile(lock, "provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.2\"\n}\n"));
        QVERIFY(isLockFilePath(lock));
        QVERIFY(!isLockFilePath(dir.path()));
        QVERIFY(!isLockFilePath(dir.filePath(u"bundle.tar.gz"_s)));
        MainWindow w;
        LockEditorWindow *editor = openLockEditor(&w, lock);
        QVERIFY(editor);
        QVERIFY(editor->isVisible());
        QCOMPARE(editor->filePath(), lock);
        QVERIFY(editor->testAttribute(Qt::WA_DeleteOnClose));
        // `provender DIR FILE.hcl` opens the lock file first; the editor takes the mirror the
        // browser opens after it.
        QVERIFY(!editor->hasMirror());
        const QString demo = dir.filePath(u"demo"_s);
        QVERIFY(generateDemoMirror(demo).ok());
        w.openMirror(demo);
        QVERIFY(QTest::qWaitFor([editor] { return editor->hasMirror() && !editor->isBusy(); }, 60000));
        QCOMPARE(editor->catalog()->root, demo);
        editor->close();
    }

    void commandLineUsage()
    {
        QCOMPARE(runLockDiffGui({u"diff"_s, u"only-one.hcl"_s}), 2);
        QCOMPARE(runLockDiffGui({u"difftool"_s, m_tmp.path() + u"/missing-a"_s, m_tmp.path() + u"/missing-b"_s}), 2);
    }
};

QTEST_MAIN(TestLockDiffWindow)
#include "tst_lockdiffwindow.moc"
