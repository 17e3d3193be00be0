#include "tests/support/TestSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

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

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QMap<QString, QByteArray> fileTree(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        out.insert(p.mid(root.size() + 1), readFile(p));
    }
    return out;
}

QMap<QString, QByteArray> jsonFiles(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        out.insert(QDir(root).relativeFilePath(path), readFile(path));
    }
    return out;
}

namespace {

/// The run both runProcess variants share: start, feed `input`, wait (with this thread's event
/// loop when `serveEvents`), kill at the timeout, collect.
ProcessRun runStarted(QProcess &p, const QString &program, const QStringList &args, int timeoutMs, const QByteArray &input,
                      bool serveEvents)
{
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForStarted(30000)) {
        r.err = "could not start " + program.toLocal8Bit() + ": " + p.errorString().toLocal8Bit();
        return r;
    }
    if (!input.isNull()) {
        p.write(input);
        p.closeWriteChannel();
    }
    if (serveEvents) {
        QEventLoop loop;
        QObject::connect(&p, &QProcess::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        if (p.state() != QProcess::NotRunning)
            loop.exec();
        r.finished = p.state() == QProcess::NotRunning;
    } else {
        r.finished = p.waitForFinished(timeoutMs);
    }
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

} // namespace

ProcessRun runProcess(const QString &program, const QStringList &args, int timeoutMs, const QProcessEnvironment &env,
                      const QString &workingDirectory, const QByteArray &input)
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    return runStarted(p, program, args, timeoutMs, input, false);
}

ProcessRun runProcessMerged(const QString &program, const QStringList &args, const QString &workingDirectory,
                            const QProcessEnvironment &env, int timeoutMs, bool serveEvents)
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.setProcessChannelMode(QProcess::MergedChannels);
    return runStarted(p, program, args, timeoutMs, QByteArray(), serveEvents);
}

QString python3()
{
    static const QString path = [] {
        const QString system = QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")});
        return system.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("python3")) : system;
    }();
    return path;
}

QByteArray runPython(const QStringList &args, QString *error, int timeoutMs, const QByteArray &input)
{
    if (python3().isEmpty()) {
        if (error)
            *error = QStringLiteral("python3 is not on PATH");
        return {};
    }
    const ProcessRun r = runProcess(python3(), args, timeoutMs, QProcessEnvironment::systemEnvironment(), {}, input);
    if (r.exitCode != 0) {
        if (error)
            *error = QStringLiteral("python3 %1 failed: %2").arg(args.join(u' '), QString::fromUtf8(r.err));
        return {};
    }
    return r.out.isNull() ? QByteArray("") : r.out;
}

QByteArray runPythonCode(const QString &code, const QStringList &args, QString *error)
{
    return runPython(QStringList{QStringLiteral("-c"), code} + args, error);
}

QProcessEnvironment sandboxEnvironment(const QString &sandbox)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys()) {
        if (key.startsWith(QStringLiteral("TF_")) || key.startsWith(QStringLiteral("TOFU_")))
            env.remove(key);
    }
    for (const char *d : {"data", "home", "tmp"})
        QDir().mkpath(sandbox + QLatin1Char('/') + QLatin1StringView(d));
    QFile cli(sandbox + QStringLiteral("/cli.tfrc"));
    if (!cli.exists() && cli.open(QIODevice::WriteOnly))
        cli.close();
    env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli.fileName());
    env.insert(QStringLiteral("CHECKPOINT_DISABLE"), QStringLiteral("1"));
    env.insert(QStringLiteral("TF_DATA_DIR"), sandbox + QStringLiteral("/data"));
    env.insert(QStringLiteral("TF_IN_AUTOMATION"), QStringLiteral("1"));
    env.insert(QStringLiteral("HOME"), sandbox + QStringLiteral("/home"));
    env.insert(QStringLiteral("TMPDIR"), sandbox + QStringLiteral("/tmp"));
    env.insert(QStringLiteral("HTTPS_PROXY"), QStringLiteral("http://127.0.0.1:9"));
    env.insert(QStringLiteral("HTTP_PROXY"), QStringLiteral("http://127.0.0.1:9"));
    env.insert(QStringLiteral("NO_PROXY"), QString());
    return env;
}

ProcessRun runTerraform(const QString &sandbox, const QString &workDir, const QStringList &args, const QProcessEnvironment &extraEnv,
                        int timeoutMs)
{
    QProcessEnvironment env = sandboxEnvironment(sandbox);
    for (const QString &key : extraEnv.keys())
        env.insert(key, extraEnv.value(key));
    ProcessRun r = runProcess(terraformPath(), args, timeoutMs, env, workDir);
    r.err += r.out;
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
