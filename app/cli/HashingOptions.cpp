#include "app/cli/HashingOptions.h"

#include "app/cli/Cli.h"

#include <unistd.h>

namespace provender::cli {

namespace {

const QCommandLineOption kJobs(QStringLiteral("jobs"), QStringLiteral("Hash with N threads (default: all cores)."), QStringLiteral("N"));
const QCommandLineOption kNoCache(QStringLiteral("no-cache"), QStringLiteral("Hash every archive; do not read or write the hash cache."));

} // namespace

void addHashingOptions(QCommandLineParser &parser)
{
    parser.addOptions({kJobs, kNoCache});
}

bool readHashingOptions(const QCommandLineParser &parser, const QString &command, HashRunOptions *options)
{
    if (parser.isSet(kJobs)) {
        bool ok = false;
        options->jobs = parser.value(kJobs).toInt(&ok);
        if (!ok || options->jobs < 1) {
            err() << command << ": --jobs needs a positive number, not '" << parser.value(kJobs) << "'\n";
            return false;
        }
    }
    options->useCache = !parser.isSet(kNoCache);
    return true;
}

HashProgress hashingProgress(bool enabled)
{
    if (!enabled || !::isatty(STDERR_FILENO))
        return {};
    return [](qint64 done, qint64 total) {
        const int percent = total > 0 ? int(done * 100 / total) : 100;
        err() << "\rhashing… " << percent << "%" << Qt::flush;
        return true;
    };
}

void clearHashingProgress(bool enabled)
{
    if (enabled && ::isatty(STDERR_FILENO))
        err() << "\r              \r" << Qt::flush;
}

void printCacheWarning(const QString &command, const QString &warning)
{
    if (!warning.isEmpty())
        err() << command << ": warning: " << warning << '\n';
}

} // namespace provender::cli
