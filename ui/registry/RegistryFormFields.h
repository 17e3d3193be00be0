#pragma once
// The form fields both registry dialogs ask for (File ▸ Open Registry… and File ▸ Pull from
// Registry…): providers typed (`ADDR[=CONSTRAINT]`, one a line), lock files (their pinned
// versions, comma-separated), platforms (comma-separated), an extra CA file and a file of pinned
// signing keys. Each dialog adds the rows to its own QFormLayout, its own rows in between, and
// reads and sets the values here; `changed()` fires on every edit. registryOptionsFor() and
// signatureOptionsFor() read what the CA and pinned-keys fields name.

#include "model/core/Platform.h"
#include "model/core/Result.h"
#include "model/registry/RegistryClient.h"
#include "model/registry/ReleaseSignature.h"

#include <QObject>
#include <QStringList>

class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QWidget;

namespace provender::ui {

class RegistryFormFields : public QObject
{
    Q_OBJECT
public:
    struct Values
    {
        QStringList typed;     ///< ADDR[=CONSTRAINT], one a line (as typed: empty lines included)
        QStringList lockFiles; ///< their pinned versions
        QList<Platform> platforms;
        QString caFile;
        QString pinnedKeysFile;
    };
    struct Texts
    {
        QString locksPlaceholder;
        QString platforms; ///< the platforms field's initial text
        QString platformsPlaceholder;
        bool browse = false; ///< "Browse…" buttons next to the file fields
    };

    /// The fields, children of `owner` (the dialog).
    RegistryFormFields(QWidget *owner, const Texts &texts);

    /// "Providers:", "Lock files:", "Platforms:".
    void addProviderRows(QFormLayout *form);
    /// "Extra CA file:", "Pinned keys:".
    void addTrustRows(QFormLayout *form);

    void setValues(const Values &values);
    /// The values (platforms that do not parse are left out: see platformProblem()).
    Values values() const;
    /// setValues() and values() with a dialog's form, whose members of these names (typed,
    /// lockFiles, platforms, caFile, pinnedKeysFile) are the values.
    template<typename Form> void setValuesFrom(const Form &form)
    {
        setValues({form.typed, form.lockFiles, form.platforms, form.caFile, form.pinnedKeysFile});
    }
    template<typename Form> void copyValuesTo(Form *form) const
    {
        const Values v = values();
        form->typed = v.typed;
        form->lockFiles = v.lockFiles;
        form->platforms = v.platforms;
        form->caFile = v.caFile;
        form->pinnedKeysFile = v.pinnedKeysFile;
    }
    /// "Platform X: why" for the first platform that does not parse ("" when all do).
    QString platformProblem() const;

Q_SIGNALS:
    void changed();

private:
    void addRow(QFormLayout *form, const QString &label, QLineEdit *edit, const QString &dialogTitle, const QString &filter);

    QWidget *m_owner;
    bool m_browse;
    QPlainTextEdit *m_typed = nullptr;
    QLineEdit *m_locks = nullptr;
    QLineEdit *m_platforms = nullptr;
    QLineEdit *m_ca = nullptr;
    QLineEdit *m_pinned = nullptr;
};

/// The registry client's options for the form: `http` and `environment` (with the `host` blocks of
/// the CLI config it names), and the extra CA file's certificates ("" = none); an error when the
/// file holds no certificate.
Result<RegistryOptions> registryOptionsFor(const HttpSettings &http, const QProcessEnvironment &environment, const QString &caFile);
/// The pinned-keys file's keys ("" = none pinned); an error when it cannot be read.
Result<SignatureOptions> signatureOptionsFor(const QString &pinnedKeysFile);

} // namespace provender::ui
