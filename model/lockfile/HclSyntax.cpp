#include "model/lockfile/HclSyntax.h"

#include <QChar>
#include <QHash>

#include <cstring>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender::hcl {

namespace {

// ---- UTF-8 --------------------------------------------------------------------------------

/// HCL's "AnyUTF8": a lead byte with the right number of continuation bytes (overlong forms
/// and surrogates are not rejected). Returns the sequence length, or 0 for a broken byte.
int utf8Length(const char *p, qsizetype avail)
{
    const auto b = static_cast<unsigned char>(p[0]);
    int len = 0;
    if (b < 0x80)
        return 1;
    if (b >= 0xC0 && b <= 0xDF)
        len = 2;
    else if (b >= 0xE0 && b <= 0xEF)
        len = 3;
    else if (b >= 0xF0 && b <= 0xF7)
        len = 4;
    else
        return 0;
    if (avail < len)
        return 0;
    for (int i = 1; i < len; ++i) {
        const auto c = static_cast<unsigned char>(p[i]);
        if (c < 0x80 || c > 0xBF)
            return 0;
    }
    return len;
}

char32_t decodeUtf8(const char *p, int len)
{
    const auto b = static_cast<unsigned char>(p[0]);
    switch (len) {
    case 1:
        return b;
    case 2:
        return (char32_t(b & 0x1F) << 6) | (static_cast<unsigned char>(p[1]) & 0x3F);
    case 3:
        return (char32_t(b & 0x0F) << 12) | (char32_t(static_cast<unsigned char>(p[1]) & 0x3F) << 6)
               | (static_cast<unsigned char>(p[2]) & 0x3F);
    case 4:
        return (char32_t(b & 0x07) << 18) | (char32_t(static_cast<unsigned char>(p[1]) & 0x3F) << 12)
               | (char32_t(static_cast<unsigned char>(p[2]) & 0x3F) << 6) | (static_cast<unsigned char>(p[3]) & 0x3F);
    default:
        return 0xFFFD;
    }
}

bool isIdStart(char32_t c)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (c > 0x10FFFF)
        return false;
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase:
    case QChar::Letter_Lowercase:
    case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier:
    case QChar::Letter_Other:
    case QChar::Number_Letter:
        return true;
    default:
        return false;
    }
}

bool isIdContinue(char32_t c)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (isIdStart(c))
        return true;
    if (c > 0x10FFFF)
        return false;
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Number_DecimalDigit:
    case QChar::Punctuation_Connector:
        return true;
    default:
        return false;
    }
}

bool isCombining(char32_t c)
{
    if (c < 0x300 || c > 0x10FFFF)
        return false;
    if (c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F))
        return true;
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing:
        return true;
    default:
        return false;
    }
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

QString fromUtf8(const QByteArray &data, qsizetype begin, qsizetype end)
{
    return QString::fromUtf8(data.constData() + begin, end - begin);
}

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
            case Mode::Main:
                scanMain();
                break;
            case Mode::String:
                scanString();
                break;
            case Mode::Heredoc:
                scanHeredoc();
                break;
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
        case '[': ++i; emit(Tok::OBrack, s, i); return;
        case ']': ++i; emit(Tok::CBrack, s, i); return;
        case '(': ++i; emit(Tok::OParen, s, i); return;
        case ')': ++i; emit(Tok::CParen, s, i); return;
        case '.': ++i; emit(Tok::Dot, s, i); return;
        case ',': ++i; emit(Tok::Comma, s, i); return;
        case '=': ++i; emit(Tok::Equal, s, i); return;
        case '?': ++i; emit(Tok::Question, s, i); return;
        case ':': ++i; emit(Tok::Colon, s, i); return;
        case ';': ++i; emit(Tok::Semicolon, s, i); return;
        case '`': ++i; emit(Tok::Backtick, s, i); return;
        case '\'': ++i; emit(Tok::Apostrophe, s, i); return;
        case '*': case '/': case '%': case '+': case '-': case '<': case '>': case '!':
        case '&': case '|': case '~': case '^':
            ++i;
            emit(Tok::Operator, s, i);
            return;
        default:
            break;
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

// ---- Number literals ----------------------------------------------------------------------

/// Canonical decimal text of an HCL number literal (what cty prints when a number is
/// converted to a string: no exponent, no trailing zeros). Empty when invalid.
QString canonicalNumber(QByteArrayView lit)
{
    qsizetype k = 0;
    const qsizetype n = lit.size();
    QByteArray digits;
    qsizetype intDigits = 0;
    while (k < n && isDigit(lit[k]))
        digits.append(lit[k++]);
    intDigits = digits.size();
    if (intDigits == 0)
        return {};
    if (k < n && lit[k] == '.') {
        ++k;
        const qsizetype before = digits.size();
        while (k < n && isDigit(lit[k]))
            digits.append(lit[k++]);
        if (digits.size() == before)
            return {};
    }
    long long exp = 0;
    if (k < n && (lit[k] == 'e' || lit[k] == 'E')) {
        ++k;
        bool neg = false;
        if (k < n && (lit[k] == '+' || lit[k] == '-'))
            neg = lit[k++] == '-';
        if (k >= n)
            return {};
        while (k < n && isDigit(lit[k])) {
            exp = exp * 10 + (lit[k++] - '0');
            if (exp > 100000)
                return {};
        }
        if (neg)
            exp = -exp;
    }
    if (k != n)
        return {};
    long long point = intDigits + exp; // position of the decimal point within `digits`
    qsizetype lead = 0;
    while (lead < digits.size() && digits[lead] == '0')
        ++lead;
    digits = digits.mid(lead);
    point -= lead;
    while (!digits.isEmpty() && digits.endsWith('0'))
        digits.chop(1);
    if (digits.isEmpty())
        return u"0"_s;
    if (point > 10000 || point < -10000)
        return {}; // absurd magnitude: refuse rather than print thousands of zeros
    QByteArray text;
    if (point <= 0) {
        text = "0." + QByteArray(qsizetype(-point), '0') + digits;
    } else if (point >= digits.size()) {
        text = digits + QByteArray(qsizetype(point - digits.size()), '0');
    } else {
        text = digits.left(qsizetype(point)) + '.' + digits.mid(qsizetype(point));
    }
    return QString::fromLatin1(text);
}

// ---- String literal escapes ---------------------------------------------------------------

/// ParseStringLiteralToken: resolves escapes of one QuotedLit (quoted=true) or StringLit token.
QString decodeLiteral(const QByteArray &data, const Token &tok, bool quoted, QList<Diagnostic> &diags)
{
    const char *p = data.constData() + tok.begin;
    const qsizetype n = tok.end - tok.begin;
    if (!memchr(p, '\\', size_t(n)) && !memchr(p, '$', size_t(n)) && !memchr(p, '%', size_t(n)))
        return QString::fromUtf8(p, n); // nothing to resolve
    QByteArray out;
    out.reserve(n);
    qsizetype k = 0;
    while (k < n) {
        const char c = p[k];
        if (quoted && c == '\\') {
            const qsizetype s = k;
            if (k + 1 >= n) {
                diags.append(Diagnostic::error(u"Invalid escape sequence"_s,
                              u"Backslash must be followed by an escape sequence selector character."_s,
                              {tok.begin + s, tok.begin + n}));
                ++k;
                continue;
            }
            const char sel = p[k + 1];
            if (sel == 'u' || sel == 'U') {
                const int want = sel == 'u' ? 4 : 8;
                qsizetype e = k + 2;
                while (e < n && e - (k + 2) < want && isHex(p[e]))
                    ++e;
                const qsizetype got = e - (k + 2);
                k = e;
                if (got != want) {
                    diags.append(Diagnostic::error(u"Invalid escape sequence"_s,
                                  sel == 'u' ? u"The \\u escape sequence must be followed by four hexadecimal digits."_s
                                             : u"The \\U escape sequence must be followed by eight hexadecimal digits."_s,
                                  {tok.begin + s, tok.begin + e}));
                    out.append(p + s, e - s);
                    continue;
                }
                const uint cp = QByteArray(p + s + 2, want).toUInt(nullptr, 16);
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                    diags.append(Diagnostic::error(u"Invalid escape sequence"_s,
                                  u"Cannot encode character U+%1 in UTF-8."_s.arg(cp, 4, 16, QLatin1Char('0')),
                                  {tok.begin + s, tok.begin + e}));
                    out.append(p + s, e - s);
                    continue;
                }
                const char32_t ucs = cp;
                out.append(QString::fromUcs4(&ucs, 1).toUtf8());
                continue;
            }
            switch (sel) {
            case 'n': out.append('\n'); k += 2; continue;
            case 'r': out.append('\r'); k += 2; continue;
            case 't': out.append('\t'); k += 2; continue;
            case '"': out.append('"'); k += 2; continue;
            case '\\': out.append('\\'); k += 2; continue;
            default: {
                int len = utf8Length(p + k + 1, n - k - 1);
                if (len == 0)
                    len = 1;
                const QByteArray selector(p + k + 1, len);
                diags.append(Diagnostic::error(u"Invalid escape sequence"_s,
                              u"The symbol %1 is not a valid escape sequence selector."_s.arg(goQuote(QString::fromUtf8(selector))),
                              {tok.begin + s, tok.begin + k + 1 + len}));
                out.append(selector);
                k += 1 + len;
                continue;
            }
            }
        }
        if ((c == '$' || c == '%') && k + 2 < n && p[k + 1] == c && p[k + 2] == '{') {
            out.append(c);
            out.append('{');
            k += 3;
            continue;
        }
        out.append(c);
        ++k;
    }
    return QString::fromUtf8(out);
}

// ---- Parser -------------------------------------------------------------------------------

constexpr int kMaxDepth = 500;

class Parser
{
public:
    Parser(const QByteArray &data, const std::vector<Token> &tokens) : m_data(data), m_tokens(tokens) {}

    Body parseFileBody(const std::function<void(Block &&)> *onBlock = nullptr)
    {
        m_onBlock = onBlock;
        Body body = parseBody(Tok::Eof, Span{0, 0});
        return body;
    }

    QList<Diagnostic> diags;

private:
    const QByteArray &m_data;
    const std::vector<Token> &m_tokens;
    size_t m_next = 0;
    std::vector<bool> m_newlines{true};
    bool m_recovery = false;
    int m_depth = 0;
    const std::function<void(Block &&)> *m_onBlock = nullptr;

    // -- peeker --
    Token nextToken(size_t *idx) const
    {
        const bool nl = m_newlines.back();
        for (size_t k = m_next; k < m_tokens.size(); ++k) {
            const Token &t = m_tokens[k];
            if (t.type == Tok::Comment) {
                if (nl && t.end > t.begin && m_data[t.end - 1] == '\n') {
                    *idx = k + 1;
                    return Token{Tok::Newline, t.begin, t.end};
                }
                continue;
            }
            if (t.type == Tok::Newline && !nl)
                continue;
            *idx = k + 1;
            return t;
        }
        *idx = m_tokens.size();
        return m_tokens.back();
    }
    Token peek() const
    {
        size_t idx;
        return nextToken(&idx);
    }
    Token read()
    {
        size_t idx;
        Token t = nextToken(&idx);
        m_next = idx;
        return t;
    }
    Span prevSpan() const
    {
        if (m_next == 0)
            return spanOf(peek());
        const Token &t = m_tokens[m_next - 1];
        return {t.begin, t.end};
    }
    static Span spanOf(const Token &t) { return {t.begin, t.end}; }
    static Span between(Span a, Span b) { return {a.begin, std::max(a.end, b.end)}; }
    void pushNewlines(bool include) { m_newlines.push_back(include); }
    void popNewlines()
    {
        if (m_newlines.size() > 1)
            m_newlines.pop_back();
    }
    QString text(const Token &t) const { return fromUtf8(m_data, t.begin, t.end); }
    bool tokIs(const Token &t, const char *s) const
    {
        const qsizetype len = qsizetype(qstrlen(s));
        return t.end - t.begin == len && memcmp(m_data.constData() + t.begin, s, size_t(len)) == 0;
    }

    void error(QString summary, QString detail, Span subject)
    {
        diags.append(Diagnostic::error(std::move(summary), std::move(detail), subject));
    }

    static Tok opposite(Tok t)
    {
        switch (t) {
        case Tok::OBrace: return Tok::CBrace;
        case Tok::OBrack: return Tok::CBrack;
        case Tok::OParen: return Tok::CParen;
        case Tok::OQuote: return Tok::CQuote;
        case Tok::OHeredoc: return Tok::CHeredoc;
        case Tok::TemplateInterp: return Tok::TemplateSeqEnd;
        case Tok::CBrace: return Tok::OBrace;
        case Tok::CBrack: return Tok::OBrack;
        case Tok::CParen: return Tok::OParen;
        case Tok::CQuote: return Tok::OQuote;
        case Tok::CHeredoc: return Tok::OHeredoc;
        case Tok::TemplateSeqEnd: return Tok::TemplateInterp;
        default: return Tok::Eof;
        }
    }

    Token recover(Tok end)
    {
        const Tok start = opposite(end);
        m_recovery = true;
        int nest = 0;
        for (;;) {
            Token t = read();
            Tok ty = t.type;
            if (end == Tok::TemplateSeqEnd && ty == Tok::TemplateControl)
                ty = Tok::TemplateInterp;
            if (ty == start && start != Tok::Eof) {
                ++nest;
            } else if (ty == end) {
                if (nest < 1)
                    return t;
                --nest;
            } else if (ty == Tok::Eof) {
                return t;
            }
        }
    }

    void recoverAfterBodyItem()
    {
        m_recovery = true;
        std::vector<Tok> open;
        for (;;) {
            const Token t = read();
            switch (t.type) {
            case Tok::Newline:
                if (open.empty())
                    return;
                break;
            case Tok::Eof:
                return;
            case Tok::OBrace: case Tok::OBrack: case Tok::OParen: case Tok::OQuote: case Tok::OHeredoc:
            case Tok::TemplateInterp: case Tok::TemplateControl:
                open.push_back(t.type);
                break;
            case Tok::CBrace: case Tok::CBrack: case Tok::CParen: case Tok::CQuote: case Tok::CHeredoc: {
                const Tok opener = opposite(t.type);
                while (!open.empty() && open.back() != opener)
                    open.pop_back();
                if (!open.empty())
                    open.pop_back();
                break;
            }
            case Tok::TemplateSeqEnd:
                while (!open.empty() && open.back() != Tok::TemplateInterp && open.back() != Tok::TemplateControl)
                    open.pop_back();
                if (!open.empty())
                    open.pop_back();
                break;
            default:
                break;
            }
        }
    }

    // -- bodies --
    Body parseBody(Tok end, Span start)
    {
        Body body;
        body.span = start;
        Span endSpan = start;
        if (++m_depth > kMaxDepth) {
            --m_depth;
            error(u"Nesting too deep"_s, u"Blocks are nested more deeply than a dependency lock file can be."_s, start);
            recover(end == Tok::Eof ? Tok::Eof : end);
            return body;
        }
        for (;;) {
            const Token next = peek();
            if (next.type == end) {
                endSpan = spanOf(next);
                read();
                break;
            }
            if (next.type == Tok::Newline) {
                read();
                continue;
            }
            if (next.type == Tok::Ident) {
                parseBodyItem(body);
                continue;
            }
            const Token bad = read();
            if (!m_recovery) {
                if (bad.type == Tok::OQuote) {
                    error(u"Invalid argument name"_s, u"Argument names must not be quoted."_s, spanOf(bad));
                } else if (bad.type == Tok::Eof) {
                    if (end == Tok::CBrace)
                        error(u"Unclosed configuration block"_s,
                              u"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s,
                              start);
                    else
                        error(u"Unclosed configuration body"_s, u"Found end of file before the end of this configuration body."_s, start);
                } else {
                    error(u"Argument or block definition required"_s, u"An argument or block definition is required here."_s, spanOf(bad));
                }
            }
            endSpan = prevSpan();
            recover(end); // like hclsyntax: skip to the end of this body
            break;
        }
        body.span = between(start, endSpan);
        if (m_nameIndexOwner == &body)
            m_nameIndexOwner = nullptr; // the body is about to move
        --m_depth;
        return body;
    }

    void parseBodyItem(Body &body)
    {
        const Token ident = read();
        const Token next = peek();
        if (next.type == Tok::Equal) {
            Attribute a = finishAttribute(ident, false);
            addAttributeChecked(body, std::move(a));
            return;
        }
        if (next.type == Tok::OQuote || next.type == Tok::OBrace || next.type == Tok::Ident) {
            Block b = finishBlock(ident);
            if (m_onBlock && m_depth == 1)
                (*m_onBlock)(std::move(b)); // a top-level block, streamed
            else
                body.blocks.push_back(std::move(b));
            return;
        }
        recoverAfterBodyItem();
        error(u"Argument or block definition required"_s,
              u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s,
              spanOf(ident));
    }

    void addAttributeChecked(Body &body, Attribute &&attr)
    {
        // Bodies are small; a name index keeps a pathological body with many arguments linear.
        if (body.attributes.size() > 16 && m_nameIndexOwner != &body) {
            m_nameIndex.clear();
            for (size_t k = 0; k < body.attributes.size(); ++k)
                m_nameIndex.insert(body.attributes[k].name, k);
            m_nameIndexOwner = &body;
        }
        const Attribute *existing = nullptr;
        if (m_nameIndexOwner == &body) {
            const auto it = m_nameIndex.constFind(attr.name);
            if (it != m_nameIndex.cend())
                existing = &body.attributes[it.value()];
        } else {
            for (const Attribute &a : body.attributes)
                if (a.name == attr.name)
                    existing = &a;
        }
        if (existing) {
            Diagnostic d = Diagnostic::error(
                u"Attribute redefined"_s,
                u"The argument %1 was already set at {related}. Each argument may be set only once."_s.arg(goQuote(attr.name)),
                attr.nameSpan);
            d.related = existing->nameSpan;
            d.hasRelated = true;
            diags.append(d);
            return;
        }
        if (m_nameIndexOwner == &body)
            m_nameIndex.insert(attr.name, body.attributes.size());
        body.attributes.push_back(std::move(attr));
    }

    QHash<QString, size_t> m_nameIndex;
    const Body *m_nameIndexOwner = nullptr;

    Attribute finishAttribute(const Token &ident, bool singleLine)
    {
        const Token eq = read();
        Q_UNUSED(eq);
        Attribute a;
        a.name = text(ident);
        a.nameSpan = spanOf(ident);
        const int before = int(diags.size());
        a.expr = parseExpression();
        const bool hadErrors = int(diags.size()) > before;
        Span endSpan;
        if (m_recovery && hadErrors) {
            endSpan = prevSpan();
            recoverAfterBodyItem();
        } else {
            endSpan = prevSpan();
            if (!singleLine) {
                const Token end = peek();
                if (end.type != Tok::Newline && end.type != Tok::Eof) {
                    if (!m_recovery) {
                        if (end.type == Tok::Comma)
                            error(u"Unexpected comma after argument"_s,
                                  u"Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline."_s,
                                  spanOf(end));
                        else
                            error(u"Missing newline after argument"_s, u"An argument definition must end with a newline."_s, spanOf(end));
                    }
                    endSpan = prevSpan();
                    recoverAfterBodyItem();
                } else {
                    endSpan = prevSpan();
                    read();
                }
            }
        }
        a.span = between(a.nameSpan, endSpan);
        return a;
    }

    Block finishBlock(const Token &ident)
    {
        Block b;
        b.type = text(ident);
        b.typeSpan = spanOf(ident);
        b.openBraceSpan = b.typeSpan;
        b.closeBraceSpan = b.typeSpan;
        b.body.span = b.typeSpan;
        Token oBrace;
        for (;;) {
            const Token t = peek();
            if (t.type == Tok::OBrace) {
                oBrace = read();
                break;
            }
            if (t.type == Tok::OQuote) {
                Span labelSpan;
                QString label = parseQuotedStringLiteral(&labelSpan);
                b.labels.append(label);
                b.labelSpans.push_back(labelSpan);
                continue;
            }
            if (t.type == Tok::Ident) {
                const Token l = read();
                b.labels.append(text(l));
                b.labelSpans.push_back(spanOf(l));
                continue;
            }
            if (t.type == Tok::Equal) {
                error(u"Invalid block definition"_s,
                      u"The equals sign \"=\" indicates an argument definition, and must not be used when defining a block."_s, spanOf(t));
            } else if (t.type == Tok::Newline) {
                error(u"Invalid block definition"_s,
                      u"A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."_s,
                      spanOf(t));
            } else if (!m_recovery) {
                error(u"Invalid block definition"_s, u"Either a quoted string block label or an opening brace (\"{\") is expected here."_s,
                      spanOf(t));
            }
            recoverAfterBodyItem();
            return b;
        }
        b.openBraceSpan = spanOf(oBrace);

        const Tok after = peek().type;
        if (after == Tok::Newline || after == Tok::Eof || after == Tok::CBrace) {
            b.body = parseBody(Tok::CBrace, b.openBraceSpan);
        } else {
            b.body = parseSingleAttrBody(b.openBraceSpan);
            const Token t = peek();
            if (t.type == Tok::CBrace) {
                read();
            } else if (t.type == Tok::Comma) {
                error(u"Invalid single-argument block definition"_s,
                      u"Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."_s,
                      spanOf(t));
                recover(Tok::CBrace);
            } else if (t.type == Tok::Newline) {
                error(u"Invalid single-argument block definition"_s,
                      u"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."_s,
                      spanOf(t));
                recover(Tok::CBrace);
            } else {
                if (!m_recovery) {
                    if (t.type == Tok::Eof)
                        error(u"Unclosed configuration block"_s,
                              u"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s,
                              b.openBraceSpan);
                    else
                        error(u"Invalid single-argument block definition"_s,
                              u"A single-line block definition must end with a closing brace immediately after its single argument definition."_s,
                              spanOf(t));
                }
                recover(Tok::CBrace);
            }
        }
        b.closeBraceSpan = prevSpan();

        const Token eol = peek();
        if (eol.type == Tok::Newline || eol.type == Tok::Eof) {
            read();
        } else {
            if (!m_recovery)
                error(u"Missing newline after block definition"_s, u"A block definition must end with a newline."_s, spanOf(eol));
            recoverAfterBodyItem();
        }
        return b;
    }

    Body parseSingleAttrBody(Span openBrace)
    {
        Body body;
        body.span = openBrace;
        const Token ident = read();
        if (ident.type != Tok::Ident) {
            recoverAfterBodyItem();
            error(u"Argument or block definition required"_s, u"An argument or block definition is required here."_s, spanOf(ident));
            return body;
        }
        const Token next = peek();
        if (next.type == Tok::Equal) {
            Attribute a = finishAttribute(ident, true);
            body.span = a.span;
            body.attributes.push_back(std::move(a));
            return body;
        }
        recoverAfterBodyItem();
        if (next.type == Tok::OQuote || next.type == Tok::OBrace || next.type == Tok::Ident) {
            error(u"Argument definition required"_s,
                  u"A single-line block definition can contain only a single argument. If you meant to define argument %1, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."_s
                      .arg(goQuote(text(ident))),
                  between(spanOf(ident), spanOf(next)));
        } else {
            error(u"Argument or block definition required"_s,
                  u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s,
                  spanOf(ident));
        }
        return body;
    }

    QString parseQuotedStringLiteral(Span *span)
    {
        const Token open = read();
        QString result;
        Span endSpan = spanOf(open);
        for (;;) {
            const Token t = read();
            if (t.type == Tok::CQuote) {
                endSpan = spanOf(t);
                break;
            }
            if (t.type == Tok::QuotedLit) {
                result += decodeLiteral(m_data, t, true, diags);
                continue;
            }
            if (t.type == Tok::TemplateControl || t.type == Tok::TemplateInterp) {
                const QString which = t.type == Tok::TemplateControl ? u"%"_s : u"$"_s;
                error(u"Invalid string literal"_s,
                      u"Template sequences are not allowed in this string. To include a literal \"%1\", double it (as \"%1%1\") to escape it."_s.arg(which),
                      spanOf(t));
                result += which + u"{ ... }"_s;
                recover(Tok::TemplateSeqEnd);
                continue;
            }
            if (t.type == Tok::Eof) {
                error(u"Unterminated string literal"_s, u"Unable to find the closing quote mark before the end of the file."_s, spanOf(t));
                endSpan = spanOf(t);
                break;
            }
            error(u"Invalid string literal"_s, u"This item is not valid in a string literal."_s, spanOf(t));
            recover(Tok::CQuote);
            endSpan = spanOf(t);
            break;
        }
        *span = between(spanOf(open), endSpan);
        return result;
    }

    // -- expressions --
public:
    Expr parseExpression()
    {
        Expr fast;
        if (tryPlainString(fast))
            return fast;
        if (m_depth >= kMaxDepth) {
            const Token t = peek();
            if (!m_recovery)
                error(u"Nesting too deep"_s, u"This expression is nested more deeply than a dependency lock file can be."_s, spanOf(t));
            m_recovery = true;
            Expr e;
            e.span = spanOf(t);
            return e;
        }
        ++m_depth;
        Expr r = parseConditional();
        --m_depth;
        return r;
    }

private:
    /// Fast path for the bulk of a lock file: a quoted string without escapes or templates
    /// (`"h1:..."`) that is a whole expression. Produces exactly what the general path would.
    bool tryPlainString(Expr &out)
    {
        size_t k = m_next;
        const bool nl = m_newlines.back();
        while (k < m_tokens.size() && (m_tokens[k].type == Tok::Comment || (!nl && m_tokens[k].type == Tok::Newline)))
            ++k;
        if (k + 2 >= m_tokens.size() || m_tokens[k].type != Tok::OQuote)
            return false;
        const Token &open = m_tokens[k];
        const Token &lit = m_tokens[k + 1];
        const Token &close = m_tokens[k + 2];
        if (lit.type != Tok::QuotedLit || close.type != Tok::CQuote)
            return false;
        const char *p = m_data.constData() + lit.begin;
        const size_t n = size_t(lit.end - lit.begin);
        if (memchr(p, '\\', n) || memchr(p, '$', n) || memchr(p, '%', n))
            return false;
        // What follows must end the expression (no operator, traversal or conditional).
        size_t after = k + 3;
        while (after < m_tokens.size() && (m_tokens[after].type == Tok::Comment || (!nl && m_tokens[after].type == Tok::Newline))) {
            if (m_tokens[after].type == Tok::Comment && nl && m_tokens[after].end > m_tokens[after].begin
                && m_data[m_tokens[after].end - 1] == '\n')
                break; // a line comment stands for a newline here
            ++after;
        }
        if (after >= m_tokens.size())
            return false;
        switch (m_tokens[after].type) {
        case Tok::Comma: case Tok::CBrack: case Tok::Newline: case Tok::Eof: case Tok::CBrace: case Tok::Comment:
            break;
        default:
            return false;
        }
        out.kind = Expr::Kind::Literal;
        out.value.kind = Value::Kind::String;
        out.value.text = QString::fromUtf8(p, qsizetype(n));
        out.span = {open.begin, close.end};
        out.nameSpan = {lit.begin, lit.end};
        m_next = k + 3;
        return true;
    }

    Expr parseConditional()
    {
        int before = int(diags.size());
        Expr cond = parseBinary();
        if (m_recovery && int(diags.size()) > before)
            return cond;
        if (peek().type != Tok::Question)
            return cond;
        read();
        before = int(diags.size());
        Expr trueExpr = parseExpression();
        if (m_recovery && int(diags.size()) > before)
            return cond;
        const Token colon = peek();
        if (colon.type != Tok::Colon) {
            error(u"Missing false expression in conditional"_s,
                  u"The conditional operator (...?...:...) requires a false expression, delimited by a colon."_s, spanOf(colon));
            return cond;
        }
        read();
        before = int(diags.size());
        Expr falseExpr = parseExpression();
        if (m_recovery && int(diags.size()) > before)
            return cond;
        Expr e;
        e.kind = Expr::Kind::Conditional;
        e.span = between(cond.span, falseExpr.span);
        e.children.push_back(std::move(cond));
        e.children.push_back(std::move(trueExpr));
        e.children.push_back(std::move(falseExpr));
        return e;
    }

    bool isBinaryOperator(const Token &t) const
    {
        if (t.type != Tok::Operator)
            return false;
        static const char *const ops[] = {"||", "&&", "==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%"};
        for (const char *op : ops)
            if (tokIs(t, op))
                return true;
        return false;
    }

    Expr parseBinary()
    {
        int before = int(diags.size());
        Expr lhs = parseWithTraversals();
        if (m_recovery && int(diags.size()) > before)
            return lhs;
        while (isBinaryOperator(peek())) {
            const Token op = read();
            before = int(diags.size());
            Expr rhs = parseWithTraversals();
            if (m_recovery && int(diags.size()) > before)
                return lhs; // like hclsyntax: a broken operand drops the operation
            Expr e;
            e.kind = Expr::Kind::Binary;
            e.opText = text(op);
            e.span = between(lhs.span, rhs.span);
            e.children.push_back(std::move(lhs));
            e.children.push_back(std::move(rhs));
            lhs = std::move(e);
        }
        return lhs;
    }

    Expr parseWithTraversals()
    {
        Expr term = parseTerm();
        for (;;) {
            const Token next = peek();
            if (next.type == Tok::Dot) {
                read();
                const Token name = peek();
                if (name.type == Tok::Ident || name.type == Tok::Number || (name.type == Tok::Operator && tokIs(name, "*"))) {
                    read();
                    if (term.kind == Expr::Kind::Variable && name.type != Tok::Operator) {
                        term.span = between(term.span, spanOf(name)); // a longer traversal, still a variable
                        continue;
                    }
                    term = wrapOperation(std::move(term), spanOf(name));
                    continue;
                }
                if (!m_recovery)
                    error(u"Invalid attribute name"_s, u"An attribute name is required after a dot."_s, spanOf(name));
                m_recovery = true;
                return term;
            }
            if (next.type == Tok::OBrack) {
                const Span openSpan = spanOf(read());
                pushNewlines(false);
                const Token star = peek();
                const bool splat = star.type == Tok::Operator && tokIs(star, "*");
                Expr key;
                if (splat)
                    read();
                else
                    key = parseExpression();
                const Token close = peek();
                if (close.type != Tok::CBrack) {
                    if (!m_recovery)
                        error(u"Missing close bracket on index"_s, u"The index operator must end with a closing bracket (\"]\")."_s,
                              spanOf(close));
                    recover(Tok::CBrack);
                    popNewlines();
                    return term;
                }
                read();
                popNewlines();
                const Span whole = between(term.span, spanOf(close));
                if (splat) {
                    term = wrapOperation(std::move(term), spanOf(close));
                } else if (term.kind == Expr::Kind::Variable && key.kind == Expr::Kind::Literal) {
                    term.span = whole;
                } else {
                    Expr e;
                    e.kind = Expr::Kind::Index;
                    e.span = whole;
                    e.nameSpan = openSpan;
                    e.children.push_back(std::move(term));
                    e.children.push_back(std::move(key));
                    term = std::move(e);
                }
                continue;
            }
            return term;
        }
    }

    static Expr wrapOperation(Expr &&inner, Span end)
    {
        Expr e;
        e.kind = Expr::Kind::Operation;
        e.span = between(inner.span, end);
        e.children.push_back(std::move(inner));
        return e;
    }

    Expr parseTerm()
    {
        const Token start = peek();
        Expr e;
        e.span = spanOf(start);
        switch (start.type) {
        case Tok::OParen: {
            read();
            pushNewlines(false);
            const int before = int(diags.size());
            Expr inner = parseExpression();
            if (int(diags.size()) > before) {
                recover(Tok::CParen);
                popNewlines();
                return inner;
            }
            const Token close = peek();
            if (close.type != Tok::CParen) {
                error(u"Unbalanced parentheses"_s, u"Expected a closing parenthesis to terminate the expression."_s, spanOf(close));
                m_recovery = true;
            }
            const Token cParen = read();
            popNewlines();
            e.kind = Expr::Kind::Parens;
            e.span = between(spanOf(start), spanOf(cParen));
            e.children.push_back(std::move(inner));
            return e;
        }
        case Tok::Number: {
            read();
            const QString canonical = canonicalNumber(QByteArrayView(m_data.constData() + start.begin, start.end - start.begin));
            e.kind = Expr::Kind::Literal;
            if (canonical.isEmpty()) {
                error(u"Invalid number literal"_s, u"Failed to recognize the value of this number literal."_s, spanOf(start));
                e.value = Value::unknown();
            } else {
                e.value.kind = Value::Kind::Number;
                e.value.text = canonical;
            }
            return e;
        }
        case Tok::Ident: {
            read();
            const Tok after = peek().type;
            if (after == Tok::OParen || after == Tok::DoubleColon)
                return finishFunctionCall(start);
            e.kind = Expr::Kind::Literal;
            if (tokIs(start, "true")) {
                e.value.kind = Value::Kind::Bool;
                e.value.text = u"true"_s;
            } else if (tokIs(start, "false")) {
                e.value.kind = Value::Kind::Bool;
                e.value.text = u"false"_s;
            } else if (tokIs(start, "null")) {
                e.value = Value::null();
            } else {
                e.kind = Expr::Kind::Variable;
                e.nameSpan = spanOf(start);
            }
            return e;
        }
        case Tok::OQuote:
        case Tok::OHeredoc: {
            const Token open = read();
            const Tok closer = open.type == Tok::OQuote ? Tok::CQuote : Tok::CHeredoc;
            const bool flush = open.type == Tok::OHeredoc && open.end - open.begin > 2 && m_data[open.begin + 2] == '-';
            Expr t = parseTemplate(closer, flush, spanOf(open));
            return t;
        }
        case Tok::Operator:
            if (tokIs(start, "-") || tokIs(start, "!")) {
                read();
                Expr operand = parseWithTraversals();
                e.kind = Expr::Kind::Unary;
                e.op = m_data[start.begin];
                e.span = between(spanOf(start), operand.span);
                e.children.push_back(std::move(operand));
                return e;
            }
            break;
        case Tok::OBrack:
            return parseTuple();
        case Tok::OBrace:
            return parseObject();
        default:
            break;
        }
        if (!m_recovery) {
            if (start.type == Tok::Eof)
                error(u"Missing expression"_s, u"Expected the start of an expression, but found the end of the file."_s, spanOf(start));
            else
                error(u"Invalid expression"_s, u"Expected the start of an expression, but found an invalid expression token."_s, spanOf(start));
        }
        m_recovery = true;
        e.kind = Expr::Kind::Invalid;
        return e;
    }

    Expr finishFunctionCall(const Token &name)
    {
        Expr e;
        e.kind = Expr::Kind::FunctionCall;
        Span nameSpan = spanOf(name);
        while (peek().type == Tok::DoubleColon) {
            read();
            const Token next = peek();
            if (next.type != Tok::Ident) {
                error(u"Missing function name"_s, u"Function scope resolution symbol :: must be followed by a function name in this scope."_s,
                      spanOf(next));
                recoverAfterBodyItem();
                e.span = nameSpan;
                return e;
            }
            read();
            nameSpan = between(nameSpan, spanOf(next));
        }
        const Token open = read();
        if (open.type != Tok::OParen) {
            error(u"Missing open parenthesis"_s, u"Function selector must be followed by an open parenthesis to begin the function call."_s,
                  spanOf(open));
            recoverAfterBodyItem();
            e.span = nameSpan;
            return e;
        }
        pushNewlines(false);
        Token close;
        for (;;) {
            const Token next = peek();
            if (next.type == Tok::CParen) {
                close = read();
                break;
            }
            const int before = int(diags.size());
            Expr arg = parseExpression();
            e.children.push_back(std::move(arg));
            if (m_recovery && int(diags.size()) > before) {
                close = recover(Tok::CParen);
                break;
            }
            Token sep = read();
            if (sep.type == Tok::CParen) {
                close = sep;
                break;
            }
            if (sep.type == Tok::Ellipsis) {
                sep = read();
                if (sep.type == Tok::CParen) {
                    close = sep;
                    break;
                }
                if (!m_recovery)
                    error(u"Missing closing parenthesis"_s,
                          u"An expanded function argument (with ...) must be immediately followed by closing parentheses."_s, spanOf(sep));
                close = recover(Tok::CParen);
                break;
            }
            if (sep.type != Tok::Comma) {
                if (sep.type == Tok::Eof)
                    error(u"Unterminated function call"_s,
                          u"There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file."_s,
                          between(nameSpan, spanOf(open)));
                else
                    error(u"Missing argument separator"_s, u"A comma is required to separate each function argument from the next."_s,
                          spanOf(sep));
                close = recover(Tok::CParen);
                break;
            }
        }
        popNewlines();
        e.span = between(nameSpan, spanOf(close));
        e.nameSpan = between(nameSpan, spanOf(open));
        return e;
    }

    Expr parseTuple()
    {
        const Token open = read();
        pushNewlines(false);
        Expr e;
        e.kind = Expr::Kind::Tuple;
        Token close;
        for (;;) {
            Token next = peek();
            if (next.type == Tok::CBrack) {
                close = read();
                break;
            }
            const int before = int(diags.size());
            Expr item = parseExpression();
            e.children.push_back(std::move(item));
            if (m_recovery && int(diags.size()) > before) {
                close = recover(Tok::CBrack);
                break;
            }
            next = peek();
            if (next.type == Tok::CBrack) {
                close = read();
                break;
            }
            if (next.type != Tok::Comma) {
                if (!m_recovery) {
                    if (next.type == Tok::Eof)
                        error(u"Unterminated tuple constructor expression"_s,
                              u"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."_s,
                              spanOf(open));
                    else
                        error(u"Missing item separator"_s, u"Expected a comma to mark the beginning of the next item."_s, spanOf(next));
                }
                close = recover(Tok::CBrack);
                break;
            }
            read();
        }
        popNewlines();
        e.span = between(spanOf(open), spanOf(close));
        return e;
    }

    Expr parseObject()
    {
        const Token open = read();
        pushNewlines(true);
        Expr e;
        e.kind = Expr::Kind::Object;
        Token close;
        for (;;) {
            Token next = peek();
            if (next.type == Tok::Newline) {
                read();
                continue;
            }
            if (next.type == Tok::CBrace) {
                close = read();
                break;
            }
            const int before = int(diags.size());
            pushNewlines(false);
            Expr key = parseExpression();
            popNewlines();
            if (m_recovery && int(diags.size()) > before) {
                close = recover(Tok::CBrace);
                break;
            }
            next = peek();
            if (next.type != Tok::Equal && next.type != Tok::Colon) {
                if (!m_recovery) {
                    if (next.type == Tok::Newline || next.type == Tok::Comma)
                        error(u"Missing attribute value"_s, u"Expected an attribute value, introduced by an equals sign (\"=\")."_s,
                              spanOf(next));
                    else if (next.type == Tok::Eof)
                        error(u"Unterminated object constructor expression"_s,
                              u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s,
                              spanOf(open));
                    else
                        error(u"Missing key/value separator"_s, u"Expected an equals sign (\"=\") to mark the beginning of the attribute value."_s,
                              spanOf(next));
                }
                close = recover(Tok::CBrace);
                break;
            }
            read();
            pushNewlines(false);
            Expr value = parseExpression();
            popNewlines();
            e.children.push_back(std::move(key));
            e.children.push_back(std::move(value));
            if (m_recovery && int(diags.size()) > before) {
                close = recover(Tok::CBrace);
                break;
            }
            next = peek();
            if (next.type == Tok::Comma || next.type == Tok::Newline) {
                read();
                continue;
            }
            if (next.type == Tok::CBrace) {
                close = read();
                break;
            }
            if (!m_recovery) {
                if (next.type == Tok::Eof)
                    error(u"Unterminated object constructor expression"_s,
                          u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s,
                          spanOf(open));
                else
                    error(u"Missing attribute separator"_s, u"Expected a newline or comma to mark the beginning of the next attribute."_s,
                          spanOf(next));
            }
            close = recover(Tok::CBrace);
            break;
        }
        popNewlines();
        e.span = between(spanOf(open), spanOf(close));
        return e;
    }

    Expr parseTemplate(Tok end, bool flushHeredoc, Span openSpan)
    {
        Expr e;
        e.kind = Expr::Kind::Template;
        Span endSpan = openSpan;
        const Span firstSpan = spanOf(peek());
        bool trimNext = false;
        for (;;) {
            const Token next = read();
            if (next.type == end) {
                endSpan = spanOf(next);
                break;
            }
            const bool trim = trimNext;
            trimNext = false;
            if (next.type == Tok::QuotedLit || next.type == Tok::StringLit) {
                QString s = decodeLiteral(m_data, next, next.type == Tok::QuotedLit, diags);
                if (trim) {
                    qsizetype k = 0;
                    while (k < s.size() && s.at(k).isSpace())
                        ++k;
                    s = s.mid(k);
                }
                if (!e.parts.empty() && e.parts.back().isLiteral) {
                    e.parts.back().literal += s;
                    e.parts.back().span.end = next.end;
                } else {
                    e.parts.push_back({true, s, -1, spanOf(next)});
                }
                continue;
            }
            if (next.type == Tok::TemplateInterp) {
                if (next.end - next.begin == 3 && !e.parts.empty() && e.parts.back().isLiteral) {
                    QString &lit = e.parts.back().literal;
                    qsizetype k = lit.size();
                    while (k > 0 && lit.at(k - 1).isSpace())
                        --k;
                    lit.truncate(k);
                }
                pushNewlines(false);
                Expr inner = parseExpression();
                const Token close = peek();
                if (close.type != Tok::TemplateSeqEnd) {
                    if (!m_recovery) {
                        if (close.type == Tok::Eof)
                            error(u"Unclosed template interpolation sequence"_s,
                                  u"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."_s,
                                  firstSpan);
                        else if (close.type == Tok::Colon)
                            error(u"Extra characters after interpolation expression"_s,
                                  u"Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\"."_s,
                                  spanOf(close));
                        else if ((close.type == Tok::CQuote || close.type == Tok::OQuote) && end == Tok::CQuote)
                            error(u"Unclosed template interpolation sequence"_s,
                                  u"There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression."_s,
                                  firstSpan);
                        else
                            error(u"Extra characters after interpolation expression"_s,
                                  u"Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\"."_s,
                                  spanOf(close));
                    }
                    recover(Tok::TemplateSeqEnd);
                } else {
                    read();
                    if (close.end - close.begin == 2)
                        trimNext = true;
                }
                popNewlines();
                Expr::TemplatePart part;
                part.isLiteral = false;
                part.exprIndex = int(e.children.size());
                part.span = between(spanOf(next), spanOf(close));
                e.children.push_back(std::move(inner));
                e.parts.push_back(part);
                continue;
            }
            if (next.type == Tok::TemplateControl) {
                pushNewlines(false);
                const Token kw = peek();
                if (kw.type != Tok::Ident) {
                    if (!m_recovery)
                        error(u"Invalid template directive"_s,
                              u"A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence."_s,
                              spanOf(kw));
                    recover(Tok::TemplateSeqEnd);
                    popNewlines();
                    continue;
                }
                const QString word = text(kw);
                static const QStringList keywords = {u"if"_s, u"for"_s, u"else"_s, u"endif"_s, u"endfor"_s};
                if (!keywords.contains(word)) {
                    if (!m_recovery) {
                        QString suggestion;
                        for (const QString &k : keywords) {
                            if (levenshtein(word, k) < 3) {
                                suggestion = u" Did you mean %1?"_s.arg(goQuote(k));
                                break;
                            }
                        }
                        error(u"Invalid template control keyword"_s,
                              u"%1 is not a valid template control keyword.%2"_s.arg(goQuote(word), suggestion), spanOf(kw));
                    }
                    recover(Tok::TemplateSeqEnd);
                    popNewlines();
                    continue;
                }
                // Directives are recognised but not evaluated (lock files never use them):
                // skip to the end of the sequence without entering recovery mode.
                int nest = 0;
                for (;;) {
                    const Token t = read();
                    if (t.type == Tok::TemplateInterp || t.type == Tok::TemplateControl) {
                        ++nest;
                    } else if (t.type == Tok::TemplateSeqEnd) {
                        if (nest == 0) {
                            if (t.end - t.begin == 2)
                                trimNext = true;
                            break;
                        }
                        --nest;
                    } else if (t.type == Tok::Eof) {
                        break;
                    }
                }
                popNewlines();
                e.hasDirective = true;
                continue;
            }
            if (!m_recovery)
                error(u"Unterminated template string"_s, u"No closing marker was found for the string."_s, spanOf(next));
            const Token final = recover(end);
            endSpan = spanOf(final);
            break;
        }
        if (flushHeredoc)
            flushHeredocParts(e);
        if (e.parts.empty())
            e.parts.push_back({true, QString(), -1, Span{openSpan.end, openSpan.end}});
        e.span = between(openSpan, endSpan);
        if (!e.hasDirective && e.parts.size() == 1 && e.parts.front().isLiteral) {
            // The common case, a plain string: keep it as a literal value (no template parts).
            e.kind = Expr::Kind::Literal;
            e.value = Value::string(std::move(e.parts.front().literal));
            e.nameSpan = e.parts.front().span;
            e.parts.clear();
            e.parts.shrink_to_fit();
        }
        return e;
    }

    static void flushHeredocParts(Expr &e)
    {
        // `<<-`: remove the smallest indentation shared by all lines.
        int minIndent = -1;
        bool atLineStart = true;
        for (const auto &p : e.parts) {
            if (!p.isLiteral) {
                atLineStart = false;
                continue;
            }
            const QStringList lines = p.literal.split(QLatin1Char('\n'));
            for (qsizetype li = 0; li < lines.size(); ++li) {
                if (li > 0)
                    atLineStart = true;
                const QString &line = lines.at(li);
                if (!atLineStart)
                    continue;
                if (li == lines.size() - 1 && line.isEmpty())
                    continue;
                int k = 0;
                while (k < line.size() && (line.at(k) == u' ' || line.at(k) == u'\t'))
                    ++k;
                if (k == line.size() && li < lines.size() - 1)
                    continue;
                if (minIndent < 0 || k < minIndent)
                    minIndent = k;
                atLineStart = false;
            }
        }
        if (minIndent <= 0)
            return;
        atLineStart = true;
        for (auto &p : e.parts) {
            if (!p.isLiteral) {
                atLineStart = false;
                continue;
            }
            QStringList lines = p.literal.split(QLatin1Char('\n'));
            for (qsizetype li = 0; li < lines.size(); ++li) {
                if (li > 0)
                    atLineStart = true;
                if (atLineStart) {
                    QString &line = lines[li];
                    int k = 0;
                    while (k < line.size() && k < minIndent && (line.at(k) == u' ' || line.at(k) == u'\t'))
                        ++k;
                    line = line.mid(k);
                }
                atLineStart = false;
            }
            p.literal = lines.join(QLatin1Char('\n'));
            atLineStart = p.literal.endsWith(QLatin1Char('\n'));
        }
    }
};

} // namespace

// ---- public API -----------------------------------------------------------------------------

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
        default:
            break;
        }
    }
    return diags;
}

Span Expr::startSpan() const
{
    switch (kind) {
    case Kind::Literal:
        return value.kind == Value::Kind::String ? nameSpan : span;
    case Kind::Template:
        if (!parts.empty() && !(parts.size() == 1 && !parts.front().isLiteral))
            return parts.front().span;
        return span;
    case Kind::Tuple:
    case Kind::Object:
        return {span.begin, span.begin + 1};
    case Kind::FunctionCall:
        return nameSpan;
    case Kind::Index:
        return nameSpan;
    case Kind::Binary:
    case Kind::Conditional:
    case Kind::Parens:
        return children.empty() ? span : children.front().startSpan();
    default:
        return span;
    }
}

File parseFileStreaming(const QByteArray &data, const std::function<void(Block &&)> &onBlock)
{
    return parseTokens(data, scan(data), onBlock);
}

File parseTokens(const QByteArray &data, std::vector<Token> tokens, const std::function<void(Block &&)> &onBlock)
{
    File f;
    f.tokens = std::move(tokens);
    if (data.size() > kMaxInputSize) {
        f.diagnostics.append(Diagnostic::error(u"File too large"_s, u"A dependency lock file larger than 512 MiB is not read."_s, Span{0, 0}));
        return f;
    }
    f.diagnostics = checkInvalidTokens(data, f.tokens);
    Parser p(data, f.tokens);
    f.body = p.parseFileBody(onBlock ? &onBlock : nullptr);
    f.diagnostics += p.diags;
    return f;
}

File parseFile(const QByteArray &data)
{
    return parseFileStreaming(data, {});
}

// ---- evaluation ---------------------------------------------------------------------------

namespace {

void evalError(QList<Diagnostic> &diags, const QString &summary, const QString &detail, Span subject)
{
    diags.append(Diagnostic::error(summary, detail, subject));
}

Value evaluateImpl(const Expr &e, QList<Diagnostic> &diags)
{
    switch (e.kind) {
    case Expr::Kind::Literal:
        return e.value;
    case Expr::Kind::Invalid:
        return Value::unknown();
    case Expr::Kind::Variable:
        evalError(diags, u"Variables not allowed"_s, u"Variables may not be used here."_s, e.nameSpan);
        return Value::unknown();
    case Expr::Kind::FunctionCall:
        evalError(diags, u"Function calls not allowed"_s, u"Functions may not be called here."_s, e.span);
        return Value::unknown();
    case Expr::Kind::Conditional: {
        const Value cond = evaluateImpl(e.children[0], diags);
        const Value a = evaluateImpl(e.children[1], diags);
        const Value b = evaluateImpl(e.children[2], diags);
        if (cond.kind == Value::Kind::Unknown)
            return Value::unknown();
        if (cond.kind != Value::Kind::Bool) {
            evalError(diags, u"Incorrect condition type"_s, u"The condition expression must be of type bool."_s, e.children[0].span);
            return Value::unknown();
        }
        return cond.text == u"true"_s ? a : b;
    }
    case Expr::Kind::Binary: {
        const Value a = evaluateImpl(e.children[0], diags);
        const Value b = evaluateImpl(e.children[1], diags);
        if (a.kind == Value::Kind::Unknown || b.kind == Value::Kind::Unknown)
            return Value::unknown();
        Value r;
        r.kind = Value::Kind::Bool;
        if (e.opText == u"=="_s || e.opText == u"!="_s) {
            const bool same = a.kind == b.kind && a.text == b.text && a.items.empty() && b.items.empty();
            r.text = same == (e.opText == u"=="_s) ? u"true"_s : u"false"_s;
            return r;
        }
        if ((e.opText == u"&&"_s || e.opText == u"||"_s) && a.kind == Value::Kind::Bool && b.kind == Value::Kind::Bool) {
            const bool x = a.text == u"true"_s;
            const bool y = b.text == u"true"_s;
            r.text = (e.opText == u"&&"_s ? (x && y) : (x || y)) ? u"true"_s : u"false"_s;
            return r;
        }
        evalError(diags, u"Unsupported expression"_s,
                  u"Arithmetic and comparison operators are not supported in dependency lock files."_s, e.span);
        return Value::unknown();
    }
    case Expr::Kind::Index: {
        const Value coll = evaluateImpl(e.children[0], diags);
        const Value key = evaluateImpl(e.children[1], diags);
        if (coll.kind == Value::Kind::Unknown || key.kind == Value::Kind::Unknown)
            return Value::unknown();
        bool ok = false;
        const qlonglong index = key.text.toLongLong(&ok);
        if (coll.kind == Value::Kind::Tuple && (key.kind == Value::Kind::Number || key.kind == Value::Kind::String) && ok && index >= 0
            && index < qlonglong(coll.items.size()))
            return coll.items[size_t(index)];
        evalError(diags, u"Invalid index"_s, u"The given key does not identify an element in this collection value."_s,
                  e.children[1].span);
        return Value::unknown();
    }
    case Expr::Kind::Operation:
        evalError(diags, u"Unsupported expression"_s,
                  u"Attribute access, splat and similar expressions are not supported in dependency lock files."_s, e.span);
        return Value::unknown();
    case Expr::Kind::Parens:
        return e.children.empty() ? Value::unknown() : evaluateImpl(e.children.front(), diags);
    case Expr::Kind::Unary: {
        const Value v = e.children.empty() ? Value::unknown() : evaluateImpl(e.children.front(), diags);
        if (v.kind == Value::Kind::Unknown)
            return v;
        if (e.op == '-') {
            Value num = v;
            if (num.kind == Value::Kind::String) {
                // cty converts a numeric string to a number for arithmetic.
                const QByteArray utf8 = num.text.toUtf8();
                const QString canonical = canonicalNumber(QByteArrayView(utf8));
                if (!canonical.isEmpty()) {
                    num.kind = Value::Kind::Number;
                    num.text = canonical;
                }
            }
            if (num.kind != Value::Kind::Number) {
                evalError(diags, u"Invalid operand"_s, u"Unsuitable value for unary operand: number required."_s, e.children.front().span);
                return Value::unknown();
            }
            Value r = num;
            if (r.text != u"0"_s)
                r.text = r.text.startsWith(u'-') ? r.text.mid(1) : u"-"_s + r.text;
            return r;
        }
        if (v.kind != Value::Kind::Bool) {
            evalError(diags, u"Invalid operand"_s, u"Unsuitable value for unary operand: bool required."_s, e.children.front().span);
            return Value::unknown();
        }
        Value r = v;
        r.text = v.text == u"true"_s ? u"false"_s : u"true"_s;
        return r;
    }
    case Expr::Kind::Tuple:
    case Expr::Kind::Object: {
        Value r;
        r.kind = e.kind == Expr::Kind::Tuple ? Value::Kind::Tuple : Value::Kind::Object;
        for (size_t k = 0; k < e.children.size(); ++k) {
            if (e.kind == Expr::Kind::Object && k % 2 == 0 && e.children[k].kind == Expr::Kind::Variable)
                continue; // a bare identifier key is a literal name
            const Value v = evaluateImpl(e.children[k], diags);
            if (e.kind == Expr::Kind::Tuple || k % 2 == 1)
                r.items.push_back(v);
        }
        return r;
    }
    case Expr::Kind::Template: {
        if (e.hasDirective) {
            evalError(diags, u"Unsupported template directive"_s,
                      u"Template directives (%{ ... }) are not supported in dependency lock files."_s, e.span);
            return Value::unknown();
        }
        if (e.parts.size() == 1 && !e.parts.front().isLiteral)
            return evaluateImpl(e.children[size_t(e.parts.front().exprIndex)], diags);
        QString s;
        bool unknown = false;
        for (const auto &part : e.parts) {
            if (part.isLiteral) {
                s += part.literal;
                continue;
            }
            const Expr &inner = e.children[size_t(part.exprIndex)];
            const Value v = evaluateImpl(inner, diags);
            switch (v.kind) {
            case Value::Kind::Unknown:
                unknown = true;
                break;
            case Value::Kind::Null:
                evalError(diags, u"Invalid template interpolation value"_s,
                          u"The expression result is null. Cannot include a null value in a string template."_s, inner.span);
                break;
            case Value::Kind::String:
            case Value::Kind::Number:
            case Value::Kind::Bool:
                s += v.text;
                break;
            case Value::Kind::Tuple:
            case Value::Kind::Object:
                evalError(diags, u"Invalid template interpolation value"_s,
                          u"Cannot include the given value in a string template: string required."_s, inner.span);
                break;
            }
        }
        return unknown ? Value::unknown() : Value::string(s);
    }
    }
    return Value::unknown();
}

} // namespace

Value evaluate(const Expr &expr, QList<Diagnostic> &diags)
{
    return evaluateImpl(expr, diags);
}

bool decodeString(const Expr &expr, bool allowNull, QString *out, bool *isNull, QList<Diagnostic> &diags)
{
    QList<Diagnostic> local;
    const Value v = evaluateImpl(expr, local);
    if (isNull)
        *isNull = false;
    const auto unsuitable = [&](const QString &why) {
        local.append(Diagnostic::error(u"Unsuitable value type"_s, u"Unsuitable value: "_s + why, expr.startSpan()));
    };
    switch (v.kind) {
    case Value::Kind::Unknown:
        unsuitable(u"value must be known"_s);
        break;
    case Value::Kind::Null:
        if (allowNull) {
            if (isNull)
                *isNull = true;
        } else {
            unsuitable(u"null value is not allowed"_s);
        }
        break;
    case Value::Kind::String:
    case Value::Kind::Number:
    case Value::Kind::Bool:
        *out = v.text;
        break;
    case Value::Kind::Tuple:
    case Value::Kind::Object:
        unsuitable(u"string required"_s);
        break;
    }
    diags += local;
    for (const Diagnostic &d : local)
        if (d.severity == Diagnostic::Severity::Error)
            return false;
    return true;
}

const std::vector<Expr> *staticList(const Expr &expr)
{
    // Only a tuple constructor itself: hcl.ExprList does not look through parentheses or
    // a template that wraps a single interpolation (checked against terraform).
    return expr.kind == Expr::Kind::Tuple ? &expr.children : nullptr;
}

// ---- helpers ----------------------------------------------------------------------------

bool isGoPrintable(char32_t c)
{
    if (c == 0x20)
        return true;
    if (c < 0x20 || c == 0x7F || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return false;
    if (c < 0x7F)
        return true;
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase: case QChar::Letter_Lowercase: case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier: case QChar::Letter_Other:
    case QChar::Mark_NonSpacing: case QChar::Mark_SpacingCombining: case QChar::Mark_Enclosing:
    case QChar::Number_DecimalDigit: case QChar::Number_Letter: case QChar::Number_Other:
    case QChar::Punctuation_Connector: case QChar::Punctuation_Dash: case QChar::Punctuation_Open:
    case QChar::Punctuation_Close: case QChar::Punctuation_InitialQuote: case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
    case QChar::Symbol_Math: case QChar::Symbol_Currency: case QChar::Symbol_Modifier: case QChar::Symbol_Other:
        return true;
    default:
        return false;
    }
}

QString goQuote(const QString &s)
{
    QString out;
    out.reserve(s.size() + 2);
    out += u'"';
    const QList<uint> ucs = s.toUcs4();
    for (uint cu : ucs) {
        const char32_t c = cu;
        switch (c) {
        case '"': out += u"\\\""_s; continue;
        case '\\': out += u"\\\\"_s; continue;
        case '\a': out += u"\\a"_s; continue;
        case '\b': out += u"\\b"_s; continue;
        case '\f': out += u"\\f"_s; continue;
        case '\n': out += u"\\n"_s; continue;
        case '\r': out += u"\\r"_s; continue;
        case '\t': out += u"\\t"_s; continue;
        case '\v': out += u"\\v"_s; continue;
        default: break;
        }
        if (isGoPrintable(c)) {
            out += QString::fromUcs4(&c, 1);
        } else if (c < 0x80) {
            out += u"\\x"_s + QString::number(uint(c), 16).rightJustified(2, u'0');
        } else if (c < 0x10000) {
            out += u"\\u"_s + QString::number(uint(c), 16).rightJustified(4, u'0');
        } else {
            out += u"\\U"_s + QString::number(uint(c), 16).rightJustified(8, u'0');
        }
    }
    out += u'"';
    return out;
}

int levenshtein(const QString &a, const QString &b)
{
    const QList<uint> s = a.toUcs4();
    const QList<uint> t = b.toUcs4();
    std::vector<int> prev(size_t(t.size()) + 1), cur(size_t(t.size()) + 1);
    for (size_t j = 0; j <= size_t(t.size()); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= s.size(); ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= t.size(); ++j) {
            const int cost = s[i - 1] == t[j - 1] ? 0 : 1;
            cur[size_t(j)] = std::min({prev[size_t(j)] + 1, cur[size_t(j - 1)] + 1, prev[size_t(j - 1)] + cost});
        }
        std::swap(prev, cur);
    }
    return prev[size_t(t.size())];
}

} // namespace provender::hcl
