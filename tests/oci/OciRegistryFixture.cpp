#include "tests/oci/OciRegistryFixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

namespace provender::test {

namespace {

QString pythonWithBcrypt()
{
    for (const QString &candidate : {QStringLiteral("/usr/bin/python3"), QStandardPaths::findExecutable(QStringLiteral("python3"))}) {
        if (candidate.isEmpty() || !QFileInfo(candidate).isExecutable())
            continue;
        if (runProcess(candidate, {QStringLiteral("-c"), QStringLiteral("import bcrypt")}, 30000).exitCode == 0)
            return candidate;
    }
    return {};
}

quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

QString toolPath()
{
    return QStringLiteral(PROVENDER_SOURCE_DIR "/tests/oci/oci_tool.py");
}

} // namespace

OciRegistryFixture::~OciRegistryFixture()
{
    stop();
}

std::optional<std::pair<Missing, QString>> OciRegistryFixture::missing() const
{
    if (QStandardPaths::findExecutable(QStringLiteral("docker-registry")).isEmpty())
        return std::pair{Missing::Package, QStringLiteral("docker-registry (Debian's Distribution 2.8) is not installed")};
    if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty())
        return std::pair{Missing::Package, QStringLiteral("openssl is not installed")};
    if (pythonWithBcrypt().isEmpty())
        return std::pair{Missing::Package, QStringLiteral("python3 with the bcrypt module (python3-bcrypt) is not installed")};
    return std::nullopt;
}

bool OciRegistryFixture::openssl(const QStringList &args, QString *error) const
{
    const ProcessRun r = runProcess(QStringLiteral("openssl"), args, 60000, QProcessEnvironment::systemEnvironment(), m_dir.path());
    if (r.exitCode != 0)
        *error = QStringLiteral("openssl %1: %2").arg(args.join(QLatin1Char(' ')), QString::fromUtf8(r.err));
    return r.exitCode == 0;
}

QString OciRegistryFixture::start()
{
    m_python = pythonWithBcrypt();
    if (!m_dir.isValid() || m_python.isEmpty())
        return QStringLiteral("no temporary directory or python3 with bcrypt");
    QFile ext(path(QStringLiteral("ext.cnf")));
    if (!ext.open(QIODevice::WriteOnly))
        return ext.errorString();
    ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n");
    ext.close();
    QString error;
    const auto words = [](const char *text) { return QString::fromLatin1(text).split(QLatin1Char(' ')); };
    if (!openssl(words("req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj")
                     << QStringLiteral("/CN=Provender test CA"),
                 &error)
        || !openssl(words("req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj") << QStringLiteral("/CN=127.0.0.1"),
                    &error)
        || !openssl(words("x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile ext.cnf"),
                    &error))
        return error;
    const ProcessRun hash = runProcess(
        m_python,
        {QStringLiteral("-c"), QStringLiteral("import bcrypt;print('alice:'+bcrypt.hashpw(b'secret',bcrypt.gensalt(rounds=4)).decode())")},
        60000);
    if (hash.exitCode != 0)
        return QStringLiteral("bcrypt: ") + QString::fromUtf8(hash.err);
    QFile htpasswd(path(QStringLiteral("htpasswd")));
    if (!htpasswd.open(QIODevice::WriteOnly))
        return htpasswd.errorString();
    htpasswd.write(hash.out);
    htpasswd.close();

    m_port = freePort();
    QFile config(path(QStringLiteral("registry.yml")));
    if (!config.open(QIODevice::WriteOnly))
        return config.errorString();
    config.write(QStringLiteral("version: 0.1\nlog:\n  level: info\n  formatter: text\n"
                                "storage:\n  filesystem:\n    rootdirectory: %1\n  maintenance:\n    uploadpurging:\n      enabled: false\n"
                                "http:\n  addr: 127.0.0.1:%2\n  tls:\n    certificate: %3\n    key: %4\n"
                                "auth:\n  htpasswd:\n    realm: provender-test\n    path: %5\n")
                     .arg(path(QStringLiteral("storage")))
                     .arg(m_port)
                     .arg(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")), htpasswd.fileName())
                     .toUtf8());
    config.close();
    m_registry.setProcessChannelMode(QProcess::MergedChannels);
    m_registry.setStandardOutputFile(path(QStringLiteral("registry.log")));
    m_registry.start(QStandardPaths::findExecutable(QStringLiteral("docker-registry")), {QStringLiteral("serve"), config.fileName()});
    if (!m_registry.waitForStarted(30000))
        return m_registry.errorString();
    bool up = false;
    for (int i = 0; i < 300 && !up && m_registry.state() != QProcess::NotRunning; ++i) {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_port);
        up = s.waitForConnected(100);
        if (!up)
            QThread::msleep(100);
    }
    if (!up) {
        QFile log(path(QStringLiteral("registry.log")));
        (void)log.open(QIODevice::ReadOnly);
        return QStringLiteral("docker-registry did not start: ") + QString::fromUtf8(log.readAll().right(2000));
    }

    if (!QDir().mkpath(path(QStringLiteral("home"))))
        return QStringLiteral("cannot make HOME");
    QFile cli(path(QStringLiteral("cli.tfrc")));
    if (!cli.open(QIODevice::WriteOnly))
        return cli.errorString();
    cli.write(
        QStringLiteral("oci_credentials \"127.0.0.1:%1\" {\n  username = \"alice\"\n  password = \"secret\"\n}\n").arg(m_port).toUtf8());
    cli.close();
    m_env = QProcessEnvironment::systemEnvironment();
    for (const char *v : {"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "DOCKER_CONFIG", "TF_TOKEN_127_0_0_1", "SSL_CERT_FILE", "SSL_CERT_DIR"})
        m_env.remove(QString::fromLatin1(v));
    m_env.insert(QStringLiteral("HOME"), path(QStringLiteral("home")));
    m_env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli.fileName());

    const ProcessRun made = tool({QStringLiteral("mirror"), mirror()});
    if (made.exitCode != 0)
        return QStringLiteral("oci_tool.py mirror: ") + QString::fromUtf8(made.err);
    m_zips = QString::fromUtf8(made.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (m_zips.size() != 5)
        return QStringLiteral("oci_tool.py mirror wrote %1 zips, not 5").arg(m_zips.size());
    return {};
}

void OciRegistryFixture::stop()
{
    stopProcess(m_registry);
}

QString OciRegistryFixture::templ(const QString &prefix) const
{
    return QStringLiteral("127.0.0.1:%1/%2/${namespace}/${type}").arg(m_port).arg(prefix);
}

ProcessRun OciRegistryFixture::tool(const QStringList &args) const
{
    return runProcess(m_python, QStringList{toolPath()} + args, 120000);
}

QJsonObject OciRegistryFixture::document(const QString &apiPath) const
{
    const ProcessRun r = tool({QStringLiteral("get"), QStringLiteral("https://127.0.0.1:%1/v2/%2").arg(m_port).arg(apiPath), caFile(),
                               QStringLiteral("alice"), QStringLiteral("secret")});
    return r.exitCode == 0 ? QJsonDocument::fromJson(r.out).object() : QJsonObject();
}

QStringList OciRegistryFixture::tags(const QString &repository) const
{
    QStringList out;
    for (const QJsonValue &t : document(repository + QStringLiteral("/tags/list")).value(QLatin1StringView("tags")).toArray())
        out << t.toString();
    out.sort();
    return out;
}

QString OciRegistryFixture::pythonSha256(const QString &file) const
{
    const ProcessRun r = runProcess(
        m_python,
        {QStringLiteral("-c"), QStringLiteral("import hashlib,sys;print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())"), file},
        60000);
    return QString::fromLatin1(r.out).trimmed();
}

} // namespace provender::test
