#include "ui/lock/MirrorScan.h"

#include "model/core/Logging.h"
#include "model/mirror/FileSystemMirror.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace provender::ui {

void scanMirrorAsync(QObject *context, const QString &root, std::function<void(const Result<Catalog> &)> done)
{
    auto *watcher = new QFutureWatcher<Result<Catalog>>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, root, done = std::move(done)] {
        const Result<Catalog> result = watcher->result();
        watcher->deleteLater();
        if (!result)
            qCWarning(lcUi).noquote() << "mirror scan of" << root << "failed:" << result.error().message;
        done(result);
    });
    watcher->setFuture(QtConcurrent::run([root] { return scanFileSystemMirror(root); }));
}

} // namespace provender::ui
