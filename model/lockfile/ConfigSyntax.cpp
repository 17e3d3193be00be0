// Configuration reader, native syntax: the body parser (blocks, attributes, recovery) over
// HclSyntax's scanner, with hclsyntax's diagnostics. Expressions: ConfigExpressions.cpp.

#include "model/lockfile/ConfigReaderInternal.h"

#include "model/core/GoCompat.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

using namespace Qt::StringLiterals;

namespace provender::config_detail {

NativeReader::NativeReader(const QByteArray &data, const QString &fileName) : m_data(data), m_file(fileName), m_map(data)
{
    const std::vector<Token> raw = hcl::scan(data);
    for (const hcl::Diagnostic &d : hcl::checkInvalidTokens(data, raw))
        addDiag(d.summary, d.detail, d.subject.begin, d.subject.end);
    m_toks.reserve(raw.size());
    for (const Token &t : raw) {
        if (t.type == Tok::Comment) {
            // A line comment ends its line (it holds the newline); a block comment is space.
            if (data[t.end - 1] == '\n')
                m_toks.push_back(Token{Tok::Newline, t.begin, t.end});
            continue;
        }
        m_toks.push_back(t);
    }
}

int NativeReader::skipExpression(int i)
{
    std::vector<std::pair<Tok, int>> stack;
    for (;; ++i) {
        const Tok t = tok(i).type;
        if (t == Tok::Eof) {
            if (!stack.empty())
                reportUnterminated(stack.back().first, stack.back().second);
            return i;
        }
        if (stack.empty() && (t == Tok::Newline || t == Tok::Comma || isCloser(t)))
            return i;
        if (isOpener(t)) {
            stack.emplace_back(t, i);
            continue;
        }
        if (isCloser(t)) {
            if (closerFor(stack.back().first) == t) {
                stack.pop_back();
                continue;
            }
            reportMismatch(stack.back().first, i);
            // Recover: unwind to an opener this closer matches, if any.
            while (!stack.empty() && closerFor(stack.back().first) != t)
                stack.pop_back();
            if (stack.empty())
                return i;
            stack.pop_back();
        }
    }
}

int NativeReader::skipGroup(int i) const
{
    std::vector<Tok> stack;
    for (;; ++i) {
        const Tok t = tok(i).type;
        if (t == Tok::Eof)
            return i;
        if (isOpener(t)) {
            stack.push_back(t);
            continue;
        }
        if (isCloser(t)) {
            while (!stack.empty() && closerFor(stack.back()) != t)
                stack.pop_back();
            if (!stack.empty())
                stack.pop_back();
            if (stack.empty())
                return i + 1;
        }
    }
}

void NativeReader::reportUnterminated(Tok opener, int at)
{
    switch (opener) {
    case Tok::OBrace:
        syntaxError(
            at, u"Unterminated object constructor expression"_s,
            u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
        break;
    case Tok::OBrack:
        syntaxError(
            at, u"Unterminated tuple constructor expression"_s,
            u"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."_s);
        break;
    case Tok::OParen: syntaxError(at, u"Unbalanced parentheses"_s, u"Expected a closing parenthesis to terminate the expression."_s); break;
    case Tok::OQuote: syntaxError(at, u"Unterminated template string"_s, u"No closing marker was found for the string."_s); break;
    case Tok::OHeredoc: syntaxError(at, u"Unterminated template string"_s, u"No closing marker was found for the string."_s); break;
    default:
        syntaxError(
            at, u"Unclosed template interpolation sequence"_s,
            u"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."_s);
        break;
    }
}

void NativeReader::reportMismatch(Tok opener, int at)
{
    switch (opener) {
    case Tok::OBrace:
        syntaxError(at, u"Missing attribute separator"_s, u"Expected a newline or comma to mark the beginning of the next attribute."_s);
        break;
    case Tok::OBrack: syntaxError(at, u"Missing item separator"_s, u"Expected a comma to mark the beginning of the next item."_s); break;
    case Tok::OParen: syntaxError(at, u"Unbalanced parentheses"_s, u"Expected a closing parenthesis to terminate the expression."_s); break;
    default:
        syntaxError(at, u"Extra characters after interpolation expression"_s,
                    u"Expected a closing brace to end the interpolation expression, but found extra characters."_s);
        break;
    }
}

void NativeReader::recoverAfterBodyItem()
{
    m_recovery = true;
    std::vector<Tok> open;
    for (;;) {
        const Tok t = tok(m_pos).type;
        if (t == Tok::Eof)
            return;
        ++m_pos;
        if (t == Tok::Newline && open.empty())
            return;
        if (isOpener(t)) {
            open.push_back(t);
        } else if (isCloser(t)) {
            while (!open.empty() && closerFor(open.back()) != t)
                open.pop_back();
            if (!open.empty())
                open.pop_back();
        }
    }
}

void NativeReader::recoverTo(Tok end)
{
    m_recovery = true;
    const Tok start = end == Tok::CBrace ? Tok::OBrace : Tok::Eof;
    int nest = 0;
    for (;;) {
        const Tok t = tok(m_pos).type;
        if (t == Tok::Eof)
            return;
        ++m_pos;
        if (t == start && start != Tok::Eof) {
            ++nest;
        } else if (t == end) {
            if (nest < 1)
                return;
            --nest;
        }
    }
}

void NativeReader::parseBody(NBody &body, int openBrace)
{
    const Tok end = openBrace >= 0 ? Tok::CBrace : Tok::Eof;
    for (;;) {
        const Token &t = tok(m_pos);
        if (t.type == end) {
            if (end != Tok::Eof)
                ++m_pos;
            return;
        }
        if (t.type == Tok::Newline) {
            ++m_pos;
            continue;
        }
        if (t.type == Tok::Ident) {
            parseItem(body);
            continue;
        }
        if (!m_recovery) {
            if (t.type == Tok::OQuote)
                errorAt(m_pos, u"Invalid argument name"_s, u"Argument names must not be quoted."_s);
            else if (t.type == Tok::Eof)
                errorAt(
                    openBrace, u"Unclosed configuration block"_s,
                    u"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
            else
                errorAt(m_pos, u"Argument or block definition required"_s, u"An argument or block definition is required here."_s);
        }
        ++m_pos;
        if (t.type != Tok::Eof)
            recoverTo(end);
        m_recovery = true;
        return;
    }
}

void NativeReader::finishAttribute(NBody &body, int nameTok, bool singleLine)
{
    ++m_pos; // =
    NAttr a;
    a.name = text(nameTok);
    a.nameTok = nameTok;
    a.begin = m_pos;
    const int before = int(diagnostics.size());
    m_nl.assign(1, true);
    parseExpr();
    a.end = m_pos;
    const bool hadErrors = int(diagnostics.size()) > before;
    if (const NAttr *prev = body.attr(a.name)) {
        const hcl::Pos p = m_map.pos(tok(prev->nameTok).begin);
        const hcl::Pos e = m_map.pos(tok(prev->nameTok).end);
        errorAt(
            nameTok, u"Attribute redefined"_s,
            u"The argument %1 was already set at %2:%3,%4-%5. Each argument may be set only once."_s.arg(gocompat::quote(a.name), m_file)
                .arg(p.line)
                .arg(p.column)
                .arg(e.column));
    } else {
        body.attrs.push_back(a);
    }
    if (m_recovery && hadErrors) {
        recoverAfterBodyItem();
        return;
    }
    if (singleLine)
        return;
    const Tok after = tok(m_pos).type;
    if (after == Tok::Newline) {
        ++m_pos;
    } else if (after != Tok::Eof) {
        if (!m_recovery) {
            if (after == Tok::Comma)
                errorAt(
                    m_pos, u"Unexpected comma after argument"_s,
                    u"Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline."_s);
            else
                errorAt(m_pos, u"Missing newline after argument"_s, u"An argument definition must end with a newline."_s);
        }
        recoverAfterBodyItem();
    }
}

// NOLINTNEXTLINE(readability-function-size): follows hclsyntax parser.go's body item parsing case by case (docs/ARCHITECTURE.md, lockfile)
void NativeReader::parseItem(NBody &body)
{
    const int nameTok = m_pos++;
    const Tok next = tok(m_pos).type;
    if (next == Tok::Equal) {
        finishAttribute(body, nameTok, false);
        return;
    }
    if (next != Tok::OQuote && next != Tok::OBrace && next != Tok::Ident) {
        recoverAfterBodyItem();
        errorAt(
            nameTok, u"Argument or block definition required"_s,
            u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s);
        return;
    }
    NBlock b;
    b.type = text(nameTok);
    b.typeTok = nameTok;
    b.lastHeaderTok = nameTok;
    for (;;) {
        const Tok t = tok(m_pos).type;
        if (t == Tok::OBrace)
            break;
        if (t == Tok::Ident) {
            b.labels << text(m_pos);
            b.lastHeaderTok = m_pos++;
            continue;
        }
        if (t == Tok::OQuote) {
            const int open = m_pos;
            QString label;
            int k = m_pos + 1;
            while (tok(k).type == Tok::QuotedLit)
                label += text(k++);
            if (tok(k).type != Tok::CQuote) {
                if (tok(k).type == Tok::TemplateInterp || tok(k).type == Tok::TemplateControl)
                    errorAt(
                        k, u"Invalid string literal"_s,
                        u"Template sequences are not allowed in this string. To include a literal \"%1\", double it (as \"%1%1\") to escape it."_s
                            .arg(QLatin1Char(m_data[tok(k).begin])));
                else if (!m_recovery)
                    errorAt(open, u"Unterminated string literal"_s, u"Unable to find the closing quote mark before the end of the file."_s);
                m_recovery = true;
                recoverAfterBodyItem();
                return;
            }
            b.labels << decodeEscapes(label);
            b.lastHeaderTok = k;
            m_pos = k + 1;
            continue;
        }
        if (t == Tok::Equal)
            errorAt(m_pos, u"Invalid block definition"_s,
                    u"The equals sign \"=\" indicates an argument definition, and must not be used when defining a block."_s);
        else if (t == Tok::Newline)
            errorAt(
                m_pos, u"Invalid block definition"_s,
                u"A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."_s);
        else if (!m_recovery)
            errorAt(m_pos, u"Invalid block definition"_s,
                    u"Either a quoted string block label or an opening brace (\"{\") is expected here."_s);
        recoverAfterBodyItem();
        body.blocks.push_back(std::move(b));
        return;
    }
    const int open = m_pos++;
    b.openTok = open;
    if (++m_depth > 200) {
        errorAt(open, u"Nesting too deep"_s, u"Blocks are nested too deeply."_s);
        m_recovery = true;
        m_pos = int(m_toks.size()) - 1;
        --m_depth;
        return;
    }
    const Tok after = tok(m_pos).type;
    if (after == Tok::Newline || after == Tok::Eof || after == Tok::CBrace) {
        parseBody(b.body, open);
    } else {
        // A single-line block: one argument, then `}`.
        if (after != Tok::Ident) {
            recoverAfterBodyItem();
            errorAt(m_pos, u"Argument or block definition required"_s, u"An argument or block definition is required here."_s);
        } else if (tok(m_pos + 1).type == Tok::Equal) {
            const int nameTok2 = m_pos++;
            finishAttribute(b.body, nameTok2, true);
        } else {
            const int ident = m_pos;
            const Tok n2 = tok(m_pos + 1).type;
            recoverAfterBodyItem();
            if (n2 == Tok::OQuote || n2 == Tok::OBrace || n2 == Tok::Ident)
                errorAt(
                    ident, u"Argument definition required"_s,
                    u"A single-line block definition can contain only a single argument. If you meant to define argument %1, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."_s
                        .arg(gocompat::quote(text(ident))));
            else
                errorAt(
                    ident, u"Argument or block definition required"_s,
                    u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s);
        }
        const Tok t = tok(m_pos).type;
        if (t == Tok::CBrace) {
            ++m_pos;
        } else if (t == Tok::Comma) {
            errorAt(
                m_pos, u"Invalid single-argument block definition"_s,
                u"Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."_s);
            recoverTo(Tok::CBrace);
        } else if (t == Tok::Newline) {
            errorAt(
                m_pos, u"Invalid single-argument block definition"_s,
                u"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."_s);
            recoverTo(Tok::CBrace);
        } else {
            if (!m_recovery) {
                if (t == Tok::Eof)
                    errorAt(
                        open, u"Unclosed configuration block"_s,
                        u"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
                else
                    errorAt(
                        m_pos, u"Invalid single-argument block definition"_s,
                        u"A single-line block definition must end with a closing brace immediately after its single argument definition."_s);
            }
            recoverTo(Tok::CBrace);
        }
    }
    --m_depth;
    const Tok eol = tok(m_pos).type;
    if (eol == Tok::Newline) {
        ++m_pos;
    } else if (eol != Tok::Eof) {
        if (!m_recovery)
            errorAt(m_pos, u"Missing newline after block definition"_s, u"A block definition must end with a newline."_s);
        recoverAfterBodyItem();
    }
    body.blocks.push_back(std::move(b));
}

} // namespace provender::config_detail
