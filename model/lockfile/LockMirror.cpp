#include "model/lockfile/LockMirror.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockEdit.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/network/Credentials.h"
#include "model/network/RemoteVerify.h"

#include <QProcessEnvironment>
#include <QScopeGuard>
#include <QSet>

#include <memory>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

Result<LockMirror> openNetworkMirror(const QString &url, const LockMirrorRequest &request, QStringList *warnings,
                                     const std::atomic<bool> *cancel, const HttpSettings &http)
{
    QStringList read; // this read's warnings
    const auto done = qScopeGuard([&] { *warnings << read; });
    QString warning;
    const Result<QUrl> base = parseMirrorBaseUrl(url, http.allowHttpLoopback, &warning);
    if (!base.ok())
        return base.error();
    if (!warning.isEmpty())
        read << warning;
    NetworkMirrorOptions options;
    options.http = http;
    options.onlyVersions = request.onlyVersions;
    options.chooseVersions = request.choose;
    options.credential = findCredential(mirrorCredentialsHost(base.value()), QProcessEnvironment::systemEnvironment(), QString(), &read);
    const Result<NetworkCatalog> fetched = fetchNetworkCatalog(url, request.providers, options, cancel);
    if (!fetched.ok())
        return fetched.error();
    if (fetched->cancelled)
        return makeError(ErrorCode::Cancelled, u"cancelled"_s);
    for (const Anomaly &a : fetched->catalog.anomalies)
        read << a.message;
    // Only a complete read is kept for reuse: one with a document that could not be read is read
    // again by the next operation, which may get it.
    std::optional<LockMirrorRequest> readFor;
    if (fetched->catalog.anomalies.isEmpty())
        readFor = request;
    return LockMirror{url, fetched->catalog, options, readFor, read};
}

/// A read for `a` answers `b`: the same providers and versions, and no chooser (whose choice may
/// change with index.json).
bool sameRead(const LockMirrorRequest &a, const LockMirrorRequest &b)
{
    return !a.choose && !b.choose && a.providers == b.providers && a.onlyVersions == b.onlyVersions;
}

/// The archives of `catalog` whose paths are in `wanted`, in the catalog's order.
Catalog onlyArchives(const Catalog &catalog, const QSet<QString> &wanted)
{
    Catalog out;
    out.sourceKind = catalog.sourceKind;
    out.root = catalog.root;
    for (const Provider &p : catalog.providers) {
        Provider provider = p;
        provider.versions.clear();
        for (const ProviderVersion &v : p.versions) {
            ProviderVersion version = v;
            version.archives.removeIf([&](const Archive &a) { return !wanted.contains(a.path); });
            version.duplicates.clear();
            if (!version.archives.isEmpty())
                provider.versions.append(version);
        }
        if (!provider.versions.isEmpty())
            out.providers.append(provider);
    }
    return out;
}

/// The network branch of lockMirrorHasher: the archives asked for, downloaded in one run and
/// decided against the mirror's index; a package that is missing, fails to download or does not
/// match what the index declares gives an error instead of hashes.
ArchiveHasher downloadedHasher(const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation, HashRunSummary *run)
{
    QSet<QString> wanted;
    operation([&](const Archive &a) -> Result<PackageHashes> {
        wanted.insert(a.path);
        return makeError(ErrorCode::Cancelled, u"not downloaded yet"_s);
    });
    const Catalog needed = onlyArchives(mirror.catalog, wanted);
    RemoteVerifyOptions options;
    options.http = mirror.network->http; // archive downloads never carry the index token
    RemoteProgress progress;
    if (hashing.progress)
        progress = [report = hashing.progress](qint64 done, qint64 total) { (void)report(done, total); };
    const RemoteVerifyReport verified = verifyNetworkCatalog(needed, options, progress, hashing.cancel);
    if (run) {
        run->requests = int(wanted.size());
        run->bytesHashed = verified.bytesDownloaded;
        run->cancelled = hashing.cancel && hashing.cancel->load();
    }
    QHash<ArchiveKey, const ArchiveResult *> results; // one archive per provider, version and platform (duplicates cleared)
    for (const ArchiveResult &r : verified.report.results)
        results.insert(r.key, &r);
    QHash<QString, Result<PackageHashes>> byUrl;
    for (const Provider &p : needed.providers)
        for (const ProviderVersion &v : p.versions)
            for (const Archive &a : v.archives) {
                const ArchiveResult *r = results.value(ArchiveKey{p.address, v.version, a.platform});
                // What terraform installs: a package that matches what the index declares, or one
                // the index declares nothing checkable for.
                if (r && r->hashes && (r->detail.verdict == Verdict::Verified || r->detail.verdict == Verdict::Unverified))
                    byUrl.insert(a.path, *r->hashes);
                else
                    byUrl.insert(
                        a.path,
                        makeError(ErrorCode::Network, r ? (r->error.isEmpty() ? r->detail.reason : r->error) : u"not downloaded"_s));
            }
    return [byUrl](const Archive &a) -> Result<PackageHashes> {
        const auto it = byUrl.constFind(a.path);
        if (it == byUrl.constEnd())
            return makeError(ErrorCode::Internal, u"%1 was not downloaded"_s.arg(a.path));
        return *it;
    };
}

} // namespace

bool isNetworkMirrorLocation(const QString &location)
{
    return location.contains(u"://"_s);
}

LockMirrorRequest lockedVersions(const LockFile &lock, const QList<ProviderAddress> &only)
{
    LockMirrorRequest out;
    for (const ProviderLock &p : lock.providers)
        if (providerWanted(only, p.address)) {
            out.providers.append(p.address);
            out.onlyVersions[p.address].append(p.version);
        }
    return out;
}

LockMirrorRequest upgradeVersions(const LockFile &lock, const QList<ProviderAddress> &only)
{
    LockMirrorRequest out;
    for (const ProviderLock &p : lock.providers)
        if (providerWanted(only, p.address))
            out.providers.append(p.address);
    out.choose = [document = std::make_shared<const LockFile>(lock)](const ProviderAddress &provider, const QList<Version> &listed) {
        const ProviderLock *locked = document->find(provider);
        const std::optional<Version> best = locked ? newestAllowed(listed, locked->constraints) : std::nullopt;
        return best ? QList<Version>{*best} : QList<Version>{};
    };
    return out;
}

LockMirrorRequest provenanceVersions(const QList<HashProvenanceIndex::Wanted> &wanted)
{
    LockMirrorRequest out;
    for (const HashProvenanceIndex::Wanted &w : wanted) {
        if (!out.providers.contains(w.provider))
            out.providers << w.provider;
        out.onlyVersions[w.provider] << w.version;
    }
    return out;
}

Result<LockMirror> openLockMirror(const QString &location, const LockMirrorRequest &request, QStringList *warnings,
                                  const std::atomic<bool> *cancel, const HttpSettings &http)
{
    QStringList unused;
    if (isNetworkMirrorLocation(location))
        return openNetworkMirror(location, request, warnings ? warnings : &unused, cancel, http);
    Result<Catalog> c = scanFileSystemMirror(location);
    if (!c.ok())
        return c.error();
    return LockMirror::directory(location, c.value());
}

Result<LockMirror> lockMirrorFor(const LockMirror &opened, const LockMirrorRequest &request, QStringList *warnings,
                                 const std::atomic<bool> *cancel)
{
    if (!opened.network)
        return opened;
    if (opened.readFor && sameRead(*opened.readFor, request)) {
        if (warnings)
            *warnings << opened.readWarnings;
        return opened;
    }
    qCDebug(lcLock) << "reading the network mirror" << opened.location << "for" << request.providers.size() << "providers";
    return openLockMirror(opened.location, request, warnings, cancel, opened.network->http);
}

std::optional<QString> selectedVersionUnusable(const LockMirror &mirror)
{
    if (!mirror.network)
        return std::nullopt;
    for (const Provider &provider : mirror.catalog.providers)
        for (const ProviderVersion &v : provider.versions)
            if (!v.hasVersionIndex || v.archives.isEmpty())
                return u"%1 %2 is the selected version, but the mirror's %2%3"_s.arg(
                    provider.address.toString(), v.version.toString(),
                    v.hasVersionIndex ? u".json lists no package"_s : u".json could not be read (the warning above says why)"_s);
    return std::nullopt;
}

ArchiveHasher lockMirrorHasher(const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation, HashRunSummary *run)
{
    if (mirror.network)
        return downloadedHasher(mirror, hashing, operation, run);
    return prehashArchives(operation, hashing, run);
}

} // namespace provender
