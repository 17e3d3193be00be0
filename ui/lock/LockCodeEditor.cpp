#include "ui/lock/LockCodeEditor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {

class Gutter final : public QWidget
{
public:
    explicit Gutter(LockCodeEditor *editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

private:
    LockCodeEditor *m_editor;
};

const QColor kErrorColor(0xd7, 0x3a, 0x49);
const QColor kWarningColor(0xe3, 0x8b, 0x00);

} // namespace

LockCodeEditor::LockCodeEditor(QWidget *parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setUndoRedoEnabled(false);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &LockCodeEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &LockCodeEditor::updateGutter);
    updateGutterWidth();
}

int LockCodeEditor::gutterWidth() const
{
    int max = qMax(1, blockCount());
    for (int n : m_lineNumbers)
        max = qMax(max, n);
    int digits = 1;
    while (max >= 10) {
        max /= 10;
        ++digits;
    }
    return 14 + fontMetrics().horizontalAdvance(u'9') * qMax(2, digits) + 6;
}

void LockCodeEditor::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void LockCodeEditor::updateGutter(const QRect &rect, int dy)
{
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void LockCodeEditor::resizeEvent(QResizeEvent *e)
{
    QPlainTextEdit::resizeEvent(e);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void LockCodeEditor::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const int w = m_gutter->width();
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int number = m_lineNumbers.isEmpty()       ? block.blockNumber() + 1
                : block.blockNumber() < m_lineNumbers.size() ? m_lineNumbers.at(block.blockNumber())
                                                             : 0;
            if (number > 0) {
                painter.setPen(palette().color(QPalette::PlaceholderText));
                painter.drawText(0, top, w - 6, fontMetrics().height(), Qt::AlignRight, QString::number(number));
            }
            // Marker: the worst diagnostic on this line.
            int severity = 0;
            for (const LockDiagnostic &d : m_diagnostics)
                if (d.range.line == block.blockNumber() + 1)
                    severity = qMax(severity, d.isError() ? 2 : 1);
            if (severity > 0 && m_lineNumbers.isEmpty()) {
                painter.setRenderHint(QPainter::Antialiasing);
                painter.setPen(Qt::NoPen);
                painter.setBrush(severity == 2 ? kErrorColor : kWarningColor);
                const int d = qMin(10, fontMetrics().height() - 4);
                painter.drawEllipse(QRect(3, top + (fontMetrics().height() - d) / 2, d, d));
            }
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
    }
}

void LockCodeEditor::setDiagnostics(const QList<LockDiagnostic> &diagnostics)
{
    m_diagnostics = diagnostics;
    rebuildSelections();
    m_gutter->update();
}

QStringList LockCodeEditor::messagesForLine(int line) const
{
    QStringList out;
    for (const LockDiagnostic &d : m_diagnostics)
        if (d.range.line == line)
            out << (d.isError() ? u"Error: "_s : u"Warning: "_s) + d.summary + (d.detail.isEmpty() ? QString() : u": "_s + d.detail);
    return out;
}

void LockCodeEditor::setRowDecorations(const QList<QColor> &backgrounds, const QList<int> &lineNumbers)
{
    m_backgrounds = backgrounds;
    m_lineNumbers = lineNumbers;
    updateGutterWidth();
    rebuildSelections();
    m_gutter->update();
}

void LockCodeEditor::rebuildSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    for (int row = 0; row < m_backgrounds.size(); ++row) {
        if (!m_backgrounds.at(row).isValid())
            continue;
        const QTextBlock block = document()->findBlockByNumber(row);
        if (!block.isValid())
            break;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(m_backgrounds.at(row));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
    }
    for (const LockDiagnostic &d : m_diagnostics) {
        if (!d.range.isValid())
            continue;
        const QTextBlock block = document()->findBlockByNumber(d.range.line - 1);
        if (!block.isValid())
            continue;
        const QColor color = d.isError() ? kErrorColor : kWarningColor;
        QTextEdit::ExtraSelection line;
        QColor bg = color;
        bg.setAlpha(28);
        line.format.setBackground(bg);
        line.format.setProperty(QTextFormat::FullWidthSelection, true);
        line.cursor = QTextCursor(block);
        selections << line;

        QTextEdit::ExtraSelection s;
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(color);
        QTextCursor c(block);
        const int start = block.position() + qBound(0, d.range.column - 1, qMax(0, block.length() - 1));
        int end = -1;
        if (d.range.endLine > 0) {
            const QTextBlock endBlock = document()->findBlockByNumber(d.range.endLine - 1);
            if (endBlock.isValid())
                end = endBlock.position() + qBound(0, d.range.endColumn - 1, qMax(0, endBlock.length() - 1));
        }
        if (end <= start) // an empty range: mark one character (or the end of the line)
            end = qMin(start + 1, block.position() + qMax(0, block.length() - 1));
        if (end <= start) {
            // Empty line: underline nothing, the line background and marker still show.
            continue;
        }
        c.setPosition(start);
        c.setPosition(end, QTextCursor::KeepAnchor);
        s.cursor = c;
        selections << s;
    }
    setExtraSelections(selections);
}

void LockCodeEditor::goTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(qMax(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor c(block);
    c.setPosition(block.position() + qBound(0, column - 1, qMax(0, block.length() - 1)));
    setTextCursor(c);
    centerCursor();
}

void LockCodeEditor::scrollToRow(int row)
{
    verticalScrollBar()->setValue(qBound(verticalScrollBar()->minimum(), row, verticalScrollBar()->maximum()));
}

bool LockCodeEditor::event(QEvent *e)
{
    if (e->type() == QEvent::ShortcutOverride) {
        auto *ke = static_cast<QKeyEvent *>(e);
        if (ke->matches(QKeySequence::Undo) || ke->matches(QKeySequence::Redo)) {
            e->ignore(); // the window's Undo/Redo actions handle these
            return true;
        }
    }
    return QPlainTextEdit::event(e);
}

bool LockCodeEditor::viewportEvent(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *he = static_cast<QHelpEvent *>(e);
        const QStringList messages = messagesForLine(cursorForPosition(he->pos()).blockNumber() + 1);
        if (!messages.isEmpty())
            QToolTip::showText(he->globalPos(), messages.join(u'\n'), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QPlainTextEdit::viewportEvent(e);
}

} // namespace provender::ui
