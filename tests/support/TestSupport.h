#pragma once
// Helpers shared by the test suites: where the shared corpus is, where terraform is, and a
// skip message that says exactly why a test did not run.

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace provender::test {

/// The shared/ folder (corpus/, docs/) or "" when it is not there (a user's clone).
QString sharedDir();
/// shared/corpus/<sub> or "" when absent.
QString corpusDir(const QString &sub);
/// The project's source directory.
QString sourceDir();
/// Absolute path of `terraform` on PATH, or "".
QString terraformPath();
/// Reads a whole file; fails the calling test (QFAIL-like) through the return value being null.
QByteArray readFile(const QString &path);

/// How a child process ended (runProcess).
struct ProcessRun
{
    int exitCode = -1;     ///< -1: did not start, crashed, or was killed at the timeout
    QByteArray out;
    QByteArray err;
    bool finished = false; ///< it ended by itself within the timeout
};
/// Runs `program` to its end; past `timeoutMs` it is killed (finished false, exitCode -1, `err`
/// says so after what it wrote). `workingDirectory` "" = the test's own.
ProcessRun runProcess(const QString &program, const QStringList &args, int timeoutMs,
                      const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                      const QString &workingDirectory = {});

} // namespace provender::test
