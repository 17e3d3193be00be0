#pragma once
// The application shell around the main window: window icon, first-run welcome screen, recent
// mirrors, Help ▸ About Provender, and the demo mirror. app/main.cpp calls installShell() once.

#include <QIcon>
#include <QString>

namespace provender::ui {

class MainWindow;
class WelcomeWidget;

/// The application icon (PNG sizes 16…256 from resources/provender.qrc; no SVG plugin needed).
QIcon appIcon();

/// Install the shell into `window`: set the window icon, put a WelcomeWidget on the no-mirror
/// page (MainWindow::setWelcomeWidget), wire what exists (open a mirror folder, recent mirrors,
/// the demo mirror), record every opened mirror in the recent list, and add Help ▸ About
/// Provender ("actionAbout") and Help ▸ Open the Demo Mirror ("actionOpenDemoMirror").
/// Returns the welcome widget (owned by the window). Its other buttons trigger the window's
/// actions of those features (wireWelcomeToActions) or whatever connects to their signals
/// (openUrlRequested, …); until then they stay disabled.
WelcomeWidget *installShell(MainWindow *window);

/// Connect the welcome buttons that nothing handles yet to the start actions features registered
/// with the window (MainWindow::setStartAction: OpenUrl, OpenBundle, OpenLockFile,
/// CompareLockFiles). installShell() calls it at once and again whenever a start action is set,
/// so features installed after the shell are wired too.
void wireWelcomeToActions(MainWindow *window, WelcomeWidget *welcome);

/// Where "Open the demo mirror" generates it: <cache dir>/demo-mirror
/// (QStandardPaths::CacheLocation, e.g. ~/.cache/Provender/provender/demo-mirror).
QString demoMirrorDirectory();

/// Generate the demo mirror into `dir` off the GUI thread (regenerating over an earlier one), then
/// open it in `window`. Progress and errors are shown on `welcome` when it is not null.
void openDemoMirror(MainWindow *window, WelcomeWidget *welcome, const QString &dir = demoMirrorDirectory());

} // namespace provender::ui
