#include "model/verify/VerifyTypes.h"

#include <QFileInfo>
#include <QHashFunctions>

namespace provender {

QString ArchiveKey::toString() const
{
    return provider.toString() + QLatin1Char(' ') + version.toString() + QLatin1Char(' ') + platform.toString();
}

size_t qHash(const ArchiveKey &key, size_t seed) noexcept
{
    return qHashMulti(seed, key.provider, key.version.toString(), key.platform.toString());
}

size_t qHash(const ProviderVersionKey &key, size_t seed) noexcept
{
    return qHashMulti(seed, key.provider, key.version.toString());
}

bool VerifySummary::hasFindings() const
{
    return count(Verdict::Mismatch) > 0 || count(Verdict::Missing) > 0 || count(Verdict::Error) > 0 || count(Verdict::Refused) > 0;
}

QList<Anomaly> verdictAnomalies(const ArchiveResult &r)
{
    QList<Anomaly> out;
    if (r.detail.verdict == Verdict::Mismatch || r.detail.contradicting.isEmpty())
        return out;
    for (const HashString &h : r.detail.contradicting) {
        Anomaly a;
        a.kind = AnomalyKind::DeclaredHashMatchesNothing;
        a.path = r.path;
        a.message = QStringLiteral("the index declares a hash that matches no package: %1 for %2 (terraform installs "
                                   "it: another declared hash matches)")
                        .arg(h.toString(), r.key.toString());
        out.append(a);
    }
    return out;
}

QList<Anomaly> verdictAnomalies(const QList<ArchiveResult> &results)
{
    QList<Anomaly> out;
    for (const ArchiveResult &r : results)
        out += verdictAnomalies(r);
    return out;
}

ArchiveResult initialResult(const ProviderAddress &provider, const Version &version, const Archive &archive)
{
    ArchiveResult r;
    r.key = ArchiveKey{provider, version, archive.platform};
    r.layout = archive.layout;
    r.path = archive.path;
    r.size = archive.size;
    if (archive.declared)
        r.declared = archive.declared->hashes;
    if (!archive.present) {
        r.detail.verdict = Verdict::Missing;
        const QString file = archive.declared && !archive.declared->url.isEmpty() ? archive.declared->url : archive.fileName;
        const QString index = archive.declared ? QFileInfo(archive.declared->indexFile).fileName() : QString();
        r.detail.reason = index.isEmpty() ? QStringLiteral("absent from the mirror: %1").arg(file)
                                          : QStringLiteral("declared by %1 but absent: %2").arg(index, file);
    } else {
        r.detail.verdict = Verdict::Pending;
        r.detail.reason = QStringLiteral("not hashed yet");
    }
    return r;
}

} // namespace provender
