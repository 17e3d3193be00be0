#include "ui/bundle/BundleUi.h"

#include "ui/MainWindow.h"
#include "ui/bundle/BundleDialogs.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace provender::ui {

namespace {

bool isMirrorDirectory(const MainWindow *window)
{
    return window->sourceKind() == MainWindow::SourceKind::Directory;
}

} // namespace

void installBundleUi(MainWindow *window)
{
    auto *open = new QAction(QObject::tr("Open &Bundle…"), window);
    open->setObjectName(QStringLiteral("actionOpenBundle"));
    open->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+B")));
    open->setToolTip(QObject::tr("Browse and verify a bundle in place, without extracting it"));
    QObject::connect(open, &QAction::triggered, window, [window] {
        QSettings settings;
        const QString f = QFileDialog::getOpenFileName(window, QObject::tr("Open Bundle"),
                                                       settings.value(QStringLiteral("bundles/lastDirectory")).toString(),
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
        auto *dialog = new CreateBundleDialog(window->mirrorRoot(), window->selectedArchivePaths(), window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });

    auto *import = new QAction(QObject::tr("&Import Bundle…"), window);
    import->setObjectName(QStringLiteral("actionImportBundle"));
    import->setToolTip(QObject::tr("Verify a bundle and merge it into a mirror directory, all or nothing"));
    QObject::connect(import, &QAction::triggered, window, [window] {
        const QString root = window->mirrorRoot();
        const bool rootIsBundle = window->sourceKind() == MainWindow::SourceKind::Bundle;
        auto *dialog = new ImportBundleDialog(rootIsBundle ? root : QString(), isMirrorDirectory(window) ? root : QString(), window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        QObject::connect(dialog, &ImportBundleDialog::importFinished, window, [window](bool ok, const QString &target) {
            if (ok)
                window->openMirror(target); // show the merged mirror
        });
        dialog->open();
    });

    // Create Bundle… needs a mirror directory.
    auto update = [window, create] { create->setEnabled(isMirrorDirectory(window)); };
    QObject::connect(window, &MainWindow::mirrorOpened, create, update);
    update();

    window->addAction(MainWindow::MenuGroup::FileOpen, open);
    window->addAction(MainWindow::MenuGroup::FileWrite, create);
    window->addAction(MainWindow::MenuGroup::FileWrite, import);
    window->setStartAction(MainWindow::StartAction::OpenBundle, open);
}

} // namespace provender::ui
