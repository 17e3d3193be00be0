#pragma once
// SHA-256 over OpenSSL's EVP API (SHA-NI where the CPU has it). Never QCryptographicHash for
// archive contents: it is an order of magnitude slower in Qt 6.4 (DESIGN.md, dependencies).

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <cstddef>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace provender {

class Sha256
{
public:
    static constexpr int DigestSize = 32;

    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    /// Starts a new digest (the constructor already did).
    void reset();
    void addData(const void *data, std::size_t size);
    void addData(QByteArrayView data) { addData(data.data(), std::size_t(data.size())); }
    /// The 32-byte raw digest of everything added since the last reset(); then resets.
    /// Empty only if OpenSSL failed (never seen in practice; callers treat it as ErrorCode::Internal).
    QByteArray result();

    /// One-shot digest.
    static QByteArray hash(QByteArrayView data);
    /// Digest of a file's bytes, read in 1 MiB blocks; empty when it cannot be opened or read.
    static QByteArray ofFile(const QString &path);
    /// SHA-256 of nothing: e3b0c442...b855 (raw bytes).
    static const QByteArray &emptyDigest();

private:
    EVP_MD_CTX *m_ctx = nullptr;
    bool m_failed = false;
};

} // namespace provender
