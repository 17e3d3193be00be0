#pragma once
// The verification engine: reads every present archive of a Catalog through the MirrorSource that
// listed it (model/source/MirrorSource.h: a directory hashes on a private thread pool with the
// hash cache, a bundle in one pass over its container, a network mirror by downloading) and
// decides a Verdict for each, with the same rules whatever the source (completeFromRead;
// DESIGN.md "Verdicts"). Results are plain values; the engine never touches an item model.
//
//   verifySource()   synchronous (CLI, tests, benchmarks); blocks the calling thread.
//   verifyCatalog()  verifySource() over a DirectorySource of the catalog's root.
//   VerifyEngine     asynchronous (GUI): a QObject whose signals arrive on the thread it lives on,
//                    batched; a new start() supersedes (cancels) the previous run and a generation
//                    counter drops anything the old run still delivers. It keeps no result per
//                    archive (each is built when decided and handed over in a batch), and a run
//                    never gets more than maxBatchesInFlight batches ahead of that thread.
//
// Per archive: declared but absent -> Missing; the source could not give the bytes (a 404, a
// failed download) -> Missing/Error; a hash failure (corrupt zip, I/O) -> Error with the reason
// (or, when the source read the bytes' SHA-256, terraform's checksum-first order); otherwise the
// declared hashes of its index (decideVerdict), the source's own checksums (a bundle's
// SHA256SUMS) and, when given, the extra expected hashes of its provider version (lock-file
// semantics, verifyAgainstLock) decide.

#include "model/mirror/Catalog.h"
#include "model/source/MirrorSource.h"
#include "model/verify/VerifyTypes.h"

#include <QList>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace provender {

/// The verdict of one archive from what its source read: the same rules for every source
/// (docs/VERDICTS.md). `r` starts as initialResult(); `lock` are the expected hashes of its
/// provider version (or null), `lockFrom` where they came from, `notCovered` marks a provider
/// version no given lock file covers.
void completeFromRead(ArchiveResult &r, ArchiveRead &&read, const ArchiveRef &ref, const MirrorSource &source,
                      const QList<HashString> *lock = nullptr, const QString &lockFrom = {}, bool notCovered = false);

/// Verify every archive of `catalog` (listed by `source`), reading them through `source`; blocks.
/// Results in catalog order; `cancel` (may be null) is polled as for verifyCatalog(); `onResult`
/// (may be empty) gets each result on the calling thread as soon as it is decided.
VerifyReport verifySource(MirrorSource &source, const Catalog &catalog, const VerifyOptions &options = {},
                          const VerifyProgress &progress = {}, const std::atomic<bool> *cancel = nullptr,
                          const std::function<void(const ArchiveResult &)> &onResult = {});

/// Verify every archive of `catalog`, a directory's (read through a DirectorySource); blocks. `cancel` (may be null) is polled: on cancel
/// the archives not yet hashed stay Pending and summary.cancelled is set.
VerifyReport verifyCatalog(const Catalog &catalog, const VerifyOptions &options = {}, const VerifyProgress &progress = {},
                           const std::atomic<bool> *cancel = nullptr);

/// Asynchronous front for the GUI. Signals are emitted on the thread this object lives in; only
/// the newest run's signals are emitted.
class VerifyEngine : public QObject
{
    Q_OBJECT
public:
    explicit VerifyEngine(QObject *parent = nullptr);
    /// Cancels the running verification and waits for its threads.
    ~VerifyEngine() override;

    /// Start verifying (a copy of) `catalog`; cancels a previous run. Returns the new generation.
    quint64 start(const Catalog &catalog, const VerifyOptions &options = {});
    /// The same for a catalog `source` listed: its archives are read through `source`, which the
    /// run keeps until its thread ends.
    quint64 start(std::shared_ptr<MirrorSource> source, const Catalog &catalog, const VerifyOptions &options = {});
    /// Cancel the current run: finished() follows with summary.cancelled set.
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }

    /// At most this many batches of a run are queued to this object's thread and not yet emitted:
    /// the run waits (its hashing threads go on) until the thread catches up, or a cancel.
    static constexpr int maxBatchesInFlight = 4;
    /// Batches of the current run queued but not yet emitted (the one being emitted included);
    /// for tests and benchmarks.
    int batchesInFlight() const;

Q_SIGNALS:
    /// A batch of results (several per signal, at most a few batches per second).
    void archivesVerified(const QList<provender::ArchiveResult> &results);
    /// Byte progress over the whole catalog.
    void progress(qint64 done, qint64 total);
    /// The run ended (completed or cancelled); nothing more is emitted for it.
    void finished(const provender::VerifySummary &summary);

private:
    struct Run;
    std::shared_ptr<Run> m_current;
    QList<std::shared_ptr<Run>> m_runs; ///< runs whose thread may still be alive
    quint64 m_generation = 0;
    bool m_running = false;
    void reap();
};

} // namespace provender
