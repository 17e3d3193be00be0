#include "model/oci/OciFormat.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace provender::oci {

namespace {

Error formatError(const QString &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

bool isLowerHex(QStringView s)
{
    for (QChar c : s)
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'))))
            return false;
    return true;
}

/// ORAS Reference.ValidateRegistry: url.Parse("dummy://" + r).Host must equal r. In practice a
/// host name or IPv4 address with an optional port, or a bracketed IPv6 address.
bool isValidRegistry(const QString &r)
{
    static const QRegularExpression re(QStringLiteral(R"(^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)(:[0-9]+)?$)"));
    return re.match(r).hasMatch();
}

Descriptor parseDescriptor(const QJsonObject &o)
{
    Descriptor d;
    d.raw = o;
    d.mediaType = o.value(QLatin1StringView("mediaType")).toString();
    d.artifactType = o.value(QLatin1StringView("artifactType")).toString();
    d.digest = o.value(QLatin1StringView("digest")).toString();
    d.size = o.value(QLatin1StringView("size")).toInteger(-1);
    const QJsonValue p = o.value(QLatin1StringView("platform"));
    if (p.isObject()) {
        const QJsonObject po = p.toObject();
        d.hasPlatform = true;
        d.os = po.value(QLatin1StringView("os")).toString();
        d.architecture = po.value(QLatin1StringView("architecture")).toString();
        d.osVersion = po.value(QLatin1StringView("os.version")).toString();
    }
    return d;
}

/// json.Unmarshal into a struct: the document must be an object; typed fields must have the
/// right JSON type (a string mediaType, an array of objects for manifests/layers).
Result<QJsonObject> parseObject(const QByteArray &bytes)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &e);
    if (e.error != QJsonParseError::NoError)
        return formatError(QStringLiteral("invalid manifest content: %1 at offset %2").arg(e.errorString()).arg(e.offset));
    if (!doc.isObject())
        return formatError(QStringLiteral("invalid manifest content: not a JSON object"));
    return doc.object();
}

Result<QList<Descriptor>> parseDescriptorList(const QJsonObject &o, QLatin1StringView key)
{
    QList<Descriptor> out;
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return out;
    if (!v.isArray())
        return formatError(QStringLiteral("invalid manifest content: \"%1\" is not an array").arg(key));
    for (const QJsonValue &e : v.toArray()) {
        if (!e.isObject())
            return formatError(QStringLiteral("invalid manifest content: an entry of \"%1\" is not an object").arg(key));
        out.append(parseDescriptor(e.toObject()));
    }
    return out;
}

/// What an image index and an image manifest both begin with (tofu's fetchOCIIndexManifest and
/// fetchOCIImageManifest: decode, then the media type).
struct ManifestHead
{
    QJsonObject object;
    QString mediaType;
    QString artifactType;
    QList<Descriptor> descriptors; ///< "manifests" of an index, "layers" of a manifest
};

/// Decodes `bytes` with its descriptors under `listKey`. A list that does not decode in a
/// document of `otherMediaType` is that other kind of manifest (`foundOther`); after the list,
/// another media type than `mediaType` is refused.
Result<ManifestHead> parseManifestHead(const QByteArray &bytes, QLatin1StringView listKey, QLatin1StringView mediaType,
                                       QLatin1StringView otherMediaType, const QString &foundOther)
{
    const Result<QJsonObject> o = parseObject(bytes);
    if (!o.ok())
        return o.error();
    ManifestHead head;
    head.object = o.value();
    head.mediaType = head.object.value(QLatin1StringView("mediaType")).toString();
    head.artifactType = head.object.value(QLatin1StringView("artifactType")).toString();
    Result<QList<Descriptor>> descriptors = parseDescriptorList(head.object, listKey);
    if (!descriptors.ok()) {
        if (head.mediaType == otherMediaType)
            return formatError(foundOther);
        return descriptors.error();
    }
    head.descriptors = descriptors.value();
    if (head.mediaType != mediaType)
        return formatError(QStringLiteral("unexpected manifest media type \"%1\"").arg(head.mediaType));
    return head;
}

} // namespace

bool isValidRepositoryName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(R"(^[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*$)"));
    return !name.isEmpty() && re.match(name).hasMatch();
}

bool isValidTag(const QString &tag)
{
    static const QRegularExpression re(QStringLiteral(R"(^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$)"));
    return re.match(tag).hasMatch();
}

Result<RepositoryAddress> parseRepositoryAddressPrefix(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash < 0) {
        if (!isValidRegistry(text))
            return formatError(QStringLiteral("invalid reference: invalid registry \"%1\"").arg(text));
        return RepositoryAddress{text, QString()};
    }
    const QString registry = text.left(slash);
    QString repository = text.mid(slash + 1);
    if (!isValidRegistry(registry))
        return formatError(QStringLiteral("invalid reference: invalid registry \"%1\"").arg(registry));
    const qsizetype lastSlash = repository.lastIndexOf(QLatin1Char('/'));
    if (repository.indexOf(QLatin1Char('@')) >= 0 || repository.indexOf(QLatin1Char(':'), lastSlash + 1) >= 0)
        return formatError(QStringLiteral("invalid reference: artifact tag or digest not allowed"));
    if (!isValidRepositoryName(repository))
        return formatError(QStringLiteral("invalid reference: invalid repository \"%1\"").arg(repository));
    return RepositoryAddress{registry, repository};
}

namespace {

struct TemplatePart
{
    bool symbol = false;
    QString text;
};

Result<QList<TemplatePart>> parseTemplate(const QString &templ)
{
    QList<TemplatePart> parts;
    QString literal;
    for (qsizetype i = 0; i < templ.size(); ++i) {
        const QChar c = templ.at(i);
        if (templ.mid(i, 3) == QLatin1StringView("$${") || templ.mid(i, 3) == QLatin1StringView("%%{")) {
            literal += c; // `$${` is a literal `${`, `%%{` a literal `%{`
            literal += QLatin1Char('{');
            i += 2;
            continue;
        }
        if (c == QLatin1Char('%') && templ.mid(i, 2) == QLatin1StringView("%{"))
            return formatError(QStringLiteral("repository_template: template directives (%{ … }) are not supported"));
        if (c == QLatin1Char('$') && templ.mid(i, 2) == QLatin1StringView("${")) {
            const qsizetype close = templ.indexOf(QLatin1Char('}'), i + 2);
            if (close < 0)
                return formatError(QStringLiteral("repository_template: unclosed ${ at offset %1").arg(i));
            QString name = templ.mid(i + 2, close - i - 2).trimmed();
            if (name.startsWith(QLatin1Char('~')))
                name = name.mid(1).trimmed();
            if (name.endsWith(QLatin1Char('~'))) {
                name.chop(1);
                name = name.trimmed();
            }
            static const QRegularExpression ident(QStringLiteral(R"(^[A-Za-z_][A-Za-z0-9_-]*$)"));
            if (!ident.match(name).hasMatch())
                return formatError(QStringLiteral("repository_template: only ${hostname}, ${namespace} and ${type} are "
                                                  "supported, not ${%1}")
                                       .arg(name));
            if (!literal.isEmpty()) {
                parts.append({false, literal});
                literal.clear();
            }
            parts.append({true, name});
            i = close;
            continue;
        }
        literal += c;
    }
    if (!literal.isEmpty())
        parts.append({false, literal});
    return parts;
}

QString evaluate(const QList<TemplatePart> &parts, const QString &host, const QString &ns, const QString &type)
{
    QString out;
    for (const TemplatePart &p : parts) {
        if (!p.symbol)
            out += p.text;
        else if (p.text == QLatin1StringView("hostname"))
            out += host;
        else if (p.text == QLatin1StringView("namespace"))
            out += ns;
        else
            out += type;
    }
    return out;
}

} // namespace

Result<void> checkRepositoryTemplate(const QString &templ, const QList<ProviderAddress> &providers)
{
    // What tofu's `include` patterns would pin: one value shared by every provider.
    auto single = [&](auto part) {
        if (providers.isEmpty())
            return false;
        for (const ProviderAddress &p : providers)
            if (part(p) != part(providers.first()))
                return false;
        return true;
    };
    if (templ.isEmpty())
        return formatError(QStringLiteral("Invalid oci_mirror block: \"repository_template\" argument is required."));
    const Result<QList<TemplatePart>> parts = parseTemplate(templ);
    if (!parts.ok())
        return parts.error();
    bool host = false, ns = false, type = false;
    QStringList errors;
    for (const TemplatePart &p : parts.value()) {
        if (!p.symbol)
            continue;
        if (p.text == QLatin1StringView("hostname"))
            host = true;
        else if (p.text == QLatin1StringView("namespace"))
            ns = true;
        else if (p.text == QLatin1StringView("type"))
            type = true;
        else
            errors.append(QStringLiteral("the symbol \"%1\" is not available for an OCI mirror repository address template. "
                                         "Only \"hostname\", \"namespace\", and \"type\" are available.")
                              .arg(p.text));
    }
    // tofu: each symbol is required unless the block's `include` selects exactly one value for it;
    // Provender has no `include`, so every symbol must appear.
    host = host || single([](const ProviderAddress &p) { return p.hostname(); });
    ns = ns || single([](const ProviderAddress &p) { return p.ns(); });
    type = type || single([](const ProviderAddress &p) { return p.type(); });
    if (!host)
        errors.append(QStringLiteral("template must refer to the \"hostname\" symbol unless the \"include\" "
                                     "argument selects exactly one registry hostname."));
    if (!ns)
        errors.append(QStringLiteral("template must refer to the \"namespace\" symbol unless the \"include\" "
                                     "argument selects exactly one provider namespace."));
    if (!type)
        errors.append(QStringLiteral("template must refer to the \"type\" symbol unless the \"include\" "
                                     "argument selects exactly one provider."));
    if (!errors.isEmpty())
        return formatError(QStringLiteral("Invalid oci_mirror repository template: ") + errors.join(QLatin1Char(' ')));
    const QString example =
        evaluate(parts.value(), QStringLiteral("example.com"), QStringLiteral("example-namespace"), QStringLiteral("example-type"));
    if (!parseRepositoryAddressPrefix(example).ok() || !example.contains(QLatin1Char('/')))
        return formatError(QStringLiteral("Invalid oci_mirror repository template: template must generate a valid OCI repository "
                                          "address, including a registry hostname followed by a slash and then a repository name."));
    return {};
}

Result<RepositoryAddress> expandRepositoryTemplate(const QString &templ, const ProviderAddress &provider)
{
    const Result<QList<TemplatePart>> parts = parseTemplate(templ);
    if (!parts.ok())
        return parts.error();
    const QString text = evaluate(parts.value(), provider.hostname(), provider.ns(), provider.type());
    Result<RepositoryAddress> addr = parseRepositoryAddressPrefix(text);
    if (!addr.ok())
        return formatError(QStringLiteral("%1 maps to \"%2\": %3").arg(provider.toString(), text, addr.error().message));
    if (addr.value().repository.isEmpty())
        return formatError(QStringLiteral("%1 maps to \"%2\", which has no repository name").arg(provider.toString(), text));
    return addr;
}

Result<QStringList> templateSymbols(const QString &templ)
{
    const Result<QList<TemplatePart>> parts = parseTemplate(templ);
    if (!parts.ok())
        return parts.error();
    QStringList out;
    for (const TemplatePart &p : parts.value())
        if (p.symbol && !out.contains(p.text))
            out.append(p.text);
    return out;
}

Result<ProviderAddress> providerForRepository(const QString &templ, const RepositoryAddress &repository, const TemplateDefaults &defaults)
{
    const Result<QList<TemplatePart>> parts = parseTemplate(templ);
    if (!parts.ok())
        return parts.error();
    // The template as a pattern over "registry/repository": literals as they are, each symbol one
    // non-empty run without '/', a symbol used twice the same text both times. Matched lazily and
    // greedily: when the two disagree the repository could be more than one provider.
    auto pattern = [&](bool greedy) {
        QString re = QStringLiteral("^");
        QStringList seen;
        for (const TemplatePart &p : parts.value()) {
            if (!p.symbol) {
                re += QRegularExpression::escape(p.text);
            } else if (seen.contains(p.text)) {
                re += QStringLiteral("\\k<%1>").arg(p.text);
            } else {
                seen.append(p.text);
                re += QStringLiteral("(?<%1>[^/]+%2)").arg(p.text, greedy ? QString() : QStringLiteral("?"));
            }
        }
        return QRegularExpression(re + QLatin1Char('$'));
    };
    const QString text = repository.toString();
    const QRegularExpressionMatch lazy = pattern(false).match(text);
    const QRegularExpressionMatch greedy = pattern(true).match(text);
    if (!lazy.hasMatch())
        return formatError(QStringLiteral("%1 is not a repository of the template %2").arg(text, templ));
    QStringList values;
    for (const auto &[symbol, fallback] :
         {std::pair{QStringLiteral("hostname"), defaults.hostname}, std::pair{QStringLiteral("namespace"), defaults.ns},
          std::pair{QStringLiteral("type"), defaults.type}}) {
        QString value = lazy.captured(symbol);
        if (value != greedy.captured(symbol))
            return formatError(QStringLiteral("%1 matches the template %2 in more than one way (${%3} = \"%4\" or "
                                              "\"%5\")")
                                   .arg(text, templ, symbol, value, greedy.captured(symbol)));
        if (value.isEmpty() && lazy.capturedStart(symbol) < 0)
            value = fallback;
        if (value.isEmpty())
            return formatError(QStringLiteral("the template %1 has no ${%2}: the provider's %2 of %3 is not known "
                                              "(name it)")
                                   .arg(templ, symbol, text));
        values.append(value);
    }
    const Result<ProviderAddress> address = ProviderAddress::parse(values.join(QLatin1Char('/')));
    if (!address.ok())
        return formatError(
            QStringLiteral("%1: \"%2\" is not a provider address: %3").arg(text, values.join(QLatin1Char('/')), address.error().message));
    // Back through the template: only a repository tofu would itself choose for the provider counts
    // (a host or name in another spelling is not that provider's repository).
    const Result<RepositoryAddress> back = expandRepositoryTemplate(templ, address.value());
    if (!back.ok() || !(back.value() == repository))
        return formatError(QStringLiteral("%1: tofu would look for %2 in %3, not here")
                               .arg(text, address.value().toString(), back.ok() ? back.value().toString() : back.error().message));
    return address;
}

Result<QString> templateFromOciUrl(const QString &url)
{
    if (!url.startsWith(QLatin1StringView("oci://")))
        return formatError(QStringLiteral("%1: an OCI mirror is written oci://HOST/PATH/${namespace}/${type}").arg(url));
    QString t = url.mid(6);
    while (t.endsWith(QLatin1Char('/')))
        t.chop(1);
    return t;
}

QString tagForVersion(const Version &version)
{
    return version.toString().replace(QLatin1Char('+'), QLatin1Char('_'));
}

std::optional<Version> versionForTag(const QString &tag)
{
    QString text = tag;
    text.replace(QLatin1Char('_'), QLatin1Char('+'));
    const Result<Version> v = Version::parse(text);
    if (!v.ok())
        return std::nullopt;
    return v.value();
}

Result<HashString> hashFromOciDigest(const QString &digest)
{
    const qsizetype colon = digest.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return formatError(QStringLiteral("invalid digest \"%1\": invalid checksum digest format").arg(digest));
    const QString algo = digest.left(colon);
    const QString hex = digest.mid(colon + 1);
    if (algo != QLatin1StringView("sha256")) {
        static const QRegularExpression algoRe(QStringLiteral(R"(^[a-z0-9]+([+._-][a-z0-9]+)*$)"));
        if (!algoRe.match(algo).hasMatch())
            return formatError(QStringLiteral("invalid digest \"%1\": invalid checksum digest format").arg(digest));
        if (algo == QLatin1StringView("sha384") || algo == QLatin1StringView("sha512"))
            return formatError(QStringLiteral("unsupported digest algorithm \"%1\"").arg(algo));
        return formatError(QStringLiteral("invalid digest \"%1\": unsupported digest algorithm").arg(digest));
    }
    if (hex.size() != 64 || !isLowerHex(hex))
        return formatError(QStringLiteral("invalid digest \"%1\": invalid checksum digest length").arg(digest));
    return HashString::zh(hex);
}

QString digestOf(const QByteArray &data)
{
    return QStringLiteral("sha256:") + QString::fromLatin1(Sha256::hash(data).toHex());
}

Result<void> checkResolvedIndex(const QString &contentType)
{
    // fetchOCIDescriptorForVersion (oci_registry_mirror_source.go:527-536).
    const QString mt = contentType.section(QLatin1Char(';'), 0, 0).trimmed();
    if (mt == kMediaTypeIndex)
        return {};
    if (mt == kMediaTypeManifest)
        return formatError(QStringLiteral("selected an OCI image manifest directly, but providers must be selected through a "
                                          "multi-platform index manifest"));
    if (mt == kMediaTypeDescriptor)
        return formatError(QStringLiteral("found OCI descriptor but expected multi-platform index manifest"));
    return formatError(QStringLiteral("unsupported media type \"%1\" for OCI index manifest").arg(mt));
}

Result<void> checkManifestSize(qint64 size)
{
    if (size / 1024 / 1024 > kManifestSizeLimitMiB)
        return formatError(QStringLiteral("manifest size exceeds OpenTofu's size limit of %1 MiB").arg(kManifestSizeLimitMiB));
    return {};
}

Result<void> checkManifestDigest(const QByteArray &bytes, const QString &digest)
{
    if (digestOf(bytes) != digest)
        return formatError(QStringLiteral("manifest content does not match digest %1").arg(digest));
    return {};
}

Result<ImageIndex> parseIndex(const QByteArray &bytes)
{
    Result<ManifestHead> head = parseManifestHead(bytes, QLatin1StringView("manifests"), kMediaTypeIndex, kMediaTypeManifest,
                                                  QStringLiteral("found image manifest but need index manifest"));
    if (!head.ok())
        return head.error();
    ImageIndex index{.mediaType = head->mediaType, .artifactType = head->artifactType, .manifests = head->descriptors};
    if (index.artifactType != kArtifactTypeProvider) {
        if (index.artifactType == kArtifactTypeProviderTarget)
            return formatError(QStringLiteral("unexpected artifact type \"%1\" (tag refers directly to image manifest, but "
                                              "OpenTofu providers require an index manifest for multi-platform support)")
                                   .arg(index.artifactType));
        if (index.artifactType == kArtifactTypeModulePackage)
            return formatError(QStringLiteral("unexpected artifact type \"%1\" (selected OCI artifact is an OpenTofu module "
                                              "package, not a provider package)")
                                   .arg(index.artifactType));
        return formatError(QStringLiteral("unexpected artifact type \"%1\"").arg(index.artifactType));
    }
    return index;
}

Result<ImageManifest> parseManifest(const QByteArray &bytes)
{
    Result<ManifestHead> head = parseManifestHead(bytes, QLatin1StringView("layers"), kMediaTypeManifest, kMediaTypeIndex,
                                                  QStringLiteral("found index manifest but need image manifest"));
    if (!head.ok())
        return head.error();
    ImageManifest m{.mediaType = head->mediaType, .artifactType = head->artifactType, .config = std::nullopt, .layers = head->descriptors};
    const QJsonValue config = head->object.value(QLatin1StringView("config"));
    if (config.isObject())
        m.config = parseDescriptor(config.toObject());
    if (m.artifactType != kArtifactTypeProviderTarget)
        return formatError(QStringLiteral("unexpected artifact type \"%1\"").arg(m.artifactType));
    return m;
}

Result<Descriptor> selectImageManifest(const QList<Descriptor> &manifests, const Platform &platform, bool *platformNotSupported)
{
    // selectOCIImageManifest (oci_registry_mirror_source.go:648-716), check for check.
    if (platformNotSupported)
        *platformNotSupported = false;
    int found = 0;
    QString wrongArtifactType;
    int wrongPlatform = 0;
    Descriptor selected;
    for (const Descriptor &d : manifests) {
        if (d.artifactType != kArtifactTypeProviderTarget) {
            if (!d.artifactType.isEmpty())
                wrongArtifactType = d.artifactType;
            continue;
        }
        if (d.mediaType != kMediaTypeManifest)
            return formatError(QStringLiteral("provider image manifest has unsupported media type \"%1\"").arg(d.mediaType));
        if (!d.hasPlatform)
            return formatError(QStringLiteral("provider image manifest lacks the required platform constraints"));
        if (!d.osVersion.isEmpty() || d.os != platform.os() || d.architecture != platform.arch()) {
            ++wrongPlatform;
            continue;
        }
        ++found;
        selected = d;
    }
    if (found == 0) {
        if (wrongPlatform > 0) {
            if (platformNotSupported)
                *platformNotSupported = true;
            return makeError(ErrorCode::NotFound, QStringLiteral("provider is not available for %1").arg(platform.toString()));
        }
        if (!wrongArtifactType.isEmpty())
            return formatError(QStringLiteral("provider image manifest has unsupported artifact type \"%1\"").arg(wrongArtifactType));
        return formatError(QStringLiteral("provider image manifest has unsupported artifact type; is this a container image, "
                                          "rather than an OpenTofu provider?"));
    }
    if (found > 1)
        return formatError(QStringLiteral("ambiguous manifest has multiple descriptors for platform %1").arg(platform.toString()));
    return selected;
}

QList<Platform> platformsOfIndex(const ImageIndex &index)
{
    QList<Platform> out;
    for (const Descriptor &d : index.manifests) {
        if (d.artifactType != kArtifactTypeProviderTarget || d.mediaType != kMediaTypeManifest || !d.hasPlatform || !d.osVersion.isEmpty())
            continue;
        const Platform p(d.os, d.architecture);
        if (!out.contains(p))
            out.append(p);
    }
    return out;
}

Result<Descriptor> selectLayer(const QList<Descriptor> &layers)
{
    // selectOCILayerBlob (oci_registry_mirror_source.go:718-747).
    int found = 0, wrong = 0;
    Descriptor selected;
    for (const Descriptor &d : layers) {
        if (d.mediaType != kMediaTypeZip) {
            ++wrong;
            continue;
        }
        ++found;
        selected = d;
    }
    if (found == 0) {
        if (wrong > 0)
            return formatError(QStringLiteral("image manifest contains no layers of type \"archive/zip\", but has other unsupported "
                                              "formats; this OCI artifact might be intended for a different version of OpenTofu"));
        return formatError(QStringLiteral("image manifest contains no layers of type \"archive/zip\""));
    }
    if (found > 1)
        return formatError(QStringLiteral("ambiguous manifest declares multiple eligible provider packages"));
    return selected;
}

Result<void> checkLayerDescriptor(const Descriptor &layer, const Platform &platform)
{
    // checkOCIBlobDescriptor (package_location_oci_blob_archive.go:287-305).
    if (layer.mediaType != kMediaTypeZip)
        return formatError(QStringLiteral("selected OCI artifact manifest has unexpected media type \"%1\"").arg(layer.mediaType));
    if (layer.hasPlatform && (layer.os != platform.os() || layer.architecture != platform.arch()))
        return formatError(QStringLiteral("selected OCI artifact is for %1_%2, but was expected to be for %3")
                               .arg(layer.os, layer.architecture, platform.toString()));
    return {};
}

namespace {

/// Compact JSON with keys in the order given (QJsonObject would sort them).
class OrderedJson
{
public:
    void key(const char *k)
    {
        m_out += m_first ? "" : ",";
        m_first = false;
        m_out += '"';
        m_out += k;
        m_out += "\":";
    }
    void str(const char *k, const QString &v)
    {
        key(k);
        m_out += QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    }
    void num(const char *k, qint64 v)
    {
        key(k);
        m_out += QByteArray::number(v);
    }
    void raw(const char *k, const QByteArray &json)
    {
        key(k);
        m_out += json;
    }
    QByteArray object() const { return '{' + m_out + '}'; }

private:
    QByteArray m_out;
    bool m_first = true;
};

QByteArray platformJson(const Platform &p)
{
    OrderedJson o;
    o.str("architecture", p.arch());
    o.str("os", p.os());
    return o.object();
}

} // namespace

QByteArray buildImageManifest(const Platform &platform, const QString &zipDigest, qint64 zipSize)
{
    OrderedJson config;
    config.str("mediaType", kMediaTypeEmpty);
    config.str("digest", digestOf(QByteArray(kEmptyConfigData.data(), kEmptyConfigData.size())));
    config.num("size", kEmptyConfigData.size());
    config.str("data", QString::fromLatin1(QByteArray(kEmptyConfigData.data(), kEmptyConfigData.size()).toBase64()));
    OrderedJson layer;
    layer.str("mediaType", kMediaTypeZip);
    layer.str("digest", zipDigest);
    layer.num("size", zipSize);
    layer.raw("platform", platformJson(platform));
    layer.str("artifactType", kArtifactTypeProviderPackage);
    OrderedJson m;
    m.num("schemaVersion", 2);
    m.str("mediaType", kMediaTypeManifest);
    m.str("artifactType", kArtifactTypeProviderTarget);
    m.raw("config", config.object());
    m.raw("layers", '[' + layer.object() + ']');
    return m.object();
}

QByteArray buildImageIndex(const QList<IndexEntry> &entries)
{
    QByteArray list;
    for (const IndexEntry &e : entries) {
        OrderedJson d;
        d.str("mediaType", kMediaTypeManifest);
        d.str("digest", e.digest);
        d.num("size", e.size);
        d.raw("platform", platformJson(e.platform));
        d.str("artifactType", kArtifactTypeProviderTarget);
        if (!list.isEmpty())
            list += ',';
        list += d.object();
    }
    OrderedJson m;
    m.num("schemaVersion", 2);
    m.str("mediaType", kMediaTypeIndex);
    m.str("artifactType", kArtifactTypeProvider);
    m.raw("manifests", '[' + list + ']');
    return m.object();
}

} // namespace provender::oci
