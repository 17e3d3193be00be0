#pragma once
// An OCI registry as a provider mirror in OpenTofu's `oci_mirror` format (docs/OCI.md).
//
//   verifyOciMirror()  browse + verify: per provider the repository from the template, versions
//       from its tags, platforms from each tag's index, then per platform the image manifest, its
//       archive/zip layer streamed to a file and hashed in the same pass (zh: = the layer digest
//       must equal the SHA-256 of the bytes) and then as a zip (h1:). Every step applies tofu's
//       checks in tofu's order (OciFormat.h) and reports a failure with tofu's wording:
//         - per archive: Mismatch when the bytes do not hash to the layer digest (or a lock's
//           hashes contradict them), Error for what makes tofu refuse that platform (two
//           manifests for it, no archive/zip layer, an oversized manifest, a manifest whose bytes
//           do not match its descriptor, …);
//         - per version (Anomaly): what makes tofu refuse the version on every platform (the tag
//           is not an index, the index has the wrong artifact type, …);
//         - a repository that does not exist (404 / NAME_UNKNOWN on the tag list) is an absent
//           provider, as tofu's ErrProviderNotFound.
//       It is OciSource (the listing below, then each blob read) run through the verification
//       engine (verifySource), so each archive is decided exactly as an archive of any other
//       source (the one declared hash is the layer digest's zh:, anchored in the manifest
//       `oci://REPO:TAG`; a lock's hashes anchored in the lock file; then the package content),
//       with tofu's OCI-only steps: a lock must list the digest before the download
//       (MirrorSource::lockCheckedBeforeRead, decideLockBeforeDownload), and the blob read up to
//       its descriptor's size must hash to the digest (OciClient::fetchBlob also refuses a
//       descriptor over `client.maxBlobBytes` and a Content-Length that is not the descriptor's
//       size).
//   listOciProviders()  the registry's `_catalog` mapped back to providers through the template.
//   pushToOci()  publish a Catalog (a directory mirror, or a bundle imported into a temporary
//       directory first): blobs that the registry has (HEAD) are not uploaded again, and one this
//       run put into another repository of the same registry is mounted from there; manifests in
//       tofu's format are written by digest; each version's index is written by digest and only
//       then tagged, so a reader never sees a tag whose content is incomplete; an unchanged tag is
//       not rewritten. Then the pushed versions are read back with verifyOciMirror().

#include "model/oci/OciAuth.h"
#include "model/oci/OciClient.h"
#include "model/registry/ReleaseSignature.h"
#include "model/verify/VerifyTypes.h"

#include <QHash>
#include <QList>
#include <QString>
#include <atomic>
#include <functional>
#include <optional>

namespace provender::oci {

struct OciMirrorOptions
{
    QString repositoryTemplate; ///< `127.0.0.1:5000/mirror/${namespace}/${type}` (no scheme)
    OciClientOptions client;
    std::optional<OciCredentialsPolicy> credentials; ///< nullopt: never send credentials
    /// Look for each version's signed provenance (an artifact referring to its index,
    /// OciProvenance.h) and, when its signature is good, anchor the archives in it.
    bool readProvenance = true;
    SignatureOptions signature; ///< pinned keys for those signatures
};

struct OciVerifyOptions
{
    /// Only these versions of a provider (from a lock file); others from its tags are skipped.
    QHash<QString, QList<Version>> onlyVersions; ///< provider address string -> versions
    ExpectedHashes expected;                     ///< a lock's hashes (tofu's pre-download zh: check applies)
    /// Where `expected` came from per provider version (lock file paths): the verdict's anchor.
    QHash<ProviderVersionKey, QString> expectedFrom;
    /// Lock files were given: archives of provider versions `expected` lacks are notCoveredByLock.
    bool lockCoverage = false;
    std::function<void(const ArchiveResult &)> onResult;
};

struct OciVerifyReport
{
    Catalog catalog; ///< what was found (sourceKind Network, root = the template)
    VerifyReport report;
    QList<ProviderAddress> absent; ///< repositories that do not exist
    QList<OciRequestLog> log;
    OciCounters counters;
    QHash<QString, QString> credentials; ///< repository -> credential description
};

OciVerifyReport verifyOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror,
                                const OciVerifyOptions &options = {});

/// One platform archive of listOciMirror(): its blob, or why tofu refuses it before downloading.
struct OciListedArchive
{
    ArchiveKey key;
    QString url;          ///< the blob URL (Archive::path)
    QString repository;   ///< registry/name
    QString digest;       ///< the layer digest ("" when refused before a layer was found)
    qint64 size = -1;     ///< the layer descriptor's size
    QString refusal;      ///< "" or tofu's reason (two manifests for the platform, no zip layer, …)
    bool missing = false; ///< the refusal is a 404 of the manifest
    /// The release's signed SHA256SUMS (when its provenance artifact has a good signature): the
    /// Signature anchor's document, and the SHA-256 (hex) it lists for this archive's file name
    /// ("" when it lists none).
    QString signedDocument;
    QString signedSha256;
};

struct OciListing
{
    OciVerifyReport report; ///< catalog, absent providers, log, counters, credentials (no results)
    QList<OciListedArchive> archives;
};

/// The listing half of verifyOciMirror() — no blob read (OciSource::list()). `resolved`
/// (may be null): repository -> credential to start from instead of the policy's (what an earlier
/// client ended with, e.g. a credential helper's answer); updated with what this walk's clients
/// end with.
OciListing listOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror,
                         const QHash<QString, QList<Version>> &onlyVersions = {}, QHash<QString, OciCredential> *resolved = nullptr);

/// One repository of a registry's `_catalog`, read back through the mirror's template.
struct OciCatalogEntry
{
    QString repository;                      ///< as the catalog lists it (without the registry)
    std::optional<ProviderAddress> provider; ///< the provider tofu would look for here, if any
    QString note;                            ///< why it is no provider of this mirror ("" when it is one)
    /// With `withVersions`: the versions of its tags (go-versions order; tags that are no version
    /// are ignored, as tofu ignores them), or why they could not be listed.
    QList<Version> versions;
    QString versionsError;
};

struct OciCatalogListing
{
    QString registry;
    QList<OciCatalogEntry> repositories; ///< every repository the catalog lists, in its order
    QList<ProviderAddress> providers;    ///< the providers among them, unique, sorted by address
    QList<OciRequestLog> log;
    OciCounters counters;
    QString credential; ///< where the credential came from ("" = none), never the secret
};

/// The providers an OCI mirror holds, for browsing: GET /v2/_catalog of the template's registry
/// (every page, `mirror.client.catalogPageSize` per page), each repository mapped back through
/// the template (providerForRepository). `defaults` supplies the symbols the template lacks. Fails
/// when the registry refuses the listing (many hosted registries do: name the providers then) or
/// when the template's registry part depends on the provider. Blocking: call off the GUI thread.
/// `withVersions`: also each provider repository's tag list (one more request per repository).
Result<OciCatalogListing> listOciProviders(const OciMirrorOptions &mirror, const TemplateDefaults &defaults = {},
                                           bool withVersions = false);

struct OciPushOptions
{
    QList<ProviderAddress> only; ///< empty: every provider of the catalog
    bool dryRun = false;         ///< only HEAD requests: say what would be uploaded
    bool verifyAfter = true;
    std::function<void(const QString &line)> progress;
    /// Archive bytes handled (uploaded, found present or mounted) of the total to publish.
    std::function<void(qint64 done, qint64 total)> bytes;
    /// Checked before every blob, manifest and tag: once set, nothing more is written (a blob
    /// upload under way finishes first), the version being pushed and every later one fail with
    /// "cancelled", and no tag is written for them — what is tagged stays whole.
    const std::atomic<bool> *cancel = nullptr;
};

/// One blob of a push: what it is, and whether it was (or, in a dry run, would be) uploaded.
struct OciBlobStep
{
    enum class Action { Upload, Present, Mount };
    QString repository; ///< registry/name
    QString digest;
    qint64 size = 0;
    QString what; ///< "linux_amd64 of hashicorp/null 3.2.2", "empty config", "signed provenance …"
    Action action = Action::Upload;
};

struct OciPushedVersion
{
    ProviderAddress provider;
    Version version;
    QString repository; ///< registry/name
    QString tag;
    QString indexDigest;
    QList<Platform> platforms;
    qint64 indexSize = 0;
    bool tagWritten = false;     ///< false: it already named this index (or a dry run)
    bool tagUnchanged = false;   ///< the tag already named this index (nothing to write)
    QString provenanceDigest;    ///< the signed-provenance artifact published for it ("" = none)
    QString provenanceReferrers; ///< "api" or the referrers tag that lists it
    QStringList skipped;         ///< archives not pushed and why (unpacked packages)
    QString error;
};

struct OciPushReport
{
    QList<OciPushedVersion> versions;
    int blobsUploaded = 0;
    int blobsPresent = 0; ///< found by HEAD, not uploaded
    int blobsMounted = 0; ///< mounted from another repository of the registry (this run)
    int manifestsWritten = 0;
    int manifestsPresent = 0;
    int tagsWritten = 0;
    int tagsUnchanged = 0;
    int provenanceWritten = 0; ///< provenance artifacts (or referrers tags) written
    qint64 bytesUploaded = 0;
    OciCounters counters; ///< summed over every repository's client
    QList<OciRequestLog> log;
    std::optional<OciVerifyReport> verification;
    QList<OciBlobStep> blobs; ///< every blob looked at, in order
    bool cancelled = false;   ///< OciPushOptions::cancel stopped it
    bool hasErrors() const;
};

OciPushReport pushToOci(const Catalog &catalog, const OciMirrorOptions &mirror, const OciPushOptions &options = {});

/// The CLI config block for this template, e.g.
/// provider_installation { oci_mirror { repository_template = "…" include = ["…"] } }
QString ociMirrorConfigBlock(const QString &repositoryTemplate, const QList<ProviderAddress> &providers);

} // namespace provender::oci
