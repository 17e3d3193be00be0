#pragma once
// Signed release provenance as OCI artifacts (docs/OCI.md "Signed provenance"). `mirror pull`
// keeps a release's proof in ROOT/.provenance/HOST/NS/TYPE/VERSION/{SHA256SUMS, SHA256SUMS.sig,
// keys.asc} (model/registry/ReleaseProvenance.h). `oci push` publishes those three files next to
// the version's index as one OCI image-spec 1.1 artifact:
//
//   image manifest, artifactType application/vnd.provender.release-provenance.v1,
//   config = the empty descriptor, three layers (each with org.opencontainers.image.title),
//   subject = the version's image index (which names every platform's manifest it covers).
//
// Found again through the distribution-spec's referrers: GET /v2/<name>/referrers/<index digest>,
// and where a registry has no referrers API (a 404, as Distribution 2.8) the referrers tag schema
// fallback: the tag `sha256-<hex>` of the subject digest names an image index listing the
// referrers, which the pushing client keeps up to date (distribution-spec "Pushing Manifests with
// Subject", "Referrers Tag Schema"). tofu ignores both (the tag is no version; it never asks for
// referrers), so a mirror with provenance installs exactly as one without.
//
// Reading checks what it reads: the artifact's bytes against its digest, its subject against the
// index it was found for, each file against its layer digest (fetchBlob), then the signature
// offline (verifyDetachedSignature: a private keyring with the release's own keys, optional pins).

#include "model/core/Result.h"
#include "model/oci/OciClient.h"
#include "model/registry/ReleaseSignature.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace provender::oci {

inline constexpr QLatin1StringView kArtifactTypeReleaseProvenance("application/vnd.provender.release-provenance.v1");
inline constexpr QLatin1StringView kMediaTypeSha256Sums("text/plain");
inline constexpr QLatin1StringView kMediaTypePgpSignature("application/pgp-signature");
inline constexpr QLatin1StringView kMediaTypePgpKeys("application/pgp-keys");
inline constexpr QLatin1StringView kAnnotationTitle("org.opencontainers.image.title");

/// The three files of a release's provenance (as in `.provenance/`).
struct ProvenanceFiles
{
    QByteArray sums;      ///< SHA256SUMS
    QByteArray signature; ///< SHA256SUMS.sig
    QByteArray keys;      ///< keys.asc
};

/// The release's `.provenance/` folder under `mirrorRoot`: nullopt when there is none (most mirrors
/// have none), an error when it is there but a file is missing, unreadable or over 4 MiB.
Result<std::optional<ProvenanceFiles>> readProvenanceFolder(const QString &mirrorRoot, const ProviderAddress &provider,
                                                            const Version &version);

/// distribution-spec "Referrers Tag Schema": the algorithm truncated to 32 characters, `-`, the
/// encoded part truncated to 64, every character a tag may not hold replaced by `-`.
QString referrersTag(const QString &digest);

/// One blob of the artifact.
struct ProvenanceLayer
{
    QString mediaType;
    QString digest;
    qint64 size = 0;
    QString title;
};

/// The artifact's manifest (compact JSON, deterministic: the same files give the same digest).
QByteArray buildProvenanceManifest(const QString &subjectDigest, qint64 subjectSize, const QList<ProvenanceLayer> &layers,
                                   const ProviderAddress &provider, const Version &version);
/// The three layers of `files`, in the order SHA256SUMS, SHA256SUMS.sig, keys.asc.
QList<ProvenanceLayer> provenanceLayers(const ProvenanceFiles &files);

/// What publishing one release's provenance did.
struct ProvenancePush
{
    QString artifactDigest;
    bool manifestWritten = false;
    QString referrers; ///< "api" (the registry lists referrers itself) or the fallback tag written/kept
    bool referrersTagWritten = false;
};

/// Publishes the artifact for the index `subjectDigest` (`subjectSize` bytes) of `client`'s
/// repository: the blobs through `ensureBlob` (the caller's HEAD-then-upload), the manifest by
/// digest, then — unless the registry's referrers API lists it — the referrers tag. `dryRun`: only
/// HEAD and GET requests.
Result<ProvenancePush> pushProvenance(OciClient &client, const QString &subjectDigest, qint64 subjectSize, const ProviderAddress &provider,
                                      const Version &version, const ProvenanceFiles &files, bool dryRun,
                                      const std::function<Result<void>(const QString &digest, const QByteArray &data)> &ensureBlob);

/// One provenance artifact found for an index, checked and read.
struct FetchedProvenance
{
    QString artifactDigest;
    ProvenanceFiles files;
    QString via; ///< "referrers API" or "referrers tag sha256-…"
};

/// The provenance artifacts that refer to the index `subjectDigest` (referrers API, else the tag
/// schema): empty when there are none. An artifact that is listed but cannot be read or does not
/// name this index as its subject is an error (a registry that serves the wrong bytes).
Result<QList<FetchedProvenance>> fetchProvenance(OciClient &client, const QString &subjectDigest);

/// The signed checksums of one release, as the verification uses them.
struct SignedSums
{
    QByteArray sums;  ///< the SHA256SUMS document, its signature good
    QString document; ///< oci://REPO@sha256:… (the artifact), for the Signature anchor
    SignatureCheck check;
};

/// The first artifact of `found` whose signature is good (with `options`' pins), or why none is.
Result<SignedSums> checkProvenance(const QString &repository, const QList<FetchedProvenance> &found, const SignatureOptions &options);

} // namespace provender::oci
