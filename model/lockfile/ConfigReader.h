#pragma once
// Reads what a Terraform/OpenTofu configuration requires of providers: the `required_providers`
// of the root module and of every module it calls, with the rules of terraform's
// internal/configs (v1.11): which files a module directory consists of (.tf / .tf.json, plus
// .tofu / .tofu.json for tofu, override files last), how required_providers blocks of several
// files and override files combine, which providers resources, data sources, ephemeral
// resources and provider blocks imply, the legacy `version` argument of provider blocks, and
// how constraints of all modules merge (Config.ProviderRequirements). See docs/LOCKFILES.md,
// "Making a lock file from a configuration".
//
// The native-syntax reader reuses the HCL scanner of HclSyntax.h (unchanged) and parses the
// body structure of any file: blocks and attributes, with every expression skipped by its
// bracket/template structure and only the few values the requirements need evaluated
// (string literals, object constructors, traversals). JSON files (.tf.json) are read with Qt's
// JSON parser following terraform's JSON configuration syntax for the blocks involved.

#include "model/core/ProviderAddress.h"
#include "model/core/VersionConstraints.h"
#include "model/lockfile/LockFile.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace provender {

/// A problem in a configuration file: `file:line:column: error: summary: detail`.
struct ConfigDiagnostic
{
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    QString summary; ///< terraform's wording where it has one (e.g. `Invalid version constraint`)
    QString detail;
    QString file;   ///< the path as read (directory + file name); "" for directory-level problems
    int line = 0;   ///< from 1; 0 = unknown
    int column = 0; ///< from 1, in characters

    bool isError() const { return severity == Severity::Error; }
    QString toString() const;
};

/// What one configuration file declares that matters for provider requirements.
struct ConfigFileContent
{
    struct Position
    {
        int line = 0;
        int column = 0;
        int endLine = 0;
        int endColumn = 0;
    };
    struct RequiredProvider
    {
        QString localName;
        std::optional<QString> source;    ///< unset: the local name implies the address
        std::optional<QString> version;   ///< the constraint text as written (unset: none)
        QStringList configurationAliases; ///< `name.alias` texts
        Position position;                ///< the value expression (the source string when given)
        Position versionPosition;         ///< the whole `name = ...` attribute (where terraform reports constraint errors)
    };
    struct RequiredProvidersBlock
    {
        QList<RequiredProvider> entries;
        Position position; ///< the block's `required_providers` keyword
    };
    struct ProviderBlock
    {
        QString localName;
        std::optional<QString> version; ///< legacy `version = "..."` (deprecated, still honoured)
        Position position;              ///< the version expression, else the block header
        Position versionPosition;       ///< the `version = ...` attribute
    };
    struct Resource
    {
        QString mode; ///< resource | data | ephemeral
        QString type;
        QString name;
        QString providerLocalName; ///< the `provider` argument's local name, "" when absent
        Position position;
    };
    struct ImportBlock
    {
        QString toResource;        ///< `type.name` of the target in this module, "" if elsewhere
        QString providerLocalName; ///< the `provider` argument's local name, "" when absent
        Position position;
    };
    struct ModuleCall
    {
        QString name;
        std::optional<QString> source;
        Position position; ///< the source expression, else the block header
    };

    QList<RequiredProvidersBlock> requiredProviders;
    QList<ProviderBlock> providers;
    QList<Resource> resources;
    QList<ImportBlock> imports;
    QList<ModuleCall> moduleCalls;
    QList<ConfigDiagnostic> diagnostics;

    bool hasErrors() const;
};

/// Parse one file. `fileName` decides the syntax (`.json` suffix: JSON, else native) and is
/// used in diagnostics. Never fails: problems are diagnostics.
ConfigFileContent parseConfigFile(const QByteArray &bytes, const QString &fileName);

/// One provider the configuration requires, over all modules.
struct ConfigProviderRequirement
{
    ProviderAddress address;
    VersionConstraints constraints; ///< every module's constraints together (empty: none)
    QStringList constraintTexts;    ///< the constraint strings as written, in reading order
};

struct ConfigReadOptions
{
    /// Terraform: .tf/.tf.json only, default host registry.terraform.io. Tofu: also .tofu /
    /// .tofu.json (a .tofu file hides the .tf file of the same name), registry.opentofu.org.
    LockFlavour flavour = LockFlavour::Terraform;
};

struct ConfigRequirements
{
    QList<ConfigProviderRequirement> providers; ///< sorted by address; built-in providers left out
    QStringList moduleDirectories;              ///< every module directory read, root first
    QStringList files;                          ///< every configuration file read
    QList<ConfigDiagnostic> diagnostics;

    bool hasErrors() const;
    const ConfigProviderRequirement *find(const ProviderAddress &address) const;
};

/// Read the root module in `dir` and every module it calls (local paths `./` `../`; other
/// sources through terraform's module manifest `.terraform/modules/modules.json` when
/// `terraform init`/`get` installed them). Never fails: unreadable directories and files are
/// diagnostics.
ConfigRequirements readConfigRequirements(const QString &dir, const ConfigReadOptions &options = {});

/// The files of one module directory as terraform loads them: primary files, then override
/// files, each sorted by name (exposed for tests).
struct ConfigDirFiles
{
    QStringList primary;
    QStringList overrides;
};
ConfigDirFiles configDirFiles(const QString &dir, LockFlavour flavour);

} // namespace provender
