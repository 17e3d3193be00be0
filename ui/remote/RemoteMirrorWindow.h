#pragma once
// A small window for one network mirror until MainWindow can show a remote catalog itself: the
// same tree (MirrorTreeModel behind ArchiveFilterProxyModel, verdict badges) fed by a
// RemoteSession instead of a VerifyEngine, the anomalies of the index requests, the per-request
// log (RequestLogPanel) and byte progress with Cancel.
// objectNames: "remoteArchiveView", "remoteAnomalyView", "remoteSummary", "remoteStatus",
// "remoteProgress", "remoteCancel", "remoteFilter", "requestLogDock", "actionRemoteReverify".

#include "model/network/RemoteSession.h"

#include <QMainWindow>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeView;

namespace provender {
class AnomalyListModel;
class ArchiveFilterProxyModel;
class MirrorTreeModel;
class RequestLogModel;
} // namespace provender

namespace provender::ui {

class DetailsPane;

class RemoteMirrorWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit RemoteMirrorWindow(QWidget *parent = nullptr);
    ~RemoteMirrorWindow() override;

    void open(const RemoteRequest &request);
    RemoteSession *session() const { return m_session; }
    MirrorTreeModel *archiveModel() const { return m_archives; }
    RequestLogModel *requestLog() const { return m_log; }
    AnomalyListModel *anomalyModel() const { return m_anomalies; }

public Q_SLOTS:
    void reverify();

Q_SIGNALS:
    void runEnded();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    RemoteSession *m_session;
    MirrorTreeModel *m_archives;
    ArchiveFilterProxyModel *m_proxy;
    AnomalyListModel *m_anomalies;
    RequestLogModel *m_log;
    QTreeView *m_tree = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QLineEdit *m_filter = nullptr;
    DetailsPane *m_details = nullptr;
    RemoteRequest m_request;

    void onCatalog(const Catalog &catalog);
    void onFinished(const VerifySummary &summary);
    void onFailed(const QString &message);
    void updateSummary();
    void updateDetails();
    void setRunning(bool running);
};

} // namespace provender::ui
