// provender index DIR [--dry-run] [--with-zh] [--jobs N] [--json]: (re)write index.json and
// <version>.json for every provider of a packed filesystem mirror, byte-identical to what
// `terraform providers mirror` writes.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/HashingOptions.h"
#include "app/cli/Prologue.h"
#include "model/core/SizeFormat.h"
#include "model/mirror/IndexWriter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

namespace provender::cli {

namespace {

QString relative(const QString &root, const QString &path)
{
    return path.startsWith(root + QLatin1Char('/')) ? path.mid(root.size() + 1) : path;
}

QJsonObject toJson(const IndexExportReport &r)
{
    QJsonObject o;
    o[QStringLiteral("root")] = r.root;
    o[QStringLiteral("dry_run")] = r.dryRun;
    QJsonArray files;
    for (const IndexFileResult &f : r.files)
        files.append(QJsonObject{{QStringLiteral("path"), f.path}, {QStringLiteral("status"), toString(f.status)}});
    o[QStringLiteral("files")] = files;
    QJsonArray changes;
    for (const IndexEntryChange &c : r.changes) {
        QJsonObject j{{QStringLiteral("kind"), toString(c.kind)}, {QStringLiteral("file"), c.file}, {QStringLiteral("version"), c.version}};
        insertIfNotEmpty(j, QStringLiteral("platform"), c.platform);
        insertIfNotEmpty(j, QStringLiteral("before"), c.before);
        insertIfNotEmpty(j, QStringLiteral("after"), c.after);
        changes.append(j);
    }
    o[QStringLiteral("changes")] = changes;
    o[QStringLiteral("stale_version_files")] = QJsonArray::fromStringList(r.staleVersionFiles);
    auto problems = [](const QList<IndexProblem> &list) {
        QJsonArray a;
        for (const IndexProblem &p : list)
            a.append(QJsonObject{{QStringLiteral("path"), p.path}, {QStringLiteral("message"), p.message}});
        return a;
    };
    o[QStringLiteral("hash_failures")] = problems(r.hashFailures);
    o[QStringLiteral("skipped")] = problems(r.skipped);
    o[QStringLiteral("providers_indexed")] = r.providersIndexed;
    o[QStringLiteral("archives_hashed")] = r.archivesHashed;
    o[QStringLiteral("bytes_hashed")] = double(r.bytesHashed);
    o[QStringLiteral("files_written")] = r.writtenCount();
    return o;
}

void printText(QTextStream &o, const IndexExportReport &r)
{
    const bool dry = r.dryRun;
    for (const IndexFileResult &f : r.files) {
        if (f.status == IndexFileResult::Status::Unchanged)
            continue;
        const QString verb = f.status == IndexFileResult::Status::Created
            ? (dry ? QStringLiteral("would create") : QStringLiteral("created"))
            : (dry ? QStringLiteral("would update") : QStringLiteral("updated"));
        o << verb << ' ' << relative(r.root, f.path) << '\n';
        for (const IndexEntryChange &c : r.changes) {
            if (c.file != f.path)
                continue;
            const char sign = c.kind == IndexEntryChange::Kind::Added ? '+' : c.kind == IndexEntryChange::Kind::Removed ? '-' : '~';
            o << "  " << sign << ' ' << c.version;
            if (!c.platform.isEmpty())
                o << ' ' << c.platform;
            if (c.kind == IndexEntryChange::Kind::Changed)
                o << ": " << c.before << " -> " << c.after;
            else if (c.kind == IndexEntryChange::Kind::Added && !c.after.isEmpty())
                o << ": " << c.after;
            o << '\n';
        }
    }
    for (const QString &s : r.staleVersionFiles)
        o << "stale " << relative(r.root, s) << " (left in place: index.json no longer lists its version)\n";
    for (const IndexProblem &p : r.skipped)
        o << "skipped " << relative(r.root, p.path) << ": " << p.message << '\n';
    for (const IndexProblem &p : r.hashFailures)
        o << "error " << relative(r.root, p.path) << ": " << p.message << '\n';
    const int written = r.writtenCount();
    const qsizetype unchanged = r.files.size() - written;
    o << r.providersIndexed << (r.providersIndexed == 1 ? " provider, " : " providers, ") << r.archivesHashed
      << (r.archivesHashed == 1 ? " archive" : " archives") << " hashed (" << formatDataSize(r.bytesHashed) << "); " << written
      << (dry ? " index files would be written, " : " index files written, ") << unchanged << " unchanged\n";
}

} // namespace

int runIndex(const QStringList &args)
{
    Prologue p(QStringLiteral("index"), helpText(QStringLiteral("index")));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("dry-run"), QStringLiteral("Report what would change; write nothing.")});
    parser.addOption({QStringLiteral("with-zh"), QStringLiteral("Also list each archive's zh: hash (after its h1:).")});
    addHashingOptions(parser);
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print a JSON report instead of text.")});
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("The mirror directory."), QStringLiteral("DIR"));
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        return p.usage(QStringLiteral("give exactly one mirror directory"));
    }
    IndexExportOptions options;
    options.dryRun = parser.isSet(QStringLiteral("dry-run"));
    options.withZh = parser.isSet(QStringLiteral("with-zh"));
    HashRunOptions hashing;
    if (!readHashingOptions(parser, QStringLiteral("provender index"), &hashing))
        return ExitUsage;
    options.jobs = hashing.jobs;
    options.useCache = hashing.useCache;
    const bool json = parser.isSet(QStringLiteral("json"));

    // A progress line on an interactive terminal only.
    HashProgress progress;
    QElapsedTimer sinceLast;
    const bool tty = ::isatty(STDERR_FILENO) == 1 && !json;
    if (tty) {
        sinceLast.start();
        progress = [&](qint64 done, qint64 total) {
            if (sinceLast.elapsed() >= 200 && total > 0) {
                sinceLast.restart();
                err() << "\rhashing archives: " << (done * 100 / total) << "% " << Qt::flush;
            }
            return true;
        };
    }
    Result<IndexExportReport> report = exportIndexes(positional.first(), options, progress);
    if (tty)
        err() << "\r\033[K" << Qt::flush;
    if (!report) {
        return p.usage(report.error().toString());
    }
    printCacheWarning(QStringLiteral("provender index"), report->cacheWarning);
    if (json)
        out() << QJsonDocument(toJson(report.value())).toJson(QJsonDocument::Indented);
    else
        printText(out(), report.value());
    out().flush();

    const bool findings = !report->hashFailures.isEmpty() || !report->skipped.isEmpty() || (options.dryRun && report->writtenCount() > 0);
    return findings ? ExitFindings : ExitOk;
}

} // namespace provender::cli
