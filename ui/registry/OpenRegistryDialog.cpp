#include "ui/registry/OpenRegistryDialog.h"

#include "model/registry/PullRequests.h"
#include "model/registry/RegistrySource.h"
#include "ui/FormRows.h"
#include "ui/MainWindow.h"
#include "ui/registry/RegistryFormFields.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSslCertificate>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace provender::ui {

namespace {

/// `NS/TYPE[=C]` → `HOST/NS/TYPE[=C]`; anything else as typed.
QString withHost(const QString &line, const QString &host)
{
    const QString t = line.trimmed();
    const QString address = t.section(QLatin1Char('='), 0, 0);
    return address.count(QLatin1Char('/')) == 1 && !host.isEmpty() ? host + QLatin1Char('/') + t : t;
}

QString locationOf(const QList<PullRequest> &requests)
{
    QStringList hosts;
    for (const PullRequest &r : requests)
        if (!hosts.contains(r.provider.hostname()))
            hosts << r.provider.hostname();
    return QStringLiteral("registry:") + hosts.join(QLatin1Char(','));
}

} // namespace

Result<QList<PullRequest>> registryRequests(const RegistryOpenForm &form)
{
    QStringList lines;
    for (const QString &line : form.typed)
        lines << withHost(line, form.host.trimmed());
    Result<QList<PullRequest>> out = pullRequestsFrom(lines, form.lockFiles);
    if (out && out->isEmpty())
        return makeError(ErrorCode::InvalidArgument, QObject::tr("name providers or give a lock file"));
    return out;
}

bool openRegistry(MainWindow *window, const RegistryOpenForm &form, QString *error)
{
    const Result<QList<PullRequest>> requests = registryRequests(form);
    if (!requests) {
        if (error)
            *error = requests.error().message;
        return false;
    }
    window->openMadeSource(
        locationOf(*requests), [form, requests = *requests](const HttpSettings &http) -> Result<std::shared_ptr<MirrorSource>> {
            const Result<RegistryOptions> ro = registryOptionsFor(http, form.environment, form.caFile);
            if (!ro)
                return ro.error();
            const Result<SignatureOptions> signature = signatureOptionsFor(form.pinnedKeysFile);
            if (!signature)
                return signature.error();
            return std::shared_ptr<MirrorSource>(std::make_shared<RegistrySource>(*ro, requests, form.platforms, *signature));
        });
    return true;
}

bool openRegistryArgument(MainWindow *window, const QString &arg, QString *error)
{
    if (!arg.startsWith(QLatin1StringView("registry:")))
        return false;
    const qsizetype q = arg.indexOf(QLatin1Char('?'));
    RegistryOpenForm form;
    form.host = arg.mid(9, q < 0 ? -1 : q - 9);
    const QUrlQuery query(q < 0 ? QString() : arg.mid(q + 1));
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1StringView("provider")) {
            form.typed << value;
        } else if (key == QLatin1StringView("lock")) {
            form.lockFiles << value;
        } else if (key == QLatin1StringView("platform")) {
            const Result<Platform> p = Platform::parse(value);
            if (!p) {
                if (error)
                    *error = QObject::tr("platform %1: %2").arg(value, p.error().message);
                return false;
            }
            form.platforms << *p;
        } else if (key == QLatin1StringView("ca")) {
            form.caFile = value;
        } else if (key == QLatin1StringView("pinned")) {
            form.pinnedKeysFile = value;
        } else {
            if (error)
                *error = QObject::tr("unknown item %1 (provider, lock, platform, ca, pinned)").arg(key);
            return false;
        }
    }
    return openRegistry(window, form, error);
}

OpenRegistryDialog::OpenRegistryDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Registry"));
    auto *layout = new QVBoxLayout(this);
    auto *formLayout = new QFormLayout;
    m_host = new QLineEdit(QStringLiteral("registry.opentofu.org"), this);
    formLayout->addRow(tr("Registry host:"), m_host);
    RegistryFormFields::Texts texts;
    texts.locksPlaceholder = tr("lock files (their pinned versions), comma-separated");
    texts.platformsPlaceholder = tr("empty: every platform of each version");
    m_fields = new RegistryFormFields(this, texts);
    m_fields->addProviderRows(formLayout);
    m_fields->addTrustRows(formLayout);
    layout->addLayout(formLayout);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    connect(m_host, &QLineEdit::textChanged, this, &OpenRegistryDialog::updateProblem);
    connect(m_fields, &RegistryFormFields::changed, this, &OpenRegistryDialog::updateProblem);
    resize(620, 380);
    updateProblem();
}

void OpenRegistryDialog::setForm(const RegistryOpenForm &form)
{
    m_environment = form.environment;
    m_host->setText(form.host);
    m_fields->setValuesFrom(form);
}

RegistryOpenForm OpenRegistryDialog::form() const
{
    RegistryOpenForm f;
    f.environment = m_environment;
    f.host = m_host->text().trimmed();
    m_fields->copyValuesTo(&f);
    return f;
}

QString OpenRegistryDialog::problem() const
{
    if (const QString p = m_fields->platformProblem(); !p.isEmpty())
        return p;
    const Result<QList<PullRequest>> r = registryRequests(form());
    return r.ok() ? QString() : r.error().message;
}

void OpenRegistryDialog::updateProblem()
{
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(showProblem(m_problem, problem()));
}

} // namespace provender::ui
