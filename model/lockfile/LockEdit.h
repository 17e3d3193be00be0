#pragma once
// Edit operations on a lock document, as pure functions: each returns a new LockFile and never
// touches the one it was given (the GUI wraps them in undo commands). The mirror-based ones read
// archives through an ArchiveHasher, so callers choose hashing directly, through a cache, or a fake.

#include "model/core/Platform.h"
#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"
#include "model/verify/ArchiveHashing.h"

#include <functional>
#include <optional>

namespace provender {

/// ArchiveHasher (model/verify/ArchiveHashing.h) computes the hashes of one archive; the CLI and
/// the windows pass prehashArchives()'s (all cores, the hash cache). The default when none is given:
/// hashPackage(archive.path), no cache.
ArchiveHasher directArchiveHasher();

/// The archive an installer would use for (version, platform): present, in the layout, not only
/// named by an index. nullptr when there is none.
const Archive *installableArchive(const ProviderVersion &version, const Platform &platform);
const Provider *findProvider(const Catalog &catalog, const ProviderAddress &address);
const ProviderVersion *findVersion(const Provider &provider, const Version &version);
/// The newest version of `provider` with an installable package (any platform) that
/// `constraints` allow, or nullptr.
const ProviderVersion *newestAllowedVersion(const Provider &provider, const VersionConstraints &constraints);
/// Whether the providers an operation is limited to (`only`; empty: every provider) take in `address`.
bool providerWanted(const QList<ProviderAddress> &only, const ProviderAddress &address);

namespace lockedit {

/// Fails with InvalidArgument when the provider is already locked.
Result<LockFile> addProvider(const LockFile &doc, ProviderLock lock);
/// Fails with NotFound when the provider is not locked.
Result<LockFile> removeProvider(const LockFile &doc, const ProviderAddress &address);
/// Changes the version. The old hashes belong to the old version, so they are dropped unless
/// `keepHashes` (tofu records new hashes whenever it selects another version).
Result<LockFile> setVersion(const LockFile &doc, const ProviderAddress &address, const Version &version, bool keepHashes = false);
/// An empty set removes the `constraints` attribute.
Result<LockFile> setConstraints(const LockFile &doc, const ProviderAddress &address, const VersionConstraints &constraints);
/// Adds hashes (duplicates ignored; the list stays sorted).
Result<LockFile> addHashes(const LockFile &doc, const ProviderAddress &address, const QList<HashString> &hashes);
/// Removes the hashes given; hashes not present are ignored.
Result<LockFile> removeHashes(const LockFile &doc, const ProviderAddress &address, const QList<HashString> &hashes);

struct MirrorHashOptions
{
    QList<Platform> platforms;        ///< required: which platforms' archives to hash
    bool includeZh = false;           ///< also record the `zh:` of each zip
    QList<ProviderAddress> providers; ///< only these (empty: every locked provider)
    ArchiveHasher hasher;             ///< default: directArchiveHasher()
};

/// What happened for one (provider, platform).
struct MirrorHashNote
{
    enum class Kind {
        Added,           ///< hashes recorded (`hashes` lists them; some may have been there already)
        ProviderMissing, ///< the mirror has no such provider
        VersionMissing,  ///< the mirror has the provider but not the locked version
        PlatformMissing, ///< the version has no installable archive for the platform
        HashFailed,      ///< the archive could not be hashed (`message` says why)
        NoZipForZh,      ///< zh: asked for an unpacked package (only h1: recorded)
        Refused,         ///< terraform would not install it (installProblem(): no executable, not extractable)
    };
    Kind kind = Kind::Added;
    ProviderAddress provider;
    Version version;
    Platform platform;
    QList<HashString> hashes; ///< Added: the hashes computed for this platform
    int newHashes = 0;        ///< Added: how many of them were not in the lock yet
    QString archivePath;
    QString message;

    bool isProblem() const { return kind != Kind::Added && kind != Kind::NoZipForZh; }
};

struct MirrorEditResult
{
    LockFile document;
    QList<MirrorHashNote> notes;
    bool hasProblems() const;
};

/// Like `terraform providers lock -fs-mirror=DIR -platform=P...`: for each locked provider and
/// platform, hash the mirror's archive of the locked version and add the `h1:` of its extracted
/// content (plus `zh:` when asked) to the lock's hashes. Existing hashes are kept. Fails with
/// InvalidArgument when no platform is given. Problems (missing archives, hash failures) are
/// notes; the document then holds whatever could be added.
Result<MirrorEditResult> addHashesFromMirror(const LockFile &doc, const Catalog &mirror, const MirrorHashOptions &options);

struct UpgradeOptions
{
    QList<ProviderAddress> providers; ///< only these (empty: every locked provider)
    QList<Platform> platforms;        ///< hash these platforms of the new version (empty: every platform the mirror has)
    bool includeZh = false;
    ArchiveHasher hasher;
};

struct UpgradeNote
{
    enum class Kind {
        Upgraded,    ///< moved from `from` to `to`
        UpToDate,    ///< the locked version is the newest the mirror has that meets the constraints
        NotInMirror, ///< the mirror has no version of the provider that meets the constraints
    };
    Kind kind = Kind::UpToDate;
    ProviderAddress provider;
    Version from;
    Version to;
    QList<MirrorHashNote> hashNotes; ///< Upgraded: how the new hashes were obtained
};

struct UpgradeResult
{
    LockFile document;
    QList<UpgradeNote> notes;
    bool changed() const;
    bool hasProblems() const; ///< a hash note of an upgraded provider is a problem
};

/// Upgrade locked providers to the newest version in the mirror that meets their recorded
/// constraints (prereleases only when a constraint names them exactly, like tofu; versions with
/// no installable archive are not candidates). Never downgrades. An upgraded provider gets the
/// hashes of the new version's archives only.
Result<UpgradeResult> upgradeFromMirror(const LockFile &doc, const Catalog &mirror, const UpgradeOptions &options);

} // namespace lockedit

QString toString(lockedit::MirrorHashNote::Kind k);

} // namespace provender
