#include "model/lockfile/LockSelection.h"

#include <QHash>

#include <algorithm>

namespace provender {

QList<LockSelectionItem> lockSelectionFromArchives(const Catalog &catalog, const QStringList &archivePaths)
{
    QSet<QString> wanted(archivePaths.cbegin(), archivePaths.cend());
    QList<LockSelectionItem> items;
    for (const Provider &provider : catalog.providers)
        for (const ProviderVersion &version : provider.versions) {
            LockSelectionItem item{provider.address, version.version, {}};
            auto visit = [&](const QList<Archive> &archives) {
                for (const Archive &a : archives)
                    if (!a.path.isEmpty() && wanted.contains(a.path) && !item.platforms.contains(a.platform))
                        item.platforms.append(a.platform);
            };
            visit(version.archives);
            visit(version.duplicates);
            if (item.platforms.isEmpty())
                continue;
            std::sort(item.platforms.begin(), item.platforms.end(),
                      [](const Platform &a, const Platform &b) { return a.toString() < b.toString(); });
            items.append(item);
        }
    return items;
}

QList<Platform> availablePlatforms(const Catalog &catalog, const QList<LockSelectionItem> &selection)
{
    QList<Platform> platforms;
    for (const LockSelectionItem &item : selection) {
        const Provider *provider = findProvider(catalog, item.provider);
        const ProviderVersion *version = provider ? findVersion(*provider, item.version) : nullptr;
        if (!version)
            continue;
        for (const Archive &a : version->archives)
            if (installableArchive(*version, a.platform) && !platforms.contains(a.platform))
                platforms.append(a.platform);
    }
    std::sort(platforms.begin(), platforms.end(), [](const Platform &a, const Platform &b) { return a.toString() < b.toString(); });
    return platforms;
}

Result<AddToLockResult> addSelectionToLock(const LockFile &doc, const Catalog &catalog, const QList<LockSelectionItem> &selection,
                                           const AddToLockOptions &options)
{
    if (options.platforms.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("choose at least one platform"));
    if (selection.isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("nothing is selected: select providers, versions or archives in the browser"));

    QHash<QString, int> versionsPerProvider;
    for (const LockSelectionItem &item : selection)
        ++versionsPerProvider[item.provider.toString()];

    AddToLockResult out;
    LockFile next = doc;
    QList<ProviderAddress> providers;
    for (const LockSelectionItem &item : selection) {
        const QString name = item.provider.toString();
        if (versionsPerProvider.value(name) > 1) {
            const QString line = QStringLiteral("%1: %2 versions are selected; a lock file records one — select one version")
                                     .arg(name)
                                     .arg(versionsPerProvider.value(name));
            if (!out.problems.contains(line))
                out.problems.append(line);
            continue;
        }
        const ProviderLock *locked = next.find(item.provider);
        if (!locked) {
            ProviderLock lock;
            lock.address = item.provider;
            lock.version = item.version;
            next.setProvider(lock);
            out.actions.append(QStringLiteral("%1: locked at %2").arg(name, item.version.toString()));
        } else if (locked->version != item.version) {
            if (!locked->constraints.isEmpty() && !locked->constraints.allows(item.version)) {
                out.problems.append(QStringLiteral("%1: %2 does not meet the recorded constraints \"%3\"; left at %4")
                                        .arg(name, item.version.toString(), locked->constraints.toString(), locked->version.toString()));
                continue;
            }
            const Result<LockFile> moved = lockedit::setVersion(next, item.provider, item.version);
            if (!moved) {
                out.problems.append(QStringLiteral("%1: %2").arg(name, moved.error().message));
                continue;
            }
            out.actions.append(QStringLiteral("%1: %2 → %3 (the hashes of %2 are dropped)")
                                   .arg(name, locked->version.toString(), item.version.toString()));
            next = moved.value();
        }
        providers.append(item.provider);
    }
    if (providers.isEmpty()) {
        out.document = next;
        return out;
    }
    const lockedit::MirrorHashOptions hashOptions{
        .platforms = options.platforms, .includeZh = options.includeZh, .providers = providers, .hasher = options.hasher};
    Result<lockedit::MirrorEditResult> hashed = lockedit::addHashesFromMirror(next, catalog, hashOptions);
    if (!hashed)
        return hashed.error();
    out.document = hashed->document;
    out.hashNotes = hashed->notes;
    for (const lockedit::MirrorHashNote &n : hashed->notes)
        if (n.isProblem())
            out.problems.append(QStringLiteral("%1 %2 %3: %4%5")
                                    .arg(n.provider.toString(), n.version.toString(), n.platform.toString(), toString(n.kind),
                                         n.message.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(n.message)));
    return out;
}

} // namespace provender
