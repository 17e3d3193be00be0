#pragma once
// Static network-mirror indexes for a packed filesystem mirror, byte-identical to what
// `terraform providers mirror` (and OpenTofu <= 1.11) writes (tofu-formats.md §4):
//
//   HOST/NS/TYPE/index.json        {"versions": {"<version>": {}, ...}}
//   HOST/NS/TYPE/<version>.json    {"archives": {"<os>_<arch>": {"hashes": ["h1:..."], "url": "<file name>"}}}
//
// Like `providers mirror`, the indexes are rebuilt from the archives on disk (nothing is read from
// the existing JSON except to report what changes), so repeated runs merge. Unlike it, the files
// are written atomically (all staged, then renamed), unchanged files are not touched, unrelated
// files are never deleted, and stale <version>.json files are reported rather than silently kept.
// See docs/MIRRORS.md for every rule and the few deliberate differences.

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

struct IndexExportOptions
{
    bool dryRun = false;  ///< compute and report, write nothing
    bool withZh = false;  ///< also list each archive's `zh:` (after its `h1:`)
    int jobs = 0;         ///< hashing threads; 0 = QThread::idealThreadCount()
    bool useCache = true; ///< answer unchanged archives from the hash cache (hashArchives())
    QString cacheFile;    ///< "" = HashCache::defaultPath()
    /// Hashes the caller computed from the very bytes it has just written to these archives
    /// (absolute, clean paths; `mirror pull` hashes while it downloads): used as they are,
    /// instead of reading the archives again.
    QHash<QString, PackageHashes> knownHashes;
};

/// One entry of an index document that is added, removed or changed.
struct IndexEntryChange
{
    enum class Kind { Added, Removed, Changed };
    Kind kind = Kind::Added;
    QString file;     ///< absolute path of the index document
    QString version;  ///< the version concerned
    QString platform; ///< "" for an entry of index.json
    QString before;   ///< Changed/Removed: the old value, e.g. `url=... hashes=[h1:...]`
    QString after;    ///< Changed/Added: the new value
};

struct IndexFileResult
{
    enum class Status { Created, Updated, Unchanged };
    QString path;
    Status status = Status::Unchanged;
};

struct IndexProblem
{
    QString path; ///< the archive or directory concerned
    QString message;
};

struct IndexExportReport
{
    QString root;
    bool dryRun = false;
    QList<IndexFileResult> files;     ///< every index document of every indexed provider
    QList<IndexEntryChange> changes;  ///< entry-level differences from the files on disk
    QStringList staleVersionFiles;    ///< <version>.json files left in place for versions no longer indexed
    QList<IndexProblem> hashFailures; ///< archives left out because they could not be hashed
    QList<IndexProblem> skipped;      ///< providers or archives not indexed, with the reason
    int providersIndexed = 0;
    int archivesHashed = 0; ///< archives indexed (hashed now or answered from the cache)
    qint64 bytesHashed = 0;
    int cacheHits = 0;    ///< of those, answered from the hash cache
    QString cacheWarning; ///< why the hash cache is off or was recreated ("" when fine)

    int writtenCount() const; ///< files created or updated (or that would be, with dryRun)
};

/// Rebuilds index.json and <version>.json of every provider directory under `mirrorRoot` that
/// holds at least one archive or package. The archives are hashed by hashArchives() (all cores,
/// the hash cache). `progress` is called on the calling thread with bytes
/// hashed so far / to hash in total; returning false cancels (ErrorCode::Cancelled, nothing is
/// written). Fails when the mirror cannot be scanned, on cancel, and when a file cannot be
/// written (nothing is renamed into place unless every file could be staged).
Result<IndexExportReport> exportIndexes(const QString &mirrorRoot, const IndexExportOptions &options, const HashProgress &progress = {});

/// One archive entry of a <version>.json.
struct IndexArchiveRecord
{
    QString platform; ///< the key, e.g. `linux_amd64`
    QString url;
    QStringList hashes; ///< in the order given
};

/// The exact bytes of index.json listing `versions` (canonical version strings; sorted byte-wise
/// and de-duplicated here, like Go's map marshalling).
QByteArray renderIndexJson(const QStringList &versions);
/// The exact bytes of <version>.json. Entries are sorted by platform key byte-wise; for a
/// repeated key the last one wins (Go map semantics).
QByteArray renderVersionJson(const QList<IndexArchiveRecord> &archives);
/// A JSON string literal as Go's encoding/json writes it (HTML-safe escaping of <, >, &,
/// U+2028 and U+2029; \b \f \n \r \t short escapes; other controls as \u00XX).
QByteArray goJsonQuote(const QString &text);

QString toString(IndexEntryChange::Kind kind);    ///< "added", "removed", "changed"
QString toString(IndexFileResult::Status status); ///< "created", "updated", "unchanged"

} // namespace provender
