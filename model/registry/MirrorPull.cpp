#include "model/registry/MirrorPull.h"

#include "model/core/Logging.h"
#include "model/hashing/PackageHashes.h"
#include "model/hashing/Sha256.h"
#include "model/mirror/IndexWriter.h"
#include "model/registry/ReleaseProvenance.h"
#include "model/registry/UnpackArchive.h"
#include "model/source/StreamedArchive.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

const QString kStaging = u".provender-pull"_s;

QString packedName(const ProviderAddress &p, const Version &v, const Platform &pl)
{
    return u"terraform-provider-%1_%2_%3.zip"_s.arg(p.type(), v.toString(), pl.toString());
}

QString providerDir(const ProviderAddress &p)
{
    return p.hostname() + u'/' + p.ns() + u'/' + p.type();
}

bool syncDir(const QString &dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

bool writeAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    // flush() before commit(): Qt 6.4's commit() succeeds after a failed final flush.
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush() && f.commit();
}

/// One release (provider × version): its documents, fetched and checked once.
struct Release
{
    ProviderAddress provider;
    Version version;
    QByteArray sums;
    QByteArray signature;
    QList<QByteArray> keys;
    SignatureCheck check;
    QString error; ///< fetching SHA256SUMS or its signature failed
};

struct Pending
{
    PulledArchive record;
    RegistryDownload meta;
    std::shared_ptr<Release> release;
    QString stagingPath;
    std::unique_ptr<StreamedArchive> staging; ///< written and hashed while it downloads (made with its first bytes)
    QString final;                            ///< where it goes (absolute)

    StreamedArchive &stream()
    {
        if (!staging) {
            StreamedArchive::Options so;
            so.durable = true; // fsync'ed before it gets its name
            staging = std::make_unique<StreamedArchive>(stagingPath, so);
        }
        return *staging;
    }
};

/// The release's signature check (made once, in phase 1) when this download lists the same keys.
const SignatureCheck *releaseCheck(const Pending &p)
{
    QList<QByteArray> keys;
    for (const RegistrySigningKey &k : p.meta.signingKeys)
        keys << k.asciiArmor;
    return keys == p.release->keys ? &p.release->check : nullptr;
}

/// The newest available version a request allows: a lock file's exact one, or the newest its
/// constraints allow as terraform selects it (no constraints: the newest release, never 0.0.0).
std::optional<Version> chooseVersion(const PullRequest &req, const RegistryVersions &versions)
{
    QList<Version> available;
    for (const RegistryVersion &rv : versions.versions)
        if (const Result<Version> v = Version::parse(rv.version); v.ok())
            available << *v;
    if (req.exact)
        return available.contains(*req.exact) ? req.exact : std::nullopt;
    return newestAllowed(available, req.constraints.value_or(VersionConstraints()));
}

/// One pull: the phases of pullFromRegistry, sharing the report and the archives in flight.
class PullRun
{
public:
    PullRun(const PullOptions &options, RegistryClient &client, const PullProgress &progress, const std::atomic<bool> *cancel)
        : m_options(options),
          m_client(client),
          m_progress(progress),
          m_cancel(cancel),
          m_dest(options.destination)
    {}

    bool prepareDestination();
    void resolve(const QList<PullRequest> &requests);
    void download();
    void settleFetched();
    void settlePresent();
    void writeProvenance();
    void writeIndexes();

    bool cancelled() const { return m_cancel && m_cancel->load(); }
    PullReport takeReport() { return std::move(m_report); }

private:
    void resolveRelease(const PullRequest &req, const Version &version);
    void fetchReleaseDocuments(Release &release, const RegistryDownload &meta);
    void settleOne(Pending &p, const Result<DownloadedArchive> &got);
    bool placeUnpacked(Pending &p, PulledArchive &rec);
    void finish(PulledArchive record)
    {
        if (m_progress)
            m_progress(record);
        m_report.archives << std::move(record);
    }
    void fail(PulledArchive &rec, PulledArchive::Status status, const QString &reason)
    {
        rec.status = status;
        rec.reason = reason;
        finish(rec);
    }
    void inPlace(PulledArchive &rec, PulledArchive::Status status, const PackageAuthentication &auth, Release *release)
    {
        rec.status = status;
        rec.keyId = auth.signature.keyId;
        rec.reported = auth.reported;
        m_provenanceDue.insert(release);
        finish(rec);
    }

    const PullOptions &m_options;
    RegistryClient &m_client;
    const PullProgress &m_progress;
    const std::atomic<bool> *m_cancel;
    const QDir m_dest;
    PullReport m_report;
    std::vector<std::unique_ptr<Pending>> m_toFetch;
    std::vector<std::unique_ptr<Pending>> m_present; ///< already in place: check the chain only
    QList<Result<DownloadedArchive>> m_got;
    QSet<Release *> m_provenanceDue;
    QHash<QString, PackageHashes> m_known; ///< hashes of the archives fetched, for the indexes
};

bool PullRun::prepareDestination()
{
    if (m_options.dryRun)
        return true;
    if (!QDir().mkpath(m_options.destination)) {
        m_report.errors << u"cannot create %1"_s.arg(m_options.destination);
        return false;
    }
    // Staging files of an earlier, interrupted pull are never under a final name; remove them.
    QDir(m_dest.filePath(kStaging)).removeRecursively();
    if (!m_dest.mkpath(kStaging)) {
        m_report.errors << u"cannot create %1"_s.arg(m_dest.filePath(kStaging));
        return false;
    }
    QFile::setPermissions(m_dest.filePath(kStaging), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return true;
}

/// Phase 1: versions, download documents, each release's SHA256SUMS and signature (small documents).
void PullRun::resolve(const QList<PullRequest> &requests)
{
    for (const PullRequest &req : requests) {
        if (cancelled())
            return;
        const Result<RegistryVersions> versions = m_client.versions(req.provider);
        if (!versions) {
            m_report.errors << versions.error().message;
            continue;
        }
        const std::optional<Version> chosen = chooseVersion(req, *versions);
        if (!chosen) {
            m_report.errors << (req.exact
                                    ? u"provider %1 has no version %2 in its registry"_s.arg(req.provider.toString(), req.exact->toString())
                                    : u"no available releases match the given constraints for %1"_s.arg(req.provider.toString()));
            continue;
        }
        resolveRelease(req, *chosen);
    }
}

void PullRun::fetchReleaseDocuments(Release &release, const RegistryDownload &meta)
{
    const Result<QByteArray> sums = m_client.fetchDocument(meta.shasumsUrl);
    const Result<QByteArray> sig = sums ? m_client.fetchDocument(meta.shasumsSignatureUrl) : Result<QByteArray>(sums.error());
    if (!sums) {
        release.error = u"failed to retrieve authentication checksums for provider: "_s + sums.error().message;
    } else if (!sig) {
        release.error = u"failed to retrieve cryptographic signature for provider: "_s + sig.error().message;
    } else {
        release.sums = *sums;
        release.signature = *sig;
        for (const RegistrySigningKey &k : meta.signingKeys)
            release.keys << k.asciiArmor;
        release.check = verifyDetachedSignature(release.sums, release.signature, release.keys, m_options.signature);
    }
}

void PullRun::resolveRelease(const PullRequest &req, const Version &version)
{
    auto release = std::make_shared<Release>();
    release->provider = req.provider;
    release->version = version;
    for (const Platform &platform : m_options.platforms) {
        if (cancelled())
            return;
        PulledArchive rec;
        rec.provider = req.provider;
        rec.version = version;
        rec.platform = platform;
        rec.path = providerDir(req.provider) + u'/'
            + (m_options.unpacked ? version.toString() + u'/' + platform.toString() : packedName(req.provider, version, platform));
        const Result<RegistryDownload> meta = m_client.download(req.provider, version, platform);
        if (!meta) {
            fail(rec, meta.error().code == ErrorCode::NotFound ? PulledArchive::Status::Unavailable : PulledArchive::Status::Failed,
                 meta.error().message);
            continue;
        }
        if (release->sums.isEmpty() && release->error.isEmpty())
            fetchReleaseDocuments(*release, *meta);
        auto pending = std::make_unique<Pending>();
        pending->record = rec;
        pending->meta = *meta;
        pending->release = release;
        pending->final = m_dest.absoluteFilePath(rec.path);
        if (QFileInfo(pending->final).isFile() && Sha256::ofFile(pending->final) == meta->sha256) {
            pending->record.size = QFileInfo(pending->final).size();
            m_present.push_back(std::move(pending));
            continue;
        }
        if (m_options.dryRun) {
            pending->record.status = PulledArchive::Status::WouldFetch;
            // How big, when the registry says (OpenTofu's `packages`); otherwise unknown (-1).
            if (const RegistryPackage *pkg = meta->package(platform); pkg && pkg->packageSize > 0)
                pending->record.size = pkg->packageSize;
            finish(pending->record);
            continue;
        }
        m_toFetch.push_back(std::move(pending));
    }
}

/// Phase 2: the archives, in parallel, each streamed into its own staging file and hashed (zh:,
/// h1:) on its own thread as the bytes arrive.
void PullRun::download()
{
    QList<RegistryClient::ArchiveFetch> fetches;
    for (auto &p : m_toFetch) {
        p->stagingPath = m_dest.filePath(kStaging + u'/' + packedName(p->record.provider, p->record.version, p->record.platform));
        Pending *raw = p.get(); // a writer thread only while bytes arrive: at most --jobs at once
        fetches << RegistryClient::ArchiveFetch{p->meta.downloadUrl,
                                                [raw](const char *data, qint64 size) { return raw->stream().write(data, size); }, false,
                                                [raw](bool complete) {
                                                    if (complete)
                                                        raw->stream().end();
                                                },
                                                [raw](const HttpWake &wake) { return raw->stream().canWrite(64 * 1024, wake); }};
    }
    m_got = fetches.isEmpty() ? QList<Result<DownloadedArchive>>{} : m_client.fetchArchives(fetches, m_cancel);
    m_report.cancelled = cancelled();
}

bool PullRun::placeUnpacked(Pending &p, PulledArchive &rec)
{
    const QString staged = p.stagingPath;
    const QString unpackDir = staged + u".d"_s;
    const Result<void> unpacked = unpackProviderZip(staged, unpackDir);
    QFile::remove(staged);
    const auto drop = [&] { QDir(unpackDir).removeRecursively(); };
    if (!unpacked) {
        drop();
        fail(rec, unpacked.error().code == ErrorCode::Io ? PulledArchive::Status::Failed : PulledArchive::Status::Refused,
             unpacked.error().message);
        return false;
    }
    if (QFileInfo::exists(p.final)) {
        const Result<PackageHashes> there = hashDirectory(p.final);
        const Result<PackageHashes> fresh = hashDirectory(unpackDir);
        drop();
        if (there && fresh && there->h1Extracted == fresh->h1Extracted) {
            rec.status = PulledArchive::Status::AlreadyPresent;
            return true;
        }
        fail(rec, PulledArchive::Status::Failed, u"%1 exists with other content; not replaced"_s.arg(p.final));
        return false;
    }
    if (!QDir().mkpath(QFileInfo(p.final).absolutePath())
        || ::rename(QFile::encodeName(unpackDir).constData(), QFile::encodeName(p.final).constData()) != 0) {
        drop();
        fail(rec, PulledArchive::Status::Failed, u"cannot move the package to %1"_s.arg(p.final));
        return false;
    }
    syncDir(QFileInfo(p.final).absolutePath());
    rec.status = PulledArchive::Status::Fetched;
    return true;
}

/// Phase 3 for one download: prove it, then give it its name.
void PullRun::settleOne(Pending &p, const Result<DownloadedArchive> &got)
{
    PulledArchive rec = p.record;
    const QString staged = p.stagingPath;
    if (!got) {
        // A staging file that could not be written is the reason the download stopped.
        const QString writeError = p.staging ? p.staging->writeError() : QString();
        if (p.staging)
            p.staging->abandon();
        QFile::remove(staged);
        fail(rec, PulledArchive::Status::Failed, writeError.isEmpty() ? got.error().message : writeError);
        return;
    }
    const StreamedArchive::Outcome streamed = p.stream().finish();
    p.staging.reset(); // its thread and buffer
    if (!streamed.written) {
        QFile::remove(staged);
        fail(rec, PulledArchive::Status::Failed, streamed.written.error().message);
        return;
    }
    rec.size = streamed.size;
    const Release &rel = *p.release;
    PackageAuthentication auth;
    if (!rel.error.isEmpty())
        auth.reason = rel.error;
    else
        auth = authenticateRegistryPackage(p.meta, streamed.sha256, streamed.size, rel.sums, rel.signature, m_options.signature,
                                           releaseCheck(p));
    if (!auth.signedOk) {
        QFile::remove(staged);
        fail(rec, PulledArchive::Status::Refused, auth.reason);
        return;
    }
    if (m_options.unpacked) {
        if (placeUnpacked(p, rec))
            inPlace(rec, rec.status, auth, p.release.get());
        return;
    }
    if (!QDir().mkpath(QFileInfo(p.final).absolutePath())
        || ::rename(QFile::encodeName(staged).constData(), QFile::encodeName(p.final).constData()) != 0) {
        QFile::remove(staged);
        fail(rec, PulledArchive::Status::Failed, u"cannot move the archive to %1"_s.arg(p.final));
        return;
    }
    syncDir(QFileInfo(p.final).absolutePath());
    if (streamed.hashes.ok())
        m_known.insert(QDir::cleanPath(p.final), streamed.hashes.value());
    inPlace(rec, PulledArchive::Status::Fetched, auth, p.release.get());
}

/// Phase 3: prove each download, then give it its name.
void PullRun::settleFetched()
{
    for (qsizetype i = 0; i < qsizetype(m_toFetch.size()); ++i)
        settleOne(*m_toFetch[size_t(i)], m_got.at(i));
}

/// Phase 3 for archives already in place: the registry's chain must hold today; nothing is touched.
void PullRun::settlePresent()
{
    for (auto &p : m_present) {
        PulledArchive rec = p->record;
        const Release &rel = *p->release;
        const PackageAuthentication auth = rel.error.isEmpty()
            ? authenticateRegistryPackage(p->meta, p->meta.sha256, p->record.size, rel.sums, rel.signature, m_options.signature,
                                          releaseCheck(*p))
            : PackageAuthentication{false, {}, rel.error, {}, {}};
        if (!auth.signedOk)
            fail(rec, PulledArchive::Status::Refused, auth.reason);
        else
            inPlace(rec, PulledArchive::Status::AlreadyPresent, auth, p->release.get());
    }
}

/// Phase 4: each release's SHA256SUMS, signature and keys next to the archives.
void PullRun::writeProvenance()
{
    QDir(m_dest.filePath(kStaging)).removeRecursively();
    for (Release *rel : std::as_const(m_provenanceDue)) {
        const QString dir = provenanceDirectory(m_dest.absolutePath(), rel->provider, rel->version);
        QByteArray keys;
        for (const QByteArray &k : rel->keys)
            keys += k.endsWith('\n') ? k : k + '\n';
        if (!QDir().mkpath(dir) || !writeAtomically(dir + u"/SHA256SUMS"_s, rel->sums)
            || !writeAtomically(dir + u"/SHA256SUMS.sig"_s, rel->signature) || !writeAtomically(dir + u"/keys.asc"_s, keys))
            m_report.errors << u"cannot write the provenance of %1 %2 to %3"_s.arg(rel->provider.toString(), rel->version.toString(), dir);
    }
}

/// Phase 5: index.json / <version>.json, from the archives on disk; those just fetched are not
/// read again (their hashes were computed while they downloaded).
void PullRun::writeIndexes()
{
    bool anyInPlace = false;
    for (const PulledArchive &a : std::as_const(m_report.archives))
        anyInPlace |= a.status == PulledArchive::Status::Fetched || a.status == PulledArchive::Status::AlreadyPresent;
    if (!anyInPlace || m_report.cancelled || m_options.unpacked)
        return;
    IndexExportOptions io;
    io.withZh = m_options.withZh;
    io.knownHashes = m_known;
    const Result<IndexExportReport> idx = exportIndexes(m_options.destination, io);
    if (!idx)
        m_report.errors << u"writing the indexes failed: "_s + idx.error().message;
}

} // namespace

int PullReport::refusedOrFailed() const
{
    return int(std::count_if(archives.cbegin(), archives.cend(), [](const PulledArchive &a) {
        return a.status == PulledArchive::Status::Refused || a.status == PulledArchive::Status::Failed;
    }));
}

QString toString(PulledArchive::Status status)
{
    switch (status) {
    case PulledArchive::Status::Fetched: return u"fetched"_s;
    case PulledArchive::Status::AlreadyPresent: return u"present"_s;
    case PulledArchive::Status::WouldFetch: return u"would fetch"_s;
    case PulledArchive::Status::Refused: return u"refused"_s;
    case PulledArchive::Status::Unavailable: return u"unavailable"_s;
    case PulledArchive::Status::Failed: return u"failed"_s;
    }
    return {};
}

PullReport pullFromRegistry(const QList<PullRequest> &requests, const PullOptions &options, RegistryClient &client,
                            const PullProgress &progress, const std::atomic<bool> *cancel)
{
    PullRun run(options, client, progress, cancel);
    QElapsedTimer clock;
    clock.start();
    const auto phase = [&clock](const char *name) {
        qCDebug(lcRegistry) << "mirror pull:" << name << "done at" << clock.elapsed() << "ms";
    };
    if (!run.prepareDestination())
        return run.takeReport();
    run.resolve(requests);
    phase("versions, documents and signatures");
    run.download();
    phase("downloads");
    run.settleFetched();
    run.settlePresent();
    phase("proofs and renames");
    if (options.dryRun)
        return run.takeReport();
    run.writeProvenance();
    run.writeIndexes();
    phase("provenance and indexes");
    return run.takeReport();
}

} // namespace provender
