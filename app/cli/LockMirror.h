#pragma once
// The lock commands' `--mirror DIR|URL`: model/lockfile/LockMirror (shared with the lock windows)
// with its warnings and errors printed in the commands' words.

#include "model/lockfile/LockMirror.h"

#include <optional>

namespace provender::cli {

/// Opens `location` for `command` (e.g. "provender lock init"): openLockMirror() for `request`.
/// Prints warnings, and why when it fails (then nullopt).
std::optional<LockMirror> openLockMirror(const QString &command, const QString &location, const LockMirrorRequest &request);

/// True, after printing that `path` is `outcome` ("not changed") and why, when a selected
/// version of a network mirror cannot be used (provender::selectedVersionUnusable).
bool selectedVersionUnusable(const LockMirror &mirror, const QString &path, const QString &outcome);

/// provender::lockMirrorHasher(): `hashing` (jobs, cache) with the command's progress line for a
/// directory, whose cache warning is printed; a network mirror's downloads use its own settings.
ArchiveHasher lockMirrorHasher(const QString &command, const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation);

} // namespace provender::cli
