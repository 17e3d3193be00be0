#pragma once
// A plain-text editor for lock files with a gutter: line numbers and, for lines with parser
// diagnostics, a red (error) or orange (warning) marker; the diagnostic's range is underlined
// with a wave and hovering the line shows the messages. The diff view reuses it read-only with
// per-row backgrounds and its own line numbers (filler rows have none).
//
// Undo/Redo key presses are left to the window (its QUndoStack owns undo, not the document).

#include "model/lockfile/LockFile.h"

#include <QColor>
#include <QPlainTextEdit>

namespace provender::ui {

class LockCodeEditor final : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit LockCodeEditor(QWidget *parent = nullptr);

    void setDiagnostics(const QList<LockDiagnostic> &diagnostics);
    const QList<LockDiagnostic> &diagnostics() const { return m_diagnostics; }
    /// Messages of the diagnostics on a 1-based line.
    QStringList messagesForLine(int line) const;

    /// Diff view: a background per block (invalid colour: none) and the line number shown per
    /// block (0: none). Empty lists restore the defaults.
    void setRowDecorations(const QList<QColor> &backgrounds, const QList<int> &lineNumbers);

    /// Put the cursor on (line, column), 1-based, and make it visible.
    void goTo(int line, int column = 1);
    /// Scroll so that block `row` (0-based) is the first visible line.
    void scrollToRow(int row);

    int gutterWidth() const;
    void paintGutter(QPaintEvent *event);

protected:
    bool event(QEvent *e) override;
    bool viewportEvent(QEvent *e) override;
    void resizeEvent(QResizeEvent *e) override;

private:
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void rebuildSelections();

    QWidget *m_gutter = nullptr;
    QList<LockDiagnostic> m_diagnostics;
    QList<QColor> m_backgrounds;
    QList<int> m_lineNumbers;
};

} // namespace provender::ui
