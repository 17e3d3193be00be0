#pragma once
// The signed provenance of a release, as a source keeps it next to its archives (a pulled
// mirror's `.provenance/HOST/NS/TYPE/VERSION/`, a bundle's copy of it; docs/REGISTRY.md
// "Provenance"): the outcome of checking `SHA256SUMS.sig` over `SHA256SUMS` (done once per
// release, offline, by model/registry's ReleaseProvenanceStore) and the lines of that SHA256SUMS.
//
// applySignedRelease() is the verdict rule for it (docs/VERDICTS.md "Signed provenance"), applied
// by completeFromRead() after decideArchive()/decideBundleArchive(): the one place verdicts are
// decided stays model/verify.

#include "model/core/Platform.h"
#include "model/core/Sha256Sums.h"
#include "model/core/Version.h"
#include "model/hashing/PackageHashes.h"
#include "model/verify/Verdict.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

struct SignedRelease
{
    QString document;               ///< the SHA256SUMS: a path, or `<bundle>!/<entry>`
    bool valid = false;             ///< the signature is good (by a listed key; pinned when keys are pinned)
    QString keyId;                  ///< the signing primary key's 64-bit ID (upper-case hex)
    QString fingerprint;            ///< the signing primary key's fingerprint
    QStringList userIds;            ///< the signing key's user IDs
    QString reason;                 ///< why the signature is not good ("" when valid)
    QList<Sha256SumsEntry> entries; ///< the lines of the SHA256SUMS (empty when it is not one)
};

/// The anchor of an archive a good signature vouches for: kind Signature, the SHA256SUMS as
/// document, the key ID and the first user ID.
TrustAnchor signatureAnchor(const SignedRelease &release);

/// The signed SHA256SUMS of the archive's release decides too (terraform's order for a registry
/// package: the checksum list's line for the archive, the archive's SHA-256, the signature):
///   - verdicts other than Verified/Unverified stay (a Mismatch, Refused, Missing or Error is
///     already a finding), and so does an unpacked package (no zip bytes to compare);
///   - a signature that is not good → Refused with its reason (bad signature, unknown, unpinned,
///     expired or revoked key);
///   - no line for the archive's platform → Refused ("checksum list has no SHA-256 hash for …");
///   - a line with another sum (or the bytes listed as another platform's) → Mismatch;
///   - the archive's zh: on its platform's line → Verified, with the signature anchor (after a
///     lock file's, before the source's own).
void applySignedRelease(VerdictDetail &d, const PackageHashes &computed, const QString &providerType, const Version &version,
                        const Platform &platform, const SignedRelease &release);

} // namespace provender
