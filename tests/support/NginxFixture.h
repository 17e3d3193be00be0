#pragma once
// A real nginx for tests: started on 127.0.0.1 and a free port with its config, prefix, pid file
// and logs in a temporary directory, TLS with a throw-away CA and a server certificate for
// 127.0.0.1/localhost made with `openssl`. Stopped (TERM, then KILL) by stop() or the destructor.
// Tests skip (PROVENDER_SKIP, Missing::Package) when missingTools() is not empty. Link Qt6::Network.

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

namespace provender::test {

class NginxFixture
{
public:
    NginxFixture();
    ~NginxFixture();
    NginxFixture(const NginxFixture &) = delete;
    NginxFixture &operator=(const NginxFixture &) = delete;

    /// "" when nginx and openssl are on PATH, else which are missing (for PROVENDER_SKIP).
    static QString missingTools();
    /// missingTools() and python3 (test::python3()): for the suites that also build what is served
    /// with a Python script.
    static QString missingToolsWithPython();

    /// Makes ca.pem (a CA) and server.pem/server.key (signed by it, SAN IP:127.0.0.1, DNS:localhost)
    /// plus other.pem/other.key (self-signed, not from the CA). `error` gets openssl's output.
    bool makeCertificates(QString *error);

    /// Starts nginx serving `root`. `serverExtra` goes inside the TLS server block (locations,
    /// rewrites), `httpExtra` into the http block (maps, log formats). The access log uses the
    /// format `$request_method $request_uri $status auth="$http_authorization"`.
    /// When `badCertificate` is set, the server presents other.pem (not signed by the CA).
    bool start(const QString &root, const QString &serverExtra, const QString &httpExtra, QString *error, bool badCertificate = false);
    void stop();

    quint16 port() const { return m_port; }
    /// https://127.0.0.1:<port>/
    QString baseUrl() const;
    QString caFile() const { return m_dir.filePath(QStringLiteral("ca.pem")); }
    /// For terraform (runTerraform's `extraEnv`): SSL_CERT_FILE caFile() and SSL_CERT_DIR a folder
    /// that does not exist, so that Go trusts this server's CA and nothing else.
    QProcessEnvironment trustOnlyThisCa() const;
    QString accessLogPath() const { return m_dir.filePath(QStringLiteral("nginx/logs/access.log")); }
    /// The access log's size once nginx has written the lines of every earlier request. nginx
    /// writes a line after it has sent the response, so the client of an earlier request may
    /// already have moved on: this waits until the size has not changed for 300 ms (at most 5 s).
    qint64 accessLogSize() const;
    /// The access log from byte `offset` on (an accessLogSize() taken before the requests), once
    /// nginx has written the lines of the requests made since (the same wait as accessLogSize()).
    QByteArray accessLogFrom(qint64 offset) const;
    /// The Authorization headers of the requests logged from byte `offset` on: index documents
    /// (".json " requests) must all have sent `jsonAuth` ("Bearer …"), every other request none
    /// (nginx logs "-").
    struct AuthorizationLog
    {
        int json = 0;  ///< requests for index documents
        int other = 0; ///< every other request (archives)
        QString wrong; ///< the first line that broke the rule, or ""
    };
    AuthorizationLog authorizationsFrom(qint64 offset, const QByteArray &jsonAuth) const;
    QString errorLogText() const;
    QString path(const QString &rel) const { return m_dir.filePath(rel); }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    QString m_nginx, m_openssl;
    bool runOpenssl(const QStringList &args, QString *error);
};

} // namespace provender::test
