#pragma once
// Scans a mirror directory on a worker thread and hands the result to `done` on `context`'s
// thread (the GUI thread). Used by the lock editor, the diff window and the coverage matrix,
// which each keep their own copy of the catalog.

#include "model/core/Result.h"
#include "model/mirror/Catalog.h"

#include <functional>

class QObject;
class QString;

namespace provender::ui {

void scanMirrorAsync(QObject *context, const QString &root, std::function<void(const Result<Catalog> &)> done);

} // namespace provender::ui
