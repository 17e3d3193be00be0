// MainWindow: opening a source (dialog, recent list, drag and drop, command line), listing it off the GUI thread and showing its tree.
#include "ui/MainWindow.h"
#include "ui/MainWindowInternal.h"

#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleSource.h"
#include "model/core/Logging.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/network/HttpRunner.h"
#include "model/network/NetworkSource.h"
#include "model/network/RequestLogModel.h"
#include "model/source/DirectorySource.h"
#include "ui/JobTracker.h"
#include "ui/browser/MirrorTreeView.h"
#include "ui/browser/UrlSource.h"
#include "ui/shell/RecentItems.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QPointer>
#include <QSettings>
#include <QStackedWidget>
#include <memory>

namespace provender::ui {

using mainwindow::kEmptyPage;
using mainwindow::kMirrorPage;

namespace {

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

void MainWindow::openMadeSource(const QString &location, SourceMaker make)
{
    RemoteRequest r;
    r.baseUrl = location;
    m_pendingMaker = std::move(make);
    openSource(SourceKind::Url, location, r);
}

void MainWindow::openUrl(const RemoteRequest &request)
{
    m_pendingMaker = {};
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
        [kind, location, request, logRequest, maker = m_pendingMaker](JobProgress &job) {
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
                if (maker) { // openMadeSource
                    Result<std::shared_ptr<MirrorSource>> made = maker(http);
                    if (!made.ok()) {
                        o.catalog = made.error();
                        return o;
                    }
                    o.source = made.value();
                    break;
                }
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
        [this, kind, location, maker = m_pendingMaker](const Opened &opened) {
            if (!opened.catalog.ok()) {
                failOpen(location, opened.catalog.error().message);
                return;
            }
            for (const QString &note : opened.notes)
                qCWarning(lcUi).noquote() << note;
            m_source = opened.source;
            m_sourceExpected = opened.expected;
            if (kind == SourceKind::Url) {
                m_request = m_pendingRequest;
                m_maker = maker;
            }
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
    if (!m_root.startsWith(QLatin1StringView("oci://"))) // Open OCI Registry… keeps its own recent templates and last form
        addRecentMirror(m_root);
    if (m_archiveView->model()->rowCount() > 0 && !m_archiveView->currentIndex().isValid())
        m_archiveView->setCurrentIndex(m_archiveView->model()->index(0, 0));
    updateDetails();
    updateActions();
    updateSummary();
    qCInfo(lcUi).noquote() << "showing" << rootText + QLatin1Char(':') << m_archives->archiveCount() << "archives";
    Q_EMIT mirrorOpened(m_root);
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

} // namespace provender::ui
