#pragma once
// Streaming decoder for the raw DEFLATE stream of a zip entry (no zlib/gzip wrapper), plus the
// CRC-32 zip uses. ISA-L's isal_inflate when the build found libisal (2-2.5x zlib's speed on
// provider binaries, see docs/BENCHMARKS.md); zlib otherwise, or when the environment variable
// PROVENDER_INFLATE=zlib asks for it (benchmarks compare the two in one build).

#include <QString>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace provender {

class RawInflate
{
public:
    enum class Status {
        Ok,        ///< made progress; call again (with more input when inputLeft() is 0)
        StreamEnd, ///< the final block was decoded and all its output delivered
        Error,     ///< the data is not valid DEFLATE; errorString() says why
    };

    RawInflate();
    ~RawInflate();
    RawInflate(const RawInflate &) = delete;
    RawInflate &operator=(const RawInflate &) = delete;

    /// Starts a new stream (keeps the allocated state).
    void reset();
    /// Hands the decoder the next compressed bytes; they must stay valid until inputLeft() is 0.
    void setInput(const unsigned char *data, std::size_t size);
    std::size_t inputLeft() const;
    /// Decodes into out[0..capacity); *produced = bytes written (may be 0 when input is needed).
    Status inflate(unsigned char *out, std::size_t capacity, std::size_t *produced);
    /// CRC-32 (zip/gzip polynomial) of all output since reset().
    std::uint32_t crc32() const;
    QString errorString() const { return m_error; }

    /// "isa-l" or "zlib": the decoder this process uses.
    static const char *backendName();

    /// CRC-32 of a buffer, continued from `crc` (0 to start), with the fastest library at hand.
    static std::uint32_t updateCrc32(std::uint32_t crc, const unsigned char *data, std::size_t size);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    QString m_error;
};

} // namespace provender
