#pragma once
// Reading what a scan or a verify run produced, in the suites that check it platform by platform
// (network, interop, verify), and a tree's verdict counts as one text (the GUI suites).

#include "model/mirror/Catalog.h"
#include "model/verify/VerifyTypes.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <array>

namespace provender::test {

/// The result for `platform` ("linux_amd64") among `results`, or nullptr.
inline const ArchiveResult *resultFor(const QList<ArchiveResult> &results, const QString &platform)
{
    for (const ArchiveResult &r : results)
        if (r.key.platform.toString() == platform)
            return &r;
    return nullptr;
}

inline const ArchiveResult *resultFor(const VerifyReport &report, const QString &platform)
{
    return resultFor(report.results, platform);
}

/// Verdict counts (MirrorTreeModel::verdictCounts()) as one text, every verdict in the enum's order:
/// "pending 0, verified 3, mismatch 1, unverified 1, missing 1, error 2, refused 0".
inline QString verdictCountsText(const std::array<int, kVerdictCount> &counts)
{
    QStringList parts;
    for (int v = 0; v < kVerdictCount; ++v)
        parts << QStringLiteral("%1 %2").arg(toString(Verdict(v))).arg(counts[size_t(v)]);
    return parts.join(QStringLiteral(", "));
}

/// The catalog's anomalies, a line each: "kind path: message".
inline QString anomaliesText(const Catalog &c)
{
    QStringList lines;
    for (const Anomaly &a : c.anomalies)
        lines << toString(a.kind) + QStringLiteral(" ") + a.path + QStringLiteral(": ") + a.message;
    return lines.join(QLatin1Char('\n'));
}

/// "" when `c` has exactly one anomaly and its message contains each of `parts`; else what fails,
/// with the catalog's anomalies (anomaliesText), for QVERIFY2.
inline QString soleAnomalyMismatch(const Catalog &c, const QStringList &parts)
{
    bool ok = c.anomalies.size() == 1;
    for (const QString &part : parts)
        ok = ok && c.anomalies.at(0).message.contains(part);
    if (ok)
        return {};
    return QStringLiteral("expected one anomaly containing \"%1\", got %2:\n%3")
        .arg(parts.join(QStringLiteral("\" and \"")))
        .arg(c.anomalies.size())
        .arg(anomaliesText(c));
}

inline QString soleAnomalyMismatch(const Catalog &c, const QString &part)
{
    return soleAnomalyMismatch(c, QStringList{part});
}

} // namespace provender::test
