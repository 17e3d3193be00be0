#include "model/lockfile/LockAnchors.h"

#include "model/lockfile/LockFile.h"

#include <QFileInfo>

namespace provender {

QHash<ProviderAddress, QList<Version>> LockAnchors::lockedVersions(QList<ProviderAddress> *providers) const
{
    QHash<ProviderAddress, QList<Version>> versions;
    for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
        if (!providers->contains(it.key().provider))
            providers->append(it.key().provider);
        versions[it.key().provider].append(it.key().version);
    }
    return versions;
}

Result<LockAnchors> readLockAnchors(const QStringList &files)
{
    LockAnchors out;
    for (const QString &file : files) {
        const QString path = QFileInfo(file).absoluteFilePath();
        const Result<LockParseResult> lock = readLockFile(path);
        if (!lock.ok())
            return lock.error();
        out.files.append(path);
        for (const LockDiagnostic &d : lock.value().errors())
            out.warnings.append(d.toString(path));
        for (const ProviderLock &p : lock.value().document.providers) {
            const ProviderVersionKey key{p.address, p.version};
            QList<HashString> &hashes = out.expected[key];
            for (const HashString &h : p.hashes)
                if (!hashes.contains(h))
                    hashes.append(h);
            QString &from = out.from[key];
            if (!from.split(QStringLiteral(", ")).contains(path))
                from = from.isEmpty() ? path : from + QStringLiteral(", ") + path;
        }
    }
    return out;
}

} // namespace provender
