#include "ui/lock/LockUi.h"

#include "ui/FormRows.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockMergeWindow.h"

#include "model/lockfile/LockMerge.h"
#include "model/network/RemoteSession.h"
#include "model/network/TrustStore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace provender::ui {

bool selectArchiveInBrowser(MainWindow *window, const QString &path)
{
    return window && window->selectArchive(path);
}

bool isLockFilePath(const QString &path)
{
    return path.endsWith(QLatin1StringView(".hcl")) && !QFileInfo(path).isDir();
}

std::optional<LockMirrorLocation> browserMirror(const MainWindow *window, QString *why)
{
    QString unused;
    QString &reason = why ? *why : unused;
    if (!window || window->mirrorRoot().isEmpty()) {
        reason = QObject::tr("Open a mirror first (File ▸ Open Mirror Directory… or File ▸ Open URL…).");
        return std::nullopt;
    }
    if (window->sourceKind() == MainWindow::SourceKind::Directory)
        return LockMirrorLocation{window->mirrorRoot(), HttpSettings()};
    if (!window->showsNetworkMirror()) {
        reason = QObject::tr("A lock file is checked against a mirror directory or a network mirror's URL, not against %1.")
                     .arg(window->sourceKind() == MainWindow::SourceKind::Bundle ? QObject::tr("a bundle") : window->mirrorRoot());
        return std::nullopt;
    }
    const RemoteRequest &request = window->urlRequest();
    LockMirrorLocation out{request.baseUrl, httpSettings(request)};
    if (!request.caFile.isEmpty()) {
        Result<QList<QSslCertificate>> certificates = readCaFile(request.caFile);
        if (!certificates) {
            reason = certificates.error().message;
            return std::nullopt;
        }
        out.http.caCertificates = std::move(certificates).value();
    }
    return out;
}

LockEditorWindow *openLockEditor(MainWindow *window, const QString &path)
{
    if (QFile f(path); f.open(QIODevice::ReadOnly) && lockmerge::hasConflictMarkers(f.readAll())) {
        openLockMergeWindow(window, path); // git left conflict markers: resolve them by meaning
        return nullptr;
    }
    auto *editor = new LockEditorWindow;
    editor->setAttribute(Qt::WA_DeleteOnClose);
    editor->openFile(path);                                                       // first: a URL is read for the versions the file locks
    if (const std::optional<LockMirrorLocation> mirror = browserMirror(window)) { // a bundle or nothing: no mirror
        editor->openMirror(mirror->location, mirror->http);
    } else if (window) {
        // `provender DIR FILE.hcl`: the browser is still opening its mirror. The editor takes the
        // first mirror the browser shows, unless it has one (or is opening one) of its own by then.
        QObject::connect(
            window, &MainWindow::mirrorOpened, editor,
            [window, editor] {
                if (editor->hasMirror() || editor->jobs()->isRunning(QStringLiteral("scan")))
                    return;
                if (const std::optional<LockMirrorLocation> shown = browserMirror(window))
                    editor->openMirror(shown->location, shown->http);
            },
            Qt::SingleShotConnection);
    }
    editor->show();
    return editor;
}

CoverageMatrixWindow *openCoverageMatrix(MainWindow *window, const QString &lockPath)
{
    QString why;
    const std::optional<LockMirrorLocation> mirror = browserMirror(window, &why);
    if (!mirror) {
        QMessageBox::information(window, QObject::tr("Coverage Matrix"), why);
        return nullptr;
    }
    auto *matrix = new CoverageMatrixWindow;
    matrix->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(matrix, &CoverageMatrixWindow::archiveActivated, window,
                     [window](const QString &, const QString &, const QString &, const QString &archivePath) {
                         selectArchiveInBrowser(window, archivePath);
                     });
    matrix->openLockFile(lockPath);
    matrix->openMirror(mirror->location, mirror->http);
    matrix->show();
    return matrix;
}

void installLockUi(MainWindow *window)
{
    QAction *open = new QAction(QObject::tr("Open &Lock File…"), window);
    open->setObjectName(u"actionOpenLockFile"_s);
    QObject::connect(open, &QAction::triggered, window, [window] {
        const QString path = QFileDialog::getOpenFileName(window, QObject::tr("Open Lock File"), QString(), lockFileFilter());
        if (path.isEmpty())
            return;
        openLockEditor(window, path);
    });

    QAction *compare = new QAction(QObject::tr("Compare Lock &Files…"), window);
    compare->setObjectName(u"actionCompareLockFiles"_s);
    QObject::connect(compare, &QAction::triggered, window, [window] {
        auto *diff = new LockDiffWindow;
        diff->setAttribute(Qt::WA_DeleteOnClose);
        diff->show();
        diff->openFilesDialog();
        Q_UNUSED(window);
    });

    QAction *coverage = new QAction(QObject::tr("&Coverage Matrix…"), window);
    coverage->setObjectName(u"actionCoverageMatrix"_s);
    QObject::connect(coverage, &QAction::triggered, window, [window] {
        QString why;
        if (!browserMirror(window, &why)) {
            QMessageBox::information(window, QObject::tr("Coverage Matrix"), why);
            return;
        }
        const QString path = QFileDialog::getOpenFileName(window, QObject::tr("Lock File to Check"), QString(), lockFileFilter());
        if (!path.isEmpty())
            openCoverageMatrix(window, path);
    });

    window->addAction(MainWindow::MenuGroup::FileLock, open);
    window->addAction(MainWindow::MenuGroup::FileLock, compare);
    window->addAction(MainWindow::MenuGroup::ToolsSource, coverage);
    window->setStartAction(MainWindow::StartAction::OpenLockFile, open);
    window->setStartAction(MainWindow::StartAction::CompareLockFiles, compare);
}

int runLockDiffGui(const QStringList &args)
{
    const bool difftool = !args.isEmpty() && args.constFirst() == u"difftool"_s;
    QCommandLineParser parser;
    parser.setApplicationDescription(difftool ? QObject::tr("Show two lock files side by side (for git difftool).")
                                              : QObject::tr("Compare two lock files by meaning and as text, in a window."));
    parser.addHelpOption();
    QCommandLineOption mirror(u"mirror"_s, QObject::tr("Trace hashes to the archives of this mirror directory or network mirror URL."),
                              u"DIR|URL"_s);
    parser.addOption(mirror);
    parser.addPositionalArgument(difftool ? u"LOCAL"_s : u"A"_s, QObject::tr("The old lock file."));
    parser.addPositionalArgument(difftool ? u"REMOTE"_s : u"B"_s, QObject::tr("The new lock file."));
    QStringList argv = args;
    if (!argv.isEmpty())
        argv[0] = u"provender "_s + argv.constFirst();
    QTextStream err(stderr);
    if (!parser.parse(argv)) {
        err << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(u"help"_s)) {
        // Qt names the program by its path in the usage line; say the command instead.
        QString help = parser.helpText();
        const QString program = QCoreApplication::arguments().value(0);
        if (!program.isEmpty() && help.contains(program))
            help.replace(help.indexOf(program), program.size(), argv.constFirst());
        QTextStream(stdout) << help;
        return 0;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() != 2) {
        err << argv.value(0) << ": expected two lock files (" << (difftool ? "LOCAL REMOTE" : "A B") << ")\n";
        return 2;
    }
    for (const QString &f : files)
        if (!QFileInfo(f).isFile() && f != u"/dev/null"_s) { // git difftool: the side of an added/deleted file
            err << argv.value(0) << ": " << f << ": no such file\n";
            return 2;
        }
    auto *window = new LockDiffWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    if (!window->openFiles(files.at(0), files.at(1))) {
        err << argv.value(0) << ": " << window->errorText() << '\n';
        delete window;
        return 2;
    }
    if (difftool) {
        // git difftool exports MERGED: the path of the file in the work tree.
        const QString merged = qEnvironmentVariable("MERGED");
        if (!merged.isEmpty())
            window->setWindowTitle(QObject::tr("%1 — git difftool — Provender").arg(merged));
    }
    if (parser.isSet(mirror))
        window->openMirror(parser.value(mirror));
    window->show();
    return QApplication::exec();
}

} // namespace provender::ui
