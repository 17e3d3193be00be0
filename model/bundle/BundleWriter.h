#pragma once
// Writing a bundle: a mirror tree (archives as they are in the source mirror), freshly generated
// indexes, a manifest and a SHA256SUMS of every file, as one .tar.gz, .tar.zst or .zip.
//
//   1. choose what goes in: selectAll(), selectArchives() (a selection in the browser) or
//      selectForLockFiles() (exactly the versions and platforms some lock files need, with what
//      the mirror lacks in `missing`);
//   2. createBundle(): hashes the chosen archives (VerifyEngine, with the hash cache), refuses
//      archives whose hashes contradict their source index or the lock files, then streams
//      everything into a temporary file beside the output (QSaveFile) and renames it into place.
//      Each archive is re-hashed while it is copied; a file that changed since it was hashed
//      fails the bundle.
//
// Inside the bundle (docs/BUNDLES.md), at the root (no top-level folder, so that
// `tar -xf bundle.tar.gz -C mirror/` gives a ready filesystem mirror):
//
//   HOST/NS/TYPE/index.json, HOST/NS/TYPE/<version>.json    as `terraform providers mirror` writes
//   HOST/NS/TYPE/terraform-provider-TYPE_V_OS_ARCH.zip      packed archives
//   HOST/NS/TYPE/V/OS_ARCH/...                              unpacked packages
//   provender-bundle.json                                   the manifest
//   SHA256SUMS                                              last: every other file
//
// Entries are sorted by path; owners are 0, modes 0644/0755, every time is the manifest's
// creation time, the gzip header carries no time: with a fixed timestamp the same selection gives
// the same bytes.

#include "model/bundle/BundleFormat.h"
#include "model/mirror/Catalog.h"
#include "model/verify/VerifyTypes.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace provender {

/// One archive to put in a bundle.
struct BundleItem
{
    ProviderAddress provider;
    Version version;
    Archive archive;    ///< from the source Catalog (present)
    QString bundlePath; ///< where it goes in the bundle: its path relative to the mirror root
};

struct BundleSelection
{
    QString mirrorRoot;        ///< the source mirror directory
    QString mode;              ///< "all", "selection" or "lock-files" (the manifest's `selection`)
    QStringList lockFiles;     ///< absolute paths (lock-files mode)
    QList<Platform> platforms; ///< lock-files mode
    QList<BundleItem> items;   ///< sorted by bundlePath, unique
    QList<BundleShortfall> missing;
    ExpectedHashes expected; ///< the lock files' hashes per provider version (lock-file semantics)
};

/// Every present archive installers would use (duplicates and index-only files left out).
BundleSelection selectAll(const Catalog &catalog);
/// The archives named by `keys`; keys with no present archive become `missing`.
BundleSelection selectArchives(const Catalog &catalog, const QList<ArchiveKey> &keys);
/// The locked version of every provider of every lock file, for every platform; what the mirror
/// lacks becomes `missing` (one entry per provider version and platform). Fails when a lock file
/// cannot be read or has errors (the message quotes the first diagnostic), or no platform is given.
Result<BundleSelection> selectForLockFiles(const Catalog &catalog, const QStringList &lockFiles, const QList<Platform> &platforms);

struct BundleCreateOptions
{
    BundleFormat format = BundleFormat::TarGz; ///< TarGz, TarZst or Zip
    std::optional<QDateTime> timestamp;        ///< the manifest's `created` and every entry's time; default now
    int compressionLevel = -1;                 ///< -1: gzip 6, zstd 3, zip deflate 6 (zips inside are stored)
    bool withZh = true;                        ///< indexes list each archive's zh: after its h1:
    bool useCache = true;                      ///< answer unchanged archives from the hash cache
    QString cacheFile;                         ///< "" = HashCache::defaultPath()
    int jobs = 0;                              ///< hashing threads; 0 = all cores
};

struct BundleCreateReport
{
    QString path; ///< the bundle written
    BundleFormat format = BundleFormat::TarGz;
    BundleManifest manifest;
    qint64 fileSize = 0;                ///< bytes of the bundle
    qint64 contentBytes = 0;            ///< bytes of the archives copied
    QStringList files;                  ///< every file in the bundle, in order
    QList<ArchiveResult> sourceResults; ///< the source archives' verdicts (against their index and the lock files)
    QList<BundleShortfall> missing;     ///< from the selection
};

/// Writes the bundle atomically. Fails (nothing written) on I/O errors, cancel, an unwritable
/// format, an empty selection, or when a source archive is a mismatch or cannot be read (the
/// message names each one).
Result<BundleCreateReport> createBundle(const QString &outPath, const BundleSelection &selection, const BundleCreateOptions &options = {},
                                        const BundleProgress &progress = {});

} // namespace provender
