#pragma once
// Small helpers of the lock-file suites (tests/lockitems, tests/lockui): a provider address or
// platform from a literal known to be valid, a one-provider tofu lock file written by hand (and
// TestSupport.h's writeFile).

#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "tests/support/TestSupport.h"

#include <QByteArray>

namespace provender::test {

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
