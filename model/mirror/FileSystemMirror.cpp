#include "model/mirror/FileSystemMirror.h"

#include "model/core/Logging.h"
#include "model/mirror/MirrorIndex.h"

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <system_error>
#include <thread>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace provender {

namespace {

constexpr QLatin1StringView kIndexJson("index.json");
constexpr QLatin1StringView kJsonSuffix(".json");

/// Closes a file descriptor when it goes out of scope.
class Fd
{
public:
    explicit Fd(int fd = -1) : m_fd(fd) {}
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }

private:
    int m_fd;
};

QString errnoText(int error)
{
    return QString::fromLocal8Bit(std::strerror(error));
}

/// The entry names of a directory, sorted byte-wise like Go's filepath.Walk (`.`/`..` dropped).
/// One buffer holds every name (NUL-terminated), so a directory of 100,000 archives costs two
/// allocations, not 100,000.
class DirNames
{
public:
    qsizetype size() const { return qsizetype(m_offsets.size()); }
    const char *at(qsizetype i) const { return m_arena.constData() + m_offsets[size_t(i)]; }
    qsizetype length(qsizetype i) const { return qsizetype(std::strlen(at(i))); }

    /// Returns false (and sets `error`) when the directory cannot be read.
    bool read(int dirFd, int &error)
    {
        const int dupFd = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
        if (dupFd < 0) {
            error = errno;
            return false;
        }
        DIR *dir = ::fdopendir(dupFd);
        if (!dir) {
            error = errno;
            ::close(dupFd);
            return false;
        }
        ::rewinddir(dir);
        errno = 0;
        while (const dirent *e = ::readdir(dir)) {
            const char *n = e->d_name;
            if (!(n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0)))) {
                m_offsets.push_back(int(m_arena.size()));
                m_arena.append(n, qsizetype(std::strlen(n)) + 1);
            }
            errno = 0;
        }
        error = errno;
        ::closedir(dir);
        const char *base = m_arena.constData();
        std::sort(m_offsets.begin(), m_offsets.end(), [base](int a, int b) { return std::strcmp(base + a, base + b) < 0; });
        return error == 0;
    }

private:
    QByteArray m_arena;
    std::vector<int> m_offsets;
};

QDateTime mtimeOf(const struct stat &st)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000, Qt::UTC);
}

/// strings.ToLower: simple (one code point to one code point) lower-case mapping. QString::toLower
/// applies the full mapping (U+0130 becomes two code points), which Go does not.
QString goToLower(const QString &s)
{
    const bool ascii = std::all_of(s.cbegin(), s.cend(), [](QChar c) { return c.unicode() < 0x80; });
    if (ascii)
        return s.toLower();
    QString out;
    out.reserve(s.size());
    const QList<uint> codePoints = s.toUcs4();
    for (uint c : codePoints) {
        const char32_t lower = QChar::toLower(char32_t(c));
        out.append(QString::fromUcs4(&lower, 1));
    }
    return out;
}

bool isRegistryHost(const QString &comparisonHost)
{
    return comparisonHost == kOpenTofuRegistryHost || comparisonHost == kTerraformRegistryHost;
}

struct VersionAcc
{
    ProviderVersion pv;
    /// Index in pv.archives of the archive for `platform`, or -1. A linear search: versions
    /// have a handful of platforms, and a map would cost an allocation per archive.
    qsizetype primary(const Platform &platform) const
    {
        for (qsizetype i = 0; i < pv.archives.size(); ++i)
            if (pv.archives.at(i).platform == platform)
                return i;
        return -1;
    }
};
struct ProviderAcc
{
    Provider provider;
    QMap<Version, VersionAcc> versions;
};

/// Where an archive found in a directory went: the catalog keeps the only copy.
struct Found
{
    VersionAcc *va = nullptr;
    qsizetype index = 0;
    bool duplicate = false;

    const Archive &archive() const { return duplicate ? va->pv.duplicates.at(index) : va->pv.archives.at(index); }
    const Version &version() const { return va->pv.version; }
};

/// One physical HOST/NS/TYPE directory. A provider can have several (e.g. `AwesomeCorp` and
/// `awesomecorp`); index files are checked per directory, because their urls are relative to it.
struct ProviderDir
{
    ProviderAddress address;
    QString path;
    QByteArray relPath; ///< HOST/NS/TYPE as on disk (bytes), relative to the root
    ProviderAcc *acc = nullptr;
    std::vector<Found> found;                    ///< in walk order
    QString indexJson;                           ///< path of index.json ("" when absent)
    QList<QPair<Version, QString>> versionJsons; ///< canonical <version>.json files
    /// The anomalies of this directory's walk belong at this position of the serial walk's list
    /// (they are found on a worker thread, but a sequential walk would have put them there).
    qsizetype anomalyPosition = 0;
    QList<Anomaly> walkAnomalies;
    QList<Anomaly> indexAnomalies;
};

/// Records anomalies into a list (the serial walk's or one provider directory's).
class AnomalySink
{
protected:
    void anomaly(AnomalyKind kind, const QString &path, const QString &message, Location location = {})
    {
        qCDebug(lcMirror) << toString(kind) << path << message;
        m_out->append(Anomaly{kind, path, message, std::move(location)});
    }
    /// fstatat without following; on failure records an anomaly and returns false.
    bool lstatEntry(int dirFd, const char *name, const QString &path, struct stat &st)
    {
        if (::fstatat(dirFd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            return true;
        anomaly(AnomalyKind::UnreadableEntry, path, QStringLiteral("cannot read its metadata: ") + errnoText(errno));
        return false;
    }
    /// stat following a symlink; on failure records an anomaly and returns false.
    bool followLink(int dirFd, const char *name, const QString &path, struct stat &st)
    {
        if (::fstatat(dirFd, name, &st, 0) == 0)
            return true;
        anomaly(AnomalyKind::UnreadableEntry, path, QStringLiteral("broken symbolic link: ") + errnoText(errno));
        return false;
    }
    /// Opens a subdirectory found by lstat (never follows a link unless `follow`).
    int openDir(int dirFd, const char *name, const QString &path, bool follow = false)
    {
        const int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
        if (fd < 0)
            anomaly(AnomalyKind::UnreadableEntry, path, QStringLiteral("cannot open the directory: ") + errnoText(errno));
        return fd;
    }
    bool list(int fd, const QString &path, DirNames &names)
    {
        int error = 0;
        if (names.read(fd, error))
            return true;
        anomaly(AnomalyKind::UnreadableEntry, path, QStringLiteral("cannot list the directory: ") + errnoText(error));
        return false;
    }

    QList<Anomaly> *m_out = nullptr;
};

/// The root, HOST and NAMESPACE levels, on the calling thread: finds the provider directories
/// and creates their providers (the map is never touched by two threads).
class Scanner : public AnomalySink
{
public:
    explicit Scanner(Catalog &catalog) : m_catalog(catalog) { m_out = &catalog.anomalies; }

    void walkRoot(int fd, const QString &path);
    /// Walks every provider directory and checks its indexes, on `threads` threads.
    void scanProviderDirs(int rootFd, int threads);
    void buildCatalog();

private:
    void walkHost(int fd, const QString &path, const QString &hostName, const QString &host, const QByteArray &hostRaw);
    void walkNamespace(int fd, const QString &path, const QString &hostName, const QString &host, const QString &nsName,
                       const QByteArray &nsRelPath);

    ProviderAcc &providerAcc(const ProviderAddress &address, const QString &directory)
    {
        ProviderAcc &p = m_providers[address]; // QMap (std::map) nodes never move: references stay valid
        if (p.provider.address.isNull()) {
            p.provider.address = address;
            p.provider.directory = directory;
        }
        return p;
    }

    Catalog &m_catalog;
    std::vector<ProviderDir> m_dirs; ///< in walk order
    QMap<ProviderAddress, ProviderAcc> m_providers;
};

/// Scans provider directories: the archives in them (walk) and their index documents (check).
/// One per thread; a provider's directories are all scanned by the same walker, walks first.
class DirWalker : public AnomalySink
{
public:
    explicit DirWalker(int rootFd) : m_rootFd(rootFd) {}

    void walk(ProviderDir &dir)
    {
        m_out = &dir.walkAnomalies;
        // Reopened here rather than kept open from the serial walk: a mirror can hold more
        // provider directories than the process may have open files.
        Fd fd(::openat(m_rootFd, dir.relPath.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
        if (!fd.valid()) {
            anomaly(AnomalyKind::UnreadableEntry, dir.path, QStringLiteral("cannot open the directory: ") + errnoText(errno));
            return;
        }
        walkProvider(fd.get(), dir);
    }
    void check(ProviderDir &dir)
    {
        m_out = &dir.indexAnomalies;
        checkIndexes(dir);
    }

private:
    void walkProvider(int fd, ProviderDir &dir);
    void walkVersion(int fd, const QString &path, ProviderDir &dir, const Version &version);
    void packageContents(int fd, int depth, qint64 &size, QDateTime &newest);

    void checkIndexes(ProviderDir &dir);
    /// `expected`: how many archives of `version` the caller expects (a capacity hint).
    void addFound(ProviderDir &dir, const Version &version, Archive &&archive, qsizetype expected = 0);
    Result<PackedName> parsePacked(const QString &name, const QString &prefix);

    static VersionAcc &versionAcc(ProviderAcc &p, const Version &version)
    {
        auto it = p.versions.find(version);
        if (it == p.versions.end()) {
            it = p.versions.insert(version, VersionAcc{});
            it->pv.version = version;
        }
        return *it;
    }

    int m_rootFd;
    QHash<QString, PackedName> m_packedCache;
};

void Scanner::walkRoot(int fd, const QString &path)
{
    DirNames names;
    if (!list(fd, path, names))
        return;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
        const QString entryPath = path + QLatin1Char('/') + name;
        if (name.startsWith(QLatin1Char('.'))) {
            // Hidden entries (.git, caches) can never be a hostname; tofu skips them too.
            qCDebug(lcMirror) << "skipping hidden entry" << entryPath;
            continue;
        }
        struct stat st;
        if (!lstatEntry(fd, raw, entryPath, st))
            continue;
        if (S_ISLNK(st.st_mode)) {
            anomaly(AnomalyKind::UnreadableEntry, entryPath,
                    QStringLiteral("symbolic link not followed: only the mirror directory itself may be a symlink"));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not a directory: the top level of a mirror holds HOSTNAME directories"));
            continue;
        }
        Result<QString> host = ProviderAddress::normalizeHostname(name);
        if (!host) {
            anomaly(AnomalyKind::InvalidAddress, entryPath,
                    QStringLiteral("\"%1\" is not a valid provider registry hostname: %2").arg(name, host.error().message));
            continue;
        }
        Fd sub(openDir(fd, raw, entryPath));
        if (sub.valid())
            walkHost(sub.get(), entryPath, name, host.value(), QByteArray(raw));
    }
}

void Scanner::walkHost(int fd, const QString &path, const QString &hostName, const QString &host, const QByteArray &hostRaw)
{
    DirNames names;
    if (!list(fd, path, names))
        return;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
        const QString entryPath = path + QLatin1Char('/') + name;
        struct stat st;
        if (!lstatEntry(fd, raw, entryPath, st))
            continue;
        if (S_ISLNK(st.st_mode)) {
            anomaly(AnomalyKind::UnreadableEntry, entryPath,
                    QStringLiteral("symbolic link not followed: only the mirror directory itself may be a symlink"));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not a directory: a HOSTNAME directory holds NAMESPACE directories"));
            continue;
        }
        if (name == QLatin1Char('-')) {
            if (!isRegistryHost(host)) {
                anomaly(AnomalyKind::InvalidAddress, entryPath,
                        QStringLiteral("the legacy provider namespace \"-\" can be used only with hostname %1 or %2")
                            .arg(kOpenTofuRegistryHost, kTerraformRegistryHost));
                continue;
            }
        } else if (Result<QString> ns = ProviderAddress::normalizePart(name); !ns) {
            anomaly(AnomalyKind::InvalidAddress, entryPath,
                    QStringLiteral("\"%1\" is not a valid provider namespace: %2").arg(name, ns.error().message));
            continue;
        }
        Fd sub(openDir(fd, raw, entryPath));
        if (sub.valid())
            walkNamespace(sub.get(), entryPath, hostName, host, name, hostRaw + '/' + raw);
    }
}

void Scanner::walkNamespace(int fd, const QString &path, const QString &hostName, const QString &host, const QString &nsName,
                            const QByteArray &nsRelPath)
{
    DirNames names;
    if (!list(fd, path, names))
        return;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
        const QString entryPath = path + QLatin1Char('/') + name;
        struct stat st;
        if (!lstatEntry(fd, raw, entryPath, st))
            continue;
        if (S_ISLNK(st.st_mode)) {
            anomaly(AnomalyKind::UnreadableEntry, entryPath,
                    QStringLiteral("symbolic link not followed: only the mirror directory itself may be a symlink"));
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not a directory: a NAMESPACE directory holds provider TYPE directories"));
            continue;
        }
        if (Result<QString> type = ProviderAddress::normalizePart(name); !type) {
            anomaly(AnomalyKind::InvalidAddress, entryPath,
                    QStringLiteral("\"%1\" is not a valid provider type: %2").arg(name, type.error().message));
            continue;
        }
        const QString defaultHost = isRegistryHost(host) ? host : QString(kOpenTofuRegistryHost);
        const QString source = hostName + QLatin1Char('/') + nsName + QLatin1Char('/') + name;
        Result<ProviderAddress> address = ProviderAddress::parse(source, defaultHost);
        if (!address) {
            anomaly(AnomalyKind::InvalidAddress, entryPath, QStringLiteral("not a valid provider address: ") + address.error().message);
            continue;
        }
        // Opened here (and closed) so that a directory that cannot be opened is reported at its
        // place in the walk and makes no provider; DirWalker::walk opens it again.
        if (Fd sub(openDir(fd, raw, entryPath)); !sub.valid())
            continue;
        ProviderDir &dir = m_dirs.emplace_back();
        dir.address = address.value();
        dir.path = entryPath;
        dir.relPath = nsRelPath + '/' + raw;
        dir.acc = &providerAcc(dir.address, dir.path);
        dir.anomalyPosition = m_catalog.anomalies.size();
    }
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

void DirWalker::walkProvider(int fd, ProviderDir &dir)
{
    DirNames names;
    if (!list(fd, dir.path, names))
        return;
    dir.found.reserve(size_t(names.size()));
    const QString prefix = dir.path + QLatin1Char('/');
    const QString namePrefix = QStringLiteral("terraform-provider-") + dir.address.type() + QLatin1Char('_');
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
        // Exactly sized: `prefix + name` of two QStrings appends to a copy of `prefix`, which
        // allocates room to grow (almost twice the memory, for 100,000s of paths kept).
        QString entryPath(prefix.size() + name.size(), Qt::Uninitialized);
        std::copy(name.cbegin(), name.cend(), std::copy(prefix.cbegin(), prefix.cend(), entryPath.begin()));
        struct stat st;
        if (!lstatEntry(fd, raw, entryPath, st))
            continue;
        const bool isLink = S_ISLNK(st.st_mode);
        if (isLink && !followLink(fd, raw, entryPath, st))
            continue;

        if (S_ISDIR(st.st_mode)) {
            if (isLink) {
                anomaly(AnomalyKind::UnreadableEntry, entryPath,
                        QStringLiteral("symbolic link to a directory not followed: only the mirror directory itself may be a symlink"));
                continue;
            }
            Result<Version> version = Version::parse(name);
            if (!version) {
                anomaly(AnomalyKind::UnparseableName, entryPath, QStringLiteral("not a VERSION directory: ") + version.error().message);
                continue;
            }
            Fd sub(openDir(fd, raw, entryPath));
            if (sub.valid())
                walkVersion(sub.get(), entryPath, dir, version.value());
            continue;
        }
        if (!S_ISREG(st.st_mode)) {
            anomaly(AnomalyKind::UnreadableEntry, entryPath, QStringLiteral("not a regular file (a device, FIFO or socket is never read)"));
            continue;
        }

        if (name == kIndexJson) {
            dir.indexJson = entryPath;
            continue;
        }
        if (name.endsWith(kJsonSuffix)) {
            const QString stem = name.chopped(kJsonSuffix.size());
            Result<Version> version = Version::parse(stem);
            if (!version) {
                anomaly(AnomalyKind::UnparseableName, entryPath,
                        QStringLiteral("neither index.json nor a <version>.json: ") + version.error().message);
            } else if (version->toString() != stem) {
                anomaly(AnomalyKind::UnparseableName, entryPath,
                        QStringLiteral("not the canonical name of a version index: clients request %1.json").arg(version->toString()));
            } else {
                dir.versionJsons.append({version.value(), entryPath});
            }
            continue;
        }
        Result<PackedName> packed = parsePacked(name, namePrefix);
        if (!packed) {
            QString message = packed.error().message;
            if (name.startsWith(QLatin1Char('.')))
                message += QStringLiteral(" (a hidden file: maybe the staging file of an interrupted download)");
            anomaly(AnomalyKind::UnparseableName, entryPath, message);
            continue;
        }
        // A capacity hint for the version's archive list: at the first of a run of names with
        // the same "terraform-provider-TYPE_VERSION_" (sorted names: one version's platforms
        // are adjacent), the length of the run. Only for ASCII names (bytes == characters).
        qsizetype expected = 0;
        if (const qsizetype u = name.indexOf(QLatin1Char('_'), namePrefix.size()); u > 0 && names.length(i) == name.size()) {
            const auto sameVersion = [&](qsizetype j) { return std::strncmp(names.at(j), raw, size_t(u + 1)) == 0; };
            if (i == 0 || !sameVersion(i - 1))
                for (expected = 1; i + expected < names.size() && expected < 1024 && sameVersion(i + expected);)
                    ++expected;
        }
        Archive a;
        a.platform = packed->platform;
        a.layout = ArchiveLayout::Packed;
        a.present = true;
        a.path = entryPath;
        a.fileName = name;
        a.size = st.st_size;
        a.modified = mtimeOf(st);
        a.inode = st.st_ino;
        addFound(dir, packed->version, std::move(a), expected);
    }
}

void DirWalker::walkVersion(int fd, const QString &path, ProviderDir &dir, const Version &version)
{
    DirNames names;
    if (!list(fd, path, names))
        return;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
        const QString entryPath = path + QLatin1Char('/') + name;
        struct stat st;
        if (!lstatEntry(fd, raw, entryPath, st))
            continue;
        const bool isLink = S_ISLNK(st.st_mode);
        if (isLink && !followLink(fd, raw, entryPath, st))
            continue;
        if (!S_ISDIR(st.st_mode)) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not a directory: a VERSION directory holds OS_ARCH package directories"));
            continue;
        }
        Result<Platform> platform = Platform::parse(name);
        if (!platform) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not an OS_ARCH package directory: ") + platform.error().message);
            continue;
        }
        Archive a;
        a.platform = platform.value();
        a.layout = ArchiveLayout::Unpacked;
        a.present = true;
        a.path = entryPath;
        a.fileName = name;
        a.inode = st.st_ino;
        a.modified = mtimeOf(st);
        qint64 size = 0;
        Fd sub(openDir(fd, raw, entryPath, /*follow=*/isLink));
        if (sub.valid())
            packageContents(sub.get(), 0, size, a.modified);
        a.size = size;
        addFound(dir, version, std::move(a));
    }
}

/// Sum of the file sizes of a package directory and its newest mtime (so that a changed file
/// inside changes the archive's identity for the hash cache). Symlinked files count with their
/// target's size, like dirhash reads them; symlinked directories are not entered.
void DirWalker::packageContents(int fd, int depth, qint64 &size, QDateTime &newest)
{
    if (depth > 64)
        return;
    DirNames names;
    int error = 0;
    if (!names.read(fd, error))
        return; // the hash of this package will report the failure with its reason
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        struct stat st;
        if (::fstatat(fd, raw, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISLNK(st.st_mode) && ::fstatat(fd, raw, &st, 0) != 0)
            continue;
        const QDateTime m = mtimeOf(st);
        if (m > newest)
            newest = m;
        if (S_ISDIR(st.st_mode)) {
            const int sub = ::openat(fd, raw, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            if (sub >= 0) {
                packageContents(sub, depth + 1, size, newest);
                ::close(sub);
            }
        } else {
            size += st.st_size;
        }
    }
}

/// The file name `url` designates when it is a plain relative reference to a file in the same
/// directory as the JSON document (`name.zip`, `./name.zip`, percent-encoded or not); nullopt
/// for absolute, root-relative, parent or subdirectory references.
std::optional<QString> localFileName(const QString &url)
{
    if (url.isEmpty())
        return std::nullopt;
    // The common case, a plain file name as `providers mirror` writes it: nothing to decode.
    if (std::none_of(url.cbegin(), url.cend(),
                     [](QChar c) {
                         return c == QLatin1Char('/') || c == QLatin1Char('%') || c == QLatin1Char(':') || c == QLatin1Char('?')
                             || c == QLatin1Char('#');
                     })
        && url != QLatin1StringView(".") && url != QLatin1StringView(".."))
        return url;
    // A scheme (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":") before any '/', '?' or '#'.
    for (qsizetype i = 0; i < url.size(); ++i) {
        const QChar c = url.at(i);
        if (c == QLatin1Char(':')) {
            if (i > 0 && url.at(0).isLetter() && url.at(0).unicode() < 0x80)
                return std::nullopt;
            break;
        }
        if (c == QLatin1Char('/') || c == QLatin1Char('?') || c == QLatin1Char('#'))
            break;
        if (!(c.unicode() < 0x80 && (c.isLetterOrNumber() || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('.'))))
            break;
    }
    QString path = url;
    const auto cut = std::find_if(path.cbegin(), path.cend(), [](QChar c) { return c == QLatin1Char('?') || c == QLatin1Char('#'); });
    path.truncate(cut - path.cbegin());
    if (path.startsWith(QLatin1Char('/')))
        return std::nullopt; // root-relative or network-path reference
    const QString decoded = QString::fromUtf8(QByteArray::fromPercentEncoding(path.toUtf8()));
    QStringList segments = decoded.split(QLatin1Char('/'));
    QStringList kept;
    for (const QString &s : std::as_const(segments)) {
        if (s == QLatin1Char('.'))
            continue;
        if (s == QLatin1StringView(".."))
            return std::nullopt;
        kept.append(s);
    }
    if (kept.size() != 1 || kept.first().isEmpty())
        return std::nullopt;
    return kept.first();
}

} // namespace

// ---------------------------------------------------------------------------------------------

namespace {

constexpr QLatin1StringView kZipSuffix(".zip");

/// "VERSION_OS_ARCH[_MORE...]" of a lower-cased packed file name.
Result<PackedName> parsePackedMiddle(QStringView middle)
{
    const qsizetype u1 = middle.indexOf(QLatin1Char('_'));
    const qsizetype u2 = u1 < 0 ? -1 : middle.indexOf(QLatin1Char('_'), u1 + 1);
    if (u2 < 0)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("the name does not include a version number, target OS, and target architecture"));
    const qsizetype u3 = middle.indexOf(QLatin1Char('_'), u2 + 1); // further parts are ignored
    const QStringView versionText = middle.left(u1);
    Result<Version> version = Version::parse(versionText);
    if (!version)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("invalid version \"%1\": %2").arg(versionText.toString(), version.error().message));
    const QStringView platformText = middle.mid(u1 + 1, (u3 < 0 ? middle.size() : u3) - u1 - 1);
    Result<Platform> platform = Platform::parse(platformText);
    if (!platform)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("invalid platform \"%1\": %2").arg(platformText.toString(), platform.error().message));
    return PackedName{version.value(), platform.value()};
}

/// Splits a lower-cased file name into the middle part, or says why it is not a packed archive.
Result<QStringView> packedMiddle(const QString &lower, const QString &prefix)
{
    if (!lower.startsWith(prefix))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("not an archive of this provider: the name lacks the prefix \"%1\"").arg(prefix));
    if (!lower.endsWith(kZipSuffix) || lower.size() < prefix.size() + kZipSuffix.size())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("not an archive: the name lacks the suffix \".zip\""));
    return QStringView(lower).mid(prefix.size(), lower.size() - prefix.size() - kZipSuffix.size());
}

} // namespace

Result<PackedName> parsePackedArchiveName(const QString &fileName, const QString &type)
{
    const QString lower = goToLower(fileName);
    Result<QStringView> middle = packedMiddle(lower, QStringLiteral("terraform-provider-") + type + QLatin1Char('_'));
    if (!middle)
        return middle.error();
    return parsePackedMiddle(middle.value());
}

Result<PackedName> DirWalker::parsePacked(const QString &name, const QString &prefix)
{
    const QString lower = goToLower(name);
    Result<QStringView> middle = packedMiddle(lower, prefix);
    if (!middle)
        return middle.error();
    // Mirrors repeat the same VERSION_OS_ARCH across providers: parse each one once. The lookup
    // key borrows the characters (no allocation); only a new entry is copied.
    const QStringView m = middle.value();
    const QString key = QString::fromRawData(m.data(), m.size());
    if (const auto it = m_packedCache.constFind(key); it != m_packedCache.cend())
        return it.value();
    Result<PackedName> parsed = parsePackedMiddle(m);
    if (parsed && m_packedCache.size() < 200000)
        m_packedCache.insert(m.toString(), parsed.value());
    return parsed;
}

namespace {

AnomalyKind kindOf(MirrorIndexIssue::Kind kind)
{
    switch (kind) {
    case MirrorIndexIssue::Kind::InvalidVersionKey:
    case MirrorIndexIssue::Kind::InvalidPlatformKey: return AnomalyKind::UnparseableName;
    case MirrorIndexIssue::Kind::NoVersions: return AnomalyKind::ProviderUnavailable;
    case MirrorIndexIssue::Kind::InvalidHash:
    case MirrorIndexIssue::Kind::MissingUrl:
    case MirrorIndexIssue::Kind::NullArchive:
    case MirrorIndexIssue::Kind::TrailingData: break;
    }
    return AnomalyKind::MalformedJson;
}

/// The whole file, read with open/fstat/read into one buffer of its size (there can be tens of
/// thousands of these documents; QFile costs several allocations per file). `error` gets
/// strerror's text, as QFile::errorString() would.
QByteArray readSmallFile(const QString &path, QString *error)
{
    const Fd fd(::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC));
    struct stat st;
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0) {
        *error = errnoText(errno);
        return {};
    }
    // Index documents are small; a cap keeps a hostile 10 GiB "index.json" from eating memory.
    constexpr qint64 kMaxIndexBytes = 64 * 1024 * 1024;
    if (st.st_size > kMaxIndexBytes) {
        *error = QStringLiteral("larger than 64 MiB, not read");
        return {};
    }
    // One byte more than its size, to see the end of the file without a second buffer.
    QByteArray bytes(qsizetype(st.st_size) + 1, Qt::Uninitialized);
    qsizetype used = 0;
    for (;;) {
        if (used == bytes.size()) {
            if (used > kMaxIndexBytes) { // it grew while being read
                *error = QStringLiteral("larger than 64 MiB, not read");
                return {};
            }
            bytes.resize(std::max<qsizetype>(used * 2, 4096));
        }
        const ssize_t n = ::read(fd.get(), bytes.data() + used, size_t(bytes.size() - used));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *error = errnoText(errno);
            return {};
        }
        if (n == 0)
            break;
        used += n;
    }
    bytes.truncate(used);
    return bytes;
}

} // namespace

void DirWalker::checkIndexes(ProviderDir &dir)
{
    // --- read the documents
    enum class State { Absent, Ok, Malformed };
    State indexState = State::Absent;
    QSet<Version> listed;
    if (!dir.indexJson.isEmpty()) {
        QString readError;
        const QByteArray bytes = readSmallFile(dir.indexJson, &readError);
        Result<MirrorIndexDocument> doc =
            readError.isEmpty() ? parseIndexJson(bytes, dir.indexJson) : Result<MirrorIndexDocument>(makeError(ErrorCode::Io, readError));
        if (!doc) {
            indexState = State::Malformed;
            if (doc.error().code == ErrorCode::Io)
                anomaly(AnomalyKind::UnreadableEntry, dir.indexJson, QStringLiteral("cannot read: ") + doc.error().message);
            else
                anomaly(AnomalyKind::MalformedJson, dir.indexJson, doc.error().message, doc.error().location);
        } else {
            indexState = State::Ok;
            for (const MirrorIndexIssue &issue : std::as_const(doc->issues))
                anomaly(kindOf(issue.kind), dir.indexJson, issue.message, issue.location);
            for (const Version &v : std::as_const(doc->versions))
                listed.insert(v);
        }
    }

    struct VersionDoc
    {
        QString path;
        std::optional<MirrorVersionDocument> doc; ///< nullopt: malformed or unreadable
    };
    QMap<Version, VersionDoc> versionDocs;
    for (const auto &[version, path] : std::as_const(dir.versionJsons)) {
        QString readError;
        const QByteArray bytes = readSmallFile(path, &readError);
        VersionDoc vd{path, std::nullopt};
        if (!readError.isEmpty()) {
            anomaly(AnomalyKind::UnreadableEntry, path, QStringLiteral("cannot read: ") + readError);
        } else if (Result<MirrorVersionDocument> doc = parseVersionJson(bytes, path); !doc) {
            anomaly(AnomalyKind::MalformedJson, path, doc.error().message, doc.error().location);
        } else {
            for (const MirrorIndexIssue &issue : std::as_const(doc->issues))
                anomaly(kindOf(issue.kind), path, issue.message, issue.location);
            vd.doc = std::move(doc).value();
        }
        versionDocs.insert(version, vd);
    }

    ProviderAcc &acc = *dir.acc;
    if (indexState == State::Ok)
        acc.provider.hasIndex = true;

    // --- <version>.json: attach declared hashes, find absent archives, stale documents
    for (auto it = versionDocs.cbegin(); it != versionDocs.cend(); ++it) {
        const Version &version = it.key();
        const VersionDoc &vd = it.value();
        const bool stale = indexState == State::Absent || (indexState == State::Ok && !listed.contains(version));
        if (stale)
            anomaly(AnomalyKind::StaleVersionIndex, vd.path,
                    indexState == State::Absent
                        ? QStringLiteral("there is no index.json beside it, so no client ever reads it")
                        : QStringLiteral("index.json does not list %1, so no client ever reads this file").arg(version.toString()));
        if (!vd.doc)
            continue;
        if (stale && !acc.versions.contains(version))
            continue; // nothing to attach to; do not invent a version from a stale file
        VersionAcc &va = versionAcc(*dir.acc, version);
        va.pv.hasVersionIndex = true;

        for (const MirrorArchiveEntry &entry : vd.doc->archives) {
            const DeclaredArchive declared{entry.url, entry.hashes, vd.path, entry.invalidHashes};
            const std::optional<QString> local = localFileName(entry.url);
            const qsizetype primaryIndex = va.primary(entry.platform);
            Archive *primary = primaryIndex >= 0 ? &va.pv.archives[primaryIndex] : nullptr;

            auto addArchive = [&](Archive a) {
                a.declared = declared;
                if (!primary)
                    va.pv.archives.append(std::move(a));
                else
                    va.pv.duplicates.append(std::move(a));
            };

            if (!local) {
                // Served from elsewhere (absolute, root-relative or another directory): the copy
                // here, if any, is the one for this platform.
                if (primary) {
                    if (!primary->declared)
                        primary->declared = declared;
                } else if (!stale) {
                    anomaly(AnomalyKind::IndexListsAbsentArchive, vd.path,
                            QStringLiteral("lists %1 at \"%2\", which is not in this directory").arg(entry.key, entry.url));
                    Archive a;
                    a.platform = entry.platform;
                    a.fileName = entry.url.section(QLatin1Char('/'), -1).section(QLatin1Char('?'), 0, 0);
                    a.indexedOnly = true;
                    addArchive(std::move(a));
                }
                continue;
            }

            // Is `a` the file *local names in this directory? (Without building its path.)
            const auto isNamedFile = [&](const Archive &a) {
                return a.present && a.fileName == *local && a.path.size() == dir.path.size() + 1 + local->size()
                    && a.path.startsWith(dir.path);
            };
            // The url is mostly the file name itself: then the archive's copy of the name is
            // kept, and the document's string freed with the document.
            const auto declare = [&declared](Archive &a) {
                if (a.declared)
                    return;
                a.declared = declared;
                if (a.declared->url == a.fileName)
                    a.declared->url = a.fileName;
            };
            if (primary && isNamedFile(*primary)) {
                declare(*primary);
                continue;
            }
            auto dup = std::find_if(va.pv.duplicates.begin(), va.pv.duplicates.end(), isNamedFile);
            if (dup != va.pv.duplicates.end()) {
                declare(*dup);
                continue;
            }
            const QString path = dir.path + QLatin1Char('/') + *local;
            struct stat file;
            if (::stat(QFile::encodeName(path).constData(), &file) == 0 && S_ISREG(file.st_mode)) {
                // An existing file with a name outside the layout (or another platform's archive).
                Archive a;
                a.platform = entry.platform;
                a.present = true;
                a.path = path;
                a.fileName = *local;
                a.size = file.st_size;
                a.modified = mtimeOf(file);
                a.inode = file.st_ino;
                a.indexedOnly = true;
                addArchive(std::move(a));
                continue;
            }
            if (stale)
                continue;
            anomaly(
                AnomalyKind::IndexListsAbsentArchive, path,
                primary
                    ? QStringLiteral("%1 lists \"%2\" for %3, which is absent (the archive on disk for %3 is %4)")
                          .arg(QFileInfo(vd.path).fileName(), entry.url, entry.key, primary->fileName)
                    : QStringLiteral("%1 lists \"%2\" for %3, which is absent").arg(QFileInfo(vd.path).fileName(), entry.url, entry.key));
            Archive a;
            a.platform = entry.platform;
            a.fileName = *local;
            a.indexedOnly = true;
            addArchive(std::move(a));
        }
    }

    if (indexState != State::Ok)
        return;

    // --- index.json: versions it lists, archives it does not reach
    QSet<Version> packedHere;
    QSet<Version> unpackedHere;
    for (const Found &f : dir.found)
        (f.archive().layout == ArchiveLayout::Packed ? packedHere : unpackedHere).insert(f.version());
    QList<Version> listedSorted(listed.cbegin(), listed.cend());
    std::sort(listedSorted.begin(), listedSorted.end());
    for (const Version &version : std::as_const(listedSorted)) {
        VersionAcc &va = versionAcc(*dir.acc, version);
        va.pv.listedInIndex = true;
        if (versionDocs.contains(version) || packedHere.contains(version))
            continue;
        anomaly(
            AnomalyKind::IndexListsAbsentVersion, dir.indexJson,
            unpackedHere.contains(version)
                ? QStringLiteral(
                      "lists %1, but there is neither %1.json nor a packed archive of it (only unpacked packages, which network clients cannot download)")
                      .arg(version.toString())
                : QStringLiteral("lists %1, but there is neither %1.json nor an archive of it").arg(version.toString()),
            Location{dir.indexJson, 0, 0});
    }
    for (const Found &f : dir.found) {
        const Archive &archive = f.archive();
        if (archive.layout != ArchiveLayout::Packed || archive.declared)
            continue;
        const Version &version = f.version();
        const auto vd = versionDocs.constFind(version);
        QString why;
        if (!listed.contains(version)) {
            why = QStringLiteral("index.json does not list version %1").arg(version.toString());
        } else if (vd == versionDocs.cend()) {
            why = QStringLiteral("index.json lists %1 but %1.json is absent (clients get 404)").arg(version.toString());
        } else if (!vd->doc) {
            continue; // its <version>.json is malformed: already reported
        } else {
            QString url;
            for (const MirrorArchiveEntry &e : vd->doc->archives)
                if (e.platform == archive.platform)
                    url = e.url.isNull() ? QStringLiteral("") : e.url;
            why = url.isNull()
                ? QStringLiteral("%1.json does not list %2").arg(version.toString(), archive.platform.toString())
                : QStringLiteral("%1.json lists \"%2\" for %3 instead").arg(version.toString(), url, archive.platform.toString());
        }
        anomaly(AnomalyKind::ArchiveNotInIndex, archive.path, why);
    }
}

/// Archives arrive in walk order: the first copy of a version/platform is the one installers use.
void DirWalker::addFound(ProviderDir &dir, const Version &version, Archive &&archive, qsizetype expected)
{
    VersionAcc *va = dir.found.empty() ? nullptr : dir.found.back().va; // one version's archives are mostly adjacent
    if (!va || !(va->pv.version == version))
        va = &versionAcc(*dir.acc, version);
    const qsizetype existing = va->primary(archive.platform);
    if (existing < 0) {
        if (va->pv.archives.capacity() == 0 && expected > 1)
            va->pv.archives.reserve(expected); // instead of growing (and copying) it 1, 2, 4, 8, 16
        dir.found.push_back({va, va->pv.archives.size(), false});
        va->pv.archives.append(std::move(archive));
        return;
    }
    anomaly(AnomalyKind::DuplicateArchive, archive.path,
            QStringLiteral("another copy of %1 %2 for %3; installers use the first one, %4")
                .arg(dir.address.toString(), version.toString(), archive.platform.toString(), va->pv.archives.at(existing).path));
    dir.found.push_back({va, va->pv.duplicates.size(), true});
    va->pv.duplicates.append(std::move(archive));
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
