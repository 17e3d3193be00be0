#pragma once
// The mirror of the lock windows (editor, diff, coverage matrix): a mirror directory or a network
// mirror's URL, opened as the job "scan" on the window's JobTracker (progress, cancel, latest run
// wins: a second open supersedes the first, whose result is dropped) and handed to the window on
// the GUI thread.
// scanMirrorAsync(): the catalog of a directory. When a main window already shows that
// directory, its catalog is reused (MainWindow::shownCatalog(): no second scan of the same
// mirror). Each window keeps its own copy of the catalog.
// openMirrorAsync(): a window's "open mirror", through the model's openLockMirror (the CLI's
// `--mirror DIR|URL`): a directory as scanMirrorAsync() scans it; a URL read for `request` (a
// network mirror cannot be listed: the providers and versions of the lock files the window shows,
// model/lockfile/LockMirror.h). `opened` gets the mirror and the line to show when the mirror
// warned ("" when it did not); `failed` the line to show ("Cannot read the mirror ROOT: why");
// `http` how a URL is reached (openLockMirror: the CLI's defaults, or a browser source's settings).
// addJobStatus(): the progress bar ("jobProgress") and Cancel button ("jobCancel") of a lock
// window's status bar, bound to its tracker (visible only while a job runs).

#include "model/core/Result.h"
#include "model/lockfile/LockMirror.h"
#include "model/mirror/Catalog.h"

#include <functional>

class QStatusBar;
class QString;

namespace provender::ui {

class JobTracker;

void scanMirrorAsync(JobTracker *jobs, const QString &root, std::function<void(const Result<Catalog> &)> done);
void openMirrorAsync(JobTracker *jobs, const QString &location, const LockMirrorRequest &request,
                     std::function<void(const LockMirror &mirror, const QString &warning)> opened,
                     std::function<void(const QString &message)> failed, const HttpSettings &http = {});
void addJobStatus(QStatusBar *bar, JobTracker *jobs);

} // namespace provender::ui
