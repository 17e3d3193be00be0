// LockEditorWindow offscreen: edits with undo/redo compared byte for byte, text/table sync,
// inline diagnostics, save/close prompts, coverage matrix, the lock windows' jobs (latest run
// wins, cancel). Expected values: terraform's own
// `providers lock -fs-mirror` output (skipped without terraform), hashes computed by
// make_lock_mirror.py (Python), and lock files written by hand.

#include "model/lockfile/LockWriter.h"
#include "model/lockitems/CoverageMatrixModel.h"
#include "model/lockitems/LockHashListModel.h"
#include "model/lockitems/LockProviderTableModel.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/TerraformLock.h"
#include "tests/support/TestSupport.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockCodeEditor.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorWindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <cstdio>

#include <memory>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

const char *kAlpha = "example.test/ns/alpha";

using test::addr;
using test::platform;
using test::writeFile;

const QByteArray kHeader = "# This file is maintained automatically by \"tofu init\".\n"
                           "# Manual edits may be lost in future updates.\n";

} // namespace

class TestLockEditor : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<test::LockMirrorFixture> m_fixture;
    Catalog m_fixtureCatalog;

    QString py(const char *address, const char *version, const char *plat, const char *field) const
    {
        return m_fixture->expected(address, version, plat, field);
    }

    static void answerAll(LockEditorWindow &w, QMessageBox::StandardButton answer, QStringList *asked = nullptr)
    {
        w.setPrompt([answer, asked](const QString &title, const QString &, QMessageBox::StandardButtons) {
            if (asked)
                *asked << title;
            return answer;
        });
    }

    /// Writes `bytes` to `name` in the temporary folder and opens it in `w` (prompts: Discard).
    /// The file's path, "" when it could not be written or opened.
    QString openFixture(LockEditorWindow &w, const QString &name, const QByteArray &bytes)
    {
        const QString path = m_tmp.path() + u'/' + name;
        answerAll(w, QMessageBox::Discard);
        return writeFile(path, bytes) && w.openFile(path) ? path : QString();
    }

    static bool waitIdle(LockEditorWindow &w)
    {
        return QTest::qWaitFor([&w] { return !w.isBusy(); }, 120000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(u"tst_lockeditor"_s);
        m_fixture = std::make_unique<test::LockMirrorFixture>(QList<test::FixtureArchive>{
            {kAlpha, "1.0.0", "linux_amd64"},
            {kAlpha, "1.0.0", "darwin_arm64"},
            {kAlpha, "1.1.0", "linux_amd64"},
            {kAlpha, "2.0.0", "linux_amd64"},
        });
        QVERIFY2(m_fixture->error().isEmpty(), qPrintable(m_fixture->error()));
        Result<Catalog> c = scanFileSystemMirror(m_fixture->root());
        QVERIFY(c.ok());
        m_fixtureCatalog = c.value();
    }

    void cleanupTestCase() { QSettings().clear(); }

    /// Every synchronous edit operation: the bytes after it (written by hand in canonical form),
    /// then undo gives back the exact bytes before it (comments included), redo the bytes after.
    void editOperations_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QByteArray>("after");
        // The canonical blocks, written by hand: hashicorp/aaa with `lines` inside, and null.
        const auto aaa = [](const QByteArray &lines) -> QByteArray {
            return "\nprovider \"registry.opentofu.org/hashicorp/aaa\" {\n" + lines + "}\n\n";
        };
        const QByteArray bothHashes = "  hashes = [\n"
                                      "    \"h1:aaaa=\",\n"
                                      "    \"zh:0000000000000000000000000000000000000000000000000000000000000000\",\n"
                                      "  ]\n";
        const QByteArray tail = "provider \"registry.opentofu.org/hashicorp/null\" {\n"
                                "  version = \"3.2.2\"\n"
                                "  hashes = [\n"
                                "    \"h1:nnnn=\",\n"
                                "  ]\n"
                                "}\n";
        QTest::newRow("add provider") << u"addProvider"_s
                                      << kHeader
                + "\nprovider \"registry.opentofu.org/acme/widgets\" {\n"
                  "  version     = \"1.1.0\"\n"
                  "  constraints = \"~> 1.0\"\n"
                  "}\n"
                + aaa("  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n" + bothHashes) + tail;
        QTest::newRow("remove provider") << u"removeProvider"_s << kHeader + "\n" + tail;
        QTest::newRow("set version") << u"setVersion"_s
                                     << kHeader + aaa("  version     = \"1.2.0\"\n  constraints = \">= 1.0.0\"\n") + tail;
        QTest::newRow("set constraints") << u"setConstraints"_s
                                         << kHeader + aaa("  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n" + bothHashes) + tail;
        QTest::newRow("remove constraints") << u"clearConstraints"_s << kHeader + aaa("  version = \"1.0.0\"\n" + bothHashes) + tail;
        QTest::newRow("remove hash") << u"removeHash"_s
                                     << kHeader
                + aaa("  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n    \"h1:aaaa=\",\n  ]\n") + tail;
    }

    void editOperations()
    {
        QFETCH(QString, operation);
        QFETCH(QByteArray, after);
        // Not canonical on purpose: a comment, unsorted hashes, odd spacing.
        const QByteArray before = kHeader
            + "# keep me\n"
              "provider \"registry.opentofu.org/hashicorp/null\" {\n"
              "  version = \"3.2.2\"\n"
              "  hashes = [\"h1:nnnn=\"]\n"
              "}\n"
              "provider \"registry.opentofu.org/hashicorp/aaa\" {\n"
              "  version = \"1.0.0\"\n"
              "  constraints = \">= 1.0.0\"\n"
              "  hashes = [\"zh:0000000000000000000000000000000000000000000000000000000000000000\", \"h1:aaaa=\"]\n"
              "}\n";
        const QString path = m_tmp.path() + u"/ops/"_s + operation + u".hcl"_s;
        QVERIFY(writeFile(path, before));
        LockEditorWindow w;
        QVERIFY(w.openFile(path));
        QVERIFY(!w.hasErrors());
        QCOMPARE(w.currentBytes(), before);
        const ProviderAddress aaa = addr("registry.opentofu.org/hashicorp/aaa");
        bool ok = false;
        if (operation == u"addProvider"_s) {
            ProviderLock lock;
            lock.address = addr("registry.opentofu.org/acme/widgets");
            lock.version = Version::parse(u"1.1.0").value();
            lock.constraints = VersionConstraints::parse(u"~> 1.0").value();
            ok = w.addProvider(lock);
            QVERIFY(!w.addProvider(lock)); // already locked: refused, nothing pushed
        } else if (operation == u"removeProvider"_s) {
            ok = w.removeProvider(aaa);
        } else if (operation == u"setVersion"_s) {
            QVERIFY(!w.setVersion(aaa, u"1.2"_s)); // not a canonical version
            ok = w.setVersion(aaa, u"1.2.0"_s);
        } else if (operation == u"setConstraints"_s) {
            ok = w.setConstraints(aaa, u"~> 1.0"_s);
        } else if (operation == u"clearConstraints"_s) {
            ok = w.setConstraints(aaa, QString());
        } else if (operation == u"removeHash"_s) {
            ok = w.removeHashes(aaa, {HashString::parse(u"zh:0000000000000000000000000000000000000000000000000000000000000000").value()});
        }
        QVERIFY2(ok, qPrintable(w.lastMessage()));
        QCOMPARE(w.undoStack()->count(), 1);
        QCOMPARE(w.currentBytes(), after);
        QCOMPARE(w.textEditor()->toPlainText().toUtf8(), after);
        QVERIFY(w.isWindowModified());
        w.undo();
        QCOMPARE(w.currentBytes(), before);
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.textEditor()->toPlainText().contains(u"# keep me"_s));
        w.redo();
        QCOMPARE(w.currentBytes(), after);
        // Undo/Redo are also menu actions with the standard shortcuts.
        auto *undoAction = w.findChild<QAction *>(u"actionUndo"_s);
        QVERIFY(undoAction);
        QCOMPARE(undoAction->shortcut(), QKeySequence(QKeySequence::Undo));
        undoAction->trigger();
        QCOMPARE(w.currentBytes(), before);
        w.findChild<QAction *>(u"actionRedo"_s)->trigger();
        QCOMPARE(w.currentBytes(), after);
        answerAll(w, QMessageBox::Discard);
    }

    /// Add hashes for two platforms from a mirror whose hashes Python computed; upgrade within
    /// constraints to the newest version the mirror has; both undo to the exact bytes.
    void mirrorOperations()
    {
        const QByteArray before = kHeader
            + "\nprovider \"example.test/ns/alpha\" {\n"
              "  version     = \"1.0.0\"\n"
              "  constraints = \"~> 1.0\"\n"
              "}\n";
        LockEditorWindow w;
        QVERIFY(!openFixture(w, u"mirror-ops.hcl"_s, before).isEmpty());
        QVERIFY(!w.addHashesFromMirror({platform("linux_amd64")}, false)); // no mirror yet
        w.setCatalog(m_fixtureCatalog);
        QCOMPARE(w.mirrorPlatforms(), (QList<Platform>{platform("darwin_arm64"), platform("linux_amd64")}));

        QVERIFY(w.addHashesFromMirror({platform("linux_amd64"), platform("darwin_arm64")}, true));
        QVERIFY(waitIdle(w));
        QStringList hashes{py(kAlpha, "1.0.0", "linux_amd64", "h1"), py(kAlpha, "1.0.0", "darwin_arm64", "h1"),
                           py(kAlpha, "1.0.0", "linux_amd64", "zh"), py(kAlpha, "1.0.0", "darwin_arm64", "zh")};
        std::sort(hashes.begin(), hashes.end(), [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
        QByteArray added = kHeader
            + "\nprovider \"example.test/ns/alpha\" {\n"
              "  version     = \"1.0.0\"\n"
              "  constraints = \"~> 1.0\"\n"
              "  hashes = [\n";
        for (const QString &h : hashes)
            added += "    \"" + h.toUtf8() + "\",\n";
        added += "  ]\n}\n";
        QCOMPARE(w.currentBytes(), added);
        QVERIFY(w.notes().isEmpty());
        // The hash list traces each hash to its platform once provenance is built.
        QTRY_VERIFY(w.provenanceReady());
        QCOMPARE(w.providerModel()->index(0, LockProviderTableModel::PlatformsColumn).data().toString(), u"darwin_arm64, linux_amd64"_s);
        QCOMPARE(w.hashModel()->rowCount(), 4);

        // Upgrade: ~> 1.0 allows 1.1.0 (not 2.0.0); the new version gets its own hashes only
        // (every platform the mirror has for it: linux_amd64).
        QVERIFY(w.upgradeFromMirror());
        QVERIFY(waitIdle(w));
        const QByteArray upgraded = kHeader
            + "\nprovider \"example.test/ns/alpha\" {\n"
              "  version     = \"1.1.0\"\n"
              "  constraints = \"~> 1.0\"\n"
              "  hashes = [\n"
              "    \""
            + py(kAlpha, "1.1.0", "linux_amd64", "h1").toUtf8()
            + "\",\n"
              "  ]\n}\n";
        QCOMPARE(w.currentBytes(), upgraded);
        QCOMPARE(w.undoStack()->count(), 2);
        w.undo();
        QCOMPARE(w.currentBytes(), added);
        w.undo();
        QCOMPARE(w.currentBytes(), before);
        w.redo();
        w.redo();
        QCOMPARE(w.currentBytes(), upgraded);
        // Up to date now: nothing is pushed.
        QVERIFY(w.upgradeFromMirror());
        QVERIFY(waitIdle(w));
        QCOMPARE(w.undoStack()->count(), 2);
    }

    /// Typing re-parses after a pause: the table follows the text, errors show inline and block
    /// table edits, and undo covers typed changes too.
    void textTableSync()
    {
        const QByteArray before = test::tofuNullLock("3.2.2");
        LockEditorWindow w;
        QVERIFY(!openFixture(w, u"sync.hcl"_s, before).isEmpty());
        QCOMPARE(w.providerModel()->dump(), u"registry.opentofu.org/hashicorp/null | 3.2.2 |  | none | \n"_s);

        QString text = QString::fromUtf8(before);
        text.replace(u"3.2.2"_s, u"3.2.1"_s);
        w.textEditor()->setPlainText(text);
        QVERIFY(w.isModified());
        QTRY_COMPARE(w.providerModel()->index(0, LockProviderTableModel::VersionColumn).data().toString(), u"3.2.1"_s);
        QCOMPARE(w.undoStack()->count(), 1);

        // A bad version: the parser's diagnostic appears in the problem list and on the line.
        text.replace(u"3.2.1"_s, u"3.2"_s);
        w.textEditor()->setPlainText(text);
        QTRY_VERIFY(w.hasErrors());
        QCOMPARE(w.textEditor()->diagnostics().size(), w.diagnostics().size());
        const LockDiagnostic d = w.diagnostics().constFirst();
        QCOMPARE(d.range.line, 5);
        QVERIFY(!w.textEditor()->messagesForLine(5).isEmpty());
        auto *problems = w.findChild<QListWidget *>(u"problemList"_s);
        QVERIFY(problems->item(0)->text().startsWith(u"5:"_s));
        QVERIFY(problems->item(0)->text().contains(d.summary));
        QVERIFY(!w.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s));
        QVERIFY(!w.save());

        // Undo the typed changes back to the file's bytes.
        w.undo();
        QCOMPARE(w.providerModel()->index(0, LockProviderTableModel::VersionColumn).data().toString(), u"3.2.1"_s);
        w.undo();
        QCOMPARE(w.currentBytes(), before);
        QVERIFY(!w.isModified());

        // A table edit goes through the model (as the view's editor would) and rewrites the text.
        QVERIFY(w.providerModel()->setData(w.providerModel()->index(0, LockProviderTableModel::ConstraintsColumn), u">= 3.0.0"_s));
        QTRY_VERIFY(w.currentBytes().contains("constraints = \">= 3.0.0\""));
        QCOMPARE(w.textEditor()->toPlainText().toUtf8(), w.currentBytes());
    }

    /// Save warns before dropping comments; close prompts for unsaved changes.
    void saveAndClose()
    {
        const QByteArray before = "# my comment\n" + kHeader
            + "provider \"registry.opentofu.org/hashicorp/null\" {\n"
              "  version = \"3.2.2\"\n"
              "}\n";
        const QByteArray canonical = kHeader
            + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n"
              "  version = \"3.2.2\"\n"
              "}\n";
        const QString path = m_tmp.path() + u"/save.hcl"_s;
        QVERIFY(writeFile(path, before));
        LockEditorWindow w;
        QStringList asked;
        QVERIFY(w.openFile(path));
        answerAll(w, QMessageBox::Cancel, &asked);
        QVERIFY(!w.save());
        QCOMPARE(asked, QStringList{u"Save in Canonical Form?"_s});
        QCOMPARE(test::readFile(path), before);
        answerAll(w, QMessageBox::Save, &asked);
        QVERIFY(w.save());
        QCOMPARE(test::readFile(path), canonical);
        QCOMPARE(w.currentBytes(), canonical);
        QVERIFY(!w.isModified());
        QVERIFY(!w.isWindowModified());

        // Unsaved change: close asks; Cancel keeps the window, Discard closes.
        w.show();
        QVERIFY(w.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s));
        QVERIFY(w.windowTitle().contains(u"[*]"_s));
        QVERIFY(w.isWindowModified());
        asked.clear();
        answerAll(w, QMessageBox::Cancel, &asked);
        QVERIFY(!w.close());
        QCOMPARE(asked, QStringList{u"Unsaved Changes"_s});
        QVERIFY(w.isVisible());
        answerAll(w, QMessageBox::Discard, &asked);
        QVERIFY(w.close());
        QCOMPARE(test::readFile(path), canonical);
    }

    /// Another program rewrites the file while it is open: the bar offers Reload / Keep Mine, and
    /// saving over an unanswered change asks first.
    void changedOnDisk()
    {
        const QByteArray v1 = test::tofuNullLock("3.2.2");
        const QByteArray v2 = test::tofuNullLock("3.2.3");
        LockEditorWindow w;
        w.show();
        const QString path = openFixture(w, u"disk.hcl"_s, v1);
        QVERIFY(!path.isEmpty());
        auto *bar = w.findChild<QWidget *>(u"diskChangedBar"_s);
        QVERIFY(bar);
        QVERIFY(!bar->isVisible());

        // Replaced by a rename, as tofu and git write it: the watcher must still see it.
        QVERIFY(writeFile(path + u".tmp"_s, v2));
        QVERIFY(::rename(QFile::encodeName(path + u".tmp"_s).constData(), QFile::encodeName(path).constData()) == 0);
        QTRY_VERIFY(w.diskChangePending());
        QVERIFY(bar->isVisible());
        // Reload: the disk's bytes, one undo step back to ours.
        auto *reload = bar->findChild<QPushButton *>(u"diskReload"_s);
        QVERIFY(reload);
        reload->click();
        QCOMPARE(w.currentBytes(), v2);
        QVERIFY(!w.isModified());
        QVERIFY(!bar->isVisible());
        w.undo();
        QCOMPARE(w.currentBytes(), v1);
        w.redo();

        // Edit, then the file changes underneath: Keep Mine, and the next save writes ours without asking.
        QVERIFY(w.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s));
        const QByteArray mine = w.currentBytes();
        QVERIFY(writeFile(path, v1));
        QTRY_VERIFY(w.diskChangePending());
        bar->findChild<QPushButton *>(u"diskKeepMine"_s)->click();
        QVERIFY(!w.diskChangePending());
        QVERIFY(w.isModified());
        QStringList asked;
        answerAll(w, QMessageBox::Save, &asked);
        QVERIFY(w.save());
        QVERIFY(asked.isEmpty());
        QCOMPARE(test::readFile(path), mine);

        // A change nobody answered: saving asks; Cancel leaves the other program's bytes alone.
        QVERIFY(w.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.0"_s));
        QVERIFY(writeFile(path, v2));
        answerAll(w, QMessageBox::Cancel, &asked);
        QVERIFY(!w.save());
        QCOMPARE(asked, QStringList{u"File Changed on Disk"_s});
        QCOMPARE(test::readFile(path), v2);
        QVERIFY(w.diskChangePending());
        answerAll(w, QMessageBox::Save, &asked);
        QVERIFY(w.save());
        QVERIFY(test::readFile(path) != v2);
        QVERIFY(!w.diskChangePending());
    }

    /// The brief's scenario on a corpus file and the demo mirror: add hashes for two platforms,
    /// undo, redo, save; terraform providers lock -fs-mirror on the same input gives the same bytes.
    void corpusAgainstTerraform()
    {
        const QString corpus = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(corpus, u"lockfiles"_s);
        // 017: a tofu lock file with registry.opentofu.org/hashicorp/null 3.2.2 and random 3.6.2,
        // both in the demo mirror for darwin_arm64 and linux_amd64.
        const QByteArray input = test::readFile(corpus + u"/017.terraform.lock.hcl"_s);
        if (input.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Corpus, QStringLiteral("corpus file 017.terraform.lock.hcl not found"));
        const QString mirror = m_tmp.path() + u"/demo"_s;
        const Result<DemoMirrorReport> demo = generateDemoMirror(mirror);
        QVERIFY2(demo.ok(), demo.ok() ? "" : qPrintable(demo.error().message));
        const Result<Catalog> catalog = scanFileSystemMirror(mirror);
        QVERIFY(catalog.ok());

        const QString path = m_tmp.path() + u"/corpus/.terraform.lock.hcl"_s;
        QVERIFY(writeFile(path, input));
        LockEditorWindow w;
        answerAll(w, QMessageBox::Save);
        QVERIFY(w.openFile(path));
        QVERIFY(!w.hasErrors());
        w.setCatalog(catalog.value());
        const QList<ProviderAddress> providers{addr("registry.opentofu.org/hashicorp/null"),
                                               addr("registry.opentofu.org/hashicorp/random")};
        QVERIFY(w.addHashesFromMirror({platform("linux_amd64"), platform("darwin_arm64")}, false, providers));
        QVERIFY(waitIdle(w));
        const QByteArray after = w.currentBytes();
        QVERIFY(after != input);
        QVERIFY2(w.notes().isEmpty(), qPrintable(w.notes().join(u'\n')));
        w.undo();
        QCOMPARE(w.currentBytes(), input);
        w.redo();
        QCOMPARE(w.currentBytes(), after);
        QVERIFY(w.save());
        const QByteArray saved = test::readFile(path);
        QCOMPARE(saved, after);

        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform providers lock is skipped"));
        // terraform: a configuration requiring every locked provider with the lock's constraints,
        // `providers lock -fs-mirror=DEMO -platform=... null random` on the original input.
        QList<test::TerraformRequirement> required;
        for (const ProviderLock &p : parseLockFile(input).document.providers)
            required.append({p.address.toString(), p.constraints.toString()});
        QStringList names;
        for (const ProviderAddress &p : providers)
            names << p.toString();
        const test::TerraformLockRun tf =
            test::terraformProvidersLock(m_tmp.path() + u"/tf"_s, input, required, mirror, {u"linux_amd64"_s, u"darwin_arm64"_s}, names);
        QVERIFY2(tf.run.exitCode == 0, tf.run.err.constData());
        QByteArray ours = saved;
        // We keep the file's own header (tofu); terraform writes its own.
        ours.replace("\"tofu init\"", "\"terraform init\"");
        QCOMPARE(ours, tf.lockFile);
    }

    /// Jobs in the lock windows (ui/JobTracker): a run started while an older one of the same
    /// window still runs supersedes it — only the newest result is shown — and Cancel (the
    /// status bar's button, or cancel()) drops the result and says so.
    void jobsLatestRunWinsAndCancel()
    {
        QSettings().remove(QString(CoverageMatrixWindow::kSettingsKey));
        const QByteArray text = "provider \"example.test/ns/alpha\" {\n  version = \"1.0.0\"\n  hashes = [\""
            + py(kAlpha, "1.0.0", "linux_amd64", "h1").toUtf8() + "\"]\n}\n";
        const LockFile lock = parseLockFile(text).document;

        // Coverage: the first check (every platform) is superseded by the second (two chosen).
        CoverageMatrixWindow coverage;
        QSignalSpy updated(&coverage, &CoverageMatrixWindow::matrixUpdated);
        coverage.setInputs(lock, m_fixtureCatalog, u"test.hcl"_s);
        QVERIFY(coverage.isBusy());
        coverage.setPlatforms({platform("linux_amd64"), platform("windows_amd64")});
        QTRY_VERIFY(!coverage.isBusy());
        QTest::qWait(50);
        QCOMPARE(updated.size(), 1);
        QCOMPARE(coverage.model()->dump(), u"example.test/ns/alpha 1.0.0: ✓ verified | – missing\n"_s);
        // Cancelled: the matrix stays, the status line says so.
        coverage.setPlatforms({platform("darwin_arm64")});
        coverage.cancel();
        QTRY_VERIFY(!coverage.isBusy());
        QTest::qWait(50);
        QCOMPARE(updated.size(), 1);
        QCOMPARE(coverage.model()->dump(), u"example.test/ns/alpha 1.0.0: ✓ verified | – missing\n"_s);
        auto *status = coverage.findChild<QLabel *>(u"statusLabel"_s);
        QVERIFY2(status->text().contains(u"cancelled"_s), qPrintable(status->text()));
        QSettings().remove(QString(CoverageMatrixWindow::kSettingsKey));

        // Editor: tracing the hashes of 1.0.0 is superseded by the version change to 1.1.0
        // (which drops the hashes): only the second trace arrives.
        LockEditorWindow w;
        answerAll(w, QMessageBox::Discard);
        w.openBytes(text, u"jobs.hcl"_s);
        QSignalSpy traced(&w, &LockEditorWindow::provenanceChanged);
        w.setCatalog(m_fixtureCatalog);
        QVERIFY(w.setVersion(addr(kAlpha), u"1.1.0"_s));
        QTRY_VERIFY(w.provenanceReady());
        QTest::qWait(50);
        QCOMPARE(traced.size(), 1);
        QCOMPARE(w.providerModel()->index(0, LockProviderTableModel::PlatformsColumn).data().toString(), QString());
        // Add hashes, cancelled from the status bar: nothing changes.
        const QByteArray before = w.currentBytes();
        QVERIFY(w.addHashesFromMirror({platform("linux_amd64")}, false));
        QVERIFY(w.isBusy());
        QVERIFY(!w.removeProvider(addr(kAlpha))); // edits wait for it
        auto *cancel = w.findChild<QToolButton *>(u"jobCancel"_s);
        QVERIFY(cancel);
        cancel->click();
        QVERIFY(waitIdle(w));
        QCOMPARE(w.currentBytes(), before);
        QCOMPARE(w.undoStack()->count(), 1);
        QVERIFY2(w.lastMessage().startsWith(u"Cancelled"_s), qPrintable(w.lastMessage()));

        // Diff: the trace for the first pair of texts is superseded by the second pair's.
        LockDiffWindow diff;
        QSignalSpy diffTraced(&diff, &LockDiffWindow::provenanceChanged);
        diff.setCatalog(m_fixtureCatalog);
        diff.setTexts(QByteArray(), u"old"_s, text, u"first"_s);
        diff.setTexts(QByteArray(), u"old"_s, before, u"second"_s);
        QTRY_VERIFY(diff.provenanceReady());
        QTest::qWait(50);
        QCOMPARE(diffTraced.size(), 1);
    }

    /// The coverage window over the Python-made mirror: platforms remembered, CSV exported,
    /// a click names the archive.
    void coverage()
    {
        QSettings().remove(QString(CoverageMatrixWindow::kSettingsKey));
        const LockFile lock = parseLockFile("provider \"example.test/ns/alpha\" {\n  version = \"1.0.0\"\n  hashes = [\""
                                            + py(kAlpha, "1.0.0", "linux_amd64", "h1").toUtf8() + "\"]\n}\n")
                                  .document;
        CoverageMatrixWindow w;
        QSignalSpy updated(&w, &CoverageMatrixWindow::matrixUpdated);
        w.setInputs(lock, m_fixtureCatalog, u"test.hcl"_s);
        QTRY_VERIFY(!w.isBusy());
        QCOMPARE(w.model()->dump(), u"example.test/ns/alpha 1.0.0: ✗ mismatch | ✓ verified\n"_s); // darwin_arm64, linux_amd64
        w.setPlatforms({platform("linux_amd64"), platform("windows_amd64")});
        QTRY_VERIFY(!w.isBusy());
        QCOMPARE(w.model()->dump(), u"example.test/ns/alpha 1.0.0: ✓ verified | – missing\n"_s);
        // Remembered for the next window.
        CoverageMatrixWindow again;
        QCOMPARE(again.platforms(), (QList<Platform>{platform("linux_amd64"), platform("windows_amd64")}));

        const QString csv = m_tmp.path() + u"/coverage.csv"_s;
        QVERIFY(w.exportCsv(csv));
        QCOMPARE(test::readFile(csv),
                 QByteArray("provider,version,linux_amd64,windows_amd64\r\nexample.test/ns/alpha,1.0.0,verified,missing\r\n"));

        QSignalSpy activated(&w, &CoverageMatrixWindow::archiveActivated);
        w.show();
        auto *view = w.findChild<QTableView *>(u"coverageView"_s);
        QVERIFY(view);
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(w.model()->index(0, 0)).center());
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QString::fromLatin1(kAlpha));
        QCOMPARE(activated.at(0).at(2).toString(), u"linux_amd64"_s);
        QCOMPARE(QFileInfo(activated.at(0).at(3).toString()).canonicalFilePath(),
                 QFileInfo(py(kAlpha, "1.0.0", "linux_amd64", "path")).canonicalFilePath());
        QSettings().remove(QString(CoverageMatrixWindow::kSettingsKey));
    }
};

QTEST_MAIN(TestLockEditor)
#include "tst_lockeditor.moc"
