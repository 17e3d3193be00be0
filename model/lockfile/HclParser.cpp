// The HCL-subset parser, bodies and blocks: hclsyntax's body, block and attribute rules with its
// recovery (a sticky flag that silences follow-up syntax errors). Expressions: HclExpressions.cpp.

#include "model/lockfile/HclSyntax.h"

#include "model/lockfile/HclSyntaxInternal.h"

#include "model/core/GoCompat.h"

#include <QHash>

#include <algorithm>
#include <cstring>

using namespace Qt::StringLiterals;

namespace provender::hcl {

namespace detail {

Token Parser::nextToken(size_t *idx) const
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

Tok Parser::opposite(Tok t)
{
    switch (t) {
    case Tok::CBrace: return Tok::OBrace;
    case Tok::CBrack: return Tok::OBrack;
    case Tok::CParen: return Tok::OParen;
    case Tok::CQuote: return Tok::OQuote;
    case Tok::CHeredoc: return Tok::OHeredoc;
    case Tok::TemplateSeqEnd: return Tok::TemplateInterp;
    case Tok::TemplateControl: return Tok::Eof; // hclsyntax's opposite() pairs only `${` with the sequence end
    default: return closerFor(t);
    }
}

Token Parser::recover(Tok end)
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

void Parser::recoverAfterBodyItem()
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
        case Tok::Eof: return;
        case Tok::OBrace:
        case Tok::OBrack:
        case Tok::OParen:
        case Tok::OQuote:
        case Tok::OHeredoc:
        case Tok::TemplateInterp:
        case Tok::TemplateControl: open.push_back(t.type); break;
        case Tok::CBrace:
        case Tok::CBrack:
        case Tok::CParen:
        case Tok::CQuote:
        case Tok::CHeredoc: {
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
        default: break;
        }
    }
}

Body Parser::parseBody(Tok end, Span start)
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
                    error(
                        u"Unclosed configuration block"_s,
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

void Parser::parseBodyItem(Body &body)
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
    error(
        u"Argument or block definition required"_s,
        u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s,
        spanOf(ident));
}

void Parser::addAttributeChecked(Body &body, Attribute &&attr)
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
            u"The argument %1 was already set at {related}. Each argument may be set only once."_s.arg(gocompat::quote(attr.name)),
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

Attribute Parser::finishAttribute(const Token &ident, bool singleLine)
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
                        error(
                            u"Unexpected comma after argument"_s,
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

Block Parser::finishBlock(const Token &ident)
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
            error(
                u"Invalid block definition"_s,
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
            error(
                u"Invalid single-argument block definition"_s,
                u"Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."_s,
                spanOf(t));
            recover(Tok::CBrace);
        } else if (t.type == Tok::Newline) {
            error(
                u"Invalid single-argument block definition"_s,
                u"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."_s,
                spanOf(t));
            recover(Tok::CBrace);
        } else {
            if (!m_recovery) {
                if (t.type == Tok::Eof)
                    error(
                        u"Unclosed configuration block"_s,
                        u"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s,
                        b.openBraceSpan);
                else
                    error(
                        u"Invalid single-argument block definition"_s,
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

Body Parser::parseSingleAttrBody(Span openBrace)
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
        error(
            u"Argument definition required"_s,
            u"A single-line block definition can contain only a single argument. If you meant to define argument %1, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."_s
                .arg(gocompat::quote(text(ident))),
            between(spanOf(ident), spanOf(next)));
    } else {
        error(
            u"Argument or block definition required"_s,
            u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s,
            spanOf(ident));
    }
    return body;
}

QString Parser::parseQuotedStringLiteral(Span *span)
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
                  u"Template sequences are not allowed in this string. To include a literal \"%1\", double it (as \"%1%1\") to escape it."_s
                      .arg(which),
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
} // namespace detail

Span Expr::startSpan() const
{
    switch (kind) {
    case Kind::Literal: return value.kind == Value::Kind::String ? nameSpan : span;
    case Kind::Template:
        if (!parts.empty() && !(parts.size() == 1 && !parts.front().isLiteral))
            return parts.front().span;
        return span;
    case Kind::Tuple:
    case Kind::Object: return {span.begin, span.begin + 1};
    case Kind::FunctionCall: return nameSpan;
    case Kind::Index: return nameSpan;
    case Kind::Binary:
    case Kind::Conditional:
    case Kind::Parens: return children.empty() ? span : children.front().startSpan();
    default: return span;
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
        f.diagnostics.append(
            Diagnostic::error(u"File too large"_s, u"A dependency lock file larger than 512 MiB is not read."_s, Span{0, 0}));
        return f;
    }
    f.diagnostics = checkInvalidTokens(data, f.tokens);
    detail::Parser p(data, f.tokens);
    f.body = p.parseFileBody(onBlock ? &onBlock : nullptr);
    f.diagnostics += p.diags;
    return f;
}

File parseFile(const QByteArray &data)
{
    return parseFileStreaming(data, {});
}

} // namespace provender::hcl
