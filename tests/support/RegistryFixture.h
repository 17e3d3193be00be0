#pragma once
// A static providers.v1 origin registry for tests that run terraform and provender against the
// same registry: make_registry.py writes the tree (zips, SHA256SUMS and its own account of every
// hash from Python's zipfile/hashlib), a key that gpg makes here signs every SHA256SUMS (terraform
// takes it as a community key: trust_signature empty), nginx serves it over TLS on 127.0.0.1, and
// a CLI config's `host` block points registry.provender.test at it. Link provender_testsupport_net.

#include "tests/support/GpgFixture.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"

#include <QJsonObject>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace provender::test {

class RegistryFixture
{
public:
    /// The registry's host name (the CLI config sends it to nginx).
    static QString host() { return QStringLiteral("registry.provender.test"); }
    /// "" when nginx, openssl, gpg and python3 are there, else which are missing (for PROVENDER_SKIP).
    static QString missingTools();

    /// Writes, signs and serves the registry below `dir` (registry/, key.asc, the sandbox of
    /// sandboxEnvironment(dir) with its cli.tfrc). False with *error on failure.
    bool start(const QString &dir, QString *error);

    QString root() const { return m_root; }
    QString caFile() const { return m_nginx.caFile(); }
    QString baseUrl() const { return m_nginx.baseUrl(); }
    /// make_registry.py's own account: file names, sha256, h1 (Python's zipfile).
    const QJsonObject &expected() const { return m_expected; }
    /// For terraform and provender alike: sandboxEnvironment(dir) with the nginx's
    /// trustOnlyThisCa(), so that both trust this server and nothing else.
    QProcessEnvironment environment() const { return m_env; }
    /// The GnuPG home whose key signed the sums (for more keys).
    GpgFixture &gpg() { return m_gpg; }

    struct Wanted
    {
        QString type; ///< acme/<type> on host()
        QString constraint;
    };
    /// Writes dir/main.tf requiring `wanted` from the registry; false when it cannot.
    static bool writeConfiguration(const QString &dir, const QList<Wanted> &wanted);
    /// terraform with `args` in the configuration folder `configDir`: runTerraform in the sandbox
    /// `dir` of start() (its cli.tfrc) trusting this server only, as environment() does.
    ProcessRun terraform(const QString &configDir, const QStringList &args) const;
    /// `terraform providers mirror -platform=… dest` in the configuration folder `configDir`
    /// (terraform()).
    ProcessRun terraformMirror(const QString &configDir, const QStringList &platforms, const QString &dest) const;

private:
    GpgFixture m_gpg;
    NginxFixture m_nginx;
    QString m_sandbox;
    QString m_root;
    QJsonObject m_expected;
    QProcessEnvironment m_env;
};

} // namespace provender::test
