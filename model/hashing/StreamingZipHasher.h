#pragma once
// h1:/zh: of a provider zip that can only be read once, front to back: a zip stored inside a tar
// stream (or inside a zip bundle). Used by provender_bundle; the name and digest rules are
// hashZip()'s own (ZipRules.h).
//
// Why not spool the entry to a temporary file and call hashZip()? It doubles the I/O of verifying
// a bundle in place and, with /tmp on tmpfs, turns "bounded memory" into "as much RAM as the
// largest provider". A zip written front to back (every zip writer provider releases use) can be
// hashed in the same single pass that computes its zh:, by walking the local headers:
//
//   local header, data (stored: its size; deflate: until the end of the DEFLATE stream),
//   [data descriptor], ... , central directory, [zip64 end record + locator], end record
//
// The result must be the one hashZip() gives, which reads through the central directory (minizip
// finds it by searching backwards from the end of the file). So after the pass, the central
// directory is cross-checked against what the walk saw: the end record (and zip64 locator) must be
// the ones minizip's backward search finds in the file's last 64 KiB (kept in a small tail buffer),
// the directory must start where it says and list exactly the local headers the walk found, and
// each entry's method, sizes, CRC and name length must agree. Only then are the per-entry digests
// combined with hashZip()'s rules (same names, same duplicate and directory rules). Anything else
// (data before the first local header, a stored entry with a data descriptor, a damaged entry, an
// encrypted one, a directory that disagrees) is answered NeedsRandomAccess, and the caller spools
// that one entry to a temporary file and lets hashZip() decide. tests/bundle checks both paths give
// identical PackageHashes on a table of awkward zips.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>

namespace provender {

/// The next bytes of the stream; an empty view at its end. The view stays valid until the next call.
using PullBytes = std::function<Result<QByteArrayView>()>;

struct StreamingZipOutcome
{
    enum class Status {
        Hashed,            ///< `hashes` is exactly what hashZip() gives for these bytes
        NeedsRandomAccess, ///< spool and call hashZip(); `reason` says why
    };
    Status status = Status::NeedsRandomAccess;
    PackageHashes hashes;
    QString reason;
    QByteArray sha256; ///< raw SHA-256 of every byte of the stream (always set)
    qint64 size = 0;   ///< bytes in the stream
};

/// Reads `pull` to its end (always, so that `sha256` covers every byte). `maxInflate` bounds the
/// bytes inflated for one entry whose size the local header does not give (data descriptor).
/// `limits` are hashZip()'s (entry count, inflate budget for the whole zip): the walk inflates no
/// more than they allow, and a zip beyond them is answered NeedsRandomAccess, so that hashZip()
/// with the same limits gives the verdict (and the message naming the limit).
/// `advance(bytes)` is told about every block read; returning false cancels (ErrorCode::Cancelled).
/// Fails only when `pull` fails or on cancel.
Result<StreamingZipOutcome> hashZipStream(const PullBytes &pull, qint64 maxInflate, const std::function<bool(qint64)> &advance = {},
                                          const ZipLimits &limits = defaultZipLimits());

} // namespace provender
