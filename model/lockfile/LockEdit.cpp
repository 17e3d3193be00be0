#include "model/lockfile/LockEdit.h"

#include "model/core/Logging.h"
#include "model/verify/Verdict.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

ArchiveHasher directArchiveHasher()
{
    return [](const Archive &a) -> Result<PackageHashes> {
        if (!a.present || a.path.isEmpty())
            return makeError(ErrorCode::NotFound, u"the archive is not on disk"_s);
        return hashPackage(a.path);
    };
}

const Archive *installableArchive(const ProviderVersion &version, const Platform &platform)
{
    for (const Archive &a : version.archives)
        if (a.platform == platform && a.present && !a.indexedOnly)
            return &a;
    return nullptr;
}

const Provider *findProvider(const Catalog &catalog, const ProviderAddress &address)
{
    for (const Provider &p : catalog.providers)
        if (p.address == address)
            return &p;
    return nullptr;
}

const ProviderVersion *findVersion(const Provider &provider, const Version &version)
{
    // Exact (including metadata) first, then equal precedence.
    for (const ProviderVersion &v : provider.versions)
        if (v.version == version)
            return &v;
    for (const ProviderVersion &v : provider.versions)
        if (v.version.comparePrecedence(version) == 0)
            return &v;
    return nullptr;
}

const ProviderVersion *newestAllowedVersion(const Provider &provider, const VersionConstraints &constraints)
{
    QList<Version> installable;
    for (const ProviderVersion &v : provider.versions)
        if (std::any_of(v.archives.cbegin(), v.archives.cend(), [](const Archive &a) { return a.present && !a.indexedOnly; }))
            installable.append(v.version);
    const std::optional<Version> best = newestAllowed(installable, constraints);
    return best ? findVersion(provider, *best) : nullptr;
}

bool providerWanted(const QList<ProviderAddress> &only, const ProviderAddress &address)
{
    return only.isEmpty() || only.contains(address);
}

QString toString(lockedit::MirrorHashNote::Kind k)
{
    using K = lockedit::MirrorHashNote::Kind;
    switch (k) {
    case K::Added: return u"added"_s;
    case K::ProviderMissing: return u"provider not in mirror"_s;
    case K::VersionMissing: return u"version not in mirror"_s;
    case K::PlatformMissing: return u"platform not in mirror"_s;
    case K::HashFailed: return u"hash failed"_s;
    case K::NoZipForZh: return u"no zip for zh"_s;
    case K::Refused: return u"refused"_s;
    }
    return {};
}

namespace lockedit {

namespace {

Error notLocked(const ProviderAddress &address)
{
    return makeError(ErrorCode::NotFound, u"provider %1 is not in the lock file"_s.arg(address.toString()));
}

/// `doc` with the lock of `address` changed by `change` (called with a copy of it); an error when
/// `address` is not locked.
template<typename Change> Result<LockFile> withChangedLock(const LockFile &doc, const ProviderAddress &address, Change change)
{
    const ProviderLock *p = doc.find(address);
    if (!p)
        return notLocked(address);
    ProviderLock changed = *p;
    change(changed);
    LockFile out = doc;
    out.setProvider(std::move(changed));
    return out;
}

/// Checks that `doc` locks every provider `providers` names, then calls `each` with each lock of
/// `doc` that `providers` names (every lock when it names none).
template<typename Each> Result<void> forEachWantedLock(const LockFile &doc, const QList<ProviderAddress> &providers, Each each)
{
    for (const ProviderAddress &a : providers)
        if (!doc.contains(a))
            return notLocked(a);
    for (const ProviderLock &lock : doc.providers)
        if (providerWanted(providers, lock.address))
            each(lock);
    return {};
}

/// Hashes for one platform of one version, appended to `out` (and a note to `notes`).
void hashPlatform(const Provider *provider, const ProviderVersion *version, const ProviderAddress &address, const Version &locked,
                  const Platform &platform, bool includeZh, const ArchiveHasher &hasher, QList<HashString> &out,
                  QList<MirrorHashNote> &notes)
{
    MirrorHashNote note;
    note.provider = address;
    note.version = locked;
    note.platform = platform;
    if (!provider) {
        note.kind = MirrorHashNote::Kind::ProviderMissing;
        note.message = u"the mirror has no provider %1"_s.arg(address.toString());
        notes.append(note);
        return;
    }
    if (!version) {
        note.kind = MirrorHashNote::Kind::VersionMissing;
        note.message = u"the mirror has no version %1 of %2"_s.arg(locked.toString(), address.toString());
        notes.append(note);
        return;
    }
    const Archive *archive = installableArchive(*version, platform);
    if (!archive) {
        note.kind = MirrorHashNote::Kind::PlatformMissing;
        note.message = u"the mirror has no package of %1 %2 for %3"_s.arg(address.toString(), locked.toString(), platform.toString());
        notes.append(note);
        return;
    }
    note.archivePath = archive->path;
    const Result<PackageHashes> h = hasher(*archive);
    if (!h.ok()) {
        note.kind = MirrorHashNote::Kind::HashFailed;
        note.message = h.error().message;
        notes.append(note);
        return;
    }
    // `terraform providers lock` installs each package to hash it: what it cannot install, it
    // does not lock (and it writes nothing then).
    if (const QString problem = installProblem(*h, address.type()); !problem.isEmpty()) {
        note.kind = MirrorHashNote::Kind::Refused;
        note.message = u"terraform would not install %1: %2"_s.arg(archive->path, problem);
        notes.append(note);
        return;
    }
    note.hashes.append(h->h1Extracted);
    if (includeZh) {
        if (h->kind == PackageHashes::Kind::Zip && !h->zh.isNull()) {
            note.hashes.append(h->zh);
        } else {
            MirrorHashNote zhNote = note;
            zhNote.kind = MirrorHashNote::Kind::NoZipForZh;
            zhNote.hashes.clear();
            zhNote.message = u"%1 is an unpacked package: it has no zh: hash"_s.arg(archive->path);
            notes.append(zhNote);
        }
    }
    out += note.hashes;
    notes.append(note);
}

int countNew(const QList<HashString> &existing, const QList<HashString> &added)
{
    int n = 0;
    for (const HashString &h : added)
        n += existing.contains(h) ? 0 : 1;
    return n;
}

} // namespace

Result<LockFile> addProvider(const LockFile &doc, ProviderLock lock)
{
    if (doc.contains(lock.address))
        return makeError(ErrorCode::InvalidArgument, u"provider %1 is already in the lock file"_s.arg(lock.address.toString()));
    LockFile out = doc;
    out.setProvider(std::move(lock));
    return out;
}

Result<LockFile> removeProvider(const LockFile &doc, const ProviderAddress &address)
{
    LockFile out = doc;
    if (!out.removeProvider(address))
        return notLocked(address);
    return out;
}

Result<LockFile> setVersion(const LockFile &doc, const ProviderAddress &address, const Version &version, bool keepHashes)
{
    return withChangedLock(doc, address, [&](ProviderLock &lock) {
        if (!(lock.version == version) && !keepHashes)
            lock.hashes.clear();
        lock.version = version;
    });
}

Result<LockFile> setConstraints(const LockFile &doc, const ProviderAddress &address, const VersionConstraints &constraints)
{
    return withChangedLock(doc, address, [&](ProviderLock &lock) { lock.constraints = constraints; });
}

Result<LockFile> addHashes(const LockFile &doc, const ProviderAddress &address, const QList<HashString> &hashes)
{
    return withChangedLock(doc, address, [&](ProviderLock &lock) { lock.hashes += hashes; });
}

Result<LockFile> removeHashes(const LockFile &doc, const ProviderAddress &address, const QList<HashString> &hashes)
{
    return withChangedLock(doc, address,
                           [&](ProviderLock &lock) { lock.hashes.removeIf([&](const HashString &h) { return hashes.contains(h); }); });
}

bool MirrorEditResult::hasProblems() const
{
    return std::any_of(notes.cbegin(), notes.cend(), [](const MirrorHashNote &n) { return n.isProblem(); });
}

Result<MirrorEditResult> addHashesFromMirror(const LockFile &doc, const Catalog &mirror, const MirrorHashOptions &options)
{
    if (options.platforms.isEmpty())
        return makeError(ErrorCode::InvalidArgument, u"no platform given: name at least one platform (os_arch) to hash"_s);
    const ArchiveHasher hasher = options.hasher ? options.hasher : directArchiveHasher();
    MirrorEditResult result;
    result.document = doc;
    const Result<void> walked = forEachWantedLock(doc, options.providers, [&](const ProviderLock &lock) {
        const Provider *provider = findProvider(mirror, lock.address);
        const ProviderVersion *version = provider ? findVersion(*provider, lock.version) : nullptr;
        QList<HashString> added;
        for (const Platform &platform : options.platforms) {
            const qsizetype before = result.notes.size();
            hashPlatform(provider, version, lock.address, lock.version, platform, options.includeZh, hasher, added, result.notes);
            for (qsizetype i = before; i < result.notes.size(); ++i)
                if (result.notes[i].kind == MirrorHashNote::Kind::Added)
                    result.notes[i].newHashes = countNew(lock.hashes, result.notes[i].hashes);
        }
        if (!added.isEmpty()) {
            ProviderLock changed = lock;
            changed.hashes += added;
            result.document.setProvider(std::move(changed));
        }
    });
    if (!walked.ok())
        return walked.error();
    qCDebug(lcLock) << "add-hashes:" << result.notes.size() << "notes";
    return result;
}

bool UpgradeResult::changed() const
{
    return std::any_of(notes.cbegin(), notes.cend(), [](const UpgradeNote &n) { return n.kind == UpgradeNote::Kind::Upgraded; });
}

bool UpgradeResult::hasProblems() const
{
    for (const UpgradeNote &n : notes)
        for (const MirrorHashNote &h : n.hashNotes)
            if (h.isProblem())
                return true;
    return false;
}

namespace {

/// Upgrades `lock` in `document` to the newest version of `mirror` its constraints allow, hashed
/// for the platforms of `options`; what happened.
UpgradeNote upgradeLock(const ProviderLock &lock, const Catalog &mirror, const UpgradeOptions &options, const ArchiveHasher &hasher,
                        LockFile &document)
{
    UpgradeNote note;
    note.provider = lock.address;
    note.from = lock.version;
    note.to = lock.version;
    const Provider *provider = findProvider(mirror, lock.address);
    const ProviderVersion *best = provider ? newestAllowedVersion(*provider, lock.constraints) : nullptr;
    if (!best) {
        note.kind = UpgradeNote::Kind::NotInMirror;
        return note;
    }
    if (best->version.comparePrecedence(lock.version) <= 0) {
        note.kind = UpgradeNote::Kind::UpToDate;
        return note;
    }
    note.kind = UpgradeNote::Kind::Upgraded;
    note.to = best->version;
    QList<Platform> platforms = options.platforms;
    if (platforms.isEmpty())
        for (const Archive &a : best->archives)
            if (a.present && !a.indexedOnly && !platforms.contains(a.platform))
                platforms.append(a.platform);
    QList<HashString> hashes;
    for (const Platform &platform : platforms)
        hashPlatform(provider, best, lock.address, best->version, platform, options.includeZh, hasher, hashes, note.hashNotes);
    ProviderLock changed = lock;
    changed.version = best->version;
    changed.hashes = hashes;
    document.setProvider(std::move(changed));
    return note;
}

} // namespace

Result<UpgradeResult> upgradeFromMirror(const LockFile &doc, const Catalog &mirror, const UpgradeOptions &options)
{
    const ArchiveHasher hasher = options.hasher ? options.hasher : directArchiveHasher();
    UpgradeResult result;
    result.document = doc;
    const Result<void> walked = forEachWantedLock(doc, options.providers, [&](const ProviderLock &lock) {
        result.notes.append(upgradeLock(lock, mirror, options, hasher, result.document));
    });
    if (!walked.ok())
        return walked.error();
    return result;
}

} // namespace lockedit

} // namespace provender
