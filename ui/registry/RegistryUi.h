#pragma once
// Origin registries in the GUI: File ▸ Open Registry… (OpenRegistryDialog: a RegistrySource in the
// browser) and File ▸ Pull from Registry… (PullRegistryDialog). A pull that put archives in place
// opens the destination in the main window's browser.

namespace provender::ui {

class MainWindow;

void installRegistryUi(MainWindow *window);

} // namespace provender::ui
