#include "model/bundle/BundleSource.h"

#include "model/bundle/BundleArchive.h"
#include "model/registry/ReleaseProvenanceStore.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QTemporaryFile>

namespace provender {

using namespace bundle_detail;

BundleSource::BundleSource(const QString &path, BundleLimits limits) : m_path(QFileInfo(path).absoluteFilePath()), m_limits(limits) {}

namespace {

BundleProgress bundleProgress(const ArchiveReadOptions &options)
{
    return [&options](BundleStage, qint64 done, qint64 total) {
        if (options.cancel && options.cancel->load())
            return false;
        return options.progress ? options.progress(done, total) : true;
    };
}

} // namespace

Result<Catalog> BundleSource::list(const std::atomic<bool> *cancel)
{
    BundleOpenOptions open;
    open.limits = m_limits;
    open.verify = m_readAhead;
    open.jobs = m_jobs;
    open.pinnedKeys = m_pinnedKeys;
    const BundleProgress extra = m_readAheadProgress;
    const BundleProgress progress = [cancel, extra](BundleStage stage, qint64 done, qint64 total) {
        if (cancel && cancel->load())
            return false;
        return extra ? extra(stage, done, total) : true;
    };
    const QFileInfo before(m_path);
    Result<BundleContents> contents = openBundle(m_path, open, progress);
    if (!contents.ok())
        return contents.error();
    m_prefix = contents->mirrorPrefix;
    setProvenance(contents->provenance);
    if (m_readAhead) {
        m_ahead = std::make_shared<const BundleContents>(contents.value());
        m_aheadModified = before.lastModified();
        m_aheadSize = before.size();
    }
    return std::move(contents.value().catalog);
}

void BundleSource::setProvenance(const QHash<QString, QByteArray> &files)
{
    m_provenance = files.isEmpty()
        ? nullptr
        : ReleaseProvenanceStore::forFiles(files, m_path + kBundleEntrySeparator + m_prefix, SignatureOptions{m_pinnedKeys});
}

void BundleSource::setPinnedKeys(const QList<QByteArray> &keys)
{
    m_pinnedKeys = keys;
    if (m_provenance)
        m_provenance->setOptions(SignatureOptions{keys});
}

const SignedRelease *BundleSource::signedRelease(const ProviderAddress &provider, const Version &version) const
{
    return m_provenance ? m_provenance->release(provider, version) : nullptr;
}

std::optional<TrustAnchor> BundleSource::checksumsAnchor() const
{
    return TrustAnchor{TrustAnchor::Kind::OwnChecksums, m_path + kBundleEntrySeparator + m_prefix + kBundleSumsName};
}

ArchiveReadSummary BundleSource::readArchives(const QList<ArchiveRef> &archives, const ArchiveReadOptions &options,
                                              const ArchiveReadSink &sink)
{
    ArchiveReadSummary summary;
    if (options.cancel && options.cancel->load()) {
        summary.cancelled = true;
        return summary;
    }
    Result<BundleContents> contents = makeError(ErrorCode::Internal, QStringLiteral("no pass"));
    const QFileInfo now(m_path);
    if (m_ahead && now.lastModified() == m_aheadModified && now.size() == m_aheadSize) {
        contents = *m_ahead; // the pass list() made (read ahead), the file unchanged since
    } else {
        BundleOpenOptions open;
        open.limits = m_limits;
        open.verify = true;
        open.jobs = options.jobs;
        open.pinnedKeys = m_pinnedKeys;
        contents = openBundle(m_path, open, bundleProgress(options));
    }
    m_ahead.reset();
    if (!contents.ok()) {
        if (contents.error().code == ErrorCode::Cancelled) {
            summary.cancelled = true;
            return summary;
        }
        for (qsizetype i = 0; i < archives.size(); ++i) {
            ArchiveRead read;
            read.hashes = makeError(contents.error().code, contents.error().message);
            sink(i, std::move(read));
        }
        return summary;
    }
    m_prefix = contents->mirrorPrefix;
    setProvenance(contents->provenance);
    summary.bytesRead = contents->fileSize;
    m_lastRead = std::make_shared<const BundleContents>(contents.value());
    // The pass read every entry; hand each asked-for archive what it gave, by path (the
    // catalog listed by list() is the same one the pass rebuilt).
    QHash<QString, qsizetype> byPath;
    for (qsizetype i = 0; i < contents->results.size(); ++i)
        byPath.insert(contents->results.at(i).path + QLatin1Char('\n') + contents->results.at(i).key.toString(), i);
    for (qsizetype i = 0; i < archives.size(); ++i) {
        const ArchiveRef &ref = archives.at(i);
        const QString key = ref.archive->path + QLatin1Char('\n')
            + ArchiveKey{ref.provider->address, ref.version->version, ref.archive->platform}.toString();
        const auto it = byPath.constFind(key);
        ArchiveRead read;
        if (it == byPath.cend()) {
            read.hashes = makeError(ErrorCode::NotFound, QStringLiteral("not in the bundle any more: %1").arg(ref.archive->path));
        } else {
            read = contents->reads.at(it.value());
            if (read.hashes.ok()) {
                ++summary.hashed;
                summary.bytesHashed += ref.archive->size > 0 ? ref.archive->size : 0;
            }
        }
        sink(i, std::move(read));
    }
    return summary;
}

Result<std::unique_ptr<QIODevice>> BundleSource::openArchive(const Archive &archive, const std::atomic<bool> *cancel)
{
    QString bundle, entry;
    if (!archive.present || !splitBundleEntryPath(archive.path, &bundle, &entry) || bundle != m_path)
        return makeError(ErrorCode::NotFound, QStringLiteral("not an entry of %1: %2").arg(m_path, archive.path));
    if (archive.layout != ArchiveLayout::Packed)
        return makeError(ErrorCode::Unsupported,
                         QStringLiteral("%1 is an unpacked package directory, not one stream of bytes").arg(archive.path));
    // QTemporaryFile removes the file when the device is destroyed.
    auto tmp = std::make_unique<QTemporaryFile>(QDir::tempPath() + QStringLiteral("/provender-member-XXXXXX.zip"));
    if (!tmp->open())
        return makeError(ErrorCode::Io, QStringLiteral("cannot create a temporary file: %1").arg(tmp->errorString()));
    BundleReader reader;
    if (Result<void> opened = reader.open(m_path); !opened.ok())
        return opened.error();
    bool found = false;
    const FileHandler copy = [&](const BundleEntry &e, const PullBytes &pull, QString *) -> Result<void> {
        if (e.name != entry || e.type != BundleEntry::Type::File)
            return {};
        found = true;
        return spoolEntry(pull, *tmp);
    };
    const BundleProgress progress = [cancel](BundleStage, qint64, qint64) { return !(cancel && cancel->load()); };
    Result<BundlePass> pass = runBundlePass(reader, m_limits, {}, copy, progress);
    if (!pass.ok())
        return pass.error();
    if (!found)
        return makeError(ErrorCode::NotFound, QStringLiteral("%1 holds no file %2").arg(m_path, entry));
    if (!tmp->flush() || !tmp->seek(0))
        return makeError(ErrorCode::Io, QStringLiteral("cannot read back %1: %2").arg(tmp->fileName(), tmp->errorString()));
    return std::unique_ptr<QIODevice>(std::move(tmp));
}

} // namespace provender
