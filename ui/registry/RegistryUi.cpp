#include "ui/registry/RegistryUi.h"

#include "ui/MainWindow.h"
#include "ui/registry/OpenRegistryDialog.h"
#include "ui/registry/PullRegistryDialog.h"

#include <QAction>

namespace provender::ui {

void installRegistryUi(MainWindow *window)
{
    auto *open = new QAction(QObject::tr("Open &Registry…"), window);
    open->setStatusTip(QObject::tr("Browse and verify providers in their origin registry, against the signed SHA256SUMS"));
    QObject::connect(open, &QAction::triggered, window, [window] {
        OpenRegistryDialog dialog(window);
        if (dialog.exec() == QDialog::Accepted)
            openRegistry(window, dialog.form());
    });
    window->addAction(MainWindow::MenuGroup::FileOpen, open);

    auto *pull = new QAction(QObject::tr("&Pull from Registry…"), window);
    pull->setStatusTip(
        QObject::tr("Download providers from their origin registry into a mirror, each archive proven against its signed SHA256SUMS"));
    QObject::connect(pull, &QAction::triggered, window, [window] {
        auto *dialog = new PullRegistryDialog(window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(dialog, &PullRegistryDialog::pulled, window,
                         [window](const QString &destination) { window->openMirror(destination); });
        dialog->show();
    });
    window->addAction(MainWindow::MenuGroup::FileWrite, pull);
}

} // namespace provender::ui
