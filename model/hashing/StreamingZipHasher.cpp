#include "model/hashing/StreamingZipHasher.h"

#include "model/core/Logging.h"
#include "model/hashing/HashingInternal.h"
#include "model/hashing/RawInflate.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/StreamingZipStream.h"
#include "model/hashing/ZipRules.h"

#include <QHash>
#include <QSet>

#include <cstring>
#include <memory>
#include <vector>

namespace provender {

using namespace hashing_detail;

namespace {

constexpr quint32 kLocalSig = 0x04034b50;
constexpr quint32 kCentralSig = 0x02014b50;
constexpr quint32 kEndSig = 0x06054b50;
constexpr quint32 kZip64EndSig = 0x06064b50;
constexpr quint32 kZip64LocatorSig = 0x07064b50;
constexpr quint32 kDescriptorSig = 0x08074b50;
constexpr quint32 kMax32 = 0xffffffffu;
constexpr quint64 kMaxReadAhead = 512;

/// How a data descriptor may be written: with or without its signature, with 64- or 32-bit sizes
/// (the 32-bit ones hold the sizes' low 32 bits).
struct DescriptorLayout
{
    bool signature;
    bool wide;
};

/// The sizes a descriptor must hold, in one of its two forms.
struct DescriptorSizes
{
    quint64 compressed;
    quint64 uncompressed;
};

/// The length of the data descriptor at \p p (\p have bytes readable) of an entry with this CRC,
/// with \p wide in its 64-bit sizes or \p narrow in its 32-bit ones, trying \p layouts in their
/// order; 0 when none fits. A descriptor counts only when a record's signature follows it, or when
/// what is readable ends with it.
qsizetype matchDescriptor(const char *p, qsizetype have, std::initializer_list<DescriptorLayout> layouts, quint32 crc, DescriptorSizes wide,
                          DescriptorSizes narrow)
{
    for (const DescriptorLayout l : layouts) {
        const qsizetype length = (l.signature ? 4 : 0) + 4 + (l.wide ? 16 : 8);
        if (have < length)
            continue;
        const char *q = p;
        if (l.signature) {
            if (le32(q) != kDescriptorSig)
                continue;
            q += 4;
        }
        if (le32(q) != crc)
            continue;
        const quint64 c = l.wide ? le64(q + 4) : le32(q + 4);
        const quint64 u = l.wide ? le64(q + 12) : le32(q + 8);
        const DescriptorSizes &want = l.wide ? wide : narrow;
        if (c != want.compressed || u != want.uncompressed)
            continue;
        if (have >= length + 4) {
            const quint32 next = le32(p + length);
            if (next != kLocalSig && next != kCentralSig && next != kEndSig && next != kZip64EndSig)
                continue;
        }
        return length;
    }
    return 0;
}

/// Reads into \p e the fields that the local and the central header both have, in the same order
/// (APPNOTE.TXT 4.3.7 and 4.3.12: flags, method, time, date, CRC-32, compressed and uncompressed
/// size), from \p p, where the header's flags are.
template<typename Entry> void readSharedHeaderFields(const char *p, Entry &e)
{
    e.flags = le16(p);
    e.method = le16(p + 2);
    e.crc = le32(p + 8);
    e.compressedSize = le32(p + 12);
    e.uncompressedSize = le32(p + 16);
}

/// Reads the zip64 extended information (extra field id 1) among the \p length bytes of extra
/// fields at \p extra: each of \p fields that holds 0xffffffff takes the next 8 bytes, in the
/// given order (the spec's and minizip's: uncompressed, compressed, local header offset), then
/// \p disk, when given and 0xffff, the next 4.
void readZip64Extra(const char *extra, qsizetype length, std::initializer_list<quint64 *> fields, quint32 *disk = nullptr)
{
    for (qsizetype at = 0; at + 4 <= length;) {
        const quint16 id = le16(extra + at);
        const qsizetype end = at + 4 + le16(extra + at + 2);
        if (end > length)
            break;
        if (id == 0x0001) {
            qsizetype f = at + 4;
            for (quint64 *field : fields) {
                if (*field == kMax32 && f + 8 <= end) {
                    *field = le64(extra + f);
                    f += 8;
                }
            }
            if (disk && *disk == 0xffff && f + 4 <= end)
                *disk = le32(extra + f);
        }
        at = end;
    }
}

struct LocalEntry
{
    quint64 offset = 0;
    quint16 nameLength = 0;
    quint16 flags = 0;
    quint16 method = 0;
    quint32 crc = 0;
    quint64 compressedSize = 0;
    quint64 uncompressedSize = 0;
    bool headerHasSizes = false; ///< no data descriptor: the header's crc and sizes are the real ones
    QByteArray digest;
};

struct CentralEntry : ZipCentralEntry
{
    quint64 localOffset = 0;
};

/// Why the walk gave up (not an error: the caller falls back to hashZip()).
struct Fallback
{
    QString reason;
};

class Walker
{
public:
    Walker(Stream &stream, qint64 maxInflate, const ZipLimits &limits) : m_s(stream), m_maxInflate(maxInflate), m_limits(limits) {}

    /// Ok(nullopt) when the walk succeeded; Ok(Fallback) when hashZip() must decide; an error
    /// only from the source or on cancel.
    Result<std::optional<Fallback>> walk();

    std::vector<LocalEntry> locals;
    std::vector<CentralEntry> centrals;
    quint64 centralStart = 0;
    quint64 centralEnd = 0; ///< first byte after the last central header
    qint64 endRecordPos = -1;
    qint64 zip64EndPos = -1;
    qint64 zip64LocatorPos = -1;
    quint64 declaredEntries = 0;
    quint64 declaredDirSize = 0;
    quint64 declaredDirOffset = 0;
    bool emptyArchive = false;

private:
    using Step = Result<std::optional<Fallback>>;
    static std::optional<Fallback> fallback(const QString &reason) { return Fallback{reason}; }
    /// Buffers \p n bytes. Empty when they are there; otherwise the step to return: the read
    /// error, or the fallback for \p truncated when the archive ends first.
    std::optional<Step> need(qsizetype n, const QString &truncated)
    {
        const Result<bool> got = m_s.ensure(n);
        if (!got.ok())
            return Step(got.error());
        if (!got.value())
            return Step(fallback(truncated));
        return std::nullopt;
    }

    Step localEntry();
    Step inflateEntry(LocalEntry &e);
    Step storedEntry(LocalEntry &e);
    Step storedWithDescriptor(LocalEntry &e);
    Step dataDescriptor(LocalEntry &e, quint64 dataStart, quint64 produced, quint32 crc);
    Step centralEntry();
    Step endRecords(quint32 sig);

    Stream &m_s;
    qint64 m_maxInflate;
    ZipLimits m_limits;
    quint64 m_inflated = 0; ///< content bytes of the entries walked so far (the archive's inflate budget)

    /// What one more entry may inflate to: its own bound, and what is left of the budget.
    quint64 budgetLeft() const
    {
        const quint64 budget = quint64(qMax<qint64>(m_limits.maxInflatedBytes, 0));
        return m_inflated >= budget ? 0 : budget - m_inflated;
    }
    RawInflate m_inflate;
    Sha256 m_sha;
    std::unique_ptr<unsigned char[]> m_out{new unsigned char[ChunkSize]};
};

Walker::Step Walker::walk()
{
    for (;;) {
        if (std::optional<Step> stop = need(4, QStringLiteral("the zip ends before its end-of-central-directory record")))
            return *stop;
        const quint32 sig = le32(m_s.data());
        if (sig == kLocalSig) {
            if (!centrals.empty())
                return fallback(QStringLiteral("a local header after the central directory"));
            Step step = localEntry();
            if (!step.ok() || step.value())
                return step;
            continue;
        }
        if (sig == kCentralSig) {
            if (centrals.empty())
                centralStart = m_s.offset();
            Step step = centralEntry();
            if (!step.ok() || step.value())
                return step;
            centralEnd = m_s.offset();
            continue;
        }
        if (sig == kEndSig || sig == kZip64EndSig) {
            if (centrals.empty())
                centralStart = centralEnd = m_s.offset();
            return endRecords(sig);
        }
        return fallback(m_s.offset() == 0 ? QStringLiteral("data before the first local header")
                                          : QStringLiteral("unknown record at offset %1").arg(m_s.offset()));
    }
}

Walker::Step Walker::localEntry()
{
    if (std::optional<Step> stop = need(30, QStringLiteral("truncated local header")))
        return *stop;
    const char *h = m_s.data();
    LocalEntry e;
    e.offset = m_s.offset();
    readSharedHeaderFields(h + 6, e);
    e.nameLength = le16(h + 26);
    const quint16 extraLength = le16(h + 28);
    const qsizetype headerSize = 30 + qsizetype(e.nameLength) + extraLength;
    if (std::optional<Step> stop = need(headerSize, QStringLiteral("truncated local header")))
        return *stop;
    readZip64Extra(m_s.data() + 30 + e.nameLength, extraLength, {&e.uncompressedSize, &e.compressedSize});
    m_s.consume(headerSize);
    if (qint64(locals.size()) >= m_limits.maxEntries)
        return fallback(QStringLiteral("more than %1 entries").arg(m_limits.maxEntries));
    if (e.flags & 0x1)
        return fallback(QStringLiteral("encrypted entry"));
    e.headerHasSizes = !(e.flags & 0x8);
    if (e.headerHasSizes && e.uncompressedSize > budgetLeft())
        return fallback(QStringLiteral("the entries inflate to more than %1 bytes in all").arg(m_limits.maxInflatedBytes));
    Step step = e.method == 8 ? inflateEntry(e)
        : e.method == 0       ? storedEntry(e)
                              : Step(fallback(QStringLiteral("compression method %1").arg(e.method)));
    if (!step.ok() || step.value())
        return step;
    m_inflated += e.uncompressedSize;
    locals.push_back(std::move(e));
    return std::optional<Fallback>();
}

/// A stored entry with a data descriptor: its length is known only from the descriptor that ends
/// it. Scan for the descriptor's signature; a candidate counts only when its CRC-32 is the CRC of
/// the bytes before it and both its sizes equal their count (what minizip and Go write). A
/// descriptor without signature cannot be found this way: fall back.
Walker::Step Walker::storedWithDescriptor(LocalEntry &e)
{
    m_sha.reset();
    quint32 crc = 0;
    quint64 length = 0;
    static const QByteArrayView signature("PK\x07\x08", 4);
    for (;;) {
        Result<bool> got = m_s.ensure(24);
        if (!got.ok())
            return got.error();
        const qsizetype have = m_s.available();
        if (have < 16)
            return fallback(QStringLiteral("no data descriptor after a stored entry"));
        const QByteArrayView view(m_s.data(), have);
        // Candidates must leave room to read a whole descriptor from the buffer.
        const qsizetype searchable = have - 23;
        qsizetype at = searchable > 0 ? view.first(searchable + 3).indexOf(signature) : -1;
        if (at < 0 && searchable <= 0)
            at = view.indexOf(signature); // near the end of the stream: whatever is there
        const qsizetype upTo = at >= 0 ? at : qMax<qsizetype>(0, searchable);
        if (upTo > 0) {
            m_sha.addData(m_s.data(), std::size_t(upTo));
            crc = RawInflate::updateCrc32(crc, reinterpret_cast<const unsigned char *>(m_s.data()), std::size_t(upTo));
            length += quint64(upTo);
            m_s.consume(upTo);
            if (length > quint64(qMax<qint64>(m_maxInflate, 0)) || length > budgetLeft())
                return fallback(QStringLiteral("stored entry longer than %1 bytes")
                                    .arg(qMin<quint64>(quint64(qMax<qint64>(m_maxInflate, 0)), budgetLeft())));
        }
        if (at < 0) {
            if (searchable <= 0)
                return fallback(QStringLiteral("no data descriptor after a stored entry"));
            continue;
        }
        const char *p = m_s.data();
        if (const qsizetype size = matchDescriptor(p, m_s.available(), {{true, false}, {true, true}}, crc, {length, length},
                                                   {length & kMax32, length & kMax32})) {
            m_s.consume(size);
            e.crc = crc;
            e.compressedSize = e.uncompressedSize = length;
            e.digest = m_sha.result();
            return std::optional<Fallback>();
        }
        // Not a descriptor: the signature's bytes are data.
        m_sha.addData(p, 1);
        crc = RawInflate::updateCrc32(crc, reinterpret_cast<const unsigned char *>(p), 1);
        length += 1;
        m_s.consume(1);
    }
}

Walker::Step Walker::storedEntry(LocalEntry &e)
{
    if (!e.headerHasSizes)
        return storedWithDescriptor(e);
    if (e.compressedSize != e.uncompressedSize)
        return fallback(QStringLiteral("a stored entry with different sizes"));
    m_sha.reset();
    quint32 crc = 0;
    quint64 left = e.compressedSize;
    while (left > 0) {
        if (std::optional<Step> stop = need(1, QStringLiteral("truncated entry data")))
            return *stop;
        const qsizetype n = qsizetype(qMin<quint64>(left, quint64(m_s.available())));
        m_sha.addData(m_s.data(), std::size_t(n));
        crc = RawInflate::updateCrc32(crc, reinterpret_cast<const unsigned char *>(m_s.data()), std::size_t(n));
        m_s.consume(n);
        left -= quint64(n);
    }
    if (crc != e.crc)
        return fallback(QStringLiteral("CRC-32 mismatch"));
    e.digest = m_sha.result();
    return std::optional<Fallback>();
}

Walker::Step Walker::inflateEntry(LocalEntry &e)
{
    m_sha.reset();
    m_inflate.reset();
    const quint64 dataStart = m_s.offset();
    const bool bounded = e.headerHasSizes;
    quint64 left = e.compressedSize;
    const quint64 limit = bounded ? e.uncompressedSize : qMin(quint64(qMax<qint64>(m_maxInflate, 0)), budgetLeft());
    quint64 produced = 0;
    std::size_t given = 0; // input handed to the inflater and not yet consumed from the stream
    for (;;) {
        if (m_inflate.inputLeft() == 0) {
            if (bounded && left == 0)
                return fallback(QStringLiteral("compressed data ends before the end of the deflate stream"));
            if (std::optional<Step> stop = need(1, QStringLiteral("truncated entry data")))
                return *stop;
            if (!bounded && m_s.available() < 65536) {
                // Hand the inflater a large input: it then reads ahead only a few bytes past the end.
                Result<bool> more = m_s.ensure(65536);
                if (!more.ok())
                    return more.error();
            }
            std::size_t n = std::size_t(m_s.available());
            if (bounded)
                n = std::size_t(qMin<quint64>(left, n));
            m_inflate.setInput(reinterpret_cast<const unsigned char *>(m_s.data()), n);
            given = n;
        }
        std::size_t out = 0;
        const RawInflate::Status status = m_inflate.inflate(m_out.get(), ChunkSize, &out);
        const std::size_t used = given - m_inflate.inputLeft();
        m_s.consume(qsizetype(used));
        given -= used;
        if (bounded)
            left -= used;
        if (out > 0) {
            produced += out;
            if (produced > limit)
                return fallback(QStringLiteral("inflates to more than %1 bytes").arg(limit));
            m_sha.addData(m_out.get(), out);
        }
        if (status == RawInflate::Status::Error)
            return fallback(QStringLiteral("deflate error: ") + m_inflate.errorString());
        if (status == RawInflate::Status::StreamEnd)
            break;
    }
    const quint32 crc = m_inflate.crc32();
    e.digest = m_sha.result();
    if (bounded) {
        // hashZip() stops at the end of the deflate stream; whatever is left of the declared
        // compressed size is skipped (the next header starts after it).
        Result<bool> skipped = m_s.skip(left);
        if (!skipped.ok())
            return skipped.error();
        if (!skipped.value())
            return fallback(QStringLiteral("truncated entry data"));
        if (produced != e.uncompressedSize || crc != e.crc)
            return fallback(QStringLiteral("the entry's size or CRC-32 differs from its local header"));
        return std::optional<Fallback>();
    }
    return dataDescriptor(e, dataStart, produced, crc);
}

/// After a deflate stream of unknown compressed size: find the data descriptor. The inflater may
/// have read past the end of the stream (ISA-L reads ahead), so the descriptor is
/// looked for at the few positions the stream can have ended at; its compressed-size field must
/// equal that position's distance from the data start, its CRC and uncompressed size the ones
/// just computed, which pins it down.
Walker::Step Walker::dataDescriptor(LocalEntry &e, quint64 dataStart, quint64 produced, quint32 crc)
{
    const quint64 end = m_s.offset();
    for (quint64 back = 0; back <= kMaxReadAhead && back <= end - dataStart; ++back) {
        if (!m_s.rewind(qsizetype(back)))
            break;
        const quint64 at = m_s.offset();
        const quint64 compressed = at - dataStart;
        Result<bool> got = m_s.ensure(24);
        if (!got.ok())
            return got.error();
        const qsizetype length = matchDescriptor(m_s.data(), m_s.available(), {{true, true}, {true, false}, {false, true}, {false, false}},
                                                 // a 32-bit descriptor's compressed size must be the whole size
                                                 crc, {compressed, produced}, {compressed, produced & kMax32});
        if (length > 0) {
            m_s.consume(length);
            e.crc = crc;
            e.compressedSize = compressed;
            e.uncompressedSize = produced;
            return std::optional<Fallback>();
        }
        m_s.consume(qsizetype(back)); // back to where the inflater stopped
    }
    return fallback(QStringLiteral("no data descriptor after a deflate stream"));
}

Walker::Step Walker::centralEntry()
{
    if (std::optional<Step> stop = need(46, QStringLiteral("truncated central directory")))
        return *stop;
    const char *h = m_s.data();
    CentralEntry c;
    const quint16 versionMadeBy = le16(h + 4);
    readSharedHeaderFields(h + 8, c);
    const quint16 nameLength = le16(h + 28);
    const quint16 extraLength = le16(h + 30);
    const quint16 commentLength = le16(h + 32);
    quint32 diskStart = le16(h + 34);
    const quint32 externalAttrs = le32(h + 38);
    c.localOffset = le32(h + 42);
    const qsizetype size = 46 + qsizetype(nameLength) + extraLength + commentLength;
    if (std::optional<Step> stop = need(size, QStringLiteral("truncated central directory")))
        return *stop;
    h = m_s.data();
    c.setName(QByteArray(h + 46, nameLength), versionMadeBy, externalAttrs);
    readZip64Extra(h + 46 + nameLength, extraLength, {&c.uncompressedSize, &c.compressedSize, &c.localOffset}, &diskStart);
    m_s.consume(size);
    if (diskStart != 0)
        return fallback(QStringLiteral("a multi-disk zip"));
    centrals.push_back(std::move(c));
    return std::optional<Fallback>();
}

Walker::Step Walker::endRecords(quint32 sig)
{
    if (sig == kZip64EndSig) {
        zip64EndPos = qint64(m_s.offset());
        if (std::optional<Step> stop = need(56, QStringLiteral("truncated zip64 end record")))
            return *stop;
        const char *h = m_s.data();
        const quint64 recordSize = le64(h + 4);
        if (le32(h + 16) != 0 || le32(h + 20) != 0)
            return fallback(QStringLiteral("a multi-disk zip"));
        const quint64 thisDisk = le64(h + 24);
        declaredEntries = le64(h + 32);
        declaredDirSize = le64(h + 40);
        declaredDirOffset = le64(h + 48);
        if (thisDisk != declaredEntries)
            return fallback(QStringLiteral("a multi-disk zip"));
        Result<bool> skipped = m_s.skip(12 + recordSize);
        if (!skipped.ok())
            return skipped.error();
        if (!skipped.value())
            return fallback(QStringLiteral("truncated zip64 end record"));
        Result<bool> got = m_s.ensure(20);
        if (!got.ok())
            return got.error();
        if (!got.value() || le32(m_s.data()) != kZip64LocatorSig)
            return fallback(QStringLiteral("no zip64 locator after the zip64 end record"));
        zip64LocatorPos = qint64(m_s.offset());
        if (le32(m_s.data() + 4) != 0 || le64(m_s.data() + 8) != quint64(zip64EndPos) || le32(m_s.data() + 16) != 1)
            return fallback(QStringLiteral("the zip64 locator does not point at the zip64 end record"));
        m_s.consume(20);
        got = m_s.ensure(4);
        if (!got.ok())
            return got.error();
        if (!got.value() || le32(m_s.data()) != kEndSig)
            return fallback(QStringLiteral("no end-of-central-directory record after the zip64 locator"));
    }
    endRecordPos = qint64(m_s.offset());
    if (std::optional<Step> stop = need(22, QStringLiteral("truncated end-of-central-directory record")))
        return *stop;
    const char *h = m_s.data();
    const quint16 commentLength = le16(h + 20);
    if (zip64EndPos < 0) {
        if (le16(h + 4) != 0 || le16(h + 6) != 0 || le16(h + 8) != le16(h + 10))
            return fallback(QStringLiteral("a multi-disk zip"));
        declaredEntries = le16(h + 10);
        declaredDirSize = le32(h + 12);
        declaredDirOffset = le32(h + 16);
        emptyArchive = endRecordPos == 0 && locals.empty() && centrals.empty() && declaredEntries == 0 && declaredDirSize == 0
            && declaredDirOffset == 0;
    }
    m_s.consume(22);
    const quint64 commentStart = m_s.offset();
    Result<void> drained = m_s.drain();
    if (!drained.ok())
        return drained.error();
    if (quint64(m_s.total()) != commentStart + commentLength)
        return fallback(QStringLiteral("bytes after the end-of-central-directory comment"));
    return std::optional<Fallback>();
}

/// Everything minizip (and so hashZip()) would see must be what the walk saw.
std::optional<Fallback> crossCheck(const Walker &w, const Stream &s, const ZipLimits &limits)
{
    auto fail = [](const QString &reason) { return std::optional<Fallback>(Fallback{reason}); };
    if (w.emptyArchive) {
        // hashZip()'s isEmptyZip(): the whole file is one end record and its comment.
        return std::nullopt;
    }
    // minizip's backward searches: the last end record and zip64 locator in the last 64 KiB.
    if (lastSignature(s, kEndSig, 0xffff) != w.endRecordPos)
        return fail(QStringLiteral("another end-of-central-directory signature follows the real one"));
    const qint64 locator = lastSignature(s, kZip64LocatorSig, 0xffff);
    if (locator != w.zip64LocatorPos) {
        if (locator < 0 || w.zip64LocatorPos >= 0)
            return fail(QStringLiteral("zip64 locator position differs from the walk"));
        // A stray "PK\6\7" in the data; minizip only takes it when it points at a zip64 end record.
        const QByteArrayView loc = tailBytes(s, locator, 20);
        if (loc.size() != 20)
            return fail(QStringLiteral("cannot check a zip64 locator signature in the data"));
        if (le32(loc.data() + 4) == 0 && le32(loc.data() + 16) == 1)
            return fail(QStringLiteral("a zip64 locator signature in the data that minizip may follow"));
    }
    if (w.declaredEntries != w.centrals.size())
        return fail(QStringLiteral("the end record counts %1 entries, the directory has %2").arg(w.declaredEntries).arg(w.centrals.size()));
    if (w.declaredDirOffset != w.centralStart || w.declaredDirSize != w.centralEnd - w.centralStart)
        return fail(QStringLiteral("the central directory is not where the end record says"));
    if (w.centrals.empty())
        return fail(QStringLiteral("a zip with no entries that is not a bare end record"));

    // hashZip()'s limits, checked the way it checks them: the directory's count and declared sizes.
    if (qint64(w.centrals.size()) > limits.maxEntries)
        return fail(QStringLiteral("more than %1 entries").arg(limits.maxEntries));
    quint64 declared = 0;
    for (const CentralEntry &c : w.centrals)
        if (!c.dirByName)
            declared += cappedDeclaredSize(c.uncompressedSize);
    if (declared > quint64(qMax<qint64>(limits.maxInflatedBytes, 0)))
        return fail(QStringLiteral("the entries declare more than %1 bytes in all").arg(limits.maxInflatedBytes));

    QHash<quint64, const LocalEntry *> byOffset;
    byOffset.reserve(qsizetype(w.locals.size()));
    for (const LocalEntry &l : w.locals)
        byOffset.insert(l.offset, &l);
    QSet<quint64> used; // two directory entries on one local header: overlapping entries (hashZip() refuses them)
    for (const CentralEntry &c : w.centrals) {
        if (!c.dirByName) {
            if (used.contains(c.localOffset))
                return fail(QStringLiteral("two directory entries point at one local header"));
            used.insert(c.localOffset);
        }
        if (c.name.contains('\n'))
            return fail(QStringLiteral("a name with a newline"));
        if (c.dirByName)
            continue; // hashZip() reads no data for these
        if (c.flags & 0x1)
            return fail(QStringLiteral("encrypted entry"));
        const LocalEntry *l = byOffset.value(c.localOffset, nullptr);
        if (!l)
            return fail(QStringLiteral("a directory entry points where the walk found no local header"));
        if (l->nameLength != c.name.size() || l->method != c.method)
            return fail(QStringLiteral("local header and central directory disagree"));
        if (l->compressedSize != c.compressedSize || l->uncompressedSize != c.uncompressedSize || l->crc != c.crc)
            return fail(QStringLiteral("local data and central directory disagree on size or CRC-32"));
    }
    return std::nullopt;
}

} // namespace

Result<StreamingZipOutcome> hashZipStream(const PullBytes &pull, qint64 maxInflate, const std::function<bool(qint64)> &advance,
                                          const ZipLimits &limits)
{
    Stream stream(pull, advance);
    Walker walker(stream, maxInflate, limits);
    Result<std::optional<Fallback>> walked = walker.walk();
    if (!walked.ok())
        return walked.error();
    std::optional<Fallback> fallback = walked.value();
    if (!fallback) {
        fallback = crossCheck(walker, stream, limits);
    } else {
        Result<void> drained = stream.drain();
        if (!drained.ok())
            return drained.error();
    }

    StreamingZipOutcome out;
    out.sha256 = stream.sha256();
    out.size = stream.total();
    if (out.sha256.size() != Sha256::DigestSize)
        return makeError(ErrorCode::Internal, QStringLiteral("SHA-256 failed"));
    if (fallback) {
        out.status = StreamingZipOutcome::Status::NeedsRandomAccess;
        out.reason = fallback->reason;
        qCDebug(lcHash) << "streaming zip hash needs the whole file:" << out.reason;
        return out;
    }

    // Combine exactly as hashZip() does (ZipRules).
    QHash<quint64, const LocalEntry *> byOffset;
    for (const LocalEntry &l : walker.locals)
        byOffset.insert(l.offset, &l);
    PackageHashes &h = out.hashes;
    h.kind = PackageHashes::Kind::Zip;
    h.fileSize = out.size;
    h.entryCount = int(walker.centrals.size());
    h.zh = HashString::zh(QString::fromLatin1(out.sha256.toHex()));
    std::vector<ZipEntryDigest> digests;
    digests.reserve(walker.centrals.size());
    for (const CentralEntry &c : walker.centrals) {
        QByteArray digest;
        if (!c.dirByName) {
            const LocalEntry *l = byOffset.value(c.localOffset);
            digest = l->digest;
            h.contentBytes += qint64(l->uncompressedSize);
        }
        digests.push_back(c.withDigest(std::move(digest)));
    }
    if (Result<void> combined = combineZipDigests(digests, h); !combined.ok())
        return combined.error();
    out.status = StreamingZipOutcome::Status::Hashed;
    return out;
}

} // namespace provender
