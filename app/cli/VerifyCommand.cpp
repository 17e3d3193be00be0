// provender verify SOURCE [--json] [--jobs N] [--no-cache] [--lock FILE]... [--strict]: list a
// mirror source (a directory or a bundle file, through MirrorSource; URLs go to RemoteVerify.cpp,
// oci:// to OciCommands.cpp), hash every archive and print a verdict per archive (with the anchor
// it was checked against, docs/VERDICTS.md) plus the anomalies of the listing and of the
// verdicts. --json: the one verdict writer (VerdictJson.h, docs/VERDICT-JSON.md).

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/HashingOptions.h"
#include "app/cli/PinnedKeysOption.h"
#include "app/cli/Prologue.h"
#include "app/cli/VerdictJson.h"
#include "model/bundle/BundleSource.h"
#include "model/lockfile/LockAnchors.h"
#include "model/source/DirectorySource.h"
#include "model/verify/VerifyEngine.h"

#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"

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

QString matchedText(const VerdictDetail &d)
{
    QStringList parts;
    for (HashMatch m : d.matched)
        parts.append(toString(m));
    return parts.join(QStringLiteral(", "));
}

QString summaryText(const VerifySummary &s)
{
    QStringList parts;
    for (Verdict v :
         {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error, Verdict::Refused, Verdict::Pending})
        if (s.count(v) > 0 || v == Verdict::Verified)
            parts.append(QStringLiteral("%1 %2").arg(s.count(v)).arg(toString(v)));
    return parts.join(QStringLiteral(", "));
}

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
        case TrustAnchor::Kind::Signature:
            parts.append(a.keyId.isEmpty() ? QStringLiteral("signature") : QStringLiteral("signed ") + a.keyId);
            break;
        }
    }
    return parts.join(QStringLiteral(" + "));
}

namespace {

void printTable(QTextStream &o, const Catalog &catalog, const VerifyReport &report, const QList<Anomaly> &anomalies)
{
    o << "Mirror " << catalog.root << ": " << catalog.providers.size() << " providers, " << report.results.size() << " archives, "
      << formatDataSize(catalog.totalBytes()) << "\n\n";

    const QStringList header = {QStringLiteral("PROVIDER"), QStringLiteral("VERSION"), QStringLiteral("PLATFORM"), QStringLiteral("LAYOUT"),
                                QStringLiteral("VERDICT"),  QStringLiteral("ANCHOR"),  QStringLiteral("DETAIL")};
    QList<QStringList> rows;
    for (const ArchiveResult &r : report.results) {
        QString detail;
        switch (r.detail.verdict) {
        case Verdict::Verified: detail = QStringLiteral("matched ") + matchedText(r.detail); break;
        default: detail = r.detail.reason;
        }
        rows.append({r.key.provider.toString(), r.key.version.toString(), r.key.platform.toString(), toString(r.layout),
                     toString(r.detail.verdict), anchorText(r.detail), detail});
    }
    rows.prepend(header);
    printColumns(o, rows);

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

namespace {

/// What a bundle's pass found besides the verdicts (as `bundle verify` prints it).
void printBundleFindings(QTextStream &o, const BundleContents &b)
{
    for (const BundleEntryProblem &problem : b.problems)
        o << "problem: " << toString(problem.kind) << ": " << problem.entry << ": " << problem.message << '\n';
    for (const BundleFileCheck &f : b.files)
        if (f.status != BundleFileCheck::Status::Ok)
            o << "SHA256SUMS " << toString(f.status) << ": " << f.name << '\n';
    if (!b.hasSha256Sums && b.sha256SumsError.isEmpty())
        o << "note: the bundle has no SHA256SUMS\n";
    if (!b.sha256SumsError.isEmpty())
        o << "SHA256SUMS unreadable: " << b.sha256SumsError << '\n';
    if (!b.manifestError.isEmpty())
        o << "manifest unreadable: " << b.manifestError << '\n';
}

/// A directory, or a bundle file read in place with its listing and hashing in one pass (progress on
/// stderr when `showProgress`); nullptr when `location` is neither. `bundle`: the bundle source, if any.
std::unique_ptr<MirrorSource> openLocalSource(const QString &location, bool showProgress, BundleSource **bundle)
{
    const QFileInfo info(location);
    if (info.isDir())
        return std::make_unique<DirectorySource>(location);
    if (!info.isFile())
        return nullptr;
    auto b = std::make_unique<BundleSource>(location);
    // One pass over the container: listing and hashing at once.
    BundleProgress reading;
    if (showProgress)
        reading = [](BundleStage, qint64 done, qint64 total) {
            err() << "\rreading… " << (total > 0 ? int(done * 100 / total) : 100) << "%" << Qt::flush;
            return true;
        };
    b->setReadAhead(true, reading);
    *bundle = b.get();
    return b;
}

/// A bundle's own findings besides the verdicts: refused entries, SHA256SUMS lines, metadata.
bool hasBundleFindings(const BundleContents *pass)
{
    return pass
        && (!pass->problems.isEmpty() || !pass->manifestError.isEmpty() || !pass->sha256SumsError.isEmpty()
            || std::any_of(pass->files.cbegin(), pass->files.cend(),
                           [](const BundleFileCheck &f) { return f.status != BundleFileCheck::Status::Ok; }));
}

} // namespace

int runVerify(const QStringList &args)
{
    for (const QString &arg : args.mid(1)) // an OCI mirror: app/cli/OciCommands.cpp
        if (arg.startsWith(QLatin1StringView("oci://")))
            return runOciVerify(args);
    for (const QString &arg : args.mid(1)) // a network mirror URL: app/cli/RemoteVerify.cpp
        if (arg.startsWith(QLatin1StringView("https://")) || arg.startsWith(QLatin1StringView("http://")))
            return runRemoteVerify(args);
    Prologue p(QStringLiteral("verify"), helpText(QStringLiteral("verify")));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of a table (docs/VERDICT-JSON.md).")});
    addHashingOptions(parser);
    parser.addOption({QStringLiteral("lock"),
                      QStringLiteral("Check the archives against this reviewed lock file too (repeatable); archives of "
                                     "provider versions no lock file covers are reported as not covered."),
                      QStringLiteral("FILE")});
    addPinnedKeysOption(parser);
    parser.addOption({QStringLiteral("strict"),
                      QStringLiteral("Exit 1 on any anomaly too (and, with --lock, on any "
                                     "archive no lock file covers).")});
    p.positional(QStringLiteral("source"), QStringLiteral("The mirror directory or bundle file."), QStringLiteral("SOURCE"));
    if (const std::optional<int> exit = p.parse(args, 1, 1, QStringLiteral("one mirror directory or bundle file")))
        return *exit;
    VerifyOptions options;
    HashRunOptions hashing;
    if (!readHashingOptions(parser, p.prefix(), &hashing))
        return ExitUsage;
    options.jobs = hashing.jobs;
    options.useCache = hashing.useCache;
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool strict = parser.isSet(QStringLiteral("strict"));
    if (parser.isSet(QStringLiteral("lock"))) {
        const std::optional<LockAnchors> locks = p.lockAnchors();
        if (!locks)
            return ExitUsage;
        locks->applyTo(options);
    }

    QList<QByteArray> pinned; // --pinned-keys: signatures of a mirror's .provenance/ must be by these keys
    if (!readPinnedKeys(parser, p.prefix(), &pinned))
        return ExitUsage;

    // The source: a directory, or a bundle file read in place (model/source/MirrorSource.h).
    const QString location = parser.positionalArguments().constFirst();
    const QFileInfo info(location);
    BundleSource *bundle = nullptr;
    const std::unique_ptr<MirrorSource> source = openLocalSource(location, !json && ::isatty(STDERR_FILENO), &bundle);
    if (bundle)
        bundle->setJobs(options.jobs);
    if (!source)
        return p.usage(location
                       + (info.exists() ? QStringLiteral(": not a directory or a bundle file")
                                        : QStringLiteral(": no such directory or bundle file")));
    QElapsedTimer timer;
    timer.start();
    Result<Catalog> listed = source->list();
    qCDebug(lcCli) << "list:" << timer.restart() << "ms," << rssMiB() << "MiB resident";
    if (!listed.ok())
        return p.usage(QStringLiteral("cannot read the mirror %1: %2").arg(location, listed.error().toString()));
    const Catalog &catalog = listed.value();
    if (!pinned.isEmpty())
        source->setPinnedKeys(pinned);

    const bool showProgress = !json && ::isatty(STDERR_FILENO);
    VerifyProgress progress;
    if (showProgress) {
        progress = [](qint64 done, qint64 total) {
            const int percent = total > 0 ? int(done * 100 / total) : 100;
            err() << "\rhashing… " << percent << "%" << Qt::flush;
        };
    }
    const VerifyReport report = verifySource(*source, catalog, options, progress);
    qCDebug(lcCli) << "verify:" << timer.restart() << "ms," << rssMiB() << "MiB resident";
    if (showProgress)
        err() << "\r              \r" << Qt::flush;
    printCacheWarning(p.prefix(), report.summary.cacheWarning);

    const QList<Anomaly> allAnomalies = catalog.anomalies + verdictAnomalies(report.results);
    const int notCovered = int(
        std::count_if(report.results.cbegin(), report.results.cend(), [](const ArchiveResult &r) { return r.detail.notCoveredByLock; }));
    const BundleContents *pass = bundle ? bundle->lastRead() : nullptr;
    const bool bundleFindings = hasBundleFindings(pass);
    if (json) {
        VerdictJson doc;
        doc.kind = catalog.sourceKind;
        doc.location = catalog.root;
        doc.results = &report.results;
        doc.anomalies = allAnomalies;
        doc.summary = report.summary;
        doc.lockCoverage = options.lockCoverage;
        if (pass)
            doc.extension = bundleJsonExtension(*pass);
        writeVerdictJson(out(), doc);
    } else {
        printTable(out(), catalog, report, allAnomalies);
        if (pass)
            printBundleFindings(out(), *pass);
        if (options.lockCoverage && notCovered > 0)
            out() << notCovered << " archive(s) of provider versions no lock file covers\n";
    }
    qCDebug(lcCli) << "output:" << timer.restart() << "ms";
    if (report.summary.hasFindings() || bundleFindings)
        return ExitFindings;
    if (strict && (!allAnomalies.isEmpty() || notCovered > 0))
        return ExitFindings;
    return ExitOk;
}

} // namespace provender::cli
