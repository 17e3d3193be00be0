#pragma once
// Export Indexes… and Add to Lock File…, the two dialogs of the main window that write what the
// browser shows into files other tools read.
//
// ExportIndexesDialog: on open (and whenever the zh: option changes) a dry run of exportIndexes()
// off the GUI thread lists every index file that would be created or updated, stale
// <version>.json files and archives that cannot be hashed; the selected file's entry changes are
// shown as a diff. Export runs exportIndexes() for real (staged, then renamed: all or nothing),
// with progress and Cancel (Esc); exported() is emitted when files were written. The
// `network_mirror` block for a CLI configuration follows the URL typed in, with a Copy button.
// Settings: "export/url", "export/withZh".
//
// AddToLockDialog: the provider versions of the browser's selection, a lock file (Browse…), the
// platforms to hash (those of the selected archives at first, then the last ones chosen), zh:;
// Preview computes the new document off the GUI thread (addSelectionToLock) and shows the
// semantic diff (LockDiff) and the text diff; Apply opens — or reuses — the lock editor window of
// that file and applies the result there as one undoable step (nothing is saved: the editor's
// Save does). Settings: "export/lockFile", "export/lockPlatforms", "export/lockZh".
//
// Widgets (objectName): ExportIndexesDialog: "zhCheck", "previewFiles", "previewDiff",
// "previewSummary", "urlEdit", "networkMirrorBlock", "copyBlockButton", "exportButton",
// "progressBar", "statusLabel"; AddToLockDialog: "selectionList", "lockFileEdit", "browseButton",
// "platformList", "zhCheck", "previewButton", "previewSummary", "previewDiff", "applyButton",
// "progressBar", "statusLabel".

#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockSelection.h"
#include "model/mirror/IndexWriter.h"

#include "model/core/JobProgress.h"
#include <QDialog>

#include <atomic>
#include <functional>
#include <memory>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace provender::ui {

class JobTracker;
class LockEditorWindow;
class MainWindow;

class ExportIndexesDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit ExportIndexesDialog(const QString &mirrorRoot, QWidget *parent = nullptr);
    ~ExportIndexesDialog() override;

    /// The files the last dry run would create or update, relative to the mirror, sorted.
    QStringList previewPaths() const;
    /// The last report (dry run or export); nullptr before the first finishes.
    const IndexExportReport *lastReport() const { return m_report ? &*m_report : nullptr; }
    bool isRunning() const { return m_running; }
    /// The `provider_installation { network_mirror { … } }` block for `url` ("" when empty).
    static QString networkMirrorBlock(const QString &url);

public Q_SLOTS:
    void startPreview();
    void startExport();
    void cancel();          ///< stop the running dry run or export (nothing is written)
    void reject() override; ///< Esc: cancel what runs, else close

Q_SIGNALS:
    void previewReady();
    /// An export ended: ok with at least the reported files in place, or failed/cancelled
    /// (nothing written).
    void exportFinished(bool ok);
    /// Files were written under `root` (the browser rescans).
    void exported(const QString &root);

public:
    /// Tests only: called on the worker thread before each progress report is answered (and so
    /// before the cancel flag is read), so that a test can cancel at a known point of a run.
    static void setProgressGateForTests(std::function<void()> gate);

private:
    void run(bool dryRun);
    void onFinished(bool wasDry, const Result<IndexExportReport> &result);
    void showPreview(const IndexExportReport &report);
    void showFileDiff();
    void updateBlock();
    void setRunning(bool running, const QString &what);
    QString relative(const QString &path) const;

    QString m_root;
    QCheckBox *m_zh = nullptr;
    QTreeWidget *m_files = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QLabel *m_summary = nullptr;
    QLineEdit *m_url = nullptr;
    QPlainTextEdit *m_block = nullptr;
    QPushButton *m_copy = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_close = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    JobTracker *m_jobs = nullptr; ///< "export": a dry run or the export (a new dry run supersedes one that runs)
    std::shared_ptr<JobProgress> m_job;
    std::optional<IndexExportReport> m_report;
    bool m_running = false;
    bool m_runningDry = true;
};

class AddToLockDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `archivePaths`: the archives selected in `window`'s browser (MainWindow::selectedArchivePaths).
    AddToLockDialog(MainWindow *window, const QStringList &archivePaths, QWidget *parent = nullptr);
    ~AddToLockDialog() override;

    void setLockFile(const QString &path);
    void setPlatforms(const QList<Platform> &platforms);
    QList<Platform> checkedPlatforms() const;
    QList<LockSelectionItem> selection() const { return m_selection; }
    bool isBusy() const { return m_busy; }
    /// The document the last preview computed (valid after previewReady()).
    const LockFile &previewDocument() const { return m_after; }
    /// The editor the last apply used (nullptr before).
    LockEditorWindow *editor() const { return m_editor; }

public Q_SLOTS:
    void startPreview();
    /// Apply the preview in the lock editor of the file (opened or reused; a new editor is waited
    /// for while it reads the mirror). applied() tells the outcome; false when refused at once.
    bool apply();
    void browse();
    void reject() override;

Q_SIGNALS:
    void selectionReady();
    void previewReady(bool ok);
    /// Apply ended: the editor (editor()) holds the change as one undoable step, or it was refused.
    void applied(bool ok);

private:
    struct Outcome;
    void onScanned(const Result<Catalog> &result);
    void onPreviewed(const std::shared_ptr<Outcome> &out);
    bool applyIn(LockEditorWindow *editor);
    void setBusy(bool busy, const QString &what);
    void invalidatePreview();
    /// The bytes the preview starts from: the open editor's text when one shows the file.
    QByteArray baseBytes(bool *ok, QString *error) const;
    LockEditorWindow *findEditor() const;

    MainWindow *m_window = nullptr;
    QString m_root;
    QStringList m_paths;
    std::optional<Catalog> m_catalog;
    QList<LockSelectionItem> m_selection;
    QListWidget *m_selectionList = nullptr;
    QLineEdit *m_lockFile = nullptr;
    QListWidget *m_platforms = nullptr;
    QCheckBox *m_zh = nullptr;
    QPushButton *m_preview = nullptr;
    QLabel *m_summary = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QPushButton *m_apply = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    JobTracker *m_jobs = nullptr; ///< "scan" (unless the browser shows this mirror), "preview" (the newest wins)
    bool m_busy = false;
    bool m_previewValid = false;
    QByteArray m_before;
    LockFile m_after;
    QString m_description;
    LockEditorWindow *m_editor = nullptr;
};

} // namespace provender::ui
