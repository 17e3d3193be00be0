// Renders the bundle dialogs on the demo mirror into OUTDIR/bundle-create.png and
// OUTDIR/bundle-import.png (run by scripts/screenshots; not a test).

#include "Screenshots.h"

#include "model/mirror/DemoMirror.h"
#include "ui/bundle/BundleDialogs.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>

using namespace provender;
using namespace provender::ui;

int renderBundleScreenshots(const QString &out)
{
    QCoreApplication::setOrganizationName(QStringLiteral("ProvenderScreenshots"));
    QTextStream err(stderr);
    QTemporaryDir tmp;
    const QString mirror = tmp.filePath(QStringLiteral("demo-mirror"));
    if (const auto demo = generateDemoMirror(mirror); !demo) {
        err << demo.error().toString() << '\n';
        return 1;
    }
    // A lock file that needs a platform the mirror lacks, so the preview shows a shortfall.
    const QString lock = tmp.filePath(QStringLiteral(".terraform.lock.hcl"));
    {
        QFile f(lock);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        f.write("provider \"registry.opentofu.org/hashicorp/null\" {\n"
                "  version = \"3.2.2\"\n"
                "  hashes = [\n"
                "    \"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\n"
                "  ]\n"
                "}\n");
    }
    {
        CreateBundleDialog dialog(mirror, {});
        QSignalSpy loaded(&dialog, &CreateBundleDialog::catalogLoaded);
        dialog.show();
        if (!loaded.wait(60000))
            return 1;
        dialog.addLockFiles({lock});
        for (QListWidget *list : dialog.findChildren<QListWidget *>(QStringLiteral("platformList")))
            for (int i = 0; i < list->count(); ++i) {
                const QString p = list->item(i)->text();
                if (p == QLatin1StringView("linux_amd64") || p == QLatin1StringView("darwin_arm64")
                    || p == QLatin1StringView("freebsd_amd64"))
                    list->item(i)->setCheckState(Qt::Checked);
            }
        dialog.setOutputPath(QDir::homePath() + QStringLiteral("/bundles/null-3.2.2.tar.zst"));
        QCoreApplication::processEvents();
        dialog.grab().save(out + QStringLiteral("/bundle-create.png"));
    }
    {
        // A bundle of hashicorp/null 3.2.2, imported into a mirror where one archive differs.
        QStringList zips;
        QDirIterator it(mirror + QStringLiteral("/registry.opentofu.org/hashicorp/null"),
                        {QStringLiteral("terraform-provider-null_3.2.2_*.zip")}, QDir::Files);
        while (it.hasNext())
            zips.append(it.next());
        zips.sort();
        const QString bundle = tmp.filePath(QStringLiteral("null.tar.gz"));
        CreateBundleDialog create(mirror, zips);
        QSignalSpy loaded(&create, &CreateBundleDialog::catalogLoaded);
        if (!loaded.wait(60000))
            return 1;
        create.setOutputPath(bundle);
        QSignalSpy done(&create, &CreateBundleDialog::finishedCreating);
        create.findChild<QPushButton *>(QStringLiteral("createButton"))->click();
        if (!done.wait(120000) || !done.at(0).at(0).toBool())
            return 1;
        const QString target = tmp.filePath(QStringLiteral("target/registry.opentofu.org/hashicorp/null"));
        QDir().mkpath(target);
        QFile::copy(zips.at(1), target + QLatin1Char('/') + QFileInfo(zips.at(1)).fileName());
        QFile bad(target + QLatin1Char('/') + QFileInfo(zips.at(0)).fileName());
        if (!bad.open(QIODevice::WriteOnly))
            return 1;
        bad.write("a different file");
        bad.close();
        ImportBundleDialog dialog(bundle, tmp.filePath(QStringLiteral("target")));
        dialog.show();
        QSignalSpy previewed(&dialog, &ImportBundleDialog::previewFinished);
        dialog.preview();
        if (!previewed.wait(120000))
            return 1;
        QCoreApplication::processEvents();
        dialog.grab().save(out + QStringLiteral("/bundle-import.png"));
    }
    return 0;
}
