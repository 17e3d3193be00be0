#pragma once
// File ▸ Open Registry…: an origin registry in the browser (model/registry/RegistrySource). The
// host (default registry.opentofu.org: typed `NS/TYPE` addresses get it), providers typed
// (`ADDR[=CONSTRAINT]`, one a line) and/or a lock file (its pinned versions), platforms (empty:
// every platform each version lists), an extra CA file and pinned signing keys. The browser then
// shows versions ▸ platforms with their verdicts and the signed anchor ("signature (… signed by
// key ID …)") in the details pane.
//
// On the command line: `provender 'registry:HOST?provider=NS/TYPE[=CONSTRAINT]&platform=OS_ARCH&lock=FILE&ca=FILE&pinned=FILE'`
// (every item repeatable but ca/pinned; at least one provider or lock) — openRegistryArgument().

#include "model/core/Platform.h"
#include "model/core/Result.h"
#include "model/registry/MirrorPull.h"

#include <QDialog>
#include <QProcessEnvironment>

class QLabel;
class QLineEdit;
class QDialogButtonBox;

namespace provender::ui {

class RegistryFormFields;

class MainWindow;

struct RegistryOpenForm
{
    QString host = QStringLiteral("registry.opentofu.org");
    QStringList typed; ///< ADDR[=CONSTRAINT]; NS/TYPE gets `host`
    QStringList lockFiles;
    QList<Platform> platforms;
    QString caFile;
    QString pinnedKeysFile;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment(); ///< CLI config, credentials
};

/// The providers of `form` (typed, then the lock files'), or the first problem.
Result<QList<PullRequest>> registryRequests(const RegistryOpenForm &form);
/// Open `form` in `window` (MainWindow::openMadeSource with a RegistrySource); false with
/// *error when the form is not usable.
bool openRegistry(MainWindow *window, const RegistryOpenForm &form, QString *error = nullptr);
/// `registry:HOST?…` (see above): parsed and opened; false when `arg` is not such a text (or,
/// with *error set, when it is one that cannot be used).
bool openRegistryArgument(MainWindow *window, const QString &arg, QString *error = nullptr);

class OpenRegistryDialog : public QDialog
{
    Q_OBJECT
public:
    explicit OpenRegistryDialog(QWidget *parent = nullptr);
    void setForm(const RegistryOpenForm &form);
    RegistryOpenForm form() const;
    /// Why the form cannot be used ("" when it can).
    QString problem() const;

private:
    void updateProblem();
    QLineEdit *m_host = nullptr;
    RegistryFormFields *m_fields = nullptr; ///< providers, lock files, platforms, CA file, pinned keys
    QLabel *m_problem = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QProcessEnvironment m_environment = QProcessEnvironment::systemEnvironment();
};

} // namespace provender::ui
