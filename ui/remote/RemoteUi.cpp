#include "ui/remote/RemoteUi.h"

#include "ui/MainWindow.h"
#include "ui/remote/CredentialsDialog.h"
#include "ui/remote/OpenUrlDialog.h"
#include "ui/remote/RemoteMirrorWindow.h"

#include <QAction>
#include <QMenu>

namespace provender::ui {

RemoteMirrorWindow *openUrlInteractive(MainWindow *window)
{
    OpenUrlDialog dialog(window);
    if (dialog.exec() != QDialog::Accepted)
        return nullptr;
    auto *remote = new RemoteMirrorWindow(window);
    remote->setWindowFlag(Qt::Window);
    remote->show();
    remote->open(dialog.request());
    return remote;
}

void installRemoteUi(MainWindow *window)
{
    QMenu *file = window->menu(MainWindow::Menu::File);
    auto *openUrl = new QAction(QObject::tr("Open &URL…"), window);
    openUrl->setObjectName(QStringLiteral("actionOpenUrl"));
    openUrl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openUrl->setStatusTip(QObject::tr("Check a network mirror (the url of a network_mirror block)"));
    QObject::connect(openUrl, &QAction::triggered, window, [window] { openUrlInteractive(window); });
    // After "Open…" when there is one.
    const QList<QAction *> actions = file->actions();
    file->insertAction(actions.size() > 1 ? actions.at(1) : nullptr, openUrl);

    QMenu *tools = window->menu(MainWindow::Menu::Tools);
    auto *credentials = new QAction(QObject::tr("&Credentials…"), window);
    credentials->setObjectName(QStringLiteral("actionCredentials"));
    credentials->setStatusTip(QObject::tr("Which token a mirror host gets, and from where"));
    QObject::connect(credentials, &QAction::triggered, window, [window] {
        CredentialsDialog dialog(OpenUrlDialog::recentUrls().value(0), QProcessEnvironment::systemEnvironment(), QString(), window);
        dialog.exec();
    });
    tools->addAction(credentials);

    // The welcome screen's "Open URL" button (ui/shell), found by its signal so that this folder
    // does not depend on the shell's headers.
    for (QWidget *w : window->findChildren<QWidget *>()) {
        if (w->metaObject()->indexOfSignal("openUrlRequested()") >= 0) {
            QObject::connect(w, SIGNAL(openUrlRequested()), openUrl, SLOT(trigger()));
            break;
        }
    }
}

} // namespace provender::ui
