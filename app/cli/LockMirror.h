#pragma once
// The mirror of the lock commands (`--mirror`): a filesystem mirror directory, or a network
// mirror's `https://…` base URL (docs/LOCKFILES.md "Mirrors"). Either way a lock operation runs
// twice: once with a recording hasher, to learn which archives it needs, then with those archives
// hashed in one run — for a directory through the hash engine and its cache (prehashArchives), for
// a network mirror downloaded and checked against the mirror's own index (verifyNetworkCatalog),
// so that a package terraform would refuse to install gives no hash.

#include "model/core/ProviderAddress.h"
#include "model/core/Version.h"
#include "model/mirror/Catalog.h"
#include "model/network/NetworkMirror.h"
#include "model/verify/ArchiveHashing.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace provender::cli {

struct LockMirror
{
    Catalog catalog;
    /// Set for a network mirror: how its archives are downloaded.
    std::optional<NetworkMirrorOptions> network;
};

/// Which of the versions a provider's index.json lists have their <version>.json read
/// (NetworkMirrorOptions::chooseVersions).
using VersionChooser = std::function<QList<Version>(const ProviderAddress &provider, const QList<Version> &listed)>;

/// Opens `location` for `command` (e.g. "provender lock init"): scans a directory, or reads a
/// network mirror's indexes of `providers` (only `onlyVersions` of those it names, then only what
/// `choose` picks; the token found as tofu finds it, for the index requests only). Prints
/// warnings, and why when it fails (then nullopt).
std::optional<LockMirror> openLockMirror(const QString &command, const QString &location, const QList<ProviderAddress> &providers,
                                         const QHash<ProviderAddress, QList<Version>> &onlyVersions = {},
                                         const VersionChooser &choose = {});

/// For a network mirror opened with a VersionChooser (the selected version of each provider, as
/// terraform reads only that version's <version>.json): true, after printing that `path` is
/// `outcome` ("not changed") and why, when a selected version's <version>.json could not be read
/// (the warning printed when the mirror was opened says why) or lists no package. terraform fails
/// there too; it does not take another version instead.
bool selectedVersionUnusable(const LockMirror &mirror, const QString &path, const QString &outcome);

/// A hasher for `operation` (a lock operation run with the hasher it is given): every archive it
/// asks for is hashed up front in one run, then answered from there. `hashing` (jobs, cache,
/// progress) applies to a directory; a network mirror's downloads use its own settings.
ArchiveHasher lockMirrorHasher(const QString &command, const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation);

} // namespace provender::cli
