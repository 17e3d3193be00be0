#pragma once
// Helpers shared by the test suites: where the shared corpus is, where terraform is, and a
// skip message that says exactly why a test did not run.

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QString>
#include <QStringList>
#include <QTest>

namespace provender::test {

/// The shared/ folder (corpus/, docs/) or "" when it is not there (a user's clone).
QString sharedDir();
/// shared/corpus/<sub> or "" when absent.
QString corpusDir(const QString &sub);
/// The project's source directory.
QString sourceDir();
/// Absolute path of `terraform` on PATH, or "".
QString terraformPath();
/// Reads a whole file; fails the calling test (QFAIL-like) through the return value being null.
QByteArray readFile(const QString &path);
/// Writes `bytes` to `path` (created or truncated), making its folder first; false when it cannot.
bool writeFile(const QString &path, const QByteArray &bytes);
/// Writes `bytes` over the file at `path` in place (the same inode: truncated first with `truncate`,
/// else written over its first bytes) and puts its access and modification times back, as `cp -p`
/// over an existing file or `touch -r` after an edit leave it. "" when done and the file's inode,
/// size and mtime are as before (only its ctime tells), else what went wrong or differs.
QString rewriteKeepingTimes(const QString &path, const QByteArray &bytes, bool truncate);
/// Every file below `root`, hidden ones too (relative path -> bytes): what "the directory is
/// untouched" compares.
QMap<QString, QByteArray> fileTree(const QString &root);
/// Every *.json below `root`, hidden files and folders left out (relative path -> bytes): the
/// index documents of a mirror.
QMap<QString, QByteArray> jsonFiles(const QString &root);
/// "" when `got` holds the same files as `want` (fileTree, jsonFiles) with the same bytes; else the
/// two file lists, or the first file that differs with both versions. `wantFrom` says where `want`
/// comes from ("terraform", "python").
QString fileTreeMismatch(const QMap<QString, QByteArray> &want, const QMap<QString, QByteArray> &got, const QString &wantFrom);

/// Each item's toString(), in order: a list of values (versions, hashes, platforms, diagnostics) as
/// the text a test compares.
template<typename List> QStringList toStrings(const List &items)
{
    QStringList out;
    for (const auto &item : items)
        out.append(item.toString());
    return out;
}

/// A random string for the property and fuzz rounds: a length drawn from 0..maxLength, then each
/// character drawn from `alphabet` (both from `rng`, in that order, so a seed gives the same strings).
QString randomString(QRandomGenerator &rng, const QString &alphabet, int maxLength);

/// How a child process ended (runProcess).
struct ProcessRun
{
    int exitCode = -1; ///< -1: did not start, crashed, or was killed at the timeout
    QByteArray out;
    QByteArray err;
    bool finished = false; ///< it ended by itself within the timeout
    /// What it wrote, as text: stdout, then stderr (runProcessMerged: both in `out`, in order).
    QString text() const { return QString::fromUtf8(out + err); }
};
/// Runs `program` to its end; past `timeoutMs` it is killed (finished false, exitCode -1, `err`
/// says so after what it wrote). `workingDirectory` "" = the test's own. `serveEvents` as for
/// runProcessMerged.
ProcessRun runProcess(const QString &program, const QStringList &args, int timeoutMs,
                      const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), const QString &workingDirectory = {},
                      const QByteArray &input = QByteArray(), bool serveEvents = false);

/// runProcess with stderr merged into `out` in the order written, for tools whose messages are
/// read as one text (terraform, gpg, openssl). With `serveEvents` this thread's event loop runs
/// while it waits, so that a server the test runs on its own thread (a QSslServer) answers the child.
ProcessRun runProcessMerged(const QString &program, const QStringList &args, const QString &workingDirectory,
                            const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 300000,
                            bool serveEvents = false);

/// Ends `process` if it runs: TERM (a server's fast shutdown), and KILL when it has not ended
/// within 10 s; then waits for it.
void stopProcess(QProcess &process);

/// Settings of the test's own: QStandardPaths' test mode, organization "ProvenderTest",
/// application `application`, and nothing left from an earlier run (QSettings cleared).
void useOwnSettings(const QString &application);

/// python3 (the system one first: version-manager shims on PATH can take seconds to start), or "".
QString python3();
/// Runs python3 with `args` (a script path or `-c`, then its arguments); its stdout (never null),
/// or a null array with *error set when python3 is missing, fails or runs past `timeoutMs`.
/// `input`, when not null, is written to its stdin.
QByteArray runPython(const QStringList &args, QString *error = nullptr, int timeoutMs = 600000, const QByteArray &input = QByteArray());
/// runPython({"-c", code} + args): a program given as text.
QByteArray runPythonCode(const QString &code, const QStringList &args = {}, QString *error = nullptr);

/// The environment of runTerraform's sandbox (also for the provender runs a test compares with
/// terraform's): the system environment without TF_/TOFU_ variables, TF_CLI_CONFIG_FILE
/// sandbox/cli.tfrc (created empty unless written first), TF_DATA_DIR sandbox/data, HOME
/// sandbox/home, TMPDIR sandbox/tmp (all created), CHECKPOINT_DISABLE=1, TF_IN_AUTOMATION=1 and
/// the proxies pointed at a closed port, so that nothing but loopback is reachable.
QProcessEnvironment sandboxEnvironment(const QString &sandbox);

/// Runs terraform (terraformPath()) in `sandbox`: its own CLI config (TF_CLI_CONFIG_FILE: sandbox/cli.tfrc, empty unless written first),
/// data dir, HOME and TMPDIR, CHECKPOINT_DISABLE=1, every other TF_ variable removed and proxies
/// pointed at a closed port, so that nothing but loopback is reachable. `err` holds stderr then
/// stdout. `extraEnv` is added last (e.g. SSL_CERT_FILE; a TF_CLI_CONFIG_FILE or TF_DATA_DIR of
/// the run's own). With `serveEvents` this thread's event loop runs while terraform does, for a
/// server the test runs on its own thread (runProcessMerged).
ProcessRun runTerraform(const QString &sandbox, const QString &workDir, const QStringList &args, const QProcessEnvironment &extraEnv = {},
                        int timeoutMs = 240000, bool serveEvents = false);
/// The platform terraform runs on ("linux_amd64"), from `terraform version -json` run by
/// runTerraform in a sandbox of its own; "" when terraform is absent or said nothing of it.
QString terraformPlatform();

/// What a skipped test lacks. Decides whether the skip is allowed (docs/ARCHITECTURE.md "Tests that
/// skip"): under CI=true only Terraform (not a Debian package) and Platform may be missing.
enum class Missing {
    Terraform, ///< terraform is not on PATH
    Corpus,    ///< ../shared/corpus (always beside a CI checkout)
    Package,   ///< a tool or library that scripts/dev installs (nginx, python3, git, gpg, …)
    Platform,  ///< a fact of this machine no install changes (a /proc file, a kernel feature)
};
/// "" when the test may skip, else the message to fail with (CI=true and a Corpus/Package need, or
/// a Terraform need while terraform is on PATH). Use PROVENDER_SKIP, not this.
QString skipVerdict(Missing missing, const QString &why);

} // namespace provender::test

/// For a test that also uses the corpus when it is there but has other inputs too: without the
/// corpus it goes on with the others — except under CI=true, where the corpus must be there.
#define PROVENDER_CORPUS_OPTIONAL(sub)                                                                                                     \
    do {                                                                                                                                   \
        if (qEnvironmentVariable("CI") == QLatin1String("true"))                                                                           \
            QFAIL(qPrintable(QStringLiteral("CI=true and ../shared/corpus/%1 is missing").arg(sub)));                                      \
    } while (false)

/// After `const QString dir = test::corpusDir(sub)`: skip (Missing::Corpus) when `dir` is "" — fail
/// under CI=true, where ../shared/corpus is always there.
#define PROVENDER_SKIP_UNLESS_CORPUS(dir, sub)                                                                                             \
    do {                                                                                                                                   \
        if ((dir).isEmpty())                                                                                                               \
            PROVENDER_SKIP(                                                                                                                \
                ::provender::test::Missing::Corpus,                                                                                        \
                QStringLiteral("shared corpus not found (set PROVENDER_SHARED_DIR to the shared/ folder with corpus/%1)").arg(sub));       \
    } while (false)

/// Skip (Missing::Terraform) with "terraform is not on PATH: <why>" when terraform is not there;
/// with terraform on PATH a skip for it would fail (skipVerdict).
#define PROVENDER_SKIP_UNLESS_TERRAFORM(why)                                                                                               \
    do {                                                                                                                                   \
        if (::provender::test::terraformPath().isEmpty())                                                                                  \
            PROVENDER_SKIP(::provender::test::Missing::Terraform, QStringLiteral("terraform is not on PATH: ") + (why));                   \
    } while (false)

/// Skip (Missing::Package) with "python3 is not on PATH: <why>" when test::python3() finds none
/// (it makes fixtures and computes expected values independently of our code).
#define PROVENDER_SKIP_UNLESS_PYTHON3(why)                                                                                                 \
    do {                                                                                                                                   \
        if (::provender::test::python3().isEmpty())                                                                                        \
            PROVENDER_SKIP(::provender::test::Missing::Package, QStringLiteral("python3 is not on PATH: ") + (why));                       \
    } while (false)

/// Skip the current test function (or data row) because something it needs is missing — or fail
/// when that must not be missing here (CI=true and anything but terraform or a machine fact).
/// Broken fixtures are failures, never skips: use QFAIL for them.
#define PROVENDER_SKIP(missing, why)                                                                                                       \
    do {                                                                                                                                   \
        const QString provenderSkipWhy_ = (why);                                                                                           \
        const QString provenderSkipFail_ = ::provender::test::skipVerdict((missing), provenderSkipWhy_);                                   \
        if (!provenderSkipFail_.isEmpty())                                                                                                 \
            QFAIL(qPrintable(provenderSkipFail_));                                                                                         \
        QSKIP(qPrintable(provenderSkipWhy_));                                                                                              \
    } while (false)

/// The prologue of the suites that need tools on PATH: PROVENDER_SKIP(Missing::Package, "needs … on
/// PATH") when `missingTools` (a fixture's missingTools(), such as "nginx (Debian package nginx),
/// python3") is not empty.
#define PROVENDER_SKIP_UNLESS_ON_PATH(missingTools)                                                                                        \
    do {                                                                                                                                   \
        const QString provenderMissingTools_ = (missingTools);                                                                             \
        if (!provenderMissingTools_.isEmpty())                                                                                             \
            PROVENDER_SKIP(::provender::test::Missing::Package, QStringLiteral("needs %1 on PATH").arg(provenderMissingTools_));           \
    } while (false)
