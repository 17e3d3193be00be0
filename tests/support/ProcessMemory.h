#pragma once
// This process's memory as the kernel counts it (/proc/self/status), for tests that bound memory:
// the peak (VmHWM) since the last resetPeakRss() and the current resident set (VmRSS).

#include <QByteArray>
#include <QFile>
#include <QString>

namespace provender::test {

/// A "Vm…:" field of /proc/self/status in KiB (-1: unknown).
inline qint64 procStatusKiB(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray prefix = QByteArray(field) + ':';
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

/// Peak resident set size of this process since the last resetPeakRss(), in KiB (-1: unknown).
inline qint64 peakRssKiB()
{
    return procStatusKiB("VmHWM");
}

inline qint64 currentRssKiB()
{
    return procStatusKiB("VmRSS");
}

/// Resets the kernel's peak-RSS mark to the current RSS (Linux >= 4.0: "5" > /proc/self/clear_refs).
/// False when the kernel does not allow it.
inline bool resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

} // namespace provender::test
