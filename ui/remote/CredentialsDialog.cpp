#include "ui/remote/CredentialsDialog.h"

#include "model/core/ProviderAddress.h"
#include "model/network/Credentials.h"
#include "model/network/NetworkMirror.h"
#include "ui/FormRows.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace provender::ui {

QString CredentialsDialog::hostFor(const QString &hostOrUrl)
{
    const QString text = hostOrUrl.trimmed();
    if (text.isEmpty())
        return {};
    if (text.contains(QStringLiteral("://"))) {
        const Result<QUrl> url = parseMirrorBaseUrl(text, true);
        return url.ok() ? mirrorCredentialsHost(url.value()) : QString();
    }
    // host or host:port
    const QUrl url(QStringLiteral("https://") + text + QLatin1Char('/'));
    if (!url.isValid() || url.host().isEmpty() || !url.path().startsWith(QLatin1Char('/')) || url.path().size() > 1)
        return {};
    return mirrorCredentialsHost(url);
}

CredentialsDialog::CredentialsDialog(const QString &hostOrUrl, const QProcessEnvironment &env, const QString &homeDir, QWidget *parent)
    : QDialog(parent),
      m_env(env),
      m_home(homeDir)
{
    setWindowTitle(tr("Mirror Credentials"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Tokens are looked up as tofu/terraform do and sent only with the index requests of "
                                "that host, never with archive downloads."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    m_host = new QLineEdit(this);
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_host->setPlaceholderText(QStringLiteral("mirror.example.com"));
    m_host->setText(hostFor(hostOrUrl).isEmpty() ? redactUrlText(hostOrUrl) : hostFor(hostOrUrl)); // never a URL's user info
    form->addRow(tr("&Host:"), m_host);
    m_source = selectableLabel(QStringLiteral("sourceLabel"), this);
    form->addRow(tr("Source:"), m_source);
    m_token = new QLabel(this);
    m_token->setObjectName(QStringLiteral("tokenLabel"));
    form->addRow(tr("Token:"), m_token);
    m_searched = selectableLabel(QStringLiteral("searchedLabel"), this);
    form->addRow(tr("Looked in:"), m_searched);
    layout->addLayout(form);
    layout->addStretch(1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_host, &QLineEdit::textChanged, this, &CredentialsDialog::lookUp);
    setMinimumWidth(560);
    lookUp();
}

void CredentialsDialog::lookUp()
{
    const QString host = hostFor(m_host->text());
    const QString home = m_home.isEmpty() ? QDir::homePath() : m_home;
    const CredentialsLocations loc = credentialsLocations(m_env, home);
    QString variable = host;
    variable.replace(QLatin1Char('-'), QStringLiteral("__")).replace(QLatin1Char('.'), QLatin1Char('_'));
    QStringList searched;
    if (!host.contains(QLatin1Char(':')))
        searched << tr("environment variable TF_TOKEN_%1").arg(variable);
    searched << (loc.cliConfigFile.isEmpty() ? tr("no CLI configuration file") : loc.cliConfigFile)
             << (loc.credentialsJson.isEmpty() ? tr("no credentials.tfrc.json") : loc.credentialsJson);
    m_searched->setText(searched.join(QLatin1Char('\n')));
    if (host.isEmpty()) {
        m_source->setText(m_host->text().trimmed().isEmpty() ? tr("Enter a host name or the mirror's URL.")
                                                             : tr("“%1” is not a host name.").arg(m_host->text().trimmed()));
        m_token->clear();
        return;
    }
    QStringList warnings;
    const std::optional<Credential> c = findCredential(host, m_env, home, &warnings);
    if (!c) {
        m_source->setText(warnings.isEmpty() ? tr("No token for %1: requests are sent without one.").arg(host)
                                             : tr("No token for %1 (%2)").arg(host, warnings.join(QStringLiteral("; "))));
        m_token->setText(tr("none"));
        return;
    }
    m_source->setText(c->source);
    m_token->setText(c->maskedToken());
}

} // namespace provender::ui
