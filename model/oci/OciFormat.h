#pragma once
// OpenTofu's `oci_mirror` format (docs/OCI.md, with the OpenTofu source lines each rule comes from):
//   repository  = repository_template with ${hostname} ${namespace} ${type} substituted
//   tag         = version with `+` written as `_`; tags that do not parse as versions are ignored
//   tag -> image index (application/vnd.oci.image.index.v1+json) with artifactType
//          application/vnd.opentofu.provider
//   index entry -> image manifest per platform, artifactType application/vnd.opentofu.provider-target,
//          platform {os, architecture}
//   manifest    -> exactly one layer of media type archive/zip whose digest sha256:X is the zh:X
// Parsing and selection here follow tofu's getproviders/oci_registry_mirror_source.go step by step
// (same order of checks, same error wording) so a verdict says what tofu would say. Pure functions.

#include "model/core/HashString.h"
#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace provender::oci {

inline constexpr QLatin1StringView kMediaTypeIndex("application/vnd.oci.image.index.v1+json");
inline constexpr QLatin1StringView kMediaTypeManifest("application/vnd.oci.image.manifest.v1+json");
inline constexpr QLatin1StringView kMediaTypeDescriptor("application/vnd.oci.descriptor.v1+json");
inline constexpr QLatin1StringView kMediaTypeEmpty("application/vnd.oci.empty.v1+json");
inline constexpr QLatin1StringView kArtifactTypeProvider("application/vnd.opentofu.provider");
inline constexpr QLatin1StringView kArtifactTypeProviderTarget("application/vnd.opentofu.provider-target");
inline constexpr QLatin1StringView kArtifactTypeModulePackage("application/vnd.opentofu.modulepkg");
/// The artifactType tofu's own fixtures put on the layer descriptor (not checked by tofu).
inline constexpr QLatin1StringView kArtifactTypeProviderPackage("application/vnd.opentofu.providerpkg");
inline constexpr QLatin1StringView kMediaTypeZip("archive/zip");
/// `{}`: the empty config blob of every manifest (OCI image-spec "empty descriptor").
inline constexpr QLatin1StringView kEmptyConfigData("{}");
/// tofu refuses a manifest descriptor when size/1024/1024 > 4 (integer division: 5 MiB and up).
inline constexpr qint64 kManifestSizeLimitMiB = 4;

// --- addresses -----------------------------------------------------------------------------

struct RepositoryAddress
{
    QString registry;   ///< host[:port]
    QString repository; ///< path inside the registry (OCI `<name>`)
    QString toString() const { return registry + QLatin1Char('/') + repository; }
    bool operator==(const RepositoryAddress &) const = default;
};

/// True when `name` matches the OCI distribution `<name>` grammar (lower-case path components).
bool isValidRepositoryName(const QString &name);
/// True when `tag` matches `[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}`.
bool isValidTag(const QString &tag);

/// ociauthconfig.ParseRepositoryAddressPrefix: `host[:port]/path` or a bare `host[:port]`
/// (repository "" then). Tags and digests (`:tag`, `@sha256:…` after the path) are refused.
Result<RepositoryAddress> parseRepositoryAddressPrefix(const QString &text);

/// A repository_template (an HCL template with only ${hostname}, ${namespace}, ${type}; `$${` is
/// a literal `${`). checkRepositoryTemplate applies tofu's load-time rules: only those symbols;
/// each symbol must appear unless the block's `include` selects exactly one value for it — here
/// `include` is the list of providers the template is used for (the oci_mirror block Provender
/// prints lists them), so a symbol may be left out when all of `providers` agree on it; and the
/// template evaluated for example.com / example-namespace / example-type must be a valid
/// repository address.
Result<void> checkRepositoryTemplate(const QString &templ, const QList<ProviderAddress> &providers = {});
/// The repository a provider maps to (hostname in its comparison form, as tofu's String()).
Result<RepositoryAddress> expandRepositoryTemplate(const QString &templ, const ProviderAddress &provider);
/// The symbols a template refers to, each once, in order of first use.
Result<QStringList> templateSymbols(const QString &templ);
/// Values for the symbols a template leaves out (what an oci_mirror block's `include` pins).
struct TemplateDefaults
{
    QString hostname;
    QString ns;
    QString type;
};
/// The reverse of expandRepositoryTemplate, for a registry's `_catalog`: the provider whose
/// repository under `templ` is `repository`. Fails when the repository does not fit the template,
/// fits it in more than one way, names no valid provider, or is not the repository tofu would
/// compute for that provider (e.g. another spelling of its host). A symbol the template lacks
/// takes its value from `defaults` (an error when that is empty).
Result<ProviderAddress> providerForRepository(const QString &templ, const RepositoryAddress &repository,
                                              const TemplateDefaults &defaults = {});
/// `oci://HOST/PATH/${namespace}/${type}` -> the template without the scheme.
Result<QString> templateFromOciUrl(const QString &url);

/// version -> tag (`+` -> `_`).
QString tagForVersion(const Version &version);
/// tag -> version (`_` -> `+`, then go-versions parsing); nullopt for tags tofu ignores.
std::optional<Version> versionForTag(const QString &tag);

// --- descriptors and manifests -------------------------------------------------------------

struct Descriptor
{
    QString mediaType;
    QString artifactType;
    QString digest; ///< `sha256:<64 hex>`
    qint64 size = -1;
    bool hasPlatform = false;
    QString os;
    QString architecture;
    QString osVersion; ///< tofu ignores descriptors that set it
    QJsonObject raw;   ///< the descriptor as it was
};

/// tofu's hashFromOCIDigest: `sha256:<64 lower hex>` -> zh:<hex>.
Result<HashString> hashFromOciDigest(const QString &digest);
/// `sha256:` + hex of the SHA-256 of `data`.
QString digestOf(const QByteArray &data);

struct ImageIndex
{
    QString mediaType;
    QString artifactType;
    QList<Descriptor> manifests;
};
struct ImageManifest
{
    QString mediaType;
    QString artifactType;
    std::optional<Descriptor> config;
    QList<Descriptor> layers;
};

/// What the tag resolved to (HEAD/GET of the manifest): its Content-Type and size.
/// fetchOCIDescriptorForVersion's checks: an image manifest, a descriptor or an unknown media type
/// are refused with tofu's wording. (The registry returns no artifactType on resolve.)
Result<void> checkResolvedIndex(const QString &contentType);
/// fetchOCIManifestBlob: size limit (before fetching), then the bytes must hash to `digest`.
Result<void> checkManifestSize(qint64 size);
Result<void> checkManifestDigest(const QByteArray &bytes, const QString &digest);
/// fetchOCIIndexManifest: JSON, mediaType == index, artifactType == provider.
Result<ImageIndex> parseIndex(const QByteArray &bytes);
/// fetchOCIImageManifest: JSON, mediaType == manifest, artifactType == provider-target.
Result<ImageManifest> parseManifest(const QByteArray &bytes);

/// selectOCIImageManifest for one platform. `platformNotSupported` is set (and an error returned)
/// for tofu's ErrPlatformNotSupported case.
Result<Descriptor> selectImageManifest(const QList<Descriptor> &manifests, const Platform &platform, bool *platformNotSupported = nullptr);
/// The platforms an index offers, as tofu would find them: descriptors with the provider-target
/// artifact type, manifest media type and a platform without os.version (in index order, unique).
QList<Platform> platformsOfIndex(const ImageIndex &index);
/// selectOCILayerBlob: exactly one archive/zip layer.
Result<Descriptor> selectLayer(const QList<Descriptor> &layers);
/// checkOCIBlobDescriptor: media type archive/zip and, when the layer names a platform, the same one.
Result<void> checkLayerDescriptor(const Descriptor &layer, const Platform &platform);

// --- writing (provender oci push) ------------------------------------------------------------

/// The bytes Provender writes, field for field as OpenTofu's e2e fixtures
/// (internal/command/e2etest/testdata/oci-provider-mirror/fake-registry): compact JSON, keys in
/// the fixtures' order.
QByteArray buildImageManifest(const Platform &platform, const QString &zipDigest, qint64 zipSize);
struct IndexEntry
{
    Platform platform;
    QString digest;
    qint64 size = 0;
};
QByteArray buildImageIndex(const QList<IndexEntry> &entries);

} // namespace provender::oci
