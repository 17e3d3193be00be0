#pragma once
// The catalog of a mirror directory for the lock windows (editor, diff, coverage matrix), handed
// to `done` on `context`'s thread (the GUI thread). When a main window already shows that
// directory, its catalog is reused (MainWindow::catalog(): no second scan of the same mirror);
// otherwise the directory is scanned as a job on a JobTracker owned by `context`. Each window
// keeps its own copy of the catalog.

#include "model/core/Result.h"
#include "model/mirror/Catalog.h"

#include <functional>

class QObject;
class QString;

namespace provender::ui {

void scanMirrorAsync(QObject *context, const QString &root, std::function<void(const Result<Catalog> &)> done);

} // namespace provender::ui
