// MainWindow: its menus, actions, pages, docks and status bar (built once, by the constructor).
#include "ui/MainWindow.h"
#include "ui/MainWindowInternal.h"

#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "ui/FormRows.h"
#include "ui/VerdictStyle.h"
#include "ui/browser/DetailsPane.h"
#include "ui/browser/MirrorTreeView.h"
#include "ui/browser/RequestLogPanel.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace provender::ui {

using mainwindow::kMirrorPage;
using mainwindow::kVerdictOrder;

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

    m_errorLabel = selectableLabel(QStringLiteral("errorLabel"));
    m_errorLabel->setAlignment(Qt::AlignCenter);
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

} // namespace provender::ui
