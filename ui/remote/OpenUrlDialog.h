#pragma once
// File ▸ Open URL…: the mirror URL (with the recent ones, kept in QSettings), where the providers
// come from (a lock file, typed addresses, or the mirror's directory listing), an extra CA file,
// "allow http:// for loopback addresses" and a cache directory. request() turns the form into a
// RemoteRequest; OK stays disabled until the form is usable, and the reason is shown. Picking a
// recent URL fills the form it was last opened with (ui/browser/UrlSource).
//
// Widgets by objectName (tests): "urlEdit" (editable QComboBox), "sourceLock", "sourceAddresses",
// "sourceAutoindex" (radio buttons), "lockEdit", "addressesEdit", "caEdit", "allowHttpCheck",
// "cacheEdit", "problemLabel", and the dialog's button box "buttons".

#include "model/network/RemoteSession.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;

namespace provender::ui {

class OpenUrlDialog : public QDialog
{
    Q_OBJECT
public:
    explicit OpenUrlDialog(QWidget *parent = nullptr);

    /// The form as a request (valid only when problem() is empty).
    RemoteRequest request() const;
    /// Why the form cannot be used yet ("" when it can).
    QString problem() const;

    /// Fill the whole form from `request`.
    void setRequest(const RemoteRequest &request);
    void setUrl(const QString &url);
    void setSource(RemoteRequest::ProviderSource source);
    void setLockFile(const QString &path);
    void setAddresses(const QStringList &addresses);
    void setCaFile(const QString &path);
    void setAllowHttpLoopback(bool allow);

    /// Recent URLs, newest first (QSettings "remote/recentUrls", at most 10).
    static QStringList recentUrls();
    static void addRecentUrl(const QString &url);

    void accept() override;

private:
    QComboBox *m_url = nullptr;
    QRadioButton *m_sourceLock = nullptr;
    QRadioButton *m_sourceAddresses = nullptr;
    QRadioButton *m_sourceAutoindex = nullptr;
    QLineEdit *m_lock = nullptr;
    QPlainTextEdit *m_addresses = nullptr;
    QLineEdit *m_ca = nullptr;
    QCheckBox *m_allowHttp = nullptr;
    QLineEdit *m_cache = nullptr;
    QLabel *m_problem = nullptr;
    QDialogButtonBox *m_buttons = nullptr;

    void updateState();
    QList<ProviderAddress> parsedAddresses(QString *error) const;
};

} // namespace provender::ui
