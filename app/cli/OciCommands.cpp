// OCI registries as provider mirrors (docs/OCI.md):
//   provender verify oci://HOST/PATH/${namespace}/${type} (--provider ADDR… | --lock FILE… | --all) [--json]
//   provender oci verify …  (the same)
//   provender oci push SOURCE --repository-template T [--provider ADDR…] [--dry-run] [--json]
//   provender oci list oci://HOST/PATH/${namespace}/${type} [--versions] [--json]
// `provender verify` hands over here when its argument starts with oci://.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/Prologue.h"
#include "app/cli/VerdictJson.h"
#include "model/bundle/BundleImport.h"
#include "model/lockfile/LockAnchors.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/network/TrustStore.h"
#include "model/oci/OciMirror.h"
#include "model/registry/ReleaseSignature.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <algorithm>

namespace provender::cli {

using namespace provender::oci;

namespace {

void addCommonOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")});
    parser.addOption(
        {QStringLiteral("ca-file"), QStringLiteral("Also trust the CA certificates in this PEM file."), QStringLiteral("PEM")});
    parser.addOption(
        {QStringLiteral("timeout"), QStringLiteral("Seconds without data before a request fails (default 30)."), QStringLiteral("S")});
    parser.addOption({QStringLiteral("no-credentials"), QStringLiteral("Do not look up or send credentials.")});
    parser.addOption({QStringLiteral("max-archive-size"),
                      QStringLiteral("Largest archive blob downloaded (default 2G; suffix K, M, G): a layer descriptor "
                                     "that declares more is not fetched."),
                      QStringLiteral("SIZE")});
}

/// Fills `mirror` from the common options; prints and returns false on bad usage.
bool commonSetup(const QCommandLineParser &parser, const QString &command, const QString &templ, OciMirrorOptions *mirror, bool quiet)
{
    mirror->repositoryTemplate = templ;
    if (parser.isSet(QStringLiteral("ca-file"))) {
        const Result<QList<QSslCertificate>> certs = readCaFile(parser.value(QStringLiteral("ca-file")));
        if (!certs.ok()) {
            err() << command << ": " << certs.error().message << '\n';
            return false;
        }
        mirror->client.caCertificates = *certs;
    }
    if (parser.isSet(QStringLiteral("timeout"))) {
        const std::optional<int> s = wholeNumberOption(parser, command, QStringLiteral("timeout"), 1, "a positive number of seconds");
        if (!s)
            return false;
        mirror->client.timeoutMs = *s * 1000;
    }
    if (parser.isSet(QStringLiteral("max-archive-size"))) {
        const qint64 max = parseByteSize(parser.value(QStringLiteral("max-archive-size")));
        if (max < 0) {
            err() << command << ": --max-archive-size needs a size in bytes (suffix K, M or G allowed)\n";
            return false;
        }
        mirror->client.maxBlobBytes = max;
    }
    if (!parser.isSet(QStringLiteral("no-credentials"))) {
        QStringList warnings;
        Result<OciCredentialsPolicy> policy = loadCredentialsPolicy(QProcessEnvironment::systemEnvironment(), QString(), &warnings);
        for (const QString &w : std::as_const(warnings))
            err() << command << ": warning: " << w << '\n';
        if (!policy.ok()) {
            err() << command << ": invalid credentials configuration for OCI registries: " << policy.error().message << '\n';
            return false;
        }
        mirror->credentials = policy.value();
    }
    Q_UNUSED(quiet)
    return true;
}

/// The prologue of every oci command (the shared Prologue: --help, one error prefix, exit 2 on
/// usage) with the options they have in common (TLS, timeout, credentials, the size cap) and, for
/// the commands that read an oci:// mirror (verify, list), its one argument.
class OciPrologue
{
public:
    OciPrologue(const QString &command, const QString &description) : m_p(command, description) { addCommonOptions(m_p.parser()); }

    QCommandLineParser &parser() { return m_p.parser(); }
    const QString &prefix() const { return m_p.prefix(); }
    bool json() const { return m_p.parser().isSet(QStringLiteral("json")); }
    int usage(const QString &message) const { return m_p.usage(message); }
    std::optional<LockAnchors> lockAnchors() const { return m_p.lockAnchors(); }
    /// The one argument is an oci:// mirror (verify, list).
    void mirrorArgument()
    {
        m_p.positional(QStringLiteral("mirror"), QStringLiteral("oci://HOST/PATH/${namespace}/${type}"), QStringLiteral("OCI-URL"));
    }

    /// Parses `args` with one positional argument: nullopt to go on, else the exit code. After
    /// mirrorArgument(): the template comes from that argument; else from `templateOption`.
    std::optional<int> parse(const QStringList &args, const QString &what, const QString &templateOption = {})
    {
        if (const std::optional<int> exit = m_p.parse(args, 1, 1, what))
            return exit;
        QString templ;
        if (templateOption.isEmpty()) {
            const Result<QString> fromUrl = templateFromOciUrl(argument());
            if (!fromUrl.ok())
                return usage(fromUrl.error().message);
            templ = fromUrl.value();
        } else {
            if (!m_p.parser().isSet(templateOption))
                return usage(QStringLiteral("give one SOURCE and --%1 (see --help)").arg(templateOption));
            templ = m_p.parser().value(templateOption);
            if (templ.startsWith(QLatin1StringView("oci://")))
                templ = templateFromOciUrl(templ).valueOr(templ);
        }
        if (!commonSetup(m_p.parser(), m_p.prefix(), templ, &m_mirror, json()))
            return ExitUsage;
        return std::nullopt;
    }
    /// The positional argument (the oci:// text, or push's SOURCE).
    QString argument() const { return m_p.parser().positionalArguments().value(0); }
    OciMirrorOptions &mirror() { return m_mirror; }
    /// --provider values as addresses, appended to `into` (no duplicates); false after printing why.
    bool providers(QList<ProviderAddress> *into) const
    {
        for (const QString &text : m_p.parser().values(QStringLiteral("provider"))) {
            const Result<ProviderAddress> address = ProviderAddress::parse(text);
            if (!address.ok()) {
                usage(QStringLiteral("--provider %1: %2").arg(text, address.error().message));
                return false;
            }
            if (!into->contains(address.value()))
                into->append(address.value());
        }
        return true;
    }

private:
    Prologue m_p;
    OciMirrorOptions m_mirror;
};

QJsonArray requestsJson(const QList<OciRequestLog> &log)
{
    QJsonArray requests;
    for (const OciRequestLog &e : log) {
        QJsonObject o;
        o[QStringLiteral("method")] = e.method;
        o[QStringLiteral("url")] = e.url.toString();
        o[QStringLiteral("status")] = e.status;
        o[QStringLiteral("bytes")] = double(e.bytes);
        o[QStringLiteral("bytes_sent")] = double(e.bytesSent);
        o[QStringLiteral("ms")] = double(e.elapsedMs);
        o[QStringLiteral("authorization")] = e.authorization;
        insertIfNotEmpty(o, QStringLiteral("error"), e.error);
        if (e.expected)
            o[QStringLiteral("expected")] = true;
        requests.append(o);
    }
    return requests;
}

/// The verdict document of docs/VERDICT-JSON.md (schema 1, the one writer of every verify),
/// kind "oci"; what only an OCI mirror has sits in its "oci" member.
void writeVerifyJson(QTextStream &o, const QString &mirrorText, const OciVerifyReport &v, bool lockCoverage)
{
    QJsonObject oci;
    QJsonObject creds;
    for (auto it = v.credentials.begin(); it != v.credentials.end(); ++it)
        creds[it.key()] = it.value();
    insertIfNotEmpty(oci, QStringLiteral("credentials"), creds);
    oci[QStringLiteral("absent_providers")] = jsonStrings(v.absent);
    oci[QStringLiteral("requests")] = requestsJson(v.log);
    VerdictJson d;
    d.kind = Catalog::SourceKind::Network;
    d.kindName = QStringLiteral("oci");
    d.location = mirrorText;
    d.results = &v.report.results;
    d.anomalies = v.catalog.anomalies + verdictAnomalies(v.report.results);
    d.summary = v.report.summary;
    d.lockCoverage = lockCoverage;
    d.bytesDownloaded = v.counters.bytesDownloaded;
    d.extension = oci;
    writeVerdictJson(o, d);
}

QJsonObject verifyJsonObject(const QString &mirrorText, const OciVerifyReport &v)
{
    QString text;
    QTextStream stream(&text);
    writeVerifyJson(stream, mirrorText, v, false);
    stream.flush();
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

void printVerifyTable(QTextStream &o, const QString &mirrorText, const OciVerifyReport &v)
{
    o << "OCI mirror " << mirrorText << ": " << v.catalog.providers.size() << " providers, " << v.report.results.size() << " archives\n\n";
    QList<QStringList> rows{{QStringLiteral("PROVIDER"), QStringLiteral("VERSION"), QStringLiteral("PLATFORM"), QStringLiteral("VERDICT"),
                             QStringLiteral("ANCHOR"), QStringLiteral("DETAIL")}};
    for (const ArchiveResult &r : v.report.results) {
        QString detail = r.detail.reason;
        if (r.detail.verdict == Verdict::Verified) {
            detail = QStringLiteral("matched ") + matchedText(r.detail);
            if (r.hashes)
                detail += QStringLiteral(" (h1 ") + r.hashes->h1Extracted.toString() + QLatin1Char(')');
        }
        rows.append({r.key.provider.toString(), r.key.version.toString(), r.key.platform.toString(), toString(r.detail.verdict),
                     anchorText(r.detail), detail});
    }
    printColumns(o, rows);
    if (!v.catalog.anomalies.isEmpty()) {
        o << "\nAnomalies (" << v.catalog.anomalies.size() << "):\n";
        for (const Anomaly &a : v.catalog.anomalies)
            o << "  " << toString(a.kind) << ": " << a.path << ": " << a.message << '\n';
    }
    for (const ProviderAddress &p : v.absent)
        o << "\nNot in this mirror: " << p.toString() << " (its repository does not exist)\n";
    o << "\nSummary: " << summaryText(v.report.summary) << " (" << v.counters.bytesDownloaded << " bytes downloaded, "
      << v.counters.requests << " requests)\n";
}

bool verifyHasFindings(const OciVerifyReport &v)
{
    return v.report.summary.hasFindings() || !v.catalog.anomalies.isEmpty() || !v.absent.isEmpty();
}

} // namespace

int runOciVerify(const QStringList &args)
{
    OciPrologue p(QStringLiteral("verify"), helpText(QStringLiteral("verify-oci")));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("provider"), QStringLiteral("A provider address (repeatable)."), QStringLiteral("ADDR")});
    parser.addOption({QStringLiteral("lock"),
                      QStringLiteral("Take providers, versions and hashes from this reviewed lock file (repeatable); each "
                                     "archive is checked against it."),
                      QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("all"), QStringLiteral("Every provider the registry's _catalog lists under the template (see oci list).")});
    parser.addOption({QStringLiteral("hostname"), QStringLiteral("With --all: the provider hostname when the template has no ${hostname}."),
                      QStringLiteral("HOST")});
    parser.addOption({QStringLiteral("strict"), QStringLiteral("Also fail (exit 1) on archives no --lock file covers.")});
    parser.addOption({QStringLiteral("pinned-keys"),
                      QStringLiteral("Accept a release's signed provenance only when signed by an OpenPGP key in this file "
                                     "(ASCII armoured)."),
                      QStringLiteral("FILE")});
    p.mirrorArgument();
    if (const std::optional<int> exit = p.parse(args, QStringLiteral("one oci:// mirror")))
        return *exit;
    OciMirrorOptions &mirror = p.mirror();
    if (parser.isSet(QStringLiteral("pinned-keys"))) {
        const Result<QByteArray> keys = readPinnedKeysFile(parser.value(QStringLiteral("pinned-keys")));
        if (!keys.ok())
            return p.usage(keys.error().message);
        mirror.signature.pinnedKeys << *keys;
    }

    QList<ProviderAddress> providers;
    OciVerifyOptions options;
    if (!p.providers(&providers))
        return ExitUsage;
    if (parser.isSet(QStringLiteral("lock"))) {
        // Reviewed lock files (repeatable): their providers and versions are the ones verified, and
        // each archive is checked against them (docs/VERDICTS.md "Trust anchors").
        const std::optional<LockAnchors> locks = p.lockAnchors();
        if (!locks)
            return ExitUsage;
        const QHash<ProviderAddress, QList<Version>> versions = locks->lockedVersions(&providers);
        for (auto it = versions.cbegin(); it != versions.cend(); ++it)
            options.onlyVersions[it.key().toString()] += it.value();
        locks->applyTo(options);
    }
    if (parser.isSet(QStringLiteral("all"))) {
        TemplateDefaults defaults;
        defaults.hostname = parser.value(QStringLiteral("hostname"));
        const Result<OciCatalogListing> listed = listOciProviders(mirror, defaults);
        if (!listed.ok()) {
            err() << p.prefix() << ": " << listed.error().message << '\n';
            return ExitFindings;
        }
        for (const ProviderAddress &p : listed.value().providers)
            if (!providers.contains(p))
                providers.append(p);
        if (providers.isEmpty()) {
            err() << p.prefix() << ": the registry's catalog lists no repository of the template " << mirror.repositoryTemplate << '\n';
            return ExitFindings;
        }
    }
    if (providers.isEmpty()) {
        err() << p.prefix()
              << ": an OCI mirror is read per provider: name them with --provider ADDR or --lock FILE, or "
                 "list the registry with --all\n";
        return ExitUsage;
    }
    if (const Result<void> ok = checkRepositoryTemplate(mirror.repositoryTemplate, providers); !ok.ok()) {
        err() << p.prefix() << ": " << ok.error().message << '\n';
        return ExitUsage;
    }
    const OciVerifyReport report = verifyOciMirror(providers, mirror, options);
    if (p.json())
        writeVerifyJson(out(), p.argument(), report, options.lockCoverage);
    else
        printVerifyTable(out(), p.argument(), report);
    const bool uncovered = std::any_of(report.report.results.cbegin(), report.report.results.cend(),
                                       [](const ArchiveResult &r) { return r.detail.notCoveredByLock; });
    return verifyHasFindings(report) || (parser.isSet(QStringLiteral("strict")) && uncovered) ? ExitFindings : ExitOk;
}

int runOciList(const QStringList &args)
{
    OciPrologue p(QStringLiteral("oci list"), helpText(QStringLiteral("oci-list")));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("versions"), QStringLiteral("Also list each provider's versions (its tags).")});
    parser.addOption({QStringLiteral("hostname"), QStringLiteral("The provider hostname when the template has no ${hostname}."),
                      QStringLiteral("HOST")});
    parser.addOption({QStringLiteral("page-size"), QStringLiteral("Repositories per catalog request (n=; default: the registry's)."),
                      QStringLiteral("N")});
    p.mirrorArgument();
    if (const std::optional<int> exit = p.parse(args, QStringLiteral("one oci:// mirror")))
        return *exit;
    OciMirrorOptions &mirror = p.mirror();
    if (parser.isSet(QStringLiteral("page-size"))) {
        const std::optional<int> n = wholeNumberOption(parser, p.prefix(), QStringLiteral("page-size"), 1, "a positive number");
        if (!n)
            return ExitUsage;
        mirror.client.catalogPageSize = *n;
    }
    TemplateDefaults defaults;
    defaults.hostname = parser.value(QStringLiteral("hostname"));
    const Result<OciCatalogListing> listed = listOciProviders(mirror, defaults, parser.isSet(QStringLiteral("versions")));
    if (!listed.ok()) {
        if (p.json()) {
            QJsonObject root;
            root[QStringLiteral("mirror")] = p.argument();
            root[QStringLiteral("error")] = listed.error().message;
            out() << QJsonDocument(root).toJson(QJsonDocument::Indented);
        } else {
            err() << p.prefix() << ": " << listed.error().message << '\n';
        }
        return listed.error().code == ErrorCode::InvalidArgument ? ExitUsage : ExitFindings;
    }
    const OciCatalogListing &l = listed.value();
    if (p.json()) {
        QJsonObject root;
        root[QStringLiteral("mirror")] = p.argument();
        root[QStringLiteral("registry")] = l.registry;
        insertIfNotEmpty(root, QStringLiteral("credentials"), l.credential);
        QJsonArray repositories;
        for (const OciCatalogEntry &e : l.repositories) {
            QJsonObject o;
            o[QStringLiteral("repository")] = e.repository;
            o[QStringLiteral("provider")] = e.provider ? QJsonValue(e.provider->toString()) : QJsonValue();
            insertIfNotEmpty(o, QStringLiteral("note"), e.note);
            if (parser.isSet(QStringLiteral("versions")) && e.provider) {
                o[QStringLiteral("versions")] = jsonStrings(e.versions);
                insertIfNotEmpty(o, QStringLiteral("versions_error"), e.versionsError);
            }
            repositories.append(o);
        }
        root[QStringLiteral("repositories")] = repositories;
        root[QStringLiteral("providers")] = jsonStrings(l.providers);
        root[QStringLiteral("requests")] = requestsJson(l.log);
        out() << QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else {
        QTextStream &o = out();
        o << "OCI registry " << l.registry << ": " << l.repositories.size() << " repositories, " << l.providers.size()
          << " providers under " << mirror.repositoryTemplate << "\n\n";
        for (const OciCatalogEntry &e : l.repositories) {
            if (e.provider) {
                o << e.provider->toString() << "  " << l.registry << '/' << e.repository;
                if (parser.isSet(QStringLiteral("versions"))) {
                    QStringList versions;
                    for (const Version &v : e.versions)
                        versions.append(v.toString());
                    o << "  " << (e.versionsError.isEmpty() ? versions.join(QStringLiteral(", ")) : e.versionsError);
                }
                o << '\n';
            }
        }
        bool header = false;
        for (const OciCatalogEntry &e : l.repositories)
            if (!e.provider) {
                if (!header)
                    o << "\nOther repositories (no provider of this template):\n";
                header = true;
                o << "  " << e.repository << ": " << e.note << '\n';
            }
    }
    bool versionErrors = false;
    for (const OciCatalogEntry &e : l.repositories)
        versionErrors = versionErrors || !e.versionsError.isEmpty();
    return versionErrors ? ExitFindings : ExitOk;
}

namespace {

/// push's SOURCE as a directory mirror: itself, or a bundle imported (verified) into `staging`.
/// Prints why and returns nullopt when it is neither or does not import.
std::optional<QString> pushSourceDirectory(const QString &command, const QString &source, const QTemporaryDir &staging)
{
    if (QFileInfo(source).isDir())
        return source;
    if (!QFileInfo(source).isFile()) {
        err() << command << ": " << source << ": no such directory or bundle\n";
        return std::nullopt;
    }
    if (!staging.isValid()) {
        err() << command << ": cannot create a temporary directory\n";
        return std::nullopt;
    }
    const Result<ImportReport> imported = importBundle(source, staging.path(), ImportOptions{});
    if (!imported.ok()) {
        err() << command << ": " << source << ": " << imported.error().toString() << '\n';
        return std::nullopt;
    }
    return staging.path();
}

QJsonObject pushedVersionJson(const OciPushedVersion &v)
{
    QJsonObject o;
    o[QStringLiteral("provider")] = v.provider.toString();
    o[QStringLiteral("version")] = v.version.toString();
    o[QStringLiteral("repository")] = v.repository;
    o[QStringLiteral("tag")] = v.tag;
    o[QStringLiteral("index_digest")] = v.indexDigest;
    o[QStringLiteral("platforms")] = jsonStrings(v.platforms);
    o[QStringLiteral("tag_written")] = v.tagWritten;
    o[QStringLiteral("skipped")] = QJsonArray::fromStringList(v.skipped);
    if (!v.provenanceDigest.isEmpty())
        o[QStringLiteral("provenance")] =
            QJsonObject{{QStringLiteral("artifact"), v.provenanceDigest}, {QStringLiteral("referrers"), v.provenanceReferrers}};
    insertIfNotEmpty(o, QStringLiteral("error"), v.error);
    return o;
}

QJsonObject pushSummaryJson(const OciPushReport &report)
{
    QJsonObject summary;
    summary[QStringLiteral("blobs_uploaded")] = report.blobsUploaded;
    summary[QStringLiteral("blobs_present")] = report.blobsPresent;
    summary[QStringLiteral("blobs_mounted")] = report.blobsMounted;
    summary[QStringLiteral("mount_posts")] = report.counters.blobMounts;
    summary[QStringLiteral("manifests_written")] = report.manifestsWritten;
    summary[QStringLiteral("manifests_present")] = report.manifestsPresent;
    summary[QStringLiteral("tags_written")] = report.tagsWritten;
    summary[QStringLiteral("tags_unchanged")] = report.tagsUnchanged;
    summary[QStringLiteral("provenance_written")] = report.provenanceWritten;
    summary[QStringLiteral("bytes_uploaded")] = double(report.bytesUploaded);
    summary[QStringLiteral("requests")] = report.counters.requests;
    summary[QStringLiteral("blob_heads")] = report.counters.blobHeads;
    summary[QStringLiteral("upload_posts")] = report.counters.blobUploads;
    summary[QStringLiteral("upload_patches")] = report.counters.blobChunks;
    summary[QStringLiteral("manifest_puts")] = report.counters.manifestPuts;
    return summary;
}

void writePushJson(QTextStream &o, const QString &source, const QString &templ, bool dryRun, const OciPushReport &report,
                   const QString &block)
{
    QJsonObject root;
    root[QStringLiteral("source")] = source;
    root[QStringLiteral("repository_template")] = templ;
    root[QStringLiteral("dry_run")] = dryRun;
    QJsonArray versions;
    for (const OciPushedVersion &v : report.versions)
        versions.append(pushedVersionJson(v));
    root[QStringLiteral("versions")] = versions;
    root[QStringLiteral("summary")] = pushSummaryJson(report);
    root[QStringLiteral("requests")] = requestsJson(report.log);
    if (report.verification)
        root[QStringLiteral("verification")] = verifyJsonObject(QStringLiteral("oci://") + templ, *report.verification);
    root[QStringLiteral("oci_mirror_block")] = block;
    o << QJsonDocument(root).toJson(QJsonDocument::Indented);
}

void printPushReport(QTextStream &o, const QString &templ, bool dryRun, const OciPushReport &report, const QString &block)
{
    for (const OciPushedVersion &v : report.versions) {
        o << v.provider.toString() << ' ' << v.version.toString() << " -> " << v.repository << ':' << v.tag;
        if (!v.error.isEmpty())
            o << "  FAILED: " << v.error;
        else
            o << "  " << v.platforms.size() << " platforms, " << (dryRun ? "dry run" : v.tagWritten ? "tagged" : "unchanged");
        o << '\n';
        for (const QString &s : v.skipped)
            o << "  skipped " << s << '\n';
        if (!v.provenanceDigest.isEmpty())
            o << "  signed provenance " << v.provenanceDigest << " (referrers: " << v.provenanceReferrers << ")\n";
    }
    o << "\n"
      << (dryRun ? "Would upload " : "Uploaded ") << report.blobsUploaded << " blobs (" << report.bytesUploaded << " bytes); "
      << report.blobsPresent << " already present; " << report.blobsMounted << " mounted; " << report.manifestsWritten
      << " manifests written, " << report.manifestsPresent << " present; " << report.tagsWritten << " tags written, "
      << report.tagsUnchanged << " unchanged\n";
    if (report.verification) {
        o << "\nRead back:\n";
        printVerifyTable(o, QStringLiteral("oci://") + templ, *report.verification);
    }
    o << "\nAdd this to the tofu CLI configuration (only OpenTofu 1.10+ reads oci_mirror; terraform does "
         "not):\n\n"
      << block;
}

} // namespace

int runOciPush(const QStringList &args)
{
    OciPrologue p(QStringLiteral("oci push"), helpText(QStringLiteral("oci-push")));
    QCommandLineParser &parser = p.parser();
    parser.addOption(
        {QStringLiteral("repository-template"), QStringLiteral("e.g. HOST/PATH/${namespace}/${type} (or oci://…)."), QStringLiteral("T")});
    parser.addOption({QStringLiteral("provider"), QStringLiteral("Only this provider (repeatable)."), QStringLiteral("ADDR")});
    parser.addOption({QStringLiteral("dry-run"), QStringLiteral("Only look (HEAD requests): say what would be uploaded and tagged.")});
    parser.addOption({QStringLiteral("no-verify"), QStringLiteral("Do not read the pushed versions back.")});
    parser.addOption({QStringLiteral("chunk-size"),
                      QStringLiteral("Upload blobs above N MiB in PATCH chunks of N MiB (default 64; 0 = one PUT)."), QStringLiteral("N")});
    p.parser().addPositionalArgument(QStringLiteral("source"), QStringLiteral("A mirror directory or a bundle file."),
                                     QStringLiteral("SOURCE"));
    if (const std::optional<int> exit = p.parse(args, QStringLiteral("one SOURCE"), QStringLiteral("repository-template")))
        return *exit;
    const QString command = p.prefix();
    OciMirrorOptions &mirror = p.mirror();
    const QString &templ = mirror.repositoryTemplate;
    if (parser.isSet(QStringLiteral("chunk-size"))) {
        const std::optional<qint64> mib = wholeNumberOption<qint64>(parser, command, QStringLiteral("chunk-size"), 0, "a number of MiB");
        if (!mib)
            return ExitUsage;
        mirror.client.chunkSize = *mib << 20;
    }
    OciPushOptions options;
    options.dryRun = parser.isSet(QStringLiteral("dry-run"));
    options.verifyAfter = !parser.isSet(QStringLiteral("no-verify"));
    if (!p.providers(&options.only))
        return ExitUsage;
    if (!p.json())
        options.progress = [](const QString &line) { err() << line << '\n' << Qt::flush; };

    const QString source = p.argument();
    const QTemporaryDir staging;
    const std::optional<QString> dir = pushSourceDirectory(command, source, staging);
    if (!dir)
        return ExitUsage;
    const Result<Catalog> scanned = scanFileSystemMirror(*dir);
    if (!scanned.ok()) {
        err() << command << ": cannot read the mirror " << source << ": " << scanned.error().toString() << '\n';
        return ExitUsage;
    }
    QList<ProviderAddress> candidates;
    for (const Provider &p : scanned.value().providers)
        if (options.only.isEmpty() || options.only.contains(p.address))
            candidates.append(p.address);
    if (const Result<void> ok = checkRepositoryTemplate(templ, candidates); !ok.ok()) {
        err() << command << ": " << ok.error().message << '\n';
        return ExitUsage;
    }
    const OciPushReport report = pushToOci(scanned.value(), mirror, options);
    QList<ProviderAddress> published;
    for (const OciPushedVersion &v : report.versions)
        if (v.error.isEmpty() && !published.contains(v.provider))
            published.append(v.provider);
    const QString block = ociMirrorConfigBlock(templ, published);
    if (p.json())
        writePushJson(out(), source, templ, options.dryRun, report, block);
    else
        printPushReport(out(), templ, options.dryRun, report, block);
    return report.hasErrors() ? ExitFindings : ExitOk;
}

} // namespace provender::cli
