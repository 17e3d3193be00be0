#pragma once
// A mirror source: anything provider archives can be listed and read from — a mirror directory,
// a bundle file, a network mirror (and later registries, OCI). One interface for what a browser
// and the verification engine need (docs/ARCHITECTURE.md "Sources"):
//
//   list()          the Catalog: providers ▸ versions ▸ platform archives, with the hashes the
//                   source's own documents declare and the anomalies found while listing
//   indexAnchor()   what those declared hashes are anchored to (the index document)
//   checksumsAnchor() a second own anchor (a bundle's SHA256SUMS), when the source has one
//   signedRelease() a release's signed SHA256SUMS the source keeps (pulled mirrors, their bundles)
//   readArchives()  read the bytes of many archives and hash them (h1:/zh:), outcomes as they
//                   come; the verification engine (model/verify verifySource) decides the verdicts
//                   from them with the same rules for every source
//   openArchive()   one archive's bytes as a stream (a file, a bundle member, a download)
//   capabilities()  writable, index export, credentials, request log, hash cache
//
// Every call blocks and may run on any thread but the GUI's (a network source runs a local event
// loop on the calling thread); `cancel` is polled and may be set from any thread. Values only:
// nothing here touches an item model. A source is used by one thread at a time.
//
// Adding a source is one class implementing this plus its run in tests/source's conformance suite.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"
#include "model/mirror/Catalog.h"
#include "model/verify/HashEngine.h"
#include "model/verify/SignedRelease.h"
#include "model/verify/Verdict.h"

#include <QIODevice>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace provender {

/// What a source can do besides listing and reading.
struct SourceCapabilities
{
    bool writable = false;      ///< the user may change it in place (a mirror directory)
    bool indexExport = false;   ///< exportIndexes() can write its index.json / <version>.json
    bool credentials = false;   ///< it may send a token (a network mirror's index requests)
    bool requestLog = false;    ///< it makes requests worth a log (NetworkSource::requestLog())
    bool hashCache = false;     ///< unchanged archives are answered from the HashCache
    bool parallelReads = false; ///< readArchives() uses several threads / connections (`jobs`)

    /// A source over HTTP(S) (network mirror, registry, OCI registry): it may send credentials
    /// and logs its requests; \p parallel when readArchives() downloads over several connections.
    static SourceCapabilities remote(bool parallel)
    {
        SourceCapabilities c;
        c.credentials = true;
        c.requestLog = true;
        c.parallelReads = parallel;
        return c;
    }

    bool operator==(const SourceCapabilities &other) const = default;
};

/// One archive of a listed Catalog, with its provider and version (pointers into that Catalog,
/// which must outlive the call).
struct ArchiveRef
{
    const Provider *provider = nullptr;
    const ProviderVersion *version = nullptr;
    const Archive *archive = nullptr;
};

/// What reading one archive's bytes gave.
struct ArchiveRead
{
    /// The hashes, or why they could not be computed (not a zip, I/O, limits, cancel).
    Result<PackageHashes> hashes = makeError(ErrorCode::Cancelled, QStringLiteral("cancelled before it was hashed"));
    bool fromCache = false; ///< the hashes came from the HashCache
    /// Set when the bytes could not be had at all: Missing (the source says the archive is not
    /// there, e.g. an HTTP 404) or Error; `hashes` holds the reason. Mismatch (with `bytesZh`):
    /// the bytes read are not the ones the source names (an OCI blob that does not hash to its
    /// digest), so the download fails as tofu's does.
    std::optional<Verdict> unavailable;
    /// The SHA-256 of the bytes, when they were read but `hashes` failed (not a readable zip):
    /// terraform's checksum check then runs before extraction fails (decideUnreadableArchive).
    std::optional<HashString> bytesZh;
    /// How the archive fared against the source's own checksum list (a bundle's SHA256SUMS);
    /// nullopt when the source has none.
    std::optional<SumsCheck> checksums;
    /// The document `checksums` came from, when it is this archive's own (a release's signed
    /// SHA256SUMS an OCI mirror keeps per version); nullopt: the source's checksumsAnchor().
    std::optional<TrustAnchor> checksumsAnchor;
    /// Bytes read, when the catalog did not know the size (-1: keep the catalog's).
    qint64 size = -1;
};

/// Whether hashing failed for the bytes themselves (not a readable zip, an unsupported feature,
/// beyond a zip limit) rather than for getting them (I/O, cancel): then the source supplies the
/// bytes' SHA-256 as ArchiveRead::bytesZh (a directory, a bundle).
inline bool failedForItsBytes(ErrorCode code)
{
    return code == ErrorCode::CorruptArchive || code == ErrorCode::Unsupported || code == ErrorCode::InvalidArgument;
}

struct ArchiveReadSummary
{
    int hashed = 0;         ///< archives whose hashes were computed in this run
    int cacheHits = 0;      ///< answered from the hash cache
    qint64 bytesHashed = 0; ///< on-disk (or downloaded) bytes of the archives hashed
    qint64 bytesRead = 0;   ///< bytes the source had to read or download for them
    bool cancelled = false;
    QString cacheWarning; ///< why the cache is off or was recreated ("" when fine)
};

/// Called on the calling thread once per archive that is decided, `index` into the request list.
/// Archives left undone by a cancel are not delivered.
using ArchiveReadSink = std::function<void(qsizetype index, ArchiveRead &&read)>;

/// How to read: HashRunOptions' jobs, cache, progress and cancel (a source without a cache or
/// parallelism ignores those fields). Progress is in bytes over the run.
using ArchiveReadOptions = HashRunOptions;

class MirrorSource
{
public:
    virtual ~MirrorSource();

    virtual Catalog::SourceKind kind() const = 0;
    /// The path or URL as opened (Catalog::root of what list() returns).
    virtual QString location() const = 0;
    virtual SourceCapabilities capabilities() const = 0;

    /// The catalog, freshly listed. Fails only when the source as a whole cannot be read (not a
    /// directory, not a bundle, a base URL that cannot be used); everything else is an anomaly.
    virtual Result<Catalog> list(const std::atomic<bool> *cancel = nullptr) = 0;

    /// What an archive's declared hashes are anchored to: by default the index document that
    /// declared them (DeclaredArchive::indexFile), kind OwnIndex.
    virtual TrustAnchor indexAnchor(const Archive &archive) const;
    /// A second document of the source's own that lists checksums (a bundle's SHA256SUMS).
    virtual std::optional<TrustAnchor> checksumsAnchor() const { return std::nullopt; }
    /// The proof the source keeps of a release (a pulled mirror's `.provenance/`, a bundle's copy:
    /// model/registry/ReleaseProvenanceStore.h), its signature checked offline on first use; null
    /// when it keeps none. completeFromRead() applies it (applySignedRelease).
    virtual const SignedRelease *signedRelease(const ProviderAddress &provider, const Version &version) const
    {
        (void)provider;
        (void)version;
        return nullptr;
    }
    /// ASCII-armoured keys the user pins for those signatures (`--pinned-keys FILE`): the signing
    /// key must be one of them. Empty (the default): the keys kept next to the sums.
    virtual void setPinnedKeys(const QList<QByteArray> &keys) { (void)keys; }

    /// The hash tofu compares with a lock file's hashes *before* it reads the archive at all (an
    /// OCI mirror's layer digest as zh:, decideLockBeforeDownload); nullopt for sources whose
    /// archives are checked against the lock only after reading.
    virtual std::optional<HashString> lockCheckedBeforeRead(const Archive &) const { return std::nullopt; }

    /// Reads and hashes the bytes of `archives` (present ones of a catalog this source listed).
    virtual ArchiveReadSummary readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                            const ArchiveReadSink &sink) = 0;

    /// One archive's bytes as a sequential stream, open for reading (for a bundle member or a
    /// download: a temporary file the device owns and removes).
    virtual Result<std::unique_ptr<QIODevice>> openArchive(const Archive &archive, const std::atomic<bool> *cancel = nullptr) = 0;
};

} // namespace provender
