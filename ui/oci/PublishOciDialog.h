#pragma once
// File ▸ Publish to OCI Registry… (Ctrl+Alt+P): `provender oci push` in a dialog, from the
// directory mirror or the bundle the main window shows. The repository template, the providers
// to publish (every provider of the source, checked, by default), an extra CA file, plain
// http:// to a loopback registry and the credentials tofu would use (as Open OCI Registry…).
// "Dry Run" only looks (HEAD requests) and lists every blob that would be uploaded and every one
// the registry already has, and each version's tag; "Publish" pushes (model/oci pushToOci: blobs
// the registry has are not uploaded, tags last, then read back and verified), with progress and
// Cancel through the dialog's JobTracker — a cancelled push writes no tag for a version it did
// not finish (it stops before the next blob, manifest or tag, and between upload chunks). The worker returns the OciPushReport (a value);
// the GUI thread fills results(). The result view shows the `oci_mirror` block for the tofu CLI config, with a Copy button.
//
// Publishing never changes the source: a directory mirror is only read, a bundle is imported
// into a temporary directory of the job first (as `oci push BUNDLE`).
//
// QSettings "oci/publish" keeps the last template, CA file, plain-http and credentials choice;
// templates join "oci/recentTemplates" (Open OCI Registry…'s list).

#include "model/mirror/Catalog.h"
#include "model/oci/OciMirror.h"

#include <QDialog>
#include <QProcessEnvironment>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QStandardItemModel;
class QTreeView;

namespace provender::ui {

class JobTracker;
class MainWindow;

class PublishOciDialog : public QDialog
{
    Q_OBJECT
public:
    /// The source: `window`'s directory or bundle (none for another kind: problem() says so).
    explicit PublishOciDialog(MainWindow *window, QWidget *parent = nullptr);
    /// The source given directly: a directory mirror (its catalog) or a bundle path.
    PublishOciDialog(const QString &source, bool bundle, const Catalog &catalog, QWidget *parent = nullptr);
    ~PublishOciDialog() override;

    struct Form
    {
        QString repositoryTemplate;       ///< with or without `oci://`
        QList<ProviderAddress> providers; ///< empty: every provider of the source
        QString caFile;
        bool plainHttp = false;
        bool credentials = true;
    };
    void setForm(const Form &form);
    Form form() const;
    /// Why nothing can be published now ("" when it can).
    QString problem() const;
    void setEnvironment(const QProcessEnvironment &env) { m_environment = env; }

    /// Start a dry run or a push (no-op while problem() is not empty).
    void start(bool dryRun);
    JobTracker *jobs() const { return m_jobs; }
    /// The last report (after finished()).
    const oci::OciPushReport &report() const { return m_report; }
    /// Two groups: "Versions" (provider version → repository:tag, status) and "Blobs" (what, status
    /// upload/present/mounted, repository, digest, size).
    QStandardItemModel *results() const { return m_results; }
    QString summary() const;
    /// The `oci_mirror` block of the last push ("" before one succeeded).
    QString configBlock() const;

Q_SIGNALS:
    void finished(bool dryRun, bool cancelled);

private:
    void build();
    void updateProblem();
    void showReport(bool dryRun, const oci::OciPushReport &report);

    QString m_source;
    bool m_bundle = false;
    Catalog m_catalog;
    QProcessEnvironment m_environment = QProcessEnvironment::systemEnvironment();
    oci::OciPushReport m_report;
    QString m_publishedTemplate; ///< the template of the last job (the form may change while it runs)

    QLabel *m_sourceLabel = nullptr;
    QComboBox *m_template = nullptr;
    QListWidget *m_providers = nullptr;
    QLineEdit *m_ca = nullptr;
    QCheckBox *m_plainHttp = nullptr;
    QCheckBox *m_credentials = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_dryRun = nullptr;
    QPushButton *m_publish = nullptr;
    QTreeView *m_view = nullptr;
    QStandardItemModel *m_results = nullptr;
    QLabel *m_summary = nullptr;
    QPlainTextEdit *m_block = nullptr;
    QPushButton *m_copy = nullptr;
    JobTracker *m_jobs = nullptr; ///< shown in a JobStatusRow
};

} // namespace provender::ui
