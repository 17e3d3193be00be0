#include "ui/MainWindow.h"

#include "model/bundle/BundleMirror.h"
#include "model/core/Logging.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/lockfile/LockAnchors.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/VerdictStyle.h"
#include "ui/browser/DetailsPane.h"
#include "ui/browser/MirrorTreeView.h"
#include "ui/shell/RecentItems.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
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
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

namespace provender::ui {

namespace {

constexpr int kEmptyPage = 0;
constexpr int kMirrorPage = 1;
constexpr int kProgressSteps = 1000;

const QList<Verdict> kVerdictOrder = {Verdict::Verified, Verdict::Mismatch, Verdict::Refused, Verdict::Unverified,
                                      Verdict::Missing,  Verdict::Error,    Verdict::Pending};

QString sizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

/// The single local directory or bundle file of a drag, or "".
QString droppedMirror(const QMimeData *mime)
{
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1)
        return {};
    const QUrl url = mime->urls().constFirst();
    if (!url.isLocalFile())
        return {};
    const QString path = url.toLocalFile();
    const QFileInfo info(path);
    if (info.isDir() || (info.isFile() && MainWindow::isBundlePath(path)))
        return path;
    return {};
}

} // namespace

bool MainWindow::isBundlePath(const QString &path)
{
    return bundleFormatFromFileName(QFileInfo(path).fileName()).has_value();
}

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
    m_singleEngine = new VerifyEngine(this);

    buildWidgets();
    buildActions();

    connect(m_engine, &VerifyEngine::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
    connect(m_engine, &VerifyEngine::archivesVerified, this, &MainWindow::addVerdictAnomalies);
    connect(m_engine, &VerifyEngine::progress, this, &MainWindow::onProgress);
    connect(m_engine, &VerifyEngine::finished, this, &MainWindow::onFinished);
    connect(m_singleEngine, &VerifyEngine::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
    connect(m_singleEngine, &VerifyEngine::finished, this, [this](const VerifySummary &summary) {
        QStringList parts;
        for (Verdict v : kVerdictOrder)
            if (summary.count(v))
                parts.append(toString(v));
        m_statusLabel->setText(summary.cancelled ? tr("Re-verification cancelled.")
                                                 : tr("Re-verified the archive: %1.").arg(parts.join(QStringLiteral(", "))));
    });
    connect(m_archives, &MirrorTreeModel::countsChanged, this, &MainWindow::updateSummary);
    connect(m_archives, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
        // Only re-render the details when the current row is among the changed ones.
        const QModelIndex current = currentSourceRow();
        if (current.isValid() && current.parent() == topLeft.parent() && current.row() >= topLeft.row()
            && current.row() <= bottomRight.row())
            updateDetails();
    });

    resize(1280, 780);
    m_stack->setCurrentIndex(kEmptyPage);
    m_detailsDock->hide(); // shown with the first mirror
    m_anomalyDock->hide();
    restoreSettings();
    setBusy(false, {});
    updateSummary();
    updateActions();
}

MainWindow::~MainWindow()
{
    if (m_bundleCancel)
        m_bundleCancel->store(true);
}

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    m_fileMenu = file;
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editMenu->setObjectName(QStringLiteral("menuEdit"));
    m_openAction = file->addAction(tr("&Open Mirror Directory…"), this, &MainWindow::openMirrorDialog);
    m_openAction->setObjectName(QStringLiteral("actionOpen"));
    m_openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("menuRecent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    m_reverifyAction = file->addAction(tr("&Refresh and Verify Again"), this, &MainWindow::reverify);
    m_reverifyAction->setObjectName(QStringLiteral("actionReverify"));
    m_reverifyAction->setShortcuts(QKeySequence::Refresh); // F5 (and Ctrl+R on X11)
    if (!m_reverifyAction->shortcuts().contains(QKeySequence(Qt::Key_F5)))
        m_reverifyAction->setShortcuts(m_reverifyAction->shortcuts() << QKeySequence(Qt::Key_F5));
    m_reverifyAction->setToolTip(tr("Rescan the mirror and hash what changed"));
    m_reverifyAction->setEnabled(false);
    m_cancelAction = file->addAction(tr("&Cancel"), this, &MainWindow::cancelWork);
    m_cancelAction->setObjectName(QStringLiteral("actionCancel"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setEnabled(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    m_copyAction = m_editMenu->addAction(tr("&Copy"), this, &MainWindow::copySelection);
    m_copyAction->setObjectName(QStringLiteral("actionCopy"));
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_archiveView->addAction(m_copyAction); // Ctrl+C in the tree; text fields keep their own
    m_copyHashAction = m_editMenu->addAction(tr("Copy &Hash"), this, &MainWindow::copyCurrentHash);
    m_copyHashAction->setObjectName(QStringLiteral("actionCopyHash"));
    m_copyPathAction = m_editMenu->addAction(tr("Copy &Path"), this, &MainWindow::copyCurrentPath);
    m_copyPathAction->setObjectName(QStringLiteral("actionCopyPath"));
    m_copyPathAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    m_editMenu->addSeparator();
    m_findAction = m_editMenu->addAction(tr("&Find…"), this, [this] {
        if (m_stack->currentIndex() != kMirrorPage)
            return;
        m_filterEdit->setFocus(Qt::ShortcutFocusReason);
        m_filterEdit->selectAll();
    });
    m_findAction->setObjectName(QStringLiteral("actionFind"));
    m_findAction->setShortcut(QKeySequence::Find);

    m_verifyArchiveAction = new QAction(tr("&Verify This Archive Again"), this);
    m_verifyArchiveAction->setObjectName(QStringLiteral("actionVerifyArchive"));
    m_verifyArchiveAction->setShortcut(QKeySequence(QStringLiteral("Shift+F5")));
    m_verifyArchiveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_archiveView->addAction(m_verifyArchiveAction);
    connect(m_verifyArchiveAction, &QAction::triggered, this, &MainWindow::reverifyCurrentArchive);
    m_showInFolderAction = new QAction(tr("Show in &File Manager"), this);
    m_showInFolderAction->setObjectName(QStringLiteral("actionShowInFolder"));
    connect(m_showInFolderAction, &QAction::triggered, this, &MainWindow::showCurrentInFolder);

    m_rowMenu = new QMenu(this);
    m_rowMenu->setObjectName(QStringLiteral("rowContextMenu"));
    m_rowMenu->addAction(m_verifyArchiveAction);
    m_rowMenu->addSeparator();
    m_rowMenu->addAction(m_copyHashAction);
    m_rowMenu->addAction(m_copyPathAction);
    m_rowMenu->addSeparator();
    m_rowMenu->addAction(m_showInFolderAction);
    m_archiveView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_archiveView, &QWidget::customContextMenuRequested, this, &MainWindow::showContextMenu);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menuView"));
    m_viewMenu = view;
    m_toolsMenu = menuBar()->addMenu(tr("&Tools"));
    m_toolsMenu->setObjectName(QStringLiteral("menuTools"));
    m_toolsMenu->addAction(m_verifyArchiveAction);
    m_toolsMenu->addAction(m_showInFolderAction);
    m_checkLocksAction = m_toolsMenu->addAction(tr("Check against &Lock Files…"), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(
            this, tr("Reviewed lock files to check the archives against"), m_root,
            tr("Lock files (.terraform.lock.hcl *.hcl);;All files (*)"));
        if (!files.isEmpty())
            checkAgainstLockFiles(files);
    });
    m_checkLocksAction->setObjectName(QStringLiteral("actionCheckLocks"));
    m_checkLocksAction->setToolTip(tr("Verify every archive against reviewed lock files too: the verdict then names "
                                      "the lock file that vouches for it, or says no lock covers it"));
    m_clearLocksAction = m_toolsMenu->addAction(tr("Stop Checking against Lock Files"), this,
                                                [this] { checkAgainstLockFiles({}); });
    m_clearLocksAction->setObjectName(QStringLiteral("actionClearLocks"));
    m_clearLocksAction->setEnabled(false);
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_anomalyDock->toggleViewAction());
    view->addSeparator();
    QAction *expand = view->addAction(tr("&Expand All"), this, [this] { m_archiveView->expandAll(); });
    expand->setObjectName(QStringLiteral("actionExpandAll"));
    QAction *collapse = view->addAction(tr("&Collapse to Providers"), this, [this] {
        m_archiveView->collapseAll();
        m_archiveView->expandToDepth(0);
    });
    collapse->setObjectName(QStringLiteral("actionCollapse"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp"));
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
    m_filterEdit->setPlaceholderText(tr("Filter: provider, version, platform, hash prefix…"));
    m_filterEdit->setToolTip(tr("Every word must occur in the archive's provider address, version, platform or one of "
                                "its declared or computed hashes (e.g. \"random 3.6 arm64\" or \"h1:4XkQ\")"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setMinimumWidth(260);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
        collapseBeforeUnfilter();
        m_proxy->setTextFilter(text);
        expandForFilter();
    });
    header->addWidget(m_filterEdit);

    m_verdictFilter = new QComboBox;
    m_verdictFilter->setObjectName(QStringLiteral("verdictFilter"));
    m_verdictFilter->setToolTip(tr("Show only archives with this verdict"));
    m_verdictFilter->addItem(tr("All verdicts"), -1);
    for (Verdict v : kVerdictOrder)
        m_verdictFilter->addItem(verdictIcon(v), toString(v), int(v));
    connect(m_verdictFilter, &QComboBox::currentIndexChanged, this, [this] {
        const int v = m_verdictFilter->currentData().toInt();
        collapseBeforeUnfilter();
        m_proxy->setVerdictFilter(v < 0 ? std::nullopt : std::optional<Verdict>(Verdict(v)));
        expandForFilter();
    });
    header->addWidget(m_verdictFilter);

    m_platformFilter = new QComboBox;
    m_platformFilter->setObjectName(QStringLiteral("platformFilter"));
    m_platformFilter->setToolTip(tr("Show only archives for this platform"));
    m_platformFilter->addItem(tr("All platforms"), QString());
    m_platformFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_platformFilter, &QComboBox::currentIndexChanged, this, [this] {
        collapseBeforeUnfilter();
        m_proxy->setPlatformFilter(m_platformFilter->currentData().toString());
        expandForFilter();
    });
    header->addWidget(m_platformFilter);
    layout->addLayout(header);

    m_summaryLabel = new QLabel;
    m_summaryLabel->setObjectName(QStringLiteral("summaryLabel"));
    m_summaryLabel->setTextFormat(Qt::RichText);
    layout->addWidget(m_summaryLabel);

    m_archiveView = new MirrorTreeView;
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
    h->resizeSection(MirrorTreeModel::VerdictColumn, 130);
    h->resizeSection(MirrorTreeModel::DeclaredColumn, 80);
    m_archiveView->sortByColumn(-1, Qt::AscendingOrder);
    connect(m_archiveView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateDetails();
        updateActions();
    });
    connect(m_archiveView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::updateActions);
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
    m_details = new DetailsPane;
    m_detailsDock->setWidget(m_details);
    connect(m_details, &DetailsPane::reverifyRequested, this, &MainWindow::reverifyCurrentArchive);
    connect(m_details, &DetailsPane::showInFolderRequested, this, &MainWindow::showCurrentInFolder);
    connect(m_details, &DetailsPane::hashCopied, this,
            [this](const QString &hash) { m_statusLabel->setText(tr("Copied %1").arg(hash)); });
    addDockWidget(Qt::BottomDockWidgetArea, m_detailsDock);

    m_anomalyDock = new QDockWidget(tr("Anomalies"), this);
    m_anomalyDock->setObjectName(QStringLiteral("anomalyDock"));
    m_anomalyView = new QTreeView;
    m_anomalyView->setObjectName(QStringLiteral("anomalyView"));
    m_anomalyView->setModel(m_anomalies);
    m_anomalyView->setRootIsDecorated(false);
    m_anomalyView->setAlternatingRowColors(true);
    m_anomalyView->setTextElideMode(Qt::ElideMiddle);
    m_anomalyView->setToolTip(tr("Click an anomaly to select the row it is about"));
    m_anomalyView->header()->resizeSection(AnomalyListModel::KindColumn, 190);
    m_anomalyView->header()->resizeSection(AnomalyListModel::LocationColumn, 420);
    m_anomalyView->header()->setStretchLastSection(true);
    connect(m_anomalyView, &QAbstractItemView::activated, this, &MainWindow::revealAnomaly);
    connect(m_anomalyView, &QAbstractItemView::clicked, this, &MainWindow::revealAnomaly);
    m_anomalyDock->setWidget(m_anomalyView);
    addDockWidget(Qt::BottomDockWidgetArea, m_anomalyDock);
    tabifyDockWidget(m_detailsDock, m_anomalyDock);
    m_detailsDock->raise();
    resizeDocks({m_detailsDock}, {220}, Qt::Vertical);

    // Status bar: a badge per verdict, a message, then a progress bar with Cancel while busy.
    for (Verdict v : kVerdictOrder) {
        auto *badge = new QLabel;
        badge->setObjectName(QStringLiteral("badge-") + toString(v));
        badge->setToolTip(verdictExplanation(v));
        badge->setTextFormat(Qt::RichText);
        badge->setContentsMargins(4, 0, 4, 0);
        statusBar()->addWidget(badge);
        m_badges.append(badge);
    }
    m_statusLabel = new QLabel;
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_statusLabel->setTextFormat(Qt::PlainText);
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
        m_layoutRestored = restoreState(state);
    const QByteArray columns = settings.value(QStringLiteral("mainWindow/archiveColumns")).toByteArray();
    if (!columns.isEmpty())
        m_archiveView->header()->restoreState(columns);
    const int sortColumn = settings.value(QStringLiteral("mainWindow/sortColumn"), -1).toInt();
    const auto sortOrder = Qt::SortOrder(settings.value(QStringLiteral("mainWindow/sortOrder"), int(Qt::AscendingOrder)).toInt());
    if (sortColumn >= -1 && sortColumn < MirrorTreeModel::ColumnCount)
        m_archiveView->sortByColumn(sortColumn, sortOrder);
}

void MainWindow::saveSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/archiveColumns"), m_archiveView->header()->saveState());
    settings.setValue(QStringLiteral("mainWindow/sortColumn"), m_proxy->sortColumn());
    settings.setValue(QStringLiteral("mainWindow/sortOrder"), int(m_proxy->sortOrder()));
}

void MainWindow::rebuildRecentMenu()
{
    // Entries whose directory or bundle is gone are dropped (and forgotten).
    const QStringList stored = recentMirrors();
    QStringList present;
    for (const QString &p : stored)
        if (QFileInfo::exists(p))
            present.append(p);
    if (present != stored) {
        clearRecentMirrors();
        for (auto it = present.crbegin(); it != present.crend(); ++it)
            addRecentMirror(*it);
    }
    m_recentMenu->clear();
    int n = 0;
    for (const QString &p : std::as_const(present)) {
        ++n;
        const QString label = n < 10 ? QStringLiteral("&%1 %2").arg(n).arg(QDir::toNativeSeparators(p))
                                     : QDir::toNativeSeparators(p);
        QAction *a = m_recentMenu->addAction(label, this, [this, p] { openMirror(p); });
        a->setData(p);
    }
    if (present.isEmpty()) {
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
    } else {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear List"), this, [] { clearRecentMirrors(); });
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    m_engine->cancel();
    m_singleEngine->cancel();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedMirror(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QString path = droppedMirror(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    openMirror(path);
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
    m_singleEngine->cancel();
    if (m_bundleCancel) // a bundle still being read for the previous open: stop it
        m_bundleCancel->store(true);
    const quint64 generation = ++m_scanGeneration;
    const QFileInfo info(path);
    if (info.isFile() && isBundlePath(path)) {
        openBundleFile(path);
        return;
    }
    if (!info.isDir()) {
        showError(tr("Cannot open %1: it is not a directory or a bundle file.").arg(QDir::toNativeSeparators(path)));
        Q_EMIT openFailed(path, m_errorLabel->text());
        return;
    }
    m_scanning = true;
    setBusy(true, tr("Scanning %1…").arg(QDir::toNativeSeparators(path)));
    qCDebug(lcUi) << "scanning" << path;

    // The scan runs on the global pool and returns values: the catalog and its tree for the
    // browser (built there too, so that the GUI thread only adopts it); the GUI thread applies them.
    struct Scanned
    {
        Result<Catalog> catalog;
        MirrorTreeModel::Tree tree;
    };
    auto *watcher = new QFutureWatcher<Scanned>(this);
    connect(watcher, &QFutureWatcher<Scanned>::finished, this, [this, watcher, generation, path] {
        watcher->deleteLater();
        const Scanned scanned = watcher->result();
        showScanResult(generation, path, scanned.catalog, scanned.tree);
    });
    watcher->setFuture(QtConcurrent::run([path] {
        Result<Catalog> catalog = scanFileSystemMirror(path);
        MirrorTreeModel::Tree tree;
        if (catalog.ok())
            tree = MirrorTreeModel::buildTree(catalog.value());
        return Scanned{std::move(catalog), tree};
    }));
}

void MainWindow::openBundleFile(const QString &path)
{
    // One streaming pass lists and verifies the bundle (BundleMirror.h); its verdicts are final,
    // so no VerifyEngine runs on a bundle's catalog (its paths name entries, not files).
    const quint64 generation = m_scanGeneration;
    m_scanning = true;
    setBusy(true, tr("Reading and verifying the bundle %1…").arg(QDir::toNativeSeparators(path)));
    m_verifyTimer.start();
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    auto *watcher = new QFutureWatcher<Result<BundleContents>>(this);
    QPointer<MainWindow> self(this);
    connect(watcher, &QFutureWatcher<Result<BundleContents>>::finished, this, [this, watcher, generation, path] {
        watcher->deleteLater();
        if (generation != m_scanGeneration)
            return; // superseded or cancelled
        m_scanning = false;
        const Result<BundleContents> result = watcher->result();
        if (!result.ok()) {
            setBusy(false, {});
            showError(tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), result.error().message));
            Q_EMIT openFailed(path, m_errorLabel->text());
            return;
        }
        const BundleContents &contents = result.value();
        m_isBundle = true;
        showCatalog(path, contents.catalog);
        m_archives->applyResults(contents.results);
        VerifySummary summary = contents.summary;
        summary.archives = int(m_archives->archiveCount());
        onFinished(summary);
    });
    // Progress is reported on the worker thread: queued to the application object (always alive),
    // and applied only while this window exists and the run is current. Closing the window sets
    // `cancelled` (~MainWindow), which stops openBundle at its next progress call.
    watcher->setFuture(QtConcurrent::run([path, cancelled, self, generation] {
        BundleOpenOptions options;
        options.verify = true;
        return openBundle(path, options, [cancelled, self, generation](BundleStage, qint64 done, qint64 total) {
            if (cancelled->load())
                return false;
            QMetaObject::invokeMethod(
                qApp,
                [self, generation, done, total] {
                    if (self && self->m_scanGeneration == generation)
                        self->onProgress(done, total);
                },
                Qt::QueuedConnection);
            return true;
        });
    }));
    m_bundleCancel = cancelled;
}

void MainWindow::showScanResult(quint64 generation, const QString &path, const Result<Catalog> &result,
                                const MirrorTreeModel::Tree &tree)
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
    m_isBundle = false;
    showCatalog(path, result.value(), tree);
    startVerification();
}

void MainWindow::showCatalog(const QString &path, const Catalog &catalog, const MirrorTreeModel::Tree &tree)
{
    const bool sameMirror = path == m_root && m_archives->rowCount() > 0;
    m_catalog = catalog;
    m_totalBytes = m_catalog.totalBytes();
    m_root = path;
    m_errorLabel->hide();
    if (sameMirror) {
        // Rows stay: expansion and selection survive.
        m_archives->mergeTree(tree.isNull() ? MirrorTreeModel::buildTree(m_catalog) : tree);
    } else {
        m_archives->setTree(tree.isNull() ? MirrorTreeModel::buildTree(m_catalog) : tree); // O(1) when built by the scan
        m_archiveView->expandToDepth(1); // hosts and providers open, versions closed
    }
    m_anomalies->setAnomalies(m_catalog.anomalies, m_root);
    indexAnomalies();
    updatePlatformFilter(); // may drop a platform filter the new mirror has no archive for
    m_expandedForFilter = 0;  // the rows are new: expand for the filter again
    expandForFilter();
    m_anomalyDock->setWindowTitle(m_catalog.anomalies.isEmpty() ? tr("Anomalies")
                                                                : tr("Anomalies (%1)").arg(m_catalog.anomalies.size()));
    m_rootLabel->setText(QDir::toNativeSeparators(m_root));
    setWindowTitle(QFileInfo(m_root).fileName() + QStringLiteral(" — Provender"));
    setWindowFilePath(m_root);
    if (m_stack->currentIndex() != kMirrorPage) {
        m_detailsDock->show();
        m_anomalyDock->show();
        m_detailsDock->raise();
        if (!m_layoutRestored) // room for every hash of an archive, unless the user chose a size
            resizeDocks({m_detailsDock}, {std::max(250, height() * 2 / 5)}, Qt::Vertical);
    }
    m_stack->setCurrentIndex(kMirrorPage);
    m_reverifyAction->setEnabled(true);
    QSettings().setValue(QStringLiteral("lastDirectory"), m_isBundle ? QFileInfo(m_root).absolutePath() : m_root);
    addRecentMirror(m_root);
    if (m_archiveView->model()->rowCount() > 0 && !m_archiveView->currentIndex().isValid())
        m_archiveView->setCurrentIndex(m_archiveView->model()->index(0, 0));
    updateDetails();
    updateActions();
    Q_EMIT mirrorOpened(m_root);
}

void MainWindow::indexAnomalies()
{
    const QList<Anomaly> all = m_catalog.anomalies + m_verdictAnomalies;
    m_anomalyRows.clear();
    m_anomalyRows.reserve(all.size());
    for (const Anomaly &a : all)
        m_anomalyRows.append(QPersistentModelIndex(m_archives->indexForPath(a.path)));
}

QStringList MainWindow::anomaliesFor(const QModelIndex &sourceRow) const
{
    const QList<Anomaly> all = m_catalog.anomalies + m_verdictAnomalies;
    QStringList out;
    for (qsizetype i = 0; i < m_anomalyRows.size() && i < all.size(); ++i)
        if (m_anomalyRows.at(i).isValid() && m_anomalyRows.at(i) == sourceRow)
            out.append(all.at(i).message);
    return out;
}

void MainWindow::addVerdictAnomalies(const QList<ArchiveResult> &results)
{
    // Declared hashes that match nothing while another one decides (docs/VERDICTS.md): anomalies
    // of the verdicts, listed after the scan's. A result decided again replaces its own.
    bool changed = false;
    for (const ArchiveResult &r : results) {
        const qsizetype before = m_verdictAnomalies.size();
        m_verdictAnomalies.removeIf([&r](const Anomaly &a) { return a.path == r.path; });
        const QList<Anomaly> mine = verdictAnomalies(r);
        m_verdictAnomalies += mine;
        changed = changed || before != m_verdictAnomalies.size() || !mine.isEmpty();
    }
    if (!changed)
        return;
    m_anomalies->setAnomalies(m_catalog.anomalies + m_verdictAnomalies, m_root);
    indexAnomalies();
    updateDetails();
}

void MainWindow::checkAgainstLockFiles(const QStringList &files)
{
    if (files.isEmpty()) {
        m_lockAnchors = LockAnchors{};
    } else {
        const Result<LockAnchors> locks = readLockAnchors(files);
        if (!locks.ok()) {
            showError(tr("Cannot check against the lock files: %1").arg(locks.error().toString()));
            return;
        }
        m_lockAnchors = locks.value();
        if (!m_lockAnchors.warnings.isEmpty())
            qCWarning(lcUi).noquote() << m_lockAnchors.warnings.join(QLatin1Char('\n'));
    }
    m_clearLocksAction->setEnabled(!m_lockAnchors.files.isEmpty());
    m_statusLabel->setText(m_lockAnchors.files.isEmpty()
                               ? tr("Not checking against lock files.")
                               : tr("Checking against %n lock file(s): %1", nullptr, int(m_lockAnchors.files.size()))
                                     .arg(m_lockAnchors.files.join(QStringLiteral(", "))));
    if (!m_root.isEmpty() && !m_isBundle && !m_scanning)
        startVerification(); // the hash cache answers unchanged archives: only the verdicts change
}

void MainWindow::updatePlatformFilter()
{
    const QString current = m_platformFilter->currentData().toString();
    const QStringList platforms = m_archives->platforms();
    QSignalBlocker block(m_platformFilter);
    while (m_platformFilter->count() > 1)
        m_platformFilter->removeItem(1);
    for (const QString &p : platforms)
        m_platformFilter->addItem(p, p);
    const int keep = m_platformFilter->findData(current);
    m_platformFilter->setCurrentIndex(keep < 0 ? 0 : keep);
    m_proxy->setPlatformFilter(m_platformFilter->currentData().toString());
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
    if (m_root.isEmpty() || m_isBundle)
        return;
    // The tree was just built or merged from the scan: every leaf holds its initial result
    // (Pending, or Missing), so there is nothing to reset.
    VerifyOptions options;
    options.jobs = QSettings().value(QStringLiteral("verify/jobs"), 0).toInt();
    if (!m_lockAnchors.files.isEmpty())
        m_lockAnchors.applyTo(options);
    if (!m_verdictAnomalies.isEmpty()) {
        m_verdictAnomalies.clear();
        m_anomalies->setAnomalies(m_catalog.anomalies, m_root);
        indexAnomalies();
    }
    setBusy(true, tr("Hashing %1 archives…").arg(m_archives->archiveCount()));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_verifyTimer.start();
    m_engine->start(m_catalog, options);
}

void MainWindow::reverify()
{
    if (!m_scanning && !m_root.isEmpty())
        openMirror(m_root); // rescan: the mirror may have changed on disk (merged into the tree)
}

QModelIndex MainWindow::currentSourceRow() const
{
    const QModelIndex current = m_archiveView ? m_archiveView->currentIndex() : QModelIndex();
    if (!current.isValid())
        return {};
    return m_proxy->mapToSource(current.siblingAtColumn(0));
}

void MainWindow::reverifyCurrentArchive()
{
    const std::optional<ArchiveResult> r = m_archives->resultAt(currentSourceRow());
    if (!r || r->path.isEmpty() || m_isBundle)
        return;
    // A catalog of just this archive, hashed without the cache.
    Catalog one;
    one.root = m_catalog.root;
    for (const Provider &p : std::as_const(m_catalog.providers)) {
        if (!(p.address == r->key.provider))
            continue;
        for (const ProviderVersion &v : p.versions) {
            if (!(v.version == r->key.version))
                continue;
            for (const Archive &a : v.archives + v.duplicates) {
                if (a.path == r->path && a.layout == r->layout) {
                    Provider po = p;
                    ProviderVersion vo = v;
                    vo.archives = {a};
                    vo.duplicates.clear();
                    po.versions = {vo};
                    one.providers = {po};
                }
            }
        }
    }
    if (one.providers.isEmpty())
        return;
    ArchiveResult pending = *r;
    pending.detail = VerdictDetail{};
    pending.detail.reason = tr("hashing again");
    pending.hashes.reset();
    pending.error.clear();
    m_archives->applyResults({pending});
    VerifyOptions options;
    options.useCache = false;
    m_statusLabel->setText(tr("Hashing %1 again…").arg(r->key.toString()));
    m_singleEngine->start(one, options);
}

void MainWindow::cancelWork()
{
    if (m_scanning) {
        ++m_scanGeneration; // drop the scan's result when it arrives
        if (m_bundleCancel)
            m_bundleCancel->store(true);
        m_scanning = false;
        setBusy(false, tr("Scan cancelled."));
        return;
    }
    if (m_engine->isRunning())
        m_engine->cancel();
}

void MainWindow::copySelection()
{
    QStringList lines;
    for (const QModelIndex &row : m_archiveView->selectionModel()->selectedRows(0)) {
        const QModelIndex source = m_proxy->mapToSource(row);
        if (const std::optional<ArchiveResult> r = m_archives->resultAt(source))
            lines.append(r->hashes ? r->hashes->h1Extracted.toString() : r->path);
        else
            lines.append(source.data(MirrorTreeModel::PathRole).toString().isEmpty()
                             ? source.data().toString()
                             : source.data(MirrorTreeModel::PathRole).toString());
    }
    lines.removeAll(QString());
    if (lines.isEmpty())
        return;
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
    m_statusLabel->setText(tr("Copied %n line(s).", nullptr, int(lines.size())));
}

void MainWindow::copyCurrentHash()
{
    const std::optional<ArchiveResult> r = m_archives->resultAt(currentSourceRow());
    if (!r || !r->hashes)
        return;
    QApplication::clipboard()->setText(r->hashes->h1Extracted.toString());
    m_statusLabel->setText(tr("Copied %1").arg(r->hashes->h1Extracted.toString()));
}

void MainWindow::copyCurrentPath()
{
    const QModelIndex source = currentSourceRow();
    const QString path = source.data(MirrorTreeModel::PathRole).toString();
    if (path.isEmpty())
        return;
    QApplication::clipboard()->setText(QDir::toNativeSeparators(path));
    m_statusLabel->setText(tr("Copied %1").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::showCurrentInFolder()
{
    QString path = currentSourceRow().data(MirrorTreeModel::PathRole).toString();
    if (m_isBundle)
        path = m_root; // entries live inside the bundle file
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    // The folder holding a zip; an unpacked package or a provider row is a folder itself.
    const QString folder = info.isDir() && !m_isBundle ? info.absoluteFilePath() : info.absolutePath();
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(folder)))
        m_statusLabel->setText(tr("Could not open %1 in a file manager.").arg(QDir::toNativeSeparators(folder)));
}

void MainWindow::revealAnomaly(const QModelIndex &anomalyRow)
{
    if (!anomalyRow.isValid() || anomalyRow.row() >= m_anomalyRows.size())
        return;
    const QModelIndex source = m_anomalyRows.at(anomalyRow.row());
    if (!source.isValid()) {
        m_statusLabel->setText(tr("No row of the tree belongs to %1.")
                                   .arg(QDir::toNativeSeparators(anomalyRow.data(AnomalyListModel::PathRole).toString())));
        return;
    }
    QModelIndex proxyIndex = m_proxy->mapFromSource(source);
    if (!proxyIndex.isValid()) { // filtered out: show everything again
        m_filterEdit->clear();
        m_verdictFilter->setCurrentIndex(0);
        m_platformFilter->setCurrentIndex(0);
        proxyIndex = m_proxy->mapFromSource(source);
    }
    if (!proxyIndex.isValid())
        return;
    for (QModelIndex p = proxyIndex.parent(); p.isValid(); p = p.parent())
        m_archiveView->expand(p);
    m_archiveView->scrollTo(proxyIndex, QAbstractItemView::PositionAtCenter);
    m_archiveView->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void MainWindow::showContextMenu(const QPoint &pos)
{
    const QModelIndex at = m_archiveView->indexAt(pos);
    if (!at.isValid())
        return;
    if (!m_archiveView->selectionModel()->isRowSelected(at.row(), at.parent()))
        m_archiveView->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    else
        m_archiveView->selectionModel()->setCurrentIndex(at, QItemSelectionModel::NoUpdate);
    updateActions();
    m_rowMenu->popup(m_archiveView->viewport()->mapToGlobal(pos));
}

void MainWindow::updateActions()
{
    if (!m_copyAction)
        return;
    const QModelIndex source = currentSourceRow();
    const std::optional<ArchiveResult> r = m_archives->resultAt(source);
    const bool hasRow = source.isValid();
    m_copyAction->setEnabled(hasRow);
    m_copyHashAction->setEnabled(r && r->hashes);
    m_copyPathAction->setEnabled(!source.data(MirrorTreeModel::PathRole).toString().isEmpty());
    m_verifyArchiveAction->setEnabled(r && !r->path.isEmpty() && !m_isBundle);
    m_showInFolderAction->setEnabled(m_isBundle ? hasRow : !source.data(MirrorTreeModel::PathRole).toString().isEmpty());
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
                      : m_isBundle ? tr("Verified the bundle's %1 archives in %2.")
                                         .arg(summary.archives)
                                         .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                   : tr("Verified %1 archives in %2 (%3 hashed, %4 from the cache).")
                                         .arg(summary.archives)
                                         .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                         .arg(summary.hashed)
                                         .arg(summary.cacheHits);
    if (!summary.cacheWarning.isEmpty())
        message += QLatin1Char(' ') + summary.cacheWarning;
    m_statusLabel->setText(message);
    updateDetails();
    updateActions();
    Q_EMIT verificationFinished(summary);
}

void MainWindow::collapseBeforeUnfilter()
{
    // Called with the filter widgets already changed and the proxy not yet: when the last filter
    // goes off, collapse while only the matching rows are laid out — collapsing after the proxy
    // has brought back the whole mirror would first lay out every row of it, expanded.
    const bool willFilter = !m_filterEdit->text().trimmed().isEmpty() || m_verdictFilter->currentData().toInt() >= 0
                            || !m_platformFilter->currentData().toString().isEmpty();
    if (m_filtered && !willFilter)
        m_archiveView->collapseAll();
}

void MainWindow::expandForFilter()
{
    // With a filter on, show every matching archive (only the rows that match are in the proxy) —
    // unless they are so many that the expanded tree would be screens upon screens of rows (and
    // laying out 100,000 rows a visible pause): then hosts and providers open, their versions
    // closed, and the summary line says how many archives match.
    const bool filtered = m_proxy->isFiltering();
    if (filtered && m_proxy->filterSerial() == m_expandedForFilter)
        return; // the same filter (e.g. a space typed): keep what the user expanded meanwhile
    m_expandedForFilter = m_proxy->filterSerial();
    if (filtered) {
        const int matches = m_proxy->matchingArchives();
        if (matches >= 0 && matches > kExpandAllMatches) {
            m_archiveView->collapseAll();
            m_archiveView->expandToDepth(1);
        } else {
            m_archiveView->expandAll();
        }
    } else if (m_filtered) {
        // The filter is off again: back to the overview (hosts and providers open) rather than
        // every version of the mirror expanded, with the current row still shown.
        m_archiveView->collapseAll();
        m_archiveView->expandToDepth(1);
        const QModelIndex current = m_archiveView->currentIndex();
        for (QModelIndex p = current.parent(); p.isValid(); p = p.parent())
            m_archiveView->expand(p);
        if (current.isValid())
            m_archiveView->scrollTo(current, QAbstractItemView::PositionAtCenter);
    }
    m_filtered = filtered;
    updateSummary();
}

void MainWindow::updateSummary()
{
    if (!m_summaryLabel)
        return;
    const auto &counts = m_archives->verdictCounts();
    const QPalette pal = palette();
    for (qsizetype i = 0; i < kVerdictOrder.size() && i < m_badges.size(); ++i) {
        const Verdict v = kVerdictOrder.at(i);
        const int n = counts[size_t(v)];
        m_badges.at(i)->setVisible(n > 0);
        m_badges.at(i)->setText(QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>&nbsp;<b>%3</b>&nbsp;%4")
                                    .arg(verdictTextColor(v, pal).name(), verdictGlyph(v))
                                    .arg(n)
                                    .arg(toString(v)));
    }
    int providers = 0;
    for (const Provider &p : std::as_const(m_catalog.providers))
        providers += p.versions.isEmpty() ? 0 : 1;
    QString text = tr("%1 providers · %2 archives · %3")
                       .arg(providers)
                       .arg(m_archives->archiveCount())
                       .arg(sizeText(m_totalBytes));
    if (m_proxy->isFiltering()) {
        const int matches = m_proxy->matchingArchives();
        if (matches >= 0)
            text += tr(" · <b>%n shown by the filter</b>", nullptr, matches)
                    + (matches > kExpandAllMatches ? tr(" (expand a version to see its archives)") : QString());
    }
    m_summaryLabel->setText(text);
}

void MainWindow::updateDetails()
{
    if (!m_details)
        return;
    const QModelIndex source = currentSourceRow();
    m_details->showRow(m_archives, source, source.isValid() ? anomaliesFor(source) : QStringList(), !m_isBundle, true);
}

} // namespace provender::ui
