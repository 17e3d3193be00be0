#pragma once
// Lock × mirror: can this mirror satisfy this lock file? Per locked provider: is its version in
// the mirror, for which platforms, and does each archive match one of the lock's hashes
// (verifyAgainstLock: the lock lists hashes of every platform, so one match verifies)?
// The result is a provider × platform matrix of verdicts (it feeds the coverage view).

#include "model/core/Platform.h"
#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"
#include "model/verify/Verdict.h"

#include <QList>

#include <optional>

namespace provender {

struct LockCheckCell
{
    Platform platform;
    VerdictDetail detail; ///< verdict + which hash matched / why not
    QString archivePath;  ///< "" when missing
    std::optional<PackageHashes> hashes;

    Verdict verdict() const { return detail.verdict; }
};

struct LockCheckRow
{
    ProviderAddress address;
    Version version;
    bool providerInMirror = false;
    bool versionInMirror = false;
    QList<Platform> mirrorPlatforms; ///< platforms the mirror has installable archives of, for this version
    QList<LockCheckCell> cells;      ///< one per LockCheckResult::platforms, same order
};

struct LockCheckResult
{
    QList<Platform> platforms; ///< the matrix columns
    QList<LockCheckRow> rows;  ///< one per locked provider, in lock order

    int count(Verdict v) const;
    /// Any mismatch, missing or error (the CLI's exit 1).
    bool hasFindings() const;
};

struct LockCheckOptions
{
    /// Columns. Empty: every platform the mirror has for any locked version.
    QList<Platform> platforms;
    ArchiveHasher hasher; ///< default: directArchiveHasher()
};

LockCheckResult checkLockAgainstMirror(const LockFile &lock, const Catalog &mirror, const LockCheckOptions &options = {});

} // namespace provender
