#include "tests/support/TestSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QLockFile>
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
    const bool ci = qEnvironmentVariable("CI") == QLatin1String("true");
    const bool allowed = !ci || missing == Missing::Terraform || missing == Missing::Platform;
    const QString log = qEnvironmentVariable("PROVENDER_SKIP_LOG");
    if (allowed && !log.isEmpty()) {
        // One line per skip: suite, function, reason. Suites run in parallel: append under a lock.
        QLockFile lock(log + QStringLiteral(".lock"));
        lock.lock();
        QFile f(log);
        if (f.open(QIODevice::WriteOnly | QIODevice::Append)) {
            QString line = QCoreApplication::applicationName() + u'\t' + QString::fromLatin1(QTest::currentTestFunction());
            if (const char *row = QTest::currentDataTag())
                line += u':' + QString::fromUtf8(row);
            line += u'\t' + QString(why).replace(u'\n', u' ') + u'\n';
            f.write(line.toUtf8());
        }
    }
    if (allowed)
        return {};
    return QStringLiteral("CI=true, and this must not be missing there (scripts/dev installs it / CI has ../shared): ") + why;
}

} // namespace provender::test
