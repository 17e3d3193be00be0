#include "tests/support/TestSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <fcntl.h>
#include <sys/stat.h>

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

QString rewriteKeepingTimes(const QString &path, const QByteArray &bytes, bool truncate)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat before;
    if (::stat(native.constData(), &before) != 0)
        return QStringLiteral("cannot stat %1 before the rewrite").arg(path);
    {
        QFile f(path);
        if (!f.open(truncate ? QIODevice::WriteOnly | QIODevice::Truncate : QIODevice::ReadWrite) || f.write(bytes) != bytes.size())
            return QStringLiteral("cannot rewrite %1: %2").arg(path, f.errorString());
    }
    const struct timespec times[2] = {before.st_atim, before.st_mtim};
    if (::utimensat(AT_FDCWD, native.constData(), times, 0) != 0)
        return QStringLiteral("cannot restore the times of %1").arg(path);
    struct stat after;
    if (::stat(native.constData(), &after) != 0)
        return QStringLiteral("cannot stat %1 after the rewrite").arg(path);
    QStringList differs;
    if (after.st_ino != before.st_ino)
        differs << QStringLiteral("inode %1 -> %2").arg(before.st_ino).arg(after.st_ino);
    if (after.st_size != before.st_size)
        differs << QStringLiteral("size %1 -> %2").arg(before.st_size).arg(after.st_size);
    if (after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec)
        differs << QStringLiteral("mtime %1.%2 -> %3.%4")
                       .arg(before.st_mtim.tv_sec)
                       .arg(before.st_mtim.tv_nsec)
                       .arg(after.st_mtim.tv_sec)
                       .arg(after.st_mtim.tv_nsec);
    return differs.isEmpty() ? QString() : path + QStringLiteral(": ") + differs.join(QStringLiteral(", "));
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
                      const QString &workingDirectory, const QByteArray &input, bool serveEvents)
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    return runStarted(p, program, args, timeoutMs, input, serveEvents);
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

QString fileTreeMismatch(const QMap<QString, QByteArray> &want, const QMap<QString, QByteArray> &got, const QString &wantFrom)
{
    const QString shown = QStringLiteral("%1:\n--- %2\n%3\n--- provender\n%4");
    if (got.keys() != want.keys())
        return shown.arg(QStringLiteral("the files differ"), wantFrom, want.keys().join(u'\n'), got.keys().join(u'\n'));
    for (auto it = want.cbegin(); it != want.cend(); ++it)
        if (got.value(it.key()) != it.value())
            return shown.arg(it.key() + QStringLiteral(" differs"), wantFrom, QString::fromUtf8(it.value()),
                             QString::fromUtf8(got.value(it.key())));
    return {};
}

void useOwnSettings(const QString &application)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ProvenderTest"));
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
}

void stopProcess(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(10000)) {
        process.kill();
        process.waitForFinished();
    }
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

QString randomString(QRandomGenerator &rng, const QString &alphabet, int maxLength)
{
    QString s;
    const int length = int(rng.bounded(maxLength + 1));
    for (int i = 0; i < length; ++i)
        s += alphabet[int(rng.bounded(int(alphabet.size())))];
    return s;
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
                        int timeoutMs, bool serveEvents)
{
    QProcessEnvironment env = sandboxEnvironment(sandbox);
    env.insert(extraEnv);
    ProcessRun r = runProcess(terraformPath(), args, timeoutMs, env, workDir, QByteArray(), serveEvents);
    r.err += r.out;
    return r;
}

QString terraformPlatform()
{
    const QTemporaryDir sandbox;
    if (terraformPath().isEmpty() || !sandbox.isValid())
        return {};
    const ProcessRun r = runTerraform(sandbox.path(), sandbox.path(), {QStringLiteral("version"), QStringLiteral("-json")}, {}, 60000);
    return QJsonDocument::fromJson(r.out).object().value(QStringLiteral("platform")).toString();
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
