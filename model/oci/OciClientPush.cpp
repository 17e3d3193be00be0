#include "model/oci/OciClient.h"
#include "model/oci/OciClientInternal.h"

#include <QBuffer>

// The push side of the distribution-spec: cross-repository blob mount, blob upload (monolithic
// or chunked), manifest put. Every request goes through OciClient::send (OciClient.cpp).

namespace provender::oci {

using client_detail::RangeDevice;
using client_detail::withDigest;

Result<bool> OciClient::mountBlob(const QString &digest, const QString &fromRepository)
{
    Exchange post;
    post.method = "POST";
    post.url = apiUrl(QStringLiteral("blobs/uploads/"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("mount"), QString::fromLatin1(QUrl::toPercentEncoding(digest)));
    q.addQueryItem(QStringLiteral("from"), QString::fromLatin1(QUrl::toPercentEncoding(fromRepository)));
    post.url.setQuery(q);
    post.push = true;
    post.extraScope = QStringLiteral("repository:%1:pull").arg(fromRepository);
    ++m_counters.blobMounts;
    const Response r = send(post);
    if (r.status == 201)
        return true;
    if (r.status == 202) {
        // Not mounted: the registry opened an upload session instead; close it, the caller uploads.
        Exchange cancel;
        cancel.method = "DELETE";
        cancel.url = post.url.resolved(QUrl::fromEncoded(r.header("location")));
        cancel.push = true;
        cancel.cancellable = false;
        send(cancel);
        return false;
    }
    return failure(r, QStringLiteral("mounting %1 from %2 into %3").arg(digest, fromRepository, m_repo.toString()));
}

Result<void> OciClient::uploadBlob(const QByteArray &data)
{
    QBuffer buffer;
    buffer.setData(data);
    buffer.open(QIODevice::ReadOnly);
    return uploadBlob(&buffer, data.size(), digestOf(data));
}

Result<void> OciClient::uploadBlob(QIODevice *device, qint64 size, const QString &digest, const std::function<void(qint64 sent)> &progress)
{
    ++m_counters.blobUploads;
    const qint64 start = device->pos();
    Exchange post;
    post.method = "POST";
    post.url = apiUrl(QStringLiteral("blobs/uploads/"));
    post.push = true;
    const Response started = send(post);
    if (started.status != 202)
        return failure(started, QStringLiteral("starting the upload of %1 to %2").arg(digest, m_repo.toString()));
    QUrl location = post.url.resolved(QUrl::fromEncoded(started.header("location")));
    // Cancelled: the session is closed (distribution-spec "cancel an upload"), so the registry
    // keeps no partial blob under a digest.
    const auto abandon = [&](qint64 sent) {
        Exchange close;
        close.method = "DELETE";
        close.url = location;
        close.push = true;
        close.cancellable = false;
        send(close);
        return makeError(ErrorCode::Cancelled,
                         QStringLiteral("cancelled after %1 of %2 bytes of %3: the upload was abandoned").arg(sent).arg(size).arg(digest));
    };
    const qint64 chunk = m_options.chunkSize;
    if (chunk > 0 && size > chunk) {
        // Chunked: PATCH each piece with Content-Range, follow the new Location each time.
        qint64 offset = 0;
        while (offset < size) {
            if (m_options.cancel && m_options.cancel->load())
                return abandon(offset);
            const qint64 n = std::min(chunk, size - offset);
            RangeDevice piece(device, start + offset, n);
            Exchange patch;
            patch.method = "PATCH";
            patch.url = location;
            patch.push = true;
            patch.device = &piece;
            patch.deviceStart = 0;
            patch.deviceSize = n;
            patch.headers.emplaceBack("Content-Type", "application/octet-stream");
            patch.headers.emplaceBack("Content-Range", QByteArray::number(offset) + '-' + QByteArray::number(offset + n - 1));
            if (progress)
                patch.uploadProgress = [&progress, offset](qint64 sent) { progress(offset + sent); };
            ++m_counters.blobChunks;
            const Response r = send(patch);
            if (r.cancelled)
                return abandon(offset + r.sent);
            if (r.status != 202)
                return failure(r, QStringLiteral("uploading bytes %1-%2 of %3").arg(offset).arg(offset + n - 1).arg(digest));
            m_counters.bytesUploaded += n;
            location = location.resolved(QUrl::fromEncoded(r.header("location")));
            offset += n;
        }
        Exchange put;
        put.method = "PUT";
        put.url = withDigest(location, digest);
        put.push = true;
        const Response r = send(put);
        if (r.cancelled)
            return abandon(size);
        if (r.status != 201)
            return failure(r, QStringLiteral("finishing the upload of %1").arg(digest));
        return {};
    }
    Exchange put;
    put.method = "PUT";
    put.url = withDigest(location, digest);
    put.push = true;
    put.device = device;
    put.deviceStart = start;
    put.deviceSize = size;
    put.headers.emplaceBack("Content-Type", "application/octet-stream");
    put.uploadProgress = progress;
    const Response r = send(put);
    if (r.cancelled)
        return abandon(r.sent);
    if (r.status != 201)
        return failure(r, QStringLiteral("uploading %1 to %2").arg(digest, m_repo.toString()));
    m_counters.bytesUploaded += size;
    return {};
}

Result<QString> OciClient::putManifest(const QString &reference, const QString &mediaType, const QByteArray &body)
{
    Exchange ex;
    ex.method = "PUT";
    ex.url = apiUrl(QStringLiteral("manifests/") + reference);
    ex.push = true;
    ex.body = body;
    ex.headers.emplaceBack("Content-Type", mediaType.toLatin1());
    ++m_counters.manifestPuts;
    const Response r = send(ex);
    if (r.status != 201)
        return failure(r, QStringLiteral("writing manifest %1:%2").arg(m_repo.toString(), reference));
    return QString::fromLatin1(r.header("docker-content-digest"));
}

} // namespace provender::oci
