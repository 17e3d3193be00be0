#pragma once
// Internal to the streaming zip hasher (StreamingZipHasher.cpp): the buffered front-to-back reader
// it walks the zip with, which hashes every byte it pulls and keeps the file's last 64 KiB for
// minizip's backward search of the end records, and the little-endian field readers.

#include "model/core/Result.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/StreamingZipHasher.h"

#include <QByteArray>
#include <QByteArrayView>

#include <functional>

namespace provender::hashing_detail {

/// minizip searches the last 0xffff bytes for the end records (unz64local_SearchCentralDir).
constexpr qsizetype kTailKeep = 0xffff + 64;
/// Bytes kept before the read position. An inflater may read ahead past the end of a DEFLATE
/// stream (ISA-L keeps up to 8 bytes in its bit buffer, more in its small-input buffer).
constexpr qsizetype kKeepBehind = 1024;

inline quint16 le16(const char *p)
{
    return quint16(uchar(p[0]) | (uchar(p[1]) << 8));
}
inline quint32 le32(const char *p)
{
    return quint32(uchar(p[0])) | (quint32(uchar(p[1])) << 8) | (quint32(uchar(p[2])) << 16) | (quint32(uchar(p[3])) << 24);
}
inline quint64 le64(const char *p)
{
    return quint64(le32(p)) | (quint64(le32(p + 4)) << 32);
}

/// Buffered front-to-back reader that hashes every byte it pulls and keeps the file's last
/// 64 KiB for the end-record search.
class Stream
{
public:
    Stream(const PullBytes &pull, const std::function<bool(qint64)> &advance) : m_pull(pull), m_advance(advance) {}

    /// At least n bytes at data(); false when the stream ends first.
    Result<bool> ensure(qsizetype n)
    {
        while (m_buf.size() - m_pos < n) {
            if (m_eof)
                return false;
            // Keep some bytes behind the read position so that a data-descriptor search can look back.
            if (m_pos > 4 * kKeepBehind) {
                const qsizetype drop = m_pos - kKeepBehind;
                m_buf.remove(0, drop);
                m_pos -= drop;
            }
            Result<QByteArrayView> block = m_pull();
            if (!block.ok())
                return block.error();
            if (block->isEmpty()) {
                m_eof = true;
                return false;
            }
            m_sha.addData(block->data(), std::size_t(block->size()));
            m_total += block->size();
            appendTail(block.value());
            if (m_advance && !m_advance(block->size()))
                return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
            m_buf.append(block->data(), block->size());
        }
        return true;
    }
    const char *data() const { return m_buf.constData() + m_pos; }
    qsizetype available() const { return m_buf.size() - m_pos; }
    void consume(qsizetype n)
    {
        m_pos += n;
        m_offset += quint64(n);
    }
    /// Steps back over bytes already consumed (at most kKeepBehind, and only right after consuming them).
    bool rewind(qsizetype n)
    {
        if (n > m_pos)
            return false;
        m_pos -= n;
        m_offset -= quint64(n);
        return true;
    }
    quint64 offset() const { return m_offset; }

    /// Skips n bytes; false when the stream ends first.
    Result<bool> skip(quint64 n)
    {
        while (n > 0) {
            Result<bool> got = ensure(1);
            if (!got.ok())
                return got.error();
            if (!got.value())
                return false;
            const qsizetype k = qsizetype(qMin<quint64>(n, quint64(available())));
            consume(k);
            n -= quint64(k);
        }
        return true;
    }
    /// Reads to the end (everything is hashed on the way).
    Result<void> drain()
    {
        for (;;) {
            consume(available());
            Result<bool> got = ensure(1);
            if (!got.ok())
                return got.error();
            if (!got.value())
                return {};
        }
    }

    QByteArray sha256() { return m_sha.result(); }
    qint64 total() const { return m_total; }
    /// The last bytes of the stream (after drain()): [tailStart(), total()).
    const QByteArray &tail() const { return m_tail; }
    qint64 tailStart() const { return m_total - m_tail.size(); }

private:
    void appendTail(QByteArrayView block)
    {
        if (block.size() >= kTailKeep) {
            m_tail = block.last(kTailKeep).toByteArray();
            return;
        }
        m_tail.append(block.data(), block.size());
        if (m_tail.size() > 2 * kTailKeep)
            m_tail.remove(0, m_tail.size() - kTailKeep);
    }

    const PullBytes &m_pull;
    const std::function<bool(qint64)> &m_advance;
    QByteArray m_buf;
    qsizetype m_pos = 0;
    quint64 m_offset = 0;
    bool m_eof = false;
    Sha256 m_sha;
    qint64 m_total = 0;
    QByteArray m_tail;
};

/// Last position of a 4-byte little-endian signature in the file's last `window` bytes (minizip's
/// backward search), or -1.
inline qint64 lastSignature(const Stream &s, quint32 sig, qint64 window)
{
    const QByteArray &tail = s.tail();
    const qint64 start = s.tailStart();
    const qint64 lowest = qMax<qint64>(0, s.total() - window);
    for (qsizetype i = tail.size() - 4; i >= 0; --i) {
        const qint64 pos = start + i;
        if (pos < lowest)
            break;
        if (le32(tail.constData() + i) == sig)
            return pos;
    }
    return -1;
}

/// Bytes [pos, pos+n) of the file from the tail buffer; empty when not there.
inline QByteArrayView tailBytes(const Stream &s, qint64 pos, qint64 n)
{
    const qint64 rel = pos - s.tailStart();
    if (rel < 0 || rel + n > s.tail().size())
        return {};
    return QByteArrayView(s.tail().constData() + rel, n);
}

} // namespace provender::hashing_detail
