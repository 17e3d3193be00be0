#pragma once
// A small demonstration mirror, generated deterministically from this code (no binary blobs):
// three providers on two hosts, packed and unpacked layouts, indexes written by exportIndexes(),
// then a few planted defects so that every verdict shows up:
//
//   registry.opentofu.org/hashicorp/random 3.5.1, 3.6.0, 3.6.2   packed, 4 platforms
//       3.6.0 linux_arm64: its declared h1: in 3.6.0.json is altered          -> mismatch
//       3.6.2 freebsd_amd64: added after the indexes were written             -> unverified
//   registry.opentofu.org/hashicorp/null 3.2.1, 3.2.2            packed, 3 platforms
//       3.2.1 windows_amd64: deleted after the indexes were written           -> missing
//       3.2.2 *: zips with explicit directory entries (h1 of the zip differs
//             from the extracted folder's; the index holds the zip's)         -> verified, "h1 (zip)"
//   mirror.example.internal/acme/widgets 1.0.0 (unpacked, 3 platforms), 1.1.0 and 1.2.0-beta.1 (packed)
//       1.0.0 *: unpacked directories, which indexes never list               -> unverified
//       1.1.0 windows_amd64: truncated; 1.1.0.json then declares the truncated
//             file's zh: only (checksum holds, extracting fails)             -> error (corrupt zip)
//   everything else                                                           -> verified
//
// Two runs produce byte-identical files with identical modification times.

#include "model/core/Result.h"

#include <QString>
#include <QStringList>

namespace provender {

struct DemoMirrorReport
{
    QString root;        ///< absolute path of the generated mirror
    int archives = 0;    ///< archives written (packed zips + unpacked directories), before planting
    QStringList planted; ///< one human-readable line per planted defect
};

/// The file at the root of a generated demo mirror; its presence allows regenerating over it.
inline constexpr QLatin1StringView kDemoMirrorMarker(".provender-demo-mirror");

/// Generate the demo mirror into `dir`. The mirror is built in a temporary sibling directory and
/// renamed into place, so a failed run leaves `dir` as it was. `dir` must not exist, be empty,
/// or be an earlier demo mirror (it has the marker file); anything else is refused.
Result<DemoMirrorReport> generateDemoMirror(const QString &dir);

} // namespace provender
