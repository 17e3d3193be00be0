#pragma once
// The two bundle dialogs. Both run their work off the GUI thread (a JobTracker) with a progress
// bar and a Cancel button; the worker returns value types (BundleCreateReport / ImportReport) and
// only the GUI thread touches the plan models.
//
// Widgets are found by objectName in tests:
//   CreateBundleDialog: "modeAll", "modeSelection", "modeLockFiles", "lockFileList", "platformList",
//     "formatCombo", "outputEdit", "previewView", "summaryLabel", "progressBar", "createButton",
//     "cancelButton", "statusLabel".
//   ImportBundleDialog: "bundleEdit", "targetEdit", "replaceCheck", "unverifiedCheck", "zhCheck",
//     "previewButton", "planView", "summaryLabel", "progressBar", "importButton", "cancelButton",
//     "statusLabel".

#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleWriter.h"
#include "model/mirror/Catalog.h"

#include "model/core/JobProgress.h"
#include <QDialog>

#include <atomic>
#include <memory>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableView;
class QTimer;

namespace provender {
class BundleSelectionModel;
class ImportPlanModel;
} // namespace provender

namespace provender::ui {

class JobTracker;

class CreateBundleDialog : public QDialog
{
    Q_OBJECT
public:
    /// `selectedPaths`: archive paths selected in the browser (offers "Selected archives").
    CreateBundleDialog(const QString &mirrorRoot, const QStringList &selectedPaths, QWidget *parent = nullptr);
    ~CreateBundleDialog() override;

    void addLockFiles(const QStringList &files);
    void setOutputPath(const QString &path);
    bool isBusy() const;

Q_SIGNALS:
    /// The source mirror's scan ended (the preview is filled).
    void catalogLoaded();
    /// A bundle was written (or the run failed: ok false, message says why).
    void finishedCreating(bool ok, const QString &message);

protected:
    void reject() override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    QFormLayout *buildOutputForm(QPushButton **browse);
    void syncOutputSuffix(); ///< the output name's suffix in step with the format
    void onScanned(const Result<Catalog> &result);
    void updatePreview();
    void updateButtons();
    void start();
    void onCreated(const Result<BundleCreateReport> &result);
    void chooseOutput();
    void chooseLockFiles();
    QList<Platform> checkedPlatforms() const;

    QString m_root;
    QStringList m_selectedPaths;
    Catalog m_catalog;
    bool m_catalogReady = false;
    BundleSelection m_selection;

    QButtonGroup *m_mode = nullptr;
    QListWidget *m_lockList = nullptr;
    QListWidget *m_platformList = nullptr;
    QComboBox *m_format = nullptr;
    QLineEdit *m_output = nullptr;
    QCheckBox *m_withZh = nullptr;
    QTableView *m_preview = nullptr;
    BundleSelectionModel *m_model = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_createButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    JobTracker *m_jobs = nullptr;       ///< "scan" (the source mirror), "create"
    std::shared_ptr<JobProgress> m_job; ///< the running create
};

class ImportBundleDialog : public QDialog
{
    Q_OBJECT
public:
    ImportBundleDialog(const QString &bundlePath, const QString &targetDir, QWidget *parent = nullptr);
    ~ImportBundleDialog() override;

    bool isBusy() const;
    ImportPlanModel *planModel() const { return m_model; }

public Q_SLOTS:
    /// Dry run: verify the bundle and show what the import would do. Nothing changes on disk.
    void preview();
    /// The import itself (enabled after a preview that is not blocked).
    void import();

Q_SIGNALS:
    void previewFinished(bool ok);
    /// The import ended; on success `targetDir` holds the merged mirror.
    void importFinished(bool ok, const QString &targetDir);

protected:
    void reject() override;

private:
    void run(bool dryRun);
    void onFinished(const Result<ImportReport> &result);
    void invalidatePlan();
    void updateButtons();

    QLineEdit *m_bundle = nullptr;
    QLineEdit *m_target = nullptr;
    QCheckBox *m_replace = nullptr;
    QCheckBox *m_unverified = nullptr;
    QCheckBox *m_withZh = nullptr;
    QPushButton *m_previewButton = nullptr;
    QTableView *m_plan = nullptr;
    ImportPlanModel *m_model = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_importButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    JobTracker *m_jobs = nullptr;       ///< "import" (a preview or the import)
    std::shared_ptr<JobProgress> m_job; ///< the running one
    bool m_runIsDry = true;
    bool m_planValid = false;
};

} // namespace provender::ui
