#pragma once
// Reader for the two JSON documents of the provider network mirror protocol (tofu-formats.md §6):
//
//   index.json       {"versions": {"<version>": {}, ...}}
//   <version>.json   {"archives": {"<os>_<arch>": {"url": "...", "hashes": ["..."]}, ...}}
//
// It accepts exactly what tofu/terraform's Go decoder accepts (encoding/json into structs): keys
// match case-insensitively, unknown fields are ignored, `null` is allowed wherever Go allows it, and
// only the first JSON value is read. Syntax errors come back with the line and column of the
// offending character. Independent of where the bytes came from: the file-system scanner and the
// network mirror client both use it.

#include "model/core/HashString.h"
#include "model/core/Platform.h"
#include "model/core/Result.h"
#include "model/core/Version.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

/// Something in a document that parsed but that a client ignores or trips over. The document is
/// still usable; each issue says what the clients do with it.
struct MirrorIndexIssue
{
    enum class Kind {
        InvalidVersionKey,  ///< index.json: a key that is not a version (clients skip it)
        InvalidPlatformKey, ///< <version>.json: a key that is not `os_arch` (never requested)
        InvalidHash,        ///< a hash without a scheme (installing that platform fails)
        MissingUrl,         ///< no `url` or an empty one (the client downloads the JSON document itself)
        NullArchive,        ///< an archive entry that is `null` (crashes the client)
        TrailingData,       ///< data after the first JSON value (clients ignore it)
        NoVersions,         ///< index.json with no (valid) version: terraform says the provider is not found
    };
    Kind kind = Kind::InvalidVersionKey;
    QString key;       ///< the version or platform key concerned ("" for document-level issues)
    QString message;   ///< human-readable, says what clients do
    Location location; ///< the document; line/column when it could be located
};

/// index.json
struct MirrorIndexDocument
{
    QList<Version> versions; ///< valid keys, ascending, duplicates (`2.0` and `2.0.0`) merged
    QStringList keys;        ///< every key as written, in byte-wise order
    QList<MirrorIndexIssue> issues;
};

/// One entry of `archives` in <version>.json.
struct MirrorArchiveEntry
{
    QString key;               ///< the platform key as written
    Platform platform;         ///< parsed key (ParsePlatform: no case folding)
    QString url;               ///< "" when missing or null
    QList<HashString> hashes;  ///< the valid hash strings, in file order
    QStringList invalidHashes; ///< strings without a scheme, in file order
};

/// <version>.json
struct MirrorVersionDocument
{
    QList<MirrorArchiveEntry> archives; ///< entries with a valid platform key, in byte-wise key order
    QList<MirrorIndexIssue> issues;
};

/// Parses index.json. `sourceName` names the document in locations (a path or a URL).
Result<MirrorIndexDocument> parseIndexJson(const QByteArray &bytes, const QString &sourceName);
/// Parses <version>.json.
Result<MirrorVersionDocument> parseVersionJson(const QByteArray &bytes, const QString &sourceName);

/// Line and column (both from 1; columns count Unicode code points) of the byte at `offset`.
Location locationOfOffset(const QByteArray &bytes, qsizetype offset, const QString &sourceName);

} // namespace provender
