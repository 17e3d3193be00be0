// libFuzzer target for the credentials readers (model/network/Credentials.h) and the CLI config
// syntax reader under them (model/network/CliConfigSyntax.h, both its HCL 1 and JSON forms): the
// CLI config's `credentials "host" { token = "..." }` and `host "name" { services = {...} }` blocks and
// credentials.tfrc.json. Every input is read as
// both: it is the CLI config file (TF_CLI_CONFIG_FILE) and the credentials.tfrc.json of a scratch
// home directory, and findCredential() reads them from there as it does for the user. Besides
// "no crash, no hang, no leak, no UB" it checks:
//  - every warning says something, and where: `line N` (N from 1) — the parser's errors and the
//    decoder's (model/network/CliConfigDecode.h), whose lines come from the values they are about;
//  - the last credentials block wins for its host: findCredential() of the last block's host gives
//    its token (the CLI config comes before credentials.tfrc.json), or nothing when the host is
//    not a valid host name;
//  - with an empty CLI config, a token found comes from credentials.tfrc.json and is one of the
//    string tokens there;
//  - maskedToken() shows at most a quarter of the token;
//  - the host part of TF_TOKEN_ variable names decodes without crashing.

#include "FuzzSupport.h"

#include "model/network/Credentials.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>

#include <cstdint>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail)
{
    fuzz::fail("fuzz_credentials", what, detail);
}

struct Files
{
    QString home;        ///< has .terraform.d/credentials.tfrc.json
    QString emptyConfig; ///< an empty CLI config file
};

const Files &files()
{
    static const Files f = [] {
        Files out;
        out.home = fuzz::scratchDir() + QStringLiteral("/home");
        if (!QDir().mkpath(out.home + QStringLiteral("/.terraform.d")))
            fail("cannot create the scratch home", {});
        out.emptyConfig = fuzz::writeScratchFile(QStringLiteral("empty.tfrc"), {});
        return out;
    }();
    return f;
}

QProcessEnvironment envWithConfig(const QString &configFile)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), configFile);
    return env;
}

/// "line N…" with N ≥ 1.
bool namesLine(const QString &warning)
{
    const QLatin1StringView prefix("line ");
    qsizetype end = prefix.size();
    while (end < warning.size() && warning.at(end).isDigit())
        ++end;
    return warning.startsWith(prefix) && warning.mid(prefix.size(), end - prefix.size()).toInt() >= 1;
}

void checkMasked(const Credential &c, const QByteArray &bytes)
{
    const QString masked = c.maskedToken();
    const qsizetype shown = masked.indexOf(QChar(0x2026)); // '…'
    if (shown < 0 || shown > c.token.size() / 4 || c.token.left(shown) != masked.left(shown))
        fail("maskedToken shows more than a quarter of the token", bytes);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const Files &f = files();

    QStringList warnings;
    const QList<std::pair<QString, QString>> blocks = parseCliConfigCredentials(bytes, &warnings);
    for (const QString &w : std::as_const(warnings)) {
        if (w.isEmpty())
            fail("empty warning", bytes);
        if (!namesLine(w))
            fail("a warning does not say its line", w.toUtf8() + "\n" + bytes);
    }

    const QString config = fuzz::writeScratchFile(QStringLiteral("cli.tfrc"), bytes);
    fuzz::writeScratchFile(QStringLiteral("home/.terraform.d/credentials.tfrc.json"), bytes);

    // `host "name" { services = { ... } }` blocks of the same file.
    QStringList hostWarnings;
    const auto hosts = parseCliConfigHostServices(bytes, &hostWarnings);
    for (const QString &w : std::as_const(hostWarnings))
        if (w.isEmpty())
            fail("empty warning (host blocks)", bytes);
    (void)hosts;

    // The CLI config's last block for a host wins over everything before it.
    if (!blocks.isEmpty()) {
        const auto &[host, token] = blocks.constLast();
        QStringList w;
        const std::optional<Credential> c = findCredential(host, envWithConfig(config), f.home, &w);
        if (c) {
            if (c->token != token)
                fail("findCredential did not return the last block's token for its host", bytes);
            if (!c->source.contains(config))
                fail("findCredential's source does not name the CLI config file", bytes);
            checkMasked(*c, bytes);
        }
    }

    // credentials.tfrc.json alone (the CLI config is empty).
    const QJsonObject creds = QJsonDocument::fromJson(bytes).object().value(QStringLiteral("credentials")).toObject();
    int lookups = 0;
    for (auto it = creds.begin(); it != creds.end() && lookups++ < 4; ++it) { // a few per input keeps the rate up
        const std::optional<Credential> c = findCredential(it.key(), envWithConfig(f.emptyConfig), f.home);
        if (!c)
            continue;
        bool listed = false;
        for (auto jt = creds.begin(); jt != creds.end() && !listed; ++jt) {
            const QJsonValue token = jt.value().toObject().value(QStringLiteral("token"));
            listed = token.isString() && token.toString() == c->token;
        }
        if (!listed)
            fail("findCredential returned a token credentials.tfrc.json does not hold", bytes);
        checkMasked(*c, bytes);
    }

    // TF_TOKEN_<suffix>: the first line as a variable-name suffix.
    const qsizetype eol = bytes.indexOf('\n');
    (void)hostFromTokenVariable(QString::fromUtf8(eol < 0 ? bytes : bytes.left(eol)));
    return 0;
}
