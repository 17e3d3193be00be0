#pragma once
// The scanner under model/network/CliConfigSyntax.cpp: hashicorp/hcl v1's hcl/scanner (and, in
// its JSON mode, json/scanner), rune for rune, with the same positions and error texts, and the
// values of its literal tokens. Internal to provender_network; CliConfigSyntax.h is the interface.

#include <QByteArray>
#include <QString>

#include <optional>
#include <utility>

namespace provender::cliconfig::detail {

enum class Tok {
    Illegal,
    Eof,
    Comment,
    Ident,
    Number,
    Float,
    Bool,
    Null,
    String,
    Heredoc,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Assign,
    Period,
    Add,
    Sub
};

struct Pos
{
    qsizetype offset = 0;
    int line = 0;
    int column = 0;
};

struct Token
{
    Tok type = Tok::Illegal;
    Pos pos;
    QByteArray text;
};

struct ScanError
{
    int line = 0;
    int column = 0;
    QString message;
};

class Scanner
{
public:
    /// `json`: hcl v1's JSON scanner (json/scanner) instead: no comments, heredocs or identifiers;
    /// `true`, `false`, `null`, ':' and JSON numbers.
    explicit Scanner(const QByteArray &src, bool json = false) : m_src(src), m_json(json) { m_pos.line = 1; }

    /// The last error seen (hcl v1 keeps scanning after one and reports the last).
    std::optional<ScanError> error;

    Token scan();

private:
    const QByteArray &m_src;
    const bool m_json;
    Pos m_pos;
    Pos m_prev;
    int m_lastCharLen = 0;
    int m_lastLineLen = 0;

    Tok kind(char32_t ch);

    Tok jsonKind(char32_t ch);
    Tok jsonNumber(char32_t ch);

    char32_t next();
    void unread();
    char32_t peek() const;

    void fail(const QString &message);

    QByteArray identifier();

    void comment(char32_t ch);

    Tok number(char32_t ch);
    char32_t mantissa(char32_t ch);
    char32_t fraction(char32_t ch);
    char32_t exponent(char32_t ch);

    void heredoc();

    void string();
    void escape();
    void digits(char32_t ch, int base, int n);
};

/// The next UTF-8 sequence at `i`: its code point and length (U+FFFD and 1 when it is not valid).
std::pair<char32_t, int> decodeRune(const QByteArray &b, qsizetype i);

/// A quoted string's text as hcl v1's strconv.Unquote gives it: Go escapes decoded, `${ … }`
/// copied as written.
QString unquote(const QByteArray &quoted);

/// A heredoc's text as hcl v1's token.Value gives it (see the definition for its arithmetic).
QString heredocText(const QByteArray &t);

} // namespace provender::cliconfig::detail
