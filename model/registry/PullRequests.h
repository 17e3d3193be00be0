#pragma once
// What to pull, as a user gives it: typed `ADDR[=CONSTRAINT]` (the registry address rules of
// core/ProviderAddress, go-versions constraints) or a lock file's pinned versions. The one parser
// of these forms: `provender mirror pull` and the "Pull from Registry…" and "Open Registry…"
// dialogs (ui/registry) use it.

#include "model/core/Result.h"
#include "model/registry/MirrorPull.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

/// One `ADDR[=CONSTRAINT]`, e.g. `hashicorp/null=~> 3.2` (a bare type or namespace/type gets the
/// default host, as tofu reads a source address).
Result<PullRequest> parsePullRequest(const QString &text);
/// Every non-empty line of `lines` (comments starting with `#` skipped); the first bad line fails
/// the whole list with "line N: …".
Result<QList<PullRequest>> parsePullRequests(const QStringList &lines);
/// The providers a dependency lock file pins, each at its locked version. Fails when the file
/// cannot be read ("FILE: …") or has errors (every error, one a line, each "FILE:LINE: …").
Result<QList<PullRequest>> pullRequestsFromLockFile(const QString &path);
/// parsePullRequests(typedLines), then each lock file's pullRequestsFromLockFile() in order: what
/// the registry dialogs' forms ask for. The first failure fails the whole list.
Result<QList<PullRequest>> pullRequestsFrom(const QStringList &typedLines, const QStringList &lockFiles);

} // namespace provender
