#pragma once
// Small dialogs of the lock windows: choose platforms (remembered in QSettings), add a provider,
// open a mirror (a directory or a URL).

#include "model/core/Platform.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockMirror.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace provender::ui {

/// Checkable list of platforms; the checked ones are stored under `settingsKey` on accept.
class PlatformPickerDialog final : public QDialog
{
    Q_OBJECT
public:
    PlatformPickerDialog(const QList<Platform> &available, const QString &settingsKey, bool offerZh, QWidget *parent = nullptr);

    QList<Platform> checkedPlatforms() const;
    void setChecked(const QList<Platform> &platforms);
    bool includeZh() const;

    /// The platforms stored under `key` (empty when never chosen).
    static QList<Platform> rememberedPlatforms(const QString &key);
    static void rememberPlatforms(const QString &key, const QList<Platform> &platforms);

    void accept() override;

private:
    QListWidget *m_list = nullptr;
    QCheckBox *m_zh = nullptr;
    QString m_key;
};

/// Address, version and optional constraints of a new provider lock, validated as tofu would.
class AddProviderDialog final : public QDialog
{
    Q_OBJECT
public:
    AddProviderDialog(LockFlavour flavour, const QStringList &suggestions, QWidget *parent = nullptr);
    /// Valid only after accept().
    ProviderLock providerLock() const { return m_lock; }
    void setValues(const QString &address, const QString &version, const QString &constraints);
    /// Validate the fields; on failure the reason is shown and returned.
    QString validate();
    void accept() override;

private:
    LockFlavour m_flavour;
    QLineEdit *m_address = nullptr;
    QLineEdit *m_version = nullptr;
    QLineEdit *m_constraints = nullptr;
    QLabel *m_error = nullptr;
    ProviderLock m_lock;
};

} // namespace provender::ui

namespace provender::ui {

/// Open Mirror… of the lock windows (the CLI's `--mirror DIR|URL`): a mirror directory (Browse…)
/// or a network mirror's `https://` base URL, typed or picked from the recent URLs (shared with
/// File ▸ Open URL…: OpenUrlDialog::recentUrls()). OK stays disabled while the text is neither an
/// existing directory nor a usable URL, and the reason is shown. Widgets by objectName (tests):
/// "mirrorLocation" (editable QComboBox), "problemLabel", "buttons".
class MirrorLocationDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `currentHttp`: how `current` is reached; it applies to that location only (an http URL to a
    /// loopback host is accepted when it allows it).
    explicit MirrorLocationDialog(const QString &current, QWidget *parent = nullptr, const HttpSettings &currentHttp = {});
    QString location() const;
    void setLocation(const QString &location);
    /// Why the text cannot be opened ("" when it can).
    QString problem() const;
    void accept() override;

    /// Runs the dialog: the location chosen ("" when cancelled) and how to reach it. `current` (may be null): the window's mirror. Choosing
    /// its location again keeps how it is reached (a browser URL source's CA, http to a loopback host); any other location is reached as
    /// the CLI reaches it (system CAs, https only).
    static LockMirrorLocation ask(QWidget *parent, const LockMirror *current);

private:
    QString m_current;
    HttpSettings m_currentHttp;
    QComboBox *m_location = nullptr;
    QLabel *m_problem = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    void updateState();
};

} // namespace provender::ui
