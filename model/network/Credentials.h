#pragma once
// API tokens for a mirror host, found where tofu/terraform look (tofu-formats.md §6, "Credentials
// configuration"): TF_TOKEN_<encoded host> environment variables, `credentials "host" { token = }`
// blocks in the CLI config file, then credentials.tfrc.json in the CLI config directory.
// Credential helpers are not run. Tokens never go into logs or messages; use maskedToken().

#include "model/core/Result.h"

#include <QHash>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

namespace provender {

struct Credential
{
    QString host; ///< comparison form the token is for (`example.com`, `127.0.0.1:8443`)
    QString token;
    QString source; ///< where it came from: `environment variable TF_TOKEN_...`, a file path + what
    /// `abcd…` style: the first 4 characters (at most a quarter of the token) and its length.
    QString maskedToken() const;
};

/// Where the files are, given an environment and a home directory (tests pass both).
struct CredentialsLocations
{
    QString cliConfigFile;   ///< TF_CLI_CONFIG_FILE, ~/.tofurc, ~/.terraformrc or $XDG_CONFIG_HOME/opentofu/tofurc ("" = none)
    QString credentialsJson; ///< <config dir>/credentials.tfrc.json (may not exist)
};
CredentialsLocations credentialsLocations(const QProcessEnvironment &env, const QString &homeDir);

/// `TF_TOKEN_` variable name suffix -> comparison host ("" when not a valid host):
/// `__` -> `-`, then `_` -> `.`, punycode accepted, case-insensitive.
QString hostFromTokenVariable(const QString &suffix);

/// The `credentials "<host>" { token = "..." }` blocks of a CLI config text (HCL 1 or its JSON form,
/// read by model/network/CliConfigSyntax.h): host as written -> token. Blocks of one host merge and
/// the last `token` wins, as hcl v1's decoder merges them; a host whose token is not a string is
/// left out. A text hcl v1 cannot parse gives nothing, and its error goes to `warnings`.
QList<std::pair<QString, QString>> parseCliConfigCredentials(const QByteArray &text, QStringList *warnings = nullptr);

/// The `host "<name>" { services = { "<service id>" = "<url>" } }` blocks of an HCL (1) CLI config
/// text (tofu/terraform: they replace service discovery for that host): host as written -> service
/// id -> URL text, blocks of one host merged (later ones win, service by service), as tofu 1.12 and
/// later merge them; where terraform, which uses only a host's last block, would see other
/// services, a warning says so. Other blocks and attributes are skipped; a text hcl v1 cannot
/// parse gives nothing, and its error goes to `warnings`.
QList<std::pair<QString, QHash<QString, QString>>> parseCliConfigHostServices(const QByteArray &text, QStringList *warnings = nullptr);

/// Looks up the token for `comparisonHost` in precedence order: environment, CLI config file,
/// credentials.tfrc.json. `warnings` (optional) gets unreadable or malformed files.
std::optional<Credential> findCredential(const QString &comparisonHost,
                                         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                                         const QString &homeDir = QString(), QStringList *warnings = nullptr);

} // namespace provender
