#include "ui/JobTracker.h"

#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"

#include <QAbstractButton>
#include <QCoreApplication>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QSet>
#include <QThreadPool>

namespace provender::ui {

namespace {
constexpr int kPollMs = 100;
constexpr int kSteps = 1000;
} // namespace

namespace {

/// Every JobTracker there is (GUI thread only), for stopEverything().
QSet<JobTracker *> &liveTrackers()
{
    static QSet<JobTracker *> trackers;
    return trackers;
}

} // namespace

JobTracker::JobTracker(QObject *parent) : QObject(parent)
{
    // Every application that has a tracker stops its jobs when the QCoreApplication goes: post
    // routines run in its destructor while events still reach worker threads (stopEverything()).
    [[maybe_unused]] static const bool stopsAtTheEnd = [] {
        qAddPostRoutine(&JobTracker::stopEverything);
        return true;
    }();
    liveTrackers().insert(this);
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, &JobTracker::pollProgress);
}

JobTracker::~JobTracker()
{
    liveTrackers().remove(this);
    // The workers hold their JobProgress; the watchers (children) go with the tracker, so no
    // `done` runs after this.
    const auto jobs = m_jobs;
    for (const Entry &e : jobs) {
        e.job->cancel();
        if (e.onCancel)
            e.onCancel();
    }
}

quint64 JobTracker::registerJob(const QString &name, const QString &description, const std::shared_ptr<JobProgress> &job,
                                std::function<void()> onCancel)
{
    if (const auto it = m_jobs.constFind(name); it != m_jobs.constEnd()) {
        // Latest run wins: the older run is cancelled and whatever it still delivers dropped.
        qCDebug(lcUi) << "job" << name << "superseded";
        it->job->cancel();
        if (it->onCancel)
            it->onCancel();
        m_order.removeAll(name);
    }
    const bool wasBusy = isBusy();
    Entry e;
    e.serial = ++m_serial;
    e.job = job;
    e.description = description;
    e.onCancel = std::move(onCancel);
    m_jobs.insert(name, e);
    m_order.append(name);
    m_lastDone = m_lastTotal = -1;
    if (!m_poll.isActive())
        m_poll.start();
    Q_EMIT started(name, description);
    if (!wasBusy)
        Q_EMIT busyChanged(true);
    return e.serial;
}

bool JobTracker::isLatest(const QString &name, quint64 serial) const
{
    const auto it = m_jobs.constFind(name);
    return it != m_jobs.constEnd() && it->serial == serial;
}

void JobTracker::retire(const QString &name, quint64 serial, const QString &error, const QString &endMessage)
{
    if (!isLatest(name, serial))
        return;
    const Entry e = m_jobs.take(name);
    m_order.removeAll(name);
    const bool cancelled = e.job->isCancelled();
    pollProgress(); // the last numbers of the job
    m_lastDone = m_lastTotal = -1;
    if (m_jobs.isEmpty())
        m_poll.stop();
    if (!error.isEmpty()) {
        qCWarning(lcUi).noquote() << name << "failed:" << error;
        Q_EMIT errorOccurred(name, error);
        Q_EMIT message(error);
    } else if (!endMessage.isEmpty()) {
        Q_EMIT message(endMessage);
    } else if (cancelled) {
        Q_EMIT message(tr("%1 cancelled.").arg(e.description.endsWith(QStringLiteral("…")) ? e.description.chopped(1) : e.description));
    }
    Q_EMIT finished(name, cancelled);
    if (m_jobs.isEmpty())
        Q_EMIT busyChanged(false);
}

QString JobTracker::nameOf(const std::shared_ptr<JobProgress> &job, quint64 *serial) const
{
    for (auto it = m_jobs.constBegin(); it != m_jobs.constEnd(); ++it)
        if (it->job == job) {
            *serial = it->serial;
            return it.key();
        }
    return {};
}

std::shared_ptr<JobProgress> JobTracker::begin(const QString &name, const QString &description, std::function<void()> onCancel)
{
    auto job = std::make_shared<JobProgress>();
    registerJob(name, description, job, std::move(onCancel));
    return job;
}

void JobTracker::end(const std::shared_ptr<JobProgress> &job, const QString &message)
{
    quint64 serial = 0;
    const QString name = nameOf(job, &serial);
    if (!name.isEmpty())
        retire(name, serial, {}, message);
}

void JobTracker::fail(const std::shared_ptr<JobProgress> &job, const QString &message)
{
    quint64 serial = 0;
    const QString name = nameOf(job, &serial);
    if (!name.isEmpty())
        retire(name, serial, message.isEmpty() ? tr("Failed.") : message, {});
}

void JobTracker::cancel(const QString &name)
{
    const auto it = m_jobs.constFind(name);
    if (it == m_jobs.constEnd())
        return;
    // A copy on purpose: onCancel may end the job (and so change m_jobs).
    const Entry e = *it; // NOLINT(performance-unnecessary-copy-initialization)
    e.job->cancel();
    if (e.onCancel)
        e.onCancel();
}

void JobTracker::cancelCurrent()
{
    if (!m_order.isEmpty())
        cancel(m_order.constLast());
}

void JobTracker::cancelAll()
{
    const QList<QString> names = m_order;
    for (const QString &n : names)
        cancel(n);
}

void JobTracker::stopEverything()
{
    const QSet<JobTracker *> trackers = liveTrackers();
    for (JobTracker *tracker : trackers)
        if (liveTrackers().contains(tracker)) // an onCancel may have deleted another
            tracker->cancelAll();
    QThreadPool::globalInstance()->waitForDone();
}

void JobTracker::drop(const QString &name)
{
    const auto it = m_jobs.constFind(name);
    if (it == m_jobs.constEnd())
        return;
    const quint64 serial = it->serial;
    cancel(name);
    retire(name, serial, {}, {});
}

void JobTracker::clear()
{
    const QList<QString> names = m_order;
    for (const QString &n : names)
        drop(n);
}

bool JobTracker::isRunning(const QString &name) const
{
    return m_jobs.contains(name);
}

void JobTracker::waitFor(const QString &name)
{
    QFuture<void> future = m_jobs.value(name).future;
    if (future.isValid())
        future.waitForFinished();
}

QString JobTracker::currentName() const
{
    return m_order.isEmpty() ? QString() : m_order.constLast();
}

QString JobTracker::currentDescription() const
{
    return m_order.isEmpty() ? QString() : m_jobs.value(m_order.constLast()).description;
}

void JobTracker::pollProgress()
{
    if (m_order.isEmpty())
        return;
    const std::shared_ptr<JobProgress> &job = m_jobs[m_order.constLast()].job;
    const qint64 done = job->done();
    const qint64 total = job->total();
    if (done == m_lastDone && total == m_lastTotal)
        return;
    m_lastDone = done;
    m_lastTotal = total;
    Q_EMIT progress(done, total);
}

void JobTracker::bindStatus(QLabel *label, QProgressBar *bar, QAbstractButton *cancel)
{
    QPointer<QLabel> l(label);
    QPointer<QProgressBar> b(bar);
    QPointer<QAbstractButton> c(cancel);
    auto showBusy = [b, c](bool busy) {
        if (b) {
            b->setVisible(busy);
            if (busy) {
                b->setRange(0, 0); // busy indicator until a total is known
                b->setFormat(QString());
            }
        }
        if (c) {
            c->setVisible(busy);
            c->setEnabled(busy);
        }
    };
    showBusy(isBusy());
    connect(this, &JobTracker::busyChanged, this, showBusy);
    connect(this, &JobTracker::started, this, [l, b](const QString &, const QString &description) {
        if (l && !description.isEmpty())
            l->setText(description);
        if (b) {
            b->setRange(0, 0);
            b->setFormat(QString());
        }
    });
    connect(this, &JobTracker::message, this, [l](const QString &text) {
        if (l)
            l->setText(text);
    });
    connect(this, &JobTracker::progress, this, [b](qint64 done, qint64 total) {
        if (!b)
            return;
        if (total <= 0) {
            b->setRange(0, 0);
            return;
        }
        const QLocale locale;
        b->setRange(0, kSteps);
        b->setValue(int(std::clamp<double>(double(done) / double(total) * kSteps, 0, kSteps)));
        b->setFormat(tr("%1 of %2").arg(formatDataSize(done, locale), formatDataSize(total, locale)));
    });
    if (cancel)
        connect(cancel, &QAbstractButton::clicked, this, &JobTracker::cancelCurrent);
}

} // namespace provender::ui
