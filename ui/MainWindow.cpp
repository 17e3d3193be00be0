#include "ui/MainWindow.h"

#include "model/core/Logging.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveTableModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/VerdictStyle.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace provender::ui {

namespace {

constexpr int kEmptyPage = 0;
constexpr int kMirrorPage = 1;
constexpr int kProgressSteps = 1000;

const QList<Verdict> kVerdictOrder = {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified,
                                      Verdict::Missing,  Verdict::Error,    Verdict::Pending};

QString sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

/// The single local directory of a drag, or "".
QString droppedDirectory(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1)
        return {};
    const QUrl url = mime->urls().constFirst();
    if (!url.isLocalFile())
        return {};
    const QString path = url.toLocalFile();
    return QFileInfo(path).isDir() ? path : QString();
}

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Provender"));
    setAcceptDrops(true);

    m_archives = new MirrorTreeModel(this);
    m_proxy = new ArchiveFilterProxyModel(this);
    m_proxy->setSourceModel(m_archives);
    m_anomalies = new AnomalyListModel(this);
    m_engine = new VerifyEngine(this);

    buildWidgets();
    buildActions();

    connect(m_engine, &VerifyEngine::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
    connect(m_engine, &VerifyEngine::progress, this, &MainWindow::onProgress);
    connect(m_engine, &VerifyEngine::finished, this, &MainWindow::onFinished);
    connect(m_archives, &MirrorTreeModel::countsChanged, this, &MainWindow::updateSummary);
    connect(m_archives, &QAbstractItemModel::dataChanged, this, [this] { updateDetails(); });

    resize(1280, 780);
    restoreSettings();
    m_stack->setCurrentIndex(kEmptyPage);
    m_detailsDock->hide(); // shown with the first mirror
    m_anomalyDock->hide();
    setBusy(false, {});
    updateSummary();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_fileMenu = file;
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_openAction = file->addAction(tr("&Open Mirror Directory…"), this, &MainWindow::openMirrorDialog);
    m_openAction->setObjectName(QStringLiteral("actionOpen"));
    m_openAction->setShortcut(QKeySequence::Open);
    m_reverifyAction = file->addAction(tr("&Verify Again"), this, &MainWindow::reverify);
    m_reverifyAction->setObjectName(QStringLiteral("actionReverify"));
    m_reverifyAction->setShortcut(QKeySequence::Refresh);
    m_reverifyAction->setEnabled(false);
    m_cancelAction = file->addAction(tr("&Cancel"), this, &MainWindow::cancelWork);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setEnabled(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    m_toolsMenu = menuBar()->addMenu(tr("&Tools"));
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_anomalyDock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    m_helpMenu = help;
    // Help ▸ About and the welcome screen come from ui/shell (installed by app/main.cpp).
}

QWidget *MainWindow::buildEmptyState()
{
    auto *page = new QWidget;
    page->setObjectName(QStringLiteral("emptyState"));
    m_emptyLayout = new QVBoxLayout(page);
    m_defaultEmptyContent = new QWidget;
    auto *layout = new QVBoxLayout(m_defaultEmptyContent);
    layout->addStretch(2);

    auto *title = new QLabel(tr("No mirror open"));
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    titleFont.setBold(true);
    title->setFont(titleFont);
    title->setAlignment(Qt::AlignCenter);
    layout->addWidget(title);

    auto *hint = new QLabel(tr("Open a provider mirror directory to check every archive against the hashes its "
                               "indexes declare.<br>Use <b>File ▸ Open Mirror Directory…</b> (%1), drop a folder "
                               "onto this window, or start <tt>provender DIR</tt>.")
                                .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    hint->setTextFormat(Qt::RichText);
    hint->setStyleSheet(QStringLiteral("QLabel { color: #555; padding: 6px; }"));
    layout->addWidget(hint);

    m_errorLabel = new QLabel;
    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    m_errorLabel->setAlignment(Qt::AlignCenter);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->setStyleSheet(QStringLiteral("QLabel { color: #c62828; padding: 8px; }"));
    m_errorLabel->hide();

    auto *buttonRow = new QHBoxLayout;
    buttonRow->addStretch();
    auto *open = new QPushButton(tr("Open Mirror Directory…"));
    open->setObjectName(QStringLiteral("openButton"));
    connect(open, &QPushButton::clicked, this, &MainWindow::openMirrorDialog);
    buttonRow->addWidget(open);
    buttonRow->addStretch();
    layout->addLayout(buttonRow);
    layout->addStretch(3);
    m_emptyLayout->addWidget(m_defaultEmptyContent, 1);
    m_emptyLayout->addWidget(m_errorLabel);
    return page;
}

QMenu *MainWindow::menu(Menu which) const
{
    switch (which) {
    case Menu::File: return m_fileMenu;
    case Menu::Edit: return m_editMenu;
    case Menu::View: return m_viewMenu;
    case Menu::Tools: return m_toolsMenu;
    case Menu::Help: return m_helpMenu;
    }
    return nullptr;
}

void MainWindow::setWelcomeWidget(QWidget *welcome)
{
    if (m_defaultEmptyContent) {
        m_emptyLayout->removeWidget(m_defaultEmptyContent);
        m_defaultEmptyContent->deleteLater();
        m_defaultEmptyContent = nullptr;
    }
    m_emptyLayout->insertWidget(0, welcome, 1);
}

QWidget *MainWindow::buildMirrorPage()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 0);

    auto *header = new QHBoxLayout;
    m_rootLabel = new QLabel;
    m_rootLabel->setObjectName(QStringLiteral("rootLabel"));
    m_rootLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont rootFont = m_rootLabel->font();
    rootFont.setBold(true);
    m_rootLabel->setFont(rootFont);
    header->addWidget(m_rootLabel, 1);

    m_filterEdit = new QLineEdit;
    m_filterEdit->setObjectName(QStringLiteral("filterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter provider, version, platform…"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setMinimumWidth(240);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setTextFilter(text);
        expandForFilter();
    });
    header->addWidget(m_filterEdit);

    m_verdictFilter = new QComboBox;
    m_verdictFilter->setObjectName(QStringLiteral("verdictFilter"));
    m_verdictFilter->addItem(tr("All verdicts"), -1);
    for (Verdict v : kVerdictOrder)
        m_verdictFilter->addItem(toString(v), int(v));
    connect(m_verdictFilter, &QComboBox::currentIndexChanged, this, [this] {
        const int v = m_verdictFilter->currentData().toInt();
        m_proxy->setVerdictFilter(v < 0 ? std::nullopt : std::optional<Verdict>(Verdict(v)));
        expandForFilter();
    });
    header->addWidget(m_verdictFilter);
    layout->addLayout(header);

    m_summaryLabel = new QLabel;
    m_summaryLabel->setObjectName(QStringLiteral("summaryLabel"));
    m_summaryLabel->setTextFormat(Qt::RichText);
    layout->addWidget(m_summaryLabel);

    m_archiveView = new QTreeView;
    m_archiveView->setObjectName(QStringLiteral("archiveView"));
    m_archiveView->setModel(m_proxy);
    m_archiveView->setRootIsDecorated(true);
    m_archiveView->setUniformRowHeights(true);
    m_archiveView->setAlternatingRowColors(true);
    m_archiveView->setSortingEnabled(true);
    m_archiveView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_archiveView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_archiveView->setTextElideMode(Qt::ElideRight);
    m_archiveView->setItemDelegateForColumn(MirrorTreeModel::VerdictColumn, new VerdictBadgeDelegate(m_archiveView));
    QHeaderView *h = m_archiveView->header();
    h->setStretchLastSection(true);
    h->setSectionsMovable(true);
    h->resizeSection(MirrorTreeModel::NameColumn, 300);
    h->resizeSection(MirrorTreeModel::PlatformsColumn, 120);
    h->resizeSection(MirrorTreeModel::SizeColumn, 80);
    h->resizeSection(MirrorTreeModel::VerdictColumn, 110);
    h->resizeSection(MirrorTreeModel::DeclaredColumn, 80);
    m_archiveView->sortByColumn(-1, Qt::AscendingOrder);
    connect(m_archiveView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { updateDetails(); });
    layout->addWidget(m_archiveView, 1);
    return page;
}

void MainWindow::buildWidgets()
{
    m_stack = new QStackedWidget;
    m_stack->addWidget(buildEmptyState());
    m_stack->addWidget(buildMirrorPage());
    setCentralWidget(m_stack);

    // Bottom: the selected archive's details and the scan's anomalies, as tabs.
    m_detailsDock = new QDockWidget(tr("Details"), this);
    m_detailsDock->setObjectName(QStringLiteral("detailsDock"));
    m_details = new QTextBrowser;
    m_details->setObjectName(QStringLiteral("detailsView"));
    m_details->setOpenLinks(false);
    m_detailsDock->setWidget(m_details);
    addDockWidget(Qt::BottomDockWidgetArea, m_detailsDock);

    m_anomalyDock = new QDockWidget(tr("Anomalies"), this);
    m_anomalyDock->setObjectName(QStringLiteral("anomalyDock"));
    m_anomalyView = new QTreeView;
    m_anomalyView->setObjectName(QStringLiteral("anomalyView"));
    m_anomalyView->setModel(m_anomalies);
    m_anomalyView->setRootIsDecorated(false);
    m_anomalyView->setAlternatingRowColors(true);
    m_anomalyView->setTextElideMode(Qt::ElideMiddle);
    m_anomalyView->header()->resizeSection(AnomalyListModel::KindColumn, 190);
    m_anomalyView->header()->resizeSection(AnomalyListModel::LocationColumn, 420);
    m_anomalyView->header()->setStretchLastSection(true);
    m_anomalyDock->setWidget(m_anomalyView);
    addDockWidget(Qt::BottomDockWidgetArea, m_anomalyDock);
    tabifyDockWidget(m_detailsDock, m_anomalyDock);
    m_detailsDock->raise();
    resizeDocks({m_detailsDock}, {190}, Qt::Vertical);

    // Status bar: a message, then a progress bar with Cancel while scanning or hashing.
    m_statusLabel = new QLabel;
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    statusBar()->addWidget(m_statusLabel, 1);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("verifyProgress"));
    m_progress->setMaximumWidth(260);
    m_progress->setMaximumHeight(18);
    m_progress->setTextVisible(true);
    statusBar()->addPermanentWidget(m_progress);
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_cancelButton->setMaximumHeight(22);
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelWork);
    statusBar()->addPermanentWidget(m_cancelButton);
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    const QByteArray geometry = settings.value(QStringLiteral("mainWindow/geometry")).toByteArray();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = settings.value(QStringLiteral("mainWindow/state")).toByteArray();
    if (!state.isEmpty())
        restoreState(state);
    const QByteArray columns = settings.value(QStringLiteral("mainWindow/archiveColumns")).toByteArray();
    if (!columns.isEmpty())
        m_archiveView->header()->restoreState(columns);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/archiveColumns"), m_archiveView->header()->saveState());
    m_engine->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedDirectory(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString dir = droppedDirectory(event->mimeData());
    if (dir.isEmpty())
        return;
    event->acceptProposedAction();
    openMirror(dir);
}

void MainWindow::openMirrorDialog()
{
    QSettings settings;
    const QString start = settings.value(QStringLiteral("lastDirectory"), QDir::homePath()).toString();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Mirror Directory"), start);
    if (!dir.isEmpty())
        openMirror(dir);
}

void MainWindow::openMirror(const QString &pathArg)
{
    const QString path = QFileInfo(pathArg).absoluteFilePath();
    m_engine->cancel();
    const quint64 generation = ++m_scanGeneration;
    if (!QFileInfo(path).isDir()) {
        showError(tr("Cannot open %1: it is not a directory.").arg(QDir::toNativeSeparators(path)));
        Q_EMIT openFailed(path, m_errorLabel->text());
        return;
    }
    m_scanning = true;
    setBusy(true, tr("Scanning %1…").arg(QDir::toNativeSeparators(path)));
    qCDebug(lcUi) << "scanning" << path;

    // The scan runs on the global pool and returns a value; the GUI thread applies it.
    auto *watcher = new QFutureWatcher<Result<Catalog>>(this);
    connect(watcher, &QFutureWatcher<Result<Catalog>>::finished, this, [this, watcher, generation, path] {
        watcher->deleteLater();
        showScanResult(generation, path, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([path] { return scanFileSystemMirror(path); }));
}

void MainWindow::showScanResult(quint64 generation, const QString &path, const Result<Catalog> &result)
{
    if (generation != m_scanGeneration)
        return; // superseded or cancelled
    m_scanning = false;
    if (!result.ok()) {
        setBusy(false, {});
        showError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), result.error().message));
        Q_EMIT openFailed(path, m_errorLabel->text());
        return;
    }
    m_catalog = result.value();
    m_root = path;
    m_errorLabel->hide();
    m_archives->setCatalog(m_catalog);
    m_archiveView->expandToDepth(1); // hosts and providers open, versions closed
    expandForFilter();
    m_anomalies->setAnomalies(m_catalog.anomalies, m_root);
    m_anomalyDock->setWindowTitle(m_catalog.anomalies.isEmpty() ? tr("Anomalies")
                                                                : tr("Anomalies (%1)").arg(m_catalog.anomalies.size()));
    m_rootLabel->setText(QDir::toNativeSeparators(m_root));
    setWindowTitle(QFileInfo(m_root).fileName() + QStringLiteral(" — Provender"));
    setWindowFilePath(m_root);
    if (m_stack->currentIndex() != kMirrorPage) {
        m_detailsDock->show();
        m_anomalyDock->show();
    }
    m_stack->setCurrentIndex(kMirrorPage);
    m_reverifyAction->setEnabled(true);
    QSettings().setValue(QStringLiteral("lastDirectory"), m_root);
    if (m_archiveView->model()->rowCount() > 0 && !m_archiveView->currentIndex().isValid())
        m_archiveView->setCurrentIndex(m_archiveView->model()->index(0, 0));
    Q_EMIT mirrorOpened(m_root);
    startVerification();
}

void MainWindow::showError(const QString &message)
{
    qCWarning(lcUi).noquote() << message;
    m_errorLabel->setText(message);
    m_errorLabel->show();
    if (m_root.isEmpty()) {
        m_stack->setCurrentIndex(kEmptyPage);
    } else {
        // Keep the mirror that is open; say what went wrong in the status bar.
        m_stack->setCurrentIndex(kMirrorPage);
    }
    m_statusLabel->setText(message);
}

void MainWindow::startVerification()
{
    if (m_root.isEmpty())
        return;
    m_archives->resetVerdicts();
    VerifyOptions options;
    options.jobs = QSettings().value(QStringLiteral("verify/jobs"), 0).toInt();
    setBusy(true, tr("Hashing %1 archives…").arg(m_archives->archiveCount()));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_verifyTimer.start();
    m_engine->start(m_catalog, options);
}

void MainWindow::reverify()
{
    if (!m_scanning && !m_root.isEmpty())
        openMirror(m_root); // rescan: the mirror may have changed on disk
}

void MainWindow::cancelWork()
{
    if (m_scanning) {
        ++m_scanGeneration; // drop the scan's result when it arrives
        m_scanning = false;
        setBusy(false, tr("Scan cancelled."));
        return;
    }
    if (m_engine->isRunning())
        m_engine->cancel();
}

void MainWindow::setBusy(bool busy, const QString &what)
{
    m_progress->setVisible(busy);
    m_cancelButton->setVisible(busy);
    m_cancelButton->setEnabled(busy);
    m_cancelAction->setEnabled(busy);
    m_openAction->setEnabled(true);
    if (busy) {
        m_progress->setRange(0, 0); // busy indicator until real progress arrives
    }
    if (!what.isEmpty())
        m_statusLabel->setText(what);
}

void MainWindow::onProgress(qint64 done, qint64 total)
{
    if (total <= 0)
        return;
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(int(double(done) / double(total) * kProgressSteps));
    m_progress->setFormat(tr("%1 of %2").arg(sizeText(done), sizeText(total)));
}

void MainWindow::onFinished(const VerifySummary &summary)
{
    setBusy(false, {});
    const double seconds = double(m_verifyTimer.elapsed()) / 1000.0;
    QString message = summary.cancelled ? tr("Verification cancelled: %1 of %2 archives have a verdict.")
                                              .arg(summary.archives - summary.count(Verdict::Pending))
                                              .arg(summary.archives)
                                        : tr("Verified %1 archives in %2 (%3 hashed, %4 from the cache).")
                                              .arg(summary.archives)
                                              .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                              .arg(summary.hashed)
                                              .arg(summary.cacheHits);
    if (!summary.cacheWarning.isEmpty())
        message += QLatin1Char(' ') + summary.cacheWarning;
    m_statusLabel->setText(message);
    updateDetails();
    Q_EMIT verificationFinished(summary);
}

void MainWindow::expandForFilter()
{
    // With a filter on, show every matching archive (only the rows that match are in the proxy).
    if (!m_filterEdit->text().trimmed().isEmpty() || m_verdictFilter->currentData().toInt() >= 0)
        m_archiveView->expandAll();
}

void MainWindow::updateSummary()
{
    if (!m_summaryLabel)
        return;
    const auto &counts = m_archives->verdictCounts();
    QStringList parts;
    for (Verdict v : kVerdictOrder) {
        const int n = counts[size_t(v)];
        if (n == 0)
            continue;
        parts.append(QStringLiteral("<span style=\"color:%1; font-size:large\">●</span>&nbsp;<b>%2</b>&nbsp;%3")
                         .arg(verdictColor(v).name())
                         .arg(n)
                         .arg(toString(v)));
    }
    int providers = 0;
    for (const Provider &p : m_catalog.providers)
        providers += p.versions.isEmpty() ? 0 : 1;
    const QString totals = tr("%1 providers · %2 archives · %3")
                               .arg(providers)
                               .arg(m_archives->archiveCount())
                               .arg(sizeText(m_catalog.totalBytes()));
    m_summaryLabel->setText(totals + QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;")
                            + parts.join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));
}

void MainWindow::updateDetails()
{
    if (!m_details)
        return;
    const QModelIndex current = m_archiveView ? m_archiveView->currentIndex() : QModelIndex();
    if (!current.isValid()) {
        m_details->setHtml(tr("<p style=\"color:gray\">Select an archive to see its hashes.</p>"));
        return;
    }
    auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    const QModelIndex source = m_proxy->mapToSource(current.siblingAtColumn(0));
    const ArchiveResult *leaf = m_archives->resultAt(source);
    if (!leaf) {
        // A host, provider or version row: what is below it.
        const Verdict worst = Verdict(source.data(MirrorTreeModel::VerdictRole).toInt());
        const QVariantList counts = source.data(MirrorTreeModel::VerdictCountsRole).toList();
        QStringList parts;
        for (Verdict v : kVerdictOrder)
            if (const int n = counts.value(int(v)).toInt())
                parts.append(QStringLiteral("%1 %2").arg(n).arg(toString(v)));
        QString html = QStringLiteral("<p><b>%1</b> &nbsp; <span style=\"background:%2; color:white\">&nbsp;%3&nbsp;</span></p>")
                           .arg(esc(source.data().toString()), verdictColor(worst).name(), toString(worst));
        html += QStringLiteral("<p>%1</p>").arg(esc(parts.join(QStringLiteral(", "))));
        html += QStringLiteral("<p style=\"color:gray\">%1 · %2 platforms</p>")
                    .arg(sizeText(source.data(MirrorTreeModel::SizeRole).toLongLong()),
                         source.siblingAtColumn(MirrorTreeModel::PlatformsColumn).data().toString());
        const QString path = source.data(MirrorTreeModel::PathRole).toString();
        if (!path.isEmpty())
            html += QStringLiteral("<p>%1</p>").arg(esc(QDir::toNativeSeparators(path)));
        m_details->setHtml(html);
        return;
    }
    const ArchiveResult &r = *leaf;
    QString html = QStringLiteral("<p><b>%1</b> %2 <b>%3</b> &nbsp; <span style=\"background:%4; color:white\">&nbsp;%5&nbsp;</span>"
                                  " &nbsp;%6</p>")
                       .arg(esc(r.key.provider.toString()), esc(r.key.version.toString()), esc(r.key.platform.toString()),
                            verdictColor(r.detail.verdict).name(), toString(r.detail.verdict), esc(r.detail.reason));
    html += QStringLiteral("<table cellspacing=2>");
    auto row2 = [&](const QString &label, const QString &value, bool mono = false) {
        html += QStringLiteral("<tr><td style=\"color:gray; padding-right:12px\">%1</td><td>%2</td></tr>")
                    .arg(label, mono ? QStringLiteral("<tt>") + value + QStringLiteral("</tt>") : value);
    };
    row2(tr("Path"), r.path.isEmpty() ? tr("(absent)") : esc(QDir::toNativeSeparators(r.path)));
    row2(tr("Layout"), toString(r.layout) + (r.size >= 0 ? QStringLiteral(", ") + sizeText(r.size) : QString()));
    if (r.hashes) {
        const bool zip = r.hashes->kind == PackageHashes::Kind::Zip;
        auto mark = [&](HashMatch m) {
            return r.detail.matched.contains(m) ? QStringLiteral(" &nbsp;<span style=\"color:%1\">✔ matches</span>")
                                                      .arg(verdictColor(Verdict::Verified).name())
                                                : QString();
        };
        row2(tr("h1 (extracted)"), r.hashes->h1Extracted.toString() + mark(HashMatch::H1Extracted), true);
        if (zip) {
            row2(tr("h1 (zip)"), r.hashes->h1Zip.toString() + mark(HashMatch::H1Zip), true);
            row2(tr("zh"), r.hashes->zh.toString() + mark(HashMatch::ZH), true);
        }
        if (r.fromCache)
            row2(tr("Source"), tr("hash cache (file unchanged since it was last hashed)"));
    }
    if (r.declared.isEmpty()) {
        row2(tr("Declared"), tr("nothing — no index lists this archive"));
    } else {
        for (const HashString &h : r.declared) {
            QString mark;
            if (r.detail.contradicting.contains(h))
                mark = QStringLiteral(" &nbsp;<span style=\"color:%1\">✘ matches nothing</span>").arg(verdictColor(Verdict::Mismatch).name());
            else if (r.hashes && (h == r.hashes->h1Extracted || h == r.hashes->h1Zip || h == r.hashes->zh))
                mark = QStringLiteral(" &nbsp;<span style=\"color:%1\">✔ matches</span>").arg(verdictColor(Verdict::Verified).name());
            row2(tr("Declared"), esc(h.toString()) + mark, true);
        }
    }
    html += QStringLiteral("</table>");
    m_details->setHtml(html);
}

} // namespace provender::ui
