#include "tests/support/TestSupport.h"

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

} // namespace provender::test
