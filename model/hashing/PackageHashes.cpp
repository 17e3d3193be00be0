// dirhash "Hash1" (golang.org/x/mod/sumdb/dirhash), zh: of a file, and the path dispatcher.
// tofu-formats.md §3.1 and §3.4.

#include "model/hashing/PackageHashes.h"

#include "model/hashing/HashingInternal.h"
#include "model/hashing/Sha256.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <memory>

namespace provender {

using namespace hashing_detail;

Result<HashString> dirhash1(QList<DirhashEntry> entries)
{
    // Byte-wise order of the names, like Go's sort.Strings (QByteArray compares unsigned bytes).
    std::stable_sort(entries.begin(), entries.end(), [](const DirhashEntry &a, const DirhashEntry &b) { return a.name < b.name; });
    Sha256 summary;
    QByteArray line;
    for (const DirhashEntry &e : std::as_const(entries)) {
        if (e.name.contains('\n'))
            return makeError(ErrorCode::Unsupported, newlineNameMessage());
        if (e.sha256.size() != Sha256::DigestSize)
            return makeError(ErrorCode::Internal, QStringLiteral("digest of %1 is not 32 bytes").arg(displayName(e.name)));
        // "%x  %s\n": 64 lowercase hex digits, two spaces, the name.
        line.clear();
        line += e.sha256.toHex();
        line += "  ";
        line += e.name;
        line += '\n';
        summary.addData(line);
    }
    const QByteArray digest = summary.result();
    if (digest.size() != Sha256::DigestSize)
        return makeError(ErrorCode::Internal, QStringLiteral("SHA-256 failed"));
    return HashString::h1(QString::fromLatin1(digest.toBase64()));
}

Result<void> hashing_detail::openForHashing(QFile &file)
{
    const QFileInfo info(file.fileName());
    if (info.exists() && !info.isFile()) // a FIFO or device would block or never end
        return makeError(ErrorCode::Unsupported, QStringLiteral("not a regular file"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        return makeError(file.exists() ? ErrorCode::Io : ErrorCode::NotFound, QStringLiteral("cannot open: %1").arg(file.errorString()));
    }
    return {};
}

Result<HashString> hashing_detail::hashRestZh(QFile &file, ProgressTicker &ticker, qint64 expectedSize)
{
    Sha256 sha;
    const std::unique_ptr<char[]> buffer(new char[ChunkSize]);
    qint64 read = 0;
    for (;;) {
        const qint64 n = file.read(buffer.get(), qint64(ChunkSize));
        if (n < 0)
            return makeError(ErrorCode::Io, QStringLiteral("read error: %1").arg(file.errorString()));
        if (n == 0)
            break;
        read += n;
        sha.addData(buffer.get(), std::size_t(n));
        if (!ticker.advance(n))
            return cancelledError();
    }
    if (expectedSize >= 0 && read != expectedSize)
        return makeError(ErrorCode::Io, QStringLiteral("the file changed size while it was read"));
    const QByteArray digest = sha.result();
    if (digest.size() != Sha256::DigestSize)
        return makeError(ErrorCode::Internal, QStringLiteral("SHA-256 failed"));
    return HashString::zh(QString::fromLatin1(digest.toHex()));
}

Result<HashString> hashFileZh(const QString &path, const HashProgress &progress)
{
    QFile file(path);
    if (Result<void> opened = openForHashing(file); !opened.ok())
        return opened.error();
    ProgressTicker ticker(progress, file.size());
    const Result<HashString> zh = hashRestZh(file, ticker);
    if (zh.ok() && !ticker.finish())
        return cancelledError();
    return zh;
}

Result<PackageHashes> hashPackage(const QString &path, const HashProgress &progress)
{
    const QFileInfo info(path);
    if (!info.exists())
        return makeError(ErrorCode::NotFound, QStringLiteral("no such file or directory"));
    return info.isDir() ? hashDirectory(path, progress) : hashZip(path, progress);
}

QStringList executableCandidatesOf(const QList<QByteArray> &filePaths)
{
    QList<QByteArray> names;
    for (const QByteArray &path : filePaths)
        if (!path.contains('/') && path.startsWith("terraform-provider-"))
            names.append(path);
    std::sort(names.begin(), names.end());
    QStringList out;
    out.reserve(names.size());
    for (const QByteArray &n : std::as_const(names))
        out.append(QString::fromUtf8(n));
    return out;
}

} // namespace provender
