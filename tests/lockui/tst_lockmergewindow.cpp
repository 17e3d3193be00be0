// The three-way merge window offscreen: choices from the toolbar actions and from the result
// column's editor, each one undo step; the result text; atomic save (asking first while conflicts
// remain); a file with conflict markers rebuilt into its sides and resolved in place; opening such
// a file from the lock-editor path; unmergeable input refused with file:line:column. Expected bytes
// are written by hand in the canonical form (tofu-formats.md §1.1).

#include "model/lockitems/LockMergeModel.h"
#include "tests/support/LockTestSupport.h"
#include "ui/lock/LockCodeEditor.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockMergeWindow.h"
#include "ui/lock/LockUi.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>

using namespace provender;
using namespace provender::ui;
using namespace provender::lockmerge;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kTofu = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";

QByteArray block(const char *address, const char *version, const QList<QByteArray> &hashes)
{
    QByteArray b = "\nprovider \"" + QByteArray(address) + "\" {\n  version = \"" + QByteArray(version) + "\"\n  hashes = [\n";
    for (const QByteArray &h : hashes)
        b += "    \"" + h + "\",\n";
    return b + "  ]\n}\n";
}

const char *const A = "registry.opentofu.org/hashicorp/aws";
const char *const N = "registry.opentofu.org/hashicorp/null";

const QByteArray kBase = kTofu + block(A, "5.1.0", {"h1:AAAA="}) + block(N, "3.2.1", {"h1:CCCC="});
const QByteArray kOurs = kTofu + block(A, "5.2.0", {"h1:BBBB="}) + block(N, "3.2.1", {"h1:CCCC=", "zh:1111"});
const QByteArray kTheirs = kTofu + block(A, "5.3.0", {"h1:DDDD="}) + block(N, "3.2.1", {"h1:CCCC=", "zh:2222"});
// aws conflicts; null merges to the union.
const QByteArray kMarked = kTofu + "\n<<<<<<< ours\n" + block(A, "5.2.0", {"h1:BBBB="}).mid(1) + "=======\n"
    + block(A, "5.3.0", {"h1:DDDD="}).mid(1) + ">>>>>>> theirs\n" + block(N, "3.2.1", {"h1:CCCC=", "zh:1111", "zh:2222"});

using test::writeFile;

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QAction *action(QWidget *w, const char *name)
{
    return w->findChild<QAction *>(QString::fromLatin1(name));
}

} // namespace

class TestLockMergeWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void choicesUndoAndSave()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(u"merged.hcl"_s);
        LockMergeWindow w;
        QStringList asked;
        w.setPrompt([&](const QString &title, const QString &, QMessageBox::StandardButtons) {
            asked << title;
            return QMessageBox::Cancel;
        });
        QVERIFY(w.setInputs(kBase, kOurs, kTheirs, out));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.conflictCount(), 1);
        QCOMPARE(w.resultBytes(), kMarked);
        QCOMPARE(w.resultEditor()->toPlainText(), QString::fromUtf8(kMarked));
        QVERIFY(w.findChild<QLabel *>(u"summaryLabel"_s)->text().contains(u"1 unresolved conflict"_s));
        QCOMPARE(w.currentTopRow(), 0);                       // the first conflict is selected
        QVERIFY(!action(&w, "actionTakeUnion")->isEnabled()); // different versions
        QVERIFY(action(&w, "actionNextConflict")->isEnabled());

        // Saving with a conflict asks; Cancel writes nothing.
        QVERIFY(!w.save());
        QCOMPARE(asked, QStringList{u"Save with Conflicts?"_s});
        QVERIFY(!QFile::exists(out));

        // Take theirs for aws (the toolbar action on the selected row).
        action(&w, "actionTakeTheirs")->trigger();
        const QByteArray resolved = kTofu + block(A, "5.3.0", {"h1:DDDD="}) + block(N, "3.2.1", {"h1:CCCC=", "zh:1111", "zh:2222"});
        QCOMPARE(w.conflictCount(), 0);
        QCOMPARE(w.resultBytes(), resolved);
        QCOMPARE(w.resultEditor()->toPlainText(), QString::fromUtf8(resolved));
        QVERIFY(w.findChild<QLabel *>(u"summaryLabel"_s)->text().startsWith(u"No conflicts"_s));
        QCOMPARE(w.undoStack()->count(), 1);
        QVERIFY(!action(&w, "actionNextConflict")->isEnabled());

        // Ours for null through the result column's editor (model setData -> handler -> undo).
        QVERIFY(w.model()->setData(w.model()->index(1, LockMergeModel::ResultColumn), int(Choice::Ours)));
        QCOMPARE(w.undoStack()->count(), 2);
        QCOMPARE(w.resultBytes(), kTofu + block(A, "5.3.0", {"h1:DDDD="}) + block(N, "3.2.1", {"h1:CCCC=", "zh:1111"}));

        // Undo both, redo one.
        w.undoStack()->undo();
        QCOMPARE(w.resultBytes(), resolved);
        w.undoStack()->undo();
        QCOMPARE(w.resultBytes(), kMarked);
        QCOMPARE(w.conflictCount(), 1);
        w.undoStack()->redo();
        QCOMPARE(w.resultBytes(), resolved);

        // Save: atomically, exactly the result, no question asked now.
        asked.clear();
        QVERIFY(w.save());
        QVERIFY(asked.isEmpty());
        QCOMPARE(readFile(out), resolved);
        QVERIFY(w.wasSaved());
        QVERIFY(!w.isModified());
        QCOMPARE(QFileInfo(out).permissions() & 0x0777, QFileDevice::Permissions(0x0644));
    }

    void severalRowsAtOnceIsOneUndoStep()
    {
        const QByteArray base = kTofu + block(A, "5.1.0", {"h1:AAAA="}) + block(N, "3.2.1", {"h1:CCCC="});
        const QByteArray ours = kTofu + block(A, "5.2.0", {"h1:BBBB="}) + block(N, "3.2.2", {"h1:CCCC="});
        const QByteArray theirs = kTofu + block(A, "5.3.0", {"h1:DDDD="}) + block(N, "3.2.3", {"h1:CCCC="});
        LockMergeWindow w;
        QVERIFY(w.setInputs(base, ours, theirs, {}));
        QCOMPARE(w.conflictCount(), 2);
        w.view()->selectAll();
        action(&w, "actionTakeOurs")->trigger();
        QCOMPARE(w.conflictCount(), 0);
        QCOMPARE(w.resultBytes(), ours);
        QCOMPARE(w.undoStack()->count(), 1);
        w.undoStack()->undo();
        QCOMPARE(w.conflictCount(), 2);
        // Next conflict walks the unresolved rows.
        w.selectTopRow(0);
        action(&w, "actionNextConflict")->trigger();
        QCOMPARE(w.currentTopRow(), 1);
        action(&w, "actionNextConflict")->trigger();
        QCOMPARE(w.currentTopRow(), 0);
    }

    void conflictedFileIsResolvedInPlace()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u".terraform.lock.hcl"_s);
        // What git's own text merge leaves: labels HEAD / a branch, no base.
        const QByteArray gitMarked = kTofu
            + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [\n"
              "<<<<<<< HEAD\n    \"h1:AAAA=\",\n=======\n    \"h1:BBBB=\",\n>>>>>>> feature\n"
              "    \"h1:CCCC=\",\n  ]\n}\n";
        QVERIFY(writeFile(path, gitMarked));
        LockMergeWindow w;
        QVERIFY2(w.openConflictedFile(path), qPrintable(w.errorText()));
        QCOMPARE(w.outputPath(), QFileInfo(path).absoluteFilePath());
        // No base: both sides "added" null with the same version -> the union, no conflict.
        QCOMPARE(w.conflictCount(), 0);
        QCOMPARE(w.resultBytes(), kTofu + block(N, "3.2.1", {"h1:AAAA=", "h1:BBBB=", "h1:CCCC="}));
        QVERIFY(w.findChild<QLabel *>(u"inputsLabel"_s)->text().contains(u"(HEAD)"_s));
        QVERIFY(w.save());
        QCOMPARE(readFile(path), kTofu + block(N, "3.2.1", {"h1:AAAA=", "h1:BBBB=", "h1:CCCC="}));

        // The driver's own markers with a diff3 base: the real base comes back.
        WriteOptions o;
        o.diff3 = true;
        const MergeResult m = mergeLockFiles(readMergeInput(kBase, u"b"_s), readMergeInput(kOurs, u"o"_s), readMergeInput(kTheirs, u"t"_s));
        QVERIFY(writeFile(path, m.bytes(o)));
        LockMergeWindow w2;
        QVERIFY(w2.openConflictedFile(path));
        QCOMPARE(w2.conflictCount(), 1);
        QCOMPARE(w2.model()->index(0, LockMergeModel::BaseColumn).data().toString(), u"5.1.0"_s);
        QCOMPARE(w2.resultBytes(), kMarked);

        // Malformed markers: refused with the line.
        QVERIFY(writeFile(path, kTofu + "<<<<<<< ours\n"));
        LockMergeWindow w3;
        QVERIFY(!w3.openConflictedFile(path));
        QVERIFY2(w3.errorText().contains(u":3: the conflict region opened at line 3 is not closed"_s), qPrintable(w3.errorText()));
    }

    void lockEditorPathOffersTheMergeWindow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"conflicted.terraform.lock.hcl"_s);
        QVERIFY(writeFile(path, kMarked));
        QVERIFY(openLockEditor(nullptr, path) == nullptr);
        LockMergeWindow *merge = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *m = qobject_cast<LockMergeWindow *>(w); m && m->isVisible())
                merge = m;
        QVERIFY(merge);
        QCOMPARE(merge->outputPath(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(merge->conflictCount(), 1); // no base in the markers: aws added on both sides, other versions
        merge->setPrompt([](const QString &, const QString &, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
        merge->close();
        QCoreApplication::processEvents();
        QCOMPARE(readFile(path), kMarked); // discarded: the file is as it was
    }

    void lockEditorResolvesConflicts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u".terraform.lock.hcl"_s);
        QVERIFY(writeFile(path, kMarked));
        LockEditorWindow editor;
        editor.setPrompt([](const QString &, const QString &, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
        QVERIFY(editor.openFile(path));
        QAction *resolve = action(&editor, "actionResolveConflicts");
        QVERIFY(resolve && resolve->isEnabled());
        QVERIFY(editor.lastMessage().contains(u"conflict markers"_s));
        LockMergeWindow *merge = editor.resolveConflicts();
        QVERIFY(merge);
        QCOMPARE(merge->conflictCount(), 1);
        QVERIFY(merge->choose(QString::fromLatin1(A), Choice::Ours));
        QVERIFY(merge->save());
        const QByteArray resolved = kTofu + block(A, "5.2.0", {"h1:BBBB="}) + block(N, "3.2.1", {"h1:CCCC=", "zh:1111", "zh:2222"});
        QCOMPARE(readFile(path), resolved);
        QCOMPARE(editor.currentBytes(), resolved); // reloaded
        QVERIFY(!resolve->isEnabled());
        QVERIFY(!editor.hasErrors());
        merge->close();
    }

    /// What `git mergetool` runs: `provender lock merge --gui BASE LOCAL REMOTE -o MERGED`. The exit
    /// code tells git whether the merge succeeded (mergetool.provender.trustExitCode).
    void mergetoolCommand()
    {
        QTemporaryDir dir;
        const QString base = dir.filePath(u"BASE"_s), local = dir.filePath(u"LOCAL"_s), remote = dir.filePath(u"REMOTE"_s);
        const QString merged = dir.filePath(u"MERGED"_s);
        QVERIFY(writeFile(base, kBase) && writeFile(local, kOurs) && writeFile(remote, kTheirs) && writeFile(merged, kMarked));
        const auto window = [] {
            for (QWidget *w : QApplication::topLevelWidgets())
                if (auto *m = qobject_cast<LockMergeWindow *>(w); m && m->isVisible())
                    return m;
            return static_cast<LockMergeWindow *>(nullptr);
        };
        // Resolved and saved: exit 0, MERGED holds the result, LOCAL is untouched.
        QString seenOutput;
        QTimer::singleShot(0, this, [&] {
            LockMergeWindow *w = window();
            if (!w)
                return QApplication::exit(3);
            seenOutput = w->outputPath();
            w->choose(QString::fromLatin1(A), Choice::Theirs);
            w->save();
            w->close();
        });
        QCOMPARE(runLockMergeGui({u"--gui"_s, base, local, remote, u"-o"_s, merged}), 0);
        QCOMPARE(seenOutput, merged);
        QCOMPARE(readFile(merged), kTofu + block(A, "5.3.0", {"h1:DDDD="}) + block(N, "3.2.1", {"h1:CCCC=", "zh:1111", "zh:2222"}));
        QCOMPARE(readFile(local), kOurs);

        // Closed without a result: exit 1, MERGED as it was.
        QVERIFY(writeFile(merged, kMarked));
        QTimer::singleShot(0, this, [&] {
            LockMergeWindow *w = window();
            if (!w)
                return QApplication::exit(3);
            w->setPrompt([](const QString &, const QString &, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
            w->close();
        });
        QCOMPARE(runLockMergeGui({u"--gui"_s, base, local, remote, u"-o"_s, merged}), 1);
        QCOMPARE(readFile(merged), kMarked);

        // Bad usage: exit 2 without a window.
        QCOMPARE(runLockMergeGui({u"--gui"_s, base, local}), 2);
    }

    void unmergeableInputIsRefused()
    {
        LockMergeWindow w;
        const QByteArray broken = kTofu + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2\"\n}\n";
        QVERIFY(!w.setInputs(kBase, broken, kTheirs, {}));
        QVERIFY2(w.errorText().contains(u"ours:5:13: error: Invalid provider version number"_s), qPrintable(w.errorText()));
        QTemporaryDir dir;
        QVERIFY(!w.openFiles(dir.filePath(u"a"_s), dir.filePath(u"b"_s), dir.filePath(u"c"_s)));
        QVERIFY(w.errorText().startsWith(u"Cannot open"_s));
    }
};

QTEST_MAIN(TestLockMergeWindow)
#include "tst_lockmergewindow.moc"
