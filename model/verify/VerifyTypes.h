#pragma once
// The values of verification: which archive a result is about, the result itself, the options
// and the summary of a run. Plain values (no QObject); every layer that passes results around
// includes this header, not the engine's (VerifyEngine.h).

#include "model/core/HashString.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Version.h"
#include "model/hashing/PackageHashes.h"
#include "model/mirror/Catalog.h"
#include "model/verify/Verdict.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>

#include <array>
#include <functional>
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
    QString path; ///< absolute path ("" when missing)
    qint64 size = -1;
    VerdictDetail detail;                ///< verdict + which hash matched / why not
    std::optional<PackageHashes> hashes; ///< the computed hashes (absent when missing or error)
    QList<HashString> declared;          ///< what the index declared (may be empty)
    QString error;                       ///< Error: the reason ("" otherwise)
    bool fromCache = false;              ///< the hashes came from the HashCache
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
    int archives = 0;                        ///< archives in the catalog
    int hashed = 0;                          ///< archives hashed in this run
    int cacheHits = 0;                       ///< archives answered from the cache
    qint64 bytesHashed = 0;                  ///< on-disk bytes of the archives hashed in this run
    bool cancelled = false;
    QString cacheWarning; ///< why the cache is off or was recreated ("" when fine)

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
template<typename F> void forEachArchive(const Catalog &catalog, F &&f)
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

} // namespace provender

Q_DECLARE_METATYPE(provender::ArchiveResult)
Q_DECLARE_METATYPE(provender::VerifySummary)
