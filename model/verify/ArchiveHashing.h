#pragma once
// The hashing engine for code that asks for one archive at a time: the lock-file operations
// (model/lockfile: add-hashes, upgrade, check, diff provenance) take an ArchiveHasher and call it
// per archive, in order. prehashArchives() runs such an operation once with a recording hasher to
// learn which archives it will ask for (their choice never depends on a hash), hashes all of them
// in one hashArchives() run — all cores, the hash cache, progress, cancel — and returns a hasher
// that answers from those results. The operation then runs again with it, unchanged:
//
//     HashRunSummary run;
//     const ArchiveHasher hasher = prehashArchives([&](const ArchiveHasher &record) {
//         options.hasher = record;
//         (void)lockedit::addHashesFromMirror(doc, mirror, options);
//     }, hashOptions, &run);
//     options.hasher = hasher;
//     result = lockedit::addHashesFromMirror(doc, mirror, options);
//
// An archive the second run asks for that the first did not is hashed then, alone (through the
// engine as well), so the answer is right even if an operation's choice did depend on a hash.

#include "model/mirror/Catalog.h"
#include "model/verify/HashEngine.h"

#include <functional>

namespace provender {

/// Computes the hashes of one archive of a catalog (zip or unpacked directory). Absent archives
/// (not present, no path) fail with ErrorCode::NotFound.
using ArchiveHasher = std::function<Result<PackageHashes>(const Archive &archive)>;

/// See above. `summary` (may be null) receives the run's counts, cancel and cache warning. The
/// returned hasher is safe to call from any one thread at a time and owns its results.
ArchiveHasher prehashArchives(const std::function<void(const ArchiveHasher &record)> &operation, const HashRunOptions &options,
                              HashRunSummary *summary = nullptr);

} // namespace provender
