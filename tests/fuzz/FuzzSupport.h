#pragma once
// Shared by the libFuzzer targets of tests/fuzz (docs/FUZZING.md): how an invariant fails, and a
// scratch directory for the readers whose API takes a file.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>

namespace provender::fuzz {

/// An invariant does not hold: print it and abort, so that libFuzzer writes the input as a crash.
[[noreturn]] inline void fail(const char *fuzzer, const char *what, const QByteArray &detail = {})
{
    std::fprintf(stderr, "%s invariant violated: %s\n%s\n", fuzzer, what, detail.constData());
    std::abort();
}

/// A directory that lives as long as the process (one per fuzzer run, removed at exit). On tmpfs
/// (/dev/shm) when there is one: rewriting a file thousands of times a second on ext4 waits for
/// the disk (its replace-by-truncate heuristic flushes on every close).
inline const QString &scratchDir()
{
    static QTemporaryDir dir(QFileInfo(QStringLiteral("/dev/shm")).isWritable()
                                 ? QStringLiteral("/dev/shm/provender-fuzz-XXXXXX")
                                 : QDir::tempPath() + QStringLiteral("/provender-fuzz-XXXXXX"));
    if (!dir.isValid()) {
        std::fprintf(stderr, "cannot create a temporary directory: %s\n", qPrintable(dir.errorString()));
        std::abort();
    }
    static const QString path = dir.path();
    return path;
}

/// Writes `bytes` to `<scratch>/<name>` (replacing it) and returns the path.
inline QString writeScratchFile(const QString &name, const QByteArray &bytes)
{
    const QString path = scratchDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
        std::fprintf(stderr, "cannot write %s: %s\n", qPrintable(path), qPrintable(f.errorString()));
        std::abort();
    }
    return path;
}

} // namespace provender::fuzz
