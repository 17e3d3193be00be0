// Renders the lock editor, the diff window and the coverage matrix offscreen into PNG files
// (docs/images/lock-editor.png, lock-diff.png, coverage.png) from the demo mirror.
// Usage: QT_QPA_PLATFORM=offscreen lockui_screenshots OUTPUT_DIR

#include "model/lockfile/LockWriter.h"
#include "model/lockitems/LockDiffTreeModel.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorWindow.h"

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

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"ProvenderScreenshots"_s);
    QSettings().clear();
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"."_s;
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
    diff.setTexts(lock, u"project/.terraform.lock.hcl at HEAD (3f2c1a9e7b)"_s, editor.currentBytes(), u"project/.terraform.lock.hcl (work tree)"_s);
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
    QSettings().clear();
    return ok ? 0 : 1;
}
