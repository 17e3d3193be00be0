// provender hash PATH... [--json] [--jobs N]: h1:/zh: of provider zips and unpacked package
// directories. One archive is hashed by one thread; several archives are hashed at once
// (--jobs, default: every core), and results are printed in the order the paths were given.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "model/hashing/PackageHashes.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QThread>
#include <QThreadPool>
#include <QWaitCondition>

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
        if (!h.extractionProblem.isEmpty())
            o[QStringLiteral("extraction_problem")] = h.extractionProblem;
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

Result<PackageHashes> hashPath(const QString &path)
{
    if (!QFileInfo::exists(path))
        return makeError(ErrorCode::NotFound, QStringLiteral("no such file or directory"));
    return hashPackage(path);
}

} // namespace

int runHash(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Print the h1: and zh: hashes of provider zip archives and the h1: of unpacked package directories."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addOption({{QStringLiteral("j"), QStringLiteral("jobs")},
                      QStringLiteral("Hash up to <n> archives at once (default: %1, the number of cores).").arg(QThread::idealThreadCount()),
                      QStringLiteral("n")});
    parser.addPositionalArgument(QStringLiteral("path"), QStringLiteral("Zip archives or package directories."),
                                 QStringLiteral("PATH..."));
    if (!parser.parse(args)) {
        err() << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return ExitOk;
    }
    const QStringList paths = parser.positionalArguments();
    if (paths.isEmpty()) {
        err() << "provender hash: give at least one zip archive or package directory\n";
        return ExitUsage;
    }
    int jobs = QThread::idealThreadCount();
    if (parser.isSet(QStringLiteral("jobs"))) {
        bool ok = false;
        jobs = parser.value(QStringLiteral("jobs")).toInt(&ok);
        if (!ok || jobs < 1) {
            err() << "provender hash: --jobs needs a whole number of at least 1\n";
            return ExitUsage;
        }
    }
    const bool json = parser.isSet(QStringLiteral("json"));

    // Workers fill `results`; this thread prints them in order as soon as each is ready.
    std::vector<std::optional<Result<PackageHashes>>> results(std::size_t(paths.size()));
    QMutex mutex;
    QWaitCondition ready;
    QThreadPool pool;
    pool.setMaxThreadCount(qMin<int>(jobs, int(paths.size())));
    for (qsizetype i = 0; i < paths.size(); ++i) {
        pool.start([&, i] {
            Result<PackageHashes> r = hashPath(paths.at(i));
            const QMutexLocker lock(&mutex);
            results[std::size_t(i)].emplace(std::move(r));
            ready.wakeAll();
        });
    }

    int rc = ExitOk;
    QJsonArray array;
    for (qsizetype i = 0; i < paths.size(); ++i) {
        std::optional<Result<PackageHashes>> r;
        {
            QMutexLocker lock(&mutex);
            while (!results[std::size_t(i)])
                ready.wait(&mutex);
            r.swap(results[std::size_t(i)]);
        }
        if (!r->ok())
            rc = ExitUsage;
        if (json) {
            array.append(toJson(paths.at(i), *r));
        } else if (r->ok()) {
            printText(out(), paths.at(i), r->value());
            out().flush();
        } else {
            err() << paths.at(i) << ": error: " << r->error().toString() << '\n';
            err().flush();
        }
    }
    pool.waitForDone();
    if (json)
        out() << QJsonDocument(array).toJson(QJsonDocument::Indented);
    return rc;
}

} // namespace provender::cli
