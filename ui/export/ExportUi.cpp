#include "ui/export/ExportUi.h"

#include "model/items/MirrorTreeModel.h"
#include "ui/MainWindow.h"
#include "ui/export/ExportDialogs.h"

#include <QAction>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMessageBox>
#include <QTreeView>

#include <functional>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

/// A mirror directory we may write into (not a bundle, not a URL).
bool isWritableMirror(const QString &root)
{
    const QFileInfo info(root);
    return !root.isEmpty() && info.isDir() && info.isWritable();
}

} // namespace

QStringList selectedArchivePathsOf(MainWindow *window)
{
    QStringList paths;
    auto *view = window->findChild<QTreeView *>(u"archiveView"_s);
    if (!view || !view->selectionModel())
        return paths;
    const QAbstractItemModel *model = view->model();
    std::function<void(const QModelIndex &)> collect = [&](const QModelIndex &index) {
        if (model->data(index, MirrorTreeModel::KindRole).toInt() == MirrorTreeModel::ArchiveNode) {
            const QString path = model->data(index, MirrorTreeModel::PathRole).toString();
            if (!path.isEmpty() && !paths.contains(path))
                paths.append(path);
            return;
        }
        for (int row = 0; row < model->rowCount(index); ++row)
            collect(model->index(row, 0, index));
    };
    for (const QModelIndex &index : view->selectionModel()->selectedRows(0))
        collect(index);
    return paths;
}

void installExportUi(MainWindow *window)
{
    QMenu *file = window->menu(MainWindow::Menu::File);
    QMenu *tools = window->menu(MainWindow::Menu::Tools);

    auto *exportIndexes = new QAction(QObject::tr("E&xport Indexes…"), window);
    exportIndexes->setObjectName(u"actionExportIndexes"_s);
    exportIndexes->setShortcut(QKeySequence(u"Ctrl+Shift+E"_s));
    exportIndexes->setToolTip(QObject::tr("Write index.json and <version>.json so the mirror directory can be served as a network mirror"));
    QObject::connect(exportIndexes, &QAction::triggered, window, [window] {
        const QString root = window->mirrorRoot();
        if (!isWritableMirror(root)) {
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
    addToLock->setToolTip(QObject::tr("Record the hashes of the selected provider versions in a lock file (like terraform providers lock -fs-mirror)"));
    QObject::connect(addToLock, &QAction::triggered, window, [window] {
        if (!QFileInfo(window->mirrorRoot()).isDir()) {
            QMessageBox::information(window, QObject::tr("Add to Lock File"),
                                     QObject::tr("Open a mirror directory first (File ▸ Open Mirror Directory…)."));
            return;
        }
        const QStringList paths = selectedArchivePathsOf(window);
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
        exportIndexes->setEnabled(isWritableMirror(window->mirrorRoot()));
        addToLock->setEnabled(QFileInfo(window->mirrorRoot()).isDir());
    };
    QObject::connect(file, &QMenu::aboutToShow, window, update);
    QObject::connect(tools, &QMenu::aboutToShow, window, update);
    QObject::connect(window, &MainWindow::mirrorOpened, window, update);
    update();

    // After the bundle group of the File menu when there is one (Create/Import Bundle…), else
    // before Quit.
    QAction *before = nullptr;
    const QList<QAction *> actions = file->actions();
    for (int i = 0; i < actions.size(); ++i)
        if (actions.at(i)->objectName() == u"actionImportBundle"_s && i + 1 < actions.size()) {
            before = actions.at(i + 1);
            break;
        }
    if (!before)
        for (QAction *a : actions)
            if (a->menuRole() == QAction::QuitRole || a->shortcut() == QKeySequence(QKeySequence::Quit))
                before = a;
    file->insertAction(before, exportIndexes);
    tools->addAction(addToLock);
    if (auto *rowMenu = window->findChild<QMenu *>(u"rowContextMenu"_s)) { // the browser's right-click menu
        rowMenu->addSeparator();
        rowMenu->addAction(addToLock);
    }
}

} // namespace provender::ui
