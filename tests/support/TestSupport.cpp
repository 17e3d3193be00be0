#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
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

} // namespace provender::test
