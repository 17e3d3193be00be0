#include "ui/bundle/BundleDialogs.h"

#include "ui/FormRows.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"

#include "model/bundle/BundlePlanModels.h"
#include "model/core/Logging.h"
#include "model/mirror/FileSystemMirror.h"

#include <QApplication>
#include <QBrush>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSet>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <tuple>
#include <utility>

namespace provender::ui {

namespace {

enum Mode { ModeAll, ModeSelection, ModeLockFiles };

QString stageText(BundleStage stage)
{
    switch (stage) {
    case BundleStage::Reading: return QObject::tr("Reading the bundle");
    case BundleStage::Hashing: return QObject::tr("Hashing archives");
    case BundleStage::Writing: return QObject::tr("Writing the bundle");
    case BundleStage::Committing: return QObject::tr("Merging into the mirror");
    }
    return {};
}

/// Shows `job`'s progress on `bar` (percent of the current stage, with the stage's name).
void showProgress(QProgressBar *bar, const JobProgress &job)
{
    const qint64 total = job.total();
    const qint64 done = job.done();
    bar->setRange(0, 1000);
    bar->setValue(total > 0 ? int(qBound(qint64(0), done * 1000 / total, qint64(1000))) : 0);
    const auto stage = BundleStage(job.stage());
    const QString amount = stage == BundleStage::Committing
        ? QObject::tr("%1 of %2").arg(done).arg(total)
        : QObject::tr("%1 of %2").arg(formatBundleBytes(done), formatBundleBytes(total));
    bar->setFormat(QStringLiteral("%1 — %2").arg(stageText(stage), amount));
}

/// Sorts by the plan models' SortRole and paints rows that need attention (a shortfall, a row that
/// blocks the import) red — a darker red on light windows, a lighter one on dark windows — with a
/// warning icon in the first column, so that colour is not the only cue.
class AttentionProxy : public QSortFilterProxyModel
{
public:
    AttentionProxy(int attentionRole, QObject *parent) : QSortFilterProxyModel(parent), m_role(attentionRole) {}
    QVariant data(const QModelIndex &index, int role) const override
    {
        if ((role == Qt::ForegroundRole || role == Qt::DecorationRole) && index.isValid()
            && QSortFilterProxyModel::data(index, m_role).toBool()) {
            if (role == Qt::ForegroundRole)
                return QBrush(attentionColour());
            if (index.column() == 0)
                return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        }
        return QSortFilterProxyModel::data(index, role);
    }

private:
    static QColor attentionColour()
    {
        // Light windows: a dark red; dark windows: a light red.
        return QApplication::palette().color(QPalette::Window).lightness() < 128 ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
    }
    int m_role;
};

QTableView *makeTable(QAbstractItemModel *model, const QString &objectName, int attentionRole)
{
    auto *proxy = new AttentionProxy(attentionRole, model);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole + 1); // both plan models use UserRole + 1 as SortRole
    auto *view = new QTableView;
    view->setObjectName(objectName);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // keep the model's order until the user sorts
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    return view;
}

/// Under the table: the status line ("statusLabel", selectable, hidden until showStatus() gives it
/// a text) and the progress bar ("progressBar", shown while a job runs).
std::pair<QLabel *, QProgressBar *> addStatusRows(QVBoxLayout *layout)
{
    QLabel *label = selectableLabel(QStringLiteral("statusLabel"));
    label->hide();
    layout->addWidget(label);
    auto *bar = new QProgressBar;
    bar->setObjectName(QStringLiteral("progressBar"));
    bar->hide();
    layout->addWidget(bar);
    return {label, bar};
}

/// The dialog's JobTracker: its progress ticks show the dialog's running job (`*job`, null between
/// jobs) on `bar`.
JobTracker *newJobTracker(QDialog *dialog, QProgressBar *bar, const std::shared_ptr<JobProgress> *job)
{
    auto *jobs = new JobTracker(dialog);
    QObject::connect(jobs, &JobTracker::progress, dialog, [bar, job] {
        if (*job)
            showProgress(bar, **job);
    });
    return jobs;
}

/// Fits the columns to their contents, but no column wider than a third of the view, so the last
/// ones stay in sight (full texts are in the tooltips).
void fitColumns(QTableView *view)
{
    view->resizeColumnsToContents();
    const int cap = qMax(160, view->viewport()->width() / 3);
    for (int c = 0; c < view->model()->columnCount(); ++c)
        if (view->columnWidth(c) > cap)
            view->setColumnWidth(c, cap);
}

void showStatus(QLabel *label, const QString &text, bool error)
{
    label->setText(text);
    label->setStyleSheet(error ? QStringLiteral("QLabel { color: #c62828; }") : QString());
    label->setVisible(!text.isEmpty());
}

QLabel *buddyLabel(const QString &text, QWidget *buddy)
{
    auto *label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}

bool isLockFileName(const QString &path)
{
    return path.endsWith(QLatin1StringView(".hcl"));
}

} // namespace

// ---- CreateBundleDialog ------------------------------------------------------------------------

CreateBundleDialog::CreateBundleDialog(const QString &mirrorRoot, const QStringList &selectedPaths, QWidget *parent)
    : QDialog(parent),
      m_root(mirrorRoot),
      m_selectedPaths(selectedPaths)
{
    setWindowTitle(tr("Create Bundle"));
    setAcceptDrops(true);
    resize(820, 620);
    auto *layout = new QVBoxLayout(this);

    auto *source = new QLabel(tr("Source mirror: <b>%1</b>").arg(QDir::toNativeSeparators(m_root).toHtmlEscaped()));
    source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(source);

    auto *whatBox = new QGroupBox(tr("What goes in"));
    auto *whatLayout = new QGridLayout(whatBox);
    m_mode = new QButtonGroup(this);
    auto *all = new QRadioButton(tr("&All archives of the mirror"));
    all->setObjectName(QStringLiteral("modeAll"));
    auto *sel = new QRadioButton(tr("&Selected archives (%n)", nullptr, int(m_selectedPaths.size())));
    sel->setObjectName(QStringLiteral("modeSelection"));
    sel->setEnabled(!m_selectedPaths.isEmpty());
    auto *locks = new QRadioButton(tr("Exactly what these &lock files need, for these platforms:"));
    locks->setObjectName(QStringLiteral("modeLockFiles"));
    m_mode->addButton(all, ModeAll);
    m_mode->addButton(sel, ModeSelection);
    m_mode->addButton(locks, ModeLockFiles);
    (m_selectedPaths.isEmpty() ? all : sel)->setChecked(true);
    whatLayout->addWidget(all, 0, 0, 1, 2);
    whatLayout->addWidget(sel, 1, 0, 1, 2);
    whatLayout->addWidget(locks, 2, 0, 1, 2);

    m_lockList = new QListWidget;
    m_lockList->setObjectName(QStringLiteral("lockFileList"));
    m_lockList->setToolTip(tr("Lock files (.terraform.lock.hcl); drop them onto this dialog to add them"));
    auto *lockButtons = new QHBoxLayout;
    auto *addLock = new QPushButton(tr("Add…"));
    auto *removeLock = new QPushButton(tr("Remove"));
    lockButtons->addWidget(addLock);
    lockButtons->addWidget(removeLock);
    lockButtons->addStretch();
    auto *lockColumn = new QVBoxLayout;
    lockColumn->addWidget(m_lockList);
    lockColumn->addLayout(lockButtons);
    m_platformList = new QListWidget;
    m_platformList->setObjectName(QStringLiteral("platformList"));
    m_platformList->setToolTip(tr("Platforms the bundle must carry for every locked provider"));
    m_lockList->setMaximumHeight(fontMetrics().height() * 7);
    m_platformList->setMaximumHeight(fontMetrics().height() * 7 + fontMetrics().height() * 2);
    whatLayout->addLayout(lockColumn, 3, 0);
    whatLayout->addWidget(m_platformList, 3, 1);
    whatLayout->setColumnStretch(0, 3);
    whatLayout->setColumnStretch(1, 2);
    layout->addWidget(whatBox);

    QPushButton *browse = nullptr;
    layout->addLayout(buildOutputForm(&browse));

    m_model = new BundleSelectionModel(this);
    m_preview = makeTable(m_model, QStringLiteral("previewView"), BundleSelectionModel::MissingRole);
    layout->addWidget(m_preview, 1);
    m_summary = new QLabel(tr("Reading the mirror…"));
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    layout->addWidget(m_summary);
    std::tie(m_status, m_progress) = addStatusRows(layout);

    auto *buttons = new QDialogButtonBox;
    m_createButton = buttons->addButton(tr("Create"), QDialogButtonBox::AcceptRole);
    m_createButton->setObjectName(QStringLiteral("createButton"));
    m_cancelButton = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    layout->addWidget(buttons);

    QSettings settings;
    const int format = m_format->findData(settings.value(QStringLiteral("bundles/format"), int(BundleFormat::TarGz)).toInt());
    m_format->setCurrentIndex(qMax(0, format));
    const QString dir = settings.value(QStringLiteral("bundles/lastDirectory"), QDir::homePath()).toString();
    m_output->setText(QDir(dir).filePath(QStringLiteral("mirror-bundle.") + toString(BundleFormat(m_format->currentData().toInt()))));

    connect(m_mode, &QButtonGroup::idClicked, this, [this] { updatePreview(); });
    connect(addLock, &QPushButton::clicked, this, &CreateBundleDialog::chooseLockFiles);
    connect(removeLock, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_lockList->selectedItems());
        updatePreview();
    });
    connect(m_platformList, &QListWidget::itemChanged, this, [this] { updatePreview(); });
    connect(browse, &QPushButton::clicked, this, &CreateBundleDialog::chooseOutput);
    connect(m_format, &QComboBox::currentIndexChanged, this, &CreateBundleDialog::syncOutputSuffix);
    connect(m_output, &QLineEdit::textChanged, this, [this] { updateButtons(); });
    connect(m_createButton, &QPushButton::clicked, this, &CreateBundleDialog::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &CreateBundleDialog::reject);

    m_jobs = newJobTracker(this, m_progress, &m_job);
    if (std::optional<Catalog> shown = MainWindow::shownCatalog(m_root)) // the browser shows this mirror: no second scan
        QTimer::singleShot(0, this, [this, catalog = std::move(*shown)] { onScanned(catalog); });
    else
        m_jobs->run(
            QStringLiteral("scan"), tr("Reading the mirror…"), [root = m_root](JobProgress &) { return scanFileSystemMirror(root); },
            [this](const Result<Catalog> &result) { onScanned(result); });
    updateButtons();
}

QFormLayout *CreateBundleDialog::buildOutputForm(QPushButton **browse)
{
    auto *form = new QFormLayout;
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("formatCombo"));
    m_format->addItem(tr("tar.gz (gzip)"), int(BundleFormat::TarGz));
    m_format->addItem(tr("tar.zst (zstd)"), int(BundleFormat::TarZst));
    m_format->addItem(tr("zip"), int(BundleFormat::Zip));
    auto *outRow = new QHBoxLayout;
    m_output = new QLineEdit;
    m_output->setObjectName(QStringLiteral("outputEdit"));
    m_output->setPlaceholderText(tr("where to write the bundle"));
    *browse = new QPushButton(tr("Browse…"));
    outRow->addWidget(m_output, 1);
    outRow->addWidget(*browse);
    m_withZh = new QCheckBox(tr("Indexes list each archive's zh: hash after its h1:"));
    m_withZh->setChecked(true);
    form->addRow(tr("&Format:"), m_format);
    auto *outLabel = new QLabel(tr("&Output file:"));
    outLabel->setBuddy(m_output);
    form->addRow(outLabel, outRow);
    form->addRow(QString(), m_withZh);
    return form;
}

void CreateBundleDialog::syncOutputSuffix()
{
    // Keep the output name's suffix in step with the format.
    const auto format = BundleFormat(m_format->currentData().toInt());
    QString path = m_output->text();
    if (const auto old = bundleFormatFromFileName(path); old && *old != format) {
        const QString oldSuffix = QLatin1Char('.') + toString(*old);
        if (path.endsWith(oldSuffix))
            path.chop(oldSuffix.size());
        m_output->setText(path + QLatin1Char('.') + toString(format));
    }
}

void CreateBundleDialog::onScanned(const Result<Catalog> &result)
{
    if (!result) {
        m_summary->setText(tr("The mirror cannot be read."));
        showStatus(m_status, result.error().toString(), true);
    } else {
        m_catalog = result.value();
        m_catalogReady = true;
        QSet<Platform> platforms;
        for (const Provider &p : std::as_const(m_catalog.providers))
            for (const ProviderVersion &v : p.versions)
                for (const Archive &a : v.archives)
                    platforms.insert(a.platform);
        QList<Platform> sorted(platforms.begin(), platforms.end());
        std::sort(sorted.begin(), sorted.end());
        const QStringList remembered = QSettings().value(QStringLiteral("bundles/platforms")).toStringList();
        const QSignalBlocker block(m_platformList);
        for (const Platform &p : std::as_const(sorted)) {
            auto *item = new QListWidgetItem(p.toString(), m_platformList);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(remembered.contains(p.toString()) ? Qt::Checked : Qt::Unchecked);
        }
        updatePreview();
    }
    updateButtons();
    Q_EMIT catalogLoaded();
}

CreateBundleDialog::~CreateBundleDialog()
{
    // The scan cannot be cancelled and only captures the root path: it finishes on its own (its
    // result is dropped with the tracker). A running create is told to stop and waited for, as it
    // writes a temporary file it must remove.
    m_jobs->cancel(QStringLiteral("create"));
    m_jobs->waitFor(QStringLiteral("create"));
}

bool CreateBundleDialog::isBusy() const
{
    return m_jobs->isRunning(QStringLiteral("create"));
}

void CreateBundleDialog::addLockFiles(const QStringList &files)
{
    for (const QString &f : files) {
        const QString abs = QFileInfo(f).absoluteFilePath();
        if (m_lockList->findItems(abs, Qt::MatchExactly).isEmpty())
            m_lockList->addItem(abs);
    }
    if (!files.isEmpty())
        m_mode->button(ModeLockFiles)->setChecked(true);
    updatePreview();
}

void CreateBundleDialog::setOutputPath(const QString &path)
{
    m_output->setText(path);
    if (const auto format = bundleFormatFromFileName(path)) {
        const int i = m_format->findData(int(*format));
        if (i >= 0) {
            const QSignalBlocker block(m_format);
            m_format->setCurrentIndex(i);
        }
    }
}

QList<Platform> CreateBundleDialog::checkedPlatforms() const
{
    QList<Platform> platforms;
    for (int i = 0; i < m_platformList->count(); ++i) {
        const QListWidgetItem *item = m_platformList->item(i);
        if (item->checkState() == Qt::Checked)
            if (const Result<Platform> p = Platform::parse(item->text()))
                platforms.append(p.value());
    }
    return platforms;
}

void CreateBundleDialog::updatePreview()
{
    showStatus(m_status, {}, false);
    const int mode = m_mode->checkedId();
    m_lockList->setEnabled(mode == ModeLockFiles);
    m_platformList->setEnabled(mode == ModeLockFiles);
    if (!m_catalogReady) {
        updateButtons();
        return;
    }
    QStringList platformNames;
    for (const Platform &p : checkedPlatforms())
        platformNames.append(p.toString());
    QSettings().setValue(QStringLiteral("bundles/platforms"), platformNames);

    m_selection = {};
    QString problem;
    switch (mode) {
    case ModeAll: m_selection = selectAll(m_catalog); break;
    case ModeSelection: {
        const QSet<QString> wanted(m_selectedPaths.begin(), m_selectedPaths.end());
        QList<ArchiveKey> keys;
        for (const Provider &p : std::as_const(m_catalog.providers))
            for (const ProviderVersion &v : p.versions)
                for (const Archive &a : v.archives)
                    if (a.present && wanted.contains(a.path))
                        keys.append(ArchiveKey{p.address, v.version, a.platform});
        m_selection = selectArchives(m_catalog, keys);
        break;
    }
    case ModeLockFiles: {
        QStringList files;
        for (int i = 0; i < m_lockList->count(); ++i)
            files.append(m_lockList->item(i)->text());
        const QList<Platform> platforms = checkedPlatforms();
        if (files.isEmpty())
            problem = tr("Add one or more lock files.");
        else if (platforms.isEmpty())
            problem = tr("Tick the platforms the bundle must carry.");
        else if (Result<BundleSelection> s = selectForLockFiles(m_catalog, files, platforms))
            m_selection = s.value();
        else
            showStatus(m_status, s.error().toString(), true);
        break;
    }
    }
    m_model->setSelection(m_selection);
    fitColumns(m_preview);
    if (!problem.isEmpty())
        m_summary->setText(problem);
    else
        m_summary->setText(tr("%n archive(s), %1", nullptr, int(m_selection.items.size())).arg(formatBundleBytes(m_model->totalBytes()))
                           + (m_selection.missing.isEmpty()
                                  ? QString()
                                  : tr("; the mirror lacks %n needed archive(s) (listed in red, recorded in the manifest)", nullptr,
                                       int(m_selection.missing.size()))));
    updateButtons();
}

void CreateBundleDialog::updateButtons()
{
    const bool busy = isBusy();
    m_createButton->setEnabled(!busy && m_catalogReady && !m_selection.items.isEmpty() && !m_output->text().trimmed().isEmpty());
    m_cancelButton->setText(busy ? tr("Stop") : tr("Close"));
}

void CreateBundleDialog::chooseOutput()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Write Bundle"), m_output->text(), tr("Bundles (*.tar.gz *.tar.zst *.zip)"));
    if (!path.isEmpty())
        setOutputPath(path);
}

void CreateBundleDialog::chooseLockFiles()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Lock Files"), QString(), tr("Lock files (*.hcl);;All files (*)"));
    addLockFiles(files);
}

void CreateBundleDialog::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        for (const QUrl &url : event->mimeData()->urls())
            if (url.isLocalFile() && isLockFileName(url.toLocalFile())) {
                event->acceptProposedAction();
                return;
            }
}

void CreateBundleDialog::dropEvent(QDropEvent *event)
{
    QStringList files;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile() && isLockFileName(url.toLocalFile()))
            files.append(url.toLocalFile());
    addLockFiles(files);
    event->acceptProposedAction();
}

void CreateBundleDialog::start()
{
    const QString out = QFileInfo(m_output->text().trimmed()).absoluteFilePath();
    const std::optional<BundleFormat> format = bundleFormatFromFileName(out);
    if (!format || !isWritableBundleFormat(*format)) {
        showStatus(m_status, tr("The output file must end in .tar.gz, .tar.zst or .zip."), true);
        return;
    }
    if (QFileInfo::exists(out)
        && QMessageBox::question(this, tr("Replace Bundle?"), tr("%1 exists. Replace it?").arg(QDir::toNativeSeparators(out)))
            != QMessageBox::Yes)
        return;
    QSettings settings;
    settings.setValue(QStringLiteral("bundles/format"), int(*format));
    settings.setValue(QStringLiteral("bundles/lastDirectory"), QFileInfo(out).absolutePath());

    BundleCreateOptions options;
    options.format = *format;
    options.withZh = m_withZh->isChecked();
    showStatus(m_status, {}, false);
    m_progress->show();
    qCInfo(lcUi).noquote() << "creating bundle" << out << "with" << m_selection.items.size() << "archives";
    m_job = m_jobs->run(
        QStringLiteral("create"), tr("Creating %1…").arg(out),
        [out, selection = m_selection, options](JobProgress &job) {
            return createBundle(out, selection, options, job.stagedCallback<BundleStage>());
        },
        [this](const Result<BundleCreateReport> &result) { onCreated(result); });
    m_job->setStage(int(BundleStage::Hashing));
    showProgress(m_progress, *m_job);
    updateButtons();
}

void CreateBundleDialog::onCreated(const Result<BundleCreateReport> &result)
{
    m_progress->hide();
    m_job.reset();
    updateButtons();
    if (!result) {
        const bool cancelled = result.error().code == ErrorCode::Cancelled;
        const QString message = cancelled ? tr("Cancelled; nothing was written.") : result.error().toString();
        showStatus(m_status, message, !cancelled);
        Q_EMIT finishedCreating(false, message);
        return;
    }
    const BundleCreateReport &r = result.value();
    const QString message = tr("Wrote %1 (%2): %n archive(s).", nullptr, int(r.manifest.archives.size()))
                                .arg(QDir::toNativeSeparators(r.path), formatBundleBytes(r.fileSize));
    showStatus(m_status, message, false);
    Q_EMIT finishedCreating(true, message);
}

void CreateBundleDialog::reject()
{
    if (isBusy()) {
        m_jobs->cancel(QStringLiteral("create")); // onCreated() reports the cancellation
        return;
    }
    QDialog::reject();
}

// ---- ImportBundleDialog ------------------------------------------------------------------------

ImportBundleDialog::ImportBundleDialog(const QString &bundlePath, const QString &targetDir, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Import Bundle"));
    resize(900, 600);
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;

    auto pathRow = [this](QLineEdit *edit, const QString &objectName, auto choose) {
        edit->setObjectName(objectName);
        auto *row = new QHBoxLayout;
        auto *browse = new QPushButton(tr("Browse…"));
        row->addWidget(edit, 1);
        row->addWidget(browse);
        connect(browse, &QPushButton::clicked, this, choose);
        connect(edit, &QLineEdit::textChanged, this, &ImportBundleDialog::invalidatePlan);
        return row;
    };
    m_bundle = new QLineEdit(bundlePath);
    m_bundle->setPlaceholderText(tr("a .tar, .tar.gz, .tar.xz, .tar.zst or .zip bundle"));
    form->addRow(buddyLabel(tr("&Bundle:"), m_bundle), pathRow(m_bundle, QStringLiteral("bundleEdit"), [this] {
                     const QString f =
                         QFileDialog::getOpenFileName(this, tr("Open Bundle"), m_bundle->text(),
                                                      tr("Bundles (*.tar *.tar.gz *.tgz *.tar.xz *.txz *.tar.zst *.tzst *.zip)"));
                     if (!f.isEmpty())
                         m_bundle->setText(f);
                 }));
    m_target = new QLineEdit(targetDir);
    m_target->setPlaceholderText(tr("the filesystem mirror directory to merge into"));
    form->addRow(buddyLabel(tr("Into &mirror:"), m_target), pathRow(m_target, QStringLiteral("targetEdit"), [this] {
                     const QString d = QFileDialog::getExistingDirectory(this, tr("Target Mirror"), m_target->text());
                     if (!d.isEmpty())
                         m_target->setText(d);
                 }));
    m_replace = new QCheckBox(tr("&Replace different files at the same path (otherwise they are conflicts)"));
    m_replace->setObjectName(QStringLiteral("replaceCheck"));
    m_unverified = new QCheckBox(tr("Import archives &no index declares a hash for"));
    m_unverified->setObjectName(QStringLiteral("unverifiedCheck"));
    m_withZh = new QCheckBox(tr("Regenerated indexes list &zh: hashes too"));
    m_withZh->setObjectName(QStringLiteral("zhCheck"));
    for (QCheckBox *c : {m_replace, m_unverified, m_withZh}) {
        form->addRow(QString(), c);
        connect(c, &QCheckBox::toggled, this, &ImportBundleDialog::invalidatePlan);
    }
    layout->addLayout(form);

    m_model = new ImportPlanModel(this);
    m_plan = makeTable(m_model, QStringLiteral("planView"), ImportPlanModel::BlockingRole);
    layout->addWidget(m_plan, 1);
    m_summary = new QLabel(tr("Press Preview to verify the bundle and see what the import would change."));
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    std::tie(m_status, m_progress) = addStatusRows(layout);

    auto *buttons = new QDialogButtonBox;
    m_previewButton = buttons->addButton(tr("&Preview"), QDialogButtonBox::ActionRole);
    m_previewButton->setObjectName(QStringLiteral("previewButton"));
    m_importButton = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_importButton->setObjectName(QStringLiteral("importButton"));
    m_cancelButton = buttons->addButton(QDialogButtonBox::Close);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    layout->addWidget(buttons);

    connect(m_previewButton, &QPushButton::clicked, this, &ImportBundleDialog::preview);
    connect(m_importButton, &QPushButton::clicked, this, &ImportBundleDialog::import);
    connect(m_cancelButton, &QPushButton::clicked, this, &ImportBundleDialog::reject);
    m_jobs = newJobTracker(this, m_progress, &m_job);
    updateButtons();
}

ImportBundleDialog::~ImportBundleDialog()
{
    // A running import is told to stop and waited for: it rolls back what it staged.
    m_jobs->cancel(QStringLiteral("import"));
    m_jobs->waitFor(QStringLiteral("import"));
}

bool ImportBundleDialog::isBusy() const
{
    return m_jobs->isRunning(QStringLiteral("import"));
}

void ImportBundleDialog::invalidatePlan()
{
    if (!m_planValid)
        return;
    m_planValid = false;
    m_model->clear();
    m_summary->setText(tr("The options changed: press Preview again."));
    updateButtons();
}

void ImportBundleDialog::updateButtons()
{
    const bool busy = isBusy();
    const bool inputs = !m_bundle->text().trimmed().isEmpty() && !m_target->text().trimmed().isEmpty();
    m_previewButton->setEnabled(!busy && inputs);
    m_importButton->setEnabled(!busy && inputs && m_planValid && !m_model->report().blocked()
                               && m_model->report().count(ImportAction::Kind::Add) + m_model->report().count(ImportAction::Kind::Replace)
                                   > 0);
    m_cancelButton->setText(busy ? tr("Stop") : tr("Close"));
    for (QWidget *w : std::initializer_list<QWidget *>{m_bundle, m_target, m_replace, m_unverified, m_withZh})
        w->setEnabled(!busy);
}

void ImportBundleDialog::preview()
{
    run(true);
}

void ImportBundleDialog::import()
{
    if (!m_planValid)
        return;
    run(false);
}

void ImportBundleDialog::run(bool dryRun)
{
    if (isBusy())
        return;
    const QString bundle = QFileInfo(m_bundle->text().trimmed()).absoluteFilePath();
    const QString target = QFileInfo(m_target->text().trimmed()).absoluteFilePath();
    ImportOptions options;
    options.dryRun = dryRun;
    options.replace = m_replace->isChecked();
    options.allowUnverified = m_unverified->isChecked();
    options.withZh = m_withZh->isChecked();
    m_runIsDry = dryRun;
    showStatus(m_status, {}, false);
    m_progress->show();
    qCInfo(lcUi).noquote() << (dryRun ? "previewing import of" : "importing") << bundle << "into" << target;
    m_job = m_jobs->run(
        QStringLiteral("import"), dryRun ? tr("Previewing the import…") : tr("Importing…"),
        [bundle, target, options](JobProgress &job) { return importBundle(bundle, target, options, job.stagedCallback<BundleStage>()); },
        [this](const Result<ImportReport> &result) { onFinished(result); });
    showProgress(m_progress, *m_job);
    updateButtons();
}

void ImportBundleDialog::onFinished(const Result<ImportReport> &result)
{
    m_progress->hide();
    m_job.reset();
    if (!result) {
        const bool cancelled = result.error().code == ErrorCode::Cancelled;
        m_planValid = false;
        showStatus(m_status,
                   cancelled ? tr("Cancelled; the mirror is as it was.")
                             : tr("%1\nThe mirror is as it was.").arg(result.error().toString()),
                   !cancelled);
        updateButtons();
        if (m_runIsDry)
            Q_EMIT previewFinished(false);
        else
            Q_EMIT importFinished(false, {});
        return;
    }
    const ImportReport &r = result.value();
    m_model->setReport(r);
    fitColumns(m_plan);
    QStringList parts;
    for (const auto kind : {ImportAction::Kind::Add, ImportAction::Kind::Unchanged, ImportAction::Kind::Replace,
                            ImportAction::Kind::Conflict, ImportAction::Kind::Rejected, ImportAction::Kind::Skipped})
        if (const int n = r.count(kind))
            parts.append(QStringLiteral("%1 %2").arg(n).arg(toString(kind)));
    QString text = parts.isEmpty() ? tr("The bundle holds no archives.") : parts.join(QStringLiteral(", ")) + QLatin1Char('.');
    if (!r.recovery.isEmpty())
        text += QLatin1Char(' ') + tr("An interrupted import was finished first: %1").arg(r.recovery);
    if (r.blocked()) {
        // The model's refusal is worded for the command line; name the dialog's option instead.
        QString why = r.refusal;
        why.replace(QStringLiteral("--replace"), tr("“Replace different files”"));
        text += QLatin1Char(' ') + tr("Nothing can be imported — %1").arg(why.isEmpty() ? tr("see the red rows") : why);
    }
    m_summary->setText(text);
    if (m_runIsDry) {
        m_planValid = true;
        showStatus(m_status, {}, false);
        Q_EMIT previewFinished(true);
    } else {
        m_planValid = false;
        if (r.committed)
            showStatus(m_status, tr("Imported into %1; its indexes were regenerated.").arg(QDir::toNativeSeparators(r.target)), false);
        else
            showStatus(m_status, r.refusal.isEmpty() ? tr("Nothing to import.") : r.refusal, !r.refusal.isEmpty());
        Q_EMIT importFinished(r.committed, r.target);
    }
    updateButtons();
}

void ImportBundleDialog::reject()
{
    if (isBusy()) {
        m_jobs->cancel(QStringLiteral("import"));
        return;
    }
    QDialog::reject();
}

} // namespace provender::ui
