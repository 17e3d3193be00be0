#pragma once
// Credentials for OCI registries, found as tofu finds them (OpenTofu
// internal/command/cliconfig/oci_credentials.go and ociauthconfig/; docs/OCI.md "Credentials"):
//   1. `oci_credentials "PREFIX" { … }` blocks of the CLI config (username+password,
//      access_token+refresh_token, or docker_credentials_helper — exactly one group);
//   2. `oci_default_credentials { docker_credentials_helper = "NAME" }`: a global helper;
//   3. ambient Docker-style files unless `discover_ambient_credentials = false`:
//      `docker_style_config_files = [...]` when given, else $XDG_RUNTIME_DIR/containers/auth.json,
//      ${XDG_CONFIG_HOME:-~/.config}/containers/auth.json, ~/.docker/config.json, ~/.dockercfg —
//      their `auths` (base64 "user:password"), `credHelpers` (per domain) and `credsStore` (global).
// The most specific match wins (a repository prefix with more path segments > domain > global);
// on a tie the first found. Credential helpers (`docker-credential-NAME get`) run only when one of
// those places names one, and only when a registry asks for credentials. Secrets never appear in
// messages: describe() names the kind and where it came from.

#include "model/core/Result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <optional>

namespace provender::oci {

struct OciCredential
{
    enum class Kind { Basic, OAuth, Helper };
    Kind kind = Kind::Basic;
    QString username;
    QString password;
    QString accessToken;
    QString refreshToken;
    QString helper;      ///< docker-credential-<helper>
    QString serverUrl;   ///< for a helper: https://<registry>
    QString source;      ///< e.g. `explicit oci_credentials "ghcr.io/acme" block in /home/u/.tofurc`
    int specificity = 0; ///< 1 global, 2 domain, 2+N a repository prefix of N path segments

    /// "username alice (password 6 characters) from …" — never the secret itself.
    QString describe() const;
};

struct OciCredentialsPolicy
{
    struct Entry
    {
        QString prefix; ///< `host[/path]` the entry is for ("" = global helper)
        OciCredential credential;
    };
    QList<Entry> entries;  ///< in tofu's order: explicit blocks, default helper, ambient files
    QStringList consulted; ///< every place looked at (for diagnostics)
};

/// tofu's ContainersAuthPropertyNameMatch: 0 no match, 2 the domain, 2+N a prefix of N segments.
int propertyNameSpecificity(const QString &propertyName, const QString &registry, const QString &repository);

/// Reads the CLI config (TF_CLI_CONFIG_FILE, ~/.tofurc, …: the same search as network mirrors)
/// and the Docker-style files. `homeDir` "" = $HOME. Problems tofu reports as errors (a malformed
/// block, unreadable explicitly named files) fail; others go to `warnings`.
Result<OciCredentialsPolicy> loadCredentialsPolicy(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                                                   const QString &homeDir = QString(), QStringList *warnings = nullptr);

/// The policy's blocks from CLI config text (HCL); `file` for messages. Exposed for tests.
Result<OciCredentialsPolicy> parseCliConfigOciBlocks(const QByteArray &text, const QString &file, QStringList *dockerStyleFiles,
                                                     bool *discoverAmbient);
/// The `auths`/`credHelpers`/`credsStore` of one Docker-style JSON file.
Result<QList<OciCredentialsPolicy::Entry>> parseDockerStyleConfig(const QByteArray &json, const QString &file);

/// The credential for a repository (nullopt: none configured — try anonymously).
std::optional<OciCredential> credentialFor(const OciCredentialsPolicy &policy, const QString &registry, const QString &repository);

/// Runs `docker-credential-<helper> get` (server URL on stdin) and returns a Basic credential.
/// OAuth-style answers (Username `<token>`) are refused as tofu refuses them.
Result<OciCredential> runCredentialHelper(const OciCredential &helper, const QProcessEnvironment &env);

} // namespace provender::oci
