#pragma once
// `provender mirror pull`: providers from their origin registries into a packed directory
// mirror, each archive proven against the release's signed SHA256SUMS before it gets its name.
//
//   - version: a lock file's pinned version, or the newest one the registry lists that meets the
//     constraints (go-versions rules, VersionConstraints::allows);
//   - per platform: the download document, then the archive streamed into a private staging
//     folder (DEST/.provender-pull/, mode 0700) with its SHA-256 computed on the way; only when
//     the whole chain holds (SHA256SUMS line = shasum = the bytes, signature good, key pinned if
//     pins are given) is it renamed to DEST/HOST/NS/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip —
//     no partial or unproven file is ever visible under a final name; a killed pull leaves only
//     staging files, which the next pull removes;
//   - `packages` (OpenTofu's registry): when the download document lists them, the archive must
//     match its platform's entry (size, zh: = shasum) before anything else, as tofu's installer
//     requires (authenticateRegistryPackage); a mismatch is a refusal;
//   - idempotent: an archive already in place whose SHA-256 is the registry's `shasum` is not
//     fetched again (its signature is still checked);
//   - provenance that travels (docs/REGISTRY.md): DEST/.provenance/HOST/NS/TYPE/VERSION/ keeps
//     the release's SHA256SUMS, SHA256SUMS.sig and the registry's signing keys (keys.asc), so the
//     signed anchor can be checked again offline; hidden at the root, so tofu's and Provender's
//     scans skip it;
//   - then index.json / <version>.json are written by exportIndexes (what `terraform providers
//     mirror` writes, optionally with zh:);
//   - unpacked (--unpacked): the proven zip is extracted safely (UnpackArchive.h) into a staging
//     folder and renamed to DEST/HOST/NS/TYPE/VERSION/OS_ARCH/; a folder already there is kept
//     when its h1: is the archive's ("present"), else left alone and reported; no indexes (an
//     unpacked filesystem mirror has none).

#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Version.h"
#include "model/core/VersionConstraints.h"
#include "model/registry/RegistryClient.h"
#include "model/registry/ReleaseSignature.h"

#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace provender {

struct PullRequest
{
    ProviderAddress provider;
    std::optional<Version> exact;                  ///< a lock file's version
    std::optional<VersionConstraints> constraints; ///< ADDR=CONSTRAINT (none: the newest release, as no constraints)
};

struct PullOptions
{
    QString destination;
    QList<Platform> platforms;
    bool withZh = false;   ///< write zh: into the indexes too
    bool dryRun = false;   ///< resolve versions and download documents, fetch no archive, write nothing
    bool unpacked = false; ///< extract into HOST/NS/TYPE/VERSION/OS_ARCH/ (UnpackArchive.h) instead of keeping the zip; no indexes
    SignatureOptions signature;
};

struct PulledArchive
{
    enum class Status { Fetched, AlreadyPresent, WouldFetch, Refused, Unavailable, Failed };
    ProviderAddress provider;
    Version version;
    Platform platform;
    Status status = Status::Failed;
    QString path;     ///< relative to the destination
    qint64 size = -1; ///< bytes fetched (or on disk)
    QString keyId;    ///< the signing key, when signed
    QString reason;   ///< why refused/unavailable/failed
    /// Fetched or present: the registry's `packages` (every platform's h1:/zh:, checked against
    /// this archive as tofu checks them); empty when the registry does not publish them.
    QList<RegistryPackage> reported;
};

struct PullReport
{
    QList<PulledArchive> archives;
    QStringList errors; ///< providers that could not be resolved at all
    bool cancelled = false;
    int refusedOrFailed() const;
};

QString toString(PulledArchive::Status status); ///< "fetched", "present", "would fetch", "refused", "unavailable", "failed"

using PullProgress = std::function<void(const PulledArchive &done)>;

/// Blocking (runs local event loops): call from a worker thread or the CLI.
PullReport pullFromRegistry(const QList<PullRequest> &requests, const PullOptions &options, RegistryClient &client,
                            const PullProgress &progress = {}, const std::atomic<bool> *cancel = nullptr);

} // namespace provender
