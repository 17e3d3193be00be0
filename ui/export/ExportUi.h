#pragma once
// Entry points of the export dialogs.

#include <QStringList>

namespace provender::ui {

class MainWindow;

/// Adds File ▸ Export Indexes… (Ctrl+Shift+E; a writable mirror directory must be open) and
/// Tools ▸ Add to Lock File… (Ctrl+Shift+L; from the archives selected in the browser).
void installExportUi(MainWindow *window);

/// The paths of the archives selected in the window's tree: selected archive rows, and every
/// archive below a selected host, provider or version row.
QStringList selectedArchivePathsOf(MainWindow *window);

} // namespace provender::ui
