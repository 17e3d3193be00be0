#include "ui/registry/PullRegistryDialog.h"

#include "model/core/SizeFormat.h"
#include "model/registry/PullRequests.h"
#include "model/registry/RegistryClient.h"
#include "ui/FormRows.h"
#include "ui/JobStatusRow.h"
#include "ui/JobTracker.h"
#include "ui/registry/RegistryFormFields.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSslCertificate>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <atomic>
#include <memory>

namespace provender::ui {

namespace {

/// Everything the job needs, read from the form on the GUI thread.
struct PullJob
{
    PullRegistryDialog::Form form;
    QProcessEnvironment environment;
    bool dryRun = false;
};

Result<PullReport> runPull(const PullJob &job, JobProgress &progress)
{
    const PullRegistryDialog::Form &f = job.form;
    Result<QList<PullRequest>> listed = pullRequestsFrom(f.typed, f.lockFiles);
    if (!listed)
        return listed.error();
    const QList<PullRequest> &requests = *listed;
    const Result<RegistryOptions> ro = registryOptionsFor(HttpSettings(), job.environment, f.caFile);
    if (!ro)
        return ro.error();
    PullOptions po;
    po.destination = f.destination;
    po.platforms = f.platforms;
    po.unpacked = f.unpacked;
    po.withZh = f.withZh;
    po.dryRun = job.dryRun;
    const Result<SignatureOptions> signature = signatureOptionsFor(f.pinnedKeysFile);
    if (!signature)
        return signature.error();
    po.signature = *signature;
    RegistryClient client(*ro);
    const qint64 total = qint64(requests.size()) * po.platforms.size();
    std::atomic<qint64> done{0};
    progress.report(0, total);
    return pullFromRegistry(
        requests, po, client, [&](const PulledArchive &) { progress.report(++done, total); }, progress.cancelFlag());
}

} // namespace

PullRegistryDialog::PullRegistryDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Pull from Registry"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    RegistryFormFields::Texts texts;
    texts.locksPlaceholder = tr("their pinned versions, comma-separated");
    texts.platforms = QStringLiteral("linux_amd64");
    texts.platformsPlaceholder = tr("linux_amd64, darwin_arm64, …");
    texts.browse = true;
    m_fields = new RegistryFormFields(this, texts);
    m_fields->addProviderRows(form);
    m_destination = fileRow(this, form, tr("Target directory:"), [this](QLineEdit *edit) {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Target Directory"), edit->text().isEmpty() ? QDir::homePath() : edit->text());
        if (!dir.isEmpty())
            edit->setText(dir);
    });
    m_unpacked = new QCheckBox(tr("Unpacked (HOST/NS/TYPE/VERSION/OS_ARCH folders, no indexes)"), this);
    m_withZh = new QCheckBox(tr("Write zh: into the indexes too"), this);
    form->addRow(QString(), m_unpacked);
    form->addRow(QString(), m_withZh);
    m_fields->addTrustRows(form);
    layout->addLayout(form);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);

    m_results = new QStandardItemModel(0, 6, this);
    m_results->setHorizontalHeaderLabels(
        {tr("Status"), tr("Provider"), tr("Version"), tr("Platform"), tr("Size"), tr("Signed by / reason")});
    m_view = new QTreeView(this);
    m_view->setRootIsDecorated(false);
    m_view->setModel(m_results);
    m_view->header()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);
    m_summary = new QLabel(this);
    layout->addWidget(m_summary);

    m_jobs = new JobTracker(this);
    layout->addWidget(new JobStatusRow(m_jobs, this));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_dryRun = buttons->addButton(tr("&Dry Run"), QDialogButtonBox::ActionRole);
    m_pull = buttons->addButton(tr("&Pull"), QDialogButtonBox::ActionRole);
    connect(m_dryRun, &QPushButton::clicked, this, [this] { start(true); });
    connect(m_pull, &QPushButton::clicked, this, [this] { start(false); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_destination, &QLineEdit::textChanged, this, &PullRegistryDialog::updateProblem);
    connect(m_fields, &RegistryFormFields::changed, this, &PullRegistryDialog::updateProblem);
    resize(760, 560);
    updateProblem();
}

PullRegistryDialog::~PullRegistryDialog()
{
    m_jobs->clear(); // nothing may call back into this dialog
}

void PullRegistryDialog::setForm(const Form &form)
{
    m_fields->setValuesFrom(form);
    m_destination->setText(form.destination);
    m_unpacked->setChecked(form.unpacked);
    m_withZh->setChecked(form.withZh);
}

PullRegistryDialog::Form PullRegistryDialog::form() const
{
    Form f;
    m_fields->copyValuesTo(&f);
    f.destination = m_destination->text().trimmed();
    f.unpacked = m_unpacked->isChecked();
    f.withZh = m_withZh->isChecked();
    return f;
}

QString PullRegistryDialog::problem() const
{
    const Form f = form();
    const Result<QList<PullRequest>> typed = parsePullRequests(f.typed);
    if (!typed)
        return tr("Providers: %1").arg(typed.error().message);
    if (typed->isEmpty() && f.lockFiles.isEmpty())
        return tr("Name providers or give a lock file.");
    if (const QString p = m_fields->platformProblem(); !p.isEmpty())
        return p;
    if (f.platforms.isEmpty())
        return tr("Give at least one platform.");
    if (f.destination.isEmpty())
        return tr("Choose the target directory.");
    return {};
}

void PullRegistryDialog::updateProblem()
{
    const bool usable = showProblem(m_problem, problem());
    m_dryRun->setEnabled(usable);
    m_pull->setEnabled(usable);
}

void PullRegistryDialog::start(bool dryRun)
{
    if (!problem().isEmpty())
        return;
    const PullJob job{form(), m_environment, dryRun};
    m_results->removeRows(0, m_results->rowCount());
    m_summary->clear();
    m_jobs->run(
        QStringLiteral("pull"), dryRun ? tr("Resolving what would be fetched…") : tr("Pulling into %1…").arg(job.form.destination),
        [job](JobProgress &progress) { return runPull(job, progress); },
        [this, dryRun, destination = job.form.destination](const Result<PullReport> &report) {
            if (!report.ok()) {
                m_summary->setText(report.error().message);
                return;
            }
            showReport(dryRun, *report);
            m_jobs->setMessage(dryRun ? tr("Dry run: nothing was written.") : tr("Pulled into %1.").arg(destination));
            Q_EMIT finished(dryRun, *report);
            const bool placed = std::any_of(report->archives.cbegin(), report->archives.cend(), [](const PulledArchive &a) {
                return a.status == PulledArchive::Status::Fetched || a.status == PulledArchive::Status::AlreadyPresent;
            });
            if (!dryRun && placed && !report->cancelled)
                Q_EMIT pulled(destination);
        });
}

void PullRegistryDialog::showReport(bool dryRun, const PullReport &report)
{
    QHash<QString, int> counts;
    qint64 bytes = 0;
    int unknownSize = 0;
    for (const PulledArchive &a : report.archives) {
        const QString status = toString(a.status);
        ++counts[status];
        if (a.size >= 0)
            bytes += a.size;
        else if (a.status == PulledArchive::Status::WouldFetch)
            ++unknownSize;
        QList<QStandardItem *> row{new QStandardItem(status),
                                   new QStandardItem(a.provider.toString()),
                                   new QStandardItem(a.version.toString()),
                                   new QStandardItem(a.platform.toString()),
                                   new QStandardItem(a.size >= 0 ? formatDataSize(a.size) : tr("unknown")),
                                   new QStandardItem(a.keyId.isEmpty() ? a.reason : tr("key ID %1").arg(a.keyId))};
        for (QStandardItem *item : row)
            item->setEditable(false);
        m_results->appendRow(row);
    }
    for (const QString &e : report.errors) {
        QList<QStandardItem *> row{new QStandardItem(tr("error")),
                                   new QStandardItem,
                                   new QStandardItem,
                                   new QStandardItem,
                                   new QStandardItem,
                                   new QStandardItem(e)};
        m_results->appendRow(row);
        ++counts[tr("error")];
    }
    QStringList parts;
    for (const QString &s : {QStringLiteral("would fetch"), QStringLiteral("fetched"), QStringLiteral("present"), QStringLiteral("refused"),
                             QStringLiteral("unavailable"), QStringLiteral("failed"), tr("error")})
        if (counts.value(s))
            parts << QStringLiteral("%1 %2").arg(counts.value(s)).arg(s);
    QString text = parts.isEmpty() ? tr("Nothing to pull.") : parts.join(QStringLiteral(", "));
    if (dryRun && counts.value(QStringLiteral("would fetch")))
        text += unknownSize ? tr(" (%1 known, %2 of unknown size)").arg(formatDataSize(bytes)).arg(unknownSize)
                            : tr(" (%1)").arg(formatDataSize(bytes));
    else if (!dryRun)
        text += tr(" (%1)").arg(formatDataSize(bytes));
    if (report.cancelled)
        text += tr(" — cancelled");
    m_summary->setText(text);
    for (int c = 0; c < m_results->columnCount() - 1; ++c)
        m_view->resizeColumnToContents(c);
}

QString PullRegistryDialog::summary() const
{
    return m_summary->text();
}

} // namespace provender::ui
