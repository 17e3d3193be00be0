#include "ui/browser/UrlSource.h"

#include <QSettings>
#include <QUrl>
#include <QVariantMap>

namespace provender::ui {

namespace {

const QString kRequestsKey = QStringLiteral("remote/requests");
constexpr int kMaxRemembered = 10;

QString sourceName(RemoteRequest::ProviderSource s)
{
    switch (s) {
    case RemoteRequest::ProviderSource::Addresses: return QStringLiteral("addresses");
    case RemoteRequest::ProviderSource::LockFile: return QStringLiteral("lock");
    case RemoteRequest::ProviderSource::Autoindex: return QStringLiteral("autoindex");
    }
    return {};
}

} // namespace

bool isMirrorUrl(const QString &text)
{
    const QString t = text.trimmed();
    return t.startsWith(QLatin1StringView("https://"), Qt::CaseInsensitive)
        || t.startsWith(QLatin1StringView("http://"), Qt::CaseInsensitive);
}

RemoteRequest requestForUrl(const QString &url)
{
    RemoteRequest r;
    r.baseUrl = url.trimmed();
    r.source = RemoteRequest::ProviderSource::Autoindex;
    const QVariantList stored = QSettings().value(kRequestsKey).toList();
    for (const QVariant &v : stored) {
        const QVariantMap m = v.toMap();
        if (m.value(QStringLiteral("url")).toString() != r.baseUrl)
            continue;
        const QString source = m.value(QStringLiteral("source")).toString();
        if (source == sourceName(RemoteRequest::ProviderSource::Addresses)) {
            r.source = RemoteRequest::ProviderSource::Addresses;
            for (const QString &a : m.value(QStringLiteral("providers")).toStringList())
                if (const Result<ProviderAddress> p = ProviderAddress::parse(a); p.ok())
                    r.providers.append(p.value());
        } else if (source == sourceName(RemoteRequest::ProviderSource::LockFile)) {
            r.source = RemoteRequest::ProviderSource::LockFile;
        }
        r.lockFile = m.value(QStringLiteral("lockFile")).toString();
        r.caFile = m.value(QStringLiteral("caFile")).toString();
        r.allowHttpLoopback = m.value(QStringLiteral("allowHttpLoopback")).toBool();
        r.cacheDir = m.value(QStringLiteral("cacheDir")).toString();
        break;
    }
    return r;
}

void rememberUrlRequest(const RemoteRequest &request)
{
    if (!QUrl(request.baseUrl).userInfo().isEmpty())
        return; // never a secret in the settings file
    QVariantMap m;
    m.insert(QStringLiteral("url"), request.baseUrl);
    m.insert(QStringLiteral("source"), sourceName(request.source));
    QStringList providers;
    for (const ProviderAddress &a : request.providers)
        providers.append(a.toString());
    m.insert(QStringLiteral("providers"), providers);
    m.insert(QStringLiteral("lockFile"), request.lockFile);
    m.insert(QStringLiteral("caFile"), request.caFile);
    m.insert(QStringLiteral("allowHttpLoopback"), request.allowHttpLoopback);
    m.insert(QStringLiteral("cacheDir"), request.cacheDir);
    QVariantList stored = QSettings().value(kRequestsKey).toList();
    stored.removeIf([&request](const QVariant &v) { return v.toMap().value(QStringLiteral("url")).toString() == request.baseUrl; });
    stored.prepend(m);
    QSettings().setValue(kRequestsKey, stored.mid(0, kMaxRemembered));
}

} // namespace provender::ui
