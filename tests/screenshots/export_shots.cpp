// Renders the Export Indexes and Add to Lock File dialogs (docs/images/export-indexes.png,
// docs/images/add-to-lock.png): renderExportScreenshots(OUTPUT_DIR), from provender_screenshots.

#include "Screenshots.h"

#include "model/lockfile/LockEdit.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/MainWindow.h"
#include "ui/export/ExportDialogs.h"
#include "ui/export/ExportUi.h"

#include <QAbstractProxyModel>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTreeWidget>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

int renderExportScreenshots(const QString &out)
{
    QCoreApplication::setOrganizationName(u"ProvenderScreenshots"_s);
    QTemporaryDir tmp;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(tmp.path() + u"/config"_s));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(tmp.path() + u"/cache"_s)); // a hash cache of its own
    const QString demo = tmp.path() + u"/demo"_s;
    if (!generateDemoMirror(demo))
        return 1;
    MainWindow w;
    installExportUi(&w);
    w.resize(1200, 760);
    QSignalSpy finished(&w, &MainWindow::verificationFinished);
    w.openMirror(demo);
    if (!finished.wait(120000))
        return 1;

    {
        ExportIndexesDialog dialog(demo, &w);
        QSignalSpy previewed(&dialog, &ExportIndexesDialog::previewReady);
        dialog.findChild<QLineEdit *>(u"urlEdit"_s)->setText(u"https://mirror.example.com/providers/"_s);
        dialog.show();
        if (!previewed.wait(120000))
            return 1;
        auto *files = dialog.findChild<QTreeWidget *>(u"previewFiles"_s);
        for (int i = 0; i < files->topLevelItemCount(); ++i)
            if (files->topLevelItem(i)->text(1).endsWith(u"random/3.6.0.json"_s))
                files->setCurrentItem(files->topLevelItem(i));
        QApplication::processEvents();
        if (!dialog.grab().save(out + u"/export-indexes.png"_s))
            return 1;
    }
    {
        const Result<Catalog> catalog = scanFileSystemMirror(demo);
        auto *view = w.findChild<QTreeView *>(u"archiveView"_s);
        auto *proxy = qobject_cast<QAbstractProxyModel *>(view->model());
        const Provider *p = findProvider(*catalog, ProviderAddress::parse(u"registry.opentofu.org/hashicorp/random"_s).value());
        const ProviderVersion *v = findVersion(*p, Version::parse(u"3.6.2"_s).value());
        const QModelIndex leaf = proxy->mapFromSource(w.archiveModel()->indexForArchivePath(v->archives.first().path));
        view->selectionModel()->clearSelection();
        view->selectionModel()->select(leaf.parent(), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QString lock = tmp.path() + u"/.terraform.lock.hcl"_s;
        QFile f(lock);
        f.open(QIODevice::WriteOnly);
        f.write("# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\n"
                "provider \"registry.opentofu.org/hashicorp/random\" {\n  version = \"3.6.0\"\n  constraints = \">= 3.5.0\"\n  hashes = [\n"
                "    \"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\n  ]\n}\n");
        f.close();
        AddToLockDialog dialog(&w, w.selectedArchivePaths());
        QSignalSpy ready(&dialog, &AddToLockDialog::selectionReady);
        dialog.show();
        if (!ready.wait(120000))
            return 1;
        dialog.setLockFile(lock);
        dialog.setPlatforms({Platform::parse(u"darwin_arm64"_s).value(), Platform::parse(u"linux_amd64"_s).value()});
        QSignalSpy previewed(&dialog, &AddToLockDialog::previewReady);
        dialog.startPreview();
        if (!previewed.wait(120000))
            return 1;
        QApplication::processEvents();
        if (!dialog.grab().save(out + u"/add-to-lock.png"_s))
            return 1;
    }
    return 0;
}
