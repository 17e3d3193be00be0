#pragma once
// What the two dialogs of ui/export share and nothing else includes: ExportIndexesDialog.cpp and
// AddToLockDialog.cpp both show a preview (a summary line and a unified diff in a fixed font) and a
// status line with a progress bar.

#include "ui/FormRows.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <utility>

namespace provender::ui::exportui {

inline QFont fixedFont()
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

/// Colours the lines of a unified diff: + green, - red, @@ blue.
class DiffHighlighter final : public QSyntaxHighlighter
{
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString &text) override
    {
        QTextCharFormat f;
        if (text.startsWith(QStringLiteral("+++")) || text.startsWith(QStringLiteral("---")))
            f.setFontWeight(QFont::Bold);
        else if (text.startsWith(u'+'))
            f.setForeground(QColor(0x1a, 0x7f, 0x37));
        else if (text.startsWith(u'-'))
            f.setForeground(QColor(0xb0, 0x00, 0x20));
        else if (text.startsWith(QStringLiteral("@@")) || text.startsWith(u'#'))
            f.setForeground(QColor(0x1f, 0x5f, 0xbf));
        else
            return;
        setFormat(0, int(text.size()), f);
    }
};

/// The preview's summary line ("previewSummary"): wrapped, selectable.
inline QLabel *previewSummary(QWidget *parent)
{
    return selectableLabel(QStringLiteral("previewSummary"), parent);
}

/// The preview's diff ("previewDiff"): read-only, unwrapped, fixed font, coloured by DiffHighlighter;
/// `placeholder` while it is empty.
inline QPlainTextEdit *previewDiff(QWidget *parent, const QString &placeholder)
{
    auto *diff = new QPlainTextEdit(parent);
    diff->setObjectName(QStringLiteral("previewDiff"));
    diff->setReadOnly(true);
    diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    diff->setFont(fixedFont());
    diff->setPlaceholderText(placeholder);
    new DiffHighlighter(diff->document());
    return diff;
}

/// The status line, added to `row`: "statusLabel" (it takes the free width) and "progressBar", at
/// most `maxWidth` wide and hidden (the dialog shows it while it works).
inline std::pair<QLabel *, QProgressBar *> addStatusLine(QWidget *parent, QHBoxLayout *row, int maxWidth)
{
    auto *status = new QLabel(parent);
    status->setObjectName(QStringLiteral("statusLabel"));
    auto *progress = new QProgressBar(parent);
    progress->setObjectName(QStringLiteral("progressBar"));
    progress->setVisible(false);
    progress->setMaximumWidth(maxWidth);
    row->addWidget(status, 1);
    row->addWidget(progress);
    return {status, progress};
}

} // namespace provender::ui::exportui
