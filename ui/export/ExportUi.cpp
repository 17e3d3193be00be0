#include "ui/export/ExportUi.h"

#include "ui/MainWindow.h"
#include "ui/export/ExportDialogs.h"

#include <QAction>
#include <QFileInfo>
#include <QMessageBox>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

/// A mirror directory we may write into (not a bundle, not a URL).
bool isWritableMirror(const MainWindow *window)
{
    return window->sourceKind() == MainWindow::SourceKind::Directory && QFileInfo(window->mirrorRoot()).isWritable();
}

bool isMirrorDirectory(const MainWindow *window)
{
    return window->sourceKind() == MainWindow::SourceKind::Directory;
}

} // namespace

void installExportUi(MainWindow *window)
{
    auto *exportIndexes = new QAction(QObject::tr("E&xport Indexes…"), window);
    exportIndexes->setObjectName(u"actionExportIndexes"_s);
    exportIndexes->setShortcut(QKeySequence(u"Ctrl+Shift+E"_s));
    exportIndexes->setToolTip(QObject::tr("Write index.json and <version>.json so the mirror directory can be served as a network mirror"));
    QObject::connect(exportIndexes, &QAction::triggered, window, [window] {
        const QString root = window->mirrorRoot();
        if (!isWritableMirror(window)) {
            QMessageBox::information(window, QObject::tr("Export Indexes"),
                                     QObject::tr("Open a mirror directory you can write to first (File ▸ Open Mirror Directory…)."));
            return;
        }
        auto *dialog = new ExportIndexesDialog(root, window);
        dialog->setObjectName(u"exportIndexesDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(dialog, &ExportIndexesDialog::exported, window, [window](const QString &root) {
            if (window->mirrorRoot() == root)
                window->reverify(); // rescan: the browser shows the new indexes
        });
        dialog->open();
    });

    auto *addToLock = new QAction(QObject::tr("Add to &Lock File…"), window);
    addToLock->setObjectName(u"actionAddToLockFile"_s);
    addToLock->setShortcut(QKeySequence(u"Ctrl+Shift+L"_s));
    addToLock->setToolTip(
        QObject::tr("Record the hashes of the selected provider versions in a lock file (like terraform providers lock -fs-mirror)"));
    QObject::connect(addToLock, &QAction::triggered, window, [window] {
        if (!isMirrorDirectory(window)) {
            QMessageBox::information(window, QObject::tr("Add to Lock File"),
                                     QObject::tr("Open a mirror directory first (File ▸ Open Mirror Directory…)."));
            return;
        }
        const QStringList paths = window->selectedArchivePaths();
        if (paths.isEmpty()) {
            QMessageBox::information(window, QObject::tr("Add to Lock File"),
                                     QObject::tr("Select providers, versions or archives in the browser first."));
            return;
        }
        auto *dialog = new AddToLockDialog(window, paths);
        dialog->setObjectName(u"addToLockDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });

    auto update = [window, exportIndexes, addToLock] {
        exportIndexes->setEnabled(isWritableMirror(window));
        addToLock->setEnabled(isMirrorDirectory(window));
    };
    QObject::connect(window, &MainWindow::mirrorOpened, window, update);
    update();

    window->addAction(MainWindow::MenuGroup::FileWrite, exportIndexes);
    window->addAction(MainWindow::MenuGroup::ToolsSelection, addToLock); // also in the tree's context menu
}

} // namespace provender::ui
