// provender: with a command, a command-line tool (QCoreApplication); without one, the GUI.

#include "app/cli/Cli.h"
#include "ui/MainWindow.h"
#include "ui/bundle/BundleUi.h"
#include "ui/export/ExportUi.h"
#include "ui/lock/LockMergeWindow.h"
#include "ui/lock/LockUi.h"
#include "ui/oci/OciUi.h"
#include "ui/oci/OpenOciDialog.h"
#include "ui/registry/OpenRegistryDialog.h"
#include "ui/registry/RegistryUi.h"
#include "ui/remote/RemoteUi.h"
#include "ui/shell/Shell.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>

#include <memory>

using namespace provender;

namespace {

QStringList argvToList(int argc, char **argv)
{
    QStringList list;
    for (int i = 0; i < argc; ++i)
        list.append(QString::fromLocal8Bit(argv[i]));
    return list;
}

void setAppIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Provender"));
    QCoreApplication::setApplicationName(QStringLiteral("provender"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROVENDER_VERSION));
}

int printHelp()
{
    QTextStream &o = cli::out();
    o << "Usage: provender [options] [MIRROR-DIR|URL]  start the GUI (optionally on a mirror)\n"
         "       provender <command> [options] ...      run a command\n\nCommands:\n";
    for (const cli::Command &c : cli::commands())
        o << "  " << QString::fromLatin1(c.name).leftJustified(22) << QString::fromLatin1(c.summary) << '\n';
    o << "\nWindows (the GUI):\n"
         "  "
      << QStringLiteral("diff A B [--mirror DIR]").leftJustified(24)
      << "open the lock-file diff window on two lock files\n"
         "  "
      << QStringLiteral("difftool LOCAL REMOTE").leftJustified(24) << "the same, for git difftool (see README)\n";
    o << "\nRun 'provender <command> --help' for a command's options.\n"
         "Exit codes: 0 ok, 1 findings (mismatch, missing, difference), 2 bad usage or unreadable input.\n";
    o.flush();
    return cli::ExitOk;
}

} // namespace

int main(int argc, char **argv)
{
    const QStringList rawArgs = argvToList(argc, argv);
    // GUI commands: `provender diff A B` / `provender difftool LOCAL REMOTE` open the lock diff window.
    if (rawArgs.size() > 1 && (rawArgs.at(1) == QStringLiteral("diff") || rawArgs.at(1) == QStringLiteral("difftool"))) {
        QApplication app(argc, argv);
        setAppIdentity();
        QGuiApplication::setApplicationDisplayName(QStringLiteral("Provender"));
        return ui::runLockDiffGui(app.arguments().mid(1));
    }
    // `provender lock merge --gui BASE OURS THEIRS [-o OUT]` (git mergetool): the merge window.
    if (rawArgs.size() > 3 && rawArgs.at(1) == QStringLiteral("lock") && rawArgs.at(2) == QStringLiteral("merge")
        && rawArgs.mid(3).contains(QStringLiteral("--gui"))) {
        QApplication app(argc, argv);
        setAppIdentity();
        QGuiApplication::setApplicationDisplayName(QStringLiteral("Provender"));
        return ui::runLockMergeGui(app.arguments().mid(3));
    }
    int consumed = 0;
    if (const cli::Command *command = cli::findCommand(rawArgs, &consumed)) {
        QCoreApplication app(argc, argv);
        setAppIdentity();
        QStringList args = app.arguments();
        const QString name = QStringLiteral("provender ") + QString::fromLatin1(command->name);
        args = QStringList{name} + args.mid(1 + consumed);
        const int rc = command->run(args);
        cli::out().flush();
        cli::err().flush();
        return rc;
    }
    if (rawArgs.size() > 1
        && (rawArgs.at(1) == QStringLiteral("--help") || rawArgs.at(1) == QStringLiteral("-h")
            || rawArgs.at(1) == QStringLiteral("help"))) {
        QCoreApplication app(argc, argv);
        setAppIdentity();
        return printHelp();
    }
    if (rawArgs.size() > 1 && rawArgs.at(1) == QStringLiteral("--version")) {
        cli::out() << "provender " << PROVENDER_VERSION << '\n';
        return cli::ExitOk;
    }
    if (rawArgs.size() > 1 && !rawArgs.at(1).startsWith(QLatin1Char('-')) && !rawArgs.at(1).contains(QLatin1Char('/'))
        && !QFileInfo::exists(rawArgs.at(1))) {
        cli::err() << "provender: unknown command or path '" << rawArgs.at(1) << "'. Run 'provender --help'.\n";
        return cli::ExitUsage;
    }

    QApplication app(argc, argv);
    setAppIdentity();
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Provender"));
    QGuiApplication::setDesktopFileName(QStringLiteral("provender"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Curate OpenTofu/Terraform provider mirrors and lock files."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"),
                                 QStringLiteral("A mirror directory, bundle or network-mirror URL to open, or lock files (*.hcl) to edit."),
                                 QStringLiteral("[MIRROR-DIR | BUNDLE | URL | oci://… | LOCK-FILE...]"));
    parser.process(app);

    auto window = std::make_unique<ui::MainWindow>();
    ui::installLockUi(window.get());     // File ▸ Open Lock File…, Compare Lock Files…; Tools ▸ Coverage Matrix…
    ui::installShell(window.get());      // window icon, welcome screen, recent mirrors, Help ▸ About
    ui::installRemoteUi(window.get());   // File ▸ Open URL…, Tools ▸ Credentials… (the URL opens in this window)
    ui::installBundleUi(window.get());   // File ▸ Open/Create/Import Bundle…
    ui::installExportUi(window.get());   // File ▸ Export Indexes…, Tools ▸ Add to Lock File…
    ui::installRegistryUi(window.get()); // File ▸ Open Registry…, Pull from Registry…
    ui::installOciUi(window.get());      // File ▸ Open OCI Registry…, Publish to OCI Registry…
    window->show();
    // Lock files (what the desktop entry passes for text/x-terraform-lock) open in editors; the
    // first other argument is the mirror directory, bundle or network-mirror URL to show.
    bool mirrorOpened = false;
    for (const QString &path : parser.positionalArguments()) {
        if (ui::isLockFilePath(path))
            ui::openLockEditor(window.get(), path);
        else if (!mirrorOpened) {
            QString error;
            if (!ui::openRegistryArgument(window.get(), path, &error)  // registry:HOST?provider=… (ui/registry)
                && !ui::openOciArgument(window.get(), path, &error)) { // oci://HOST/PATH/${namespace}/${type} (ui/oci)
                if (!error.isEmpty())
                    cli::err() << "provender: " << path << ": " << error << '\n' << Qt::flush;
                else
                    window->openMirror(path);
            }
            mirrorOpened = true;
        }
    }
    return app.exec();
}
