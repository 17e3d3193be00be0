#include "ui/MainWindow.h"
#include "ui/MainWindowInternal.h"

#include "model/bundle/BundleMirror.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/network/RequestLogModel.h"
#include "ui/JobTracker.h"
#include "ui/browser/MirrorTreeView.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <functional>

namespace provender::ui {

using mainwindow::kEmptyPage;
using mainwindow::kVerdictOrder;

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

    // Both engines' verdicts go to the tree and the anomalies, their progress to their own job.
    const auto connectEngine = [this](VerifyEngine *engine, const std::shared_ptr<JobProgress> *job) {
        connect(engine, &VerifyEngine::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
        connect(engine, &VerifyEngine::archivesVerified, this, &MainWindow::addVerdictAnomalies);
        connect(engine, &VerifyEngine::progress, this, [job](qint64 done, qint64 total) {
            if (*job)
                (*job)->report(done, total);
        });
    };
    connectEngine(m_engine, &m_verifyJob);
    connectEngine(m_singleEngine, &m_singleJob);
    connect(m_engine, &VerifyEngine::finished, this, [this](const VerifySummary &summary) {
        if (m_verifyJob) // else a run stopped for another source: nothing of it is shown any more
            onFinished(summary);
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    m_jobs->cancelAll();
    QMainWindow::closeEvent(event);
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
