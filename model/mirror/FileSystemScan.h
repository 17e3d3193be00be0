#pragma once
// What the files of the filesystem scan share and nothing else includes: the descriptor and
// directory-listing helpers, the accumulators, and the two walkers. FileSystemMirror.cpp walks
// the root, host and namespace levels and builds the catalog (Scanner); FileSystemWalk.cpp walks a
// provider directory's versions and archives (DirWalker::walk); FileSystemIndexes.cpp checks its
// index documents against them (DirWalker::check).

#include "model/core/Logging.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/MirrorIndex.h"

#include <QByteArray>
#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace provender::fsscan {

inline constexpr QLatin1StringView kIndexJson("index.json");
inline constexpr QLatin1StringView kJsonSuffix(".json");

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

inline QString errnoText(int error)
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

inline QDateTime mtimeOf(const struct stat &st)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000, Qt::UTC);
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
    /// lstatEntry(), then for a symlink (`isLink`) the stat of its target; on failure records an
    /// anomaly ("broken symbolic link" for a link) and returns false.
    bool statEntry(int dirFd, const char *name, const QString &path, struct stat &st, bool &isLink)
    {
        if (!lstatEntry(dirFd, name, path, st))
            return false;
        isLink = S_ISLNK(st.st_mode);
        if (!isLink || ::fstatat(dirFd, name, &st, 0) == 0)
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
    /// Calls `visit(raw, name, entryPath)` for each entry of the directory `fd` at `path` (the raw
    /// name, decoded, and `path/name`); none when it cannot be listed (list() reported it).
    template<typename Visit> void forEachEntry(int fd, const QString &path, Visit &&visit)
    {
        DirNames names;
        if (!list(fd, path, names))
            return;
        for (qsizetype i = 0; i < names.size(); ++i) {
            const char *raw = names.at(i);
            const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
            visit(raw, name, path + QLatin1Char('/') + name);
        }
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

    /// Whether the entry is a directory (not followed when a symlink); else records why not: a
    /// symlink, or `notDirectory` for anything else.
    bool isDirectoryEntry(int fd, const char *raw, const QString &entryPath, const QString &notDirectory)
    {
        struct stat st;
        if (!lstatEntry(fd, raw, entryPath, st))
            return false;
        if (S_ISLNK(st.st_mode)) {
            anomaly(AnomalyKind::UnreadableEntry, entryPath,
                    QStringLiteral("symbolic link not followed: only the mirror directory itself may be a symlink"));
            return false;
        }
        if (!S_ISDIR(st.st_mode)) {
            anomaly(AnomalyKind::UnparseableName, entryPath, notDirectory);
            return false;
        }
        return true;
    }

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

/// What the index check found of a provider directory's index.json.
enum class IndexState { Absent, Ok, Malformed };

/// A <version>.json of a provider directory.
struct VersionDoc
{
    QString path;
    std::optional<MirrorVersionDocument> doc; ///< nullopt: malformed or unreadable
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
    IndexState readIndexJson(ProviderDir &dir, QSet<Version> &listed);
    QMap<Version, VersionDoc> readVersionJsons(ProviderDir &dir);
    void attachEntry(ProviderDir &dir, VersionAcc &va, const VersionDoc &vd, const MirrorArchiveEntry &entry, bool stale);
    void checkIndexListing(ProviderDir &dir, const QMap<Version, VersionDoc> &versionDocs, const QSet<Version> &listed);
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

} // namespace provender::fsscan
