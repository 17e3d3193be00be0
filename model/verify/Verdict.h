#pragma once
// One vocabulary everywhere: badges, CLI, JSON, tests (DESIGN.md "Verdicts", docs/VERDICTS.md).
//
// A verdict is the *install outcome*: would tofu/terraform install this package from this source,
// and against what was that decided (the trust anchor). The rules are theirs, read from
// internal/getproviders and internal/providercache and checked against terraform 1.11 by
// tests/interop/tst_interop_verdicts.cpp; docs/VERDICTS.md has the rule table.

#include "model/core/HashString.h"
#include "model/hashing/PackageHashes.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace provender {

/// Refused: the hashes are fine (or not checked) but terraform would still not install the
/// package — it cannot be extracted, has no provider executable, or the source's hashes are all of
/// schemes terraform does not support. Appended last so stored ints of older values stay valid.
enum class Verdict { Pending, Verified, Mismatch, Unverified, Missing, Error, Refused };
inline constexpr int kVerdictCount = 7;

/// Which computed hash a declared hash matched.
enum class HashMatch { H1Zip, H1Extracted, ZH };

/// What a verdict was checked against.
struct TrustAnchor
{
    enum class Kind {
        OwnIndex,     ///< the source's own index documents (`<version>.json` of a mirror or a bundle)
        OwnChecksums, ///< a bundle's own SHA256SUMS
        LockFile,     ///< a dependency lock file the user gave (reviewed elsewhere)
        Signature,    ///< a good signature over a release's SHA256SUMS (model/verify/SignedRelease.h)
    };
    TrustAnchor() = default;
    /// An anchor of kind `k` in `doc`; keyId and signer stay empty (signatureAnchor() sets them).
    TrustAnchor(Kind k, QString doc) : kind(k), document(std::move(doc)) {}

    Kind kind = Kind::OwnIndex;
    QString document; ///< the file or URL of the anchor ("" when not known)
    QString keyId;    ///< Signature: the signing key's ID
    QString signer;   ///< Signature: the signing key's (first) user ID

    bool operator==(const TrustAnchor &other) const = default;
    /// Only the source's own metadata: the package agrees with what came with it, nothing more.
    bool isSelfConsistencyOnly() const { return kind == Kind::OwnIndex || kind == Kind::OwnChecksums; }
};

struct VerdictDetail
{
    Verdict verdict = Verdict::Pending;
    QList<HashMatch> matched; ///< which computed hashes matched a declared one
    /// Declared h1:/zh: hashes that match nothing computed. With a Verified verdict this is an
    /// anomaly only ("the index declares a hash that matches no package"): terraform installs
    /// when one acceptable hash matches.
    QList<HashString> contradicting;
    QString reason; ///< why, in terraform's words where it refuses
    /// What the verdict was checked against; empty when nothing vouched (Unverified, Missing, Error).
    QList<TrustAnchor> anchors;
    /// Lock files were given (--lock) and none of them has an entry for this provider version.
    bool notCoveredByLock = false;
};

/// The hashes an index (`<version>.json` of a network mirror, of a directory served as one, or of a
/// bundle) declares, checked as terraform's network-mirror installer checks them
/// (getproviders.NewPackageHashAuthentication on the downloaded zip): of the declared h1:/zh:
/// ONE must match — h1: against the zip's own entries (dirhash.HashZip, `h1Zip`; NOT the extracted
/// folder), zh: against the zip's bytes. No declared hash: Unverified (terraform installs
/// unchecked). Only hashes of other schemes: Refused ("this version of Terraform does not support
/// any of the checksum formats given for this provider"). None matches: Mismatch. Declared
/// hashes that match nothing are listed in `contradicting` either way. An unpacked package
/// directory is checked by h1: against its HashDir (what terraform's local-directory check does).
VerdictDetail decideVerdict(const PackageHashes &computed, const QList<HashString> &declared);

/// A dependency lock file's hashes of this provider version, checked as terraform checks them at
/// install (providercache installFromLocalArchive / installFromLocalDir): only h1:/zh: count
/// (lock.PreferredHashes); none of them -> Unverified (terraform installs unchecked). A zip:
/// h1: against HashZip (`h1Zip`) or zh:; an unpacked directory: h1: against HashDir, and a lock
/// with only zh: hashes lets it pass unchecked (Unverified). None matches: Mismatch with
/// terraform's message. The lock lists every platform's hashes, so the others matching nothing is
/// normal (never `contradicting`).
VerdictDetail verifyAgainstLock(const PackageHashes &computed, const QList<HashString> &lockHashes);

/// Both apply (terraform checks the index's hashes, then the lock's): Missing/Error/Pending in
/// `index` win; else Mismatch if either is, Refused if either is, Verified if either verified,
/// else Unverified. Anchors of the verified sides are kept.
VerdictDetail combineVerdicts(const VerdictDetail &index, const VerdictDetail &lock);

/// Why terraform would not install a package it has the hashes of, in its words, or "" when it
/// would: the zip cannot be extracted (go-getter's error), or no file at the top of the package is
/// named `terraform-provider-<type>` optionally followed by `_…` or `.…` ("provider binary not
/// found: could not find executable file starting with terraform-provider-<type>"). Several
/// candidates are tolerated (the first in name order is used); the executable bit is not checked.
QString installProblem(const PackageHashes &computed, const QString &providerType);

/// `d` after the install-time content check: a Verified/Unverified verdict becomes Refused when
/// installProblem() says so (a Mismatch stays: terraform fails on the checksum first).
void applyInstallCheck(VerdictDetail &d, const PackageHashes &computed, const QString &providerType);

/// Everything an archive's verdict depends on, decided in terraform's order: the index's hashes
/// (`declared`, anchor `indexAnchor`), the lock's (`lock`, when given; anchor `lockAnchor`), then the
/// package content.
VerdictDetail decideArchive(const PackageHashes &computed, const QString &providerType, const QList<HashString> &declared,
                            const TrustAnchor &indexAnchor, const QList<HashString> *lock = nullptr,
                            const TrustAnchor &lockAnchor = TrustAnchor{TrustAnchor::Kind::LockFile, {}});

/// How an entry of a bundle fared against the bundle's own SHA256SUMS (packed: its line; unpacked:
/// the lines of its files).
enum class SumsCheck { NotListed, Match, Mismatch };

/// A bundle entry: decideArchive() where the bundle's SHA256SUMS is a second own anchor. A
/// SHA256SUMS mismatch is a Mismatch whatever the index says (the bundle is not what was packed);
/// a match verifies what the index leaves unverified.
VerdictDetail decideBundleArchive(const PackageHashes &computed, const QString &providerType, const QList<HashString> &declared,
                                  const TrustAnchor &indexAnchor, SumsCheck sums, const TrustAnchor &sumsAnchor,
                                  const QList<HashString> *lock = nullptr,
                                  const TrustAnchor &lockAnchor = TrustAnchor{TrustAnchor::Kind::LockFile, {}});

/// A downloaded archive that is not a readable zip (`error`; `zh` = SHA-256 of its bytes): what
/// terraform's hash check says first, in the index's order — an h1: stops at HashZip's error
/// (Refused), a zh: is compared (Mismatch when none matches); when the hashes pass or none is
/// declared, extraction fails (Error with `error`).
VerdictDetail decideUnreadableArchive(const HashString &zh, const QString &error, const QList<HashString> &declared);
/// Then the lock file's hashes, as terraform's installer compares them (PackageMatchesAnyHash, in
/// the lock's order): an h1: before a matching zh: fails to hash the package (refused), no zh:
/// equal to the bytes' is a mismatch in terraform's lock wording, a match leaves the extraction
/// error. A lock without h1:/zh: hashes changes nothing.
VerdictDetail decideUnreadableAgainstLock(const HashString &zh, const QString &error, const QList<HashString> &lock,
                                          const TrustAnchor &lockAnchor);

/// tofu's rule for a package whose source names its zh: before any download (an OCI mirror's
/// layer digest; OpenTofu package_location_oci_blob_archive.go:117-131): with a lock whose h1:/zh:
/// hashes do not include `digestZh`, installation fails before the download — Mismatch with tofu's
/// message (`package` = "ADDRESS VERSION"), or Error when the package's h1: (from `computed`, when
/// it was read) is in the lock: the lock lacks only the zh:, and tofu still refuses. nullopt when
/// the rule lets the package through (no h1:/zh: in the lock, or the digest is one of them).
std::optional<VerdictDetail> decideLockBeforeDownload(const HashString &digestZh, const QList<HashString> &lock,
                                                      const PackageHashes *computed, const QString &package);

/// terraform's failure for an index entry with hash strings it cannot parse (it fails installing
/// that platform before downloading): `d` becomes Refused. No-op when `invalidHashes` is empty.
void applyInvalidDeclaredHashes(VerdictDetail &d, const QStringList &invalidHashes, const QString &indexDocument);

QString toString(Verdict v);           ///< "verified", "mismatch", "unverified", "missing", "error", "pending", "refused"
QString toString(HashMatch m);         ///< "h1 (zip)", "h1 (extracted)", "zh"
QString toString(TrustAnchor::Kind k); ///< "own-index", "own-checksums", "lock-file", "signature"
/// "consistent with its own index (…/1.0.0.json)", "lock file /w/.terraform.lock.hcl",
/// "signed by 1A2B3C4D5E6F7A8B (Acme <r@acme.test>) (…/SHA256SUMS)", …
QString describe(const TrustAnchor &anchor);
/// All anchors of `d`, "; "-joined, or "nothing (no hash to check against)" when there is none.
QString describeAnchors(const VerdictDetail &d);
std::optional<Verdict> verdictFromString(QStringView s);
/// Every verdict, in enum order.
QList<Verdict> allVerdicts();

} // namespace provender
