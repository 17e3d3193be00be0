#pragma once
// The prologue every command shares (issue 16 item 6): one QCommandLineParser with --help, the
// same error prefix ("provender <command>: …") before every usage error, and the same exit codes
// (Cli.h: 2 for bad usage, unknown options and a wrong number of arguments; --help exits 0).
// Every command starts with one (the oci commands through OciPrologue, which adds their common
// options). Commands that hash take --jobs/--no-cache through HashingOptions.h on this parser.
//
//   Prologue p(QStringLiteral("verify"), helpText(u"verify"_s));
//   p.parser().addOption(...);
//   p.positional(QStringLiteral("source"), QStringLiteral("…"), QStringLiteral("SOURCE"));
//   if (const std::optional<int> exit = p.parse(args, 1, 1))
//       return *exit;

#include "app/cli/Cli.h"
#include "model/lockfile/LockAnchors.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>
#include <utility>

namespace provender::cli {

/// A command's description for --help: resources/cli-help/<name>.txt, compiled into the program
/// (prose, so that it reads and diffs as text, away from the code that parses the options).
QString helpText(const QString &name);

/// `SIZE`: bytes, or with a binary suffix K/KiB, M/MiB, G/GiB (1K = 1024), case-insensitive;
/// -1 when it is not one.
qint64 parseByteSize(QString text);

/// --lock FILE… of `parser` as reviewed lock files (readLockAnchors), their parse warnings
/// printed; nullopt after "<prefix>: <why>" when a file cannot be read. Call when --lock is set.
std::optional<LockAnchors> readLockOption(const QCommandLineParser &parser, const QString &prefix);

/// --NAME of `parser` (call when it is set) as a whole number of at least `min` that fits in T;
/// nullopt after printing "<prefix>: --NAME needs <needs>".
template<typename T>
std::optional<T> wholeNumberOption(const QCommandLineParser &parser, const QString &prefix, const QString &name, T min, const char *needs)
{
    bool ok = false;
    const qint64 v = parser.value(name).toLongLong(&ok);
    if (!ok || v < min || !std::in_range<T>(v)) {
        err() << prefix << ": --" << name << " needs " << needs << '\n';
        return std::nullopt;
    }
    return T(v);
}

class Prologue
{
public:
    Prologue(const QString &command, const QString &description);

    QCommandLineParser &parser() { return m_parser; }
    const QCommandLineParser &parser() const { return m_parser; }
    /// "provender <command>"
    const QString &prefix() const { return m_prefix; }
    void positional(const QString &name, const QString &description, const QString &syntax);

    /// Parses `args`: nullopt to go on; otherwise the exit code to return (ExitOk after --help,
    /// ExitUsage after an error, printed with the prefix). Between `min` and `max` positional
    /// arguments (max < 0: no limit); `what` names them in the error ("one mirror").
    std::optional<int> parse(const QStringList &args, qsizetype min, qsizetype max, const QString &what = {});

    /// Prints "provender <command>: <message>" on stderr and returns ExitUsage.
    int usage(const QString &message) const;
    /// --NAME as an integer >= `min` (unchanged when not given); false after printing why.
    bool intOption(const QString &name, int *value, int min = 0) const;
    /// --NAME as a size (parseByteSize; unchanged when not given); false after printing why.
    bool sizeOption(const QString &name, qint64 *value) const;

    /// readLockOption() with this prologue's parser and prefix.
    std::optional<LockAnchors> lockAnchors() const { return readLockOption(m_parser, m_prefix); }

private:
    QString m_prefix;
    QCommandLineParser m_parser;
};

} // namespace provender::cli
