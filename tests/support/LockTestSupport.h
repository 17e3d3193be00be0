#pragma once
// Small helpers of the lock-file suites (tests/lockitems, tests/lockui): write a file (its folder
// made first), a provider address or platform from a literal known to be valid, a one-provider
// tofu lock file written by hand.

#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace provender::test {

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

inline ProviderAddress addr(const char *address)
{
    return ProviderAddress::parse(QString::fromLatin1(address)).value();
}

inline Platform platform(const char *name)
{
    return Platform::parse(QString::fromLatin1(name)).value();
}

/// A tofu lock file (canonical form, written by hand) locking hashicorp/null at `version`.
inline QByteArray tofuNullLock(const char *version)
{
    return "# This file is maintained automatically by \"tofu init\".\n"
           "# Manual edits may be lost in future updates.\n"
           "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n  version = \""
        + QByteArray(version) + "\"\n}\n";
}

} // namespace provender::test
