#include "model/oci/OciMirror.h"

#include "model/core/Logging.h"
#include "model/core/Sha256Sums.h"
#include "model/hashing/PackageHashes.h"
#include "model/oci/OciProvenance.h"
#include "model/oci/OciSource.h"
#include "model/verify/VerifyEngine.h"

#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>

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
    QHash<QString, OciCredential> *resolved = nullptr; ///< start from / keep what clients end with

    std::unique_ptr<OciClient> make(const RepositoryAddress &repo) const
    {
        std::optional<OciCredential> cred;
        if (resolved && resolved->contains(repo.toString()))
            cred = resolved->value(repo.toString());
        else if (mirror.credentials)
            cred = credentialFor(*mirror.credentials, repo.registry, repo.repository);
        auto client = std::make_unique<OciClient>(repo, cred, mirror.client);
        if (cred && credentialsSeen)
            credentialsSeen->insert(repo.toString(), cred->describe());
        return client;
    }
    /// What `client` ended with (a credential helper's answer), for the repository's next client.
    void keep(const OciClient &client) const
    {
        if (resolved && client.credential())
            resolved->insert(client.repository().toString(), *client.credential());
    }
};

/// Resolves a tag to its index as tofu does (fetchOCIDescriptorForVersion + fetchOCIIndexManifest).
Result<ImageIndex> fetchIndex(OciClient &client, const QString &tag, QString *digest, qint64 *size)
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
    *digest = digestOf(got.value().body);
    *size = got.value().body.size();
    return parseIndex(got.value().body);
}

/// One platform of a version's index as tofu selects it (selectImageManifest, the manifest,
/// selectLayer, the layer's checks): the archive/zip layer and its digest's zh:, or why tofu
/// refuses the platform before any download.
struct SelectedLayer
{
    std::optional<Descriptor> blob; ///< the layer, once one was found (its URL and size are known)
    HashString zh;
    QString refusal;      ///< "" = none
    bool missing = false; ///< the refusal is a 404 of the manifest
};

SelectedLayer selectPlatformLayer(OciClient &client, const ImageIndex &index, const Platform &platform)
{
    SelectedLayer out;
    auto refuse = [&out](const QString &why, bool missing = false) {
        out.refusal = why;
        out.missing = missing;
        return out;
    };
    const Result<Descriptor> selected = selectImageManifest(index.manifests, platform);
    if (!selected.ok())
        return refuse(selected.error().message);
    if (Result<void> s = checkManifestSize(selected.value().size); !s.ok())
        return refuse(s.error().message);
    const Result<FetchedManifest> got = client.getManifest(selected.value().digest, std::max<qint64>(selected.value().size, 0));
    if (!got.ok())
        return refuse(got.error().message, got.error().code == ErrorCode::NotFound);
    if (Result<void> d = checkManifestDigest(got.value().body, selected.value().digest); !d.ok())
        return refuse(d.error().message);
    const Result<ImageManifest> manifest = parseManifest(got.value().body);
    if (!manifest.ok())
        return refuse(manifest.error().message);
    const Result<Descriptor> layer = selectLayer(manifest.value().layers);
    if (!layer.ok())
        return refuse(layer.error().message);
    out.blob = layer.value();
    if (Result<void> c = checkLayerDescriptor(layer.value(), platform); !c.ok())
        return refuse(c.error().message);
    const Result<HashString> zh = hashFromOciDigest(layer.value().digest);
    if (!zh.ok())
        return refuse(QStringLiteral("cannot verify package contents: %1").arg(zh.error().message));
    out.zh = zh.value();
    return out;
}

/// The providers-to-archives walk of listOciMirror: per provider the repository, versions from
/// its tags, platforms from each index, each platform's manifest and layer, in tofu's order.
class MirrorWalk
{
public:
    MirrorWalk(const OciMirrorOptions &mirror, const QHash<QString, QList<Version>> &onlyVersions, QHash<QString, OciCredential> *resolved)
        : m_mirror(mirror),
          m_onlyVersions(onlyVersions),
          m_factory{mirror, &m_out.report.credentials, resolved}
    {
        m_out.report.catalog.sourceKind = Catalog::SourceKind::Network;
        m_out.report.catalog.root = ociRoot(mirror.repositoryTemplate);
    }

    void provider(const ProviderAddress &address)
    {
        const Result<RepositoryAddress> repo = expandRepositoryTemplate(m_mirror.repositoryTemplate, address);
        if (!repo.ok()) {
            Anomaly a;
            a.kind = AnomalyKind::RequestFailed;
            a.path = m_out.report.catalog.root;
            a.message = QStringLiteral("selecting OCI repository address: %1").arg(repo.error().message);
            m_out.report.catalog.anomalies.append(a);
            return;
        }
        const std::unique_ptr<OciClient> client = m_factory.make(repo.value());
        const auto done = qScopeGuard([&] {
            m_out.report.log.append(client->log());
            m_out.report.counters += client->counters();
            m_factory.keep(*client);
        });
        const Result<QStringList> tags = client->listTags();
        if (!tags.ok()) {
            // errRepresentsOCIProviderNotFound: 404 without details, or NAME_UNKNOWN / NAME_INVALID.
            const OciFailure &f = client->lastFailure();
            const bool notFound = f.status == 404
                && (f.codes.isEmpty() || f.codes.contains(QStringLiteral("NAME_UNKNOWN"))
                    || f.codes.contains(QStringLiteral("NAME_INVALID")));
            if (notFound) {
                m_out.report.absent.append(address);
            } else {
                Anomaly a;
                a.kind = AnomalyKind::RequestFailed;
                a.path = QStringLiteral("oci://") + repo.value().toString();
                a.message = tags.error().message;
                m_out.report.catalog.anomalies.append(a);
            }
            return;
        }
        Provider provider;
        provider.address = address;
        provider.directory = repo.value().toString();
        for (const Version &version : versionsToRead(address, repo.value(), tags.value()))
            provider.versions.append(this->version(*client, address, version));
        m_out.report.catalog.providers.append(provider);
    }

    OciListing take() { return std::move(m_out); }

private:
    /// The versions of the tags (tofu ignores tags that are no version), only those of
    /// `onlyVersions` when it names the provider (a locked version without a tag is an anomaly).
    QList<Version> versionsToRead(const ProviderAddress &address, const RepositoryAddress &repo, const QStringList &tags)
    {
        QList<Version> versions;
        for (const QString &tag : tags)
            if (const std::optional<Version> v = versionForTag(tag); v && !versions.contains(*v))
                versions.append(*v);
        std::sort(versions.begin(), versions.end());
        const QString key = address.toString();
        if (!m_onlyVersions.contains(key))
            return versions;
        const QList<Version> wanted = m_onlyVersions.value(key);
        for (const Version &v : wanted)
            if (!versions.contains(v))
                m_out.report.catalog.anomalies.append(versionAnomaly(
                    AnomalyKind::IndexListsAbsentVersion, repo, tagForVersion(v),
                    QStringLiteral("%1 %2 has no tag \"%3\" in %4").arg(key, v.toString(), tagForVersion(v), repo.toString())));
        versions.erase(std::remove_if(versions.begin(), versions.end(), [&](const Version &v) { return !wanted.contains(v); }),
                       versions.end());
        return versions;
    }

    /// One tag: its index, then every platform it names.
    ProviderVersion version(OciClient &client, const ProviderAddress &address, const Version &version)
    {
        const RepositoryAddress &repo = client.repository();
        const QString tag = tagForVersion(version);
        const QString cannot = QStringLiteral("tofu cannot install %1 %2 from this mirror: ").arg(address.toString(), version.toString());
        ProviderVersion pv;
        pv.version = version;
        pv.listedInIndex = true;
        QString indexDigest;
        qint64 indexSize = 0;
        const Result<ImageIndex> index = fetchIndex(client, tag, &indexDigest, &indexSize);
        if (!index.ok()) {
            m_out.report.catalog.anomalies.append(versionAnomaly(kindOf(index.error()), repo, tag, cannot + index.error().message));
            return pv;
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
            m_out.report.catalog.anomalies.append(
                versionAnomaly(AnomalyKind::MalformedJson, repo, tag,
                               cannot + (none.ok() ? QStringLiteral("the index lists no platform") : none.error().message)));
            return pv;
        }
        std::sort(platforms.begin(), platforms.end(), [](const Platform &a, const Platform &b) { return a.toString() < b.toString(); });
        const std::optional<SignedSums> signedSums = releaseProvenance(client, address, version, indexDigest);
        for (const Platform &platform : std::as_const(platforms))
            pv.archives.append(archive(client, address, version, index.value(), platform, signedSums ? &*signedSums : nullptr));
        return pv;
    }

    /// The version's signed provenance (OciProvenance.h), when an artifact refers to its index and
    /// its signature is good; an artifact that cannot be read or whose signature fails is an
    /// anomaly (and anchors nothing).
    std::optional<SignedSums> releaseProvenance(OciClient &client, const ProviderAddress &address, const Version &version,
                                                const QString &indexDigest)
    {
        if (!m_mirror.readProvenance || indexDigest.isEmpty())
            return std::nullopt;
        const Result<QList<FetchedProvenance>> found = fetchProvenance(client, indexDigest);
        QString problem;
        if (!found.ok()) {
            problem = found.error().message;
        } else if (found.value().isEmpty()) {
            return std::nullopt;
        } else {
            const Result<SignedSums> checked = checkProvenance(client.repository().toString(), found.value(), m_mirror.signature);
            if (checked.ok())
                return checked.value();
            problem = checked.error().message;
        }
        m_out.report.catalog.anomalies.append(versionAnomaly(
            AnomalyKind::MalformedJson, client.repository(), tagForVersion(version),
            QStringLiteral("the signed provenance of %1 %2 is not used: %3").arg(address.toString(), version.toString(), problem)));
        return std::nullopt;
    }

    /// One platform: the catalog's archive (its blob URL, size and declared zh: when tofu would
    /// download it) and the listing's entry (the blob, or tofu's refusal).
    Archive archive(OciClient &client, const ProviderAddress &address, const Version &version, const ImageIndex &index,
                    const Platform &platform, const SignedSums *signedSums)
    {
        const QString tag = tagForVersion(version);
        const SelectedLayer layer = selectPlatformLayer(client, index, platform);
        Archive archive;
        archive.platform = platform;
        archive.present = true;
        archive.fileName = QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(address.type(), version.toString(), platform.toString());
        // Without a layer the archive is known by its version's index (unique per provider version).
        archive.path =
            client.apiUrl(layer.blob ? QStringLiteral("blobs/") + layer.blob->digest : QStringLiteral("manifests/") + tag).toString();
        OciListedArchive listed;
        listed.key = ArchiveKey{address, version, platform};
        listed.url = archive.path;
        listed.repository = client.repository().toString();
        if (layer.blob) {
            archive.size = layer.blob->size;
            listed.size = layer.blob->size;
        }
        if (layer.refusal.isEmpty()) {
            listed.digest = layer.blob->digest;
            archive.declared =
                DeclaredArchive{archive.path, {layer.zh}, QStringLiteral("oci://%1:%2").arg(client.repository().toString(), tag), {}};
            if (signedSums) {
                listed.signedDocument = signedSums->document;
                if (const Result<QByteArray> sum = sha256SumsLookup(signedSums->sums, archive.fileName); sum.ok())
                    listed.signedSha256 = QString::fromLatin1(sum.value().toHex());
            }
        } else {
            listed.refusal = layer.refusal;
            listed.missing = layer.missing;
        }
        m_out.archives.append(listed);
        return archive;
    }

    const OciMirrorOptions &m_mirror;
    const QHash<QString, QList<Version>> &m_onlyVersions;
    OciListing m_out;
    ClientFactory m_factory;
};

} // namespace

OciListing listOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror,
                         const QHash<QString, QList<Version>> &onlyVersions, QHash<QString, OciCredential> *resolved)
{
    MirrorWalk walk(mirror, onlyVersions, resolved);
    for (const ProviderAddress &address : providers) {
        if (mirror.client.cancel && mirror.client.cancel->load())
            break;
        walk.provider(address);
    }
    return walk.take();
}

OciVerifyReport verifyOciMirror(const QList<ProviderAddress> &providers, const OciMirrorOptions &mirror, const OciVerifyOptions &options)
{
    // One mechanism: the registry as a MirrorSource, decided by the engine every source goes through.
    OciSource source(mirror, providers, options.onlyVersions);
    OciVerifyReport out;
    // The mirror's cancel (a push's, for its read-back) stops the listing and the downloads too.
    const std::atomic<bool> *cancel = mirror.client.cancel;
    const Result<Catalog> catalog = source.list(cancel);
    if (!catalog.ok()) {
        Anomaly a;
        a.kind = AnomalyKind::RequestFailed;
        a.path = source.location();
        a.message = catalog.error().message;
        out.catalog.sourceKind = Catalog::SourceKind::Network;
        out.catalog.root = source.location();
        out.catalog.anomalies.append(a);
        return out;
    }
    out.catalog = catalog.value();
    VerifyOptions verify;
    verify.expected = options.expected;
    verify.expectedFrom = options.expectedFrom;
    verify.lockCoverage = options.lockCoverage;
    out.report = verifySource(source, out.catalog, verify, {}, cancel, options.onResult);
    out.absent = source.absentProviders();
    out.log = source.requestLog();
    out.counters = source.counters();
    out.credentials = source.credentials();
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

namespace {

/// One pushToOci run: the counters, where each blob is known to be (for mounts), what was pushed.
class Publisher
{
public:
    Publisher(const OciMirrorOptions &mirror, const OciPushOptions &options, OciPushReport &out)
        : m_mirror(mirror),
          m_options(options),
          m_out(out),
          m_factory{mirror, nullptr}
    {}

    /// Every version of `provider` (from the catalog rooted at `mirrorRoot`).
    void provider(const Provider &provider, const QString &mirrorRoot)
    {
        const Result<RepositoryAddress> repo = expandRepositoryTemplate(m_mirror.repositoryTemplate, provider.address);
        if (!repo.ok()) {
            OciPushedVersion v;
            v.provider = provider.address;
            v.error = repo.error().message;
            m_out.versions.append(v);
            return;
        }
        std::unique_ptr<OciClient> client = m_factory.make(repo.value());
        m_haveEmpty = false;
        for (const ProviderVersion &version : provider.versions) {
            OciPushedVersion pv;
            pv.provider = provider.address;
            pv.version = version.version;
            pv.repository = repo.value().toString();
            pv.tag = tagForVersion(version.version);
            QList<IndexEntry> entries;
            QList<HashString> zhs;
            for (const Archive &archive : version.archives) {
                if (!archive.present)
                    continue;
                if (archive.layout != ArchiveLayout::Packed) {
                    pv.skipped.append(QStringLiteral("%1: an unpacked package (an OCI mirror holds the zip archive tofu downloads)")
                                          .arg(archive.platform.toString()));
                    continue;
                }
                const Result<IndexEntry> entry = pushArchive(*client, provider.address, version.version, archive, zhs);
                if (!entry.ok()) {
                    pv.error = entry.error().message;
                    break;
                }
                entries.append(entry.value());
                pv.platforms.append(archive.platform);
            }
            if (pv.error.isEmpty() && entries.isEmpty())
                pv.error = QStringLiteral("no packed archive to publish");
            if (pv.error.isEmpty() && cancelled())
                pv.error = QString::fromLatin1(kCancelled);
            if (pv.error.isEmpty())
                pushIndexAndTag(*client, pv, entries);
            if (pv.error.isEmpty())
                pushReleaseProvenance(*client, pv, mirrorRoot);
            if (pv.error.isEmpty()) {
                m_verify.onlyVersions[provider.address.toString()].append(version.version);
                m_pushedZh[ProviderVersionKey{provider.address, version.version}] = zhs;
                if (!m_pushed.contains(provider.address))
                    m_pushed.append(provider.address);
            }
            m_out.versions.append(pv);
        }
        m_out.log.append(client->log());
        m_out.counters += client->counters();
    }

    /// The bytes of every packed archive this run will look at (the progress total).
    void setTotal(qint64 total) { m_total = total; }

    /// Reads the pushed versions back (verifyOciMirror); the tags must name what this run pushed.
    void readBack()
    {
        m_out.cancelled = cancelled();
        if (!m_options.verifyAfter || m_options.dryRun || m_pushed.isEmpty() || m_out.cancelled)
            return;
        m_out.verification = verifyOciMirror(m_pushed, m_mirror, m_verify);
        // The registry's tags must name what this run pushed (not a concurrent writer's packages).
        VerifySummary &summary = m_out.verification->report.summary;
        for (ArchiveResult &r : m_out.verification->report.results) {
            const QList<HashString> mine = m_pushedZh.value(ProviderVersionKey{r.key.provider, r.key.version});
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

private:
    static constexpr auto kCancelled = "cancelled: nothing more was written, and this version was not tagged";

    void say(const QString &line) const
    {
        if (m_options.progress)
            m_options.progress(line);
    }
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }
    void step(const RepositoryAddress &repo, const QString &digest, qint64 size, const QString &what, OciBlobStep::Action action)
    {
        m_out.blobs.append(OciBlobStep{repo.toString(), digest, size, what, action});
    }

    /// HEAD first; only a blob the registry lacks is mounted from another repository this run
    /// saw it in, or uploaded (from `path`, or `data` when `path` is empty).
    Result<void> ensureBlob(OciClient &client, const QString &digest, qint64 size, const QString &path, const QByteArray &data,
                            const QString &what)
    {
        if (cancelled())
            return makeError(ErrorCode::Cancelled, QString::fromLatin1(kCancelled));
        const RepositoryAddress &repo = client.repository();
        const Result<std::optional<qint64>> head = client.headBlob(digest);
        if (!head.ok())
            return head.error();
        QHash<QString, QString> &here = m_known[repo.registry];
        if (head.value().has_value()) {
            ++m_out.blobsPresent;
            here.insert(digest, repo.repository);
            step(repo, digest, size, what, OciBlobStep::Action::Present);
            return {};
        }
        const QString elsewhere = here.value(digest);
        if (!m_options.dryRun && !elsewhere.isEmpty() && elsewhere != repo.repository) {
            const Result<bool> mounted = client.mountBlob(digest, elsewhere);
            if (!mounted.ok())
                return mounted.error();
            if (mounted.value()) {
                ++m_out.blobsMounted;
                step(repo, digest, size, what, OciBlobStep::Action::Mount);
                say(QStringLiteral("mounted %1 from %2").arg(digest, elsewhere));
                return {};
            }
        }
        if (m_options.dryRun) {
            say(QStringLiteral("would upload %1 (%2 bytes)").arg(digest).arg(size));
            ++m_out.blobsUploaded;
            step(repo, digest, size, what, OciBlobStep::Action::Upload);
            return {};
        }
        Result<void> up;
        if (path.isEmpty()) {
            up = client.uploadBlob(data);
        } else {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                return makeError(ErrorCode::Io, QStringLiteral("%1: %2").arg(path, f.errorString()));
            // The most sent so far: a retried request (after a 401) counts from 0 again.
            up = client.uploadBlob(&f, size, digest, [this, most = qint64(0)](qint64 sent) mutable {
                most = std::max(most, sent);
                if (m_options.bytes)
                    m_options.bytes(m_done + most, m_total);
            });
        }
        if (!up.ok())
            return up.error();
        ++m_out.blobsUploaded;
        m_out.bytesUploaded += size;
        here.insert(digest, repo.repository);
        step(repo, digest, size, what, OciBlobStep::Action::Upload);
        say(QStringLiteral("uploaded %1 (%2 bytes) to %3").arg(digest).arg(size).arg(repo.toString()));
        return {};
    }

    /// One platform's zip (and, once per repository, the empty config) and its image manifest.
    Result<IndexEntry> pushArchive(OciClient &client, const ProviderAddress &provider, const Version &version, const Archive &archive,
                                   QList<HashString> &zhs)
    {
        const Result<HashString> zh = hashFileZh(archive.path);
        if (!zh.ok())
            return makeError(zh.error().code, QStringLiteral("%1: %2").arg(archive.path, zh.error().message));
        zhs.append(zh.value());
        const QString digest = QStringLiteral("sha256:") + zh.value().value();
        const qint64 size = QFileInfo(archive.path).size();
        if (!m_haveEmpty) {
            const QByteArray empty(kEmptyConfigData.data(), kEmptyConfigData.size());
            if (Result<void> e = ensureBlob(client, digestOf(empty), empty.size(), QString(), empty, QStringLiteral("the empty config"));
                !e.ok())
                return e.error();
            m_haveEmpty = true;
        }
        const QString what = QStringLiteral("%1 of %2 %3").arg(archive.platform.toString(), provider.toString(), version.toString());
        if (Result<void> e = ensureBlob(client, digest, size, archive.path, {}, what); !e.ok())
            return e.error();
        m_done += size;
        if (m_options.bytes)
            m_options.bytes(m_done, m_total);
        if (cancelled())
            return makeError(ErrorCode::Cancelled, QString::fromLatin1(kCancelled));
        const QByteArray manifest = buildImageManifest(archive.platform, digest, size);
        const QString manifestDigest = digestOf(manifest);
        const Result<FetchedManifest> existing = client.headManifest(manifestDigest, OciClient::Absent::IsAnswer);
        if (existing.ok()) {
            ++m_out.manifestsPresent;
        } else if (existing.error().code != ErrorCode::NotFound) {
            return existing.error();
        } else {
            if (!m_options.dryRun)
                if (const Result<QString> put = client.putManifest(manifestDigest, kMediaTypeManifest, manifest); !put.ok())
                    return put.error();
            ++m_out.manifestsWritten;
        }
        return IndexEntry{archive.platform, manifestDigest, manifest.size()};
    }

    /// The version's index by digest first, the tag last: a tag never names missing content; a
    /// tag that already names this index is not rewritten.
    void pushIndexAndTag(OciClient &client, OciPushedVersion &pv, const QList<IndexEntry> &entries)
    {
        const QByteArray index = buildImageIndex(entries);
        pv.indexDigest = digestOf(index);
        pv.indexSize = index.size();
        const QString where = client.repository().toString();
        const Result<FetchedManifest> current = client.headManifest(pv.tag, OciClient::Absent::IsAnswer);
        if (current.ok() && current.value().digest == pv.indexDigest) {
            ++m_out.tagsUnchanged;
            pv.tagUnchanged = true;
        } else if (!current.ok() && current.error().code != ErrorCode::NotFound) {
            pv.error = current.error().message;
        } else if (!m_options.dryRun) {
            Result<QString> put = client.putManifest(pv.indexDigest, kMediaTypeIndex, index);
            if (put.ok())
                put = client.putManifest(pv.tag, kMediaTypeIndex, index);
            if (!put.ok()) {
                pv.error = put.error().message;
            } else {
                pv.tagWritten = true;
                ++m_out.tagsWritten;
                say(QStringLiteral("tagged %1:%2 -> %3").arg(where, pv.tag, pv.indexDigest));
            }
        } else {
            say(QStringLiteral("would tag %1:%2 -> %3").arg(where, pv.tag, pv.indexDigest));
        }
    }

    /// The release's signed SHA256SUMS (`mirrorRoot`/.provenance, when `mirror pull` kept one) as an
    /// artifact whose subject is the version's index (OciProvenance.h).
    void pushReleaseProvenance(OciClient &client, OciPushedVersion &pv, const QString &mirrorRoot)
    {
        const Result<std::optional<ProvenanceFiles>> files = readProvenanceFolder(mirrorRoot, pv.provider, pv.version);
        if (!files.ok()) {
            pv.error = files.error().message;
            return;
        }
        if (!files.value())
            return;
        const Result<ProvenancePush> pushed = pushProvenance(
            client, pv.indexDigest, pv.indexSize, pv.provider, pv.version, *files.value(), m_options.dryRun,
            [&](const QString &digest, const QByteArray &data) {
                return ensureBlob(client, digest, data.size(), {}, data,
                                  QStringLiteral("signed provenance of %1 %2").arg(pv.provider.toString(), pv.version.toString()));
            });
        if (!pushed.ok()) {
            pv.error = QStringLiteral("publishing the signed provenance: %1").arg(pushed.error().message);
            return;
        }
        pv.provenanceDigest = pushed.value().artifactDigest;
        pv.provenanceReferrers = pushed.value().referrers;
        if (pushed.value().manifestWritten || pushed.value().referrersTagWritten)
            ++m_out.provenanceWritten;
        say(QStringLiteral("%1 signed provenance %2 for %3:%4 (%5)")
                .arg(m_options.dryRun ? QStringLiteral("would publish") : QStringLiteral("published"), pushed.value().artifactDigest,
                     client.repository().toString(), pv.tag, pushed.value().referrers));
    }

    const OciMirrorOptions &m_mirror;
    const OciPushOptions &m_options;
    OciPushReport &m_out;
    ClientFactory m_factory;
    bool m_haveEmpty = false;
    QHash<QString, QHash<QString, QString>> m_known; ///< registry -> digest -> repository (for mounts)
    QList<ProviderAddress> m_pushed;
    OciVerifyOptions m_verify;
    ExpectedHashes m_pushedZh; ///< what was pushed per version: the read-back must serve these packages
    qint64 m_done = 0;         ///< archive bytes handled so far
    qint64 m_total = 0;
};

} // namespace

OciPushReport pushToOci(const Catalog &catalog, const OciMirrorOptions &mirrorOptions, const OciPushOptions &options)
{
    OciPushReport out;
    OciMirrorOptions mirror = mirrorOptions;
    if (options.cancel && !mirror.client.cancel)
        mirror.client.cancel = options.cancel; // also between the chunks of a large upload
    Publisher publisher(mirror, options, out);
    qint64 total = 0;
    for (const Provider &provider : catalog.providers)
        if (options.only.isEmpty() || options.only.contains(provider.address))
            for (const ProviderVersion &version : provider.versions)
                for (const Archive &archive : version.archives)
                    if (archive.present && archive.layout == ArchiveLayout::Packed)
                        total += std::max<qint64>(archive.size, 0);
    publisher.setTotal(total);
    for (const Provider &provider : catalog.providers)
        if (options.only.isEmpty() || options.only.contains(provider.address))
            publisher.provider(provider, catalog.sourceKind == Catalog::SourceKind::Directory ? catalog.root : QString());
    publisher.readBack();
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
