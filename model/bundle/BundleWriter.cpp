#include "model/bundle/BundleWriter.h"
#include "model/bundle/BundleMirrorInternal.h"
#include "model/verify/VerifyEngine.h"

#include "model/core/Logging.h"
#include "model/hashing/Sha256.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/IndexWriter.h"
#include "model/registry/ReleaseProvenanceStore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QSaveFile>
#include <QSet>

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <atomic>
#include <memory>

namespace provender {

namespace {

constexpr qint64 kCopyChunk = qint64(1) << 20;

QString relativeTo(const QString &root, const QString &path)
{
    return QDir(root).relativeFilePath(path);
}

BundleItem itemFor(const QString &root, const Provider &p, const ProviderVersion &v, const Archive &a)
{
    return BundleItem{p.address, v.version, a, relativeTo(root, a.path)};
}

void sortItems(QList<BundleItem> &items)
{
    std::sort(items.begin(), items.end(),
              [](const BundleItem &a, const BundleItem &b) { return a.bundlePath.toUtf8() < b.bundlePath.toUtf8(); });
    items.erase(
        std::unique(items.begin(), items.end(), [](const BundleItem &a, const BundleItem &b) { return a.bundlePath == b.bundlePath; }),
        items.end());
}

bool installable(const Archive &a)
{
    return a.present && !a.indexedOnly && !a.path.isEmpty();
}

// --- libarchive output -------------------------------------------------------------------------

struct WriteContext
{
    QSaveFile *file = nullptr;
    QString error;
    qint64 written = 0;
};

la_ssize_t writeCallback(struct archive *, void *client, const void *buffer, size_t length)
{
    auto *ctx = static_cast<WriteContext *>(client);
    const qint64 n = ctx->file->write(static_cast<const char *>(buffer), qint64(length));
    if (n != qint64(length)) {
        ctx->error = ctx->file->errorString();
        return -1;
    }
    ctx->written += n;
    return la_ssize_t(length);
}

class ArchiveOutput
{
public:
    explicit ArchiveOutput(QSaveFile &file) { m_ctx.file = &file; }
    ~ArchiveOutput()
    {
        if (m_archive)
            archive_write_free(m_archive);
    }

    Result<void> open(BundleFormat format, int level, qint64 mtime)
    {
        m_format = format;
        m_mtime = mtime;
        m_archive = archive_write_new();
        if (!m_archive)
            return makeError(ErrorCode::Internal, QStringLiteral("libarchive: out of memory"));
        int rc = ARCHIVE_OK;
        switch (format) {
        case BundleFormat::TarGz:
            rc = archive_write_set_format_pax_restricted(m_archive);
            if (rc == ARCHIVE_OK)
                rc = archive_write_add_filter_gzip(m_archive);
            if (rc == ARCHIVE_OK)
                rc = archive_write_set_filter_option(m_archive, "gzip", "timestamp", nullptr); // no time in the header
            if (rc == ARCHIVE_OK)
                rc = setLevel("gzip", level < 0 ? 6 : level);
            break;
        case BundleFormat::TarZst:
            rc = archive_write_set_format_pax_restricted(m_archive);
            if (rc == ARCHIVE_OK)
                rc = archive_write_add_filter_zstd(m_archive);
            if (rc == ARCHIVE_OK)
                rc = setLevel("zstd", level < 0 ? 3 : level);
            break;
        case BundleFormat::Zip:
            rc = archive_write_set_format_zip(m_archive);
            if (rc == ARCHIVE_OK)
                rc = archive_write_set_format_option(m_archive, "zip", "hdrcharset", "UTF-8");
            if (rc == ARCHIVE_OK) {
                const QByteArray value = QByteArray::number(level < 0 ? 6 : level);
                rc = archive_write_set_format_option(m_archive, "zip", "compression-level", value.constData());
            }
            break;
        case BundleFormat::Tar:
        case BundleFormat::TarXz:
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("bundles are written as tar.gz, tar.zst or zip, not %1").arg(toString(format)));
        }
        // No padding after the compressed stream (a zstd reader refuses trailing zeros).
        if (rc == ARCHIVE_OK)
            rc = archive_write_set_bytes_in_last_block(m_archive, 1);
        if (rc != ARCHIVE_OK)
            return error(QStringLiteral("cannot set up the %1 writer").arg(toString(format)));
        if (archive_write_open2(m_archive, &m_ctx, nullptr, writeCallback, nullptr, nullptr) != ARCHIVE_OK)
            return error(QStringLiteral("cannot start writing"));
        return {};
    }

    Result<void> addDirectory(const QString &path) { return header(path + QLatin1Char('/'), AE_IFDIR, 0755, 0, false); }

    Result<void> beginFile(const QString &path, qint64 size, int mode, bool compress)
    {
        return header(path, AE_IFREG, mode, size, compress);
    }

    Result<void> write(const char *data, qint64 size)
    {
        while (size > 0) {
            const la_ssize_t n = archive_write_data(m_archive, data, size_t(size));
            if (n <= 0)
                return error(QStringLiteral("cannot write"));
            data += n;
            size -= n;
        }
        return {};
    }

    Result<void> endFile()
    {
        if (archive_write_finish_entry(m_archive) != ARCHIVE_OK)
            return error(QStringLiteral("cannot finish an entry"));
        return {};
    }

    Result<void> close()
    {
        if (archive_write_close(m_archive) != ARCHIVE_OK)
            return error(QStringLiteral("cannot finish the bundle"));
        return {};
    }

    qint64 written() const { return m_ctx.written; }

private:
    int setLevel(const char *filter, int level)
    {
        const QByteArray value = QByteArray::number(level);
        return archive_write_set_filter_option(m_archive, filter, "compression-level", value.constData());
    }

    Result<void> header(const QString &path, unsigned type, int mode, qint64 size, bool compress)
    {
        if (m_format == BundleFormat::Zip) {
            // Provider zips are already deflated: store them; deflate the small text files.
            if ((compress ? archive_write_zip_set_compression_deflate(m_archive) : archive_write_zip_set_compression_store(m_archive))
                != ARCHIVE_OK)
                return error(QStringLiteral("cannot choose the compression of %1").arg(path));
        }
        struct archive_entry *e = archive_entry_new2(m_archive);
        const QByteArray name = path.toUtf8();
        archive_entry_set_pathname_utf8(e, name.constData());
        archive_entry_set_filetype(e, type);
        archive_entry_set_perm(e, mode_t(mode));
        archive_entry_set_mtime(e, time_t(m_mtime), 0);
        archive_entry_set_uid(e, 0);
        archive_entry_set_gid(e, 0);
        if (type == AE_IFREG)
            archive_entry_set_size(e, size);
        const int rc = archive_write_header(m_archive, e);
        archive_entry_free(e);
        if (rc != ARCHIVE_OK)
            return error(QStringLiteral("cannot write the header of %1").arg(path));
        return {};
    }

    Error error(const QString &what) const
    {
        QString reason = m_ctx.error;
        if (reason.isEmpty() && m_archive && archive_error_string(m_archive))
            reason = QString::fromLocal8Bit(archive_error_string(m_archive));
        return makeError(ErrorCode::Io, what + QStringLiteral(": ") + (reason.isEmpty() ? QStringLiteral("unknown error") : reason));
    }

    struct archive *m_archive = nullptr;
    WriteContext m_ctx;
    BundleFormat m_format = BundleFormat::TarGz;
    qint64 m_mtime = 0;
};

// --- the plan ----------------------------------------------------------------------------------

struct Planned
{
    enum class Kind { Directory, Memory, File };
    Kind kind = Kind::File;
    QString path;       ///< in the bundle
    QString source;     ///< File: absolute path on disk
    QByteArray content; ///< Memory
    qint64 size = 0;
    int mode = 0644;
    int item = -1;        ///< index in selection.items (archive or package file)
    bool compress = true; ///< zip format: deflate (false: store)
};

/// Files of an unpacked package, sorted byte-wise by relative path (links to files followed, as
/// dirhash reads them).
Result<void> listPackage(const QString &dir, const QString &rel, QList<QPair<QString, QFileInfo>> &out, int depth = 0)
{
    if (depth > 64)
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: nested too deeply").arg(dir));
    const QFileInfoList infos = QDir(dir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &info : infos) {
        const QString name = rel.isEmpty() ? info.fileName() : rel + QLatin1Char('/') + info.fileName();
        if (info.isSymLink() && info.isDir())
            return makeError(ErrorCode::Unsupported, QStringLiteral("%1: a link to a directory inside a package").arg(info.filePath()));
        if (info.isDir()) {
            if (Result<void> r = listPackage(info.filePath(), name, out, depth + 1); !r.ok())
                return r;
            continue;
        }
        if (!info.isFile())
            return makeError(ErrorCode::Unsupported, QStringLiteral("%1: not a regular file").arg(info.filePath()));
        out.append({name, info});
    }
    return {};
}

/// The `.provenance/HOST/NS/TYPE/VERSION/` files of every release the selection takes, as kept
/// in the source mirror (ReleaseProvenanceStore.h); a release without a SHA256SUMS there has none.
Result<void> planProvenance(const BundleSelection &selection, QList<Planned> &plan)
{
    QSet<QString> done;
    for (const BundleItem &item : selection.items) {
        const QString dir = provenanceRelativeDirectory(item.provider, item.version);
        if (done.contains(dir))
            continue;
        done.insert(dir);
        if (!QFileInfo(selection.mirrorRoot + QLatin1Char('/') + dir + QStringLiteral("/SHA256SUMS")).isFile())
            continue;
        for (const QString &name : provenanceFileNames()) {
            QFile f(selection.mirrorRoot + QLatin1Char('/') + dir + QLatin1Char('/') + name);
            if (!f.exists())
                continue; // bundle verify reports what is missing
            if (!f.open(QIODevice::ReadOnly))
                return makeError(ErrorCode::Io, QStringLiteral("%1: cannot open: %2").arg(f.fileName(), f.errorString()));
            if (f.size() > kMaxProvenanceFileBytes)
                return makeError(
                    ErrorCode::InvalidArgument,
                    QStringLiteral("%1 is larger than %2 bytes: not a release's proof").arg(f.fileName()).arg(kMaxProvenanceFileBytes));
            plan.append(Planned{Planned::Kind::Memory, dir + QLatin1Char('/') + name, {}, f.readAll(), 0, 0644, -1, true});
        }
    }
    return {};
}

Error describeRefusals(const QList<ArchiveResult> &bad)
{
    QStringList lines;
    for (const ArchiveResult &r : bad)
        lines.append(QStringLiteral("%1 (%2): %3 — %4").arg(r.key.toString(), r.path, toString(r.detail.verdict), r.detail.reason));
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("%1 source archive(s) failed verification; nothing was written:\n  %2")
                         .arg(bad.size())
                         .arg(lines.join(QStringLiteral("\n  "))));
}

} // namespace

BundleSelection selectAll(const Catalog &catalog)
{
    BundleSelection s;
    s.mirrorRoot = catalog.root;
    s.mode = QStringLiteral("all");
    for (const Provider &p : catalog.providers)
        for (const ProviderVersion &v : p.versions)
            for (const Archive &a : v.archives)
                if (installable(a))
                    s.items.append(itemFor(catalog.root, p, v, a));
    sortItems(s.items);
    return s;
}

BundleSelection selectArchives(const Catalog &catalog, const QList<ArchiveKey> &keys)
{
    BundleSelection s;
    s.mirrorRoot = catalog.root;
    s.mode = QStringLiteral("selection");
    for (const ArchiveKey &key : keys) {
        bool found = false;
        for (const Provider &p : catalog.providers) {
            if (p.address != key.provider)
                continue;
            for (const ProviderVersion &v : p.versions) {
                if (v.version != key.version)
                    continue;
                for (const Archive &a : v.archives) {
                    if (a.platform == key.platform && installable(a)) {
                        s.items.append(itemFor(catalog.root, p, v, a));
                        found = true;
                    }
                }
            }
        }
        if (!found)
            s.missing.append(
                BundleShortfall{key.provider, key.version, key.platform, QString(), QStringLiteral("not present in the mirror")});
    }
    sortItems(s.items);
    return s;
}

Result<BundleSelection> selectForLockFiles(const Catalog &catalog, const QStringList &lockFiles, const QList<Platform> &platforms)
{
    if (platforms.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("give at least one platform (os_arch) for the lock files"));
    if (lockFiles.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("give at least one lock file"));
    BundleSelection s;
    s.mirrorRoot = catalog.root;
    s.mode = QStringLiteral("lock-files");
    s.platforms = platforms;
    QSet<QString> seenShortfall;
    for (const QString &file : lockFiles) {
        const QString absolute = QFileInfo(file).absoluteFilePath();
        s.lockFiles.append(absolute);
        Result<LockParseResult> read = readLockFile(absolute);
        if (!read.ok())
            return makeError(read.error().code, QStringLiteral("%1: %2").arg(file, read.error().message));
        if (read->hasErrors())
            return makeError(ErrorCode::InvalidArgument, read->errors().first().toString(file));
        for (const ProviderLock &lock : read->document.providers) {
            if (lock.address.isBuiltIn())
                continue;
            QList<HashString> &expected = s.expected[ProviderVersionKey{lock.address, lock.version}];
            for (const HashString &h : lock.hashes)
                if (!expected.contains(h))
                    expected.append(h);
            const Provider *provider = nullptr;
            for (const Provider &p : catalog.providers)
                if (p.address == lock.address)
                    provider = &p;
            const ProviderVersion *version = nullptr;
            QStringList available;
            if (provider) {
                for (const ProviderVersion &v : provider->versions) {
                    available.append(v.version.toString());
                    if (v.version == lock.version)
                        version = &v;
                }
            }
            for (const Platform &platform : platforms) {
                const Archive *archive = nullptr;
                bool declaredOnly = false;
                if (version) {
                    for (const Archive &a : version->archives) {
                        if (a.platform != platform)
                            continue;
                        if (installable(a))
                            archive = &a;
                        else
                            declaredOnly = true;
                    }
                }
                if (archive) {
                    s.items.append(itemFor(catalog.root, *provider, *version, *archive));
                    continue;
                }
                const QString key = lock.address.toString() + u' ' + lock.version.toString() + u' ' + platform.toString();
                if (seenShortfall.contains(key))
                    continue;
                seenShortfall.insert(key);
                QString reason;
                if (!provider)
                    reason = QStringLiteral("the mirror has no %1").arg(lock.address.toString());
                else if (!version)
                    reason = QStringLiteral("the mirror has no version %1 (it has %2)")
                                 .arg(lock.version.toString(),
                                      available.isEmpty() ? QStringLiteral("none") : available.join(QStringLiteral(", ")));
                else if (declaredOnly)
                    reason = QStringLiteral("an index lists %1 but the archive is absent").arg(platform.toString());
                else
                    reason = QStringLiteral("no archive for %1").arg(platform.toString());
                s.missing.append(BundleShortfall{lock.address, lock.version, platform, absolute, reason});
            }
        }
    }
    sortItems(s.items);
    return s;
}

namespace {

/// The selection's archives as a Catalog of their own (for verifyCatalog()).
Catalog selectionCatalog(const BundleSelection &selection)
{
    Catalog sub;
    sub.root = selection.mirrorRoot;
    QMap<ProviderAddress, QMap<Version, ProviderVersion>> grouped;
    for (const BundleItem &item : selection.items) {
        ProviderVersion &pv = grouped[item.provider][item.version];
        pv.version = item.version;
        pv.archives.append(item.archive);
    }
    for (auto p = grouped.cbegin(); p != grouped.cend(); ++p) {
        Provider provider;
        provider.address = p.key();
        for (const ProviderVersion &pv : p.value())
            provider.versions.append(pv);
        sub.providers.append(provider);
    }
    return sub;
}

/// Phase 1: hash every chosen archive (from the cache when unchanged) and check it against its
/// source index and the lock files; any archive that would not install refuses the bundle.
Result<VerifyReport> verifySelection(const BundleSelection &selection, const BundleCreateOptions &options, const BundleProgress &progress)
{
    VerifyOptions verifyOptions;
    verifyOptions.jobs = options.jobs;
    verifyOptions.useCache = options.useCache;
    verifyOptions.cacheFile = options.cacheFile;
    verifyOptions.expected = selection.expected;
    Result<VerifyReport> verified = bundle_detail::verifyForBundle(selectionCatalog(selection), verifyOptions, progress);
    if (!verified.ok())
        return verified.error();
    QList<ArchiveResult> refused;
    for (const ArchiveResult &r : verified->results)
        if (r.detail.verdict != Verdict::Verified && r.detail.verdict != Verdict::Unverified)
            refused.append(r);
    if (!refused.isEmpty())
        return describeRefusals(refused);
    return verified;
}

/// Phase 2: every entry of the bundle, sorted (parents before their children), and its manifest.
class BundlePlanner
{
public:
    BundlePlanner(const BundleSelection &selection, const BundleCreateOptions &options, const QHash<QString, const ArchiveResult *> &byPath)
        : m_selection(selection),
          m_options(options),
          m_byPath(byPath)
    {}

    Result<void> plan(const QDateTime &created);

    QList<Planned> entries;
    BundleManifest manifest;
    qint64 totalBytes = 0; ///< bytes copied from files (progress)

private:
    Result<void> planArchive(int i);
    void planIndexes();
    void planDirectories();

    const BundleSelection &m_selection;
    const BundleCreateOptions &m_options;
    const QHash<QString, const ArchiveResult *> &m_byPath;
    QMap<QString, QList<int>> m_byProviderDir; ///< HOST/NS/TYPE -> items
};

Result<void> BundlePlanner::plan(const QDateTime &created)
{
    manifest.generator = provenderGenerator();
    manifest.created = created;
    manifest.sourceMirror = m_selection.mirrorRoot;
    manifest.selection = m_selection.mode;
    manifest.lockFiles = m_selection.lockFiles;
    for (const Platform &p : m_selection.platforms)
        manifest.platforms.append(p.toString());
    manifest.missing = m_selection.missing;
    for (int i = 0; i < m_selection.items.size(); ++i)
        if (Result<void> planned = planArchive(i); !planned.ok())
            return planned.error();
    planIndexes();
    // The proof a pulled mirror keeps of each release (SHA256SUMS, its signature, the keys),
    // carried under the same names: `bundle verify` and `bundle import` check it again.
    if (Result<void> carried = planProvenance(m_selection, entries); !carried.ok())
        return carried.error();
    planDirectories();
    return {};
}

/// One archive: its file (packed) or every file of its package (unpacked), and its manifest line.
Result<void> BundlePlanner::planArchive(int i)
{
    const BundleItem &item = m_selection.items.at(i);
    const ArchiveResult *r = m_byPath.value(item.archive.path);
    if (!r || !r->hashes)
        return makeError(ErrorCode::Internal, QStringLiteral("%1 was not hashed").arg(item.archive.path));
    const QStringList parts = item.bundlePath.split(QLatin1Char('/'));
    if (parts.size() < 4 || item.bundlePath.startsWith(QLatin1StringView("../")))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("%1 is not inside the mirror %2").arg(item.archive.path, m_selection.mirrorRoot));
    m_byProviderDir[parts.mid(0, 3).join(QLatin1Char('/'))].append(i);
    BundleManifestArchive m;
    m.provider = item.provider.toString();
    m.version = item.version.toString();
    m.platform = item.archive.platform.toString();
    m.layout = toString(item.archive.layout);
    m.path = item.bundlePath;
    m.size = item.archive.size;
    if (item.archive.layout == ArchiveLayout::Packed) {
        m.h1 = (r->hashes->h1Zip.isNull() ? r->hashes->h1Extracted : r->hashes->h1Zip).toString();
        m.zh = r->hashes->zh.toString();
        entries.append(Planned{Planned::Kind::File, item.bundlePath, item.archive.path, {}, item.archive.size, 0644, i, false});
        totalBytes += item.archive.size;
    } else {
        m.h1 = r->hashes->h1Extracted.toString();
        QList<QPair<QString, QFileInfo>> files;
        if (Result<void> listed = listPackage(item.archive.path, QString(), files); !listed.ok())
            return listed.error();
        for (const auto &[rel, info] : std::as_const(files)) {
            const int mode = (info.permissions() & QFileDevice::ExeOwner) ? 0755 : 0644;
            entries.append(
                Planned{Planned::Kind::File, item.bundlePath + QLatin1Char('/') + rel, info.filePath(), {}, info.size(), mode, i, true});
            totalBytes += info.size();
        }
    }
    manifest.archives.append(m);
    return {};
}

/// Indexes, as `terraform providers mirror` writes them (only packed archives are listed).
void BundlePlanner::planIndexes()
{
    for (auto it = m_byProviderDir.cbegin(); it != m_byProviderDir.cend(); ++it) {
        QMap<QString, QList<IndexArchiveRecord>> versions;
        for (int i : it.value()) {
            const BundleItem &item = m_selection.items.at(i);
            if (item.archive.layout != ArchiveLayout::Packed)
                continue;
            const ArchiveResult *r = m_byPath.value(item.archive.path);
            IndexArchiveRecord record;
            record.platform = item.archive.platform.toString();
            record.url = item.archive.fileName;
            if (!r->hashes->h1Zip.isNull())
                record.hashes.append(r->hashes->h1Zip.toString());
            if (m_options.withZh || r->hashes->h1Zip.isNull())
                record.hashes.append(r->hashes->zh.toString());
            versions[item.version.toString()].append(record);
        }
        const QString &dir = it.key();
        entries.append(
            Planned{Planned::Kind::Memory, dir + QStringLiteral("/index.json"), {}, renderIndexJson(versions.keys()), 0, 0644, -1, true});
        for (auto v = versions.cbegin(); v != versions.cend(); ++v)
            entries.append(Planned{Planned::Kind::Memory,
                                   dir + QLatin1Char('/') + v.key() + QStringLiteral(".json"),
                                   {},
                                   renderVersionJson(v.value()),
                                   0,
                                   0644,
                                   -1,
                                   true});
    }
}

/// Directories, then sort: every parent sorts before its children ("a/b/" < "a/b/c").
void BundlePlanner::planDirectories()
{
    QSet<QString> dirs;
    for (const Planned &p : std::as_const(entries)) {
        for (qsizetype slash = p.path.indexOf(QLatin1Char('/')); slash >= 0; slash = p.path.indexOf(QLatin1Char('/'), slash + 1))
            dirs.insert(p.path.left(slash));
    }
    for (const QString &d : std::as_const(dirs))
        entries.append(Planned{Planned::Kind::Directory, d, {}, {}, 0, 0755, -1, true});
    auto sortKey = [](const Planned &p) {
        return p.kind == Planned::Kind::Directory ? (p.path + QLatin1Char('/')).toUtf8() : p.path.toUtf8();
    };
    std::sort(entries.begin(), entries.end(), [&](const Planned &a, const Planned &b) { return sortKey(a) < sortKey(b); });
}

/// Phase 3: the plan written through libarchive, every copied file hashed again while it streams
/// (a file that changed since phase 1 fails the bundle), then the manifest and SHA256SUMS.
class BundleCopier
{
public:
    BundleCopier(ArchiveOutput &writer, const BundleSelection &selection, const QHash<QString, const ArchiveResult *> &byPath,
                 BundleCreateReport &report, const BundleProgress &progress, qint64 totalBytes)
        : m_writer(writer),
          m_selection(selection),
          m_byPath(byPath),
          m_report(report),
          m_progress(progress),
          m_totalBytes(totalBytes),
          m_buffer(new char[kCopyChunk])
    {}

    Result<void> write(const QList<Planned> &plan, const BundleManifest &manifest);

private:
    Result<void> writeBytes(const QString &path, const QByteArray &bytes, int mode);
    Result<void> copyFile(const Planned &p);
    Result<void> checkPackages() const;

    ArchiveOutput &m_writer;
    const BundleSelection &m_selection;
    const QHash<QString, const ArchiveResult *> &m_byPath;
    BundleCreateReport &m_report;
    const BundleProgress &m_progress;
    const qint64 m_totalBytes;
    const std::unique_ptr<char[]> m_buffer;
    QMap<QString, QByteArray> m_sums;
    QHash<int, QList<DirhashEntry>> m_packageLines; ///< unpacked packages as copied
    qint64 m_done = 0;
    qint64 m_nextReport = 0;
};

Result<void> BundleCopier::write(const QList<Planned> &plan, const BundleManifest &manifest)
{
    for (const Planned &p : plan) {
        Result<void> r;
        if (p.kind == Planned::Kind::Directory)
            r = m_writer.addDirectory(p.path);
        else if (p.kind == Planned::Kind::Memory)
            r = writeBytes(p.path, p.content, p.mode);
        else
            r = copyFile(p);
        if (!r.ok())
            return r.error();
    }
    if (Result<void> r = checkPackages(); !r.ok())
        return r.error();
    if (Result<void> r = writeBytes(kBundleManifestName, renderBundleManifest(manifest), 0644); !r.ok())
        return r.error();
    const QByteArray sumsBytes = renderSha256Sums(m_sums);
    if (Result<void> r = writeBytes(kBundleSumsName, sumsBytes, 0644); !r.ok())
        return r.error();
    return m_writer.close();
}

/// A small file from memory (an index, the manifest, SHA256SUMS: listed in SHA256SUMS except itself).
Result<void> BundleCopier::writeBytes(const QString &path, const QByteArray &bytes, int mode)
{
    if (Result<void> r = m_writer.beginFile(path, bytes.size(), mode, true); !r.ok())
        return r.error();
    if (Result<void> r = m_writer.write(bytes.constData(), bytes.size()); !r.ok())
        return r.error();
    if (Result<void> r = m_writer.endFile(); !r.ok())
        return r.error();
    if (path != kBundleSumsName)
        m_sums.insert(path, Sha256::hash(bytes));
    m_report.files.append(path);
    return {};
}

Result<void> BundleCopier::copyFile(const Planned &p)
{
    QFile in(p.source);
    if (!in.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot open: %2").arg(p.source, in.errorString()));
    if (in.size() != p.size)
        return makeError(ErrorCode::Io, QStringLiteral("%1 changed size while the bundle was written").arg(p.source));
    if (Result<void> r = m_writer.beginFile(p.path, p.size, p.mode, p.compress); !r.ok())
        return r.error();
    Sha256 sha;
    qint64 copied = 0;
    for (;;) {
        const qint64 n = in.read(m_buffer.get(), kCopyChunk);
        if (n < 0)
            return makeError(ErrorCode::Io, QStringLiteral("%1: read error: %2").arg(p.source, in.errorString()));
        if (n == 0)
            break;
        copied += n;
        if (copied > p.size)
            return makeError(ErrorCode::Io, QStringLiteral("%1 grew while the bundle was written").arg(p.source));
        sha.addData(m_buffer.get(), std::size_t(n));
        if (Result<void> r = m_writer.write(m_buffer.get(), n); !r.ok())
            return r.error();
        m_done += n;
        if (m_progress && m_done >= m_nextReport) {
            m_nextReport = m_done + kCopyChunk * 4;
            if (!m_progress(BundleStage::Writing, m_done, m_totalBytes))
                return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
        }
    }
    if (copied != p.size)
        return makeError(ErrorCode::Io, QStringLiteral("%1 shrank while the bundle was written").arg(p.source));
    if (Result<void> r = m_writer.endFile(); !r.ok())
        return r.error();
    const QByteArray digest = sha.result();
    m_sums.insert(p.path, digest);
    m_report.files.append(p.path);
    const BundleItem &item = m_selection.items.at(p.item);
    const ArchiveResult *hashed = m_byPath.value(item.archive.path);
    if (item.archive.layout == ArchiveLayout::Packed) {
        if (HashString::zh(QString::fromLatin1(digest.toHex())) != hashed->hashes->zh)
            return makeError(ErrorCode::Io, QStringLiteral("%1 changed while the bundle was written").arg(p.source));
    } else {
        m_packageLines[p.item].append(DirhashEntry{p.path.mid(item.bundlePath.size() + 1).toUtf8(), digest});
    }
    m_report.contentBytes += copied;
    return {};
}

/// Every unpacked package as copied must still have the h1: it was verified with.
Result<void> BundleCopier::checkPackages() const
{
    for (auto it = m_packageLines.cbegin(); it != m_packageLines.cend(); ++it) {
        const BundleItem &item = m_selection.items.at(it.key());
        Result<HashString> h1 = dirhash1(it.value());
        if (!h1.ok() || h1.value() != m_byPath.value(item.archive.path)->hashes->h1Extracted)
            return makeError(ErrorCode::Io, QStringLiteral("%1 changed while the bundle was written").arg(item.archive.path));
    }
    return {};
}

} // namespace

Result<BundleCreateReport> createBundle(const QString &outPath, const BundleSelection &selection, const BundleCreateOptions &options,
                                        const BundleProgress &progress)
{
    if (!isWritableBundleFormat(options.format))
        return makeError(ErrorCode::Unsupported,
                         QStringLiteral("bundles are written as tar.gz, tar.zst or zip, not %1").arg(toString(options.format)));
    if (selection.items.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("nothing to bundle: the selection is empty"));

    const Result<VerifyReport> verified = verifySelection(selection, options, progress);
    if (!verified.ok())
        return verified.error();
    QHash<QString, const ArchiveResult *> byPath;
    for (const ArchiveResult &r : verified->results)
        byPath.insert(r.path, &r);

    const QDateTime created = (options.timestamp ? *options.timestamp : QDateTime::currentDateTimeUtc()).toUTC();
    BundlePlanner planner(selection, options, byPath);
    if (Result<void> planned = planner.plan(created); !planned.ok())
        return planned.error();

    QSaveFile out(outPath);
    if (!out.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot create: %2").arg(outPath, out.errorString()));
    BundleCreateReport report;
    report.format = options.format;
    report.sourceResults = verified->results;
    report.missing = selection.missing;
    {
        ArchiveOutput writer(out);
        Result<void> written = writer.open(options.format, options.compressionLevel, created.toSecsSinceEpoch());
        if (written.ok())
            written =
                BundleCopier(writer, selection, byPath, report, progress, planner.totalBytes).write(planner.entries, planner.manifest);
        if (!written.ok()) {
            out.cancelWriting();
            return written.error();
        }
    }
    // flush() first: Qt 6.4's commit() reports success after a failed final flush (a full disk),
    // which would rename a truncated bundle into place (LockWriter's saveBytesAtomically has the same).
    if (!out.flush() || !out.commit())
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot save: %2").arg(outPath, out.errorString()));
    if (progress)
        progress(BundleStage::Writing, planner.totalBytes, planner.totalBytes);

    report.path = QFileInfo(outPath).absoluteFilePath();
    report.fileSize = QFileInfo(outPath).size();
    report.manifest = planner.manifest;
    qCDebug(lcMirror) << "wrote bundle" << report.path << report.files.size() << "files" << report.fileSize << "bytes";
    return report;
}

} // namespace provender
