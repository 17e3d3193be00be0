#pragma once
// The hashing options every command that hashes packages takes, the same everywhere:
//   --jobs N     hash with N threads (default: all cores)
//   --no-cache   hash every package; do not read or write the hash cache
// and what they print: a progress line on stderr when it is a terminal, the cache's warning on
// stderr ("provender <command>: warning: the hash cache ... was not trusted ... recreated").

#include "model/verify/HashEngine.h"

#include <QCommandLineParser>

namespace provender::cli {

void addHashingOptions(QCommandLineParser &parser);

/// Fills jobs and useCache; false (after printing why, with the command's name) on a bad --jobs.
bool readHashingOptions(const QCommandLineParser &parser, const QString &command, HashRunOptions *options);

/// "\rhashing… N%" on stderr when stderr is a terminal and `enabled`; an empty callback otherwise.
/// Call clearHashingProgress() after the run to erase the line.
HashProgress hashingProgress(bool enabled = true);
void clearHashingProgress(bool enabled = true);

/// Prints the cache warning of a run (if any) on stderr.
void printCacheWarning(const QString &command, const QString &warning);

} // namespace provender::cli
