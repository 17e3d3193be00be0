#include "model/verify/VerifyEngine.h"

#include "model/core/Logging.h"
#include "model/source/DirectorySource.h"
#include "model/verify/HashEngine.h"

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

namespace {

/// Where results go. verifyCatalog() wants every result in catalog order (`results`); the GUI
/// engine wants them in batches as they are decided (`batch`) and keeps none: holding a full
/// ArchiveResult per archive for the whole run costs ~60 MB at 100,000 archives.
struct Sink
{
    QList<ArchiveResult> *results = nullptr;            ///< when set: one per archive, catalog order
    std::function<void(QList<ArchiveResult> &&)> batch; ///< on the coordinating thread; may block
    VerifyProgress progress;                            ///< on the coordinating thread, throttled
    std::function<void(const ArchiveResult &)> decided; ///< each result as it is decided
};

/// One archive of the run: pointers into the catalog, which stays unchanged while the run lasts
/// (verifyCatalog's caller's, or the engine run's own copy). The ArchiveResult is built only
/// when the archive's verdict is decided.
struct WorkItem
{
    const Provider *provider = nullptr;
    const ProviderVersion *version = nullptr;
    const Archive *archive = nullptr;
    const QList<HashString> *lock = nullptr; ///< extra expected hashes of its provider version
    const QString *lockFrom = nullptr;       ///< where they came from (options.expectedFrom)
    bool notCovered = false;                 ///< lock files given, none covers this provider version
};

ArchiveResult resultOf(const WorkItem &w)
{
    ArchiveResult r = initialResult(w.provider->address, w.version->version, *w.archive);
    r.detail.notCoveredByLock = w.notCovered;
    return r;
}

void completeWithError(ArchiveResult &r, const QString &message)
{
    r.hashes.reset();
    r.error = message;
    r.detail = VerdictDetail{};
    r.detail.verdict = Verdict::Error;
    r.detail.reason = message;
}

} // namespace

void completeFromRead(ArchiveResult &r, ArchiveRead &&read, const ArchiveRef &ref, const MirrorSource &source,
                      const QList<HashString> *lock, const QString &lockFrom, bool notCovered)
{
    const Archive &archive = *ref.archive;
    if (read.size >= 0)
        r.size = read.size;
    r.fromCache = read.fromCache;
    if (lock)
        if (const std::optional<HashString> digest = source.lockCheckedBeforeRead(archive)) {
            const QString package = ref.provider->address.toString() + QLatin1Char(' ') + ref.version->version.toString();
            if (std::optional<VerdictDetail> d =
                    decideLockBeforeDownload(*digest, *lock, read.hashes.ok() ? &read.hashes.value() : nullptr, package)) {
                // Refused before the download, whatever the download would have brought.
                if (read.hashes.ok())
                    r.hashes = read.hashes.value();
                r.detail = *d;
                r.error = d->verdict == Verdict::Error ? d->reason : QString();
                r.detail.notCoveredByLock = notCovered;
                return;
            }
        }
    if (read.unavailable) {
        // The source could not give the bytes (an HTTP 404, a refused URL, a failed download).
        r.hashes.reset();
        r.detail = VerdictDetail{};
        r.detail.verdict = *read.unavailable;
        r.detail.reason = read.hashes.ok() ? QString() : read.hashes.error().message;
        r.error = *read.unavailable == Verdict::Error ? r.detail.reason : QString();
        if (read.bytesZh) {
            // Bytes were read, but they are not what the source names (an OCI blob that does not
            // hash to its digest: a Mismatch): their SHA-256 is shown.
            PackageHashes served;
            served.zh = *read.bytesZh;
            served.fileSize = std::max<qint64>(read.size, 0);
            r.hashes = served;
            r.detail.contradicting = r.declared;
        }
        return;
    }
    if (!read.hashes.ok()) {
        if (read.bytesZh) {
            // Read but not a readable zip: terraform's checksum check runs first (docs/VERDICTS.md).
            r.hashes.reset();
            r.error = read.hashes.error().message;
            r.detail = decideUnreadableArchive(*read.bytesZh, r.error, r.declared);
            if (r.detail.verdict == Verdict::Error && lock) {
                // The lock's hashes are compared next (tofu's PackageLocalArchive, every
                // downloaded archive), in their order: an h1: first fails hashing.
                r.detail = decideUnreadableAgainstLock(*read.bytesZh, r.error, *lock, TrustAnchor{TrustAnchor::Kind::LockFile, lockFrom});
                if (r.detail.verdict == Verdict::Refused)
                    r.detail.reason = QStringLiteral("failed to calculate checksum for %1 %2 package: %3")
                                          .arg(ref.provider->address.toString(), ref.version->version.toString(), r.error);
            }
            if (archive.declared)
                applyInvalidDeclaredHashes(r.detail, archive.declared->invalidHashes, archive.declared->indexFile);
            r.detail.notCoveredByLock = notCovered;
        } else {
            completeWithError(r, read.hashes.error().message);
        }
        return;
    }
    const PackageHashes &hashes = read.hashes.value();
    r.hashes = hashes;
    r.error.clear();
    const TrustAnchor index = source.indexAnchor(archive);
    const TrustAnchor lockAnchor{TrustAnchor::Kind::LockFile, lockFrom};
    const std::optional<TrustAnchor> sums = read.checksumsAnchor ? read.checksumsAnchor : source.checksumsAnchor();
    if (read.checksums && sums)
        r.detail = decideBundleArchive(hashes, ref.provider->address.type(), r.declared, index, *read.checksums, *sums, lock, lockAnchor);
    else
        r.detail = decideArchive(hashes, ref.provider->address.type(), r.declared, index, lock, lockAnchor);
    if (archive.declared)
        applyInvalidDeclaredHashes(r.detail, archive.declared->invalidHashes, archive.declared->indexFile);
    // The release's signed SHA256SUMS, when the source keeps one (a pulled mirror, its bundle).
    if (const SignedRelease *release = source.signedRelease(ref.provider->address, ref.version->version))
        applySignedRelease(r.detail, hashes, ref.provider->address.type(), ref.version->version, archive.platform, *release);
    r.detail.notCoveredByLock = notCovered;
}

namespace {

/// Verifies every archive of `catalog` and returns the summary; results go to `sink` as they are
/// decided (Missing first, then cache hits and stat errors in catalog order, then hashed ones as
/// they finish). Archives left Pending by a cancel are never delivered.
VerifySummary runVerification(MirrorSource &source, const Catalog &catalog, const VerifyOptions &options,
                              const std::atomic<bool> *externalCancel, const Sink &sink)
{
    VerifySummary summary;
    QElapsedTimer phase;
    phase.start();

    // 1. One work item per archive of the catalog, in catalog order.
    QList<WorkItem> items;
    items.reserve(catalog.archiveCount());
    if (sink.results) {
        sink.results->clear();
        sink.results->reserve(catalog.archiveCount());
    }
    forEachArchive(catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
        const ProviderVersionKey pv{p.address, v.version};
        const auto lockIt = options.expected.constFind(pv);
        const auto fromIt = options.expectedFrom.constFind(pv);
        const bool covered = lockIt != options.expected.constEnd();
        WorkItem w{&p,
                   &v,
                   &a,
                   covered ? &lockIt.value() : nullptr,
                   fromIt == options.expectedFrom.constEnd() ? nullptr : &fromIt.value(),
                   options.lockCoverage && !covered};
        if (sink.results)
            sink.results->append(resultOf(w));
        items.append(w);
    });
    summary.archives = int(items.size());
    qCDebug(lcVerify) << "work items:" << phase.restart() << "ms";

    QList<ArchiveResult> batch;
    QElapsedTimer batchTimer;
    batchTimer.start();
    auto flush = [&](bool force) {
        if (sink.batch && !batch.isEmpty() && (force || batch.size() >= 512 || batchTimer.elapsed() >= 150)) {
            sink.batch(std::exchange(batch, {}));
            batchTimer.restart();
        }
    };
    auto decided = [&](int index, ArchiveResult &&r) {
        ++summary.counts[size_t(r.detail.verdict)];
        if (sink.decided)
            sink.decided(r);
        if (sink.results) {
            (*sink.results)[index] = std::move(r);
            if (sink.batch)
                batch.append(sink.results->at(index));
        } else if (sink.batch) {
            batch.append(std::move(r));
        }
        flush(false);
    };

    // 2. Missing archives are final.
    for (qsizetype i = 0; i < items.size(); ++i)
        if (!items.at(i).archive->present)
            decided(int(i), resultOf(items.at(i)));

    // 3. The present ones are read by their source (for a directory: the hashing engine, with its
    //    cache, pool, progress and cancel); each verdict is decided here, on the coordinating
    //    thread, as its hashes arrive.
    QList<ArchiveRef> requests;
    QList<int> itemOf;
    for (qsizetype i = 0; i < items.size(); ++i) {
        const WorkItem &w = items.at(i);
        if (!w.archive->present)
            continue;
        requests.append(ArchiveRef{w.provider, w.version, w.archive});
        itemOf.append(int(i));
    }
    ArchiveReadOptions hashOptions;
    hashOptions.jobs = options.jobs;
    hashOptions.useCache = options.useCache;
    hashOptions.cacheFile = options.cacheFile;
    hashOptions.cancel = externalCancel;
    if (sink.progress || sink.batch) {
        // Called at least every ~100 ms while bytes move: also hands over a batch that waits.
        hashOptions.progress = [&](qint64 done, qint64 total) {
            if (sink.progress)
                sink.progress(done, total);
            flush(false);
            return true;
        };
    }
    const ArchiveReadSummary hashed = source.readArchives(requests, hashOptions, [&](qsizetype index, ArchiveRead &&read) {
        const int item = itemOf.at(index);
        const WorkItem &w = items.at(item);
        ArchiveResult r = resultOf(w);
        completeFromRead(r, std::move(read), requests.at(index), source, w.lock, w.lockFrom ? *w.lockFrom : QString(), w.notCovered);
        decided(item, std::move(r));
    });
    summary.hashed = hashed.hashed;
    summary.cacheHits = hashed.cacheHits;
    summary.bytesHashed = hashed.bytesHashed;
    summary.cacheWarning = hashed.cacheWarning;

    if (hashed.cancelled) {
        summary.cancelled = true;
        // Count what never got a verdict as pending.
        int decidedCount = 0;
        for (size_t i = 0; i < summary.counts.size(); ++i)
            decidedCount += summary.counts[i];
        summary.counts[size_t(Verdict::Pending)] += summary.archives - decidedCount;
        if (sink.results)
            for (ArchiveResult &r : *sink.results)
                if (r.detail.verdict == Verdict::Pending)
                    r.detail.reason = QStringLiteral("cancelled before it was hashed");
    }
    flush(true);
    qCDebug(lcVerify) << "verified" << summary.archives << "archives:" << summary.hashed << "hashed," << summary.cacheHits << "from cache"
                      << (summary.cancelled ? "(cancelled)" : "");
    return summary;
}

} // namespace

VerifyReport verifySource(MirrorSource &source, const Catalog &catalog, const VerifyOptions &options, const VerifyProgress &progress,
                          const std::atomic<bool> *cancel, const std::function<void(const ArchiveResult &)> &onResult)
{
    VerifyReport report;
    Sink sink; // no batches: the results are filled in place
    sink.results = &report.results;
    sink.progress = progress;
    sink.decided = onResult;
    report.summary = runVerification(source, catalog, options, cancel, sink);
    return report;
}

VerifyReport verifyCatalog(const Catalog &catalog, const VerifyOptions &options, const VerifyProgress &progress,
                           const std::atomic<bool> *cancel)
{
    DirectorySource source(catalog.root);
    return verifySource(source, catalog, options, progress, cancel);
}

// ---------------------------------------------------------------------------------------------

namespace {

/// Back-pressure between a run's coordinating thread and the engine's thread: how many batches
/// are queued to the engine's thread and not yet emitted. Shared with the queued calls, which may
/// outlive the Run (a superseded run's thread can finish before its last batches are applied).
struct BatchFlow
{
    std::mutex mutex;
    std::condition_variable applied;
    std::atomic<int> inFlight{0}; ///< written under `mutex`; read without it by batchesInFlight()
};

} // namespace

struct VerifyEngine::Run
{
    quint64 generation = 0;
    std::shared_ptr<MirrorSource> source;
    Catalog catalog;
    VerifyOptions options;
    std::atomic<bool> cancel{false};
    std::shared_ptr<BatchFlow> flow = std::make_shared<BatchFlow>();
    std::unique_ptr<QThread> thread;

    /// Sets the flag and wakes a coordinator waiting for the engine's thread to apply batches
    /// (which it never will when it is the thread destroying the engine).
    void requestCancel()
    {
        cancel = true;
        {
            std::lock_guard lock(flow->mutex); // no lost wake-up between the waiter's check and its wait
        }
        flow->applied.notify_all();
    }
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
        run->requestCancel();
    for (const std::shared_ptr<Run> &run : std::as_const(m_runs))
        if (run->thread)
            run->thread->wait();
}

int VerifyEngine::batchesInFlight() const
{
    return m_current ? m_current->flow->inFlight.load() : 0;
}

void VerifyEngine::reap()
{
    m_runs.removeIf([](const std::shared_ptr<Run> &run) { return run->thread && run->thread->isFinished(); });
}

quint64 VerifyEngine::start(const Catalog &catalog, const VerifyOptions &options)
{
    return start(std::make_shared<DirectorySource>(catalog.root), catalog, options);
}

quint64 VerifyEngine::start(std::shared_ptr<MirrorSource> source, const Catalog &catalog, const VerifyOptions &options)
{
    if (m_current)
        m_current->requestCancel();
    reap();
    auto run = std::make_shared<Run>();
    run->generation = ++m_generation;
    run->source = std::move(source);
    run->catalog = catalog;
    run->options = options;
    m_current = run;
    m_runs.append(run);
    m_running = true;

    const quint64 gen = run->generation;
    Run *r = run.get(); // owned by m_runs until its thread has finished
    run->thread.reset(QThread::create([this, r, gen] {
        Sink sink;
        std::shared_ptr<BatchFlow> flow = r->flow;
        sink.batch = [this, r, gen, flow](QList<ArchiveResult> &&list) {
            // Back-pressure: at most maxBatchesInFlight batches wait for the engine's thread, so a
            // run answered from the cache does not pile up copies of every result in its queue.
            {
                std::unique_lock lock(flow->mutex);
                while (flow->inFlight.load() >= maxBatchesInFlight && !r->cancel.load())
                    flow->applied.wait_for(lock, std::chrono::milliseconds(250));
                ++flow->inFlight;
            }
            QMetaObject::invokeMethod(
                this,
                [this, gen, flow, list = std::move(list)] {
                    if (gen == m_generation)
                        Q_EMIT archivesVerified(list);
                    {
                        std::lock_guard lock(flow->mutex);
                        --flow->inFlight;
                    }
                    flow->applied.notify_all();
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
        const VerifySummary summary = runVerification(*r->source, r->catalog, r->options, &r->cancel, sink);
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
        m_current->requestCancel();
}

} // namespace provender
