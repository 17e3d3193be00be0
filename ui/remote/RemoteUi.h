#pragma once
// Network mirrors in the GUI: File ▸ Open URL… (Ctrl+Shift+O, "actionOpenUrl") asks for a mirror
// (OpenUrlDialog) and opens it in the main window's browser (MainWindow::openUrl; the form is
// remembered for that URL, ui/browser/UrlSource); Tools ▸ Credentials… ("actionCredentials")
// shows which source supplies a host's token (CredentialsDialog), for the URL shown when there is
// one. Open URL… is also the welcome screen's start action. app/main.cpp calls this once.

namespace provender::ui {

class MainWindow;

void installRemoteUi(MainWindow *window);

/// Open URL… without the menu (tests): shows the dialog modally; true when a URL was opened.
bool openUrlInteractive(MainWindow *window);

} // namespace provender::ui
