#pragma once
// An immutable snapshot of what a mirror holds: providers -> versions -> per-platform archives,
// with what its indexes declare. Produced by a MirrorSource scan off the GUI thread; plain values.

#include "model/core/HashString.h"
#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace provender {

enum class ArchiveLayout { Packed, Unpacked };

/// What an index (`<version>.json`) says about one platform's archive.
struct DeclaredArchive
{
    QString url;              ///< as written in the JSON (relative to the JSON document or absolute)
    QList<HashString> hashes; ///< in file order
    QString indexFile;        ///< the `<version>.json` it came from
    /// Hash strings without a scheme: terraform fails installing this platform ("provider mirror
    /// returned invalid provider hash …") before it downloads anything.
    QStringList invalidHashes;
};

struct Archive
{
    Platform platform;
    ArchiveLayout layout = ArchiveLayout::Packed;
    bool present = false; ///< false: declared by an index but absent on disk
    QString path;         ///< absolute path of the zip file or the package directory ("" when absent)
    QString fileName;     ///< actual file name on disk (the `url` an index export writes); for an
                          ///< unpacked package the OS_ARCH directory name; for an absent one the name the index gives
    qint64 size = -1;     ///< bytes on disk (zip) or sum of file sizes (unpacked); -1 when absent
    QDateTime modified;   ///< mtime (UTC); for an unpacked package the newest mtime of the
                          ///< directory and everything in it (so an edited file changes it)
    quint64 inode = 0;
    std::optional<DeclaredArchive> declared;
    /// Not a layout archive: present (or absent) only as the file an index's `url` names. Such a
    /// file is invisible to filesystem-mirror installers; an index export leaves it out.
    bool indexedOnly = false;
};

struct ProviderVersion
{
    Version version;
    QList<Archive> archives; ///< one per platform, sorted by platform: what an installer uses
    /// Other files for a platform of `archives`, in walk order: later copies of the same
    /// version/platform (installers use the first in walk order; `providers mirror` indexes the
    /// last packed one) and files an index names for a platform besides the one installers use.
    QList<Archive> duplicates;
    bool listedInIndex = false;   ///< `index.json` lists this version
    bool hasVersionIndex = false; ///< a `<version>.json` exists and parsed
};

struct Provider
{
    ProviderAddress address;
    QString directory;               ///< absolute `HOST/NS/TYPE` directory
    bool hasIndex = false;           ///< `index.json` exists and parsed
    QList<ProviderVersion> versions; ///< ascending precedence
};

enum class AnomalyKind {
    UnparseableName,         ///< a file or directory name that does not fit the layout (also an index key
                             ///< that is not a version / platform)
    InvalidAddress,          ///< HOST/NS/TYPE directory names that are not a valid provider address
    MalformedJson,           ///< index.json / <version>.json that does not parse (location has line/column),
                             ///< or content clients trip over (hash without scheme, no url, null entry)
    IndexListsAbsentVersion, ///< index.json lists a version with neither <version>.json nor a packed archive
    IndexListsAbsentArchive, ///< <version>.json lists a platform whose file is absent
    ArchiveNotInIndex,       ///< a packed archive no index reaches (while the directory has an index.json)
    StaleVersionIndex,       ///< a <version>.json that index.json does not list (or there is no index.json)
    UnreadableEntry,         ///< stat/permission failure, broken or unfollowed symlink, special file
    DuplicateArchive,        ///< a second copy of a version/platform (installers use the first in walk order)
    // Network mirrors (model/network): document-level failures of HTTP requests.
    ProviderNotInMirror, ///< index.json answered 404: the mirror does not have the provider
    WrongContentType,    ///< a JSON document not served as application/json
    RequestFailed,       ///< any other failed document request: HTTP status, 401/403, TLS, timeout,
                         ///< redirect limit or https->http, body over the size cap
    InsecureUrl,         ///< an archive URL that is plain http: downloaded (as terraform does) but a
                         ///< warning: only the hash protects it (`verify --strict` fails on it)
    RefusedUrl,          ///< an archive URL that is not http(s) (file:, data:, ...; never read) or
                         ///< that carries user info (removed, never shown)
    // Verdicts (model/verify, docs/VERDICTS.md): after hashing.
    DeclaredHashMatchesNothing, ///< an index declares an h1:/zh: that matches no package, while
                                ///< another declared hash matches (terraform installs it)
    ProviderUnavailable,        ///< index.json parses but lists no version: terraform reports the provider
                                ///< as not found in any of the search locations
};

struct Anomaly
{
    AnomalyKind kind = AnomalyKind::UnparseableName;
    QString path;      ///< absolute path of the offending file or directory
    QString message;   ///< human-readable reason
    Location location; ///< for JSON: file, line, column
};

struct Catalog
{
    enum class SourceKind { Directory, Network, Bundle };
    SourceKind sourceKind = SourceKind::Directory;
    QString root;              ///< directory path, URL or bundle path as opened
    QList<Provider> providers; ///< sorted by address
    QList<Anomaly> anomalies;

    qsizetype archiveCount() const;
    qint64 totalBytes() const; ///< sum of present archives' sizes
};

QString toString(ArchiveLayout layout);
QString toString(AnomalyKind kind); ///< stable machine name, e.g. "archive-not-in-index"

} // namespace provender
