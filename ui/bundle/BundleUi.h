#pragma once
// Hooks the bundle dialogs into the main window: File ▸ Open Bundle…, Create Bundle…, Import Bundle….

namespace provender::ui {

class MainWindow;

/// Adds the bundle actions to `window`'s File menu. Create Bundle… works on the open mirror
/// directory (and offers the archives selected in its tree); Import Bundle… merges into the open
/// mirror directory by default and shows the merged mirror afterwards.
void installBundleUi(MainWindow *window);

} // namespace provender::ui
