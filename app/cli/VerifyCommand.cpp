// provender verify DIR [--json] [--jobs N] [--no-cache] [--lock FILE]... [--strict]: scan a
// filesystem mirror, hash every archive and print a verdict per archive (with the anchor it was
// checked against, docs/VERDICTS.md) plus the anomalies of the scan and of the verdicts.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/HashingOptions.h"
#include "model/lockfile/LockAnchors.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/verify/VerifyEngine.h"

#include "model/core/Logging.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>

#include <unistd.h>

namespace provender::cli {

namespace {

QString matchedText(const VerdictDetail &d)
{
    QStringList parts;
    for (HashMatch m : d.matched)
        parts.append(toString(m));
    return parts.join(QStringLiteral(", "));
}

/// A JSON string literal (RFC 8259 escaping).
void appendJsonString(QString &out, const QString &s)
{
    out += QLatin1Char('"');
    for (QChar c : s) {
        switch (c.unicode()) {
        case '"': out += QLatin1StringView("\\\""); break;
        case '\\': out += QLatin1StringView("\\\\"); break;
        case '\n': out += QLatin1StringView("\\n"); break;
        case '\r': out += QLatin1StringView("\\r"); break;
        case '\t': out += QLatin1StringView("\\t"); break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    out += QLatin1Char('"');
}

void appendField(QString &out, const char *key, const QString &value)
{
    out += QLatin1Char('"') + QLatin1StringView(key) + QLatin1StringView("\": ");
    appendJsonString(out, value);
    out += QLatin1StringView(", ");
}

void appendField(QString &out, const char *key, const QStringList &values)
{
    out += QLatin1Char('"') + QLatin1StringView(key) + QLatin1StringView("\": [");
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += QLatin1StringView(", ");
        appendJsonString(out, values.at(i));
    }
    out += QLatin1StringView("], ");
}

/// One archive as a one-line JSON object. Written by hand: a mirror can have 100,000 archives and
/// a QJsonDocument of them costs seconds and hundreds of MiB.
QString archiveJson(const ArchiveResult &r)
{
    QString o;
    o.reserve(640);
    o += QLatin1Char('{');
    appendField(o, "provider", r.key.provider.toString());
    appendField(o, "version", r.key.version.toString());
    appendField(o, "platform", r.key.platform.toString());
    appendField(o, "layout", toString(r.layout));
    appendField(o, "path", r.path);
    o += QStringLiteral("\"size\": %1, ").arg(r.size);
    appendField(o, "verdict", toString(r.detail.verdict));
    appendField(o, "reason", r.detail.reason);
    o += QLatin1StringView("\"anchors\": [");
    for (qsizetype i = 0; i < r.detail.anchors.size(); ++i) {
        const TrustAnchor &a = r.detail.anchors.at(i);
        o += (i == 0 ? QLatin1StringView("{") : QLatin1StringView(", {"));
        appendField(o, "kind", toString(a.kind));
        appendField(o, "document", a.document);
        appendField(o, "text", describe(a));
        o += QStringLiteral("\"self_consistency_only\": %1}").arg(a.isSelfConsistencyOnly() ? QStringLiteral("true") : QStringLiteral("false"));
    }
    o += QLatin1StringView("], ");
    appendField(o, "anchor", describeAnchors(r.detail));
    if (r.detail.notCoveredByLock)
        o += QLatin1StringView("\"not_covered_by_lock\": true, ");
    QStringList matched;
    for (HashMatch m : r.detail.matched)
        matched.append(toString(m));
    appendField(o, "matched", matched);
    QStringList contradicting;
    for (const HashString &h : r.detail.contradicting)
        contradicting.append(h.toString());
    appendField(o, "contradicting", contradicting);
    QStringList declared;
    for (const HashString &h : r.declared)
        declared.append(h.toString());
    appendField(o, "declared", declared);
    if (r.hashes) {
        appendField(o, "h1", r.hashes->h1Extracted.toString());
        if (r.hashes->kind == PackageHashes::Kind::Zip) {
            appendField(o, "h1_zip", r.hashes->h1Zip.toString());
            appendField(o, "zh", r.hashes->zh.toString());
        }
    }
    if (!r.error.isEmpty())
        appendField(o, "error", r.error);
    o += QStringLiteral("\"from_cache\": %1}").arg(r.fromCache ? QStringLiteral("true") : QStringLiteral("false"));
    return o;
}

QJsonObject toJson(const Anomaly &a)
{
    QJsonObject o;
    o[QStringLiteral("kind")] = toString(a.kind);
    o[QStringLiteral("path")] = a.path;
    o[QStringLiteral("message")] = a.message;
    if (a.location.isValid()) {
        o[QStringLiteral("line")] = a.location.line;
        o[QStringLiteral("column")] = a.location.column;
    }
    return o;
}

QString summaryText(const VerifySummary &s)
{
    QStringList parts;
    for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error, Verdict::Refused,
                      Verdict::Pending})
        if (s.count(v) > 0 || v == Verdict::Verified)
            parts.append(QStringLiteral("%1 %2").arg(s.count(v)).arg(toString(v)));
    return parts.join(QStringLiteral(", "));
}

} // namespace

QString anchorText(const VerdictDetail &d)
{
    if (d.notCoveredByLock)
        return QStringLiteral("not covered by a lock");
    if (d.anchors.isEmpty())
        return QStringLiteral("-");
    QStringList parts;
    for (const TrustAnchor &a : d.anchors) {
        switch (a.kind) {
        case TrustAnchor::Kind::OwnIndex: parts.append(QStringLiteral("own index")); break;
        case TrustAnchor::Kind::OwnChecksums: parts.append(QStringLiteral("own SHA256SUMS")); break;
        case TrustAnchor::Kind::LockFile: parts.append(QStringLiteral("lock ") + a.document); break;
        case TrustAnchor::Kind::Signature: parts.append(QStringLiteral("signature")); break;
        }
    }
    return parts.join(QStringLiteral(" + "));
}

namespace {

void printTable(QTextStream &o, const Catalog &catalog, const VerifyReport &report, const QList<Anomaly> &anomalies)
{
    const QLocale locale = QLocale::c();
    o << "Mirror " << catalog.root << ": " << catalog.providers.size() << " providers, " << report.results.size()
      << " archives, " << locale.formattedDataSize(catalog.totalBytes(), 1, QLocale::DataSizeTraditionalFormat) << "\n\n";

    const QStringList header = {QStringLiteral("PROVIDER"), QStringLiteral("VERSION"), QStringLiteral("PLATFORM"),
                                QStringLiteral("LAYOUT"), QStringLiteral("VERDICT"), QStringLiteral("ANCHOR"),
                                QStringLiteral("DETAIL")};
    QList<QStringList> rows;
    for (const ArchiveResult &r : report.results) {
        QString detail;
        switch (r.detail.verdict) {
        case Verdict::Verified:
            detail = QStringLiteral("matched ") + matchedText(r.detail);
            break;
        default:
            detail = r.detail.reason;
        }
        rows.append({r.key.provider.toString(), r.key.version.toString(), r.key.platform.toString(), toString(r.layout),
                     toString(r.detail.verdict), anchorText(r.detail), detail});
    }
    QList<qsizetype> widths(header.size() - 1, 0);
    for (qsizetype c = 0; c + 1 < header.size(); ++c) {
        widths[c] = header.at(c).size();
        for (const QStringList &row : std::as_const(rows))
            widths[c] = std::max(widths[c], row.at(c).size());
    }
    auto printRow = [&](const QStringList &row) {
        for (qsizetype c = 0; c + 1 < row.size(); ++c)
            o << row.at(c).leftJustified(widths[c] + 2);
        o << row.last() << '\n';
    };
    printRow(header);
    for (const QStringList &row : std::as_const(rows))
        printRow(row);

    const bool selfOnly = std::any_of(report.results.cbegin(), report.results.cend(), [](const ArchiveResult &r) {
        return r.detail.verdict == Verdict::Verified
               && std::all_of(r.detail.anchors.cbegin(), r.detail.anchors.cend(),
                              [](const TrustAnchor &a) { return a.isSelfConsistencyOnly(); });
    });
    if (selfOnly)
        o << "\n\"own index\": consistent with its own index only — the mirror agrees with itself; check against a "
             "reviewed lock file with --lock FILE\n";
    if (!anomalies.isEmpty()) {
        o << "\nAnomalies (" << anomalies.size() << "):\n";
        for (const Anomaly &a : anomalies) {
            o << "  " << toString(a.kind) << ": " << (a.location.isValid() ? a.location.toString() : a.path);
            o << ": " << a.message << '\n';
        }
    }
    const VerifySummary &s = report.summary;
    o << "\nSummary: " << summaryText(s) << " (" << s.hashed << " hashed, " << s.cacheHits << " from the cache)\n";
}

/// Resident memory in MiB (for the debug log of the phases).
long rssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? long(parts.at(1).toLongLong() * ::sysconf(_SC_PAGESIZE) / (1024 * 1024)) : -1;
}

} // namespace

int runRemoteVerify(const QStringList &args); // app/cli/RemoteVerify.cpp

int runVerify(const QStringList &args)
{
    for (const QString &arg : args.mid(1)) // an OCI mirror: app/cli/OciCommands.cpp
        if (arg.startsWith(QLatin1StringView("oci://")))
            return runOciVerify(args);
    for (const QString &arg : args.mid(1)) // a network mirror URL: app/cli/RemoteVerify.cpp
        if (arg.startsWith(QLatin1StringView("https://")) || arg.startsWith(QLatin1StringView("http://")))
            return runRemoteVerify(args);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Scan a filesystem mirror (packed and unpacked layouts), hash every archive and compare it with the hashes its "
        "index.json / <version>.json declare.\n"
        "Verdicts (docs/VERDICTS.md): verified, mismatch, unverified, refused, missing, error — what terraform would "
        "do installing the archive; ANCHOR says what it was checked against.\n"
        "Exit status: 0 all good, 1 any mismatch, refused, missing or error (with --strict also any anomaly), "
        "2 bad usage or unreadable mirror."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")});
    parser.addOption({QStringLiteral("jobs"), QStringLiteral("Hash with N threads (default: all cores)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("no-cache"), QStringLiteral("Hash every archive; do not read or write the hash cache.")});
    parser.addOption({QStringLiteral("lock"),
                      QStringLiteral("Check the archives against this reviewed lock file too (repeatable); archives of "
                                     "provider versions no lock file covers are reported as not covered."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("strict"), QStringLiteral("Exit 1 on any anomaly too (and, with --lock, on any "
                                                               "archive no lock file covers).")});
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("The mirror directory."), QStringLiteral("DIR"));
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
        err() << "provender verify: give exactly one mirror directory (see --help)\n";
        return ExitUsage;
    }
    VerifyOptions options;
    if (parser.isSet(QStringLiteral("jobs"))) {
        bool ok = false;
        options.jobs = parser.value(QStringLiteral("jobs")).toInt(&ok);
        if (!ok || options.jobs < 1) {
            err() << "provender verify: --jobs needs a positive number, not '" << parser.value(QStringLiteral("jobs")) << "'\n";
            return ExitUsage;
        }
    }
    options.useCache = !parser.isSet(QStringLiteral("no-cache"));
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool strict = parser.isSet(QStringLiteral("strict"));
    if (parser.isSet(QStringLiteral("lock"))) {
        const Result<LockAnchors> locks = readLockAnchors(parser.values(QStringLiteral("lock")));
        if (!locks.ok()) {
            err() << "provender verify: " << locks.error().toString() << '\n';
            return ExitUsage;
        }
        for (const QString &w : locks.value().warnings)
            err() << w << '\n';
        locks.value().applyTo(options);
    }

    const QString dir = positional.constFirst();
    if (!QFileInfo(dir).isDir()) {
        err() << "provender verify: " << dir << ": not a directory\n";
        return ExitUsage;
    }
    QElapsedTimer timer;
    timer.start();
    Result<Catalog> scanned = scanFileSystemMirror(dir);
    qCDebug(lcCli) << "scan:" << timer.restart() << "ms," << rssMiB() << "MiB resident";
    if (!scanned.ok()) {
        err() << "provender verify: cannot read the mirror " << dir << ": " << scanned.error().toString() << '\n';
        return ExitUsage;
    }
    const Catalog &catalog = scanned.value();

    const bool showProgress = !json && ::isatty(STDERR_FILENO);
    VerifyProgress progress;
    if (showProgress) {
        progress = [](qint64 done, qint64 total) {
            const int percent = total > 0 ? int(done * 100 / total) : 100;
            err() << "\rhashing… " << percent << "%" << Qt::flush;
        };
    }
    const VerifyReport report = verifyCatalog(catalog, options, progress);
    qCDebug(lcCli) << "verify:" << timer.restart() << "ms," << rssMiB() << "MiB resident";
    if (showProgress)
        err() << "\r              \r" << Qt::flush;
    printCacheWarning(QStringLiteral("provender verify"), report.summary.cacheWarning);

    const QList<Anomaly> allAnomalies = catalog.anomalies + verdictAnomalies(report.results);
    const int notCovered = int(std::count_if(report.results.cbegin(), report.results.cend(),
                                             [](const ArchiveResult &r) { return r.detail.notCoveredByLock; }));
    if (json) {
        // QJsonDocument's indentation (4 spaces), archives one per line, written as they go.
        QTextStream &o = out();
        QString root;
        appendJsonString(root, catalog.root);
        o << "{\n    \"root\": " << root << ",\n    \"archives\": [";
        for (qsizetype i = 0; i < report.results.size(); ++i)
            o << (i == 0 ? "\n        " : ",\n        ") << archiveJson(report.results.at(i));
        o << (report.results.isEmpty() ? "],\n" : "\n    ],\n");
        QJsonArray anomalies;
        for (const Anomaly &a : std::as_const(allAnomalies))
            anomalies.append(toJson(a));
        QJsonObject summary;
        for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error, Verdict::Refused,
                          Verdict::Pending})
            summary[toString(v)] = report.summary.count(v);
        summary[QStringLiteral("archives")] = report.summary.archives;
        summary[QStringLiteral("hashed")] = report.summary.hashed;
        summary[QStringLiteral("cache_hits")] = report.summary.cacheHits;
        summary[QStringLiteral("anomalies")] = int(allAnomalies.size());
        if (options.lockCoverage)
            summary[QStringLiteral("not_covered_by_lock")] = notCovered;
        if (!report.summary.cacheWarning.isEmpty())
            summary[QStringLiteral("cache_warning")] = report.summary.cacheWarning;
        QJsonObject rest;
        rest[QStringLiteral("anomalies")] = anomalies;
        rest[QStringLiteral("summary")] = summary;
        const QByteArray restText = QJsonDocument(rest).toJson(QJsonDocument::Indented);
        o << QString::fromUtf8(restText.mid(restText.indexOf('\n') + 1)); // the rest of the object, after its "{"
    } else {
        printTable(out(), catalog, report, allAnomalies);
        if (options.lockCoverage && notCovered > 0)
            out() << notCovered << " archive(s) of provider versions no lock file covers\n";
    }
    qCDebug(lcCli) << "output:" << timer.restart() << "ms";
    if (report.summary.hasFindings())
        return ExitFindings;
    if (strict && (!allAnomalies.isEmpty() || notCovered > 0))
        return ExitFindings;
    return ExitOk;
}

} // namespace provender::cli
