#include "model/registry/RegistrySource.h"

#include "model/hashing/PackageHashes.h"
#include "model/source/ArchiveDownloads.h"

#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTemporaryFile>

#include <algorithm>
#include <mutex>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

QString listedKey(const QString &url, const Platform &platform)
{
    return url + u'#' + platform.toString();
}

/// The declared hashes of one platform: `shasum` as zh:, then that platform's `packages` h1:/zh:.
QList<HashString> declaredHashes(const RegistryDownload &meta)
{
    QList<HashString> out{HashString::zh(QString::fromLatin1(meta.sha256.toHex()))};
    if (const RegistryPackage *p = meta.package(meta.platform))
        for (const HashString &h : p->hashes)
            if (h.isKnownScheme() && !out.contains(h))
                out << h;
    return out;
}

} // namespace

RegistrySource::RegistrySource(RegistryOptions options, QList<PullRequest> providers, QList<Platform> platforms, SignatureOptions signature)
    : m_options(std::move(options)),
      m_providers(std::move(providers)),
      m_platforms(std::move(platforms)),
      m_signature(std::move(signature))
{}

RegistrySource::~RegistrySource() = default;

QString RegistrySource::location() const
{
    QStringList hosts;
    for (const PullRequest &p : m_providers)
        if (!hosts.contains(p.provider.hostname()))
            hosts << p.provider.hostname();
    return u"registry:"_s + hosts.join(u',');
}

SourceCapabilities RegistrySource::capabilities() const
{
    return SourceCapabilities::remote(true);
}

Result<Catalog> RegistrySource::list(const std::atomic<bool> *cancel)
{
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    Catalog catalog;
    catalog.sourceKind = Catalog::SourceKind::Network;
    catalog.root = location();
    m_listed.clear();
    RegistryClient client(m_options);
    const auto keepLog = qScopeGuard([&] { m_log += client.log(); });
    for (const PullRequest &req : std::as_const(m_providers)) {
        if (cancelled())
            return makeError(ErrorCode::Cancelled, u"cancelled"_s);
        const Result<QUrl> base = client.providersBase(req.provider.hostname());
        if (!base) {
            catalog.anomalies << Anomaly{AnomalyKind::RequestFailed, req.provider.toString(), base.error().message, {}};
            continue;
        }
        const Result<RegistryVersions> versions = client.versions(req.provider);
        if (!versions) {
            const bool absent = versions.error().code == ErrorCode::NotFound;
            catalog.anomalies << Anomaly{absent ? AnomalyKind::ProviderNotInMirror : AnomalyKind::RequestFailed,
                                         base->resolved(QUrl(req.provider.ns() + u'/' + req.provider.type() + u"/versions"_s)).toString(),
                                         versions.error().message,
                                         {}};
            continue;
        }
        Provider provider;
        provider.address = req.provider;
        provider.hasIndex = true;
        for (const RegistryVersion &rv : versions->versions) {
            const Result<Version> v = Version::parse(rv.version);
            if (!v)
                continue;
            if (req.exact ? *v != *req.exact : (req.constraints && !req.constraints->allows(*v)))
                continue;
            ProviderVersion pv;
            pv.version = *v;
            pv.listedInIndex = pv.hasVersionIndex = true;
            QByteArray sums, signature;
            SignatureCheck check;
            QString releaseError;
            bool fetchedSums = false;
            for (const Platform &platform : m_platforms.isEmpty() ? rv.platforms : m_platforms) {
                if (cancelled())
                    return makeError(ErrorCode::Cancelled, u"cancelled"_s);
                const QString docUrl = base->resolved(QUrl(u"%1/%2/%3/download/%4/%5"_s.arg(req.provider.ns(), req.provider.type(),
                                                                                            v->toString(), platform.os(), platform.arch())))
                                           .toString();
                const Result<RegistryDownload> meta = client.download(req.provider, *v, platform);
                if (!meta) {
                    if (meta.error().code != ErrorCode::NotFound) // 404: the release has no such platform
                        catalog.anomalies << Anomaly{AnomalyKind::RequestFailed, docUrl, meta.error().message, {}};
                    continue;
                }
                if (!fetchedSums) {
                    fetchedSums = true;
                    const Result<QByteArray> s = client.fetchDocument(meta->shasumsUrl);
                    const Result<QByteArray> sig = s ? client.fetchDocument(meta->shasumsSignatureUrl) : Result<QByteArray>(s.error());
                    if (!s)
                        releaseError = u"failed to retrieve authentication checksums for provider: "_s + s.error().message;
                    else if (!sig)
                        releaseError = u"failed to retrieve cryptographic signature for provider: "_s + sig.error().message;
                    else {
                        sums = *s;
                        signature = *sig;
                        QList<QByteArray> keys;
                        for (const RegistrySigningKey &k : meta->signingKeys)
                            keys << k.asciiArmor;
                        check = verifyDetachedSignature(sums, signature, keys, m_signature);
                    }
                }
                Listed listed;
                listed.meta = *meta;
                listed.sums = sums;
                listed.signature = signature;
                listed.sumsUrl = meta->shasumsUrl.toString();
                if (!releaseError.isEmpty())
                    listed.chain.reason = releaseError;
                else
                    // The chain as far as it holds without the bytes: the document's shasum stands in
                    // for the archive's SHA-256 (the download is compared with it by the engine).
                    // (`packages`' size stands in for the archive's size likewise: it is compared after the download).
                    listed.chain = authenticateRegistryPackage(*meta, meta->sha256,
                                                               meta->package(platform) ? meta->package(platform)->packageSize : -1, sums,
                                                               signature, m_signature, &check);
                Archive a;
                a.platform = platform;
                a.present = true;
                a.path = meta->downloadUrl.toString();
                a.fileName = meta->filename;
                if (const RegistryPackage *p = meta->package(platform); p && p->packageSize > 0)
                    a.size = p->packageSize;
                a.declared = DeclaredArchive{a.path, declaredHashes(*meta), docUrl, {}};
                m_listed.insert(listedKey(a.path, platform), listed);
                pv.archives << a;
            }
            std::sort(pv.archives.begin(), pv.archives.end(), [](const Archive &x, const Archive &y) { return x.platform < y.platform; });
            if (!pv.archives.isEmpty())
                provider.versions << pv;
        }
        std::sort(provider.versions.begin(), provider.versions.end(),
                  [](const ProviderVersion &x, const ProviderVersion &y) { return x.version < y.version; });
        catalog.providers << provider;
    }
    std::sort(catalog.providers.begin(), catalog.providers.end(),
              [](const Provider &x, const Provider &y) { return x.address.toString() < y.address.toString(); });
    return catalog;
}

const RegistrySource::Listed *RegistrySource::find(const Archive &archive) const
{
    const auto it = m_listed.constFind(listedKey(archive.path, archive.platform));
    return it == m_listed.constEnd() ? nullptr : &*it;
}

TrustAnchor RegistrySource::indexAnchor(const Archive &archive) const
{
    const Listed *l = find(archive);
    if (!l || !l->chain.signedOk)
        return MirrorSource::indexAnchor(archive);
    return TrustAnchor{TrustAnchor::Kind::Signature, u"%1 signed by key ID %2"_s.arg(l->sumsUrl, l->chain.signature.keyId)};
}

ArchiveReadSummary RegistrySource::readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                                const ArchiveReadSink &sink)
{
    std::mutex logMutex;
    ArchiveDownloadSteps steps;
    steps.maxParallel = options.jobs > 0 ? options.jobs : m_options.http.maxParallel;
    steps.refuse = [&](qsizetype i) -> std::optional<ArchiveRead> {
        const Archive &archive = *archives.at(i).archive;
        const Listed *l = find(archive);
        if (!l) {
            ArchiveRead read;
            read.unavailable = Verdict::Error;
            read.hashes = makeError(ErrorCode::Internal, u"not listed by this source: %1"_s.arg(archive.path));
            return read;
        }
        if (!l->chain.signedOk) {
            // What tofu refuses before it would install: never downloaded.
            ArchiveRead read;
            read.unavailable = Verdict::Refused;
            read.hashes = makeError(ErrorCode::InvalidArgument, l->chain.reason);
            return read;
        }
        return std::nullopt;
    };
    steps.fetch = [&](qsizetype i, const std::function<bool(const char *, qint64)> &bytes,
                      const std::atomic<bool> *cancel) -> Result<void> {
        // A client per download, on the thread that runs it (each has its own connection).
        RegistryClient client(m_options);
        const Result<DownloadedArchive> got = client.fetchArchive(find(*archives.at(i).archive)->meta.downloadUrl, bytes, cancel);
        {
            const std::lock_guard lock(logMutex);
            m_log += client.log();
        }
        if (!got)
            return got.error();
        return {};
    };
    steps.check = [&](qsizetype i, const Result<void> &, const DownloadedBytes &bytes, ArchiveRead &read) {
        // tofu's `packages` check runs first; a download that is not `shasum` is left to the
        // engine (its zh: is declared: Mismatch, as from any source).
        const Listed *l = find(*archives.at(i).archive);
        if (bytes.sha256 != l->meta.sha256)
            return;
        const PackageAuthentication a =
            authenticateRegistryPackage(l->meta, bytes.sha256, bytes.size, l->sums, l->signature, m_signature, &l->chain.signature);
        if (!a.signedOk) {
            read.unavailable = Verdict::Refused;
            read.hashes = makeError(ErrorCode::InvalidArgument, a.reason);
            read.bytesZh.reset();
        }
    };
    return downloadArchives(archives, options, sink, steps);
}

Result<std::unique_ptr<QIODevice>> RegistrySource::openArchive(const Archive &archive, const std::atomic<bool> *cancel)
{
    if (cancel && cancel->load())
        return makeError(ErrorCode::Cancelled, u"cancelled"_s);
    const Listed *l = find(archive);
    if (!l)
        return makeError(ErrorCode::NotFound, u"not listed by this source: %1"_s.arg(archive.path));
    if (!l->chain.signedOk)
        return makeError(ErrorCode::InvalidArgument, l->chain.reason);
    RegistryClient client(m_options);
    const auto keepLog = qScopeGuard([&] { m_log += client.log(); });
    auto tmp = std::make_unique<QTemporaryFile>();
    if (!tmp->open())
        return makeError(ErrorCode::Io, u"cannot create a temporary file: %1"_s.arg(tmp->errorString()));
    const Result<DownloadedArchive> got = client.fetchArchive(
        l->meta.downloadUrl, [&tmp](const char *data, qint64 n) { return tmp->write(data, n) == n; }, cancel);
    if (!got)
        return got.error();
    if (!tmp->flush() || !tmp->seek(0))
        return makeError(ErrorCode::Io, u"cannot read back %1: %2"_s.arg(tmp->fileName(), tmp->errorString()));
    return std::unique_ptr<QIODevice>(std::move(tmp));
}

} // namespace provender
