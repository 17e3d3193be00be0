#include "model/hashing/Sha256.h"

#include "model/core/Logging.h"

#include <QFile>

#include <openssl/evp.h>

namespace provender {

namespace {

// Fetching the algorithm once avoids OpenSSL 3's per-init implicit fetch (a lock and a lookup
// per digest, which shows up when thousands of small entries are hashed).
const EVP_MD *sha256Method()
{
    static EVP_MD *md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return md ? md : EVP_sha256();
}

} // namespace

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new())
{
    reset();
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(m_ctx);
}

void Sha256::reset()
{
    m_failed = !m_ctx || EVP_DigestInit_ex(m_ctx, sha256Method(), nullptr) != 1;
    if (m_failed)
        qCWarning(lcHash) << "OpenSSL could not start a SHA-256 digest";
}

void Sha256::addData(const void *data, std::size_t size)
{
    if (!m_failed && size > 0 && EVP_DigestUpdate(m_ctx, data, size) != 1)
        m_failed = true;
}

QByteArray Sha256::result()
{
    QByteArray digest;
    if (!m_failed) {
        digest.resize(DigestSize);
        unsigned int len = 0;
        if (EVP_DigestFinal_ex(m_ctx, reinterpret_cast<unsigned char *>(digest.data()), &len) != 1 || len != unsigned(DigestSize))
            digest.clear();
    }
    reset();
    return digest;
}

QByteArray Sha256::hash(QByteArrayView data)
{
    Sha256 h;
    h.addData(data);
    return h.result();
}

QByteArray Sha256::ofFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    Sha256 sha;
    QByteArray block(1 << 20, Qt::Uninitialized);
    qint64 n = 0;
    while ((n = file.read(block.data(), block.size())) > 0)
        sha.addData(block.constData(), std::size_t(n));
    return n < 0 ? QByteArray() : sha.result();
}

const QByteArray &Sha256::emptyDigest()
{
    static const QByteArray empty = Sha256::hash({});
    return empty;
}

} // namespace provender
