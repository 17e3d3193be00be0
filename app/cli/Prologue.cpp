#include "app/cli/Prologue.h"

#include <QFile>

#include <limits>
#include <utility>

namespace provender::cli {

QString helpText(const QString &name)
{
    QFile f(QStringLiteral(":/cli-help/%1.txt").arg(name));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("no help text %s in the resources", qPrintable(name)); // a build mistake, never input
    }
    QString text = QString::fromUtf8(f.readAll());
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1); // the file's last line ends like any text file's; the description does not
    return text;
}

Prologue::Prologue(const QString &command, const QString &description) : m_prefix(QStringLiteral("provender ") + command)
{
    m_parser.setApplicationDescription(description);
    m_parser.addHelpOption();
}

void Prologue::positional(const QString &name, const QString &description, const QString &syntax)
{
    m_parser.addPositionalArgument(name, description, syntax);
}

namespace {

/// The parse + --help step: nullopt to go on, else the exit code (errors printed as
/// "<prefix>: <parser's error>").
std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &args, const QString &prefix)
{
    if (!parser.parse(args)) {
        err() << prefix << ": " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return ExitOk;
    }
    return std::nullopt;
}

} // namespace

std::optional<int> Prologue::parse(const QStringList &args, qsizetype min, qsizetype max, const QString &what)
{
    if (const std::optional<int> exit = parseCommandLine(m_parser, args, m_prefix))
        return exit;
    const qsizetype n = m_parser.positionalArguments().size();
    if (n < min || (max >= 0 && n > max)) {
        const QString count = min == max ? QStringLiteral("exactly %1").arg(what.isEmpty() ? QString::number(min) : what)
            : max < 0                    ? QStringLiteral("at least %1").arg(what.isEmpty() ? QString::number(min) : what)
                                         : QStringLiteral("%1 to %2").arg(min).arg(max);
        return usage(QStringLiteral("give %1 (see --help)").arg(count));
    }
    return std::nullopt;
}

int Prologue::usage(const QString &message) const
{
    err() << m_prefix << ": " << message << '\n';
    return ExitUsage;
}

bool Prologue::intOption(const QString &name, int *value, int min) const
{
    if (!m_parser.isSet(name))
        return true;
    bool ok = false;
    const int v = m_parser.value(name).toInt(&ok);
    if (!ok || v < min) {
        usage(
            QStringLiteral("--%1 needs %2, not '%3'")
                .arg(name, min > 0 ? QStringLiteral("a positive number") : QStringLiteral("a non-negative number"), m_parser.value(name)));
        return false;
    }
    *value = v;
    return true;
}

qint64 parseByteSize(QString text)
{
    text = text.trimmed();
    qint64 unit = 1;
    static const std::pair<const char *, qint64> suffixes[] = {{"KiB", 1ll << 10}, {"MiB", 1ll << 20}, {"GiB", 1ll << 30},
                                                               {"K", 1ll << 10},   {"M", 1ll << 20},   {"G", 1ll << 30}};
    for (const auto &[suffix, factor] : suffixes)
        if (text.endsWith(QLatin1StringView(suffix), Qt::CaseInsensitive)) {
            text.chop(qsizetype(qstrlen(suffix)));
            unit = factor;
            break;
        }
    bool ok = false;
    const qint64 v = text.trimmed().toLongLong(&ok);
    if (!ok || v < 0 || v > std::numeric_limits<qint64>::max() / unit)
        return -1;
    return v * unit;
}

bool Prologue::sizeOption(const QString &name, qint64 *value) const
{
    if (!m_parser.isSet(name))
        return true;
    const qint64 v = parseByteSize(m_parser.value(name));
    if (v < 0) {
        usage(QStringLiteral("--%1 needs a size in bytes (suffix K, M or G allowed), not '%2'").arg(name, m_parser.value(name)));
        return false;
    }
    *value = v;
    return true;
}

std::optional<LockAnchors> readLockOption(const QCommandLineParser &parser, const QString &prefix)
{
    Result<LockAnchors> locks = readLockAnchors(parser.values(QStringLiteral("lock")));
    if (!locks.ok()) {
        err() << prefix << ": " << locks.error().toString() << '\n';
        return std::nullopt;
    }
    for (const QString &w : locks.value().warnings)
        err() << w << '\n';
    return std::move(locks).value();
}

} // namespace provender::cli
