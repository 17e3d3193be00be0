#pragma once
// Small helpers of the lock-file suites (tests/lockitems, tests/lockui, tests/lockmerge): a provider
// address, platform or provider lock from literals known to be valid, lock-file text written by hand
// (a provider block, a one-provider tofu lock file) and TestSupport.h's writeFile.

#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "model/lockfile/LockFile.h"
#include "tests/support/TestSupport.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace provender::test {

inline ProviderAddress addr(const char *address)
{
    return ProviderAddress::parse(QString::fromLatin1(address)).value();
}

inline Platform platform(const char *name)
{
    return Platform::parse(QString::fromLatin1(name)).value();
}

/// A provider lock from literals known to be valid: `constraints` "" for none, `hashes` in the
/// given order; `defaultHost` completes an address without a host.
inline ProviderLock providerLock(const char *address, const char *version, const char *constraints = "", const QStringList &hashes = {},
                                 QLatin1StringView defaultHost = kOpenTofuRegistryHost)
{
    ProviderLock p;
    p.address = ProviderAddress::parse(QString::fromUtf8(address), defaultHost).value();
    p.version = Version::parse(QString::fromUtf8(version)).value();
    p.constraints = VersionConstraints::parse(QString::fromUtf8(constraints)).value();
    for (const QString &h : hashes)
        p.hashes.append(HashString::parse(h).value());
    return p;
}

/// The two header lines `tofu init` writes at the top of a lock file.
inline const QByteArray kTofuLockHeader =
    "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";

/// One provider block as tofu writes it (leading blank line included), hashes in the given order
/// (none: no hashes argument), `constraints` "" for none.
inline QByteArray providerBlock(const char *address, const char *version, const char *constraints, const QList<QByteArray> &hashes)
{
    QByteArray b = "\nprovider \"" + QByteArray(address) + "\" {\n";
    if (*constraints)
        b += "  version     = \"" + QByteArray(version) + "\"\n  constraints = \"" + QByteArray(constraints) + "\"\n";
    else
        b += "  version = \"" + QByteArray(version) + "\"\n";
    if (!hashes.isEmpty()) {
        b += "  hashes = [\n";
        for (const QByteArray &h : hashes)
            b += "    \"" + h + "\",\n";
        b += "  ]\n";
    }
    return b + "}\n";
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
