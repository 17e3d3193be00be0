#include "ui/remote/RemoteUi.h"

#include "ui/MainWindow.h"
#include "ui/browser/UrlSource.h"
#include "ui/remote/CredentialsDialog.h"
#include "ui/remote/OpenUrlDialog.h"

#include <QAction>

namespace provender::ui {

bool openUrlInteractive(MainWindow *window)
{
    OpenUrlDialog dialog(window);
    if (window->sourceKind() == MainWindow::SourceKind::Url)
        dialog.setRequest(window->urlRequest()); // start from the mirror shown
    if (dialog.exec() != QDialog::Accepted)
        return false;
    const RemoteRequest request = dialog.request();
    rememberUrlRequest(request);
    window->openUrl(request);
    return true;
}

void installRemoteUi(MainWindow *window)
{
    auto *openUrl = new QAction(QObject::tr("Open &URL…"), window);
    openUrl->setObjectName(QStringLiteral("actionOpenUrl"));
    openUrl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openUrl->setStatusTip(QObject::tr("Check a network mirror (the url of a network_mirror block)"));
    QObject::connect(openUrl, &QAction::triggered, window, [window] { openUrlInteractive(window); });
    window->addAction(MainWindow::MenuGroup::FileOpen, openUrl);
    window->setStartAction(MainWindow::StartAction::OpenUrl, openUrl);

    auto *credentials = new QAction(QObject::tr("&Credentials…"), window);
    credentials->setObjectName(QStringLiteral("actionCredentials"));
    credentials->setStatusTip(QObject::tr("Which token a mirror host gets, and from where"));
    QObject::connect(credentials, &QAction::triggered, window, [window] {
        const bool url = window->sourceKind() == MainWindow::SourceKind::Url;
        const RemoteRequest request = url ? window->urlRequest() : RemoteRequest{};
        CredentialsDialog dialog(url ? request.baseUrl : OpenUrlDialog::recentUrls().value(0),
                                 url ? request.environment : QProcessEnvironment::systemEnvironment(), url ? request.homeDir : QString(),
                                 window);
        dialog.exec();
    });
    window->addAction(MainWindow::MenuGroup::ToolsSource, credentials);
}

} // namespace provender::ui
