#pragma once
// One open lock file, without widgets: what the lock editor window (ui/lock/LockEditorWindow)
// shows and changes. docs/ARCHITECTURE.md, "lock-file GUI".
//
// - **The text is the state.** bytes() are the document; parsed() is their parse (document,
//   diagnostics with file and line, dropped content). Every change — a typed text, an edit, a
//   mirror operation, a reload from disk, a save in canonical form — is one QUndoCommand on
//   undoStack() that swaps the bytes, so undo and redo give back exactly the bytes there were,
//   comments included.
// - **Edits** (addProvider … applyDocument) are the lockedit functions on the parsed document,
//   written in canonical form; each pushes one undo step. They are refused (an error, nothing
//   pushed) while the text has errors. The value is the line for the status bar.
// - **Mirror operations** (add hashes from a mirror, upgrade within constraints, hash provenance)
//   come in three steps so that the caller chooses the thread: a *task* copied out of the
//   document (a value: no reference back), its blocking `run(JobProgress &)` on a worker (all
//   archives in one hashing-engine run: all cores, the hash cache, progress, cancel), and
//   `apply…()` on the document's thread, which refuses an outcome that was cancelled or whose
//   text changed meanwhile. The GUI runs the middle step as a JobTracker job; tests call it directly.
// - **The file on disk**: open() reads it; a QFileSystemWatcher (folder too: an atomic save by
//   another program is a new file) calls checkDisk(), which sets diskChangePending() when the
//   disk's bytes differ from those last opened, saved or accepted; reloadFromDisk() (one undo
//   step) or keepMine() answer it. saveAs() writes canonical bytes atomically; when it fails the
//   file and the document are as they were.
//
// QtCore and QtGui only (QUndoStack is in QtGui): no widgets.

#include "model/core/JobProgress.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockMirror.h"
#include "model/mirror/Catalog.h"
#include "model/verify/ArchiveHashing.h"
#include "model/verify/HashEngine.h"

#include <QObject>

#include <memory>
#include <optional>

class QFileSystemWatcher;
class QUndoStack;

namespace provender {

/// Runs a lock operation that hashes archives (`op(doc, catalog, options)`, options with a
/// `hasher` member) twice through lockMirrorHasher: once recording which archives it asks for,
/// which are then hashed in one engine run (a network mirror's: downloaded in one run and checked
/// against its index) reporting into `progress` (and stopping when it is cancelled), and once for
/// the result. `mirror` holds what the operation reads (lockMirrorFor). `cancelled` (may be null)
/// says whether the run was.
template<typename Options, typename Op>
auto runWithPrehashedArchives(const LockFile &doc, const LockMirror &mirror, Options options, JobProgress &progress, Op op,
                              bool *cancelled = nullptr)
{
    HashRunOptions hashing; // all cores, the hash cache
    hashing.progress = progress.callback();
    hashing.cancel = progress.cancelFlag();
    HashRunSummary run;
    options.hasher = lockMirrorHasher(
        mirror, hashing,
        [&](const ArchiveHasher &record) {
            Options recording = options;
            recording.hasher = record;
            (void)op(doc, mirror.catalog, recording);
        },
        &run);
    if (cancelled)
        *cancelled = run.cancelled || progress.isCancelled();
    return op(doc, mirror.catalog, options);
}

/// `mirror` as a lock operation with `request` reads it (lockMirrorFor), on a worker: the line to
/// show when it cannot be read ("Cannot read the mirror URL: why"); `warnings` gets the rest.
Result<LockMirror> readLockMirror(const LockMirror &mirror, const LockMirrorRequest &request, JobProgress &progress,
                                  QStringList *warnings = nullptr);

/// What a mirror operation computed (a value, made on a worker thread).
struct LockMirrorOutcome
{
    QByteArray startBytes; ///< the document's text when the task was made
    QString description;   ///< the undo step's name
    bool cancelled = false;
    QString error; ///< "" when it ran
    LockFile document;
    bool changed = true;  ///< false: nothing to change (upgrade: everything up to date)
    QStringList problems; ///< notes worth showing (missing archives, hash failures)
    QString summary;      ///< the status line when nothing changed
};

/// A mirror operation's inputs, copied out of the document.
struct LockMirrorTask
{
    enum class Kind { AddHashes, Upgrade };
    Kind kind = Kind::AddHashes;
    QByteArray startBytes;
    QString description;
    LockFile document;
    std::shared_ptr<const LockMirror> mirror;
    lockedit::MirrorHashOptions addHashes;
    lockedit::UpgradeOptions upgrade;

    /// Blocking, any thread. A network mirror is read again first for what the operation reads,
    /// as the CLI's lock add-hashes and lock upgrade read it (lockedVersions, upgradeVersions).
    LockMirrorOutcome run(JobProgress &progress) const;
};

/// What a hash trace found: the index, and what it could not do (what `lock diff --mirror` prints
/// as warnings: the network mirror's warnings when it is read, archives that could not be hashed,
/// provenance lists skipped, the hash cache's warning).
struct LockTrace
{
    HashProvenanceIndex index;
    QStringList warnings;
    /// For a window's status line: "" when there is no warning, else the first and how many more.
    QString warningLine() const;
};

/// Hash provenance (which platform and origin each lock hash belongs to) of the locked versions.
struct LockProvenanceTask
{
    QList<QByteArray> key; ///< "address version" of every locked provider, to match the result
    std::shared_ptr<const LockMirror> mirror;
    QList<HashProvenanceIndex::Wanted> wanted;

    /// Blocking, any thread (buildLockProvenance: the mirror's archives and its .provenance/; a
    /// network mirror read for the wanted versions as lock diff reads it, or its last complete
    /// read of them reused: lockMirrorFor). Fails when that reading fails ("Cannot read the mirror
    /// URL: why"): then no hash has a known platform.
    Result<LockTrace> run(JobProgress &progress) const;
};

class LockDocument final : public QObject
{
    Q_OBJECT
public:
    explicit LockDocument(QObject *parent = nullptr);
    ~LockDocument() override;

    // --- the file --------------------------------------------------------------------------
    /// Read `path` (replaces the text; the undo history starts afresh). An error leaves all as it was.
    Result<void> open(const QString &path);
    /// `bytes` as an unsaved document (no file yet).
    void openBytes(const QByteArray &bytes, const QString &displayName);
    QString path() const { return m_path; }
    QString displayName() const { return m_displayName; }

    // --- the text ----------------------------------------------------------------------------
    const QByteArray &bytes() const { return m_bytes; }
    const LockParseResult &parsed() const { return m_parsed; }
    const LockFile &lockFile() const { return m_parsed.document; }
    bool hasErrors() const { return m_parsed.hasErrors(); }
    bool hasConflictMarkers() const;
    /// The text differs from the file's bytes (as opened, saved, reloaded or accepted).
    bool isModified() const { return m_bytes != m_savedBytes; }
    QUndoStack *undoStack() const { return m_undo; }
    /// Problems of the last mirror operation (cleared by the next edit).
    QStringList notes() const { return m_notes; }

    /// A new text as one undo step named `description` (nothing when it is the same). `typed`:
    /// the text comes from the view (its first textChanged() says so, and the view keeps its own).
    void setText(const QByteArray &bytes, const QString &description, bool typed = false);

    // --- edits (one undo step each; the value is the status line) ----------------------------
    Result<QString> addProvider(const ProviderLock &lock);
    Result<QString> removeProvider(const ProviderAddress &address);
    /// `version` as typed: must be canonical ("1.2.0", not "1.2"); hashes of the old version go.
    Result<QString> setVersion(const ProviderAddress &address, const QString &version);
    /// `constraints` as typed ("" removes them).
    Result<QString> setConstraints(const ProviderAddress &address, const QString &constraints);
    Result<QString> removeHashes(const ProviderAddress &address, const QList<HashString> &hashes);
    /// Replace the document by `doc` (computed elsewhere, e.g. Add to Lock File…).
    Result<QString> applyDocument(const LockFile &doc, const QString &description);

    // --- the mirror ------------------------------------------------------------------------
    /// A directory's catalog (its root the location).
    void setCatalog(const Catalog &catalog);
    /// A directory or a network mirror (opened for the locked versions).
    void setMirror(const LockMirror &mirror);
    const Catalog *catalog() const { return m_mirror ? &m_mirror->catalog : nullptr; }
    const LockMirror *mirror() const { return m_mirror.get(); }
    /// Platforms the mirror has archives of for the locked versions (all of its platforms when none).
    QList<Platform> mirrorPlatforms() const;
    /// Like `terraform providers lock -fs-mirror -platform=…` (`providers` empty: every one).
    Result<LockMirrorTask> addHashesTask(const QList<Platform> &platforms, bool includeZh,
                                         const QList<ProviderAddress> &providers = {}) const;
    /// The newest version within the constraints (`platforms` hashed; empty: all the mirror has).
    Result<LockMirrorTask> upgradeTask(const QList<ProviderAddress> &providers, const QList<Platform> &platforms) const;
    /// One undo step with the outcome's document; refused when it was cancelled, failed or the
    /// text changed since the task was made. Value: the status line.
    Result<QString> applyMirrorOutcome(const LockMirrorOutcome &outcome);

    /// The provenance to compute when the locked versions changed since the last task (or the
    /// mirror did); nullopt when there is no mirror or nothing changed.
    std::optional<LockProvenanceTask> provenanceTask();
    /// The result of the newest task (an older one's is ignored); provenanceChanged().
    void setProvenance(const LockProvenanceTask &task, HashProvenanceIndex index);
    /// null until the provenance of the current versions is known.
    const HashProvenanceIndex *provenance() const { return m_provenance ? &*m_provenance : nullptr; }

    // --- the file on disk --------------------------------------------------------------------
    /// The disk's bytes differ from those last opened, saved or accepted and nobody answered yet.
    bool diskChangePending() const { return m_diskChangePending; }
    /// The file is on disk (false when it was deleted meanwhile).
    bool diskFileExists() const { return m_diskExists; }
    /// Look at the file now (the watcher calls this).
    void checkDisk();
    /// The disk's bytes as one undo step ("Reload from disk").
    Result<QString> reloadFromDisk();
    /// Keep the text: only a further change on disk counts; the next save overwrites.
    void keepMine();
    /// Write the canonical form atomically to `path` (the document's file from then on); the
    /// text becomes that form (one undo step when it differs). Refused while the text has errors.
    Result<void> saveAs(const QString &path);

Q_SIGNALS:
    /// bytes() (and parsed()) changed. `typed`: the first redo of a setText(…, typed = true).
    void textChanged(bool typed);
    /// path(), displayName() or isModified() may have changed.
    void fileStateChanged();
    void diskStateChanged();
    void mirrorChanged();
    void provenanceChanged();

private:
    friend class LockTextCommand;
    void applyBytes(const QByteArray &bytes, bool typed);
    Result<QString> applyEdit(const QString &description, const Result<LockFile> &result);
    Result<void> editable() const;
    Result<LockMirrorTask> mirrorTask(LockMirrorTask::Kind kind, const QString &description) const;
    /// `path` is the document's file from now on, and `bytes` what is on disk there.
    void adoptFile(const QString &path, const QByteArray &bytes);
    void watchPath();
    QByteArray readDisk(bool *exists) const;
    QList<QByteArray> provenanceKey() const;

    QString m_path;
    QString m_displayName;
    QByteArray m_bytes;
    QByteArray m_savedBytes;
    QByteArray m_diskBytes;
    bool m_diskChangePending = false;
    bool m_diskExists = false;
    LockParseResult m_parsed;
    QStringList m_notes;
    std::shared_ptr<const LockMirror> m_mirror;
    QList<QByteArray> m_provenanceKey; ///< of the newest provenance task
    bool m_provenanceAsked = false;    ///< a task was made for this mirror
    std::optional<HashProvenanceIndex> m_provenance;
    QUndoStack *m_undo = nullptr;
    QFileSystemWatcher *m_watcher = nullptr;
};

} // namespace provender
