#include "ui/oci/OpenOciDialog.h"

#include "model/lockfile/LockAnchors.h"
#include "model/network/RequestLogModel.h"
#include "model/oci/OciSource.h"
#include "model/registry/ReleaseSignature.h"
#include "ui/FormRows.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/oci/OciFormWidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QSettings>
#include <QSslCertificate>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace provender::ui {

using namespace provender::oci;

namespace {

const QString kFormKey = QStringLiteral("oci/open");
const QString kRecentKey = QStringLiteral("oci/recentTemplates");

QString fromName(OciOpenForm::Providers from)
{
    switch (from) {
    case OciOpenForm::Providers::Typed: return QStringLiteral("typed");
    case OciOpenForm::Providers::LockFiles: return QStringLiteral("lock");
    case OciOpenForm::Providers::Catalog: break;
    }
    return QStringLiteral("catalog");
}

OciOpenForm::Providers fromOf(const QString &name)
{
    if (name == QLatin1StringView("typed"))
        return OciOpenForm::Providers::Typed;
    if (name == QLatin1StringView("lock"))
        return OciOpenForm::Providers::LockFiles;
    return OciOpenForm::Providers::Catalog;
}

} // namespace

QString OciOpenForm::templ() const
{
    QString t = repositoryTemplate.trimmed();
    if (t.startsWith(QLatin1StringView("oci://")))
        t = templateFromOciUrl(t).valueOr(t);
    return t;
}

Result<OciMirrorOptions> ociMirrorOptions(const OciOpenForm &form)
{
    OciMirrorOptions mirror;
    mirror.repositoryTemplate = form.templ();
    if (!form.caFile.trimmed().isEmpty()) {
        mirror.client.caCertificates = QSslCertificate::fromPath(form.caFile.trimmed(), QSsl::Pem);
        if (mirror.client.caCertificates.isEmpty())
            return makeError(ErrorCode::InvalidArgument, QObject::tr("%1: no PEM certificate could be read").arg(form.caFile));
    }
    mirror.client.allowHttpLoopback = form.plainHttp;
    mirror.client.plainHttp = form.plainHttp;
    if (form.credentials) {
        Result<OciCredentialsPolicy> policy = loadCredentialsPolicy(form.environment, form.environment.value(QStringLiteral("HOME")));
        if (!policy.ok())
            return makeError(policy.error().code,
                             QObject::tr("invalid credentials configuration for OCI registries: %1").arg(policy.error().message));
        mirror.credentials = policy.value();
    }
    if (!form.pinnedKeysFile.trimmed().isEmpty()) {
        const Result<QByteArray> keys = readPinnedKeysFile(form.pinnedKeysFile.trimmed());
        if (!keys.ok())
            return keys.error();
        mirror.signature.pinnedKeys << *keys;
    }
    return mirror;
}

Result<QList<ProviderAddress>> ociProviders(const OciOpenForm &form, QHash<QString, QList<Version>> *versions)
{
    QList<ProviderAddress> out;
    const QString host = form.hostname.trimmed().isEmpty() ? QString::fromLatin1(kOpenTofuRegistryHost) : form.hostname.trimmed();
    if (form.from == OciOpenForm::Providers::Typed) {
        for (const QString &line : form.typed) {
            if (line.trimmed().isEmpty())
                continue;
            const Result<ProviderAddress> a = ProviderAddress::parse(line.trimmed(), host);
            if (!a.ok())
                return makeError(ErrorCode::InvalidArgument, QObject::tr("%1: %2").arg(line.trimmed(), a.error().message));
            if (!out.contains(a.value()))
                out.append(a.value());
        }
        if (out.isEmpty())
            return makeError(ErrorCode::InvalidArgument, QObject::tr("type the providers, one a line (NS/TYPE or HOST/NS/TYPE)"));
    } else if (form.from == OciOpenForm::Providers::LockFiles) {
        if (form.lockFiles.isEmpty())
            return makeError(ErrorCode::InvalidArgument, QObject::tr("name the lock files"));
        const Result<LockAnchors> locks = readLockAnchors(form.lockFiles);
        if (!locks.ok())
            return locks.error();
        const QHash<ProviderAddress, QList<Version>> locked = locks.value().lockedVersions(&out);
        for (auto it = locked.cbegin(); versions && it != locked.cend(); ++it)
            (*versions)[it.key().toString()] += it.value();
        if (out.isEmpty())
            return makeError(ErrorCode::InvalidArgument, QObject::tr("the lock files name no provider"));
    }
    return out;
}

QString ociFormProblem(const OciOpenForm &form)
{
    const QString templ = form.templ();
    if (templ.isEmpty())
        return QObject::tr("Type the repository template, e.g. registry.example.com/mirror/${namespace}/${type}");
    const Result<QList<ProviderAddress>> providers = ociProviders(form);
    if (!providers.ok())
        return providers.error().message;
    if (form.from == OciOpenForm::Providers::Catalog && !templ.contains(QLatin1StringView("${hostname}"))
        && form.hostname.trimmed().isEmpty())
        return QObject::tr("The template has no ${hostname}: name the provider hostname of the catalog's repositories");
    QList<ProviderAddress> checked = providers.value();
    if (form.from == OciOpenForm::Providers::Catalog && !form.hostname.trimmed().isEmpty())
        // The catalog's providers share the hostname (the oci_mirror block's include pins it) and
        // differ in namespace and type: the template must name those two.
        for (const char *nsType : {"catalog-a/type-a", "catalog-b/type-b"})
            if (const Result<ProviderAddress> p = ProviderAddress::parse(QString::fromLatin1(nsType), form.hostname.trimmed()); p.ok())
                checked << p.value();
    if (const Result<void> ok = checkRepositoryTemplate(templ, checked); !ok.ok())
        return ok.error().message;
    if (!form.caFile.trimmed().isEmpty() && !QFile::exists(form.caFile.trimmed()))
        return QObject::tr("The CA file %1 does not exist").arg(form.caFile.trimmed());
    return {};
}

bool openOci(MainWindow *window, const OciOpenForm &form, QString *error)
{
    if (const QString problem = ociFormProblem(form); !problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    window->openMadeSource(
        QStringLiteral("oci://") + form.templ(), [form](const HttpSettings &http) -> Result<std::shared_ptr<MirrorSource>> {
            Result<OciMirrorOptions> mirror = ociMirrorOptions(form);
            if (!mirror.ok())
                return mirror.error();
            // Every request into the window's request log (the hook queues it to the GUI thread).
            mirror.value().client.onRequest = http.onRequestLogged;
            QHash<QString, QList<Version>> versions;
            Result<QList<ProviderAddress>> providers = ociProviders(form, &versions);
            if (!providers.ok())
                return providers.error();
            if (form.from == OciOpenForm::Providers::Catalog) {
                TemplateDefaults defaults;
                defaults.hostname = form.hostname.trimmed();
                const Result<OciCatalogListing> listed = listOciProviders(mirror.value(), defaults);
                if (!listed.ok())
                    return makeError(listed.error().code,
                                     QObject::tr("%1 — name the providers or give a lock file instead").arg(listed.error().message));
                providers = listed.value().providers;
                if (providers.value().isEmpty())
                    return makeError(ErrorCode::NotFound,
                                     QObject::tr("the registry's catalog lists no repository that fits %1 (%2 repositories)")
                                         .arg(form.templ())
                                         .arg(listed.value().repositories.size()));
            }
            auto source = std::make_shared<OciSource>(mirror.value(), providers.value(), versions);
            source->setRequireAnswer(true);
            return std::shared_ptr<MirrorSource>(source);
        });
    // A lock file's hashes anchor every archive (and tofu's rule applies: the layer digest must be
    // in the lock before any download), as "Check against Lock Files…" does.
    if (form.from == OciOpenForm::Providers::LockFiles)
        window->checkAgainstLockFiles(form.lockFiles);
    return true;
}

std::optional<Result<OciOpenForm>> ociFormFromArgument(const QString &arg)
{
    if (!arg.startsWith(QLatin1StringView("oci://")))
        return std::nullopt;
    const qsizetype q = arg.indexOf(QLatin1Char('?'));
    OciOpenForm form;
    form.repositoryTemplate = arg.left(q < 0 ? arg.size() : q);
    const QUrlQuery query(q < 0 ? QString() : arg.mid(q + 1));
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1StringView("provider"))
            form.typed << value;
        else if (key == QLatin1StringView("lock"))
            form.lockFiles << value;
        else if (key == QLatin1StringView("ca"))
            form.caFile = value;
        else if (key == QLatin1StringView("hostname"))
            form.hostname = value;
        else if (key == QLatin1StringView("pinned"))
            form.pinnedKeysFile = value;
        else if (key == QLatin1StringView("plain-http"))
            form.plainHttp = value != QLatin1StringView("0");
        else if (key == QLatin1StringView("no-credentials"))
            form.credentials = value == QLatin1StringView("0");
        else
            return Result<OciOpenForm>(
                makeError(ErrorCode::InvalidArgument,
                          QObject::tr("unknown item %1 (provider, lock, ca, hostname, pinned, plain-http, no-credentials)").arg(key)));
    }
    if (!form.typed.isEmpty() && !form.lockFiles.isEmpty())
        return Result<OciOpenForm>(makeError(ErrorCode::InvalidArgument, QObject::tr("give providers or lock files, not both")));
    form.from = !form.typed.isEmpty() ? OciOpenForm::Providers::Typed
        : !form.lockFiles.isEmpty()   ? OciOpenForm::Providers::LockFiles
                                      : OciOpenForm::Providers::Catalog;
    return Result<OciOpenForm>(form);
}

bool openOciArgument(MainWindow *window, const QString &arg, QString *error)
{
    const std::optional<Result<OciOpenForm>> form = ociFormFromArgument(arg);
    if (!form)
        return false;
    if (!form->ok()) {
        if (error)
            *error = form->error().message;
        return false;
    }
    return openOci(window, form->value(), error);
}

OpenOciDialog::OpenOciDialog(QWidget *parent) : QDialog(parent), m_jobs(new JobTracker(this))
{
    setWindowTitle(tr("Open OCI Registry"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("An OCI registry used as an OpenTofu oci_mirror: one repository per provider, one tag per version."), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *formLayout = new QFormLayout;
    m_template = new QComboBox(this);
    m_template->setEditable(true);
    m_template->addItems(recentTemplates());
    m_template->setCurrentText(QString());
    m_template->lineEdit()->setPlaceholderText(QStringLiteral("registry.example.com/mirror/${namespace}/${type}"));
    m_template->setMinimumContentsLength(48);
    formLayout->addRow(tr("Repository template:"), m_template);

    auto *fromRow = new QHBoxLayout;
    m_fromCatalog = new QRadioButton(tr("Registry catalog"), this);
    m_fromCatalog->setToolTip(
        tr("Every repository of the registry's _catalog that fits the template (many hosted registries do not offer it)"));
    m_fromTyped = new QRadioButton(tr("Typed"), this);
    m_fromLocks = new QRadioButton(tr("Lock files"), this);
    fromRow->addWidget(m_fromCatalog);
    fromRow->addWidget(m_fromTyped);
    fromRow->addWidget(m_fromLocks);
    fromRow->addStretch(1);
    formLayout->addRow(tr("Providers from:"), fromRow);

    auto *typedRow = new QHBoxLayout;
    m_typed = new QPlainTextEdit(this);
    m_typed->setPlaceholderText(tr("One provider a line: hashicorp/null"));
    m_typed->setFixedHeight(72);
    typedRow->addWidget(m_typed, 1);
    m_listCatalog = new QPushButton(tr("List Catalog"), this);
    m_listCatalog->setToolTip(tr("Fill the list with the providers the registry's catalog holds under the template"));
    typedRow->addWidget(m_listCatalog, 0, Qt::AlignTop);
    formLayout->addRow(tr("Providers:"), typedRow);
    m_catalogLabel = new QLabel(this);
    m_catalogLabel->setWordWrap(true);
    m_catalogLabel->hide();
    formLayout->addRow(QString(), m_catalogLabel);

    m_locks = fileRow(this, formLayout, tr("Lock files:"), [this](QLineEdit *edit) {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, tr("Lock Files"), QDir::homePath(), tr("Lock files (*.hcl);;All files (*)"));
        if (!files.isEmpty())
            edit->setText(files.join(QStringLiteral(", ")));
    });
    m_locks->setPlaceholderText(tr("their providers and versions; every archive is checked against them"));
    m_hostname = new QLineEdit(this);
    m_hostname->setToolTip(
        tr("The provider hostname of NS/TYPE addresses, and of the catalog's repositories when the template has no ${hostname}"));
    formLayout->addRow(tr("Provider hostname:"), m_hostname);
    m_ca = ociform::caFileRow(this, formLayout);
    m_plainHttp = new QCheckBox(tr("Plain http:// (loopback registries only)"), this);
    formLayout->addRow(QString(), m_plainHttp);
    m_credentials = new QCheckBox(tr("Send credentials as tofu finds them (oci_credentials, Docker-style auth files)"), this);
    formLayout->addRow(tr("Credentials:"), m_credentials);
    m_pinned = fileRow(this, formLayout, tr("Pinned keys:"), [this](QLineEdit *edit) {
        const QString f = QFileDialog::getOpenFileName(this, tr("Pinned Signing Keys"), QDir::homePath(),
                                                       tr("OpenPGP keys (*.asc *.gpg);;All files (*)"));
        if (!f.isEmpty())
            edit->setText(f);
    });
    m_pinned->setPlaceholderText(tr("accept signed provenance only from these keys (optional)"));
    layout->addLayout(formLayout);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_template, &QComboBox::currentTextChanged, this, &OpenOciDialog::updateState);
    for (QLineEdit *e : {m_locks, m_hostname, m_ca, m_pinned})
        connect(e, &QLineEdit::textChanged, this, &OpenOciDialog::updateState);
    for (QAbstractButton *b : std::initializer_list<QAbstractButton *>{m_fromCatalog, m_fromTyped, m_fromLocks, m_plainHttp, m_credentials})
        connect(b, &QAbstractButton::toggled, this, &OpenOciDialog::updateState);
    connect(m_typed, &QPlainTextEdit::textChanged, this, &OpenOciDialog::updateState);
    connect(m_listCatalog, &QPushButton::clicked, this, &OpenOciDialog::listCatalog);
    setForm(savedForm());
    resize(680, 460);
}

OpenOciDialog::~OpenOciDialog()
{
    m_jobs->clear();
}

void OpenOciDialog::setForm(const OciOpenForm &form)
{
    m_environment = form.environment;
    m_template->setCurrentText(form.repositoryTemplate);
    m_fromTyped->setChecked(form.from == OciOpenForm::Providers::Typed);
    m_fromLocks->setChecked(form.from == OciOpenForm::Providers::LockFiles);
    m_fromCatalog->setChecked(form.from == OciOpenForm::Providers::Catalog);
    m_typed->setPlainText(form.typed.join(QLatin1Char('\n')));
    m_locks->setText(form.lockFiles.join(QStringLiteral(", ")));
    m_hostname->setText(form.hostname);
    m_ca->setText(form.caFile);
    m_plainHttp->setChecked(form.plainHttp);
    m_credentials->setChecked(form.credentials);
    m_pinned->setText(form.pinnedKeysFile);
    updateState();
}

OciOpenForm OpenOciDialog::form() const
{
    OciOpenForm f;
    f.environment = m_environment;
    f.repositoryTemplate = m_template->currentText().trimmed();
    f.from = m_fromTyped->isChecked() ? OciOpenForm::Providers::Typed
        : m_fromLocks->isChecked()    ? OciOpenForm::Providers::LockFiles
                                      : OciOpenForm::Providers::Catalog;
    for (const QString &line : m_typed->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            f.typed << line.trimmed();
    f.lockFiles = splitList(m_locks->text());
    f.hostname = m_hostname->text().trimmed();
    f.caFile = m_ca->text().trimmed();
    f.plainHttp = m_plainHttp->isChecked();
    f.credentials = m_credentials->isChecked();
    f.pinnedKeysFile = m_pinned->text().trimmed();
    return f;
}

OciOpenForm OpenOciDialog::savedForm()
{
    const QVariantMap m = QSettings().value(kFormKey).toMap();
    OciOpenForm f;
    if (m.isEmpty())
        return f;
    f.repositoryTemplate = m.value(QStringLiteral("template")).toString();
    f.from = fromOf(m.value(QStringLiteral("from")).toString());
    f.typed = m.value(QStringLiteral("typed")).toStringList();
    f.lockFiles = m.value(QStringLiteral("lockFiles")).toStringList();
    f.hostname = m.value(QStringLiteral("hostname"), f.hostname).toString();
    f.caFile = m.value(QStringLiteral("caFile")).toString();
    f.plainHttp = m.value(QStringLiteral("plainHttp")).toBool();
    f.credentials = m.value(QStringLiteral("credentials"), true).toBool();
    f.pinnedKeysFile = m.value(QStringLiteral("pinnedKeys")).toString();
    return f;
}

void OpenOciDialog::saveForm(const OciOpenForm &form)
{
    QSettings settings;
    settings.setValue(kFormKey,
                      QVariantMap{{QStringLiteral("template"), form.repositoryTemplate},
                                  {QStringLiteral("from"), fromName(form.from)},
                                  {QStringLiteral("typed"), form.typed},
                                  {QStringLiteral("lockFiles"), form.lockFiles},
                                  {QStringLiteral("hostname"), form.hostname},
                                  {QStringLiteral("caFile"), form.caFile},
                                  {QStringLiteral("plainHttp"), form.plainHttp},
                                  {QStringLiteral("credentials"), form.credentials},
                                  {QStringLiteral("pinnedKeys"), form.pinnedKeysFile}});
    QStringList recent = recentTemplates();
    recent.removeAll(form.repositoryTemplate);
    recent.prepend(form.repositoryTemplate);
    settings.setValue(kRecentKey, recent.mid(0, 10));
}

QStringList OpenOciDialog::recentTemplates()
{
    return QSettings().value(kRecentKey).toStringList();
}

void OpenOciDialog::listCatalog()
{
    OciOpenForm f = form();
    f.from = OciOpenForm::Providers::Catalog;
    if (const QString p = ociFormProblem(f); !p.isEmpty()) {
        m_catalogLabel->setText(p);
        m_catalogLabel->show();
        Q_EMIT catalogListed(false);
        return;
    }
    m_listCatalog->setEnabled(false);
    m_catalogLabel->setText(tr("Listing the catalog of %1…").arg(f.templ().section(QLatin1Char('/'), 0, 0)));
    m_catalogLabel->show();
    m_jobs->run(
        QStringLiteral("catalog"), tr("Listing the catalog"),
        [f](JobProgress &) -> Result<OciCatalogListing> {
            const Result<OciMirrorOptions> mirror = ociMirrorOptions(f);
            if (!mirror.ok())
                return mirror.error();
            TemplateDefaults defaults;
            defaults.hostname = f.hostname;
            return listOciProviders(mirror.value(), defaults);
        },
        [this](const Result<OciCatalogListing> &listed) {
            m_listCatalog->setEnabled(true);
            if (!listed.ok()) {
                m_catalogLabel->setText(tr("The catalog could not be listed: %1").arg(listed.error().message));
                Q_EMIT catalogListed(false);
                return;
            }
            QStringList names;
            for (const ProviderAddress &p : listed.value().providers)
                names << p.toString();
            const qsizetype others = listed.value().repositories.size() - listed.value().providers.size();
            m_catalogLabel->setText(
                tr("%1 lists %n provider(s) under the template", nullptr, int(names.size())).arg(listed.value().registry)
                + (others > 0 ? tr(" (and %n other repositories)", nullptr, int(others)) : QString()));
            if (!names.isEmpty()) {
                m_typed->setPlainText(names.join(QLatin1Char('\n')));
                m_fromTyped->setChecked(true);
            }
            Q_EMIT catalogListed(true);
        });
}

QString OpenOciDialog::catalogMessage() const
{
    return m_catalogLabel->text();
}

void OpenOciDialog::accept()
{
    if (!problem().isEmpty())
        return;
    saveForm(form());
    QDialog::accept();
}

void OpenOciDialog::updateState()
{
    m_typed->setEnabled(m_fromTyped->isChecked());
    m_locks->setEnabled(m_fromLocks->isChecked());
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(showProblem(m_problem, problem()));
}

} // namespace provender::ui
