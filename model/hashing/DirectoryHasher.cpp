// h1: of an unpacked package directory: dirhash.HashDir(dir, "", Hash1) (tofu-formats.md §3.2).
//
// Names come from an lstat walk that never descends into symlinked directories (Go's
// filepath.Walk); every non-directory is a file, and its content is read with open(), which
// follows symlinks: a symlink to a file hashes the target, a symlink to a directory is an error.
// POSIX calls instead of QDirIterator because names are raw bytes: a non-UTF-8 file name must
// hash with its exact bytes.

#include "model/hashing/PackageHashes.h"

#include "model/core/Logging.h"
#include "model/hashing/HashingInternal.h"
#include "model/hashing/Sha256.h"

#include <QFile>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace provender {

using namespace hashing_detail;

namespace {

QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

struct FoundFile
{
    QByteArray name; ///< relative, '/'-separated
    qint64 size = 0; ///< for progress only (stat of the target; 0 when that fails)
};

/// Lists every non-directory below `root` (an absolute, symlink-free path).
Result<QList<FoundFile>> walk(const QByteArray &root)
{
    QList<FoundFile> files;
    QList<QByteArray> pending{QByteArray()}; // relative directory paths still to read
    while (!pending.isEmpty()) {
        const QByteArray rel = pending.takeLast();
        const QByteArray dirPath = rel.isEmpty() ? root : root + '/' + rel;
        DIR *dir = ::opendir(dirPath.constData());
        if (!dir) {
            const int err = errno;
            return makeError(
                ErrorCode::Io,
                QStringLiteral("cannot read directory %1: %2").arg(displayName(rel.isEmpty() ? QByteArray(".") : rel), errnoText(err)));
        }
        const int dfd = ::dirfd(dir);
        QList<QByteArray> subdirs;
        errno = 0;
        while (const dirent *ent = ::readdir(dir)) {
            const QByteArray name(ent->d_name);
            if (name == "." || name == "..")
                continue;
            const QByteArray relName = rel.isEmpty() ? name : rel + '/' + name;
            struct stat st;
            if (::fstatat(dfd, ent->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                const int err = errno;
                ::closedir(dir);
                return makeError(ErrorCode::Io, QStringLiteral("cannot stat %1: %2").arg(displayName(relName), errnoText(err)));
            }
            if (S_ISDIR(st.st_mode)) {
                subdirs.append(relName);
                continue;
            }
            FoundFile f{relName, 0};
            if (S_ISLNK(st.st_mode)) {
                struct stat target;
                if (::fstatat(dfd, ent->d_name, &target, 0) == 0 && S_ISREG(target.st_mode))
                    f.size = qint64(target.st_size);
            } else if (S_ISREG(st.st_mode)) {
                f.size = qint64(st.st_size);
            }
            files.append(std::move(f));
            errno = 0;
        }
        const int readErr = errno;
        ::closedir(dir);
        if (readErr != 0)
            return makeError(
                ErrorCode::Io,
                QStringLiteral("cannot read directory %1: %2").arg(displayName(rel.isEmpty() ? QByteArray(".") : rel), errnoText(readErr)));
        // Depth-first in any order: the names are sorted before hashing.
        pending.append(subdirs);
    }
    return files;
}

/// SHA-256 of one file's content, following symlinks; refuses directories and special files
/// (Go would block forever on a FIFO; we never hang).
Result<QByteArray> hashOneFile(const QByteArray &path, const QByteArray &relName, char *buffer, ProgressTicker &ticker)
{
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        const int err = errno;
        return makeError(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                         QStringLiteral("cannot open %1: %2").arg(displayName(relName), errnoText(err)));
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return makeError(ErrorCode::Io, QStringLiteral("cannot stat %1: %2").arg(displayName(relName), errnoText(err)));
    }
    if (!S_ISREG(st.st_mode)) {
        const bool isDir = S_ISDIR(st.st_mode);
        ::close(fd);
        if (isDir)
            return makeError(
                ErrorCode::Io,
                QStringLiteral("read %1: is a directory (a symlink to a directory cannot be hashed)").arg(displayName(relName)));
        return makeError(ErrorCode::Unsupported, QStringLiteral("%1 is not a regular file").arg(displayName(relName)));
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    Sha256 sha;
    for (;;) {
        const ssize_t n = ::read(fd, buffer, ChunkSize);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int err = errno;
            ::close(fd);
            return makeError(ErrorCode::Io, QStringLiteral("read %1: %2").arg(displayName(relName), errnoText(err)));
        }
        if (n == 0)
            break;
        sha.addData(buffer, std::size_t(n));
        if (!ticker.advance(n)) {
            ::close(fd);
            return cancelledError();
        }
    }
    ::close(fd);
    QByteArray digest = sha.result();
    if (digest.size() != Sha256::DigestSize)
        return makeError(ErrorCode::Internal, QStringLiteral("SHA-256 failed"));
    return digest;
}

} // namespace

Result<PackageHashes> hashDirectory(const QString &dirPath, const HashProgress &progress)
{
    const QByteArray encoded = QFile::encodeName(dirPath);
    // filepath.EvalSymlinks: the package directory itself may be a symlink (cache linking).
    std::unique_ptr<char, decltype(&std::free)> real(::realpath(encoded.constData(), nullptr), &std::free);
    if (!real) {
        const int err = errno;
        return makeError(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                         QStringLiteral("cannot resolve %1: %2").arg(dirPath, errnoText(err)));
    }
    const QByteArray root(real.get());
    struct stat st;
    if (::stat(root.constData(), &st) != 0 || !S_ISDIR(st.st_mode))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1 is not a directory").arg(dirPath));

    Result<QList<FoundFile>> listed = walk(root);
    if (!listed.ok())
        return listed.error();
    const QList<FoundFile> &files = listed.value();
    qint64 total = 0;
    for (const FoundFile &f : files) {
        if (f.name.contains('\n'))
            return makeError(ErrorCode::Unsupported, newlineNameMessage());
        total += f.size;
    }

    ProgressTicker ticker(progress, total);
    const std::unique_ptr<char[]> buffer(new char[ChunkSize]);
    QList<DirhashEntry> entries;
    entries.reserve(files.size());
    PackageHashes out;
    out.kind = PackageHashes::Kind::Directory;
    for (const FoundFile &f : files) {
        Result<QByteArray> digest = hashOneFile(root + '/' + f.name, f.name, buffer.get(), ticker);
        if (!digest.ok())
            return digest.error();
        entries.append(DirhashEntry{f.name, std::move(digest).value()});
    }
    out.contentBytes = ticker.done();
    if (!ticker.finish())
        return cancelledError();
    Result<HashString> h1 = dirhash1(std::move(entries));
    if (!h1.ok())
        return h1.error();
    out.h1Extracted = h1.value();
    out.entryCount = int(files.size());
    {
        QList<QByteArray> names;
        names.reserve(files.size());
        for (const FoundFile &f : files)
            names.append(f.name);
        out.executableCandidates = executableCandidatesOf(names);
    }
    qCDebug(lcHash) << "hashed directory" << dirPath << out.entryCount << "files" << out.h1Extracted.toString();
    return out;
}

} // namespace provender
