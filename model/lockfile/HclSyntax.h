#pragma once
// The subset of HCL native syntax that dependency lock files use, written by hand
// (tofu-formats.md §1.2, §11). Internal to model/lockfile: LockFile.h is the public API.
// Implemented in HclLexer.cpp, HclParser.cpp + HclExpressions.cpp and HclEvaluate.cpp
// (what they share: HclSyntaxInternal.h).
//
// The lexer and parser follow the observable behaviour of hashicorp/hcl's hclsyntax package:
// the same token classes, the same recovery rules (a sticky "recovery" flag that silences
// follow-up syntax errors), and the same diagnostic wording, so a broken lock file gets the
// message tofu/terraform would print, at the same line and column. Expressions are parsed
// fully enough to report syntax errors, and evaluated statically (no variables, no
// functions), like gohcl.DecodeExpression with a nil evaluation context.
//
// Positions: lines and columns count from 1; columns count characters (code points, with
// combining marks folded into the previous character, approximating HCL's grapheme
// clusters); byte offsets count from the start of the input including a UTF-8 BOM.

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace provender::hcl {

struct Pos
{
    int line = 1;
    int column = 1;
    qsizetype byte = 0;
    bool operator==(const Pos &) const = default;
};

struct Range
{
    Pos start;
    Pos end;
    bool operator==(const Range &) const = default;
    /// hcl.Range.String(): `file:1,3-10` on one line, `file:1,3-2,5` across lines.
    QString toString(const QString &fileName) const;
};

/// Byte span [begin, end) into the source; converted to a Range by SourceMap.
struct Span
{
    qsizetype begin = 0;
    qsizetype end = 0;
};

/// Line table of a source buffer: turns byte offsets into line/column positions.
class SourceMap
{
public:
    explicit SourceMap(const QByteArray &data);
    Pos pos(qsizetype byte) const;
    Range range(Span s) const { return {pos(s.begin), pos(s.end)}; }
    const QByteArray &data() const { return m_data; }

private:
    struct Cursor
    {
        qsizetype byte;
        int column;
    };
    static constexpr qsizetype kCursorStep = 4096;
    QByteArray m_data;
    std::vector<qsizetype> m_lineStarts;                                    // byte offset where each line starts
    mutable std::unordered_map<qsizetype, std::vector<Cursor>> m_longLines; ///< line -> cursors (lines > kCursorStep)
    struct Last
    {
        qsizetype line = -1;
        qsizetype byte = 0;
        int column = 1;
    };
    mutable Last m_last; ///< the previous position asked for on a long line
};

struct Diagnostic
{
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    QString summary;
    QString detail; ///< may contain `{related}`: replaced by `related` as `file:line,col-col`
    Span subject;
    Span related;
    bool hasRelated = false;

    static Diagnostic error(QString summary, QString detail, Span subject)
    {
        Diagnostic d;
        d.summary = std::move(summary);
        d.detail = std::move(detail);
        d.subject = subject;
        return d;
    }
};

enum class Tok : quint8 {
    Newline,
    Comment,
    Ident,
    Number,
    OQuote,
    CQuote,
    QuotedLit,
    QuotedNewline,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    OHeredoc,
    CHeredoc,
    StringLit,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    Comma,
    Equal,
    Dot,
    Colon,
    Question,
    Ellipsis,
    FatArrow,
    DoubleColon,
    Operator, ///< + - * / % < > ! == != <= >= && || and the unsupported & | ^ ~
    Semicolon,
    Backtick,
    Apostrophe,
    Invalid,
    BadUtf8,
    Eof,
};

/// 12 bytes: inputs are limited to kMaxInputSize, so offsets fit in 32 bits.
struct Token
{
    Tok type = Tok::Eof;
    qint32 begin = 0;
    qint32 end = 0;
};

/// The token that closes `opener`: `}` `]` `)`, the closing quote or heredoc anchor, and the end
/// of a template sequence for both `${` and `%{`; Eof for a token that opens nothing.
inline Tok closerFor(Tok opener)
{
    switch (opener) {
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

/// Larger inputs are refused before scanning (a lock file is a few KiB to a few MiB).
inline constexpr qsizetype kMaxInputSize = 512 * 1024 * 1024;

/// Scans `data` (BOM skipped) into tokens, always ending with one Eof token (only that one for
/// an input larger than kMaxInputSize).
std::vector<Token> scan(const QByteArray &data);

/// The diagnostics hclsyntax reports for tokens that are never valid (invalid characters,
/// bad UTF-8, newlines inside quoted strings, `;`, backticks, single quotes...).
QList<Diagnostic> checkInvalidTokens(const QByteArray &data, const std::vector<Token> &tokens);

/// The character a one-letter escape of a quoted string stands for (`\n`, `\r`, `\t`, `\"`,
/// `\\`), or 0 for any other selector (ParseStringLiteralToken).
inline char simpleEscape(char32_t selector)
{
    switch (selector) {
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '"': return '"';
    case '\\': return '\\';
    default: return 0;
    }
}

// ---- Values ------------------------------------------------------------------------------

struct Value
{
    enum class Kind { Unknown, Null, String, Number, Bool, Tuple, Object };
    Kind kind = Kind::Unknown;
    QString text;             ///< String: the string; Number: canonical decimal text; Bool: true/false
    std::vector<Value> items; ///< Tuple elements / Object values

    static Value unknown() { return {}; }
    static Value null()
    {
        Value v;
        v.kind = Kind::Null;
        return v;
    }
    static Value string(QString s)
    {
        Value v;
        v.kind = Kind::String;
        v.text = std::move(s);
        return v;
    }
};

// ---- Syntax tree -------------------------------------------------------------------------

struct Expr
{
    enum class Kind {
        Literal,      ///< number, bool, null, or a quoted string without templates (value set; for a
                      ///< string, nameSpan is the text between the quotes)
        Template,     ///< quoted string or heredoc: parts
        Tuple,        ///< children = elements
        Object,       ///< children = key0, value0, key1, value1, ...
        Variable,     ///< a scope traversal (not allowed in lock files)
        FunctionCall, ///< not allowed in lock files
        Parens,       ///< children[0]
        Unary,        ///< `-x` / `!x`: children[0], op in `op`
        Conditional,  ///< children: condition, true result, false result
        Binary,       ///< children: lhs, rhs; opText holds the operator
        Index,        ///< children: collection, key
        Operation,    ///< attribute access on a non-variable, splats: parsed, not evaluated
        Invalid,      ///< placeholder after a syntax error
    };
    struct TemplatePart
    {
        bool isLiteral = true;
        QString literal;    ///< when isLiteral
        int exprIndex = -1; ///< index into children for an interpolation
        Span span;
    };

    Kind kind = Kind::Invalid;
    Span span;
    Value value;                     ///< Literal
    std::vector<TemplatePart> parts; ///< Template
    bool hasDirective = false;       ///< Template: contains %{ ... } directives (not evaluated)
    std::vector<Expr> children;
    char op = 0;    ///< Unary: '-' or '!'
    Span nameSpan;  ///< FunctionCall: name through `(`; Variable: the root name
    QString opText; ///< Binary: the operator

    /// hcl.Expression.StartRange(): the first part of a template, else the whole span.
    Span startSpan() const;
};

struct Block;

struct Attribute
{
    QString name;
    Span nameSpan;
    Span span;
    Expr expr;
};

struct Body
{
    std::vector<Attribute> attributes; ///< in source order, redefinitions dropped
    std::vector<Block> blocks;
    Span span; ///< from the opening brace (or start of file)
};

struct Block
{
    QString type;
    Span typeSpan;
    QStringList labels;
    std::vector<Span> labelSpans;
    Span openBraceSpan;
    Span closeBraceSpan;
    Body body;
    /// hcl DefRange: from the type to the end of the last label.
    Span defSpan() const { return {typeSpan.begin, labelSpans.empty() ? typeSpan.end : labelSpans.back().end}; }
    /// Everything from the type to the closing brace.
    Span fullSpan() const { return {typeSpan.begin, closeBraceSpan.end > typeSpan.end ? closeBraceSpan.end : typeSpan.end}; }
};

struct File
{
    Body body;
    std::vector<Token> tokens; ///< including comments
    QList<Diagnostic> diagnostics;
};

/// Parse a whole file. Never fails: syntax errors become diagnostics and the tree holds
/// whatever could be recovered (like hclparse.ParseHCL).
File parseFile(const QByteArray &data);

/// The same, but every top-level block is handed to `onBlock` as soon as it is complete and is
/// not kept in File::body (bounded memory for huge files). Top-level attributes stay in the body.
File parseFileStreaming(const QByteArray &data, const std::function<void(Block &&)> &onBlock);
/// parseFileStreaming on tokens the caller already scanned (with scan(data)).
File parseTokens(const QByteArray &data, std::vector<Token> tokens, const std::function<void(Block &&)> &onBlock);

// ---- Static evaluation (nil EvalContext) -------------------------------------------------

/// expr.Value(nil): literal values; variables and function calls are errors.
Value evaluate(const Expr &expr, QList<Diagnostic> &diags);

/// gohcl.DecodeExpression into a Go `string` (allowNull=false) or `*string` (allowNull=true).
/// Returns false with diagnostics when the value cannot be a string; `isNull` is set for a
/// null with allowNull.
bool decodeString(const Expr &expr, bool allowNull, QString *out, bool *isNull, QList<Diagnostic> &diags);

/// hcl.ExprList: the elements of a tuple constructor expression, or nullptr.
const std::vector<Expr> *staticList(const Expr &expr);

// Go's quoting (strconv.Quote), unicode.IsPrint and the Levenshtein distance of hcl's
// suggestions are in model/core/GoCompat.h.

} // namespace provender::hcl
