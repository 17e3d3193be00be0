#pragma once
// The first-run screen shown while no mirror is open: the ways to start (open a mirror folder, a
// network mirror URL, a bundle, a lock file, compare two lock files, the demo mirror) and the
// recently opened mirrors.
//
// The widget only emits requests; whoever implements a feature connects to its signal. A button
// stays disabled (with a tooltip saying so) until something is connected to its signal, so the
// screen never offers an action that does nothing.
//
// objectNames (tests): "welcomeWidget", "openMirrorFolderButton", "openUrlButton",
// "openBundleButton", "openLockFileButton", "compareLockFilesButton", "openDemoMirrorButton",
// "recentList", "recentEmptyLabel", "clearRecentButton", "welcomeStatus".

#include <QMetaMethod>
#include <QWidget>

class QCommandLinkButton;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;

namespace provender::ui {

class WelcomeWidget : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomeWidget(QWidget *parent = nullptr);

    /// Re-read the recent mirrors from QSettings (RecentItems.h).
    void reloadRecent();
    /// A one-line status under the buttons (e.g. "Generating the demo mirror…" or an error).
    void setStatus(const QString &text, bool isError = false);
    /// Disable the demo button while the demo mirror is being generated.
    void setDemoBusy(bool busy);
    /// Whether something is connected to `signal` (one of the request signals below).
    bool isHandled(void (WelcomeWidget::*signal)()) const { return isSignalConnected(QMetaMethod::fromSignal(signal)); }

Q_SIGNALS:
    void openMirrorFolderRequested();
    void openUrlRequested();
    void openBundleRequested();
    void openLockFileRequested();
    void compareLockFilesRequested();
    void openDemoMirrorRequested();
    /// A recent mirror was activated (double-click or Enter).
    void recentMirrorActivated(const QString &path);

protected:
    void connectNotify(const QMetaMethod &signal) override;
    void disconnectNotify(const QMetaMethod &signal) override;

private:
    struct Entry
    {
        QMetaMethod signal;
        QCommandLinkButton *button = nullptr;
    };
    QCommandLinkButton *addAction(const QString &objectName, const QString &title, const QString &description,
                                  void (WelcomeWidget::*signal)());
    void updateAvailability();
    void activateRecent(QListWidgetItem *item);

    QList<Entry> m_entries;
    QListWidget *m_recent = nullptr;
    QLabel *m_recentEmpty = nullptr;
    QPushButton *m_clearRecent = nullptr;
    QLabel *m_status = nullptr;
    bool m_demoBusy = false;
};

} // namespace provender::ui
