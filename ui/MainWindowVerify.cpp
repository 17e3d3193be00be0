// MainWindow: verification runs, re-verifying one archive, lock-file anchors and the anomalies of the scan and of the verdicts.
#include "ui/MainWindow.h"

#include "model/core/Logging.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/ArchiveFilterProxyModel.h"
#include "model/lockfile/LockAnchors.h"
#include "model/network/HttpRunner.h"
#include "model/network/RequestLogModel.h"
#include "ui/JobTracker.h"
#include "ui/browser/MirrorTreeView.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSettings>

namespace provender::ui {

void MainWindow::indexAnomalies()
{
    const QList<Anomaly> all = m_catalog.anomalies + m_verdictAnomalies;
    m_anomalyRows.clear();
    m_anomalyRows.reserve(all.size());
    for (const Anomaly &a : all)
        m_anomalyRows.append(QPersistentModelIndex(m_archives->indexForPath(a.path)));
}

QStringList MainWindow::anomaliesFor(const QModelIndex &sourceRow) const
{
    const QList<Anomaly> all = m_catalog.anomalies + m_verdictAnomalies;
    QStringList out;
    for (qsizetype i = 0; i < m_anomalyRows.size() && i < all.size(); ++i)
        if (m_anomalyRows.at(i).isValid() && m_anomalyRows.at(i) == sourceRow)
            out.append(all.at(i).message);
    return out;
}

void MainWindow::addVerdictAnomalies(const QList<ArchiveResult> &results)
{
    // Declared hashes that match nothing while another one decides (docs/VERDICTS.md): anomalies
    // of the verdicts, listed after the scan's. A result decided again replaces its own.
    bool changed = false;
    for (const ArchiveResult &r : results) {
        const qsizetype before = m_verdictAnomalies.size();
        m_verdictAnomalies.removeIf([&r](const Anomaly &a) { return a.path == r.path; });
        const QList<Anomaly> mine = verdictAnomalies(r);
        m_verdictAnomalies += mine;
        changed = changed || before != m_verdictAnomalies.size() || !mine.isEmpty();
    }
    if (!changed)
        return;
    m_anomalies->setAnomalies(m_catalog.anomalies + m_verdictAnomalies, m_root);
    indexAnomalies();
    updateDetails();
}

void MainWindow::checkAgainstLockFiles(const QStringList &files)
{
    if (files.isEmpty()) {
        m_lockAnchors = LockAnchors{};
    } else {
        const Result<LockAnchors> locks = readLockAnchors(files);
        if (!locks.ok()) {
            showError(tr("Cannot check against the lock files: %1").arg(locks.error().toString()));
            return;
        }
        m_lockAnchors = locks.value();
        if (!m_lockAnchors.warnings.isEmpty())
            qCWarning(lcUi).noquote() << m_lockAnchors.warnings.join(QLatin1Char('\n'));
    }
    m_clearLocksAction->setEnabled(!m_lockAnchors.files.isEmpty());
    m_statusLabel->setText(m_lockAnchors.files.isEmpty()
                               ? tr("Not checking against lock files.")
                               : tr("Checking against %n lock file(s): %1", nullptr, int(m_lockAnchors.files.size()))
                                     .arg(m_lockAnchors.files.join(QStringLiteral(", "))));
    if (m_source && !m_jobs->isRunning(QStringLiteral("open")))
        startVerification(); // the hash cache answers unchanged archives: only the verdicts change // the hash cache answers unchanged
                             // archives: only the verdicts change
}

VerifyOptions MainWindow::verifyOptions() const
{
    VerifyOptions options;
    options.jobs = QSettings().value(QStringLiteral("verify/jobs"), 0).toInt();
    options.expected = m_sourceExpected; // a URL opened from a lock file: its hashes (lock rules)
    if (!m_lockAnchors.files.isEmpty())
        m_lockAnchors.applyTo(options); // Check against Lock Files…: these anchors instead
    return options;
}

void MainWindow::startVerification()
{
    if (!m_source || m_kind == SourceKind::None)
        return;
    // The tree was just built or merged from the listing: every leaf holds its initial result
    // (Pending, or Missing), so there is nothing to reset.
    if (!m_verdictAnomalies.isEmpty()) {
        m_verdictAnomalies.clear();
        m_anomalies->setAnomalies(m_catalog.anomalies, m_kind == SourceKind::Url ? redactUrlText(m_root) : m_root);
        indexAnomalies();
    }
    const int n = m_archives->archiveCount();
    const QString what = m_kind == SourceKind::Url ? tr("Downloading and hashing %1 archives…").arg(n)
        : m_kind == SourceKind::Bundle             ? tr("Verifying the bundle's %1 archives…").arg(n)
                                                   : tr("Hashing %1 archives…").arg(n);
    m_verifyJob = m_jobs->begin(QStringLiteral("verify"), what, [this] { m_engine->cancel(); });
    m_verifyTimer.start();
    m_engine->start(m_source, m_catalog, verifyOptions());
}

void MainWindow::reverify()
{
    if (m_jobs->isRunning(QStringLiteral("open")) || m_root.isEmpty())
        return;
    if (m_kind == SourceKind::Url && m_maker)
        openMadeSource(m_root, m_maker); // list again (merged into the tree)
    else if (m_kind == SourceKind::Url)
        openUrl(m_request); // fetch again: the mirror may have changed (merged into the tree)
    else
        openMirror(m_root); // rescan: the mirror may have changed on disk (merged into the tree)
}

void MainWindow::reverifyCurrentArchive()
{
    const std::optional<ArchiveResult> r = m_archives->resultAt(currentSourceRow());
    if (!r || r->path.isEmpty() || !m_source || m_kind == SourceKind::None)
        return;
    if (m_kind != SourceKind::Directory && m_jobs->isRunning(QStringLiteral("verify"))) {
        // A bundle or URL source is read by one run at a time.
        m_jobs->setMessage(tr("Verify %1 again once the verification has finished.").arg(r->key.toString()));
        return;
    }
    // A catalog of just this archive, read again through the same source (a file hashed without
    // the cache, a bundle member read again, a URL downloaded again).
    const Catalog one = catalogOf(*r);
    if (one.providers.isEmpty())
        return;
    ArchiveResult pending = *r;
    pending.detail = VerdictDetail{};
    pending.detail.reason = m_kind == SourceKind::Url ? tr("downloading again") : tr("hashing again");
    pending.hashes.reset();
    pending.error.clear();
    m_archives->applyResults({pending});
    VerifyOptions options = verifyOptions();
    options.useCache = false;
    m_singleJob = m_jobs->begin(QStringLiteral("reverify"),
                                (m_kind == SourceKind::Url ? tr("Downloading %1 again…") : tr("Hashing %1 again…")).arg(r->key.toString()),
                                [this] { m_singleEngine->cancel(); });
    if (m_kind == SourceKind::Directory)
        m_singleEngine->start(one, options); // may run beside the mirror's own run: its own reader
    else
        m_singleEngine->start(m_source, one, options);
}

Catalog MainWindow::catalogOf(const ArchiveResult &r) const
{
    Catalog one;
    one.root = m_catalog.root;
    for (const Provider &p : std::as_const(m_catalog.providers)) {
        if (!(p.address == r.key.provider))
            continue;
        for (const ProviderVersion &v : p.versions) {
            if (!(v.version == r.key.version))
                continue;
            for (const Archive &a : v.archives + v.duplicates) {
                if (a.path == r.path && a.layout == r.layout) {
                    Provider po = p;
                    ProviderVersion vo = v;
                    vo.archives = {a};
                    vo.duplicates.clear();
                    po.versions = {vo};
                    one.providers = {po};
                }
            }
        }
    }
    return one;
}

void MainWindow::cancelWork()
{
    if (m_jobs->isRunning(QStringLiteral("open"))) {
        // Listing a directory cannot stop half-way: its result is dropped ("… cancelled." on the
        // status line); a bundle or URL stops at its next check.
        m_jobs->drop(QStringLiteral("open"));
        return;
    }
    m_jobs->cancelCurrent();
}

void MainWindow::revealAnomaly(const QModelIndex &anomalyRow)
{
    if (!anomalyRow.isValid() || anomalyRow.row() >= m_anomalyRows.size())
        return;
    const QModelIndex source = m_anomalyRows.at(anomalyRow.row());
    if (!source.isValid()) {
        m_statusLabel->setText(
            tr("No row of the tree belongs to %1.").arg(QDir::toNativeSeparators(anomalyRow.data(AnomalyListModel::PathRole).toString())));
        return;
    }
    QModelIndex proxyIndex = m_proxy->mapFromSource(source);
    if (!proxyIndex.isValid()) { // filtered out: show everything again
        m_filterEdit->clear();
        m_verdictFilter->setCurrentIndex(0);
        m_platformFilter->setCurrentIndex(0);
        proxyIndex = m_proxy->mapFromSource(source);
    }
    if (!proxyIndex.isValid())
        return;
    for (QModelIndex p = proxyIndex.parent(); p.isValid(); p = p.parent())
        m_archiveView->expand(p);
    m_archiveView->scrollTo(proxyIndex, QAbstractItemView::PositionAtCenter);
    m_archiveView->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void MainWindow::onFinished(const VerifySummary &summary)
{
    const double seconds = double(m_verifyTimer.elapsed()) / 1000.0;
    const QString took = seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1));
    QString message = summary.cancelled ? tr("Verification cancelled: %1 of %2 archives have a verdict.")
                                              .arg(summary.archives - summary.count(Verdict::Pending))
                                              .arg(summary.archives)
        : m_kind == SourceKind::Url ? tr("Downloaded and verified %1 archives in %2 (%3 requests, %4 failed).")
                                          .arg(summary.archives)
                                          .arg(took)
                                          .arg(m_log->rowCount())
                                          .arg(m_log->failedCount())
        : m_kind == SourceKind::Bundle ? tr("Verified the bundle's %1 archives in %2.")
                                             .arg(summary.archives)
                                             .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                       : tr("Verified %1 archives in %2 (%3 hashed, %4 from the cache).")
                                             .arg(summary.archives)
                                             .arg(seconds < 0.1 ? tr("under 0.1 s") : tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)))
                                             .arg(summary.hashed)
                                             .arg(summary.cacheHits);
    if (!summary.cacheWarning.isEmpty())
        message += QLatin1Char(' ') + summary.cacheWarning;
    qCInfo(lcUi).noquote() << message;
    if (m_verifyJob)
        m_jobs->end(std::exchange(m_verifyJob, nullptr), message);
    else
        m_jobs->setMessage(message);
    updateDetails();
    updateActions();
    Q_EMIT verificationFinished(summary);
}

} // namespace provender::ui
