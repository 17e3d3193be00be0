#include "model/lockfile/ConfigReader.h"

#include "model/core/Logging.h"
#include "model/lockfile/HclSyntax.h"

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

namespace provender {

QString ConfigDiagnostic::toString() const
{
    QString where = file;
    if (line > 0)
        where += u':' + QString::number(line) + u':' + QString::number(column);
    QString oneLine = detail;
    oneLine.replace(u'\n', u' ');
    return (where.isEmpty() ? QString() : where + u": "_s) + (isError() ? u"error: "_s : u"warning: "_s) + summary
           + (oneLine.isEmpty() ? QString() : u": "_s + oneLine);
}

bool ConfigFileContent::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const ConfigDiagnostic &d) { return d.isError(); });
}

bool ConfigRequirements::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const ConfigDiagnostic &d) { return d.isError(); });
}

const ConfigProviderRequirement *ConfigRequirements::find(const ProviderAddress &address) const
{
    for (const ConfigProviderRequirement &p : providers)
        if (p.address == address)
            return &p;
    return nullptr;
}

namespace {

using hcl::Tok;
using hcl::Token;
using Position = ConfigFileContent::Position;

// ---- Native syntax: body structure over the HCL scanner's tokens ---------------------------

struct NAttr
{
    QString name;
    int nameTok = 0;
    int begin = 0; ///< first token of the expression
    int end = 0;   ///< one past the last
};

struct NBlock;

struct NBody
{
    std::vector<NAttr> attrs;
    std::vector<NBlock> blocks;
    const NAttr *attr(QStringView name) const
    {
        for (const NAttr &a : attrs)
            if (a.name == name)
                return &a;
        return nullptr;
    }
};

struct NBlock
{
    QString type;
    int typeTok = 0;
    QStringList labels;
    int lastHeaderTok = 0;
    int openTok = -1; ///< the `{`
    NBody body;
};

Tok closerFor(Tok t)
{
    switch (t) {
    case Tok::OBrace: return Tok::CBrace;
    case Tok::OBrack: return Tok::CBrack;
    case Tok::OParen: return Tok::CParen;
    case Tok::OQuote: return Tok::CQuote;
    case Tok::OHeredoc: return Tok::CHeredoc;
    case Tok::TemplateInterp:
    case Tok::TemplateControl: return Tok::TemplateSeqEnd;
    default: return Tok::Eof;
    }
}

bool isOpener(Tok t) { return closerFor(t) != Tok::Eof; }
bool isCloser(Tok t)
{
    return t == Tok::CBrace || t == Tok::CBrack || t == Tok::CParen || t == Tok::CQuote || t == Tok::CHeredoc || t == Tok::TemplateSeqEnd;
}

class NativeReader
{
public:
    NativeReader(const QByteArray &data, const QString &fileName) : m_data(data), m_file(fileName), m_map(data)
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

    NBody parse()
    {
        NBody body;
        parseBody(body, -1);
        return body;
    }

    QList<ConfigDiagnostic> diagnostics;

    // -- tokens --
    const Token &tok(int i) const { return m_toks[size_t(std::min<qsizetype>(i, qsizetype(m_toks.size()) - 1))]; }
    QString text(int i) const { return QString::fromUtf8(m_data.constData() + tok(i).begin, tok(i).end - tok(i).begin); }
    bool is(int i, const char *s) const
    {
        const Token &t = tok(i);
        return QByteArrayView(m_data.constData() + t.begin, t.end - t.begin) == QByteArrayView(s);
    }

    Position position(int first, int last) const
    {
        const hcl::Pos a = m_map.pos(tok(first).begin);
        const hcl::Pos b = m_map.pos(tok(last).end);
        return {a.line, a.column, b.line, b.column};
    }
    Position rangeOf(int begin, int end) const { return position(begin, end > begin ? end - 1 : begin); }

    void addDiag(const QString &summary, const QString &detail, qsizetype byte, qsizetype = 0,
                 ConfigDiagnostic::Severity severity = ConfigDiagnostic::Severity::Error)
    {
        const hcl::Pos p = m_map.pos(byte);
        diagnostics.append(ConfigDiagnostic{severity, summary, detail, m_file, p.line, p.column});
    }
    void errorAt(int tokIndex, const QString &summary, const QString &detail) { addDiag(summary, detail, tok(tokIndex).begin); }
    void warningAt(int tokIndex, const QString &summary, const QString &detail)
    {
        addDiag(summary, detail, tok(tokIndex).begin, 0, ConfigDiagnostic::Severity::Warning);
    }

    /// Skips one expression starting at `i`: stops at a newline, comma or unmatched closing
    /// token at nesting level 0, or at the end. Returns the index after the expression; reports
    /// unbalanced nesting once (then sets m_recovery).
    int skipExpression(int i)
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

    /// From an opening token, the index after its matching closer (or the end).
    int skipGroup(int i) const
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

private:
    const QByteArray &m_data;
    QString m_file;
    hcl::SourceMap m_map;
    std::vector<Token> m_toks;
    int m_pos = 0;
    bool m_recovery = false;
    int m_depth = 0;

    void syntaxError(int tokIndex, const QString &summary, const QString &detail)
    {
        if (m_recovery)
            return;
        errorAt(tokIndex, summary, detail);
        m_recovery = true;
    }

    void reportUnterminated(Tok opener, int at)
    {
        switch (opener) {
        case Tok::OBrace:
            syntaxError(at, u"Unterminated object constructor expression"_s,
                        u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
            break;
        case Tok::OBrack:
            syntaxError(at, u"Unterminated tuple constructor expression"_s,
                        u"There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file."_s);
            break;
        case Tok::OParen:
            syntaxError(at, u"Unbalanced parentheses"_s, u"Expected a closing parenthesis to terminate the expression."_s);
            break;
        case Tok::OQuote:
            syntaxError(at, u"Unterminated template string"_s, u"No closing marker was found for the string."_s);
            break;
        case Tok::OHeredoc:
            syntaxError(at, u"Unterminated template string"_s, u"No closing marker was found for the string."_s);
            break;
        default:
            syntaxError(at, u"Unclosed template interpolation sequence"_s,
                        u"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."_s);
            break;
        }
    }

    void reportMismatch(Tok opener, int at)
    {
        switch (opener) {
        case Tok::OBrace:
            syntaxError(at, u"Missing attribute separator"_s, u"Expected a newline or comma to mark the beginning of the next attribute."_s);
            break;
        case Tok::OBrack:
            syntaxError(at, u"Missing item separator"_s, u"Expected a comma to mark the beginning of the next item."_s);
            break;
        case Tok::OParen:
            syntaxError(at, u"Unbalanced parentheses"_s, u"Expected a closing parenthesis to terminate the expression."_s);
            break;
        default:
            syntaxError(at, u"Extra characters after interpolation expression"_s,
                        u"Expected a closing brace to end the interpolation expression, but found extra characters."_s);
            break;
        }
    }

    /// hclsyntax's recoverAfterBodyItem: skips to the end of the line (balanced).
    void recoverAfterBodyItem()
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

    /// hclsyntax's recover(end): skips past the `end` that closes the current nesting level.
    void recoverTo(Tok end)
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

    /// A body up to its closing brace (openBrace >= 0) or the end of the file.
    void parseBody(NBody &body, int openBrace)
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
                    errorAt(openBrace, u"Unclosed configuration block"_s,
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

    /// name = expr, for a body; false when the expression had errors.
    void finishAttribute(NBody &body, int nameTok, bool singleLine)
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
            errorAt(nameTok, u"Attribute redefined"_s,
                    u"The argument %1 was already set at %2:%3,%4-%5. Each argument may be set only once."_s.arg(hcl::goQuote(a.name), m_file)
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
                    errorAt(m_pos, u"Unexpected comma after argument"_s,
                            u"Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline."_s);
                else
                    errorAt(m_pos, u"Missing newline after argument"_s, u"An argument definition must end with a newline."_s);
            }
            recoverAfterBodyItem();
        }
    }

    void parseItem(NBody &body)
    {
        const int nameTok = m_pos++;
        const Tok next = tok(m_pos).type;
        if (next == Tok::Equal) {
            finishAttribute(body, nameTok, false);
            return;
        }
        if (next != Tok::OQuote && next != Tok::OBrace && next != Tok::Ident) {
            recoverAfterBodyItem();
            errorAt(nameTok, u"Argument or block definition required"_s,
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
                        errorAt(k, u"Invalid string literal"_s,
                                u"Template sequences are not allowed in this string. To include a literal \"%1\", double it (as \"%1%1\") to escape it."_s.arg(
                                    QLatin1Char(m_data[tok(k).begin])));
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
                errorAt(m_pos, u"Invalid block definition"_s,
                        u"A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."_s);
            else if (!m_recovery)
                errorAt(m_pos, u"Invalid block definition"_s, u"Either a quoted string block label or an opening brace (\"{\") is expected here."_s);
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
                    errorAt(ident, u"Argument definition required"_s,
                            u"A single-line block definition can contain only a single argument. If you meant to define argument %1, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."_s
                                .arg(hcl::goQuote(text(ident))));
                else
                    errorAt(ident, u"Argument or block definition required"_s,
                            u"An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."_s);
            }
            const Tok t = tok(m_pos).type;
            if (t == Tok::CBrace) {
                ++m_pos;
            } else if (t == Tok::Comma) {
                errorAt(m_pos, u"Invalid single-argument block definition"_s,
                        u"Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."_s);
                recoverTo(Tok::CBrace);
            } else if (t == Tok::Newline) {
                errorAt(m_pos, u"Invalid single-argument block definition"_s,
                        u"An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."_s);
                recoverTo(Tok::CBrace);
            } else {
                if (!m_recovery) {
                    if (t == Tok::Eof)
                        errorAt(open, u"Unclosed configuration block"_s,
                                u"There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
                    else
                        errorAt(m_pos, u"Invalid single-argument block definition"_s,
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

    // ---- Expressions (hclsyntax's grammar, validated and skipped; nothing is evaluated) ----

    std::vector<bool> m_nl; ///< newline significance per nesting level (false inside ( [ ${ })

    int sig(int i) const
    {
        if (!m_nl.empty() && !m_nl.back())
            while (tok(i).type == Tok::Newline)
                ++i;
        return i;
    }
    Tok peekType() const { return tok(sig(m_pos)).type; }
    int take()
    {
        m_pos = sig(m_pos);
        return m_pos++;
    }
    bool fail(int at, const QString &summary, const QString &detail)
    {
        syntaxError(at, summary, detail);
        m_pos = at;
        return false;
    }
    bool isKeyword(int i, const char *word) const { return tok(i).type == Tok::Ident && is(i, word); }
    bool isBinaryOperator(int i) const
    {
        if (tok(i).type != Tok::Operator)
            return false;
        for (const char *op : {"+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"})
            if (is(i, op))
                return true;
        return false;
    }

    int m_exprDepth = 0;

    bool parseExpr()
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

    bool parseExprInner()
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

    bool parseBinary()
    {
        for (;;) {
            if (!parseUnary())
                return false;
            if (!isBinaryOperator(sig(m_pos)))
                return true;
            take();
        }
    }

    bool parseUnary()
    {
        while (tok(sig(m_pos)).type == Tok::Operator && (is(sig(m_pos), "-") || is(sig(m_pos), "!")))
            take();
        if (!parsePrimary())
            return false;
        return parsePostfix();
    }

    bool parsePostfix()
    {
        for (;;) {
            const int i = sig(m_pos);
            const Tok t = tok(i).type;
            if (t == Tok::Dot) {
                take();
                const int n = sig(m_pos);
                if (tok(n).type == Tok::Ident || tok(n).type == Tok::Number
                    || (tok(n).type == Tok::Operator && is(n, "*"))) {
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
                    ok = fail(sig(m_pos), u"Missing close bracket on index"_s, u"The index operator must end with a closing bracket (\"]\")."_s);
                m_nl.pop_back();
                if (!ok)
                    return false;
                take();
                continue;
            }
            return true;
        }
    }

    bool parsePrimary()
    {
        const int i = sig(m_pos);
        const Token &t = tok(i);
        switch (t.type) {
        case Tok::Number:
            take();
            return true;
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
        case Tok::OQuote:
            take();
            return parseTemplate(Tok::CQuote, i);
        case Tok::OHeredoc:
            take();
            return parseTemplate(Tok::CHeredoc, i);
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
        case Tok::OBrack:
            take();
            return parseTuple(i);
        case Tok::OBrace:
            take();
            return parseObject(i);
        default:
            break;
        }
        if (t.type == Tok::Eof)
            return fail(i, u"Missing expression"_s, u"Expected the start of an expression, but found the end of the file."_s);
        return fail(i, u"Invalid expression"_s, u"Expected the start of an expression, but found an invalid expression token."_s);
    }

    bool parseCall()
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
                ok = fail(open, u"Unterminated function call"_s,
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

    /// `for k, v in coll :` — shared by tuple and object for expressions (at `for`).
    bool parseForIntro()
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

    bool parseForCondition()
    {
        if (isKeyword(sig(m_pos), "if")) {
            take();
            return parseExpr();
        }
        return true;
    }

    bool parseTuple(int open)
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
                ok = fail(open, u"Unterminated tuple constructor expression"_s,
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

    bool parseObject(int open)
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
                ok = fail(open, u"Unterminated object constructor expression"_s,
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
                    ok = fail(open, u"Unterminated object constructor expression"_s,
                              u"There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file."_s);
                else
                    ok = fail(m_pos, u"Missing key/value separator"_s, u"Expected an equals sign (\"=\") to mark the beginning of the attribute value."_s);
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

    /// The escape-sequence errors of one quoted literal token (hclsyntax's ParseStringLiteralToken).
    void checkEscapes(int i)
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
                    u"The symbol %1 is not a valid escape sequence selector."_s.arg(hcl::goQuote(QString::fromUtf8(p + k + 1, len))), t.begin + s);
            k += len;
        }
    }

    bool parseTemplate(Tok closer, int open)
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
                        ok = fail(sig(m_pos), u"Unclosed template interpolation sequence"_s,
                                  u"There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."_s);
                    else
                        ok = fail(sig(m_pos), u"Extra characters after interpolation expression"_s,
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
                        if (hcl::levenshtein(word, QString::fromLatin1(k)) < 3) {
                            suggestion = u" Did you mean %1?"_s.arg(hcl::goQuote(QString::fromLatin1(k)));
                            break;
                        }
                    ok = fail(sig(m_pos), u"Invalid template control keyword"_s,
                              u"%1 is not a valid template control keyword.%2"_s.arg(hcl::goQuote(word), suggestion));
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

public:
    /// Resolves the escapes of a quoted literal (\n \r \t \" \\ \uXXXX \UXXXXXXXX, $${ %%{).
    static QString decodeEscapes(const QString &s)
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
                switch (sel.unicode()) {
                case 'n': out += u'\n'; ++k; continue;
                case 'r': out += u'\r'; ++k; continue;
                case 't': out += u'\t'; ++k; continue;
                case '"': out += u'"'; ++k; continue;
                case '\\': out += u'\\'; ++k; continue;
                default: break;
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
};

// ---- Static values of the few expressions the requirements need ----------------------------

/// What a token range is, as far as requirements care.
struct StaticValue
{
    enum class Kind { String, Number, Bool, Null, Object, Tuple, Traversal, FunctionCall, Other };
    Kind kind = Kind::Other;
    QString text; ///< String/Number/Bool: the value; Traversal: the dotted text (`aws.west`)
    struct Item
    {
        QString key;
        bool keyIsStatic = true;
        int keyTok = 0;
        int begin = 0;
        int end = 0;
    };
    QList<Item> items; ///< Object: key/value ranges; Tuple: element ranges (key empty)
    bool isPrimitive() const { return kind == Kind::String || kind == Kind::Number || kind == Kind::Bool; }
};

class Evaluator
{
public:
    explicit Evaluator(NativeReader &r) : r(r) {}

    /// Classifies [begin, end); parentheses around a value are looked through.
    StaticValue value(int begin, int end, int depth = 0) const
    {
        StaticValue v;
        if (begin >= end || depth > 64)
            return v;
        const Tok first = r.tok(begin).type;
        if (first == Tok::OParen && r.skipGroup(begin) == end && r.tok(end - 1).type == Tok::CParen)
            return value(begin + 1, end - 1, depth + 1);
        if (first == Tok::OQuote) {
            QString s;
            int k = begin + 1;
            while (k < end && r.tok(k).type == Tok::QuotedLit)
                s += r.text(k++);
            if (k == end - 1 && r.tok(k).type == Tok::CQuote) {
                v.kind = StaticValue::Kind::String;
                v.text = NativeReader::decodeEscapes(s);
            }
            return v;
        }
        if (first == Tok::Number && end == begin + 1) {
            v.kind = StaticValue::Kind::Number;
            v.text = r.text(begin);
            return v;
        }
        if (first == Tok::Ident) {
            if (end == begin + 1 && (r.is(begin, "true") || r.is(begin, "false"))) {
                v.kind = StaticValue::Kind::Bool;
                v.text = r.text(begin);
                return v;
            }
            if (end == begin + 1 && r.is(begin, "null")) {
                v.kind = StaticValue::Kind::Null;
                return v;
            }
            if (begin + 1 < end && (r.tok(begin + 1).type == Tok::OParen || r.tok(begin + 1).type == Tok::DoubleColon)) {
                v.kind = StaticValue::Kind::FunctionCall;
                return v;
            }
            // A traversal: name(.attr | [index])*
            QString t = r.text(begin);
            int k = begin + 1;
            bool plain = true;
            while (k < end) {
                if (r.tok(k).type == Tok::Dot && k + 1 < end && r.tok(k + 1).type == Tok::Ident) {
                    t += u'.' + r.text(k + 1);
                    k += 2;
                    continue;
                }
                if (r.tok(k).type == Tok::OBrack) {
                    const int close = r.skipGroup(k);
                    if (close <= k)
                        break;
                    plain = false;
                    k = close;
                    continue;
                }
                break;
            }
            if (k == end) {
                v.kind = StaticValue::Kind::Traversal;
                v.text = plain ? t : QString();
            }
            return v;
        }
        if (first == Tok::OBrace && r.skipGroup(begin) == end && r.tok(end - 1).type == Tok::CBrace) {
            v.kind = StaticValue::Kind::Object;
            int k = begin + 1;
            for (;;) {
                while (k < end - 1 && (r.tok(k).type == Tok::Newline || r.tok(k).type == Tok::Comma))
                    ++k;
                if (k >= end - 1)
                    break;
                StaticValue::Item item;
                item.keyTok = k;
                const int keyEnd = skipUntil(k, end - 1, {Tok::Equal, Tok::Colon});
                const StaticValue key = value(k, keyEnd);
                if (key.kind == StaticValue::Kind::String) {
                    item.key = key.text;
                } else if (keyEnd == k + 1 && r.tok(k).type == Tok::Ident) {
                    item.key = r.text(k); // a bare name is a literal key
                } else {
                    item.keyIsStatic = false;
                }
                if (keyEnd >= end - 1) { // no `=`: not an object we can read
                    v.kind = StaticValue::Kind::Other;
                    return v;
                }
                if (r.is(k, "for") && r.tok(k).type == Tok::Ident && keyEnd != k + 1) {
                    v.kind = StaticValue::Kind::Other; // a for expression
                    return v;
                }
                item.begin = keyEnd + 1;
                item.end = r.skipExpression(item.begin);
                if (item.end > end - 1)
                    item.end = end - 1;
                v.items.append(item);
                k = item.end;
            }
            return v;
        }
        if (first == Tok::OBrack && r.skipGroup(begin) == end && r.tok(end - 1).type == Tok::CBrack) {
            v.kind = StaticValue::Kind::Tuple;
            if (begin + 1 < end - 1 && r.tok(begin + 1).type == Tok::Ident && r.is(begin + 1, "for")) {
                v.kind = StaticValue::Kind::Other;
                return v;
            }
            int k = begin + 1;
            for (;;) {
                while (k < end - 1 && (r.tok(k).type == Tok::Newline || r.tok(k).type == Tok::Comma))
                    ++k;
                if (k >= end - 1)
                    break;
                StaticValue::Item item;
                item.begin = k;
                item.end = std::min(r.skipExpression(k), end - 1);
                if (item.end == k)
                    break;
                v.items.append(item);
                k = item.end;
            }
            return v;
        }
        return v;
    }

private:
    NativeReader &r;

    /// The first token in [from, limit) of one of `kinds` at nesting level 0, else limit.
    int skipUntil(int from, int limit, std::initializer_list<Tok> kinds) const
    {
        int k = from;
        while (k < limit) {
            if (std::find(kinds.begin(), kinds.end(), r.tok(k).type) != kinds.end())
                return k;
            if (isOpener(r.tok(k).type)) {
                const int after = r.skipGroup(k);
                k = after;
                continue;
            }
            if (r.tok(k).type == Tok::Newline || r.tok(k).type == Tok::Comma)
                return limit;
            ++k;
        }
        return limit;
    }
};

// ---- From syntax to content ------------------------------------------------------------------

/// hashicorp/go-version's constraint syntax (terraform checks it before its own parser):
/// every comma-separated part must match this.
bool goVersionConstraintAccepts(const QString &text)
{
    static const QRegularExpression re(
        uR"(^\s*(|=|!=|>|<|>=|<=|~>)\s*v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?\s*$)"_s);
    for (const QString &part : text.split(u','))
        if (!re.match(part).hasMatch())
            return false;
    return true;
}

/// Shared by the native and the JSON reader: turns decoded pieces into content + diagnostics.
class ContentBuilder
{
public:
    ConfigFileContent content;
    QString file;

    void error(const Position &p, const QString &summary, const QString &detail)
    {
        content.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, summary, detail, file, p.line, p.column});
    }
    void warning(const Position &p, const QString &summary, const QString &detail)
    {
        content.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Warning, summary, detail, file, p.line, p.column});
    }

    /// decodeVersionConstraint's checks of a constraint string.
    bool checkConstraint(const QString &text, const Position &p)
    {
        if (goVersionConstraintAccepts(text))
            return true;
        error(p, u"Invalid version constraint"_s, u"This string does not use correct version constraint syntax."_s);
        return false;
    }

    /// checkProviderNameNormalized.
    bool checkLocalName(const QString &name, const Position &p)
    {
        const Result<QString> n = ProviderAddress::normalizePart(name);
        if (n.ok() && n.value() == name)
            return true;
        if (n.ok())
            error(p, u"Invalid provider local name"_s,
                  u"Provider names must be normalized. Replace %1 with %2 to fix this error."_s.arg(hcl::goQuote(name), hcl::goQuote(n.value())));
        else
            error(p, u"Invalid provider local name"_s, u"%1 is an invalid provider local name: %2"_s.arg(name, n.error().message));
        return false;
    }
};

class NativeContent
{
public:
    NativeContent(const QByteArray &data, const QString &fileName) : m_reader(data, fileName), m_eval(m_reader)
    {
        m_b.file = fileName;
    }

    ConfigFileContent run()
    {
        const NBody root = m_reader.parse();
        for (const NBlock &b : root.blocks) {
            if (b.type == u"terraform"_s) {
                for (const NBlock &inner : b.body.blocks)
                    if (inner.type == u"required_providers"_s)
                        requiredProviders(inner);
            } else if (b.type == u"provider"_s && b.labels.size() == 1) {
                providerBlock(b);
            } else if ((b.type == u"resource"_s || b.type == u"data"_s || b.type == u"ephemeral"_s) && b.labels.size() == 2) {
                resource(b);
            } else if (b.type == u"check"_s) {
                for (const NBlock &inner : b.body.blocks)
                    if (inner.type == u"data"_s && inner.labels.size() == 2)
                        resource(inner);
            } else if (b.type == u"import"_s) {
                importBlock(b);
            } else if (b.type == u"module"_s && b.labels.size() == 1) {
                moduleCall(b);
            }
        }
        ConfigFileContent c = std::move(m_b.content);
        c.diagnostics = m_reader.diagnostics + c.diagnostics;
        return c;
    }

private:
    NativeReader m_reader;
    Evaluator m_eval;
    ContentBuilder m_b;

    Position header(const NBlock &b) const { return m_reader.position(b.typeTok, b.lastHeaderTok); }
    Position range(const NAttr &a) const { return m_reader.rangeOf(a.begin, a.end); }
    Position range(int begin, int end) const { return m_reader.rangeOf(begin, end); }

    /// A reference like `aws.west` or `aws`: the local name, "" when the expression is not one.
    QString localNameOf(const NAttr &a) const
    {
        const StaticValue v = m_eval.value(a.begin, a.end);
        if (v.kind != StaticValue::Kind::Traversal || v.text.isEmpty())
            return {};
        return v.text.section(u'.', 0, 0);
    }

    void requiredProviders(const NBlock &block)
    {
        ConfigFileContent::RequiredProvidersBlock out;
        out.position = header(block);
        for (const NBlock &nested : block.body.blocks)
            m_b.error(header(nested), u"Unexpected %1 block"_s.arg(hcl::goQuote(nested.type)), u"Blocks are not allowed here."_s);
        for (const NAttr &a : block.body.attrs) {
            ConfigFileContent::RequiredProvider rp;
            rp.localName = a.name;
            rp.position = range(a);
            rp.versionPosition = range(a.nameTok, a.end);
            const StaticValue v = m_eval.value(a.begin, a.end);
            if (v.isPrimitive()) {
                // The legacy form: `aws = "~> 1.0"` (a version constraint only).
                if (m_b.checkConstraint(v.text, rp.position))
                    rp.version = v.text;
                out.entries.append(rp);
                continue;
            }
            if (!m_b.checkLocalName(a.name, rp.position))
                continue;
            if (v.kind != StaticValue::Kind::Object) {
                m_b.error(rp.position, u"Invalid required_providers object"_s, u"required_providers entries must be strings or objects."_s);
                continue;
            }
            bool ok = true;
            for (const StaticValue::Item &item : v.items) {
                const Position keyPos = range(item.keyTok, item.keyTok + 1);
                const Position valuePos = range(item.begin, item.end);
                const StaticValue value = m_eval.value(item.begin, item.end);
                if (!item.keyIsStatic) {
                    m_b.error(keyPos, u"Invalid Attribute"_s, u"Invalid attribute value for provider requirement."_s);
                    ok = false;
                    continue;
                }
                if (item.key == u"version"_s) {
                    if (value.kind != StaticValue::Kind::String) {
                        m_b.error(valuePos, u"Invalid version constraint"_s, u"Version must be specified as a string."_s);
                        ok = false;
                        continue;
                    }
                    if (!m_b.checkConstraint(value.text, valuePos)) {
                        ok = false;
                        continue;
                    }
                    rp.version = value.text;
                } else if (item.key == u"source"_s) {
                    if (value.kind != StaticValue::Kind::String) {
                        m_b.error(valuePos, u"Invalid source"_s, u"Source must be specified as a string."_s);
                        ok = false;
                        continue;
                    }
                    rp.source = value.text;
                    rp.position = valuePos;
                } else if (item.key == u"configuration_aliases"_s) {
                    if (value.kind != StaticValue::Kind::Tuple) {
                        m_b.error(valuePos, u"Invalid expression"_s, u"A static list expression is required."_s);
                        ok = false;
                        continue;
                    }
                    for (const StaticValue::Item &e : value.items) {
                        const StaticValue ref = m_eval.value(e.begin, e.end);
                        if (ref.kind != StaticValue::Kind::Traversal || ref.text.isEmpty() || ref.text.count(u'.') > 1) {
                            m_b.error(valuePos, u"Invalid configuration_aliases value"_s,
                                      u"Configuration aliases can only contain references to local provider configuration names in the format of provider.alias"_s);
                            ok = false;
                            continue;
                        }
                        const QString local = ref.text.section(u'.', 0, 0);
                        if (local != a.name) {
                            m_b.error(valuePos, u"Invalid configuration_aliases value"_s,
                                      u"Configuration aliases must be prefixed with the provider name. Expected %1, but found %2."_s.arg(
                                          hcl::goQuote(a.name), hcl::goQuote(local)));
                            ok = false;
                            continue;
                        }
                        rp.configurationAliases << ref.text;
                    }
                } else {
                    m_b.error(keyPos, u"Invalid required_providers object"_s,
                              u"required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block."_s);
                    ok = false;
                    break;
                }
            }
            if (ok)
                out.entries.append(rp);
        }
        m_b.content.requiredProviders.append(out);
    }

    void providerBlock(const NBlock &b)
    {
        ConfigFileContent::ProviderBlock p;
        p.localName = b.labels.constFirst();
        p.position = header(b);
        if (!m_b.checkLocalName(p.localName, p.position))
            return;
        if (const NAttr *version = b.body.attr(u"version")) {
            p.position = range(*version);
            p.versionPosition = range(version->nameTok, version->end);
            m_b.warning(p.position, u"Version constraints inside provider configuration blocks are deprecated"_s,
                        u"Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block."_s);
            const StaticValue v = m_eval.value(version->begin, version->end);
            if (v.kind == StaticValue::Kind::Null) {
                // treated like no constraint
            } else if (!v.isPrimitive()) {
                m_b.error(p.position, u"Invalid version constraint"_s, u"A string value is required for version."_s);
            } else if (m_b.checkConstraint(v.text, p.position)) {
                p.version = v.text;
            }
        }
        m_b.content.providers.append(p);
    }

    void resource(const NBlock &b)
    {
        ConfigFileContent::Resource r;
        r.mode = b.type;
        r.type = b.labels.at(0);
        r.name = b.labels.at(1);
        r.position = header(b);
        if (const NAttr *provider = b.body.attr(u"provider"))
            r.providerLocalName = localNameOf(*provider);
        m_b.content.resources.append(r);
    }

    void importBlock(const NBlock &b)
    {
        ConfigFileContent::ImportBlock i;
        i.position = header(b);
        if (const NAttr *to = b.body.attr(u"to")) {
            const StaticValue v = m_eval.value(to->begin, to->end);
            if (v.kind == StaticValue::Kind::Traversal) {
                // `type.name` (maybe with an index); a `module.` target is elsewhere.
                QString t = m_reader.text(to->begin);
                if (t != u"module"_s && to->begin + 2 < to->end && m_reader.tok(to->begin + 1).type == Tok::Dot)
                    i.toResource = t + u'.' + m_reader.text(to->begin + 2);
            }
        }
        if (const NAttr *provider = b.body.attr(u"provider"))
            i.providerLocalName = localNameOf(*provider);
        m_b.content.imports.append(i);
    }

    void moduleCall(const NBlock &b)
    {
        ConfigFileContent::ModuleCall m;
        m.name = b.labels.constFirst();
        m.position = b.openTok >= 0 ? range(b.openTok, b.openTok + 1) : header(b); // MissingItemRange
        if (const NAttr *source = b.body.attr(u"source")) {
            m.position = range(*source);
            const StaticValue v = m_eval.value(source->begin, source->end);
            if (v.kind == StaticValue::Kind::String)
                m.source = v.text;
            else if (v.kind == StaticValue::Kind::Traversal)
                m_b.error(m.position, u"Variables not allowed"_s, u"Variables may not be used here."_s);
            else if (v.kind == StaticValue::Kind::FunctionCall)
                m_b.error(m.position, u"Function calls not allowed"_s, u"Functions may not be called here."_s);
            else
                m_b.error(m.position, u"Invalid module source address"_s, u"The module source address must be a literal string."_s);
        }
        m_b.content.moduleCalls.append(m);
    }
};

// ---- JSON syntax ----------------------------------------------------------------------------

/// Offsets of the values of a JSON text by path (keys and array indices), for diagnostics:
/// Qt's JSON does not keep positions. The text is already known to be valid JSON.
class JsonPositions
{
public:
    explicit JsonPositions(const QByteArray &data) : m_data(data), m_map(data) {}

    Position at(const QStringList &path) const
    {
        qsizetype i = skipWs(0);
        for (const QString &step : path) {
            const qsizetype next = child(i, step);
            if (next < 0)
                break;
            i = next;
        }
        const hcl::Pos p = m_map.pos(i);
        return {p.line, p.column, p.line, p.column};
    }

private:
    const QByteArray &m_data;
    hcl::SourceMap m_map;

    qsizetype skipWs(qsizetype i) const
    {
        while (i < m_data.size() && (m_data[i] == ' ' || m_data[i] == '\t' || m_data[i] == '\n' || m_data[i] == '\r'))
            ++i;
        return i;
    }
    qsizetype skipString(qsizetype i) const // at the opening quote; returns after the closing one
    {
        for (++i; i < m_data.size(); ++i) {
            if (m_data[i] == '\\')
                ++i;
            else if (m_data[i] == '"')
                return i + 1;
        }
        return i;
    }
    qsizetype skipValue(qsizetype i) const
    {
        i = skipWs(i);
        if (i >= m_data.size())
            return i;
        if (m_data[i] == '"')
            return skipString(i);
        if (m_data[i] == '{' || m_data[i] == '[') {
            int depth = 0;
            for (; i < m_data.size(); ++i) {
                const char c = m_data[i];
                if (c == '"') {
                    i = skipString(i) - 1;
                } else if (c == '{' || c == '[') {
                    ++depth;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0)
                        return i + 1;
                }
            }
            return i;
        }
        while (i < m_data.size() && !QByteArrayView(",}] \t\r\n").contains(m_data[i]))
            ++i;
        return i;
    }
    /// From the start of an object/array value, the start of the member value `step`.
    qsizetype child(qsizetype i, const QString &step) const
    {
        if (i >= m_data.size())
            return -1;
        if (m_data[i] == '[') {
            bool ok = false;
            const int want = step.toInt(&ok);
            if (!ok)
                return -1;
            qsizetype k = skipWs(i + 1);
            for (int n = 0; k < m_data.size() && m_data[k] != ']'; ++n) {
                if (n == want)
                    return k;
                k = skipWs(skipValue(k));
                if (k < m_data.size() && m_data[k] == ',')
                    k = skipWs(k + 1);
            }
            return -1;
        }
        if (m_data[i] != '{')
            return -1;
        qsizetype k = skipWs(i + 1);
        qsizetype found = -1;
        while (k < m_data.size() && m_data[k] == '"') {
            const qsizetype keyEnd = skipString(k);
            const QString key = QJsonDocument::fromJson("[" + m_data.mid(k, keyEnd - k) + "]").array().at(0).toString();
            qsizetype v = skipWs(keyEnd);
            if (v < m_data.size() && m_data[v] == ':')
                v = skipWs(v + 1);
            if (key == step)
                found = v; // the last duplicate wins, as in Qt's JSON
            k = skipWs(skipValue(v));
            if (k < m_data.size() && m_data[k] == ',')
                k = skipWs(k + 1);
        }
        return found;
    }
};

class JsonContent
{
public:
    JsonContent(const QByteArray &data, const QString &fileName) : m_data(data), m_pos(data) { m_b.file = fileName; }

    ConfigFileContent run()
    {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(m_data, &pe);
        if (pe.error != QJsonParseError::NoError) {
            // Qt's offset is just after the offending character; terraform points at it.
            const hcl::Pos p = hcl::SourceMap(m_data).pos(std::max(0, pe.offset - 1));
            m_b.error({p.line, p.column, p.line, p.column}, u"Invalid JSON"_s, pe.errorString());
            return std::move(m_b.content);
        }
        if (!doc.isObject()) {
            m_b.error(m_pos.at({}), u"Invalid JSON configuration"_s, u"The root of a JSON configuration file must be an object."_s);
            return std::move(m_b.content);
        }
        const QJsonObject root = doc.object();
        for (auto it = root.begin(); it != root.end(); ++it) {
            const QString type = it.key();
            const QStringList path{type};
            if (type == u"terraform"_s) {
                forEachBody(it.value(), path, [&](const QJsonObject &body, const QStringList &p) {
                    if (body.contains(u"required_providers"_s))
                        forEachBody(body.value(u"required_providers"_s), p + QStringList{u"required_providers"_s},
                                    [&](const QJsonObject &rp, const QStringList &rpPath) { requiredProviders(rp, rpPath); });
                });
            } else if (type == u"provider"_s) {
                forEachLabel(it.value(), path, [&](const QString &name, const QJsonObject &body, const QStringList &p) { provider(name, body, p); });
            } else if (type == u"resource"_s || type == u"data"_s || type == u"ephemeral"_s) {
                forEachLabel(it.value(), path, [&](const QString &rtype, const QJsonObject &byName, const QStringList &p) {
                    forEachLabel(byName, p, [&](const QString &name, const QJsonObject &body, const QStringList &p2) {
                        resource(type, rtype, name, body, p2);
                    }, false);
                }, false);
            } else if (type == u"check"_s) {
                forEachLabel(it.value(), path, [&](const QString &, const QJsonObject &body, const QStringList &p) {
                    if (!body.contains(u"data"_s))
                        return;
                    forEachLabel(body.value(u"data"_s), p + QStringList{u"data"_s}, [&](const QString &rtype, const QJsonObject &byName, const QStringList &p2) {
                        forEachLabel(byName, p2, [&](const QString &name, const QJsonObject &b, const QStringList &p3) {
                            resource(u"data"_s, rtype, name, b, p3);
                        });
                    }, false);
                });
            } else if (type == u"import"_s) {
                forEachBody(it.value(), path, [&](const QJsonObject &body, const QStringList &p) { importBlock(body, p); });
            } else if (type == u"module"_s) {
                forEachLabel(it.value(), path, [&](const QString &name, const QJsonObject &body, const QStringList &p) { moduleCall(name, body, p); });
            }
        }
        return std::move(m_b.content);
    }

private:
    const QByteArray &m_data;
    JsonPositions m_pos;
    ContentBuilder m_b;

    /// A block body: an object, or an array of objects (several blocks).
    void forEachBody(const QJsonValue &v, const QStringList &path, const std::function<void(const QJsonObject &, const QStringList &)> &f)
    {
        if (v.isObject()) {
            f(v.toObject(), path);
        } else if (v.isArray()) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size(); ++i) {
                const QStringList p = path + QStringList{QString::number(i)};
                if (a.at(i).isObject())
                    f(a.at(i).toObject(), p);
                else
                    m_b.error(m_pos.at(p), u"Incorrect JSON value type"_s, u"A JSON object is required here, setting the arguments for this block."_s);
            }
        } else {
            m_b.error(m_pos.at(path), u"Incorrect JSON value type"_s, u"Either a JSON object or a JSON array is required, representing the contents of one or more blocks."_s);
        }
    }

    /// An object whose property names are block labels ("//" is a comment).
    void forEachLabel(const QJsonValue &v, const QStringList &path,
                      const std::function<void(const QString &, const QJsonObject &, const QStringList &)> &f, bool bodies = true)
    {
        const auto each = [&](const QJsonObject &o, const QStringList &p) {
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (it.key() == u"//"_s)
                    continue;
                const QStringList lp = p + QStringList{it.key()};
                if (bodies)
                    forEachBody(it.value(), lp, [&](const QJsonObject &body, const QStringList &bp) { f(it.key(), body, bp); });
                else if (it.value().isObject())
                    f(it.key(), it.value().toObject(), lp);
                else
                    m_b.error(m_pos.at(lp), u"Incorrect JSON value type"_s, u"A JSON object is required here, to define the blocks of this type."_s);
            }
        };
        if (v.isObject())
            each(v.toObject(), path);
        else if (v.isArray()) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size(); ++i)
                if (a.at(i).isObject())
                    each(a.at(i).toObject(), path + QStringList{QString::number(i)});
        } else {
            m_b.error(m_pos.at(path), u"Incorrect JSON value type"_s, u"A JSON object is required here, to define the blocks of this type."_s);
        }
    }

    /// A JSON string is a template: only one without interpolation or directives is static.
    static std::optional<QString> literal(const QJsonValue &v)
    {
        if (!v.isString())
            return std::nullopt;
        QString s = v.toString();
        const QString probe = QString(s).replace(u"$${"_s, QString()).replace(u"%%{"_s, QString());
        if (probe.contains(u"${"_s) || probe.contains(u"%{"_s))
            return std::nullopt;
        return s.replace(u"$${"_s, u"${"_s).replace(u"%%{"_s, u"%{"_s);
    }

    void requiredProviders(const QJsonObject &o, const QStringList &path)
    {
        ConfigFileContent::RequiredProvidersBlock out;
        out.position = m_pos.at(path);
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == u"//"_s)
                continue;
            const QStringList p = path + QStringList{it.key()};
            ConfigFileContent::RequiredProvider rp;
            rp.localName = it.key();
            rp.position = m_pos.at(p);
            rp.versionPosition = rp.position;
            const QJsonValue v = it.value();
            if (v.isString() || v.isDouble() || v.isBool()) {
                const QString text = v.isString() ? literal(v).value_or(QString()) : v.isBool() ? (v.toBool() ? u"true"_s : u"false"_s)
                                                                                                 : QString::number(v.toDouble());
                if (m_b.checkConstraint(text, rp.position))
                    rp.version = text;
                out.entries.append(rp);
                continue;
            }
            if (!m_b.checkLocalName(rp.localName, rp.position))
                continue;
            if (!v.isObject()) {
                m_b.error(rp.position, u"Invalid required_providers object"_s, u"required_providers entries must be strings or objects."_s);
                continue;
            }
            bool ok = true;
            const QJsonObject e = v.toObject();
            for (auto k = e.begin(); k != e.end(); ++k) {
                const QStringList kp = p + QStringList{k.key()};
                const Position valuePos = m_pos.at(kp);
                if (k.key() == u"version"_s) {
                    const std::optional<QString> s = literal(k.value());
                    if (!s) {
                        m_b.error(valuePos, u"Invalid version constraint"_s, u"Version must be specified as a string."_s);
                        ok = false;
                    } else if (!m_b.checkConstraint(*s, valuePos)) {
                        ok = false;
                    } else {
                        rp.version = *s;
                    }
                } else if (k.key() == u"source"_s) {
                    const std::optional<QString> s = literal(k.value());
                    if (!s) {
                        m_b.error(valuePos, u"Invalid source"_s, u"Source must be specified as a string."_s);
                        ok = false;
                    } else {
                        rp.source = *s;
                        rp.position = valuePos;
                    }
                } else if (k.key() == u"configuration_aliases"_s) {
                    if (!k.value().isArray()) {
                        m_b.error(valuePos, u"Invalid expression"_s, u"A static list expression is required."_s);
                        ok = false;
                        continue;
                    }
                    for (const QJsonValue &a : k.value().toArray()) {
                        const QString ref = a.toString();
                        static const QRegularExpression traversal(uR"(^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)?$)"_s);
                        if (!a.isString() || !traversal.match(ref).hasMatch()) {
                            m_b.error(valuePos, u"Invalid configuration_aliases value"_s,
                                      u"Configuration aliases can only contain references to local provider configuration names in the format of provider.alias"_s);
                            ok = false;
                        } else if (ref.section(u'.', 0, 0) != rp.localName) {
                            m_b.error(valuePos, u"Invalid configuration_aliases value"_s,
                                      u"Configuration aliases must be prefixed with the provider name. Expected %1, but found %2."_s.arg(
                                          hcl::goQuote(rp.localName), hcl::goQuote(ref.section(u'.', 0, 0))));
                            ok = false;
                        } else {
                            rp.configurationAliases << ref;
                        }
                    }
                } else if (k.key() != u"//"_s) {
                    m_b.error(valuePos, u"Invalid required_providers object"_s,
                              u"required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block."_s);
                    ok = false;
                    break;
                }
            }
            if (ok)
                out.entries.append(rp);
        }
        m_b.content.requiredProviders.append(out);
    }

    void provider(const QString &name, const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::ProviderBlock p;
        p.localName = name;
        p.position = m_pos.at(path);
        if (!m_b.checkLocalName(name, p.position))
            return;
        if (body.contains(u"version"_s)) {
            p.position = m_pos.at(path + QStringList{u"version"_s});
            p.versionPosition = p.position;
            m_b.warning(p.position, u"Version constraints inside provider configuration blocks are deprecated"_s,
                        u"Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block."_s);
            const QJsonValue v = body.value(u"version"_s);
            if (v.isNull()) {
            } else if (const std::optional<QString> s = literal(v)) {
                if (m_b.checkConstraint(*s, p.position))
                    p.version = *s;
            } else {
                m_b.error(p.position, u"Invalid version constraint"_s, u"A string value is required for version."_s);
            }
        }
        m_b.content.providers.append(p);
    }

    static QString localNameOfRef(const QJsonValue &v)
    {
        static const QRegularExpression ref(uR"(^([A-Za-z_][A-Za-z0-9_-]*)(\.[A-Za-z_][A-Za-z0-9_-]*)?$)"_s);
        const QRegularExpressionMatch m = ref.match(v.toString().trimmed());
        return m.hasMatch() ? m.captured(1) : QString();
    }

    void resource(const QString &mode, const QString &type, const QString &name, const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::Resource r;
        r.mode = mode;
        r.type = type;
        r.name = name;
        r.position = m_pos.at(path);
        if (body.contains(u"provider"_s))
            r.providerLocalName = localNameOfRef(body.value(u"provider"_s));
        m_b.content.resources.append(r);
    }

    void importBlock(const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::ImportBlock i;
        i.position = m_pos.at(path);
        const QStringList to = body.value(u"to"_s).toString().split(u'.');
        if (to.size() >= 2 && to.at(0) != u"module"_s)
            i.toResource = to.at(0) + u'.' + to.at(1).section(u'[', 0, 0);
        if (body.contains(u"provider"_s))
            i.providerLocalName = localNameOfRef(body.value(u"provider"_s));
        m_b.content.imports.append(i);
    }

    void moduleCall(const QString &name, const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::ModuleCall m;
        m.name = name;
        m.position = m_pos.at(path);
        if (body.contains(u"source"_s)) {
            m.position = m_pos.at(path + QStringList{u"source"_s});
            if (const std::optional<QString> s = literal(body.value(u"source"_s)))
                m.source = *s;
            else
                m_b.error(m.position, u"Invalid module source address"_s, u"The module source address must be a literal string."_s);
        }
        m_b.content.moduleCalls.append(m);
    }
};

} // namespace

ConfigFileContent parseConfigFile(const QByteArray &bytes, const QString &fileName)
{
    if (fileName.endsWith(u".json"_s))
        return JsonContent(bytes, fileName).run();
    return NativeContent(bytes, fileName).run();
}

// ---- Directories and modules ------------------------------------------------------------------

namespace {

/// configs.IsIgnoredFile.
bool isIgnoredFile(const QString &name)
{
    return name.startsWith(u'.') || name.endsWith(u'~') || (name.startsWith(u'#') && name.endsWith(u'#'));
}

QString configExtension(const QString &name, LockFlavour flavour)
{
    for (const char *ext : {".tf.json", ".tf"})
        if (name.endsWith(QLatin1StringView(ext)))
            return QLatin1StringView(ext);
    if (flavour == LockFlavour::Tofu)
        for (const char *ext : {".tofu.json", ".tofu"})
            if (name.endsWith(QLatin1StringView(ext)))
                return QLatin1StringView(ext);
    return {};
}

} // namespace

ConfigDirFiles configDirFiles(const QString &dir, LockFlavour flavour)
{
    ConfigDirFiles out;
    const QDir d(dir);
    QStringList names = d.entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
    std::sort(names.begin(), names.end(), [](const QString &a, const QString &b) { return a.toUtf8() < b.toUtf8(); });
    QSet<QString> present(names.begin(), names.end());
    for (const QString &name : names) {
        const QString ext = configExtension(name, flavour);
        if (ext.isEmpty() || isIgnoredFile(name))
            continue;
        if (QFileInfo(d.filePath(name)).isDir())
            continue;
        const QString base = name.left(name.size() - ext.size());
        // tofu: a .tf(.json) file with a .tofu(.json) twin is ignored.
        if (flavour == LockFlavour::Tofu && ext.startsWith(u".tf"_s)) {
            QString twinExt = ext;
            twinExt.replace(u".tf"_s, u".tofu"_s);
            if (present.contains(base + twinExt))
                continue;
        }
        const bool isOverride = base == u"override"_s || base.endsWith(u"_override"_s);
        (isOverride ? out.overrides : out.primary).append(QDir::cleanPath(dir + u'/' + name));
    }
    return out;
}

namespace {

struct LoadedFile
{
    QString path;
    ConfigFileContent content;
};

class RequirementsCollector
{
public:
    RequirementsCollector(const QString &root, const ConfigReadOptions &options)
        : m_root(root), m_options(options),
          m_host(options.flavour == LockFlavour::Tofu ? QString(kOpenTofuRegistryHost) : QString(kTerraformRegistryHost))
    {
    }

    ConfigRequirements run()
    {
        const QFileInfo info(m_root);
        if (!info.isDir()) {
            m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, u"Failed to read module directory"_s,
                                                      u"Module directory %1 does not exist or cannot be read."_s.arg(m_root), QString(), 0, 0});
            return std::move(m_out);
        }
        const ConfigDirFiles files = configDirFiles(m_root, m_options.flavour);
        if (files.primary.isEmpty() && files.overrides.isEmpty()) {
            m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, u"No configuration files"_s,
                                                      u"The directory %1 contains no %2 files."_s.arg(
                                                          m_root, m_options.flavour == LockFlavour::Tofu ? u".tf, .tf.json, .tofu or .tofu.json"_s
                                                                                                         : u".tf or .tf.json"_s),
                                                      QString(), 0, 0});
            return std::move(m_out);
        }
        readModule(m_root, QString(), 0);
        for (auto it = m_reqs.begin(); it != m_reqs.end(); ++it) {
            ConfigProviderRequirement r;
            r.address = it->second.address;
            r.constraintTexts = it->second.texts;
            if (!r.constraintTexts.isEmpty()) {
                const Result<VersionConstraints> c = VersionConstraints::parse(r.constraintTexts.join(u", "_s));
                if (c.ok())
                    r.constraints = c.value();
            }
            m_out.providers.append(r);
        }
        std::sort(m_out.providers.begin(), m_out.providers.end(),
                  [](const ConfigProviderRequirement &a, const ConfigProviderRequirement &b) { return a.address < b.address; });
        return std::move(m_out);
    }

private:
    struct Req
    {
        ProviderAddress address;
        QStringList texts;
    };
    struct Resolved
    {
        ProviderAddress address;
        QString file;
        Position position;
        std::optional<QString> version;
        bool builtIn = false; ///< `terraform`: the built-in provider, nothing to lock
    };

    QString m_root;
    ConfigReadOptions m_options;
    QString m_host;
    ConfigRequirements m_out;
    std::map<QString, Req> m_reqs; ///< by address text (the final list is re-sorted)
    std::optional<QJsonObject> m_manifest;

    void error(const QString &file, const Position &p, const QString &summary, const QString &detail)
    {
        m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, summary, detail, file, p.line, p.column});
    }

    /// The address a local name implies when required_providers does not name it
    /// (addrs.ImpliedProviderForUnqualifiedType): `terraform` is the built-in provider.
    std::optional<ProviderAddress> implied(const QString &localName) const
    {
        const Result<QString> part = ProviderAddress::normalizePart(localName);
        if (!part.ok())
            return std::nullopt;
        if (part.value() == u"terraform"_s)
            return std::nullopt; // terraform.io/builtin/terraform: not lockable
        const Result<ProviderAddress> a = ProviderAddress::parse(QString(u"hashicorp/"_s + part.value()), m_host);
        return a.ok() ? std::optional<ProviderAddress>(a.value()) : std::nullopt;
    }

    /// Records a requirement (with or without a constraint text).
    void require(const ProviderAddress &a, const std::optional<QString> &version, const QString &file, const Position &p)
    {
        if (a.isBuiltIn())
            return;
        Req &r = m_reqs[a.toString()];
        r.address = a;
        if (!version)
            return;
        const Result<VersionConstraints> c = VersionConstraints::parse(*version);
        if (!c.ok()) {
            error(file, p, u"Invalid version constraint"_s, u"Incorrect version constraint syntax: %1."_s.arg(c.error().message));
            return;
        }
        if (!c->isEmpty())
            r.texts << *version;
    }

    QString moduleKey(const QString &parentKey, const QString &name) const { return parentKey.isEmpty() ? name : parentKey + u'.' + name; }

    std::optional<QString> installedModuleDir(const QString &key)
    {
        if (!m_manifest) {
            QFile f(QDir(m_root).filePath(u".terraform/modules/modules.json"_s));
            m_manifest = f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
        }
        for (const QJsonValue &m : m_manifest->value(u"Modules"_s).toArray()) {
            const QJsonObject o = m.toObject();
            if (o.value(u"Key"_s).toString() == key) {
                const QString dir = o.value(u"Dir"_s).toString();
                return QDir::isAbsolutePath(dir) ? dir : QDir(m_root).filePath(dir);
            }
        }
        return std::nullopt;
    }

    static bool isLocalSource(const QString &s)
    {
        return s.startsWith(u"./"_s) || s.startsWith(u"../"_s) || s.startsWith(u".\\"_s) || s.startsWith(u"..\\"_s);
    }

    static constexpr int kMaxModuleReads = 10000;
    int m_moduleReads = 0;
    bool m_moduleBudgetReported = false;

    void readModule(const QString &dir, const QString &key, int depth)
    {
        m_out.moduleDirectories << dir;
        const ConfigDirFiles files = configDirFiles(dir, m_options.flavour);
        QList<LoadedFile> primary, overrides;
        const auto load = [&](const QStringList &paths, QList<LoadedFile> &into) {
            for (const QString &path : paths) {
                QFile f(path);
                if (!f.open(QIODevice::ReadOnly)) {
                    m_out.diagnostics.append(ConfigDiagnostic{ConfigDiagnostic::Severity::Error, u"Failed to read file"_s,
                                                              u"The file %1 could not be read."_s.arg(hcl::goQuote(path)), path, 0, 0});
                    continue;
                }
                m_out.files << path;
                LoadedFile lf{path, parseConfigFile(f.readAll(), path)};
                m_out.diagnostics += lf.content.diagnostics;
                into.append(std::move(lf));
            }
        };
        load(files.primary, primary);
        load(files.overrides, overrides);

        // required_providers: one block per module (primary files); override files replace
        // entries by local name.
        QHash<QString, Resolved> local;
        QStringList order;
        QString firstFile;
        Position firstPos;
        bool have = false;
        const auto take = [&](const LoadedFile &f, const ConfigFileContent::RequiredProvider &rp) {
            Resolved r;
            r.file = f.path;
            r.position = rp.versionPosition;
            r.version = rp.version;
            if (rp.source) {
                const Result<ProviderAddress> a = ProviderAddress::parse(*rp.source, m_host);
                if (!a.ok()) {
                    // registry-address's "<summary>: <detail>".
                    const QString m = a.error().message;
                    const qsizetype colon = m.indexOf(u": "_s);
                    if (colon > 0)
                        error(f.path, rp.position, m.left(colon), m.mid(colon + 2));
                    else
                        error(f.path, rp.position, u"Invalid provider source string"_s, m);
                    return;
                }
                r.address = a.value();
            } else {
                const Result<QString> part = ProviderAddress::normalizePart(rp.localName);
                if (!part.ok()) {
                    error(f.path, rp.position, u"Invalid provider name"_s, part.error().message);
                    return;
                }
                const std::optional<ProviderAddress> a = implied(rp.localName);
                if (!a) {
                    // `terraform = ...`: the built-in provider, nothing to lock.
                    Resolved builtIn = r;
                    builtIn.builtIn = true;
                    if (!order.contains(rp.localName))
                        order << rp.localName;
                    local.insert(rp.localName, builtIn);
                    return;
                }
                r.address = *a;
            }
            if (!order.contains(rp.localName))
                order << rp.localName;
            local.insert(rp.localName, r);
        };
        for (const LoadedFile &f : primary) {
            for (const ConfigFileContent::RequiredProvidersBlock &b : f.content.requiredProviders) {
                if (have) {
                    error(f.path, b.position, u"Duplicate required providers configuration"_s,
                          u"A module may have only one required providers configuration. The required providers were previously configured at %1:%2,%3-%4."_s
                              .arg(firstFile)
                              .arg(firstPos.line)
                              .arg(firstPos.column)
                              .arg(firstPos.endColumn));
                    continue;
                }
                have = true;
                firstFile = f.path;
                firstPos = b.position;
                for (const ConfigFileContent::RequiredProvider &rp : b.entries)
                    take(f, rp);
            }
        }
        for (const LoadedFile &f : overrides)
            for (const ConfigFileContent::RequiredProvidersBlock &b : f.content.requiredProviders)
                for (const ConfigFileContent::RequiredProvider &rp : b.entries)
                    take(f, rp);

        const auto forLocalName = [&](const QString &name) -> std::optional<ProviderAddress> {
            if (local.contains(name)) {
                const Resolved &r = local[name];
                return r.builtIn ? std::nullopt : std::optional<ProviderAddress>(r.address);
            }
            return implied(name);
        };

        // 1. The module's own required_providers.
        for (const QString &name : std::as_const(order)) {
            const Resolved &r = local[name];
            if (!r.builtIn)
                require(r.address, r.version, r.file, r.position);
        }
        // 2. Providers that resources, data sources and ephemeral resources imply.
        QSet<QString> managed;
        for (const LoadedFile &f : primary)
            for (const ConfigFileContent::Resource &r : f.content.resources) {
                if (r.mode == u"resource"_s)
                    managed.insert(r.type + u'.' + r.name);
                const QString name = r.providerLocalName.isEmpty() ? r.type.section(u'_', 0, 0) : r.providerLocalName;
                if (const std::optional<ProviderAddress> a = forLocalName(name))
                    require(*a, std::nullopt, f.path, r.position);
            }
        // 3. Import blocks that generate configuration.
        for (const LoadedFile &f : primary)
            for (const ConfigFileContent::ImportBlock &i : f.content.imports) {
                if (i.toResource.isEmpty() || managed.contains(i.toResource))
                    continue;
                const QString name = i.providerLocalName.isEmpty() ? i.toResource.section(u'_', 0, 0).section(u'.', 0, 0) : i.providerLocalName;
                if (const std::optional<ProviderAddress> a = forLocalName(name))
                    require(*a, std::nullopt, f.path, i.position);
            }
        // 4. Provider blocks, with their legacy version constraints.
        for (const QList<LoadedFile> *list : {&primary, &overrides})
            for (const LoadedFile &f : *list)
                for (const ConfigFileContent::ProviderBlock &p : f.content.providers)
                    if (const std::optional<ProviderAddress> a = forLocalName(p.localName))
                        require(*a, p.version, f.path, p.versionPosition);

        // 5. Child modules (override files may change a call's source).
        QList<std::pair<ConfigFileContent::ModuleCall, QString>> calls;
        for (const LoadedFile &f : primary)
            for (const ConfigFileContent::ModuleCall &m : f.content.moduleCalls) {
                bool duplicate = false;
                for (const auto &c : std::as_const(calls))
                    duplicate = duplicate || c.first.name == m.name;
                if (duplicate)
                    continue; // terraform reports "Duplicate module call"; the first one counts here
                calls.append({m, f.path});
            }
        for (const LoadedFile &f : overrides)
            for (const ConfigFileContent::ModuleCall &m : f.content.moduleCalls)
                for (auto &c : calls)
                    if (c.first.name == m.name && m.source) {
                        c.first.source = m.source;
                        c.first.position = m.position;
                        c.second = f.path;
                    }
        for (const auto &[call, file] : std::as_const(calls)) {
            if (!call.source) {
                error(file, call.position, u"Missing required argument"_s,
                          u"The argument \"source\" is required, but no definition was found."_s);
                continue;
            }
            const QString childKey = moduleKey(key, call.name);
            QString childDir;
            if (isLocalSource(*call.source)) {
                QString rel = *call.source;
                rel.replace(u'\\', u'/');
                childDir = QDir::cleanPath(dir + u'/' + rel);
            } else if (const std::optional<QString> installed = installedModuleDir(childKey)) {
                childDir = *installed;
            } else {
                error(file, call.position, u"Module not installed"_s,
                      u"This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration."_s);
                continue;
            }
            if (depth >= 64) {
                error(file, call.position, u"Module nesting too deep"_s,
                      u"Module %1 calls modules more than 64 levels deep; is a module calling itself?"_s.arg(hcl::goQuote(childKey)));
                continue;
            }
            // Depth alone does not bound the work: two calls of "./" in one module are 2^64 reads.
            if (++m_moduleReads > kMaxModuleReads) {
                if (!m_moduleBudgetReported)
                    error(file, call.position, u"Too many module calls"_s,
                          u"Reading module %1 would read more than %2 modules in all; is a module calling itself?"_s.arg(
                              hcl::goQuote(childKey)).arg(kMaxModuleReads));
                m_moduleBudgetReported = true;
                continue;
            }
            if (!QFileInfo(childDir).isDir()) {
                error(file, call.position, u"Unreadable module directory"_s,
                      u"The directory %1 does not exist or cannot be read."_s.arg(childDir));
                continue;
            }
            readModule(childDir, childKey, depth + 1);
        }
    }
};

} // namespace

ConfigRequirements readConfigRequirements(const QString &dir, const ConfigReadOptions &options)
{
    qCDebug(lcLock) << "reading the provider requirements of" << dir;
    return RequirementsCollector(dir, options).run();
}

} // namespace provender
