// provender mirror pull DEST (--lock FILE... | --config DIR | ADDR[=CONSTRAINT]...) --platform P... [--zh]
//   [--dry-run] [--pinned-keys FILE] [--ca-file PEM] [--json]
// Pull providers from their origin registries into a packed mirror directory, every archive
// proven against its release's signed SHA256SUMS (model/registry/MirrorPull.h).

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/Prologue.h"
#include "model/lockfile/ConfigReader.h"
#include "model/registry/MirrorPull.h"
#include "model/registry/PullRequests.h"
#include "model/registry/RegistryClient.h"
#include "model/registry/ReleaseSignature.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>

using namespace Qt::StringLiterals;

namespace provender::cli {

namespace {

QJsonObject toJson(const PulledArchive &a)
{
    QJsonObject o{{u"provider"_s, a.provider.toString()},
                  {u"version"_s, a.version.toString()},
                  {u"platform"_s, a.platform.toString()},
                  {u"status"_s, toString(a.status)},
                  {u"path"_s, a.path}};
    if (a.size >= 0)
        o[u"size"_s] = double(a.size);
    insertIfNotEmpty(o, u"signed_by"_s, a.keyId);
    insertIfNotEmpty(o, u"reason"_s, a.reason);
    return o;
}

/// The command's options and arguments.
void declareOptions(QCommandLineParser &parser)
{
    parser.addOption({u"lock"_s, u"Pull exactly the providers and versions this lock file pins (repeatable)."_s, u"FILE"_s});
    parser.addOption({u"config"_s,
                      u"Pull the providers a configuration requires (required_providers of it and its modules), each at "
                      "the newest version that meets all its constraints (repeatable)."_s,
                      u"DIR"_s});
    parser.addOption(
        {u"flavour"_s, u"With --config: read it as terraform (default: .tf files, registry.terraform.io) or tofu does."_s, u"F"_s});
    parser.addOption({u"platform"_s, u"A target platform, e.g. linux_amd64 (repeatable; at least one)."_s, u"OS_ARCH"_s});
    parser.addOption({u"zh"_s, u"Also list each archive's zh: hash in the indexes."_s});
    parser.addOption({u"unpacked"_s,
                      u"Extract each proven archive into DEST/HOST/NS/TYPE/VERSION/OS_ARCH/ (the unpacked layout) "
                      "instead of keeping the zip; writes no indexes."_s});
    parser.addOption({u"dry-run"_s, u"Resolve versions and list what would be fetched; write nothing."_s});
    parser.addOption({u"pinned-keys"_s, u"Accept only signatures by the OpenPGP keys in this file (ASCII armoured)."_s, u"FILE"_s});
    parser.addOption({u"ca-file"_s, u"Also trust the CA certificates in this PEM file."_s, u"PEM"_s});
    parser.addOption({u"jobs"_s, u"Download at most N archives at once (default 4)."_s, u"N"_s});
    parser.addOption({u"json"_s, u"Print a JSON report instead of text."_s});
    parser.addPositionalArgument(u"dest"_s, u"The mirror directory to fill."_s, u"DEST"_s);
    parser.addPositionalArgument(u"providers"_s, u"Providers as ADDR or ADDR=CONSTRAINT (e.g. hashicorp/null=~> 3.2)."_s, u"[ADDR...]"_s);
}

/// DEST and what shapes the pull (platforms, --zh, --dry-run, --unpacked, --pinned-keys);
/// an exit status on bad usage.
std::optional<int> readPullOptions(const QCommandLineParser &parser, PullOptions &options)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err() << "provender mirror pull: give the mirror directory to fill\n";
        return ExitUsage;
    }
    options.destination = positional.first();
    options.withZh = parser.isSet(u"zh"_s);
    options.dryRun = parser.isSet(u"dry-run"_s);
    options.unpacked = parser.isSet(u"unpacked"_s);
    if (options.unpacked && options.withZh) {
        err() << "provender mirror pull: --zh writes indexes, which an unpacked mirror has none of\n";
        return ExitUsage;
    }
    for (const QString &p : parser.values(u"platform"_s)) {
        const Result<Platform> platform = Platform::parse(p);
        if (!platform) {
            err() << "provender mirror pull: --platform " << p << ": " << platform.error().message << '\n';
            return ExitUsage;
        }
        options.platforms << *platform;
    }
    if (options.platforms.isEmpty()) {
        err() << "provender mirror pull: give at least one --platform\n";
        return ExitUsage;
    }

    if (parser.isSet(u"pinned-keys"_s)) {
        const Result<QByteArray> keys = readPinnedKeysFile(parser.value(u"pinned-keys"_s));
        if (!keys.ok()) {
            err() << "provender mirror pull: " << keys.error().message << '\n';
            return ExitUsage;
        }
        options.signature.pinnedKeys << *keys;
    }

    return std::nullopt;
}

/// What to pull: --lock files, --config directories and ADDR[=CONSTRAINT] arguments.
std::optional<int> readRequests(const QCommandLineParser &parser, QList<PullRequest> &requests)
{
    const QStringList positional = parser.positionalArguments();
    for (const QString &lockPath : parser.values(u"lock"_s)) {
        const Result<QList<PullRequest>> pinned = pullRequestsFromLockFile(lockPath);
        if (!pinned) {
            err() << "provender mirror pull: " << pinned.error().message << '\n';
            return ExitUsage;
        }
        requests << *pinned;
    }
    LockFlavour flavour = LockFlavour::Terraform;
    if (parser.isSet(u"flavour"_s)) {
        const std::optional<LockFlavour> f = lockFlavourFromString(parser.value(u"flavour"_s));
        if (!f) {
            err() << "provender mirror pull: --flavour must be tofu or terraform\n";
            return ExitUsage;
        }
        flavour = *f;
    }
    for (const QString &dir : parser.values(u"config"_s)) {
        ConfigReadOptions co;
        co.flavour = flavour;
        const ConfigRequirements config = readConfigRequirements(dir, co);
        for (const ConfigDiagnostic &d : config.diagnostics)
            err() << d.toString() << '\n';
        if (config.hasErrors()) {
            err() << "provender mirror pull: " << dir << ": the configuration has errors\n";
            return ExitUsage;
        }
        for (const ConfigProviderRequirement &p : config.providers)
            requests << PullRequest{p.address, std::nullopt,
                                    p.constraints.isEmpty() ? std::nullopt : std::optional<VersionConstraints>(p.constraints)};
    }
    for (qsizetype i = 1; i < positional.size(); ++i) {
        const Result<PullRequest> req = parsePullRequest(positional.at(i));
        if (!req) {
            err() << "provender mirror pull: " << req.error().message << '\n';
            return ExitUsage;
        }
        requests << *req;
    }
    if (requests.isEmpty()) {
        err() << "provender mirror pull: name providers (ADDR[=CONSTRAINT]) or give --lock FILE or --config DIR\n";
        return ExitUsage;
    }
    return std::nullopt;
}

/// TLS (--ca-file), --jobs and the CLI config's `host` blocks.
std::optional<int> readRegistryOptions(const QCommandLineParser &parser, RegistryOptions &ro)
{
    if (parser.isSet(u"ca-file"_s)) {
        const Result<QList<QSslCertificate>> certs = readRegistryCaFile(parser.value(u"ca-file"_s));
        if (!certs.ok()) {
            err() << "provender mirror pull: " << certs.error().message << '\n';
            return ExitUsage;
        }
        ro.http.caCertificates = *certs;
    }
    if (parser.isSet(u"jobs"_s)) {
        const std::optional<int> jobs = wholeNumberOption(parser, u"provender mirror pull"_s, u"jobs"_s, 1, "a positive number");
        if (!jobs)
            return ExitUsage;
        ro.http.maxParallel = *jobs;
    }
    QStringList warnings;
    ro.serviceOverrides = providerServicesFromEnvironment(ro.environment, QString(), &warnings);
    for (const QString &w : warnings)
        err() << "provender mirror pull: CLI config: " << w << '\n';
    return std::nullopt;
}

/// The text lines are printed as archives are decided; the JSON report and the exit status at the end.
int reportPull(const PullOptions &options, RegistryClient &client, const QList<PullRequest> &requests, bool json)
{
    const PullReport report = pullFromRegistry(requests, options, client, [&](const PulledArchive &a) {
        if (json)
            return;
        out() << toString(a.status) << ' ' << a.provider.toString() << ' ' << a.version.toString() << ' ' << a.platform.toString();
        if (!a.keyId.isEmpty())
            out() << " (signed by key " << a.keyId << ')';
        if (!a.reason.isEmpty())
            out() << ": " << a.reason;
        out() << '\n' << Qt::flush;
    });
    for (const QString &e : report.errors)
        err() << "provender mirror pull: " << e << '\n';
    if (json) {
        QJsonArray archives;
        for (const PulledArchive &a : report.archives)
            archives.append(toJson(a));
        out() << QJsonDocument(QJsonObject{{u"destination"_s, options.destination},
                                           {u"dry_run"_s, options.dryRun},
                                           {u"archives"_s, archives},
                                           {u"errors"_s, QJsonArray::fromStringList(report.errors)}})
                     .toJson(QJsonDocument::Indented);
    }
    out().flush();
    if (!report.errors.isEmpty() && report.archives.isEmpty())
        return ExitUsage;
    return report.refusedOrFailed() > 0 || !report.errors.isEmpty() ? ExitFindings : ExitOk;
}

} // namespace

int runMirrorPull(const QStringList &args)
{
    Prologue p(u"mirror pull"_s, helpText(u"mirror-pull"_s));
    QCommandLineParser &parser = p.parser();
    declareOptions(parser);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    PullOptions options;
    if (const std::optional<int> exit = readPullOptions(parser, options))
        return *exit;
    QList<PullRequest> requests;
    if (const std::optional<int> exit = readRequests(parser, requests))
        return *exit;
    RegistryOptions ro;
    if (const std::optional<int> exit = readRegistryOptions(parser, ro))
        return *exit;
    RegistryClient client(ro);
    return reportPull(options, client, requests, parser.isSet(u"json"_s));
}

} // namespace provender::cli
