#pragma once
// The three-way lock-file merge window.
//
//   left:  base / ours / theirs / result as a tree (LockMergeModel): one row per provider (and per
//          kept foreign block) with version, constraints and every hash of any side; unresolved
//          conflicts stand out; the result column takes a choice (automatic / ours / theirs /
//          union / base) from the toolbar, the context menu or its own combo box
//   right: the merged file as it would be saved (highlighted, read-only): canonical bytes, with
//          conflict markers around what is still unresolved
//
// Inputs: three files (`provender lock merge --gui BASE OURS THEIRS [-o OUT]`, so git mergetool can
// run it), or one file with conflict markers (its sides are rebuilt from the markers; the base from
// `|||||||` sections when every region has one, else it is empty and each disagreeing provider
// counts as added on both sides). Every choice is one QUndoCommand; Save writes the result
// atomically to OUT (OURS when no -o; the marked file itself) and asks first while conflicts remain.
//
// Widgets (objectName): "mergeView", "resultText", "summaryLabel", "inputsLabel"; actions
// "actionUndo", "actionRedo", "actionSave", "actionSaveAs", "actionNextConflict", "actionTakeOurs",
// "actionTakeTheirs", "actionTakeUnion", "actionTakeBase", "actionAutomatic".

#include "model/lockfile/LockMerge.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>

class QAction;
class QLabel;
class QTreeView;
class QUndoStack;

namespace provender {
class LockMergeModel;
}

namespace provender::ui {

class HclHighlighter;
class LockCodeEditor;

class LockMergeWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit LockMergeWindow(QWidget *parent = nullptr);
    ~LockMergeWindow() override;

    /// Merge three texts; the result goes to `outputPath` ("" = Save asks). `labels` name the
    /// inputs in messages (default base, ours, theirs). False (errorText()) when an input cannot be
    /// merged (its diagnostics, with file:line:column).
    bool setInputs(const QByteArray &base, const QByteArray &ours, const QByteArray &theirs, const QString &outputPath,
                   const QStringList &labels = {});
    /// Read three files; `outputPath` "" = OURS.
    bool openFiles(const QString &base, const QString &ours, const QString &theirs, const QString &outputPath = {});
    /// A file with conflict markers: its sides rebuilt from them; the result replaces the file.
    bool openConflictedFile(const QString &path);
    /// The same for text with conflict markers (e.g. a lock editor's), saved to `outputPath`.
    bool openConflictedBytes(const QByteArray &bytes, const QString &outputPath);

    QString errorText() const { return m_error; }
    QString outputPath() const { return m_output; }
    LockMergeModel *model() const { return m_model; }
    QUndoStack *undoStack() const { return m_undo; }
    LockCodeEditor *resultEditor() const { return m_result; }
    QTreeView *view() const { return m_view; }
    /// The bytes Save would write now.
    QByteArray resultBytes() const;
    int conflictCount() const;
    bool isModified() const;
    bool wasSaved() const { return m_saved; }
    QString summaryText() const;

    /// Choose for the top row of `key` (provider address or foreign block key); one undo step.
    bool choose(const QString &key, lockmerge::Choice choice);
    /// The top row of the current selection (-1: none).
    int currentTopRow() const;
    void selectTopRow(int topRow);

    bool save();
    bool saveAs(const QString &path);

    using Prompt =
        std::function<QMessageBox::StandardButton(const QString &title, const QString &text, QMessageBox::StandardButtons buttons)>;
    void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }

public Q_SLOTS:
    void nextConflict();
    void chooseForSelection(lockmerge::Choice choice);
    void saveAsDialog();

Q_SIGNALS:
    void resultChanged();
    void saved(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    friend class ChoiceCommand;
    void buildUi();
    void applyChoice(int topRow, lockmerge::Choice choice);
    void refreshResult();
    void updateActions();
    QMessageBox::StandardButton ask(const QString &title, const QString &text, QMessageBox::StandardButtons buttons);

    QString m_output;
    QString m_error;
    QStringList m_labels;
    QByteArray m_savedBytes;
    bool m_saved = false;
    Prompt m_prompt;

    LockMergeModel *m_model = nullptr;
    QUndoStack *m_undo = nullptr;
    QTreeView *m_view = nullptr;
    LockCodeEditor *m_result = nullptr;
    HclHighlighter *m_highlighter = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_inputs = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_nextAction = nullptr;
    QList<std::pair<QAction *, lockmerge::Choice>> m_choiceActions;
};

/// `provender lock merge --gui BASE OURS THEIRS [-o OUT]` (git mergetool) or
/// `provender lock merge --gui FILE` (a file with conflict markers): the window and the event
/// loop. `args` are the words after `lock merge`. Exit 0 when a result without conflicts was
/// saved, 1 when the window closed without one, 2 on bad usage or unmergeable input.
int runLockMergeGui(const QStringList &args);

/// Opens a merge window for a lock file with conflict markers (deleted on close); nullptr with a
/// message box when the markers are malformed or a side cannot be read.
LockMergeWindow *openLockMergeWindow(QWidget *parent, const QString &path);

} // namespace provender::ui
