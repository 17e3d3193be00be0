#pragma once
// The one progress/cancel type of a background job (ui/JobTracker runs them): the worker reports
// `done`/`total` (and a stage number) into atomics and polls `isCancelled()`; the GUI thread polls
// the numbers on a timer (no signal per block) and calls cancel(). Shared through a shared_ptr
// that the worker captures, so it outlives whichever side ends first. QtCore only, no QObject.
//
// The model's functions take their own callback shapes (HashProgress, BundleProgress,
// RemoteProgress, an `const std::atomic<bool> *cancel`); the adapters below turn one JobProgress
// into each, so a window never writes its own.

#include <QtGlobal>

#include <algorithm>
#include <atomic>
#include <functional>

namespace provender {

class JobProgress
{
public:
    /// Worker side: bytes (or items) done of `total` (total <= 0: unknown).
    void report(qint64 done, qint64 total)
    {
        m_done.store(done, std::memory_order_relaxed);
        m_total.store(total, std::memory_order_relaxed);
    }
    void setStage(int stage) { m_stage.store(stage, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

    /// Any thread: ask the worker to stop at its next check.
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }

    qint64 done() const { return m_done.load(std::memory_order_relaxed); }
    qint64 total() const { return m_total.load(std::memory_order_relaxed); }
    int stage() const { return m_stage.load(std::memory_order_relaxed); }
    /// 0..100; 0 while the total is unknown.
    int percent() const
    {
        const qint64 t = total();
        return t > 0 ? int(std::min<qint64>(100, done() * 100 / t)) : 0;
    }

    /// The flag for APIs that poll an `const std::atomic<bool> *cancel`.
    const std::atomic<bool> *cancelFlag() const { return &m_cancelled; }

    /// Adapters to the model's callback shapes. They point at this object: use them while the
    /// job's work runs (a JobTracker keeps the JobProgress alive until the work returns).
    /// `bool(done, total)` (HashProgress and the like): report, and return false once cancelled.
    std::function<bool(qint64, qint64)> callback()
    {
        return [this](qint64 done, qint64 total) {
            report(done, total);
            return !isCancelled();
        };
    }
    /// `bool(stage, done, total)` (BundleProgress): the stage as an int.
    template<typename Stage> std::function<bool(Stage, qint64, qint64)> stagedCallback()
    {
        return [this](Stage stage, qint64 done, qint64 total) {
            setStage(int(stage));
            report(done, total);
            return !isCancelled();
        };
    }
    /// `void(done, total)` (RemoteProgress, VerifyProgress).
    std::function<void(qint64, qint64)> reporter()
    {
        return [this](qint64 done, qint64 total) { report(done, total); };
    }

private:
    std::atomic<qint64> m_done{0};
    std::atomic<qint64> m_total{0};
    std::atomic<int> m_stage{0};
    std::atomic<bool> m_cancelled{false};
};

} // namespace provender
