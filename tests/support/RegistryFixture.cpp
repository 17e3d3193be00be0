#include "tests/support/RegistryFixture.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

namespace provender::test {

QString RegistryFixture::missingTools()
{
    QStringList missing;
    if (const QString nginx = NginxFixture::missingTools(); !nginx.isEmpty())
        missing << nginx;
    if (!GpgFixture::available())
        missing << QStringLiteral("gpg");
    if (python3().isEmpty())
        missing << QStringLiteral("python3");
    return missing.join(QStringLiteral(", "));
}

bool RegistryFixture::start(const QString &dir, QString *error)
{
    const QString fpr = m_gpg.generateKey(QStringLiteral("Acme Releases <releases@acme.test>"));
    if (fpr.isEmpty()) {
        *error = m_gpg.lastError();
        return false;
    }
    const QString keyFile = dir + QStringLiteral("/key.asc");
    if (!test::writeFile(keyFile, m_gpg.exportKey(fpr))) {
        *error = QStringLiteral("cannot write ") + keyFile;
        return false;
    }
    m_root = dir + QStringLiteral("/registry");
    const QByteArray made = runPython({sourceDir() + QStringLiteral("/tests/support/make_registry.py"), m_root, keyFile}, error, 120000);
    if (made.isNull())
        return false;
    m_expected = QJsonDocument::fromJson(made).object();
    if (m_expected.isEmpty()) {
        *error = QStringLiteral("make_registry.py printed no account of its files");
        return false;
    }
    QDirIterator it(m_root + QStringLiteral("/files"), {QStringLiteral("*_SHA256SUMS")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString sums = it.next();
        const QByteArray sig = m_gpg.sign(fpr, readFile(sums));
        if (sig.isEmpty() || !test::writeFile(sums + QStringLiteral(".sig"), sig)) {
            *error = QStringLiteral("cannot sign %1: %2").arg(sums, m_gpg.lastError());
            return false;
        }
    }
    if (!m_nginx.makeCertificates(error)
        || !m_nginx.start(m_root, QStringLiteral("    location /v1/ { default_type application/json; }\n"), {}, error))
        return false;
    const QString cliConfig = dir + QStringLiteral("/cli.tfrc");
    if (!test::writeFile(cliConfig,
                         QStringLiteral("host \"%1\" {\n  services = {\n    \"providers.v1\" = \"%2v1/providers/\"\n  }\n}\n")
                             .arg(host(), m_nginx.baseUrl())
                             .toUtf8())) {
        *error = QStringLiteral("cannot write ") + cliConfig;
        return false;
    }
    m_sandbox = dir;
    m_env = sandboxEnvironment(dir);
    m_env.insert(m_nginx.trustOnlyThisCa());
    return true;
}

bool RegistryFixture::writeConfiguration(const QString &dir, const QList<Wanted> &wanted)
{
    QString tf = QStringLiteral("terraform {\n  required_providers {\n");
    for (const Wanted &w : wanted) {
        tf +=
            QStringLiteral("    %1 = {\n      source  = \"%2/acme/%1\"\n      version = \"%3\"\n    }\n").arg(w.type, host(), w.constraint);
    }
    tf += QStringLiteral("  }\n}\n");
    return test::writeFile(dir + QStringLiteral("/main.tf"), tf.toUtf8());
}

ProcessRun RegistryFixture::terraformMirror(const QString &configDir, const QStringList &platforms, const QString &dest) const
{
    QStringList args{QStringLiteral("providers"), QStringLiteral("mirror"), QStringLiteral("-no-color")};
    for (const QString &p : platforms)
        args << QStringLiteral("-platform=") + p;
    args << dest;
    return terraform(configDir, args);
}

ProcessRun RegistryFixture::terraform(const QString &configDir, const QStringList &args) const
{
    return runTerraform(m_sandbox, configDir, args, m_nginx.trustOnlyThisCa(), 300000);
}

} // namespace provender::test
