// Export Indexes… and Add to Lock File… offscreen, from a mirror open in the main window.
//
// exportIndexes: a mirror written by make_index_mirror.py, which also writes (with Python's
// zipfile/hashlib/json and Go's MarshalIndent rules) the exact bytes `terraform providers mirror`
// writes for it, with and without zh:. The dry-run preview must list exactly the files
// exportIndexes(dryRun) would write and the files Python expects; nothing may be written by it;
// the export must write Python's bytes; turning on zh: previews every <version>.json as an
// update whose diff shows the zh: entries; the browser rescans and shows the archives verified.
// Cancel (Esc) during the preview and during the export of a 64 MiB archive writes nothing, not
// even a staged file.
//
// addToLock: the demo mirror; archives selected in the browser (version rows); the dialog's
// preview applied in the lock editor must give the bytes `terraform providers lock -fs-mirror`
// writes for the same providers and platforms (an existing tofu lock from the shared corpus, and
// a lock file with no providers yet); Undo restores the original bytes exactly.

#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockSelection.h"
#include "model/lockfile/LockWriter.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "model/verify/Verdict.h"
#include "tests/support/TestSupport.h"
#include "ui/MainWindow.h"
#include "ui/export/ExportDialogs.h"
#include "ui/export/ExportUi.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockUi.h"

#include <QAbstractProxyModel>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QDirIterator>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

Platform platform(const char *p)
{
    return Platform::parse(QString::fromLatin1(p)).value();
}

ProviderAddress addr(const char *a)
{
    return ProviderAddress::parse(QString::fromLatin1(a)).value();
}

} // namespace

class TestExportUi : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    static bool openAndWait(MainWindow &w, const QString &root)
    {
        QSignalSpy finished(&w, &MainWindow::verificationFinished);
        w.openMirror(root);
        return finished.wait(120000);
    }

    static int verdictOf(MainWindow &w, const QString &archivePath)
    {
        const QModelIndex index = w.archiveModel()->indexForArchivePath(archivePath);
        return index.isValid() ? index.data(MirrorTreeModel::VerdictRole).toInt() : -1;
    }

    /// Select the version rows of `versions` (provider address, version) in the browser.
    static bool selectVersions(MainWindow &w, const Catalog &catalog, const QList<QPair<const char *, const char *>> &versions)
    {
        auto *view = w.findChild<QTreeView *>(u"archiveView"_s);
        auto *proxy = qobject_cast<QAbstractProxyModel *>(view->model());
        if (!view || !proxy)
            return false;
        view->selectionModel()->clearSelection();
        for (const auto &[provider, version] : versions) {
            const Provider *p = findProvider(catalog, addr(provider));
            const ProviderVersion *v = p ? findVersion(*p, Version::parse(QString::fromLatin1(version)).value()) : nullptr;
            if (!v || v->archives.isEmpty())
                return false;
            QString path;
            for (const Archive &a : v->archives)
                if (!a.path.isEmpty())
                    path = a.path;
            const QModelIndex leaf = proxy->mapFromSource(w.archiveModel()->indexForArchivePath(path));
            if (!leaf.isValid() || !leaf.parent().isValid())
                return false;
            view->selectionModel()->select(leaf.parent(), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.path() + u"/config"_s)); // QSettings stay in here
        test::useOwnSettings(u"tst_exportui"_s);                                    // nothing remembered from an earlier run
    }

    void networkMirrorBlock()
    {
        QCOMPARE(ExportIndexesDialog::networkMirrorBlock(u"  https://mirror.example.test/providers "_s),
                 u"provider_installation {\n  network_mirror {\n    url = \"https://mirror.example.test/providers/\"\n  }\n}\n"_s);
        QCOMPARE(ExportIndexesDialog::networkMirrorBlock(u"https://m.example.test/p/"_s),
                 u"provider_installation {\n  network_mirror {\n    url = \"https://m.example.test/p/\"\n  }\n}\n"_s);
        QCOMPARE(ExportIndexesDialog::networkMirrorBlock(u""_s), QString());
    }

    void exportIndexesFromBrowser()
    {
        const QString python = QStandardPaths::findExecutable(u"python3"_s);
        if (python.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, u"python3 not on PATH"_s);
        const QString mirror = m_tmp.path() + u"/indexmirror"_s;
        const QString expH1 = m_tmp.path() + u"/expected-h1"_s;
        const QString expZh = m_tmp.path() + u"/expected-zh"_s;
        QProcess py;
        py.start(python, {QStringLiteral(EXPORTUI_SCRIPT), mirror, expH1, expZh});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        const QMap<QString, QByteArray> wantH1 = test::jsonFiles(expH1);
        const QMap<QString, QByteArray> wantZh = test::jsonFiles(expZh);
        QCOMPARE(wantH1.size(), 5); // 2 index.json + 3 <version>.json
        QVERIFY(test::jsonFiles(mirror).isEmpty());

        MainWindow w;
        installExportUi(&w);
        QVERIFY(openAndWait(w, mirror));
        const QString someArchive = mirror + u"/registry.example.test/acme/alpha/terraform-provider-alpha_1.0.0_linux_amd64.zip"_s;
        QCOMPARE(verdictOf(w, someArchive), int(Verdict::Unverified)); // no index declares it yet

        auto *action = w.findChild<QAction *>(u"actionExportIndexes"_s);
        QVERIFY(action);
        QVERIFY(action->isEnabled());
        QCOMPARE(action->shortcut(), QKeySequence(u"Ctrl+Shift+E"_s));
        action->trigger();
        auto *dialog = w.findChild<ExportIndexesDialog *>(u"exportIndexesDialog"_s);
        QVERIFY(dialog);
        QSignalSpy previewed(dialog, &ExportIndexesDialog::previewReady);
        QVERIFY(previewed.wait(120000));
        auto *zh = dialog->findChild<QCheckBox *>(u"zhCheck"_s);
        QVERIFY(!zh->isChecked()); // default off

        // The preview lists exactly what exportIndexes would write, which is what Python expects.
        IndexExportOptions dryRun;
        dryRun.dryRun = true;
        const Result<IndexExportReport> dry = exportIndexes(mirror, dryRun);
        QVERIFY(dry.ok());
        QStringList modelPaths;
        for (const IndexFileResult &f : dry->files)
            if (f.status != IndexFileResult::Status::Unchanged)
                modelPaths << QDir(mirror).relativeFilePath(f.path);
        modelPaths.sort();
        QCOMPARE(dialog->previewPaths(), modelPaths);
        QCOMPARE(dialog->previewPaths(), QStringList(wantH1.keys()));
        auto *files = dialog->findChild<QTreeWidget *>(u"previewFiles"_s);
        QCOMPARE(files->topLevelItemCount(), wantH1.size());
        for (int i = 0; i < files->topLevelItemCount(); ++i)
            QCOMPARE(files->topLevelItem(i)->text(0), u"create"_s);
        QVERIFY(dialog->findChild<QPlainTextEdit *>(u"previewDiff"_s)->toPlainText().startsWith(u"--- /dev/null\n"_s));
        QVERIFY(test::jsonFiles(mirror).isEmpty()); // a dry run writes nothing

        // The network_mirror block follows the URL; Copy puts it on the clipboard.
        auto *url = dialog->findChild<QLineEdit *>(u"urlEdit"_s);
        url->setText(u"https://mirror.example.test/providers"_s);
        const QString block = ExportIndexesDialog::networkMirrorBlock(u"https://mirror.example.test/providers/"_s);
        QCOMPARE(dialog->findChild<QPlainTextEdit *>(u"networkMirrorBlock"_s)->toPlainText(), block);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"copyBlockButton"_s), Qt::LeftButton);
        QCOMPARE(QApplication::clipboard()->text(), block);

        // Export: Python's bytes; then the browser rescans and the archives are verified.
        QSignalSpy exported(dialog, &ExportIndexesDialog::exportFinished);
        QSignalSpy reverified(&w, &MainWindow::verificationFinished);
        auto *exportButton = dialog->findChild<QPushButton *>(u"exportButton"_s);
        QVERIFY(exportButton->isEnabled());
        QTest::mouseClick(exportButton, Qt::LeftButton);
        QVERIFY(exported.wait(120000));
        QCOMPARE(exported.first().first().toBool(), true);
        const QString differsH1 = test::fileTreeMismatch(wantH1, test::jsonFiles(mirror), u"python"_s);
        QVERIFY2(differsH1.isEmpty(), qPrintable(differsH1));
        QVERIFY(reverified.wait(120000));
        QCOMPARE(verdictOf(w, someArchive), int(Verdict::Verified));

        // zh: on: every <version>.json is an update; its diff shows the entries gaining zh:.
        previewed.clear();
        zh->setChecked(true);
        QVERIFY(previewed.wait(120000));
        QStringList versionFiles;
        for (const QString &k : wantZh.keys())
            if (!k.endsWith(u"/index.json"_s))
                versionFiles << k;
        QCOMPARE(dialog->previewPaths(), versionFiles);
        for (int i = 0; i < files->topLevelItemCount(); ++i)
            QCOMPARE(files->topLevelItem(i)->text(0), u"update"_s);
        files->setCurrentItem(files->topLevelItem(0));
        const QString diff = dialog->findChild<QPlainTextEdit *>(u"previewDiff"_s)->toPlainText();
        // The h1: stays (a context line), the zh: is added, nothing is removed.
        QVERIFY2(diff.contains(u"\n       \"h1:"_s) && diff.contains(u"\n+      \"zh:"_s) && !diff.contains(u"\n-"_s), qPrintable(diff));
        exported.clear();
        QTest::mouseClick(exportButton, Qt::LeftButton);
        QVERIFY(exported.wait(120000));
        const QString differsZh = test::fileTreeMismatch(wantZh, test::jsonFiles(mirror), u"python"_s);
        QVERIFY2(differsZh.isEmpty(), qPrintable(differsZh));
        dialog->close();

        // Remembered: the URL and the zh: choice.
        ExportIndexesDialog again(mirror);
        QCOMPARE(again.findChild<QLineEdit *>(u"urlEdit"_s)->text(), u"https://mirror.example.test/providers"_s);
        QVERIFY(again.findChild<QCheckBox *>(u"zhCheck"_s)->isChecked());
        QSignalSpy againPreviewed(&again, &ExportIndexesDialog::previewReady);
        QVERIFY(againPreviewed.wait(120000));
        QVERIFY(again.previewPaths().isEmpty()); // up to date
        QVERIFY(!again.findChild<QPushButton *>(u"exportButton"_s)->isEnabled());
    }

    /// Cancel (what the Cancel button and Esc do) while a 64 MiB archive is hashed: the export
    /// reports failure, says so, and writes nothing; the preview can run again afterwards.
    void exportCancelWritesNothing()
    {
        const QString python = QStandardPaths::findExecutable(u"python3"_s);
        if (python.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, u"python3 not on PATH"_s);
        const QString mirror = m_tmp.path() + u"/bigmirror"_s;
        const QString dir = mirror + u"/registry.example.test/acme/big"_s;
        QVERIFY(QDir().mkpath(dir));
        QProcess py;
        py.start(python,
                 {u"-c"_s,
                  u"import os, sys, zipfile\n"
                  "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:\n"
                  "    z.writestr('terraform-provider-big_v1.0.0', os.urandom(64 << 20))\n"_s,
                  dir + u"/terraform-provider-big_1.0.0_linux_amd64.zip"_s});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());

        // Nothing of the archive is in the hash cache yet (and a cancelled hash is not stored), so
        // each run below has 64 MiB to read when it is cancelled. The gate holds the worker at its
        // first progress report until the test has pressed Esc/Cancel: no race with a fast disk.
        std::atomic<bool> released{false};
        ExportIndexesDialog::setProgressGateForTests([&released] {
            while (!released.load())
                QThread::msleep(2);
        });
        const auto ungate = qScopeGuard([] { ExportIndexesDialog::setProgressGateForTests({}); });
        ExportIndexesDialog dialog(mirror);
        dialog.show();
        QSignalSpy previewed(&dialog, &ExportIndexesDialog::previewReady);
        QVERIFY(QTest::qWaitFor([&dialog] { return dialog.isRunning(); })); // the preview starts on open
        dialog.reject();                                                    // Esc while the preview runs: stops it, keeps the dialog
        released = true;
        QVERIFY(QTest::qWaitFor([&dialog] { return !dialog.isRunning(); }, 120000));
        QCOMPARE(previewed.size(), 0);
        QCOMPARE(dialog.findChild<QLabel *>(u"statusLabel"_s)->text(), u"Preview cancelled."_s);

        QSignalSpy finished(&dialog, &ExportIndexesDialog::exportFinished);
        released = false;
        dialog.startExport();
        QVERIFY(dialog.isRunning());
        QCOMPARE(dialog.findChild<QPushButton *>(u"closeButton"_s)->text(), u"Cancel"_s);
        dialog.reject(); // Cancel while the export runs
        released = true;
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(dialog.isVisible()); // not closed by either cancel
        QVERIFY2(dialog.findChild<QLabel *>(u"statusLabel"_s)->text().contains(u"nothing was written"_s),
                 qPrintable(dialog.findChild<QLabel *>(u"statusLabel"_s)->text()));
        QVERIFY(test::jsonFiles(mirror).isEmpty());
        QStringList left; // no staged files either
        QDirIterator it(mirror, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            left << QFileInfo(it.next()).fileName();
        QCOMPARE(left, QStringList{u"terraform-provider-big_1.0.0_linux_amd64.zip"_s});
    }

    /// A bundle or nothing open: the action is disabled.
    void exportNeedsDirectory()
    {
        MainWindow w;
        installExportUi(&w);
        QVERIFY(!w.findChild<QAction *>(u"actionExportIndexes"_s)->isEnabled());
        QVERIFY(!w.findChild<QAction *>(u"actionAddToLockFile"_s)->isEnabled());
    }

    void addToLockAgainstTerraform_data()
    {
        QTest::addColumn<bool>("existingLock");
        QTest::newRow("corpus lock, editor open") << true;
        QTest::newRow("no providers yet") << false;
    }

    void addToLockAgainstTerraform()
    {
        QFETCH(bool, existingLock);
        const QString demo = m_tmp.path() + u"/demo"_s;
        if (!QFileInfo::exists(demo)) {
            const Result<DemoMirrorReport> made = generateDemoMirror(demo);
            QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        }
        const Result<Catalog> catalog = scanFileSystemMirror(demo);
        QVERIFY(catalog.ok());

        QByteArray input;
        if (existingLock) {
            const QString corpus = test::corpusDir(u"lockfiles"_s);
            PROVENDER_SKIP_UNLESS_CORPUS(corpus, u"lockfiles"_s);
            // 017: a tofu lock with registry.opentofu.org/hashicorp/null 3.2.2 and random 3.6.2.
            input = test::readFile(corpus + u"/017.terraform.lock.hcl"_s);
            if (input.isEmpty())
                PROVENDER_SKIP(provender::test::Missing::Corpus, u"corpus file 017.terraform.lock.hcl not found"_s);
        } else {
            input = "# This file is maintained automatically by \"terraform init\".\n"
                    "# Manual edits may be lost in future updates.\n";
        }
        const QString dir = m_tmp.path() + (existingLock ? u"/lockA"_s : u"/lockB"_s);
        const QString path = dir + u"/.terraform.lock.hcl"_s;
        QVERIFY(test::writeFile(path, input));

        MainWindow w;
        installExportUi(&w);
        QVERIFY(openAndWait(w, demo));
        LockEditorWindow *opened = existingLock ? openLockEditor(&w, path) : nullptr; // reused by Apply
        QVERIFY(selectVersions(w, catalog.value(),
                               {{"registry.opentofu.org/hashicorp/null", "3.2.2"}, {"registry.opentofu.org/hashicorp/random", "3.6.2"}}));
        auto *action = w.findChild<QAction *>(u"actionAddToLockFile"_s);
        QVERIFY(action && action->isEnabled());
        action->trigger();
        auto *dialog = w.findChild<AddToLockDialog *>(u"addToLockDialog"_s);
        QVERIFY(dialog);
        QSignalSpy ready(dialog, &AddToLockDialog::selectionReady);
        QVERIFY(ready.wait(120000));
        const QList<LockSelectionItem> sel = dialog->selection();
        QCOMPARE(sel.size(), 2);
        QCOMPARE(sel.at(0).provider, addr("registry.opentofu.org/hashicorp/null"));
        QCOMPARE(sel.at(0).version.toString(), u"3.2.2"_s);
        QCOMPARE(sel.at(1).provider, addr("registry.opentofu.org/hashicorp/random"));
        QCOMPARE(sel.at(1).version.toString(), u"3.6.2"_s);

        dialog->setLockFile(path);
        const QList<Platform> platforms{platform("darwin_arm64"), platform("linux_amd64")};
        dialog->setPlatforms(platforms);
        QCOMPARE(dialog->checkedPlatforms(), platforms);
        QSignalSpy previewed(dialog, &AddToLockDialog::previewReady);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"previewButton"_s), Qt::LeftButton);
        QVERIFY(previewed.wait(120000));
        QCOMPARE(previewed.first().first().toBool(), true);
        const QString summary = dialog->findChild<QLabel *>(u"previewSummary"_s)->text();
        QVERIFY2(!summary.contains(u"Problem"_s), qPrintable(summary));
        QVERIFY2(summary.contains(u"registry.opentofu.org/hashicorp/null: "_s + (existingLock ? u"changed"_s : u"added"_s)),
                 qPrintable(summary));
        QVERIFY(dialog->findChild<QPlainTextEdit *>(u"previewDiff"_s)->toPlainText().contains(u"+++ b/.terraform.lock.hcl"_s));
        QCOMPARE(test::readFile(path), input); // the preview writes nothing

        QSignalSpy applied(dialog, &AddToLockDialog::applied);
        QVERIFY(dialog->apply());
        if (applied.isEmpty())
            QVERIFY(applied.wait(120000));
        QVERIFY2(applied.first().first().toBool(), qPrintable(dialog->findChild<QLabel *>(u"previewSummary"_s)->text()));
        LockEditorWindow *editor = dialog->editor();
        QVERIFY(editor);
        QCOMPARE(QFileInfo(editor->filePath()).canonicalFilePath(), QFileInfo(path).canonicalFilePath());
        if (opened)
            QCOMPARE(editor, opened);
        const QByteArray after = editor->currentBytes();
        QVERIFY(after != input);
        QCOMPARE(test::readFile(path), input); // applied in the editor, not saved
        editor->undoStack()->undo();
        QCOMPARE(editor->currentBytes(), input);
        editor->undoStack()->redo();
        QCOMPARE(editor->currentBytes(), after);

        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform providers lock is skipped"));
        QByteArray config = "terraform {\n  required_providers {\n";
        const LockParseResult parsed = parseLockFile(input);
        int i = 0;
        for (const char *p : {"registry.opentofu.org/hashicorp/null", "registry.opentofu.org/hashicorp/random"}) {
            config += "    p" + QByteArray::number(i++) + " = {\n      source = \"" + QByteArray(p) + "\"\n";
            if (const ProviderLock *l = parsed.document.find(addr(p)); l && !l->constraints.isEmpty())
                config += "      version = \"" + l->constraints.toString().toUtf8() + "\"\n";
            config += "    }\n";
        }
        config += "  }\n}\n";
        const QString sandbox = dir + u"-tf"_s;
        const QString cfg = sandbox + u"/cfg"_s;
        QVERIFY(test::writeFile(cfg + u"/main.tf"_s, config));
        QVERIFY(test::writeFile(cfg + u"/.terraform.lock.hcl"_s, input));
        const test::ProcessRun run = test::runTerraform(
            sandbox, cfg,
            {u"providers"_s, u"lock"_s, u"-no-color"_s, u"-fs-mirror="_s + demo, u"-platform=linux_amd64"_s, u"-platform=darwin_arm64"_s});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QByteArray ours = after;
        ours.replace("\"tofu init\"", "\"terraform init\""); // we keep the file's own header; terraform writes its own
        QCOMPARE(QString::fromUtf8(ours), QString::fromUtf8(test::readFile(cfg + u"/.terraform.lock.hcl"_s)));
        editor->setPrompt([](const QString &, const QString &, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
        editor->close();
    }

    /// The selection's platforms are preselected; the last choice is remembered.
    void addToLockRemembersPlatforms()
    {
        const QString demo = m_tmp.path() + u"/demo"_s;
        if (!QFileInfo::exists(demo))
            QVERIFY(generateDemoMirror(demo).ok());
        MainWindow w;
        QVERIFY(openAndWait(w, demo));
        const Result<Catalog> catalog = scanFileSystemMirror(demo);
        QVERIFY(catalog.ok());
        QVERIFY(selectVersions(w, catalog.value(), {{"registry.opentofu.org/hashicorp/null", "3.2.1"}}));
        AddToLockDialog first(&w, w.selectedArchivePaths());
        QSignalSpy ready(&first, &AddToLockDialog::selectionReady);
        QVERIFY(ready.wait(120000));
        first.setPlatforms({platform("linux_amd64")});
        AddToLockDialog second(&w, w.selectedArchivePaths());
        QSignalSpy ready2(&second, &AddToLockDialog::selectionReady);
        QVERIFY(ready2.wait(120000));
        QCOMPARE(second.checkedPlatforms(), QList<Platform>{platform("linux_amd64")});
    }
};

QTEST_MAIN(TestExportUi)
#include "tst_exportui.moc"
