#include "ui/lock/MirrorScan.h"

#include "model/core/Logging.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"

#include <QTimer>

namespace provender::ui {

void scanMirrorAsync(QObject *context, const QString &root, std::function<void(const Result<Catalog> &)> done)
{
    if (std::optional<Catalog> shown = MainWindow::shownCatalog(root)) {
        qCDebug(lcUi) << "mirror" << root << "taken from the browser";
        // Delivered from the event loop, as a scan's result would be.
        QTimer::singleShot(0, context, [catalog = std::move(*shown), done = std::move(done)] { done(catalog); });
        return;
    }
    auto *jobs = new JobTracker(context);
    jobs->run(
        QStringLiteral("scan"), QObject::tr("Scanning %1…").arg(root), [root](JobProgress &) { return scanFileSystemMirror(root); },
        [jobs, root, done = std::move(done)](const Result<Catalog> &result) {
            if (!result)
                qCWarning(lcUi).noquote() << "mirror scan of" << root << "failed:" << result.error().message;
            done(result);
            jobs->deleteLater();
        });
}

} // namespace provender::ui
