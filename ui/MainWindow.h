#pragma once
// The main window: open a mirror directory (File ▸ Open, drag and drop, command line), scan it off
// the GUI thread, list every archive with its verdict as hashing proceeds, list the scan's
// anomalies, and show the selected archive's hashes. The archives are a tree (MirrorTreeModel:
// host ▸ provider ▸ version ▸ archive) behind a recursive filter proxy.
//
// openMirror() also takes a bundle file (.tar, .tar.gz/.tgz, .tar.xz/.txz, .tar.zst/.tzst, .zip):
// provender::openBundle verifies it in place off the GUI thread and its verdicts are shown as they
// are (no VerifyEngine run). Reopening the mirror that is shown (Refresh, F5) merges the rescan
// into the tree (MirrorTreeModel::mergeCatalog), so expansion and selection survive.
//
// Widgets are found by objectName in tests: "archiveView", "anomalyView", "detailsView" (and the
// DetailsPane buttons), "emptyState", "errorLabel", "summaryLabel", "filterEdit", "verdictFilter",
// "platformFilter", "verifyProgress", "cancelButton", "statusLabel", status-bar badges
// "badge-<verdict>"; actions "actionOpen", "actionReverify", "actionFind", "actionCopy",
// "actionCopyHash", "actionCopyPath", "actionVerifyArchive", "actionShowInFolder", "actionQuit";
// menu "menuRecent". Settings (QSettings): "mainWindow/geometry", "mainWindow/state" (docks),
// "mainWindow/archiveColumns" (widths, order), "mainWindow/sortColumn", "mainWindow/sortOrder",
// "lastDirectory", "recentMirrors" (shared with ui/shell's RecentItems).

#include "model/items/MirrorTreeModel.h"
#include "model/lockfile/LockAnchors.h"
#include "model/mirror/Catalog.h"
#include "model/verify/VerifyEngine.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPersistentModelIndex>

#include <atomic>
#include <memory>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QVBoxLayout;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTextBrowser;
class QTreeView;
class QMenu;
class QModelIndex;

namespace provender {
class AnomalyListModel;
class ArchiveFilterProxyModel;
class MirrorTreeModel;
} // namespace provender

namespace provender::ui {
class DetailsPane;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// A filter matching more archives than this opens hosts and providers only, not every version.
    static constexpr int kExpandAllMatches = 5000;
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Open a mirror directory (scan it and verify every archive in the background) or a bundle
    /// file (open and verify it in place in the background).
    void openMirror(const QString &path);
    /// True when `path` names a bundle file by its suffix.
    static bool isBundlePath(const QString &path);
    /// The mirror shown now ("" when none).
    QString mirrorRoot() const { return m_root; }

    /// Extension points for the other windows of the app (lock editor, bundles, remote mirrors,
    /// welcome screen): they add their actions to these menus; the window owns the menus.
    enum class Menu { File, Edit, View, Tools, Help };
    QMenu *menu(Menu which) const;
    /// Put `welcome` (e.g. the first-run welcome screen) at the top of the page shown while no
    /// mirror is open, above the error label. The window takes ownership.
    void setWelcomeWidget(QWidget *welcome);

    /// The mirror tree (host ▸ provider ▸ version ▸ archive) the view shows through a filter proxy.
    MirrorTreeModel *archiveModel() const { return m_archives; }
    AnomalyListModel *anomalyModel() const { return m_anomalies; }

public Q_SLOTS:
    void openMirrorDialog();
    /// Rescan the open mirror and verify it again (F5); the tree keeps its rows.
    void reverify();
    /// Hash the current archive again, bypassing the hash cache.
    void reverifyCurrentArchive();
    void cancelWork();
    /// Ctrl+C: the h1: hash of the selected archives (one per line), else their paths.
    void copySelection();
    void copyCurrentHash();
    void copyCurrentPath();
    /// Open the folder holding the current row's file in the file manager.
    void showCurrentInFolder();
    /// Select and reveal the tree row an anomaly (a row of anomalyModel()) is about.
    void revealAnomaly(const QModelIndex &anomalyRow);
    /// "Check against Lock Files…": verify the open mirror again with these reviewed lock files as
    /// anchors (docs/VERDICTS.md); an empty list stops checking against lock files.
    void checkAgainstLockFiles(const QStringList &files);

Q_SIGNALS:
    /// The scan of `root` failed; the window shows `message`.
    void openFailed(const QString &root, const QString &message);
    /// The catalog of a mirror is shown (verification has started).
    void mirrorOpened(const QString &root);
    /// Verification ended (completed or cancelled).
    void verificationFinished(const provender::VerifySummary &summary);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void buildActions();
    void buildWidgets();
    QWidget *buildEmptyState();
    QWidget *buildMirrorPage();
    void restoreSettings();
    void saveSettings();
    void rebuildRecentMenu();
    void openBundleFile(const QString &path);
    /// `tree`: the catalog's tree built off the GUI thread (MirrorTreeModel::buildTree), or null.
    void showCatalog(const QString &path, const Catalog &catalog, const MirrorTreeModel::Tree &tree = {});
    void showScanResult(quint64 generation, const QString &path, const Result<Catalog> &result,
                        const MirrorTreeModel::Tree &tree);
    void showContextMenu(const QPoint &pos);
    void updatePlatformFilter();
    void updateActions();
    QModelIndex currentSourceRow() const;
    QStringList anomaliesFor(const QModelIndex &sourceRow) const;
    void indexAnomalies();
    void showError(const QString &message);
    void startVerification();
    void setBusy(bool busy, const QString &what);
    void updateSummary();
    void expandForFilter();
    void collapseBeforeUnfilter();
    void updateDetails();
    void onProgress(qint64 done, qint64 total);
    void onFinished(const VerifySummary &summary);

    MirrorTreeModel *m_archives = nullptr;
    ArchiveFilterProxyModel *m_proxy = nullptr;
    AnomalyListModel *m_anomalies = nullptr;
    VerifyEngine *m_engine = nullptr;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_errorLabel = nullptr;
    QLabel *m_rootLabel = nullptr;
    QLabel *m_summaryLabel = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_verdictFilter = nullptr;
    QTreeView *m_archiveView = nullptr;
    QTreeView *m_anomalyView = nullptr;
    DetailsPane *m_details = nullptr;
    QComboBox *m_platformFilter = nullptr;
    QList<QLabel *> m_badges;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_rowMenu = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_copyHashAction = nullptr;
    QAction *m_copyPathAction = nullptr;
    QAction *m_verifyArchiveAction = nullptr;
    QAction *m_showInFolderAction = nullptr;
    VerifyEngine *m_singleEngine = nullptr;
    bool m_isBundle = false;
    bool m_filtered = false; ///< a filter was on when expandForFilter() last ran
    quint64 m_expandedForFilter = 0; ///< the proxy's filterSerial() expandForFilter() last expanded for
    qint64 m_totalBytes = 0; ///< m_catalog.totalBytes(), computed once per catalog
    bool m_layoutRestored = false; ///< dock sizes came from the settings
    std::shared_ptr<std::atomic<bool>> m_bundleCancel; ///< cancels the running openBundle
    QList<QPersistentModelIndex> m_anomalyRows; ///< per anomaly: the tree row it is about
    QDockWidget *m_anomalyDock = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QLabel *m_statusLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_toolsMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QVBoxLayout *m_emptyLayout = nullptr;
    QWidget *m_defaultEmptyContent = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_reverifyAction = nullptr;
    QAction *m_cancelAction = nullptr;

    Catalog m_catalog;
    LockAnchors m_lockAnchors;              ///< "Check against Lock Files…" (empty: none)
    QList<Anomaly> m_verdictAnomalies;      ///< verdictAnomalies() of the results so far
    QAction *m_checkLocksAction = nullptr;
    QAction *m_clearLocksAction = nullptr;
    void addVerdictAnomalies(const QList<provender::ArchiveResult> &results);
    QString m_root;
    quint64 m_scanGeneration = 0;
    bool m_scanning = false;
    QElapsedTimer m_verifyTimer;
};

} // namespace provender::ui
