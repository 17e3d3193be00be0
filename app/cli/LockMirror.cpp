#include "app/cli/LockMirror.h"

#include "app/cli/Cli.h"
#include "app/cli/HashingOptions.h"

using namespace Qt::StringLiterals;

namespace provender::cli {

std::optional<LockMirror> openLockMirror(const QString &command, const QString &location, const LockMirrorRequest &request)
{
    QStringList warnings;
    Result<LockMirror> mirror = provender::openLockMirror(location, request, &warnings);
    for (const QString &w : std::as_const(warnings))
        err() << command << ": warning: " << w << '\n';
    if (mirror.ok())
        return std::move(mirror).value();
    if (isNetworkMirrorLocation(location))
        err() << command << ": " << mirror.error().message << '\n';
    else
        err() << location << ": error: " << mirror.error().message << '\n';
    return std::nullopt;
}

bool selectedVersionUnusable(const LockMirror &mirror, const QString &path, const QString &outcome)
{
    const std::optional<QString> why = provender::selectedVersionUnusable(mirror);
    if (why)
        err() << path << ": " << outcome << ": " << *why << '\n';
    return why.has_value();
}

ArchiveHasher lockMirrorHasher(const QString &command, const LockMirror &mirror, const HashRunOptions &hashing,
                               const std::function<void(const ArchiveHasher &record)> &operation)
{
    if (mirror.network)
        return provender::lockMirrorHasher(mirror, {}, operation);
    HashRunOptions options = hashing;
    options.progress = hashingProgress();
    HashRunSummary run;
    ArchiveHasher hasher = provender::lockMirrorHasher(mirror, options, operation, &run);
    clearHashingProgress();
    printCacheWarning(command, run.cacheWarning);
    return hasher;
}

} // namespace provender::cli
