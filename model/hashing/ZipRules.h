#pragma once
// The zip rules that the file hasher (ZipHasher.cpp, random access through the central directory)
// and the streaming hasher (StreamingZipHasher.cpp, one front-to-back pass) share: how a name is
// read (directory, unsafe, where go-getter extracts it) and how the per-entry digests combine into
// h1Zip and h1Extracted (tofu-formats.md §3.3-§3.5). Internal to provender_hashing; the interop
// tests (tst_interop_hash, tst_interop_bundle) prove them against terraform.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QByteArray>
#include <utility>
#include <vector>

namespace provender::hashing_detail {

/// Go's archive/zip FileHeader.Mode(): the creator OS decides how the external attributes are read.
bool attributesSayDirectory(quint32 versionMadeBy, quint32 externalAttrs);

/// go-getter's containsDotDot: a ".." component, components split on '/' and '\'.
bool containsDotDot(const QByteArray &name);

/// Absolute (`/x`, `\x`, `C:x`) or with a `..` component (split on '/' and '\', as go-getter's
/// containsDotDot does).
bool isUnsafeName(const QByteArray &name);

/// The path, relative to the extraction folder, that filepath.Join(dst, name) gives on Unix:
/// empty and "." components dropped, ".." pops (never above the folder; terraform refuses such
/// archives anyway), backslashes are ordinary characters. Empty result: the folder itself.
QByteArray extractedName(const QByteArray &name);

/// An entry's declared uncompressed size as it counts towards the inflate budget and the progress
/// total (capped, so that a sum of hostile sizes cannot overflow).
inline quint64 cappedDeclaredSize(quint64 uncompressedSize)
{
    return qMin<quint64>(uncompressedSize, quint64(1) << 62);
}

/// One central-directory entry, in directory order, with the SHA-256 of its content.
struct ZipEntryDigest
{
    QByteArray name;
    bool dirByName = false; ///< name ends in '/': Go's Open() returns no data for it
    bool dirByMode = false; ///< external attributes say directory: go-getter makes a directory
    quint64 uncompressedSize = 0;
    QByteArray digest; ///< raw SHA-256 of the content; ignored (empty content) when dirByName
};

/// What both hashers keep of a central-directory entry (the file hasher reads it through minizip,
/// the streaming hasher from the bytes): its name and how the name reads, its header fields.
struct ZipCentralEntry
{
    QByteArray name;
    quint32 flags = 0;
    quint32 method = 0;
    quint32 crc = 0;
    quint64 compressedSize = 0;
    quint64 uncompressedSize = 0;
    bool dirByName = false; ///< name ends in '/': Go's Open() returns no data for it
    bool dirByMode = false; ///< external attributes say directory: go-getter makes a directory

    /// Sets `name` and whether it is a directory, by its name and by the creator's attributes.
    void setName(QByteArray entryName, quint32 versionMadeBy, quint32 externalAttrs)
    {
        name = std::move(entryName);
        dirByName = name.endsWith('/');
        dirByMode = attributesSayDirectory(versionMadeBy, externalAttrs);
    }
    /// This entry with the SHA-256 of its content, as combineZipDigests() takes it.
    ZipEntryDigest withDigest(QByteArray digest) const { return {name, dirByName, dirByMode, uncompressedSize, std::move(digest)}; }
};

/// Combines the digests of every entry of a zip as dirhash.HashZip and go-getter + dirhash.HashDir
/// do. Sets `out`'s hasDirectoryEntries, unsafeNames, h1Zip or h1ZipError, extractionProblem,
/// executableCandidates and h1Extracted; leaves the other fields alone.
Result<void> combineZipDigests(const std::vector<ZipEntryDigest> &entries, PackageHashes &out);

} // namespace provender::hashing_detail
