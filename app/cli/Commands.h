#pragma once
// One function per CLI command; each lives in its own app/cli/<Name>Command.cpp.

#include <QStringList>

namespace provender {
struct VerdictDetail;
struct VerifySummary;
} // namespace provender

namespace provender::cli {

/// The ANCHOR column of verify tables: "own index", "own SHA256SUMS", "lock FILE", joined with " + ";
/// "not covered by a lock"; "-" when nothing vouched (app/cli/VerifyCommand.cpp).
QString anchorText(const provender::VerdictDetail &d);
/// The DETAIL of a verified archive after "matched ": how each hash matched, ", "-joined.
QString matchedText(const provender::VerdictDetail &d);
/// "N verified, N mismatch, …" of the verify tables' summary line (verified always, the rest when not 0).
QString summaryText(const provender::VerifySummary &s);

int runHash(const QStringList &args);
int runIndex(const QStringList &args);
int runVerify(const QStringList &args);
int runDemoMirror(const QStringList &args);

int runLockFmt(const QStringList &args);
int runLockDiff(const QStringList &args);
int runLockCheck(const QStringList &args);
int runLockAddHashes(const QStringList &args);
int runLockUpgrade(const QStringList &args);
int runLockInit(const QStringList &args);
int runLockMerge(const QStringList &args);
int runLock(const QStringList &args); ///< `provender lock [--help]`: the list of lock subcommands

int runBundleCreate(const QStringList &args);
int runBundleVerify(const QStringList &args);
int runBundleImport(const QStringList &args);
int runBundleRecover(const QStringList &args);

int runOciPush(const QStringList &args); // app/cli/OciCommands.cpp
int runOciVerify(const QStringList &args);
int runOciList(const QStringList &args);
int runMirrorPull(const QStringList &args);

} // namespace provender::cli
