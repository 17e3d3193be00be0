#include "NginxFixture.h"

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <unistd.h>

namespace provender::test {

namespace {

QString findTool(const QString &name)
{
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    return p;
}

} // namespace

NginxFixture::NginxFixture()
{
    m_nginx = findTool(QStringLiteral("nginx"));
    m_openssl = findTool(QStringLiteral("openssl"));
}

NginxFixture::~NginxFixture()
{
    stop();
}

QString NginxFixture::missingTools()
{
    QStringList missing;
    if (findTool(QStringLiteral("nginx")).isEmpty())
        missing << QStringLiteral("nginx (Debian package nginx)");
    if (findTool(QStringLiteral("openssl")).isEmpty())
        missing << QStringLiteral("openssl");
    return missing.join(QStringLiteral(", "));
}

QString NginxFixture::missingToolsWithPython()
{
    QStringList missing;
    if (const QString nginx = missingTools(); !nginx.isEmpty())
        missing << nginx;
    if (python3().isEmpty())
        missing << QStringLiteral("python3");
    return missing.join(QStringLiteral(", "));
}

bool NginxFixture::runOpenssl(const QStringList &args, QString *error)
{
    QProcess p;
    p.setWorkingDirectory(m_dir.path());
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(m_openssl, args);
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (error)
            *error = QStringLiteral("openssl %1: %2").arg(args.join(QLatin1Char(' ')), QString::fromUtf8(p.readAll()));
        return false;
    }
    return true;
}

bool NginxFixture::makeCertificates(QString *error)
{
    if (!m_dir.isValid()) {
        *error = QStringLiteral("no temporary directory");
        return false;
    }
    const QString ec = QStringLiteral("ec");
    const QStringList curve{QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1")};
    QFile ext(m_dir.filePath(QStringLiteral("server.ext")));
    if (!ext.open(QIODevice::WriteOnly))
        return false;
    ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
    ext.close();
    return runOpenssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), ec} + curve
                          + QStringList{QStringLiteral("-nodes"), QStringLiteral("-keyout"), QStringLiteral("ca.key"),
                                        QStringLiteral("-out"), QStringLiteral("ca.pem"), QStringLiteral("-days"), QStringLiteral("2"),
                                        QStringLiteral("-subj"), QStringLiteral("/CN=Provender Test CA"), QStringLiteral("-addext"),
                                        QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-addext"),
                                        QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")},
                      error)
        && runOpenssl(QStringList{QStringLiteral("req"), QStringLiteral("-newkey"), ec} + curve
                          + QStringList{QStringLiteral("-nodes"), QStringLiteral("-keyout"), QStringLiteral("server.key"),
                                        QStringLiteral("-out"), QStringLiteral("server.csr"), QStringLiteral("-subj"),
                                        QStringLiteral("/CN=127.0.0.1")},
                      error)
        && runOpenssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), QStringLiteral("server.csr"),
                       QStringLiteral("-CA"), QStringLiteral("ca.pem"), QStringLiteral("-CAkey"), QStringLiteral("ca.key"),
                       QStringLiteral("-CAcreateserial"), QStringLiteral("-out"), QStringLiteral("server.pem"), QStringLiteral("-days"),
                       QStringLiteral("2"), QStringLiteral("-extfile"), QStringLiteral("server.ext")},
                      error)
        && runOpenssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), ec} + curve
                          + QStringList{QStringLiteral("-nodes"), QStringLiteral("-keyout"), QStringLiteral("other.key"),
                                        QStringLiteral("-out"), QStringLiteral("other.pem"), QStringLiteral("-days"), QStringLiteral("2"),
                                        QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                                        QStringLiteral("subjectAltName=IP:127.0.0.1")},
                      error);
}

QProcessEnvironment NginxFixture::trustOnlyThisCa() const
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("SSL_CERT_FILE"), caFile());
    env.insert(QStringLiteral("SSL_CERT_DIR"), m_dir.filePath(QStringLiteral("no-cert-dir")));
    return env;
}

QString NginxFixture::baseUrl() const
{
    return QStringLiteral("https://127.0.0.1:%1/").arg(m_port);
}

qint64 NginxFixture::accessLogSize() const
{
    const QString path = accessLogPath();
    qint64 size = QFileInfo(path).size();
    QElapsedTimer total;
    total.start();
    for (int quiet = 0; quiet < 3 && total.elapsed() < 5000;) {
        QThread::msleep(100);
        const qint64 now = QFileInfo(path).size();
        quiet = now == size ? quiet + 1 : 0;
        size = now;
    }
    return size;
}

QByteArray NginxFixture::accessLogFrom(qint64 offset) const
{
    (void)accessLogSize(); // the lines of the requests just made: nginx writes each after its response
    QFile f(accessLogPath());
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset))
        return {};
    return f.readAll();
}

NginxFixture::AuthorizationLog NginxFixture::authorizationsFrom(qint64 offset, const QByteArray &jsonAuth) const
{
    AuthorizationLog log;
    for (const QByteArray &line : accessLogFrom(offset).split('\n')) {
        if (line.isEmpty())
            continue;
        const bool json = line.contains(".json ");
        ++(json ? log.json : log.other);
        const QByteArray expected = "auth=\"" + (json ? jsonAuth : QByteArray("-")) + '"';
        if (log.wrong.isEmpty() && !line.endsWith(expected))
            log.wrong = QString::fromUtf8(line);
    }
    return log;
}

QString NginxFixture::errorLogText() const
{
    QFile f(m_dir.filePath(QStringLiteral("nginx/logs/error.log")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool NginxFixture::start(const QString &root, const QString &serverExtra, const QString &httpExtra, QString *error, bool badCertificate)
{
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0)) {
            *error = QStringLiteral("no free port");
            return false;
        }
        m_port = probe.serverPort();
    }
    const QString prefix = m_dir.filePath(QStringLiteral("nginx"));
    QDir().mkpath(prefix + QStringLiteral("/logs"));
    const QString cert = m_dir.filePath(badCertificate ? QStringLiteral("other.pem") : QStringLiteral("server.pem"));
    const QString key = m_dir.filePath(badCertificate ? QStringLiteral("other.key") : QStringLiteral("server.key"));
    const QString conf = QStringLiteral("daemon off;\nworker_processes 1;\npid %1/nginx.pid;\nerror_log %1/logs/error.log;\n%2"
                                        "events { worker_connections 64; }\n"
                                        "http {\n"
                                        "  log_format provender '$request_method $request_uri $status auth=\"$http_authorization\"';\n"
                                        "  access_log %1/logs/access.log provender;\n"
                                        "  client_body_temp_path %1/body; proxy_temp_path %1/proxy; fastcgi_temp_path %1/fastcgi;\n"
                                        "  uwsgi_temp_path %1/uwsgi; scgi_temp_path %1/scgi;\n"
                                        "  types { application/json json; application/zip zip; }\n"
                                        "  default_type application/octet-stream;\n%7\n"
                                        "  server {\n    listen 127.0.0.1:%3 ssl http2;\n    ssl_certificate %4;\n"
                                        "    ssl_certificate_key %5;\n    root %6;\n%8\n  }\n}\n")
                             .arg(prefix, ::geteuid() == 0 ? QStringLiteral("user root;\n") : QString())
                             .arg(m_port)
                             .arg(cert, key, root, httpExtra, serverExtra);
    QFile confFile(prefix + QStringLiteral("/nginx.conf"));
    if (!confFile.open(QIODevice::WriteOnly)) {
        *error = confFile.errorString();
        return false;
    }
    confFile.write(conf.toUtf8());
    confFile.close();
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(m_nginx,
                    {QStringLiteral("-p"), prefix, QStringLiteral("-c"), prefix + QStringLiteral("/nginx.conf"), QStringLiteral("-e"),
                     prefix + QStringLiteral("/logs/error.log")});
    if (!m_process.waitForStarted(10000)) {
        *error = m_process.errorString();
        return false;
    }
    for (int i = 0; i < 100; ++i) { // bounded wait: up to ~20 s on a loaded machine
        if (m_process.state() != QProcess::Running)
            break;
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_port);
        if (s.waitForConnected(200))
            return true;
        QThread::msleep(100);
    }
    *error = QStringLiteral("nginx did not start: %1 %2").arg(QString::fromUtf8(m_process.readAll()), errorLogText());
    return false;
}

void NginxFixture::stop()
{
    stopProcess(m_process);
}

} // namespace provender::test
