#pragma once
// Helpers shared by the test suites: where the shared corpus is, where terraform is, and a
// skip message that says exactly why a test did not run.

#include <QString>

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

} // namespace provender::test
