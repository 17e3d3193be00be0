#include "model/hashing/RawInflate.h"

#include <QtGlobal>

#include <zlib.h>

#ifdef PROVENDER_HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <climits>
#include <cstring>

namespace provender {

namespace {

bool useIsal()
{
#ifdef PROVENDER_HAVE_ISAL
    static const bool isal = qgetenv("PROVENDER_INFLATE") != QByteArrayView("zlib");
    return isal;
#else
    return false;
#endif
}

// Both libraries take 32-bit lengths; feed them in slices.
constexpr std::size_t MaxSlice = std::size_t(1) << 30;

} // namespace

struct RawInflate::Impl
{
    bool isal = useIsal();
    bool finished = false;
    std::uint32_t crc = 0;
    const unsigned char *in = nullptr;
    std::size_t inLeft = 0;
#ifdef PROVENDER_HAVE_ISAL
    inflate_state isalState; // ~40 KiB, lives on the heap with Impl
#endif
    z_stream zs;
    bool zsReady = false;

    Impl()
    {
        std::memset(&zs, 0, sizeof zs);
    }
    ~Impl()
    {
        if (zsReady)
            inflateEnd(&zs);
    }
};

RawInflate::RawInflate() : d(std::make_unique<Impl>())
{
    reset();
}

RawInflate::~RawInflate() = default;

void RawInflate::reset()
{
    d->finished = false;
    d->crc = 0;
    d->in = nullptr;
    d->inLeft = 0;
    m_error.clear();
#ifdef PROVENDER_HAVE_ISAL
    if (d->isal) {
        isal_inflate_init(&d->isalState);
        d->isalState.crc_flag = ISAL_GZIP_NO_HDR; // raw deflate, CRC-32 of the output in state.crc
        return;
    }
#endif
    if (d->zsReady) {
        inflateReset(&d->zs);
    } else {
        d->zsReady = inflateInit2(&d->zs, -MAX_WBITS) == Z_OK;
    }
}

void RawInflate::setInput(const unsigned char *data, std::size_t size)
{
    d->in = data;
    d->inLeft = size;
}

std::size_t RawInflate::inputLeft() const
{
    return d->inLeft;
}

RawInflate::Status RawInflate::inflate(unsigned char *out, std::size_t capacity, std::size_t *produced)
{
    *produced = 0;
    if (d->finished)
        return Status::StreamEnd;
    if (!m_error.isEmpty())
        return Status::Error;
    const std::size_t outCap = std::min(capacity, MaxSlice);
    const std::size_t inSlice = std::min(d->inLeft, MaxSlice);
#ifdef PROVENDER_HAVE_ISAL
    if (d->isal) {
        inflate_state &s = d->isalState;
        s.next_in = const_cast<unsigned char *>(d->in);
        s.avail_in = std::uint32_t(inSlice);
        s.next_out = out;
        s.avail_out = std::uint32_t(outCap);
        const int rc = isal_inflate(&s);
        if (rc < 0) {
            // After a data error the counters need not make sense (avail_in has been seen at
            // 2^32 - 1, more than it was given): the input position no longer matters, and only
            // output that fits the buffer counts.
            *produced = s.avail_out <= outCap ? outCap - s.avail_out : 0;
            switch (rc) {
            case ISAL_INVALID_BLOCK: m_error = QStringLiteral("invalid deflate block"); break;
            case ISAL_INVALID_SYMBOL: m_error = QStringLiteral("invalid deflate symbol"); break;
            case ISAL_INVALID_LOOKBACK: m_error = QStringLiteral("invalid deflate back-reference distance"); break;
            default: m_error = QStringLiteral("deflate data error (ISA-L code %1)").arg(rc); break;
            }
            return Status::Error;
        }
        const std::size_t used = inSlice - s.avail_in;
        d->in += used;
        d->inLeft -= used;
        *produced = outCap - s.avail_out;
        d->crc = s.crc;
        if (s.block_state == ISAL_BLOCK_FINISH) {
            d->finished = true;
            return Status::StreamEnd;
        }
        return Status::Ok;
    }
#endif
    if (!d->zsReady) {
        m_error = QStringLiteral("zlib could not be initialised");
        return Status::Error;
    }
    z_stream &z = d->zs;
    z.next_in = const_cast<unsigned char *>(d->in);
    z.avail_in = uInt(inSlice);
    z.next_out = out;
    z.avail_out = uInt(outCap);
    const int rc = ::inflate(&z, Z_NO_FLUSH);
    const std::size_t used = inSlice - z.avail_in;
    d->in += used;
    d->inLeft -= used;
    *produced = outCap - z.avail_out;
    d->crc = std::uint32_t(::crc32(d->crc, out, uInt(*produced)));
    if (rc == Z_STREAM_END) {
        d->finished = true;
        return Status::StreamEnd;
    }
    if (rc == Z_OK || rc == Z_BUF_ERROR)
        return Status::Ok; // Z_BUF_ERROR: no progress possible without more input
    m_error = z.msg ? QString::fromLatin1(z.msg) : QStringLiteral("deflate data error (zlib code %1)").arg(rc);
    return Status::Error;
}

std::uint32_t RawInflate::crc32() const
{
    return d->crc;
}

const char *RawInflate::backendName()
{
    return useIsal() ? "isa-l" : "zlib";
}

std::uint32_t RawInflate::updateCrc32(std::uint32_t crc, const unsigned char *data, std::size_t size)
{
    while (size > 0) {
        const std::size_t n = std::min(size, MaxSlice);
#ifdef PROVENDER_HAVE_ISAL
        crc = crc32_gzip_refl(crc, data, n);
#else
        crc = std::uint32_t(::crc32(crc, data, uInt(n)));
#endif
        data += n;
        size -= n;
    }
    return crc;
}

} // namespace provender
