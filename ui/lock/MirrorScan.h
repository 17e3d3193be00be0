#pragma once
// The catalog of a mirror directory for the lock windows (editor, diff, coverage matrix), handed
// to `done` on the GUI thread, as the job "scan" on the window's JobTracker (progress, cancel,
// latest run wins: a second scan supersedes the first, whose result is dropped). When a main
// window already shows that directory, its catalog is reused (MainWindow::shownCatalog(): no
// second scan of the same mirror). Each window keeps its own copy of the catalog.
// openMirrorAsync(): the same for a window's "open mirror": the catalog, or the line to show
// ("Cannot read the mirror ROOT: why").
// addJobStatus(): the progress bar ("jobProgress") and Cancel button ("jobCancel") of a lock
// window's status bar, bound to its tracker (visible only while a job runs).

#include "model/core/Result.h"
#include "model/mirror/Catalog.h"

#include <functional>

class QStatusBar;
class QString;

namespace provender::ui {

class JobTracker;

void scanMirrorAsync(JobTracker *jobs, const QString &root, std::function<void(const Result<Catalog> &)> done);
void openMirrorAsync(JobTracker *jobs, const QString &root, std::function<void(const Catalog &)> opened,
                     std::function<void(const QString &message)> failed);
void addJobStatus(QStatusBar *bar, JobTracker *jobs);

} // namespace provender::ui
