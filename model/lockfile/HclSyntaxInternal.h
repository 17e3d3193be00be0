#pragma once
// Internal to the HCL-subset reader (HclSyntax.h is its header): what the lexer (HclLexer.cpp),
// the parser (HclParser.cpp: bodies, blocks, attributes; HclExpressions.cpp: expressions and
// templates) and the evaluator (HclEvaluate.cpp: literal values, static evaluation) share.

#include "model/core/GoCompat.h"
#include "model/lockfile/HclSyntax.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QChar>
#include <QHash>
#include <QList>
#include <QString>

#include <cstring>
#include <functional>
#include <vector>

namespace provender::hcl::detail {

// ---- UTF-8 (HclLexer.cpp) ------------------------------------------------------------------

/// HCL's "AnyUTF8": a lead byte with the right number of continuation bytes (overlong forms
/// and surrogates are not rejected). Returns the sequence length, or 0 for a broken byte.
inline int utf8Length(const char *p, qsizetype avail)
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

inline char32_t decodeUtf8(const char *p, int len)
{
    const auto b = static_cast<unsigned char>(p[0]);
    switch (len) {
    case 1: return b;
    case 2: return (char32_t(b & 0x1F) << 6) | (static_cast<unsigned char>(p[1]) & 0x3F);
    case 3:
        return (char32_t(b & 0x0F) << 12) | (char32_t(static_cast<unsigned char>(p[1]) & 0x3F) << 6)
            | (static_cast<unsigned char>(p[2]) & 0x3F);
    case 4:
        return (char32_t(b & 0x07) << 18) | (char32_t(static_cast<unsigned char>(p[1]) & 0x3F) << 12)
            | (char32_t(static_cast<unsigned char>(p[2]) & 0x3F) << 6) | (static_cast<unsigned char>(p[3]) & 0x3F);
    default: return 0xFFFD;
    }
}

inline bool isIdStart(char32_t c)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (c > 0x10FFFF)
        return false;
    return gocompat::isLetter(c) || QChar::category(c) == QChar::Number_Letter;
}

inline bool isIdContinue(char32_t c)
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
    case QChar::Punctuation_Connector: return true;
    default: return false;
    }
}

inline bool isCombining(char32_t c)
{
    if (c < 0x300 || c > 0x10FFFF)
        return false;
    if (c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F))
        return true;
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing: return true;
    default: return false;
    }
}

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
inline bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

inline QString fromUtf8(const QByteArray &data, qsizetype begin, qsizetype end)
{
    return QString::fromUtf8(data.constData() + begin, end - begin);
}

// ---- Literal values (HclEvaluate.cpp) ------------------------------------------------------
/// Canonical decimal text of an HCL number literal (what cty prints when a number is
/// converted to a string: no exponent, no trailing zeros). Empty when invalid.
QString canonicalNumber(QByteArrayView lit);

/// ParseStringLiteralToken: resolves escapes of one QuotedLit (quoted=true) or StringLit token.
QString decodeLiteral(const QByteArray &data, const Token &tok, bool quoted, QList<Diagnostic> &diags);

// ---- Parser (HclParser.cpp, HclExpressions.cpp) ---------------------------------------------------------------------------

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
    Token nextToken(size_t *idx) const;
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

    /// hclsyntax's opposite(): the other token of a bracket pair, either way (Eof for others).
    static Tok opposite(Tok t);

    Token recover(Tok end);

    void recoverAfterBodyItem();

    // -- bodies --
    Body parseBody(Tok end, Span start);

    void parseBodyItem(Body &body);

    void addAttributeChecked(Body &body, Attribute &&attr);

    QHash<QString, size_t> m_nameIndex;
    const Body *m_nameIndexOwner = nullptr;

    Attribute finishAttribute(const Token &ident, bool singleLine);

    Block finishBlock(const Token &ident);

    Body parseSingleAttrBody(Span openBrace);

    QString parseQuotedStringLiteral(Span *span);

    // -- expressions --
public:
    Expr parseExpression();

private:
    /// Fast path for the bulk of a lock file: a quoted string without escapes or templates
    /// (`"h1:..."`) that is a whole expression. Produces exactly what the general path would.
    bool tryPlainString(Expr &out);

    Expr parseConditional();

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

    Expr parseBinary();

    Expr parseWithTraversals();

    static Expr wrapOperation(Expr &&inner, Span end)
    {
        Expr e;
        e.kind = Expr::Kind::Operation;
        e.span = between(inner.span, end);
        e.children.push_back(std::move(inner));
        return e;
    }

    Expr parseTerm();

    Expr finishFunctionCall(const Token &name);

    Expr parseTuple();

    Expr parseObject();

    Expr parseTemplate(Tok end, bool flushHeredoc, Span openSpan);

    static void flushHeredocParts(Expr &e);
};

} // namespace provender::hcl::detail
