#pragma once
// "Add to Lock File…" from a selection in the mirror browser, as pure functions (no widgets):
// which provider versions and platforms a set of selected archives names, and the lock document
// that results from recording those versions' hashes the way `terraform providers lock
// -fs-mirror=DIR -platform=...` does (h1: of each archive's extracted content; zh: optionally).

#include "model/core/Platform.h"
#include "model/core/Result.h"
#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"

namespace provender {

/// One provider version of a selection, with the platforms of its selected archives.
struct LockSelectionItem
{
    ProviderAddress provider;
    Version version;
    QList<Platform> platforms; ///< sorted, de-duplicated
};

/// The provider versions the archives at `archivePaths` (absolute, as Archive::path) belong to,
/// in catalog order. Paths the catalog does not know are ignored.
QList<LockSelectionItem> lockSelectionFromArchives(const Catalog &catalog, const QStringList &archivePaths);

/// Every platform the selected versions have an installable archive for, sorted.
QList<Platform> availablePlatforms(const Catalog &catalog, const QList<LockSelectionItem> &selection);

struct AddToLockOptions
{
    QList<Platform> platforms; ///< required
    bool includeZh = false;
    ArchiveHasher hasher; ///< default: directArchiveHasher()
};

struct AddToLockResult
{
    LockFile document;
    QList<lockedit::MirrorHashNote> hashNotes; ///< from lockedit::addHashesFromMirror
    QStringList problems;                      ///< one line each: what was not done and why
    QStringList actions;                       ///< one line each: provider added / version changed
};

/// For each selected provider: lock it at the selected version when it is not locked yet (no
/// constraints), move it to the selected version when it is locked at another one and its
/// recorded constraints allow it (the old version's hashes are dropped, as tofu does when it
/// selects another version), then add the hashes of `options.platforms` from the mirror.
/// A provider selected at two versions, or whose constraints exclude the selected version, is a
/// problem and left as it is. Fails with InvalidArgument when no platform or nothing is selected.
Result<AddToLockResult> addSelectionToLock(const LockFile &doc, const Catalog &catalog, const QList<LockSelectionItem> &selection,
                                           const AddToLockOptions &options);

} // namespace provender
