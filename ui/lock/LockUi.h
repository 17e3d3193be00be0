#pragma once
// Entry points of the lock-file GUI.

#include <QStringList>

namespace provender::ui {

class LockEditorWindow;
class MainWindow;

/// Whether `path` names a lock file (`*.hcl`), which the GUI opens in an editor, not as a mirror.
bool isLockFilePath(const QString &path);

/// Open `path` in a new lock editor window (deleted on close) that uses `window`'s mirror. A file
/// with conflict markers opens in the three-way merge window instead (nullptr is returned).
LockEditorWindow *openLockEditor(MainWindow *window, const QString &path);

/// Adds File ▸ Open Lock File…, File ▸ Compare Lock Files… and Tools ▸ Coverage Matrix… to the
/// main window. Editors open the main window's mirror; a click in a coverage matrix selects the
/// archive in the main window's mirror tree.
void installLockUi(MainWindow *window);

/// Select the archive at `archivePath` in the main window's mirror tree (what a click in a
/// coverage matrix does). False when the tree has no such archive.
bool selectArchiveInBrowser(MainWindow *window, const QString &archivePath);

/// `provender diff A B [--mirror DIR]` and `provender difftool LOCAL REMOTE` (git difftool):
/// open the diff window and run the event loop. A QApplication must exist. `args` starts with the
/// command word ("diff" or "difftool"). Exit code 2 on bad usage or unreadable files.
int runLockDiffGui(const QStringList &args);

} // namespace provender::ui
