#pragma once
// What every part of the bundle code shares: the container formats, how an entry inside a bundle
// is named in a Catalog (`<bundle>!/<entry>`), the limits that bound what a hostile bundle can
// make us inflate, progress/cancel, the problems an entry can have, and the two metadata files a
// Provender bundle carries beside the mirror tree (docs/BUNDLES.md):
//
//   provender-bundle.json   the manifest: what, from where, when, by which Provender
//   SHA256SUMS              `<sha256 hex>  <path>` for every other file, `sha256sum -c` compatible

#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/mirror/Catalog.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <functional>
#include <optional>

namespace provender {

enum class BundleFormat { Tar, TarGz, TarXz, TarZst, Zip };

QString toString(BundleFormat format);                             ///< "tar", "tar.gz", "tar.xz", "tar.zst", "zip"
std::optional<BundleFormat> bundleFormatFromString(QStringView s); ///< also "tgz", "tzst", "txz"
/// From a file name's suffix (`.tar.gz`, `.tgz`, `.tar.zst`, `.tzst`, `.tar.xz`, `.txz`, `.tar`, `.zip`).
std::optional<BundleFormat> bundleFormatFromFileName(const QString &fileName);
/// The formats createBundle() writes (tar.gz, tar.zst, zip).
bool isWritableBundleFormat(BundleFormat format);

/// The separator between a bundle's path and an entry inside it: `/media/usb/b.tar.gz!/host/ns/type/file.zip`.
inline constexpr QLatin1StringView kBundleEntrySeparator("!/");
/// `<bundle>!/<entry>`: how archives inside a bundle are named in Catalog and ArchiveResult paths.
QString bundleEntryPath(const QString &bundlePath, const QString &entryName);
/// Splits a path made by bundleEntryPath(): at the first `!/` whose left part ends in a bundle
/// suffix (`.tar.gz`, `.zip`, ...), else at the first `!/`. False when `path` has no separator.
bool splitBundleEntryPath(const QString &path, QString *bundlePath, QString *entryName);

inline constexpr QLatin1StringView kBundleManifestName("provender-bundle.json");
inline constexpr QLatin1StringView kBundleSumsName("SHA256SUMS");

/// Bounds on what reading a bundle may inflate. Hashing streams and needs no bound for memory;
/// these keep a bomb (a zip, or a tar behind gzip/xz/zstd) from filling the disk (import) or
/// running for hours (verify). The provider zips inside a bundle are hashed within the zip limits
/// of model/hashing (ZipLimits: entries and inflated bytes per archive) besides these.
struct BundleLimits
{
    /// Largest entry, inflated. No provider package comes near it (the largest are ~1 GiB unpacked).
    qint64 maxEntryBytes = qint64(4) << 30;
    /// Sum of the entries inflated. 0: automatic, automaticTotalBytes() of the bundle's size
    /// (for an import also at most the free space of the target's file system, see ImportOptions).
    qint64 maxTotalBytes = 0;
    /// Entries read (each costs a name and a digest in memory: a few hundred bytes).
    qint64 maxEntries = 1000000;
    /// SHA256SUMS, the manifest and the index documents are held in memory: at most this much in all.
    qint64 maxMetadataBytes = qint64(64) << 20;
};

/// The automatic total limit: 32 times the bundle file's size, at least 4 GiB. A bundle of
/// provider zips (already compressed) inflates to about its own size, a tar.xz of unpacked
/// packages to 3-5 times it; a gzip/xz/zstd bomb to a thousand times and more.
inline constexpr qint64 kAutomaticTotalRatio = 32;
inline constexpr qint64 kAutomaticTotalFloor = qint64(4) << 30;
inline qint64 automaticTotalBytes(qint64 bundleFileSize)
{
    return std::max(kAutomaticTotalFloor, bundleFileSize > (qint64(1) << 56) ? (qint64(1) << 61) : bundleFileSize * kAutomaticTotalRatio);
}

enum class BundleStage {
    Reading,    ///< streaming through the bundle (done/total: bytes of the bundle file)
    Hashing,    ///< hashing archives (done/total: bytes)
    Writing,    ///< writing a bundle (done/total: bytes of the archives copied)
    Committing, ///< renaming staged directories into the mirror (done/total: directories)
};
QString toString(BundleStage stage);

/// Called now and then on the calling thread. Return false to cancel: the operation then fails
/// with ErrorCode::Cancelled and leaves nothing behind.
using BundleProgress = std::function<bool(BundleStage stage, qint64 done, qint64 total)>;

/// An entry of a bundle that is refused or not read, named as it is stored.
struct BundleEntryProblem
{
    enum class Kind {
        UnsafePath,    ///< absolute, a `..` component, a drive letter, control or bidi characters, not UTF-8
        LinkOutside,   ///< a symbolic link whose target is absolute or leaves the bundle; a hard link
                       ///< to anything but a file earlier in the bundle
        Link,          ///< a symbolic link that stays inside: never followed, never extracted (an
                       ///< import refuses one inside the mirror tree). Hard links to an earlier file
                       ///< are no problem: they are read as a copy of that file.
        SpecialFile,   ///< a device, FIFO or socket
        DuplicateName, ///< a second entry of the same name, a name that is both a file and a
                       ///< directory, or two names that are one after case folding / normalization
        TooLarge,      ///< beyond BundleLimits (per entry, in total, or more than its declared size)
        Unsupported,   ///< encrypted entries
    };
    Kind kind = Kind::UnsafePath;
    QString entry; ///< the name as stored (lossy UTF-8 for display)
    QString message;

    /// Refused on import (everything except an in-bundle Link).
    bool isFatal() const { return kind != Kind::Link; }
};
QString toString(BundleEntryProblem::Kind kind); ///< "unsafe-path", "link-outside", ...

/// One archive the manifest lists.
struct BundleManifestArchive
{
    QString provider; ///< ProviderAddress::toString()
    QString version;
    QString platform;
    QString layout; ///< "packed" / "unpacked"
    QString path;   ///< relative to the bundle's mirror root
    QString h1;     ///< the h1: the bundle's index lists (packed) or of the package directory (unpacked)
    QString zh;     ///< packed only
    qint64 size = 0;
};

/// Something a lock file needs that the source mirror lacks.
struct BundleShortfall
{
    ProviderAddress provider;
    Version version;
    Platform platform; ///< null when the whole provider or version is absent
    QString lockFile;  ///< the lock file that needs it
    QString reason;
};

struct BundleManifest
{
    int formatVersion = 1;
    QString generator;     ///< "Provender <version>"
    QDateTime created;     ///< UTC
    QString sourceMirror;  ///< the mirror directory the archives came from
    QString selection;     ///< "all", "selection" or "lock-files"
    QStringList lockFiles; ///< for "lock-files"
    QStringList platforms; ///< for "lock-files"
    QList<BundleManifestArchive> archives;
    QList<BundleShortfall> missing;
};

/// The manifest's bytes: indented JSON, keys sorted, trailing newline.
QByteArray renderBundleManifest(const BundleManifest &manifest);
Result<BundleManifest> parseBundleManifest(const QByteArray &bytes);

/// SHA256SUMS bytes: `<64 hex>  <path>\n`, sorted byte-wise by path (what `sha256sum` prints).
QByteArray renderSha256Sums(const QMap<QString, QByteArray> &rawDigestByPath);
/// Reads `sha256sum` output (text or `*binary` marker). Rejects malformed lines, duplicate paths,
/// and paths that are absolute or contain `..` (the error names the line).
Result<QMap<QString, QByteArray>> parseSha256Sums(const QByteArray &bytes);

/// "Provender <PROVENDER_VERSION>"
QString provenderGenerator();

} // namespace provender
