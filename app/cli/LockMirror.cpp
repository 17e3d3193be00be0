#include "app/cli/LockMirror.h"

#include "app/cli/Cli.h"
#include "app/cli/HashingOptions.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/network/Credentials.h"
#include "model/network/RemoteVerify.h"

#include <QProcessEnvironment>
#include <QSet>

using namespace Qt::StringLiterals;

namespace provender::cli {

namespace {

std::optional<LockMirror> openNetworkMirror(const QString &command, const QString &url, const QList<ProviderAddress> &providers,
                                            const QHash<ProviderAddress, QList<Version>> &onlyVersions, const VersionChooser &choose)
{
    QString warning;
    const Result<QUrl> base = parseMirrorBaseUrl(url, false, &warning);
    if (!base.ok()) {
        err() << command << ": " << base.error().message << '\n';
        return std::nullopt;
    }
    if (!warning.isEmpty())
        err() << command << ": warning: " << warning << '\n';
    NetworkMirrorOptions options;
    options.onlyVersions = onlyVersions;
    options.chooseVersions = choose;
    QStringList credentialWarnings;
    options.credential =
        findCredential(mirrorCredentialsHost(base.value()), QProcessEnvironment::systemEnvironment(), QString(), &credentialWarnings);
    for (const QString &w : std::as_const(credentialWarnings))
        err() << command << ": warning: " << w << '\n';
    const Result<NetworkCatalog> fetched = fetchNetworkCatalog(url, providers, options);
    if (!fetched.ok()) {
        err() << command << ": " << fetched.error().message << '\n';
        return std::nullopt;
    }
    for (const Anomaly &a : fetched->catalog.anomalies)
        err() << command << ": warning: " << a.message << '\n';
    return LockMirror{fetched->catalog, options};
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
ArchiveHasher downloadedHasher(const LockMirror &mirror, const std::function<void(const ArchiveHasher &record)> &operation)
{
    QSet<QString> wanted;
    operation([&](const Archive &a) -> Result<PackageHashes> {
        wanted.insert(a.path);
        return makeError(ErrorCode::Cancelled, u"not downloaded yet"_s);
    });
    const Catalog needed = onlyArchives(mirror.catalog, wanted);
    RemoteVerifyOptions options;
    options.http = mirror.network->http; // archive downloads never carry the index token
    const RemoteVerifyReport verified = verifyNetworkCatalog(needed, options);
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

std::optional<LockMirror> openLockMirror(const QString &command, const QString &location, const QList<ProviderAddress> &providers,
                                         const QHash<ProviderAddress, QList<Version>> &onlyVersions, const VersionChooser &choose)
{
    if (location.contains(u"://"_s))
        return openNetworkMirror(command, location, providers, onlyVersions, choose);
    Result<Catalog> c = scanFileSystemMirror(location);
    if (!c.ok()) {
        err() << location << ": error: " << c.error().message << '\n';
        return std::nullopt;
    }
    return LockMirror{std::move(c).value(), std::nullopt};
}

bool selectedVersionUnusable(const LockMirror &mirror, const QString &path, const QString &outcome)
{
    if (!mirror.network)
        return false;
    for (const Provider &provider : mirror.catalog.providers)
        for (const ProviderVersion &v : provider.versions)
            if (!v.hasVersionIndex || v.archives.isEmpty()) {
                err() << path << ": " << outcome << ": " << provider.address.toString() << ' ' << v.version.toString()
                      << " is the selected version, but the mirror's " << v.version.toString()
                      << (v.hasVersionIndex ? u".json lists no package"_s : u".json could not be read (the warning above says why)"_s)
                      << '\n';
                return true;
            }
    return false;
}

ArchiveHasher lockMirrorHasher(const QString &command, const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation)
{
    if (mirror.network)
        return downloadedHasher(mirror, operation);
    HashRunOptions options = hashing;
    options.progress = hashingProgress();
    HashRunSummary run;
    ArchiveHasher hasher = prehashArchives(operation, options, &run);
    clearHashingProgress();
    printCacheWarning(command, run.cacheWarning);
    return hasher;
}

} // namespace provender::cli
