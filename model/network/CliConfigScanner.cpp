#include "model/network/CliConfigScanner.h"

#include <QChar>
#include <QRegularExpression>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender::cliconfig::detail {

namespace {

constexpr char32_t kEof = 0;
constexpr char32_t kBad = 0xFFFD; // what an invalid UTF-8 sequence reads as

bool isLetter(char32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= 0x80 && QChar::isLetter(c));
}
bool isDigit(char32_t c)
{
    return (c >= '0' && c <= '9') || (c >= 0x80 && QChar::isDigit(c));
}
bool isDecimal(char32_t c)
{
    return c >= '0' && c <= '9';
}
bool isHex(char32_t c)
{
    return isDecimal(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int digitValue(char32_t c)
{
    if (isDecimal(c))
        return int(c - '0');
    if (c >= 'a' && c <= 'f')
        return int(c - 'a' + 10);
    if (c >= 'A' && c <= 'F')
        return int(c - 'A' + 10);
    return 16;
}

} // namespace

std::pair<char32_t, int> decodeRune(const QByteArray &b, qsizetype i)
{
    const auto at = [&](qsizetype k) { return k < b.size() ? static_cast<unsigned char>(b.at(k)) : 0u; };
    const unsigned c = at(i);
    if (c < 0x80)
        return {c, 1};
    int n = 0;
    char32_t r = 0;
    char32_t min = 0;
    if ((c & 0xE0) == 0xC0)
        n = 1, r = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0)
        n = 2, r = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0)
        n = 3, r = c & 0x07, min = 0x10000;
    else
        return {kBad, 1};
    for (int k = 1; k <= n; ++k) {
        const unsigned cc = at(i + k);
        if ((cc & 0xC0) != 0x80)
            return {kBad, 1};
        r = (r << 6) | (cc & 0x3F);
    }
    if (r < min || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF))
        return {kBad, 1};
    return {r, n + 1};
}

// ---- the scanner ------------------------------------------------------------------------------

Token Scanner::scan()
{
    char32_t ch = next();
    while (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
        ch = next();
    Token t;
    const qsizetype start = m_pos.offset - m_lastCharLen;
    t.pos.offset = start;
    if (m_pos.column > 0) {
        t.pos.line = m_pos.line;
        t.pos.column = m_pos.column;
    } else {
        t.pos.line = m_pos.line - 1;
        t.pos.column = m_lastLineLen;
    }
    t.type = m_json ? jsonKind(ch) : kind(ch);
    t.text = m_src.mid(start, m_pos.offset - start);
    return t;
}

Tok Scanner::kind(char32_t ch)
{
    if (isLetter(ch)) {
        const QByteArray word = identifier();
        return word == "true" || word == "false" ? Tok::Bool : Tok::Ident;
    }
    if (isDecimal(ch))
        return number(ch);
    switch (ch) {
    case kEof: return Tok::Eof;
    case '"': string(); return Tok::String;
    case '#':
    case '/': comment(ch); return Tok::Comment;
    case '.':
        if (isDecimal(peek())) {
            exponent(mantissa(peek()));
            return Tok::Float;
        }
        return Tok::Period;
    case '<': heredoc(); return Tok::Heredoc;
    case '[': return Tok::LBrack;
    case ']': return Tok::RBrack;
    case '{': return Tok::LBrace;
    case '}': return Tok::RBrace;
    case ',': return Tok::Comma;
    case '=': return Tok::Assign;
    case '+': return Tok::Add;
    case '-':
        if (isDecimal(peek()))
            return number(next());
        return Tok::Sub;
    default: fail(u"illegal char"_s); return Tok::Illegal;
    }
}

Tok Scanner::jsonKind(char32_t ch)
{
    if (isLetter(ch)) {
        const QByteArray word = identifier();
        if (word == "true" || word == "false")
            return Tok::Bool;
        if (word == "null")
            return Tok::Null;
        fail(u"illegal char"_s);
        return Tok::Illegal;
    }
    if (isDecimal(ch) || (ch == '-' && isDecimal(peek())))
        return jsonNumber(ch);
    switch (ch) {
    case kEof: return Tok::Eof;
    case '"': string(); return Tok::String;
    case '[': return Tok::LBrack;
    case ']': return Tok::RBrack;
    case '{': return Tok::LBrace;
    case '}': return Tok::RBrace;
    case ',': return Tok::Comma;
    case ':': return Tok::Colon;
    case '.':
        if (isDecimal(peek())) { // `.5`, as in HCL
            exponent(mantissa(peek()));
            return Tok::Float;
        }
        return Tok::Period; // a token, not an error (terraform reads `{…}. x` as `{…}`)
    default: fail(u"illegal char"_s); return Tok::Illegal;
    }
}

Tok Scanner::jsonNumber(char32_t ch)
{
    if (ch == '-')
        ch = next();
    if (ch == '0' && isDecimal(peek())) {
        fail(u"numbers cannot start with 0"_s);
    }
    ch = mantissa(ch);
    ch = next();
    bool isFloat = false;
    if (ch == '.') {
        isFloat = true;
        ch = mantissa(next());
        ch = next();
    }
    if (ch == 'e' || ch == 'E') {
        isFloat = true;
        ch = next();
        if (ch == '-' || ch == '+')
            ch = next();
        ch = mantissa(ch);
        ch = next();
    }
    if (ch != kEof)
        unread();
    return isFloat ? Tok::Float : Tok::Number;
}

char32_t Scanner::next()
{
    if (m_pos.offset >= m_src.size()) {
        ++m_pos.column;
        m_lastCharLen = 0;
        return kEof;
    }
    const auto [ch, size] = decodeRune(m_src, m_pos.offset);
    m_prev = m_pos;
    ++m_pos.column;
    m_lastCharLen = size;
    m_pos.offset += size;
    if (ch == kBad && size == 1) {
        fail(u"illegal UTF-8 encoding"_s);
        return ch;
    }
    if (ch == '\n') {
        ++m_pos.line;
        m_lastLineLen = m_pos.column;
        m_pos.column = 0;
    }
    if (ch == 0) {
        fail(u"unexpected null character (0x00)"_s);
        return kEof;
    }
    if (ch == 0xE123) {
        fail(u"unicode code point U+E123 reserved for internal use"_s);
        return kBad;
    }
    return ch;
}

void Scanner::unread()
{
    m_pos = m_prev;
}

char32_t Scanner::peek() const
{
    return m_pos.offset < m_src.size() ? decodeRune(m_src, m_pos.offset).first : kEof;
}

void Scanner::fail(const QString &message)
{
    ScanError e;
    e.message = message;
    if (m_pos.column > 0) {
        e.line = m_pos.line;
        e.column = m_pos.column;
    } else if (m_lastLineLen > 0) {
        e.line = m_pos.line - 1;
        e.column = m_lastLineLen;
    } else {
        e.line = 1;
        e.column = 1;
    }
    error = e;
}

QByteArray Scanner::identifier()
{
    const qsizetype start = m_pos.offset - m_lastCharLen;
    char32_t ch = next();
    // HCL's identifiers take '-' and '.'; the JSON scanner's words (true, false, null) do not.
    while (isLetter(ch) || isDigit(ch) || (!m_json && (ch == '-' || ch == '.')))
        ch = next();
    if (ch != kEof)
        unread();
    return m_src.mid(start, m_pos.offset - start);
}

void Scanner::comment(char32_t ch)
{
    if (ch == '#' || (ch == '/' && peek() != '*')) {
        if (ch == '/' && peek() != '/') {
            fail(u"expected '/' for comment"_s);
            return;
        }
        ch = next();
        while (ch != '\n' && ch != kEof)
            ch = next();
        if (ch != kEof)
            unread();
        return;
    }
    next();      // the '*'
    ch = next(); // the character after "/*"
    for (;;) {
        if (ch == kEof) {
            fail(u"comment not terminated"_s);
            return;
        }
        const char32_t before = ch;
        ch = next();
        if (before == '*' && ch == '/')
            return;
    }
}

Tok Scanner::number(char32_t ch)
{
    bool illegalOctal = false; // 0159 is not a number, but 0159.23 is
    if (ch == '0') {
        ch = next();
        if (ch == 'x' || ch == 'X') {
            ch = next();
            bool found = false;
            while (isHex(ch))
                ch = next(), found = true;
            if (!found)
                fail(u"illegal hexadecimal number"_s);
            if (ch != kEof)
                unread();
            return Tok::Number;
        }
        while (isDecimal(ch)) {
            ch = next();
            if (ch == '8' || ch == '9')
                illegalOctal = true;
        }
    } else {
        mantissa(ch);
        ch = next();
    }
    if (ch == 'e' || ch == 'E') {
        exponent(ch);
        return Tok::Float;
    }
    if (ch == '.') {
        ch = fraction(ch);
        if (ch == 'e' || ch == 'E')
            exponent(next());
        return Tok::Float;
    }
    if (illegalOctal)
        fail(u"illegal octal number"_s);
    if (ch != kEof)
        unread();
    return Tok::Number;
}

char32_t Scanner::mantissa(char32_t ch)
{
    bool scanned = false;
    while (isDecimal(ch))
        ch = next(), scanned = true;
    if (scanned && ch != kEof)
        unread();
    return ch;
}

char32_t Scanner::fraction(char32_t ch)
{
    return ch == '.' ? mantissa(peek()) : ch;
}

char32_t Scanner::exponent(char32_t ch)
{
    if (ch == 'e' || ch == 'E') {
        ch = next();
        if (ch == '-' || ch == '+')
            ch = next();
        ch = mantissa(ch);
    }
    return ch;
}

void Scanner::heredoc()
{
    if (next() != '<') {
        fail(u"heredoc expected second '<', didn't see it"_s);
        return;
    }
    const qsizetype anchorStart = m_pos.offset;
    char32_t ch = next();
    if (ch == '-')
        ch = next();
    while (isLetter(ch) || isDigit(ch))
        ch = next();
    if (ch == kEof) {
        fail(u"heredoc not terminated"_s);
        return;
    }
    if (ch == '\r' && peek() == '\n')
        ch = next();
    if (ch != '\n') {
        fail(u"invalid characters in heredoc anchor"_s);
        return;
    }
    // hcl v1 keeps the anchor as scanned ('-' and a '\r' included) for a length check, and
    // ends the heredoc at a line `^[[:space:]]*ANCHOR\r*\z` (ANCHOR without the '-').
    const QByteArray raw = m_src.mid(anchorStart, m_pos.offset - m_lastCharLen - anchorStart);
    if (raw.isEmpty()) {
        fail(u"zero-length heredoc anchor"_s);
        return;
    }
    const QRegularExpression end(u"^[\\t\\n\\v\\f\\r ]*"_s
                                 + QRegularExpression::escape(QString::fromUtf8(raw.startsWith('-') ? raw.mid(1) : raw)) + u"\\r*\\z"_s);
    qsizetype lineStart = m_pos.offset;
    for (;;) {
        ch = next();
        if (ch == '\n') {
            const QByteArray line = m_src.mid(lineStart, m_pos.offset - m_lastCharLen - lineStart);
            if (line.size() >= raw.size() && end.match(QString::fromUtf8(line)).hasMatch())
                return;
            lineStart = m_pos.offset;
        }
        if (ch == kEof) {
            fail(u"heredoc not terminated"_s);
            return;
        }
    }
}

void Scanner::string()
{
    int braces = 0;
    for (;;) {
        const char32_t ch = next();
        if ((ch == '\n' && braces == 0) || ch == kEof) {
            fail(u"literal not terminated"_s);
            return;
        }
        if (ch == '"' && braces == 0)
            return;
        if (braces == 0 && ch == '$' && peek() == '{') {
            ++braces;
            next();
        } else if (braces > 0 && ch == '{') {
            ++braces;
        }
        if (braces > 0 && ch == '}')
            --braces;
        if (ch == '\\')
            escape();
    }
}

void Scanner::escape()
{
    const char32_t ch = next();
    switch (ch) {
    case 'a':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'v':
    case '\\':
    case '"': return;
    case 'x': digits(next(), 16, 2); return;
    case 'u': digits(next(), 16, 4); return;
    case 'U': digits(next(), 16, 8); return;
    default:
        if (ch >= '0' && ch <= '7')
            digits(ch, 8, 3);
        else
            fail(u"illegal char escape"_s);
    }
}

void Scanner::digits(char32_t ch, int base, int n)
{
    const int start = n;
    while (n > 0 && digitValue(ch) < base) {
        ch = next();
        if (ch == kEof)
            break;
        --n;
    }
    if (n > 0)
        fail(u"illegal char escape"_s);
    if (n != start && ch != kEof)
        unread();
}

// ---- values of literal tokens -----------------------------------------------------------------

/// A quoted string's text as hcl v1's strconv.Unquote gives it: Go escapes decoded, `${ … }`
/// copied as written.
QString unquote(const QByteArray &quoted)
{
    const QByteArray s = quoted.mid(1, quoted.size() - 2);
    QByteArray out;
    const auto appendRune = [&out](char32_t r) { out += QString::fromUcs4(&r, 1).toUtf8(); };
    qsizetype i = 0;
    while (i < s.size()) {
        if (s.at(i) == '$' && i + 1 < s.size() && s.at(i + 1) == '{') {
            int braces = 1;
            out += "${";
            i += 2;
            while (i < s.size() && braces > 0) {
                const char c = s.at(i++);
                out += c;
                braces += c == '{' ? 1 : c == '}' ? -1 : 0;
            }
            continue;
        }
        const char c = s.at(i++);
        if (c != '\\' || i >= s.size()) {
            out += c;
            continue;
        }
        const char e = s.at(i++);
        const auto hex = [&](int n) {
            char32_t r = 0;
            for (int k = 0; k < n && i < s.size() && isHex(char32_t(s.at(i))); ++k)
                r = r * 16 + char32_t(digitValue(char32_t(s.at(i++))));
            return r;
        };
        switch (e) {
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'v': out += '\v'; break;
        case 'x': out += char(hex(2)); break; // a byte, as in Go
        case 'u': appendRune(hex(4)); break;
        case 'U': appendRune(hex(8)); break;
        default:
            if (e >= '0' && e <= '7') {
                int v = e - '0';
                for (int k = 0; k < 2 && i < s.size() && s.at(i) >= '0' && s.at(i) <= '7'; ++k)
                    v = v * 8 + (s.at(i++) - '0');
                out += char(v);
            } else {
                out += e; // \\ and \"
            }
        }
    }
    return QString::fromUtf8(out);
}

/// A heredoc's text as hcl v1's token.Value gives it, with that function's arithmetic: the text
/// after the opening line, less the closing anchor's length at the end; with `<<-`, the closing
/// line's indentation taken off every line when all lines have it.
QString heredocText(const QByteArray &t)
{
    const qsizetype eol = t.indexOf('\n');
    if (eol < 0 || t.size() < 3)
        return {};
    const qsizetype n = t.size();
    if (t.at(2) != '-')
        return QString::fromUtf8(t.mid(eol + 1, std::max<qsizetype>(0, n - 2 * eol)));
    const QList<QByteArray> lines = t.mid(eol + 1, std::max<qsizetype>(0, n - 2 * eol + 1)).split('\n');
    const QByteArray &indent = lines.last();
    if (!std::all_of(lines.begin(), lines.end(), [&](const QByteArray &l) { return l.startsWith(indent); })) {
        QByteArray text = t.mid(eol + 1, std::max<qsizetype>(0, n - 2 * eol));
        while (text.endsWith(' ') || text.endsWith('\t'))
            text.chop(1);
        return QString::fromUtf8(text);
    }
    QByteArrayList kept;
    for (qsizetype k = 0; k + 1 < lines.size(); ++k)
        kept.append(lines.at(k).mid(indent.size()));
    kept.append(QByteArray());
    return QString::fromUtf8(kept.join('\n'));
}

} // namespace provender::cliconfig::detail
