#include "model/oci/OciMirror.h"

#include "model/core/Logging.h"
#include "model/hashing/PackageHashes.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QScopeGuard>
#include <QTemporaryDir>

namespace provender::oci {

namespace {

QString ociRoot(const QString &templ)
{
    return QStringLiteral("oci://") + templ;
}

Anomaly versionAnomaly(AnomalyKind kind, const RepositoryAddress &repo, const QString &tag, const QString &message)
{
    Anomaly a;
    a.kind = kind;
    a.path = QStringLiteral("oci://%1:%2").arg(repo.toString(), tag);
    a.message = message;
    return a;
}

/// An HTTP failure is a RequestFailed anomaly; a content failure a MalformedJson one.
AnomalyKind kindOf(const Error &e)
{
    return e.code == ErrorCode::Network || e.code == ErrorCode::NotFound ? AnomalyKind::RequestFailed : AnomalyKind::MalformedJson;
}

struct ClientFactory
{
    const OciMirrorOptions &mirror;
    QHash<QString, QString> *credentialsSeen;

    std::unique_ptr<OciClient> make(const RepositoryAddress &repo) const
    {
        std::optional<OciCredential> cred;
        if (mirror.credentials)
            cred = credentialFor(*mirror.credentials, repo.registry, repo.repository);
        auto client = std::make_unique<OciClient>(repo, cred, mirror.client);
        if (cred && credentialsSeen)
            credentialsSeen->insert(repo.toString(), cred->describe());
        return client;
    }
};

/// Resolves a tag to its index as tofu does (fetchOCIDescriptorForVersion + fetchOCIIndexManifest).
Result<ImageIndex> fetchIndex(OciClient &client, const QString &tag)
{
    const Result<FetchedManifest> head = client.headManifest(tag);
    if (!head.ok())
        return makeError(head.error().code, QStringLiteral("resolving tag \"%1\": %2").arg(tag, head.error().message));
    if (Result<void> ok = checkResolvedIndex(head.value().contentType); !ok.ok())
        return ok.error();
    if (Result<void> ok = checkManifestSize(head.value().size); !ok.ok())
        return ok.error();
    const QString ref = head.value().digest.isEmpty() ? tag : head.value().digest;
    const Result<FetchedManifest> got =
        client.getManifest(ref, head.value().size >= 0 ? head.value().size : (kManifestSizeLimitMiB + 1) << 20);
    if (!got.ok())
        return got.error();
    if (!head.value().digest.isEmpty())
        if (Result<void> ok = checkManifestDigest(got.value().body, head.value().digest); !ok.ok())
            return ok.error();
    return parseIndex(got.value().body);
}

struct OciArchiveContext
{
    QString provider; ///< address string
    Version version;
    QString providerType;
    QString manifestRef;                     ///< oci://registry/repository:tag — the source's own metadata
    const QList<HashString> *lock = nullptr; ///< the lock's hashes of this version, when one covers it
    QString lockFrom;
    bool notCovered = false; ///< lock files were given and none covers this version
};

/// tofu's checks of one archive after its manifests passed, in tofu's order
/// (package_location_oci_blob_archive.go InstallProviderPackage, then
/// PackageLocalArchive.InstallProviderPackage, then providercache's executable search):
///   1. with a lock: the layer digest (as zh:) must be one of its hashes — before the download;
///   2. the blob, read up to the descriptor's size, must hash to the digest;
///   3. the source's own hash (PackageMeta.Authentication = NewPackageHashAuthentication with
///      the one zh: of the digest), the lock's hashes, the package content: decideArchive(),
///      as for every other source.
/// The blob is downloaded for the hashes even where tofu would stop at 1, so the report can
/// say whether the lock has the package's h1: at least.
void decideDownloaded(ArchiveResult &r, OciClient &client, const Descriptor &blob, const HashString &zh, const QString &file,
                      const OciArchiveContext &c, VerifySummary &summary)
{
    auto fail = [&](Verdict v, const QString &why) {
        r.detail = VerdictDetail{};
        r.detail.verdict = v;
        r.detail.reason = why;
        r.error = v == Verdict::Error ? why : QString();
    };
    QFile sinkFile(file);
    Result<qint64> fetched = makeError(ErrorCode::Io, QStringLiteral("cannot create %1").arg(file));
    if (sinkFile.open(QIODevice::WriteOnly | QIODevice::Truncate))
        fetched =
            client.fetchBlob(blob.digest, blob.size, [&sinkFile](const char *data, qint64 n) { return sinkFile.write(data, n) == n; });
    sinkFile.close();
    // Whatever happens below, nothing of the download is kept.
    const auto removeFile = qScopeGuard([&file] { QFile::remove(file); });
    const bool digestMismatch = !fetched.ok() && fetched.error().code == ErrorCode::CorruptArchive
        && fetched.error().message.contains(QLatin1StringView("does not match digest"));
    const bool downloaded = fetched.ok() || digestMismatch;
    Result<PackageHashes> hashed = makeError(ErrorCode::Internal, QStringLiteral("not downloaded"));
    if (downloaded) {
        hashed = hashZip(file);
        if (hashed.ok()) {
            r.hashes = hashed.value();
            ++summary.hashed;
            summary.bytesHashed += hashed.value().fileSize;
        } else if (const Result<HashString> served = hashFileZh(file); served.ok()) {
            PackageHashes partial;
            partial.zh = served.value();
            partial.fileSize = QFileInfo(file).size();
            partial.h1ZipError = hashed.error().message;
            r.hashes = partial;
        }
    }
    QList<HashString> preferredLock;
    if (c.lock)
        for (const HashString &h : *c.lock)
            if (h.scheme() == HashString::Scheme::H1 || h.scheme() == HashString::Scheme::ZH)
                preferredLock.append(h);
    if (!preferredLock.isEmpty() && !preferredLock.contains(zh)) {
        // 1. Refused before the download (whatever the download would have brought).
        const bool h1Locked = hashed.ok() && verifyAgainstLock(hashed.value(), preferredLock).verdict == Verdict::Verified;
        fail(h1Locked ? Verdict::Error : Verdict::Mismatch,
             QStringLiteral("the current package for %1 %2 doesn't match any of the checksums previously "
                            "recorded in the dependency lock file")
                 .arg(c.provider, c.version.toString()));
        if (h1Locked) {
            r.detail.reason += QStringLiteral(" (its h1: is in the lock, but tofu compares the layer digest, "
                                              "zh:, before downloading: add %1 to the lock)")
                                   .arg(zh.toString());
            r.error = r.detail.reason;
        }
        r.detail.contradicting = preferredLock;
        r.detail.notCoveredByLock = c.notCovered;
        return;
    }
    if (!downloaded) {
        fail(fetched.error().code == ErrorCode::NotFound ? Verdict::Missing : Verdict::Error,
             QStringLiteral("fetching provider package blob %1: %2").arg(blob.digest, fetched.error().message));
        r.detail.notCoveredByLock = c.notCovered;
        return;
    }
    if (digestMismatch) {
        // 2. The bytes are not what the digest names (the zh: computed is the bytes').
        fail(Verdict::Mismatch, fetched.error().message);
        r.detail.contradicting = r.declared;
        r.detail.notCoveredByLock = c.notCovered;
        return;
    }
    // 3. As every other source.
    if (hashed.ok()) {
        r.detail = decideArchive(hashed.value(), c.providerType, r.declared, TrustAnchor{TrustAnchor::Kind::OwnIndex, c.manifestRef},
                                 c.lock, TrustAnchor{TrustAnchor::Kind::LockFile, c.lockFrom});
    } else {
        // Not a readable zip (its bytes match the digest): extraction fails.
        r.error = hashed.error().message;
        r.detail = decideUnreadableArchive(zh, r.error, r.declared);
        if (r.detail.verdict == Verdict::Error && !preferredLock.isEmpty()) {
            // The lock's hashes are compared next, in their order: an h1: first fails hashing.
            const VerdictDetail l = decideUnreadableArchive(zh, r.error, preferredLock);
            if (l.verdict == Verdict::Refused) {
                r.detail = l;
                r.detail.reason =
                    QStringLiteral("failed to calculate checksum for %1 %2 package: %3").arg(c.provider, c.version.toString(), r.error);
            }
        }
        if (r.detail.verdict != Verdict::Error)
            r.error.clear();
    }
    r.detail.notCoveredByLock = c.notCovered;
}
} // namespace

namespace {

/// One platform archive found while walking a mirror: `r` holds its key, blob URL, size and
/// declared zh:, or (verdict set) why tofu would refuse it before any download; `blob` is set
/// when there is a blob to read.
struct WalkedArchive
{
    ArchiveResult &r;
    OciClient &client;
    const Descriptor *blob = nullptr;
    HashString zh;
    QString manifestRef; ///< oci://registry/repository:tag
    ProviderVersionKey version;
};

/// The listing half of verifyOciMirror (and OciSource::list): per provider the repository,
/// versions from its tags, platforms from each index, each platform's manifest and layer, in
/// tofu's order. `visit` gets each archive while its repository's client is still alive and
/// may change the ArchiveResult (the verdict), which is then appended to out.report.results.
/// out.report.summary is left to the caller.
OciVerifyReport walkOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror,
                              const QHash<QString, QList<Version>> &onlyVersions, const std::function<void(WalkedArchive &)> &visit)
{
    OciVerifyReport out;
    out.catalog.sourceKind = Catalog::SourceKind::Network;
    out.catalog.root = ociRoot(mirror.repositoryTemplate);
    ClientFactory factory{mirror, &out.credentials};

    for (const ProviderAddress &address : providers) {
        const Result<RepositoryAddress> repo = expandRepositoryTemplate(mirror.repositoryTemplate, address);
        if (!repo.ok()) {
            Anomaly a;
            a.kind = AnomalyKind::RequestFailed;
            a.path = out.catalog.root;
            a.message = QStringLiteral("selecting OCI repository address: %1").arg(repo.error().message);
            out.catalog.anomalies.append(a);
            continue;
        }
        std::unique_ptr<OciClient> client = factory.make(repo.value());
        const Result<QStringList> tags = client->listTags();
        if (!tags.ok()) {
            // errRepresentsOCIProviderNotFound: 404 without details, or NAME_UNKNOWN / NAME_INVALID.
            const OciFailure &f = client->lastFailure();
            const bool notFound = f.status == 404
                && (f.codes.isEmpty() || f.codes.contains(QStringLiteral("NAME_UNKNOWN"))
                    || f.codes.contains(QStringLiteral("NAME_INVALID")));
            if (notFound) {
                out.absent.append(address);
            } else {
                Anomaly a;
                a.kind = AnomalyKind::RequestFailed;
                a.path = QStringLiteral("oci://") + repo.value().toString();
                a.message = tags.error().message;
                out.catalog.anomalies.append(a);
            }
            out.log.append(client->log());
            out.counters += client->counters();
            continue;
        }
        Provider provider;
        provider.address = address;
        provider.directory = repo.value().toString();
        QList<Version> versions;
        for (const QString &tag : tags.value())
            if (const std::optional<Version> v = versionForTag(tag); v && !versions.contains(*v))
                versions.append(*v);
        std::sort(versions.begin(), versions.end());
        const QString key = address.toString();
        if (onlyVersions.contains(key)) {
            const QList<Version> wanted = onlyVersions.value(key);
            for (const Version &v : wanted)
                if (!versions.contains(v))
                    out.catalog.anomalies.append(versionAnomaly(
                        AnomalyKind::IndexListsAbsentVersion, repo.value(), tagForVersion(v),
                        QStringLiteral("%1 %2 has no tag \"%3\" in %4").arg(key, v.toString(), tagForVersion(v), repo.value().toString())));
            versions.erase(std::remove_if(versions.begin(), versions.end(), [&](const Version &v) { return !wanted.contains(v); }),
                           versions.end());
        }
        for (const Version &version : std::as_const(versions)) {
            const QString tag = tagForVersion(version);
            ProviderVersion pv;
            pv.version = version;
            pv.listedInIndex = true;
            const Result<ImageIndex> index = fetchIndex(*client, tag);
            if (!index.ok()) {
                out.catalog.anomalies.append(versionAnomaly(
                    kindOf(index.error()), repo.value(), tag,
                    QStringLiteral("tofu cannot install %1 %2 from this mirror: %3").arg(key, version.toString(), index.error().message)));
                provider.versions.append(pv);
                continue;
            }
            pv.hasVersionIndex = true;
            // Platform candidates: every provider-target descriptor naming a platform (tofu's
            // selection then decides per platform, so a poisoned entry fails each of them).
            QList<Platform> platforms;
            for (const Descriptor &d : index.value().manifests)
                if (d.artifactType == kArtifactTypeProviderTarget && d.hasPlatform && d.osVersion.isEmpty()
                    && !platforms.contains(Platform(d.os, d.architecture)))
                    platforms.append(Platform(d.os, d.architecture));
            if (platforms.isEmpty()) {
                const Result<Descriptor> none = selectImageManifest(index.value().manifests, Platform());
                out.catalog.anomalies.append(versionAnomaly(
                    AnomalyKind::MalformedJson, repo.value(), tag,
                    QStringLiteral("tofu cannot install %1 %2 from this mirror: %3")
                        .arg(key, version.toString(), none.ok() ? QStringLiteral("the index lists no platform") : none.error().message)));
                provider.versions.append(pv);
                continue;
            }
            std::sort(platforms.begin(), platforms.end(), [](const Platform &a, const Platform &b) { return a.toString() < b.toString(); });
            const ProviderVersionKey pvKey{address, version};
            for (const Platform &platform : std::as_const(platforms)) {
                ArchiveResult r;
                r.key = ArchiveKey{address, version, platform};
                r.layout = ArchiveLayout::Packed;
                Archive archive;
                archive.platform = platform;
                archive.present = true;
                archive.fileName =
                    QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(address.type(), version.toString(), platform.toString());
                auto fail = [&](Verdict v, const QString &why) {
                    r.detail.verdict = v;
                    r.detail.reason = why;
                    r.error = v == Verdict::Error ? why : QString();
                };
                const Result<Descriptor> selected = selectImageManifest(index.value().manifests, platform);
                Result<ImageManifest> manifest = makeError(ErrorCode::Internal, QString());
                Result<Descriptor> layer = makeError(ErrorCode::Internal, QString());
                if (!selected.ok()) {
                    fail(Verdict::Error, selected.error().message);
                } else if (Result<void> s = checkManifestSize(selected.value().size); !s.ok()) {
                    fail(Verdict::Error, s.error().message);
                } else {
                    const Result<FetchedManifest> got =
                        client->getManifest(selected.value().digest, std::max<qint64>(selected.value().size, 0));
                    if (!got.ok()) {
                        fail(got.error().code == ErrorCode::NotFound ? Verdict::Missing : Verdict::Error, got.error().message);
                    } else if (Result<void> d = checkManifestDigest(got.value().body, selected.value().digest); !d.ok()) {
                        fail(Verdict::Error, d.error().message);
                    } else if (manifest = parseManifest(got.value().body); !manifest.ok()) {
                        fail(Verdict::Error, manifest.error().message);
                    } else if (layer = selectLayer(manifest.value().layers); !layer.ok()) {
                        fail(Verdict::Error, layer.error().message);
                    } else if (Result<void> c = checkLayerDescriptor(layer.value(), platform); !c.ok()) {
                        fail(Verdict::Error, c.error().message);
                    }
                }
                WalkedArchive walked{r, *client, nullptr, {}, {}, pvKey};
                if (layer.ok()) {
                    const Descriptor &blob = layer.value();
                    r.path = client->apiUrl(QStringLiteral("blobs/") + blob.digest).toString();
                    r.size = blob.size;
                    archive.path = r.path;
                    archive.size = blob.size;
                    const Result<HashString> zh = hashFromOciDigest(blob.digest);
                    if (!zh.ok()) {
                        fail(Verdict::Error, QStringLiteral("cannot verify package contents: %1").arg(zh.error().message));
                    } else {
                        walked.manifestRef = QStringLiteral("oci://%1:%2").arg(repo.value().toString(), tag);
                        walked.blob = &blob;
                        walked.zh = zh.value();
                        r.declared = {zh.value()};
                        archive.declared = DeclaredArchive{r.path, r.declared, walked.manifestRef, {}};
                    }
                }
                visit(walked);
                pv.archives.append(archive);
                out.report.results.append(std::move(r));
            }
            provider.versions.append(pv);
        }
        out.catalog.providers.append(provider);
        out.log.append(client->log());
        out.counters += client->counters();
    }
    return out;
}

} // namespace

OciVerifyReport verifyOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror, const OciVerifyOptions &options)
{
    QTemporaryDir downloads;
    VerifySummary summary;
    int n = 0;
    OciVerifyReport out = walkOciMirror(providers, mirror, options.onlyVersions, [&](WalkedArchive &w) {
        const auto lockIt = options.expected.constFind(w.version);
        const std::optional<QList<HashString>> lockHashes =
            lockIt == options.expected.constEnd() ? std::nullopt : std::optional<QList<HashString>>(*lockIt);
        if (w.blob)
            decideDownloaded(w.r, w.client, *w.blob, w.zh, downloads.filePath(QStringLiteral("%1.zip").arg(n)),
                             OciArchiveContext{w.version.provider.toString(), w.version.version, w.version.provider.type(), w.manifestRef,
                                               lockHashes ? &*lockHashes : nullptr, options.expectedFrom.value(w.version),
                                               options.lockCoverage && !lockHashes},
                             summary);
        ++n;
        w.r.detail.notCoveredByLock = options.lockCoverage && !lockHashes;
        ++summary.archives;
        ++summary.counts[size_t(w.r.detail.verdict)];
        if (options.onResult)
            options.onResult(w.r);
    });
    out.report.summary = summary;
    return out;
}

OciListing listOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror,
                         const QHash<QString, QList<Version>> &onlyVersions)
{
    OciListing out;
    out.report = walkOciMirror(providers, mirror, onlyVersions, [&](WalkedArchive &w) {
        OciListedArchive a;
        a.key = w.r.key;
        a.url = w.r.path;
        a.repository = w.client.repository().toString();
        if (w.blob) {
            a.digest = w.blob->digest;
            a.size = w.blob->size;
        } else {
            a.refusal = w.r.detail.reason;
            a.missing = w.r.detail.verdict == Verdict::Missing;
        }
        out.archives.append(a);
    });
    out.report.report.results.clear();
    return out;
}

Result<OciCatalogListing> listOciProviders(const OciMirrorOptions &mirror, const TemplateDefaults &defaults, bool withVersions)
{
    // The registry is the template's text up to its first '/', which must be free of symbols.
    const QString templ = mirror.repositoryTemplate;
    const qsizetype slash = templ.indexOf(QLatin1Char('/'));
    const QString registry = slash < 0 ? templ : templ.left(slash);
    if (slash < 0 || registry.contains(QLatin1Char('$')) || registry.contains(QLatin1Char('%')))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("the repository template %1 does not name one registry before its first '/': its "
                                        "repositories cannot be listed")
                             .arg(templ));
    const Result<RepositoryAddress> probe = parseRepositoryAddressPrefix(registry);
    if (!probe.ok())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: %2").arg(templ, probe.error().message));
    const Result<QStringList> symbols = templateSymbols(templ);
    if (!symbols.ok())
        return symbols.error();
    for (const auto &[symbol, value] :
         {std::pair{QStringLiteral("hostname"), defaults.hostname}, std::pair{QStringLiteral("namespace"), defaults.ns},
          std::pair{QStringLiteral("type"), defaults.type}})
        if (!symbols.value().contains(symbol) && value.isEmpty())
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("the template %1 has no ${%2}: the providers' %2 cannot be read from a repository "
                                            "name and must be given")
                                 .arg(templ, symbol));
    OciCatalogListing out;
    out.registry = registry;
    // The catalog is the registry's; the credential is the one tofu would use for the template's
    // fixed repository prefix (`mirror` of `host/mirror/${namespace}/${type}`), which is also the
    // registry's when no block is more specific.
    QString fixedPrefix = templ.mid(slash + 1);
    fixedPrefix = fixedPrefix.left(fixedPrefix.indexOf(QLatin1Char('$')));
    fixedPrefix = fixedPrefix.left(std::max<qsizetype>(fixedPrefix.lastIndexOf(QLatin1Char('/')), 0));
    std::optional<OciCredential> cred;
    if (mirror.credentials)
        cred = credentialFor(*mirror.credentials, registry, fixedPrefix);
    if (cred)
        out.credential = cred->describe();
    OciClient client(RepositoryAddress{registry, QString()}, cred, mirror.client);
    const Result<QStringList> names = client.listCatalog();
    out.log = client.log();
    out.counters = client.counters();
    if (!names.ok())
        return names.error();
    for (const QString &name : names.value()) {
        OciCatalogEntry e;
        e.repository = name;
        const Result<ProviderAddress> p = providerForRepository(templ, RepositoryAddress{registry, name}, defaults);
        if (p.ok()) {
            e.provider = p.value();
            if (!out.providers.contains(p.value()))
                out.providers.append(p.value());
        } else {
            e.note = p.error().message;
        }
        if (withVersions && e.provider) {
            ClientFactory factory{mirror, nullptr};
            const std::unique_ptr<OciClient> tags = factory.make(RepositoryAddress{registry, name});
            const Result<QStringList> listed = tags->listTags();
            if (listed.ok()) {
                for (const QString &tag : listed.value())
                    if (const std::optional<Version> v = versionForTag(tag); v && !e.versions.contains(*v))
                        e.versions.append(*v);
                std::sort(e.versions.begin(), e.versions.end());
            } else {
                e.versionsError = listed.error().message;
            }
            out.log.append(tags->log());
            out.counters += tags->counters();
        }
        out.repositories.append(e);
    }
    std::sort(out.providers.begin(), out.providers.end(),
              [](const ProviderAddress &a, const ProviderAddress &b) { return a.toString() < b.toString(); });
    return out;
}

bool OciPushReport::hasErrors() const
{
    for (const OciPushedVersion &v : versions)
        if (!v.error.isEmpty())
            return true;
    return verification
        && (verification->report.summary.hasFindings() || !verification->catalog.anomalies.isEmpty() || !verification->absent.isEmpty());
}

OciPushReport pushToOci(const Catalog &catalog, const OciMirrorOptions &mirror, const OciPushOptions &options)
{
    OciPushReport out;
    ClientFactory factory{mirror, nullptr};
    auto say = [&](const QString &line) {
        if (options.progress)
            options.progress(line);
    };
    const QByteArray emptyConfig(kEmptyConfigData.data(), kEmptyConfigData.size());
    const QString emptyDigest = digestOf(emptyConfig);
    QList<ProviderAddress> pushed;
    OciVerifyOptions verifyOptions;
    /// Where a blob is known to be in this run: registry -> digest -> repository (for mounts).
    QHash<QString, QHash<QString, QString>> known;
    /// What was pushed per version: the read-back must serve exactly these packages.
    ExpectedHashes pushedZh;

    for (const Provider &provider : catalog.providers) {
        if (!options.only.isEmpty() && !options.only.contains(provider.address))
            continue;
        const Result<RepositoryAddress> repo = expandRepositoryTemplate(mirror.repositoryTemplate, provider.address);
        if (!repo.ok()) {
            OciPushedVersion v;
            v.provider = provider.address;
            v.error = repo.error().message;
            out.versions.append(v);
            continue;
        }
        std::unique_ptr<OciClient> client = factory.make(repo.value());
        bool haveEmpty = false;
        for (const ProviderVersion &version : provider.versions) {
            OciPushedVersion pv;
            pv.provider = provider.address;
            pv.version = version.version;
            pv.repository = repo.value().toString();
            pv.tag = tagForVersion(version.version);
            QList<IndexEntry> entries;
            QList<HashString> zhs;
            auto blobPresent = [&](const QString &digest) -> Result<bool> {
                const Result<std::optional<qint64>> head = client->headBlob(digest);
                if (!head.ok())
                    return head.error();
                return head.value().has_value();
            };
            auto ensureBlob = [&](const QString &digest, qint64 size, const QString &path, const QByteArray &data) -> Result<void> {
                const Result<bool> present = blobPresent(digest);
                if (!present.ok())
                    return present.error();
                QHash<QString, QString> &here = known[repo.value().registry];
                if (present.value()) {
                    ++out.blobsPresent;
                    here.insert(digest, repo.value().repository);
                    return {};
                }
                const QString elsewhere = here.value(digest);
                if (!options.dryRun && !elsewhere.isEmpty() && elsewhere != repo.value().repository) {
                    const Result<bool> mounted = client->mountBlob(digest, elsewhere);
                    if (!mounted.ok())
                        return mounted.error();
                    if (mounted.value()) {
                        ++out.blobsMounted;
                        say(QStringLiteral("mounted %1 from %2").arg(digest, elsewhere));
                        return {};
                    }
                }
                if (options.dryRun) {
                    say(QStringLiteral("would upload %1 (%2 bytes)").arg(digest).arg(size));
                    ++out.blobsUploaded;
                    return {};
                }
                Result<void> up;
                if (path.isEmpty()) {
                    up = client->uploadBlob(data);
                } else {
                    QFile f(path);
                    if (!f.open(QIODevice::ReadOnly))
                        return makeError(ErrorCode::Io, QStringLiteral("%1: %2").arg(path, f.errorString()));
                    up = client->uploadBlob(&f, size, digest);
                }
                if (!up.ok())
                    return up.error();
                ++out.blobsUploaded;
                out.bytesUploaded += size;
                here.insert(digest, repo.value().repository);
                say(QStringLiteral("uploaded %1 (%2 bytes) to %3").arg(digest).arg(size).arg(repo.value().toString()));
                return {};
            };
            for (const Archive &archive : version.archives) {
                if (!archive.present)
                    continue;
                if (archive.layout != ArchiveLayout::Packed) {
                    pv.skipped.append(QStringLiteral("%1: an unpacked package (an OCI mirror holds the zip archive tofu downloads)")
                                          .arg(archive.platform.toString()));
                    continue;
                }
                const Result<HashString> zh = hashFileZh(archive.path);
                if (!zh.ok()) {
                    pv.error = QStringLiteral("%1: %2").arg(archive.path, zh.error().message);
                    break;
                }
                zhs.append(zh.value());
                const QString digest = QStringLiteral("sha256:") + zh.value().value();
                const qint64 size = QFileInfo(archive.path).size();
                if (!haveEmpty) {
                    if (Result<void> e = ensureBlob(emptyDigest, emptyConfig.size(), QString(), emptyConfig); !e.ok()) {
                        pv.error = e.error().message;
                        break;
                    }
                    haveEmpty = true;
                }
                if (Result<void> e = ensureBlob(digest, size, archive.path, {}); !e.ok()) {
                    pv.error = e.error().message;
                    break;
                }
                const QByteArray manifest = buildImageManifest(archive.platform, digest, size);
                const QString manifestDigest = digestOf(manifest);
                const Result<FetchedManifest> existing = client->headManifest(manifestDigest);
                if (existing.ok()) {
                    ++out.manifestsPresent;
                } else if (existing.error().code != ErrorCode::NotFound) {
                    pv.error = existing.error().message;
                    break;
                } else if (!options.dryRun) {
                    const Result<QString> put = client->putManifest(manifestDigest, kMediaTypeManifest, manifest);
                    if (!put.ok()) {
                        pv.error = put.error().message;
                        break;
                    }
                    ++out.manifestsWritten;
                } else {
                    ++out.manifestsWritten;
                }
                entries.append(IndexEntry{archive.platform, manifestDigest, manifest.size()});
                pv.platforms.append(archive.platform);
            }
            if (pv.error.isEmpty() && entries.isEmpty())
                pv.error = QStringLiteral("no packed archive to publish");
            if (pv.error.isEmpty()) {
                const QByteArray index = buildImageIndex(entries);
                pv.indexDigest = digestOf(index);
                const Result<FetchedManifest> current = client->headManifest(pv.tag);
                if (current.ok() && current.value().digest == pv.indexDigest) {
                    ++out.tagsUnchanged;
                } else if (!current.ok() && current.error().code != ErrorCode::NotFound) {
                    pv.error = current.error().message;
                } else if (!options.dryRun) {
                    // The index by digest first, the tag last: a tag never names missing content.
                    Result<QString> put = client->putManifest(pv.indexDigest, kMediaTypeIndex, index);
                    if (put.ok())
                        put = client->putManifest(pv.tag, kMediaTypeIndex, index);
                    if (!put.ok()) {
                        pv.error = put.error().message;
                    } else {
                        pv.tagWritten = true;
                        ++out.tagsWritten;
                        say(QStringLiteral("tagged %1:%2 -> %3").arg(repo.value().toString(), pv.tag, pv.indexDigest));
                    }
                } else {
                    say(QStringLiteral("would tag %1:%2 -> %3").arg(repo.value().toString(), pv.tag, pv.indexDigest));
                }
            }
            if (pv.error.isEmpty()) {
                verifyOptions.onlyVersions[provider.address.toString()].append(version.version);
                pushedZh[ProviderVersionKey{provider.address, version.version}] = zhs;
                if (!pushed.contains(provider.address))
                    pushed.append(provider.address);
            }
            out.versions.append(pv);
        }
        out.log.append(client->log());
        out.counters += client->counters();
    }
    if (options.verifyAfter && !options.dryRun && !pushed.isEmpty()) {
        out.verification = verifyOciMirror(pushed, mirror, verifyOptions);
        // The registry's tags must name what this run pushed (not a concurrent writer's packages).
        VerifySummary &summary = out.verification->report.summary;
        for (ArchiveResult &r : out.verification->report.results) {
            const QList<HashString> mine = pushedZh.value(ProviderVersionKey{r.key.provider, r.key.version});
            if (r.detail.verdict != Verdict::Verified || r.declared.isEmpty() || mine.contains(r.declared.first()))
                continue;
            --summary.counts[size_t(r.detail.verdict)];
            r.detail = VerdictDetail{};
            r.detail.verdict = Verdict::Mismatch;
            r.detail.reason = QStringLiteral("read back: the tag names %1, which is not a package this push "
                                             "published for %2 %3")
                                  .arg(r.declared.first().toString(), r.key.provider.toString(), r.key.version.toString());
            ++summary.counts[size_t(r.detail.verdict)];
        }
    }
    return out;
}

QString ociMirrorConfigBlock(const QString &repositoryTemplate, const QList<ProviderAddress> &providers)
{
    QString t = repositoryTemplate;
    t.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    QString out = QStringLiteral("provider_installation {\n  oci_mirror {\n    repository_template = \"%1\"\n").arg(t);
    if (!providers.isEmpty()) {
        QStringList names;
        for (const ProviderAddress &p : providers)
            names.append(QStringLiteral("\"%1\"").arg(p.toString()));
        out += QStringLiteral("    include             = [%1]\n").arg(names.join(QStringLiteral(", ")));
    }
    out += QStringLiteral("  }\n}\n");
    return out;
}

} // namespace provender::oci
