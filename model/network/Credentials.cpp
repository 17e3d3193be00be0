#include "model/network/Credentials.h"

#include "model/core/ProviderAddress.h"
#include "model/network/CliConfigDecode.h"
#include "model/network/CliConfigSyntax.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

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

/// The CLI config's items, or none (with a warning) when tofu and terraform would both use nothing
/// from it: hcl v1 cannot parse it, its decoder cannot decode it into their settings
/// (CliConfigDecode.h), or they crash on a credentials block while they load it. When only one of
/// them would, it is used, as the other uses it, and the warning says so.
QList<cliconfig::Item> cliConfigItems(const QByteArray &text, QStringList *warnings)
{
    const auto warn = [warnings](const QString &message) {
        if (warnings)
            warnings->append(message);
    };
    const auto problem = [](const cliconfig::DecodeProblem &p) {
        return p.line > 0 ? QStringLiteral("line %1: %2").arg(p.line).arg(p.message) : p.message;
    };
    const QString unused =
        QStringLiteral("; nothing in the file is used, as tofu and terraform use nothing from a CLI configuration they cannot read");
    Result<QList<cliconfig::Item>> items = cliconfig::parse(text);
    if (!items.ok()) {
        warn(items.error().message + unused);
        return {};
    }
    const cliconfig::DecodeVerdict verdict = cliconfig::decodeProblems(items.value());
    for (const auto &[host, p] : verdict.unconvertible) {
        if (!comparisonHost(host).isEmpty()) {
            warn(problem(p) + unused);
            return {};
        }
    }
    if (verdict.terraform && verdict.tofu) {
        warn(problem(*verdict.terraform) + unused);
        return {};
    }
    // One of them would use nothing: a warning, and the file is used, as the other uses it.
    const auto usedByOne = [&](const cliconfig::DecodeProblem &p, QLatin1StringView refuses, QLatin1StringView uses) {
        const QString why = p.parse ? QStringLiteral("%1 1.12 and later cannot parse it").arg(refuses)
                                    : QStringLiteral("hcl v1 cannot decode it into %1's settings").arg(refuses);
        warn(problem(p) + QStringLiteral("; %1 uses nothing in the file (%2), %3 uses it, and so does Provender").arg(refuses, why, uses));
    };
    if (verdict.terraform)
        usedByOne(*verdict.terraform, QLatin1StringView("terraform"), QLatin1StringView("tofu"));
    else if (verdict.tofu)
        usedByOne(*verdict.tofu, QLatin1StringView("tofu"), QLatin1StringView("terraform"));
    return items.value();
}

/// The entries of the map setting `name`, merged per key as hcl v1's decoder merges them: one
/// (key, [bodies in document order]) per key as written, in the order keys first appear.
QList<std::pair<QString, QList<const cliconfig::Value *>>> mergedEntries(const QList<cliconfig::Entry> &entries)
{
    QList<std::pair<QString, QList<const cliconfig::Value *>>> out;
    for (const cliconfig::Entry &e : entries) {
        auto it = std::find_if(out.begin(), out.end(), [&e](const auto &p) { return p.first == e.key; });
        if (it == out.end())
            it = out.insert(out.end(), {e.key, {}});
        it->second.append(&e.value);
    }
    return out;
}

} // namespace

QList<std::pair<QString, QHash<QString, QString>>> parseCliConfigHostServices(const QByteArray &text, QStringList *warnings)
{
    // host "name" { services = { "id" = "url", … } }: later blocks and attributes win, key by key.
    const QList<cliconfig::Entry> entries = cliconfig::mapEntries(cliConfigItems(text, warnings), QLatin1StringView("host"));
    const auto servicesOf = [](const QList<const cliconfig::Value *> &bodies) {
        QHash<QString, QString> services;
        for (const cliconfig::Value *s : cliconfig::attributeValues(bodies, QLatin1StringView("services"), Qt::CaseInsensitive))
            if (s->isObject())
                for (const cliconfig::Item &i : s->object)
                    if (i.keys.size() == 1 && i.value->isString())
                        services.insert(i.keys.first(), i.value->text);
        return services;
    };
    const auto ids = [](const QHash<QString, QString> &services) {
        QStringList keys = services.keys();
        keys.sort();
        return keys.isEmpty() ? QStringLiteral("none") : keys.join(QStringLiteral(", "));
    };
    QList<std::pair<QString, QHash<QString, QString>>> out;
    for (const auto &[host, bodies] : mergedEntries(entries)) {
        const QHash<QString, QString> services = servicesOf(bodies);
        // terraform's hcl v1.0.0 decodes each block of a host into a new ConfigHost that replaces
        // the one before; tofu 1.12's v1.0.1-vault-7 decodes them into one (decoder.go:424).
        if (const QHash<QString, QString> lastOnly = servicesOf({bodies.last()}); warnings && lastOnly != services)
            warnings->append(QStringLiteral("host \"%1\" has %2 blocks that give different services: terraform uses only the last "
                                            "block's (%3), tofu 1.12 and later merge them service by service (%4), and so does Provender")
                                 .arg(host)
                                 .arg(bodies.size())
                                 .arg(ids(lastOnly), ids(services)));
        out.append({host, services});
    }
    return out;
}

QList<std::pair<QString, QString>> parseCliConfigCredentials(const QByteArray &text, QStringList *warnings)
{
    // credentials "host" { token = "..." }: the blocks of one host merge and the last token wins.
    // hcl v1 decodes a later value into the type of the first: after a string, an integer counts as
    // its text (anything else fails the whole file, see CliConfigDecode.h). A first token that is
    // not a string gives none. (tests/interop/tst_interop_cliconfig:
    // terraform 1.11 sends the second of two blocks' tokens, "12" after "s", nothing for `12` alone.)
    const QList<cliconfig::Entry> entries = cliconfig::mapEntries(cliConfigItems(text, warnings), QLatin1StringView("credentials"));
    QList<std::pair<QString, QString>> out;
    for (const auto &[host, bodies] : mergedEntries(entries)) {
        const QList<const cliconfig::Value *> tokens = cliconfig::attributeValues(bodies, QLatin1StringView("token"));
        if (tokens.isEmpty() || !tokens.first()->isString())
            continue;
        QString token;
        for (const cliconfig::Value *t : tokens)
            token = t->text; // strings and integers (the decoder check, CliConfigDecode.h, refused the rest)
        out.append({host, token});
    }
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
            // Two spellings of one host: the later block wins (terraform's choice between them
            // depends on Go's map order).
            for (auto it = blocks.crbegin(); it != blocks.crend(); ++it)
                if (comparisonHost(it->first) == want)
                    return Credential{want, it->second, QStringLiteral("credentials block in %1").arg(loc.cliConfigFile)};
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
