#pragma once
// Helpers for the bundle tests: the Python fixture script and snapshots of directory trees.

#include "tests/support/ProcessMemory.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QString>
#include <QStringList>

#include <sys/stat.h>
#include <unistd.h>

namespace provender::test {

inline QString fixturesScript()
{
    return sourceDir() + QStringLiteral("/tests/bundle/fixtures.py");
}

/// Runs fixtures.py with `args`; stdout, or a null array (with *error) on failure.
inline QByteArray runFixture(const QStringList &args, QString *error = nullptr, int timeoutMs = 600000)
{
    return runPython(QStringList{fixturesScript()} + args, error, timeoutMs);
}

/// Runs a program; true when it exits 0. Its output (stdout, then stderr) in *output.
inline bool runTool(const QString &program, const QStringList &args, const QString &workDir = {}, QString *output = nullptr)
{
    const ProcessRun r = runProcess(program, args, 600000, QProcessEnvironment::systemEnvironment(), workDir);
    if (output)
        *output = QString::fromUtf8(r.out + r.err);
    return r.exitCode == 0;
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

} // namespace provender::test
