#pragma once
// The mirror of a lock operation — the CLI's `--mirror DIR|URL` and the lock windows' Open
// Mirror… (docs/LOCKFILES.md "Mirrors"): a filesystem mirror directory, or a network mirror's
// `https://…` base URL. A network mirror cannot be listed: it is read for a request, the providers
// a lock operation works on and which of their versions (the locked ones, or the one selected
// from index.json as terraform selects it); the lockedVersions()/upgradeVersions()/
// provenanceVersions() requests are the commands' choices, shared by the CLI and the windows.
//
// Either way a lock operation runs twice (lockMirrorHasher): once with a recording hasher, to
// learn which archives it needs, then with those archives hashed in one run — for a directory
// through the hash engine and its cache (prehashArchives), for a network mirror downloaded and
// checked against the mirror's own index (verifyNetworkCatalog), so that a package terraform
// would refuse to install gives no hash. Nothing here prints: warnings and errors are returned.

#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"
#include "model/network/NetworkMirror.h"
#include "model/verify/ArchiveHashing.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace provender {

/// Which of the versions a provider's index.json lists have their <version>.json read
/// (NetworkMirrorOptions::chooseVersions).
using VersionChooser = std::function<QList<Version>(const ProviderAddress &provider, const QList<Version> &listed)>;

/// What a network mirror is read for (a directory is scanned whole).
struct LockMirrorRequest
{
    QList<ProviderAddress> providers;                    ///< whose index.json is read
    QHash<ProviderAddress, QList<Version>> onlyVersions; ///< only these of the versions listed
    VersionChooser choose;                               ///< then only what this picks (may be empty)
};

struct LockMirror
{
    /// A mirror directory at `location`, scanned into `catalog`.
    static LockMirror directory(const QString &location, const Catalog &catalog)
    {
        return {location, catalog, std::nullopt, std::nullopt, {}};
    }

    QString location; ///< the directory or the URL as given
    Catalog catalog;
    /// Set for a network mirror: how its archives are downloaded.
    std::optional<NetworkMirrorOptions> network;
    /// Set for a network mirror read without anomalies (every document it asked for was read):
    /// the request it was read for (lockMirrorFor reuses the read for the same request).
    std::optional<LockMirrorRequest> readFor;
    QStringList readWarnings; ///< a network mirror: what reading it warned (given again on reuse)
};

/// Where a lock window's mirror is and how it is reached: a directory, or a network mirror's URL
/// with the settings to reach it (openLockMirror's `http`).
struct LockMirrorLocation
{
    QString location;
    HttpSettings http;
};

/// A location names a network mirror (it has a scheme) rather than a directory.
bool isNetworkMirrorLocation(const QString &location);

/// The providers of `lock` (only `only` when it is not empty) at their locked versions: what lock
/// check, lock add-hashes (without --config), the editor's Add Hashes and the coverage matrix read.
LockMirrorRequest lockedVersions(const LockFile &lock, const QList<ProviderAddress> &only = {});
/// The providers of `lock` (only `only` when it is not empty), each at the newest version of its
/// index.json its recorded constraints allow: what lock upgrade and the editor's Upgrade read.
LockMirrorRequest upgradeVersions(const LockFile &lock, const QList<ProviderAddress> &only = {});
/// The provider versions two lock files mention: what lock diff and the lock windows' hash
/// provenance read.
LockMirrorRequest provenanceVersions(const QList<HashProvenanceIndex::Wanted> &wanted);

/// Opens `location`: scans a directory, or reads a network mirror's indexes for `request` (the
/// token found as tofu finds it, for the index requests only). `warnings` gets what a command
/// prints as warnings (also when it fails). Blocks; `cancel` is polled while reading a network mirror.
/// `http`: how a network mirror is reached — the CLI's defaults (system CAs, https only, as
/// tofu), or a browser URL source's settings (its extra CAs, http to a loopback host); kept in
/// LockMirror::network for its downloads and for reading it again.
Result<LockMirror> openLockMirror(const QString &location, const LockMirrorRequest &request, QStringList *warnings,
                                  const std::atomic<bool> *cancel = nullptr, const HttpSettings &http = {});

/// `opened` as an operation with `request` reads it: a directory as it was scanned, a network
/// mirror read again for `request` (openLockMirror) — each operation reads what the command would
/// — unless it was read completely for the same locked versions (no chooser: a chooser's choice
/// depends on index.json, which is read again), when `opened` is returned as it is, with the
/// warnings of that read. Like a directory scanned once, a reused read does not see what the
/// mirror publishes later; opening the mirror again reads it anew.
Result<LockMirror> lockMirrorFor(const LockMirror &opened, const LockMirrorRequest &request, QStringList *warnings,
                                 const std::atomic<bool> *cancel = nullptr);

/// For a network mirror opened with a VersionChooser (the selected version of each provider, as
/// terraform reads only that version's <version>.json): why it cannot be used, when a selected
/// version's <version>.json could not be read (a warning of openLockMirror says why) or lists no
/// package ("ADDR V is the selected version, but the mirror's V.json lists no package"). terraform
/// fails there too; it does not take another version instead. nullopt when usable.
std::optional<QString> selectedVersionUnusable(const LockMirror &mirror);

/// A hasher for `operation` (a lock operation run with the hasher it is given): every archive it
/// asks for is hashed up front in one run, then answered from there. A directory's through the
/// hash engine (`hashing`: jobs, cache, progress, cancel; `run` gets its summary); a network
/// mirror's downloaded in one run and decided against its index (progress in bytes and cancel
/// from `hashing`; only a Verified or Unverified package gives hashes, anything else an error).
ArchiveHasher lockMirrorHasher(const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation, HashRunSummary *run = nullptr);

} // namespace provender
