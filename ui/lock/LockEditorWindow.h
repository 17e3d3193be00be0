#pragma once
// The lock-file editor: one window per open `.terraform.lock.hcl`.
//
//   left:  provider table (LockProviderTableModel; version/constraints editable) above the
//          selected provider's hashes (LockHashListModel: platform/archive when a mirror is open)
//   right: the file's text (HCL highlighting, inline diagnostics from the parser) above a
//          problem list (diagnostics and notes of the last mirror operation)
//
// The text is the state. Every change — typing (re-parsed after a short pause) or an edit
// operation (lockedit::*, which rewrites canonical text) — is one QUndoCommand that swaps the
// text's bytes, so undo/redo restore exactly the bytes there were, comments included. Table and
// text always show the same document. Save writes canonical bytes atomically (saveLockFile);
// when canonical writing drops comments or unknown content the user is asked first.
// Mirror operations (add hashes for platforms, upgrade) hash archives off the GUI thread.
//
// The file on disk is watched: when it changes after it was opened or saved (another editor,
// `terraform providers lock`, a git checkout) a bar above the text ("diskChangedBar") offers
// Reload (an undoable step to the disk's bytes) or Keep Mine (the next save overwrites); saving
// over a change nobody answered asks first.
//
// Widgets (objectName): "providerView", "hashView", "textEdit", "problemList"; actions
// "actionUndo", "actionRedo", "actionSave", "actionSaveAs", "actionOpenMirror",
// "actionAddProvider", "actionRemoveProvider", "actionRemoveHashes", "actionAddHashes",
// "actionUpgrade", "actionUpgradeAll", "actionCompareGit", "actionCompareFile", "actionCoverage",
// "actionResolveConflicts" (enabled while the text has conflict markers: opens the merge window).

#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"

#include <QMainWindow>
#include <QMessageBox>

#include "model/verify/HashEngine.h"

#include <functional>
#include <memory>
#include <optional>

class QAction;
class QFileSystemWatcher;
class QFrame;
class QLabel;
class QListWidget;
class QTableView;
class QTimer;
class QUndoStack;

namespace provender {
class HashProvenanceIndex;
class LockHashListModel;
class LockProviderTableModel;
} // namespace provender

namespace provender::ui {

class HclHighlighter;
class LockCodeEditor;
class LockMergeWindow;
class SetTextCommand;

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
    QString filePath() const { return m_path; }

    /// The text's bytes now (pending typing included).
    QByteArray currentBytes();
    const LockFile &document() const;
    QList<LockDiagnostic> diagnostics() const;
    bool hasErrors() const;
    bool isModified() const;
    QUndoStack *undoStack() const { return m_undo; }
    LockProviderTableModel *providerModel() const { return m_providers; }
    LockHashListModel *hashModel() const { return m_hashes; }
    LockCodeEditor *textEditor() const { return m_text; }
    /// Problems of the last operation and the status line, for tests and the status bar.
    QStringList notes() const { return m_notes; }
    QString lastMessage() const { return m_lastMessage; }

    // Mirror.
    void openMirror(const QString &root); ///< scans off the GUI thread; mirrorChanged() when done
    void setCatalog(const Catalog &catalog);
    bool hasMirror() const { return m_catalog.has_value(); }
    const Catalog *catalog() const { return m_catalog ? &*m_catalog : nullptr; }
    /// Platforms the mirror has archives of for the locked versions (all of its platforms when none).
    QList<Platform> mirrorPlatforms() const;
    /// The provenance of the lock's hashes is known for the current document.
    bool provenanceReady() const { return m_provenanceReady; }

    // Edit operations: each pushes one undo command. False (with lastMessage()) when refused.
    bool addProvider(const ProviderLock &lock);
    bool removeProvider(const ProviderAddress &address);
    bool setVersion(const ProviderAddress &address, const QString &version);
    bool setConstraints(const ProviderAddress &address, const QString &constraints);
    bool removeHashes(const ProviderAddress &address, const QList<HashString> &hashes);
    /// Asynchronous (hashing): busyChanged(false) when done. `providers` empty: all.
    bool addHashesFromMirror(const QList<Platform> &platforms, bool includeZh, const QList<ProviderAddress> &providers = {});
    bool upgradeFromMirror(const QList<ProviderAddress> &providers = {});
    /// Replace the document by `doc` (computed elsewhere, e.g. Add to Lock File… of the main
    /// window) as one undoable step named `description`.
    bool applyDocument(const LockFile &doc, const QString &description);
    bool isBusy() const { return m_busy > 0; }
    /// Stops the running add-hashes / upgrade (its result is then dropped: nothing changes).
    void cancelHashing();
    /// Progress of the running add-hashes / upgrade (null when none), for tests and the status bar.
    std::shared_ptr<SharedHashProgress> hashProgress() const { return m_hashProgress; }

    bool save();
    bool saveAs(const QString &path);

    /// The file on disk differs from what was opened or last saved and the user has not yet
    /// answered the bar (Reload / Keep Mine).
    bool diskChangePending() const { return m_diskChangePending; }
    /// Look at the file on disk now (the watcher calls this; tests may too).
    void checkDisk();
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
    friend class SetTextCommand;
    void buildUi();
    void buildActions();
    void applyBytes(const QByteArray &bytes, bool updateEditor);
    void pushText(const QByteArray &bytes, const QString &description, bool fromEditor = false);
    bool applyEdit(const QString &description, const Result<LockFile> &result);
    bool canEdit();
    void flushTextEdit();
    void updateTitle();
    void updateActions();
    void updateHashList();
    void updateProblems();
    void refreshProvenance();
    void setBusy(bool busy);
    /// A new progress/cancel object for a hashing job; the status bar shows `message` and its percentage.
    std::shared_ptr<SharedHashProgress> startHashing(const QString &message);
    void finishHashing();
    void showMessage(const QString &message);
    QMessageBox::StandardButton ask(const QString &title, const QString &text, QMessageBox::StandardButtons buttons);
    QList<QByteArray> wantedKey() const;

    void watchPath();
    QByteArray readDisk(bool *exists) const;

    QString m_path;
    QString m_displayName;
    QFileSystemWatcher *m_watcher = nullptr;
    QFrame *m_diskBar = nullptr;
    QLabel *m_diskBarText = nullptr;
    QByteArray m_diskBytes; ///< the disk's bytes the user last saw or accepted
    bool m_diskChangePending = false;
    QByteArray m_bytes;       ///< the document's text (the state undo/redo swaps)
    QByteArray m_savedBytes;  ///< what is on disk (modified = they differ)
    QString m_editorBaseline; ///< the text last put into the editor by applyBytes
    struct Parsed;
    std::unique_ptr<Parsed> m_parsed;
    std::optional<Catalog> m_catalog;
    QList<QByteArray> m_provenanceKey;
    quint64 m_provenanceGeneration = 0;
    std::shared_ptr<SharedHashProgress> m_provenanceHashing; ///< cancelled when superseded or closed
    bool m_provenanceReady = false;
    int m_busy = 0;
    bool m_applying = false;
    QStringList m_notes;
    QString m_lastMessage;
    Prompt m_prompt;

    QUndoStack *m_undo = nullptr;
    LockProviderTableModel *m_providers = nullptr;
    LockHashListModel *m_hashes = nullptr;
    QTableView *m_providerView = nullptr;
    QTableView *m_hashView = nullptr;
    LockCodeEditor *m_text = nullptr;
    HclHighlighter *m_highlighter = nullptr;
    QListWidget *m_problems = nullptr;
    QLabel *m_mirrorLabel = nullptr;
    QTimer *m_debounce = nullptr;
    QTimer *m_hashTimer = nullptr;                      ///< polls m_hashProgress while a job runs
    std::shared_ptr<SharedHashProgress> m_hashProgress; ///< the running add-hashes / upgrade
    QAction *m_cancelHashingAction = nullptr;
    QList<QAction *> m_editActions;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_addHashesAction = nullptr;
    QAction *m_upgradeAction = nullptr;
    QAction *m_upgradeAllAction = nullptr;
    QAction *m_coverageAction = nullptr;
    QAction *m_resolveAction = nullptr;
};

} // namespace provender::ui
