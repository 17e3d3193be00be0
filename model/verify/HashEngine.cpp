#include "model/verify/HashEngine.h"

#include "model/core/Logging.h"
#include "model/verify/HashCache.h"

#include <QElapsedTimer>
#include <QHash>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>

namespace provender {

namespace {

/// Longest directory prefix (ending in '/') shared by every path; "" when none.
QString commonDirectoryPrefix(const QList<HashRequest> &requests, const QList<qsizetype> &distinct)
{
    QString prefix;
    bool first = true;
    for (qsizetype i : distinct) {
        const QString &p = requests.at(i).path;
        if (p.isEmpty())
            continue;
        if (first) {
            prefix = p.left(p.lastIndexOf(QLatin1Char('/')) + 1);
            first = false;
            continue;
        }
        while (!prefix.isEmpty() && !p.startsWith(prefix)) {
            const qsizetype slash = prefix.size() >= 2 ? prefix.lastIndexOf(QLatin1Char('/'), prefix.size() - 2) : -1;
            prefix = slash < 0 ? QString() : prefix.left(slash + 1);
        }
    }
    return prefix;
}

struct Job
{
    qsizetype request = 0; ///< index of the first request of this path
    FileStamp stamp;       ///< taken before hashing (cache on)
    bool stamped = false;
};

struct Done
{
    qsizetype request;
    Result<PackageHashes> hashes;
    bool stableStamp; ///< the file did not change while it was hashed (safe to cache)
    FileStamp stamp;
};

/// One hashArchives() run, phase by phase: distinct paths, the cache's answers, the rest hashed
/// on a private pool whose workers only compute values and queue them for this thread.
class HashRun
{
public:
    HashRun(const QList<HashRequest> &requests, const HashRunOptions &options, const HashOutcomeSink &sink)
        : m_requests(requests),
          m_options(options),
          m_sink(sink)
    {
        m_phase.start();
        m_progressTimer.start();
    }

    HashRunSummary run()
    {
        findDistinctPaths();
        QList<Job> toHash = answerFromCache();
        hashOnPool(std::move(toHash));
        m_summary.cancelled = cancelled();
        qCDebug(lcVerify) << "hashing:" << m_phase.restart() << "ms";
        if (m_cache) {
            m_cache->flush();
            if (m_summary.cacheWarning.isEmpty())
                m_summary.cacheWarning = m_cache->warning();
        }
        if (!m_summary.cancelled)
            reportProgress(true);
        qCDebug(lcVerify) << "hashArchives:" << m_summary.requests << "packages," << m_summary.hashed << "hashed," << m_summary.cacheHits
                          << "from the cache" << (m_summary.cancelled ? "(cancelled)" : "");
        return m_summary;
    }

private:
    bool cancelled() const
    {
        return m_stop.load(std::memory_order_relaxed) || (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed));
    }

    /// Distinct paths: the first request of each is worked on; the others get a copy.
    void findDistinctPaths()
    {
        QHash<QString, qsizetype> firstOf;
        firstOf.reserve(m_requests.size());
        for (qsizetype i = 0; i < m_requests.size(); ++i) {
            const auto it = firstOf.constFind(m_requests.at(i).path);
            if (it != firstOf.constEnd()) {
                m_copies[it.value()].append(i);
                continue;
            }
            firstOf.insert(m_requests.at(i).path, i);
            m_distinct.append(i);
        }
        m_summary.requests = int(m_distinct.size());
        for (qsizetype i : std::as_const(m_distinct))
            m_totalBytes += std::max<qint64>(0, m_requests.at(i).size);
    }

    void deliver(qsizetype index, HashOutcome &&outcome)
    {
        const auto c = m_copies.constFind(index);
        if (c != m_copies.constEnd())
            for (qsizetype other : c.value())
                if (m_sink)
                    m_sink(other, HashOutcome(outcome));
        if (m_sink)
            m_sink(index, std::move(outcome));
    }

    void reportProgress(bool force)
    {
        const qint64 done = m_bytesDone.load();
        if (!m_options.progress || done == m_lastReported || (!force && m_progressTimer.elapsed() < 100))
            return;
        m_lastReported = done;
        m_progressTimer.restart();
        if (!m_options.progress(done, m_totalBytes))
            m_stop = true;
    }

    /// 1. Unchanged packages are answered from the cache; returns the packages left to hash.
    QList<Job> answerFromCache()
    {
        if (m_options.useCache && !m_distinct.isEmpty()) {
            auto opened = std::make_unique<HashCache>(m_options.cacheFile);
            const bool ok = opened->open();
            m_summary.cacheWarning = opened->warning();
            if (ok)
                m_cache = std::move(opened);
            if (m_cache && m_distinct.size() > 64)
                m_cache->preload(commonDirectoryPrefix(m_requests, m_distinct));
            qCDebug(lcVerify) << "cache open + preload:" << m_phase.restart() << "ms";
        }
        QList<Job> toHash;
        for (qsizetype i : std::as_const(m_distinct)) {
            if (cancelled())
                break;
            const HashRequest &req = m_requests.at(i);
            Job job;
            job.request = i;
            if (m_cache) {
                Result<FileStamp> stamp = stampOf(req.path);
                if (!stamp.ok()) {
                    m_bytesDone += std::max<qint64>(0, req.size);
                    deliver(i, HashOutcome{stamp.error(), false});
                    continue;
                }
                job.stamp = std::move(stamp).value();
                job.stamped = true;
                if (std::optional<PackageHashes> hit = m_cache->lookup(req.path, job.stamp)) {
                    ++m_summary.cacheHits;
                    m_bytesDone += std::max<qint64>(0, req.size);
                    deliver(i, HashOutcome{std::move(*hit), true});
                    reportProgress(false);
                    continue;
                }
            }
            toHash.append(std::move(job));
        }
        if (m_cache)
            m_cache->dropPreload(); // every lookup is done
        reportProgress(true);
        qCDebug(lcVerify) << "stat + cache lookups:" << m_phase.restart() << "ms;" << toHash.size() << "to hash";
        return toHash;
    }

    /// The task of one package on the pool: hash it, check that it did not change meanwhile, queue
    /// the result.
    void hashOne(qsizetype index, const QString &path, qint64 size, bool checkStamp, const FileStamp &before)
    {
        qint64 counted = 0;
        // Each package reports its bytes scaled to its file size, so that the sum runs from
        // 0 to the total size of all packages whatever the entries inflate to.
        auto progress = [&](qint64 d, qint64 t) {
            const qint64 scaled = t > 0 ? qint64(double(size) * double(std::min(d, t)) / double(t)) : 0;
            if (scaled > counted) {
                m_bytesDone += scaled - counted;
                counted = scaled;
            }
            return !cancelled();
        };
        Result<PackageHashes> r =
            cancelled() ? Result<PackageHashes>(makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"))) : hashPackage(path, progress);
        if (r.ok() || r.error().code != ErrorCode::Cancelled)
            m_bytesDone += size - counted;
        bool stable = false;
        FileStamp after;
        if (checkStamp && r.ok()) {
            Result<FileStamp> s = stampOf(path);
            stable = s.ok() && s.value() == before;
            if (s.ok())
                after = s.value();
        }
        {
            std::lock_guard lock(m_mutex);
            m_done.push_back(Done{index, std::move(r), stable, after});
        }
        m_ready.notify_one();
    }

    /// A result on this thread: counted, cached when the file stayed the same, delivered.
    void handle(Done &d)
    {
        if (!d.hashes.ok() && d.hashes.error().code == ErrorCode::Cancelled)
            return; // left undone
        ++m_summary.hashed;
        if (d.hashes.ok()) {
            m_summary.bytesHashed += std::max<qint64>(0, m_requests.at(d.request).size);
            if (m_cache && d.stableStamp)
                m_cache->store(m_requests.at(d.request).path, d.stamp, d.hashes.value());
        }
        deliver(d.request, HashOutcome{std::move(d.hashes), false});
    }

    /// 2. Hash the rest on a private pool; workers only compute values and queue them.
    void hashOnPool(QList<Job> toHash)
    {
        QThreadPool pool;
        const int threads = m_options.jobs > 0 ? m_options.jobs : std::max(1, QThread::idealThreadCount());
        pool.setMaxThreadCount(std::max(1, std::min<int>(threads, int(std::max<qsizetype>(1, toHash.size())))));
        // Largest first: the last package to start is then a small one, so the threads finish
        // together instead of one of them hashing a big package alone at the end.
        std::stable_sort(toHash.begin(), toHash.end(),
                         [&](const Job &x, const Job &y) { return m_requests.at(x.request).size > m_requests.at(y.request).size; });
        const bool started = !cancelled();
        if (started) {
            for (const Job &job : std::as_const(toHash)) {
                const qsizetype index = job.request;
                const QString path = m_requests.at(index).path;
                const qint64 size = std::max<qint64>(0, m_requests.at(index).size);
                const bool checkStamp = job.stamped;
                const FileStamp before = job.stamp;
                pool.start([this, index, path, size, checkStamp, before] { hashOne(index, path, size, checkStamp, before); });
            }
        }
        const qsizetype queued = toHash.size();
        toHash = {}; // the tasks hold what they need

        // Every queued task reports (or is cleared by the cancel path below). Re-reading the flag here
        // instead would, on a cancel just after queueing, drop the results of tasks already done.
        qsizetype outstanding = started ? queued : 0;
        while (outstanding > 0) {
            std::deque<Done> got;
            {
                std::unique_lock lock(m_mutex);
                m_ready.wait_for(lock, std::chrono::milliseconds(100), [&] { return !m_done.empty(); });
                got.swap(m_done);
            }
            for (Done &d : got) {
                handle(d);
                --outstanding;
            }
            reportProgress(false);
            if (cancelled()) {
                m_stop = true;
                pool.clear(); // queued tasks never start
                pool.waitForDone();
                std::lock_guard lock(m_mutex);
                for (Done &d : m_done)
                    handle(d);
                m_done.clear();
                break;
            }
        }
        pool.waitForDone();
    }

    const QList<HashRequest> &m_requests;
    const HashRunOptions &m_options;
    const HashOutcomeSink &m_sink;
    HashRunSummary m_summary;
    QElapsedTimer m_phase;
    std::atomic<bool> m_stop{false};
    QList<qsizetype> m_distinct;
    QHash<qsizetype, QList<qsizetype>> m_copies; ///< first request -> the later requests of its path
    qint64 m_totalBytes = 0;
    std::atomic<qint64> m_bytesDone{0};
    QElapsedTimer m_progressTimer;
    qint64 m_lastReported = -1;
    std::unique_ptr<HashCache> m_cache;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<Done> m_done;
};

} // namespace

HashRunSummary hashArchives(const QList<HashRequest> &requests, const HashRunOptions &options, const HashOutcomeSink &sink)
{
    return HashRun(requests, options, sink).run();
}

HashRunReport hashArchives(const QList<HashRequest> &requests, const HashRunOptions &options)
{
    HashRunReport report;
    report.outcomes.resize(requests.size());
    report.summary =
        hashArchives(requests, options, [&](qsizetype index, HashOutcome &&outcome) { report.outcomes[index] = std::move(outcome); });
    return report;
}

void SharedHashProgress::attach(HashRunOptions &options)
{
    options.cancel = &cancel;
    options.progress = [this](qint64 d, qint64 t) {
        done.store(d);
        total.store(t);
        return !cancel.load();
    };
}

int SharedHashProgress::percent() const
{
    const qint64 t = total.load();
    return t > 0 ? int(std::min<qint64>(100, done.load() * 100 / t)) : 0;
}

} // namespace provender
