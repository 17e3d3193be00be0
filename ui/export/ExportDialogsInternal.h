#pragma once
// What the two dialogs of ui/export share and nothing else includes: ExportIndexesDialog.cpp and
// AddToLockDialog.cpp both show a unified diff in a fixed font.

#include <QFontDatabase>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

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

} // namespace provender::ui::exportui
