#include "model/verify/ArchiveHashing.h"

#include "model/core/Logging.h"

#include <QHash>
#include <QSet>

#include <memory>

namespace provender {

namespace {

Error notOnDisk()
{
    return makeError(ErrorCode::NotFound, QStringLiteral("the archive is not on disk"));
}

} // namespace

ArchiveHasher prehashArchives(const std::function<void(const ArchiveHasher &record)> &operation, const HashRunOptions &options,
                              HashRunSummary *summary)
{
    QList<HashRequest> wanted;
    QSet<QString> seen;
    operation([&](const Archive &a) -> Result<PackageHashes> {
        if (!a.present || a.path.isEmpty())
            return notOnDisk();
        if (!seen.contains(a.path)) {
            seen.insert(a.path);
            wanted.append(HashRequest{a.path, a.size});
        }
        return makeError(ErrorCode::Cancelled, QStringLiteral("not hashed yet"));
    });

    struct Table
    {
        QHash<QString, Result<PackageHashes>> byPath;
        HashRunOptions late; ///< for an archive the first pass did not ask for
    };
    auto table = std::make_shared<Table>();
    HashRunReport report = hashArchives(wanted, options);
    for (qsizetype i = 0; i < wanted.size(); ++i)
        table->byPath.insert(wanted.at(i).path, report.outcomes[i].hashes);
    if (summary)
        *summary = report.summary;
    table->late = options;
    table->late.progress = {};
    qCDebug(lcVerify) << "prehashed" << wanted.size() << "archives";

    return [table](const Archive &a) -> Result<PackageHashes> {
        if (!a.present || a.path.isEmpty())
            return notOnDisk();
        if (const auto it = table->byPath.constFind(a.path); it != table->byPath.constEnd())
            return it.value();
        qCDebug(lcVerify) << "not prehashed, hashing now:" << a.path;
        Result<PackageHashes> h = hashArchives({HashRequest{a.path, a.size}}, table->late).outcomes.constFirst().hashes;
        table->byPath.insert(a.path, h);
        return h;
    };
}

} // namespace provender
