#pragma once
// Entry points of the export dialogs.

namespace provender::ui {

class MainWindow;

/// Adds File ▸ Export Indexes… (Ctrl+Shift+E; a writable mirror directory must be open) and
/// Tools ▸ Add to Lock File… (Ctrl+Shift+L; from the archives selected in the browser).
void installExportUi(MainWindow *window);

} // namespace provender::ui
