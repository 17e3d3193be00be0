#include "ui/oci/PublishOciDialog.h"

#include "model/bundle/BundleImport.h"
#include "model/core/SizeFormat.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/FormRows.h"
#include "ui/JobStatusRow.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/oci/OciFormWidgets.h"
#include "ui/oci/OpenOciDialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTreeView>
#include <QVBoxLayout>

namespace provender::ui {

using namespace provender::oci;

namespace {

const QString kPublishKey = QStringLiteral("oci/publish");

OciOpenForm openFormOf(const PublishOciDialog::Form &f, const QProcessEnvironment &env)
{
    OciOpenForm o;
    o.repositoryTemplate = f.repositoryTemplate;
    o.caFile = f.caFile;
    o.plainHttp = f.plainHttp;
    o.credentials = f.credentials;
    o.environment = env;
    return o;
}

QString actionText(OciBlobStep::Action action, bool dryRun)
{
    switch (action) {
    case OciBlobStep::Action::Present: return QObject::tr("already in the registry");
    case OciBlobStep::Action::Mount: return QObject::tr("mounted");
    case OciBlobStep::Action::Upload: break;
    }
    return dryRun ? QObject::tr("would upload") : QObject::tr("uploaded");
}

QList<QStandardItem *> row(const QStringList &cells)
{
    QList<QStandardItem *> items;
    for (const QString &c : cells) {
        auto *item = new QStandardItem(c);
        item->setEditable(false);
        items << item;
    }
    return items;
}

/// The push of `form` from `catalog` (a bundle `source` imported into a temporary directory first).
Result<OciPushReport> publish(const QString &source, bool bundle, Catalog catalog, const PublishOciDialog::Form &form,
                              const QProcessEnvironment &env, bool dryRun, JobProgress &job)
{
    const Result<OciMirrorOptions> mirror = ociMirrorOptions(openFormOf(form, env));
    if (!mirror.ok())
        return mirror.error();
    QTemporaryDir staging;
    if (bundle) {
        if (!staging.isValid())
            return makeError(ErrorCode::Io, QObject::tr("cannot create a temporary directory: %1").arg(staging.errorString()));
        const Result<ImportReport> imported = importBundle(source, staging.path(), ImportOptions{}, job.stagedCallback<BundleStage>());
        if (!imported.ok())
            return makeError(imported.error().code, QObject::tr("%1: %2").arg(source, imported.error().toString()));
        if (!imported.value().refusal.isEmpty())
            return makeError(ErrorCode::InvalidArgument, QObject::tr("%1: %2").arg(source, imported.value().refusal));
        Result<Catalog> scanned = scanFileSystemMirror(staging.path());
        if (!scanned.ok())
            return scanned.error();
        catalog = scanned.value();
    }
    if (job.isCancelled())
        return makeError(ErrorCode::Cancelled, QObject::tr("cancelled"));
    OciPushOptions options;
    options.only = form.providers;
    options.dryRun = dryRun;
    options.bytes = job.reporter();
    options.cancel = job.cancelFlag();
    return pushToOci(catalog, mirror.value(), options);
}

} // namespace

PublishOciDialog::PublishOciDialog(MainWindow *window, QWidget *parent) : QDialog(parent ? parent : window), m_jobs(new JobTracker(this))
{
    if (window->sourceKind() == MainWindow::SourceKind::Directory || window->sourceKind() == MainWindow::SourceKind::Bundle) {
        m_source = window->mirrorRoot();
        m_bundle = window->sourceKind() == MainWindow::SourceKind::Bundle;
        m_catalog = window->catalog();
    }
    build();
}

PublishOciDialog::PublishOciDialog(const QString &source, bool bundle, const Catalog &catalog, QWidget *parent)
    : QDialog(parent),
      m_source(source),
      m_bundle(bundle),
      m_catalog(catalog),
      m_jobs(new JobTracker(this))
{
    build();
}

PublishOciDialog::~PublishOciDialog()
{
    // The worker only reads the source and talks to the registry: cancel, then wait for it (its
    // temporary directory is removed by the worker itself).
    m_jobs->cancelAll();
    m_jobs->waitFor(QStringLiteral("publish"));
    m_jobs->clear();
}

void PublishOciDialog::build()
{
    setWindowTitle(tr("Publish to OCI Registry"));
    auto *layout = new QVBoxLayout(this);
    auto *formLayout = new QFormLayout;
    m_sourceLabel = new QLabel(this);
    m_sourceLabel->setWordWrap(true);
    m_sourceLabel->setText(m_source.isEmpty() ? tr("(none: open a directory mirror or a bundle in the browser)")
                               : m_bundle     ? tr("Bundle %1").arg(QDir::toNativeSeparators(m_source))
                                              : tr("Directory %1").arg(QDir::toNativeSeparators(m_source)));
    formLayout->addRow(tr("Source:"), m_sourceLabel);
    m_template = new QComboBox(this);
    m_template->setEditable(true);
    m_template->addItems(OpenOciDialog::recentTemplates());
    m_template->lineEdit()->setPlaceholderText(QStringLiteral("registry.example.com/mirror/${namespace}/${type}"));
    m_template->setMinimumContentsLength(48);
    formLayout->addRow(tr("Repository template:"), m_template);
    m_providers = new QListWidget(this);
    m_providers->setMaximumHeight(80);
    for (const Provider &p : m_catalog.providers) {
        auto *item = new QListWidgetItem(tr("%1 (%n version(s))", nullptr, int(p.versions.size())).arg(p.address.toString()), m_providers);
        item->setData(Qt::UserRole, p.address.toString());
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    formLayout->addRow(tr("Providers:"), m_providers);
    m_ca = ociform::caFileRow(this, formLayout);
    m_plainHttp = new QCheckBox(tr("Plain http:// (loopback registries only)"), this);
    formLayout->addRow(QString(), m_plainHttp);
    m_credentials = new QCheckBox(tr("Send credentials as tofu finds them (oci_credentials, Docker-style auth files)"), this);
    m_credentials->setChecked(true);
    formLayout->addRow(tr("Credentials:"), m_credentials);
    layout->addLayout(formLayout);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);

    auto *buttons = new QHBoxLayout;
    m_dryRun = new QPushButton(tr("Dry Run"), this);
    m_dryRun->setToolTip(tr("Only look (HEAD requests): list what would be uploaded and what the registry already has"));
    m_publish = new QPushButton(tr("Publish"), this);
    m_publish->setToolTip(tr("Upload what the registry lacks, write manifests and indexes, tag each version last, then read it back"));
    buttons->addWidget(m_dryRun);
    buttons->addWidget(m_publish);
    buttons->addStretch(1);
    buttons->addWidget(new JobStatusRow(m_jobs, this));
    layout->addLayout(buttons);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_results = new QStandardItemModel(this);
    m_results->setHorizontalHeaderLabels({tr("Item"), tr("Status"), tr("Size"), tr("Repository"), tr("Tag or digest")});
    m_view = new QTreeView(split);
    m_view->setModel(m_results);
    m_view->setUniformRowHeights(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    auto *blockBox = new QWidget(split);
    auto *blockLayout = new QVBoxLayout(blockBox);
    blockLayout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(blockBox);
    m_summary->setWordWrap(true);
    blockLayout->addWidget(m_summary);
    auto *blockHeader = new QHBoxLayout;
    blockHeader->addWidget(
        new QLabel(tr("Add this to the tofu CLI configuration (OpenTofu 1.10+ reads oci_mirror; terraform does not):"), blockBox), 1);
    m_copy = new QPushButton(tr("Copy"), blockBox);
    m_copy->setEnabled(false);
    blockHeader->addWidget(m_copy);
    blockLayout->addLayout(blockHeader);
    m_block = new QPlainTextEdit(blockBox);
    m_block->setReadOnly(true);
    m_block->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_block->setPlaceholderText(tr("The oci_mirror block appears here after a dry run or a push."));
    blockLayout->addWidget(m_block);
    split->addWidget(m_view);
    split->addWidget(blockBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(close);

    connect(m_dryRun, &QPushButton::clicked, this, [this] { start(true); });
    connect(m_publish, &QPushButton::clicked, this, [this] { start(false); });
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_block->toPlainText()); });
    connect(m_template, &QComboBox::currentTextChanged, this, &PublishOciDialog::updateProblem);
    connect(m_ca, &QLineEdit::textChanged, this, &PublishOciDialog::updateProblem);
    connect(m_providers, &QListWidget::itemChanged, this, &PublishOciDialog::updateProblem);
    connect(m_jobs, &JobTracker::busyChanged, this, &PublishOciDialog::updateProblem);

    const QVariantMap saved = QSettings().value(kPublishKey).toMap();
    Form f;
    f.repositoryTemplate = saved.value(QStringLiteral("template")).toString();
    f.caFile = saved.value(QStringLiteral("caFile")).toString();
    f.plainHttp = saved.value(QStringLiteral("plainHttp")).toBool();
    f.credentials = saved.value(QStringLiteral("credentials"), true).toBool();
    setForm(f);
    resize(820, 640);
}

void PublishOciDialog::setForm(const Form &form)
{
    m_template->setCurrentText(form.repositoryTemplate);
    for (int i = 0; i < m_providers->count(); ++i) {
        QListWidgetItem *item = m_providers->item(i);
        const bool on = form.providers.isEmpty()
            || std::any_of(form.providers.cbegin(), form.providers.cend(),
                           [&](const ProviderAddress &p) { return p.toString() == item->data(Qt::UserRole).toString(); });
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    m_ca->setText(form.caFile);
    m_plainHttp->setChecked(form.plainHttp);
    m_credentials->setChecked(form.credentials);
    updateProblem();
}

PublishOciDialog::Form PublishOciDialog::form() const
{
    Form f;
    f.repositoryTemplate = m_template->currentText().trimmed();
    bool all = true;
    for (int i = 0; i < m_providers->count(); ++i) {
        const QListWidgetItem *item = m_providers->item(i);
        if (item->checkState() == Qt::Checked) {
            if (const Result<ProviderAddress> a = ProviderAddress::parse(item->data(Qt::UserRole).toString()); a.ok())
                f.providers << a.value();
        } else {
            all = false;
        }
    }
    if (all)
        f.providers.clear(); // every provider
    f.caFile = m_ca->text().trimmed();
    f.plainHttp = m_plainHttp->isChecked();
    f.credentials = m_credentials->isChecked();
    return f;
}

QString PublishOciDialog::problem() const
{
    if (m_source.isEmpty())
        return tr("Open a directory mirror or a bundle in the browser first: that is what is published.");
    if (m_catalog.providers.isEmpty())
        return tr("The source holds no provider.");
    const Form f = form();
    const QString templ = openFormOf(f, m_environment).templ();
    if (templ.isEmpty())
        return tr("Type the repository template, e.g. registry.example.com/mirror/${namespace}/${type}");
    bool any = false;
    for (int i = 0; i < m_providers->count(); ++i)
        any = any || m_providers->item(i)->checkState() == Qt::Checked;
    if (!any)
        return tr("Choose at least one provider.");
    QList<ProviderAddress> candidates = f.providers;
    if (candidates.isEmpty())
        for (const Provider &p : m_catalog.providers)
            candidates << p.address;
    if (const Result<void> ok = checkRepositoryTemplate(templ, candidates); !ok.ok())
        return ok.error().message;
    if (!f.caFile.isEmpty() && !QFileInfo::exists(f.caFile))
        return tr("The CA file %1 does not exist").arg(f.caFile);
    return {};
}

void PublishOciDialog::updateProblem()
{
    const bool usable = showProblem(m_problem, problem());
    const bool idle = !m_jobs->isBusy();
    m_dryRun->setEnabled(usable && idle);
    m_publish->setEnabled(usable && idle);
}

void PublishOciDialog::start(bool dryRun)
{
    if (!problem().isEmpty())
        return;
    const Form f = form();
    QSettings settings;
    settings.setValue(kPublishKey,
                      QVariantMap{{QStringLiteral("template"), f.repositoryTemplate},
                                  {QStringLiteral("caFile"), f.caFile},
                                  {QStringLiteral("plainHttp"), f.plainHttp},
                                  {QStringLiteral("credentials"), f.credentials}});
    QStringList recent = OpenOciDialog::recentTemplates();
    recent.removeAll(f.repositoryTemplate);
    recent.prepend(f.repositoryTemplate);
    settings.setValue(QStringLiteral("oci/recentTemplates"), recent.mid(0, 10));
    m_results->removeRows(0, m_results->rowCount());
    m_summary->clear();
    m_block->clear();
    m_copy->setEnabled(false);
    const QString templ = openFormOf(f, m_environment).templ();
    m_jobs->run(
        QStringLiteral("publish"), dryRun ? tr("Looking at %1…").arg(templ) : tr("Publishing to %1…").arg(templ),
        [source = m_source, bundle = m_bundle, catalog = m_catalog, f, env = m_environment, dryRun](JobProgress &job) {
            return publish(source, bundle, catalog, f, env, dryRun, job);
        },
        [this, dryRun, templ](const Result<OciPushReport> &report) {
            m_publishedTemplate = templ; // the form may have been edited while the job ran
            if (!report.ok()) {
                m_summary->setText(tr("Nothing was published: %1").arg(report.error().message));
                Q_EMIT finished(dryRun, report.error().code == ErrorCode::Cancelled);
                return;
            }
            showReport(dryRun, report.value());
            Q_EMIT finished(dryRun, report.value().cancelled);
        });
    updateProblem();
}

void PublishOciDialog::showReport(bool dryRun, const OciPushReport &report)
{
    m_report = report;
    m_results->removeRows(0, m_results->rowCount());
    QList<QStandardItem *> versions = row({tr("Versions (%1)").arg(report.versions.size()), {}, {}, {}, {}});
    for (const OciPushedVersion &v : report.versions) {
        const QString status = !v.error.isEmpty() ? tr("failed: %1").arg(v.error)
            : v.tagUnchanged                      ? tr("unchanged (the tag names this index)")
            : dryRun                              ? tr("would tag")
                                                  : tr("tagged");
        QStringList platforms;
        for (const Platform &p : v.platforms)
            platforms << p.toString();
        QList<QStandardItem *> r =
            row({QStringLiteral("%1 %2 (%3)").arg(v.provider.toString(), v.version.toString(), platforms.join(QStringLiteral(", "))),
                 status, QString(), v.repository, v.tag});
        versions.first()->appendRow(r);
    }
    m_results->appendRow(versions);
    int upload = 0, present = 0, mounted = 0;
    for (const OciBlobStep &b : report.blobs)
        (b.action == OciBlobStep::Action::Present ? present : b.action == OciBlobStep::Action::Mount ? mounted : upload) += 1;
    const QString counts = dryRun ? tr("%1 would be uploaded, %2 already present").arg(upload).arg(present)
                                  : tr("%1 uploaded, %2 mounted, %3 already present").arg(upload).arg(mounted).arg(present);
    QList<QStandardItem *> blobs = row({tr("Blobs (%1: %2)").arg(report.blobs.size()).arg(counts), {}, {}, {}, {}});
    for (const OciBlobStep &b : report.blobs)
        blobs.first()->appendRow(row({b.what, actionText(b.action, dryRun), formatDataSize(b.size), b.repository, b.digest}));
    m_results->appendRow(blobs);
    m_view->expandAll();
    for (int c = 0; c < m_results->columnCount(); ++c)
        m_view->resizeColumnToContents(c);

    QString text = dryRun ? tr("Dry run: would upload %1 blob(s) (%2), %3 already present; %4 tag(s) to write, %5 unchanged.")
                                .arg(report.blobsUploaded)
                                .arg(formatDataSize(report.bytesUploaded))
                                .arg(report.blobsPresent)
                                .arg(report.versions.size() - report.tagsUnchanged)
                                .arg(report.tagsUnchanged)
                          : tr("Uploaded %1 blob(s) (%2), %3 already present, %4 mounted; %5 tag(s) written, %6 unchanged.")
                                .arg(report.blobsUploaded)
                                .arg(formatDataSize(report.bytesUploaded))
                                .arg(report.blobsPresent)
                                .arg(report.blobsMounted)
                                .arg(report.tagsWritten)
                                .arg(report.tagsUnchanged);
    if (report.cancelled)
        text += QLatin1Char(' ') + tr("Cancelled: versions not finished were not tagged.");
    if (report.verification) {
        const VerifySummary &s = report.verification->report.summary;
        text += QLatin1Char(' ')
            + tr("Read back: %1 of %2 archive(s) verified").arg(s.count(Verdict::Verified)).arg(report.verification->report.results.size());
        if (s.hasFindings() || !report.verification->catalog.anomalies.isEmpty())
            text += tr(", with findings (open the registry with Open OCI Registry… to see them)");
        text += QLatin1Char('.');
    }
    m_summary->setText(text);
    m_jobs->setMessage(report.cancelled ? tr("Cancelled.") : dryRun ? tr("Dry run done: nothing was written.") : tr("Published."));
    QList<ProviderAddress> published;
    for (const OciPushedVersion &v : report.versions)
        if (v.error.isEmpty() && !published.contains(v.provider))
            published << v.provider;
    if (!published.isEmpty() && !report.cancelled) {
        m_block->setPlainText(ociMirrorConfigBlock(m_publishedTemplate, published));
        m_copy->setEnabled(true);
    }
    updateProblem();
}

QString PublishOciDialog::summary() const
{
    return m_summary->text();
}

QString PublishOciDialog::configBlock() const
{
    return m_block->toPlainText();
}

} // namespace provender::ui
