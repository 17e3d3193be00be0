#include "model/network/Credentials.h"

#include "model/core/ProviderAddress.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>

namespace provender {

QString Credential::maskedToken() const
{
    const qsizetype shown = std::min<qsizetype>(4, token.size() / 4);
    return token.left(shown) + QStringLiteral("… (%1 characters)").arg(token.size());
}

namespace {

/// svchost.ForComparison of a host that may be written in punycode.
QString comparisonHost(const QString &host)
{
    if (host.isEmpty())
        return {};
    // Display-normalize first so that `xn--` labels (accepted here, unlike in provider addresses) pass.
    QString h = host.toLower();
    QString port;
    const qsizetype colon = h.lastIndexOf(QLatin1Char(':'));
    if (colon > 0 && !h.contains(QLatin1Char(']'))) {
        port = h.mid(colon);
        h.truncate(colon);
    }
    const QString display = ProviderAddress::hostnameForDisplay(h);
    const Result<QString> n = ProviderAddress::normalizeHostname(QString(display + port));
    if (n.ok())
        return n.value();
    // svchost accepts all-digit labels (an IPv4 address); provider-address rules may not.
    if (!QHostAddress(h).isNull() && !h.contains(QLatin1Char(':')))
        return h + (port == QLatin1StringView(":443") ? QString() : port);
    return {};
}

} // namespace

CredentialsLocations credentialsLocations(const QProcessEnvironment &env, const QString &homeDir)
{
    CredentialsLocations loc;
    const QString home = homeDir.isEmpty() ? QDir::homePath() : homeDir;
    const QString xdg = env.value(QStringLiteral("XDG_CONFIG_HOME"));
    const QString cliFile = env.value(QStringLiteral("TF_CLI_CONFIG_FILE"));
    if (!cliFile.isEmpty()) {
        loc.cliConfigFile = cliFile;
    } else {
        const QString tofurc = home + QStringLiteral("/.tofurc");
        const QString terraformrc = home + QStringLiteral("/.terraformrc");
        if (QFileInfo::exists(tofurc))
            loc.cliConfigFile = tofurc;
        else if (QFileInfo::exists(terraformrc))
            loc.cliConfigFile = terraformrc;
        else if (!xdg.isEmpty() && QFileInfo::exists(xdg + QStringLiteral("/opentofu/tofurc")))
            loc.cliConfigFile = xdg + QStringLiteral("/opentofu/tofurc");
    }
    QString dir = home + QStringLiteral("/.terraform.d");
    if (!QFileInfo(dir).isDir() && !xdg.isEmpty())
        dir = xdg + QStringLiteral("/opentofu");
    loc.credentialsJson = dir + QStringLiteral("/credentials.tfrc.json");
    return loc;
}

QString hostFromTokenVariable(const QString &suffix)
{
    QString s = suffix;
    s.replace(QStringLiteral("__"), QStringLiteral("-"));
    s.replace(QLatin1Char('_'), QLatin1Char('.'));
    return comparisonHost(s);
}

namespace {

// A small HCL 1 tokenizer: enough for `credentials "host" { token = "..." }` among other blocks.
struct Token
{
    enum Kind { Ident, String, LBrace, RBrace, Equals, Other, End } kind = End;
    QString text;
};

class Lexer
{
public:
    explicit Lexer(const QByteArray &b) : m_b(b) {}
    QStringList warnings;

    Token next()
    {
        skipSpace();
        if (m_i >= m_b.size())
            return {Token::End, {}};
        const char c = m_b.at(m_i);
        if (c == '{') {
            ++m_i;
            return {Token::LBrace, {}};
        }
        if (c == '}') {
            ++m_i;
            return {Token::RBrace, {}};
        }
        if (c == '=') {
            ++m_i;
            return {Token::Equals, {}};
        }
        if (c == '"')
            return {Token::String, readString()};
        if (std::isalnum(uchar(c)) || c == '_' || c == '-' || c == '.') {
            const qsizetype start = m_i;
            while (m_i < m_b.size() && (std::isalnum(uchar(m_b.at(m_i))) || m_b.at(m_i) == '_' || m_b.at(m_i) == '-' || m_b.at(m_i) == '.'))
                ++m_i;
            return {Token::Ident, QString::fromUtf8(m_b.mid(start, m_i - start))};
        }
        if (c == '<' && m_b.mid(m_i, 2) == "<<") { // heredoc: skip to its end marker
            m_i += 2;
            if (m_i < m_b.size() && m_b.at(m_i) == '-')
                ++m_i;
            const qsizetype start = m_i;
            while (m_i < m_b.size() && m_b.at(m_i) != '\n')
                ++m_i;
            const QByteArray marker = m_b.mid(start, m_i - start).trimmed();
            while (m_i < m_b.size()) {
                const qsizetype eol = m_b.indexOf('\n', m_i + 1);
                const QByteArray line = m_b.mid(m_i + 1, (eol < 0 ? m_b.size() : eol) - m_i - 1).trimmed();
                m_i = eol < 0 ? m_b.size() : eol;
                if (line == marker)
                    break;
            }
            return {Token::String, {}};
        }
        ++m_i;
        return {Token::Other, QString(QLatin1Char(c))};
    }

private:
    const QByteArray &m_b;
    qsizetype m_i = 0;

    void skipSpace()
    {
        while (m_i < m_b.size()) {
            const char c = m_b.at(m_i);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',') {
                ++m_i;
            } else if (c == '#' || (c == '/' && m_b.mid(m_i, 2) == "//")) {
                while (m_i < m_b.size() && m_b.at(m_i) != '\n')
                    ++m_i;
            } else if (c == '/' && m_b.mid(m_i, 2) == "/*") {
                const qsizetype end = m_b.indexOf("*/", m_i + 2);
                if (end < 0)
                    warnings.append(QStringLiteral("unterminated /* comment"));
                m_i = end < 0 ? m_b.size() : end + 2;
            } else {
                break;
            }
        }
    }

    QString readString()
    {
        QByteArray out;
        ++m_i; // opening quote
        while (m_i < m_b.size()) {
            const char c = m_b.at(m_i++);
            if (c == '"')
                return QString::fromUtf8(out);
            if (c == '\n')
                break;
            if (c == '\\' && m_i < m_b.size()) {
                const char e = m_b.at(m_i++);
                switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                default: out += e;
                }
                continue;
            }
            out += c;
        }
        warnings.append(QStringLiteral("unterminated string"));
        return QString::fromUtf8(out);
    }
};

} // namespace

namespace {

/// Calls `body(label, lex)` for each top-level `keyword "label" {` block of an HCL (1) text (other
/// blocks and attributes skipped); `body` reads the block up to and including its closing brace
/// and returns false when the text ended first ("block not closed" goes to `warnings`).
template<typename Body> void forEachTopLevelBlock(const QByteArray &text, QLatin1StringView keyword, QStringList *warnings, Body body)
{
    Lexer lex(text);
    int depth = 0;
    Token t = lex.next();
    while (t.kind != Token::End) {
        if (depth == 0 && t.kind == Token::Ident && t.text == keyword) {
            const Token label = lex.next();
            Token brace = label.kind == Token::String ? lex.next() : label;
            if (brace.kind == Token::Equals)
                brace = lex.next();
            if (label.kind != Token::String || brace.kind != Token::LBrace) {
                t = brace;
                continue;
            }
            if (!body(label.text, lex) && warnings)
                warnings->append(QStringLiteral("%1 \"%2\": block not closed").arg(keyword, label.text));
            t = lex.next();
            continue;
        }
        if (t.kind == Token::LBrace)
            ++depth;
        else if (t.kind == Token::RBrace && depth > 0)
            --depth;
        t = lex.next();
    }
    if (warnings)
        warnings->append(lex.warnings);
}

} // namespace

QList<std::pair<QString, QHash<QString, QString>>> parseCliConfigHostServices(const QByteArray &text, QStringList *warnings)
{
    QList<std::pair<QString, QHash<QString, QString>>> out;
    forEachTopLevelBlock(text, QLatin1StringView("host"), warnings, [&out](const QString &label, Lexer &lex) {
        // host "name" { services = { "id" = "url", … } } — other attributes and blocks skipped.
        QHash<QString, QString> services;
        int inner = 1;
        Token b = lex.next();
        while (b.kind != Token::End && inner > 0) {
            if (inner == 1 && b.kind == Token::Ident && b.text == QLatin1StringView("services")) {
                const Token eq = lex.next();
                const Token open = eq.kind == Token::Equals ? lex.next() : eq;
                if (open.kind != Token::LBrace) {
                    b = open;
                    continue;
                }
                Token k = lex.next();
                while (k.kind != Token::End && k.kind != Token::RBrace) {
                    if (k.kind == Token::String || k.kind == Token::Ident) {
                        const Token e = lex.next();
                        const Token v = e.kind == Token::Equals ? lex.next() : e;
                        if (v.kind == Token::String)
                            services.insert(k.text, v.text);
                    }
                    k = lex.next();
                }
                b = lex.next();
                continue;
            }
            if (b.kind == Token::LBrace)
                ++inner;
            else if (b.kind == Token::RBrace && --inner == 0)
                break;
            b = lex.next();
        }
        out.append({label, services});
        return inner == 0;
    });
    return out;
}

QList<std::pair<QString, QString>> parseCliConfigCredentials(const QByteArray &text, QStringList *warnings)
{
    QList<std::pair<QString, QString>> out;
    forEachTopLevelBlock(text, QLatin1StringView("credentials"), warnings, [&out](const QString &label, Lexer &lex) {
        // The block body: `token = "..."` at its top level; nested blocks skipped.
        int inner = 1;
        QString token;
        bool haveToken = false;
        Token b = lex.next();
        while (b.kind != Token::End && inner > 0) {
            if (b.kind == Token::LBrace) {
                ++inner;
            } else if (b.kind == Token::RBrace) {
                if (--inner == 0)
                    break;
            } else if (inner == 1 && b.kind == Token::Ident && b.text == QLatin1StringView("token")) {
                const Token eq = lex.next();
                if (eq.kind != Token::Equals) {
                    b = eq;
                    continue;
                }
                const Token v = lex.next();
                if (v.kind != Token::String) {
                    b = v;
                    continue;
                }
                token = v.text;
                haveToken = true;
            }
            b = lex.next();
        }
        if (haveToken)
            out.append({label, token});
        return inner == 0;
    });
    return out;
}

std::optional<Credential> findCredential(const QString &host, const QProcessEnvironment &env, const QString &homeDir, QStringList *warnings)
{
    const QString want = comparisonHost(host);
    if (want.isEmpty())
        return std::nullopt;

    // 1. TF_TOKEN_<host>. Several variables may decode to the same host; the name order is stable.
    QStringList names = env.keys();
    names.sort();
    for (const QString &name : std::as_const(names)) {
        if (!name.startsWith(QLatin1StringView("TF_TOKEN_")))
            continue;
        if (hostFromTokenVariable(name.mid(9)) == want) {
            const QString token = env.value(name);
            if (!token.isEmpty())
                return Credential{want, token, QStringLiteral("environment variable %1").arg(name)};
        }
    }

    const CredentialsLocations loc = credentialsLocations(env, homeDir);
    // 2. credentials blocks in the CLI config file.
    if (!loc.cliConfigFile.isEmpty() && QFileInfo::exists(loc.cliConfigFile)) {
        QFile f(loc.cliConfigFile);
        if (!f.open(QIODevice::ReadOnly)) {
            if (warnings)
                warnings->append(QStringLiteral("%1: %2").arg(loc.cliConfigFile, f.errorString()));
        } else {
            QStringList w;
            const auto blocks = parseCliConfigCredentials(f.read(4 * 1024 * 1024), &w);
            if (warnings)
                for (const QString &s : std::as_const(w))
                    warnings->append(QStringLiteral("%1: %2").arg(loc.cliConfigFile, s));
            for (const auto &[h, token] : blocks)
                if (comparisonHost(h) == want)
                    return Credential{want, token, QStringLiteral("credentials block in %1").arg(loc.cliConfigFile)};
        }
    }
    // 3. credentials.tfrc.json
    if (QFileInfo::exists(loc.credentialsJson)) {
        QFile f(loc.credentialsJson);
        if (f.open(QIODevice::ReadOnly)) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(f.read(4 * 1024 * 1024), &error);
            if (error.error != QJsonParseError::NoError && warnings)
                warnings->append(QStringLiteral("%1: %2").arg(loc.credentialsJson, error.errorString()));
            const QJsonObject creds = doc.object().value(QStringLiteral("credentials")).toObject();
            for (auto it = creds.begin(); it != creds.end(); ++it) {
                if (comparisonHost(it.key()) != want)
                    continue;
                const QJsonValue token = it.value().toObject().value(QStringLiteral("token"));
                if (token.isString())
                    return Credential{want, token.toString(), loc.credentialsJson};
            }
        } else if (warnings) {
            warnings->append(QStringLiteral("%1: %2").arg(loc.credentialsJson, f.errorString()));
        }
    }
    return std::nullopt;
}

} // namespace provender
