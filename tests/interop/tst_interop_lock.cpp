// The real terraform judges our lock files.
//
//  - canonicalForm: hand-made lock files (unsorted/duplicate hashes, odd spacing, comments,
//    no header, CRLF, BOM, a tofu header, ...): `provender lock fmt --flavour terraform` writes
//    the same bytes `terraform providers lock -fs-mirror` leaves after re-writing the input
//    against a mirror that satisfies it (the mirror's h1: is already in each input, so terraform
//    adds nothing and only re-writes).
//  - addHashes: `provender lock add-hashes --platform ...` equals
//    `terraform providers lock -fs-mirror -platform=...` on the same input.
//  - corpus: every real lock file of the shared corpus, against a mirror with a fake package of
//    each locked version: terraform's output equals our add-hashes output, and with the added
//    hash removed, our `lock fmt` output ("the others rewrite to what terraform writes").
//  - diagnostics: for our invalid fixtures, a table of broken inputs and the malformed corpus
//    file, `terraform init -backend=false -json` reports the same diagnostics as our parser
//    (severity, summary, detail, line and column).
//
// terraform never leaves the machine: the fake providers live under made-up hosts in a local
// mirror, the CLI configuration is an empty temporary file, and proxies point at a closed port
// on 127.0.0.1. Mirrors are built with Python's zipfile (make_lock_mirror.py).

#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

using Run = test::ProcessRun;

/// A sandbox for terraform (test::runTerraform) with a configuration folder.
class Sandbox
{
public:
    Sandbox() { QDir().mkpath(cfg()); }
    QString cfg() const { return m_dir.path() + u"/cfg"_s; }
    QString lockPath() const { return cfg() + u"/.terraform.lock.hcl"_s; }

    /// terraform in this sandbox (test::runTerraform: its CLI config, data dir, HOME, TMPDIR, no proxy).
    Run terraform(const QStringList &args) const { return test::runTerraform(m_dir.path(), cfg(), args); }

    /// `terraform providers lock -fs-mirror=MIRROR -platform=...` with `lock` as the existing
    /// lock file and `mainTf` as the configuration; returns the lock file terraform leaves.
    QByteArray providersLock(const QByteArray &mainTf, const QByteArray &lock, const QString &mirror, const QStringList &platforms,
                             Run *run) const
    {
        test::writeFile(cfg() + u"/main.tf"_s, mainTf);
        test::writeFile(lockPath(), lock);
        QStringList args{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-fs-mirror="_s + mirror};
        for (const QString &p : platforms)
            args << u"-platform="_s + p;
        *run = terraform(args);
        return test::readFile(lockPath());
    }

private:
    QTemporaryDir m_dir;
};

Run runProvender(const QStringList &args)
{
    // The hash cache of these runs lives in a directory of their own, not the user's.
    static QTemporaryDir cacheHome;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), cacheHome.path());
    return test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 120000, env);
}

struct Requirement
{
    QString local;
    QString source;
    QString version; ///< "" = no version constraint
};

QByteArray configFor(const QList<Requirement> &reqs)
{
    QByteArray tf = "terraform {\n  required_providers {\n";
    for (const Requirement &r : reqs) {
        tf += "    " + r.local.toUtf8() + " = {\n      source = \"" + r.source.toUtf8() + "\"\n";
        if (!r.version.isEmpty())
            tf += "      version = \"" + r.version.toUtf8() + "\"\n";
        tf += "    }\n";
    }
    return tf + "  }\n}\n";
}

/// One diagnostic, as both sides report it.
QString diagKey(bool error, const QString &summary, const QString &detail, int line, int column)
{
    return u"%1 %2:%3 %4 | %5"_s.arg(error ? u"error"_s : u"warning"_s).arg(line).arg(column).arg(summary, detail);
}

QStringList terraformDiagnostics(const QByteArray &jsonLines)
{
    QStringList out;
    for (const QByteArray &line : jsonLines.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        const QJsonObject d = o.value(u"diagnostic"_s).toObject();
        if (d.isEmpty())
            continue;
        const QJsonObject start = d.value(u"range"_s).toObject().value(u"start"_s).toObject();
        out << diagKey(d.value(u"severity"_s).toString() == u"error"_s, d.value(u"summary"_s).toString(), d.value(u"detail"_s).toString(),
                       start.value(u"line"_s).toInt(), start.value(u"column"_s).toInt());
    }
    return out;
}

QString g_terraformVersion;

} // namespace

class TestInteropLock : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<test::LockMirrorFixture> m_mirror;

    QString h1(const char *address, const char *version, const char *platform) const
    {
        return m_mirror->expected(address, version, platform, "h1");
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the lock-file interop checks need the real terraform (v1.11)"));
        QVERIFY2(QFileInfo::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        Sandbox sb;
        const Run v = sb.terraform({u"version"_s, u"-json"_s});
        g_terraformVersion = QJsonDocument::fromJson(v.out).object().value(u"terraform_version"_s).toString();
        QVERIFY2(!g_terraformVersion.isEmpty(), v.err.constData());
        m_mirror = std::make_unique<test::LockMirrorFixture>(QList<test::FixtureArchive>{
            {"example.test/ns/alpha", "1.0.0", "linux_amd64"},
            {"example.test/ns/alpha", "1.0.0", "darwin_arm64"},
            {"example.test/ns/beta", "2.1.0", "linux_amd64"},
            {"example.test/ns/beta", "2.1.0", "darwin_arm64", false, true},
            {"example.test/other/gamma", "0.3.0", "linux_amd64"},
            {"example.test/other/gamma", "0.3.0", "darwin_arm64"},
        });
        if (!m_mirror->error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + m_mirror->error()));
    }

    void canonicalForm_data()
    {
        QTest::addColumn<QByteArray>("input");
        const QByteArray a = h1("example.test/ns/alpha", "1.0.0", "linux_amd64").toUtf8();
        const QByteArray b = h1("example.test/ns/beta", "2.1.0", "linux_amd64").toUtf8();
        const QByteArray g = h1("example.test/other/gamma", "0.3.0", "linux_amd64").toUtf8();
        const QByteArray header =
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
        const QByteArray plain =
            "\nprovider \"example.test/ns/alpha\" {\n  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n    \"" + a
            + "\",\n    \"zh:1111111111111111111111111111111111111111111111111111111111111111\",\n  ]\n}\n"
              "\nprovider \"example.test/ns/beta\" {\n  version     = \"2.1.0\"\n  constraints = \"~> 2.1\"\n  hashes = [\n    \""
            + b
            + "\",\n  ]\n}\n"
              "\nprovider \"example.test/other/gamma\" {\n  version = \"0.3.0\"\n  hashes = [\n    \""
            + g + "\",\n  ]\n}\n";
        QTest::newRow("canonical") << header + plain;
        QTest::newRow("unsorted and duplicate hashes") << header
                + "\nprovider \"example.test/ns/alpha\" {\n  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n"
                  "    \"zh:ffff\",\n    \"h1:zzzz=\",\n    \""
                + a
                + "\",\n    \"zh:0000\",\n    \"h1:zzzz=\",\n    \"custom:kept\",\n  ]\n}\n"
                  "\nprovider \"example.test/ns/beta\" {\n  version     = \"2.1.0\"\n  constraints = \"~> 2.1\"\n  hashes = [\"zh:9\", \""
                + b + "\", \"h1:a\"]\n}\n\nprovider \"example.test/other/gamma\" {\n  version = \"0.3.0\"\n  hashes = [\"" + g + "\"]\n}\n";
        QTest::newRow("extra spaces and blank lines") << "\n\n" + header
                + "\n\n\nprovider   \"example.test/other/gamma\"   {\n\n    version=\"0.3.0\"\n   hashes   =   [ \"" + g
                + "\" , ]\n\n}\nprovider \"example.test/ns/beta\" {\n  hashes = [\n\"" + b
                + "\"\n]\n  constraints=\"~> 2.1\"\n  version                    = \"2.1.0\"\n}\n\n\n\nprovider \"example.test/ns/alpha\" {\n"
                  "  constraints =   \">= 1.0.0\"\n  version =\"1.0.0\"\n  hashes = [\""
                + a + "\"]\n}\n\n\n";
        QTest::newRow("comments") << "# Reviewed by the platform team.\n" + header
                + "// pinned for the release\nprovider \"example.test/ns/alpha\" { # alpha\n  version = \"1.0.0\" /* pinned */\n"
                  "  constraints = \">= 1.0.0\"\n  hashes = [\n    # linux\n    \""
                + a
                + "\",\n  ]\n}\n/* beta\n   and gamma */\nprovider \"example.test/ns/beta\" {\n  version = \"2.1.0\"\n"
                  "  constraints = \"~> 2.1\"\n  hashes = [\""
                + b
                + "\"] // one\n}\nprovider \"example.test/other/gamma\" {\n"
                  "  version = \"0.3.0\"\n  hashes = [\""
                + g + "\"]\n}\n# end\n";
        QTest::newRow("missing header") << plain.mid(1);
        QByteArray crlf = header + plain;
        crlf.replace("\n", "\r\n");
        QTest::newRow("CRLF") << crlf;
        QTest::newRow("BOM") << "\xEF\xBB\xBF" + header + plain;
        QTest::newRow("tofu header") << QByteArray(header).replace("terraform init", "tofu init") + plain;
        QTest::newRow("no final newline") << QByteArray(header + plain).chopped(1);
        QTest::newRow("providers out of order") << header + plain.mid(plain.indexOf("\nprovider \"example.test/other"))
                + plain.left(plain.indexOf("\nprovider \"example.test/other"));
        QTest::newRow("missing constraints") << header
                + QByteArray(plain).replace("  constraints = \">= 1.0.0\"\n", "").replace("version     =", "version =");
        QTest::newRow("no hashes") << header
                + "\nprovider \"example.test/ns/alpha\" {\n  version = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n}\n";
    }

    void canonicalForm()
    {
        QFETCH(QByteArray, input);
        const QList<Requirement> reqs{{u"alpha"_s, u"example.test/ns/alpha"_s, u">= 1.0"_s},
                                      {u"beta"_s, u"example.test/ns/beta"_s, u"~> 2.1"_s},
                                      {u"gamma"_s, u"example.test/other/gamma"_s, QString()}};
        // terraform takes the constraints from the configuration: require each provider of the
        // input, with an equivalent (non-canonical) constraint when the input has one.
        const LockFile doc = parseLockFile(input).document;
        QList<Requirement> used;
        for (Requirement r : reqs) {
            const ProviderLock *p = doc.find(ProviderAddress::parse(r.source).value());
            if (!p)
                continue;
            if (p->constraints.isEmpty())
                r.version.clear();
            used << r;
        }
        Sandbox sb;
        Run run;
        const QByteArray terraformOut = sb.providersLock(configFor(used), input, m_mirror->root(), {u"linux_amd64"_s}, &run);
        QVERIFY2(run.exitCode == 0, run.err.constData());

        const QString ours = sb.cfg() + u"/ours.hcl"_s;
        QVERIFY(test::writeFile(ours, input));
        const Run fmt = runProvender({u"lock"_s, u"fmt"_s, u"--flavour"_s, u"terraform"_s, ours});
        QVERIFY2(fmt.exitCode == 0, fmt.err.constData());
        const QByteArray oursOut = test::readFile(ours);
        if (QByteArray(QTest::currentDataTag()) == "no hashes") {
            // terraform added the h1: it computed; we only formatted.
            QVERIFY(terraformOut.contains(h1("example.test/ns/alpha", "1.0.0", "linux_amd64").toUtf8()));
            return;
        }
        QCOMPARE(oursOut, terraformOut);
        // Warnings name what was dropped.
        if (input.contains("# Reviewed"))
            QVERIFY(fmt.err.contains("drops this comment"));
        // And the result is canonical for us too.
        QCOMPARE(runProvender({u"lock"_s, u"fmt"_s, u"--check"_s, ours}).exitCode, 0);
    }

    void addHashes_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QStringList>("platforms");
        QTest::addColumn<QStringList>("providers");
        const QByteArray two = "provider \"example.test/ns/alpha\" {\n  version = \"1.0.0\"\n}\n"
                               "provider \"example.test/ns/beta\" {\n  version = \"2.1.0\"\n  constraints = \"~> 2.1\"\n"
                               "  hashes = [\"zh:2222222222222222222222222222222222222222222222222222222222222222\", \"h1:stale=\"]\n}\n";
        QTest::newRow("one platform") << two << QStringList{u"linux_amd64"_s} << QStringList();
        QTest::newRow("two platforms") << two << QStringList{u"linux_amd64"_s, u"darwin_arm64"_s} << QStringList();
        QTest::newRow("other platform only") << two << QStringList{u"darwin_arm64"_s} << QStringList();
        QTest::newRow("one provider") << two << QStringList{u"darwin_arm64"_s} << QStringList{u"example.test/ns/beta"_s};
        QTest::newRow("tofu header kept by tofu, rewritten by terraform")
            << "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n" + two
            << QStringList{u"linux_amd64"_s} << QStringList();
    }

    void addHashes()
    {
        QFETCH(QByteArray, input);
        QFETCH(QStringList, platforms);
        QFETCH(QStringList, providers);
        QList<Requirement> reqs{{u"alpha"_s, u"example.test/ns/alpha"_s, QString()}, {u"beta"_s, u"example.test/ns/beta"_s, u"~> 2.1"_s}};
        Sandbox sb;
        Run run;
        QStringList tfArgs = platforms;
        const QByteArray terraformOut = [&] {
            if (providers.isEmpty())
                return sb.providersLock(configFor(reqs), input, m_mirror->root(), platforms, &run);
            // terraform names the providers to lock as positional arguments.
            test::writeFile(sb.cfg() + u"/main.tf"_s, configFor(reqs));
            test::writeFile(sb.lockPath(), input);
            QStringList args{u"providers"_s, u"lock"_s, u"-no-color"_s, u"-fs-mirror="_s + m_mirror->root()};
            for (const QString &p : platforms)
                args << u"-platform="_s + p;
            args += providers;
            run = sb.terraform(args);
            return test::readFile(sb.lockPath());
        }();
        QVERIFY2(run.exitCode == 0, run.err.constData());

        const QString ours = sb.cfg() + u"/ours.hcl"_s;
        QVERIFY(test::writeFile(ours, input));
        QStringList args{u"lock"_s, u"add-hashes"_s, ours, u"--mirror"_s, m_mirror->root()};
        for (const QString &p : platforms)
            args << u"--platform"_s << p;
        for (const QString &p : providers)
            args << u"--provider"_s << p;
        const Run add = runProvender(args);
        QVERIFY2(add.exitCode == 0, add.err.constData());
        QByteArray oursOut = test::readFile(ours);
        if (input.startsWith("# This file is maintained automatically by \"tofu init\"")) {
            // We keep the file's own flavour; terraform writes its own header.
            QVERIFY(oursOut.startsWith("# This file is maintained automatically by \"tofu init\""));
            oursOut.replace("\"tofu init\"", "\"terraform init\"");
        }
        QCOMPARE(oursOut, terraformOut);
    }

    void corpus_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(dir, u"lockfiles"_s);
        // Malformed files are covered by diagnostics(); files without providers give terraform
        // providers lock nothing to do. Both are left out here, not skipped row by row.
        int rows = 0;
        for (const QString &f : QDir(dir).entryList({u"*.hcl"_s}, QDir::Files, QDir::Name)) {
            const LockParseResult parsed = parseLockFile(test::readFile(dir + u'/' + f));
            if (parsed.hasErrors() || parsed.document.providers.isEmpty())
                continue;
            QTest::newRow(qPrintable(f.left(3))) << dir + u'/' + f;
            ++rows;
        }
        QVERIFY2(rows > 0, "the corpus has no well-formed lock file with providers");
    }

    void corpus()
    {
        QFETCH(QString, path);
        const QByteArray input = test::readFile(path);
        const LockParseResult parsed = parseLockFile(input);
        QVERIFY(!parsed.hasErrors() && !parsed.document.providers.isEmpty());

        // A mirror with a fake linux_amd64 package of every locked version, a configuration
        // that requires each provider with the lock's own constraints.
        QList<test::FixtureArchive> archives;
        QList<QByteArray> storage;
        QList<Requirement> reqs;
        int i = 0;
        for (const ProviderLock &p : parsed.document.providers) {
            storage << p.address.toString().toUtf8() << p.version.toString().toUtf8();
            reqs << Requirement{u"p%1"_s.arg(i++), p.address.toString(), p.constraints.toString()};
        }
        for (qsizetype k = 0; k < storage.size(); k += 2)
            archives << test::FixtureArchive{storage[k].constData(), storage[k + 1].constData(), "linux_amd64"};
        test::LockMirrorFixture mirror(archives);
        QVERIFY2(mirror.error().isEmpty(), qPrintable(mirror.error()));

        Sandbox sb;
        Run run;
        const QByteArray terraformOut = sb.providersLock(configFor(reqs), input, mirror.root(), {u"linux_amd64"_s}, &run);
        QVERIFY2(run.exitCode == 0, QByteArray(run.err + run.out).constData());

        // 1. add-hashes on the same input gives terraform's bytes.
        const QString ours = sb.cfg() + u"/ours.hcl"_s;
        QVERIFY(test::writeFile(ours, input));
        const Run add = runProvender({u"lock"_s, u"add-hashes"_s, ours, u"--mirror"_s, mirror.root(), u"--platform"_s, u"linux_amd64"_s});
        QVERIFY2(add.exitCode == 0, add.err.constData());
        QByteArray added = test::readFile(ours);
        if (parsed.document.flavour == LockFlavour::Tofu)
            added.replace("\"tofu init\"", "\"terraform init\"");
        QCOMPARE(added, terraformOut);

        // 2. Without the hash terraform added, terraform's bytes are our canonical form.
        QByteArray withoutNew = terraformOut;
        for (const ProviderLock &p : parsed.document.providers) {
            const QString h =
                mirror.expected(p.address.toString().toUtf8().constData(), p.version.toString().toUtf8().constData(), "linux_amd64", "h1");
            withoutNew.replace(QByteArray("    \"" + h.toUtf8() + "\",\n"), QByteArray());
        }
        withoutNew.replace("  hashes = [\n  ]\n", "");
        QCOMPARE(writeLockFile(parsed.document, LockFlavour::Terraform), withoutNew);
    }

    void diagnostics_data()
    {
        QTest::addColumn<QByteArray>("input");
        for (const QString &f : QDir(test::sourceDir() + u"/tests/lockfile/data"_s).entryList({u"*.hcl"_s}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << test::readFile(test::sourceDir() + u"/tests/lockfile/data/"_s + f);
        const QString corpus = test::corpusDir(u"lockfiles"_s);
        if (corpus.isEmpty())
            PROVENDER_CORPUS_OPTIONAL(u"lockfiles"_s);
        else
            QTest::newRow("corpus 051") << test::readFile(corpus + u"/051.terraform.lock.hcl"_s);
        const QByteArray p = "provider \"registry.terraform.io/a/b\" {\n";
        const struct
        {
            const char *name;
            QByteArray text;
        } rows[] = {
            {"version empty", p + "  version = \"\"\n}\n"},
            {"version v", p + "  version = \"v1.0.0\"\n}\n"},
            {"version 4 parts", p + "  version = \"1.0.0.0\"\n}\n"},
            {"version wildcard", p + "  version = \"1.0.x\"\n}\n"},
            {"version operator", p + "  version = \">= 1.0.0\"\n}\n"},
            {"version trailing dash", p + "  version = \"1.2.3-\"\n}\n"},
            {"version spaces", p + "  version = \" 1.0.0\"\n}\n"},
            {"version list", p + "  version = [\"1.0.0\"]\n}\n"},
            {"version function", p + "  version = upper(\"1.0.0\")\n}\n"},
            {"version interpolation", p + "  version = \"${\"1.0.0\"}\"\n}\n"},
            {"version traversal", p + "  version = var.x\n}\n"},
            {"version heredoc", p + "  version = <<EOT\n1.0.0\nEOT\n}\n"},
            {"version bool", p + "  version = true\n}\n"},
            {"version negative", p + "  version = -1\n}\n"},
            {"version conditional", p + "  version = true ? \"1.0.0\" : \"2\"\n}\n"},
            {"constraints caret", p + "  version = \"1.0.0\"\n  constraints = \"^1.0\"\n}\n"},
            {"constraints two spaces", p + "  version = \"1.0.0\"\n  constraints = \"~>  1.0\"\n}\n"},
            {"constraints missing comma", p + "  version = \"1.0.0\"\n  constraints = \">= 1.0 < 2.0\"\n}\n"},
            {"constraints null", p + "  version = \"1.0.0\"\n  constraints = null\n}\n"},
            {"hashes null", p + "  version = \"1.0.0\"\n  hashes = null\n}\n"},
            {"hashes nested", p + "  version = \"1.0.0\"\n  hashes = [[\"h1:a\"]]\n}\n"},
            {"hashes parenthesized", p + "  version = \"1.0.0\"\n  hashes = ([\"h1:a\"])\n}\n"},
            {"hashes missing comma", p + "  version = \"1.0.0\"\n  hashes = [\n    \"h1:a\"\n    \"h1:b\",\n  ]\n}\n"},
            {"hashes unterminated", p + "  version = \"1.0.0\"\n  hashes = [\n    \"h1:a\",\n"},
            {"address unicode", "provider \"café.fr/a/b\" {\n  version = \"1.0.0\"\n}\n"},
            {"address punycode", "provider \"xn--caf-dma.fr/a/b\" {\n  version = \"1.0.0\"\n}\n"},
            {"label escape", "provider \"registry.terraform.io/a/\\u0062\" {\n  version = \"1.0.0\"\n}\n"},
            {"label template", "provider \"${x}\" {\n}\n"},
            {"block without brace", "provider \"registry.terraform.io/a/b\"\n{\n}\n"},
            {"single-line block", "provider \"registry.terraform.io/a/b\" { version = \"1.0\" }\n"},
            {"single-line block, two arguments",
             "provider \"registry.terraform.io/a/b\" { version = \"1.0.0\", constraints = \"1.0.0\" }\n"},
            {"stray brace", p + "  version = \"1.0.0\"\n}\n}\n" + p + "}\n"},
            {"unclosed block", p + "  version = \"1.0.0\"\n"},
            {"semicolon", p + "  version = \"1.0.0\";\n}\n"},
            {"single quotes", p + "  version = '1.0.0'\n}\n"},
            {"curly quotes",
             p
                 + "  version = \xe2\x80\x9c"
                   "1.0.0\xe2\x80\x9d\n}\n"},
            {"bad escape", p + "  version = \"1.0.\\q0\"\n}\n"},
            {"surrogate escape", p + "  version = \"\\ud800\"\n}\n"},
            {"invalid UTF-8", p + "  version = \"1.0\xff\"\n}\n"},
            {"lone CR", "provider \"registry.terraform.io/a/b\" {\r  version = \"1.0.0\"\r}\r"},
            {"CRLF", QByteArray(p + "  version = \"1.0\"\n}\n").replace("\n", "\r\n")},
            {"BOM", "\xEF\xBB\xBF" + p + "  version = \"1.0\"\n}\n"},
            {"tabs", p + "\tversion\t=\t\"1.0\"\n}\n"},
            {"unterminated block comment", p + "  version = \"1.0.0\" /* x\n}\n"},
            {"deep nesting", p + "  version = " + QByteArray(300, '[') + QByteArray(300, ']') + "\n}\n"},
        };
        for (const auto &r : rows)
            QTest::newRow(r.name) << r.text;
    }

    void diagnostics()
    {
        QFETCH(QByteArray, input);
        Sandbox sb;
        QVERIFY(test::writeFile(sb.cfg() + u"/main.tf"_s, {}));
        QVERIFY(test::writeFile(sb.lockPath(), input));
        const Run run = sb.terraform({u"init"_s, u"-backend=false"_s, u"-input=false"_s, u"-json"_s});
        const QStringList theirs = terraformDiagnostics(run.out);

        LockParseOptions o;
        o.flavour = LockFlavour::Terraform;
        o.toolVersion = g_terraformVersion;
        const LockParseResult r = parseLockFile(input, o);
        QStringList ours;
        for (const LockDiagnostic &d : r.diagnostics)
            ours << diagKey(d.isError(), d.summary, d.detail, d.range.line, d.range.column);
        QCOMPARE(ours, theirs);
        QCOMPARE(run.exitCode != 0, r.hasErrors());
    }
};

QTEST_GUILESS_MAIN(TestInteropLock)
#include "tst_interop_lock.moc"
