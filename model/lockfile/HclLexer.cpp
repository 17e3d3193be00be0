// The HCL-subset lexer: hclsyntax's scanner (token classes, template and heredoc states), the
// tokens hclsyntax never accepts (checkInvalidTokens), and byte offset -> line/column (SourceMap).

#include "model/lockfile/HclSyntax.h"

#include "model/lockfile/HclSyntaxInternal.h"

#include <QChar>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace provender::hcl {

using namespace detail;

namespace {

// ---- Scanner ------------------------------------------------------------------------------

class Scanner
{
public:
    explicit Scanner(const QByteArray &data) : d(data.constData()), n(data.size()) {}

    std::vector<Token> run()
    {
        if (n >= 3 && static_cast<unsigned char>(d[0]) == 0xEF && static_cast<unsigned char>(d[1]) == 0xBB
            && static_cast<unsigned char>(d[2]) == 0xBF)
            i = 3;
        out.reserve(static_cast<size_t>(n / 6 + 16));
        modes.push_back(Mode::Main);
        while (i < n) {
            switch (modes.back()) {
            case Mode::Main: scanMain(); break;
            case Mode::String: scanString(); break;
            case Mode::Heredoc: scanHeredoc(); break;
            }
        }
        emit(Tok::Eof, n, n);
        return std::move(out);
    }

private:
    enum class Mode { Main, String, Heredoc };
    struct Heredoc
    {
        QByteArray marker;
        bool startOfLine = true;
    };

    const char *d;
    qsizetype n;
    qsizetype i = 0;
    std::vector<Token> out;
    std::vector<Mode> modes;
    std::vector<int> retBraces;
    std::vector<Heredoc> heredocs;
    int braces = 0;

    void emit(Tok t, qsizetype b, qsizetype e) { out.push_back(Token{t, qint32(b), qint32(e)}); }
    bool at(qsizetype k, char c) const { return k < n && d[k] == c; }

    void beginTemplateSeq(Tok t, qsizetype len)
    {
        emit(t, i, i + len);
        i += len;
        ++braces;
        retBraces.push_back(braces);
        if (!heredocs.empty())
            heredocs.back().startOfLine = false;
        modes.push_back(Mode::Main);
    }

    // NOLINTNEXTLINE(readability-function-size): a branch per token class of hclsyntax scan_tokens.rl (ARCHITECTURE.md)
    void scanMain()
    {
        const char c = d[i];
        const qsizetype s = i;
        if (c == ' ' || c == '\t') {
            while (i < n && (d[i] == ' ' || d[i] == '\t'))
                ++i;
            return;
        }
        if (isDigit(c)) {
            scanNumber();
            return;
        }
        if (c == '#' || (c == '/' && at(i + 1, '/'))) {
            while (i < n && d[i] != '\n')
                ++i;
            if (i < n)
                ++i; // the newline belongs to the comment
            emit(Tok::Comment, s, i);
            return;
        }
        if (c == '/' && at(i + 1, '*')) {
            for (qsizetype k = i + 2; k + 1 < n; ++k) {
                if (d[k] == '*' && d[k + 1] == '/') {
                    i = k + 2;
                    emit(Tok::Comment, s, i);
                    return;
                }
            }
            // Unterminated: not a comment at all; `/` is an operator.
            ++i;
            emit(Tok::Operator, s, i);
            return;
        }
        if (c == '\n') {
            ++i;
            emit(Tok::Newline, s, i);
            return;
        }
        if (c == '\r' && at(i + 1, '\n')) {
            i += 2;
            emit(Tok::Newline, s, i);
            return;
        }
        auto two = [&](char a, char b) { return c == a && at(i + 1, b); };
        if (two('=', '=') || two('!', '=') || two('>', '=') || two('<', '=') || two('&', '&') || two('|', '|')) {
            i += 2;
            emit(Tok::Operator, s, i);
            return;
        }
        if (two(':', ':')) {
            i += 2;
            emit(Tok::DoubleColon, s, i);
            return;
        }
        if (c == '.' && at(i + 1, '.') && at(i + 2, '.')) {
            i += 3;
            emit(Tok::Ellipsis, s, i);
            return;
        }
        if (two('=', '>')) {
            i += 2;
            emit(Tok::FatArrow, s, i);
            return;
        }
        if (two('<', '<') && scanHeredocStart())
            return;
        if (two('~', '}')) {
            i += 2;
            emit(Tok::TemplateSeqEnd, s, i);
            if (!retBraces.empty() && retBraces.back() == braces) {
                retBraces.pop_back();
                --braces;
                modes.pop_back();
            } else {
                --braces;
            }
            return;
        }
        switch (c) {
        case '{':
            ++i;
            emit(Tok::OBrace, s, i);
            ++braces;
            return;
        case '}':
            ++i;
            if (!retBraces.empty() && retBraces.back() == braces) {
                emit(Tok::TemplateSeqEnd, s, i);
                retBraces.pop_back();
                --braces;
                modes.pop_back();
            } else {
                emit(Tok::CBrace, s, i);
                --braces;
            }
            return;
        case '"':
            ++i;
            emit(Tok::OQuote, s, i);
            modes.push_back(Mode::String);
            return;
        case '[':
            ++i;
            emit(Tok::OBrack, s, i);
            return;
        case ']':
            ++i;
            emit(Tok::CBrack, s, i);
            return;
        case '(':
            ++i;
            emit(Tok::OParen, s, i);
            return;
        case ')':
            ++i;
            emit(Tok::CParen, s, i);
            return;
        case '.':
            ++i;
            emit(Tok::Dot, s, i);
            return;
        case ',':
            ++i;
            emit(Tok::Comma, s, i);
            return;
        case '=':
            ++i;
            emit(Tok::Equal, s, i);
            return;
        case '?':
            ++i;
            emit(Tok::Question, s, i);
            return;
        case ':':
            ++i;
            emit(Tok::Colon, s, i);
            return;
        case ';':
            ++i;
            emit(Tok::Semicolon, s, i);
            return;
        case '`':
            ++i;
            emit(Tok::Backtick, s, i);
            return;
        case '\'':
            ++i;
            emit(Tok::Apostrophe, s, i);
            return;
        case '*':
        case '/':
        case '%':
        case '+':
        case '-':
        case '<':
        case '>':
        case '!':
        case '&':
        case '|':
        case '~':
        case '^':
            ++i;
            emit(Tok::Operator, s, i);
            return;
        default: break;
        }
        const int len = utf8Length(d + i, n - i);
        if (len == 0) {
            ++i;
            emit(Tok::BadUtf8, s, i);
            return;
        }
        const char32_t cp = decodeUtf8(d + i, len);
        if (isIdStart(cp) || cp == '_') {
            i += len;
            scanIdentRest();
            emit(Tok::Ident, s, i);
            return;
        }
        i += len;
        emit(Tok::Invalid, s, i);
    }

    void scanIdentRest()
    {
        while (i < n) {
            if (d[i] == '-') {
                ++i;
                continue;
            }
            const int len = utf8Length(d + i, n - i);
            if (len == 0)
                return;
            if (!isIdContinue(decodeUtf8(d + i, len)))
                return;
            i += len;
        }
    }

    void scanNumber()
    {
        // digit (digit | '.' | [eE][+-]?digit)* that does not end in '.'
        const qsizetype s = i;
        ++i;
        qsizetype good = i;
        while (i < n) {
            if (isDigit(d[i])) {
                ++i;
                good = i;
            } else if (d[i] == '.') {
                ++i;
            } else if ((d[i] == 'e' || d[i] == 'E')) {
                qsizetype k = i + 1;
                if (k < n && (d[k] == '+' || d[k] == '-'))
                    ++k;
                if (k < n && isDigit(d[k])) {
                    i = k + 1;
                    good = i;
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        i = good;
        emit(Tok::Number, s, i);
    }

    bool scanHeredocStart()
    {
        // '<<' '-'? Ident Newline
        qsizetype k = i + 2;
        if (at(k, '-'))
            ++k;
        const qsizetype identStart = k;
        if (k >= n)
            return false;
        int len = utf8Length(d + k, n - k);
        if (len == 0)
            return false;
        const char32_t first = decodeUtf8(d + k, len);
        if (!isIdStart(first) && first != '_')
            return false;
        k += len;
        while (k < n) {
            if (d[k] == '-') {
                ++k;
                continue;
            }
            len = utf8Length(d + k, n - k);
            if (len == 0 || !isIdContinue(decodeUtf8(d + k, len)))
                break;
            k += len;
        }
        const qsizetype identEnd = k;
        if (at(k, '\n'))
            k += 1;
        else if (at(k, '\r') && at(k + 1, '\n'))
            k += 2;
        else
            return false;
        emit(Tok::OHeredoc, i, k);
        heredocs.push_back(Heredoc{QByteArray(d + identStart, identEnd - identStart), true});
        i = k;
        modes.push_back(Mode::Heredoc);
        return true;
    }

    /// A `$` or `%` in a template: `${`/`%{` (with optional `~`) opens a sequence; `$${`/`%%{`
    /// is an escape token; a lone sign is a literal token. Returns true when it emitted.
    bool scanTemplateSign(Tok literalType)
    {
        const char c = d[i];
        if (c != '$' && c != '%')
            return false;
        const Tok seq = c == '$' ? Tok::TemplateInterp : Tok::TemplateControl;
        if (at(i + 1, '{')) {
            beginTemplateSeq(seq, at(i + 2, '~') ? 3 : 2);
            return true;
        }
        if (at(i + 1, c) && at(i + 2, '{')) {
            const qsizetype len = at(i + 3, '~') ? 4 : 3;
            emit(literalType, i, i + len);
            i += len;
            return true;
        }
        if (i + 1 >= n) {
            // A sign at the very end: nothing can follow, HCL's scanner sees an invalid token.
            emit(Tok::Invalid, i, i + 1);
            ++i;
            return true;
        }
        emit(literalType, i, i + 1);
        ++i;
        return true;
    }

    void scanString()
    {
        const qsizetype s = i;
        const char c = d[i];
        if (c == '"') {
            ++i;
            emit(Tok::CQuote, s, i);
            modes.pop_back();
            return;
        }
        if (scanTemplateSign(Tok::QuotedLit))
            return;
        if (c == '\r' || c == '\n') {
            while (i < n && (d[i] == '\r' || d[i] == '\n'))
                ++i;
            emit(Tok::QuotedNewline, s, i);
            return;
        }
        // A run of plain characters and backslash escapes.
        while (i < n) {
            const char ch = d[i];
            if (ch >= 0x20 && ch < 0x7F && ch != '"' && ch != '$' && ch != '%' && ch != '\\') {
                ++i; // the common case: printable ASCII
                continue;
            }
            if (ch == '"' || ch == '$' || ch == '%' || ch == '\r' || ch == '\n')
                break;
            if (ch == '\\') {
                if (i + 1 >= n || d[i + 1] == '\r' || d[i + 1] == '\n')
                    break;
                const int len = utf8Length(d + i + 1, n - i - 1);
                if (len == 0)
                    break;
                i += 1 + len;
                continue;
            }
            const int len = utf8Length(d + i, n - i);
            if (len == 0)
                break;
            i += len;
        }
        if (i > s) {
            emit(Tok::QuotedLit, s, i);
            return;
        }
        // Nothing matched: a backslash before a newline/end, or a broken byte.
        if (c == '\\') {
            ++i;
            emit(Tok::Invalid, s, i);
            return;
        }
        ++i;
        emit(Tok::BadUtf8, s, i);
    }

    void scanHeredoc()
    {
        const qsizetype s = i;
        if (scanTemplateSign(Tok::StringLit)) {
            if (!heredocs.empty())
                heredocs.back().startOfLine = false;
            return;
        }
        while (i < n) {
            const char ch = d[i];
            if (ch == '$' || ch == '%' || ch == '\n')
                break;
            if (ch == '\r' && at(i + 1, '\n'))
                break;
            const int len = utf8Length(d + i, n - i);
            if (len == 0)
                break;
            i += len;
        }
        qsizetype lineEnd = i;
        bool eol = false;
        if (at(i, '\n')) {
            i += 1;
            eol = true;
        } else if (at(i, '\r') && at(i + 1, '\n')) {
            i += 2;
            eol = true;
        }
        if (eol) {
            Heredoc &top = heredocs.back();
            if (top.startOfLine) {
                const QByteArray line = QByteArray(d + s, lineEnd - s).trimmed();
                if (line == top.marker) {
                    emit(Tok::CHeredoc, s, lineEnd);
                    emit(Tok::Newline, lineEnd, i);
                    heredocs.pop_back();
                    modes.pop_back();
                    return;
                }
            }
            top.startOfLine = true;
            emit(Tok::StringLit, s, i);
            return;
        }
        if (i > s) {
            heredocs.back().startOfLine = false;
            emit(Tok::StringLit, s, i);
            return;
        }
        ++i;
        emit(Tok::BadUtf8, s, i);
    }
};
} // namespace

QString Range::toString(const QString &fileName) const
{
    if (start.line == end.line)
        return u"%1:%2,%3-%4"_s.arg(fileName).arg(start.line).arg(start.column).arg(end.column);
    return u"%1:%2,%3-%4,%5"_s.arg(fileName).arg(start.line).arg(start.column).arg(end.line).arg(end.column);
}

SourceMap::SourceMap(const QByteArray &data) : m_data(data)
{
    m_lineStarts.push_back(0);
    const char *p = data.constData();
    const qsizetype n = data.size();
    for (qsizetype k = 0; k < n; ++k) {
        if (p[k] == '\n')
            m_lineStarts.push_back(k + 1);
    }
}

namespace {

/// Columns from `from` (a character boundary at column `column`) up to `to`.
int countColumns(const QByteArray &data, qsizetype from, qsizetype to, int column, bool lineStart, qsizetype *stoppedAt = nullptr)
{
    const char *p = data.constData();
    const qsizetype n = data.size();
    qsizetype k = from;
    bool first = lineStart;
    while (k < to) {
        int len = utf8Length(p + k, n - k);
        if (len == 0) {
            len = 1;
            ++column;
        } else if (p[k] == '\r' && k + 1 < n && p[k + 1] == '\n') {
            len = 2;
            ++column;
        } else if (first || !isCombining(decodeUtf8(p + k, len))) {
            ++column;
        }
        first = false;
        k += len;
    }
    if (stoppedAt)
        *stoppedAt = k;
    return column;
}

} // namespace

Pos SourceMap::pos(qsizetype byte) const
{
    byte = std::clamp<qsizetype>(byte, 0, m_data.size());
    auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), byte);
    const qsizetype lineIndex = (it - m_lineStarts.begin()) - 1;
    qsizetype start = m_lineStarts[size_t(lineIndex)];
    // The BOM is not a character: columns on line 1 start after it.
    if (lineIndex == 0 && m_data.size() >= 3 && static_cast<unsigned char>(m_data[0]) == 0xEF
        && static_cast<unsigned char>(m_data[1]) == 0xBB && static_cast<unsigned char>(m_data[2]) == 0xBF && byte >= 3)
        start = 3;
    if (byte - start <= kCursorStep)
        return Pos{int(lineIndex + 1), countColumns(m_data, start, byte, 1, true), byte};

    // A long line: remember (byte, column) every kCursorStep bytes so that many positions on it
    // cost O(line) once, not O(line) each; and continue from the previous position when the
    // positions asked for come in order (they mostly do).
    if (m_last.line == lineIndex && m_last.byte <= byte && byte - m_last.byte < kCursorStep) {
        const int col = countColumns(m_data, m_last.byte, byte, m_last.column, m_last.byte == start);
        m_last = {lineIndex, byte, col};
        return Pos{int(lineIndex + 1), col, byte};
    }
    std::vector<Cursor> &cursors = m_longLines[lineIndex];
    if (cursors.empty())
        cursors.push_back({start, 1});
    while (cursors.back().byte + kCursorStep < byte) {
        const Cursor &last = cursors.back();
        qsizetype stopped = 0;
        const int col = countColumns(m_data, last.byte, last.byte + kCursorStep, last.column, last.byte == start, &stopped);
        cursors.push_back({stopped, col});
    }
    auto c = std::upper_bound(cursors.begin(), cursors.end(), byte, [](qsizetype b, const Cursor &cur) { return b < cur.byte; });
    --c;
    const int col = countColumns(m_data, c->byte, byte, c->column, c->byte == start);
    m_last = {lineIndex, byte, col};
    return Pos{int(lineIndex + 1), col, byte};
}

std::vector<Token> scan(const QByteArray &data)
{
    if (data.size() > kMaxInputSize)
        return {Token{Tok::Eof, 0, 0}};
    return Scanner(data).run();
}

QList<Diagnostic> checkInvalidTokens(const QByteArray &data, const std::vector<Token> &tokens)
{
    QList<Diagnostic> diags;
    int toldBitwise = 0, toldBacktick = 0, toldApostrophe = 0, toldSemicolon = 0, toldBadUtf8 = 0;
    const auto err = [&](const QString &summary, const QString &detail, const Token &t) {
        diags.append(Diagnostic::error(summary, detail, {t.begin, t.end}));
    };
    for (const Token &t : tokens) {
        const qsizetype len = t.end - t.begin;
        switch (t.type) {
        case Tok::Operator:
            if (len == 1) {
                const char c = data[t.begin];
                if ((c == '&' || c == '|' || c == '^' || c == '~') && toldBitwise < 4) {
                    QString suggestion;
                    if (c == '&')
                        suggestion = u" Did you mean boolean AND (\"&&\")?"_s;
                    else if (c == '|')
                        suggestion = u" Did you mean boolean OR (\"||\")?"_s;
                    else if (c == '~')
                        suggestion = u" Did you mean boolean NOT (\"!\")?"_s;
                    err(u"Unsupported operator"_s, u"Bitwise operators are not supported."_s + suggestion, t);
                    ++toldBitwise;
                }
            }
            break;
        case Tok::Backtick:
            if (toldBacktick % 2 == 0)
                err(u"Invalid character"_s,
                    u"The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\"."_s, t);
            if (toldBacktick <= 2)
                ++toldBacktick;
            break;
        case Tok::Apostrophe:
            if (toldApostrophe % 2 == 0)
                err(u"Invalid character"_s, u"Single quotes are not valid. Use double quotes (\") to enclose strings."_s, t);
            if (toldApostrophe <= 2)
                ++toldApostrophe;
            break;
        case Tok::Semicolon:
            if (toldSemicolon < 1) {
                err(u"Invalid character"_s,
                    u"The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values."_s,
                    t);
                ++toldSemicolon;
            }
            break;
        case Tok::BadUtf8:
            if (toldBadUtf8 < 1) {
                err(u"Invalid character encoding"_s,
                    u"All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor."_s, t);
                ++toldBadUtf8;
            }
            break;
        case Tok::QuotedNewline:
            err(u"Invalid multi-line string"_s,
                u"Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax."_s,
                t);
            break;
        case Tok::Invalid: {
            const QByteArray chars = data.mid(t.begin, len);
            if (chars == "\xE2\x80\x9C" || chars == "\xE2\x80\x9D")
                err(u"Invalid character"_s,
                    u"\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\"."_s,
                    t);
            else
                err(u"Invalid character"_s, u"This character is not used within the language."_s, t);
            break;
        }
        default: break;
        }
    }
    return diags;
}

} // namespace provender::hcl
