#include "ui/bundle/BundleUi.h"

#include "model/items/MirrorTreeModel.h"
#include "ui/MainWindow.h"
#include "ui/bundle/BundleDialogs.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QMenu>
#include <QSettings>
#include <QTreeView>

namespace provender::ui {

namespace {

/// The paths of the archives selected in the window's tree: selected archive rows, and every
/// archive below a selected host, provider or version row.
QStringList selectedArchivePaths(MainWindow *window)
{
    QStringList paths;
    auto *view = window->findChild<QTreeView *>(QStringLiteral("archiveView"));
    if (!view || !view->selectionModel())
        return paths;
    const QAbstractItemModel *model = view->model();
    std::function<void(const QModelIndex &)> collect = [&](const QModelIndex &index) {
        const int kind = model->data(index, MirrorTreeModel::KindRole).toInt();
        if (kind == MirrorTreeModel::ArchiveNode) {
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

bool isMirrorDirectory(const QString &root)
{
    return !root.isEmpty() && QFileInfo(root).isDir();
}

} // namespace

void installBundleUi(MainWindow *window)
{
    QMenu *file = window->menu(MainWindow::Menu::File);
    QAction *before = nullptr; // insert after the first group of the File menu (the Open actions)
    for (QAction *a : file->actions())
        if (a->isSeparator()) {
            before = a;
            break;
        }

    auto *open = new QAction(QObject::tr("Open &Bundle…"), window);
    open->setObjectName(QStringLiteral("actionOpenBundle"));
    open->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+B")));
    open->setToolTip(QObject::tr("Browse and verify a bundle in place, without extracting it"));
    QObject::connect(open, &QAction::triggered, window, [window] {
        QSettings settings;
        const QString f = QFileDialog::getOpenFileName(
            window, QObject::tr("Open Bundle"), settings.value(QStringLiteral("bundles/lastDirectory")).toString(),
            QObject::tr("Bundles (*.tar *.tar.gz *.tgz *.tar.xz *.txz *.tar.zst *.tzst *.zip)"));
        if (f.isEmpty())
            return;
        settings.setValue(QStringLiteral("bundles/lastDirectory"), QFileInfo(f).absolutePath());
        window->openMirror(f);
    });

    auto *create = new QAction(QObject::tr("&Create Bundle…"), window);
    create->setObjectName(QStringLiteral("actionCreateBundle"));
    create->setToolTip(QObject::tr("Write the open mirror, the selected archives, or what some lock files need into one file"));
    QObject::connect(create, &QAction::triggered, window, [window] {
        auto *dialog = new CreateBundleDialog(window->mirrorRoot(), selectedArchivePaths(window), window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });

    auto *import = new QAction(QObject::tr("&Import Bundle…"), window);
    import->setObjectName(QStringLiteral("actionImportBundle"));
    import->setToolTip(QObject::tr("Verify a bundle and merge it into a mirror directory, all or nothing"));
    QObject::connect(import, &QAction::triggered, window, [window] {
        const QString root = window->mirrorRoot();
        const bool rootIsBundle = !root.isEmpty() && QFileInfo(root).isFile();
        auto *dialog = new ImportBundleDialog(rootIsBundle ? root : QString(), isMirrorDirectory(root) ? root : QString(), window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(dialog, &ImportBundleDialog::importFinished, window, [window](bool ok, const QString &target) {
            if (ok)
                window->openMirror(target); // show the merged mirror
        });
        dialog->open();
    });

    // Create Bundle… needs a mirror directory; the menu is checked each time it opens.
    QObject::connect(file, &QMenu::aboutToShow, window, [window, create] {
        create->setEnabled(isMirrorDirectory(window->mirrorRoot()));
    });
    create->setEnabled(isMirrorDirectory(window->mirrorRoot()));

    file->insertAction(before, open);
    file->insertSeparator(before);
    file->insertAction(before, create);
    file->insertAction(before, import);
}

} // namespace provender::ui
