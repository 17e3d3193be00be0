#include "model/registry/RegistryDocuments.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

/// Go's encoding/json matches a field name without regard to case when no exact match exists.
QJsonValue field(const QJsonObject &o, QLatin1StringView name)
{
    if (const auto it = o.constFind(name); it != o.constEnd())
        return *it;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        if (it.key().compare(name, Qt::CaseInsensitive) == 0)
            return it.value();
    return {};
}

QString stringField(const QJsonObject &o, QLatin1StringView name)
{
    return field(o, name).toString();
}

QStringList stringList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out << e.toString();
    return out;
}

Result<QJsonObject> parseObject(const QByteArray &json)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return makeError(ErrorCode::InvalidArgument, u"invalid JSON: "_s + error.errorString());
    if (!doc.isObject())
        return makeError(ErrorCode::InvalidArgument, u"invalid JSON: the document is not an object"_s);
    return doc.object();
}

/// terraform: url.Parse, ResolveReference against the response's URL, then http/https only.
Result<QUrl> resolveUrl(const QJsonObject &o, QLatin1StringView name, const QUrl &base, const QString &what)
{
    const QUrl ref(stringField(o, name), QUrl::StrictMode);
    if (!ref.isValid())
        return makeError(ErrorCode::InvalidArgument, u"registry response includes invalid %1: %2"_s.arg(what, ref.errorString()));
    const QUrl url = base.resolved(ref);
    if (url.scheme() != "http"_L1 && url.scheme() != "https"_L1)
        return makeError(ErrorCode::InvalidArgument, u"registry response includes invalid %1: must use http or https scheme"_s.arg(what));
    return url;
}

} // namespace

Result<RegistryVersions> parseRegistryVersions(const QByteArray &json)
{
    const Result<QJsonObject> o = parseObject(json);
    if (!o)
        return o.error();
    RegistryVersions out;
    for (const QJsonValue &v : field(*o, "versions"_L1).toArray()) {
        const QJsonObject e = v.toObject();
        RegistryVersion rv;
        rv.version = stringField(e, "version"_L1);
        rv.protocols = stringList(field(e, "protocols"_L1));
        for (const QJsonValue &p : field(e, "platforms"_L1).toArray()) {
            const QJsonObject po = p.toObject();
            rv.platforms << Platform(stringField(po, "os"_L1), stringField(po, "arch"_L1));
        }
        out.versions << rv;
    }
    out.warnings = stringList(field(*o, "warnings"_L1));
    return out;
}

Result<RegistryDownload> parseRegistryDownload(const QByteArray &json, const QUrl &documentUrl, const Platform &requested)
{
    const Result<QJsonObject> parsed = parseObject(json);
    if (!parsed)
        return parsed.error();
    const QJsonObject &o = *parsed;
    RegistryDownload d;
    d.protocols = stringList(field(o, "protocols"_L1));
    d.platform = Platform(stringField(o, "os"_L1), stringField(o, "arch"_L1));
    if (d.platform.os() != requested.os() || d.platform.arch() != requested.arch())
        return makeError(
            ErrorCode::InvalidArgument,
            u"registry response to request for %1 archive has incorrect target %2"_s.arg(requested.toString(), d.platform.toString()));
    d.filename = stringField(o, "filename"_L1);
    Result<QUrl> url = resolveUrl(o, "download_url"_L1, documentUrl, u"download URL"_s);
    if (!url)
        return url.error();
    d.downloadUrl = *url;
    const QByteArray shasum = stringField(o, "shasum"_L1).toLatin1();
    if (!isSha256Hex(shasum))
        return makeError(ErrorCode::InvalidArgument,
                         u"registry response includes invalid SHA256 hash \"%1\""_s.arg(QString::fromLatin1(shasum)));
    d.sha256 = QByteArray::fromHex(shasum);
    url = resolveUrl(o, "shasums_url"_L1, documentUrl, u"SHASUMS URL"_s);
    if (!url)
        return url.error();
    d.shasumsUrl = *url;
    url = resolveUrl(o, "shasums_signature_url"_L1, documentUrl, u"SHASUMS signature URL"_s);
    if (!url)
        return url.error();
    d.shasumsSignatureUrl = *url;
    // `packages` (tofu's registry_client.go): platform keys by ParsePlatform, hashes by ParseHash,
    // each failure an error for the whole document. What the entries must say of the archive is
    // checked with the archive (authenticateRegistryPackage), as tofu's registryPackageAuthentication does.
    const QJsonObject packages = field(o, "packages"_L1).toObject();
    for (auto it = packages.constBegin(); it != packages.constEnd(); ++it) {
        const Result<Platform> platform = Platform::parse(it.key());
        if (!platform)
            return makeError(ErrorCode::InvalidArgument,
                             u"registry response includes invalid package platform \"%1\": %2"_s.arg(it.key(), platform.error().message));
        const QJsonObject entry = it.value().toObject();
        RegistryPackage package;
        package.platform = *platform;
        package.packageSize = field(entry, "package_size"_L1).toInteger();
        for (const QJsonValue &h : field(entry, "hashes"_L1).toArray()) {
            const Result<HashString> hash = HashString::parse(h.toString());
            if (!hash)
                return makeError(ErrorCode::InvalidArgument,
                                 u"registry response includes invalid package hash \"%1\": %2"_s.arg(h.toString(), hash.error().message));
            package.hashes << *hash;
        }
        d.packages << package;
    }
    std::sort(d.packages.begin(), d.packages.end(),
              [](const RegistryPackage &a, const RegistryPackage &b) { return a.platform < b.platform; });
    for (const QJsonValue &k : field(field(o, "signing_keys"_L1).toObject(), "gpg_public_keys"_L1).toArray()) {
        const QJsonObject ko = k.toObject();
        d.signingKeys << RegistrySigningKey{stringField(ko, "key_id"_L1), stringField(ko, "ascii_armor"_L1).toUtf8(),
                                            stringField(ko, "trust_signature"_L1).toUtf8(), stringField(ko, "source"_L1),
                                            stringField(ko, "source_url"_L1)};
    }
    return d;
}

const RegistryPackage *RegistryDownload::package(const Platform &platform) const
{
    for (const RegistryPackage &p : packages)
        if (p.platform == platform)
            return &p;
    return nullptr;
}

} // namespace provender
