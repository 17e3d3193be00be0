#include "ui/remote/RemoteMirrorWindow.h"

#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/network/HttpRunner.h"
#include "model/network/RequestLogModel.h"
#include "ui/VerdictStyle.h"
#include "ui/browser/DetailsPane.h"
#include "ui/remote/CredentialsDialog.h"
#include "ui/remote/RequestLogPanel.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace provender::ui {

RemoteMirrorWindow::RemoteMirrorWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_session(new RemoteSession(this))
    , m_archives(new MirrorTreeModel(this))
    , m_proxy(new ArchiveFilterProxyModel(this))
    , m_anomalies(new AnomalyListModel(this))
    , m_log(new RequestLogModel(this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Network Mirror — Provender"));
    m_proxy->setSourceModel(m_archives);

    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    auto *top = new QHBoxLayout;
    m_summary = new QLabel(page);
    m_summary->setObjectName(QStringLiteral("remoteSummary"));
    m_summary->setTextFormat(Qt::RichText);
    top->addWidget(m_summary, 1);
    m_filter = new QLineEdit(page);
    m_filter->setObjectName(QStringLiteral("remoteFilter"));
    m_filter->setPlaceholderText(tr("Filter provider, version, platform…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(280);
    top->addWidget(m_filter);
    layout->addLayout(top);

    m_tree = new QTreeView(page);
    m_tree->setObjectName(QStringLiteral("remoteArchiveView"));
    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(-1, Qt::AscendingOrder);
    m_tree->setItemDelegateForColumn(MirrorTreeModel::VerdictColumn, new VerdictBadgeDelegate(m_tree));
    QHeaderView *h = m_tree->header();
    h->setStretchLastSection(true);
    h->resizeSection(MirrorTreeModel::NameColumn, 300);
    h->resizeSection(MirrorTreeModel::PlatformsColumn, 120);
    h->resizeSection(MirrorTreeModel::SizeColumn, 80);
    h->resizeSection(MirrorTreeModel::VerdictColumn, 110);
    h->resizeSection(MirrorTreeModel::DeclaredColumn, 80);
    layout->addWidget(m_tree, 1);
    setCentralWidget(page);

    auto *anomalyDock = new QDockWidget(tr("Anomalies"), this);
    anomalyDock->setObjectName(QStringLiteral("remoteAnomalyDock"));
    auto *anomalyView = new QTreeView(anomalyDock);
    anomalyView->setObjectName(QStringLiteral("remoteAnomalyView"));
    anomalyView->setModel(m_anomalies);
    anomalyView->setRootIsDecorated(false);
    anomalyView->setAlternatingRowColors(true);
    anomalyView->setTextElideMode(Qt::ElideMiddle);
    anomalyView->header()->resizeSection(AnomalyListModel::KindColumn, 190);
    anomalyView->header()->resizeSection(AnomalyListModel::LocationColumn, 420);
    anomalyView->header()->setStretchLastSection(true);
    anomalyDock->setWidget(anomalyView);
    addDockWidget(Qt::BottomDockWidgetArea, anomalyDock);

    // The same details pane as the main window's, without the local-file buttons (re-verify runs
    // the whole remote session; there is no folder to show).
    auto *detailsDock = new QDockWidget(tr("Details"), this);
    detailsDock->setObjectName(QStringLiteral("remoteDetailsDock"));
    m_details = new DetailsPane(detailsDock);
    for (const char *name : {"reverifyArchiveButton", "showInFolderButton"})
        if (auto *b = m_details->findChild<QToolButton *>(QLatin1StringView(name)))
            b->hide();
    connect(m_details, &DetailsPane::hashCopied, this, [this](const QString &hash) {
        m_status->setText(tr("Copied %1").arg(hash));
    });
    detailsDock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, detailsDock);
    resizeDocks({detailsDock}, {420}, Qt::Horizontal);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &RemoteMirrorWindow::updateDetails);
    connect(m_archives, &QAbstractItemModel::dataChanged, this, [this] { updateDetails(); });
    connect(m_archives, &QAbstractItemModel::modelReset, this, [this] { updateDetails(); });

    auto *logDock = new QDockWidget(tr("Requests"), this);
    logDock->setObjectName(QStringLiteral("requestLogDock"));
    logDock->setWidget(new RequestLogPanel(m_log, logDock));
    addDockWidget(Qt::BottomDockWidgetArea, logDock);
    tabifyDockWidget(anomalyDock, logDock);
    logDock->raise();
    resizeDocks({logDock}, {260}, Qt::Vertical);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("remoteStatus"));
    statusBar()->addWidget(m_status, 1);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("remoteProgress"));
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(true);
    statusBar()->addPermanentWidget(m_progress);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("remoteCancel"));
    statusBar()->addPermanentWidget(m_cancel);

    QMenu *mirror = menuBar()->addMenu(tr("&Mirror"));
    QAction *reverify = mirror->addAction(tr("&Verify Again"), this, &RemoteMirrorWindow::reverify);
    reverify->setObjectName(QStringLiteral("actionRemoteReverify"));
    reverify->setShortcut(QKeySequence::Refresh);
    mirror->addAction(tr("&Credentials…"), this, [this] {
        CredentialsDialog dialog(m_request.baseUrl, m_request.environment, m_request.homeDir, this);
        dialog.exec();
    });
    mirror->addSeparator();
    mirror->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(anomalyDock->toggleViewAction());
    view->addAction(logDock->toggleViewAction());

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setTextFilter(text);
        if (!text.trimmed().isEmpty())
            m_tree->expandAll();
    });
    connect(m_cancel, &QPushButton::clicked, m_session, &RemoteSession::cancel);
    connect(m_session, &RemoteSession::catalogReady, this, &RemoteMirrorWindow::onCatalog);
    connect(m_session, &RemoteSession::archivesVerified, m_archives, &MirrorTreeModel::applyResults);
    connect(m_session, &RemoteSession::requestFinished, m_log, &RequestLogModel::append);
    connect(m_session, &RemoteSession::finished, this, &RemoteMirrorWindow::onFinished);
    connect(m_session, &RemoteSession::failed, this, &RemoteMirrorWindow::onFailed);
    connect(m_session, &RemoteSession::message, this, [this](const QString &text) { m_status->setText(text); });
    connect(m_session, &RemoteSession::progress, this, [this](qint64 done, qint64 total) {
        if (total > 0) {
            m_progress->setRange(0, 1000);
            m_progress->setValue(int(std::min<qint64>(1000, done * 1000 / total)));
            m_progress->setFormat(tr("%1 of %2").arg(RequestLogModel::formatBytes(done), RequestLogModel::formatBytes(total)));
        }
    });
    connect(m_archives, &MirrorTreeModel::countsChanged, this, &RemoteMirrorWindow::updateSummary);
    resize(1100, 720);
    setRunning(false);
    updateSummary();
}

RemoteMirrorWindow::~RemoteMirrorWindow() = default;

void RemoteMirrorWindow::open(const RemoteRequest &request)
{
    m_request = request;
    setWindowTitle(tr("%1 — Provender").arg(redactUrlText(request.baseUrl)));
    m_archives->setCatalog(Catalog{});
    m_anomalies->clear();
    m_log->clear();
    m_status->setText(request.source == RemoteRequest::ProviderSource::Autoindex ? tr("Reading the directory listing…")
                                                                                  : tr("Fetching the indexes…"));
    setRunning(true);
    m_session->start(request);
    updateSummary();
}

void RemoteMirrorWindow::reverify()
{
    if (!m_request.baseUrl.isEmpty())
        open(m_request);
}

void RemoteMirrorWindow::onCatalog(const Catalog &catalog)
{
    m_archives->setCatalog(catalog);
    m_anomalies->setAnomalies(catalog.anomalies, catalog.root);
    if (catalog.archiveCount() <= 200)
        m_tree->expandAll();
    else
        m_tree->expandToDepth(1);
    m_status->setText(tr("Downloading and hashing %n archive(s)…", nullptr, int(catalog.archiveCount())));
    updateSummary();
}

void RemoteMirrorWindow::onFinished(const VerifySummary &summary)
{
    setRunning(false);
    m_status->setText(summary.cancelled ? tr("Cancelled.")
                                        : tr("Done: %n archive(s) checked, %1 request(s).", nullptr, summary.archives).arg(m_log->rowCount()));
    updateSummary();
    Q_EMIT runEnded();
}

void RemoteMirrorWindow::onFailed(const QString &message)
{
    setRunning(false);
    m_status->setText(message);
    m_summary->setText(QStringLiteral("<span style=\"color:%1\"><b>%2</b></span> %3")
                           .arg(verdictColor(Verdict::Error).name(), tr("Cannot open the mirror:"), message.toHtmlEscaped()));
    Q_EMIT runEnded();
}

void RemoteMirrorWindow::setRunning(bool running)
{
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(QString());
    }
}

void RemoteMirrorWindow::updateSummary()
{
    if (m_request.baseUrl.isEmpty()) {
        m_summary->setText(tr("No mirror open."));
        return;
    }
    static constexpr Verdict order[] = {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing,
                                        Verdict::Error, Verdict::Refused, Verdict::Pending};
    const auto &counts = m_archives->verdictCounts();
    QStringList parts;
    for (Verdict v : order) {
        const int n = counts[size_t(v)];
        if (n > 0)
            parts << QStringLiteral("<span style=\"color:%1; font-size:large\">●</span>&nbsp;<b>%2</b>&nbsp;%3")
                         .arg(verdictColor(v).name())
                         .arg(n)
                         .arg(toString(v));
    }
    m_summary->setText(QStringLiteral("<b>%1</b>&nbsp;&nbsp;·&nbsp;&nbsp;%2 archives&nbsp;&nbsp;&nbsp;&nbsp;%3")
                           .arg(redactUrlText(m_request.baseUrl).toHtmlEscaped())
                           .arg(m_archives->archiveCount())
                           .arg(parts.join(QStringLiteral("&nbsp;&nbsp;&nbsp;"))));
}

void RemoteMirrorWindow::closeEvent(QCloseEvent *event)
{
    m_session->cancel();
    QMainWindow::closeEvent(event);
}

void RemoteMirrorWindow::updateDetails()
{
    if (!m_details || !m_status)
        return;
    const QModelIndex source = m_proxy->mapToSource(m_tree->currentIndex());
    m_details->showRow(m_archives, source, {}, false, false);
}

} // namespace provender::ui
