// Interop (a): our index export reproduces, byte for byte, the index.json and <version>.json files
// that the real `terraform providers mirror` writes.
//
// terraform's `providers mirror` always asks the providers' origin registry, so this test serves
// a small provider registry itself, over HTTPS on 127.0.0.1 (QSslServer in this process):
//   - a certificate made with `openssl req` at test time, trusted by terraform through
//     SSL_CERT_FILE;
//   - the registry protocol: service discovery (/.well-known/terraform.json), the versions and
//     download endpoints (providers.v1), the zips, SHA256SUMS and its detached signature;
//   - a throw-away GnuPG key made with `gpg --batch` at test time: terraform verifies the
//     signature against `signing_keys` of the download response (a "community" provider).
// Hosts: `registry.provender.test` and the IDN host `café.provender.test` are pointed at the
// server by `host` blocks of the CLI config of terraform's sandbox (test::runTerraform; no DNS
// lookup); `localhost:PORT` is found by service discovery. Proxies point at a closed port, so
// nothing but loopback is reachable.
//
// Before terraform runs, the mirror directory gets extra content that terraform's re-scan also
// indexes (it indexes everything in the directory, tofu-formats.md §4): a provider with only an
// unpacked package, two packed copies of one version/platform, an upper-case file name, a
// version with build metadata, and a file name with characters Go escapes in JSON. terraform runs twice (two versions of one provider: the
// indexes merge). Then terraform's JSON files are recorded, deleted, and rebuilt by exportIndexes(); every file must come back
// byte-identical, and a dry run on terraform's own output must find nothing to change.

#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "tests/support/MirrorFixture.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

struct Response
{
    int status = 404;
    QByteArray contentType = "text/plain";
    QByteArray body = "not found\n";
};

/// A minimal HTTPS/1.1 server: one request per connection, answered by a handler.
class HttpsServer : public QObject
{
public:
    using Handler = std::function<Response(const QString &path)>;

    bool start(const QString &certFile, const QString &keyFile, Handler handler)
    {
        m_handler = std::move(handler);
        const QList<QSslCertificate> certs = QSslCertificate::fromPath(certFile);
        QFile keyIn(keyFile);
        if (certs.isEmpty() || !keyIn.open(QIODevice::ReadOnly))
            return false;
        const QSslKey key(&keyIn, QSsl::Rsa, QSsl::Pem);
        if (key.isNull())
            return false;
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setLocalCertificate(certs.first());
        conf.setPrivateKey(key);
        conf.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_server.setSslConfiguration(conf);
        QObject::connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, [this] { accept(); });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }
    const QStringList &requests() const { return m_requests; }

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            auto buffer = std::make_shared<QByteArray>();
            QObject::connect(socket, &QIODevice::readyRead, socket, [this, socket, buffer] {
                buffer->append(socket->readAll());
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                const QList<QByteArray> requestLine = buffer->left(buffer->indexOf("\r\n")).split(' ');
                const QString path =
                    requestLine.size() >= 2 ? QString::fromUtf8(QByteArray::fromPercentEncoding(requestLine.at(1))) : QString();
                m_requests.append(path);
                const Response r = m_handler(path);
                QByteArray head = "HTTP/1.1 " + QByteArray::number(r.status) + (r.status == 200 ? " OK" : " Not Found")
                    + "\r\nContent-Type: " + r.contentType + "\r\nContent-Length: " + QByteArray::number(r.body.size())
                    + "\r\nConnection: close\r\n\r\n";
                socket->write(head + r.body);
                socket->disconnectFromHost();
            });
            QObject::connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
        }
    }

    QSslServer m_server;
    Handler m_handler;
    QStringList m_requests;
};

struct Release
{
    QString host; ///< as written in the configuration
    QString ns;
    QString type;
    QString version;
    QStringList platforms;
    QStringList extraEntries; ///< more zip entries (e.g. a directory entry)
};

} // namespace

class TestInteropIndex : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_root;
    QString m_gpgHome;
    bool m_gpgStarted = false;

    // The registry: its releases, their files (srv/) and the key that signs their SHA256SUMS.
    HttpsServer m_server;
    QString m_files;
    QList<Release> m_releases;
    QHash<QString, QString> m_sha256; ///< file name -> hex
    QString m_fingerprint;
    QString m_armoredKey;
    const QStringList m_allPlatforms{u"linux_amd64"_s, u"windows_386"_s, u"darwin_arm64"_s};

    /// A certificate for 127.0.0.1 and localhost (openssl), and a throw-away signing key (gpg).
    void makeCertificateAndKey(const QString &cert, const QString &key)
    {
        test::ProcessRun r = test::runProcessMerged(u"openssl"_s,
                                                    {u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-days"_s, u"2"_s,
                                                     u"-subj"_s, u"/CN=provender test registry"_s, u"-addext"_s,
                                                     u"subjectAltName=IP:127.0.0.1,DNS:localhost"_s, u"-keyout"_s, key, u"-out"_s, cert},
                                                    m_root);
        QVERIFY2(r.exitCode == 0, qPrintable(r.text()));

        m_gpgHome = m_root + u"/gnupg"_s;
        QVERIFY(QDir().mkpath(m_gpgHome));
        QFile::setPermissions(m_gpgHome, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        m_gpgStarted = true;
        r = test::runProcessMerged(u"gpg"_s,
                                   {u"--batch"_s, u"--passphrase"_s, QString(), u"--quick-gen-key"_s,
                                    u"Provender Test <test@provender.invalid>"_s, u"rsa2048"_s, u"sign"_s, u"never"_s},
                                   m_root, gpgEnvironment());
        QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
        r = test::runProcessMerged(u"gpg"_s, {u"--batch"_s, u"--with-colons"_s, u"--list-keys"_s}, m_root, gpgEnvironment());
        const QRegularExpressionMatch fpr =
            QRegularExpression(u"^fpr:+([0-9A-F]{40}):"_s, QRegularExpression::MultilineOption).match(r.text());
        QVERIFY2(fpr.hasMatch(), qPrintable(r.text()));
        m_fingerprint = fpr.captured(1);
        r = test::runProcessMerged(u"gpg"_s, {u"--batch"_s, u"--armor"_s, u"--export"_s, m_fingerprint}, m_root, gpgEnvironment());
        QVERIFY2(r.exitCode == 0 && r.text().contains(u"BEGIN PGP PUBLIC KEY BLOCK"_s), qPrintable(r.text()));
        m_armoredKey = r.text().mid(r.text().indexOf(u"-----BEGIN"_s));
    }

    QProcessEnvironment gpgEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"GNUPGHOME"_s, m_gpgHome);
        return env;
    }

    /// The zips of every release (Python's zip writer), its SHA256SUMS and their signatures.
    void writeReleases()
    {
        m_files = m_root + u"/srv"_s;
        QVERIFY(QDir().mkpath(m_files));
        m_releases = {
            {u"registry.provender.test"_s, u"acme"_s, u"alpha"_s, u"1.0.0"_s, m_allPlatforms, {}},
            {u"registry.provender.test"_s, u"acme"_s, u"alpha"_s, u"1.1.0"_s, m_allPlatforms, {}},
            {u"caf\u00e9.provender.test"_s, u"acme"_s, u"beta"_s, u"0.1.0-beta.1"_s, m_allPlatforms, {u"docs/"_s, u"docs/README.md"_s}},
            {u"localhost"_s, u"acme"_s, u"gamma"_s, u"2.0.0"_s, {u"linux_amd64"_s}, {}},
        };
        QList<QPair<QString, QStringList>> zipSpec;
        for (const Release &rel : std::as_const(m_releases))
            for (const QString &platform : rel.platforms)
                zipSpec.append(
                    {QStringLiteral("%1/terraform-provider-%2_%3_%4.zip").arg(m_files, rel.type, rel.version, platform),
                     QStringList{QStringLiteral("terraform-provider-%1_v%2=%3 %2 %4\n").arg(rel.type, rel.version, rel.type, platform)}
                         + rel.extraEntries});
        QStringList zipArgs;
        for (const auto &[path, entries] : zipSpec)
            zipArgs << path << entries << u"--"_s;
        QString pyError;
        QVERIFY2(!test::runPythonCode(QString::fromUtf8(test::kZipWriterPy), zipArgs, &pyError).isNull(), qPrintable(pyError));

        for (const Release &rel : std::as_const(m_releases)) {
            QByteArray sums;
            for (const QString &platform : rel.platforms) {
                const QString name = QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(rel.type, rel.version, platform);
                const QString hex = QString::fromLatin1(
                    QCryptographicHash::hash(test::readFile(m_files + u'/' + name), QCryptographicHash::Sha256).toHex());
                m_sha256.insert(name, hex);
                sums += hex.toLatin1() + "  " + name.toUtf8() + '\n';
            }
            const QString sumsName = QStringLiteral("terraform-provider-%1_%2_SHA256SUMS").arg(rel.type, rel.version);
            QVERIFY(test::MirrorFixture::writeAbsolute(m_files + u'/' + sumsName, sums));
            const test::ProcessRun r =
                test::runProcessMerged(u"gpg"_s,
                                       {u"--batch"_s, u"--yes"_s, u"--local-user"_s, m_fingerprint, u"--output"_s,
                                        m_files + u'/' + sumsName + u".sig"_s, u"--detach-sign"_s, m_files + u'/' + sumsName},
                                       m_root, gpgEnvironment());
            QVERIFY2(r.exitCode == 0, qPrintable(r.text()));
        }
    }

    static Response json(const QJsonObject &o)
    {
        return Response{200, "application/json", QJsonDocument(o).toJson(QJsonDocument::Compact)};
    }

    /// The registry protocol: service discovery, the files, and providers.v1's versions and download.
    Response answer(const QString &path) const
    {
        if (path == u"/.well-known/terraform.json"_s)
            return json(QJsonObject{{u"providers.v1"_s, u"/v1/providers/"_s}});
        if (path.startsWith(u"/files/"_s)) {
            const QString name = path.mid(7);
            if (name.contains(u'/') || !QFile::exists(m_files + u'/' + name))
                return {};
            return {200, "application/octet-stream", test::readFile(m_files + u'/' + name)};
        }
        const QStringList parts = path.split(u'/', Qt::SkipEmptyParts); // v1 providers NS TYPE ...
        if (parts.size() < 5 || parts.at(0) != u"v1"_s || parts.at(1) != u"providers"_s)
            return {};
        if (parts.size() == 5 && parts.at(4) == u"versions"_s)
            return versions(parts.at(2), parts.at(3));
        if (parts.size() == 8 && parts.at(5) == u"download"_s)
            return download(parts.at(3), parts.at(4), parts.at(6), parts.at(7));
        return {};
    }

    Response versions(const QString &ns, const QString &type) const
    {
        QJsonArray list;
        for (const Release &rel : std::as_const(m_releases)) {
            if (rel.ns != ns || rel.type != type)
                continue;
            QJsonArray platforms;
            for (const QString &p : rel.platforms)
                platforms.append(QJsonObject{{u"os"_s, p.section(u'_', 0, 0)}, {u"arch"_s, p.section(u'_', 1)}});
            list.append(QJsonObject{{u"version"_s, rel.version}, {u"protocols"_s, QJsonArray{u"5.0"_s}}, {u"platforms"_s, platforms}});
        }
        return json(QJsonObject{{u"versions"_s, list}});
    }

    Response download(const QString &type, const QString &version, const QString &os, const QString &arch) const
    {
        const QString base = QStringLiteral("https://127.0.0.1:%1/files/").arg(m_server.port());
        const QString name = QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(type, version, os + u'_' + arch);
        if (!m_sha256.contains(name))
            return {};
        const QString sums = QStringLiteral("terraform-provider-%1_%2_SHA256SUMS").arg(type, version);
        QJsonObject gpgKey;
        gpgKey[u"key_id"_s] = m_fingerprint.right(16);
        gpgKey[u"ascii_armor"_s] = m_armoredKey;
        gpgKey[u"trust_signature"_s] = QString();
        gpgKey[u"source"_s] = u"Provender"_s;
        gpgKey[u"source_url"_s] = QJsonValue();
        QJsonArray keys;
        keys.append(gpgKey);
        QJsonObject signingKeys;
        signingKeys[u"gpg_public_keys"_s] = keys;
        QJsonObject o;
        o[u"protocols"_s] = QJsonArray{u"5.0"_s};
        o[u"os"_s] = os;
        o[u"arch"_s] = arch;
        o[u"filename"_s] = name;
        o[u"download_url"_s] = QString(base + name);
        o[u"shasums_url"_s] = QString(base + sums);
        o[u"shasums_signature_url"_s] = QString(base + sums + u".sig"_s);
        o[u"shasum"_s] = m_sha256.value(name);
        o[u"signing_keys"_s] = signingKeys;
        return json(o);
    }

    /// Extra content in the mirror directory before terraform runs (its re-scan indexes it too).
    static void plantExtraContent(const QString &mirror, const QString &alphaDir)
    {
        QVERIFY(test::MirrorFixture::writeAbsolute(
            mirror + u"/registry.provender.test/acme/unpacked/1.0.0/linux_amd64/terraform-provider-unpacked"_s, "x\n"));
        QVERIFY(test::MirrorFixture::writeAbsolute(alphaDir + u"/0.9.0/linux_amd64/terraform-provider-alpha"_s, "unpacked\n"));
        QStringList planted;
        for (const QString &name :
             QStringList{u"terraform-provider-alpha_0.9.0_linux_amd64.zip"_s, u"terraform-provider-alpha_0.9.0_linux_amd64_extra.zip"_s,
                         u"Terraform-Provider-Alpha_0.8.0_Linux_AMD64.zip"_s, u"terraform-provider-alpha_0.7.0+build.1_windows_386.zip"_s,
                         // Go escapes <, >, & and U+2028 in keys and urls; é stays raw UTF-8.
                         u"terraform-provider-alpha_0.6.0_linux_amd64&<\u00e9>\u2028.zip"_s})
            planted << alphaDir + u'/' + name << u"terraform-provider-alpha=planted "_s + name << u"--"_s;
        QVERIFY(!test::runPythonCode(QString::fromUtf8(test::kZipWriterPy), planted).isNull());
    }

    /// `terraform providers mirror -platform=… mirror` of a configuration `config` that requires
    /// `wanted`, through test::runTerraform in the sandbox tf/ (its CLI config sends the hosts to
    /// the registry; trust in its certificate only) with this thread's events served (the server).
    test::ProcessRun terraformMirror(const QString &config, const QList<Release> &wanted, const QStringList &platforms,
                                     const QString &mirror, const QString &cert) const
    {
        QString tf = u"terraform {\n  required_providers {\n"_s;
        for (const Release &rel : wanted)
            tf += QStringLiteral("    %1 = {\n      source  = \"%2/%3/%1\"\n      version = \"%4\"\n    }\n")
                      .arg(rel.type, rel.host, rel.ns, rel.version);
        tf += u"  }\n}\n"_s;
        const QString dir = m_root + u'/' + config;
        test::MirrorFixture::writeAbsolute(dir + u"/main.tf"_s, tf.toUtf8());
        QStringList args{u"providers"_s, u"mirror"_s, u"-no-color"_s};
        for (const QString &p : platforms)
            args << u"-platform="_s + p;
        args << mirror;
        QProcessEnvironment trust;
        trust.insert(u"SSL_CERT_FILE"_s, cert);
        trust.insert(u"SSL_CERT_DIR"_s, m_root + u"/no-cert-dir"_s);
        return test::runTerraform(m_root + u"/tf"_s, dir, args, trust, 300000, true); // the server is on this thread
    }

    /// The files terraform wrote: the ones this test is about, terraform's choice among duplicates
    /// and its url spelling, recorded for the docs.
    static void checkTerraformFiles(const QMap<QString, QByteArray> &terraformFiles, const QString &gammaHost)
    {
        // Sanity: the files this test is about exist (else the comparison below proves little).
        for (const QString &f :
             QStringList{u"registry.provender.test/acme/alpha/index.json"_s, u"registry.provender.test/acme/alpha/0.7.0+build.1.json"_s,
                         u"registry.provender.test/acme/alpha/0.8.0.json"_s, u"registry.provender.test/acme/alpha/0.9.0.json"_s,
                         u"registry.provender.test/acme/alpha/1.0.0.json"_s, u"registry.provender.test/acme/alpha/1.1.0.json"_s,
                         u"registry.provender.test/acme/unpacked/index.json"_s, u"caf\u00e9.provender.test/acme/beta/index.json"_s,
                         u"caf\u00e9.provender.test/acme/beta/0.1.0-beta.1.json"_s, gammaHost + u"/acme/gamma/2.0.0.json"_s})
            QVERIFY2(terraformFiles.contains(f), qPrintable(f));
        QCOMPARE(terraformFiles.size(), 12);
        QVERIFY(terraformFiles.value(u"registry.provender.test/acme/alpha/0.9.0.json"_s)
                    .contains("terraform-provider-alpha_0.9.0_linux_amd64_extra.zip"));
        QVERIFY(terraformFiles.value(u"registry.provender.test/acme/alpha/0.8.0.json"_s)
                    .contains("\"url\": \"Terraform-Provider-Alpha_0.8.0_Linux_AMD64.zip\""));
        QCOMPARE(terraformFiles.value(u"registry.provender.test/acme/unpacked/index.json"_s), QByteArray("{\n  \"versions\": {}\n}"));
        QVERIFY(terraformFiles.value(u"registry.provender.test/acme/alpha/0.6.0.json"_s)
                    .contains("\"linux_amd64\\u0026\\u003c\xc3\xa9\\u003e\\u2028\": {"));
    }

    /// Our side on terraform's output: a dry run finds nothing to change, the scan's only anomalies
    /// are the planted ones, and the indexes rebuilt after deleting terraform's are byte-identical.
    static void checkOurExport(const QString &mirror, const QString &alphaDir, const QMap<QString, QByteArray> &terraformFiles)
    {
        // --- a dry run over terraform's own output finds nothing to change
        IndexExportOptions dryRun;
        dryRun.dryRun = true;
        dryRun.jobs = 2;
        Result<IndexExportReport> dry = exportIndexes(mirror, dryRun);
        QVERIFY2(dry.ok(), qPrintable(dry.ok() ? QString() : dry.error().toString()));
        QCOMPARE(dry->writtenCount(), 0);
        QVERIFY(dry->changes.isEmpty());
        QVERIFY(dry->hashFailures.isEmpty());
        QVERIFY(dry->skipped.isEmpty());
        QCOMPARE(dry->files.size(), 12);

        // --- the scan agrees with terraform's indexes: every packed archive is declared
        Result<Catalog> catalog = scanFileSystemMirror(mirror);
        QVERIFY(catalog.ok());
        // Only the planted duplicates are anomalies: the copies installers skip, and the 0.9.0 copy
        // terraform's index does not list (it indexed the `_extra` one). And the provider with only
        // an unpacked package: terraform writes it an index.json without versions, which terraform
        // itself would report as "not found" when the folder is served (docs/VERDICTS.md).
        for (const Anomaly &a : catalog->anomalies) {
            const bool expected = a.kind == AnomalyKind::DuplicateArchive
                || (a.kind == AnomalyKind::ArchiveNotInIndex && a.path == alphaDir + u"/terraform-provider-alpha_0.9.0_linux_amd64.zip"_s)
                || (a.kind == AnomalyKind::ProviderUnavailable && a.path.endsWith(u"/acme/unpacked/index.json"_s));
            QVERIFY2(expected, qPrintable(toString(a.kind) + u' ' + a.path + u": "_s + a.message));
        }

        // --- delete terraform's files, rebuild them, compare byte for byte
        for (auto it = terraformFiles.cbegin(); it != terraformFiles.cend(); ++it)
            QVERIFY(QFile::remove(mirror + u'/' + it.key()));
        Result<IndexExportReport> ours = exportIndexes(mirror, {});
        QVERIFY2(ours.ok(), qPrintable(ours.ok() ? QString() : ours.error().toString()));
        const QString differs = test::fileTreeMismatch(terraformFiles, test::jsonFiles(mirror), u"terraform"_s);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the hash cache under ~/.qttest, not the user's
        PROVENDER_SKIP_UNLESS_TERRAFORM(u"`terraform providers mirror` writes the indexes compared with"_s);
        QStringList missing;
        if (QStandardPaths::findExecutable(u"openssl"_s).isEmpty())
            missing << u"openssl"_s;
        if (QStandardPaths::findExecutable(u"gpg"_s).isEmpty())
            missing << u"gpg (Debian package gnupg)"_s;
        if (test::python3().isEmpty())
            missing << u"python3"_s;
        if (!QSslSocket::supportsSsl())
            missing << u"Qt's TLS backend (OpenSSL)"_s;
        PROVENDER_SKIP_UNLESS_ON_PATH(missing.join(u", "_s));
        QVERIFY(m_tmp.isValid());
        m_root = m_tmp.path();
    }

    void cleanupTestCase()
    {
        // gpg starts a gpg-agent for the temporary keyring; stop exactly that one.
        if (m_gpgStarted)
            test::runProcessMerged(u"gpgconf"_s, {u"--kill"_s, u"gpg-agent"_s}, m_root, gpgEnvironment(), 30000);
    }

    void exportEqualsTerraformProvidersMirror()
    {
        const QString cert = m_root + u"/cert.pem"_s;
        const QString key = m_root + u"/key.pem"_s;
        makeCertificateAndKey(cert, key);
        if (QTest::currentTestFailed())
            return;
        writeReleases();
        if (QTest::currentTestFailed())
            return;
        QVERIFY(m_server.start(cert, key, [this](const QString &path) { return answer(path); }));
        const QString localhost = QStringLiteral("localhost:%1").arg(m_server.port());
        for (Release &rel : m_releases)
            if (rel.host == u"localhost"_s)
                rel.host = localhost;

        // --- terraform's sandbox: a CLI config whose `host` blocks send both hosts to the registry
        const QString services = QStringLiteral("https://127.0.0.1:%1/v1/providers/").arg(m_server.port());
        QVERIFY(test::MirrorFixture::writeAbsolute(
            m_root + u"/tf/cli.tfrc"_s,
            QStringLiteral("host \"registry.provender.test\" {\n  services = {\n    \"providers.v1\" = \"%1\"\n  }\n}\n"
                           "host \"caf\u00e9.provender.test\" {\n  services = {\n    \"providers.v1\" = \"%1\"\n  }\n}\n")
                .arg(services)
                .toUtf8()));

        const QString mirror = m_root + u"/mirror"_s;
        const QString alphaDir = mirror + u"/registry.provender.test/acme/alpha"_s;
        plantExtraContent(mirror, alphaDir);
        if (QTest::currentTestFailed())
            return;

        // --- terraform providers mirror, three times; gamma exists only for linux_amd64: its other
        // platforms fail, so it gets its own run.
        // (runTerraform: `err` holds terraform's stderr, then its stdout)
        test::ProcessRun r = terraformMirror(u"cfg1"_s, {m_releases.at(0), m_releases.at(2)}, m_allPlatforms, mirror, cert);
        QVERIFY2(r.exitCode == 0, qPrintable(QString::fromUtf8(r.err) + u"\nrequests: "_s + m_server.requests().join(u' ')));
        QVERIFY2(r.err.contains("self-signed") || r.err.contains("community") || r.err.contains("authenticated"), r.err.constData());
        r = terraformMirror(u"cfg2"_s, {m_releases.at(1)}, m_allPlatforms, mirror, cert);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = terraformMirror(u"cfg3"_s, {m_releases.at(3)}, {u"linux_amd64"_s}, mirror, cert);
        QVERIFY2(r.exitCode == 0, r.err.constData());

        // --- what terraform wrote
        const QMap<QString, QByteArray> terraformFiles = test::jsonFiles(mirror);
        qInfo("terraform wrote %lld index files: %s", qlonglong(terraformFiles.size()), qPrintable(terraformFiles.keys().join(u", "_s)));
        checkTerraformFiles(terraformFiles, localhost);
        if (QTest::currentTestFailed())
            return;
        checkOurExport(mirror, alphaDir, terraformFiles);
    }
};

QTEST_GUILESS_MAIN(TestInteropIndex)
#include "tst_interop_index.moc"
