#pragma once
// Entry points of the lock-file GUI.

#include "model/lockfile/LockMirror.h"

#include <QStringList>

#include <optional>

namespace provender::ui {

class CoverageMatrixWindow;
class LockEditorWindow;
class MainWindow;

/// The main window's mirror as a lock window opens it: its mirror directory, or its network
/// mirror URL with that source's connection settings (extra CAs, http to a loopback host);
/// nullopt when the main window shows no mirror a lock window can read (nothing, a bundle, an OCI
/// or origin registry), or its CA file cannot be read; `why` (may be null) says which.
std::optional<LockMirrorLocation> browserMirror(const MainWindow *window, QString *why = nullptr);

/// Whether `path` names a lock file (`*.hcl`), which the GUI opens in an editor, not as a mirror.
bool isLockFilePath(const QString &path);

/// Open `path` in a new lock editor window (deleted on close) that uses `window`'s mirror
/// (browserMirror) — when the window shows none yet, the first one it opens (the command line's
/// mirror argument opens after its lock files). A file with conflict markers opens in the
/// three-way merge window instead (nullptr is returned).
LockEditorWindow *openLockEditor(MainWindow *window, const QString &path);

/// Tools ▸ Coverage Matrix… after the lock file is chosen: a new coverage matrix window (deleted
/// on close) of `lockPath` against `window`'s mirror (browserMirror); a click on a cell selects the
/// archive in the main window. nullptr (and a message box) when the window shows no such mirror.
CoverageMatrixWindow *openCoverageMatrix(MainWindow *window, const QString &lockPath);

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
