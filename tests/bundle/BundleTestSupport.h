#pragma once
// Helpers for the bundle tests: the Python fixture script, snapshots of directory trees, peak RSS.

#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <sys/stat.h>
#include <unistd.h>

namespace provender::test {

/// python3 (the system one first: version-manager shims can take seconds to start), or "".
inline QString bundlePython()
{
    static const QString path = [] {
        const QString system = QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")});
        return system.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("python3")) : system;
    }();
    return path;
}

inline QString fixturesScript()
{
    return sourceDir() + QStringLiteral("/tests/bundle/fixtures.py");
}

/// Runs fixtures.py with `args`; stdout, or a null array (with *error) on failure.
inline QByteArray runFixture(const QStringList &args, QString *error = nullptr, int timeoutMs = 600000)
{
    if (bundlePython().isEmpty()) {
        if (error)
            *error = QStringLiteral("python3 is not on PATH");
        return {};
    }
    QProcess p;
    p.start(bundlePython(), QStringList{fixturesScript()} + args);
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (error)
            *error = QStringLiteral("fixtures.py %1 failed: %2").arg(args.join(u' '), QString::fromUtf8(p.readAllStandardError()));
        return {};
    }
    QByteArray out = p.readAllStandardOutput();
    if (out.isNull())
        out = QByteArray("");
    return out;
}

/// Runs a program; true when it exits 0. Output (merged) in *output.
inline bool runTool(const QString &program, const QStringList &args, const QString &workDir = {}, QString *output = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!workDir.isEmpty())
        p.setWorkingDirectory(workDir);
    p.start(program, args);
    const bool ok = p.waitForFinished(600000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (output)
        *output = QString::fromUtf8(p.readAll());
    return ok;
}

/// Every entry under `root` (hidden ones included): relative path -> "type mode content-sha256"
/// (links: their target). Two equal snapshots mean the same tree, byte for byte.
inline QMap<QString, QString> snapshot(const QString &root, bool withModes = true)
{
    QMap<QString, QString> out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = QDir(root).relativeFilePath(path);
        struct stat st;
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0) {
            out.insert(rel, QStringLiteral("unreadable"));
            continue;
        }
        const QString mode = withModes ? QString::number(st.st_mode & 07777, 8) : QString();
        if (S_ISLNK(st.st_mode)) {
            out.insert(rel, QStringLiteral("link ") + QFileInfo(path).symLinkTarget());
        } else if (S_ISDIR(st.st_mode)) {
            out.insert(rel, QStringLiteral("dir ") + mode);
        } else {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            QCryptographicHash h(QCryptographicHash::Sha256);
            h.addData(&f);
            out.insert(rel, QStringLiteral("file %1 %2").arg(mode, QString::fromLatin1(h.result().toHex())));
        }
    }
    return out;
}

/// A readable difference of two snapshots ("" when equal).
inline QString snapshotDiff(const QMap<QString, QString> &before, const QMap<QString, QString> &after)
{
    QStringList lines;
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        if (!after.contains(it.key()))
            lines.append(QStringLiteral("- %1 (%2)").arg(it.key(), it.value()));
        else if (after.value(it.key()) != it.value())
            lines.append(QStringLiteral("~ %1 (%2 -> %3)").arg(it.key(), it.value(), after.value(it.key())));
    }
    for (auto it = after.cbegin(); it != after.cend(); ++it)
        if (!before.contains(it.key()))
            lines.append(QStringLiteral("+ %1 (%2)").arg(it.key(), it.value()));
    return lines.join(u'\n');
}

/// Peak resident set size of this process since the last resetPeakRss(), in KiB (-1: unknown).
inline qint64 peakRssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

inline qint64 currentRssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

/// Resets the kernel's peak-RSS mark (Linux >= 4.0: "5" > /proc/self/clear_refs).
inline bool resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

} // namespace provender::test
