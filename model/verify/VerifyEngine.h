#pragma once
// The verification engine: hashes every present archive of a Catalog on a private thread pool and
// decides a Verdict for each (DESIGN.md "Verdicts"). Results are plain values; the engine never
// touches an item model.
//
//   verifyCatalog()  synchronous (CLI, tests, benchmarks); blocks the calling thread.
//   VerifyEngine     asynchronous (GUI): a QObject whose signals arrive on the thread it lives on,
//                    batched; a new start() supersedes (cancels) the previous run and a generation
//                    counter drops anything the old run still delivers. It keeps no result per
//                    archive (each is built when decided and handed over in a batch), and a run
//                    never gets more than maxBatchesInFlight batches ahead of that thread.
//
// Per archive: declared but absent -> Missing; stat/hash failure (corrupt zip, I/O) -> Error with
// the reason; otherwise the declared hashes of its index (decideVerdict) and, when given, the
// extra expected hashes of its provider version (lock-file semantics, verifyAgainstLock) decide.
// Unchanged files are answered from the HashCache without hashing.

#include "model/hashing/PackageHashes.h"
#include "model/mirror/Catalog.h"
#include "model/verify/Verdict.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace provender {

/// Which archive a result is about.
struct ArchiveKey
{
    ProviderAddress provider;
    Version version;
    Platform platform;

    bool operator==(const ArchiveKey &other) const = default;
    /// "host/ns/type 1.2.3 linux_amd64"
    QString toString() const;
};
size_t qHash(const ArchiveKey &key, size_t seed = 0) noexcept;

/// A provider version, for the extra expected hashes.
struct ProviderVersionKey
{
    ProviderAddress provider;
    Version version;

    bool operator==(const ProviderVersionKey &other) const = default;
};
size_t qHash(const ProviderVersionKey &key, size_t seed = 0) noexcept;

/// Hashes an archive is expected to have besides what the mirror's indexes declare, per provider
/// version (e.g. from a lock file, which lists hashes of every platform: any match verifies).
using ExpectedHashes = QHash<ProviderVersionKey, QList<HashString>>;

struct ArchiveResult
{
    ArchiveKey key;
    ArchiveLayout layout = ArchiveLayout::Packed;
    QString path;                         ///< absolute path ("" when missing)
    qint64 size = -1;
    VerdictDetail detail;                 ///< verdict + which hash matched / why not
    std::optional<PackageHashes> hashes;  ///< the computed hashes (absent when missing or error)
    QList<HashString> declared;           ///< what the index declared (may be empty)
    QString error;                        ///< Error: the reason ("" otherwise)
    bool fromCache = false;               ///< the hashes came from the HashCache
};

struct VerifyOptions
{
    int jobs = 0;            ///< hashing threads; 0 = all cores (QThread::idealThreadCount())
    bool useCache = true;    ///< false: hash everything (the cache is neither read nor written)
    QString cacheFile;       ///< "" = HashCache::defaultPath()
    ExpectedHashes expected; ///< optional extra expected hashes (lock-file semantics)
    /// Where `expected` came from, per provider version (lock file paths): the verdict's anchor.
    QHash<ProviderVersionKey, QString> expectedFrom;
    /// Lock files were given to check against: an archive whose provider version `expected` has
    /// no entry for is marked notCoveredByLock (a finding for --require-lock).
    bool lockCoverage = false;
};

struct VerifySummary
{
    std::array<int, kVerdictCount> counts{}; ///< indexed by int(Verdict)
    int archives = 0;        ///< archives in the catalog
    int hashed = 0;          ///< archives hashed in this run
    int cacheHits = 0;       ///< archives answered from the cache
    qint64 bytesHashed = 0;  ///< on-disk bytes of the archives hashed in this run
    bool cancelled = false;
    QString cacheWarning;    ///< why the cache is off or was recreated ("" when fine)

    int count(Verdict v) const { return counts[size_t(v)]; }
    /// Any mismatch, missing, error or refused (the CLI's exit 1).
    bool hasFindings() const;
};

struct VerifyReport
{
    QList<ArchiveResult> results; ///< catalog order (providers, versions, platforms)
    VerifySummary summary;
};

/// `done`/`total` are on-disk bytes over the whole catalog (cache hits count as done at once).
using VerifyProgress = std::function<void(qint64 done, qint64 total)>;

/// Every archive the engine verifies, in the order of its results: per provider, per version, the
/// installers' `archives` and then the `duplicates` (other copies on disk are verified too).
template<typename F>
void forEachArchive(const Catalog &catalog, F &&f)
{
    for (const Provider &p : catalog.providers)
        for (const ProviderVersion &v : p.versions) {
            for (const Archive &a : v.archives)
                f(p, v, a);
            for (const Archive &a : v.duplicates)
                f(p, v, a);
        }
}

/// The anomalies a decided result adds to its catalog's (docs/VERDICTS.md): declared hashes that
/// match nothing while the verdict is decided by another hash (kind DeclaredHashMatchesNothing).
QList<Anomaly> verdictAnomalies(const ArchiveResult &result);
/// verdictAnomalies() of every result.
QList<Anomaly> verdictAnomalies(const QList<ArchiveResult> &results);

/// Result for one archive without hashing it: Missing for an absent one, Pending otherwise.
ArchiveResult initialResult(const ProviderAddress &provider, const Version &version, const Archive &archive);

/// Verify every archive of `catalog`; blocks. `cancel` (may be null) is polled: on cancel the
/// archives not yet hashed stay Pending and summary.cancelled is set.
VerifyReport verifyCatalog(const Catalog &catalog, const VerifyOptions &options = {},
                           const VerifyProgress &progress = {}, const std::atomic<bool> *cancel = nullptr);

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

Q_DECLARE_METATYPE(provender::ArchiveResult)
Q_DECLARE_METATYPE(provender::VerifySummary)
