#pragma once
// Network mirrors in the GUI: File ▸ Open URL… (Ctrl+Shift+O, "actionOpenUrl") asks for a mirror
// (OpenUrlDialog) and opens it in a RemoteMirrorWindow; Tools ▸ Credentials… ("actionCredentials")
// shows which source supplies a host's token (CredentialsDialog). When the window has a welcome
// screen with an "Open URL" request (ui/shell), it is connected too. app/main.cpp calls this once.

namespace provender::ui {

class MainWindow;
class RemoteMirrorWindow;

void installRemoteUi(MainWindow *window);

/// Open URL… without the menu (tests): shows the dialog modally; returns the new window or nullptr.
RemoteMirrorWindow *openUrlInteractive(MainWindow *window);

} // namespace provender::ui
