// provender verify https://MIRROR/ (--provider ADDR... | --lock FILE) [--json] [--ca-file PEM]
// [--allow-http-loopback] [--strict] [--deadline S] [--min-rate B] [--max-archive-size N] ...: fetch a network mirror's indexes as tofu
// does (tofu-formats.md §6), download every archive once (streamed to a cache or temporary directory, hashed in the same pass) and print a
// verdict per archive. `provender verify` hands over here when its argument is an http(s) URL.

#include "model/network/RemoteVerify.h"
#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/Prologue.h"
#include "app/cli/VerdictJson.h"
#include "model/lockfile/LockAnchors.h"
#include "model/lockfile/LockFile.h"
#include "model/network/Credentials.h"
#include "model/network/NetworkMirror.h"
#include "model/network/NetworkSource.h"
#include "model/network/TrustStore.h"
#include "model/verify/VerifyEngine.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>

#include <algorithm>

#include <unistd.h>

namespace provender::cli {

namespace {

/// Anomalies that are warnings: they fail the run only with --strict.
bool warningOnly(AnomalyKind kind)
{
    return kind == AnomalyKind::InsecureUrl;
}

void addRemoteOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("provider"), QStringLiteral("A provider address (repeatable)."), QStringLiteral("ADDR")});
    parser.addOption({QStringLiteral("lock"),
                      QStringLiteral("Take providers, versions and hashes from this reviewed lock file (repeatable)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")});
    parser.addOption(
        {QStringLiteral("ca-file"), QStringLiteral("Also trust the CA certificates in this PEM file."), QStringLiteral("PEM")});
    parser.addOption({QStringLiteral("allow-http-loopback"), QStringLiteral("Allow http:// for 127.0.0.1, ::1 and localhost.")});
    parser.addOption({QStringLiteral("jobs"), QStringLiteral("Parallel requests (default 4)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("timeout"),
                      QStringLiteral("Seconds without data before a request fails (default: TF_REGISTRY_CLIENT_TIMEOUT or 10)."),
                      QStringLiteral("S")});
    parser.addOption({QStringLiteral("retries"), QStringLiteral("Retries per archive download (default: TF_PROVIDER_DOWNLOAD_RETRY or 2)."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("cache-dir"), QStringLiteral("Keep the downloaded archives in DIR (default: a temporary directory)."),
                      QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("no-credentials"), QStringLiteral("Do not look up or send a token.")});
    parser.addOption({QStringLiteral("strict"),
                      QStringLiteral("Also fail (exit 1) on warnings, e.g. an archive URL that is plain http:, "
                                     "on verdict anomalies (a declared hash that matches no package) and on "
                                     "archives no --lock file covers.")});
    parser.addOption({QStringLiteral("deadline"),
                      QStringLiteral("Seconds one request may take in all, redirects included (default 3600; 0 = none)."),
                      QStringLiteral("S")});
    parser.addOption(
        {QStringLiteral("min-rate"),
         QStringLiteral(
             "Bytes per second a response must bring, measured over each --timeout window once its headers are in (default 1024; 0 = no check)."),
         QStringLiteral("BYTES")});
    parser.addOption({QStringLiteral("max-archive-size"), QStringLiteral("Largest archive downloaded (default 2G; suffix K, M, G)."),
                      QStringLiteral("SIZE")});
    parser.addOption({QStringLiteral("max-index-size"), QStringLiteral("Largest index.json / <version>.json read (default 16M)."),
                      QStringLiteral("SIZE")});
    parser.addOption({QStringLiteral("max-error-body"), QStringLiteral("Largest body of an error or redirect response read (default 64K)."),
                      QStringLiteral("SIZE")});
}

/// The HTTP limits, CAs and retries of --jobs, --timeout, --retries, --deadline, the size options and
/// --ca-file (and their environment variables); false after printing a usage error.
bool readHttpOptions(const Prologue &p, HttpSettings *http, NetworkMirrorOptions *mirrorOptions, RemoteVerifyOptions *verifyOptions)
{
    http->allowHttpLoopback = p.parser().isSet(QStringLiteral("allow-http-loopback"));
    int timeout = 10;
    bool envOk = false;
    const int envTimeout = qEnvironmentVariableIntValue("TF_REGISTRY_CLIENT_TIMEOUT", &envOk);
    if (envOk && envTimeout > 0)
        timeout = envTimeout;
    const int envRetries = qEnvironmentVariableIntValue("TF_PROVIDER_DOWNLOAD_RETRY", &envOk);
    if (envOk && envRetries > 0)
        verifyOptions->retries = envRetries;
    if (!p.intOption(QStringLiteral("jobs"), &http->maxParallel) || !p.intOption(QStringLiteral("timeout"), &timeout)
        || !p.intOption(QStringLiteral("retries"), &verifyOptions->retries))
        return false;
    http->maxParallel = std::max(1, http->maxParallel);
    http->timeoutMs = std::max(1, timeout) * 1000;
    int deadline = int(http->deadlineMs / 1000);
    if (!p.intOption(QStringLiteral("deadline"), &deadline) || !p.sizeOption(QStringLiteral("min-rate"), &http->minBytesPerSecond)
        || !p.sizeOption(QStringLiteral("max-archive-size"), &verifyOptions->maxArchiveBytes)
        || !p.sizeOption(QStringLiteral("max-index-size"), &mirrorOptions->maxJsonBytes)
        || !p.sizeOption(QStringLiteral("max-error-body"), &http->maxErrorBodyBytes))
        return false;
    http->deadlineMs = qint64(deadline) * 1000;
    if (p.parser().isSet(QStringLiteral("ca-file"))) {
        const Result<QList<QSslCertificate>> certs = readCaFile(p.parser().value(QStringLiteral("ca-file")));
        if (!certs.ok()) {
            p.usage(certs.error().message);
            return false;
        }
        http->caCertificates = *certs;
    }
    return true;
}

/// The token for the mirror's host, found as tofu finds it (with what was found said on stderr).
std::optional<Credential> lookUpCredential(const QUrl &base, bool json)
{
    const QString host = mirrorCredentialsHost(base);
    QStringList credentialWarnings;
    const std::optional<Credential> credential =
        findCredential(host, QProcessEnvironment::systemEnvironment(), QString(), &credentialWarnings);
    for (const QString &w : std::as_const(credentialWarnings))
        err() << "provender verify: warning: " << w << '\n';
    if (credential && !json)
        err() << "Credentials for " << host << ": token " << credential->maskedToken() << " from " << credential->source << '\n';
    if (credential && base.scheme() != QLatin1StringView("https"))
        err() << "provender verify: warning: " << credentialNotSentOverHttp(host) << '\n';
    return credential;
}

/// The JSON's network member: the credential used (never the token), absent providers, every request.
QJsonObject networkJson(const NetworkSource &source, const std::optional<Credential> &credential, const QUrl &base)
{
    QJsonObject network;
    if (credential) {
        QJsonObject c;
        c[QStringLiteral("host")] = credential->host;
        c[QStringLiteral("source")] = credential->source;
        c[QStringLiteral("sent")] = base.scheme() == QLatin1StringView("https"); // index requests only
        network[QStringLiteral("credentials")] = c;
    }
    QJsonArray requests;
    for (const RequestLogEntry &e : source.requestLog()) {
        QJsonObject o;
        o[QStringLiteral("method")] = e.method;
        o[QStringLiteral("url")] = e.url.adjusted(QUrl::RemoveUserInfo).toString();
        o[QStringLiteral("status")] = e.status;
        o[QStringLiteral("bytes")] = double(e.bytes);
        o[QStringLiteral("ms")] = double(e.elapsedMs);
        o[QStringLiteral("authorization")] = e.authorization;
        insertIfNotEmpty(o, QStringLiteral("error"), e.error);
        requests.append(o);
    }
    network[QStringLiteral("absent_providers")] = jsonStrings(source.absentProviders());
    network[QStringLiteral("requests")] = requests;
    return network;
}

void printRemoteTable(QTextStream &o, const QString &baseText, const Catalog &catalog, const VerifyReport &report,
                      const QList<Anomaly> &allAnomalies, qint64 bytesDownloaded)
{
    const VerifySummary &s = report.summary;
    o << "Mirror " << baseText << ": " << catalog.providers.size() << " providers, " << report.results.size() << " archives\n\n";
    QList<QStringList> rows{{QStringLiteral("PROVIDER"), QStringLiteral("VERSION"), QStringLiteral("PLATFORM"), QStringLiteral("VERDICT"),
                             QStringLiteral("ANCHOR"), QStringLiteral("DETAIL")}};
    for (const ArchiveResult &r : report.results) {
        QString detail = r.detail.reason;
        if (r.detail.verdict == Verdict::Verified) {
            detail = QStringLiteral("matched ") + matchedText(r.detail);
        }
        rows.append({r.key.provider.toString(), r.key.version.toString(), r.key.platform.toString(), toString(r.detail.verdict),
                     anchorText(r.detail), detail});
    }
    printColumns(o, rows);
    if (!allAnomalies.isEmpty()) {
        o << "\nAnomalies (" << allAnomalies.size() << "):\n";
        for (const Anomaly &a : allAnomalies)
            o << "  " << toString(a.kind) << ": " << (a.location.isValid() ? a.location.toString() : a.path) << ": " << a.message << '\n';
    }
    o << "\nSummary: " << summaryText(s) << " (" << bytesDownloaded << " bytes downloaded)\n";
}

} // namespace

int runRemoteVerify(const QStringList &args)
{
    Prologue p(QStringLiteral("verify"), helpText(QStringLiteral("verify-url")));
    QCommandLineParser &parser = p.parser();
    addRemoteOptions(parser);
    p.positional(QStringLiteral("url"), QStringLiteral("The mirror base URL (ends with '/')."), QStringLiteral("URL"));
    if (const std::optional<int> exit = p.parse(args, 1, 1, QStringLiteral("one mirror URL")))
        return *exit;
    const QString baseText = parser.positionalArguments().constFirst();
    const bool json = parser.isSet(QStringLiteral("json"));

    NetworkMirrorOptions mirrorOptions;
    RemoteVerifyOptions verifyOptions;
    HttpSettings http;
    if (!readHttpOptions(p, &http, &mirrorOptions, &verifyOptions))
        return ExitUsage;

    QString warning;
    const Result<QUrl> base = parseMirrorBaseUrl(baseText, http.allowHttpLoopback, &warning);
    if (!base.ok())
        return p.usage(base.error().message);
    if (!warning.isEmpty())
        err() << "provender verify: warning: " << warning << '\n';

    // Providers: typed addresses and/or a lock file.
    QList<ProviderAddress> providers;
    for (const QString &text : parser.values(QStringLiteral("provider"))) {
        const Result<ProviderAddress> address = ProviderAddress::parse(text);
        if (!address.ok())
            return p.usage(QStringLiteral("--provider ") + text + QStringLiteral(": ") + address.error().message);
        providers.append(address.value());
    }
    if (parser.isSet(QStringLiteral("lock"))) {
        // Reviewed lock files (repeatable): their providers and versions are the ones verified,
        // and each archive is checked against them (docs/VERDICTS.md "Trust anchors").
        const std::optional<LockAnchors> locks = p.lockAnchors();
        if (!locks)
            return ExitUsage;
        mirrorOptions.onlyVersions = locks->lockedVersions(&providers);
        locks->applyTo(verifyOptions);
    }
    if (providers.isEmpty())
        return p.usage(QStringLiteral("a network mirror cannot list its providers: name them with --provider ADDR or --lock FILE"));

    if (!parser.isSet(QStringLiteral("no-credentials")))
        mirrorOptions.credential = lookUpCredential(base.value(), json);
    mirrorOptions.http = http;
    verifyOptions.http = http;
    verifyOptions.cacheDir = parser.value(QStringLiteral("cache-dir"));

    VerifyOptions lockOptions;
    lockOptions.expected = verifyOptions.expected;
    lockOptions.expectedFrom = verifyOptions.expectedFrom;
    lockOptions.lockCoverage = verifyOptions.lockCoverage;
    lockOptions.jobs = http.maxParallel;
    NetworkSource source(baseText, providers, mirrorOptions, verifyOptions);
    const Result<Catalog> listed = source.list();
    if (!listed.ok())
        return p.usage(listed.error().message);
    const Catalog &catalog = listed.value();

    const bool showProgress = !json && ::isatty(STDERR_FILENO);
    RemoteProgress progress;
    if (showProgress)
        progress = [](qint64 done, qint64 total) {
            static qint64 last = -1;
            if (done - last < (1 << 20) && done != total)
                return;
            last = done;
            err() << "\rdownloaded " << done / (1024 * 1024) << " MiB"
                  << (total > 0 ? QStringLiteral(" of %1 MiB").arg(total / (1024 * 1024)) : QString()) << "   ";
            err().flush();
        };
    const VerifyReport report = verifySource(source, catalog, lockOptions, progress);
    if (showProgress)
        err() << '\r' << QString(40, QLatin1Char(' ')) << '\r';
    const VerifySummary &s = report.summary;
    const QList<Anomaly> allAnomalies = catalog.anomalies + verdictAnomalies(report.results);

    if (json) {
        VerdictJson doc;
        doc.kind = Catalog::SourceKind::Network;
        doc.location = baseText;
        doc.results = &report.results;
        doc.anomalies = allAnomalies;
        doc.summary = s;
        doc.lockCoverage = lockOptions.lockCoverage;
        doc.bytesDownloaded = source.bytesDownloaded();
        doc.extension = networkJson(source, mirrorOptions.credential, base.value());
        writeVerdictJson(out(), doc);
    } else {
        printRemoteTable(out(), baseText, catalog, report, allAnomalies, source.bytesDownloaded());
    }
    const bool strict = parser.isSet(QStringLiteral("strict"));
    const bool requestFailures = !source.absentProviders().isEmpty()
        || std::any_of(catalog.anomalies.cbegin(), catalog.anomalies.cend(),
                       [strict](const Anomaly &a) { return strict || !warningOnly(a.kind); });
    const bool uncovered =
        std::any_of(report.results.cbegin(), report.results.cend(), [](const ArchiveResult &r) { return r.detail.notCoveredByLock; });
    return s.hasFindings() || requestFailures || (strict && (!allAnomalies.isEmpty() || uncovered)) ? ExitFindings : ExitOk;
}

} // namespace provender::cli
