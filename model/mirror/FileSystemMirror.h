#pragma once
// Scanning a filesystem mirror directory (tofu-formats.md §5) into a Catalog.
//
// The walk follows tofu/terraform's SearchLocalDirectory exactly for what counts as an archive:
//   HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip   packed (a file, or a link to one)
//   HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/                              unpacked (a directory, or a link to one)
// in lexical (byte-wise) order, with lstat, never descending into symlinked directories below the
// root (the root itself may be a symlink). Where tofu silently skips or logs a warning, the scan
// records an Anomaly with the path and the reason instead, and goes on: a scan never fails
// because of what is inside the mirror, only when the root itself cannot be read.
//
// The network-mirror indexes found beside the archives (`index.json`, `<version>.json`) are read
// and checked against what is on disk. See docs/MIRRORS.md for every rule.

#include "model/mirror/Catalog.h"

#include <QString>

namespace provender {

struct ScanOptions
{
    /// Threads that walk the provider directories and check their indexes: 0 = one per core
    /// (QThread::idealThreadCount(), at most 8), 1 = everything on the calling thread. The
    /// Catalog is the same whatever the number (anomalies included, in the same order).
    int threads = 0;
};

/// Scans the mirror directory `root`. Fails (NotFound / InvalidArgument / Io) only when `root` is
/// not a readable directory. Memory and time are linear in the number of entries; no archive is
/// opened (archives are hashed by the verification engine, not here).
///
/// The HOST/NAMESPACE levels are listed on the calling thread; the provider directories (their
/// archives and index documents) are then scanned on `options.threads` threads, the directories
/// of one provider (e.g. `AwesomeCorp/x` and `awesomecorp/x`) together on one thread, in walk order.
Result<Catalog> scanFileSystemMirror(const QString &root, const ScanOptions &options = {});

/// Parses a packed archive file name the way the scanner does (lower-cased; prefix
/// `terraform-provider-<type>_`, suffix `.zip`, at least 3 `_`-separated parts; extra parts
/// ignored). `type` is the normalized provider type. On failure, the error message says why.
struct PackedName
{
    Version version;
    Platform platform;
};
Result<PackedName> parsePackedArchiveName(const QString &fileName, const QString &type);

} // namespace provender
