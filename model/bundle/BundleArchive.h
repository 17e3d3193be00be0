#pragma once
// Sequential reading of a bundle's container with libarchive, and the checks every entry passes
// before anything looks at its data. Internal to provender_bundle (the public API is
// BundleMirror.h, BundleWriter.h, BundleImport.h).
//
// One reader for every format: libarchive's tar (ustar, pax, GNU) behind any of its
// decompression filters, and its *seekable* zip reader, which trusts the central directory (as
// Go and minizip do), not the local headers. The format is chosen from the first bytes
// (`PK\3\4` / `PK\5\6`: zip; anything else: tar behind whatever filter libarchive recognises),
// never from the file name.

#include "model/bundle/BundleFormat.h"
#include "model/core/Result.h"
#include "model/hashing/StreamingZipHasher.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QFileDevice>
#include <QHash>
#include <QString>

#include <memory>
#include <optional>

struct archive;
struct archive_entry;

namespace provender::bundle_detail {

struct BundleEntry
{
    enum class Type { File, Directory, Symlink, Hardlink, Special };
    Type type = Type::File;
    QByteArray rawName; ///< as stored
    QString name;       ///< checked and cleaned: no `./`, no empty components, no trailing `/`
    qint64 size = 0;    ///< declared size (files); 0 when unknown
    bool sizeKnown = false;
    QDateTime modified; ///< UTC; invalid when the entry has none
    int mode = 0644;    ///< permission bits
    QString linkTarget; ///< symbolic links: the target as stored; hard links: the cleaned name of
                        ///< the earlier file it is a copy of (runBundlePass resolves chains)
    bool encrypted = false;
    QString refused; ///< set by runBundlePass on a file it listed but did not read (beyond a limit): why
};

/// Opens a bundle file and steps through its entries. Not copyable; one pass.
class BundleReader
{
public:
    BundleReader();
    ~BundleReader();
    BundleReader(const BundleReader &) = delete;
    BundleReader &operator=(const BundleReader &) = delete;

    /// NotFound / Io when the file cannot be opened; CorruptArchive when it is neither a tar
    /// (plain, gzip, xz or zstd) nor a zip; Unsupported when it is compressed with anything else
    /// (bzip2, lzop, lrzip, lz4, ...). Only libarchive's gzip, xz and zstd filters are enabled, and
    /// only when they decompress in-process: libarchive falls back to running an external program
    /// for some filters (always for lrzip, grzip; for lzop, lz4, bzip2 without their libraries),
    /// and Provender never runs one on a bundle.
    Result<void> open(const QString &path);

    /// The container as detected (Tar* from the compression filter, or Zip).
    BundleFormat format() const { return m_format; }
    qint64 fileSize() const { return m_fileSize; }
    /// Bytes of the bundle file consumed so far (for progress).
    qint64 bytesConsumed() const;

    /// Reads the next header into `entry` (rawName, type, size, ...; `name` is left to
    /// checkEntryName). false at the end. CorruptArchive on a damaged or truncated container.
    Result<bool> next(BundleEntry &entry);

    /// The next block of the current entry's data; an empty view at its end. Sparse holes are
    /// returned as zeros. The view stays valid until the next call.
    Result<QByteArrayView> readBlock();

private:
    Error archiveError(const QString &what) const;

    struct archive *m_archive = nullptr;
    BundleFormat m_format = BundleFormat::Tar;
    qint64 m_fileSize = 0;
    qint64 m_position = 0; ///< offset in the current entry's data
    qint64 m_pendingHole = 0;
    const void *m_pendingBlock = nullptr;
    std::size_t m_pendingSize = 0;
    std::unique_ptr<char[]> m_zeros;
};

/// Checks an entry's name and type (not its size) and fills `entry.name`. Returns the problem
/// when the entry must be refused or skipped. Rules (docs/BUNDLES.md): no absolute paths, no
/// drive letters, no `..` component (split on `/` and `\`), no control characters, valid UTF-8;
/// links must resolve inside the bundle; devices, FIFOs and sockets are refused.
std::optional<BundleEntryProblem> checkEntry(BundleEntry &entry);

/// Remembers the names seen so far and refuses a second entry of the same name, a name that is
/// both a file and a directory, and two different names that are one on a case-insensitive or
/// normalizing file system (macOS, Windows): equal after Unicode canonical caseless matching,
/// NFD(toCasefold(NFD(name))), with ICU. Every path counts, the parents an entry implies too.
/// Directory entries may repeat.
class DuplicateGuard
{
public:
    std::optional<BundleEntryProblem> add(const BundleEntry &entry);

private:
    std::optional<BundleEntryProblem> addFolded(const QString &path, const BundleEntry &entry);

    QHash<QString, bool> m_names; ///< name -> is a directory (explicit or implied)
    struct Folded
    {
        QString path;  ///< the path as the first entry gave it
        QString entry; ///< that entry, for messages
    };
    QHash<QString, Folded> m_folded; ///< caseless key -> first path with it
};

/// Name of the entry for messages: as stored, lossy UTF-8, with bidirectional control characters
/// shown as `<U+202E>` (so that the message itself cannot be reordered by them).
QString displayEntryName(const QByteArray &raw);
QString displayEntryName(const QString &name);

/// What one pass over a bundle found.
struct BundlePass
{
    BundleFormat format = BundleFormat::Tar;
    qint64 fileSize = 0;
    int entryCount = 0;
    qint64 contentBytes = 0;             ///< sum of the accepted files' sizes
    QList<BundleEntry> entries;          ///< accepted entries (files, directories, in-bundle links), in
                                         ///< order; also files refused for their size (`refused` set, not read)
    QList<BundleEntryProblem> problems;  ///< refused or skipped entries
    QHash<QString, QByteArray> metadata; ///< contents of the entries `isMetadata` chose, by name
};

/// Steps through every entry of an opened reader: checks each name and type, refuses duplicates,
/// enforces `limits`, reads the metadata files into memory and hands every accepted file to
/// `onFile` with a PullBytes that serves its data (bounded by its declared size and the limits: an
/// entry that inflates further becomes a TooLarge problem, not an error). `onFile` may read all,
/// part or none of the data; setting `*refused` makes the entry a TooLarge problem with that
/// message and stops reading (an import out of disk space). A hard link to an earlier file is
/// handed over too, as type Hardlink with `linkTarget` the file it copies and an empty PullBytes:
/// the handler reuses what it kept of that file. Fails on a damaged container, an error `onFile`
/// returns, or cancel (`progress` with BundleStage::Reading, bytes of the bundle file). Reading
/// stops at the total limit (the rest is one problem), and with `stopAtFatal` at the first fatal
/// problem. `limits.maxTotalBytes` 0 is automaticTotalBytes() of the bundle's size.
using FileHandler = std::function<Result<void>(const BundleEntry &entry, const PullBytes &pull, QString *refused)>;
Result<BundlePass> runBundlePass(BundleReader &reader, const BundleLimits &limits,
                                 const std::function<bool(const QString &name)> &isMetadata, const FileHandler &onFile,
                                 const BundleProgress &progress, bool stopAtFatal = false);

/// Writes an entry's bytes (`pull` to its end) to `out` and flushes it: the spool behind hashZip()
/// and openArchive(). A short write or a failed final flush is an Io error naming the file.
Result<void> spoolEntry(const PullBytes &pull, QFileDevice &out);

/// Splits a cleaned name on '/'.
inline QStringList nameParts(const QString &name)
{
    return name.split(QLatin1Char('/'));
}

} // namespace provender::bundle_detail
