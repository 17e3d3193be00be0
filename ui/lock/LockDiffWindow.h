#pragma once
// Compare two lock files: the semantic summary (LockDiffTreeModel) beside a side-by-side text
// diff (changed lines highlighted, filler rows keep both sides aligned, scrolling one side
// scrolls the other). Selecting a summary item scrolls the text to the provider block or hash.
//
// Inputs: two files (dialog, drag and drop of one or two files, `provender diff A B`,
// `provender difftool LOCAL REMOTE`), or a file against a git revision read with libgit2.
// With a mirror (setCatalog, setMirror, openMirror: a directory or a URL), hashes are traced to archives (platform, origin) off the GUI
// thread: the job "provenance" on the window's JobTracker (progress and Cancel in the status bar; new texts supersede a running trace,
// whose result is dropped).
//
// Widgets (objectName): "semanticView", "summaryLabel", "leftText", "rightText", "leftLabel",
// "rightLabel", "jobProgress", "jobCancel".

#include "model/core/JobProgress.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockMirror.h"
#include "model/lockitems/SideBySideDiff.h"
#include "model/mirror/Catalog.h"

#include <QMainWindow>

#include <memory>
#include <optional>

class QLabel;
class QTreeView;

namespace provender {
class LockDiffTreeModel;
}

namespace provender::ui {

class JobTracker;
class LockCodeEditor;

class LockDiffWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit LockDiffWindow(QWidget *parent = nullptr);
    ~LockDiffWindow() override;

    /// Compare two texts (left = old, right = new).
    void setTexts(const QByteArray &left, const QString &leftLabel, const QByteArray &right, const QString &rightLabel);
    /// Compare two files; false (and errorText()) when one cannot be read.
    bool openFiles(const QString &left, const QString &right);
    /// Compare `path` as it is in `revision` (left) with `workingBytes`, or the file on disk when
    /// `workingBytes` is null (right).
    bool compareWithRevision(const QString &path, const QString &revision, const QByteArray &workingBytes = {});
    void compareWithRevisionDialog(const QString &path, const QByteArray &workingBytes = {});
    void openFilesDialog();

    void setCatalog(const Catalog &catalog);
    /// `warning`: what the mirror warned when it was opened, shown with the status line.
    void setMirror(const LockMirror &mirror, const QString &warning = {});
    /// A directory or a network mirror's URL (read for the two files' provider versions, as lock
    /// diff --mirror reads it), opened off the GUI thread, then setMirror().
    /// `http`: how a URL is reached (default: the CLI's settings).
    void openMirror(const QString &location, const HttpSettings &http = {});
    void openMirrorDialog();

    LockDiffTreeModel *model() const { return m_model; }
    const LockDiff &diff() const { return m_diff; }
    const SideBySideDiff &sideBySide() const { return m_rows; }
    QString summaryText() const;
    QString errorText() const { return m_error; }
    LockCodeEditor *leftEditor() const { return m_left; }
    LockCodeEditor *rightEditor() const { return m_right; }
    /// The row the text views were scrolled to for the last selected summary item (-1: none).
    int lastTargetRow() const { return m_lastTargetRow; }
    bool provenanceReady() const { return m_provenanceReady; }
    JobTracker *jobs() const { return m_jobs; }

    /// Row of the side-by-side text that shows `index` of the summary (-1 when none).
    int rowForItem(const QModelIndex &index) const;

Q_SIGNALS:
    void compared();
    void provenanceChanged();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void recompute();
    void refreshProvenance();
    void showRow(int row);
    void showError(const QString &message);

    QByteArray m_leftBytes;
    QByteArray m_rightBytes;
    QString m_leftLabelText;
    QString m_rightLabelText;
    QString m_leftPath;
    QString m_rightPath;
    LockParseResult m_leftParsed;
    LockParseResult m_rightParsed;
    LockDiff m_diff;
    SideBySideDiff m_rows;
    std::optional<LockMirror> m_mirror;
    QString m_mirrorWarning; ///< what the network mirror warned when it was opened ("": nothing)
    QString m_traceError;    ///< why the last trace of the hashes to the mirror failed, or what it could not do ("": nothing)
    std::optional<HashProvenanceIndex> m_provenance;
    bool m_provenanceReady = false;
    JobTracker *m_jobs = nullptr;
    std::shared_ptr<JobProgress> m_provenanceJob; ///< the newest trace
    int m_lastTargetRow = -1;
    QString m_error;
    bool m_syncing = false;

    LockDiffTreeModel *m_model = nullptr;
    QTreeView *m_tree = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_mirrorLabel = nullptr;
    QLabel *m_leftLabel = nullptr;
    QLabel *m_rightLabel = nullptr;
    LockCodeEditor *m_left = nullptr;
    LockCodeEditor *m_right = nullptr;
};

} // namespace provender::ui
