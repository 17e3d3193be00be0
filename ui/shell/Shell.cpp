#include "ui/shell/Shell.h"

#include "model/core/Logging.h"
#include "model/mirror/DemoMirror.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/shell/AboutDialog.h"
#include "ui/shell/RecentItems.h"
#include "ui/shell/WelcomeWidget.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMenu>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>
#include <QtConcurrent>

// The resource lives in the static library provender_ui; without a reference the linker may drop
// its initialiser. Q_INIT_RESOURCE must be used outside any namespace.
static void initProvenderResources()
{
    Q_INIT_RESOURCE(provender);
}

namespace provender::ui {

QIcon appIcon()
{
    initProvenderResources();
    QIcon icon;
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/provender-%1.png").arg(size), QSize(size, size));
    return icon;
}

QString demoMirrorDirectory()
{
    QString base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (base.isEmpty())
        base = QDir::tempPath() + QStringLiteral("/provender");
    return base + QStringLiteral("/demo-mirror");
}

void openDemoMirror(MainWindow *window, WelcomeWidget *welcome, const QString &dir)
{
    // One generation at a time (the welcome button and Help ▸ Open the Demo Mirror both start one),
    // and never regenerate the directory the window is showing — its verification may be reading it.
    JobTracker *jobs = window->jobs();
    if (jobs->isRunning(QStringLiteral("demo")))
        return;
    if (QFileInfo(window->mirrorRoot()) == QFileInfo(dir)) {
        window->openMirror(dir); // already shown: a rescan
        return;
    }
    QPointer<WelcomeWidget> status(welcome);
    const QString what =
        QApplication::translate("provender::ui::Shell", "Generating the demo mirror in %1…").arg(QDir::toNativeSeparators(dir));
    if (status) {
        status->setDemoBusy(true);
        status->setStatus(what);
    }
    qCDebug(lcUi) << "generating the demo mirror in" << dir;
    // On the window's job tracker: its status bar shows it, and closing the window drops it.
    jobs->run(
        QStringLiteral("demo"), what,
        [dir](JobProgress &) {
            QDir().mkpath(QFileInfo(dir).absolutePath());
            return generateDemoMirror(dir);
        },
        [window, status, dir](const Result<DemoMirrorReport> &result) {
            if (status)
                status->setDemoBusy(false);
            if (!result.ok()) {
                qCWarning(lcUi) << "demo mirror:" << result.error().message;
                if (status)
                    status->setStatus(QApplication::translate("provender::ui::Shell", "Cannot create the demo mirror in %1: %2")
                                          .arg(QDir::toNativeSeparators(dir), result.error().message),
                                      true);
                return;
            }
            if (status)
                status->setStatus({});
            window->openMirror(result.value().root);
        });
}

void wireWelcomeToActions(MainWindow *window, WelcomeWidget *welcome)
{
    struct Link
    {
        void (WelcomeWidget::*signal)();
        MainWindow::StartAction action;
    };
    static const Link links[] = {
        {&WelcomeWidget::openUrlRequested, MainWindow::StartAction::OpenUrl},
        {&WelcomeWidget::openBundleRequested, MainWindow::StartAction::OpenBundle},
        {&WelcomeWidget::openLockFileRequested, MainWindow::StartAction::OpenLockFile},
        {&WelcomeWidget::compareLockFilesRequested, MainWindow::StartAction::CompareLockFiles},
    };
    for (const Link &link : links) {
        if (welcome->isHandled(link.signal))
            continue; // connected already (by a feature, or by an earlier call)
        if (QAction *action = window->startAction(link.action)) {
            QObject::connect(welcome, link.signal, action, &QAction::trigger);
            qCDebug(lcUi) << "welcome: button wired to" << action->text();
        }
    }
}

WelcomeWidget *installShell(MainWindow *window)
{
    const QIcon icon = appIcon();
    QApplication::setWindowIcon(icon);
    window->setWindowIcon(icon);

    auto *welcome = new WelcomeWidget;
    window->setWelcomeWidget(welcome);

    QObject::connect(welcome, &WelcomeWidget::openMirrorFolderRequested, window, &MainWindow::openMirrorDialog);
    QObject::connect(welcome, &WelcomeWidget::recentMirrorActivated, window, &MainWindow::openMirror);
    QObject::connect(welcome, &WelcomeWidget::openDemoMirrorRequested, window, [window, welcome] { openDemoMirror(window, welcome); });
    QObject::connect(window, &MainWindow::mirrorOpened, welcome, [welcome](const QString &root) {
        addRecentMirror(root);
        welcome->reloadRecent();
    });

    // Features installed before or after this call register their start actions with the window;
    // the welcome buttons trigger them.
    wireWelcomeToActions(window, welcome);
    QObject::connect(window, &MainWindow::startActionsChanged, welcome, [window, welcome] { wireWelcomeToActions(window, welcome); });

    {
        auto *demo = new QAction(QApplication::translate("provender::ui::Shell", "Open the &Demo Mirror"), window);
        demo->setObjectName(QStringLiteral("actionOpenDemoMirror"));
        QObject::connect(demo, &QAction::triggered, window, [window, welcome] { openDemoMirror(window, welcome); });
        window->addAction(MainWindow::MenuGroup::Help, demo);
        auto *separator = new QAction(window);
        separator->setSeparator(true);
        window->addAction(MainWindow::MenuGroup::Help, separator);
        auto *about = new QAction(icon, QApplication::translate("provender::ui::Shell", "&About Provender"), window);
        window->addAction(MainWindow::MenuGroup::Help, about);
        about->setObjectName(QStringLiteral("actionAbout"));
        about->setMenuRole(QAction::AboutRole);
        QObject::connect(about, &QAction::triggered, window, [window] {
            AboutDialog dialog(window);
            dialog.exec();
        });
    }
    return welcome;
}

} // namespace provender::ui
