// Renders the mirror browser on a freshly generated demo mirror into PNGs (used by
// scripts/screenshots for docs/images/browser*.png). Not a test: it asserts nothing.
//
//   renderBrowserScreenshots(OUTDIR), from provender_screenshots
//     OUTDIR/browser.png          light palette, tree expanded, the mismatching archive selected
//     OUTDIR/browser-dark.png     the same with a dark palette
//     OUTDIR/browser-details.png  an archive whose index holds the zip-level h1: selected

#include "Screenshots.h"
#include "tests/support/DarkPalette.h"

#include "model/items/MirrorTreeModel.h"
#include "model/mirror/DemoMirror.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFontDatabase>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeView>

using namespace provender;

namespace {

QModelIndex findLeaf(const QAbstractItemModel *m, const QString &text, const QModelIndex &parent = {})
{
    for (int r = 0; r < m->rowCount(parent); ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        if (i.data(MirrorTreeModel::KindRole).toInt() == MirrorTreeModel::ArchiveNode) {
            if (i.data(MirrorTreeModel::SearchTextRole).toString().contains(text))
                return i;
        } else if (const QModelIndex found = findLeaf(m, text, i); found.isValid()) {
            return found;
        }
    }
    return {};
}

void settle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

using test::darkPalette;

bool shoot(const QString &demo, const QString &out, bool dark, const QString &selectText)
{
    QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
    ui::MainWindow w;
    w.resize(1280, 860);
    w.show();
    bool done = false;
    QObject::connect(&w, &ui::MainWindow::verificationFinished, [&done] { done = true; });
    w.openMirror(demo);
    QElapsedTimer t;
    t.start();
    while (!done && t.elapsed() < 60000)
        settle(50);
    if (!done)
        return false;
    auto *view = w.findChild<QTreeView *>(QStringLiteral("archiveView"));
    view->expandToDepth(1);
    const QModelIndex leaf = findLeaf(view->model(), selectText);
    if (leaf.isValid()) {
        view->expand(leaf.parent());
        view->setCurrentIndex(leaf);
        view->scrollTo(leaf, QAbstractItemView::PositionAtCenter);
    }
    settle(200);
    return w.grab().save(out);
}

} // namespace

int renderBrowserScreenshots(const QString &out)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Provender"));
    QCoreApplication::setApplicationName(QStringLiteral("provender-screenshots"));
    const QString &outDir = out;
    QTemporaryDir tmp;
    // Our own settings and hash cache: nothing from the user's, nothing left behind.
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(tmp.filePath(QStringLiteral("config"))));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(tmp.filePath(QStringLiteral("cache"))));
    // A short, stable path for the window title and the path shown in the pictures.
    const QString demo = QDir::tempPath() + QStringLiteral("/provender/demo-mirror");
    QDir(demo).removeRecursively();
    QDir().mkpath(QFileInfo(demo).absolutePath());
    if (!generateDemoMirror(demo).ok()) {
        fprintf(stderr, "cannot generate the demo mirror\n");
        return 1;
    }
    QDir().mkpath(outDir);
    const QString mismatch = QStringLiteral("/random 3.6.0 linux_arm64");
    const bool ok = shoot(demo, outDir + QStringLiteral("/browser.png"), false, mismatch)
        && shoot(demo, outDir + QStringLiteral("/browser-dark.png"), true, mismatch)
        && shoot(demo, outDir + QStringLiteral("/browser-details.png"), false, QStringLiteral("/null 3.2.2 linux_amd64"));
    if (!ok) {
        fprintf(stderr, "rendering failed\n");
        return 1;
    }
    QDir(demo).removeRecursively();
    const QByteArray o = QFile::encodeName(outDir);
    printf("%s/browser.png\n%s/browser-dark.png\n%s/browser-details.png\n", o.constData(), o.constData(), o.constData());
    return 0;
}
