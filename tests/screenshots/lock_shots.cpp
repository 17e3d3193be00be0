// Renders the lock editor, the diff window, the coverage matrix and the merge window offscreen into
// PNG files (docs/images/lock-editor.png, lock-diff.png, coverage.png, lock-merge.png) from the demo
// mirror.
// renderLockScreenshots(OUTPUT_DIR), from provender_screenshots.

#include "Screenshots.h"

#include "model/lockfile/LockWriter.h"
#include "model/lockitems/LockDiffTreeModel.h"
#include "model/lockitems/LockMergeModel.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockDialogs.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockMergeWindow.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTreeView>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

void waitFor(const std::function<bool()> &done)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    for (int i = 0; i < 10; ++i)
        QCoreApplication::processEvents();
}

bool save(QWidget *w, const QString &path)
{
    const bool ok = w->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "FAILED ") << path << '\n';
    return ok;
}

/// Open Mirror… of the lock windows (lock-open-mirror.png).
bool renderOpenMirrorShot(const QString &out)
{
    MirrorLocationDialog openMirror(u"https://mirror.example.com/providers/"_s);
    openMirror.show();
    return save(&openMirror, out + u"/lock-open-mirror.png"_s);
}

/// The three-way merge window (lock-merge.png).
bool renderMergeShot(const QString &out)
{
    // Merge: on our branch random went to 3.6.2 and null got linux_arm64 hashes; on theirs random
    // went to 3.6.3, null got darwin_arm64 hashes and google a zh: hash. null and google merge by
    // themselves (the union); random conflicts and is resolved by taking theirs... not yet: the
    // shot shows it unresolved, with the conflict selected.
    const auto blockOf = [](const char *type, const char *version, const char *constraints,
                            const QList<const char *> &hashes) -> QByteArray {
        QByteArray b = "\nprovider \"registry.opentofu.org/hashicorp/" + QByteArray(type) + "\" {\n";
        if (*constraints)
            b += "  version     = \"" + QByteArray(version) + "\"\n  constraints = \"" + QByteArray(constraints) + "\"\n";
        else
            b += "  version = \"" + QByteArray(version) + "\"\n";
        b += "  hashes = [\n";
        for (const char *h : hashes)
            b += "    \"" + QByteArray(h) + "\",\n";
        return b + "  ]\n}\n";
    };
    const char *g1 = "h1:SfPp+CZwhXvmB3mjEDL4Ym6tXBEz3yLoR85sEBwjX8I=";
    const char *gz = "zh:0c2f1c6a5e0d3b7c1f7e9a4d1b8e2c6f0a3d5e7b9c1d3f5a7b9d1f3a5c7e9b1d";
    const char *n1 = "h1:vWAsYRd7MjYr3adj8BVKRohVfHpWQdvkIwUQ2Jf5FVM=";
    const char *n2 = "h1:Bx2UYzQ4cXmPqV9RnkwH3pPHvvlcZX2lUhy0eGwqHJ8=";
    const char *n3 = "h1:Qh7Ab1cDe2FgH3iJk4LmN5oPq6RsT7uVw8XyZ9aBcDe=";
    const char *r1 = "h1:R5Ucn26riKIEijcsiOMBR3uOAjuOMfI1x7XvH4P6B1w=";
    const char *r2 = "h1:fD7EGw8X8Eq3sW0c+BwJ1Q9GzK2cNPx0Bqk1v7M3y0A=";
    const char *r3 = "h1:J1u1nDx1Nj0qE1Lk3qz6kHcHd8kC6x5yA2WbQ4gHc2E=";
    const QByteArray header = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";
    const QByteArray mergeBase = header + blockOf("google", "6.8.0", "~> 6.0", {g1}) + blockOf("null", "3.2.2", "", {n1})
        + blockOf("random", "3.6.0", "~> 3.5", {r1});
    const QByteArray mergeOurs = header + blockOf("google", "6.8.0", "~> 6.0", {g1}) + blockOf("null", "3.2.2", "", {n1, n3})
        + blockOf("random", "3.6.2", "~> 3.6.2", {r2});
    const QByteArray mergeTheirs = header + blockOf("google", "6.8.0", "~> 6.0", {g1, gz}) + blockOf("null", "3.2.2", "", {n2, n1})
        + blockOf("random", "3.6.3", "~> 3.6.3", {r3});
    LockMergeWindow merge;
    merge.resize(1500, 820);
    if (!merge.setInputs(
            mergeBase, mergeOurs, mergeTheirs, u"project/.terraform.lock.hcl"_s,
            {u".merge_file_base (main)"_s, u".terraform.lock.hcl (ours: feature/arm)"_s, u".merge_file_theirs (origin/main)"_s})) {
        QTextStream(stderr) << merge.errorText() << '\n';
        return false;
    }
    merge.show();
    merge.view()->expandAll();
    merge.selectTopRow(2);
    merge.view()->setCurrentIndex(merge.model()->index(0, 0, merge.model()->index(2, 0))); // the red row stays red
    waitFor([] { return true; });
    return save(&merge, out + u"/lock-merge.png"_s);
}

} // namespace

int renderLockScreenshots(const QString &out)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"ProvenderScreenshots"_s);
    QSettings().clear();
    QTemporaryDir tmp;
    const QString mirror = tmp.path() + u"/demo"_s;
    if (!generateDemoMirror(mirror).ok())
        return 1;
    const Result<Catalog> catalog = scanFileSystemMirror(mirror);
    if (!catalog)
        return 1;

    // A lock file as a project might have it: a comment, random one version behind, null with
    // the hash of one platform, a provider the mirror lacks.
    const QByteArray lock = "# This file is maintained automatically by \"tofu init\".\n"
                            "# Manual edits may be lost in future updates.\n\n"
                            "provider \"registry.opentofu.org/hashicorp/google\" {\n"
                            "  version     = \"6.8.0\"\n"
                            "  constraints = \"~> 6.0\"\n"
                            "  hashes = [\n"
                            "    \"h1:SfPp+CZwhXvmB3mjEDL4Ym6tXBEz3yLoR85sEBwjX8I=\",\n"
                            "  ]\n"
                            "}\n\n"
                            "provider \"registry.opentofu.org/hashicorp/null\" {\n"
                            "  version = \"3.2.2\"\n"
                            "}\n\n"
                            "provider \"registry.opentofu.org/hashicorp/random\" {\n"
                            "  version     = \"3.6.0\"\n"
                            "  constraints = \"~> 3.5\"\n"
                            "}\n";
    const QString lockPath = tmp.path() + u"/project/.terraform.lock.hcl"_s;
    QDir().mkpath(tmp.path() + u"/project"_s);
    {
        QFile f(lockPath);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        f.write(lock);
    }

    // Editor: add linux_amd64 + darwin_arm64 hashes from the mirror, then type an error.
    LockEditorWindow editor;
    editor.setPrompt([](const QString &, const QString &, QMessageBox::StandardButtons) { return QMessageBox::Discard; });
    editor.resize(1400, 820);
    editor.openFile(lockPath);
    editor.setCatalog(catalog.value());
    editor.addHashesFromMirror({Platform(u"darwin"_s, u"arm64"_s), Platform(u"linux"_s, u"amd64"_s)}, false);
    waitFor([&] { return !editor.isBusy(); });
    const QByteArray withHashes = editor.currentBytes();
    waitFor([&] { return editor.provenanceReady(); });
    editor.selectProvider(ProviderAddress::parse(u"registry.opentofu.org/hashicorp/null").value());
    QString text = QString::fromUtf8(withHashes);
    text.replace(u"version     = \"6.8.0\""_s, u"version     = \"6.8\""_s);
    editor.show();
    editor.findChild<QPlainTextEdit *>(u"textEdit"_s)->setPlainText(text);
    waitFor([&] { return editor.hasErrors(); });
    editor.findChild<QTableView *>(u"providerView"_s)->resizeColumnsToContents();
    bool ok = save(&editor, out + u"/lock-editor.png"_s);

    // Diff: the original file against the one with hashes and random upgraded.
    editor.undo(); // the typed error
    editor.upgradeFromMirror({ProviderAddress::parse(u"registry.opentofu.org/hashicorp/random").value()});
    waitFor([&] { return !editor.isBusy(); });
    LockDiffWindow diff;
    diff.resize(1500, 820);
    diff.setCatalog(catalog.value());
    diff.setTexts(lock, u"project/.terraform.lock.hcl at HEAD (3f2c1a9e7b)"_s, editor.currentBytes(),
                  u"project/.terraform.lock.hcl (work tree)"_s);
    waitFor([&] { return diff.provenanceReady(); });
    diff.show();
    auto *tree = diff.findChild<QTreeView *>(u"semanticView"_s);
    const QModelIndex null = diff.model()->index(1, 0);
    tree->setCurrentIndex(diff.model()->index(0, 0, null));
    ok = save(&diff, out + u"/lock-diff.png"_s) && ok;

    // Coverage matrix of the upgraded file.
    CoverageMatrixWindow coverage;
    coverage.resize(1000, 300);
    coverage.setInputs(editor.document(), catalog.value(), u".terraform.lock.hcl"_s);
    waitFor([&] { return !coverage.isBusy(); });
    coverage.show();
    ok = save(&coverage, out + u"/coverage.png"_s) && ok;

    ok = renderOpenMirrorShot(out) && ok;
    ok = renderMergeShot(out) && ok;
    QSettings().clear();
    return ok ? 0 : 1;
}
