#pragma once
// h1: and zh: of provider packages, bit-for-bit like tofu/terraform (tofu-formats.md §3).

#include "model/core/HashString.h"
#include "model/core/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace provender {

/// Called now and then while hashing. `done`/`total` are bytes of this package (total is the
/// file size for zh, the sum of uncompressed entry sizes + the file size for a zip, the sum of
/// file sizes for a directory). Return false to cancel: the call then fails with ErrorCode::Cancelled.
using HashProgress = std::function<bool(qint64 done, qint64 total)>;

struct PackageHashes
{
    enum class Kind { Zip, Directory };
    Kind kind = Kind::Zip;

    HashString zh;          ///< zip only: `zh:` = SHA-256 hex of the zip file bytes
    HashString h1Zip;       ///< zip only: dirhash.HashZip — every central-directory entry, dirs as empty
    QString h1ZipError;     ///< zip only: why h1Zip is null (Go's HashZip would fail, e.g. a directory entry with data)
    HashString h1Extracted; ///< zip: the folder terraform would extract it to; directory: HashDir

    /// zip: entries that are directories (name ending in '/' or directory attributes). h1Zip and
    /// h1Extracted then differ, both legitimately; duplicate or uncleaned names also make them differ.
    bool hasDirectoryEntries = false;
    /// zip: why terraform/tofu would refuse to install (extract) this archive, e.g.
    /// `entry contains '..': ../x`, `empty archive`, a path that is both a file and a directory.
    /// Empty when it extracts. h1Extracted is still computed (names cleaned, `..` never escaping).
    QString extractionProblem;
    QStringList unsafeNames; ///< zip entry names with `..` components or absolute paths (hashed as names, flagged)
    /// Files at the top of the package (for a zip: of the folder it extracts to) whose names begin
    /// with `terraform-provider-`, sorted byte-wise: where the installer looks for the provider's
    /// executable (providercache CachedProvider.ExecutableFile; see installProblem in Verdict.h).
    QStringList executableCandidates;
    qint64 fileSize = 0;     ///< bytes of the zip file (0 for a directory)
    qint64 contentBytes = 0; ///< uncompressed bytes hashed
    int entryCount = 0;      ///< zip: central-directory entries; directory: files
};

/// What hashing one zip may cost at most (zip bombs). Real provider zips have 1-5 entries and
/// inflate to well under 1 GiB (the largest, aws, ~0.7 GiB); the defaults are ten times beyond that
/// and more (docs/ARCHITECTURE.md "Hashing"). A zip beyond a limit is refused before any byte is
/// inflated: ErrorCode::Unsupported, the message naming the limit and how to raise it.
struct ZipLimits
{
    /// Central-directory entries (the end record's count is checked before the directory is read).
    qint64 maxEntries = 10000;
    /// The sum of the entries' declared uncompressed sizes. hashZip() never inflates an entry past
    /// its declared size, so this bounds the bytes inflated (and the time taken) for the archive.
    qint64 maxInflatedBytes = qint64(8) << 30;
};

/// The limits hashZip() uses when the caller gives none: ZipLimits{}, or what the environment
/// sets once per process (PROVENDER_ZIP_MAX_ENTRIES, PROVENDER_ZIP_MAX_INFLATE_BYTES: positive
/// integers), or the last setDefaultZipLimits().
ZipLimits defaultZipLimits();
void setDefaultZipLimits(const ZipLimits &limits);

/// zh:, h1Zip and h1Extracted of a zip in one call. Memory stays bounded whatever the entries'
/// sizes. Corrupt, truncated, encrypted or unsupported-method zips give ErrorCode::CorruptArchive
/// or ErrorCode::Unsupported with the reason. Entries whose compressed data overlap (one stream
/// inflated again and again under several names: the "overlapping zip bomb") are CorruptArchive;
/// a zip beyond `limits` is Unsupported (see ZipLimits).
Result<PackageHashes> hashZip(const QString &zipPath, const HashProgress &progress = {});
Result<PackageHashes> hashZip(const QString &zipPath, const HashProgress &progress, const ZipLimits &limits);

/// h1: of an unpacked package directory (dirhash.HashDir; symlinks followed for content only).
Result<PackageHashes> hashDirectory(const QString &dirPath, const HashProgress &progress = {});

/// Directory -> hashDirectory, anything else -> hashZip.
Result<PackageHashes> hashPackage(const QString &path, const HashProgress &progress = {});

/// zh: of any file (SHA-256 hex of its bytes).
Result<HashString> hashFileZh(const QString &path, const HashProgress &progress = {});

/// h1: from an already-built list of (name, sha256 raw digest) pairs; names are sorted byte-wise
/// here. Exposed for tests and for callers that hash contents themselves.
struct DirhashEntry
{
    QByteArray name; ///< UTF-8 bytes, `/` separated
    QByteArray sha256;
};
Result<HashString> dirhash1(QList<DirhashEntry> entries);

/// The executableCandidates of a package from the paths of its (extracted) files.
QStringList executableCandidatesOf(const QList<QByteArray> &filePaths);

} // namespace provender
