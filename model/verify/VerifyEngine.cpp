#include "model/verify/VerifyEngine.h"

#include "model/core/Logging.h"
#include "model/verify/HashCache.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHashFunctions>
#include <QThread>
#include <QThreadPool>

#include <condition_variable>
#include <deque>
#include <mutex>

namespace provender {

QString ArchiveKey::toString() const
{
    return provider.toString() + QLatin1Char(' ') + version.toString() + QLatin1Char(' ') + platform.toString();
}

size_t qHash(const ArchiveKey &key, size_t seed) noexcept
{
    return qHashMulti(seed, key.provider, key.version.toString(), key.platform.toString());
}

size_t qHash(const ProviderVersionKey &key, size_t seed) noexcept
{
    return qHashMulti(seed, key.provider, key.version.toString());
}

bool VerifySummary::hasFindings() const
{
    return count(Verdict::Mismatch) > 0 || count(Verdict::Missing) > 0 || count(Verdict::Error) > 0;
}

ArchiveResult initialResult(const ProviderAddress &provider, const Version &version, const Archive &archive)
{
    ArchiveResult r;
    r.key = ArchiveKey{provider, version, archive.platform};
    r.layout = archive.layout;
    r.path = archive.path;
    r.size = archive.size;
    if (archive.declared)
        r.declared = archive.declared->hashes;
    if (!archive.present) {
        r.detail.verdict = Verdict::Missing;
        const QString file = archive.declared && !archive.declared->url.isEmpty() ? archive.declared->url
                                                                                   : archive.fileName;
        const QString index = archive.declared ? QFileInfo(archive.declared->indexFile).fileName() : QString();
        r.detail.reason = index.isEmpty() ? QStringLiteral("absent from the mirror: %1").arg(file)
                                          : QStringLiteral("declared by %1 but absent: %2").arg(index, file);
    } else {
        r.detail.verdict = Verdict::Pending;
        r.detail.reason = QStringLiteral("not hashed yet");
    }
    return r;
}

namespace {

struct IndexedResult
{
    int index;
    ArchiveResult result;
};

struct Sink
{
    std::function<void(QList<IndexedResult> &&)> batch; ///< on the coordinating thread
    VerifyProgress progress;                            ///< on the coordinating thread, throttled
};

struct WorkItem
{
    int index = 0;                      ///< into the results list
    const QList<HashString> *lock = nullptr; ///< extra expected hashes of its provider version
    FileStamp stamp;                    ///< stamp taken before hashing (cache on)
    bool stamped = false;
};

struct Done
{
    int item;
    Result<PackageHashes> hashes;
    bool stableStamp; ///< the file did not change while it was hashed (safe to cache)
    FileStamp stamp;
};

VerdictDetail decide(const PackageHashes &hashes, const QList<HashString> &declared, const QList<HashString> *lock)
{
    VerdictDetail index = decideVerdict(hashes, declared);
    if (!lock)
        return index;
    return combineVerdicts(index, verifyAgainstLock(hashes, *lock));
}

void completeWithHashes(ArchiveResult &r, const PackageHashes &hashes, const QList<HashString> *lock, bool fromCache)
{
    r.hashes = hashes;
    r.fromCache = fromCache;
    r.error.clear();
    r.detail = decide(hashes, r.declared, lock);
}

void completeWithError(ArchiveResult &r, const QString &message)
{
    r.hashes.reset();
    r.error = message;
    r.detail = VerdictDetail{};
    r.detail.verdict = Verdict::Error;
    r.detail.reason = message;
}

/// Longest directory prefix (ending in '/') shared by every path; "" when none.
QString commonDirectoryPrefix(const QList<ArchiveResult> &results)
{
    QString prefix;
    bool first = true;
    for (const ArchiveResult &r : results) {
        const QString &p = r.path;
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

/// Fills `results` (one per archive, catalog order) and returns the summary. `sink.batch`, when
/// set, receives copies of the results as they are decided.
VerifySummary runVerification(const Catalog &catalog, const VerifyOptions &options,
                              const std::atomic<bool> *externalCancel, const Sink &sink, QList<ArchiveResult> &results)
{
    VerifySummary summary;
    QElapsedTimer phase;
    phase.start();
    std::atomic<bool> stop{false};
    auto cancelled = [&] { return stop.load(std::memory_order_relaxed) || (externalCancel && externalCancel->load()); };

    // 1. One work item per archive of the catalog, in catalog order.
    QList<WorkItem> items;
    results.clear();
    items.reserve(catalog.archiveCount());
    results.reserve(catalog.archiveCount());
    qint64 totalBytes = 0;
    forEachArchive(catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
        const auto lockIt = options.expected.constFind(ProviderVersionKey{p.address, v.version});
        WorkItem w;
        w.index = int(items.size());
        results.append(initialResult(p.address, v.version, a));
        w.lock = lockIt == options.expected.constEnd() ? nullptr : &lockIt.value();
        if (a.present && a.size > 0)
            totalBytes += a.size;
        items.append(std::move(w));
    });
    summary.archives = int(items.size());
    qCDebug(lcVerify) << "work items:" << phase.restart() << "ms";

    std::atomic<qint64> bytesDone{0};
    QList<IndexedResult> batch;
    QElapsedTimer batchTimer;
    batchTimer.start();
    QElapsedTimer progressTimer;
    progressTimer.start();
    qint64 lastReported = -1;
    auto reportProgress = [&](bool force) {
        const qint64 done = bytesDone.load();
        if (!sink.progress || done == lastReported || (!force && progressTimer.elapsed() < 100))
            return;
        lastReported = done;
        progressTimer.restart();
        sink.progress(done, totalBytes);
    };
    auto deliver = [&](int index, bool force) {
        if (index >= 0) {
            const ArchiveResult &r = results.at(index);
            ++summary.counts[size_t(r.detail.verdict)];
            if (sink.batch)
                batch.append({index, r});
        }
        if (sink.batch && !batch.isEmpty() && (force || batch.size() >= 512 || batchTimer.elapsed() >= 150)) {
            sink.batch(std::exchange(batch, {}));
            batchTimer.restart();
        }
    };

    // 2. Missing archives are final; present ones are answered from the cache when unchanged.
    std::unique_ptr<HashCache> cache;
    if (options.useCache) {
        auto opened = std::make_unique<HashCache>(options.cacheFile);
        const bool ok = opened->open();
        summary.cacheWarning = opened->warning();
        if (ok)
            cache = std::move(opened);
        if (cache && items.size() > 64)
            cache->preload(commonDirectoryPrefix(results));
        qCDebug(lcVerify) << "cache open + preload:" << phase.restart() << "ms";
    }

    for (WorkItem &w : items)
        if (results[w.index].detail.verdict == Verdict::Missing)
            deliver(w.index, false);
    QList<int> toHash;
    for (WorkItem &w : items) {
        if (cancelled())
            break;
        if (results[w.index].detail.verdict == Verdict::Missing)
            continue;
        if (cache) {
            Result<FileStamp> stamp = stampOf(results[w.index].path);
            if (!stamp.ok()) {
                completeWithError(results[w.index], stamp.error().message);
                bytesDone += std::max<qint64>(0, results[w.index].size);
                deliver(w.index, false);
                continue;
            }
            w.stamp = stamp.value();
            w.stamped = true;
            if (std::optional<PackageHashes> hit = cache->lookup(results[w.index].path, w.stamp)) {
                completeWithHashes(results[w.index], *hit, w.lock, true);
                ++summary.cacheHits;
                bytesDone += std::max<qint64>(0, results[w.index].size);
                deliver(w.index, false);
                reportProgress(false);
                continue;
            }
        }
        toHash.append(w.index);
    }
    if (cache)
        cache->dropPreload(); // every lookup is done
    reportProgress(true);
    deliver(-1, true);
    qCDebug(lcVerify) << "stat + cache lookups:" << phase.restart() << "ms;" << toHash.size() << "to hash";

    // 3. Hash the rest on a private pool; workers only compute values and queue them.
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<Done> done;
    QThreadPool pool;
    pool.setMaxThreadCount(options.jobs > 0 ? options.jobs : std::max(1, QThread::idealThreadCount()));
    const bool started = !cancelled();
    if (started) {
        for (int index : std::as_const(toHash)) {
            const WorkItem &w = items.at(index);
            const QString path = results.at(index).path;
            const qint64 size = std::max<qint64>(0, results[w.index].size);
            const bool checkStamp = w.stamped;
            const FileStamp before = w.stamp;
            pool.start([&, index, path, size, checkStamp, before] {
                qint64 counted = 0;
                auto progress = [&](qint64 d, qint64 t) {
                    const qint64 scaled = t > 0 ? qint64(double(size) * double(std::min(d, t)) / double(t)) : 0;
                    if (scaled > counted) {
                        bytesDone += scaled - counted;
                        counted = scaled;
                    }
                    return !cancelled();
                };
                Result<PackageHashes> r = cancelled()
                                              ? Result<PackageHashes>(makeError(ErrorCode::Cancelled, QStringLiteral("cancelled")))
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

    // Every queued task reports (or is cleared by the cancel path below). Re-reading the flag here
    // instead would, on a cancel just after queueing, drop the results of tasks already done.
    qsizetype outstanding = started ? toHash.size() : 0;
    auto handle = [&](Done &d) {
        WorkItem &w = items[d.item];
        if (d.hashes.ok()) {
            completeWithHashes(results[w.index], d.hashes.value(), w.lock, false);
            ++summary.hashed;
            summary.bytesHashed += std::max<qint64>(0, results[w.index].size);
            if (cache && d.stableStamp)
                cache->store(results[w.index].path, d.stamp, d.hashes.value());
            deliver(d.item, false);
        } else if (d.hashes.error().code == ErrorCode::Cancelled) {
            results[w.index].detail.reason = QStringLiteral("cancelled before it was hashed");
            ++summary.counts[size_t(Verdict::Pending)];
        } else {
            completeWithError(results[w.index], d.hashes.error().message);
            ++summary.hashed;
            deliver(d.item, false);
        }
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
        deliver(-1, false);
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

    if (cancelled()) {
        summary.cancelled = true;
        // Count what never got a verdict as pending.
        int decided = 0;
        for (size_t i = 0; i < summary.counts.size(); ++i)
            decided += summary.counts[i];
        summary.counts[size_t(Verdict::Pending)] += summary.archives - decided;
    }
    qCDebug(lcVerify) << "hashing:" << phase.restart() << "ms";
    if (cache) {
        cache->flush();
        if (summary.cacheWarning.isEmpty())
            summary.cacheWarning = cache->warning();
    }
    reportProgress(true);
    deliver(-1, true);
    qCDebug(lcVerify) << "cache flush:" << phase.restart() << "ms";
    qCDebug(lcVerify) << "verified" << summary.archives << "archives:" << summary.hashed << "hashed,"
                      << summary.cacheHits << "from cache" << (summary.cancelled ? "(cancelled)" : "");
    return summary;
}

} // namespace

VerifyReport verifyCatalog(const Catalog &catalog, const VerifyOptions &options, const VerifyProgress &progress,
                           const std::atomic<bool> *cancel)
{
    VerifyReport report;
    Sink sink; // no batches: the results are filled in place
    sink.progress = progress;
    report.summary = runVerification(catalog, options, cancel, sink, report.results);
    return report;
}

// ---------------------------------------------------------------------------------------------

struct VerifyEngine::Run
{
    quint64 generation = 0;
    Catalog catalog;
    VerifyOptions options;
    std::atomic<bool> cancel{false};
    std::unique_ptr<QThread> thread;
};

VerifyEngine::VerifyEngine(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<provender::ArchiveResult>();
    qRegisterMetaType<QList<provender::ArchiveResult>>();
    qRegisterMetaType<provender::VerifySummary>();
}

VerifyEngine::~VerifyEngine()
{
    for (const std::shared_ptr<Run> &run : std::as_const(m_runs))
        run->cancel = true;
    for (const std::shared_ptr<Run> &run : std::as_const(m_runs))
        if (run->thread)
            run->thread->wait();
}

void VerifyEngine::reap()
{
    m_runs.removeIf([](const std::shared_ptr<Run> &run) { return run->thread && run->thread->isFinished(); });
}

quint64 VerifyEngine::start(const Catalog &catalog, const VerifyOptions &options)
{
    if (m_current)
        m_current->cancel = true;
    reap();
    auto run = std::make_shared<Run>();
    run->generation = ++m_generation;
    run->catalog = catalog;
    run->options = options;
    m_current = run;
    m_runs.append(run);
    m_running = true;

    const quint64 gen = run->generation;
    Run *r = run.get(); // owned by m_runs until its thread has finished
    run->thread.reset(QThread::create([this, r, gen] {
        Sink sink;
        sink.batch = [this, gen](QList<IndexedResult> &&batch) {
            QList<ArchiveResult> list;
            list.reserve(batch.size());
            for (IndexedResult &b : batch)
                list.append(std::move(b.result));
            QMetaObject::invokeMethod(
                this,
                [this, gen, list = std::move(list)] {
                    if (gen == m_generation)
                        Q_EMIT archivesVerified(list);
                },
                Qt::QueuedConnection);
        };
        sink.progress = [this, gen](qint64 done, qint64 total) {
            QMetaObject::invokeMethod(
                this,
                [this, gen, done, total] {
                    if (gen == m_generation)
                        Q_EMIT progress(done, total);
                },
                Qt::QueuedConnection);
        };
        QList<ArchiveResult> results;
        const VerifySummary summary = runVerification(r->catalog, r->options, &r->cancel, sink, results);
        QMetaObject::invokeMethod(
            this,
            [this, gen, summary] {
                if (gen == m_generation) {
                    m_running = false;
                    Q_EMIT finished(summary);
                }
                reap();
            },
            Qt::QueuedConnection);
    }));
    run->thread->setObjectName(QStringLiteral("provender-verify"));
    run->thread->start();
    return gen;
}

void VerifyEngine::cancel()
{
    if (m_current)
        m_current->cancel = true;
}

} // namespace provender
