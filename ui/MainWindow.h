#pragma once
// The main window: one browser for every mirror source. open() takes a mirror directory, a
// bundle file or the URL of a network mirror (File ▸ Open…, Open URL…, Open Bundle…, drag and
// drop of a folder, file or URL, the recent list, the command line); each is shown in the same
// tree (MirrorTreeModel: host ▸ provider ▸ version ▸ archive, behind ArchiveFilterProxyModel) with
// the same filters, details, re-verify, copy, anomalies and status bar:
//
// each is a MirrorSource (model/source): a DirectorySource, a BundleSource (.tar, .tar.gz/.tgz,
// .tar.xz/.txz, .tar.zst/.tzst, .zip, read in place) or a NetworkSource (its providers from the
// Open URL form, a lock file or the mirror's directory listing: ui/browser/UrlSource). A job lists
// it and builds the tree off the GUI thread; the VerifyEngine then reads every archive through
// the same source (hash cache for directories, one pass through a bundle, downloads for a URL).
// A URL source's request log is a dock of this window ("requestLogDock"), shown only for URL
// sources. Re-verifying one archive reads it again through the source (a URL downloads it again).
//
// Reopening the source that is shown (Refresh, F5) merges the new catalog into the tree
// (MirrorTreeModel::mergeTree), so expansion and selection survive. All background work runs on
// the window's JobTracker (jobs()), which drives the status bar's progress bar and Cancel.
//
// Feature parts (ui/lock, ui/bundle, ui/export, ui/remote, ui/shell) use the typed surface below:
// addAction() into a named menu group, setStartAction() for the welcome screen's buttons,
// selectedArchivePaths() / selectArchive() for the selection, sourceKind() / catalog() /
// urlRequest() for the open source, and the signals mirrorOpened() / selectionChanged().
//
// Widgets are found by objectName in tests: "archiveView", "anomalyView", "detailsView" (and the
// DetailsPane buttons), "emptyState", "errorLabel", "summaryLabel", "filterEdit", "verdictFilter",
// "platformFilter", "verifyProgress", "cancelButton", "statusLabel", status-bar badges
// "badge-<verdict>", "requestLogDock"; actions "actionOpen", "actionReverify", "actionFind",
// "actionCopy", "actionCopyHash", "actionCopyPath", "actionVerifyArchive", "actionShowInFolder",
// "actionQuit"; menu "menuRecent". Settings (QSettings): "mainWindow/geometry",
// "mainWindow/state" (docks), "mainWindow/archiveColumns" (widths, order),
// "mainWindow/sortColumn", "mainWindow/sortOrder", "lastDirectory", "recentMirrors" (shared with
// ui/shell's RecentItems; directories, bundles and URLs), "remote/requests" (ui/browser/UrlSource).

#include "model/items/MirrorTreeModel.h"
#include "model/lockfile/LockAnchors.h"
#include "model/mirror/Catalog.h"
#include "model/network/RemoteSession.h"
#include "model/verify/VerifyEngine.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMainWindow>
#include <QPersistentModelIndex>

#include <functional>
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
class QTreeView;
class QModelIndex;

namespace provender {
class AnomalyListModel;
class ArchiveFilterProxyModel;
class JobProgress;
class MirrorSource;
class MirrorTreeModel;
class RequestLogModel;
} // namespace provender

namespace provender::ui {
class DetailsPane;
class JobTracker;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// A filter matching more archives than this opens hosts and providers only, not every version.
    static constexpr int kExpandAllMatches = 5000;
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    enum class SourceKind { None, Directory, Bundle, Url };

    /// Open a mirror directory, a bundle file, or (text starting with http:// or https://) a
    /// network mirror with the request remembered for that URL (ui/browser/UrlSource).
    void openMirror(const QString &pathOrUrl);
    /// Open a network mirror.
    void openUrl(const RemoteRequest &request);
    /// Open a source a feature part makes (ui/registry: an origin registry), shown like a URL
    /// source (sourceKind() Url, request log) under `location`; `make` runs on the open job's
    /// thread with the window's HTTP settings (request log hook) and is kept for Refresh.
    using SourceMaker = std::function<Result<std::shared_ptr<MirrorSource>>(const HttpSettings &http)>;
    void openMadeSource(const QString &location, SourceMaker make);
    /// True when `path` names a bundle file by its suffix.
    static bool isBundlePath(const QString &path);
    /// The source shown now: a directory or bundle path, or a URL ("" when none).
    QString mirrorRoot() const { return m_root; }
    SourceKind sourceKind() const { return m_kind; }
    /// The catalog of the source shown (empty when none).
    const Catalog &catalog() const { return m_catalog; }
    /// The catalog a main window of this application shows for the mirror directory `root`, when
    /// one does (and is not opening another source): windows and dialogs that need the catalog
    /// of that directory take it instead of scanning it again.
    static std::optional<Catalog> shownCatalog(const QString &root);
    /// The request of the URL source shown (meaningful when sourceKind() is Url).
    const RemoteRequest &urlRequest() const { return m_request; }
    /// The source shown is a network mirror's URL (File ▸ Open URL…), not a source another
    /// module made (an OCI or origin registry: openMadeSource).
    bool showsNetworkMirror() const { return m_kind == SourceKind::Url && !m_maker; }

    /// The archives selected in the tree: selected archive rows, and every archive below a
    /// selected host, provider or version row (paths, or URLs for a URL source).
    QStringList selectedArchivePaths() const;
    /// Select and show the archive at `archivePath`; false when the tree has no such archive (or
    /// a filter hides it).
    bool selectArchive(const QString &archivePath);

    /// Named places in the menus where feature parts add their actions (in the order they are
    /// added, each group separated from the next).
    enum class MenuGroup {
        FileOpen,       ///< File: ways to open a source (Open URL…, Open Bundle…)
        FileLock,       ///< File: lock-file windows (Open Lock File…, Compare Lock Files…)
        FileWrite,      ///< File: what writes files from a source (Create/Import Bundle…, Export Indexes…)
        ToolsSource,    ///< Tools: work on the open source (Coverage Matrix…, Credentials…)
        ToolsSelection, ///< Tools and the tree's context menu: work on the selected archives
        Help,           ///< Help
    };
    void addAction(MenuGroup group, QAction *action);
    /// The welcome screen's start buttons, each triggering the action a part registered here.
    enum class StartAction { OpenUrl, OpenBundle, OpenLockFile, CompareLockFiles };
    void setStartAction(StartAction which, QAction *action);
    QAction *startAction(StartAction which) const { return m_startActions.value(which); }

    /// The menus, for reading (tests); parts add through addAction().
    enum class Menu { File, Edit, View, Tools, Help };
    QMenu *menu(Menu which) const;
    /// Put `welcome` (e.g. the first-run welcome screen) at the top of the page shown while no
    /// mirror is open, above the error label. The window takes ownership.
    void setWelcomeWidget(QWidget *welcome);

    /// The mirror tree (host ▸ provider ▸ version ▸ archive) the view shows through a filter proxy.
    MirrorTreeModel *archiveModel() const { return m_archives; }
    AnomalyListModel *anomalyModel() const { return m_anomalies; }
    /// The requests of the URL source shown (empty for other sources).
    RequestLogModel *requestLog() const { return m_log; }
    /// The window's background jobs (shown in its status bar).
    JobTracker *jobs() const { return m_jobs; }

public Q_SLOTS:
    void openMirrorDialog();
    /// Open the source shown again and verify it again (F5); the tree keeps its rows.
    void reverify();
    /// Hash the current archive again, bypassing the hash cache (a URL source downloads it again).
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
    /// Opening `root` failed; the window shows `message`.
    void openFailed(const QString &root, const QString &message);
    /// The catalog of a source is shown (verification has started). `root`: path or URL.
    void mirrorOpened(const QString &root);
    /// Verification ended (completed or cancelled).
    void verificationFinished(const provender::VerifySummary &summary);
    /// The tree's selection or current row changed.
    void selectionChanged();
    void startActionsChanged();

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
    void openSource(SourceKind kind, const QString &location, const RemoteRequest &request);
    VerifyOptions verifyOptions() const;
    /// Everything running for the previous source stops; its results are dropped.
    void stopSource();
    /// `tree`: the catalog's tree built off the GUI thread (MirrorTreeModel::buildTree), or null.
    void showCatalog(SourceKind kind, const QString &path, const Catalog &catalog, const MirrorTreeModel::Tree &tree = {});
    void failOpen(const QString &path, const QString &message);
    void showContextMenu(const QPoint &pos);
    void updatePlatformFilter();
    void updateActions();
    QModelIndex currentSourceRow() const;
    QStringList anomaliesFor(const QModelIndex &sourceRow) const;
    void indexAnomalies();
    void showError(const QString &message);
    void startVerification();
    void updateSummary();
    void expandForFilter();
    void collapseBeforeUnfilter();
    void updateDetails();
    void onFinished(const VerifySummary &summary);
    /// The one-archive catalog of `r` (empty when the catalog has no such archive).
    Catalog catalogOf(const ArchiveResult &r) const;
    void addVerdictAnomalies(const QList<provender::ArchiveResult> &results);
    QMenu *menuOf(MenuGroup group) const;

    MirrorTreeModel *m_archives = nullptr;
    ArchiveFilterProxyModel *m_proxy = nullptr;
    AnomalyListModel *m_anomalies = nullptr;
    RequestLogModel *m_log = nullptr;
    VerifyEngine *m_engine = nullptr;
    VerifyEngine *m_singleEngine = nullptr;
    JobTracker *m_jobs = nullptr;
    std::shared_ptr<JobProgress> m_verifyJob; ///< the VerifyEngine run of the source shown
    std::shared_ptr<JobProgress> m_singleJob; ///< the one-archive re-verify

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
    bool m_filtered = false;                    ///< a filter was on when expandForFilter() last ran
    quint64 m_expandedForFilter = 0;            ///< the proxy's filterSerial() expandForFilter() last expanded for
    qint64 m_totalBytes = 0;                    ///< m_catalog.totalBytes(), computed once per catalog
    bool m_layoutRestored = false;              ///< dock sizes came from the settings
    QList<QPersistentModelIndex> m_anomalyRows; ///< per anomaly: the tree row it is about
    QDockWidget *m_anomalyDock = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    QLabel *m_statusLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_toolsMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QHash<MenuGroup, QAction *> m_groupEnds; ///< per group: the separator its actions go before
    QHash<StartAction, QAction *> m_startActions;
    QVBoxLayout *m_emptyLayout = nullptr;
    QWidget *m_defaultEmptyContent = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_reverifyAction = nullptr;
    QAction *m_cancelAction = nullptr;

    SourceKind m_kind = SourceKind::None;
    RemoteRequest m_request; ///< the URL source's request (m_kind == Url, or opening one)
    Catalog m_catalog;
    LockAnchors m_lockAnchors;              ///< "Check against Lock Files…" (empty: none)
    QList<Anomaly> m_verdictAnomalies;      ///< verdictAnomalies() of the results so far
    SourceMaker m_maker, m_pendingMaker;    ///< openMadeSource's (the source shown / being opened)
    RemoteRequest m_pendingRequest;         ///< the URL being opened (becomes m_request when shown)
    std::shared_ptr<MirrorSource> m_source; ///< the source shown: listed it, reads its archives
    ExpectedHashes m_sourceExpected;        ///< a URL's lock file hashes (RemoteRequest::LockFile)
    quint64 m_openSerial = 0;               ///< the newest open (request-log lines of older ones are dropped)
    QAction *m_checkLocksAction = nullptr;
    QAction *m_clearLocksAction = nullptr;
    QString m_root;
    QElapsedTimer m_verifyTimer;
};

} // namespace provender::ui
