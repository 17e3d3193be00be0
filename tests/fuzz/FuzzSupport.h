#pragma once
// Shared by the libFuzzer targets of tests/fuzz (docs/FUZZING.md): how an invariant fails, and a
// scratch directory for the readers whose API takes a file.

#include <QByteArray>
#include <QFile>
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

/// A directory that lives as long as the process (one per fuzzer run, removed at exit).
inline const QString &scratchDir()
{
    static QTemporaryDir dir;
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
