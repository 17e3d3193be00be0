// provender hash PATH... [--json]: h1:/zh: of provider zips and unpacked package directories.

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "model/hashing/PackageHashes.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
    if (h.kind == PackageHashes::Kind::Zip) {
        o[QStringLiteral("h1_zip")] = h.h1Zip.toString();
        o[QStringLiteral("zh")] = h.zh.toString();
        o[QStringLiteral("has_directory_entries")] = h.hasDirectoryEntries;
        if (!h.unsafeNames.isEmpty())
            o[QStringLiteral("unsafe_names")] = QJsonArray::fromStringList(h.unsafeNames);
    }
    return o;
}

void printText(QTextStream &o, const QString &path, const PackageHashes &h)
{
    o << path << '\n';
    if (h.kind == PackageHashes::Kind::Zip) {
        o << "  h1: " << h.h1Extracted.value() << "   (extracted folder, as lock files record it)\n";
        if (h.h1Zip != h.h1Extracted)
            o << "  h1: " << h.h1Zip.value() << "   (zip with its directory entries, as 'providers mirror' indexes record it)\n";
        o << "  zh: " << h.zh.value() << '\n';
        for (const QString &n : h.unsafeNames)
            o << "  warning: unsafe entry name (hashed as a name, never extracted): " << n << '\n';
    } else {
        o << "  h1: " << h.h1Extracted.value() << "   (directory)\n";
    }
}

} // namespace

int runHash(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Print the h1: and zh: hashes of provider zip archives and the h1: of unpacked package directories."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
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
    const bool json = parser.isSet(QStringLiteral("json"));
    int rc = ExitOk;
    QJsonArray results;
    for (const QString &path : paths) {
        Result<PackageHashes> r = QFileInfo::exists(path)
                                      ? hashPackage(path)
                                      : Result<PackageHashes>(makeError(ErrorCode::NotFound, QStringLiteral("no such file or directory")));
        if (!r.ok())
            rc = ExitUsage;
        if (json) {
            results.append(toJson(path, r));
        } else if (r.ok()) {
            printText(out(), path, r.value());
        } else {
            err() << path << ": error: " << r.error().toString() << '\n';
        }
    }
    if (json)
        out() << QJsonDocument(results).toJson(QJsonDocument::Indented);
    return rc;
}

} // namespace provender::cli
