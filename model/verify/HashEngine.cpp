#include "model/verify/HashEngine.h"

#include "model/core/Logging.h"
#include "model/verify/HashCache.h"

#include <QElapsedTimer>
#include <QHash>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
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

} // namespace

HashRunSummary hashArchives(const QList<HashRequest> &requests, const HashRunOptions &options, const HashOutcomeSink &sink)
{
    HashRunSummary summary;
    QElapsedTimer phase;
    phase.start();
    std::atomic<bool> stop{false};
    auto cancelled = [&] {
        return stop.load(std::memory_order_relaxed) || (options.cancel && options.cancel->load(std::memory_order_relaxed));
    };

    // Distinct paths: the first request of each is worked on; the others get a copy.
    QList<qsizetype> distinct;
    QHash<qsizetype, QList<qsizetype>> copies; // first request -> the later requests of its path
    {
        QHash<QString, qsizetype> firstOf;
        firstOf.reserve(requests.size());
        for (qsizetype i = 0; i < requests.size(); ++i) {
            const auto it = firstOf.constFind(requests.at(i).path);
            if (it != firstOf.constEnd()) {
                copies[it.value()].append(i);
                continue;
            }
            firstOf.insert(requests.at(i).path, i);
            distinct.append(i);
        }
    }
    summary.requests = int(distinct.size());
    qint64 totalBytes = 0;
    for (qsizetype i : std::as_const(distinct))
        totalBytes += std::max<qint64>(0, requests.at(i).size);

    auto deliver = [&](qsizetype index, HashOutcome &&outcome) {
        const auto c = copies.constFind(index);
        if (c != copies.constEnd())
            for (qsizetype other : c.value())
                if (sink)
                    sink(other, HashOutcome(outcome));
        if (sink)
            sink(index, std::move(outcome));
    };

    std::atomic<qint64> bytesDone{0};
    QElapsedTimer progressTimer;
    progressTimer.start();
    qint64 lastReported = -1;
    auto reportProgress = [&](bool force) {
        const qint64 done = bytesDone.load();
        if (!options.progress || done == lastReported || (!force && progressTimer.elapsed() < 100))
            return;
        lastReported = done;
        progressTimer.restart();
        if (!options.progress(done, totalBytes))
            stop = true;
    };

    // 1. Unchanged packages are answered from the cache.
    std::unique_ptr<HashCache> cache;
    if (options.useCache && !distinct.isEmpty()) {
        auto opened = std::make_unique<HashCache>(options.cacheFile);
        const bool ok = opened->open();
        summary.cacheWarning = opened->warning();
        if (ok)
            cache = std::move(opened);
        if (cache && distinct.size() > 64)
            cache->preload(commonDirectoryPrefix(requests, distinct));
        qCDebug(lcVerify) << "cache open + preload:" << phase.restart() << "ms";
    }
    QList<Job> toHash;
    for (qsizetype i : std::as_const(distinct)) {
        if (cancelled())
            break;
        const HashRequest &req = requests.at(i);
        Job job;
        job.request = i;
        if (cache) {
            Result<FileStamp> stamp = stampOf(req.path);
            if (!stamp.ok()) {
                bytesDone += std::max<qint64>(0, req.size);
                deliver(i, HashOutcome{stamp.error(), false});
                continue;
            }
            job.stamp = std::move(stamp).value();
            job.stamped = true;
            if (std::optional<PackageHashes> hit = cache->lookup(req.path, job.stamp)) {
                ++summary.cacheHits;
                bytesDone += std::max<qint64>(0, req.size);
                deliver(i, HashOutcome{std::move(*hit), true});
                reportProgress(false);
                continue;
            }
        }
        toHash.append(std::move(job));
    }
    if (cache)
        cache->dropPreload(); // every lookup is done
    reportProgress(true);
    qCDebug(lcVerify) << "stat + cache lookups:" << phase.restart() << "ms;" << toHash.size() << "to hash";

    // 2. Hash the rest on a private pool; workers only compute values and queue them.
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<Done> done;
    QThreadPool pool;
    const int threads = options.jobs > 0 ? options.jobs : std::max(1, QThread::idealThreadCount());
    pool.setMaxThreadCount(std::max(1, std::min<int>(threads, int(std::max<qsizetype>(1, toHash.size())))));
    // Largest first: the last package to start is then a small one, so the threads finish
    // together instead of one of them hashing a big package alone at the end.
    std::stable_sort(toHash.begin(), toHash.end(),
                     [&](const Job &x, const Job &y) { return requests.at(x.request).size > requests.at(y.request).size; });
    const bool started = !cancelled();
    if (started) {
        for (const Job &job : std::as_const(toHash)) {
            const qsizetype index = job.request;
            const QString path = requests.at(index).path;
            const qint64 size = std::max<qint64>(0, requests.at(index).size);
            const bool checkStamp = job.stamped;
            const FileStamp before = job.stamp;
            pool.start([&, index, path, size, checkStamp, before] {
                qint64 counted = 0;
                // Each package reports its bytes scaled to its file size, so that the sum runs from
                // 0 to the total size of all packages whatever the entries inflate to.
                auto progress = [&](qint64 d, qint64 t) {
                    const qint64 scaled = t > 0 ? qint64(double(size) * double(std::min(d, t)) / double(t)) : 0;
                    if (scaled > counted) {
                        bytesDone += scaled - counted;
                        counted = scaled;
                    }
                    return !cancelled();
                };
                Result<PackageHashes> r = cancelled() ? Result<PackageHashes>(makeError(ErrorCode::Cancelled, QStringLiteral("cancelled")))
                                                      : hashPackage(path, progress);
                if (r.ok() || r.error().code != ErrorCode::Cancelled)
                    bytesDone += size - counted;
                bool stable = false;
                FileStamp after;
                if (checkStamp && r.ok()) {
                    Result<FileStamp> s = stampOf(path);
                    stable = s.ok() && s.value() == before;
                    if (s.ok())
                        after = s.value();
                }
                {
                    std::lock_guard lock(mutex);
                    done.push_back(Done{index, std::move(r), stable, after});
                }
                ready.notify_one();
            });
        }
    }
    const qsizetype queued = toHash.size();
    toHash = {}; // the tasks hold what they need

    // Every queued task reports (or is cleared by the cancel path below). Re-reading the flag here
    // instead would, on a cancel just after queueing, drop the results of tasks already done.
    qsizetype outstanding = started ? queued : 0;
    auto handle = [&](Done &d) {
        if (!d.hashes.ok() && d.hashes.error().code == ErrorCode::Cancelled)
            return; // left undone
        ++summary.hashed;
        if (d.hashes.ok()) {
            summary.bytesHashed += std::max<qint64>(0, requests.at(d.request).size);
            if (cache && d.stableStamp)
                cache->store(requests.at(d.request).path, d.stamp, d.hashes.value());
        }
        deliver(d.request, HashOutcome{std::move(d.hashes), false});
    };
    while (outstanding > 0) {
        std::deque<Done> got;
        {
            std::unique_lock lock(mutex);
            ready.wait_for(lock, std::chrono::milliseconds(100), [&] { return !done.empty(); });
            got.swap(done);
        }
        for (Done &d : got) {
            handle(d);
            --outstanding;
        }
        reportProgress(false);
        if (cancelled()) {
            stop = true;
            pool.clear(); // queued tasks never start
            pool.waitForDone();
            std::lock_guard lock(mutex);
            for (Done &d : done)
                handle(d);
            done.clear();
            break;
        }
    }
    pool.waitForDone();
    summary.cancelled = cancelled();
    qCDebug(lcVerify) << "hashing:" << phase.restart() << "ms";
    if (cache) {
        cache->flush();
        if (summary.cacheWarning.isEmpty())
            summary.cacheWarning = cache->warning();
    }
    if (!summary.cancelled)
        reportProgress(true);
    qCDebug(lcVerify) << "hashArchives:" << summary.requests << "packages," << summary.hashed << "hashed," << summary.cacheHits
                      << "from the cache" << (summary.cancelled ? "(cancelled)" : "");
    return summary;
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
