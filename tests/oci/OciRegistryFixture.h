#pragma once
// Debian's docker-registry (Distribution 2.8) on 127.0.0.1 for the tests/oci suites: TLS with a
// throw-away CA made by openssl, an htpasswd user alice/secret (bcrypt from python3-bcrypt, the
// only hash Distribution accepts), a tofu CLI config with that user's `oci_credentials` block, a
// HOME without Docker files, and the small packed mirror oci_tool.py writes with zipfile
// (example.com/test/foo 1.0.0 ×2 platforms + 2.0.0+build.1, example.com/test/bar 0.1.0 ×2).

#include "tests/support/TestSupport.h"

#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

#include <optional>

namespace provender::test {

class OciRegistryFixture
{
public:
    OciRegistryFixture() = default;
    ~OciRegistryFixture();
    OciRegistryFixture(const OciRegistryFixture &) = delete;
    OciRegistryFixture &operator=(const OciRegistryFixture &) = delete;

    /// What is missing to run (docker-registry, openssl, python3 with bcrypt), or nullopt.
    std::optional<std::pair<Missing, QString>> missing() const;
    /// Makes the CA, the user, the CLI config and the mirror, and starts the registry: "" or what
    /// failed (a fixture that cannot be built is a failure, not a skip).
    QString start();
    void stop();

    quint16 port() const { return m_port; }
    QString path(const QString &rel) const { return m_dir.filePath(rel); }
    QString dir() const { return m_dir.path(); }
    /// The python3 that has bcrypt (after start()).
    const QString &python() const { return m_python; }
    QString caFile() const { return path(QStringLiteral("ca.pem")); }
    /// `127.0.0.1:PORT/PREFIX/${namespace}/${type}`
    QString templ(const QString &prefix = QStringLiteral("mirror")) const;
    /// HOME, TF_CLI_CONFIG_FILE (alice's oci_credentials), no Docker or SSL variables.
    const QProcessEnvironment &environment() const { return m_env; }
    /// The packed mirror directory and its zips (absolute paths).
    QString mirror() const { return path(QStringLiteral("mirror")); }
    const QStringList &zips() const { return m_zips; }
    /// A document of the registry read with Python's http.client as alice (apiPath below /v2/).
    QJsonObject document(const QString &apiPath) const;
    /// The tags of `repository` ("" list when it has none or does not exist), read with Python.
    QStringList tags(const QString &repository) const;
    /// oci_tool.py ARGS with the python that has bcrypt.
    ProcessRun tool(const QStringList &args) const;
    /// SHA-256 (hex) of a file, computed by Python's hashlib.
    QString pythonSha256(const QString &file) const;

private:
    QTemporaryDir m_dir;
    QProcess m_registry;
    quint16 m_port = 0;
    QString m_python;
    QProcessEnvironment m_env;
    QStringList m_zips;
    bool openssl(const QStringList &args, QString *error) const;
};

} // namespace provender::test
