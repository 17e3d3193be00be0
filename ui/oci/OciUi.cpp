#include "ui/oci/OciUi.h"

#include "ui/MainWindow.h"
#include "ui/oci/OpenOciDialog.h"
#include "ui/oci/PublishOciDialog.h"

#include <QAction>
#include <QKeySequence>
#include <QMessageBox>

namespace provender::ui {

void installOciUi(MainWindow *window)
{
    auto *open = new QAction(QObject::tr("Open &OCI Registry…"), window);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    open->setStatusTip(QObject::tr("Browse and verify an OCI registry used as an OpenTofu oci_mirror"));
    QObject::connect(open, &QAction::triggered, window, [window] {
        OpenOciDialog dialog(window);
        if (dialog.exec() != QDialog::Accepted)
            return;
        QString error;
        if (!openOci(window, dialog.form(), &error))
            QMessageBox::warning(window, QObject::tr("Open OCI Registry"), error);
    });
    window->addAction(MainWindow::MenuGroup::FileOpen, open);

    auto *publish = new QAction(QObject::tr("Publish to OCI Re&gistry…"), window);
    publish->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P));
    publish->setStatusTip(QObject::tr("Push the directory mirror or bundle shown to an OCI registry in OpenTofu's oci_mirror format"));
    QObject::connect(publish, &QAction::triggered, window, [window] {
        auto *dialog = new PublishOciDialog(window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    window->addAction(MainWindow::MenuGroup::FileWrite, publish);
}

} // namespace provender::ui
