#pragma once
// What changed between two lock files, by meaning (LockDiff), and as text (unified diff).
//
// With a mirror catalog, each added or removed hash is traced to the archive it belongs to:
// which platform, and whether it is the zip-level `h1:` (what `providers mirror` indexes), the
// extracted-folder `h1:` (what `init`/`providers lock` record), the `zh:` of the zip, a hash an
// index declares for an archive that is not on disk, or unknown.

#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace provender {

enum class HashOrigin {
    Unknown,     ///< no archive of the mirror has this hash
    H1Zip,       ///< h1: of the zip as stored (dirhash.HashZip)
    H1Extracted, ///< h1: of the extracted package (what lock files record)
    ZH,          ///< zh: of the zip file
    Declared,    ///< declared by a mirror index for an archive we could not hash
    Sha256Sums,  ///< listed for the platform's archive in the release's signed SHA256SUMS
};
/// "unknown", "h1 (zip)", "h1 (extracted)", "zh", "declared by index", "zh (SHA256SUMS)"
QString toString(HashOrigin o);

struct HashProvenance
{
    HashOrigin origin = HashOrigin::Unknown;
    Version version;
    Platform platform;
    QString archivePath; ///< the archive; for Sha256Sums the SHA256SUMS document (path or URL)
    QString note;        ///< for Sha256Sums: "signed by key ID …" (who vouches for the list)
};

/// Hash -> archives it belongs to, for some provider versions of a catalog.
class HashProvenanceIndex
{
public:
    struct Wanted
    {
        ProviderAddress provider;
        Version version;
    };
    /// Hash every archive (present, including duplicates) of the wanted provider versions and
    /// record every hash it has, plus what the indexes declare. Hash failures are skipped
    /// (listed in failures()).
    static HashProvenanceIndex build(const Catalog &catalog, const QList<Wanted> &wanted, const ArchiveHasher &hasher = {});
    /// Every provider version that two lock files mention.
    static QList<Wanted> wantedFor(const LockFile &a, const LockFile &b);

    /// The entries of a release's SHA256SUMS (`document`, read from `source`: a path or URL) whose
    /// file name is one of `provider`'s archives of `version` (terraform-provider-TYPE_VERSION_OS_ARCH.zip):
    /// each line's zh: gets its platform, so a diff names the platform of a hash even when the
    /// archive is not on disk. The caller checks the signature first (model/registry:
    /// ReleaseProvenance) and says who signed in `note`. Lines for other files are ignored; a
    /// platform already known for the same hash from the archive itself is not listed twice.
    /// Returns how many hashes were added.
    int addSha256Sums(const ProviderAddress &provider, const Version &version, const QByteArray &document, const QString &source,
                      const QString &note);

    /// Where `hash` of `provider` came from; empty when unknown.
    QList<HashProvenance> lookup(const ProviderAddress &provider, const HashString &hash) const;
    QStringList failures() const { return m_failures; }

private:
    QHash<QString, QList<HashProvenance>> m_map; ///< key: provider + ' ' + hash
    QStringList m_failures;
};

struct HashChange
{
    HashString hash;
    QList<HashProvenance> provenance; ///< empty: unknown (or no catalog given)
    QString scheme() const { return hash.schemePrefix(); }
};

struct ProviderDiff
{
    enum class Change {
        Added,
        Removed,
        Upgraded,
        Downgraded,
        Changed, ///< same version; constraints and/or hashes differ (or only build metadata)
        Unchanged,
    };
    Change change = Change::Unchanged;
    ProviderAddress address;
    std::optional<Version> oldVersion;
    std::optional<Version> newVersion;
    QString oldConstraints; ///< canonical text ("" = none)
    QString newConstraints;
    QList<HashChange> hashesAdded;
    QList<HashChange> hashesRemoved;
    int hashesKept = 0;

    bool constraintsChanged() const { return oldConstraints != newConstraints; }
};

struct LockDiff
{
    QList<ProviderDiff> providers; ///< every provider of either file, in ProviderAddress order
    LockFlavour oldFlavour = LockFlavour::Tofu;
    LockFlavour newFlavour = LockFlavour::Tofu;

    /// No provider added, removed or changed (the flavour alone does not count).
    bool isEmpty() const;
    int count(ProviderDiff::Change c) const;
};

QString toString(ProviderDiff::Change c); ///< "added", "removed", "upgraded", "downgraded", "changed", "unchanged"

/// Semantic diff of two documents. `provenance` (optional) explains the hashes.
LockDiff diffLockFiles(const LockFile &before, const LockFile &after, const HashProvenanceIndex *provenance = nullptr);

/// A line-based unified diff (the format of `diff -u`, 3 lines of context by default), with
/// `--- labelA` / `+++ labelB` headers and `\ No newline at end of file` markers. Empty when the
/// texts are equal.
QString unifiedDiff(const QByteArray &a, const QByteArray &b, const QString &labelA, const QString &labelB, int context = 3);

} // namespace provender
