#pragma once
// The one way background work runs in the GUI (docs/ARCHITECTURE.md, "Background jobs"): a window
// or dialog owns a JobTracker and starts named jobs on it.
//
// - run(name, description, work, done): `work(JobProgress &)` runs on the global thread pool and
//   returns a value (never touches widgets or item models); `done(result)` is called on the GUI
//   thread. **Latest run wins**: starting a job under a name that is still running cancels the old
//   one and drops its result when it arrives — `done` is only ever called for the newest run of a
//   name, and never after the tracker is gone.
// - begin(name, description, onCancel) / end() / fail(): the same bookkeeping for work that runs
//   on an engine of its own (VerifyEngine, RemoteSession): the returned JobProgress is reported
//   into by the owner, cancel() calls `onCancel`.
// - Progress of the current job (the newest one still running) is polled every 100 ms and
//   emitted when it changed; errors (a `Result` that failed, fail()) and "… cancelled." reach
//   message(), which bindStatus() shows in a status label, with a progress bar and a Cancel
//   button that are visible only while a job runs.
//
// Only this file holds a QFutureWatcher; windows do not write their own.

#include "model/core/JobProgress.h"
#include "model/core/Result.h"

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>
#include <type_traits>

class QAbstractButton;
class QLabel;
class QProgressBar;

namespace provender::ui {

namespace detail {
template<typename T> struct IsResult : std::false_type
{
};
template<typename T> struct IsResult<Result<T>> : std::true_type
{
};
} // namespace detail

class JobTracker : public QObject
{
    Q_OBJECT
public:
    explicit JobTracker(QObject *parent = nullptr);
    /// Cancels every job still running; their results are dropped.
    ~JobTracker() override;

    /// Start `work` as the job `name` (see the header comment). Returns its JobProgress.
    template<typename Work, typename Done>
    std::shared_ptr<JobProgress> run(const QString &name, const QString &description, Work work, Done done);

    /// Track work that runs elsewhere. A job of the same name still tracked is cancelled first.
    std::shared_ptr<JobProgress> begin(const QString &name, const QString &description, std::function<void()> onCancel = {});
    /// The external job `job` ended (ignored when it is no longer the newest of its name);
    /// `message` (if any) goes to the status line.
    void end(const std::shared_ptr<JobProgress> &job, const QString &message = {});
    /// The external job `job` failed with `message` (to the status line, and errorOccurred).
    void fail(const std::shared_ptr<JobProgress> &job, const QString &message);

    /// Ask the job `name` to stop (its JobProgress is cancelled, an external job's onCancel is
    /// called). A run()'s `done` still gets the result the work returns after noticing it.
    void cancel(const QString &name);
    /// Cancel the newest job still running (the status bar's Cancel button).
    void cancelCurrent();
    void cancelAll();
    /// Cancel the job `name` and forget it: whatever it still delivers is dropped.
    void drop(const QString &name);
    /// drop() every job (an owner's destructor, while what the onCancel callbacks use still exists).
    void clear();
    /// Cancels the jobs of every tracker there is and waits until the global pool's work has
    /// returned. The first tracker registers it as a post routine (qAddPostRoutine), which
    /// ~QCoreApplication calls while Qt still delivers events to worker threads: right after,
    /// it delivers none, so a job that runs an event loop (a download's HttpRunner, which
    /// notices the cancel by a timer) would never return and the destructor's wait for the
    /// global pool would hang. GUI thread only.
    static void stopEverything();

    bool isRunning(const QString &name) const;
    /// Block until the work of the run() job `name` has returned (its `done` is not called here;
    /// it is when the event loop runs, if the run is still the newest). For a dialog that must not
    /// go away while its worker writes files (it cancels first, then waits).
    void waitFor(const QString &name);
    bool isBusy() const { return !m_jobs.isEmpty(); }
    /// The name of the newest job still running ("" when idle).
    QString currentName() const;
    /// What the newest job still running does.
    QString currentDescription() const;

    /// Show `text` on the status line (through message()).
    void setMessage(const QString &text) { Q_EMIT message(text); }

    /// Show this tracker in widgets: `label` gets message() texts and each job's description,
    /// `bar` its progress (bytes; busy indicator while the total is unknown), `cancel` cancels the
    /// current job. `bar` and `cancel` are visible only while a job runs. Any of them may be null.
    void bindStatus(QLabel *label, QProgressBar *bar, QAbstractButton *cancel);

Q_SIGNALS:
    void started(const QString &name, const QString &description);
    /// Progress of the current job (polled, at most 10 times a second).
    void progress(qint64 done, qint64 total);
    /// A job ended (cancelled: its JobProgress was cancelled). Not emitted for superseded runs.
    void finished(const QString &name, bool cancelled);
    void errorOccurred(const QString &name, const QString &message);
    /// A line for the status bar.
    void message(const QString &text);
    void busyChanged(bool busy);

private:
    struct Entry
    {
        quint64 serial = 0;
        std::shared_ptr<JobProgress> job;
        QString description;
        std::function<void()> onCancel;
        QFuture<void> future; ///< run() jobs
    };
    QHash<QString, Entry> m_jobs;
    QList<QString> m_order; ///< names of running jobs, oldest first
    quint64 m_serial = 0;
    QTimer m_poll;
    qint64 m_lastDone = -1;
    qint64 m_lastTotal = -1;

    quint64 registerJob(const QString &name, const QString &description, const std::shared_ptr<JobProgress> &job,
                        std::function<void()> onCancel);
    bool isLatest(const QString &name, quint64 serial) const;
    /// Forget the job (when it is still `serial`) and say how it ended.
    void retire(const QString &name, quint64 serial, const QString &error, const QString &endMessage);
    QString nameOf(const std::shared_ptr<JobProgress> &job, quint64 *serial) const;
    void pollProgress();
};

template<typename Work, typename Done>
std::shared_ptr<JobProgress> JobTracker::run(const QString &name, const QString &description, Work work, Done done)
{
    using R = std::invoke_result_t<Work &, JobProgress &>;
    auto job = std::make_shared<JobProgress>();
    const quint64 serial = registerJob(name, description, job, {});
    auto *watcher = new QFutureWatcher<R>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, name, serial, job, done = std::move(done)]() mutable {
        watcher->deleteLater();
        if (!isLatest(name, serial))
            return; // superseded (latest run wins) or dropped
        if constexpr (std::is_void_v<R>) {
            retire(name, serial, {}, {});
            done();
        } else {
            R result = watcher->result();
            QString error;
            if constexpr (detail::IsResult<R>::value) {
                if (!result.ok() && result.error().code != ErrorCode::Cancelled && !job->isCancelled())
                    error = result.error().message;
            }
            retire(name, serial, error, {});
            done(std::move(result));
        }
    });
    watcher->setFuture(QtConcurrent::run([work = std::move(work), job]() mutable { return work(*job); }));
    m_jobs[name].future = QFuture<void>(watcher->future());
    return job;
}

} // namespace provender::ui
