#pragma once
// Syntax highlighting for the HCL subset of lock files: comments (`#`, `//`, `/* */` across
// lines), strings (with escapes; the `h1:`/`zh:` scheme of a hash set apart), block types,
// argument names, numbers and brackets.

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace provender::ui {

class HclHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit HclHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_comment;
    QTextCharFormat m_string;
    QTextCharFormat m_scheme;
    QTextCharFormat m_keyword;
    QTextCharFormat m_attribute;
    QTextCharFormat m_number;
    QTextCharFormat m_bracket;
};

} // namespace provender::ui
