#include "model/oci/OciSource.h"

#include "model/hashing/PackageHashes.h"
#include "model/source/ArchiveDownloads.h"

#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTemporaryFile>

namespace provender::oci {

namespace {

QString listedKey(const QString &url, const Platform &platform)
{
    return url + QLatin1Char('#') + platform.toString();
}

} // namespace

OciSource::OciSource(OciMirrorOptions mirror, QList<ProviderAddress> providers, QHash<QString, QList<Version>> onlyVersions)
    : m_mirror(std::move(mirror)),
      m_providers(std::move(providers)),
      m_onlyVersions(std::move(onlyVersions))
{}

QString OciSource::location() const
{
    return QStringLiteral("oci://") + m_mirror.repositoryTemplate;
}

SourceCapabilities OciSource::capabilities() const
{
    return SourceCapabilities::remote(false);
}

Result<Catalog> OciSource::list(const std::atomic<bool> *cancel)
{
    if (cancel && cancel->load())
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    const Result<void> templ = checkRepositoryTemplate(m_mirror.repositoryTemplate, m_providers);
    if (!templ.ok())
        return templ.error();
    OciMirrorOptions mirror = m_mirror;
    if (cancel)
        mirror.client.cancel = cancel; // a registry that does not answer does not hold up a cancel
    OciListing listing = listOciMirror(m_providers, mirror, m_onlyVersions, &m_resolved);
    m_listed.clear();
    for (const OciListedArchive &a : std::as_const(listing.archives))
        m_listed.insert(listedKey(a.url, a.key.platform),
                        Listed{a.repository, a.digest, a.size, a.refusal, a.missing, a.signedDocument, a.signedSha256});
    m_log += listing.report.log;
    m_counters += listing.report.counters;
    m_absent = listing.report.absent;
    m_credentials = listing.report.credentials;
    if (cancel && cancel->load())
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    if (m_requireAnswer && listing.report.catalog.providers.isEmpty() && !m_providers.isEmpty())
        return nothingListed(listing);
    return listing.report.catalog;
}

Error OciSource::nothingListed(const OciListing &listing)
{
    // The registry itself first: unreachable, TLS, credentials, or no registry at all.
    const Result<RepositoryAddress> repo = expandRepositoryTemplate(m_mirror.repositoryTemplate, m_providers.constFirst());
    if (repo.ok()) {
        std::optional<OciCredential> cred = m_resolved.contains(repo.value().toString())
            ? std::optional<OciCredential>(m_resolved.value(repo.value().toString()))
            : m_mirror.credentials ? credentialFor(*m_mirror.credentials, repo.value().registry, repo.value().repository)
                                   : std::nullopt;
        OciClient client(repo.value(), cred, m_mirror.client);
        const Result<void> api = client.checkApi();
        m_log += client.log();
        m_counters += client.counters();
        if (!api.ok())
            return api.error();
    }
    for (const Anomaly &a : listing.report.catalog.anomalies)
        if (a.kind == AnomalyKind::RequestFailed)
            return makeError(ErrorCode::Network, a.message);
    QStringList absent;
    for (const ProviderAddress &p : listing.report.absent)
        absent.append(p.toString());
    return makeError(ErrorCode::NotFound,
                     QStringLiteral("the registry has no repository for %1 under %2 (tofu: provider not found)")
                         .arg(absent.join(QStringLiteral(", ")), m_mirror.repositoryTemplate));
}

const OciSource::Listed *OciSource::find(const Archive &archive) const
{
    const auto it = m_listed.constFind(listedKey(archive.path, archive.platform));
    return it == m_listed.constEnd() ? nullptr : &*it;
}

std::optional<HashString> OciSource::lockCheckedBeforeRead(const Archive &archive) const
{
    const Listed *l = find(archive);
    if (!l || !l->refusal.isEmpty())
        return std::nullopt;
    const Result<HashString> zh = hashFromOciDigest(l->digest);
    return zh.ok() ? std::optional<HashString>(zh.value()) : std::nullopt;
}

Result<qint64> OciSource::fetch(const Listed &l, const std::function<bool(const char *, qint64)> &sink, Clients &clients,
                                const std::atomic<bool> *cancel)
{
    std::shared_ptr<OciClient> &client = clients[l.repository];
    if (!client) {
        const Result<RepositoryAddress> repo = parseRepositoryAddressPrefix(l.repository);
        if (!repo.ok())
            return repo.error();
        std::optional<OciCredential> cred;
        if (m_resolved.contains(l.repository))
            cred = m_resolved.value(l.repository);
        else if (m_mirror.credentials)
            cred = credentialFor(*m_mirror.credentials, repo.value().registry, repo.value().repository);
        OciClientOptions options = m_mirror.client;
        if (cancel)
            options.cancel = cancel;
        client = std::make_shared<OciClient>(repo.value(), cred, options);
    }
    const int logged = int(client->log().size());
    const OciCounters before = client->counters();
    Result<qint64> got = client->fetchBlob(l.digest, l.size, sink);
    m_log += client->log().mid(logged);
    OciCounters delta = client->counters();
    delta.requests -= before.requests;
    delta.tokenRequests -= before.tokenRequests;
    delta.bytesDownloaded -= before.bytesDownloaded;
    delta.blobHeads = delta.blobUploads = delta.blobMounts = delta.blobChunks = delta.manifestPuts = 0;
    delta.bytesUploaded = 0;
    m_counters += delta;
    return got;
}

void OciSource::keepCredentials(const Clients &clients)
{
    for (auto it = clients.cbegin(); it != clients.cend(); ++it)
        if (it.value() && it.value()->credential())
            m_resolved.insert(it.key(), *it.value()->credential());
}

ArchiveReadSummary OciSource::readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                           const ArchiveReadSink &sink)
{
    // This call's clients, made and destroyed on the calling thread (so one download at a time).
    Clients clients;
    const auto keep = qScopeGuard([&] { keepCredentials(clients); });
    const auto isDigestMismatch = [](const Error &e) {
        return e.code == ErrorCode::CorruptArchive && e.message.contains(QLatin1StringView("does not match digest"));
    };
    ArchiveDownloadSteps steps; // the shared loop (model/source/ArchiveDownloads.h)
    steps.refuse = [&](qsizetype i) -> std::optional<ArchiveRead> {
        const Archive &archive = *archives.at(i).archive;
        const Listed *l = find(archive);
        ArchiveRead read;
        if (!l) {
            read.unavailable = Verdict::Error;
            read.hashes = makeError(ErrorCode::Internal, QStringLiteral("not listed by this source: %1").arg(archive.path));
            return read;
        }
        if (!l->refusal.isEmpty()) {
            // What tofu refuses before downloading (OciFormat's checks, in its words).
            read.unavailable = l->missing ? Verdict::Missing : Verdict::Error;
            read.hashes = makeError(l->missing ? ErrorCode::NotFound : ErrorCode::InvalidArgument, l->refusal);
            return read;
        }
        return std::nullopt;
    };
    steps.fetch = [&](qsizetype i, const std::function<bool(const char *, qint64)> &bytes,
                      const std::atomic<bool> *cancel) -> Result<void> {
        const Listed *l = find(*archives.at(i).archive);
        const Result<qint64> fetched = fetch(*l, bytes, clients, cancel);
        if (fetched.ok())
            return {};
        if (isDigestMismatch(fetched.error()))
            return fetched.error();
        return makeError(fetched.error().code,
                         QStringLiteral("fetching provider package blob %1: %2").arg(l->digest, fetched.error().message));
    };
    steps.bytesKept = isDigestMismatch;
    steps.check = [&](qsizetype i, const Result<void> &fetched, const DownloadedBytes &bytes, ArchiveRead &read) {
        if (!fetched.ok()) {
            // tofu's download fails here, in its words; the bytes' SHA-256 is shown.
            read.unavailable = Verdict::Mismatch;
            read.hashes = fetched.error();
            read.bytesZh = HashString::zh(QString::fromLatin1(bytes.sha256.toHex()));
            return;
        }
        const Listed *l = find(*archives.at(i).archive);
        if (!l->signedDocument.isEmpty() && read.hashes.ok()) {
            // The release's signed SHA256SUMS is this archive's second anchor (decideBundleArchive).
            read.checksumsAnchor = TrustAnchor{TrustAnchor::Kind::Signature, l->signedDocument};
            read.checksums = l->signedSha256.isEmpty()                                              ? SumsCheck::NotListed
                : read.hashes.value().zh.value().compare(l->signedSha256, Qt::CaseInsensitive) == 0 ? SumsCheck::Match
                                                                                                    : SumsCheck::Mismatch;
        }
    };
    return downloadArchives(archives, options, sink, steps);
}

Result<std::unique_ptr<QIODevice>> OciSource::openArchive(const Archive &archive, const std::atomic<bool> *cancel)
{
    if (cancel && cancel->load())
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    const Listed *l = find(archive);
    if (!l)
        return makeError(ErrorCode::NotFound, QStringLiteral("not listed by this source: %1").arg(archive.path));
    if (!l->refusal.isEmpty())
        return makeError(l->missing ? ErrorCode::NotFound : ErrorCode::InvalidArgument, l->refusal);
    // QTemporaryFile removes the download when the device is destroyed.
    auto tmp = std::make_unique<QTemporaryFile>();
    if (!tmp->open())
        return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary file: %1").arg(tmp->errorString()));
    Clients clients;
    const auto keep = qScopeGuard([&] { keepCredentials(clients); });
    const Result<qint64> got = fetch(
        *l, [&tmp, cancel](const char *data, qint64 n) { return tmp->write(data, n) == n && !(cancel && cancel->load()); }, clients,
        cancel);
    if (!got.ok())
        return got.error();
    if (!tmp->flush() || !tmp->seek(0))
        return makeError(ErrorCode::Io, QStringLiteral("cannot read back %1: %2").arg(tmp->fileName(), tmp->errorString()));
    return std::unique_ptr<QIODevice>(std::move(tmp));
}

} // namespace provender::oci
