#pragma once
// Pieces shared by the zip and directory hashers (not part of the public API).

#include "model/core/Result.h"
#include "model/hashing/PackageHashes.h"

#include <QByteArray>

#include <cstddef>

class QFile;

namespace provender::hashing_detail {

/// Read and output buffer size. 256 KiB keeps each chunk in L2 between the inflate and the
/// SHA-256 that reads it back; larger buffers measured no faster (docs/BENCHMARKS.md).
constexpr std::size_t ChunkSize = std::size_t(256) << 10;

/// Calls the caller's HashProgress about every MiB and once at the end; remembers a cancel.
class ProgressTicker
{
public:
    ProgressTicker(const HashProgress &callback, qint64 total) : m_callback(callback), m_total(total) {}

    /// Counts `bytes` more; false when the caller asked to cancel.
    bool advance(qint64 bytes)
    {
        m_done += bytes;
        if (!m_callback || m_done < m_next)
            return !m_cancelled;
        m_next = m_done + (qint64(1) << 20);
        if (!m_callback(m_done, m_total))
            m_cancelled = true;
        return !m_cancelled;
    }
    /// Reports the final count (done == total on success).
    bool finish()
    {
        if (m_callback && !m_cancelled && !m_callback(m_done, m_total))
            m_cancelled = true;
        return !m_cancelled;
    }
    bool cancelled() const { return m_cancelled; }
    qint64 done() const { return m_done; }

private:
    const HashProgress &m_callback;
    qint64 m_total = 0;
    qint64 m_done = 0;
    qint64 m_next = 0;
    bool m_cancelled = false;
};

inline Error cancelledError()
{
    return makeError(ErrorCode::Cancelled, QStringLiteral("hashing was cancelled"));
}

/// Opens `file` (its fileName()) read-only and unbuffered for hashing; a FIFO or device is refused
/// ("not a regular file": it would block or never end), a missing file is NotFound.
Result<void> openForHashing(QFile &file);

/// zh: of `file` from its position to its end, one sequential pass in ChunkSize blocks, each
/// counted on `ticker`; with `expectedSize` >= 0 another byte count is an Io error (the file
/// changed size while it was read).
Result<HashString> hashRestZh(QFile &file, ProgressTicker &ticker, qint64 expectedSize = -1);

/// The error dirhash gives for a name containing '\n' (same text as golang.org/x/mod).
inline QString newlineNameMessage()
{
    return QStringLiteral("dirhash: filenames with newlines are not supported");
}

/// A name for messages: the raw bytes as UTF-8 (invalid sequences become U+FFFD), quoted.
inline QString displayName(const QByteArray &name)
{
    return u'"' + QString::fromUtf8(name) + u'"';
}

} // namespace provender::hashing_detail
