#pragma once
// Tools ▸ Credentials…: for a mirror host (or URL), which source supplies its API token as tofu
// resolves it (TF_TOKEN_<host> variable, `credentials` block in the CLI config file,
// credentials.tfrc.json) and the token masked (first characters + "…" + length); or, when none
// does, where it was looked for. The token itself is never shown.
// objectNames: "hostEdit", "sourceLabel", "tokenLabel", "searchedLabel".

#include <QDialog>
#include <QProcessEnvironment>

class QLabel;
class QLineEdit;

namespace provender::ui {

class CredentialsDialog : public QDialog
{
    Q_OBJECT
public:
    /// `hostOrUrl` prefills the host ("https://m.example:8443/p/" -> "m.example:8443").
    explicit CredentialsDialog(const QString &hostOrUrl = QString(),
                               const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                               const QString &homeDir = QString(), QWidget *parent = nullptr);

    /// The comparison host for what the user typed ("" when it is not a host or URL).
    static QString hostFor(const QString &hostOrUrl);

public Q_SLOTS:
    void lookUp();

private:
    QProcessEnvironment m_env;
    QString m_home;
    QLineEdit *m_host;
    QLabel *m_source;
    QLabel *m_token;
    QLabel *m_searched;
};

} // namespace provender::ui
