#pragma once
// Reviewed lock files as trust anchors (docs/VERDICTS.md "Trust anchors"): `verify --lock`,
// `bundle verify --lock`, `bundle import --lock --require-lock` and the browser's "Check against
// lock files…" read one or more `.terraform.lock.hcl` files into the expected hashes per provider
// version, remembering which file vouches for which entry.

#include "model/core/Result.h"
#include "model/verify/VerifyTypes.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace provender {

struct LockAnchors
{
    QStringList files;                       ///< absolute paths, as given
    ExpectedHashes expected;                 ///< union of the files' hashes per provider version
    QHash<ProviderVersionKey, QString> from; ///< which file(s) ", "-joined, per provider version
    QStringList warnings;                    ///< the files' parse errors (file:line:column: …)

    /// Into options (expected, expectedFrom, lockCoverage = true): VerifyOptions or any options
    /// with those three members (network, OCI, bundle).
    template<typename Options> void applyTo(Options &options) const
    {
        options.expected = expected;
        options.expectedFrom = from;
        options.lockCoverage = true;
    }

    /// The providers the files lock, appended to `providers` where missing (in the order of
    /// `expected`), and each one's locked versions: what `verify URL --lock` and
    /// `oci verify --lock` verify.
    QHash<ProviderAddress, QList<Version>> lockedVersions(QList<ProviderAddress> *providers) const;
};

/// Reads every file (an unreadable file fails the whole call: a reviewed anchor that cannot be
/// read must not silently check nothing). Parse errors in a file are warnings; what could be read
/// counts.
Result<LockAnchors> readLockAnchors(const QStringList &files);

} // namespace provender
