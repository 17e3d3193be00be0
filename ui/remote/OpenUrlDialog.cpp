#include "ui/remote/OpenUrlDialog.h"

#include "model/network/NetworkMirror.h"
#include "ui/FormRows.h"
#include "ui/browser/UrlSource.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QUrl>
#include <QVBoxLayout>

namespace provender::ui {

namespace {

const QString kRecentKey = QStringLiteral("remote/recentUrls");
constexpr int kMaxRecent = 10;

/// A line edit with a "Browse…" button that fills it.
QWidget *withBrowse(QLineEdit *edit, QWidget *parent, const std::function<QString()> &browse)
{
    auto *box = new QWidget(parent);
    auto *row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit, 1);
    auto *button = new QPushButton(OpenUrlDialog::tr("Browse…"), box);
    QObject::connect(button, &QPushButton::clicked, edit, [edit, browse] {
        const QString chosen = browse();
        if (!chosen.isEmpty())
            edit->setText(chosen);
    });
    row->addWidget(button);
    return box;
}

} // namespace

OpenUrlDialog::OpenUrlDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Network Mirror"));
    auto *layout = new QVBoxLayout(this);

    auto *form = new QFormLayout;
    m_url = new QComboBox(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setEditable(true);
    m_url->setInsertPolicy(QComboBox::NoInsert);
    m_url->addItems(recentUrls());
    m_url->setCurrentText(QString());
    m_url->lineEdit()->setPlaceholderText(QStringLiteral("https://mirror.example.com/providers/"));
    m_url->setMinimumContentsLength(48);
    form->addRow(tr("Mirror &URL:"), m_url);
    layout->addLayout(form);

    auto *sources = new QGroupBox(tr("Providers to check"), this);
    auto *grid = new QFormLayout(sources);
    auto *group = new QButtonGroup(this);
    m_sourceLock = new QRadioButton(tr("From a &lock file:"), sources);
    m_sourceLock->setObjectName(QStringLiteral("sourceLock"));
    m_lock = new QLineEdit(sources);
    m_lock->setObjectName(QStringLiteral("lockEdit"));
    m_lock->setPlaceholderText(QStringLiteral(".terraform.lock.hcl"));
    grid->addRow(m_sourceLock, withBrowse(m_lock, sources, [this] {
                     return QFileDialog::getOpenFileName(this, tr("Lock File"), QString(), lockFileFilter());
                 }));
    m_sourceAddresses = new QRadioButton(tr("&Addresses (one per line):"), sources);
    m_sourceAddresses->setObjectName(QStringLiteral("sourceAddresses"));
    m_addresses = new QPlainTextEdit(sources);
    m_addresses->setObjectName(QStringLiteral("addressesEdit"));
    m_addresses->setPlaceholderText(QStringLiteral("hashicorp/aws\nexample.com/acme/thing"));
    m_addresses->setTabChangesFocus(true);
    m_addresses->setFixedHeight(m_addresses->fontMetrics().lineSpacing() * 5 + 12);
    grid->addRow(m_sourceAddresses, m_addresses);
    m_sourceAutoindex = new QRadioButton(tr("From the mirror's &directory listing (nginx/Apache autoindex)"), sources);
    m_sourceAutoindex->setObjectName(QStringLiteral("sourceAutoindex"));
    grid->addRow(m_sourceAutoindex);
    for (QRadioButton *b : {m_sourceLock, m_sourceAddresses, m_sourceAutoindex})
        group->addButton(b);
    m_sourceAddresses->setChecked(true);
    layout->addWidget(sources);

    auto *connection = new QGroupBox(tr("Connection"), this);
    auto *cform = new QFormLayout(connection);
    m_ca = new QLineEdit(connection);
    m_ca->setObjectName(QStringLiteral("caEdit"));
    m_ca->setPlaceholderText(tr("system certificates only"));
    cform->addRow(tr("Extra &CA file:"), withBrowse(m_ca, connection, [this] {
                      return QFileDialog::getOpenFileName(this, tr("CA Certificates"), QString(),
                                                          tr("PEM certificates (*.pem *.crt);;All files (*)"));
                  }));
    m_allowHttp = new QCheckBox(tr("Allow http:// for loopback addresses (127.0.0.1, ::1, localhost)"), connection);
    m_allowHttp->setObjectName(QStringLiteral("allowHttpCheck"));
    cform->addRow(QString(), m_allowHttp);
    m_cache = new QLineEdit(connection);
    m_cache->setObjectName(QStringLiteral("cacheEdit"));
    m_cache->setPlaceholderText(tr("a temporary directory, removed afterwards"));
    cform->addRow(tr("Keep &downloads in:"),
                  withBrowse(m_cache, connection, [this] { return QFileDialog::getExistingDirectory(this, tr("Download Directory")); }));
    layout->addWidget(connection);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_problem->setWordWrap(true);
    QFont italic = m_problem->font();
    italic.setItalic(true);
    m_problem->setFont(italic);
    layout->addWidget(m_problem);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(QStringLiteral("buttons"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &OpenUrlDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &OpenUrlDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_url, &QComboBox::editTextChanged, this, &OpenUrlDialog::updateState);
    connect(m_url, &QComboBox::activated, this, [this](int index) { setRequest(requestForUrl(m_url->itemText(index))); });
    connect(group, &QButtonGroup::buttonToggled, this, &OpenUrlDialog::updateState);
    for (QLineEdit *e : {m_lock, m_ca, m_cache})
        connect(e, &QLineEdit::textChanged, this, &OpenUrlDialog::updateState);
    connect(m_addresses, &QPlainTextEdit::textChanged, this, &OpenUrlDialog::updateState);
    connect(m_allowHttp, &QCheckBox::toggled, this, &OpenUrlDialog::updateState);
    updateState();
}

QStringList OpenUrlDialog::recentUrls()
{
    return QSettings().value(kRecentKey).toStringList().mid(0, kMaxRecent);
}

void OpenUrlDialog::addRecentUrl(const QString &typed)
{
    // Never keep a secret on disk: `https://user:token@host/` is remembered without its user info.
    QString url = typed;
    if (const QUrl parsed(typed); !parsed.userInfo().isEmpty())
        url = parsed.adjusted(QUrl::RemoveUserInfo).toString();
    QStringList list = recentUrls();
    list.removeAll(url);
    list.prepend(url);
    QSettings().setValue(kRecentKey, list.mid(0, kMaxRecent));
}

void OpenUrlDialog::setRequest(const RemoteRequest &request)
{
    setUrl(request.baseUrl);
    setSource(request.source);
    setLockFile(request.lockFile);
    QStringList addresses;
    for (const ProviderAddress &a : request.providers)
        addresses.append(a.toString());
    setAddresses(addresses);
    setCaFile(request.caFile);
    setAllowHttpLoopback(request.allowHttpLoopback);
    m_cache->setText(request.cacheDir);
}

void OpenUrlDialog::setUrl(const QString &url)
{
    m_url->setCurrentText(url);
}

void OpenUrlDialog::setSource(RemoteRequest::ProviderSource source)
{
    switch (source) {
    case RemoteRequest::ProviderSource::LockFile: m_sourceLock->setChecked(true); break;
    case RemoteRequest::ProviderSource::Addresses: m_sourceAddresses->setChecked(true); break;
    case RemoteRequest::ProviderSource::Autoindex: m_sourceAutoindex->setChecked(true); break;
    }
}

void OpenUrlDialog::setLockFile(const QString &path)
{
    m_lock->setText(path);
}

void OpenUrlDialog::setAddresses(const QStringList &addresses)
{
    m_addresses->setPlainText(addresses.join(QLatin1Char('\n')));
}

void OpenUrlDialog::setCaFile(const QString &path)
{
    m_ca->setText(path);
}

void OpenUrlDialog::setAllowHttpLoopback(bool allow)
{
    m_allowHttp->setChecked(allow);
}

QList<ProviderAddress> OpenUrlDialog::parsedAddresses(QString *error) const
{
    QList<ProviderAddress> out;
    const QStringList lines = m_addresses->toPlainText().split(QLatin1Char('\n'));
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const Result<ProviderAddress> a = ProviderAddress::parse(line);
        if (!a.ok()) {
            if (error && error->isEmpty())
                *error = tr("“%1” is not a provider address: %2").arg(line, a.error().message);
            continue;
        }
        if (!out.contains(a.value()))
            out.append(a.value());
    }
    return out;
}

QString OpenUrlDialog::problem() const
{
    const QString url = m_url->currentText().trimmed();
    if (url.isEmpty())
        return tr("Enter the URL of the mirror (the url of a network_mirror block).");
    const Result<QUrl> base = parseMirrorBaseUrl(url, m_allowHttp->isChecked());
    if (!base.ok())
        return base.error().message;
    if (m_sourceLock->isChecked()) {
        const QString lock = m_lock->text().trimmed();
        if (lock.isEmpty())
            return tr("Choose the lock file whose providers to check.");
        if (!QFileInfo(lock).isFile())
            return tr("%1 is not a file.").arg(lock);
    } else if (m_sourceAddresses->isChecked()) {
        QString error;
        const QList<ProviderAddress> list = parsedAddresses(&error);
        if (!error.isEmpty())
            return error;
        if (list.isEmpty())
            return tr("Name at least one provider: a network mirror cannot list its providers.");
    }
    if (!m_ca->text().trimmed().isEmpty() && !QFileInfo(m_ca->text().trimmed()).isFile())
        return tr("%1 is not a file.").arg(m_ca->text().trimmed());
    return {};
}

RemoteRequest OpenUrlDialog::request() const
{
    RemoteRequest r;
    r.baseUrl = m_url->currentText().trimmed();
    if (m_sourceLock->isChecked())
        r.source = RemoteRequest::ProviderSource::LockFile;
    else if (m_sourceAutoindex->isChecked())
        r.source = RemoteRequest::ProviderSource::Autoindex;
    else
        r.source = RemoteRequest::ProviderSource::Addresses;
    r.lockFile = m_lock->text().trimmed();
    r.providers = parsedAddresses(nullptr);
    r.caFile = m_ca->text().trimmed();
    r.allowHttpLoopback = m_allowHttp->isChecked();
    r.cacheDir = m_cache->text().trimmed();
    return r;
}

void OpenUrlDialog::updateState()
{
    m_lock->parentWidget()->setEnabled(m_sourceLock->isChecked()); // the line edit and its Browse… button
    m_addresses->setEnabled(m_sourceAddresses->isChecked());
    const QString why = problem();
    QString warning;
    if (why.isEmpty())
        (void)parseMirrorBaseUrl(m_url->currentText().trimmed(), m_allowHttp->isChecked(), &warning);
    m_problem->setText(why.isEmpty() ? warning : why);
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(why.isEmpty());
}

void OpenUrlDialog::accept()
{
    if (!problem().isEmpty())
        return;
    addRecentUrl(m_url->currentText().trimmed());
    QDialog::accept();
}

} // namespace provender::ui
