#pragma once
// Internal to model/lockfile (and its tests): the two ways parseLockFile() can read a file.
//
// parseLockFile() first tries parseLockFileFast(), a byte-level scanner for the exact shape
// tofu/terraform write (the standard header, then `provider "HOST/NS/TYPE" { version = "..."
// constraints = "..." hashes = [ "...", ... ] }` blocks, LF line endings, printable ASCII, no
// escapes, no other comments). It builds the LockFile directly, without tokens, a syntax tree
// or a QString per token. It DECLINES (returns nullopt) on anything else — any content the full
// parser would report a diagnostic for, drop, or treat specially — so every file that produces a
// diagnostic, or has anything unusual, goes through parseLockFileFull() and gets exactly the
// diagnostics tofu prints. When it accepts, its result equals the full parser's (checked by
// tests/lockfile/tst_lockfastpath on the corpus, the fixtures, generated and mutated files).

#include "model/lockfile/LockFile.h"

#include <optional>

namespace provender::lockfile_detail {

/// The fast path; nullopt when the input is not in the plain shape it handles.
std::optional<LockParseResult> parseLockFileFast(const QByteArray &bytes, const LockParseOptions &options = {});

/// The general HCL-subset parser with tofu's diagnostics (handles every input).
LockParseResult parseLockFileFull(const QByteArray &bytes, const LockParseOptions &options = {});

} // namespace provender::lockfile_detail
