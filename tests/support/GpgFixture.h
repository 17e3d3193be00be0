#pragma once
// A throw-away GnuPG home for tests: generate signing keys (good, expired, revoked) with the real
// `gpg --batch`, export them armoured, make detached signatures. The gpg-agent that gpg starts
// for this home is stopped when the fixture goes away. Needs `gpg` (Debian: gnupg).

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace provender::test {

class GpgFixture
{
public:
    GpgFixture()
    {
        QFile::setPermissions(m_home.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(QStringLiteral("GNUPGHOME"), m_home.path());
    }
    ~GpgFixture()
    {
        if (m_started)
            runProcess(QStringLiteral("gpgconf"), {QStringLiteral("--kill"), QStringLiteral("gpg-agent")}, 30000, m_env);
    }
    GpgFixture(const GpgFixture &) = delete;
    GpgFixture &operator=(const GpgFixture &) = delete;

    static bool available() { return !QStandardPaths::findExecutable(QStringLiteral("gpg")).isEmpty(); }
    const QString &lastError() const { return m_error; }

    /// A new ed25519 signing key; returns its fingerprint ("" on failure, lastError() says why).
    /// `fakedTime` (gpg's --faked-system-time, e.g. "20200101T000000") and `expire` ("0", "1d")
    /// make keys that are already expired today.
    QString generateKey(const QString &uid, const QString &expire = QStringLiteral("0"), const QString &fakedTime = {})
    {
        QStringList args = base();
        if (!fakedTime.isEmpty())
            args << QStringLiteral("--faked-system-time") << fakedTime;
        args << QStringLiteral("--quick-gen-key") << uid << QStringLiteral("ed25519") << QStringLiteral("sign") << expire;
        if (!gpg(args))
            return {};
        const ProcessRun r = runProcess(QStringLiteral("gpg"),
                                        base() << QStringLiteral("--with-colons") << QStringLiteral("--list-keys") << uid, 60000, m_env);
        for (const QByteArray &line : r.out.split('\n'))
            if (line.startsWith("fpr:"))
                return QString::fromLatin1(line.split(':').value(9));
        m_error = QStringLiteral("no fingerprint for ") + uid;
        return {};
    }

    /// Revoke `fpr` (its own revocation certificate, which gpg writes when it makes the key).
    bool revoke(const QString &fpr)
    {
        QFile rev(m_home.path() + QStringLiteral("/openpgp-revocs.d/") + fpr + QStringLiteral(".rev"));
        if (!rev.open(QIODevice::ReadOnly)) {
            m_error = QStringLiteral("no revocation certificate for ") + fpr;
            return false;
        }
        QByteArray cert = rev.readAll();
        cert.replace(":-----BEGIN PGP PUBLIC KEY BLOCK-----", "-----BEGIN PGP PUBLIC KEY BLOCK-----");
        const QString file = m_home.path() + QStringLiteral("/rev.asc");
        QFile out(file);
        if (!out.open(QIODevice::WriteOnly) || out.write(cert) != cert.size())
            return false;
        out.close();
        return gpg(base() << QStringLiteral("--import") << file);
    }

    QByteArray exportKey(const QString &fpr)
    {
        const ProcessRun r =
            runProcess(QStringLiteral("gpg"), base() << QStringLiteral("--armor") << QStringLiteral("--export") << fpr, 60000, m_env);
        if (r.exitCode != 0 || r.out.isEmpty())
            m_error = QString::fromLocal8Bit(r.err);
        return r.exitCode == 0 ? r.out : QByteArray();
    }

    /// A binary detached signature of `data` by `fpr` (as registries publish SHA256SUMS.sig).
    QByteArray sign(const QString &fpr, const QByteArray &data, const QString &fakedTime = {})
    {
        const QString in = m_home.path() + QStringLiteral("/to-sign");
        const QString sig = in + QStringLiteral(".sig");
        QFile::remove(sig);
        QFile f(in);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
            return {};
        f.close();
        QStringList args = base();
        if (!fakedTime.isEmpty())
            args << QStringLiteral("--faked-system-time") << fakedTime;
        args << QStringLiteral("--yes") << QStringLiteral("--local-user") << fpr << QStringLiteral("--output") << sig
             << QStringLiteral("--detach-sign") << in;
        if (!gpg(args))
            return {};
        return readFile(sig);
    }

    const QProcessEnvironment &environment() const { return m_env; }

private:
    QStringList base() const
    {
        return {QStringLiteral("--batch"), QStringLiteral("--pinentry-mode"), QStringLiteral("loopback"), QStringLiteral("--passphrase"),
                QString()};
    }
    bool gpg(const QStringList &args)
    {
        m_started = true;
        const ProcessRun r = runProcess(QStringLiteral("gpg"), args, 120000, m_env);
        if (r.exitCode != 0)
            m_error = QStringLiteral("gpg %1: %2").arg(args.join(u' '), QString::fromLocal8Bit(r.err));
        return r.exitCode == 0;
    }

    QTemporaryDir m_home{QDir::tempPath() + QStringLiteral("/provender-test-gpg-XXXXXX")};
    QProcessEnvironment m_env;
    QString m_error;
    bool m_started = false;
};

} // namespace provender::test
