// provender hash PATH... [--json] [--jobs N] [--no-cache]: h1:/zh: of provider zips and unpacked
// package directories, through the one hashing engine (hashArchives: the hash cache, --jobs
// threads, default every core). Results are printed in the order the paths were given.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/HashingOptions.h"
#include "app/cli/Prologue.h"
#include "model/hashing/PackageHashes.h"
#include "model/verify/HashEngine.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <optional>
#include <vector>

namespace provender::cli {

namespace {

QJsonObject toJson(const QString &path, const Result<PackageHashes> &r)
{
    QJsonObject o;
    o[QStringLiteral("path")] = path;
    if (!r.ok()) {
        o[QStringLiteral("error")] = r.error().message;
        return o;
    }
    const PackageHashes &h = r.value();
    o[QStringLiteral("kind")] = h.kind == PackageHashes::Kind::Zip ? QStringLiteral("zip") : QStringLiteral("directory");
    o[QStringLiteral("h1")] = h.h1Extracted.toString();
    o[QStringLiteral("content_bytes")] = h.contentBytes;
    o[QStringLiteral("entries")] = h.entryCount;
    if (h.kind == PackageHashes::Kind::Zip) {
        if (h.h1Zip.isNull())
            o[QStringLiteral("h1_zip_error")] = h.h1ZipError;
        else
            o[QStringLiteral("h1_zip")] = h.h1Zip.toString();
        o[QStringLiteral("zh")] = h.zh.toString();
        o[QStringLiteral("file_size")] = h.fileSize;
        o[QStringLiteral("has_directory_entries")] = h.hasDirectoryEntries;
        if (!h.unsafeNames.isEmpty())
            o[QStringLiteral("unsafe_names")] = QJsonArray::fromStringList(h.unsafeNames);
        insertIfNotEmpty(o, QStringLiteral("extraction_problem"), h.extractionProblem);
    }
    return o;
}

void printText(QTextStream &o, const QString &path, const PackageHashes &h)
{
    o << path << '\n';
    if (h.kind == PackageHashes::Kind::Zip) {
        o << "  " << h.h1Extracted.toString() << "   (extracted folder, as lock files record it)\n";
        if (h.h1Zip.isNull())
            o << "  no zip-level h1: " << h.h1ZipError << '\n';
        else if (h.h1Zip != h.h1Extracted)
            o << "  " << h.h1Zip.toString() << "   (zip with its directory entries, as 'providers mirror' indexes record it)\n";
        o << "  " << h.zh.toString() << "   (SHA-256 of the zip file)\n";
        for (const QString &n : h.unsafeNames)
            o << "  warning: unsafe entry name (hashed as a name, never extracted): " << n << '\n';
        if (!h.extractionProblem.isEmpty())
            o << "  warning: terraform/tofu would refuse to install this archive: " << h.extractionProblem << '\n';
    } else {
        o << "  " << h.h1Extracted.toString() << "   (directory)\n";
    }
}

} // namespace

int runHash(const QStringList &args)
{
    Prologue p(QStringLiteral("hash"), helpText(QStringLiteral("hash")));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addOption(
        {{QStringLiteral("j"), QStringLiteral("jobs")},
         QStringLiteral("Hash up to <n> archives at once (default: %1, the number of cores).").arg(QThread::idealThreadCount()),
         QStringLiteral("n")});
    parser.addOption({QStringLiteral("no-cache"), QStringLiteral("Hash every package; do not read or write the hash cache.")});
    p.positional(QStringLiteral("path"), QStringLiteral("Zip archives or package directories."), QStringLiteral("PATH..."));
    if (const std::optional<int> exit = p.parse(args, 1, -1, QStringLiteral("one zip archive or package directory")))
        return *exit;
    const QStringList paths = parser.positionalArguments();
    HashRunOptions options;
    if (!readHashingOptions(parser, p.prefix(), &options))
        return ExitUsage;
    const bool json = parser.isSet(QStringLiteral("json"));

    // Through the hashing engine (HashEngine.h): the hash cache, a private pool of --jobs
    // threads; outcomes arrive on this thread as they are decided and are printed in argument order.
    std::vector<std::optional<Result<PackageHashes>>> results(std::size_t(paths.size()));
    std::vector<bool> fromCache(std::size_t(paths.size()), false);
    QList<HashRequest> requests;
    QList<qsizetype> requestOf; // request index -> path index
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const QFileInfo info(paths.at(i));
        if (!info.exists() && !info.isSymLink()) {
            results[std::size_t(i)].emplace(makeError(ErrorCode::NotFound, QStringLiteral("no such file or directory")));
            continue;
        }
        requests.append(HashRequest{info.absoluteFilePath(), info.isFile() ? info.size() : -1});
        requestOf.append(i);
    }

    int rc = ExitOk;
    QJsonArray array;
    qsizetype printed = 0;
    auto printReady = [&] {
        for (; printed < paths.size() && results[std::size_t(printed)]; ++printed) {
            const Result<PackageHashes> &r = *results[std::size_t(printed)];
            if (!r.ok())
                rc = ExitUsage;
            if (json) {
                QJsonObject o = toJson(paths.at(printed), r);
                if (r.ok())
                    o[QStringLiteral("from_cache")] = bool(fromCache[std::size_t(printed)]);
                array.append(o);
            } else if (r.ok()) {
                printText(out(), paths.at(printed), r.value());
                out().flush();
            } else {
                err() << paths.at(printed) << ": error: " << r.error().toString() << '\n';
                err().flush();
            }
        }
    };
    printReady();
    const HashRunSummary summary = hashArchives(requests, options, [&](qsizetype index, HashOutcome &&outcome) {
        const std::size_t i = std::size_t(requestOf.at(index));
        fromCache[i] = outcome.fromCache;
        results[i].emplace(std::move(outcome.hashes));
        printReady();
    });
    printCacheWarning(p.prefix(), summary.cacheWarning);
    if (json)
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
    return rc;
}

} // namespace provender::cli
