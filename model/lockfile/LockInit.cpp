#include "model/lockfile/LockInit.h"

#include "model/core/Logging.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

QString toString(lockinit::SelectionNote::Kind k)
{
    using K = lockinit::SelectionNote::Kind;
    switch (k) {
    case K::Selected: return u"selected"_s;
    case K::Kept: return u"kept"_s;
    case K::NoMatchingVersion: return u"no-matching-version"_s;
    case K::LockedOutsideConstraints: return u"locked-outside-constraints"_s;
    case K::NotLocked: return u"not-locked"_s;
    }
    return {};
}

namespace lockinit {

namespace {

Result<void> checkProviders(const ConfigRequirements &requirements, const QList<ProviderAddress> &providers)
{
    for (const ProviderAddress &a : providers)
        if (!requirements.find(a))
            return makeError(ErrorCode::InvalidArgument,
                             u"The provider %1 is not required by the current configuration."_s.arg(a.toString()));
    return {};
}

/// Selection for one provider that is not locked yet.
SelectionNote select(const ConfigProviderRequirement &req, const Catalog &mirror)
{
    SelectionNote n;
    n.provider = req.address;
    n.constraints = req.constraints;
    const Provider *p = findProvider(mirror, req.address);
    const ProviderVersion *v = p ? newestAllowedVersion(*p, req.constraints) : nullptr;
    if (!v) {
        n.kind = SelectionNote::Kind::NoMatchingVersion;
        n.message = req.constraints.isEmpty() ? u"the mirror has no version of %1"_s.arg(req.address.toString())
                                              : u"no available releases match the given constraints %1"_s.arg(req.constraints.toString());
        return n;
    }
    n.kind = SelectionNote::Kind::Selected;
    n.version = v->version;
    return n;
}

/// The newest version of `mirror` that meets `req`, locked with the requirement's constraints and
/// queued for hashing; its note either way.
void selectAndLock(const ConfigProviderRequirement &req, const Catalog &mirror, InitResult *result, QList<ProviderAddress> *toHash)
{
    SelectionNote n = select(req, mirror);
    if (n.kind == SelectionNote::Kind::Selected) {
        ProviderLock lock;
        lock.address = req.address;
        lock.version = n.version;
        lock.constraints = req.constraints;
        result->document.setProvider(lock);
        *toHash << req.address;
    }
    result->selections.append(n);
}

Result<InitResult> finish(InitResult result, const Catalog &mirror, const InitOptions &options, const QList<ProviderAddress> &toHash)
{
    if (result.hasProblems() || toHash.isEmpty())
        return result;
    const lockedit::MirrorHashOptions h{
        .platforms = options.platforms, .includeZh = options.includeZh, .providers = toHash, .hasher = options.hasher};
    const Result<lockedit::MirrorEditResult> r = lockedit::addHashesFromMirror(result.document, mirror, h);
    if (!r.ok())
        return r.error();
    result.document = r->document;
    result.hashNotes = r->notes;
    return result;
}

} // namespace

bool InitResult::hasProblems() const
{
    return std::any_of(selections.cbegin(), selections.cend(), [](const SelectionNote &n) { return n.isProblem(); })
        || std::any_of(hashNotes.cbegin(), hashNotes.cend(), [](const lockedit::MirrorHashNote &n) { return n.isProblem(); });
}

Result<InitResult> initFromMirror(const ConfigRequirements &requirements, const Catalog &mirror, const InitOptions &options)
{
    if (options.platforms.isEmpty())
        return makeError(ErrorCode::InvalidArgument, u"no platform given: name at least one platform (os_arch) to lock"_s);
    if (const Result<void> c = checkProviders(requirements, options.providers); !c.ok())
        return c.error();
    InitResult result;
    result.document.flavour = options.flavour;
    result.document.hasStandardHeader = true;
    QList<ProviderAddress> toHash;
    for (const ConfigProviderRequirement &req : requirements.providers) {
        if (!providerWanted(options.providers, req.address))
            continue;
        selectAndLock(req, mirror, &result, &toHash);
    }
    qCDebug(lcLock) << "lock init:" << result.selections.size() << "providers";
    return finish(std::move(result), mirror, options, toHash);
}

Result<InitResult> updateFromConfig(const LockFile &doc, const ConfigRequirements &requirements, const Catalog &mirror,
                                    const InitOptions &options)
{
    if (options.platforms.isEmpty())
        return makeError(ErrorCode::InvalidArgument, u"no platform given: name at least one platform (os_arch) to hash"_s);
    if (const Result<void> c = checkProviders(requirements, options.providers); !c.ok())
        return c.error();
    InitResult result;
    result.document = doc;
    QList<ProviderAddress> toHash;
    for (const ConfigProviderRequirement &req : requirements.providers) {
        if (!providerWanted(options.providers, req.address))
            continue;
        if (const ProviderLock *locked = doc.find(req.address)) {
            SelectionNote n;
            n.provider = req.address;
            n.version = locked->version;
            n.constraints = req.constraints;
            if (!req.constraints.allows(locked->version)) {
                n.kind = SelectionNote::Kind::LockedOutsideConstraints;
                n.message =
                    u"locked provider %1 %2 does not match configured version constraint %3; must use terraform init -upgrade to allow selection of new versions"_s
                        .arg(req.address.toString(), locked->version.toString(), req.constraints.toString());
            } else {
                n.kind = SelectionNote::Kind::Kept;
                ProviderLock changed = *locked;
                changed.constraints = req.constraints;
                result.document.setProvider(changed);
                toHash << req.address;
            }
            result.selections.append(n);
            continue;
        }
        selectAndLock(req, mirror, &result, &toHash);
    }
    return finish(std::move(result), mirror, options, toHash);
}

QList<Version> versionsToRead(const ConfigRequirements &requirements, const LockFile *doc, const ProviderAddress &provider,
                              const QList<Version> &listed)
{
    const ConfigProviderRequirement *req = requirements.find(provider);
    if (!req)
        return {};
    if (const ProviderLock *locked = doc ? doc->find(provider) : nullptr)
        return req->constraints.allows(locked->version) && listed.contains(locked->version) ? QList<Version>{locked->version}
                                                                                            : QList<Version>{};
    const std::optional<Version> best = newestAllowed(listed, req->constraints);
    return best ? QList<Version>{*best} : QList<Version>{};
}

LockFile withConfigConstraints(const LockFile &doc, const ConfigRequirements &requirements, QList<ProviderAddress> *providers,
                               QList<SelectionNote> *notes)
{
    LockFile out = doc;
    QList<ProviderAddress> keep;
    for (const ConfigProviderRequirement &req : requirements.providers) {
        if (!providerWanted(*providers, req.address))
            continue;
        const ProviderLock *locked = doc.find(req.address);
        if (!locked) {
            SelectionNote n;
            n.kind = SelectionNote::Kind::NotLocked;
            n.provider = req.address;
            n.constraints = req.constraints;
            n.message = u"required by the configuration but not locked (lock add-hashes --config adds it)"_s;
            notes->append(n);
            continue;
        }
        ProviderLock changed = *locked;
        changed.constraints = req.constraints;
        out.setProvider(changed);
        keep << req.address;
    }
    *providers = keep;
    return out;
}

} // namespace lockinit

} // namespace provender
