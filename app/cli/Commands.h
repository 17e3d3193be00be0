#pragma once
// One function per CLI command; each lives in its own app/cli/<Name>Command.cpp.

#include <QStringList>

namespace provender::cli {

int runHash(const QStringList &args);
int runIndex(const QStringList &args);
int runVerify(const QStringList &args);
int runDemoMirror(const QStringList &args);

} // namespace provender::cli
