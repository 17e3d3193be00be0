#include "model/registry/MirrorPull.h"

#include "model/core/Logging.h"
#include "model/hashing/PackageHashes.h"
#include "model/hashing/Sha256.h"
#include "model/mirror/IndexWriter.h"
#include "model/registry/ReleaseProvenance.h"
#include "model/registry/UnpackArchive.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>
#include <QSet>
#include <QTemporaryFile>

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

/// SHA-256 of a file on disk, or empty when it cannot be read.
QByteArray fileSha256(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    Sha256 sha;
    QByteArray buf(1 << 18, Qt::Uninitialized);
    for (;;) {
        const qint64 n = f.read(buf.data(), buf.size());
        if (n < 0)
            return {};
        if (n == 0)
            break;
        sha.addData(buf.constData(), std::size_t(n));
    }
    return sha.result();
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
    std::unique_ptr<QFile> staging;
    bool writeFailed = false;
};

/// The release's signature check (made once, in phase 1) when this download lists the same keys.
const SignatureCheck *releaseCheck(const Pending &p)
{
    QList<QByteArray> keys;
    for (const RegistrySigningKey &k : p.meta.signingKeys)
        keys << k.asciiArmor;
    return keys == p.release->keys ? &p.release->check : nullptr;
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
    PullReport report;
    const QDir dest(options.destination);
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    const auto finish = [&](PulledArchive record) {
        if (progress)
            progress(record);
        report.archives << std::move(record);
    };

    if (!options.dryRun) {
        if (!QDir().mkpath(options.destination)) {
            report.errors << u"cannot create %1"_s.arg(options.destination);
            return report;
        }
        // Staging files of an earlier, interrupted pull are never under a final name; remove them.
        QDir(dest.filePath(kStaging)).removeRecursively();
        if (!dest.mkpath(kStaging)) {
            report.errors << u"cannot create %1"_s.arg(dest.filePath(kStaging));
            return report;
        }
        QFile::setPermissions(dest.filePath(kStaging), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // Phase 1: versions, download documents, each release's SHA256SUMS and signature (small documents).
    std::vector<std::unique_ptr<Pending>> toFetch;
    std::vector<std::pair<std::unique_ptr<Pending>, QString>> present; // already in place: check the chain only
    for (const PullRequest &req : requests) {
        if (cancelled())
            break;
        const Result<RegistryVersions> versions = client.versions(req.provider);
        if (!versions) {
            report.errors << versions.error().message;
            continue;
        }
        QList<Version> available;
        for (const RegistryVersion &rv : versions->versions)
            if (const Result<Version> v = Version::parse(rv.version); v.ok())
                available << *v;
        std::sort(available.begin(), available.end());
        std::optional<Version> chosen;
        if (req.exact) {
            if (available.contains(*req.exact))
                chosen = *req.exact;
        } else {
            for (auto it = available.crbegin(); it != available.crend(); ++it) {
                const bool ok = req.constraints ? req.constraints->allows(*it) : !it->isPrerelease();
                if (ok) {
                    chosen = *it;
                    break;
                }
            }
        }
        if (!chosen) {
            report.errors << (req.exact
                                  ? u"provider %1 has no version %2 in its registry"_s.arg(req.provider.toString(), req.exact->toString())
                                  : u"no available releases match the given constraints for %1"_s.arg(req.provider.toString()));
            continue;
        }
        auto release = std::make_shared<Release>();
        release->provider = req.provider;
        release->version = *chosen;
        for (const Platform &platform : options.platforms) {
            if (cancelled())
                break;
            PulledArchive rec;
            rec.provider = req.provider;
            rec.version = *chosen;
            rec.platform = platform;
            rec.path = providerDir(req.provider) + u'/'
                + (options.unpacked ? chosen->toString() + u'/' + platform.toString() : packedName(req.provider, *chosen, platform));
            const Result<RegistryDownload> meta = client.download(req.provider, *chosen, platform);
            if (!meta) {
                rec.status = meta.error().code == ErrorCode::NotFound ? PulledArchive::Status::Unavailable : PulledArchive::Status::Failed;
                rec.reason = meta.error().message;
                finish(rec);
                continue;
            }
            if (release->sums.isEmpty() && release->error.isEmpty()) {
                const Result<QByteArray> sums = client.fetchDocument(meta->shasumsUrl);
                const Result<QByteArray> sig = sums ? client.fetchDocument(meta->shasumsSignatureUrl) : Result<QByteArray>(sums.error());
                if (!sums)
                    release->error = u"failed to retrieve authentication checksums for provider: "_s + sums.error().message;
                else if (!sig)
                    release->error = u"failed to retrieve cryptographic signature for provider: "_s + sig.error().message;
                else {
                    release->sums = *sums;
                    release->signature = *sig;
                    for (const RegistrySigningKey &k : meta->signingKeys)
                        release->keys << k.asciiArmor;
                    release->check = verifyDetachedSignature(release->sums, release->signature, release->keys, options.signature);
                }
            }
            auto pending = std::make_unique<Pending>();
            pending->record = rec;
            pending->meta = *meta;
            pending->release = release;
            const QString final = dest.filePath(rec.path);
            if (QFileInfo(final).isFile() && fileSha256(final) == meta->sha256) {
                pending->record.size = QFileInfo(final).size();
                present.emplace_back(std::move(pending), final);
                continue;
            }
            if (options.dryRun) {
                pending->record.status = PulledArchive::Status::WouldFetch;
                // How big, when the registry says (OpenTofu's `packages`); otherwise unknown (-1).
                if (const RegistryPackage *pkg = meta->package(platform); pkg && pkg->packageSize > 0)
                    pending->record.size = pkg->packageSize;
                finish(pending->record);
                continue;
            }
            toFetch.push_back(std::move(pending));
        }
    }

    // Phase 2: the archives, in parallel, each into its own staging file.
    QList<RegistryClient::ArchiveFetch> fetches;
    for (auto &p : toFetch) {
        p->staging =
            std::make_unique<QFile>(dest.filePath(kStaging + u'/' + packedName(p->record.provider, p->record.version, p->record.platform)));
        if (!p->staging->open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            p->writeFailed = true;
            continue;
        }
        Pending *raw = p.get();
        fetches << RegistryClient::ArchiveFetch{p->meta.downloadUrl, [raw](const char *data, qint64 size) {
                                                    if (raw->staging->write(data, size) != size) {
                                                        raw->writeFailed = true;
                                                        return false;
                                                    }
                                                    return true;
                                                }};
    }
    const QList<Result<DownloadedArchive>> got =
        fetches.isEmpty() ? QList<Result<DownloadedArchive>>{} : client.fetchArchives(fetches, cancel);
    report.cancelled = cancelled();

    // Phase 3: prove each archive, then give it its name.
    qsizetype gi = 0;
    QSet<Release *> provenanceDue;
    for (auto &p : toFetch) {
        PulledArchive rec = p->record;
        if (p->writeFailed && !p->staging->isOpen()) {
            rec.status = PulledArchive::Status::Failed;
            rec.reason = u"cannot write %1: %2"_s.arg(p->staging->fileName(), p->staging->errorString());
            finish(rec);
            continue;
        }
        const Result<DownloadedArchive> &r = got.at(gi++);
        const bool flushed = p->staging->flush() && ::fsync(p->staging->handle()) == 0;
        p->staging->close();
        const auto discard = [&] { QFile::remove(p->staging->fileName()); };
        if (!r || p->writeFailed || !flushed) {
            rec.status = PulledArchive::Status::Failed;
            rec.reason = !r ? r.error().message : u"cannot write %1"_s.arg(p->staging->fileName());
            discard();
            finish(rec);
            continue;
        }
        rec.size = r->size;
        const Release &rel = *p->release;
        PackageAuthentication auth;
        if (!rel.error.isEmpty()) {
            auth.reason = rel.error;
        } else {
            auth = authenticateRegistryPackage(p->meta, r->sha256, r->size, rel.sums, rel.signature, options.signature, releaseCheck(*p));
        }
        if (!auth.signedOk) {
            rec.status = PulledArchive::Status::Refused;
            rec.reason = auth.reason;
            discard();
            finish(rec);
            continue;
        }
        const QString final = dest.filePath(rec.path);
        if (options.unpacked) {
            const QString unpackDir = p->staging->fileName() + u".d"_s;
            const Result<void> unpacked = unpackProviderZip(p->staging->fileName(), unpackDir);
            discard();
            const auto drop = [&] { QDir(unpackDir).removeRecursively(); };
            if (!unpacked) {
                rec.status = unpacked.error().code == ErrorCode::Io ? PulledArchive::Status::Failed : PulledArchive::Status::Refused;
                rec.reason = unpacked.error().message;
                drop();
                finish(rec);
                continue;
            }
            if (QFileInfo::exists(final)) {
                const Result<PackageHashes> there = hashDirectory(final);
                const Result<PackageHashes> fresh = hashDirectory(unpackDir);
                drop();
                if (there && fresh && there->h1Extracted == fresh->h1Extracted) {
                    rec.status = PulledArchive::Status::AlreadyPresent;
                    rec.keyId = auth.signature.keyId;
                    rec.reported = auth.reported;
                    provenanceDue.insert(p->release.get());
                } else {
                    rec.status = PulledArchive::Status::Failed;
                    rec.reason = u"%1 exists with other content; not replaced"_s.arg(final);
                }
                finish(rec);
                continue;
            }
            if (!QDir().mkpath(QFileInfo(final).absolutePath())
                || ::rename(QFile::encodeName(unpackDir).constData(), QFile::encodeName(final).constData()) != 0) {
                rec.status = PulledArchive::Status::Failed;
                rec.reason = u"cannot move the package to %1"_s.arg(final);
                drop();
                finish(rec);
                continue;
            }
            syncDir(QFileInfo(final).absolutePath());
            rec.status = PulledArchive::Status::Fetched;
            rec.keyId = auth.signature.keyId;
            rec.reported = auth.reported;
            provenanceDue.insert(p->release.get());
            finish(rec);
            continue;
        }
        if (!QDir().mkpath(QFileInfo(final).absolutePath())
            || ::rename(QFile::encodeName(p->staging->fileName()).constData(), QFile::encodeName(final).constData()) != 0) {
            rec.status = PulledArchive::Status::Failed;
            rec.reason = u"cannot move the archive to %1"_s.arg(final);
            discard();
            finish(rec);
            continue;
        }
        syncDir(QFileInfo(final).absolutePath());
        rec.status = PulledArchive::Status::Fetched;
        rec.keyId = auth.signature.keyId;
        rec.reported = auth.reported;
        provenanceDue.insert(p->release.get());
        finish(rec);
    }
    for (auto &[p, final] : present) {
        PulledArchive rec = p->record;
        const Release &rel = *p->release;
        const PackageAuthentication auth = rel.error.isEmpty()
            ? authenticateRegistryPackage(p->meta, p->meta.sha256, p->record.size, rel.sums, rel.signature, options.signature,
                                          releaseCheck(*p))
            : PackageAuthentication{false, {}, rel.error, {}, {}};
        if (!auth.signedOk) {
            // In place already, but the registry's chain does not hold today: say so, touch nothing.
            rec.status = PulledArchive::Status::Refused;
            rec.reason = auth.reason;
        } else {
            rec.status = PulledArchive::Status::AlreadyPresent;
            rec.keyId = auth.signature.keyId;
            rec.reported = auth.reported;
            provenanceDue.insert(p->release.get());
        }
        finish(rec);
    }
    if (options.dryRun)
        return report;
    QDir(dest.filePath(kStaging)).removeRecursively();

    // Phase 4: provenance next to the archives, then the indexes.
    for (Release *rel : std::as_const(provenanceDue)) {
        const QString dir = provenanceDirectory(dest.absolutePath(), rel->provider, rel->version);
        QByteArray keys;
        for (const QByteArray &k : rel->keys)
            keys += k.endsWith('\n') ? k : k + '\n';
        if (!QDir().mkpath(dir) || !writeAtomically(dir + u"/SHA256SUMS"_s, rel->sums)
            || !writeAtomically(dir + u"/SHA256SUMS.sig"_s, rel->signature) || !writeAtomically(dir + u"/keys.asc"_s, keys))
            report.errors << u"cannot write the provenance of %1 %2 to %3"_s.arg(rel->provider.toString(), rel->version.toString(), dir);
    }
    bool anyInPlace = false;
    for (const PulledArchive &a : std::as_const(report.archives))
        anyInPlace |= a.status == PulledArchive::Status::Fetched || a.status == PulledArchive::Status::AlreadyPresent;
    if (anyInPlace && !report.cancelled && !options.unpacked) {
        IndexExportOptions io;
        io.withZh = options.withZh;
        const Result<IndexExportReport> idx = exportIndexes(options.destination, io);
        if (!idx)
            report.errors << u"writing the indexes failed: "_s + idx.error().message;
    }
    return report;
}

} // namespace provender
