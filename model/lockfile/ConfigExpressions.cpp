// Configuration reader, native syntax: the expression validator, following hclsyntax's grammar
// and recovery; it records token ranges and evaluates nothing (ConfigContent.cpp does, for the
// few values requirements need).

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

bool NativeReader::parseExpr()
{
    // Bounded recursion: a hostile file of 100000 `[` must not exhaust the stack.
    if (m_exprDepth >= 500) {
        syntaxError(sig(m_pos), u"Nesting too deep"_s, u"This expression is nested more deeply than 500 levels."_s);
        return false;
    }
    ++m_exprDepth;
    const bool ok = parseExprInner();
    --m_exprDepth;
    return ok;
}

bool NativeReader::parseExprInner()
{
    if (!parseBinary())
        return false;
    if (peekType() == Tok::Question) {
        take();
        m_nl.push_back(false);
        const bool ok = parseExpr();
        m_nl.pop_back();
        if (!ok)
            return false;
        if (peekType() != Tok::Colon)
            return fail(sig(m_pos), u"Missing false expression in conditional"_s,
                        u"The conditional operator (...?...:...) requires a false expression, delimited by a colon."_s);
        take();
        return parseExpr();
    }
    return true;
}

bool NativeReader::parsePostfix()
{
    for (;;) {
        const int i = sig(m_pos);
        const Tok t = tok(i).type;
        if (t == Tok::Dot) {
            take();
            const int n = sig(m_pos);
            if (tok(n).type == Tok::Ident || tok(n).type == Tok::Number || (tok(n).type == Tok::Operator && is(n, "*"))) {
                take();
                continue;
            }
            return fail(n, u"Invalid attribute name"_s, u"An attribute name is required after a dot."_s);
        }
        if (t == Tok::OBrack) {
            take();
            m_nl.push_back(false);
            bool ok = true;
            if (tok(sig(m_pos)).type == Tok::Operator && is(sig(m_pos), "*"))
                take();
            else
                ok = parseExpr();
            if (ok && peekType() != Tok::CBrack)
                ok =
                    fail(sig(m_pos), u"Missing close bracket on index"_s, u"The index operator must end with a closing bracket (\"]\")."_s);
            m_nl.pop_back();
            if (!ok)
                return false;
            take();
            continue;
        }
        return true;
    }
}

bool NativeReader::parsePrimary()
{
    const int i = sig(m_pos);
    const Token &t = tok(i);
    switch (t.type) {
    case Tok::Number: take(); return true;
    case Tok::Ident: {
        take();
        const Tok after = tok(m_pos).type; // no newline between a name and its `(`
        if (after == Tok::DoubleColon) {
            while (tok(m_pos).type == Tok::DoubleColon) {
                ++m_pos;
                if (tok(m_pos).type != Tok::Ident)
                    return fail(m_pos, u"Missing function name"_s,
                                u"Function scope resolution symbol :: must be followed by a function name in this scope."_s);
                ++m_pos;
            }
            if (tok(m_pos).type != Tok::OParen)
                return fail(m_pos, u"Missing open parenthesis"_s,
                            u"Function selector must be followed by an open parenthesis to begin the function call."_s);
            return parseCall();
        }
        if (after == Tok::OParen)
            return parseCall();
        return true;
    }
    case Tok::OQuote: take(); return parseTemplate(Tok::CQuote, i);
    case Tok::OHeredoc: take(); return parseTemplate(Tok::CHeredoc, i);
    case Tok::OParen: {
        take();
        m_nl.push_back(false);
        bool ok = parseExpr();
        if (ok && peekType() != Tok::CParen)
            ok = fail(sig(m_pos), u"Unbalanced parentheses"_s, u"Expected a closing parenthesis to terminate the expression."_s);
        m_nl.pop_back();
        if (ok)
            take();
        return ok;
    }
    case Tok::OBrack: take(); return parseTuple(i);
    case Tok::OBrace: take(); return parseObject(i);
    default: break;
    }
    if (t.type == Tok::Eof)
        return fail(i, u"Missing expression"_s, u"Expected the start of an expression, but found the end of the file."_s);
    return fail(i, u"Invalid expression"_s, u"Expected the start of an expression, but found an invalid expression token."_s);
}

bool NativeReader::parseCall()
{
    const int open = m_pos++;
    m_nl.push_back(false);
    bool ok = true;
    for (;;) {
        if (peekType() == Tok::CParen) {
            take();
            break;
        }
        if (peekType() == Tok::Eof) {
            ok = fail(
                open, u"Unterminated function call"_s,
                u"There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file."_s);
            break;
        }
        if (!(ok = parseExpr()))
            break;
        if (peekType() == Tok::Ellipsis) {
            take();
            if (peekType() != Tok::CParen) {
                ok = fail(sig(m_pos), u"Missing closing parenthesis"_s,
                          u"An expanded function argument (with ...) must be immediately followed by closing parentheses."_s);
                break;
            }
            continue;
        }
        if (peekType() == Tok::Comma) {
            take();
            continue;
        }
        if (peekType() == Tok::CParen)
            continue;
        if (peekType() == Tok::Eof)
            continue;
        ok = fail(sig(m_pos), u"Missing argument separator"_s, u"A comma is required to separate each function argument from the next."_s);
        break;
    }
    m_nl.pop_back();
    return ok;
}

bool NativeReader::parseForIntro()
{
    take(); // for
    if (tok(sig(m_pos)).type != Tok::Ident)
        return fail(sig(m_pos), u"Invalid 'for' expression"_s, u"For expression requires variable name after 'for'."_s);
    take();
    if (peekType() == Tok::Comma) {
        take();
        if (tok(sig(m_pos)).type != Tok::Ident)
            return fail(sig(m_pos), u"Invalid 'for' expression"_s, u"For expression requires value variable name after comma."_s);
        take();
    }
    if (!isKeyword(sig(m_pos), "in"))
        return fail(sig(m_pos), u"Invalid 'for' expression"_s, u"For expression requires the 'in' keyword after its name declarations."_s);
    take();
    if (!parseExpr())
        return false;
    if (peekType() != Tok::Colon)
        return fail(sig(m_pos), u"Invalid 'for' expression"_s, u"For expression requires a colon after the collection expression."_s);
    take();
    return true;
}

bool NativeReader::parseTuple(int open)
{
    m_nl.push_back(false);
    bool ok = true;
    if (isKeyword(sig(m_pos), "for")) {
        ok = parseForIntro() && parseExpr() && parseForCondition();
        if (ok && peekType() != Tok::CBrack)
            ok = fail(sig(m_pos), u"Invalid 'for' expression"_s, u"Extra characters after the end of the 'for' expression."_s);
        if (ok)
            take();
        m_nl.pop_back();
        return ok;
    }
    for (;;) {
        if (peekType() == Tok::CBrack) {
            take();
            break;
        }
        if (peekType() == Tok::Eof) {
            ok = fail(
                open, u"Unterminated tuple constructor expression"_s,
                u"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."_s);
            break;
        }
        if (!(ok = parseExpr()))
            break;
        if (peekType() == Tok::Comma) {
            take();
            continue;
        }
        if (peekType() == Tok::CBrack)
            continue;
        if (peekType() == Tok::Eof)
            continue;
        ok = fail(sig(m_pos), u"Missing item separator"_s, u"Expected a comma to mark the beginning of the next item."_s);
        break;
    }
    m_nl.pop_back();
    return ok;
}

bool NativeReader::parseObject(int open)
{
    if (isKeyword(sig(m_pos), "for")) {
        m_nl.push_back(false);
        bool ok = parseForIntro() && parseExpr();
        if (ok && peekType() != Tok::FatArrow)
            ok = fail(sig(m_pos), u"Invalid 'for' expression"_s, u"Key expression is required when building an object."_s);
        if (ok) {
            take();
            ok = parseExpr();
        }
        if (ok && peekType() == Tok::Ellipsis)
            take();
        ok = ok && parseForCondition();
        if (ok && peekType() != Tok::CBrace)
            ok = fail(sig(m_pos), u"Invalid 'for' expression"_s, u"Extra characters after the end of the 'for' expression."_s);
        if (ok)
            take();
        m_nl.pop_back();
        return ok;
    }
    m_nl.push_back(true);
    bool ok = true;
    for (;;) {
        while (tok(m_pos).type == Tok::Newline)
            ++m_pos;
        if (tok(m_pos).type == Tok::CBrace) {
            ++m_pos;
            break;
        }
        if (tok(m_pos).type == Tok::Eof) {
            ok = fail(
                open, u"Unterminated object constructor expression"_s,
                u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
            break;
        }
        m_nl.push_back(false);
        ok = parseExpr();
        m_nl.pop_back();
        if (!ok)
            break;
        const Tok sep = tok(m_pos).type;
        if (sep != Tok::Equal && sep != Tok::Colon) {
            if (sep == Tok::Newline || sep == Tok::Comma)
                ok = fail(m_pos, u"Missing attribute value"_s, u"Expected an attribute value, introduced by an equals sign (\"=\")."_s);
            else if (sep == Tok::Eof)
                ok = fail(
                    open, u"Unterminated object constructor expression"_s,
                    u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
            else
                ok = fail(m_pos, u"Missing key/value separator"_s,
                          u"Expected an equals sign (\"=\") to mark the beginning of the attribute value."_s);
            break;
        }
        ++m_pos;
        m_nl.push_back(false);
        ok = parseExpr();
        m_nl.pop_back();
        if (!ok)
            break;
        const Tok after = tok(m_pos).type;
        if (after == Tok::Comma || after == Tok::Newline) {
            ++m_pos;
            continue;
        }
        if (after == Tok::CBrace)
            continue;
        if (after == Tok::Eof)
            continue;
        ok = fail(m_pos, u"Missing attribute separator"_s, u"Expected a newline or comma to mark the beginning of the next attribute."_s);
        break;
    }
    m_nl.pop_back();
    return ok;
}

void NativeReader::checkEscapes(int i)
{
    const Token &t = tok(i);
    const char *p = m_data.constData() + t.begin;
    const qsizetype n = t.end - t.begin;
    for (qsizetype k = 0; k < n; ++k) {
        if (p[k] != '\\')
            continue;
        const qsizetype s = k;
        if (k + 1 >= n) {
            addDiag(u"Invalid escape sequence"_s, u"Backslash must be followed by an escape sequence selector character."_s, t.begin + s);
            return;
        }
        const char sel = p[k + 1];
        if (sel == 'u' || sel == 'U') {
            const int want = sel == 'u' ? 4 : 8;
            qsizetype e = k + 2;
            while (e < n && e - (k + 2) < want && std::isxdigit(static_cast<unsigned char>(p[e])))
                ++e;
            if (e - (k + 2) != want) {
                addDiag(u"Invalid escape sequence"_s,
                        sel == 'u' ? u"The \\u escape sequence must be followed by four hexadecimal digits."_s
                                   : u"The \\U escape sequence must be followed by eight hexadecimal digits."_s,
                        t.begin + s);
            } else {
                const uint cp = QByteArray(p + s + 2, want).toUInt(nullptr, 16);
                if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                    addDiag(u"Invalid escape sequence"_s, u"Cannot encode character U+%1 in UTF-8."_s.arg(cp, 4, 16, QLatin1Char('0')),
                            t.begin + s);
            }
            k = e - 1;
            continue;
        }
        if (QByteArrayView("nrt\"\\\\").contains(sel)) {
            ++k;
            continue;
        }
        int len = 1;
        while (k + 1 + len < n && (static_cast<unsigned char>(p[k + 1 + len]) & 0xC0) == 0x80)
            ++len;
        addDiag(u"Invalid escape sequence"_s,
                u"The symbol %1 is not a valid escape sequence selector."_s.arg(gocompat::quote(QString::fromUtf8(p + k + 1, len))),
                t.begin + s);
        k += len;
    }
}

bool NativeReader::parseTemplate(Tok closer, int open)
{
    for (;;) {
        const Tok t = tok(m_pos).type;
        if (t == closer) {
            ++m_pos;
            return true;
        }
        if (t == Tok::QuotedLit) {
            checkEscapes(m_pos++);
            continue;
        }
        if (t == Tok::StringLit) {
            ++m_pos;
            continue;
        }
        if (t == Tok::TemplateInterp) {
            ++m_pos;
            m_nl.push_back(false);
            bool ok = parseExpr();
            if (ok && peekType() != Tok::TemplateSeqEnd) {
                if (peekType() == Tok::Eof)
                    ok = fail(
                        sig(m_pos), u"Unclosed template interpolation sequence"_s,
                        u"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."_s);
                else
                    ok = fail(
                        sig(m_pos), u"Extra characters after interpolation expression"_s,
                        u"Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\"."_s);
            }
            m_nl.pop_back();
            if (!ok)
                return false;
            take();
            continue;
        }
        if (t == Tok::TemplateControl) {
            // %{ if EXPR } / %{ for k, v in EXPR } / %{ else } / %{ endif } / %{ endfor }
            ++m_pos;
            m_nl.push_back(false);
            bool ok = true;
            if (isKeyword(sig(m_pos), "if")) {
                take();
                ok = parseExpr();
            } else if (isKeyword(sig(m_pos), "for")) {
                take();
                while (ok && !isKeyword(sig(m_pos), "in")) {
                    if (tok(sig(m_pos)).type != Tok::Ident && tok(sig(m_pos)).type != Tok::Comma)
                        ok = fail(sig(m_pos), u"Invalid 'for' directive"_s, u"For directive requires 'in' keyword after names."_s);
                    else
                        take();
                }
                if (ok) {
                    take();
                    ok = parseExpr();
                }
            } else if (isKeyword(sig(m_pos), "else") || isKeyword(sig(m_pos), "endif") || isKeyword(sig(m_pos), "endfor")) {
                take();
            } else if (tok(sig(m_pos)).type == Tok::Ident) {
                const QString word = text(sig(m_pos));
                QString suggestion;
                for (const char *k : {"if", "for", "else", "endif", "endfor"})
                    if (gocompat::levenshtein(word, QString::fromLatin1(k)) < 3) {
                        suggestion = u" Did you mean %1?"_s.arg(gocompat::quote(QString::fromLatin1(k)));
                        break;
                    }
                ok = fail(sig(m_pos), u"Invalid template control keyword"_s,
                          u"%1 is not a valid template control keyword.%2"_s.arg(gocompat::quote(word), suggestion));
            } else {
                ok = fail(sig(m_pos), u"Invalid template directive"_s,
                          u"A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence."_s);
            }
            if (ok && peekType() != Tok::TemplateSeqEnd)
                ok = fail(sig(m_pos), u"Extra characters in template directive"_s, u"Expected the end of the directive."_s);
            m_nl.pop_back();
            if (!ok)
                return false;
            take();
            continue;
        }
        if (t == Tok::Eof || t == Tok::Newline || t == Tok::QuotedNewline || t == Tok::CQuote || t == Tok::CHeredoc) {
            Q_UNUSED(open);
            return fail(m_pos, u"Unterminated template string"_s, u"No closing marker was found for the string."_s);
        }
        // Anything else inside a template (invalid tokens were reported already).
        ++m_pos;
    }
}

QString NativeReader::decodeEscapes(const QString &s)
{
    if (!s.contains(u'\\') && !s.contains(u"${"_s) && !s.contains(u"%{"_s))
        return s;
    QString out;
    for (qsizetype k = 0; k < s.size(); ++k) {
        const QChar c = s[k];
        if (c == u'\\' && k + 1 < s.size()) {
            const QChar sel = s[k + 1];
            if (sel == u'u' || sel == u'U') {
                const int want = sel == u'u' ? 4 : 8;
                bool ok = false;
                const uint cp = s.mid(k + 2, want).toUInt(&ok, 16);
                if (ok) {
                    const char32_t ucs = cp;
                    out += QString::fromUcs4(&ucs, 1);
                    k += 1 + want;
                    continue;
                }
            }
            if (const char escaped = hcl::simpleEscape(sel.unicode())) {
                out += QLatin1Char(escaped);
                ++k;
                continue;
            }
        }
        if ((c == u'$' || c == u'%') && k + 2 < s.size() && s[k + 1] == c && s[k + 2] == u'{') {
            out += c;
            out += u'{';
            k += 2;
            continue;
        }
        out += c;
    }
    return out;
}

} // namespace provender::config_detail
