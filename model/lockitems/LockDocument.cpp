#include "model/lockitems/LockDocument.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockMerge.h"
#include "model/lockfile/LockWriter.h"
#include "model/registry/ReleaseProvenance.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

/// Swaps the document's text.
class LockTextCommand final : public QUndoCommand
{
public:
    LockTextCommand(LockDocument *document, QByteArray before, QByteArray after, const QString &text, bool typed)
        : QUndoCommand(text),
          m_document(document),
          m_before(std::move(before)),
          m_after(std::move(after)),
          m_typed(typed)
    {}
    void redo() override
    {
        m_document->applyBytes(m_after, m_typed);
        m_typed = false; // a redo after an undo puts the text back into the view
    }
    void undo() override { m_document->applyBytes(m_before, false); }

private:
    LockDocument *m_document;
    QByteArray m_before;
    QByteArray m_after;
    bool m_typed;
};

namespace {

QString describe(const lockedit::MirrorHashNote &n)
{
    return u"%1 %2 %3: %4%5"_s.arg(n.provider.toString(), n.version.toString(), n.platform.toString(), toString(n.kind),
                                   n.message.isEmpty() ? QString() : u" ("_s + n.message + u')');
}

void describeAddHashes(const lockedit::MirrorEditResult &r, LockMirrorOutcome &out)
{
    for (const lockedit::MirrorHashNote &n : r.notes)
        if (n.isProblem())
            out.problems << describe(n);
}

void describeUpgrade(const lockedit::UpgradeResult &r, LockMirrorOutcome &out)
{
    QStringList upgraded;
    for (const lockedit::UpgradeNote &n : r.notes) {
        switch (n.kind) {
        case lockedit::UpgradeNote::Kind::Upgraded:
            upgraded << u"%1 %2 → %3"_s.arg(n.provider.toString(), n.from.toString(), n.to.toString());
            for (const lockedit::MirrorHashNote &h : n.hashNotes)
                if (h.isProblem())
                    out.problems << describe(h);
            break;
        case lockedit::UpgradeNote::Kind::UpToDate: break;
        case lockedit::UpgradeNote::Kind::NotInMirror:
            out.problems << u"%1: the mirror has no version that meets the constraints"_s.arg(n.provider.toString());
            break;
        }
    }
    out.changed = r.changed();
    out.summary = upgraded.isEmpty() ? LockDocument::tr("Every provider is up to date with the mirror.")
                                     : LockDocument::tr("Upgrade %1").arg(upgraded.join(u", "_s));
    out.description = out.summary;
}

/// Runs `op` on the mirror as `request` reads it with every archive prehashed and fills `out`
/// from its result by `describe`. A selected version of a network mirror that cannot be used
/// fails the operation, as it fails lock upgrade.
template<typename Options, typename Op, typename Describe>
void runMirrorEdit(const LockMirrorTask &task, const LockMirrorRequest &request, const Options &options, JobProgress &progress, Op op,
                   Describe describeResult, LockMirrorOutcome &out)
{
    const Result<LockMirror> mirror = readLockMirror(*task.mirror, request, progress, &out.problems);
    out.cancelled = progress.isCancelled();
    if (out.cancelled)
        return;
    if (!mirror) {
        out.error = mirror.error().message;
        return;
    }
    if (const std::optional<QString> unusable = selectedVersionUnusable(*mirror)) {
        out.error = LockDocument::tr("Nothing was changed: %1").arg(*unusable);
        return;
    }
    const auto r = runWithPrehashedArchives(task.document, *mirror, options, progress, op, &out.cancelled);
    if (out.cancelled)
        return;
    if (!r) {
        out.error = r.error().message;
        return;
    }
    out.document = r->document;
    describeResult(*r, out);
}

} // namespace

LockMirrorOutcome LockMirrorTask::run(JobProgress &progress) const
{
    LockMirrorOutcome out;
    out.startBytes = startBytes;
    out.description = description;
    if (kind == Kind::AddHashes)
        runMirrorEdit(*this, lockedVersions(document, addHashes.providers), addHashes, progress, &lockedit::addHashesFromMirror,
                      describeAddHashes, out);
    else
        runMirrorEdit(*this, upgradeVersions(document, upgrade.providers), upgrade, progress, &lockedit::upgradeFromMirror, describeUpgrade,
                      out);
    return out;
}

QString LockTrace::warningLine() const
{
    if (warnings.isEmpty())
        return {};
    const QString first = LockDocument::tr("Hash trace: %1").arg(warnings.first());
    return warnings.size() == 1 ? first : LockDocument::tr("%1 (and %n more warning(s))", nullptr, int(warnings.size() - 1)).arg(first);
}

Result<LockTrace> LockProvenanceTask::run(JobProgress &progress) const
{
    HashRunOptions hashing; // all cores, the hash cache
    hashing.progress = progress.callback();
    hashing.cancel = progress.cancelFlag();
    LockTrace out;
    const Result<LockMirror> read = readLockMirror(*mirror, provenanceVersions(wanted), progress, &out.warnings);
    if (!read) {
        qCWarning(lcLock).noquote() << read.error().message;
        return read.error();
    }
    LockProvenance built = buildLockProvenance(*read, wanted, hashing);
    for (const QString &f : built.index.failures())
        out.warnings << LockDocument::tr("could not hash %1").arg(f);
    out.warnings << built.warnings;
    if (!built.hashing.cacheWarning.isEmpty())
        out.warnings << built.hashing.cacheWarning;
    out.index = std::move(built.index);
    return out;
}

Result<LockMirror> readLockMirror(const LockMirror &mirror, const LockMirrorRequest &request, JobProgress &progress, QStringList *warnings)
{
    const Result<LockMirror> read = lockMirrorFor(mirror, request, warnings, progress.cancelFlag());
    if (!read)
        return makeError(read.error().code,
                         LockDocument::tr("Cannot read the mirror %1: %2")
                             .arg(mirror.network ? redactUrlText(mirror.location) : mirror.location, read.error().message));
    return read;
}

LockDocument::LockDocument(QObject *parent) : QObject(parent), m_undo(new QUndoStack(this)), m_watcher(new QFileSystemWatcher(this))
{
    // An atomic save by another program replaces the file (a new inode): watching the folder
    // too sees that, and checkDisk() adds the new file again.
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &LockDocument::checkDisk);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &LockDocument::checkDisk);
    connect(m_undo, &QUndoStack::indexChanged, this, &LockDocument::fileStateChanged);
    applyBytes(QByteArray(), false);
}

LockDocument::~LockDocument()
{
    m_undo->disconnect(this);
}

// --- the file ----------------------------------------------------------------------------------

Result<void> LockDocument::open(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, tr("Cannot open %1: %2").arg(path, f.errorString()), Location{path, 0, 0});
    const QByteArray bytes = f.readAll();
    adoptFile(path, bytes);
    m_undo->clear();
    applyBytes(bytes, false);
    Q_EMIT diskStateChanged();
    Q_EMIT fileStateChanged();
    return {};
}

void LockDocument::openBytes(const QByteArray &bytes, const QString &displayName)
{
    m_path.clear();
    m_displayName = displayName;
    m_savedBytes = QByteArray();
    m_diskBytes = QByteArray();
    m_diskExists = false;
    m_diskChangePending = false;
    watchPath();
    m_undo->clear();
    applyBytes(bytes, false);
    Q_EMIT diskStateChanged();
    Q_EMIT fileStateChanged();
}

bool LockDocument::hasConflictMarkers() const
{
    return lockmerge::hasConflictMarkers(m_bytes);
}

// --- the text ----------------------------------------------------------------------------------

void LockDocument::applyBytes(const QByteArray &bytes, bool typed)
{
    m_bytes = bytes;
    LockParseOptions options;
    options.fileName = m_displayName.isEmpty() ? u".terraform.lock.hcl"_s : m_displayName;
    m_parsed = parseLockFile(bytes, options);
    Q_EMIT textChanged(typed);
    Q_EMIT fileStateChanged();
}

void LockDocument::setText(const QByteArray &bytes, const QString &description, bool typed)
{
    if (bytes == m_bytes)
        return;
    m_undo->push(new LockTextCommand(this, m_bytes, bytes, description, typed));
}

Result<void> LockDocument::editable() const
{
    if (hasErrors())
        return makeError(ErrorCode::InvalidArgument, tr("Fix the errors in the text first (see the problem list)."));
    return {};
}

Result<QString> LockDocument::applyEdit(const QString &description, const Result<LockFile> &result)
{
    if (const Result<void> ok = editable(); !ok)
        return ok.error();
    if (!result)
        return result.error();
    const bool dropped = lockFile().wouldDropContent();
    m_notes.clear();
    setText(writeLockFile(result.value()), description);
    return dropped ? tr("%1 — the text was rewritten in canonical form (comments dropped; Undo restores them)").arg(description)
                   : description;
}

Result<QString> LockDocument::addProvider(const ProviderLock &lock)
{
    return applyEdit(tr("Add provider %1").arg(lock.address.toString()), lockedit::addProvider(lockFile(), lock));
}

Result<QString> LockDocument::removeProvider(const ProviderAddress &address)
{
    return applyEdit(tr("Remove provider %1").arg(address.toString()), lockedit::removeProvider(lockFile(), address));
}

Result<QString> LockDocument::setVersion(const ProviderAddress &address, const QString &version)
{
    if (const Result<void> ok = editable(); !ok)
        return ok.error();
    const Result<Version> v = Version::parse(version.trimmed());
    if (!v)
        return makeError(ErrorCode::InvalidArgument, tr("Invalid version %1: %2").arg(version, v.error().message));
    if (!Version::isCanonical(version.trimmed())) // lock files hold canonical versions only (tofu rejects "1.2")
        return makeError(ErrorCode::InvalidArgument, tr("Write the version in full: %1, not %2").arg(v->toString(), version.trimmed()));
    return applyEdit(tr("Set version of %1 to %2 (hashes of the old version dropped)").arg(address.toString(), v->toString()),
                     lockedit::setVersion(lockFile(), address, v.value()));
}

Result<QString> LockDocument::setConstraints(const ProviderAddress &address, const QString &constraints)
{
    if (const Result<void> ok = editable(); !ok)
        return ok.error();
    VersionConstraints c;
    if (!constraints.trimmed().isEmpty()) {
        const Result<VersionConstraints> parsed = VersionConstraints::parse(constraints.trimmed());
        if (!parsed)
            return makeError(ErrorCode::InvalidArgument, tr("Invalid constraints %1: %2").arg(constraints, parsed.error().message));
        c = parsed.value();
    }
    return applyEdit(tr("Set constraints of %1 to %2").arg(address.toString(), c.isEmpty() ? tr("(none)") : c.toString()),
                     lockedit::setConstraints(lockFile(), address, c));
}

Result<QString> LockDocument::removeHashes(const ProviderAddress &address, const QList<HashString> &hashes)
{
    if (hashes.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("No hash selected."));
    return applyEdit(tr("Remove %n hash(es) of %1", nullptr, int(hashes.size())).arg(address.toString()),
                     lockedit::removeHashes(lockFile(), address, hashes));
}

Result<QString> LockDocument::applyDocument(const LockFile &doc, const QString &description)
{
    return applyEdit(description, doc);
}

// --- the mirror --------------------------------------------------------------------------------

void LockDocument::setCatalog(const Catalog &catalog)
{
    setMirror(LockMirror::directory(catalog.root, catalog));
}

void LockDocument::setMirror(const LockMirror &mirror)
{
    m_mirror = std::make_shared<const LockMirror>(mirror);
    m_provenanceAsked = false;
    m_provenance.reset();
    Q_EMIT mirrorChanged();
}

QList<Platform> LockDocument::mirrorPlatforms() const
{
    QList<Platform> locked;
    QList<Platform> all;
    if (!m_mirror)
        return {};
    for (const Provider &p : m_mirror->catalog.providers) {
        const ProviderLock *lock = lockFile().find(p.address);
        for (const ProviderVersion &v : p.versions)
            for (const Archive &a : v.archives) {
                if (!a.present)
                    continue;
                if (!all.contains(a.platform))
                    all << a.platform;
                if (lock && lock->version == v.version && !locked.contains(a.platform))
                    locked << a.platform;
            }
    }
    QList<Platform> out = locked.isEmpty() ? all : locked;
    std::sort(out.begin(), out.end());
    return out;
}

Result<LockMirrorTask> LockDocument::mirrorTask(LockMirrorTask::Kind kind, const QString &description) const
{
    if (const Result<void> ok = editable(); !ok)
        return ok.error();
    if (!m_mirror)
        return makeError(ErrorCode::InvalidArgument, tr("Open a mirror first (File ▸ Open Mirror…)."));
    LockMirrorTask task;
    task.kind = kind;
    task.startBytes = m_bytes;
    task.description = description;
    task.document = lockFile();
    task.mirror = m_mirror;
    return task;
}

Result<LockMirrorTask> LockDocument::addHashesTask(const QList<Platform> &platforms, bool includeZh,
                                                   const QList<ProviderAddress> &providers) const
{
    QStringList names;
    for (const Platform &p : platforms)
        names << p.toString();
    Result<LockMirrorTask> task =
        mirrorTask(LockMirrorTask::Kind::AddHashes, tr("Add hashes for %1 from the mirror").arg(names.join(u", "_s)));
    if (task && platforms.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("Choose at least one platform."));
    if (task) {
        task.value().addHashes.platforms = platforms;
        task.value().addHashes.includeZh = includeZh;
        task.value().addHashes.providers = providers;
    }
    return task;
}

Result<LockMirrorTask> LockDocument::upgradeTask(const QList<ProviderAddress> &providers, const QList<Platform> &platforms) const
{
    Result<LockMirrorTask> task = mirrorTask(LockMirrorTask::Kind::Upgrade, tr("Upgrade within constraints"));
    if (task) {
        task.value().upgrade.providers = providers;
        task.value().upgrade.platforms = platforms;
    }
    return task;
}

Result<QString> LockDocument::applyMirrorOutcome(const LockMirrorOutcome &outcome)
{
    if (outcome.cancelled)
        return makeError(ErrorCode::Cancelled, tr("Cancelled; nothing was changed."));
    if (m_bytes != outcome.startBytes)
        return makeError(ErrorCode::InvalidArgument, tr("The document changed while hashing; nothing was changed."));
    if (!outcome.error.isEmpty())
        return makeError(ErrorCode::Io, outcome.error);
    QString message = outcome.summary;
    if (outcome.changed) {
        const Result<QString> applied = applyEdit(outcome.description, outcome.document);
        if (!applied)
            return applied;
        message = applied.value();
    }
    m_notes = outcome.problems;
    if (!m_notes.isEmpty())
        message = tr("%1 — %n problem(s), see the problem list", nullptr, int(m_notes.size())).arg(message);
    return message;
}

QList<QByteArray> LockDocument::provenanceKey() const
{
    QList<QByteArray> key;
    for (const ProviderLock &p : lockFile().providers)
        key << (p.address.toString() + u' ' + p.version.toString()).toUtf8();
    return key;
}

std::optional<LockProvenanceTask> LockDocument::provenanceTask()
{
    if (!m_mirror)
        return std::nullopt;
    QList<QByteArray> key = provenanceKey();
    if (m_provenanceAsked && key == m_provenanceKey)
        return std::nullopt;
    m_provenanceAsked = true;
    m_provenanceKey = key;
    m_provenance.reset();
    LockProvenanceTask task;
    task.key = std::move(key);
    task.mirror = m_mirror;
    task.wanted = HashProvenanceIndex::wantedFor(lockFile(), lockFile());
    return task;
}

void LockDocument::setProvenance(const LockProvenanceTask &task, HashProvenanceIndex index)
{
    if (!m_provenanceAsked || task.key != m_provenanceKey || task.mirror != m_mirror)
        return; // an older task's
    m_provenance = std::move(index);
    Q_EMIT provenanceChanged();
}

// --- the file on disk --------------------------------------------------------------------------

void LockDocument::adoptFile(const QString &path, const QByteArray &bytes)
{
    m_path = QFileInfo(path).absoluteFilePath();
    m_displayName = QFileInfo(path).fileName();
    m_savedBytes = bytes;
    m_diskBytes = bytes;
    m_diskExists = true;
    m_diskChangePending = false;
    watchPath();
}

void LockDocument::watchPath()
{
    if (const QStringList files = m_watcher->files(); !files.isEmpty())
        m_watcher->removePaths(files);
    if (const QStringList dirs = m_watcher->directories(); !dirs.isEmpty())
        m_watcher->removePaths(dirs);
    if (m_path.isEmpty())
        return;
    m_watcher->addPath(QFileInfo(m_path).absolutePath());
    if (QFileInfo::exists(m_path))
        m_watcher->addPath(m_path);
}

QByteArray LockDocument::readDisk(bool *exists) const
{
    QFile f(m_path);
    *exists = f.open(QIODevice::ReadOnly);
    return *exists ? f.readAll() : QByteArray();
}

void LockDocument::checkDisk()
{
    if (m_path.isEmpty())
        return;
    if (QFileInfo::exists(m_path) && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path); // replaced by a rename: watch the new file
    bool exists = false;
    const QByteArray disk = readDisk(&exists);
    const bool pending = !(exists && disk == m_diskBytes); // changed back: nothing pending
    if (pending == m_diskChangePending && exists == m_diskExists)
        return;
    m_diskChangePending = pending;
    m_diskExists = exists;
    Q_EMIT diskStateChanged();
}

Result<QString> LockDocument::reloadFromDisk()
{
    bool exists = false;
    const QByteArray disk = readDisk(&exists);
    if (!exists)
        return makeError(ErrorCode::Io, tr("%1 is not on disk.").arg(m_path), Location{m_path, 0, 0});
    m_diskBytes = disk;
    m_savedBytes = disk;
    m_diskExists = true;
    m_diskChangePending = false;
    setText(disk, tr("Reload from disk"));
    Q_EMIT diskStateChanged();
    Q_EMIT fileStateChanged();
    return tr("Reloaded %1 from disk").arg(m_path);
}

void LockDocument::keepMine()
{
    bool exists = false;
    const QByteArray disk = readDisk(&exists);
    m_diskBytes = disk; // accepted: only a further change counts
    m_diskExists = exists;
    m_savedBytes = exists ? disk : QByteArray("\x01not on disk");
    m_diskChangePending = false;
    Q_EMIT diskStateChanged();
    Q_EMIT fileStateChanged();
}

Result<void> LockDocument::saveAs(const QString &path)
{
    if (hasErrors())
        return makeError(ErrorCode::InvalidArgument,
                         tr("The lock file has errors; tofu/terraform would refuse it. Fix them first (see the problem list)."));
    const QByteArray written = writeLockFile(lockFile());
    if (const Result<void> r = saveBytesAtomically(written, path); !r) {
        qCWarning(lcLock).noquote() << "lock document:" << r.error().message;
        return r;
    }
    adoptFile(path, written);
    setText(written, tr("Save in canonical form"));
    Q_EMIT diskStateChanged();
    Q_EMIT fileStateChanged();
    return {};
}

} // namespace provender
