#include "model/lockfile/LockCheck.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

int LockCheckResult::count(Verdict v) const
{
    int n = 0;
    for (const LockCheckRow &r : rows)
        for (const LockCheckCell &c : r.cells)
            n += c.verdict() == v ? 1 : 0;
    return n;
}

bool LockCheckResult::hasFindings() const
{
    return count(Verdict::Mismatch) + count(Verdict::Missing) + count(Verdict::Error) + count(Verdict::Refused) > 0;
}

LockCheckResult checkLockAgainstMirror(const LockFile &lock, const Catalog &mirror, const LockCheckOptions &options)
{
    const ArchiveHasher hasher = options.hasher ? options.hasher : directArchiveHasher();
    LockCheckResult result;
    QList<Platform> columns = options.platforms;
    const bool automatic = columns.isEmpty();

    for (const ProviderLock &p : lock.providers) {
        LockCheckRow row;
        row.address = p.address;
        row.version = p.version;
        const Provider *provider = findProvider(mirror, p.address);
        row.providerInMirror = provider != nullptr;
        const ProviderVersion *version = provider ? findVersion(*provider, p.version) : nullptr;
        row.versionInMirror = version != nullptr;
        if (version)
            for (const Archive &a : version->archives)
                if (a.present && !a.indexedOnly && !row.mirrorPlatforms.contains(a.platform))
                    row.mirrorPlatforms.append(a.platform);
        if (automatic)
            for (const Platform &pl : row.mirrorPlatforms)
                if (!columns.contains(pl))
                    columns.append(pl);
        result.rows.append(row);
    }
    if (automatic)
        std::sort(columns.begin(), columns.end());
    result.platforms = columns;

    for (qsizetype r = 0; r < result.rows.size(); ++r) {
        LockCheckRow &row = result.rows[r];
        const ProviderLock &p = lock.providers.at(r);
        const Provider *provider = findProvider(mirror, p.address);
        const ProviderVersion *version = provider ? findVersion(*provider, p.version) : nullptr;
        for (const Platform &platform : columns) {
            LockCheckCell cell;
            cell.platform = platform;
            if (!provider) {
                cell.detail.verdict = Verdict::Missing;
                cell.detail.reason = u"the mirror has no provider %1"_s.arg(p.address.toString());
            } else if (!version) {
                cell.detail.verdict = Verdict::Missing;
                cell.detail.reason = u"the mirror has no version %1 of %2"_s.arg(p.version.toString(), p.address.toString());
            } else if (const Archive *a = installableArchive(*version, platform)) {
                cell.archivePath = a->path;
                const Result<PackageHashes> h = hasher(*a);
                if (!h.ok()) {
                    cell.detail.verdict = Verdict::Error;
                    cell.detail.reason = h.error().message;
                } else {
                    cell.hashes = h.value();
                    cell.detail = verifyAgainstLock(h.value(), p.hashes);
                    applyInstallCheck(cell.detail, h.value(), p.address.type()); // what terraform would not install
                }
            } else {
                cell.detail.verdict = Verdict::Missing;
                cell.detail.reason =
                    u"the mirror has no package of %1 %2 for %3"_s.arg(p.address.toString(), p.version.toString(), platform.toString());
            }
            row.cells.append(cell);
        }
    }
    return result;
}

} // namespace provender
