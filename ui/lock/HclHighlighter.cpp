#include "ui/lock/HclHighlighter.h"

using namespace Qt::StringLiterals;

namespace provender::ui {

namespace {
constexpr int kInBlockComment = 1;

bool isIdentStart(QChar c)
{
    return c.isLetter() || c == u'_';
}
bool isIdentChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'-';
}
} // namespace

HclHighlighter::HclHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
{
    m_comment.setForeground(QColor(0x6a, 0x73, 0x7d));
    m_comment.setFontItalic(true);
    m_string.setForeground(QColor(0x03, 0x2f, 0x62));
    m_scheme.setForeground(QColor(0x6f, 0x42, 0xc1));
    m_scheme.setFontWeight(QFont::Bold);
    m_keyword.setForeground(QColor(0xd7, 0x3a, 0x49));
    m_keyword.setFontWeight(QFont::Bold);
    m_attribute.setForeground(QColor(0x00, 0x5c, 0xc5));
    m_number.setForeground(QColor(0x00, 0x5c, 0xc5));
    m_bracket.setForeground(QColor(0x58, 0x60, 0x69));
}

void HclHighlighter::highlightBlock(const QString &text)
{
    setCurrentBlockState(0);
    qsizetype i = 0;
    const qsizetype n = text.size();
    if (previousBlockState() == kInBlockComment) {
        const qsizetype end = text.indexOf(u"*/"_s);
        if (end < 0) {
            setFormat(0, int(n), m_comment);
            setCurrentBlockState(kInBlockComment);
            return;
        }
        setFormat(0, int(end + 2), m_comment);
        i = end + 2;
    }
    bool firstWord = true;
    while (i < n) {
        const QChar c = text.at(i);
        if (c == u'#' || (c == u'/' && i + 1 < n && text.at(i + 1) == u'/')) {
            setFormat(int(i), int(n - i), m_comment);
            return;
        }
        if (c == u'/' && i + 1 < n && text.at(i + 1) == u'*') {
            const qsizetype end = text.indexOf(u"*/"_s, i + 2);
            if (end < 0) {
                setFormat(int(i), int(n - i), m_comment);
                setCurrentBlockState(kInBlockComment);
                return;
            }
            setFormat(int(i), int(end + 2 - i), m_comment);
            i = end + 2;
            continue;
        }
        if (c == u'"') {
            qsizetype j = i + 1;
            while (j < n && text.at(j) != u'"') {
                if (text.at(j) == u'\\')
                    ++j;
                ++j;
            }
            const qsizetype end = qMin(n, j + 1);
            setFormat(int(i), int(end - i), m_string);
            // `h1:` / `zh:` and other schemes at the start of a hash string.
            const qsizetype colon = text.indexOf(u':', i + 1);
            if (colon > i + 1 && colon < end - 1 && colon - i <= 4) {
                bool scheme = true;
                for (qsizetype k = i + 1; k < colon; ++k)
                    scheme = scheme && text.at(k).isLetterOrNumber();
                if (scheme)
                    setFormat(int(i + 1), int(colon - i), m_scheme);
            }
            i = end;
            firstWord = false;
            continue;
        }
        if (isIdentStart(c)) {
            qsizetype j = i;
            while (j < n && isIdentChar(text.at(j)))
                ++j;
            qsizetype k = j;
            while (k < n && text.at(k).isSpace())
                ++k;
            if (k < n && text.at(k) == u'=' && (k + 1 >= n || text.at(k + 1) != u'='))
                setFormat(int(i), int(j - i), m_attribute);
            else if (firstWord)
                setFormat(int(i), int(j - i), m_keyword);
            i = j;
            firstWord = false;
            continue;
        }
        if (c.isDigit()) {
            qsizetype j = i;
            while (j < n && (text.at(j).isLetterOrNumber() || text.at(j) == u'.'))
                ++j;
            setFormat(int(i), int(j - i), m_number);
            i = j;
            firstWord = false;
            continue;
        }
        if (QStringView(u"{}[]()").contains(c))
            setFormat(int(i), 1, m_bracket);
        if (!c.isSpace())
            firstWord = false;
        ++i;
    }
}

} // namespace provender::ui
