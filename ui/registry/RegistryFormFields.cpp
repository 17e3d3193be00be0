#include "ui/registry/RegistryFormFields.h"

#include "ui/FormRows.h"

#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>

namespace provender::ui {

RegistryFormFields::RegistryFormFields(QWidget *owner, const Texts &texts) : QObject(owner), m_owner(owner), m_browse(texts.browse)
{
    m_typed = new QPlainTextEdit(owner);
    m_typed->setPlaceholderText(tr("One provider a line: hashicorp/null=~> 3.2"));
    m_typed->setFixedHeight(72);
    m_locks = new QLineEdit(owner);
    m_locks->setPlaceholderText(texts.locksPlaceholder);
    m_platforms = new QLineEdit(texts.platforms, owner);
    m_platforms->setPlaceholderText(texts.platformsPlaceholder);
    m_ca = new QLineEdit(owner);
    m_pinned = new QLineEdit(owner);
    m_pinned->setPlaceholderText(tr("accept only signatures by these keys (optional)"));
    for (QLineEdit *e : {m_locks, m_platforms, m_ca, m_pinned})
        connect(e, &QLineEdit::textChanged, this, &RegistryFormFields::changed);
    connect(m_typed, &QPlainTextEdit::textChanged, this, &RegistryFormFields::changed);
}

void RegistryFormFields::addRow(QFormLayout *form, const QString &label, QLineEdit *edit, const QString &dialogTitle, const QString &filter)
{
    if (!m_browse) {
        form->addRow(label, edit);
        return;
    }
    const bool many = edit == m_locks;
    addBrowseRow(m_owner, form, label, edit, [this, many, dialogTitle, filter](QLineEdit *edit) {
        if (many) {
            const QStringList files = QFileDialog::getOpenFileNames(m_owner, dialogTitle, QDir::homePath(), filter);
            if (!files.isEmpty())
                edit->setText(files.join(QStringLiteral(", ")));
        } else if (const QString f = QFileDialog::getOpenFileName(m_owner, dialogTitle, QDir::homePath(), filter); !f.isEmpty()) {
            edit->setText(f);
        }
    });
}

void RegistryFormFields::addProviderRows(QFormLayout *form)
{
    form->addRow(tr("Providers:"), m_typed);
    addRow(form, tr("Lock files:"), m_locks, tr("Lock Files"), tr("Lock files (*.hcl);;All files (*)"));
    form->addRow(tr("Platforms:"), m_platforms);
}

void RegistryFormFields::addTrustRows(QFormLayout *form)
{
    addRow(form, tr("Extra CA file:"), m_ca, tr("CA Certificates"), tr("PEM files (*.pem *.crt);;All files (*)"));
    addRow(form, tr("Pinned keys:"), m_pinned, tr("Pinned Signing Keys"), tr("OpenPGP keys (*.asc *.gpg);;All files (*)"));
}

void RegistryFormFields::setValues(const Values &values)
{
    m_typed->setPlainText(values.typed.join(QLatin1Char('\n')));
    m_locks->setText(values.lockFiles.join(QStringLiteral(", ")));
    QStringList platforms;
    for (const Platform &p : values.platforms)
        platforms << p.toString();
    m_platforms->setText(platforms.join(QStringLiteral(", ")));
    m_ca->setText(values.caFile);
    m_pinned->setText(values.pinnedKeysFile);
}

RegistryFormFields::Values RegistryFormFields::values() const
{
    Values v;
    v.typed = m_typed->toPlainText().split(QLatin1Char('\n'));
    v.lockFiles = splitList(m_locks->text());
    for (const QString &p : splitList(m_platforms->text()))
        if (const Result<Platform> platform = Platform::parse(p); platform.ok())
            v.platforms << *platform;
    v.caFile = m_ca->text().trimmed();
    v.pinnedKeysFile = m_pinned->text().trimmed();
    return v;
}

QString RegistryFormFields::platformProblem() const
{
    for (const QString &p : splitList(m_platforms->text()))
        if (const Result<Platform> platform = Platform::parse(p); !platform.ok())
            return tr("Platform %1: %2").arg(p, platform.error().message);
    return {};
}

Result<RegistryOptions> registryOptionsFor(const HttpSettings &http, const QProcessEnvironment &environment, const QString &caFile)
{
    RegistryOptions ro;
    ro.http = http;
    ro.environment = environment;
    if (!caFile.isEmpty()) {
        Result<QList<QSslCertificate>> certs = readRegistryCaFile(caFile);
        if (!certs)
            return certs.error();
        ro.http.caCertificates = *certs;
    }
    ro.serviceOverrides = providerServicesFromEnvironment(ro.environment, QString());
    return ro;
}

Result<SignatureOptions> signatureOptionsFor(const QString &pinnedKeysFile)
{
    SignatureOptions signature;
    if (!pinnedKeysFile.isEmpty()) {
        const Result<QByteArray> keys = readPinnedKeysFile(pinnedKeysFile);
        if (!keys)
            return keys.error();
        signature.pinnedKeys << *keys;
    }
    return signature;
}

} // namespace provender::ui
