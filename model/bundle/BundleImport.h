#pragma once
// Importing a bundle into a filesystem-mirror directory: verify, plan, merge — all or nothing.
//
//   importBundle(bundle, target, {dryRun = true})   extract the bundle's archives into a staging
//        area inside the target (never anywhere else), verify them there (hashes against the
//        bundle's indexes and SHA256SUMS), and compare them with the target: each archive is
//        added, unchanged, replaced (only with `replace`), a conflict, or rejected (not verified).
//        Nothing in the target changes; the staging area is removed.
//   importBundle(bundle, target, {})                 the same, then, when nothing is a conflict or
//        rejected and no entry was refused, merge: see below.
//   recoverInterruptedImport(target)                 finish or undo an import that was killed;
//        importBundle() calls it first.
//
// Merge protocol (docs/BUNDLES.md "Import safety"), everything under `<target>/.provender-import/`
// on the target's own file system:
//   1. A lock (flock(2), released by the kernel when its holder dies) keeps a second import out.
//   2. Every provider directory the import changes gets a complete new copy in staging: existing
//      files hard-linked (copied when links are impossible; index documents always copied), the
//      new archives moved in, indexes regenerated there (exportIndexes). A provider directory, or
//      its HOST or NAMESPACE parent, that does not exist yet is staged whole.
//   3. A journal (written atomically, fsynced) lists each swap: target path, staged path, and the
//      inode numbers of the old and new directory. State `prepared`.
//   4. Each existing directory is swapped with its staged copy by one renameat2(RENAME_EXCHANGE)
//      (or two renames where the file system lacks it); new ones are renamed into place.
//   5. The journal's state becomes `committed` (atomically); then the old copies and the staging
//      area are removed.
// The proof of a release the bundle carries (`.provenance/HOST/NS/TYPE/VERSION/`) is checked with
// the archives (a signature that is not good, or an archive it does not vouch for, rejects the
// import) and, when good, goes into the target with them: `.provenance/HOST/NS/TYPE` is one more
// directory of step 2, swapped or created in the same transaction.
// Killed anywhere: before 5 the journal says `prepared`, and recovery moves every directory whose
// inode is the new one back out and the old one back in (found by inode among the three paths it
// can be at); after 5 recovery only removes what is left. Either way the target ends exactly as
// before the import, or exactly as after it, and the hidden work directory is gone.

#include "model/bundle/BundleFormat.h"
#include "model/bundle/BundleMirror.h"
#include "model/verify/VerifyTypes.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

struct ImportOptions
{
    BundleLimits limits; ///< maxTotalBytes 0: automatic, and at most the free space beyond minFreeBytes
    /// Space the import leaves free on the target's file system: free space is checked before
    /// every staged file (against its declared size) and every 64 MiB written; an entry that would
    /// go below it refuses the import (a too-large problem), before the disk fills.
    qint64 minFreeBytes = qint64(1) << 30;
    bool dryRun = false;          ///< plan only; the target is left exactly as it was
    bool replace = false;         ///< a different file at the same path is replaced instead of being a conflict
    bool allowUnverified = false; ///< import archives nothing declares a hash for (otherwise rejected)
    bool withZh = false;          ///< regenerated indexes list zh: too (default: as `terraform providers mirror`)
    int jobs = 0;                 ///< hashing threads; 0 = all cores
    bool useCache = true;         ///< the target's own archives (compared with the bundle's) through the hash cache
    QString cacheFile;            ///< "" = HashCache::defaultPath()
    /// Reviewed lock files to check the archives against (as VerifyOptions).
    ExpectedHashes expected;
    QHash<ProviderVersionKey, QString> expectedFrom;
    bool lockCoverage = false;
    /// Import only archives a lock hash vouches for (needs `expected`); everything else is Rejected.
    bool requireLock = false;
    /// Keys the user pins for the signatures of the bundle's `.provenance/` (empty: the keys kept
    /// next to the sums).
    QList<QByteArray> pinnedKeys;
};

struct ImportAction
{
    enum class Kind {
        Add,       ///< new in the target
        Unchanged, ///< the target already has the same bytes (or the same package under another name)
        Replace,   ///< a different file at the same path, replaced (ImportOptions::replace)
        Conflict,  ///< the target has something different for it: nothing is imported
        Rejected,  ///< not verified in the bundle (mismatch, error, unverified): nothing is imported
        Skipped,   ///< a duplicate copy inside the bundle: not imported (installers use the first)
    };
    Kind kind = Kind::Add;
    ArchiveKey key;
    ArchiveLayout layout = ArchiveLayout::Packed;
    QString entry;                      ///< the archive's entry name in the bundle
    QString targetPath;                 ///< absolute path it is (or would be) written to
    QString existingPath;               ///< Unchanged/Replace/Conflict: what the target has
    Verdict verdict = Verdict::Pending; ///< in the bundle
    QString reason;
    qint64 size = 0;
};
QString toString(ImportAction::Kind kind); ///< "add", "unchanged", "replace", "conflict", "rejected", "skipped"

struct ImportReport
{
    QString bundle;
    QString target;
    bool dryRun = false;
    bool committed = false; ///< the target was changed
    QString refusal;        ///< why nothing was imported ("" when imported or nothing to do)
    QString recovery;       ///< what recoverInterruptedImport() did first ("" when nothing)
    QList<ImportAction> actions;
    QList<BundleEntryProblem> problems; ///< refused entries (any fatal one refuses the import)
    QList<BundleFileCheck> files;       ///< SHA256SUMS checks
    QList<Anomaly> anomalies;           ///< of the bundle's mirror tree (paths as `<bundle>!/<entry>`)
    QStringList indexFiles;             ///< index documents written (absolute paths)
    qint64 bytesStaged = 0;

    int count(ImportAction::Kind kind) const;
    /// A conflict, a rejected archive, a fatal entry problem or a SHA256SUMS failure.
    bool blocked() const;
};

/// Verifies, plans and (unless options.dryRun or blocked) merges. Fails with an error (and leaves
/// the target as it was) when the bundle cannot be read (CorruptArchive: truncated, damaged), the
/// target is not a writable directory, another import holds the lock, on I/O errors and on cancel.
/// A bundle that is blocked is not an error: the report says why (`refusal`).
Result<ImportReport> importBundle(const QString &bundlePath, const QString &targetDir, const ImportOptions &options = {},
                                  const BundleProgress &progress = {});

/// Rolls back (journal `prepared`) or finishes (journal `committed`) an interrupted import of
/// `targetDir` and removes its work directory. Returns what it did ("" when there was nothing).
/// Fails when another import is running or a directory cannot be moved back (the journal is then
/// kept for a later attempt).
Result<QString> recoverInterruptedImport(const QString &targetDir);

/// The hidden work directory an import uses inside the target: `.provender-import`.
inline constexpr QLatin1StringView kImportWorkDirName(".provender-import");

} // namespace provender
