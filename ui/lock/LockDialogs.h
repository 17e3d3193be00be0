#pragma once
// Small dialogs of the lock editor: choose platforms (remembered in QSettings), add a provider.

#include "model/core/Platform.h"
#include "model/lockfile/LockFile.h"

#include <QDialog>

class QCheckBox;
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
