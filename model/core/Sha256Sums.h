#pragma once
// SHA256SUMS documents as a release publishes them ("<64 hex digits>  <file name>" per line), read
// the way terraform reads them (internal/getproviders: checksum list lookup and AcceptableHashes).
// Used by the registry client (signed anchors), `lock add-hashes --registry` and the lock diff's
// hash provenance (which platform a zh: belongs to). Text only: no I/O, no signature checking.

#include "model/core/HashString.h"
#include "model/core/Result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

namespace provender {

/// Exactly 64 hexadecimal digits (either case).
bool isSha256Hex(QByteArrayView text);

/// One line of a SHA256SUMS document.
struct Sha256SumsEntry
{
    QByteArray sha256; ///< 32 raw bytes
    QString filename;  ///< empty when the line's name is not UTF-8 (then no file name matches it)
};

/// The SHA-256 the document lists for `filename`: the first line whose second whitespace-separated
/// field is exactly `filename` (terraform's rule). Errors: "checksum list has no SHA-256 hash for
/// \"F\"", "checksum list has invalid SHA256 hash …".
Result<QByteArray> sha256SumsLookup(const QByteArray &document, const QString &filename);

/// Every entry of the document in order, or nothing at all when any non-empty line does not look
/// like "<64 hex digits> <name>" (then it is not a checksums file: terraform's AcceptableHashes).
QList<Sha256SumsEntry> sha256SumsEntries(const QByteArray &document);

/// The zh: hashes a signed SHA256SUMS vouches for (every line's sum, as terraform records them).
QList<HashString> sha256SumsHashes(const QByteArray &document);

} // namespace provender
