#include "model/mirror/IndexWriter.h"

#include "model/verify/HashEngine.h"

#include "model/core/Logging.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/MirrorIndex.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QMap>
#include <QSemaphore>
#include <QSet>
#include <QTemporaryFile>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace provender {

// ---------------------------------------------------------------------------------------------
// Rendering: Go's json.MarshalIndent(v, "", "  ") of map[string]interface{} values.

QByteArray goJsonQuote(const QString &text)
{
    static const char hex[] = "0123456789abcdef";
    const QByteArray utf8 = text.toUtf8();
    QByteArray out;
    out.reserve(utf8.size() + 2);
    out += '"';
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto b = static_cast<unsigned char>(utf8.at(i));
        if (b < 0x80) {
            switch (b) {
            case '"': out += "\\\""; continue;
            case '\\': out += "\\\\"; continue;
            case '\b': out += "\\b"; continue;
            case '\f': out += "\\f"; continue;
            case '\n': out += "\\n"; continue;
            case '\r': out += "\\r"; continue;
            case '\t': out += "\\t"; continue;
            default: break;
            }
            if (b < 0x20 || b == '<' || b == '>' || b == '&') {
                out += "\\u00";
                out += hex[b >> 4];
                out += hex[b & 0xF];
            } else {
                out += char(b);
            }
            continue;
        }
        // U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: E2 80 A8 / E2 80 A9.
        if (b == 0xE2 && i + 2 < utf8.size() && static_cast<unsigned char>(utf8.at(i + 1)) == 0x80
            && (static_cast<unsigned char>(utf8.at(i + 2)) & 0xFE) == 0xA8) {
            out += static_cast<unsigned char>(utf8.at(i + 2)) == 0xA8 ? "\\u2028" : "\\u2029";
            i += 2;
            continue;
        }
        out += char(b);
    }
    out += '"';
    return out;
}

namespace {

bool utf8Less(const QString &a, const QString &b)
{
    return a.toUtf8() < b.toUtf8();
}

} // namespace

QByteArray renderIndexJson(const QStringList &versions)
{
    QStringList keys = versions;
    std::sort(keys.begin(), keys.end(), utf8Less);
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    QByteArray out = "{\n  \"versions\": ";
    if (keys.isEmpty()) {
        out += "{}";
    } else {
        out += "{\n";
        for (qsizetype i = 0; i < keys.size(); ++i) {
            out += "    " + goJsonQuote(keys.at(i)) + ": {}";
            out += i + 1 < keys.size() ? ",\n" : "\n";
        }
        out += "  }";
    }
    out += "\n}";
    return out;
}

QByteArray renderVersionJson(const QList<IndexArchiveRecord> &archives)
{
    QMap<QByteArray, const IndexArchiveRecord *> byKey; // QByteArray orders byte-wise
    for (const IndexArchiveRecord &a : archives)
        byKey.insert(a.platform.toUtf8(), &a);
    QByteArray out = "{\n  \"archives\": ";
    if (byKey.isEmpty()) {
        out += "{}";
    } else {
        out += "{\n";
        qsizetype n = 0;
        for (auto it = byKey.cbegin(); it != byKey.cend(); ++it, ++n) {
            const IndexArchiveRecord &a = *it.value();
            out += "    " + goJsonQuote(a.platform) + ": {\n";
            out += "      \"hashes\": ";
            if (a.hashes.isEmpty()) {
                out += "[]";
            } else {
                out += "[\n";
                for (qsizetype h = 0; h < a.hashes.size(); ++h) {
                    out += "        " + goJsonQuote(a.hashes.at(h));
                    out += h + 1 < a.hashes.size() ? ",\n" : "\n";
                }
                out += "      ]";
            }
            out += ",\n      \"url\": " + goJsonQuote(a.url) + "\n    }";
            out += n + 1 < byKey.size() ? ",\n" : "\n";
        }
        out += "  }";
    }
    out += "\n}";
    return out;
}

QString toString(IndexEntryChange::Kind kind)
{
    switch (kind) {
    case IndexEntryChange::Kind::Added: return QStringLiteral("added");
    case IndexEntryChange::Kind::Removed: return QStringLiteral("removed");
    case IndexEntryChange::Kind::Changed: return QStringLiteral("changed");
    }
    return {};
}

QString toString(IndexFileResult::Status status)
{
    switch (status) {
    case IndexFileResult::Status::Created: return QStringLiteral("created");
    case IndexFileResult::Status::Updated: return QStringLiteral("updated");
    case IndexFileResult::Status::Unchanged: return QStringLiteral("unchanged");
    }
    return {};
}

int IndexExportReport::writtenCount() const
{
    return int(std::count_if(files.cbegin(), files.cend(),
                             [](const IndexFileResult &f) { return f.status != IndexFileResult::Status::Unchanged; }));
}

// ---------------------------------------------------------------------------------------------
// Export

namespace {

struct HashJob
{
    QString path;
    qint64 size = 0;
};

QString describe(const IndexArchiveRecord &r)
{
    return QStringLiteral("url=%1 hashes=[%2]").arg(r.url, r.hashes.join(QLatin1Char(',')));
}

/// What a provider's index documents will hold.
struct ProviderPlan
{
    QString directory;
    QString label;                                     ///< provider address for messages
    QMap<QString, QList<IndexArchiveRecord>> versions; ///< canonical version -> archives
};

void diffIndex(const QString &path, const QByteArray &oldBytes, const QStringList &newVersions, QList<IndexEntryChange> &changes)
{
    QSet<QString> before;
    if (!oldBytes.isNull()) {
        Result<MirrorIndexDocument> old = parseIndexJson(oldBytes, path);
        if (!old) {
            changes.append({IndexEntryChange::Kind::Changed,
                            path,
                            {},
                            {},
                            QStringLiteral("malformed: ") + old.error().toString(),
                            QStringLiteral("rewritten")});
        } else {
            for (const Version &v : std::as_const(old->versions))
                before.insert(v.toString());
        }
    }
    const QSet<QString> after(newVersions.cbegin(), newVersions.cend());
    QStringList added, removed;
    for (const QString &v : after)
        if (!before.contains(v))
            added.append(v);
    for (const QString &v : std::as_const(before))
        if (!after.contains(v))
            removed.append(v);
    std::sort(added.begin(), added.end(), utf8Less);
    std::sort(removed.begin(), removed.end(), utf8Less);
    for (const QString &v : std::as_const(added))
        changes.append({IndexEntryChange::Kind::Added, path, v, {}, {}, {}});
    for (const QString &v : std::as_const(removed))
        changes.append({IndexEntryChange::Kind::Removed, path, v, {}, {}, {}});
}

void diffVersion(const QString &path, const QString &version, const QByteArray &oldBytes, const QList<IndexArchiveRecord> &records,
                 QList<IndexEntryChange> &changes)
{
    QMap<QString, IndexArchiveRecord> before;
    if (!oldBytes.isNull()) {
        Result<MirrorVersionDocument> old = parseVersionJson(oldBytes, path);
        if (!old) {
            changes.append({IndexEntryChange::Kind::Changed,
                            path,
                            version,
                            {},
                            QStringLiteral("malformed: ") + old.error().toString(),
                            QStringLiteral("rewritten")});
        } else {
            for (const MirrorArchiveEntry &e : std::as_const(old->archives)) {
                QStringList hashes;
                for (const HashString &h : e.hashes)
                    hashes.append(h.toString());
                hashes += e.invalidHashes;
                before.insert(e.key, IndexArchiveRecord{e.key, e.url, hashes});
            }
        }
    }
    QMap<QString, IndexArchiveRecord> after;
    for (const IndexArchiveRecord &r : records)
        after.insert(r.platform, r);
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const auto old = before.constFind(it.key());
        if (old == before.cend())
            changes.append({IndexEntryChange::Kind::Added, path, version, it.key(), {}, describe(it.value())});
        else if (old->url != it->url && old->hashes != it->hashes)
            changes.append({IndexEntryChange::Kind::Changed, path, version, it.key(), describe(*old), describe(it.value())});
        else if (old->url != it->url)
            changes.append({IndexEntryChange::Kind::Changed, path, version, it.key(), QStringLiteral("url=") + old->url,
                            QStringLiteral("url=") + it->url});
        else if (old->hashes != it->hashes)
            changes.append({IndexEntryChange::Kind::Changed, path, version, it.key(),
                            QStringLiteral("hashes=[%1]").arg(old->hashes.join(QLatin1Char(','))),
                            QStringLiteral("hashes=[%1]").arg(it->hashes.join(QLatin1Char(',')))});
    }
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        if (!after.contains(it.key()))
            changes.append({IndexEntryChange::Kind::Removed, path, version, it.key(), describe(it.value()), {}});
}

QByteArray readExisting(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QByteArray(); // null: absent or unreadable
    QByteArray bytes = f.readAll();
    if (bytes.isNull())
        bytes = QByteArray(""); // present but empty: not null
    return bytes;
}

struct PendingWrite
{
    QString target;
    QByteArray bytes;
    std::unique_ptr<QTemporaryFile> staged;
};

bool syncFile(QFile &f)
{
    return f.flush() && ::fsync(f.handle()) == 0;
}

void syncDirectory(const QString &dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

/// Whether the scan walked `directory` itself for `provider` (a real directory under the root,
/// never a symlink out of it, spelled as clients spell it).
bool walkedDirectory(const Provider &provider, const QString &directory)
{
    for (const ProviderVersion &pv : provider.versions)
        for (const QList<Archive> *list : {&pv.archives, &pv.duplicates})
            for (const Archive &a : *list) {
                if (!a.present || a.indexedOnly)
                    continue;
                const QString parent =
                    a.layout == ArchiveLayout::Packed ? QFileInfo(a.path).path() : QFileInfo(QFileInfo(a.path).path()).path();
                if (parent == directory)
                    return true;
            }
    return false;
}

/// One hashed archive: its index record (h1: of the zip, and zh: with `withZh`) under `version`, or
/// why it is left out into the report.
void recordHashed(const HashJob &job, const Result<PackageHashes> &result, bool withZh, IndexExportReport &report,
                  QMap<QString, QList<IndexArchiveRecord>> &versions, const QString &version, const QString &platform)
{
    if (!result.ok()) {
        report.hashFailures.append(
            {job.path, QStringLiteral("cannot determine its hash, left out of the index: ") + result.error().toString()});
        return;
    }
    const PackageHashes &h = result.value();
    if (h.h1Zip.isNull()) {
        // Go's HashZip fails on this zip (so does `providers mirror`), although it can be hashed
        // as an extracted folder.
        report.hashFailures.append({job.path,
                                    QStringLiteral("cannot determine its hash, left out of the index: ")
                                        + (h.h1ZipError.isEmpty() ? QStringLiteral("no zip-level h1:") : h.h1ZipError)});
        return;
    }
    QStringList hashes{h.h1Zip.toString()};
    if (withZh)
        hashes.append(h.zh.toString());
    ++report.archivesHashed;
    report.bytesHashed += job.size;
    versions[version].append(IndexArchiveRecord{platform, QFileInfo(job.path).fileName(), hashes}); // the version entry only now
}

/// index.json and every <version>.json of each plan: what changes (into `report`), and the
/// files whose bytes differ from what is on disk.
std::vector<PendingWrite> plannedWrites(const QList<ProviderPlan> &plans, IndexExportReport &report)
{
    std::vector<PendingWrite> writes;
    for (const ProviderPlan &plan : std::as_const(plans)) {
        ++report.providersIndexed;
        const QStringList versions = plan.versions.keys();
        const QString indexPath = plan.directory + QStringLiteral("/index.json");
        const QByteArray indexBytes = renderIndexJson(versions);
        const QByteArray oldIndex = readExisting(indexPath);
        diffIndex(indexPath, oldIndex, versions, report.changes);
        IndexFileResult::Status status = oldIndex.isNull() ? IndexFileResult::Status::Created
            : oldIndex == indexBytes                       ? IndexFileResult::Status::Unchanged
                                                           : IndexFileResult::Status::Updated;
        report.files.append({indexPath, status});
        if (status != IndexFileResult::Status::Unchanged)
            writes.push_back({indexPath, indexBytes, nullptr});

        for (auto it = plan.versions.cbegin(); it != plan.versions.cend(); ++it) {
            const QString path = plan.directory + QLatin1Char('/') + it.key() + QStringLiteral(".json");
            const QByteArray bytes = renderVersionJson(it.value());
            const QByteArray old = readExisting(path);
            diffVersion(path, it.key(), old, it.value(), report.changes);
            status = old.isNull() ? IndexFileResult::Status::Created
                : old == bytes    ? IndexFileResult::Status::Unchanged
                                  : IndexFileResult::Status::Updated;
            report.files.append({path, status});
            if (status != IndexFileResult::Status::Unchanged)
                writes.push_back({path, bytes, nullptr});
        }

        // <version>.json files of versions no longer indexed stay (like `providers mirror`), listed.
        const QStringList jsonFiles = QDir(plan.directory).entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Hidden, QDir::Name);
        for (const QString &name : jsonFiles) {
            const QString stem = name.chopped(5);
            if (name == QLatin1StringView("index.json") || plan.versions.contains(stem))
                continue;
            Result<Version> v = Version::parse(stem);
            if (v && v->toString() == stem)
                report.staleVersionFiles.append(plan.directory + QLatin1Char('/') + name);
        }
    }
    return writes;
}

/// Stages every file beside its target, then renames them all into place (nothing changed when
/// staging fails).
Result<void> writeAll(std::vector<PendingWrite> &writes, const QString &root)
{
    for (PendingWrite &w : writes) {
        Q_ASSERT(w.target.startsWith(root + QLatin1Char('/')));
        const QFileInfo target(w.target);
        auto tmp = std::make_unique<QTemporaryFile>(target.path() + QStringLiteral("/.") + target.fileName()
                                                    + QStringLiteral(".provender-XXXXXX"));
        QString error;
        if (!tmp->open())
            error = tmp->errorString();
        else if (tmp->write(w.bytes) != w.bytes.size() || !syncFile(*tmp))
            error = tmp->errorString();
        else if (!tmp->setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther))
            error = tmp->errorString();
        if (!error.isEmpty()) {
            // Every staged file is removed by its QTemporaryFile; nothing has been renamed yet.
            return makeError(ErrorCode::Io, QStringLiteral("cannot write %1: %2; nothing was changed").arg(w.target, error));
        }
        tmp->close();
        w.staged = std::move(tmp);
    }
    QStringList renamed;
    QSet<QString> dirs;
    for (PendingWrite &w : writes) {
        const QByteArray from = QFile::encodeName(w.staged->fileName());
        const QByteArray to = QFile::encodeName(w.target);
        if (::rename(from.constData(), to.constData()) != 0) {
            const QString why = QString::fromLocal8Bit(std::strerror(errno));
            return makeError(ErrorCode::Io,
                             QStringLiteral("cannot move the new %1 into place: %2 (%3 of %4 files were already replaced)")
                                 .arg(w.target, why)
                                 .arg(renamed.size())
                                 .arg(writes.size()));
        }
        w.staged->setAutoRemove(false); // it is the target now
        renamed.append(w.target);
        dirs.insert(QFileInfo(w.target).path());
    }
    for (const QString &d : std::as_const(dirs))
        syncDirectory(d);
    qCDebug(lcMirror) << "index export wrote" << renamed.size() << "files under" << root;
    return {};
}

} // namespace

Result<IndexExportReport> exportIndexes(const QString &mirrorRoot, const IndexExportOptions &options, const HashProgress &progress)
{
    Result<Catalog> scanned = scanFileSystemMirror(mirrorRoot);
    if (!scanned)
        return scanned.error();
    const Catalog &catalog = scanned.value();

    IndexExportReport report;
    report.root = catalog.root;
    report.dryRun = options.dryRun;

    // 1. Which archive each provider/version/platform entry points at.
    struct Chosen
    {
        qsizetype plan;
        QString version;
        QString platform;
        qsizetype job;
    };
    QList<ProviderPlan> plans;
    QList<Chosen> chosen;
    std::vector<HashJob> jobs;
    for (const Provider &provider : catalog.providers) {
        // Only providers in which the layout scan found something are (re)indexed, like
        // `providers mirror`, whose index loop runs over what SearchLocalDirectory returned.
        bool anyScanned = false;
        for (const ProviderVersion &pv : provider.versions)
            for (const Archive &a : pv.archives)
                anyScanned = anyScanned || (a.present && !a.indexedOnly);
        if (!anyScanned)
            continue;

        const QString directory = catalog.root + QLatin1Char('/') + provider.address.displayHostname() + QLatin1Char('/')
            + provider.address.ns() + QLatin1Char('/') + provider.address.type();
        // The directory the indexes go to must be one the scan walked (so a real directory under
        // the root, never a symlink out of it). `providers mirror` writes to the canonical
        // directory too, and fails when only a differently spelled one (e.g. `AwesomeCorp`) exists.
        if (!walkedDirectory(provider, directory)) {
            report.skipped.append(
                {provider.directory,
                 QStringLiteral("%1 is not indexed: its directory is not spelled %2 (the canonical form clients use); rename it")
                     .arg(provider.address.toString(), directory.mid(catalog.root.size() + 1))});
            continue;
        }
        const QFileInfo indexInfo(directory + QStringLiteral("/index.json"));
        if (indexInfo.isDir()) {
            report.skipped.append(
                {indexInfo.filePath(), QStringLiteral("index.json is a directory; %1 is not indexed").arg(provider.address.toString())});
            continue;
        }

        const qsizetype planIndex = plans.size();
        plans.append(ProviderPlan{directory, provider.address.toString(), {}});
        for (const ProviderVersion &pv : provider.versions) {
            // `providers mirror` fills a map in walk order, so of several packed copies of one
            // version/platform the LAST one is indexed (installers use the first; see MIRRORS.md).
            QMap<Platform, const Archive *> pick;
            for (const QList<Archive> *list : {&pv.archives, &pv.duplicates}) {
                for (const Archive &a : *list) {
                    if (!a.present || a.indexedOnly || a.layout != ArchiveLayout::Packed)
                        continue;
                    if (QFileInfo(a.path).path() != directory) {
                        report.skipped.append(
                            {a.path,
                             QStringLiteral("not indexed: it is not in %1, so a relative url to it would not resolve").arg(directory)});
                        continue;
                    }
                    pick.insert(a.platform, &a);
                }
            }
            // The archive of `archives` is the first in walk order and `duplicates` follow in walk
            // order, so QMap::insert above leaves the last packed copy.
            for (auto it = pick.cbegin(); it != pick.cend(); ++it) {
                chosen.append({planIndex, pv.version.toString(), it.key().toString(), qsizetype(jobs.size())});
                jobs.push_back(HashJob{it.value()->path, it.value()->size});
            }
        }
    }

    // 2. Hash (the one engine: all cores, the hash cache).
    QList<HashRequest> requests;
    QList<qsizetype> requested; // job index of each request; the others are known already
    for (qsizetype i = 0; i < qsizetype(jobs.size()); ++i)
        if (!options.knownHashes.contains(QDir::cleanPath(QFileInfo(jobs[size_t(i)].path).absoluteFilePath()))) {
            requests.append(HashRequest{jobs[size_t(i)].path, jobs[size_t(i)].size});
            requested.append(i);
        }
    HashRunOptions hashOptions;
    hashOptions.jobs = options.jobs;
    hashOptions.useCache = options.useCache;
    hashOptions.cacheFile = options.cacheFile;
    hashOptions.progress = progress;
    const HashRunReport hashed = requests.isEmpty() ? HashRunReport{} : hashArchives(requests, hashOptions);
    if (hashed.summary.cancelled)
        return makeError(ErrorCode::Cancelled, QStringLiteral("index export cancelled"));
    report.cacheHits = hashed.summary.cacheHits;
    report.cacheWarning = hashed.summary.cacheWarning;
    QList<Result<PackageHashes>> results;
    for (const HashJob &job : jobs)
        results.append(options.knownHashes.value(QDir::cleanPath(QFileInfo(job.path).absoluteFilePath())));
    for (qsizetype r = 0; r < requested.size(); ++r)
        results[requested.at(r)] = hashed.outcomes.at(r).hashes;
    for (const Chosen &c : std::as_const(chosen))
        recordHashed(jobs[size_t(c.job)], results.at(c.job), options.withZh, report, plans[c.plan].versions, c.version, c.platform);

    // 3. Documents, differences, stale files.
    std::vector<PendingWrite> writes = plannedWrites(plans, report);

    if (options.dryRun || writes.empty())
        return report;

    // 4. Stage every file beside its target, then rename them all into place.
    if (Result<void> written = writeAll(writes, catalog.root); !written.ok())
        return written.error();
    return report;
}
} // namespace provender
