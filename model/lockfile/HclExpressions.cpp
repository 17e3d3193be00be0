// The HCL-subset parser, expressions: conditionals, binary operators, traversals, terms,
// function calls, tuples, objects and templates (quoted strings and heredocs), as hclsyntax
// parses them, with its diagnostics. Bodies and blocks: HclParser.cpp.

#include "model/lockfile/HclSyntax.h"

#include "model/lockfile/HclSyntaxInternal.h"

#include "model/core/GoCompat.h"

#include <QHash>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace provender::hcl::detail {

Expr Parser::parseExpression()
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

bool Parser::tryPlainString(Expr &out)
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
    case Tok::Comma:
    case Tok::CBrack:
    case Tok::Newline:
    case Tok::Eof:
    case Tok::CBrace:
    case Tok::Comment: break;
    default: return false;
    }
    out.kind = Expr::Kind::Literal;
    out.value.kind = Value::Kind::String;
    out.value.text = QString::fromUtf8(p, qsizetype(n));
    out.span = {open.begin, close.end};
    out.nameSpan = {lit.begin, lit.end};
    m_next = k + 3;
    return true;
}

Expr Parser::parseConditional()
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

Expr Parser::parseBinary()
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

Expr Parser::parseWithTraversals()
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

Expr Parser::parseTerm()
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
    case Tok::OBrack: return parseTuple();
    case Tok::OBrace: return parseObject();
    default: break;
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

Expr Parser::finishFunctionCall(const Token &name)
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
                error(
                    u"Unterminated function call"_s,
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

Expr Parser::parseTuple()
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
                    error(
                        u"Unterminated tuple constructor expression"_s,
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

Expr Parser::parseObject()
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
                    error(
                        u"Unterminated object constructor expression"_s,
                        u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s,
                        spanOf(open));
                else
                    error(u"Missing key/value separator"_s,
                          u"Expected an equals sign (\"=\") to mark the beginning of the attribute value."_s, spanOf(next));
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
                error(
                    u"Unterminated object constructor expression"_s,
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

// NOLINTNEXTLINE(readability-function-size): follows hclsyntax parser_template.go case by case (docs/ARCHITECTURE.md, lockfile)
Expr Parser::parseTemplate(Tok end, bool flushHeredoc, Span openSpan)
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
                        error(
                            u"Unclosed template interpolation sequence"_s,
                            u"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."_s,
                            firstSpan);
                    else if (close.type == Tok::Colon)
                        error(
                            u"Extra characters after interpolation expression"_s,
                            u"Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\"."_s,
                            spanOf(close));
                    else if ((close.type == Tok::CQuote || close.type == Tok::OQuote) && end == Tok::CQuote)
                        error(
                            u"Unclosed template interpolation sequence"_s,
                            u"There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression."_s,
                            firstSpan);
                    else
                        error(
                            u"Extra characters after interpolation expression"_s,
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
                        if (gocompat::levenshtein(word, k) < 3) {
                            suggestion = u" Did you mean %1?"_s.arg(gocompat::quote(k));
                            break;
                        }
                    }
                    error(u"Invalid template control keyword"_s,
                          u"%1 is not a valid template control keyword.%2"_s.arg(gocompat::quote(word), suggestion), spanOf(kw));
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

void Parser::flushHeredocParts(Expr &e)
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
} // namespace provender::hcl::detail
