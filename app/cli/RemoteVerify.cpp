// provender verify https://MIRROR/ (--provider ADDR... | --lock FILE) [--json] [--ca-file PEM]
// [--allow-http-loopback] [--strict] [--deadline S] [--min-rate B] [--max-archive-size N] ...: fetch a network mirror's indexes as tofu does (tofu-formats.md §6),
// download every archive once (streamed to a cache or temporary directory, hashed in the same
// pass) and print a verdict per archive. `provender verify` hands over here when its argument is
// an http(s) URL.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "model/lockfile/LockAnchors.h"
#include "model/lockfile/LockFile.h"
#include "model/network/Credentials.h"
#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslCertificate>

#include <algorithm>
#include <limits>

#include <unistd.h>

namespace provender::cli {

namespace {

QJsonObject archiveJson(const ArchiveResult &r)
{
    QJsonObject o;
    o[QStringLiteral("provider")] = r.key.provider.toString();
    o[QStringLiteral("version")] = r.key.version.toString();
    o[QStringLiteral("platform")] = r.key.platform.toString();
    o[QStringLiteral("url")] = r.path;
    o[QStringLiteral("size")] = double(r.size);
    o[QStringLiteral("verdict")] = toString(r.detail.verdict);
    o[QStringLiteral("reason")] = r.detail.reason;
    o[QStringLiteral("anchor")] = describeAnchors(r.detail);
    QJsonArray anchors;
    for (const TrustAnchor &a : r.detail.anchors)
        anchors.append(QJsonObject{{QStringLiteral("kind"), toString(a.kind)},
                                   {QStringLiteral("document"), a.document},
                                   {QStringLiteral("text"), describe(a)},
                                   {QStringLiteral("self_consistency_only"), a.isSelfConsistencyOnly()}});
    o[QStringLiteral("anchors")] = anchors;
    if (r.detail.notCoveredByLock)
        o[QStringLiteral("not_covered_by_lock")] = true;
    QJsonArray matched, contradicting, declared;
    for (HashMatch m : r.detail.matched)
        matched.append(toString(m));
    for (const HashString &h : r.detail.contradicting)
        contradicting.append(h.toString());
    for (const HashString &h : r.declared)
        declared.append(h.toString());
    o[QStringLiteral("matched")] = matched;
    o[QStringLiteral("contradicting")] = contradicting;
    o[QStringLiteral("declared")] = declared;
    if (r.hashes) {
        o[QStringLiteral("h1")] = r.hashes->h1Extracted.toString();
        o[QStringLiteral("h1_zip")] = r.hashes->h1Zip.toString();
        o[QStringLiteral("zh")] = r.hashes->zh.toString();
    }
    if (!r.error.isEmpty())
        o[QStringLiteral("error")] = r.error;
    return o;
}

QJsonObject anomalyJson(const Anomaly &a)
{
    QJsonObject o;
    o[QStringLiteral("kind")] = toString(a.kind);
    o[QStringLiteral("url")] = a.path;
    o[QStringLiteral("message")] = a.message;
    if (a.location.isValid()) {
        o[QStringLiteral("line")] = a.location.line;
        o[QStringLiteral("column")] = a.location.column;
    }
    return o;
}

bool positiveInt(const QCommandLineParser &parser, const QString &name, int *value)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const int v = parser.value(name).toInt(&ok);
    if (!ok || v < 0) {
        err() << "provender verify: --" << name << " needs a non-negative number, not '" << parser.value(name) << "'\n";
        return false;
    }
    *value = v;
    return true;
}

/// `--NAME SIZE`: bytes, or with a binary suffix K/KiB, M/MiB, G/GiB (1K = 1024).
bool sizeOption(const QCommandLineParser &parser, const QString &name, qint64 *value)
{
    if (!parser.isSet(name))
        return true;
    QString text = parser.value(name).trimmed();
    qint64 unit = 1;
    static const std::pair<const char *, qint64> suffixes[] = {{"KiB", 1024}, {"MiB", 1024 * 1024}, {"GiB", 1024 * 1024 * 1024},
                                                               {"K", 1024}, {"M", 1024 * 1024}, {"G", 1024 * 1024 * 1024}};
    for (const auto &[suffix, factor] : suffixes)
        if (text.endsWith(QLatin1StringView(suffix), Qt::CaseInsensitive)) {
            text.chop(qsizetype(qstrlen(suffix)));
            unit = factor;
            break;
        }
    bool ok = false;
    const qint64 v = text.trimmed().toLongLong(&ok);
    if (!ok || v < 0 || v > std::numeric_limits<qint64>::max() / unit) {
        err() << "provender verify: --" << name << " needs a size in bytes (suffix K, M or G allowed), not '"
              << parser.value(name) << "'\n";
        return false;
    }
    *value = v * unit;
    return true;
}

/// Anomalies that are warnings: they fail the run only with --strict.
bool warningOnly(AnomalyKind kind)
{
    return kind == AnomalyKind::InsecureUrl;
}

} // namespace

int runRemoteVerify(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Verify a network mirror (the URL of a network_mirror block). The protocol cannot list providers: name them "
        "with --provider or take them (and their pinned versions and hashes) from a lock file with --lock.\n"
        "Credentials for the mirror host are found as tofu finds them (TF_TOKEN_<host>, credentials blocks in the CLI "
        "config, credentials.tfrc.json) and sent only with index requests, never with archive downloads.\n"
        "A mirror URL with a user name or password in it is refused: give the token in the CLI config instead.\n"
        "Trusted CAs: the system store as tofu finds it (SSL_CERT_FILE, SSL_CERT_DIR, see docs/NETWORK.md) plus --ca-file.\n"
        "Exit status: 0 all good, 1 any mismatch, missing, error, failed index request or refused URL (with --strict also "
        "any warning, such as an archive URL that is plain http:), 2 bad usage."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("provider"), QStringLiteral("A provider address (repeatable)."), QStringLiteral("ADDR")});
    parser.addOption({QStringLiteral("lock"), QStringLiteral("Take providers, versions and hashes from this reviewed lock file (repeatable)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")});
    parser.addOption({QStringLiteral("ca-file"), QStringLiteral("Also trust the CA certificates in this PEM file."), QStringLiteral("PEM")});
    parser.addOption({QStringLiteral("allow-http-loopback"), QStringLiteral("Allow http:// for 127.0.0.1, ::1 and localhost.")});
    parser.addOption({QStringLiteral("jobs"), QStringLiteral("Parallel requests (default 4)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("timeout"), QStringLiteral("Seconds without data before a request fails (default: TF_REGISTRY_CLIENT_TIMEOUT or 10)."), QStringLiteral("S")});
    parser.addOption({QStringLiteral("retries"), QStringLiteral("Retries per archive download (default: TF_PROVIDER_DOWNLOAD_RETRY or 2)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("cache-dir"), QStringLiteral("Keep the downloaded archives in DIR (default: a temporary directory)."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("no-credentials"), QStringLiteral("Do not look up or send a token.")});
    parser.addOption({QStringLiteral("strict"), QStringLiteral("Also fail (exit 1) on warnings, e.g. an archive URL that is plain http:, "
                                                               "on verdict anomalies (a declared hash that matches no package) and on "
                                                               "archives no --lock file covers.")});
    parser.addOption({QStringLiteral("deadline"), QStringLiteral("Seconds one request may take in all, redirects included (default 3600; 0 = none)."), QStringLiteral("S")});
    parser.addOption({QStringLiteral("min-rate"), QStringLiteral("Bytes per second a response must bring, measured over each --timeout window once its headers are in (default 1024; 0 = no check)."), QStringLiteral("BYTES")});
    parser.addOption({QStringLiteral("max-archive-size"), QStringLiteral("Largest archive downloaded (default 2G; suffix K, M, G)."), QStringLiteral("SIZE")});
    parser.addOption({QStringLiteral("max-index-size"), QStringLiteral("Largest index.json / <version>.json read (default 16M)."), QStringLiteral("SIZE")});
    parser.addOption({QStringLiteral("max-error-body"), QStringLiteral("Largest body of an error or redirect response read (default 64K)."), QStringLiteral("SIZE")});
    parser.addPositionalArgument(QStringLiteral("url"), QStringLiteral("The mirror base URL (ends with '/')."), QStringLiteral("URL"));
    if (!parser.parse(args)) {
        err() << "provender verify: " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return ExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        err() << "provender verify: give exactly one mirror URL (see --help)\n";
        return ExitUsage;
    }
    const QString baseText = positional.constFirst();
    const bool json = parser.isSet(QStringLiteral("json"));

    NetworkMirrorOptions mirrorOptions;
    RemoteVerifyOptions verifyOptions;
    HttpSettings http;
    http.allowHttpLoopback = parser.isSet(QStringLiteral("allow-http-loopback"));
    int timeout = 10;
    bool envOk = false;
    const int envTimeout = qEnvironmentVariableIntValue("TF_REGISTRY_CLIENT_TIMEOUT", &envOk);
    if (envOk && envTimeout > 0)
        timeout = envTimeout;
    const int envRetries = qEnvironmentVariableIntValue("TF_PROVIDER_DOWNLOAD_RETRY", &envOk);
    if (envOk && envRetries > 0)
        verifyOptions.retries = envRetries;
    if (!positiveInt(parser, QStringLiteral("jobs"), &http.maxParallel) || !positiveInt(parser, QStringLiteral("timeout"), &timeout)
        || !positiveInt(parser, QStringLiteral("retries"), &verifyOptions.retries))
        return ExitUsage;
    http.maxParallel = std::max(1, http.maxParallel);
    http.timeoutMs = std::max(1, timeout) * 1000;
    int deadline = int(http.deadlineMs / 1000);
    if (!positiveInt(parser, QStringLiteral("deadline"), &deadline)
        || !sizeOption(parser, QStringLiteral("min-rate"), &http.minBytesPerSecond)
        || !sizeOption(parser, QStringLiteral("max-archive-size"), &verifyOptions.maxArchiveBytes)
        || !sizeOption(parser, QStringLiteral("max-index-size"), &mirrorOptions.maxJsonBytes)
        || !sizeOption(parser, QStringLiteral("max-error-body"), &http.maxErrorBodyBytes))
        return ExitUsage;
    http.deadlineMs = qint64(deadline) * 1000;
    if (parser.isSet(QStringLiteral("ca-file"))) {
        const QString pem = parser.value(QStringLiteral("ca-file"));
        const QList<QSslCertificate> certs = QSslCertificate::fromPath(pem, QSsl::Pem);
        if (certs.isEmpty()) {
            err() << "provender verify: " << pem << ": no PEM certificate could be read\n";
            return ExitUsage;
        }
        http.caCertificates = certs;
    }

    QString warning;
    const Result<QUrl> base = parseMirrorBaseUrl(baseText, http.allowHttpLoopback, &warning);
    if (!base.ok()) {
        err() << "provender verify: " << base.error().message << '\n';
        return ExitUsage;
    }
    if (!warning.isEmpty())
        err() << "provender verify: warning: " << warning << '\n';

    // Providers: typed addresses and/or a lock file.
    QList<ProviderAddress> providers;
    for (const QString &text : parser.values(QStringLiteral("provider"))) {
        const Result<ProviderAddress> address = ProviderAddress::parse(text);
        if (!address.ok()) {
            err() << "provender verify: --provider " << text << ": " << address.error().message << '\n';
            return ExitUsage;
        }
        providers.append(address.value());
    }
    if (parser.isSet(QStringLiteral("lock"))) {
        // Reviewed lock files (repeatable): their providers and versions are the ones verified,
        // and each archive is checked against them (docs/VERDICTS.md "Trust anchors").
        const Result<LockAnchors> locks = readLockAnchors(parser.values(QStringLiteral("lock")));
        if (!locks.ok()) {
            err() << "provender verify: " << locks.error().toString() << '\n';
            return ExitUsage;
        }
        for (const QString &w : locks.value().warnings)
            err() << w << '\n';
        for (auto it = locks.value().expected.cbegin(); it != locks.value().expected.cend(); ++it) {
            if (!providers.contains(it.key().provider))
                providers.append(it.key().provider);
            mirrorOptions.onlyVersions[it.key().provider].append(it.key().version);
        }
        verifyOptions.expected = locks.value().expected;
        verifyOptions.expectedFrom = locks.value().from;
        verifyOptions.lockCoverage = true;
    }
    if (providers.isEmpty()) {
        err() << "provender verify: a network mirror cannot list its providers: name them with --provider ADDR or --lock FILE\n";
        return ExitUsage;
    }

    const QString host = mirrorCredentialsHost(base.value());
    if (!parser.isSet(QStringLiteral("no-credentials"))) {
        QStringList credentialWarnings;
        mirrorOptions.credential = findCredential(host, QProcessEnvironment::systemEnvironment(), QString(), &credentialWarnings);
        for (const QString &w : std::as_const(credentialWarnings))
            err() << "provender verify: warning: " << w << '\n';
        if (mirrorOptions.credential && !json)
            err() << "Credentials for " << host << ": token " << mirrorOptions.credential->maskedToken() << " from "
                  << mirrorOptions.credential->source << '\n';
        if (mirrorOptions.credential && base.value().scheme() != QLatin1StringView("https"))
            err() << "provender verify: warning: " << credentialNotSentOverHttp(host) << '\n';
    }
    mirrorOptions.http = http;
    verifyOptions.http = http;
    verifyOptions.cacheDir = parser.value(QStringLiteral("cache-dir"));

    const Result<NetworkCatalog> fetched = fetchNetworkCatalog(baseText, providers, mirrorOptions);
    if (!fetched.ok()) {
        err() << "provender verify: " << fetched.error().message << '\n';
        return ExitUsage;
    }
    const Catalog &catalog = fetched.value().catalog;

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
    const RemoteVerifyReport verified = verifyNetworkCatalog(catalog, verifyOptions, progress);
    if (showProgress)
        err() << '\r' << QString(40, QLatin1Char(' ')) << '\r';
    const VerifyReport &report = verified.report;
    const VerifySummary &s = report.summary;
    const QList<Anomaly> allAnomalies = catalog.anomalies + verdictAnomalies(report.results);

    if (json) {
        QJsonObject root;
        root[QStringLiteral("mirror")] = baseText;
        if (mirrorOptions.credential) {
            QJsonObject c;
            c[QStringLiteral("host")] = mirrorOptions.credential->host;
            c[QStringLiteral("source")] = mirrorOptions.credential->source;
            c[QStringLiteral("sent")] = base.value().scheme() == QLatin1StringView("https"); // index requests only
            root[QStringLiteral("credentials")] = c;
        }
        QJsonArray archives, anomalies, absent, requests;
        for (const ArchiveResult &r : report.results)
            archives.append(archiveJson(r));
        for (const Anomaly &a : allAnomalies)
            anomalies.append(anomalyJson(a));
        for (const ProviderAddress &p : fetched.value().absent)
            absent.append(p.toString());
        for (const QList<RequestLogEntry> *log : {&fetched.value().log, &verified.log})
            for (const RequestLogEntry &e : *log) {
                QJsonObject o;
                o[QStringLiteral("method")] = e.method;
                o[QStringLiteral("url")] = e.url.adjusted(QUrl::RemoveUserInfo).toString();
                o[QStringLiteral("status")] = e.status;
                o[QStringLiteral("bytes")] = double(e.bytes);
                o[QStringLiteral("ms")] = double(e.elapsedMs);
                o[QStringLiteral("authorization")] = e.authorization;
                if (!e.error.isEmpty())
                    o[QStringLiteral("error")] = e.error;
                requests.append(o);
            }
        root[QStringLiteral("archives")] = archives;
        root[QStringLiteral("anomalies")] = anomalies;
        root[QStringLiteral("absent_providers")] = absent;
        root[QStringLiteral("requests")] = requests;
        QJsonObject summary;
        for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error, Verdict::Refused, Verdict::Pending})
            summary[toString(v)] = s.count(v);
        summary[QStringLiteral("bytes_downloaded")] = double(verified.bytesDownloaded);
        root[QStringLiteral("summary")] = summary;
        out() << QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else {
        QTextStream &o = out();
        o << "Mirror " << baseText << ": " << catalog.providers.size() << " providers, " << report.results.size()
          << " archives\n\n";
        QList<QStringList> rows{{QStringLiteral("PROVIDER"), QStringLiteral("VERSION"), QStringLiteral("PLATFORM"),
                                 QStringLiteral("VERDICT"), QStringLiteral("ANCHOR"), QStringLiteral("DETAIL")}};
        for (const ArchiveResult &r : report.results) {
            QString detail = r.detail.reason;
            if (r.detail.verdict == Verdict::Verified) {
                QStringList m;
                for (HashMatch h : r.detail.matched)
                    m.append(toString(h));
                detail = QStringLiteral("matched ") + m.join(QStringLiteral(", "));
            }
            rows.append({r.key.provider.toString(), r.key.version.toString(), r.key.platform.toString(),
                         toString(r.detail.verdict), anchorText(r.detail), detail});
        }
        QList<qsizetype> widths(5, 0);
        for (const QStringList &row : std::as_const(rows))
            for (int c = 0; c < 5; ++c)
                widths[c] = std::max(widths[c], row.at(c).size());
        for (const QStringList &row : std::as_const(rows)) {
            for (int c = 0; c < 5; ++c)
                o << row.at(c).leftJustified(widths[c] + 2);
            o << row.at(5) << '\n';
        }
        if (!allAnomalies.isEmpty()) {
            o << "\nAnomalies (" << allAnomalies.size() << "):\n";
            for (const Anomaly &a : allAnomalies)
                o << "  " << toString(a.kind) << ": " << (a.location.isValid() ? a.location.toString() : a.path) << ": "
                  << a.message << '\n';
        }
        QStringList parts;
        for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error, Verdict::Refused, Verdict::Pending})
            if (s.count(v) > 0 || v == Verdict::Verified)
                parts.append(QStringLiteral("%1 %2").arg(s.count(v)).arg(toString(v)));
        o << "\nSummary: " << parts.join(QStringLiteral(", ")) << " (" << verified.bytesDownloaded << " bytes downloaded)\n";
    }
    const bool strict = parser.isSet(QStringLiteral("strict"));
    const bool requestFailures = !fetched.value().absent.isEmpty()
        || std::any_of(catalog.anomalies.cbegin(), catalog.anomalies.cend(),
                       [strict](const Anomaly &a) { return strict || !warningOnly(a.kind); });
    const bool uncovered = std::any_of(report.results.cbegin(), report.results.cend(),
                                       [](const ArchiveResult &r) { return r.detail.notCoveredByLock; });
    return s.hasFindings() || requestFailures || (strict && (!allAnomalies.isEmpty() || uncovered)) ? ExitFindings : ExitOk;
}

} // namespace provender::cli
