#include "model/mirror/Catalog.h"

namespace provender {

qsizetype Catalog::archiveCount() const
{
    qsizetype n = 0;
    for (const Provider &p : providers)
        for (const ProviderVersion &v : p.versions)
            n += v.archives.size();
    return n;
}

qint64 Catalog::totalBytes() const
{
    qint64 n = 0;
    for (const Provider &p : providers)
        for (const ProviderVersion &v : p.versions)
            for (const Archive &a : v.archives)
                if (a.present && a.size > 0)
                    n += a.size;
    return n;
}

QString toString(ArchiveLayout layout)
{
    return layout == ArchiveLayout::Packed ? QStringLiteral("packed") : QStringLiteral("unpacked");
}

QString toString(AnomalyKind kind)
{
    switch (kind) {
    case AnomalyKind::UnparseableName: return QStringLiteral("unparseable-name");
    case AnomalyKind::InvalidAddress: return QStringLiteral("invalid-address");
    case AnomalyKind::MalformedJson: return QStringLiteral("malformed-json");
    case AnomalyKind::IndexListsAbsentVersion: return QStringLiteral("index-lists-absent-version");
    case AnomalyKind::IndexListsAbsentArchive: return QStringLiteral("index-lists-absent-archive");
    case AnomalyKind::ArchiveNotInIndex: return QStringLiteral("archive-not-in-index");
    case AnomalyKind::StaleVersionIndex: return QStringLiteral("stale-version-index");
    case AnomalyKind::UnreadableEntry: return QStringLiteral("unreadable-entry");
    case AnomalyKind::DuplicateArchive: return QStringLiteral("duplicate-archive");
    case AnomalyKind::ProviderNotInMirror: return QStringLiteral("provider-not-in-mirror");
    case AnomalyKind::WrongContentType: return QStringLiteral("wrong-content-type");
    case AnomalyKind::RequestFailed: return QStringLiteral("request-failed");
    case AnomalyKind::InsecureUrl: return QStringLiteral("insecure-url");
    case AnomalyKind::RefusedUrl: return QStringLiteral("refused-url");
    case AnomalyKind::DeclaredHashMatchesNothing: return QStringLiteral("declared-hash-matches-nothing");
    case AnomalyKind::ProviderUnavailable: return QStringLiteral("provider-unavailable");
    }
    return {};
}

} // namespace provender
