#pragma once
// The documents of an origin registry's providers.v1 protocol (tofu-formats.md §12) as value
// types, read the way terraform's registry client reads them (internal/getproviders/
// registry_client.go): Go's lenient JSON decoding (unknown fields ignored, keys matched without
// regard to case), URLs resolved against the document's own URL and refused unless http(s),
// and terraform's error wording. No I/O here: the fetching lives with the HTTP code.
//
// Also the release's SHA256SUMS file: the lookup terraform's matchingChecksumAuthentication does
// and the list of every zh: it vouches for once its signature is good (AcceptableHashes).

#include "model/core/HashString.h"
#include "model/core/Platform.h"
#include "model/core/Result.h"
#include "model/core/Sha256Sums.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace provender {

struct RegistryVersion
{
    QString version;       ///< as the registry wrote it (parsed by the caller: invalid ones are skipped there)
    QStringList protocols; ///< plugin protocol versions ("5.0")
    QList<Platform> platforms;
};

struct RegistryVersions
{
    QList<RegistryVersion> versions;
    QStringList warnings;
};

/// `GET {base}NS/TYPE/versions`. An empty or missing `versions` list is no error (terraform
/// then reports that no versions are available).
Result<RegistryVersions> parseRegistryVersions(const QByteArray &json);

struct RegistrySigningKey
{
    QString keyId;
    QByteArray asciiArmor;
    QByteArray trustSignature;
    QString source;
    QString sourceUrl;
};

/// One entry of a download document's `packages` object (OpenTofu's registry since tofu 1.12,
/// rfc/20251027-provider-registry-hashes.md; registry_client.go reads it): the hashes the
/// registry reports for one platform's package and that package's size in bytes.
struct RegistryPackage
{
    Platform platform;
    QList<HashString> hashes; ///< as listed (any scheme); PreferredHashes keeps h1: and zh:
    qint64 packageSize = 0;
};

struct RegistryDownload
{
    QStringList protocols;
    Platform platform;
    QString filename;
    QUrl downloadUrl; ///< resolved against the document's URL
    QUrl shasumsUrl;
    QUrl shasumsSignatureUrl;
    QByteArray sha256; ///< `shasum`: 32 raw bytes
    QList<RegistrySigningKey> signingKeys;
    /// `packages`: every platform's reported hashes (empty when the registry does not publish them,
    /// as terraform's registry and older tofu registries do not). Sorted by platform.
    QList<RegistryPackage> packages;
    const RegistryPackage *package(const Platform &platform) const;
};

/// `GET {base}NS/TYPE/VERSION/download/OS/ARCH`, fetched from `documentUrl` (after redirects)
/// for `requested`. Errors in terraform's words ("registry response includes invalid SHA256
/// hash …", "… has incorrect target …", "… must use http or https scheme", "… includes invalid
/// package platform …", "… includes invalid package hash …").
Result<RegistryDownload> parseRegistryDownload(const QByteArray &json, const QUrl &documentUrl, const Platform &requested);

} // namespace provender
