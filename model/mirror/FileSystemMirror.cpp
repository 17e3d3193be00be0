#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/FileSystemScan.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSet>
#include <QThread>

#include <atomic>
#include <optional>
#include <system_error>
#include <thread>

namespace provender {

using namespace fsscan;

namespace {

bool isRegistryHost(const QString &comparisonHost)
{
    return comparisonHost == kOpenTofuRegistryHost || comparisonHost == kTerraformRegistryHost;
}

} // namespace

void Scanner::walkRoot(int fd, const QString &path)
{
    forEachEntry(fd, path, [&](const char *raw, const QString &name, const QString &entryPath) {
        if (name.startsWith(QLatin1Char('.'))) {
            // Hidden entries (.git, caches) can never be a hostname; tofu skips them too.
            qCDebug(lcMirror) << "skipping hidden entry" << entryPath;
            return;
        }
        if (!isDirectoryEntry(fd, raw, entryPath, QStringLiteral("not a directory: the top level of a mirror holds HOSTNAME directories")))
            return;
        Result<QString> host = ProviderAddress::normalizeHostname(name);
        if (!host) {
            anomaly(AnomalyKind::InvalidAddress, entryPath,
                    QStringLiteral("\"%1\" is not a valid provider registry hostname: %2").arg(name, host.error().message));
            return;
        }
        Fd sub(openDir(fd, raw, entryPath));
        if (sub.valid())
            walkHost(sub.get(), entryPath, name, host.value(), QByteArray(raw));
    });
}

void Scanner::walkHost(int fd, const QString &path, const QString &hostName, const QString &host, const QByteArray &hostRaw)
{
    forEachEntry(fd, path, [&](const char *raw, const QString &name, const QString &entryPath) {
        if (!isDirectoryEntry(fd, raw, entryPath, QStringLiteral("not a directory: a HOSTNAME directory holds NAMESPACE directories")))
            return;
        if (name == QLatin1Char('-')) {
            if (!isRegistryHost(host)) {
                anomaly(AnomalyKind::InvalidAddress, entryPath,
                        QStringLiteral("the legacy provider namespace \"-\" can be used only with hostname %1 or %2")
                            .arg(kOpenTofuRegistryHost, kTerraformRegistryHost));
                return;
            }
        } else if (Result<QString> ns = ProviderAddress::normalizePart(name); !ns) {
            anomaly(AnomalyKind::InvalidAddress, entryPath,
                    QStringLiteral("\"%1\" is not a valid provider namespace: %2").arg(name, ns.error().message));
            return;
        }
        Fd sub(openDir(fd, raw, entryPath));
        if (sub.valid())
            walkNamespace(sub.get(), entryPath, hostName, host, name, hostRaw + '/' + raw);
    });
}

void Scanner::walkNamespace(int fd, const QString &path, const QString &hostName, const QString &host, const QString &nsName,
                            const QByteArray &nsRelPath)
{
    forEachEntry(fd, path, [&](const char *raw, const QString &name, const QString &entryPath) {
        if (!isDirectoryEntry(fd, raw, entryPath, QStringLiteral("not a directory: a NAMESPACE directory holds provider TYPE directories")))
            return;
        if (Result<QString> type = ProviderAddress::normalizePart(name); !type) {
            anomaly(AnomalyKind::InvalidAddress, entryPath,
                    QStringLiteral("\"%1\" is not a valid provider type: %2").arg(name, type.error().message));
            return;
        }
        const QString defaultHost = isRegistryHost(host) ? host : QString(kOpenTofuRegistryHost);
        const QString source = hostName + QLatin1Char('/') + nsName + QLatin1Char('/') + name;
        Result<ProviderAddress> address = ProviderAddress::parse(source, defaultHost);
        if (!address) {
            anomaly(AnomalyKind::InvalidAddress, entryPath, QStringLiteral("not a valid provider address: ") + address.error().message);
            return;
        }
        // Opened here (and closed) so that a directory that cannot be opened is reported at its
        // place in the walk and makes no provider; DirWalker::walk opens it again.
        if (Fd sub(openDir(fd, raw, entryPath)); !sub.valid())
            return;
        ProviderDir &dir = m_dirs.emplace_back();
        dir.address = address.value();
        dir.path = entryPath;
        dir.relPath = nsRelPath + '/' + raw;
        dir.acc = &providerAcc(dir.address, dir.path);
        dir.anomalyPosition = m_catalog.anomalies.size();
    });
}

void Scanner::scanProviderDirs(int rootFd, int threads)
{
    // The directories of one provider share its ProviderAcc: they are scanned together, in walk
    // order, so its archives arrive in the same order as in a sequential walk (the first copy of
    // a version/platform is the one installers use), and its indexes are checked after all of
    // its directories were walked, against everything found.
    std::vector<std::vector<size_t>> groups;
    QHash<const ProviderAcc *, size_t> groupOf;
    for (size_t i = 0; i < m_dirs.size(); ++i) {
        auto it = groupOf.constFind(m_dirs[i].acc);
        if (it == groupOf.cend()) {
            it = groupOf.insert(m_dirs[i].acc, groups.size());
            groups.emplace_back();
        }
        groups[*it].push_back(i);
    }
    ProviderDir *const dirs = m_dirs.data();
    std::atomic<size_t> next{0};
    const auto work = [&] {
        DirWalker walker(rootFd);
        for (size_t g = next++; g < groups.size(); g = next++) {
            for (size_t i : groups[g])
                walker.walk(dirs[i]);
            for (size_t i : groups[g])
                walker.check(dirs[i]);
        }
    };
    if (threads <= 0)
        threads = std::min(QThread::idealThreadCount(), 8);
    threads = int(std::min<size_t>(size_t(std::max(threads, 1)), groups.size()));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error &e) {
            // No more threads (a resource limit): the ones running, or the calling thread
            // alone, take every group anyway.
            qCWarning(lcMirror) << "scan runs on fewer threads:" << e.what();
            break;
        }
    }
    work(); // the calling thread is one of the workers
    for (std::thread &t : pool)
        t.join();
    qCDebug(lcMirror) << groups.size() << "providers scanned on" << pool.size() + 1 << "threads";
}

void Scanner::buildCatalog()
{
    // The anomalies in the order of a sequential scan: the walk's (each provider directory's at
    // its place among the serial walk's), then the index checks', directory by directory.
    {
        QList<Anomaly> serial = std::move(m_catalog.anomalies);
        qsizetype total = serial.size();
        for (const ProviderDir &dir : m_dirs)
            total += dir.walkAnomalies.size() + dir.indexAnomalies.size();
        QList<Anomaly> all;
        all.reserve(total);
        qsizetype next = 0;
        for (ProviderDir &dir : m_dirs) {
            for (; next < dir.anomalyPosition; ++next)
                all.append(std::move(serial[next]));
            for (Anomaly &a : dir.walkAnomalies)
                all.append(std::move(a));
        }
        for (; next < serial.size(); ++next)
            all.append(std::move(serial[next]));
        for (ProviderDir &dir : m_dirs)
            for (Anomaly &a : dir.indexAnomalies)
                all.append(std::move(a));
        m_catalog.anomalies = std::move(all);
    }

    // The sorted snapshot. A provider directory with nothing in it is left out.
    m_catalog.providers.reserve(m_providers.size());
    for (auto pit = m_providers.begin(); pit != m_providers.end(); ++pit) {
        if (pit->versions.isEmpty() && !pit->provider.hasIndex)
            continue;
        Provider provider = std::move(pit->provider);
        provider.versions.reserve(pit->versions.size());
        for (auto vit = pit->versions.begin(); vit != pit->versions.end(); ++vit) {
            ProviderVersion pv = std::move(vit->pv);
            const auto byPlatform = [](const Archive &a, const Archive &b) { return a.platform < b.platform; };
            // Mostly sorted already (packed names sort by platform): then nothing to move.
            if (!std::is_sorted(pv.archives.cbegin(), pv.archives.cend(), byPlatform))
                std::stable_sort(pv.archives.begin(), pv.archives.end(), byPlatform);
            provider.versions.append(std::move(pv));
        }
        m_catalog.providers.append(std::move(provider));
    }
    // Sorted by path (byte-wise, as UTF-8); anomalies of one path keep their order. Each path is
    // converted once, not once per comparison.
    QList<Anomaly> &anomalies = m_catalog.anomalies;
    std::vector<QByteArray> keys;
    keys.reserve(size_t(anomalies.size()));
    for (const Anomaly &a : std::as_const(anomalies))
        keys.push_back(a.path.toUtf8());
    std::vector<qsizetype> order(size_t(anomalies.size()));
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = qsizetype(i);
    std::stable_sort(order.begin(), order.end(), [&keys](qsizetype a, qsizetype b) { return keys[size_t(a)] < keys[size_t(b)]; });
    QList<Anomaly> sorted;
    sorted.reserve(anomalies.size());
    for (qsizetype i : order)
        sorted.append(std::move(anomalies[i]));
    anomalies = std::move(sorted);
}

Result<Catalog> scanFileSystemMirror(const QString &root, const ScanOptions &options)
{
    const QFileInfo info(root);
    if (!info.exists())
        return makeError(ErrorCode::NotFound, QStringLiteral("%1: no such directory").arg(root));
    if (!info.isDir())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: not a directory").arg(root));
    // Like filepath.EvalSymlinks on the base: the mirror directory itself may be a symlink.
    const QString resolved = info.canonicalFilePath();
    Fd fd(::open(QFile::encodeName(resolved).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid())
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot open: %2").arg(root, errnoText(errno)));

    Catalog catalog;
    catalog.sourceKind = Catalog::SourceKind::Directory;
    catalog.root = QDir::cleanPath(info.absoluteFilePath());
    Scanner scanner(catalog);
    QElapsedTimer timer;
    timer.start();
    scanner.walkRoot(fd.get(), catalog.root);
    scanner.scanProviderDirs(fd.get(), options.threads);
    const qint64 walkMs = timer.elapsed();
    scanner.buildCatalog();
    qCDebug(lcMirror) << "walk" << walkMs << "ms, catalog" << timer.elapsed() - walkMs << "ms";
    qCDebug(lcMirror) << "scanned" << catalog.root << catalog.providers.size() << "providers" << catalog.archiveCount() << "archives"
                      << catalog.anomalies.size() << "anomalies";
    return catalog;
}

} // namespace provender
