// provender verify DIR [--json] [--jobs N] [--no-cache]: scan a filesystem mirror, hash every
// archive and print a verdict per archive plus the anomalies of the scan.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/verify/VerifyEngine.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

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

QJsonObject toJson(const ArchiveResult &r)
{
    QJsonObject o;
    o[QStringLiteral("provider")] = r.key.provider.toString();
    o[QStringLiteral("version")] = r.key.version.toString();
    o[QStringLiteral("platform")] = r.key.platform.toString();
    o[QStringLiteral("layout")] = toString(r.layout);
    o[QStringLiteral("path")] = r.path;
    o[QStringLiteral("size")] = double(r.size);
    o[QStringLiteral("verdict")] = toString(r.detail.verdict);
    o[QStringLiteral("reason")] = r.detail.reason;
    QJsonArray matched;
    for (HashMatch m : r.detail.matched)
        matched.append(toString(m));
    o[QStringLiteral("matched")] = matched;
    QJsonArray contradicting;
    for (const HashString &h : r.detail.contradicting)
        contradicting.append(h.toString());
    o[QStringLiteral("contradicting")] = contradicting;
    QJsonArray declared;
    for (const HashString &h : r.declared)
        declared.append(h.toString());
    o[QStringLiteral("declared")] = declared;
    if (r.hashes) {
        o[QStringLiteral("h1")] = r.hashes->h1Extracted.toString();
        if (r.hashes->kind == PackageHashes::Kind::Zip) {
            o[QStringLiteral("h1_zip")] = r.hashes->h1Zip.toString();
            o[QStringLiteral("zh")] = r.hashes->zh.toString();
        }
    }
    o[QStringLiteral("from_cache")] = r.fromCache;
    if (!r.error.isEmpty())
        o[QStringLiteral("error")] = r.error;
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
    for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error,
                      Verdict::Pending})
        if (s.count(v) > 0 || v == Verdict::Verified)
            parts.append(QStringLiteral("%1 %2").arg(s.count(v)).arg(toString(v)));
    return parts.join(QStringLiteral(", "));
}

void printTable(QTextStream &o, const Catalog &catalog, const VerifyReport &report)
{
    const QLocale locale = QLocale::c();
    o << "Mirror " << catalog.root << ": " << catalog.providers.size() << " providers, " << report.results.size()
      << " archives, " << locale.formattedDataSize(catalog.totalBytes(), 1, QLocale::DataSizeTraditionalFormat) << "\n\n";

    const QStringList header = {QStringLiteral("PROVIDER"), QStringLiteral("VERSION"), QStringLiteral("PLATFORM"),
                                QStringLiteral("LAYOUT"), QStringLiteral("VERDICT"), QStringLiteral("DETAIL")};
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
                     toString(r.detail.verdict), detail});
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

    if (!catalog.anomalies.isEmpty()) {
        o << "\nAnomalies (" << catalog.anomalies.size() << "):\n";
        for (const Anomaly &a : catalog.anomalies) {
            o << "  " << toString(a.kind) << ": " << (a.location.isValid() ? a.location.toString() : a.path);
            o << ": " << a.message << '\n';
        }
    }
    const VerifySummary &s = report.summary;
    o << "\nSummary: " << summaryText(s) << " (" << s.hashed << " hashed, " << s.cacheHits << " from the cache)\n";
    if (!s.cacheWarning.isEmpty())
        o << "Note: " << s.cacheWarning << '\n';
}

} // namespace

int runVerify(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Scan a filesystem mirror (packed and unpacked layouts), hash every archive and compare it with the hashes its "
        "index.json / <version>.json declare.\n"
        "Verdicts: verified, mismatch, unverified, missing, error.\n"
        "Exit status: 0 all good, 1 any mismatch, missing or error, 2 bad usage or unreadable mirror."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of a table.")});
    parser.addOption({QStringLiteral("jobs"), QStringLiteral("Hash with N threads (default: all cores)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("no-cache"), QStringLiteral("Hash every archive; do not read or write the hash cache.")});
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

    const QString dir = positional.constFirst();
    if (!QFileInfo(dir).isDir()) {
        err() << "provender verify: " << dir << ": not a directory\n";
        return ExitUsage;
    }
    Result<Catalog> scanned = scanFileSystemMirror(dir);
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
    if (showProgress)
        err() << "\r              \r" << Qt::flush;

    if (json) {
        QJsonObject root;
        root[QStringLiteral("root")] = catalog.root;
        QJsonArray archives;
        for (const ArchiveResult &r : report.results)
            archives.append(toJson(r));
        root[QStringLiteral("archives")] = archives;
        QJsonArray anomalies;
        for (const Anomaly &a : catalog.anomalies)
            anomalies.append(toJson(a));
        root[QStringLiteral("anomalies")] = anomalies;
        QJsonObject summary;
        for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error,
                          Verdict::Pending})
            summary[toString(v)] = report.summary.count(v);
        summary[QStringLiteral("archives")] = report.summary.archives;
        summary[QStringLiteral("hashed")] = report.summary.hashed;
        summary[QStringLiteral("cache_hits")] = report.summary.cacheHits;
        if (!report.summary.cacheWarning.isEmpty())
            summary[QStringLiteral("cache_warning")] = report.summary.cacheWarning;
        root[QStringLiteral("summary")] = summary;
        out() << QJsonDocument(root).toJson(QJsonDocument::Indented);
    } else {
        printTable(out(), catalog, report);
    }
    return report.summary.hasFindings() ? ExitFindings : ExitOk;
}

} // namespace provender::cli
