#include "app/cli/Prologue.h"

namespace provender::cli {

Prologue::Prologue(const QString &command, const QString &description) : m_prefix(QStringLiteral("provender ") + command)
{
    m_parser.setApplicationDescription(description);
    m_parser.addHelpOption();
}

void Prologue::positional(const QString &name, const QString &description, const QString &syntax)
{
    m_parser.addPositionalArgument(name, description, syntax);
}

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

} // namespace provender::cli
