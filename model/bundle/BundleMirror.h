#pragma once
// A bundle (.tar, .tar.gz, .tar.xz, .tar.zst or .zip holding a filesystem-mirror tree) opened in
// place: browsed as a Catalog and verified without extracting anything to disk.
//
//   openBundle(path)              one streaming pass: the entry list, the index documents,
//                                 SHA256SUMS and the manifest -> a Catalog (sourceKind Bundle)
//   openBundle(path, {verify})    the same pass also hashes every entry: h1:/zh: of each packed
//                                 archive (StreamingZipHasher), h1: of each unpacked package, the
//                                 SHA-256 of every file for SHA256SUMS -> an ArchiveResult per archive;
//                                 the reader hands each entry's bytes to `jobs` hashing threads
//                                 (BundleHashing.h) and goes on. An entry that is not a readable
//                                 zip keeps its bytes' SHA-256 (ArchiveRead::bytesZh): its checksum
//                                 is decided first, as for a directory
//
// Paths in the Catalog and the results name entries inside the bundle as
// `<absolute bundle path>!/<entry name>` (bundleEntryPath(); the name cleaned of `./` and empty
// components). The mirror tree may sit at the root
// of the bundle or under one top-level folder (mirrorPrefix). The layout rules are exactly the
// directory scanner's (tofu-formats.md §5): the bundle's tree (names, sizes and times; no content
// except the small index documents) is laid out as an empty sparse skeleton in a temporary
// directory and scanned by scanFileSystemMirror(), so a bundle and the same tree on disk give the
// same Catalog and the same anomalies.
//
// A bundle's Catalog names entries, not files: never hand it to verifyCatalog() (which stats and
// hashes paths on disk) — verify a bundle with openBundle(path, {verify = true}), or through a
// BundleSource (BundleSource.h) with verifySource() / VerifyEngine::start(source, …).
//
// Memory is bounded by the number of entries (a name and a digest each) plus the index documents
// (BundleLimits::maxMetadataBytes), whatever the bundle's size. Hostile entries (traversal, links,
// devices, duplicates, oversize) are reported as problems, never read into the tree. Runs on any
// thread; returns values; progress is called on the calling thread.

#include "model/bundle/BundleFormat.h"
#include "model/mirror/Catalog.h"
#include "model/source/MirrorSource.h"
#include "model/verify/VerifyTypes.h"

#include <QList>
#include <QString>

#include <optional>

namespace provender {

struct BundleOpenOptions
{
    BundleLimits limits;
    bool verify = false; ///< hash every entry while reading (otherwise only list and read metadata)
    /// Hashing threads beside the reading one (BundleHashing.h); 0 = all cores, as HashRunOptions.
    int jobs = 0;
    /// Reviewed lock files to check the archives against (VerifyOptions has the same three).
    ExpectedHashes expected;
    QHash<ProviderVersionKey, QString> expectedFrom;
    bool lockCoverage = false;
    /// Keys the user pins for the signatures of the bundle's `.provenance/` (empty: the keys kept
    /// next to the sums).
    QList<QByteArray> pinnedKeys;
};

/// One file against SHA256SUMS.
struct BundleFileCheck
{
    enum class Status {
        Ok,       ///< listed, present, same SHA-256
        Mismatch, ///< listed, present, different SHA-256
        Missing,  ///< listed, not in the bundle (or refused)
        Unlisted, ///< in the bundle's mirror tree, not listed
    };
    Status status = Status::Ok;
    QString name;     ///< relative to the bundle's mirror root, as SHA256SUMS writes it
    QString expected; ///< hex ("" for Unlisted)
    QString actual;   ///< hex ("" for Missing)
};
QString toString(BundleFileCheck::Status status); ///< "ok", "mismatch", "missing", "unlisted"

struct BundleContents
{
    QString path;                            ///< absolute path of the bundle file
    BundleFormat format = BundleFormat::Tar; ///< detected from the content
    qint64 fileSize = 0;
    int entryCount = 0;
    qint64 contentBytes = 0; ///< sum of the files' sizes
    QString mirrorPrefix;    ///< "" or "<top-level folder>/"

    Catalog catalog; ///< sourceKind Bundle; root = path
    std::optional<BundleManifest> manifest;
    QString manifestError; ///< a manifest that could not be read
    bool hasSha256Sums = false;
    QString sha256SumsError; ///< a SHA256SUMS that could not be read
    QList<BundleEntryProblem> problems;
    /// The proof of releases the bundle carries (`.provenance/HOST/NS/TYPE/VERSION/…`, names
    /// relative to the mirror root → bytes; docs/BUNDLES.md "Provenance").
    QHash<QString, QByteArray> provenance;

    bool verified = false;        ///< the fields below are filled (openBundle with verify)
    QList<ArchiveResult> results; ///< one per archive, forEachArchive() order
    QList<ArchiveRead> reads;     ///< what reading each archive gave (results order; BundleSource)
    QList<BundleFileCheck> files; ///< every SHA256SUMS line, then unlisted files
    VerifySummary summary;

    /// The entry name of a Catalog/ArchiveResult path of this bundle ("" when it is not one).
    QString entryName(const QString &catalogPath) const;
    /// Any problem, any unreadable metadata, any mismatch/missing/error verdict, any SHA256SUMS
    /// line that is not Ok (the CLI's exit 1).
    bool hasFindings() const;
};

/// Opens (and with options.verify, verifies) a bundle. Fails when the file cannot be opened or
/// read as a container (CorruptArchive: truncated, damaged, not a tar or zip), and on cancel.
/// Everything about the content is reported in the result.
Result<BundleContents> openBundle(const QString &path, const BundleOpenOptions &options = {}, const BundleProgress &progress = {});

/// openBundle() with verify = true.
Result<BundleContents> verifyBundle(const QString &path, const BundleLimits &limits = {}, const BundleProgress &progress = {});

} // namespace provender
