#pragma once
// Which platform each zh: of a lock file belongs to, from the releases' signed SHA256SUMS
// (issue 19 item 5): `lock diff` and the lock windows name the platform of a hash even when no
// archive of that platform is on disk.
//
// Two places hold the lists:
//   - a pulled mirror's provenance (MirrorPull.h, docs/REGISTRY.md):
//     ROOT/.provenance/HOST/NS/TYPE/VERSION/{SHA256SUMS, SHA256SUMS.sig, keys.asc}, checked offline;
//   - the origin registry: the download document of one of the release's platforms names the
//     SHA256SUMS, its signature and the signing keys (RegistryClient).
// A list is used only when its signature is good (verifyDetachedSignature: private keyring, the
// release's own keys, optional pins); otherwise it is skipped with a warning that says why.

#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockMirror.h"
#include "model/registry/ReleaseSignature.h"
#include "model/verify/HashEngine.h"

#include <QString>
#include <QStringList>

namespace provender {

class RegistryClient;

struct ReleaseProvenanceReport
{
    int releases = 0;     ///< releases whose signed SHA256SUMS was used
    int hashes = 0;       ///< hashes added to the index
    QStringList warnings; ///< releases skipped, and why
};

/// ROOT/.provenance/HOST/NS/TYPE/VERSION (where `mirror pull` keeps a release's proof).
QString provenanceDirectory(const QString &mirrorRoot, const ProviderAddress &provider, const Version &version);

/// Adds the signed SHA256SUMS of every wanted release found under `mirrorRoot`/.provenance.
/// Releases without a provenance folder are skipped silently (most mirrors have none).
ReleaseProvenanceReport addMirrorProvenance(HashProvenanceIndex &index, const QString &mirrorRoot,
                                            const QList<HashProvenanceIndex::Wanted> &wanted, const SignatureOptions &options = {});

/// Asks each wanted provider's origin registry for the release's SHA256SUMS (through the
/// download document of the first platform it lists for that version), checks the signature and
/// adds the list. Blocking (RegistryClient runs a local event loop): call it from a worker.
ReleaseProvenanceReport addRegistryProvenance(HashProvenanceIndex &index, RegistryClient &client,
                                              const QList<HashProvenanceIndex::Wanted> &wanted, const SignatureOptions &options = {});

/// Where every hash of the wanted provider versions comes from, as `lock diff --mirror` and the
/// lock windows show it: the archives of `mirror` (lockMirrorHasher: a directory's hashed in one
/// engine run with `hashing` — its threads, cache and progress —, a network mirror's downloaded
/// and checked against its index, only packages terraform would install giving hashes) and, for
/// a directory, the signed SHA256SUMS its `.provenance/` keeps (addMirrorProvenance). Blocking:
/// call it from a worker; a network `mirror` holds what provenanceVersions(wanted) reads.
struct LockProvenance
{
    HashProvenanceIndex index;
    QStringList warnings;   ///< provenance lists skipped, and why
    HashRunSummary hashing; ///< the engine run (cache warning, counts)
};
LockProvenance buildLockProvenance(const LockMirror &mirror, const QList<HashProvenanceIndex::Wanted> &wanted,
                                   const HashRunOptions &hashing, const SignatureOptions &signature = {});

} // namespace provender
