#include "tests/support/TestSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

namespace provender::test {

QString sharedDir()
{
    const QByteArray env = qgetenv("PROVENDER_SHARED_DIR");
    const QString dir = env.isEmpty() ? QStringLiteral(PROVENDER_SHARED_DIR) : QString::fromLocal8Bit(env);
    return QFileInfo(dir).isDir() ? QDir(dir).absolutePath() : QString();
}

QString corpusDir(const QString &sub)
{
    const QString shared = sharedDir();
    if (shared.isEmpty())
        return {};
    const QString dir = shared + QStringLiteral("/corpus/") + sub;
    return QFileInfo(dir).isDir() ? dir : QString();
}

QString sourceDir()
{
    return QStringLiteral(PROVENDER_SOURCE_DIR);
}

QString terraformPath()
{
    return QStandardPaths::findExecutable(QStringLiteral("terraform"));
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

ProcessRun runProcess(const QString &program, const QStringList &args, int timeoutMs, const QProcessEnvironment &env,
                      const QString &workingDirectory)
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForStarted(30000)) {
        r.err = "could not start " + program.toLocal8Bit() + ": " + p.errorString().toLocal8Bit();
        return r;
    }
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = r.finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    if (!r.finished)
        r.err += "\n" + program.toLocal8Bit() + " did not finish in time";
    return r;
}

QString skipVerdict(Missing missing, const QString &why)
{
    // The skip itself is logged by tests/support/run-suite from Qt Test's SKIP line (one mechanism
    // for every skip, PROVENDER_SKIP or not); here only whether it may skip at all.
    const bool ci = qEnvironmentVariable("CI") == QLatin1String("true");
    if (missing == Missing::Terraform && !terraformPath().isEmpty())
        return QStringLiteral("terraform is on PATH, so this interop test must not skip: ") + why;
    const bool allowed = !ci || missing == Missing::Terraform || missing == Missing::Platform;
    if (allowed)
        return {};
    return QStringLiteral("CI=true, and this must not be missing there (scripts/dev installs it / CI has ../shared): ") + why;
}

} // namespace provender::test
