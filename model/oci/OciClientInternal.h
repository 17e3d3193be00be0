#pragma once
// OciClient's private pieces shared by its two source files: one HTTP exchange and its response
// (OciClient.cpp sends them as HttpRunner jobs and answers the auth challenge; redirects, TLS,
// limits and the request log are HttpRunner's), and what the push side
// needs (OciClientPush.cpp: blob mount and upload, manifest put). Not part of the API.

#include "model/oci/OciClient.h"

#include <QByteArray>
#include <QHash>
#include <QIODevice>
#include <QList>
#include <QString>
#include <QUrl>
#include <QUrlQuery>
#include <functional>
#include <utility>

namespace provender::oci {

struct OciClient::Exchange
{
    QByteArray method = "GET";
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QIODevice *device = nullptr; ///< streamed body (PUT of a blob), read from its current position
    qint64 deviceStart = 0;
    qint64 deviceSize = -1;
    bool push = false;                              ///< needs the push scope
    QString extraScope;                             ///< another scope the token must grant (a mount's source)
    qint64 maxCollect = 1 << 20;                    ///< a 200 body kept in Response::body up to this many bytes ...
    bool truncateSilently = false;                  ///< ... then stop reading (true) or fail (false)
    std::function<bool(const char *, qint64)> sink; ///< a 200 body goes here instead (maxCollect still applies)
    // (any other answer's body is kept up to OciClient::kMaxErrorBody, for its OCI error codes)
    /// Looked at once the headers of a 200 answer are in, before any of its body is read: a
    /// non-empty answer refuses the response (Response::refused) and aborts it.
    std::function<QString(const QHash<QByteArray, QByteArray> &headers)> checkHeaders;
    QString scope;                 ///< the token scope instead of the repository's pull (or pull,push)
    bool notFoundIsAnswer = false; ///< a 404 is logged as expected (a lookup of what may be absent)
    bool challengeIsAnswer = true; ///< a 401 to a request without credentials is logged as expected
    /// Whether OciClientOptions::cancel stops it in flight; false for the request that closes an
    /// upload session after a cancel.
    bool cancellable = true;
    /// Called as the body is sent, with the bytes sent so far.
    std::function<void(qint64 sent)> uploadProgress;
};

struct OciClient::Response
{
    int status = 0;
    QByteArray reason;
    QHash<QByteArray, QByteArray> headers; ///< lower-case names
    QByteArray body;
    qint64 received = 0;
    qint64 sent = 0;
    bool truncated = false;
    bool tooLarge = false;
    bool sinkStopped = false;
    bool cancelled = false; ///< stopped in flight by OciClientOptions::cancel
    QString refused;        ///< what Exchange::checkHeaders said
    QString error;          ///< transport failure ("" when an HTTP response came)
    QUrl url;
    QByteArray header(const char *name) const { return headers.value(QByteArray(name)); }
    bool success() const { return error.isEmpty() && status >= 200 && status < 300; }
};

namespace client_detail {

/// \\p location with the `digest` query parameter of a blob upload's closing PUT.
inline QUrl withDigest(const QUrl &location, const QString &digest)
{
    QUrl u = location;
    QUrlQuery q(u);
    q.addQueryItem(QStringLiteral("digest"), QString::fromLatin1(QUrl::toPercentEncoding(digest)));
    u.setQuery(q);
    return u;
}

/// A window [offset, offset + length) of another random-access device, read through: a PATCH
/// chunk streams from the file instead of being read into memory.
class RangeDevice : public QIODevice
{
public:
    RangeDevice(QIODevice *base, qint64 offset, qint64 length) : m_base(base), m_offset(offset), m_length(length)
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return false; }
    qint64 size() const override { return m_length; }
    bool seek(qint64 pos) override
    {
        if (pos < 0 || pos > m_length || !m_base->seek(m_offset + pos))
            return false;
        return QIODevice::seek(pos);
    }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 want = std::min(maxSize, m_length - pos());
        if (want <= 0)
            return m_length - pos() == 0 ? -1 : 0;
        if (!m_base->seek(m_offset + pos()))
            return -1;
        return m_base->read(data, want);
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QIODevice *m_base;
    qint64 m_offset;
    qint64 m_length;
};

} // namespace client_detail

} // namespace provender::oci
