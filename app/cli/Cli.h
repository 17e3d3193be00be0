#pragma once
// The command-line front. `provender <command> ...` runs one of these under a QCoreApplication;
// `provender [PATH]` with no command starts the GUI. Every command calls the same model/
// functions the GUI uses; nothing here is a second implementation.

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTextStream>

namespace provender::cli {

/// Exit codes (DESIGN.md): 0 ok, 1 findings (mismatch, missing, diff, not canonical), 2 bad usage
/// or unreadable input.
enum ExitCode { ExitOk = 0, ExitFindings = 1, ExitUsage = 2 };

struct Command
{
    const char *name;                    ///< first word(s) after `provender`, e.g. "hash" or "lock fmt"
    const char *summary;                 ///< one line for `provender --help`
    int (*run)(const QStringList &args); ///< args[0] is "provender <name>"; returns an ExitCode
};

/// Every command, in help order.
const QList<Command> &commands();

/// Finds the command named by argv (longest match of "lock fmt" before "lock"). `consumed` is
/// how many words of argv[1..] named it. nullptr when argv does not name a command.
const Command *findCommand(const QStringList &argv, int *consumed);

QTextStream &out();
QTextStream &err();

/// Rows as aligned columns: every column but the last padded to its widest cell plus two spaces
/// (the verdict tables of verify DIR, verify URL and verify oci://).
void printColumns(QTextStream &o, const QList<QStringList> &rows);

/// `o[key] = value` when `value` is not empty: the optional members of the JSON documents.
template<typename T> void insertIfNotEmpty(QJsonObject &o, const QString &key, const T &value)
{
    if (!value.isEmpty())
        o[key] = value;
}

/// Each value's toString() as a JSON array of strings (platforms, versions, provider addresses).
template<typename List> QJsonArray jsonStrings(const List &values)
{
    QJsonArray strings;
    for (const auto &v : values)
        strings.append(v.toString());
    return strings;
}

} // namespace provender::cli
