// The HCL-subset evaluator: number and string literal values (canonical numbers, escapes), and
// static evaluation with a nil evaluation context (gohcl.DecodeExpression's view of a lock file).

#include "model/lockfile/HclSyntax.h"

#include "model/lockfile/HclSyntaxInternal.h"

#include "model/core/GoCompat.h"

#include <cstring>

using namespace Qt::StringLiterals;

namespace provender::hcl {

namespace detail {

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
            if (const char escaped = simpleEscape(static_cast<unsigned char>(sel))) {
                out.append(escaped);
                k += 2;
                continue;
            }
            int len = utf8Length(p + k + 1, n - k - 1);
            if (len == 0)
                len = 1;
            const QByteArray selector(p + k + 1, len);
            diags.append(Diagnostic::error(
                u"Invalid escape sequence"_s,
                u"The symbol %1 is not a valid escape sequence selector."_s.arg(gocompat::quote(QString::fromUtf8(selector))),
                {tok.begin + s, tok.begin + k + 1 + len}));
            out.append(selector);
            k += 1 + len;
            continue;
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

} // namespace detail

using namespace detail;

// ---- evaluation ---------------------------------------------------------------------------

namespace {

void evalError(QList<Diagnostic> &diags, const QString &summary, const QString &detail, Span subject)
{
    diags.append(Diagnostic::error(summary, detail, subject));
}

// NOLINTNEXTLINE(readability-function-size): one case per hclsyntax expression Value method (ARCHITECTURE.md)
Value evaluateImpl(const Expr &e, QList<Diagnostic> &diags)
{
    switch (e.kind) {
    case Expr::Kind::Literal: return e.value;
    case Expr::Kind::Invalid: return Value::unknown();
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
        evalError(diags, u"Unsupported expression"_s, u"Arithmetic and comparison operators are not supported in dependency lock files."_s,
                  e.span);
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
        evalError(diags, u"Invalid index"_s, u"The given key does not identify an element in this collection value."_s, e.children[1].span);
        return Value::unknown();
    }
    case Expr::Kind::Operation:
        evalError(diags, u"Unsupported expression"_s,
                  u"Attribute access, splat and similar expressions are not supported in dependency lock files."_s, e.span);
        return Value::unknown();
    case Expr::Kind::Parens: return e.children.empty() ? Value::unknown() : evaluateImpl(e.children.front(), diags);
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
            case Value::Kind::Unknown: unknown = true; break;
            case Value::Kind::Null:
                evalError(diags, u"Invalid template interpolation value"_s,
                          u"The expression result is null. Cannot include a null value in a string template."_s, inner.span);
                break;
            case Value::Kind::String:
            case Value::Kind::Number:
            case Value::Kind::Bool: s += v.text; break;
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
    case Value::Kind::Unknown: unsuitable(u"value must be known"_s); break;
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
    case Value::Kind::Bool: *out = v.text; break;
    case Value::Kind::Tuple:
    case Value::Kind::Object: unsuitable(u"string required"_s); break;
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
} // namespace provender::hcl
