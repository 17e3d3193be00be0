#include "ui/lock/MirrorScan.h"

#include "model/core/Logging.h"
#include "model/mirror/FileSystemMirror.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"

#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

namespace provender::ui {

void scanMirrorAsync(JobTracker *jobs, const QString &root, std::function<void(const Result<Catalog> &)> done)
{
    std::optional<Catalog> shown = MainWindow::shownCatalog(root);
    if (shown)
        qCDebug(lcUi) << "mirror" << root << "taken from the browser";
    jobs->run(
        QStringLiteral("scan"), QObject::tr("Scanning %1…").arg(root),
        [root, shown = std::move(shown)](JobProgress &) -> Result<Catalog> { return shown ? *shown : scanFileSystemMirror(root); },
        [root, done = std::move(done)](const Result<Catalog> &result) {
            if (!result)
                qCWarning(lcUi).noquote() << "mirror scan of" << root << "failed:" << result.error().message;
            done(result);
        });
}

namespace {

/// A network mirror read on a worker: the mirror, or why not, and its warnings.
struct OpenedNetworkMirror
{
    Result<LockMirror> mirror = makeError(ErrorCode::Cancelled, QStringLiteral("not read"));
    QStringList warnings;
};

} // namespace

void openMirrorAsync(JobTracker *jobs, const QString &location, const LockMirrorRequest &request,
                     std::function<void(const LockMirror &mirror, const QString &warning)> opened,
                     std::function<void(const QString &message)> failed, const HttpSettings &http)
{
    if (!isNetworkMirrorLocation(location)) {
        scanMirrorAsync(jobs, location, [location, opened = std::move(opened), failed = std::move(failed)](const Result<Catalog> &c) {
            if (c)
                opened(LockMirror::directory(location, c.value()), QString());
            else
                failed(QObject::tr("Cannot read the mirror %1: %2").arg(location, c.error().message));
        });
        return;
    }
    jobs->run(
        QStringLiteral("scan"), QObject::tr("Reading %1…").arg(redactUrlText(location)),
        [location, request, http](JobProgress &progress) {
            OpenedNetworkMirror out;
            out.mirror = openLockMirror(location, request, &out.warnings, progress.cancelFlag(), http);
            return out;
        },
        [location, opened = std::move(opened), failed = std::move(failed)](const OpenedNetworkMirror &result) {
            for (const QString &w : result.warnings)
                qCWarning(lcUi).noquote() << location << "warning:" << w;
            if (!result.mirror) {
                if (result.mirror.error().code != ErrorCode::Cancelled)
                    failed(QObject::tr("Cannot read the mirror %1: %2").arg(redactUrlText(location), result.mirror.error().message));
                return;
            }
            const QString warning = result.warnings.isEmpty()
                ? QString()
                : QObject::tr("The mirror %1 warns: %2").arg(redactUrlText(location), result.warnings.join(u"; "));
            opened(result.mirror.value(), warning);
        });
}

void addJobStatus(QStatusBar *bar, JobTracker *jobs)
{
    auto *progress = new QProgressBar(bar);
    progress->setObjectName(QStringLiteral("jobProgress"));
    progress->setMaximumWidth(220);
    auto *cancel = new QToolButton(bar);
    cancel->setObjectName(QStringLiteral("jobCancel"));
    cancel->setText(QObject::tr("Cancel"));
    bar->addPermanentWidget(progress);
    bar->addPermanentWidget(cancel);
    jobs->bindStatus(nullptr, progress, cancel);
}

} // namespace provender::ui
