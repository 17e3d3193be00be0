#include "model/lockfile/LockAnchors.h"

#include "model/lockfile/LockFile.h"

#include <QFileInfo>

namespace provender {

void LockAnchors::applyTo(VerifyOptions &options) const
{
    options.expected = expected;
    options.expectedFrom = from;
    options.lockCoverage = true;
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
