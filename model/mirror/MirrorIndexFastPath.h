#pragma once
// Internal to model/mirror (and its tests): the two ways parseVersionJson() can read a document.
//
// parseVersionJson() first tries parseVersionJsonFast(), a byte-level reader for the shape that
// `tofu providers mirror`, `terraform providers mirror` and `provender index` write:
//
//   {"archives": {"<os>_<arch>": {"hashes": ["<scheme>:<value>", ...], "url": "<non-empty>"}, ...}}
//
// (any JSON whitespace between tokens; "hashes" and "url" in either order, each at most once; the
// platform keys in strictly ascending byte order; every string printable ASCII without escapes).
// It DECLINES (returns nullopt) on anything else — any document the full reader would report an
// issue or an error for (null entries, missing urls, hashes without a scheme, invalid platform
// keys, trailing data), and anything unusual (other members, keys in other case, duplicates,
// escapes, non-ASCII, numbers, nesting) — so such documents go through parseVersionJsonFull() and
// get its exact messages and locations. When it accepts, its result equals the full reader's
// (checked by tests/mirror/tst_mirrorindexfastpath on generated, corpus and mutated documents).

#include "model/mirror/MirrorIndex.h"

#include <optional>

namespace provender::mirror_detail {

/// The fast path; nullopt when the document is not in the plain shape it handles.
std::optional<MirrorVersionDocument> parseVersionJsonFast(const QByteArray &bytes);

/// The general reader with Go's decoding rules and every issue (handles every input).
Result<MirrorVersionDocument> parseVersionJsonFull(const QByteArray &bytes, const QString &sourceName);

} // namespace provender::mirror_detail
