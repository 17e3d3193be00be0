#pragma once
// File ▸ Open OCI Registry… (Ctrl+Alt+O): an OCI registry used as an `oci_mirror` in the browser
// (model/oci/OciSource). The repository template (`HOST/PATH/${namespace}/${type}`, `oci://` optional;
// the recent ones in an editable list), where the providers come from — typed addresses, lock files
// (their providers and versions; the browser then also checks every archive against them, as
// "Check against Lock Files…" does) or the registry's `_catalog` (every repository that fits the
// template; "List Catalog" fills the typed list from it first, off the GUI thread) — the provider
// hostname for addresses and repositories when the template has no `${hostname}`, an extra CA file,
// plain http:// to a loopback registry, whether to use the credentials tofu would (oci_credentials
// of the CLI config, Docker-style auth files, helpers only when configured: OciAuth.h) and pinned
// keys for signed provenance. TLS peer verification is always on: there is no "insecure" switch,
// as for every other source; a registry with its own CA gets the CA file.
//
// The last form is kept in QSettings ("oci/open"; "oci/recentTemplates", at most 10). Opening runs
// on the main window's open job: when nothing can be listed the browser says why (unreachable,
// TLS, 401 with or without credentials, "does not answer as an OCI registry", no such
// repositories) — OciSource::setRequireAnswer.
//
// On the command line: `provender
// 'oci://HOST/PATH/${namespace}/${type}?provider=NS/TYPE&lock=FILE&ca=FILE&hostname=H&pinned=FILE&plain-http=1&no-credentials=1'` (provider
// and lock repeatable; without provider and lock, the registry's catalog) — openOciArgument().

#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/oci/OciMirror.h"

#include <QDialog>
#include <QHash>
#include <QProcessEnvironment>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;

namespace provender::ui {

class JobTracker;
class MainWindow;

struct OciOpenForm
{
    enum class Providers { Typed, LockFiles, Catalog };
    QString repositoryTemplate; ///< with or without `oci://`
    Providers from = Providers::Catalog;
    QStringList typed;     ///< addresses, one a line (NS/TYPE gets `hostname`)
    QStringList lockFiles; ///< their providers and pinned versions
    QString hostname = QStringLiteral("registry.opentofu.org");
    QString caFile;
    bool plainHttp = false;  ///< http:// (loopback registries only)
    bool credentials = true; ///< look up and send credentials as tofu does
    QString pinnedKeysFile;  ///< accept signed provenance only from these keys ("" = any good signature)
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment(); ///< CLI config, HOME, helpers

    /// The template without `oci://`, trimmed.
    QString templ() const;
};

/// The registry options of `form`: template, CA, plain http, credentials policy, pinned keys, or
/// the first problem (a CA file without certificates, an invalid credentials configuration, …).
/// Reads files: call it where that may block (the open job; the dialogs' jobs).
Result<oci::OciMirrorOptions> ociMirrorOptions(const OciOpenForm &form);
/// The typed or locked providers (`versions`: per address, the lock files' versions), or the
/// first problem. Empty for Providers::Catalog.
Result<QList<ProviderAddress>> ociProviders(const OciOpenForm &form, QHash<QString, QList<Version>> *versions = nullptr);
/// Why `form` cannot be opened ("" when it can): the template by tofu's rules, the providers.
QString ociFormProblem(const OciOpenForm &form);
/// Open `form` in `window` (MainWindow::openMadeSource with an OciSource; lock files also become
/// the window's lock anchors); false with *error when the form is not usable.
bool openOci(MainWindow *window, const OciOpenForm &form, QString *error = nullptr);
/// `oci://…[?…]` (see above) parsed into a form; nullopt when `arg` is no oci:// text, an error when
/// it is one that cannot be used.
std::optional<Result<OciOpenForm>> ociFormFromArgument(const QString &arg);
/// `oci://…`: parsed and opened; false when `arg` is not such a text (or, with *error set, when it
/// is one that cannot be used).
bool openOciArgument(MainWindow *window, const QString &arg, QString *error = nullptr);

class OpenOciDialog : public QDialog
{
    Q_OBJECT
public:
    explicit OpenOciDialog(QWidget *parent = nullptr);
    ~OpenOciDialog() override;

    void setForm(const OciOpenForm &form);
    OciOpenForm form() const;
    /// Why the form cannot be used ("" when it can).
    QString problem() const { return ociFormProblem(form()); }
    /// The last form opened (QSettings "oci/open"), the process environment's.
    static OciOpenForm savedForm();
    static void saveForm(const OciOpenForm &form);
    static QStringList recentTemplates();

    /// "List Catalog": the registry's `_catalog` through the template, off the GUI thread; the
    /// providers found replace the typed list (and Typed is chosen), catalogMessage() says what was
    /// found or why the registry refused. Emits catalogListed when done.
    void listCatalog();
    QString catalogMessage() const;
    JobTracker *jobs() const { return m_jobs; }

    void accept() override;

Q_SIGNALS:
    void catalogListed(bool ok);

private:
    void updateState();

    QComboBox *m_template = nullptr;
    QRadioButton *m_fromTyped = nullptr;
    QRadioButton *m_fromLocks = nullptr;
    QRadioButton *m_fromCatalog = nullptr;
    QPlainTextEdit *m_typed = nullptr;
    QPushButton *m_listCatalog = nullptr;
    QLineEdit *m_locks = nullptr;
    QLineEdit *m_hostname = nullptr;
    QLineEdit *m_ca = nullptr;
    QCheckBox *m_plainHttp = nullptr;
    QCheckBox *m_credentials = nullptr;
    QLineEdit *m_pinned = nullptr;
    QLabel *m_catalogLabel = nullptr;
    QLabel *m_problem = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    JobTracker *m_jobs = nullptr;
    QProcessEnvironment m_environment = QProcessEnvironment::systemEnvironment();
};

} // namespace provender::ui
