// A real OCI registry: Debian's docker-registry (Distribution 2.8) on 127.0.0.1 with TLS (a
// throw-away CA made with openssl) and an htpasswd user (bcrypt from python3-bcrypt). Provender
// pushes a directory mirror (`provender oci push`), lists and verifies it (`provender verify
// oci://…`), pulls an archive back, re-pushes with nothing uploaded, and meets every hostile case
// — written into the registry by tests/oci/oci_tool.py with Python's http.client, not by our
// client. Expected values: OpenTofu's constants (cited), Python's hashlib/zipfile, Qt's
// QCryptographicHash, and the registry's own access log.

#include "model/oci/OciClient.h"
#include "model/oci/OciMirror.h"
#include "model/oci/OciSource.h"
#include "model/verify/VerifyEngine.h"
#include "tests/oci/OciRegistryFixture.h"
#include "tests/support/GpgFixture.h"
#include "tests/support/ProcessMemory.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <limits>

using namespace provender;
using namespace provender::test;

namespace {

// OpenTofu internal/getproviders/oci_registry_mirror_source.go:33 and :58, and
// package_location_oci_blob_archive.go:33 (commit f831fa1aa4b9):
constexpr auto kIndexArtifactType = "application/vnd.opentofu.provider";
constexpr auto kTargetArtifactType = "application/vnd.opentofu.provider-target";
constexpr auto kLayerMediaType = "archive/zip";
// OpenTofu's e2e fixture internal/command/e2etest/testdata/oci-provider-mirror/fake-registry/foo:
// the media types of the index and its entries, and the empty config of each manifest.
constexpr auto kIndexMediaType = "application/vnd.oci.image.index.v1+json";
constexpr auto kManifestMediaType = "application/vnd.oci.image.manifest.v1+json";
constexpr auto kConfigMediaType = "application/vnd.oci.empty.v1+json";
constexpr auto kConfigDigest = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";

QString sha256Hex(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

} // namespace

class TestOciRegistry : public QObject
{
    Q_OBJECT

    OciRegistryFixture m_fixture; ///< the registry, its CA and user, the CLI config, the mirror
    quint16 m_port = 0;
    QString m_python, m_tool, m_mirror;
    QProcessEnvironment m_env;
    QStringList m_zips;

    QString path(const QString &rel) const { return m_fixture.path(rel); }
    QString templ(const QString &prefix = QStringLiteral("mirror")) const
    {
        return QStringLiteral("127.0.0.1:%1/%2/${namespace}/${type}").arg(m_port).arg(prefix);
    }

    ProcessRun provender(const QStringList &args, const QProcessEnvironment &env = {}) const
    {
        return runProcess(QStringLiteral(PROVENDER_BINARY), args, 300000, env.isEmpty() ? m_env : env);
    }
    ProcessRun tool(const QStringList &args) const { return runProcess(m_python, QStringList{m_tool} + args, 120000); }
    QJsonObject json(const ProcessRun &r) const
    {
        QJsonParseError e;
        const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
        if (e.error != QJsonParseError::NoError)
            qWarning().noquote() << "not JSON:" << r.out.left(2000) << r.err.left(2000);
        return d.object();
    }
    /// The registry's access log lines (combined format: "METHOD /path HTTP/x" status).
    QStringList accessLog() const
    {
        QFile f(path(QStringLiteral("registry.log")));
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QStringList out;
        static const QRegularExpression re(QStringLiteral(R"re("(GET|HEAD|POST|PUT|PATCH|DELETE) (\S+) HTTP/[0-9.]+" (\d+))re"));
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QRegularExpressionMatch m = re.match(QString::fromUtf8(line));
            if (m.hasMatch())
                out.append(m.captured(1) + QLatin1Char(' ') + m.captured(2) + QLatin1Char(' ') + m.captured(3));
        }
        return out;
    }
    static int count(const QStringList &log, const QString &method, const QString &pathPart)
    {
        int n = 0;
        for (const QString &l : log)
            if (l.startsWith(method + QLatin1Char(' ')) && l.contains(pathPart))
                ++n;
        return n;
    }
    QJsonObject document(const QString &apiPath) const
    {
        const ProcessRun r = tool({QStringLiteral("get"), QStringLiteral("https://127.0.0.1:%1/v2/%2").arg(m_port).arg(apiPath),
                                   path(QStringLiteral("ca.pem")), QStringLiteral("alice"), QStringLiteral("secret")});
        if (r.exitCode != 0)
            qWarning().noquote() << apiPath << r.err;
        return QJsonDocument::fromJson(r.out).object();
    }
    bool openssl(std::initializer_list<const char *> words, QString *error) const
    {
        QStringList args;
        for (const char *w : words)
            args.append(QString::fromLatin1(w));
        const ProcessRun r = runProcess(QStringLiteral("openssl"), args, 60000, QProcessEnvironment::systemEnvironment(), m_fixture.dir());
        if (r.exitCode != 0)
            *error = QString::fromUtf8(r.err);
        return r.exitCode == 0;
    }

    static quint16 freePort()
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return 0;
        return probe.serverPort();
    }
    static bool waitForPort(quint16 port, const QProcess &process)
    {
        for (int i = 0; i < 300; ++i) {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, port);
            if (s.waitForConnected(100))
                return true;
            if (process.state() == QProcess::NotRunning)
                return false;
            QThread::msleep(100);
        }
        return false;
    }
    static void stop(QProcess &process) { test::stopProcess(process); }
    /// oci_tool.py redirector on `port` (and `port2` for the "port" repository, 0 = none).
    bool startRedirector(QProcess &server, quint16 port, quint16 port2)
    {
        QStringList args{m_tool,
                         QStringLiteral("redirector"),
                         QString::number(port),
                         path(QStringLiteral("server.pem")),
                         path(QStringLiteral("server.key")),
                         QStringLiteral("alice"),
                         QStringLiteral("secret"),
                         m_zips.at(0),
                         path(QStringLiteral("redirect.log"))};
        if (port2 != 0)
            args.append(QString::number(port2));
        server.start(m_python, args);
        return server.waitForStarted(30000) && waitForPort(port, server) && (port2 == 0 || waitForPort(port2, server));
    }
    QString redirectLog() const
    {
        QFile log(path(QStringLiteral("redirect.log")));
        return log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()) : QString();
    }
    oci::OciClientOptions redirectedClientOptions() const
    {
        oci::OciClientOptions options;
        options.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
        return options;
    }
    static oci::OciCredential alice()
    {
        oci::OciCredential alice;
        alice.username = QStringLiteral("alice");
        alice.password = QStringLiteral("secret");
        return alice;
    }
    static QString zipDigest(const QString &zip) { return QStringLiteral("sha256:") + sha256Hex(zip); }
    /// Starts docker-registry on `port` with TLS and the given `auth:` block; "" or why not.
    QString startRegistry(QProcess &process, quint16 port, const QString &authBlock, const QString &storage, const QString &log)
    {
        QFile config(path(storage + QStringLiteral(".yml")));
        if (!config.open(QIODevice::WriteOnly))
            return config.errorString();
        config.write(QStringLiteral("version: 0.1\n"
                                    "log:\n  level: info\n  formatter: text\n"
                                    "storage:\n  filesystem:\n    rootdirectory: %1\n  maintenance:\n    "
                                    "uploadpurging:\n      enabled: false\n"
                                    "http:\n  addr: 127.0.0.1:%2\n  tls:\n    certificate: %3\n    key: %4\n"
                                    "auth:\n%5")
                         .arg(path(storage))
                         .arg(port)
                         .arg(path(QStringLiteral("server.pem")), path(QStringLiteral("server.key")), authBlock)
                         .toUtf8());
        config.close();
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.setStandardOutputFile(path(log));
        process.start(QStandardPaths::findExecutable(QStringLiteral("docker-registry")), {QStringLiteral("serve"), config.fileName()});
        if (!process.waitForStarted(30000))
            return process.errorString();
        if (!waitForPort(port, process)) {
            QFile f(path(log));
            f.open(QIODevice::ReadOnly);
            return QStringLiteral("docker-registry did not start: ") + QString::fromUtf8(f.readAll().right(2000));
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto missing = m_fixture.missing())
            PROVENDER_SKIP(missing->first, missing->second);
        m_tool = QStringLiteral(PROVENDER_SOURCE_DIR "/tests/oci/oci_tool.py");
        // The throw-away CA and server certificate, alice's htpasswd entry, the registry, the CLI
        // config with her oci_credentials, a HOME without Docker files, the mirror (5 zips).
        if (const QString started = m_fixture.start(); !started.isEmpty())
            QFAIL(qPrintable(started));
        m_port = m_fixture.port();
        m_python = m_fixture.python();
        m_env = m_fixture.environment();
        m_mirror = m_fixture.mirror();
        m_zips = m_fixture.zips();
        QCOMPARE(m_zips.size(), 5);
    }

    void cleanupTestCase() { m_fixture.stop(); }

    void push()
    {
        const int before = int(accessLog().size());
        const ProcessRun r = provender({QStringLiteral("oci"), QStringLiteral("push"), m_mirror, QStringLiteral("--repository-template"),
                                        templ(), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r);
        const QJsonObject s = o.value(QLatin1StringView("summary")).toObject();
        // 5 zips + the empty config of the first repository (bar); the second (foo) mounts that
        // config from the first instead of uploading it again.
        QCOMPARE(s.value(QLatin1StringView("blobs_uploaded")).toInt(), 6);
        QCOMPARE(s.value(QLatin1StringView("blobs_mounted")).toInt(), 1);
        QCOMPARE(s.value(QLatin1StringView("tags_written")).toInt(), 3);
        const QStringList log = accessLog().mid(before);
        // Cross-check with the registry's own log: one upload session per uploaded blob, one
        // mount (201 Created: mounted), 5 manifests + 3 indexes by digest + 3 tags.
        QCOMPARE(count(log, QStringLiteral("POST"), QStringLiteral("/blobs/uploads/")), 7);
        QCOMPARE(s.value(QLatin1StringView("upload_posts")).toInt(), 6);
        QCOMPARE(count(log, QStringLiteral("POST"),
                       QStringLiteral("/v2/mirror/test/foo/blobs/uploads/?mount=sha256%3A") + QString::fromLatin1(kConfigDigest).mid(7)
                           + QStringLiteral("&from=mirror%2Ftest%2Fbar 201")),
                 1);
        QCOMPARE(count(log, QStringLiteral("PUT"), QStringLiteral("/manifests/")), 11);
        // Tags last: in each repository every tag PUT directly follows the PUT of its index by
        // digest (after all the blobs and manifests it names), and the last write is a tag.
        static const QRegularExpression tagPut(QStringLiteral(R"(^PUT \S+/manifests/[0-9]\S* )"));
        static const QRegularExpression digestPut(QStringLiteral(R"(^PUT \S+/manifests/sha256:\S+ )"));
        for (const QString &repo : {QStringLiteral("/v2/mirror/test/foo/"), QStringLiteral("/v2/mirror/test/bar/")}) {
            QStringList writes;
            for (const QString &l : log)
                if (l.contains(repo) && !l.startsWith(u"GET ") && !l.startsWith(u"HEAD "))
                    writes.append(l);
            QVERIFY2(!writes.isEmpty() && tagPut.match(writes.last()).hasMatch(), qPrintable(writes.join(QLatin1Char('\n'))));
            for (qsizetype i = 0; i < writes.size(); ++i)
                if (tagPut.match(writes.at(i)).hasMatch())
                    QVERIFY2(i > 0 && digestPut.match(writes.at(i - 1)).hasMatch(), qPrintable(writes.join(QLatin1Char('\n'))));
        }
        // Read back and verified.
        const QJsonObject v = o.value(QLatin1StringView("verification")).toObject().value(QLatin1StringView("summary")).toObject();
        QCOMPARE(v.value(QLatin1StringView("verified")).toInt(), 5);
        QVERIFY(o.value(QLatin1StringView("oci_mirror_block"))
                    .toString()
                    .contains(QStringLiteral("repository_template = \"%1\"").arg(templ())));
    }

    void layoutIsOpenTofus()
    {
        // Tags: one per version, "+" written "_" (oci_registry_mirror_source.go:490).
        const QJsonArray tags = document(QStringLiteral("mirror/test/foo/tags/list")).value(QLatin1StringView("tags")).toArray();
        QVERIFY(tags.contains(QStringLiteral("1.0.0")));
        QVERIFY(tags.contains(QStringLiteral("2.0.0_build.1")));
        QCOMPARE(tags.size(), 2);
        const QJsonObject index = document(QStringLiteral("mirror/test/foo/manifests/1.0.0"));
        QCOMPARE(index.value(QLatin1StringView("schemaVersion")).toInt(), 2);
        QCOMPARE(index.value(QLatin1StringView("mediaType")).toString(), QString::fromLatin1(kIndexMediaType));
        QCOMPARE(index.value(QLatin1StringView("artifactType")).toString(), QString::fromLatin1(kIndexArtifactType));
        const QJsonArray entries = index.value(QLatin1StringView("manifests")).toArray();
        QCOMPARE(entries.size(), 2);
        QStringList platforms;
        for (const QJsonValue &e : entries) {
            const QJsonObject d = e.toObject();
            QCOMPARE(d.value(QLatin1StringView("mediaType")).toString(), QString::fromLatin1(kManifestMediaType));
            QCOMPARE(d.value(QLatin1StringView("artifactType")).toString(), QString::fromLatin1(kTargetArtifactType));
            const QJsonObject p = d.value(QLatin1StringView("platform")).toObject();
            const QString platform =
                p.value(QLatin1StringView("os")).toString() + QLatin1Char('_') + p.value(QLatin1StringView("architecture")).toString();
            platforms.append(platform);
            const QJsonObject m = document(QStringLiteral("mirror/test/foo/manifests/") + d.value(QLatin1StringView("digest")).toString());
            QCOMPARE(m.value(QLatin1StringView("mediaType")).toString(), QString::fromLatin1(kManifestMediaType));
            QCOMPARE(m.value(QLatin1StringView("artifactType")).toString(), QString::fromLatin1(kTargetArtifactType));
            const QJsonObject config = m.value(QLatin1StringView("config")).toObject();
            QCOMPARE(config.value(QLatin1StringView("mediaType")).toString(), QString::fromLatin1(kConfigMediaType));
            QCOMPARE(config.value(QLatin1StringView("digest")).toString(), QString::fromLatin1(kConfigDigest));
            const QJsonArray layers = m.value(QLatin1StringView("layers")).toArray();
            QCOMPARE(layers.size(), 1);
            const QJsonObject layer = layers.at(0).toObject();
            QCOMPARE(layer.value(QLatin1StringView("mediaType")).toString(), QString::fromLatin1(kLayerMediaType));
            const QString zip = m_mirror + QStringLiteral("/example.com/test/foo/terraform-provider-foo_1.0.0_%1.zip").arg(platform);
            // The layer digest is the zip's SHA-256, i.e. its zh: (hashFromOCIDigest).
            QCOMPARE(layer.value(QLatin1StringView("digest")).toString(), QStringLiteral("sha256:") + sha256Hex(zip));
            QCOMPARE(layer.value(QLatin1StringView("size")).toInteger(), QFileInfo(zip).size());
        }
        platforms.sort();
        QCOMPARE(platforms, (QStringList{QStringLiteral("darwin_arm64"), QStringLiteral("linux_amd64")}));
    }

    void tagPagination()
    {
        // n=1: Distribution answers one tag per page with a Link header to the next.
        oci::OciClientOptions options;
        options.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
        options.tagPageSize = 1;
        oci::OciCredential alice;
        alice.username = QStringLiteral("alice");
        alice.password = QStringLiteral("secret");
        oci::OciClient client(oci::RepositoryAddress{QStringLiteral("127.0.0.1:%1").arg(m_port), QStringLiteral("mirror/test/foo")}, alice,
                              options);
        const int before = int(accessLog().size());
        const Result<QStringList> tags = client.listTags();
        QVERIFY2(tags.ok(), tags.ok() ? "" : qPrintable(tags.error().message));
        QStringList sorted = tags.value();
        sorted.sort();
        QCOMPARE(sorted, (QStringList{QStringLiteral("1.0.0"), QStringLiteral("2.0.0_build.1")}));
        QVERIFY2(count(accessLog().mid(before), QStringLiteral("GET"), QStringLiteral("/v2/mirror/test/foo/tags/list?")) >= 2,
                 qPrintable(accessLog().mid(before).join(QLatin1Char('\n'))));
    }

    void dryRun()
    {
        const int before = int(accessLog().size());
        const ProcessRun r = provender({QStringLiteral("oci"), QStringLiteral("push"), m_mirror, QStringLiteral("--repository-template"),
                                        templ(QStringLiteral("dry")), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")),
                                        QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QJsonObject s = json(r).value(QLatin1StringView("summary")).toObject();
        QCOMPARE(s.value(QLatin1StringView("blobs_uploaded")).toInt(), 7); // would upload
        QCOMPARE(s.value(QLatin1StringView("upload_posts")).toInt(), 0);
        QCOMPARE(s.value(QLatin1StringView("manifest_puts")).toInt(), 0);
        for (const QString &l : accessLog().mid(before))
            QVERIFY2(l.startsWith(u"HEAD ") || l.startsWith(u"GET "), qPrintable(l));
    }

    void verifyCli()
    {
        const ProcessRun r =
            provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                       QStringLiteral("example.com/test/foo"), QStringLiteral("--provider"), QStringLiteral("example.com/test/bar"),
                       QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QJsonObject o = json(r);
        const QJsonArray archives = o.value(QLatin1StringView("archives")).toArray();
        QCOMPARE(archives.size(), 5);
        for (const QJsonValue &a : archives) {
            const QJsonObject x = a.toObject();
            QCOMPARE(x.value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
            const QString type = x.value(QLatin1StringView("provider")).toString().section(QLatin1Char('/'), 2);
            const QString zip = m_mirror
                + QStringLiteral("/example.com/test/%1/terraform-provider-%1_%2_%3.zip")
                      .arg(type, x.value(QLatin1StringView("version")).toString(), x.value(QLatin1StringView("platform")).toString());
            QCOMPARE(x.value(QLatin1StringView("zh")).toString(), QStringLiteral("zh:") + sha256Hex(zip));
            // h1: as Python computes dirhash Hash1 of the zip's files.
            const ProcessRun h1 = tool({QStringLiteral("h1"), zip});
            QCOMPARE(x.value(QLatin1StringView("h1")).toString(), QString::fromUtf8(h1.out.trimmed()));
            // The one anchor: the registry's own manifest for the version's tag (tag rule: "+" as
            // "_"), which shows only that the registry is consistent with itself.
            const QString tag = x.value(QLatin1StringView("version")).toString().replace(u'+', u'_');
            const QString document = QStringLiteral("oci://127.0.0.1:%1/mirror/test/%2:%3").arg(m_port).arg(type, tag);
            const QJsonArray anchors = x.value(QLatin1StringView("anchors")).toArray();
            QCOMPARE(anchors.size(), 1);
            QCOMPARE(anchors.at(0).toObject().value(QLatin1StringView("kind")).toString(), QStringLiteral("own-index"));
            QCOMPARE(anchors.at(0).toObject().value(QLatin1StringView("document")).toString(), document);
            QCOMPARE(anchors.at(0).toObject().value(QLatin1StringView("self_consistency_only")).toBool(), true);
            QCOMPARE(x.value(QLatin1StringView("anchor")).toString(), QStringLiteral("consistent with its own index (%1)").arg(document));
            QVERIFY(!x.contains(QLatin1StringView("not_covered_by_lock")));
        }
        // The common verdict document (docs/VERDICT-JSON.md, schema 1), kind "oci": exactly the
        // documented members, the OCI-only ones under "oci".
        auto keys = [](const QJsonObject &obj) {
            QStringList k = obj.keys();
            k.sort();
            return k;
        };
        QCOMPARE(keys(o),
                 (QStringList{QStringLiteral("anomalies"), QStringLiteral("archives"), QStringLiteral("oci"), QStringLiteral("root"),
                              QStringLiteral("schema_version"), QStringLiteral("source"), QStringLiteral("summary")}));
        QCOMPARE(o.value(QLatin1StringView("schema_version")).toInt(), 1);
        QCOMPARE(o.value(QLatin1StringView("source")).toObject().value(QLatin1StringView("kind")).toString(), QStringLiteral("oci"));
        QCOMPARE(o.value(QLatin1StringView("source")).toObject().value(QLatin1StringView("location")).toString(),
                 QStringLiteral("oci://") + templ());
        QCOMPARE(o.value(QLatin1StringView("root")).toString(), QStringLiteral("oci://") + templ());
        QCOMPARE(keys(o.value(QLatin1StringView("oci")).toObject()),
                 (QStringList{QStringLiteral("absent_providers"), QStringLiteral("credentials"), QStringLiteral("requests")}));
        for (const QJsonValue &a : archives) {
            QCOMPARE(keys(a.toObject()),
                     (QStringList{QStringLiteral("anchor"), QStringLiteral("anchors"), QStringLiteral("contradicting"),
                                  QStringLiteral("declared"), QStringLiteral("from_cache"), QStringLiteral("h1"), QStringLiteral("h1_zip"),
                                  QStringLiteral("layout"), QStringLiteral("matched"), QStringLiteral("path"), QStringLiteral("platform"),
                                  QStringLiteral("provider"), QStringLiteral("reason"), QStringLiteral("size"), QStringLiteral("verdict"),
                                  QStringLiteral("version"), QStringLiteral("zh")}));
            // path: the blob URL of the layer digest.
            QCOMPARE(a.toObject().value(QLatin1StringView("path")).toString(),
                     QStringLiteral("https://127.0.0.1:%1/v2/mirror/test/%2/blobs/sha256:%3")
                         .arg(m_port)
                         .arg(a.toObject().value(QLatin1StringView("provider")).toString().section(u'/', 2),
                              a.toObject().value(QLatin1StringView("zh")).toString().mid(3)));
        }
        const QJsonObject summary = o.value(QLatin1StringView("summary")).toObject();
        QCOMPARE(keys(summary),
                 (QStringList{QStringLiteral("anomalies"), QStringLiteral("archives"), QStringLiteral("bytes_downloaded"),
                              QStringLiteral("cache_hits"), QStringLiteral("error"), QStringLiteral("hashed"), QStringLiteral("mismatch"),
                              QStringLiteral("missing"), QStringLiteral("pending"), QStringLiteral("refused"), QStringLiteral("unverified"),
                              QStringLiteral("verified")}));
        QCOMPARE(summary.value(QLatin1StringView("verified")).toInt(), 5);
        QCOMPARE(summary.value(QLatin1StringView("archives")).toInt(), 5);
        QCOMPARE(summary.value(QLatin1StringView("hashed")).toInt(), 5);
        QVERIFY(o.value(QLatin1StringView("oci"))
                    .toObject()
                    .value(QLatin1StringView("credentials"))
                    .toObject()
                    .value(QStringLiteral("127.0.0.1:%1/mirror/test/foo").arg(m_port))
                    .toString()
                    .contains(u"alice"));
        // The password is in no output channel: not stdout or stderr, not with every debug log
        // on, not as the base64 of the Basic credentials ("alice:secret").
        QProcessEnvironment debugEnv = m_env;
        debugEnv.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("provender.*.debug=true"));
        const ProcessRun logged = provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                                             QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"),
                                             path(QStringLiteral("ca.pem")), QStringLiteral("--json")},
                                            debugEnv);
        QVERIFY2(logged.exitCode == 0, logged.err.constData());
        for (const QByteArray &channel : {r.out, r.err, logged.out, logged.err})
            for (const QByteArray &needle : {QByteArray("secret"), QByteArray("alice:secret").toBase64()})
                QVERIFY2(!channel.contains(needle), needle.constData());
        // The table form.
        const ProcessRun table =
            provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                       QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem"))});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.contains("2.0.0+build.1"));
        QVERIFY2(table.out.contains("ANCHOR") && table.out.contains("own index"), table.out.constData());
    }

    void absentProvider()
    {
        // A repository that does not exist: tofu's ErrProviderNotFound (NAME_UNKNOWN on the tag list).
        const ProcessRun r = provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                                        QStringLiteral("example.com/test/nothere"), QStringLiteral("--ca-file"),
                                        path(QStringLiteral("ca.pem")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(json(r).value(QLatin1StringView("oci")).toObject().value(QLatin1StringView("absent_providers")).toArray(),
                 QJsonArray{QStringLiteral("example.com/test/nothere")});
    }

    void pullByteIdentical()
    {
        const QString zip = m_mirror + QStringLiteral("/example.com/test/bar/terraform-provider-bar_0.1.0_windows_amd64.zip");
        QFile f(zip);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray original = f.readAll();
        oci::OciClientOptions options;
        options.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
        oci::OciCredential alice;
        alice.username = QStringLiteral("alice");
        alice.password = QStringLiteral("secret");
        oci::OciClient client(oci::RepositoryAddress{QStringLiteral("127.0.0.1:%1").arg(m_port), QStringLiteral("mirror/test/bar")}, alice,
                              options);
        QByteArray pulled;
        const Result<qint64> got =
            client.fetchBlob(QStringLiteral("sha256:") + sha256Hex(zip), original.size(), [&](const char *d, qint64 n) {
                pulled.append(d, n);
                return true;
            });
        QVERIFY2(got.ok(), got.ok() ? "" : qPrintable(got.error().message));
        QCOMPARE(pulled.size(), original.size());
        QVERIFY(pulled == original);
    }

    void lockFileRules()
    {
        const QString dir = m_mirror + QStringLiteral("/example.com/test/foo/");
        const QString linux = dir + QStringLiteral("terraform-provider-foo_1.0.0_linux_amd64.zip");
        const QString darwin = dir + QStringLiteral("terraform-provider-foo_1.0.0_darwin_arm64.zip");
        const QString h1Linux = QString::fromUtf8(tool({QStringLiteral("h1"), linux}).out.trimmed());
        const QString h1Darwin = QString::fromUtf8(tool({QStringLiteral("h1"), darwin}).out.trimmed());
        QVERIFY(h1Linux.startsWith(u"h1:") && h1Darwin.startsWith(u"h1:"));
        auto verifyWithLock = [&](const QStringList &hashes, const QStringList &extra = {}) {
            QFile lock(path(QStringLiteral("test.lock.hcl")));
            if (!lock.open(QIODevice::WriteOnly | QIODevice::Truncate))
                return QJsonObject();
            QString text = QStringLiteral("provider \"example.com/test/foo\" {\n  version = \"1.0.0\"\n  hashes = [\n");
            for (const QString &h : hashes)
                text += QStringLiteral("    \"%1\",\n").arg(h);
            text += QStringLiteral("  ]\n}\n");
            lock.write(text.toUtf8());
            lock.close();
            const ProcessRun r = provender(QStringList{QStringLiteral("verify"), QStringLiteral("oci://") + templ(),
                                                       QStringLiteral("--lock"), lock.fileName(), QStringLiteral("--ca-file"),
                                                       path(QStringLiteral("ca.pem")), QStringLiteral("--json")}
                                           + extra);
            QJsonObject byPlatform;
            for (const QJsonValue &a : json(r).value(QLatin1StringView("archives")).toArray())
                byPlatform[a.toObject().value(QLatin1StringView("provider")).toString().section(u'/', 2) + u' '
                           + a.toObject().value(QLatin1StringView("platform")).toString()] = a.toObject();
            byPlatform[QStringLiteral("exit")] = r.exitCode;
            return byPlatform;
        };
        // Only the locked version (1.0.0, not 2.0.0+build.1) is read; zh: and h1: of the lock match.
        QJsonObject o =
            verifyWithLock({h1Linux, h1Darwin, QStringLiteral("zh:") + sha256Hex(linux), QStringLiteral("zh:") + sha256Hex(darwin)});
        QCOMPARE(o.value(QLatin1StringView("exit")).toInt(), 0);
        QCOMPARE(o.size(), 3);
        QCOMPARE(o.value(QLatin1StringView("foo linux_amd64")).toObject().value(QLatin1StringView("verdict")).toString(),
                 QStringLiteral("verified"));
        // Anchored in the reviewed lock first, then the registry's own manifest.
        const QString lockPath = path(QStringLiteral("test.lock.hcl"));
        const QJsonArray anchors = o.value(QLatin1StringView("foo linux_amd64")).toObject().value(QLatin1StringView("anchors")).toArray();
        QCOMPARE(anchors.size(), 2);
        QCOMPARE(anchors.at(0).toObject().value(QLatin1StringView("kind")).toString(), QStringLiteral("lock-file"));
        QCOMPARE(anchors.at(0).toObject().value(QLatin1StringView("document")).toString(), lockPath);
        QCOMPARE(anchors.at(0).toObject().value(QLatin1StringView("self_consistency_only")).toBool(), false);
        QCOMPARE(anchors.at(1).toObject().value(QLatin1StringView("kind")).toString(), QStringLiteral("own-index"));
        QCOMPARE(anchors.at(1).toObject().value(QLatin1StringView("document")).toString(),
                 QStringLiteral("oci://127.0.0.1:%1/mirror/test/foo:1.0.0").arg(m_port));
        // A provider no lock covers (bar, named with --provider next to the lock): verified on the
        // registry's word only, marked as not covered; --strict fails on it.
        o = verifyWithLock({h1Linux, h1Darwin, QStringLiteral("zh:") + sha256Hex(linux), QStringLiteral("zh:") + sha256Hex(darwin)},
                           {QStringLiteral("--provider"), QStringLiteral("example.com/test/bar")});
        QCOMPARE(o.value(QLatin1StringView("exit")).toInt(), 0);
        const QJsonObject bar = o.value(QLatin1StringView("bar linux_amd64")).toObject();
        QCOMPARE(bar.value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
        QCOMPARE(bar.value(QLatin1StringView("not_covered_by_lock")).toBool(), true);
        QCOMPARE(bar.value(QLatin1StringView("anchors")).toArray().size(), 1);
        QVERIFY(!o.value(QLatin1StringView("foo linux_amd64")).toObject().contains(QLatin1StringView("not_covered_by_lock")));
        o = verifyWithLock({h1Linux, h1Darwin, QStringLiteral("zh:") + sha256Hex(linux), QStringLiteral("zh:") + sha256Hex(darwin)},
                           {QStringLiteral("--provider"), QStringLiteral("example.com/test/bar"), QStringLiteral("--strict")});
        QCOMPARE(o.value(QLatin1StringView("exit")).toInt(), 1);
        // An h1:-only lock: tofu compares the layer digest with the locked hashes before it
        // downloads (package_location_oci_blob_archive.go:117-131) and refuses although the
        // package's h1: is there.
        o = verifyWithLock({h1Linux, h1Darwin});
        QCOMPARE(o.value(QLatin1StringView("exit")).toInt(), 1);
        const QJsonObject refused = o.value(QLatin1StringView("foo linux_amd64")).toObject();
        QCOMPARE(refused.value(QLatin1StringView("verdict")).toString(), QStringLiteral("error"));
        QCOMPARE(refused.value(QLatin1StringView("anchors")).toArray().size(), 0);
        QVERIFY2(refused.value(QLatin1StringView("reason")).toString().contains(u"doesn't match any of the checksums previously recorded"),
                 qPrintable(refused.value(QLatin1StringView("reason")).toString()));
        QVERIFY(refused.value(QLatin1StringView("reason")).toString().contains(QStringLiteral("zh:") + sha256Hex(linux)));
        // A lock whose hashes are of other packages: mismatch.
        o = verifyWithLock({QStringLiteral("zh:") + QString(64, QLatin1Char('0'))});
        QCOMPARE(o.value(QLatin1StringView("exit")).toInt(), 1);
        QCOMPARE(o.value(QLatin1StringView("foo darwin_arm64")).toObject().value(QLatin1StringView("verdict")).toString(),
                 QStringLiteral("mismatch"));
    }

    void pushFromBundle()
    {
        const QString bundle = path(QStringLiteral("mirror.tar.gz"));
        const ProcessRun made = provender(
            {QStringLiteral("bundle"), QStringLiteral("create"), QStringLiteral("--mirror"), m_mirror, QStringLiteral("--all"), bundle});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const ProcessRun r = provender({QStringLiteral("oci"), QStringLiteral("push"), bundle, QStringLiteral("--repository-template"),
                                        templ(QStringLiteral("frombundle")), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")),
                                        QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QJsonObject o = json(r);
        QCOMPARE(o.value(QLatin1StringView("summary")).toObject().value(QLatin1StringView("tags_written")).toInt(), 3);
        const QJsonArray archives = o.value(QLatin1StringView("verification")).toObject().value(QLatin1StringView("archives")).toArray();
        QCOMPARE(archives.size(), 5);
        for (const QJsonValue &a : archives) {
            const QJsonObject x = a.toObject();
            QCOMPARE(x.value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
            const QString type = x.value(QLatin1StringView("provider")).toString().section(QLatin1Char('/'), 2);
            // The same bytes as the directory's zips (the bundle carries them unchanged).
            QCOMPARE(x.value(QLatin1StringView("zh")).toString(),
                     QStringLiteral("zh:")
                         + sha256Hex(m_mirror
                                     + QStringLiteral("/example.com/test/%1/terraform-provider-%1_%2_%3.zip")
                                           .arg(type, x.value(QLatin1StringView("version")).toString(),
                                                x.value(QLatin1StringView("platform")).toString())));
        }
    }

    void repushUploadsNothing()
    {
        const int before = int(accessLog().size());
        const ProcessRun r = provender({QStringLiteral("oci"), QStringLiteral("push"), m_mirror, QStringLiteral("--repository-template"),
                                        templ(), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--json"),
                                        QStringLiteral("--no-verify")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject s = json(r).value(QLatin1StringView("summary")).toObject();
        QCOMPARE(s.value(QLatin1StringView("blobs_uploaded")).toInt(), 0);
        QCOMPARE(s.value(QLatin1StringView("blobs_present")).toInt(), 7);
        QCOMPARE(s.value(QLatin1StringView("manifests_written")).toInt(), 0);
        QCOMPARE(s.value(QLatin1StringView("tags_written")).toInt(), 0);
        QCOMPARE(s.value(QLatin1StringView("tags_unchanged")).toInt(), 3);
        QCOMPARE(s.value(QLatin1StringView("upload_posts")).toInt(), 0);
        QCOMPARE(s.value(QLatin1StringView("manifest_puts")).toInt(), 0);
        // The registry saw no write at all.
        const QStringList log = accessLog().mid(before);
        QVERIFY(!log.isEmpty());
        for (const QString &l : log)
            QVERIFY2(l.startsWith(u"HEAD ") || l.startsWith(u"GET "), qPrintable(l));
    }

    void chunkedUpload()
    {
        const QString big = path(QStringLiteral("big"));
        const ProcessRun made = tool({QStringLiteral("bigmirror"), big});
        QCOMPARE(made.exitCode, 0);
        const QString zip = QString::fromUtf8(made.out.trimmed());
        const int before = int(accessLog().size());
        const ProcessRun r = provender({QStringLiteral("oci"), QStringLiteral("push"), big, QStringLiteral("--repository-template"),
                                        templ(), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")),
                                        QStringLiteral("--chunk-size"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QStringList log = accessLog().mid(before);
        // 3 MiB + a bit in 1 MiB chunks: four PATCHes, then the PUT with the digest.
        const int patches = count(log, QStringLiteral("PATCH"), QStringLiteral("/v2/mirror/test/big/blobs/uploads/"));
        QCOMPARE(patches, int((QFileInfo(zip).size() + (1 << 20) - 1) >> 20));
        QCOMPARE(json(r).value(QLatin1StringView("summary")).toObject().value(QLatin1StringView("upload_patches")).toInt(), patches);
        const QJsonObject v =
            json(r).value(QLatin1StringView("verification")).toObject().value(QLatin1StringView("archives")).toArray().at(0).toObject();
        QCOMPARE(v.value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
        QCOMPARE(v.value(QLatin1StringView("zh")).toString(), QStringLiteral("zh:") + sha256Hex(zip));
    }

    void unauthorized()
    {
        // Without credentials the registry answers 401; the verdict says so.
        const ProcessRun r = provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                                        QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")),
                                        QStringLiteral("--no-credentials"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonArray anomalies = json(r).value(QLatin1StringView("anomalies")).toArray();
        QCOMPARE(anomalies.size(), 1);
        QVERIFY2(anomalies.at(0).toObject().value(QLatin1StringView("message")).toString().contains(u"401"), r.out.constData());
        QCOMPARE(anomalies.at(0).toObject().value(QLatin1StringView("kind")).toString(), QStringLiteral("request-failed"));
        // A wrong password: refused, and the password is never printed.
        QProcessEnvironment env = m_env;
        QFile cli(path(QStringLiteral("wrong.tfrc")));
        QVERIFY(cli.open(QIODevice::WriteOnly));
        cli.write(QStringLiteral("oci_credentials \"127.0.0.1:%1/mirror\" {\n  username = \"alice\"\n  "
                                 "password = \"not-the-one\"\n}\n")
                      .arg(m_port)
                      .toUtf8());
        cli.close();
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli.fileName());
        const ProcessRun wrong = provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                                            QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"),
                                            path(QStringLiteral("ca.pem")), QStringLiteral("--json")},
                                           env);
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY(wrong.out.contains("401"));
        QVERIFY(!wrong.out.contains("not-the-one") && !wrong.err.contains("not-the-one"));
        // The CA as tofu would be told about it (SSL_CERT_FILE, Go's rule) works without --ca-file.
        QProcessEnvironment withCa = m_env;
        withCa.insert(QStringLiteral("SSL_CERT_FILE"), path(QStringLiteral("ca.pem")));
        const ProcessRun trusted = provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                                              QStringLiteral("example.com/test/foo"), QStringLiteral("--json")},
                                             withCa);
        QVERIFY2(trusted.exitCode == 0, trusted.out.constData());
        // And an untrusted certificate (no --ca-file) is a TLS failure, not a fallback.
        const ProcessRun tls = provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                                          QStringLiteral("example.com/test/foo"), QStringLiteral("--json")});
        QCOMPARE(tls.exitCode, 1);
        QVERIFY2(tls.out.contains("TLS"), tls.out.constData());
    }

    void bearerTokenFlow()
    {
        // A registry with Distribution's token auth: its 401 carries a Bearer challenge naming a
        // token server (oci_tool.py tokenserver, Python) that wants Basic credentials and signs
        // RS256 tokens with a key whose certificate is the registry's rootcertbundle.
        QString error;
        if (!openssl({"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "sign.key", "-out", "sign.pem", "-days", "2", "-subj",
                      "/CN=token signer"},
                     &error))
            QFAIL(qPrintable(error));
        const ProcessRun crypto = runProcess(m_python, {QStringLiteral("-c"), QStringLiteral("import cryptography")}, 30000);
        if (crypto.exitCode != 0)
            PROVENDER_SKIP(Missing::Package, QStringLiteral("python3-cryptography is not installed"));
        const quint16 tokenPort = freePort();
        QProcess tokens;
        tokens.start(m_python,
                     {m_tool, QStringLiteral("tokenserver"), QString::number(tokenPort), path(QStringLiteral("server.pem")),
                      path(QStringLiteral("server.key")), path(QStringLiteral("sign.key")), path(QStringLiteral("sign.pem")),
                      QStringLiteral("provender-issuer"), QStringLiteral("provender-registry"), QStringLiteral("alice"),
                      QStringLiteral("secret"), path(QStringLiteral("tokens.log"))});
        QVERIFY(tokens.waitForStarted(30000));
        QVERIFY2(waitForPort(tokenPort, tokens), tokens.readAllStandardError().constData());
        QProcess registry;
        const quint16 port = freePort();
        const QString started =
            startRegistry(registry, port,
                          QStringLiteral("  token:\n    realm: https://127.0.0.1:%1/token\n    service: provender-registry\n"
                                         "    issuer: provender-issuer\n    rootcertbundle: %2\n")
                              .arg(tokenPort)
                              .arg(path(QStringLiteral("sign.pem"))),
                          QStringLiteral("token-storage"), QStringLiteral("token-registry.log"));
        if (!started.isEmpty()) {
            stop(tokens);
            QFAIL(qPrintable(started));
        }
        QProcessEnvironment env = m_env;
        QFile cli(path(QStringLiteral("token.tfrc")));
        QVERIFY(cli.open(QIODevice::WriteOnly));
        cli.write(
            QStringLiteral("oci_credentials \"127.0.0.1:%1\" {\n  username = \"alice\"\n  password = \"secret\"\n}\n").arg(port).toUtf8());
        cli.close();
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli.fileName());
        const QString t = QStringLiteral("127.0.0.1:%1/tok/${namespace}/${type}").arg(port);
        const ProcessRun pushed =
            provender({QStringLiteral("oci"), QStringLiteral("push"), m_mirror, QStringLiteral("--repository-template"), t,
                       QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--json")},
                      env);
        const ProcessRun anonymous = provender(
            {QStringLiteral("verify"), QStringLiteral("oci://") + t, QStringLiteral("--provider"), QStringLiteral("example.com/test/foo"),
             QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--no-credentials"), QStringLiteral("--json")},
            env);
        // access_token + refresh_token (oci_credentials' OAuth style): the access token goes to the
        // registry as it is (ORAS fetchBearerToken), the token server is not asked.
        const ProcessRun minted = tool({QStringLiteral("mint"), path(QStringLiteral("sign.key")), path(QStringLiteral("sign.pem")),
                                        QStringLiteral("provender-issuer"), QStringLiteral("provender-registry"), QStringLiteral("alice"),
                                        QStringLiteral("repository:tok/test/foo:pull")});
        QCOMPARE(minted.exitCode, 0);
        QFile oauth(path(QStringLiteral("oauth.tfrc")));
        QVERIFY(oauth.open(QIODevice::WriteOnly));
        oauth.write(QStringLiteral("oci_credentials \"127.0.0.1:%1/tok\" {\n  access_token  = \"%2\"\n  "
                                   "refresh_token = \"unused\"\n}\n")
                        .arg(port)
                        .arg(QString::fromUtf8(minted.out.trimmed()))
                        .toUtf8());
        oauth.close();
        QFile tokenLog(path(QStringLiteral("tokens.log")));
        QVERIFY(tokenLog.open(QIODevice::ReadOnly));
        const qsizetype tokenRequestsBefore = tokenLog.readAll().count('\n');
        tokenLog.close();
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), oauth.fileName());
        const ProcessRun withAccessToken = provender({QStringLiteral("verify"), QStringLiteral("oci://") + t, QStringLiteral("--provider"),
                                                      QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"),
                                                      path(QStringLiteral("ca.pem")), QStringLiteral("--json")},
                                                     env);
        QVERIFY(tokenLog.open(QIODevice::ReadOnly));
        const qsizetype tokenRequestsAfter = tokenLog.readAll().count('\n');
        tokenLog.close();
        // The catalog under token auth: the token is asked for Distribution's catalog scope.
        QProcessEnvironment basicEnv = env;
        basicEnv.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cli.fileName());
        const ProcessRun listed = provender({QStringLiteral("oci"), QStringLiteral("list"), QStringLiteral("oci://") + t,
                                             QStringLiteral("--hostname"), QStringLiteral("example.com"), QStringLiteral("--ca-file"),
                                             path(QStringLiteral("ca.pem")), QStringLiteral("--json")},
                                            basicEnv);
        stop(registry);
        stop(tokens);
        QVERIFY2(pushed.exitCode == 0, pushed.out.constData());
        QCOMPARE(json(pushed)
                     .value(QLatin1StringView("verification"))
                     .toObject()
                     .value(QLatin1StringView("summary"))
                     .toObject()
                     .value(QLatin1StringView("verified"))
                     .toInt(),
                 5);
        // The token server saw our Basic credentials and the push and pull scopes of each repository.
        QFile log(path(QStringLiteral("tokens.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QString requests = QString::fromUtf8(log.readAll());
        QVERIFY2(requests.contains(u"auth=ok service=provender-registry scopes=repository:tok/test/foo:pull,push"), qPrintable(requests));
        QVERIFY2(requests.contains(u"auth=ok service=provender-registry scopes=repository:tok/test/bar:pull"), qPrintable(requests));
        // Without credentials the token server refuses, and the verdict says where it failed.
        QCOMPARE(anonymous.exitCode, 1);
        QVERIFY2(anonymous.out.contains("token request to https://127.0.0.1:"), anonymous.out.constData());
        QVERIFY(requests.contains(u"auth=none"));
        QVERIFY2(withAccessToken.exitCode == 0, withAccessToken.out.constData());
        QCOMPARE(json(withAccessToken).value(QLatin1StringView("summary")).toObject().value(QLatin1StringView("verified")).toInt(), 3);
        QCOMPARE(tokenRequestsAfter, tokenRequestsBefore);
        QVERIFY(!withAccessToken.out.contains(minted.out.trimmed()));
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        QStringList listedProviders;
        for (const QJsonValue &v : json(listed).value(QLatin1StringView("providers")).toArray())
            listedProviders.append(v.toString());
        QCOMPARE(listedProviders, (QStringList{QStringLiteral("example.com/test/bar"), QStringLiteral("example.com/test/foo")}));
        QVERIFY(log.seek(0));
        QVERIFY2(QString::fromUtf8(log.readAll()).contains(u"auth=ok service=provender-registry scopes=registry:catalog:*"),
                 qPrintable(requests));
    }

    void credentialHelper()
    {
        // A Docker-style config naming a helper for the registry: `docker-credential-NAME get`
        // runs (server URL on stdin) and its username/secret are used. Without that entry the
        // helper never runs.
        const QString bin = path(QStringLiteral("helper-bin"));
        QVERIFY(QDir().mkpath(bin));
        QFile helper(bin + QStringLiteral("/docker-credential-provtest"));
        QVERIFY(helper.open(QIODevice::WriteOnly));
        helper.write(QStringLiteral("#!/bin/sh\n[ \"$1\" = get ] || exit 1\nread url\necho \"$url\" >> %1\n"
                                    "printf '{\"ServerURL\":\"%s\",\"Username\":\"alice\",\"Secret\":\"secret\"}' \"$url\"\n")
                         .arg(path(QStringLiteral("helper.log")))
                         .toUtf8());
        helper.close();
        QVERIFY(helper.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        const QString home = path(QStringLiteral("helper-home"));
        QVERIFY(QDir().mkpath(home + QStringLiteral("/.docker")));
        auto writeDockerConfig = [&](const QByteArray &json) {
            QFile f(home + QStringLiteral("/.docker/config.json"));
            if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
                f.write(json);
        };
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), path(QStringLiteral("empty.tfrc")));
        env.insert(QStringLiteral("PATH"), bin + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
        const QStringList args{QStringLiteral("verify"),     QStringLiteral("oci://") + templ(),
                               QStringLiteral("--provider"), QStringLiteral("example.com/test/foo"),
                               QStringLiteral("--ca-file"),  path(QStringLiteral("ca.pem")),
                               QStringLiteral("--json")};

        writeDockerConfig(QStringLiteral("{\"credHelpers\": {\"127.0.0.1:%1\": \"provtest\"}}").arg(m_port).toUtf8());
        const ProcessRun r = provender(args, env);
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QFile log(path(QStringLiteral("helper.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(log.readAll()).trimmed(), QStringLiteral("https://127.0.0.1:%1").arg(m_port));
        log.close();

        writeDockerConfig("{\"auths\": {}}");
        const ProcessRun none = provender(args, env);
        QCOMPARE(none.exitCode, 1);
        QVERIFY(none.out.contains("401"));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(log.readAll().count('\n'), 1); // not run again
    }

    void credentialsNeverFollowRedirects()
    {
        // A blob GET redirected to another host name: the download there carries no
        // Authorization, and a 401 there is not answered with the registry's credentials.
        const QString zip = m_zips.at(0);
        const quint16 port = freePort();
        QProcess server;
        QVERIFY2(startRedirector(server, port, 0), server.readAllStandardError().constData());
        oci::OciClient client(oci::RepositoryAddress{QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("r")}, alice(),
                              redirectedClientOptions());
        QByteArray pulled;
        const Result<qint64> ok = client.fetchBlob(zipDigest(zip), QFileInfo(zip).size(), [&](const char *d, qint64 n) {
            pulled.append(d, n);
            return true;
        });
        const Result<qint64> refused =
            client.fetchBlob(QStringLiteral("sha256:") + QString(64, QLatin1Char('0')), 10, [](const char *, qint64) { return true; });
        stop(server);
        QVERIFY2(ok.ok(), ok.ok() ? "" : qPrintable(ok.error().message));
        QCOMPARE(sha256Hex(zip), QString::fromLatin1(QCryptographicHash::hash(pulled, QCryptographicHash::Sha256).toHex()));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(u"401"), qPrintable(refused.error().message));
        // The 401 of the other host is not answered, so it is a failure in the request log.
        QVERIFY(!client.log().isEmpty());
        QCOMPARE(client.log().constLast().status, 401);
        QVERIFY(!client.log().constLast().expected);
        const QString text = redirectLog();
        QVERIFY2(text.contains(u"/elsewhere/ok auth=no") && text.contains(u"/elsewhere/auth auth=no"), qPrintable(text));
        QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("/elsewhere/\\S+ auth=yes"))), qPrintable(text));
        QVERIFY2(text.contains(u"/v2/r/blobs/"), qPrintable(text));
    }

    void ociRedirectsFollowHttpRunnersRules()
    {
        // OCI requests go through HttpRunner: the network mirror's redirect rules hold for them.
        // A redirect to another port of the same host (another origin) carries no Authorization
        // (Go's same-host rule would send it); an https -> http redirect is refused even with
        // http to loopback allowed; the registry's 401 challenge is an expected answer in the log.
        const QString zip = m_zips.at(0);
        const quint16 port = freePort(), port2 = freePort();
        QFile::remove(path(QStringLiteral("redirect.log")));
        QProcess server;
        QVERIFY2(startRedirector(server, port, port2), server.readAllStandardError().constData());
        oci::OciClientOptions options = redirectedClientOptions();
        options.allowHttpLoopback = true;
        const QString registry = QStringLiteral("127.0.0.1:%1").arg(port);
        oci::OciClient otherPort(oci::RepositoryAddress{registry, QStringLiteral("port")}, alice(), options);
        const Result<qint64> ok = otherPort.fetchBlob(zipDigest(zip), QFileInfo(zip).size(), [](const char *, qint64) { return true; });
        oci::OciClient plain(oci::RepositoryAddress{registry, QStringLiteral("plain")}, alice(), options);
        const Result<qint64> downgrade = plain.fetchBlob(zipDigest(zip), QFileInfo(zip).size(), [](const char *, qint64) { return true; });
        stop(server);
        QVERIFY2(ok.ok(), ok.ok() ? "" : qPrintable(ok.error().message));
        const QString text = redirectLog();
        QVERIFY2(text.contains(QStringLiteral("127.0.0.1:%1 /elsewhere/ok auth=no").arg(port2)), qPrintable(text));
        QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("/elsewhere/\\S+ auth=yes"))), qPrintable(text));
        QVERIFY(!downgrade.ok());
        QVERIFY2(downgrade.error().message.contains(QStringLiteral("refused a redirect from https to http://127.0.0.1:%1").arg(port)),
                 qPrintable(downgrade.error().message));
        QCOMPARE(text.count(u"/elsewhere/"), 1); // the http: target was never requested
        // The log: the anonymous GET's 401 challenge (expected), the GET again with the
        // credentials and its 307 (a hop), the GET at the other origin without them.
        const QList<oci::OciRequestLog> log = otherPort.log();
        QCOMPARE(log.size(), 3);
        QCOMPARE(log.at(0).status, 401);
        QVERIFY(log.at(0).expected && !log.at(0).authorization);
        QCOMPARE(log.at(1).status, 307);
        QVERIFY(log.at(1).authorization && log.at(1).error.isEmpty());
        QCOMPARE(log.at(2).status, 200);
        QVERIFY(!log.at(2).authorization);
        QCOMPARE(log.at(2).url.port(), int(port2));
        QVERIFY2(plain.log().constLast().error.contains(u"refused a redirect from https to"), qPrintable(plain.log().constLast().error));
    }

    void hostileArtifacts()
    {
        const int logBefore = int(accessLog().size());
        const QString sameAsDirectory = path(QStringLiteral("hostile-dir"));
        const ProcessRun written = tool({QStringLiteral("hostile"), QString::number(m_port), path(QStringLiteral("ca.pem")),
                                         QStringLiteral("alice"), QStringLiteral("secret"), m_zips.at(0), m_zips.at(1), sameAsDirectory});
        if (written.exitCode != 0)
            QFAIL(qPrintable(QStringLiteral("oci_tool.py hostile: ") + QString::fromUtf8(written.err)));
        // The bytes behind one digest are changed in the registry's storage (what a corrupted or
        // tampered store serves; Distribution does not re-hash on read).
        const QString blob = QJsonDocument::fromJson(written.out).object().value(QLatin1StringView("badbytes_blob")).toString().mid(7);
        QFile data(path(QStringLiteral("storage/docker/registry/v2/blobs/sha256/%1/%2/data").arg(blob.left(2), blob)));
        QVERIFY2(data.open(QIODevice::ReadWrite), qPrintable(data.fileName()));
        const QByteArray original = data.readAll();
        QByteArray changed = original;
        changed[changed.size() / 2] = char(changed.at(changed.size() / 2) ^ 0x01);
        data.seek(0);
        data.write(changed);
        data.close();

        QStringList args{QStringLiteral("verify"), QStringLiteral("oci://") + templ(QStringLiteral("hostile")), QStringLiteral("--ca-file"),
                         path(QStringLiteral("ca.pem")), QStringLiteral("--json")};
        for (const char *t :
             {"wrongtype", "twice", "notzip", "badbytes", "oversized", "direct", "short", "noexe", "notazip", "absurd", "otherplatform"})
            args << QStringLiteral("--provider") << QStringLiteral("example.com/test/") + QString::fromLatin1(t);
        const ProcessRun r = provender(args);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = json(r);
        QHash<QString, QJsonObject> byKey;
        for (const QJsonValue &a : o.value(QLatin1StringView("archives")).toArray()) {
            const QJsonObject x = a.toObject();
            byKey.insert(x.value(QLatin1StringView("provider")).toString().section(QLatin1Char('/'), 2) + QLatin1Char(' ')
                             + x.value(QLatin1StringView("platform")).toString(),
                         x);
        }
        QHash<QString, QString> anomalies;
        for (const QJsonValue &a : o.value(QLatin1StringView("anomalies")).toArray())
            anomalies.insert(a.toObject().value(QLatin1StringView("path")).toString().section(QLatin1Char('/'), -1),
                             a.toObject().value(QLatin1StringView("message")).toString());
        auto expect = [&](const QString &key, const char *verdict, const char *reason) {
            QVERIFY2(byKey.contains(key), qPrintable(key + QLatin1Char('\n') + QString::fromUtf8(r.out)));
            const QJsonObject x = byKey.value(key);
            QCOMPARE(x.value(QLatin1StringView("verdict")).toString(), QString::fromLatin1(verdict));
            QVERIFY2(x.value(QLatin1StringView("reason")).toString().contains(QString::fromLatin1(reason)),
                     qPrintable(key + QStringLiteral(": ") + x.value(QLatin1StringView("reason")).toString()));
        };
        // Per-version refusals (tofu fails the version on every platform), wording as
        // oci_registry_mirror_source.go:588 and :530.
        QVERIFY2(anomalies.value(QStringLiteral("wrongtype:1.0.0")).contains(u"unexpected artifact type \"application/vnd.example.other\""),
                 r.out.constData());
        QVERIFY2(anomalies.value(QStringLiteral("direct:1.0.0")).contains(u"selected an OCI image manifest directly"), r.out.constData());
        // Per platform: :713 ambiguous, :738 no archive/zip layer, :753 size limit,
        // package_location_oci_blob_archive.go:257 bytes vs digest (the short descriptor reads
        // only its size: the hash of that prefix is not the digest either).
        expect(QStringLiteral("twice linux_amd64"), "error", "ambiguous manifest has multiple descriptors for platform linux_amd64");
        // The darwin entry's digest is right, but its package is foo's: no terraform-provider-twice
        // in it, so tofu's installer refuses it after the download (providercache's executable
        // search), as for every other source.
        expect(QStringLiteral("twice darwin_arm64"), "refused",
               "provider binary not found: could not find executable file starting with "
               "terraform-provider-twice");
        expect(QStringLiteral("notzip linux_amd64"), "error",
               "image manifest contains no layers of type \"archive/zip\", but has other unsupported formats");
        expect(QStringLiteral("oversized linux_amd64"), "error", "manifest size exceeds OpenTofu's size limit of 4 MiB");
        expect(QStringLiteral("badbytes linux_amd64"), "mismatch", "provider package does not match digest");
        // The registry sends the whole blob: its Content-Length is not the descriptor's size, which
        // ORAS's blob Fetch (oras-go v2.6.2 registry/remote/repository.go:773) refuses before reading.
        expect(QStringLiteral("short linux_amd64"), "error", "mismatch Content-Length");
        // Right digests, content tofu refuses: no executable (refused), not a zip (extraction fails).
        expect(QStringLiteral("noexe linux_amd64"), "refused",
               "provider binary not found: could not find executable file starting with "
               "terraform-provider-noexe");
        expect(QStringLiteral("notazip linux_amd64"), "error", "");
        // A descriptor of 1 PiB + the blob: not fetched at all.
        expect(QStringLiteral("absurd linux_amd64"), "error", "more than the largest archive downloaded (2147483648 bytes");
        const QString absurdBlob = QJsonDocument::fromJson(written.out).object().value(QLatin1StringView("absurd_blob")).toString();
        QCOMPARE(count(accessLog().mid(logBefore), QStringLiteral("GET"), QStringLiteral("/v2/hostile/test/absurd/blobs/")), 0);
        QVERIFY(!absurdBlob.isEmpty());
        // A layer annotated with another platform (package_location_oci_blob_archive.go:291-302).
        expect(QStringLiteral("otherplatform linux_amd64"), "error",
               "selected OCI artifact is for darwin_arm64, but was expected to be for linux_amd64");
        // Nothing that failed is anchored; only the verified archives are.
        for (auto it = byKey.cbegin(); it != byKey.cend(); ++it)
            QCOMPARE(it.value().value(QLatin1StringView("anchors")).toArray().isEmpty(),
                     it.value().value(QLatin1StringView("verdict")).toString() != u"verified");
        // The same packages in a directory mirror get the same verdicts from `provender verify DIR`
        // (whose rules tests/interop checks against terraform): one set of rules for every source.
        const ProcessRun dir =
            provender({QStringLiteral("verify"), sameAsDirectory, QStringLiteral("--json"), QStringLiteral("--no-cache")});
        int compared = 0;
        for (const QJsonValue &a : json(dir).value(QLatin1StringView("archives")).toArray()) {
            const QJsonObject d = a.toObject();
            const QString key = d.value(QLatin1StringView("provider")).toString().section(QLatin1Char('/'), 2) + QLatin1Char(' ')
                + d.value(QLatin1StringView("platform")).toString();
            QVERIFY2(byKey.contains(key), qPrintable(key));
            QCOMPARE(byKey.value(key).value(QLatin1StringView("verdict")).toString(), d.value(QLatin1StringView("verdict")).toString());
            ++compared;
        }
        QCOMPARE(compared, 2);
        // The changed blob's computed zh: is the hash of the bytes served, not the digest.
        QCOMPARE(byKey.value(QStringLiteral("badbytes linux_amd64")).value(QLatin1StringView("zh")).toString(),
                 QStringLiteral("zh:") + QString::fromLatin1(QCryptographicHash::hash(changed, QCryptographicHash::Sha256).toHex()));
    }

    /// The browser's path: the registry as a MirrorSource (OciSource), listed on this thread and
    /// read on the asynchronous VerifyEngine's own thread, as the main window does.
    static QList<ArchiveResult> verifyInEngine(const std::shared_ptr<oci::OciSource> &source, const Catalog &catalog,
                                               const VerifyOptions &options = {})
    {
        VerifyEngine engine;
        QList<ArchiveResult> results;
        QObject::connect(&engine, &VerifyEngine::archivesVerified, [&](const QList<ArchiveResult> &batch) { results += batch; });
        QEventLoop loop;
        QObject::connect(&engine, &VerifyEngine::finished, &loop, &QEventLoop::quit);
        engine.start(source, catalog, options);
        loop.exec();
        return results;
    }

    void sourceAndEngineAgree()
    {
        // For every archive of the hostile repositories and the pushed mirror, the asynchronous
        // engine over OciSource gives the verdict the CLI gives (`provender verify oci://… --json`,
        // whose verdicts hostileArtifacts checks against tofu's rules) — one set of rules,
        // whichever way an OCI mirror is read — and the same anchors.
        QStringList warnings;
        QProcessEnvironment env = m_env;
        const Result<oci::OciCredentialsPolicy> policy = oci::loadCredentialsPolicy(env, path(QStringLiteral("home")), &warnings);
        QVERIFY2(policy.ok(), policy.ok() ? "" : qPrintable(policy.error().message));
        for (const QString &prefix : {QStringLiteral("hostile"), QStringLiteral("mirror")}) {
            oci::OciMirrorOptions mirror;
            mirror.repositoryTemplate = templ(prefix);
            mirror.client.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
            mirror.credentials = policy.value();
            QList<ProviderAddress> providers;
            const QStringList types = prefix == u"mirror"
                ? QStringList{QStringLiteral("foo"), QStringLiteral("bar"), QStringLiteral("nothere")}
                : QStringList{QStringLiteral("wrongtype"), QStringLiteral("twice"),        QStringLiteral("notzip"),
                              QStringLiteral("badbytes"),  QStringLiteral("oversized"),    QStringLiteral("direct"),
                              QStringLiteral("short"),     QStringLiteral("noexe"),        QStringLiteral("notazip"),
                              QStringLiteral("absurd"),    QStringLiteral("otherplatform")};
            QStringList cli{QStringLiteral("verify"), QStringLiteral("oci://") + templ(prefix), QStringLiteral("--ca-file"),
                            path(QStringLiteral("ca.pem")), QStringLiteral("--json")};
            for (const QString &t : types) {
                providers.append(ProviderAddress::parse(QString(QStringLiteral("example.com/test/") + t)).value());
                cli << QStringLiteral("--provider") << QStringLiteral("example.com/test/") + t;
            }
            auto source = std::make_shared<oci::OciSource>(mirror, providers);
            const Result<Catalog> catalog = source->list();
            QVERIFY2(catalog.ok(), catalog.ok() ? "" : qPrintable(catalog.error().message));
            const QList<ArchiveResult> engine = verifyInEngine(source, catalog.value());
            const QJsonObject direct = json(provender(cli));
            const QJsonArray archives = direct.value(QLatin1StringView("archives")).toArray();
            QCOMPARE(engine.size(), archives.size());
            QCOMPARE(engine.size(), prefix == u"mirror" ? 5 : 10); // hostile: wrongtype and direct fail as versions
            QCOMPARE(catalog.value().anomalies.size(), direct.value(QLatin1StringView("anomalies")).toArray().size());
            QCOMPARE(source->absentProviders().size(),
                     direct.value(QLatin1StringView("oci")).toObject().value(QLatin1StringView("absent_providers")).toArray().size());
            QHash<QString, QJsonObject> byKey;
            for (const QJsonValue &v : archives)
                byKey.insert(v.toObject().value(QLatin1StringView("provider")).toString() + QLatin1Char(' ')
                                 + v.toObject().value(QLatin1StringView("version")).toString() + QLatin1Char(' ')
                                 + v.toObject().value(QLatin1StringView("platform")).toString(),
                             v.toObject());
            for (const ArchiveResult &a : engine) {
                const QString key =
                    a.key.provider.toString() + QLatin1Char(' ') + a.key.version.toString() + QLatin1Char(' ') + a.key.platform.toString();
                QVERIFY2(byKey.contains(key), qPrintable(key));
                const QJsonObject b = byKey.value(key);
                const QString what =
                    key + QStringLiteral(": ") + a.detail.reason + QStringLiteral(" | ") + b.value(QLatin1StringView("reason")).toString();
                QVERIFY2(toString(a.detail.verdict) == b.value(QLatin1StringView("verdict")).toString(), qPrintable(what));
                const QJsonArray anchors = b.value(QLatin1StringView("anchors")).toArray();
                QCOMPARE(a.detail.anchors.size(), anchors.size());
                for (qsizetype i = 0; i < anchors.size(); ++i)
                    QCOMPARE(a.detail.anchors.at(i).document, anchors.at(i).toObject().value(QLatin1StringView("document")).toString());
                QCOMPARE(a.path, b.value(QLatin1StringView("path")).toString());
                if (a.hashes)
                    QCOMPARE(a.hashes->zh.toString(), b.value(QLatin1StringView("zh")).toString());
            }
            // openArchive: the blob's bytes, as the registry stores them.
            if (prefix == u"mirror") {
                const Archive *first = &catalog.value().providers.first().versions.first().archives.first();
                Result<std::unique_ptr<QIODevice>> device = source->openArchive(*first);
                QVERIFY2(device.ok(), device.ok() ? "" : qPrintable(device.error().message));
                const QByteArray bytes = device.value()->readAll();
                QCOMPARE(QStringLiteral("sha256:")
                             + QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()),
                         first->path.section(QLatin1Char('/'), -1));
                QVERIFY(source->capabilities().credentials && source->capabilities().requestLog);
                QVERIFY(!source->requestLog().isEmpty());
            }
        }
    }

    void engineChecksLockBeforeDownload()
    {
        // tofu compares the layer digest (as zh:) with the lock's hashes before it downloads
        // (package_location_oci_blob_archive.go:117-131): an h1:-only lock fails from an OCI mirror
        // although the package's h1: is in it. The browser's path (OciSource read by the
        // asynchronous engine) gives that verdict, as the CLI does (lockFileRules).
        const QString dir = m_mirror + QStringLiteral("/example.com/test/foo/");
        const QString linux = dir + QStringLiteral("terraform-provider-foo_1.0.0_linux_amd64.zip");
        const QString darwin = dir + QStringLiteral("terraform-provider-foo_1.0.0_darwin_arm64.zip");
        const HashString h1Linux = HashString::parse(QString::fromUtf8(tool({QStringLiteral("h1"), linux}).out.trimmed())).value();
        const HashString h1Darwin = HashString::parse(QString::fromUtf8(tool({QStringLiteral("h1"), darwin}).out.trimmed())).value();
        const HashString zhLinux = HashString::parse(QString(QStringLiteral("zh:") + sha256Hex(linux))).value();
        const HashString zhDarwin = HashString::parse(QString(QStringLiteral("zh:") + sha256Hex(darwin))).value();
        QStringList warnings;
        const Result<oci::OciCredentialsPolicy> policy = oci::loadCredentialsPolicy(m_env, path(QStringLiteral("home")), &warnings);
        QVERIFY(policy.ok());
        oci::OciMirrorOptions mirror;
        mirror.repositoryTemplate = templ();
        mirror.client.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
        mirror.credentials = policy.value();
        const ProviderAddress foo = ProviderAddress::parse(QStringLiteral("example.com/test/foo")).value();
        const Version v100 = Version::parse(QStringLiteral("1.0.0")).value();
        auto source =
            std::make_shared<oci::OciSource>(mirror, QList<ProviderAddress>{foo}, QHash<QString, QList<Version>>{{foo.toString(), {v100}}});
        const Result<Catalog> catalog = source->list();
        QVERIFY2(catalog.ok(), catalog.ok() ? "" : qPrintable(catalog.error().message));
        QCOMPARE(source->lockCheckedBeforeRead(catalog.value().providers.first().versions.first().archives.first()), zhDarwin);
        const ProviderVersionKey key{foo, v100};
        auto run = [&](const QList<HashString> &lock) {
            VerifyOptions options;
            options.expected.insert(key, lock);
            options.expectedFrom.insert(key, QStringLiteral("/reviewed/.terraform.lock.hcl"));
            options.lockCoverage = true;
            QHash<QString, ArchiveResult> byPlatform;
            for (const ArchiveResult &r : verifyInEngine(source, catalog.value(), options))
                byPlatform.insert(r.key.platform.toString(), r);
            return byPlatform;
        };
        // h1: only: refused before the download (error, since the lock has the package's h1:),
        // with tofu's message and the zh: to add; nothing anchors it.
        QHash<QString, ArchiveResult> r = run({h1Linux, h1Darwin});
        QCOMPARE(r.size(), 2);
        for (const QString &p : {QStringLiteral("linux_amd64"), QStringLiteral("darwin_arm64")}) {
            const ArchiveResult &a = r.value(p);
            QCOMPARE(toString(a.detail.verdict), QStringLiteral("error"));
            QVERIFY2(a.detail.reason.contains(u"the current package for example.com/test/foo 1.0.0 doesn't match any of the checksums "
                                              u"previously recorded in the dependency lock file"),
                     qPrintable(a.detail.reason));
            QVERIFY2(a.detail.reason.contains((p == u"linux_amd64" ? zhLinux : zhDarwin).toString()), qPrintable(a.detail.reason));
            QVERIFY(a.detail.anchors.isEmpty());
        }
        // Hashes of other packages only: mismatch.
        r = run({HashString::parse(QString(QStringLiteral("zh:") + QString(64, QLatin1Char('0')))).value()});
        QCOMPARE(toString(r.value(QStringLiteral("linux_amd64")).detail.verdict), QStringLiteral("mismatch"));
        // The layer digests in the lock (zh: only): verified, anchored in the lock first.
        r = run({zhLinux, zhDarwin});
        const ArchiveResult &ok = r.value(QStringLiteral("linux_amd64"));
        QCOMPARE(toString(ok.detail.verdict), QStringLiteral("verified"));
        QCOMPARE(ok.detail.anchors.size(), 2);
        QVERIFY(ok.detail.anchors.first().kind == TrustAnchor::Kind::LockFile);
        QCOMPARE(ok.detail.anchors.first().document, QStringLiteral("/reviewed/.terraform.lock.hcl"));
    }

    void signedProvenance()
    {
        // A mirror as `mirror pull` leaves it (.provenance/HOST/NS/TYPE/VERSION with the release's
        // SHA256SUMS, its detached signature and the signing key, made here with gpg): oci push
        // publishes them as an OCI 1.1 artifact whose subject is the version's index, and — since
        // Distribution 2.8 has no referrers API — lists it under the referrers tag
        // `sha256-<hex>` (distribution-spec "Referrers Tag Schema"); verify reads it back, checks
        // the signature offline and anchors each archive in it.
        if (!test::GpgFixture::available())
            PROVENDER_SKIP(Missing::Package, QStringLiteral("gpg is not installed"));
        test::GpgFixture gpg;
        const QString fpr = gpg.generateKey(QStringLiteral("Provender OCI test <oci@example.com>"));
        QVERIFY2(!fpr.isEmpty(), qPrintable(gpg.lastError()));
        const QString other = gpg.generateKey(QStringLiteral("Someone else <else@example.com>"));
        QVERIFY2(!other.isEmpty(), qPrintable(gpg.lastError()));
        const QByteArray key = gpg.exportKey(fpr);
        QVERIFY(!key.isEmpty());
        const QString dir = m_mirror + QStringLiteral("/example.com/test/foo/");
        const QStringList zips{QStringLiteral("terraform-provider-foo_1.0.0_darwin_arm64.zip"),
                               QStringLiteral("terraform-provider-foo_1.0.0_linux_amd64.zip")};
        QByteArray sums;
        for (const QString &z : zips)
            sums += sha256Hex(dir + z).toLatin1() + "  " + z.toLatin1() + '\n';
        // Three copies of foo 1.0.0, each with its provenance: signed correctly; a signature by
        // another key than the one it ships; and a correctly signed list that names another
        // SHA-256 for darwin_arm64.
        auto makeMirror = [&](const QString &name, const QByteArray &list, const QString &signer) {
            const QString root = path(name);
            const QString pkg = root + QStringLiteral("/example.com/test/foo/");
            const QString prov = root + QStringLiteral("/.provenance/example.com/test/foo/1.0.0/");
            if (!QDir().mkpath(pkg) || !QDir().mkpath(prov))
                return false;
            for (const QString &z : zips)
                if (!QFile::copy(dir + z, pkg + z))
                    return false;
            const QByteArray sig = gpg.sign(signer, list);
            auto write = [](const QString &file, const QByteArray &data) {
                QFile f(file);
                return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
            };
            return !sig.isEmpty() && write(prov + QStringLiteral("SHA256SUMS"), list) && write(prov + QStringLiteral("SHA256SUMS.sig"), sig)
                && write(prov + QStringLiteral("keys.asc"), key);
        };
        QByteArray wrongDarwin = sums;
        wrongDarwin.replace(sha256Hex(dir + zips.at(0)).toLatin1(), QByteArray(64, 'a'));
        QVERIFY(makeMirror(QStringLiteral("prov-good"), sums, fpr));
        QVERIFY(makeMirror(QStringLiteral("prov-badsig"), sums, other));
        QVERIFY(makeMirror(QStringLiteral("prov-wrongsum"), wrongDarwin, fpr));

        auto push = [&](const QString &name) {
            return provender({QStringLiteral("oci"), QStringLiteral("push"), path(name), QStringLiteral("--repository-template"),
                              templ(name), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--no-verify"),
                              QStringLiteral("--json")});
        };
        auto verify = [&](const QString &name, const QStringList &extra = {}) {
            return provender(QStringList{QStringLiteral("verify"), QStringLiteral("oci://") + templ(name), QStringLiteral("--provider"),
                                         QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"),
                                         path(QStringLiteral("ca.pem")), QStringLiteral("--json")}
                             + extra);
        };
        auto byPlatform = [](const QJsonObject &o) {
            QHash<QString, QJsonObject> out;
            for (const QJsonValue &a : o.value(QLatin1StringView("archives")).toArray())
                out.insert(a.toObject().value(QLatin1StringView("platform")).toString(), a.toObject());
            return out;
        };

        // 1. Published: read back with Python's http.client, field by field against the spec.
        ProcessRun r = push(QStringLiteral("prov-good"));
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const ProcessRun indexGet =
            tool({QStringLiteral("get"), QStringLiteral("https://127.0.0.1:%1/v2/prov-good/test/foo/manifests/1.0.0").arg(m_port),
                  path(QStringLiteral("ca.pem")), QStringLiteral("alice"), QStringLiteral("secret")});
        QCOMPARE(indexGet.exitCode, 0);
        const QString indexHex = QString::fromLatin1(QCryptographicHash::hash(indexGet.out, QCryptographicHash::Sha256).toHex());
        // distribution-spec: the referrers tag is the algorithm, '-', the encoded digest.
        const QJsonObject referrers = document(QStringLiteral("prov-good/test/foo/manifests/sha256-") + indexHex);
        QCOMPARE(referrers.value(QLatin1StringView("mediaType")).toString(), QStringLiteral("application/vnd.oci.image.index.v1+json"));
        const QJsonArray listed = referrers.value(QLatin1StringView("manifests")).toArray();
        QCOMPARE(listed.size(), 1);
        const QJsonObject entry = listed.first().toObject();
        QCOMPARE(entry.value(QLatin1StringView("mediaType")).toString(), QStringLiteral("application/vnd.oci.image.manifest.v1+json"));
        QCOMPARE(entry.value(QLatin1StringView("artifactType")).toString(),
                 QStringLiteral("application/vnd.provender.release-provenance.v1"));
        const QString artifact = entry.value(QLatin1StringView("digest")).toString();
        const QJsonObject manifest = document(QStringLiteral("prov-good/test/foo/manifests/") + artifact);
        // The artifact's annotations are copied into its referrers descriptor (the spec's MUST).
        QCOMPARE(entry.value(QLatin1StringView("annotations")).toObject(), manifest.value(QLatin1StringView("annotations")).toObject());
        // image-spec 1.1: artifactType, the empty config, and the subject = the version's index.
        QCOMPARE(manifest.value(QLatin1StringView("artifactType")).toString(),
                 QStringLiteral("application/vnd.provender.release-provenance.v1"));
        QCOMPARE(manifest.value(QLatin1StringView("config")).toObject().value(QLatin1StringView("digest")).toString(),
                 QString::fromLatin1(kConfigDigest));
        const QJsonObject subject = manifest.value(QLatin1StringView("subject")).toObject();
        QCOMPARE(subject.value(QLatin1StringView("digest")).toString(), QStringLiteral("sha256:") + indexHex);
        QCOMPARE(subject.value(QLatin1StringView("mediaType")).toString(), QString::fromLatin1(kIndexMediaType));
        QCOMPARE(subject.value(QLatin1StringView("size")).toInteger(), qint64(indexGet.out.size()));
        const QJsonArray layers = manifest.value(QLatin1StringView("layers")).toArray();
        QCOMPARE(layers.size(), 3);
        const QByteArray sig = [&] {
            QFile f(path(QStringLiteral("prov-good/.provenance/example.com/test/foo/1.0.0/SHA256SUMS.sig")));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        const std::pair<const char *, QByteArray> files[] = {{"SHA256SUMS", sums}, {"SHA256SUMS.sig", sig}, {"keys.asc", key}};
        for (int i = 0; i < 3; ++i) {
            const QJsonObject l = layers.at(i).toObject();
            QCOMPARE(
                l.value(QLatin1StringView("annotations")).toObject().value(QLatin1StringView("org.opencontainers.image.title")).toString(),
                QString::fromLatin1(files[i].first));
            QCOMPARE(l.value(QLatin1StringView("digest")).toString(),
                     QStringLiteral("sha256:")
                         + QString::fromLatin1(QCryptographicHash::hash(files[i].second, QCryptographicHash::Sha256).toHex()));
        }
        // tofu sees only the version's tag: the referrers tag is no version (its tag list ignores it).
        r = provender({QStringLiteral("oci"), QStringLiteral("list"), QStringLiteral("oci://") + templ(QStringLiteral("prov-good")),
                       QStringLiteral("--versions"), QStringLiteral("--hostname"), QStringLiteral("example.com"),
                       QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--json")});
        QJsonArray versions;
        for (const QJsonValue &e : json(r).value(QLatin1StringView("repositories")).toArray())
            if (e.toObject().value(QLatin1StringView("provider")).toString() == u"example.com/test/foo")
                versions = e.toObject().value(QLatin1StringView("versions")).toArray();
        QCOMPARE(versions, QJsonArray{QStringLiteral("1.0.0")});

        // 2. Verify: every archive anchored in the signature (after the registry's own manifest).
        r = verify(QStringLiteral("prov-good"));
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QHash<QString, QJsonObject> got = byPlatform(json(r));
        QCOMPARE(got.size(), 2);
        for (const QJsonObject &a : std::as_const(got)) {
            QCOMPARE(a.value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
            const QJsonArray anchors = a.value(QLatin1StringView("anchors")).toArray();
            QCOMPARE(anchors.size(), 2);
            QCOMPARE(anchors.at(1).toObject().value(QLatin1StringView("kind")).toString(), QStringLiteral("signature"));
            const QString doc = anchors.at(1).toObject().value(QLatin1StringView("document")).toString();
            QVERIFY2(doc.contains(artifact) && doc.contains(fpr.right(16)), qPrintable(doc));
        }
        // Pinned to another key: the signature is not used (an anomaly, exit 1), no signed anchor.
        QFile pin(path(QStringLiteral("other.asc")));
        QVERIFY(pin.open(QIODevice::WriteOnly));
        pin.write(gpg.exportKey(other));
        pin.close();
        r = verify(QStringLiteral("prov-good"), {QStringLiteral("--pinned-keys"), pin.fileName()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("signed provenance of example.com/test/foo 1.0.0 is not used"), r.out.constData());
        got = byPlatform(json(r));
        QCOMPARE(got.value(QStringLiteral("linux_amd64")).value(QLatin1StringView("anchors")).toArray().size(), 1);

        // 3. Re-pushing writes nothing: the artifact is there and the referrers tag lists it.
        const int before = int(accessLog().size());
        r = push(QStringLiteral("prov-good"));
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QStringList again = accessLog().mid(before);
        QCOMPARE(count(again, QStringLiteral("PUT"), QStringLiteral("/v2/prov-good/")), 0);
        QCOMPARE(count(again, QStringLiteral("POST"), QStringLiteral("/v2/prov-good/")), 0);

        // 4. A signature by a key the release does not ship: not used, reported.
        QCOMPARE(push(QStringLiteral("prov-badsig")).exitCode, 0);
        r = verify(QStringLiteral("prov-badsig"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("signed provenance of example.com/test/foo 1.0.0 is not used"), r.out.constData());
        QCOMPARE(byPlatform(json(r)).value(QStringLiteral("linux_amd64")).value(QLatin1StringView("anchors")).toArray().size(), 1);

        // 5. A good signature over a list that names another SHA-256: that archive is a mismatch.
        QCOMPARE(push(QStringLiteral("prov-wrongsum")).exitCode, 0);
        r = verify(QStringLiteral("prov-wrongsum"));
        QCOMPARE(r.exitCode, 1);
        got = byPlatform(json(r));
        QCOMPARE(got.value(QStringLiteral("darwin_arm64")).value(QLatin1StringView("verdict")).toString(), QStringLiteral("mismatch"));
        QVERIFY2(got.value(QStringLiteral("darwin_arm64")).value(QLatin1StringView("reason")).toString().contains(u"signed SHA256SUMS"),
                 qPrintable(got.value(QStringLiteral("darwin_arm64")).value(QLatin1StringView("reason")).toString()));
        QCOMPARE(got.value(QStringLiteral("linux_amd64")).value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
    }

    void blobSizeCap()
    {
        // A registry stand-in (oci_tool.py liar, Python) whose blob answers lie about their size,
        // verified in-process so that the download directory can be watched: after every verdict
        // nothing of any download is left on disk.
        const QString zip = m_zips.at(0);
        const qint64 size = QFileInfo(zip).size();
        const quint16 port = freePort();
        QProcess server;
        server.start(m_python,
                     {m_tool, QStringLiteral("liar"), QString::number(port), path(QStringLiteral("server.pem")),
                      path(QStringLiteral("server.key")), zip, path(QStringLiteral("liar.log"))});
        QVERIFY(server.waitForStarted(30000));
        QVERIFY2(waitForPort(port, server), server.readAllStandardError().constData());
        const QString tmp = path(QStringLiteral("liar-tmp"));
        QVERIFY(QDir().mkpath(tmp));
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", tmp.toLocal8Bit());
        oci::OciMirrorOptions mirror;
        mirror.repositoryTemplate = QStringLiteral("127.0.0.1:%1/liar/${namespace}/${type}").arg(port);
        mirror.client.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
        oci::OciVerifyOptions options;
        QStringList leftovers;
        options.onResult = [&](const ArchiveResult &) {
            QDirIterator it(tmp, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
            while (it.hasNext())
                leftovers.append(it.next());
        };
        QList<ProviderAddress> providers;
        for (const char *c : {"longer", "endless", "digesthdr", "absurd", "gzipped"})
            providers.append(ProviderAddress::parse(QStringLiteral("example.com/%1/foo").arg(QLatin1StringView(c))).value());
        const oci::OciVerifyReport report = oci::verifyOciMirror(providers, mirror, options);
        qputenv("TMPDIR", oldTmp);
        stop(server);
        QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(QLatin1Char('\n'))));
        QHash<QString, ArchiveResult> byType;
        for (const ArchiveResult &r : report.report.results)
            byType.insert(r.key.provider.ns(), r);
        QCOMPARE(byType.size(), 5);
        qint64 endlessRead = -1;
        for (const oci::OciRequestLog &e : report.log)
            if (e.url.path().startsWith(u"/v2/liar/endless/foo/blobs/"))
                endlessRead = e.bytes;
        // Content-Length of size + 1 MiB: refused at the headers (ORAS's "mismatch Content-Length",
        // oras-go v2.6.2 registry/remote/repository.go:773), nothing of the body read.
        const ArchiveResult &longer = byType.value(QStringLiteral("longer"));
        QCOMPARE(toString(longer.detail.verdict), QStringLiteral("error"));
        QVERIFY2(longer.detail.reason.contains(QStringLiteral("mismatch Content-Length (the response announces %1 bytes, "
                                                              "the descriptor %2)")
                                                   .arg(size + (1 << 20))
                                                   .arg(size)),
                 qPrintable(longer.detail.reason));
        QVERIFY(!longer.hashes);
        // No Content-Length, the blob and then zeros without end: read up to the descriptor's size
        // (tofu's io.LimitReader, package_location_oci_blob_archive.go:222) and the connection
        // dropped; those bytes are the package, so tofu installs it: verified.
        const ArchiveResult &endless = byType.value(QStringLiteral("endless"));
        QCOMPARE(toString(endless.detail.verdict), QStringLiteral("verified"));
        QVERIFY(endless.hashes);
        QCOMPARE(endless.hashes->zh.toString(), QStringLiteral("zh:") + sha256Hex(zip));
        QCOMPARE(endless.hashes->fileSize, size);
        // What Provender read from the socket: the package and at most one more read (256 KiB).
        QVERIFY2(endlessRead >= size && endlessRead <= size + (256 << 10), qPrintable(QString::number(endlessRead)));
        // A Docker-Content-Digest naming another digest: refused (ORAS verifyContentDigest).
        const ArchiveResult &digesthdr = byType.value(QStringLiteral("digesthdr"));
        QCOMPARE(toString(digesthdr.detail.verdict), QStringLiteral("error"));
        QVERIFY2(digesthdr.detail.reason.contains(u"digest mismatch in Docker-Content-Digest"), qPrintable(digesthdr.detail.reason));
        // A gzip-compressed answer (a proxy's Content-Encoding): its Content-Length is the compressed
        // size, which Go's transport hides (it decompresses and reports no length), so ORAS does not
        // compare it — and Qt drops it as well when it decompresses; the bytes are the package:
        // verified, not a "mismatch Content-Length".
        const ArchiveResult &gzipped = byType.value(QStringLiteral("gzipped"));
        QCOMPARE(toString(gzipped.detail.verdict), QStringLiteral("verified"));
        QVERIFY(gzipped.hashes);
        QCOMPARE(gzipped.hashes->zh.toString(), QStringLiteral("zh:") + sha256Hex(zip));
        // A descriptor of 2^50 bytes: over the cap, not requested at all.
        const ArchiveResult &absurd = byType.value(QStringLiteral("absurd"));
        QCOMPARE(toString(absurd.detail.verdict), QStringLiteral("error"));
        QVERIFY2(absurd.detail.reason.contains(QStringLiteral("declares %1 bytes, more than the largest archive").arg(qint64(1) << 50)),
                 qPrintable(absurd.detail.reason));
        // The stand-in's own log: the endless answer was cut off by the client long before its
        // 1 GiB, and the absurd blob was never asked for.
        QFile log(path(QStringLiteral("liar.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(log.readAll());
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("endless wrote=(\\d+) closed=(yes|no)")).match(text);
        QVERIFY2(m.hasMatch(), qPrintable(text));
        QCOMPARE(m.captured(2), QStringLiteral("yes"));
        QVERIFY2(m.captured(1).toLongLong() < (qint64(1) << 30), qPrintable(m.captured(1)));
        QVERIFY2(!text.contains(u"/v2/liar/absurd/foo/blobs/"), qPrintable(text));

        // The cap is the user's to set: one byte less than foo's smallest zip, against the real
        // registry, refuses every archive of foo without one blob GET (its access log).
        qint64 smallest = std::numeric_limits<qint64>::max();
        for (const QString &z : std::as_const(m_zips))
            if (z.contains(u"/test/foo/"))
                smallest = std::min(smallest, QFileInfo(z).size());
        const QString cap = QString::number(smallest - 1);
        const int before = int(accessLog().size());
        const ProcessRun capped =
            provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                       QStringLiteral("example.com/test/foo"), QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")),
                       QStringLiteral("--max-archive-size"), cap, QStringLiteral("--json")});
        QCOMPARE(capped.exitCode, 1);
        const QJsonArray archives = json(capped).value(QLatin1StringView("archives")).toArray();
        QCOMPARE(archives.size(), 3);
        for (const QJsonValue &a : archives) {
            QCOMPARE(a.toObject().value(QLatin1StringView("verdict")).toString(), QStringLiteral("error"));
            QVERIFY2(a.toObject()
                         .value(QLatin1StringView("reason"))
                         .toString()
                         .contains(QStringLiteral("(%1 bytes, --max-archive-size)").arg(cap)),
                     qPrintable(a.toObject().value(QLatin1StringView("reason")).toString()));
        }
        QCOMPARE(count(accessLog().mid(before), QStringLiteral("GET"), QStringLiteral("/blobs/")), 0);
        const ProcessRun bad =
            provender({QStringLiteral("verify"), QStringLiteral("oci://") + templ(), QStringLiteral("--provider"),
                       QStringLiteral("example.com/test/foo"), QStringLiteral("--max-archive-size"), QStringLiteral("lots")});
        QCOMPARE(bad.exitCode, 2);
    }

    void largeBlobStreamsOverHttp11()
    {
        // A 64 MiB blob pushed in one PUT from its file and fetched back into a hashing sink:
        // neither grows this process by a quarter of the blob (the peak RSS, as the kernel counts
        // it, since a reset; about 1 and 3 MiB here), so neither holds the blob in memory; the
        // digests are Qt's SHA-256 of the file as it was written. Every request of the two goes
        // out as HTTP/1.1, which the registry's access log shows — although this registry offers
        // HTTP/2 over TLS (`curl --http2` gets it): only with HTTP/1.1 does Qt honour the reply's
        // read buffer (with HTTP/2 allowed, the fetch grew by 53 MiB here).
        if (test::peakRssKiB() < 0 || !test::resetPeakRss())
            PROVENDER_SKIP(test::Missing::Platform,
                           QStringLiteral("/proc/self/status VmHWM or /proc/self/clear_refs is not available on this kernel"));
        constexpr qint64 kSize = qint64(64) << 20;
        const QString blobPath = path(QStringLiteral("large-blob"));
        QCryptographicHash written(QCryptographicHash::Sha256);
        {
            QFile f(blobPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QRandomGenerator rng(64);
            QByteArray block(1 << 20, Qt::Uninitialized);
            for (qint64 done = 0; done < kSize; done += block.size()) {
                rng.fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
                written.addData(block);
                QCOMPARE(f.write(block), qint64(block.size()));
            }
        }
        const QString digest = QStringLiteral("sha256:") + QString::fromLatin1(written.result().toHex());
        oci::OciClientOptions options;
        options.caCertificates = QSslCertificate::fromPath(path(QStringLiteral("ca.pem")));
        options.chunkSize = 0; // one PUT, streamed from the file
        oci::OciCredential alice;
        alice.username = QStringLiteral("alice");
        alice.password = QStringLiteral("secret");
        oci::OciClient client(oci::RepositoryAddress{QStringLiteral("127.0.0.1:%1").arg(m_port), QStringLiteral("memory/test/large")},
                              alice, options);

        QFile source(blobPath);
        QVERIFY(source.open(QIODevice::ReadOnly));
        QVERIFY(test::resetPeakRss());
        qint64 base = test::currentRssKiB();
        const Result<void> up = client.uploadBlob(&source, kSize, digest);
        const qint64 uploadGrowthKiB = test::peakRssKiB() - base;
        QVERIFY2(up.ok(), up.ok() ? "" : qPrintable(up.error().message));

        QCryptographicHash fetched(QCryptographicHash::Sha256);
        QVERIFY(test::resetPeakRss());
        base = test::currentRssKiB();
        const Result<qint64> got = client.fetchBlob(digest, kSize, [&](const char *d, qint64 n) {
            fetched.addData(QByteArrayView(d, n));
            return true;
        });
        const qint64 fetchGrowthKiB = test::peakRssKiB() - base;
        QVERIFY2(got.ok(), got.ok() ? "" : qPrintable(got.error().message));
        QCOMPARE(got.value(), kSize);
        QCOMPARE(QString::fromLatin1(fetched.result().toHex()), digest.mid(7));
        qInfo("peak RSS growth: upload %lld KiB, fetch %lld KiB (blob %lld KiB)", uploadGrowthKiB, fetchGrowthKiB, kSize / 1024);
        QVERIFY2(uploadGrowthKiB < kSize / 1024 / 4, qPrintable(QString::number(uploadGrowthKiB)));
        QVERIFY2(fetchGrowthKiB < kSize / 1024 / 4, qPrintable(QString::number(fetchGrowthKiB)));

        QFile log(path(QStringLiteral("registry.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        QStringList protocols;
        static const QRegularExpression request(QStringLiteral(R"re("[A-Z]+ /v2/memory/test/large/\S* (HTTP/[0-9.]+)")re"));
        for (const QByteArray &line : log.readAll().split('\n'))
            if (const QRegularExpressionMatch m = request.match(QString::fromUtf8(line)); m.hasMatch())
                protocols.append(m.captured(1));
        QVERIFY(protocols.size() >= 4); // HEAD/POST/PUT of the upload, GET of the blob
        protocols.removeDuplicates();
        QCOMPARE(protocols, QStringList{QStringLiteral("HTTP/1.1")});
        // ... which says something only because the registry speaks HTTP/2 to a client that asks.
        if (const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl")); !curl.isEmpty()) {
            const ProcessRun h2 =
                runProcess(curl,
                           {QStringLiteral("--http2"), QStringLiteral("-s"), QStringLiteral("-o"), QStringLiteral("/dev/null"),
                            QStringLiteral("-w"), QStringLiteral("%{http_version}"), QStringLiteral("--cacert"),
                            path(QStringLiteral("ca.pem")), QStringLiteral("https://127.0.0.1:%1/v2/").arg(m_port)},
                           30000);
            QCOMPARE(h2.out, QByteArray("2"));
        } else {
            qInfo("curl is not installed: that the registry offers HTTP/2 is not checked here");
        }
    }

    void catalog()
    {
        // Repositories of a template (cat/${namespace}/${type}), some that are not: one path
        // segment short, and a namespace with "__" (a valid OCI name, no valid provider namespace).
        const QStringList providers{QStringLiteral("cat/test/alpha"), QStringLiteral("cat/test/bravo"), QStringLiteral("cat/test/charlie"),
                                    QStringLiteral("cat/other/delta"), QStringLiteral("cat/other/echo")};
        const QStringList strangers{QStringLiteral("cat/short"), QStringLiteral("cat/te__st/foxtrot")};
        const ProcessRun written = tool(QStringList{QStringLiteral("repos"), QString::number(m_port), path(QStringLiteral("ca.pem")),
                                                    QStringLiteral("alice"), QStringLiteral("secret")}
                                        + providers + strangers);
        if (written.exitCode != 0)
            QFAIL(qPrintable(QStringLiteral("oci_tool.py repos: ") + QString::fromUtf8(written.err)));
        // The registry's catalog as Python's http.client reads it (one page of up to 1000).
        QStringList expected;
        for (const QJsonValue &v : document(QStringLiteral("_catalog?n=1000")).value(QLatin1StringView("repositories")).toArray())
            expected.append(v.toString());
        for (const QString &r : providers + strangers)
            QVERIFY2(expected.contains(r), qPrintable(expected.join(u' ')));
        const QString t = QStringLiteral("oci://127.0.0.1:%1/cat/${namespace}/${type}").arg(m_port);

        // Two per page: the client follows the registry's Link headers (its access log).
        const int before = int(accessLog().size());
        const ProcessRun r =
            provender({QStringLiteral("oci"), QStringLiteral("list"), t, QStringLiteral("--hostname"), QStringLiteral("example.com"),
                       QStringLiteral("--page-size"), QStringLiteral("2"), QStringLiteral("--versions"), QStringLiteral("--ca-file"),
                       path(QStringLiteral("ca.pem")), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const int pages = count(accessLog().mid(before), QStringLiteral("GET"), QStringLiteral("/v2/_catalog?"));
        // ceil(N/2) pages, and one more (empty) when the registry cannot tell a full last page is the last.
        const int full = int(expected.size() + 1) / 2;
        QVERIFY2(full >= 2 && pages >= full && pages <= full + 1,
                 qPrintable(QStringLiteral("%1 pages for %2").arg(pages).arg(expected.size())));
        const QJsonObject o = json(r);
        QStringList listed, mapped;
        QHash<QString, QJsonObject> entries;
        for (const QJsonValue &v : o.value(QLatin1StringView("repositories")).toArray()) {
            const QJsonObject e = v.toObject();
            listed.append(e.value(QLatin1StringView("repository")).toString());
            entries.insert(listed.last(), e);
        }
        QCOMPARE(listed, expected);
        for (const QJsonValue &v : o.value(QLatin1StringView("providers")).toArray())
            mapped.append(v.toString());
        QStringList want;
        for (const QString &p : providers)
            want.append(QStringLiteral("example.com/") + p.mid(4));
        want.sort();
        QCOMPARE(mapped, want);
        for (const QString &p : providers) {
            QCOMPARE(entries.value(p).value(QLatin1StringView("provider")).toString(), QStringLiteral("example.com/") + p.mid(4));
            QCOMPARE(entries.value(p).value(QLatin1StringView("versions")).toArray(), QJsonArray{QStringLiteral("1.0.0")});
        }
        for (const QString &p : strangers) {
            QVERIFY(entries.value(p).value(QLatin1StringView("provider")).isNull());
            QVERIFY(!entries.value(p).value(QLatin1StringView("note")).toString().isEmpty());
        }
        QVERIFY2(entries.value(QStringLiteral("cat/short"))
                     .value(QLatin1StringView("note"))
                     .toString()
                     .contains(u"is not a repository of the template"),
                 qPrintable(entries.value(QStringLiteral("cat/short")).value(QLatin1StringView("note")).toString()));
        QVERIFY2(entries.value(QStringLiteral("cat/te__st/foxtrot"))
                     .value(QLatin1StringView("note"))
                     .toString()
                     .contains(u"is not a provider address"),
                 qPrintable(entries.value(QStringLiteral("cat/te__st/foxtrot")).value(QLatin1StringView("note")).toString()));
        // Repositories of other tests (mirror/…, hostile/…) are listed, as no provider of this template.
        QVERIFY(entries.contains(QStringLiteral("mirror/test/foo")));
        QVERIFY(entries.value(QStringLiteral("mirror/test/foo")).value(QLatin1StringView("provider")).isNull());

        // verify --all: the providers of the catalog, each archive verified.
        const ProcessRun all =
            provender({QStringLiteral("verify"), t, QStringLiteral("--all"), QStringLiteral("--hostname"), QStringLiteral("example.com"),
                       QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--json")});
        QVERIFY2(all.exitCode == 0, all.out.constData());
        QStringList verified;
        for (const QJsonValue &a : json(all).value(QLatin1StringView("archives")).toArray()) {
            QCOMPARE(a.toObject().value(QLatin1StringView("verdict")).toString(), QStringLiteral("verified"));
            verified.append(a.toObject().value(QLatin1StringView("provider")).toString());
        }
        verified.sort();
        QCOMPARE(verified, want);
        // The template has no ${hostname}: without --hostname the providers cannot be named.
        const ProcessRun noHost =
            provender({QStringLiteral("oci"), QStringLiteral("list"), t, QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem"))});
        QCOMPARE(noHost.exitCode, 2);
        QVERIFY2(noHost.err.contains("has no ${hostname}"), noHost.err.constData());
        // Without credentials the registry refuses the listing (401), which is a finding, not a crash.
        const ProcessRun anonymous =
            provender({QStringLiteral("oci"), QStringLiteral("list"), t, QStringLiteral("--hostname"), QStringLiteral("example.com"),
                       QStringLiteral("--ca-file"), path(QStringLiteral("ca.pem")), QStringLiteral("--no-credentials")});
        QCOMPARE(anonymous.exitCode, 1);
        QVERIFY2(anonymous.err.contains("401"), anonymous.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestOciRegistry)
#include "tst_oci_registry.moc"
