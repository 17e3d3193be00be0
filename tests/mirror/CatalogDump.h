#pragma once
// Every field of a Catalog as text, one line per value, in the catalog's own order: two catalogs
// are equal (providers, versions, archives, duplicates, declared hashes, anomalies and their order)
// exactly when their dumps are. Used by the scan tests and by bench/scan's `dump` mode.

#include "model/mirror/Catalog.h"

#include <QString>
#include <QStringList>

namespace provender::test {

inline QString dumpCatalog(const Catalog &c)
{
    QStringList out;
    const auto q = [](const QString &s) { return s.isNull() ? QStringLiteral("<null>") : QLatin1Char('"') + s + QLatin1Char('"'); };
    const auto archive = [&](const QString &tag, const Archive &a) {
        QString s = QStringLiteral("    %1 %2 %3 present=%4 path=%5 file=%6 size=%7 mtime=%8 inode=%9 indexedOnly=%10")
                        .arg(tag, a.platform.toString(), toString(a.layout), QString::number(a.present), q(a.path), q(a.fileName),
                             QString::number(a.size),
                             a.modified.isValid() ? QString::number(a.modified.toMSecsSinceEpoch()) : QStringLiteral("invalid"),
                             QString::number(a.inode))
                        .arg(a.indexedOnly);
        out.append(s);
        if (a.declared) {
            QStringList hashes;
            for (const HashString &h : a.declared->hashes)
                hashes.append(h.toString());
            out.append(QStringLiteral("      declared url=%1 index=%2 hashes=[%3]")
                           .arg(q(a.declared->url), q(a.declared->indexFile), hashes.join(QLatin1Char(','))));
        }
    };
    out.append(QStringLiteral("root=%1 kind=%2").arg(q(c.root)).arg(int(c.sourceKind)));
    for (const Provider &p : c.providers) {
        out.append(QStringLiteral("provider %1 dir=%2 hasIndex=%3").arg(p.address.toString(), q(p.directory)).arg(p.hasIndex));
        for (const ProviderVersion &v : p.versions) {
            out.append(QStringLiteral("  version %1 listed=%2 hasVersionIndex=%3")
                           .arg(v.version.toString())
                           .arg(v.listedInIndex)
                           .arg(v.hasVersionIndex));
            for (const Archive &a : v.archives)
                archive(QStringLiteral("archive"), a);
            for (const Archive &a : v.duplicates)
                archive(QStringLiteral("duplicate"), a);
        }
    }
    for (const Anomaly &a : c.anomalies)
        out.append(QStringLiteral("anomaly %1 %2 %3 @%4").arg(toString(a.kind), q(a.path), q(a.message), a.location.toString()));
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace provender::test
