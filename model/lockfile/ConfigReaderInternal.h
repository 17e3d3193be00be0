#pragma once
// Internal to the configuration reader (ConfigReader.h is its header). The phases, one file each:
//   ConfigSyntax.cpp       native syntax: the body parser over HclSyntax's scanner (blocks,
//                          attributes, recovery) with hclsyntax's diagnostics
//   ConfigExpressions.cpp  native syntax: the expression validator (records token ranges only)
//   ConfigContent.cpp      static values of the few expressions requirements need, the
//                          native file's content (terraform/required_providers, provider, module),
//                          and ContentBuilder's steps both syntaxes share
//   ConfigJson.cpp         the same content from .tf.json
//   ConfigReader.cpp       files of a directory, modules, and merging the requirements

#include "model/core/GoCompat.h"
#include "model/lockfile/ConfigReader.h"
#include "model/lockfile/HclSyntax.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace provender::config_detail {

using namespace Qt::StringLiterals;

using hcl::closerFor;
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

inline bool isOpener(Tok t)
{
    return closerFor(t) != Tok::Eof;
}
inline bool isCloser(Tok t)
{
    return t == Tok::CBrace || t == Tok::CBrack || t == Tok::CParen || t == Tok::CQuote || t == Tok::CHeredoc || t == Tok::TemplateSeqEnd;
}

class NativeReader
{
public:
    NativeReader(const QByteArray &data, const QString &fileName);

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
    int skipExpression(int i);

    /// From an opening token, the index after its matching closer (or the end).
    int skipGroup(int i) const;

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

    void reportUnterminated(Tok opener, int at);

    void reportMismatch(Tok opener, int at);

    /// hclsyntax's recoverAfterBodyItem: skips to the end of the line (balanced).
    void recoverAfterBodyItem();

    /// hclsyntax's recover(end): skips past the `end` that closes the current nesting level.
    void recoverTo(Tok end);

    /// A body up to its closing brace (openBrace >= 0) or the end of the file.
    void parseBody(NBody &body, int openBrace);

    /// name = expr, for a body; false when the expression had errors.
    void finishAttribute(NBody &body, int nameTok, bool singleLine);

    void parseItem(NBody &body);

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

    bool parseExpr();

    bool parseExprInner();

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

    bool parsePostfix();

    bool parsePrimary();

    bool parseCall();

    /// `for k, v in coll :` — shared by tuple and object for expressions (at `for`).
    bool parseForIntro();

    bool parseForCondition()
    {
        if (isKeyword(sig(m_pos), "if")) {
            take();
            return parseExpr();
        }
        return true;
    }

    bool parseTuple(int open);

    bool parseObject(int open);

    /// The escape-sequence errors of one quoted literal token (hclsyntax's ParseStringLiteralToken).
    void checkEscapes(int i);

    bool parseTemplate(Tok closer, int open);

public:
    /// Resolves the escapes of a quoted literal (\n \r \t \" \\ \uXXXX \UXXXXXXXX, $${ %%{).
    static QString decodeEscapes(const QString &s);
};

/// hashicorp/go-version's constraint syntax (terraform checks it before its own parser):
/// every comma-separated part must match this (ConfigContent.cpp).
bool goVersionConstraintAccepts(const QString &text);

/// One attribute of a required_providers entry object, as either syntax decodes it.
struct RequirementAttribute
{
    QString key;
    bool keyIsStatic = true; ///< false for a key that is an expression (native syntax only)
    Position keyPos;
    Position valuePos;
    std::optional<QString> string; ///< the value, when it is a static string
    /// The value when it is a static list: per element its `name` or `name.alias` text, none
    /// for an element that is no such reference.
    std::optional<QList<std::optional<QString>>> references;
};

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
                  u"Provider names must be normalized. Replace %1 with %2 to fix this error."_s.arg(gocompat::quote(name),
                                                                                                    gocompat::quote(n.value())));
        else
            error(p, u"Invalid provider local name"_s, u"%1 is an invalid provider local name: %2"_s.arg(name, n.error().message));
        return false;
    }

    /// One entry of a required_providers block (decodeRequiredProvidersBlock), added to `out`
    /// unless it has errors. `rp` has its local name and positions; `legacy` is the value's text
    /// when it is a string, number or bool (the legacy form: a version constraint only),
    /// `attributes` those of an object value.
    void requiredProvider(ConfigFileContent::RequiredProvidersBlock &out, ConfigFileContent::RequiredProvider rp,
                          const std::optional<QString> &legacy, const std::optional<QList<RequirementAttribute>> &attributes);

    /// A provider block's deprecated `version` argument, at p.position: the warning, then the
    /// constraint (`constraint`: the value's text where it can be one; null is no constraint).
    void providerVersion(ConfigFileContent::ProviderBlock &p, bool isNull, const std::optional<QString> &constraint);

    /// The error for a module block's `source` that is not a literal string (either syntax).
    void invalidModuleSource(const Position &p)
    {
        error(p, u"Invalid module source address"_s, u"The module source address must be a literal string."_s);
    }
};

/// The content of one native-syntax (.tf, .tofu) file (ConfigContent.cpp).
ConfigFileContent readNativeContent(const QByteArray &data, const QString &fileName);
/// The content of one JSON-syntax (.tf.json) file (ConfigJson.cpp).
ConfigFileContent readJsonContent(const QByteArray &data, const QString &fileName);

} // namespace provender::config_detail
