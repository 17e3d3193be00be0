#include "ui/MainWindow.h"

#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleSource.h"
#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/lockfile/LockAnchors.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/network/HttpRunner.h"
#include "model/network/NetworkSource.h"
#include "model/network/RequestLogModel.h"
#include "model/source/DirectorySource.h"
#include "ui/JobTracker.h"
#include "ui/VerdictStyle.h"
#include "ui/browser/DetailsPane.h"
#include "ui/browser/MirrorTreeView.h"
#include "ui/browser/RequestLogPanel.h"
#include "ui/browser/UrlSource.h"
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
#include <functional>
#include <memory>

namespace provender::ui {

namespace {

constexpr int kEmptyPage = 0;
constexpr int kMirrorPage = 1;

const QList<Verdict> kVerdictOrder = {Verdict::Verified, Verdict::Mismatch, Verdict::Refused, Verdict::Unverified,
                                      Verdict::Missing,  Verdict::Error,    Verdict::Pending};

QString sizeText(qint64 bytes)
{
    return formatDataSize(bytes, QLocale());
}

/// The single local directory or bundle file, or network-mirror URL, of a drag; or "".
QString droppedMirror(const QMimeData *mime)
{
    if (mime && !mime->hasUrls() && mime->hasText() && isMirrorUrl(mime->text()) && !mime->text().trimmed().contains(QLatin1Char('\n')))
        return mime->text().trimmed(); // a URL dragged as text (e.g. from a terminal)
    if (!mime || !mime->hasUrls() || mime->urls().size() != 1)
        return {};
    const QUrl url = mime->urls().constFirst();
    if (isMirrorUrl(url.toString()))
        return url.toString();
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
    m_log = new RequestLogModel(this);
    m_engine = new VerifyEngine(this);
    m_singleEngine = new VerifyEngine(this);
    m_jobs = new JobTracker(this);

    buildWidgets();
    buildActions();

    connect(m_engine, &VerifyEngine::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
    connect(m_engine, &VerifyEngine::archivesVerified, this, &MainWindow::addVerdictAnomalies);
    connect(m_engine, &VerifyEngine::progress, this, [this](qint64 done, qint64 total) {
        if (m_verifyJob)
            m_verifyJob->report(done, total);
    });
    connect(m_engine, &VerifyEngine::finished, this, [this](const VerifySummary &summary) {
        if (m_verifyJob) // else a run stopped for another source: nothing of it is shown any more
            onFinished(summary);
    });
    connect(m_singleEngine, &VerifyEngine::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
    connect(m_singleEngine, &VerifyEngine::archivesVerified, this, &MainWindow::addVerdictAnomalies);
    connect(m_singleEngine, &VerifyEngine::progress, this, [this](qint64 done, qint64 total) {
        if (m_singleJob)
            m_singleJob->report(done, total);
    });
    connect(m_singleEngine, &VerifyEngine::finished, this, [this](const VerifySummary &summary) {
        QStringList parts;
        for (Verdict v : kVerdictOrder)
            if (summary.count(v))
                parts.append(toString(v));
        m_jobs->end(m_singleJob,
                    summary.cancelled ? tr("Re-verification cancelled.")
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
    m_logDock->hide(); // only for URL sources, whatever the saved state says
    m_jobs->bindStatus(m_statusLabel, m_progress, nullptr);
    m_cancelButton->hide();
    connect(m_jobs, &JobTracker::busyChanged, m_cancelButton, &QWidget::setVisible);
    connect(m_jobs, &JobTracker::busyChanged, m_cancelAction, &QAction::setEnabled);
    m_cancelAction->setEnabled(false);
    updateSummary();
    updateActions();
}

MainWindow::~MainWindow()
{
    m_jobs->clear(); // workers stop (the engines are still alive to be told); nothing they deliver arrives
}

void MainWindow::buildActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    m_fileMenu = file;
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_editMenu->setObjectName(QStringLiteral("menuEdit"));
    m_openAction = file->addAction(tr("&Open Mirror Directory…"), this, &MainWindow::openMirrorDialog);
    m_openAction->setToolTip(tr("Browse and verify a provider mirror directory"));
    m_openAction->setObjectName(QStringLiteral("actionOpen"));
    m_openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("menuRecent"));
    m_groupEnds.insert(MenuGroup::FileOpen, m_recentMenu->menuAction()); // Open URL…, Open Bundle… go before it
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
    m_groupEnds.insert(MenuGroup::FileLock, file->addSeparator());
    m_groupEnds.insert(MenuGroup::FileWrite, file->addSeparator());
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
    m_rowMenu->addSeparator(); // MenuGroup::ToolsSelection follows (a trailing separator is not shown)
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
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Reviewed lock files to check the archives against"), m_root,
                                                                tr("Lock files (.terraform.lock.hcl *.hcl);;All files (*)"));
        if (!files.isEmpty())
            checkAgainstLockFiles(files);
    });
    m_checkLocksAction->setObjectName(QStringLiteral("actionCheckLocks"));
    m_checkLocksAction->setToolTip(tr("Verify every archive against reviewed lock files too: the verdict then names "
                                      "the lock file that vouches for it, or says no lock covers it"));
    m_clearLocksAction = m_toolsMenu->addAction(tr("Stop Checking against Lock Files"), this, [this] { checkAgainstLockFiles({}); });
    m_clearLocksAction->setObjectName(QStringLiteral("actionClearLocks"));
    m_clearLocksAction->setEnabled(false);
    m_groupEnds.insert(MenuGroup::ToolsSource, m_toolsMenu->addSeparator());
    m_groupEnds.insert(MenuGroup::ToolsSelection, nullptr); // appended, also to the context menu
    view->addAction(m_detailsDock->toggleViewAction());
    view->addAction(m_anomalyDock->toggleViewAction());
    view->addAction(m_logDock->toggleViewAction());
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
    m_groupEnds.insert(MenuGroup::Help, nullptr);
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

    auto *hint = new QLabel(tr("Open a provider mirror — a directory, a bundle or the URL of a network mirror — to "
                               "check every archive against the hashes its indexes declare.<br>Use <b>File ▸ Open "
                               "Mirror Directory…</b> (%1), drop a folder, bundle or URL onto this window, or start "
                               "<tt>provender DIR</tt> or <tt>provender https://…/</tt>.")
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

QMenu *MainWindow::menuOf(MenuGroup group) const
{
    switch (group) {
    case MenuGroup::FileOpen:
    case MenuGroup::FileLock:
    case MenuGroup::FileWrite: return m_fileMenu;
    case MenuGroup::ToolsSource:
    case MenuGroup::ToolsSelection: return m_toolsMenu;
    case MenuGroup::Help: return m_helpMenu;
    }
    return nullptr;
}

void MainWindow::addAction(MenuGroup group, QAction *action)
{
    menuOf(group)->insertAction(m_groupEnds.value(group), action);
    if (group == MenuGroup::ToolsSelection) {
        // The tree's context menu offers what works on the selection too.
        m_rowMenu->addAction(action); // after the separator buildActions() left at its end
    }
}

void MainWindow::setStartAction(StartAction which, QAction *action)
{
    m_startActions.insert(which, action);
    Q_EMIT startActionsChanged();
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
    connect(m_details, &DetailsPane::hashCopied, this, [this](const QString &hash) { m_statusLabel->setText(tr("Copied %1").arg(hash)); });
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

    // A URL source's requests, tabbed with the details and anomalies (hidden for other sources).
    m_logDock = new QDockWidget(tr("Requests"), this);
    m_logDock->setObjectName(QStringLiteral("requestLogDock"));
    m_logDock->setWidget(new RequestLogPanel(m_log, m_logDock));
    addDockWidget(Qt::BottomDockWidgetArea, m_logDock);
    tabifyDockWidget(m_anomalyDock, m_logDock);
    m_detailsDock->raise();
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
    // Entries whose directory or bundle is gone are dropped (and forgotten); URLs stay.
    const QStringList stored = recentMirrors();
    QStringList present;
    for (const QString &p : stored)
        if (isMirrorUrl(p) || QFileInfo::exists(p))
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
        const QString shown = isMirrorUrl(p) ? redactUrlText(p) : QDir::toNativeSeparators(p);
        const QString label = n < 10 ? QStringLiteral("&%1 %2").arg(n).arg(shown) : shown;
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
    m_jobs->cancelAll();
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

void MainWindow::stopSource()
{
    // Latest open wins: whatever still runs for an earlier open is stopped and dropped.
    ++m_openSerial; // request-log lines of an earlier run are dropped
    m_jobs->drop(QStringLiteral("open"));
    m_jobs->drop(QStringLiteral("verify"));
    m_jobs->drop(QStringLiteral("reverify"));
    m_engine->cancel();
    m_singleEngine->cancel();
    m_verifyJob.reset();
    m_singleJob.reset();
}

void MainWindow::openMirror(const QString &pathArg)
{
    if (isMirrorUrl(pathArg)) {
        openUrl(requestForUrl(pathArg.trimmed()));
        return;
    }
    const QString path = QFileInfo(pathArg).absoluteFilePath();
    const QFileInfo info(path);
    if (info.isFile() && isBundlePath(path)) {
        openSource(SourceKind::Bundle, path, {});
        return;
    }
    if (!info.isDir()) {
        stopSource();
        failOpen(path, tr("it is not a directory, a bundle file or the URL of a network mirror."));
        return;
    }
    openSource(SourceKind::Directory, path, {});
}

void MainWindow::openUrl(const RemoteRequest &request)
{
    RemoteRequest r = request;
    r.baseUrl = request.baseUrl.trimmed();
    openSource(SourceKind::Url, r.baseUrl, r);
}

void MainWindow::failOpen(const QString &path, const QString &message)
{
    const QString shown = isMirrorUrl(path) ? redactUrlText(path) : QDir::toNativeSeparators(path);
    showError(tr("Cannot open %1: %2").arg(shown, message));
    Q_EMIT openFailed(path, m_errorLabel->text());
}

void MainWindow::openSource(SourceKind kind, const QString &location, const RemoteRequest &request)
{
    // Every source goes the same way: a job lists it (MirrorSource::list) and builds the tree off
    // the GUI thread; the GUI thread shows the tree; the VerifyEngine reads and verifies the
    // archives through the same source (startVerification).
    stopSource();
    const quint64 serial = m_openSerial;
    if (kind == SourceKind::Url) {
        m_pendingRequest = request;
        m_log->clear(); // the log is this run's (and its re-verified archives')
    }
    // Request-log lines come from the source's threads: queued to the GUI thread, kept while
    // this open is the newest.
    QPointer<MainWindow> self(this);
    auto logRequest = [self, serial](const RequestLogEntry &entry) {
        QMetaObject::invokeMethod(
            qApp,
            [self, serial, entry] {
                if (self && self->m_openSerial == serial)
                    self->m_log->append(entry);
            },
            Qt::QueuedConnection);
    };
    struct Opened
    {
        Result<Catalog> catalog = makeError(ErrorCode::Cancelled, QString());
        MirrorTreeModel::Tree tree;
        std::shared_ptr<MirrorSource> source;
        ExpectedHashes expected;
        QStringList notes;
    };
    const QString shown = kind == SourceKind::Url ? redactUrlText(location) : QDir::toNativeSeparators(location);
    const QString what = kind == SourceKind::Directory               ? tr("Scanning %1…").arg(shown)
        : kind == SourceKind::Bundle                                 ? tr("Reading the bundle %1…").arg(shown)
        : request.source == RemoteRequest::ProviderSource::Autoindex ? tr("Reading the directory listing of %1…").arg(shown)
                                                                     : tr("Fetching the indexes of %1…").arg(shown);
    qCDebug(lcUi) << "opening" << shown;
    m_jobs->run(
        QStringLiteral("open"), what,
        [kind, location, request, logRequest](JobProgress &job) {
            Opened o;
            switch (kind) {
            case SourceKind::Directory: o.source = std::make_shared<DirectorySource>(location); break;
            case SourceKind::Bundle: {
                // One pass over the container: listing hashes too, the engine's read answers from it.
                auto bundle = std::make_shared<BundleSource>(location);
                bundle->setReadAhead(true, job.stagedCallback<BundleStage>());
                o.source = bundle;
                o.catalog = bundle->list(job.cancelFlag());
                bundle->setReadAhead(true, {}); // the callback must not outlive this job
                if (o.catalog.ok() && !job.isCancelled())
                    o.tree = MirrorTreeModel::buildTree(o.catalog.value());
                return o;
            }
            case SourceKind::Url: {
                // Providers (typed, lock file or the directory listing), credential and limits as
                // every caller opens a URL (model/network openRemoteSource); every request logged.
                HttpSettings http = httpSettings(request);
                http.onRequestLogged = logRequest;
                Result<RemoteSourceSetup> setup = openRemoteSource(request, http, job.cancelFlag());
                if (!setup.ok()) {
                    o.catalog = setup.error();
                    return o;
                }
                if (setup.value().cancelled || !setup.value().source)
                    return o; // cancelled while crawling (the default catalog says so)
                o.source = std::shared_ptr<MirrorSource>(std::move(setup.value().source));
                o.expected = setup.value().verify.expected;
                o.notes = setup.value().notes;
                break;
            }
            case SourceKind::None: return o;
            }
            o.catalog = o.source->list(job.cancelFlag());
            if (o.catalog.ok() && !job.isCancelled())
                o.tree = MirrorTreeModel::buildTree(o.catalog.value());
            return o;
        },
        [this, kind, location](const Opened &opened) {
            if (!opened.catalog.ok()) {
                failOpen(location, opened.catalog.error().message);
                return;
            }
            for (const QString &note : opened.notes)
                qCWarning(lcUi).noquote() << note;
            m_source = opened.source;
            m_sourceExpected = opened.expected;
            if (kind == SourceKind::Url)
                m_request = m_pendingRequest;
            showCatalog(kind, location, opened.catalog.value(), opened.tree);
            startVerification();
            if (!opened.notes.isEmpty())
                m_jobs->setMessage(opened.notes.join(QStringLiteral(" · ")));
        });
}

void MainWindow::showCatalog(SourceKind kind, const QString &path, const Catalog &catalog, const MirrorTreeModel::Tree &tree)
{
    const bool sameMirror = path == m_root && kind == m_kind && m_archives->rowCount() > 0;
    m_kind = kind;
    m_catalog = catalog;
    m_totalBytes = m_catalog.totalBytes();
    m_root = path;
    m_errorLabel->hide();
    if (!m_verdictAnomalies.isEmpty())
        m_verdictAnomalies.clear();
    if (sameMirror) {
        // Rows stay: expansion and selection survive.
        m_archives->mergeTree(tree.isNull() ? MirrorTreeModel::buildTree(m_catalog) : tree);
    } else {
        m_archives->setTree(tree.isNull() ? MirrorTreeModel::buildTree(m_catalog) : tree); // O(1) when built by the scan
        m_archiveView->expandToDepth(1);                                                   // hosts and providers open, versions closed
    }
    const QString rootText = m_kind == SourceKind::Url ? redactUrlText(m_root) : m_root;
    m_anomalies->setAnomalies(m_catalog.anomalies, rootText);
    indexAnomalies();
    updatePlatformFilter();  // may drop a platform filter the new mirror has no archive for
    m_expandedForFilter = 0; // the rows are new: expand for the filter again
    expandForFilter();
    m_anomalyDock->setWindowTitle(m_catalog.anomalies.isEmpty() ? tr("Anomalies") : tr("Anomalies (%1)").arg(m_catalog.anomalies.size()));
    const bool isUrl = m_kind == SourceKind::Url;
    m_rootLabel->setText(isUrl ? rootText : QDir::toNativeSeparators(m_root));
    setWindowTitle((isUrl ? QUrl(m_root).host() + QUrl(m_root).path() : QFileInfo(m_root).fileName()) + QStringLiteral(" — Provender"));
    setWindowFilePath(isUrl ? QString() : m_root);
    if (m_stack->currentIndex() != kMirrorPage) {
        m_detailsDock->show();
        m_anomalyDock->show();
        m_detailsDock->raise();
        if (!m_layoutRestored) // room for every hash of an archive, unless the user chose a size
            resizeDocks({m_detailsDock}, {std::max(250, height() * 2 / 5)}, Qt::Vertical);
    }
    // The request log belongs to URL sources.
    m_logDock->toggleViewAction()->setEnabled(isUrl);
    if (isUrl && m_logDock->isHidden())
        m_logDock->show();
    else if (!isUrl)
        m_logDock->hide();
    m_detailsDock->raise();
    m_stack->setCurrentIndex(kMirrorPage);
    m_reverifyAction->setEnabled(true);
    if (!isUrl)
        QSettings().setValue(QStringLiteral("lastDirectory"), m_kind == SourceKind::Bundle ? QFileInfo(m_root).absolutePath() : m_root);
    addRecentMirror(m_root);
    if (m_archiveView->model()->rowCount() > 0 && !m_archiveView->currentIndex().isValid())
        m_archiveView->setCurrentIndex(m_archiveView->model()->index(0, 0));
    updateDetails();
    updateActions();
    updateSummary();
    qCInfo(lcUi).noquote() << "showing" << rootText + QLatin1Char(':') << m_archives->archiveCount() << "archives";
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
    if (m_source && !m_jobs->isRunning(QStringLiteral("open")))
        startVerification(); // the hash cache answers unchanged archives: only the verdicts change // the hash cache answers unchanged
                             // archives: only the verdicts change
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

VerifyOptions MainWindow::verifyOptions() const
{
    VerifyOptions options;
    options.jobs = QSettings().value(QStringLiteral("verify/jobs"), 0).toInt();
    options.expected = m_sourceExpected; // a URL opened from a lock file: its hashes (lock rules)
    if (!m_lockAnchors.files.isEmpty())
        m_lockAnchors.applyTo(options); // Check against Lock Files…: these anchors instead
    return options;
}

void MainWindow::startVerification()
{
    if (!m_source || m_kind == SourceKind::None)
        return;
    // The tree was just built or merged from the listing: every leaf holds its initial result
    // (Pending, or Missing), so there is nothing to reset.
    if (!m_verdictAnomalies.isEmpty()) {
        m_verdictAnomalies.clear();
        m_anomalies->setAnomalies(m_catalog.anomalies, m_kind == SourceKind::Url ? redactUrlText(m_root) : m_root);
        indexAnomalies();
    }
    const int n = m_archives->archiveCount();
    const QString what = m_kind == SourceKind::Url ? tr("Downloading and hashing %1 archives…").arg(n)
        : m_kind == SourceKind::Bundle             ? tr("Verifying the bundle's %1 archives…").arg(n)
                                                   : tr("Hashing %1 archives…").arg(n);
    m_verifyJob = m_jobs->begin(QStringLiteral("verify"), what, [this] { m_engine->cancel(); });
    m_verifyTimer.start();
    m_engine->start(m_source, m_catalog, verifyOptions());
}

void MainWindow::reverify()
{
    if (m_jobs->isRunning(QStringLiteral("open")) || m_root.isEmpty())
        return;
    if (m_kind == SourceKind::Url)
        openUrl(m_request); // fetch again: the mirror may have changed (merged into the tree)
    else
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
    if (!r || r->path.isEmpty() || !m_source || m_kind == SourceKind::None)
        return;
    if (m_kind != SourceKind::Directory && m_jobs->isRunning(QStringLiteral("verify"))) {
        // A bundle or URL source is read by one run at a time.
        m_jobs->setMessage(tr("Verify %1 again once the verification has finished.").arg(r->key.toString()));
        return;
    }
    // A catalog of just this archive, read again through the same source (a file hashed without
    // the cache, a bundle member read again, a URL downloaded again).
    const Catalog one = catalogOf(*r);
    if (one.providers.isEmpty())
        return;
    ArchiveResult pending = *r;
    pending.detail = VerdictDetail{};
    pending.detail.reason = m_kind == SourceKind::Url ? tr("downloading again") : tr("hashing again");
    pending.hashes.reset();
    pending.error.clear();
    m_archives->applyResults({pending});
    VerifyOptions options = verifyOptions();
    options.useCache = false;
    m_singleJob = m_jobs->begin(QStringLiteral("reverify"),
                                (m_kind == SourceKind::Url ? tr("Downloading %1 again…") : tr("Hashing %1 again…")).arg(r->key.toString()),
                                [this] { m_singleEngine->cancel(); });
    if (m_kind == SourceKind::Directory)
        m_singleEngine->start(one, options); // may run beside the mirror's own run: its own reader
    else
        m_singleEngine->start(m_source, one, options);
}

Catalog MainWindow::catalogOf(const ArchiveResult &r) const
{
    Catalog one;
    one.root = m_catalog.root;
    for (const Provider &p : std::as_const(m_catalog.providers)) {
        if (!(p.address == r.key.provider))
            continue;
        for (const ProviderVersion &v : p.versions) {
            if (!(v.version == r.key.version))
                continue;
            for (const Archive &a : v.archives + v.duplicates) {
                if (a.path == r.path && a.layout == r.layout) {
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
    return one;
}

void MainWindow::cancelWork()
{
    if (m_jobs->isRunning(QStringLiteral("open"))) {
        // Listing a directory cannot stop half-way: its result is dropped ("… cancelled." on the
        // status line); a bundle or URL stops at its next check.
        m_jobs->drop(QStringLiteral("open"));
        return;
    }
    m_jobs->cancelCurrent();
}

void MainWindow::copySelection()
{
    QStringList lines;
    for (const QModelIndex &row : m_archiveView->selectionModel()->selectedRows(0)) {
        const QModelIndex source = m_proxy->mapToSource(row);
        if (const std::optional<ArchiveResult> r = m_archives->resultAt(source))
            lines.append(r->hashes ? r->hashes->h1Extracted.toString() : r->path);
        else
            lines.append(source.data(MirrorTreeModel::PathRole).toString().isEmpty() ? source.data().toString()
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
    if (m_kind == SourceKind::Url || m_kind == SourceKind::None)
        return; // no folder to show
    const bool bundle = m_kind == SourceKind::Bundle;
    QString path = currentSourceRow().data(MirrorTreeModel::PathRole).toString();
    if (bundle)
        path = m_root; // entries live inside the bundle file
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    // The folder holding a zip; an unpacked package or a provider row is a folder itself.
    const QString folder = info.isDir() && !bundle ? info.absoluteFilePath() : info.absolutePath();
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(folder)))
        m_statusLabel->setText(tr("Could not open %1 in a file manager.").arg(QDir::toNativeSeparators(folder)));
}

void MainWindow::revealAnomaly(const QModelIndex &anomalyRow)
{
    if (!anomalyRow.isValid() || anomalyRow.row() >= m_anomalyRows.size())
        return;
    const QModelIndex source = m_anomalyRows.at(anomalyRow.row());
    if (!source.isValid()) {
        m_statusLabel->setText(
            tr("No row of the tree belongs to %1.").arg(QDir::toNativeSeparators(anomalyRow.data(AnomalyListModel::PathRole).toString())));
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
    m_verifyArchiveAction->setEnabled(r && !r->path.isEmpty() && m_kind != SourceKind::None);
    m_showInFolderAction->setEnabled(m_kind == SourceKind::Bundle          ? hasRow
                                         : m_kind == SourceKind::Directory ? !source.data(MirrorTreeModel::PathRole).toString().isEmpty()
                                                                           : false);
    Q_EMIT selectionChanged();
}

void MainWindow::onFinished(const VerifySummary &summary)
{
    const double seconds = double(m_verifyTimer.elapsed()) / 1000.0;
    const QString took = seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1));
    QString message = summary.cancelled ? tr("Verification cancelled: %1 of %2 archives have a verdict.")
                                              .arg(summary.archives - summary.count(Verdict::Pending))
                                              .arg(summary.archives)
        : m_kind == SourceKind::Url ? tr("Downloaded and verified %1 archives in %2 (%3 requests, %4 failed).")
                                          .arg(summary.archives)
                                          .arg(took)
                                          .arg(m_log->rowCount())
                                          .arg(m_log->failedCount())
        : m_kind == SourceKind::Bundle ? tr("Verified the bundle's %1 archives in %2.")
                                             .arg(summary.archives)
                                             .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                       : tr("Verified %1 archives in %2 (%3 hashed, %4 from the cache).")
                                             .arg(summary.archives)
                                             .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                             .arg(summary.hashed)
                                             .arg(summary.cacheHits);
    if (!summary.cacheWarning.isEmpty())
        message += QLatin1Char(' ') + summary.cacheWarning;
    qCInfo(lcUi).noquote() << message;
    if (m_verifyJob)
        m_jobs->end(std::exchange(m_verifyJob, nullptr), message);
    else
        m_jobs->setMessage(message);
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
    const int archives = m_archives->archiveCount();
    QString text = (providers == 1 ? tr("1 provider") : tr("%1 providers").arg(providers)) + QStringLiteral(" · ")
        + (archives == 1 ? tr("1 archive") : tr("%1 archives").arg(archives));
    if (m_kind == SourceKind::Url)
        text += tr(" · sizes as downloaded"); // a network mirror's index declares none
    else
        text += QStringLiteral(" · ") + sizeText(m_totalBytes);
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
    m_details->showRow(m_archives, source, source.isValid() ? anomaliesFor(source) : QStringList(), m_kind != SourceKind::None,
                       m_kind != SourceKind::Url);
    m_details->setLocalFile(m_kind == SourceKind::Directory || m_kind == SourceKind::Bundle);
}

std::optional<Catalog> MainWindow::shownCatalog(const QString &root)
{
    if (root.isEmpty())
        return std::nullopt;
    const QFileInfo wanted(root);
    for (QWidget *w : QApplication::topLevelWidgets()) {
        const auto *window = qobject_cast<MainWindow *>(w);
        if (window && window->m_kind == SourceKind::Directory && !window->m_jobs->isRunning(QStringLiteral("open"))
            && QFileInfo(window->m_root) == wanted)
            return window->m_catalog;
    }
    return std::nullopt;
}

QStringList MainWindow::selectedArchivePaths() const
{
    // Selected archive rows, and every archive below a selected host, provider or version row —
    // walked in the source model, so a filter does not hide what a selected parent holds.
    QStringList paths;
    std::function<void(const QModelIndex &)> collect = [&](const QModelIndex &index) {
        if (index.data(MirrorTreeModel::KindRole).toInt() == MirrorTreeModel::ArchiveNode) {
            const QString path = index.data(MirrorTreeModel::PathRole).toString();
            if (!path.isEmpty() && !paths.contains(path))
                paths.append(path);
            return;
        }
        for (int row = 0; row < m_archives->rowCount(index); ++row)
            collect(m_archives->index(row, 0, index));
    };
    for (const QModelIndex &index : m_archiveView->selectionModel()->selectedRows(0))
        collect(m_proxy->mapToSource(index));
    return paths;
}

bool MainWindow::selectArchive(const QString &archivePath)
{
    if (archivePath.isEmpty() || m_archives->rowCount() == 0)
        return false;
    const QModelIndex source = m_archives->indexForArchivePath(archivePath); // a lookup, not a walk of the tree
    if (!source.isValid())
        return false;
    const QModelIndex target = m_proxy->mapFromSource(source);
    if (!target.isValid())
        return false; // filtered out
    for (QModelIndex p = target.parent(); p.isValid(); p = p.parent())
        m_archiveView->expand(p);
    m_archiveView->selectionModel()->setCurrentIndex(target, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_archiveView->scrollTo(target);
    raise();
    activateWindow();
    return true;
}

} // namespace provender::ui
