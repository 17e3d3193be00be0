#include "ui/lock/LockDialogs.h"

#include "model/lockfile/LockMirror.h"
#include "model/network/NetworkMirror.h"
#include "ui/FormRows.h"
#include "ui/remote/OpenUrlDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace provender::ui {

PlatformPickerDialog::PlatformPickerDialog(const QList<Platform> &available, const QString &settingsKey, bool offerZh, QWidget *parent)
    : QDialog(parent),
      m_key(settingsKey)
{
    setWindowTitle(tr("Choose Platforms"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Platforms to use:"), this));
    m_list = new QListWidget(this);
    m_list->setObjectName(u"platformList"_s);
    const QList<Platform> remembered = rememberedPlatforms(settingsKey);
    for (const Platform &p : available) {
        auto *item = new QListWidgetItem(p.toString(), m_list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(remembered.contains(p) ? Qt::Checked : Qt::Unchecked);
    }
    layout->addWidget(m_list);
    if (offerZh) {
        m_zh = new QCheckBox(tr("Also record zh: hashes (SHA-256 of each zip)"), this);
        m_zh->setObjectName(u"zhCheck"_s);
        layout->addWidget(m_zh);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QList<Platform> PlatformPickerDialog::checkedPlatforms() const
{
    QList<Platform> out;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            if (Result<Platform> p = Platform::parse(m_list->item(i)->text()))
                out << p.value();
    return out;
}

void PlatformPickerDialog::setChecked(const QList<Platform> &platforms)
{
    for (int i = 0; i < m_list->count(); ++i) {
        const Result<Platform> p = Platform::parse(m_list->item(i)->text());
        m_list->item(i)->setCheckState(p && platforms.contains(p.value()) ? Qt::Checked : Qt::Unchecked);
    }
}

bool PlatformPickerDialog::includeZh() const
{
    return m_zh && m_zh->isChecked();
}

QList<Platform> PlatformPickerDialog::rememberedPlatforms(const QString &key)
{
    QList<Platform> out;
    const QStringList names = QSettings().value(key).toStringList();
    for (const QString &n : names)
        if (Result<Platform> p = Platform::parse(n))
            out << p.value();
    return out;
}

void PlatformPickerDialog::rememberPlatforms(const QString &key, const QList<Platform> &platforms)
{
    QStringList names;
    for (const Platform &p : platforms)
        names << p.toString();
    QSettings().setValue(key, names);
}

void PlatformPickerDialog::accept()
{
    rememberPlatforms(m_key, checkedPlatforms());
    QDialog::accept();
}

AddProviderDialog::AddProviderDialog(LockFlavour flavour, const QStringList &suggestions, QWidget *parent)
    : QDialog(parent),
      m_flavour(flavour)
{
    setWindowTitle(tr("Add Provider"));
    auto *form = new QFormLayout(this);
    m_address = new QLineEdit(this);
    m_address->setObjectName(u"addressEdit"_s);
    m_address->setPlaceholderText(u"hashicorp/random"_s);
    if (!suggestions.isEmpty())
        m_address->setCompleter(new QCompleter(suggestions, m_address));
    m_version = new QLineEdit(this);
    m_version->setObjectName(u"versionEdit"_s);
    m_version->setPlaceholderText(u"3.6.2"_s);
    m_constraints = new QLineEdit(this);
    m_constraints->setObjectName(u"constraintsEdit"_s);
    m_constraints->setPlaceholderText(tr("optional, e.g. ~> 3.6"));
    m_error = new QLabel(this);
    m_error->setStyleSheet(u"color: #d73a49"_s);
    m_error->setWordWrap(true);
    form->addRow(tr("Provider:"), m_address);
    form->addRow(tr("Version:"), m_version);
    form->addRow(tr("Constraints:"), m_constraints);
    form->addRow(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void AddProviderDialog::setValues(const QString &address, const QString &version, const QString &constraints)
{
    m_address->setText(address);
    m_version->setText(version);
    m_constraints->setText(constraints);
}

QString AddProviderDialog::validate()
{
    const QLatin1StringView host = m_flavour == LockFlavour::Tofu ? kOpenTofuRegistryHost : kTerraformRegistryHost;
    const Result<ProviderAddress> address = ProviderAddress::parse(m_address->text().trimmed(), host);
    QString error;
    const Result<Version> version = Version::parse(m_version->text().trimmed());
    Result<VersionConstraints> constraints = VersionConstraints::parse(m_constraints->text().trimmed());
    if (!address)
        error = tr("Provider: %1").arg(address.error().message);
    else if (!version)
        error = tr("Version: %1").arg(version.error().message);
    else if (!m_constraints->text().trimmed().isEmpty() && !constraints)
        error = tr("Constraints: %1").arg(constraints.error().message);
    else if (!m_constraints->text().trimmed().isEmpty() && !constraints->allows(version.value()))
        error = tr("Version %1 does not meet the constraints %2").arg(version->toString(), constraints->toString());
    m_error->setText(error);
    if (error.isEmpty()) {
        m_lock = ProviderLock();
        m_lock.address = address.value();
        m_lock.version = version.value();
        if (!m_constraints->text().trimmed().isEmpty())
            m_lock.constraints = constraints.value();
    }
    return error;
}

void AddProviderDialog::accept()
{
    if (validate().isEmpty())
        QDialog::accept();
}

} // namespace provender::ui

namespace provender::ui {

MirrorLocationDialog::MirrorLocationDialog(const QString &current, QWidget *parent, const HttpSettings &currentHttp)
    : QDialog(parent),
      m_current(current),
      m_currentHttp(currentHttp)
{
    setWindowTitle(tr("Open Mirror"));
    auto *layout = new QVBoxLayout(this);
    QLabel *intro = selectableLabel(u"introLabel"_s, this);
    intro->setText(tr("A mirror directory, or a network mirror's base URL (https://…). Of a network mirror, only the lock "
                      "file's providers are read, and only the archives an operation needs are downloaded and checked "
                      "against the mirror's index."));
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    m_location = new QComboBox(this);
    m_location->setObjectName(u"mirrorLocation"_s);
    m_location->setEditable(true);
    m_location->setInsertPolicy(QComboBox::NoInsert);
    m_location->addItems(OpenUrlDialog::recentUrls());
    m_location->setCurrentText(current);
    m_location->lineEdit()->setPlaceholderText(u"/srv/mirror  or  https://mirror.example.com/providers/"_s);
    m_location->setMinimumContentsLength(48);
    auto *browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(u"browseButton"_s);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString start = isNetworkMirrorLocation(location()) ? QString() : location();
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Mirror Directory"), start);
        if (!dir.isEmpty())
            setLocation(dir);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(m_location, 1);
    row->addWidget(browse);
    auto *label = new QLabel(tr("&Mirror:"), this);
    label->setBuddy(m_location);
    form->addRow(label, row);
    layout->addLayout(form);
    m_problem = new QLabel(this);
    m_problem->setObjectName(u"problemLabel"_s);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->setObjectName(u"buttons"_s);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    connect(m_location, &QComboBox::currentTextChanged, this, &MirrorLocationDialog::updateState);
    updateState();
}

QString MirrorLocationDialog::location() const
{
    return m_location->currentText().trimmed();
}

void MirrorLocationDialog::setLocation(const QString &location)
{
    m_location->setCurrentText(location);
}

QString MirrorLocationDialog::problem() const
{
    const QString text = location();
    if (text.isEmpty())
        return tr("Give a mirror directory or a network mirror's URL.");
    if (isNetworkMirrorLocation(text)) {
        const Result<QUrl> url = parseMirrorBaseUrl(text, text == m_current && m_currentHttp.allowHttpLoopback);
        return url ? QString() : url.error().message;
    }
    return QFileInfo(text).isDir() ? QString() : tr("%1 is not a directory.").arg(text);
}

void MirrorLocationDialog::updateState()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(showProblem(m_problem, problem()));
}

void MirrorLocationDialog::accept()
{
    if (!problem().isEmpty())
        return;
    if (isNetworkMirrorLocation(location()))
        OpenUrlDialog::addRecentUrl(location());
    QDialog::accept();
}

LockMirrorLocation MirrorLocationDialog::ask(QWidget *parent, const LockMirror *current)
{
    const HttpSettings currentHttp = current && current->network ? current->network->http : HttpSettings();
    MirrorLocationDialog dialog(current ? current->location : QString(), parent, currentHttp);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    const QString chosen = dialog.location();
    return {chosen, current && chosen == current->location ? currentHttp : HttpSettings()};
}

} // namespace provender::ui
