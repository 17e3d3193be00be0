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

void openMirrorAsync(JobTracker *jobs, const QString &root, std::function<void(const Catalog &)> opened,
                     std::function<void(const QString &message)> failed)
{
    scanMirrorAsync(jobs, root, [root, opened = std::move(opened), failed = std::move(failed)](const Result<Catalog> &c) {
        if (c)
            opened(c.value());
        else
            failed(QObject::tr("Cannot read the mirror %1: %2").arg(root, c.error().message));
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
