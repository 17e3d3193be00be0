#pragma once
// The lock-file editor: one window per open `.terraform.lock.hcl`.
//
//   left:  provider table (LockProviderTableModel; version/constraints editable) above the
//          selected provider's hashes (LockHashListModel: platform/archive when a mirror is open)
//   right: the file's text (HCL highlighting, inline diagnostics from the parser) above a
//          problem list (diagnostics and notes of the last mirror operation)
//
// A view of one LockDocument (model/lockitems/LockDocument.h: the bytes, their parse, the undo
// stack, every edit, the mirror operations, the file on disk). Typing is re-parsed after a short
// pause and becomes one undo step (setText); table edits and menu actions call the document's
// edits; its text and the table always show the same document. Save asks first when canonical
// writing drops comments or unknown content, or when the file changed on disk unanswered.
// Background work — the mirror scan, add hashes / upgrade, hash provenance — runs as jobs on the
// window's JobTracker (progress and Cancel in the status bar; latest run wins).
//
// When the file changes on disk after it was opened or saved (another editor, `terraform
// providers lock`, a git checkout) a bar above the text ("diskChangedBar") offers Reload (an
// undoable step to the disk's bytes) or Keep Mine (the next save overwrites).
//
// Widgets (objectName): "providerView", "hashView", "textEdit", "problemList"; actions
// "actionUndo", "actionRedo", "actionSave", "actionSaveAs", "actionOpenMirror",
// "actionAddProvider", "actionRemoveProvider", "actionRemoveHashes", "actionAddHashes",
// "actionUpgrade", "actionUpgradeAll", "actionCompareGit", "actionCompareFile", "actionCoverage",
// "actionResolveConflicts" (enabled while the text has conflict markers: opens the merge window),
// "actionCancelHashing"; the disk bar's buttons "diskReload", "diskKeepMine".

#include "model/core/JobProgress.h"
#include "model/lockitems/LockDocument.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QTableView;
class QTimer;
class QUndoStack;

namespace provender {
class LockHashListModel;
class LockProviderTableModel;
} // namespace provender

namespace provender::ui {

class DiskChangedBar;
class HclHighlighter;
class JobTracker;
class LockProblemList;
class LockCodeEditor;
class LockMergeWindow;

class LockEditorWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit LockEditorWindow(QWidget *parent = nullptr);
    ~LockEditorWindow() override;

    /// Open a lock file (replaces what is shown; the undo history starts afresh).
    bool openFile(const QString &path);
    /// Show `bytes` as an unsaved document (no file yet: Save asks for a name).
    void openBytes(const QByteArray &bytes, const QString &displayName);
    QString filePath() const { return m_doc->path(); }

    /// What the window shows and edits.
    LockDocument *lockDocument() const { return m_doc; }
    /// The text's bytes now (pending typing included).
    QByteArray currentBytes();
    const LockFile &document() const { return m_doc->lockFile(); }
    QList<LockDiagnostic> diagnostics() const { return m_doc->parsed().diagnostics; }
    bool hasErrors() const { return m_doc->hasErrors(); }
    bool isModified() const;
    QUndoStack *undoStack() const { return m_doc->undoStack(); }
    LockProviderTableModel *providerModel() const { return m_providers; }
    LockHashListModel *hashModel() const { return m_hashes; }
    LockCodeEditor *textEditor() const { return m_text; }
    JobTracker *jobs() const { return m_jobs; }
    /// Problems of the last operation and the status line, for tests and the status bar.
    QStringList notes() const { return m_doc->notes(); }
    QString lastMessage() const { return m_lastMessage; }

    // Mirror.
    /// A directory or a network mirror's URL, opened off the GUI thread (job "scan"); mirrorChanged()
    /// when done. `http`: how a URL is reached (a browser URL source's settings; default: the CLI's).
    void openMirror(const QString &location, const HttpSettings &http = {});
    void setCatalog(const Catalog &catalog);
    void setMirror(const LockMirror &mirror);
    bool hasMirror() const { return m_doc->catalog() != nullptr; }
    const Catalog *catalog() const { return m_doc->catalog(); }
    /// Platforms the mirror has archives of for the locked versions (all of its platforms when none).
    QList<Platform> mirrorPlatforms() const { return m_doc->mirrorPlatforms(); }
    /// The provenance of the lock's hashes is known for the current document.
    bool provenanceReady() const { return m_doc->provenance() != nullptr; }

    // Edit operations: each pushes one undo command. False (with lastMessage()) when refused.
    bool addProvider(const ProviderLock &lock);
    bool removeProvider(const ProviderAddress &address);
    bool setVersion(const ProviderAddress &address, const QString &version);
    bool setConstraints(const ProviderAddress &address, const QString &constraints);
    bool removeHashes(const ProviderAddress &address, const QList<HashString> &hashes);
    /// Asynchronous (the job "edit"): busyChanged(false) when done. `providers` empty: all.
    bool addHashesFromMirror(const QList<Platform> &platforms, bool includeZh, const QList<ProviderAddress> &providers = {});
    bool upgradeFromMirror(const QList<ProviderAddress> &providers = {});
    /// Replace the document by `doc` (computed elsewhere, e.g. Add to Lock File… of the main
    /// window) as one undoable step named `description`.
    bool applyDocument(const LockFile &doc, const QString &description);
    /// A mirror scan or an add-hashes / upgrade is running (edits wait for it).
    bool isBusy() const;
    /// Stops the running add-hashes / upgrade (its result is then dropped: nothing changes).
    void cancelHashing();

    bool save();
    bool saveAs(const QString &path);

    /// The file on disk differs from what was opened or last saved and the user has not yet
    /// answered the bar (Reload / Keep Mine).
    bool diskChangePending() const { return m_doc->diskChangePending(); }
    /// Look at the file on disk now (the watcher calls this; tests may too).
    void checkDisk() { m_doc->checkDisk(); }
    void reloadFromDisk(); ///< the bar's Reload
    void keepMine();       ///< the bar's Keep Mine

    /// How the window asks the user (QMessageBox by default; tests answer it themselves).
    using Prompt =
        std::function<QMessageBox::StandardButton(const QString &title, const QString &text, QMessageBox::StandardButtons buttons)>;
    void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }

    ProviderAddress selectedProvider() const;
    void selectProvider(const ProviderAddress &address);

public Q_SLOTS:
    void undo();
    void redo();
    void openFileDialog();
    void openMirrorDialog();
    void addProviderDialog();
    void removeSelectedProvider();
    void removeSelectedHashes();
    void addHashesDialog();
    void upgradeSelected();
    void upgradeAll();
    void saveAsDialog();
    void compareWithGitDialog();
    void compareWithFileDialog();
    void showCoverage();
    /// Text with conflict markers: the three-way merge window on its sides (nullptr when there
    /// are none or they are malformed); its saved result is reloaded here.
    LockMergeWindow *resolveConflicts();

Q_SIGNALS:
    void busyChanged(bool busy);
    void documentChanged();
    void mirrorChanged();
    void provenanceChanged();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildUi();
    void buildActions();
    void showText(bool typed);
    void showDiskState();
    bool report(const Result<QString> &result);
    bool canEdit();
    bool runMirrorTask(const Result<LockMirrorTask> &task, const QString &message);
    void refreshProvenance();
    void flushTextEdit();
    void updateTitle();
    void updateActions();
    void updateHashList();
    void updateProblems();
    void updateBusy();
    void showMessage(const QString &message);
    QMessageBox::StandardButton ask(const QString &title, const QString &text, QMessageBox::StandardButtons buttons);
    bool confirm(const QString &title, const QString &text);
    template<typename Window> Window *openWithCatalog();

    LockDocument *m_doc = nullptr;
    JobTracker *m_jobs = nullptr;
    std::shared_ptr<JobProgress> m_editJob;       ///< the running add-hashes / upgrade
    std::shared_ptr<JobProgress> m_provenanceJob; ///< the newest hash tracing
    bool m_busy = false;
    QString m_editorBaseline; ///< the text last put into the editor (or taken from it)
    bool m_applying = false;
    QString m_lastMessage;
    int m_messageCount = 0; ///< showMessage() calls so far (a trace's warning does not replace a newer line)
    Prompt m_prompt;

    LockProviderTableModel *m_providers = nullptr;
    LockHashListModel *m_hashes = nullptr;
    QTableView *m_providerView = nullptr;
    QTableView *m_hashView = nullptr;
    LockCodeEditor *m_text = nullptr;
    HclHighlighter *m_highlighter = nullptr;
    LockProblemList *m_problems = nullptr;
    QLabel *m_mirrorLabel = nullptr;
    DiskChangedBar *m_diskBar = nullptr;
    QTimer *m_debounce = nullptr;
    QAction *m_cancelHashingAction = nullptr;
    QList<QAction *> m_editActions;
    QList<QAction *> m_mirrorActions;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_coverageAction = nullptr;
    QAction *m_resolveAction = nullptr;
};

} // namespace provender::ui
