// The real terraform judges `provender lock init`: for each configuration below, the lock file
// `terraform providers lock -fs-mirror=MIRROR -platform=...` writes in a directory without a
// lock file (after `terraform get` installed the local modules) is byte for byte the file
// `provender lock init --config DIR --mirror MIRROR --platform ...` writes. The rows cover
// several providers, constraints in the root and in (nested) modules, `~>`, `>=`, `!=`, exact
// constraints, prereleases (named exactly, and excluded otherwise), the legacy string form and
// provider-block versions, implied providers of resources and data sources (and the built-in
// terraform provider, which is not locked), override files, .tf.json files, files full of
// syntax the reader must skip (for expressions, splats, heredocs, templates, function calls,
// operators), two platforms, and a packed and an unpacked mirror. A configuration no mirror
// version satisfies: terraform fails and so do we, and neither writes a file.
//
// lock add-hashes --config is judged the same way against `terraform providers lock` with an
// existing lock file, lock upgrade --config against `terraform init -upgrade` (with the mirror as
// the CLI configuration's filesystem_mirror).
//
// The same mirror as a network mirror (index.json and <version>.json written here from Python's
// hashes, served by nginx over TLS on 127.0.0.1): lock init, add-hashes --config and upgrade
// --config with `--mirror https://…` against terraform's `-net-mirror=` and network_mirror block,
// byte for byte; lock check passes terraform's own lock file and fails, as `terraform init` does,
// a lock file with a hash the packages do not have. Of a provider's <version>.json documents,
// init, add-hashes --config and upgrade read only the selected version's, as terraform does
// (nginx's access log), and fail as terraform fails when that one cannot be read. lock diff
// --mirror URL names each hash's platform as Python hashed it.
//
// diagnostics: for broken configurations (syntax errors of every kind the reader checks, bad
// required_providers entries, duplicate blocks, legacy versions, module calls without source),
// `terraform init -json` reports the same diagnostics as the reader (severity, line, column,
// summary, detail), leaving out only terraform's checks the reader does not make (resource
// label names, unknown block types, module source evaluation).
//
// terraform never leaves the machine: the fake providers (Python's zipfile, make_lock_mirror.py)
// live in a local mirror, the CLI configuration is an empty temporary file, proxies point at a
// closed port on 127.0.0.1.

#include "model/lockfile/ConfigReader.h"
#include "tests/support/LockInitConfigs.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace provender;

namespace {

using Run = test::ProcessRun;
using Files = QMap<QString, QByteArray>;

class Sandbox
{
public:
    Sandbox() { QDir().mkpath(cfg()); }
    QString cfg() const { return m_dir.path() + u"/cfg"_s; }
    QString root() const { return m_dir.path(); }
    QString path(const QString &name) const { return m_dir.path() + u'/' + name; }

    /// terraform in this sandbox (test::runTerraform: its CLI config, data dir, HOME, TMPDIR, no proxy).
    Run terraform(const QStringList &args) const { return test::runTerraform(m_dir.path(), cfg(), args); }

private:
    QTemporaryDir m_dir;
};

Run runProvender(const QStringList &args)
{
    return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 120000);
}

/// Turns the fixture's packed mirror into a network mirror too: index.json and <version>.json of
/// each provider (the protocol's documents), each archive's `h1:` of the zip as Python computed it.
bool writeNetworkIndexes(const test::LockMirrorFixture &m, const QList<test::FixtureArchive> &archives)
{
    QMap<QString, QMap<QString, QJsonObject>> byProvider; // address -> version -> {platform: {url, hashes}}
    for (const test::FixtureArchive &a : archives) {
        QJsonObject entry;
        entry[u"url"_s] = QFileInfo(m.expected(a.address, a.version, a.platform, "path")).fileName();
        entry[u"hashes"_s] = QJsonArray{m.expected(a.address, a.version, a.platform, "h1_zip")};
        byProvider[QString::fromUtf8(a.address)][QString::fromUtf8(a.version)][QString::fromUtf8(a.platform)] = entry;
    }
    for (auto p = byProvider.cbegin(); p != byProvider.cend(); ++p) {
        QJsonObject versions;
        for (auto v = p->cbegin(); v != p->cend(); ++v) {
            versions[v.key()] = QJsonObject();
            QJsonObject platforms;
            for (auto e = v->begin(); e != v->end(); ++e)
                platforms[e.key()] = e.value();
            if (!test::writeFile(m.root() + u'/' + p.key() + u'/' + v.key() + u".json"_s,
                                 QJsonDocument(QJsonObject{{u"archives"_s, platforms}}).toJson()))
                return false;
        }
        if (!test::writeFile(m.root() + u'/' + p.key() + u"/index.json"_s, QJsonDocument(QJsonObject{{u"versions"_s, versions}}).toJson()))
            return false;
    }
    return true;
}

/// provender over TLS to the test's nginx: its CA, nothing of the user's terraform settings, no proxy.
Run runProvenderTrusting(const QString &caFile, const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &key : env.keys())
        if (key.startsWith(u"TF_"_s) || key.endsWith(u"_PROXY"_s) || key.endsWith(u"_proxy"_s))
            env.remove(key);
    env.insert(u"SSL_CERT_FILE"_s, caFile);
    return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 120000, env);
}

QStringList platformArgs(const QString &flag, const QStringList &platforms)
{
    QStringList out;
    for (const QString &p : platforms)
        out << (flag.endsWith(u'=') ? QStringList{flag + p} : QStringList{flag, p});
    return out;
}

} // namespace

class TestInteropLockInit : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<test::LockMirrorFixture> m_packed;
    std::unique_ptr<test::LockMirrorFixture> m_unpacked;
    std::unique_ptr<test::LockMirrorFixture> m_net; ///< archives(false) once more, with the network mirror's indexes
    std::unique_ptr<test::NginxFixture> m_nginx;    ///< serving m_net over TLS

    /// m_net served by m_nginx (started on first use); false, with why, when that fails. Call
    /// after skipping when test::NginxFixture::missingTools() is not empty.
    bool networkMirrorUp(QString *error)
    {
        if (m_nginx)
            return true;
        m_net = std::make_unique<test::LockMirrorFixture>(archives(false));
        if (!m_net->error().isEmpty()) {
            *error = u"fixture: "_s + m_net->error();
            return false;
        }
        if (!writeNetworkIndexes(*m_net, archives(false))) {
            *error = u"cannot write the network mirror's indexes under "_s + m_net->root();
            return false;
        }
        auto nginx = std::make_unique<test::NginxFixture>();
        if (!nginx->makeCertificates(error) || !nginx->start(m_net->root(), QString(), QString(), error))
            return false;
        m_nginx = std::move(nginx);
        return true;
    }

    /// terraform in `sb` with a CLI configuration whose only installation method is the network mirror.
    Run terraformFromNetworkMirror(const Sandbox &sb, const QStringList &args) const
    {
        test::writeFile(sb.path(u"cli.tfrc"_s),
                        "provider_installation {\n  network_mirror {\n    url = \"" + m_nginx->baseUrl().toUtf8() + "\"\n  }\n}\n");
        return test::runTerraform(sb.root(), sb.cfg(), args, m_nginx->trustOnlyThisCa());
    }

    /// The JSON documents of example.test/ns/alpha asked of m_nginx since `logFrom` (file names,
    /// in request order).
    QStringList alphaDocumentsFrom(qint64 logFrom) const
    {
        QStringList names;
        for (const QByteArray &line : m_nginx->accessLogFrom(logFrom).split('\n'))
            if (const QString uri = QString::fromUtf8(line.split(' ').value(1));
                uri.contains(u"/example.test/ns/alpha/"_s) && uri.endsWith(u".json"_s))
                names << uri.section(u'/', -1);
        return names;
    }

    static QList<test::FixtureArchive> archives(bool unpacked)
    {
        QList<test::FixtureArchive> out;
        const struct
        {
            const char *address;
            QList<const char *> versions;
        } providers[] = {
            {"example.test/ns/alpha", {"0.9.0", "1.0.0", "1.2.0", "1.2.5", "1.3.0-beta1", "2.0.0"}},
            {"example.test/ns/beta", {"1.0.0", "1.1.0", "1.5.0"}},
            {"example.test/other/gamma", {"0.1.0", "2.0.0-rc1", "2.0.0-rc2"}},
            {"registry.terraform.io/hashicorp/null", {"3.1.0", "3.2.0"}},
            {"registry.terraform.io/hashicorp/random", {"3.5.0", "3.6.0"}},
        };
        for (const auto &p : providers)
            for (const char *v : p.versions)
                for (const char *platform : {"linux_amd64", "darwin_arm64"})
                    out << test::FixtureArchive{p.address, v, platform, unpacked};
        return out;
    }

    QString mirror(bool unpacked) const { return unpacked ? m_unpacked->root() : m_packed->root(); }

    /// terraform's lock file for `files` (nullopt-like empty + exit code in *run when it fails).
    static QByteArray terraformLock(const Sandbox &sb, const QString &mirrorDir, const QStringList &platforms, Run *run)
    {
        if (QDir(sb.cfg()).entryList({u"*.tf"_s, u"*.tf.json"_s}, QDir::Files).isEmpty())
            return {};
        const Run get = sb.terraform({u"get"_s, u"-no-color"_s});
        if (get.exitCode != 0) {
            *run = get;
            return {};
        }
        *run = sb.terraform(QStringList{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-fs-mirror="_s + mirrorDir}
                            + platformArgs(u"-platform="_s, platforms));
        const QString lock = sb.cfg() + u"/.terraform.lock.hcl"_s;
        const QByteArray bytes = QFileInfo::exists(lock) ? test::readFile(lock) : QByteArray();
        QFile::remove(lock);
        return bytes;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the lock init interop checks need the real terraform (v1.11)"));
        QVERIFY2(QFileInfo::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        m_packed = std::make_unique<test::LockMirrorFixture>(archives(false));
        if (!m_packed->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_packed->error()));
        m_unpacked = std::make_unique<test::LockMirrorFixture>(archives(true));
        if (!m_unpacked->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_unpacked->error()));
    }

    void sameAsTerraform_data()
    {
        QTest::addColumn<Files>("files");
        QTest::addColumn<QStringList>("platforms");
        QTest::addColumn<bool>("unpacked");
        QTest::addColumn<bool>("expectFailure");
        for (const test::LockInitCase &c : test::lockInitCases())
            QTest::newRow(qPrintable(c.name)) << c.files << c.platforms << c.unpacked << c.expectFailure;
    }

    void sameAsTerraform()
    {
        QFETCH(Files, files);
        QFETCH(QStringList, platforms);
        QFETCH(bool, unpacked);
        QFETCH(bool, expectFailure);
        Sandbox sb;
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY(test::writeFile(sb.cfg() + u'/' + it.key(), it.value()));
        Run tf;
        const QByteArray theirs = terraformLock(sb, mirror(unpacked), platforms, &tf);

        const QString ours = sb.path(u"ours.hcl"_s);
        const Run run =
            runProvender(QStringList{u"lock"_s, u"init"_s, u"--config"_s, sb.cfg(), u"--mirror"_s, mirror(unpacked), u"-o"_s, ours}
                         + platformArgs(u"--platform"_s, platforms));
        if (expectFailure) {
            QVERIFY2(tf.exitCode != 0, tf.out.constData());
            QVERIFY(theirs.isEmpty());
            QCOMPARE(run.exitCode, 1);
            QVERIFY(!QFileInfo::exists(ours));
            return;
        }
        QVERIFY2(tf.exitCode == 0, QByteArray(tf.err + tf.out).constData());
        QVERIFY2(run.exitCode == 0, QByteArray(run.err + run.out).constData());
        QVERIFY(!theirs.isEmpty());
        QCOMPARE(test::readFile(ours), theirs);
    }

    void diagnostics_data()
    {
        QTest::addColumn<QByteArray>("config");
        for (const auto &[name, text] : test::brokenConfigs())
            QTest::newRow(name) << text;
    }

    void diagnostics()
    {
        // terraform init stops at configuration errors before it installs anything; the CLI
        // configuration names the local mirror anyway.
        QFETCH(QByteArray, config);
        Sandbox sb;
        QVERIFY(test::writeFile(sb.path(u"cli.tfrc"_s),
                                "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror(false).toUtf8() + "\"\n  }\n}\n"));
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s, config));
        const Run run = sb.terraform({u"init"_s, u"-backend=false"_s, u"-input=false"_s, u"-json"_s});
        QVERIFY2(run.exitCode != 0, run.out.constData());
        // Diagnostics of checks the reader does not make (resource labels, block types that
        // are not terraform's, module source evaluation) and terraform's sourceless summary.
        const QStringList notOurs{u"Extraneous label for resource"_s, u"Unsupported block type"_s, u"Unsuitable value type"_s,
                                  u"Invalid resource type name"_s};
        QStringList theirs;
        for (const QByteArray &line : run.out.split('\n')) {
            const QJsonObject d = QJsonDocument::fromJson(line).object().value(u"diagnostic"_s).toObject();
            const QJsonObject start = d.value(u"range"_s).toObject().value(u"start"_s).toObject();
            if (d.isEmpty() || start.isEmpty() || notOurs.contains(d.value(u"summary"_s).toString()))
                continue;
            theirs << u"%1 %2:%3 %4 | %5"_s.arg(d.value(u"severity"_s).toString())
                          .arg(start.value(u"line"_s).toInt())
                          .arg(start.value(u"column"_s).toInt())
                          .arg(d.value(u"summary"_s).toString(), d.value(u"detail"_s).toString());
        }
        QVERIFY2(!theirs.isEmpty(), run.out.constData());
        const ConfigRequirements r = readConfigRequirements(sb.cfg());
        QStringList ours;
        for (const ConfigDiagnostic &d : r.diagnostics) {
            QString detail = d.detail;
            detail.replace(sb.cfg() + u'/', QString());
            ours << u"%1 %2:%3 %4 | %5"_s.arg(d.isError() ? u"error"_s : u"warning"_s).arg(d.line).arg(d.column).arg(d.summary, detail);
        }
        theirs.sort();
        ours.sort();
        if (ours != theirs)
            qWarning().noquote() << "ours:" << ours.join(u"\n"_s) << "\ntheirs:" << theirs.join(u"\n"_s);
        QCOMPARE(ours, theirs);
    }

    void updateLikeTerraform_data()
    {
        QTest::addColumn<QByteArray>("lock");
        QTest::addColumn<QString>("command");
        const QByteArray header =
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
        // alpha locked at 1.2.0 with an old constraint; beta not locked; gamma locked but not required.
        const QByteArray lock = header
            + "\nprovider \"example.test/ns/alpha\" {\n  version     = \"1.2.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\n"
              "    \"h1:keepme=\",\n  ]\n}\n"
              "\nprovider \"example.test/other/gamma\" {\n  version = \"0.1.0\"\n}\n";
        QTest::newRow("add-hashes --config") << lock << u"add-hashes"_s;
    }

    void updateLikeTerraform()
    {
        QFETCH(QByteArray, lock);
        QFETCH(QString, command);
        Sandbox sb;
        const QByteArray tf = "terraform {\n  required_providers {\n"
                              "    alpha = { source = \"example.test/ns/alpha\", version = \">= 1.0, < 2.0\" }\n"
                              "    beta = { source = \"example.test/ns/beta\", version = \"~> 1.1.0\" }\n  }\n}\n";
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s, tf));
        QVERIFY(test::writeFile(sb.cfg() + u"/.terraform.lock.hcl"_s, lock));
        const QStringList platforms{u"linux_amd64"_s, u"darwin_arm64"_s};
        const Run run = sb.terraform(QStringList{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-fs-mirror="_s + mirror(false)}
                                     + platformArgs(u"-platform="_s, platforms));
        QVERIFY2(run.exitCode == 0, QByteArray(run.err + run.out).constData());
        const QByteArray theirs = test::readFile(sb.cfg() + u"/.terraform.lock.hcl"_s);

        const QString ours = sb.path(u"ours.hcl"_s);
        QVERIFY(test::writeFile(ours, lock));
        const Run p = runProvender(QStringList{u"lock"_s, command, ours, u"--config"_s, sb.cfg(), u"--mirror"_s, mirror(false)}
                                   + platformArgs(u"--platform"_s, platforms));
        QVERIFY2(p.exitCode == 0, QByteArray(p.err + p.out).constData());
        QCOMPARE(test::readFile(ours), theirs);
    }

    void networkMirror()
    {
        // The same selection and hashes from a network mirror (nginx over TLS on 127.0.0.1, the
        // indexes written here from Python's hashes): terraform providers lock -net-mirror.
        if (const QString missing = test::NginxFixture::missingTools(); !missing.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, u"the network mirror row needs %1"_s.arg(missing));
        const QList<test::FixtureArchive> archives{
            {"example.test/ns/alpha", "1.0.0", "linux_amd64"},       {"example.test/ns/alpha", "1.0.0", "darwin_arm64"},
            {"example.test/ns/alpha", "1.2.0", "linux_amd64"},       {"example.test/ns/alpha", "1.2.0", "darwin_arm64", false, true},
            {"example.test/ns/alpha", "1.3.0-beta1", "linux_amd64"}, {"example.test/ns/beta", "2.0.0", "linux_amd64"},
            {"example.test/ns/beta", "2.0.0", "darwin_arm64"}};
        test::LockMirrorFixture m(archives);
        QVERIFY2(m.error().isEmpty(), qPrintable(m.error()));
        // index.json and <version>.json as the network mirror protocol has them.
        QVERIFY(writeNetworkIndexes(m, archives));
        test::NginxFixture nginx;
        QString error;
        QVERIFY2(nginx.makeCertificates(&error), qPrintable(error));
        QVERIFY2(nginx.start(m.root(), QString(), QString(), &error), qPrintable(error));

        Sandbox sb;
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s,
                                "terraform {\n  required_providers {\n"
                                "    alpha = { source = \"example.test/ns/alpha\", version = \"~> 1.0\" }\n"
                                "    beta  = { source = \"example.test/ns/beta\" }\n  }\n}\n"));
        const QStringList platforms{u"linux_amd64"_s, u"darwin_arm64"_s};
        // terraform in its sandbox, trusting the test CA (loopback bypasses the closed proxies).
        const Run tf = test::runTerraform(sb.root(), sb.cfg(),
                                          QStringList{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-net-mirror="_s + nginx.baseUrl()}
                                              + platformArgs(u"-platform="_s, platforms),
                                          nginx.trustOnlyThisCa());
        QVERIFY2(tf.exitCode == 0, QByteArray(tf.err + tf.out).constData());
        const QByteArray theirs = test::readFile(sb.cfg() + u"/.terraform.lock.hcl"_s);
        QVERIFY(theirs.contains("version     = \"1.2.0\"") && theirs.contains("example.test/ns/beta"));

        const QString ours = sb.path(u"ours.hcl"_s);
        const Run run =
            runProvenderTrusting(nginx.caFile(),
                                 QStringList{u"lock"_s, u"init"_s, u"--config"_s, sb.cfg(), u"--mirror"_s, nginx.baseUrl(), u"-o"_s, ours}
                                     + platformArgs(u"--platform"_s, platforms));
        QVERIFY2(run.exitCode == 0, QByteArray(run.err + run.out).constData());
        QCOMPARE(test::readFile(ours), theirs);
    }

    void upgradeLikeTerraform()
    {
        // terraform init -upgrade cannot run offline against a plain fs mirror without a CLI
        // configuration naming it; with a filesystem_mirror installation block it can.
        Sandbox sb;
        QVERIFY(test::writeFile(sb.path(u"cli.tfrc"_s),
                                "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror(false).toUtf8() + "\"\n  }\n}\n"));
        const QByteArray tf = "terraform {\n  required_providers {\n"
                              "    alpha = { source = \"example.test/ns/alpha\", version = \">= 1.0, < 2.0, != 1.2.5\" }\n  }\n}\n";
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s, tf));
        const QByteArray lock =
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n"
            "\nprovider \"example.test/ns/alpha\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0.0\"\n}\n";
        QVERIFY(test::writeFile(sb.cfg() + u"/.terraform.lock.hcl"_s, lock));
        const Run run = sb.terraform({u"init"_s, u"-upgrade"_s, u"-backend=false"_s, u"-input=false"_s, u"-no-color"_s});
        QVERIFY2(run.exitCode == 0, QByteArray(run.err + run.out).constData());
        const QByteArray theirs = test::readFile(sb.cfg() + u"/.terraform.lock.hcl"_s);

        const QString ours = sb.path(u"ours.hcl"_s);
        QVERIFY(test::writeFile(ours, lock));
        const Run p = runProvender(
            {u"lock"_s, u"upgrade"_s, ours, u"--config"_s, sb.cfg(), u"--mirror"_s, mirror(false), u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(p.exitCode == 0, QByteArray(p.err + p.out).constData());
        QCOMPARE(test::readFile(ours), theirs);
    }

    void networkMirrorUpdates_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("add-hashes --config (terraform providers lock -net-mirror)") << u"add-hashes"_s;
        QTest::newRow("upgrade --config (terraform init -upgrade, network_mirror)") << u"upgrade"_s;
    }

    void networkMirrorUpdates()
    {
        QFETCH(QString, command);
        if (const QString missing = test::NginxFixture::missingTools(); !missing.isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"the network mirror rows need %1"_s.arg(missing));
        QString error;
        QVERIFY2(networkMirrorUp(&error), qPrintable(error));
        Sandbox sb;
        const bool upgrade = command == u"upgrade"_s;
        // alpha locked at 1.0.0 under an old constraint, beta not locked yet, gamma locked but no
        // longer required: terraform providers lock and add-hashes keep gamma; terraform init
        // -upgrade drops it, lock upgrade leaves it (docs/LOCKFILES.md) — the one difference.
        const QByteArray gamma = "\nprovider \"example.test/other/gamma\" {\n  version = \"0.1.0\"\n}\n";
        const QByteArray lock =
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n"
            "\nprovider \"example.test/ns/alpha\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0.0\"\n}\n"
            + gamma;
        QVERIFY(test::writeFile(
            sb.cfg() + u"/main.tf"_s,
            upgrade ? QByteArray("terraform {\n  required_providers {\n"
                                 "    alpha = { source = \"example.test/ns/alpha\", version = \">= 1.0, < 2.0, != 1.2.5\" }\n  }\n}\n")
                    : QByteArray("terraform {\n  required_providers {\n"
                                 "    alpha = { source = \"example.test/ns/alpha\", version = \">= 1.0, < 2.0\" }\n"
                                 "    beta = { source = \"example.test/ns/beta\", version = \"~> 1.1.0\" }\n  }\n}\n")));
        QVERIFY(test::writeFile(sb.cfg() + u"/.terraform.lock.hcl"_s, lock));
        const QStringList platforms = upgrade ? QStringList{u"linux_amd64"_s} : QStringList{u"linux_amd64"_s, u"darwin_arm64"_s};
        const Run tf = upgrade
            ? terraformFromNetworkMirror(sb, {u"init"_s, u"-upgrade"_s, u"-backend=false"_s, u"-input=false"_s, u"-no-color"_s})
            : terraformFromNetworkMirror(sb,
                                         QStringList{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-net-mirror="_s + m_nginx->baseUrl()}
                                             + platformArgs(u"-platform="_s, platforms));
        QVERIFY2(tf.exitCode == 0, QByteArray(tf.err + tf.out).constData());
        const QByteArray theirs = test::readFile(sb.cfg() + u"/.terraform.lock.hcl"_s);
        QVERIFY2(theirs != lock, theirs.constData());

        const QString ours = sb.path(u"ours.hcl"_s);
        QVERIFY(test::writeFile(ours, lock));
        const Run p = runProvenderTrusting(m_nginx->caFile(),
                                           QStringList{u"lock"_s, command, ours, u"--config"_s, sb.cfg(), u"--mirror"_s, m_nginx->baseUrl()}
                                               + platformArgs(u"--platform"_s, platforms));
        QVERIFY2(p.exitCode == 0, QByteArray(p.err + p.out).constData());
        QCOMPARE(theirs.contains(gamma), !upgrade);
        QCOMPARE(test::readFile(ours), upgrade ? theirs + gamma : theirs);
    }

    void networkMirrorCheck()
    {
        if (const QString missing = test::NginxFixture::missingTools(); !missing.isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"the network mirror rows need %1"_s.arg(missing));
        QString error;
        QVERIFY2(networkMirrorUp(&error), qPrintable(error));
        Sandbox sb;
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s,
                                "terraform {\n  required_providers {\n"
                                "    beta = { source = \"example.test/ns/beta\", version = \"1.5.0\" }\n"
                                "    null = { source = \"hashicorp/null\", version = \"3.2.0\" }\n  }\n}\n"));
        // terraform's own lock file, from the network mirror.
        Run tf = terraformFromNetworkMirror(sb, {u"init"_s, u"-backend=false"_s, u"-input=false"_s, u"-no-color"_s});
        QVERIFY2(tf.exitCode == 0, QByteArray(tf.err + tf.out).constData());
        const QString lockPath = sb.cfg() + u"/.terraform.lock.hcl"_s;
        const QByteArray good = test::readFile(lockPath);
        const Run clean = runProvenderTrusting(
            m_nginx->caFile(), {u"lock"_s, u"check"_s, lockPath, u"--mirror"_s, m_nginx->baseUrl(), u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(clean.exitCode == 0, QByteArray(clean.err + clean.out).constData());

        // beta's h1: replaced by null's: terraform init (plugins removed) refuses beta, and so does lock check.
        const QString nullH1 = m_net->expected("registry.terraform.io/hashicorp/null", "3.2.0", "linux_amd64", "h1");
        const QString betaH1 = m_net->expected("example.test/ns/beta", "1.5.0", "linux_amd64", "h1");
        QVERIFY(good.contains(betaH1.toUtf8()));
        QByteArray bad = good;
        bad.replace(betaH1.toUtf8(), nullH1.toUtf8());
        QVERIFY(test::writeFile(lockPath, bad));
        QVERIFY(QDir(sb.cfg() + u"/.terraform"_s).removeRecursively());
        tf = terraformFromNetworkMirror(sb, {u"init"_s, u"-backend=false"_s, u"-input=false"_s, u"-no-color"_s});
        QVERIFY2(tf.exitCode != 0, QByteArray(tf.err + tf.out).constData());
        QVERIFY2(QByteArray(tf.err + tf.out).contains("example.test/ns/beta"), QByteArray(tf.err + tf.out).constData());
        const Run dirty = runProvenderTrusting(
            m_nginx->caFile(),
            {u"lock"_s, u"check"_s, lockPath, u"--mirror"_s, m_nginx->baseUrl(), u"--platform"_s, u"linux_amd64"_s, u"--json"_s});
        QCOMPARE(dirty.exitCode, 1);
        QMap<QString, QString> verdicts; // address -> the linux_amd64 cell's verdict
        for (const QJsonValue &row : QJsonDocument::fromJson(dirty.out).object().value(u"providers"_s).toArray())
            for (const QJsonValue &cell : row.toObject().value(u"cells"_s).toArray())
                if (cell.toObject().value(u"platform"_s).toString() == u"linux_amd64"_s)
                    verdicts.insert(row.toObject().value(u"address"_s).toString(), cell.toObject().value(u"verdict"_s).toString());
        QCOMPARE(verdicts,
                 (QMap<QString, QString>{{u"example.test/ns/beta"_s, u"mismatch"_s},
                                         {u"registry.terraform.io/hashicorp/null"_s, u"verified"_s}}));

        // Without a configuration: add-hashes for another platform of the locked versions, and
        // upgrade within the recorded constraints; the hashes are Python's.
        QVERIFY(test::writeFile(lockPath, good));
        const Run added = runProvenderTrusting(
            m_nginx->caFile(),
            {u"lock"_s, u"add-hashes"_s, lockPath, u"--mirror"_s, m_nginx->baseUrl(), u"--platform"_s, u"darwin_arm64"_s});
        QVERIFY2(added.exitCode == 0, QByteArray(added.err + added.out).constData());
        const QByteArray withDarwin = test::readFile(lockPath);
        QVERIFY2(withDarwin.contains(m_net->expected("example.test/ns/beta", "1.5.0", "darwin_arm64", "h1").toUtf8()),
                 withDarwin.constData());
        QVERIFY2(withDarwin.contains(m_net->expected("registry.terraform.io/hashicorp/null", "3.2.0", "darwin_arm64", "h1").toUtf8()),
                 withDarwin.constData());
        const QByteArray older = "provider \"example.test/ns/beta\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0\"\n}\n";
        QVERIFY(test::writeFile(lockPath, older));
        const Run upgraded = runProvenderTrusting(
            m_nginx->caFile(), {u"lock"_s, u"upgrade"_s, lockPath, u"--mirror"_s, m_nginx->baseUrl(), u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(upgraded.exitCode == 0, QByteArray(upgraded.err + upgraded.out).constData());
        const QByteArray after = test::readFile(lockPath);
        QVERIFY2(after.contains("version     = \"1.5.0\"") && after.contains(betaH1.toUtf8()), after.constData());
    }

    void networkMirrorReadsTheSelectedVersion_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("locked"); // alpha locked at 1.0.0 (~> 1.0.0) before the command
        QTest::addColumn<QString>("selected");
        QTest::newRow("init (terraform providers lock -net-mirror)") << u"init"_s << false << u"1.2.0"_s;
        QTest::newRow("add-hashes --config (keeps the locked version)") << u"add-hashes"_s << true << u"1.0.0"_s;
        QTest::newRow("upgrade --config (terraform init -upgrade)") << u"upgrade"_s << true << u"1.2.0"_s;
    }

    void networkMirrorReadsTheSelectedVersion()
    {
        // terraform reads a network mirror's index.json, selects a version (the locked one the
        // constraints allow, else the newest they allow; with -upgrade always the newest), and
        // reads only that version's <version>.json. With every other document of alpha broken
        // (malformed, 2.0.0.json absent) it still succeeds, and so does the lock command, asking
        // nginx for no other document of alpha. With the selected one broken or listing no package,
        // terraform fails (it takes no other version instead), and so does the lock command,
        // leaving the file as it was.
        QFETCH(QString, command);
        QFETCH(bool, locked);
        QFETCH(QString, selected);
        if (const QString missing = test::NginxFixture::missingTools(); !missing.isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"the network mirror rows need %1"_s.arg(missing));
        QString error;
        QVERIFY2(networkMirrorUp(&error), qPrintable(error));
        const QString alpha = m_net->root() + u"/example.test/ns/alpha/"_s;
        QMap<QString, QByteArray> originals;
        for (const QString &name : QDir(alpha).entryList({u"*.json"_s}, QDir::Files))
            originals.insert(name, test::readFile(alpha + name));
        const auto restore = qScopeGuard([&] {
            for (auto it = originals.cbegin(); it != originals.cend(); ++it)
                test::writeFile(alpha + it.key(), it.value());
        });
        const QByteArray malformed = "{\"archives\": ";
        for (const QString &name : originals.keys())
            if (name != u"index.json"_s && name != selected + u".json"_s)
                QVERIFY(name == u"2.0.0.json"_s ? QFile::remove(alpha + name) : test::writeFile(alpha + name, malformed));

        const QByteArray lock = locked
            ? QByteArray("# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future "
                         "updates.\n\nprovider \"example.test/ns/alpha\" {\n  version     = \"1.0.0\"\n  constraints = \"~> 1.0.0\"\n}\n")
            : QByteArray();
        struct Outcome
        {
            Run theirs;
            QByteArray theirLock;
            Run ours;
            QByteArray ourLock;
            QStringList alphaDocuments; ///< the JSON documents of alpha the lock command asked for
        };
        const auto runBoth = [&](Outcome *o) {
            Sandbox sb;
            QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s,
                                    "terraform {\n  required_providers {\n"
                                    "    alpha = { source = \"example.test/ns/alpha\", version = \">= 1.0, < 2.0, != 1.2.5\" }\n"
                                    "  }\n}\n"));
            const QString theirPath = sb.cfg() + u"/.terraform.lock.hcl"_s;
            const QString ourPath = sb.path(u"ours.hcl"_s);
            if (locked) {
                QVERIFY(test::writeFile(theirPath, lock));
                QVERIFY(test::writeFile(ourPath, lock));
            }
            o->theirs = command == u"upgrade"_s
                ? terraformFromNetworkMirror(sb, {u"init"_s, u"-upgrade"_s, u"-backend=false"_s, u"-input=false"_s, u"-no-color"_s})
                : terraformFromNetworkMirror(
                    sb, {u"providers"_s, u"lock"_s, u"-no-color"_s, u"-net-mirror="_s + m_nginx->baseUrl(), u"-platform=linux_amd64"_s});
            o->theirLock = test::readFile(theirPath);
            const qint64 logFrom = m_nginx->accessLogSize();
            const QStringList args =
                command == u"init"_s ? QStringList{u"lock"_s, u"init"_s, u"-o"_s, ourPath} : QStringList{u"lock"_s, command, ourPath};
            o->ours = runProvenderTrusting(
                m_nginx->caFile(),
                args + QStringList{u"--config"_s, sb.cfg(), u"--mirror"_s, m_nginx->baseUrl(), u"--platform"_s, u"linux_amd64"_s});
            o->ourLock = test::readFile(ourPath);
            o->alphaDocuments = alphaDocumentsFrom(logFrom);
        };

        Outcome good;
        runBoth(&good);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(good.theirs.exitCode == 0, QByteArray(good.theirs.err + good.theirs.out).constData());
        QVERIFY2(good.theirLock.contains(QByteArray("version     = \"" + selected.toUtf8() + '"')), good.theirLock.constData());
        QVERIFY2(good.ours.exitCode == 0, QByteArray(good.ours.err + good.ours.out).constData());
        QCOMPARE(good.ourLock, good.theirLock);
        QCOMPARE(good.alphaDocuments, (QStringList{u"index.json"_s, selected + u".json"_s}));

        // The selected one broken, then listing no package: terraform fails (it takes no other
        // version), and so does the lock command.
        const struct
        {
            QByteArray document;
            QByteArray why;
        } unusable[] = {{malformed, ".json could not be read"}, {"{\"archives\": {}}", ".json lists no package"}};
        for (const auto &[document, why] : unusable) {
            QVERIFY(test::writeFile(alpha + selected + u".json"_s, document));
            Outcome o;
            runBoth(&o);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(o.theirs.exitCode != 0, QByteArray(o.theirs.err + o.theirs.out).constData());
            QCOMPARE(o.theirLock, lock);
            QCOMPARE(o.ours.exitCode, 1);
            QVERIFY2(o.ours.err.contains(QByteArray(selected.toUtf8() + why)), o.ours.err.constData());
            QCOMPARE(o.ourLock, lock);
        }
    }

    void networkMirrorDiff()
    {
        // lock diff --mirror URL names the platform of each added and removed hash from the
        // archives of the network mirror (downloaded, checked against its index, hashed); the
        // expected platforms are those Python hashed. Only the two versions' documents are read.
        if (const QString missing = test::NginxFixture::missingTools(); !missing.isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"the network mirror rows need %1"_s.arg(missing));
        QString error;
        QVERIFY2(networkMirrorUp(&error), qPrintable(error));
        const auto hash = [&](const char *version, const char *platform, const char *field) {
            return m_net->expected("example.test/ns/alpha", version, platform, field);
        };
        const auto lockWith = [](const char *version, const QStringList &hashes) -> QByteArray {
            QByteArray text = "provider \"example.test/ns/alpha\" {\n  version = \"" + QByteArray(version) + "\"\n  hashes = [\n";
            for (const QString &h : hashes)
                text += "    \"" + h.toUtf8() + "\",\n";
            return text + "  ]\n}\n";
        };
        Sandbox sb;
        QVERIFY(test::writeFile(sb.path(u"a.hcl"_s), lockWith("1.0.0", {hash("1.0.0", "linux_amd64", "h1")})));
        QVERIFY(test::writeFile(
            sb.path(u"b.hcl"_s),
            lockWith("1.2.0",
                     {hash("1.2.0", "darwin_arm64", "h1"), hash("1.2.0", "linux_amd64", "h1"), hash("1.2.0", "linux_amd64", "zh")})));
        const qint64 logFrom = m_nginx->accessLogSize();
        const Run r = runProvenderTrusting(
            m_nginx->caFile(),
            {u"lock"_s, u"diff"_s, sb.path(u"a.hcl"_s), sb.path(u"b.hcl"_s), u"--mirror"_s, m_nginx->baseUrl(), u"--json"_s});
        QVERIFY2(r.exitCode == 1, QByteArray(r.err + r.out).constData());
        QVERIFY2(!r.err.contains("warning"), r.err.constData());
        QMap<QString, QString> platforms; // "+ hash" / "- hash" -> "platform origin" of its provenance
        const QJsonObject provider = QJsonDocument::fromJson(r.out).object().value(u"providers"_s).toArray().first().toObject();
        QCOMPARE(provider.value(u"change"_s).toString(), u"upgraded"_s);
        for (const auto &[key, sign] : {std::pair{u"hashes_added"_s, u"+ "_s}, std::pair{u"hashes_removed"_s, u"- "_s}})
            for (const QJsonValue &h : provider.value(key).toArray()) {
                QStringList where;
                for (const QJsonValue &p : h.toObject().value(u"provenance"_s).toArray())
                    where << p.toObject().value(u"platform"_s).toString() + u' ' + p.toObject().value(u"origin"_s).toString();
                platforms.insert(sign + h.toObject().value(u"hash"_s).toString(), where.join(u", "_s));
            }
        QCOMPARE(platforms,
                 (QMap<QString, QString>{
                     {u"+ "_s + hash("1.2.0", "darwin_arm64", "h1"), u"darwin_arm64 h1 (extracted)"_s},
                     {u"+ "_s + hash("1.2.0", "linux_amd64", "h1"), u"linux_amd64 h1 (extracted)"_s},
                     {u"+ "_s + hash("1.2.0", "linux_amd64", "zh"), u"linux_amd64 zh"_s},
                     {u"- "_s + hash("1.0.0", "linux_amd64", "h1"), u"linux_amd64 h1 (extracted)"_s},
                 }));
        QStringList alphaDocuments = alphaDocumentsFrom(logFrom);
        alphaDocuments.sort();
        QCOMPARE(alphaDocuments, (QStringList{u"1.0.0.json"_s, u"1.2.0.json"_s, u"index.json"_s}));
    }

    void networkMirrorPackageNotAsDeclared()
    {
        // random 3.6.0's <version>.json declares null 3.2.0's h1: for linux_amd64: terraform
        // providers lock -net-mirror refuses to lock it, and add-hashes leaves the file as it was.
        if (const QString missing = test::NginxFixture::missingTools(); !missing.isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"the network mirror rows need %1"_s.arg(missing));
        QString error;
        QVERIFY2(networkMirrorUp(&error), qPrintable(error));
        const QString versionJson = m_net->root() + u"/registry.terraform.io/hashicorp/random/3.6.0.json"_s;
        const QByteArray original = test::readFile(versionJson);
        const QString declared = m_net->expected("registry.terraform.io/hashicorp/random", "3.6.0", "linux_amd64", "h1_zip");
        QVERIFY(original.contains(declared.toUtf8()));
        QByteArray wrong = original;
        wrong.replace(declared.toUtf8(),
                      m_net->expected("registry.terraform.io/hashicorp/null", "3.2.0", "linux_amd64", "h1_zip").toUtf8());
        QVERIFY(test::writeFile(versionJson, wrong));
        const auto restore = qScopeGuard([&] { test::writeFile(versionJson, original); });

        Sandbox sb;
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s,
                                "terraform {\n  required_providers {\n"
                                "    random = { source = \"hashicorp/random\", version = \"3.6.0\" }\n  }\n}\n"));
        const QByteArray lock = "provider \"registry.terraform.io/hashicorp/random\" {\n  version     = \"3.6.0\"\n"
                                "  constraints = \"3.6.0\"\n}\n";
        QVERIFY(test::writeFile(sb.cfg() + u"/.terraform.lock.hcl"_s, lock));
        const Run tf = terraformFromNetworkMirror(
            sb, {u"providers"_s, u"lock"_s, u"-no-color"_s, u"-net-mirror="_s + m_nginx->baseUrl(), u"-platform=linux_amd64"_s});
        QVERIFY2(tf.exitCode != 0, QByteArray(tf.err + tf.out).constData());
        QCOMPARE(test::readFile(sb.cfg() + u"/.terraform.lock.hcl"_s), lock);

        const QString ours = sb.path(u"ours.hcl"_s);
        QVERIFY(test::writeFile(ours, lock));
        const Run p = runProvenderTrusting(
            m_nginx->caFile(), {u"lock"_s, u"add-hashes"_s, ours, u"--mirror"_s, m_nginx->baseUrl(), u"--platform"_s, u"linux_amd64"_s});
        QCOMPARE(p.exitCode, 1);
        QVERIFY2(p.err.contains("not changed"), p.err.constData());
        QCOMPARE(test::readFile(ours), lock);
    }
};

QTEST_GUILESS_MAIN(TestInteropLockInit)
#include "tst_interop_lockinit.moc"
