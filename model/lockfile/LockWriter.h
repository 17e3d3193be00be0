#pragma once
// Canonical lock-file bytes, exactly as tofu/terraform write them (tofu-formats.md §1.1):
// two header lines, one blank line before each provider block in ProviderAddress order,
// `version`/`constraints` aligned on `=`, sorted de-duplicated hashes one per line with a
// trailing comma, LF line endings, final newline. Comments, unknown content and module
// blocks are not written (LockFile::dropped lists them so callers can warn first).

#include "model/core/Result.h"
#include "model/lockfile/LockFile.h"

#include <QByteArray>
#include <QString>

namespace provender {

/// The canonical bytes of `doc` with its own flavour's header.
QByteArray writeLockFile(const LockFile &doc);
/// The canonical bytes of `doc` with the header of `flavour`.
QByteArray writeLockFile(const LockFile &doc, LockFlavour flavour);

/// hclwrite's quoted-string escaping (without the quotes): `\n \r \t \" \\`, `${`->`$${`,
/// `%{`->`%%{`, non-printable runes as `\uXXXX`/`\UXXXXXXXX`, everything else verbatim UTF-8.
QByteArray escapeHclString(const QString &s);

/// True when `bytes` parse without errors and rewriting them changes nothing.
bool isCanonicalLockFile(const QByteArray &bytes, const LockParseResult &parsed);

/// Write the canonical bytes atomically (QSaveFile: temp file in the same directory, fsync,
/// rename, then fsync of the directory). An existing file keeps its mode and owner (refused,
/// file unchanged, when the owner cannot be kept); a new file gets mode 0644; a symlink is
/// written through to its target. The error message follows tofu's
/// `Error while writing new dependency lock information to <file>: <reason>.`
Result<void> saveLockFile(const LockFile &doc, const QString &path);
Result<void> saveLockFile(const LockFile &doc, LockFlavour flavour, const QString &path);
/// Write arbitrary bytes atomically (same rules as saveLockFile).
Result<void> saveBytesAtomically(const QByteArray &bytes, const QString &path);

} // namespace provender
