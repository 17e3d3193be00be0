#pragma once
// File ▸ Pull from Registry…: `provender mirror pull` in a dialog (model/registry/MirrorPull).
// Providers typed (`ADDR[=CONSTRAINT]`, one a line) and/or from lock files (their pinned
// versions), platforms, the target directory (packed zips with indexes, or unpacked folders),
// zh: in the indexes, an extra CA file and pinned signing keys. "Dry Run" lists what would be
// fetched and how big (when the registry publishes `packages` sizes); "Pull" fetches, proves and
// places every archive, with progress and Cancel through the dialog's JobTracker (latest run
// wins). Each archive's outcome is a row of results(); a pull that put archives in place emits
// pulled(destination) (ui/registry/RegistryUi opens it in the browser).
//
// The registry's `host` blocks and credentials come from the CLI config of environment() (the
// process environment unless setEnvironment() is called), as for `provender mirror pull`.

#include "model/core/Platform.h"
#include "model/registry/MirrorPull.h"

#include <QDialog>
#include <QProcessEnvironment>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStandardItemModel;
class QTreeView;

namespace provender::ui {

class JobTracker;
class RegistryFormFields;

class PullRegistryDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PullRegistryDialog(QWidget *parent = nullptr);
    ~PullRegistryDialog() override;

    struct Form
    {
        QStringList typed;     ///< ADDR[=CONSTRAINT], one a line
        QStringList lockFiles; ///< their pinned versions
        QList<Platform> platforms;
        QString destination;
        bool unpacked = false;
        bool withZh = false;
        QString caFile;
        QString pinnedKeysFile;
    };
    void setForm(const Form &form);
    Form form() const;
    /// Why the form cannot be used ("" when it can).
    QString problem() const;
    void setEnvironment(const QProcessEnvironment &env) { m_environment = env; }

    /// Start a dry run or a pull of the form (no-op while problem() is not empty).
    void start(bool dryRun);
    JobTracker *jobs() const { return m_jobs; }
    /// One row per archive: status, provider, version, platform, size, signed by / reason.
    QStandardItemModel *results() const { return m_results; }
    /// The summary line under the results ("3 would be fetched (1.2 MiB)", "2 fetched, 1 refused").
    QString summary() const;

Q_SIGNALS:
    void finished(bool dryRun, const provender::PullReport &report);
    void pulled(const QString &destination);

private:
    void updateProblem();
    void showReport(bool dryRun, const PullReport &report);

    RegistryFormFields *m_fields = nullptr; ///< providers, lock files, platforms, CA file, pinned keys
    QLineEdit *m_destination = nullptr;
    QCheckBox *m_unpacked = nullptr;
    QCheckBox *m_withZh = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_dryRun = nullptr;
    QPushButton *m_pull = nullptr;
    QTreeView *m_view = nullptr;
    QStandardItemModel *m_results = nullptr;
    QLabel *m_summary = nullptr;
    JobTracker *m_jobs = nullptr; ///< shown in a JobStatusRow
    QProcessEnvironment m_environment = QProcessEnvironment::systemEnvironment();
};

} // namespace provender::ui
