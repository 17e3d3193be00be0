// zh:, h1: (dirhash.HashZip) and the h1: of the extracted folder of a provider zip, from one
// read of its entries (tofu-formats.md §3.3, §3.4, §3.5).
//
// QuaZip (minizip) reads the container: end-of-central-directory, zip64, the central directory
// and each local header, which it checks against the central directory. We take the raw
// compressed bytes of each entry from its data offset ourselves and inflate them with
// RawInflate in 256 KiB chunks straight into SHA-256: memory stays a few hundred KiB whatever
// the entry sizes, and no byte is copied more than once. (minizip's own raw read goes through a
// 16 KiB buffer with a byte loop and a CRC of the compressed bytes; its zlib inflate is ~2x
// slower than ISA-L.)
//
// Both h1: values come out of the same per-entry digests, combined by ZipRules (shared with the
// streaming hasher).

#include "model/hashing/PackageHashes.h"

#include "model/core/Logging.h"
#include "model/hashing/HashingInternal.h"
#include "model/hashing/RawInflate.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/ZipRules.h"

#include <quazip/quazip.h>
#include <quazip/unzip.h>

#include <QFile>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include <fcntl.h>

namespace provender {

using namespace hashing_detail;

namespace {

struct ZipEntry : ZipCentralEntry
{
    QByteArray digest;
    qint64 dataPos = -1; ///< where the compressed bytes start (from the local header); -1: unknown
};

qint64 envLimit(const char *name, qint64 fallback)
{
    bool ok = false;
    const qint64 v = qEnvironmentVariable(name).toLongLong(&ok);
    return ok && v > 0 ? v : fallback;
}

struct LimitsStore
{
    std::atomic<qint64> maxEntries{envLimit("PROVENDER_ZIP_MAX_ENTRIES", ZipLimits{}.maxEntries)};
    std::atomic<qint64> maxInflatedBytes{envLimit("PROVENDER_ZIP_MAX_INFLATE_BYTES", ZipLimits{}.maxInflatedBytes)};
};

LimitsStore &limitsStore()
{
    static LimitsStore store;
    return store;
}

QString unzErrorText(int code)
{
    switch (code) {
    case UNZ_ERRNO: return QStringLiteral("read error");
    case UNZ_EOF: return QStringLiteral("unexpected end of file");
    case UNZ_BADZIPFILE: return QStringLiteral("malformed zip structure");
    case UNZ_INTERNALERROR: return QStringLiteral("internal error in the zip reader");
    case UNZ_CRCERROR: return QStringLiteral("checksum error");
    default: return QStringLiteral("zip reader error %1").arg(code);
    }
}

/// An archive with no entries is just a 22-byte end record (plus its comment) at offset 0,
/// which minizip cannot open (it takes position 0 for "no record found"). Go reads it as a zip
/// with no files.
bool isEmptyZip(QFile &file, qint64 fileSize)
{
    if (fileSize < 22 || fileSize > 22 + 0xffff || !file.seek(0))
        return false;
    const QByteArray head = file.read(22);
    file.seek(0);
    if (head.size() != 22 || !head.startsWith("PK\x05\x06"))
        return false;
    const auto u16 = [&](int at) { return quint32(uchar(head[at])) | (quint32(uchar(head[at + 1])) << 8); };
    // disk numbers, entry counts, directory size and offset all zero; the comment fills the rest.
    for (int at = 4; at < 20; at += 2) {
        if (u16(at) != 0)
            return false;
    }
    return qint64(u16(20)) == fileSize - 22;
}

Error corrupt(const QString &message)
{
    return makeError(ErrorCode::CorruptArchive, message);
}

Error corruptEntry(const ZipEntry &e, const QString &message)
{
    return corrupt(QStringLiteral("entry %1: %2").arg(displayName(e.name), message));
}

Error tooManyEntries(qint64 limit)
{
    return makeError(ErrorCode::Unsupported,
                     QStringLiteral("the zip has more than %1 entries, the limit for one archive (a zip bomb?); "
                                    "PROVENDER_ZIP_MAX_ENTRIES raises it")
                         .arg(limit));
}

/// Reads the central directory (at most limits.maxEntries entries).
Result<std::vector<ZipEntry>> listEntries(unzFile uf, const ZipLimits &limits)
{
    std::vector<ZipEntry> entries;
    unz_global_info64 global;
    int rc = unzGetGlobalInfo64(uf, &global);
    if (rc != UNZ_OK)
        return corrupt(QStringLiteral("cannot read the end of central directory record: %1").arg(unzErrorText(rc)));
    if (global.number_entry == 0)
        return entries;
    if (global.number_entry > quint64(limits.maxEntries))
        return tooManyEntries(limits.maxEntries);
    entries.reserve(std::size_t(qMin<quint64>(global.number_entry, 1u << 16)));
    std::vector<char> nameBuffer(65536 + 1);
    for (rc = unzGoToFirstFile(uf); rc == UNZ_OK; rc = unzGoToNextFile(uf)) {
        unz_file_info64 info;
        rc = unzGetCurrentFileInfo64(uf, &info, nameBuffer.data(), uLong(nameBuffer.size()), nullptr, 0, nullptr, 0);
        if (rc != UNZ_OK)
            break;
        if (qint64(entries.size()) >= limits.maxEntries)
            return tooManyEntries(limits.maxEntries);
        ZipEntry e;
        e.setName(QByteArray(nameBuffer.data(), qsizetype(qMin<uLong>(info.size_filename, uLong(nameBuffer.size() - 1)))),
                  quint32(info.version), quint32(info.external_fa));
        e.compressedSize = info.compressed_size;
        e.uncompressedSize = info.uncompressed_size;
        e.crc = quint32(info.crc);
        e.flags = quint32(info.flag);
        e.method = quint32(info.compression_method);
        entries.push_back(std::move(e));
    }
    if (rc != UNZ_END_OF_LIST_OF_FILE)
        return corrupt(QStringLiteral("cannot read the central directory (entry %1): %2").arg(entries.size() + 1).arg(unzErrorText(rc)));
    return entries;
}

/// Before anything is inflated: the declared sizes must fit the budget (an entry never inflates
/// past its declared size, so their sum bounds the work), and no two entries may share compressed
/// bytes. The second rule catches the overlapping-entries bomb (many central-directory entries
/// whose data ranges overlap, so one highly compressed stream is inflated once per entry, e.g.
/// D. Fifield's "better zip bomb"); no zip writer produces it. Each entry's data range starts at
/// the data offset its local header gives and spans its compressed size.
Result<void> checkBudgetAndOverlaps(unzFile uf, std::vector<ZipEntry> &entries, qint64 fileSize, const ZipLimits &limits)
{
    quint64 declared = 0;
    for (const ZipEntry &e : entries) {
        if (e.dirByName)
            continue;
        declared += cappedDeclaredSize(e.uncompressedSize);
        if (declared > quint64(limits.maxInflatedBytes)) {
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("the zip's entries declare more than %1 bytes in all, the inflate limit for one archive "
                                            "(a zip bomb?); PROVENDER_ZIP_MAX_INFLATE_BYTES raises it")
                                 .arg(limits.maxInflatedBytes));
        }
    }
    if (entries.size() < 2)
        return {};
    int rc = unzGoToFirstFile(uf);
    for (std::size_t i = 0; i < entries.size() && rc == UNZ_OK; ++i, rc = unzGoToNextFile(uf)) {
        ZipEntry &e = entries[i];
        if (e.dirByName || e.compressedSize == 0)
            continue;
        int method = 0;
        int level = 0;
        if (unzOpenCurrentFile2(uf, &method, &level, 1) != UNZ_OK)
            continue; // a bad local header: the entry's own turn reports it
        const quint64 pos = unzGetCurrentFileZStreamPos64(uf);
        unzCloseCurrentFile(uf);
        if (pos <= quint64(fileSize))
            e.dataPos = qint64(pos);
    }
    std::vector<const ZipEntry *> byPos;
    byPos.reserve(entries.size());
    for (const ZipEntry &e : entries)
        if (e.dataPos >= 0)
            byPos.push_back(&e);
    // Stable: entries at one offset keep their central-directory order (the message names the first two).
    std::stable_sort(byPos.begin(), byPos.end(), [](const ZipEntry *a, const ZipEntry *b) { return a->dataPos < b->dataPos; });
    for (std::size_t i = 1; i < byPos.size(); ++i) {
        const ZipEntry &a = *byPos[i - 1];
        const ZipEntry &b = *byPos[i];
        if (quint64(b.dataPos) < quint64(a.dataPos) + a.compressedSize) {
            return corrupt(QStringLiteral("entries %1 and %2 share compressed data (overlapping entries: "
                                          "a zip bomb construction; no zip writer makes them)")
                               .arg(displayName(a.name), displayName(b.name)));
        }
    }
    return {};
}

class EntryHasher
{
public:
    EntryHasher(QFile &file, qint64 fileSize, ProgressTicker &ticker)
        : m_file(file),
          m_fileSize(fileSize),
          m_ticker(ticker),
          m_in(new unsigned char[ChunkSize]),
          m_out(new unsigned char[ChunkSize])
    {}

    /// SHA-256 of the entry's content; the current file of `uf` must be `e`.
    Result<QByteArray> hash(unzFile uf, const ZipEntry &e)
    {
        if (e.flags & 0x1)
            return makeError(ErrorCode::Unsupported, QStringLiteral("entry %1 is encrypted").arg(displayName(e.name)));
        if (e.method != 0 && e.method != 8) {
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("entry %1 uses compression method %2; only stored (0) and deflate (8) are supported")
                                 .arg(displayName(e.name))
                                 .arg(e.method));
        }
        int method = 0;
        int level = 0;
        // Raw open: minizip checks the local header against the central directory and tells
        // where the compressed bytes start; we read them ourselves.
        const int rc = unzOpenCurrentFile2(uf, &method, &level, 1);
        if (rc != UNZ_OK)
            return corruptEntry(e, QStringLiteral("bad local header (%1)").arg(unzErrorText(rc)));
        const quint64 dataPos = unzGetCurrentFileZStreamPos64(uf);
        unzCloseCurrentFile(uf);
        if (dataPos > quint64(m_fileSize) || e.compressedSize > quint64(m_fileSize) - dataPos)
            return corruptEntry(e, QStringLiteral("data runs past the end of the file (truncated archive?)"));
        if (!m_file.seek(qint64(dataPos)))
            return makeError(ErrorCode::Io, QStringLiteral("seek failed: %1").arg(m_file.errorString()));

        m_sha.reset();
        quint32 crc = 0;
        quint64 produced = 0;
        if (e.method == 0) {
            if (e.compressedSize != e.uncompressedSize)
                return corruptEntry(e, QStringLiteral("stored entry with different compressed and uncompressed sizes"));
            quint64 left = e.compressedSize;
            while (left > 0) {
                Result<std::size_t> got = readInput(e, left);
                if (!got.ok())
                    return got.error();
                const std::size_t n = got.value();
                left -= n;
                produced += n;
                m_sha.addData(m_in.get(), n);
                crc = RawInflate::updateCrc32(crc, m_in.get(), n);
                if (!m_ticker.advance(qint64(n)))
                    return cancelledError();
            }
        } else {
            m_inflate.reset();
            quint64 left = e.compressedSize;
            for (;;) {
                if (m_inflate.inputLeft() == 0 && left > 0) {
                    Result<std::size_t> got = readInput(e, left);
                    if (!got.ok())
                        return got.error();
                    left -= got.value();
                    m_inflate.setInput(m_in.get(), got.value());
                }
                std::size_t n = 0;
                const RawInflate::Status status = m_inflate.inflate(m_out.get(), ChunkSize, &n);
                if (n > 0) {
                    produced += n;
                    // Never inflate past the declared size (Go: zip.ErrFormat); bounds zip bombs.
                    if (produced > e.uncompressedSize)
                        return corruptEntry(e,
                                            QStringLiteral("inflates to more than its declared size of %1 bytes").arg(e.uncompressedSize));
                    m_sha.addData(m_out.get(), n);
                    if (!m_ticker.advance(qint64(n)))
                        return cancelledError();
                }
                if (status == RawInflate::Status::Error)
                    return corruptEntry(e, m_inflate.errorString());
                if (status == RawInflate::Status::StreamEnd)
                    break;
                if (n == 0 && m_inflate.inputLeft() == 0 && left == 0)
                    return corruptEntry(e, QStringLiteral("compressed data ends before the end of the deflate stream"));
            }
            crc = m_inflate.crc32();
        }
        if (produced != e.uncompressedSize)
            return corruptEntry(e, QStringLiteral("has %1 bytes, the central directory says %2").arg(produced).arg(e.uncompressedSize));
        // Go checks the CRC when the header has one or a data descriptor follows.
        if ((e.crc != 0 || (e.flags & 0x8)) && crc != e.crc) {
            return corruptEntry(e,
                                QStringLiteral("checksum error (CRC-32 %1, expected %2)")
                                    .arg(crc, 8, 16, QLatin1Char('0'))
                                    .arg(e.crc, 8, 16, QLatin1Char('0')));
        }
        QByteArray digest = m_sha.result();
        if (digest.size() != Sha256::DigestSize)
            return makeError(ErrorCode::Internal, QStringLiteral("SHA-256 failed"));
        m_contentBytes += qint64(produced);
        return digest;
    }

    qint64 contentBytes() const { return m_contentBytes; }

private:
    Result<std::size_t> readInput(const ZipEntry &e, quint64 left)
    {
        const qint64 want = qint64(qMin<quint64>(left, ChunkSize));
        qint64 have = 0;
        while (have < want) {
            const qint64 n = m_file.read(reinterpret_cast<char *>(m_in.get()) + have, want - have);
            if (n < 0)
                return makeError(ErrorCode::Io, QStringLiteral("read error: %1").arg(m_file.errorString()));
            if (n == 0)
                return corruptEntry(e, QStringLiteral("unexpected end of file"));
            have += n;
        }
        return std::size_t(have);
    }

    QFile &m_file;
    qint64 m_fileSize;
    ProgressTicker &m_ticker;
    std::unique_ptr<unsigned char[]> m_in;
    std::unique_ptr<unsigned char[]> m_out;
    RawInflate m_inflate;
    Sha256 m_sha;
    qint64 m_contentBytes = 0;
};

} // namespace

ZipLimits defaultZipLimits()
{
    ZipLimits out;
    out.maxEntries = limitsStore().maxEntries.load();
    out.maxInflatedBytes = limitsStore().maxInflatedBytes.load();
    return out;
}

void setDefaultZipLimits(const ZipLimits &limits)
{
    limitsStore().maxEntries = limits.maxEntries;
    limitsStore().maxInflatedBytes = limits.maxInflatedBytes;
}

Result<PackageHashes> hashZip(const QString &zipPath, const HashProgress &progress)
{
    return hashZip(zipPath, progress, defaultZipLimits());
}

Result<PackageHashes> hashZip(const QString &zipPath, const HashProgress &progress, const ZipLimits &limits)
{
    QFile file(zipPath);
    if (Result<void> opened = openForHashing(file); !opened.ok())
        return opened.error();
    const qint64 fileSize = file.size();
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(file.handle(), 0, 0, POSIX_FADV_SEQUENTIAL); // larger read-ahead on a cold cache
#endif

    QuaZip zip(zipPath);
    const bool empty = isEmptyZip(file, fileSize);
    if (!empty && !zip.open(QuaZip::mdUnzip)) {
        const int rc = zip.getZipError();
        if (rc == UNZ_ERRNO && fileSize > 0)
            return makeError(ErrorCode::Io, QStringLiteral("cannot read the zip file"));
        return corrupt(QStringLiteral("not a valid zip file (no readable end of central directory record)"));
    }
    unzFile uf = empty ? nullptr : zip.getUnzFile();
    Result<std::vector<ZipEntry>> listed = empty ? std::vector<ZipEntry>() : listEntries(uf, limits);
    if (!listed.ok())
        return listed.error();
    std::vector<ZipEntry> &entries = listed.value();

    PackageHashes out;
    out.kind = PackageHashes::Kind::Zip;
    out.fileSize = fileSize;
    out.entryCount = int(entries.size());
    qint64 total = fileSize;
    for (const ZipEntry &e : entries) {
        // dirhash refuses such names; say so before inflating anything.
        if (e.name.contains('\n'))
            return makeError(ErrorCode::Unsupported, newlineNameMessage());
        if (!e.dirByName)
            total += qint64(cappedDeclaredSize(e.uncompressedSize));
    }
    if (Result<void> checked = checkBudgetAndOverlaps(uf, entries, fileSize, limits); !checked.ok())
        return checked.error();
    ProgressTicker ticker(progress, total);

    // zh: the whole file's bytes, one sequential pass (it is in the page cache for the next one).
    Result<HashString> zh = hashRestZh(file, ticker, fileSize);
    if (!zh.ok())
        return zh.error();
    out.zh = std::move(zh).value();

    // Every entry's content, once, in central-directory order.
    EntryHasher hasher(file, fileSize, ticker);
    int rc = entries.empty() ? UNZ_OK : unzGoToFirstFile(uf);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0)
            rc = unzGoToNextFile(uf);
        if (rc != UNZ_OK)
            return corrupt(QStringLiteral("cannot re-read the central directory: %1").arg(unzErrorText(rc)));
        ZipEntry &e = entries[i];
        if (e.dirByName)
            continue; // no data (ZipRules: hashed as empty)
        Result<QByteArray> digest = hasher.hash(uf, e);
        if (!digest.ok())
            return digest.error();
        e.digest = std::move(digest).value();
    }
    out.contentBytes = hasher.contentBytes();
    if (!ticker.finish())
        return cancelledError();

    std::vector<ZipEntryDigest> digests;
    digests.reserve(entries.size());
    for (ZipEntry &e : entries)
        digests.push_back(e.withDigest(std::move(e.digest)));
    if (Result<void> combined = combineZipDigests(digests, out); !combined.ok())
        return combined.error();

    qCDebug(lcHash) << "hashed zip" << zipPath << out.entryCount << "entries," << out.contentBytes << "bytes with"
                    << RawInflate::backendName() << out.h1Extracted.toString();
    return out;
}

} // namespace provender
