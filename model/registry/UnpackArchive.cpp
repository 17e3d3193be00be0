#include "model/registry/UnpackArchive.h"

#include "model/hashing/PackageHashes.h"

#include <QDir>
#include <QFile>
#include <QSet>

#include <quazip/quazip.h>
#include <quazip/unzip.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

Error refused(const QString &why)
{
    return makeError(ErrorCode::Unsupported, u"cannot be unpacked safely: "_s + why);
}

// Go's archive/zip FileHeader.Mode() type bits, Unix creators only (FAT/NTFS have no links).
quint32 unixMode(const unz_file_info64 &info)
{
    const quint32 creator = quint32(info.version) >> 8;
    return creator == 3 || creator == 19 ? quint32(info.external_fa) >> 16 : 0;
}

bool attributesSayDirectory(const unz_file_info64 &info)
{
    switch (quint32(info.version) >> 8) {
    case 3:
    case 19: return (unixMode(info) & 0xF000) == 0x4000;
    case 0:
    case 11:
    case 14: return (info.external_fa & 0x10) != 0;
    default: return false;
    }
}

/// The name's components without empty and "." ones (hashZip already refused `..` and absolute names).
QList<QByteArray> components(const QByteArray &name)
{
    QList<QByteArray> out;
    for (const QByteArray &c : name.split('/'))
        if (!c.isEmpty() && c != ".")
            out << c;
    return out;
}

bool makeDirectory(const QByteArray &path)
{
    if (::mkdir(path.constData(), 0755) == 0)
        return true;
    struct stat st;
    return errno == EEXIST && ::lstat(path.constData(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

Result<void> unpackProviderZip(const QString &zipPath, const QString &targetDir)
{
    const Result<PackageHashes> judged = hashZip(zipPath);
    if (!judged)
        return judged.error();
    if (!judged->extractionProblem.isEmpty())
        return refused(judged->extractionProblem);
    if (!judged->unsafeNames.isEmpty())
        return refused(u"unsafe entry name %1"_s.arg(judged->unsafeNames.first()));

    const QByteArray root = QFile::encodeName(QDir::cleanPath(targetDir));
    if (::mkdir(root.constData(), 0755) != 0)
        return makeError(ErrorCode::Io, u"cannot create %1: %2"_s.arg(targetDir, QString::fromLocal8Bit(strerror(errno))));

    QuaZip zip(zipPath);
    if (!zip.open(QuaZip::mdUnzip))
        return makeError(ErrorCode::CorruptArchive, u"not a valid zip file"_s);
    unzFile uf = zip.getUnzFile();
    QSet<QByteArray> written;
    std::vector<char> nameBuffer(65536 + 1);
    std::vector<char> buffer(1 << 18);
    int rc = unzGoToFirstFile(uf);
    for (; rc == UNZ_OK; rc = unzGoToNextFile(uf)) {
        unz_file_info64 info;
        if (unzGetCurrentFileInfo64(uf, &info, nameBuffer.data(), uLong(nameBuffer.size()), nullptr, 0, nullptr, 0) != UNZ_OK)
            return makeError(ErrorCode::CorruptArchive, u"cannot read the central directory"_s);
        const QByteArray name(nameBuffer.data(), qsizetype(qMin<uLong>(info.size_filename, uLong(nameBuffer.size() - 1))));
        const QList<QByteArray> parts = components(name);
        const bool isDir = name.endsWith('/') || attributesSayDirectory(info);
        if ((unixMode(info) & 0xF000) == 0xA000)
            return refused(u"%1 is a symbolic link"_s.arg(QString::fromUtf8(name)));
        if (parts.isEmpty()) {
            if (isDir)
                continue;
            return refused(u"entry %1 would be written over the package folder itself"_s.arg(QString::fromUtf8(name)));
        }
        // Parent directories, one component at a time (each must be a real directory we made).
        QByteArray path = root;
        for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
            path += '/' + parts.at(i);
            if (written.contains(path))
                return refused(u"%1 is both a file and a directory"_s.arg(QString::fromUtf8(name)));
            if (!makeDirectory(path))
                return makeError(ErrorCode::Io, u"cannot create a directory for %1"_s.arg(QString::fromUtf8(name)));
        }
        path += '/' + parts.last();
        if (isDir) {
            if (written.contains(path) || !makeDirectory(path))
                return refused(u"%1 is both a file and a directory"_s.arg(QString::fromUtf8(name)));
            continue;
        }
        if (written.contains(path))
            return refused(u"two entries extract to %1"_s.arg(QString::fromUtf8(name)));
        written.insert(path);
        const mode_t mode = (unixMode(info) & 0111) ? 0755 : 0644;
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0)
            return makeError(ErrorCode::Io,
                             u"cannot create %1: %2"_s.arg(QString::fromUtf8(name), QString::fromLocal8Bit(strerror(errno))));
        bool ok = unzOpenCurrentFile(uf) == UNZ_OK;
        while (ok) {
            const int n = unzReadCurrentFile(uf, buffer.data(), unsigned(buffer.size()));
            if (n < 0)
                ok = false;
            if (n <= 0)
                break;
            for (int off = 0; ok && off < n;) {
                const ssize_t w = ::write(fd, buffer.data() + off, std::size_t(n - off));
                if (w <= 0)
                    ok = false;
                else
                    off += int(w);
            }
        }
        const bool crcOk = unzCloseCurrentFile(uf) == UNZ_OK; // UNZ_CRCERROR when the content is not what the zip says
        ok = ok && crcOk && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
        if (::close(fd) != 0 || !ok)
            return makeError(ErrorCode::CorruptArchive, u"cannot extract %1"_s.arg(QString::fromUtf8(name)));
    }
    if (rc != UNZ_END_OF_LIST_OF_FILE)
        return makeError(ErrorCode::CorruptArchive, u"cannot read the central directory"_s);

    const Result<PackageHashes> extracted = hashDirectory(targetDir);
    if (!extracted)
        return extracted.error();
    if (extracted->h1Extracted != judged->h1Extracted)
        return makeError(ErrorCode::Internal,
                         u"the extracted folder's h1: %1 is not the archive's %2"_s.arg(extracted->h1Extracted.toString(),
                                                                                        judged->h1Extracted.toString()));
    return {};
}

} // namespace provender
