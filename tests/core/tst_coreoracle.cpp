// Cross-check of Version, VersionConstraints and ProviderAddress against the real `terraform`
// (v1.11): we write a .terraform.lock.hcl whose entries are the inputs, run `terraform init` on an
// empty configuration (no provider is needed, so nothing is downloaded; the CLI config also points
// any installation at 127.0.0.1) and read its JSON diagnostics:
//   * "... is invalid: <parser error>."        -> we must reject with the same text;
//   * "... must be written in normalized form: "<c>"." / "must be written as "<c>"" -> we must
//     accept and print <c>;
//   * nothing                                  -> we must accept, and the input is canonical.
// Terraform differs from OpenTofu in a few known places, so inputs that touch them are not sent:
// a `v` in versions/constraints (Terraform has go-versions v1.0.2, OpenTofu v1.0.3), the default
// registry host (we parse with registry.terraform.io here), `opentofu-` type prefixes and the
// `opentofu.org/builtin` host. Numbers over uint64 are not sent either (go-versions panics).
// VersionConstraints::allows() is checked against which versions `terraform init` installs from a
// local filesystem mirror of tiny fake packages (allowsMatchesInstallerSelection).

#include "model/core/ProviderAddress.h"
#include "model/core/Version.h"
#include "model/core/VersionConstraints.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;

// QVERIFY2 with a message built by QStringBuilder.
#define CHECK(cond, message) QVERIFY2(cond, QByteArray(message).constData())

namespace {

struct Diagnostic
{
    QString summary;
    QString detail;
};

/// HCL quoted-string escaping for the inputs we write.
QString hclQuote(const QString &s)
{
    QString out = QStringLiteral("\"");
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (c == QLatin1Char('"') || c == QLatin1Char('\\')) {
            out += QLatin1Char('\\');
            out += c;
        } else if (c == QLatin1Char('\n')) {
            out += QStringLiteral("\\n");
        } else if (c == QLatin1Char('\t')) {
            out += QStringLiteral("\\t");
        } else if (c == QLatin1Char('\r')) {
            out += QStringLiteral("\\r");
        } else if ((c == QLatin1Char('$') || c == QLatin1Char('%')) && i + 1 < s.size() && s[i + 1] == QLatin1Char('{')) {
            out += c;
            out += c;
        } else if (c.unicode() < 0x20) {
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out + QLatin1Char('"');
}

/// Undo Go's %q for the simple strings Terraform quotes in its details.
QString goUnquote(const QString &s)
{
    QString out;
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s[i] == QLatin1Char('\\') && i + 1 < s.size()) {
            const QChar n = s[++i];
            if (n == QLatin1Char('t'))
                out += QLatin1Char('\t');
            else if (n == QLatin1Char('n'))
                out += QLatin1Char('\n');
            else if (n == QLatin1Char('u') && i + 4 < s.size()) {
                out += QChar(s.mid(i + 1, 4).toUShort(nullptr, 16));
                i += 4;
            } else
                out += n;
        } else {
            out += s[i];
        }
    }
    return out;
}

/// `terraform init -json` (no backend, no prompts) in `workDir` through test::runTerraform: the CLI
/// config `sandbox`/cli.tfrc, which the caller writes first, and nothing but loopback reachable.
/// `out` holds the JSON lines, `err` stderr (then stdout).
test::ProcessRun terraformInitJson(const QString &sandbox, const QString &workDir)
{
    return test::runTerraform(sandbox, workDir,
                              {QStringLiteral("init"), QStringLiteral("-backend=false"), QStringLiteral("-input=false"),
                               QStringLiteral("-no-color"), QStringLiteral("-json")},
                              {}, 120000);
}

class LockFileRun
{
public:
    /// Adds a provider block; returns the line numbers of (header, version, constraints).
    void add(const QString &label, const QString &version, const QString *constraints, int *headerLine, int *versionLine,
             int *constraintsLine)
    {
        m_text += QStringLiteral("provider %1 {\n").arg(hclQuote(label));
        *headerLine = ++m_line;
        m_text += QStringLiteral("  version = %1\n").arg(hclQuote(version));
        *versionLine = ++m_line;
        if (constraints) {
            m_text += QStringLiteral("  constraints = %1\n").arg(hclQuote(*constraints));
            *constraintsLine = ++m_line;
        }
        m_text += QStringLiteral("}\n");
        ++m_line;
    }

    /// Runs terraform; returns diagnostics by start line, or an error text.
    QString run(QMultiHash<int, Diagnostic> *out)
    {
        QTemporaryDir dir;
        if (!dir.isValid())
            return QStringLiteral("no temporary directory");
        const QString cli = dir.filePath(QStringLiteral("cli.tfrc"));
        auto write = [](const QString &path, const QByteArray &data) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
        };
        if (!write(cli,
                   "provider_installation {\n  network_mirror {\n    url = \"https://127.0.0.1:9/\"\n  }\n}\n"
                   "disable_checkpoint = true\n")
            || !write(dir.filePath(QStringLiteral("main.tf")), QByteArray())
            || !write(dir.filePath(QStringLiteral(".terraform.lock.hcl")), m_text.toUtf8())) {
            return QStringLiteral("cannot write the test files");
        }
        const test::ProcessRun init = terraformInitJson(dir.path(), dir.path());
        if (!init.finished)
            return QStringLiteral("terraform did not finish");
        for (const QByteArray &line : init.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QStringLiteral("type")).toString() != QLatin1StringView("diagnostic"))
                continue;
            const QJsonObject d = o.value(QStringLiteral("diagnostic")).toObject();
            const int ln =
                d.value(QStringLiteral("range")).toObject().value(QStringLiteral("start")).toObject().value(QStringLiteral("line")).toInt();
            out->insert(ln, Diagnostic{d.value(QStringLiteral("summary")).toString(), d.value(QStringLiteral("detail")).toString()});
        }
        if (out->isEmpty() && init.exitCode != 0)
            return QStringLiteral("terraform failed without diagnostics: ") + QString::fromUtf8(init.err);
        return {};
    }

private:
    QString m_text = QStringLiteral("# test\n");
    int m_line = 1;
};

/// The seed of the random rounds: PROVENDER_ORACLE_SEED=<n> explores other inputs; `fallback`, the
/// default, keeps CI deterministic.
quint32 oracleSeed(quint32 fallback)
{
    return qEnvironmentVariableIsSet("PROVENDER_ORACLE_SEED") ? quint32(qEnvironmentVariableIntValue("PROVENDER_ORACLE_SEED")) : fallback;
}

QList<Diagnostic> diagnosticsAt(const QMultiHash<int, Diagnostic> &all, int line)
{
    return all.values(line);
}

/// "... invalid: <msg>." -> msg; "... normalized form: "<c>"." -> c (in *canonical).
bool readValueDiagnostics(const QList<Diagnostic> &diags, QString *error, QString *canonical)
{
    static const QRegularExpression invalidRe(QStringLiteral("^.* (?:is|are) invalid: (.*)\\.$"),
                                              QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression normalRe(QStringLiteral("must be written in normalized form: \"(.*)\"\\.$"),
                                             QRegularExpression::DotMatchesEverythingOption);
    bool any = false;
    for (const Diagnostic &d : diags) {
        if (const auto m = invalidRe.match(d.detail); m.hasMatch()) {
            *error = m.captured(1);
            any = true;
        } else if (const auto n = normalRe.match(d.detail); n.hasMatch()) {
            *canonical = goUnquote(n.captured(1));
            any = true;
        }
    }
    return any;
}

/// Runs `terraform init` in a fresh directory with `mainTf` and a filesystem mirror that holds
/// `files` (relative path -> zip bytes). Returns terraform's JSON output lines.
QByteArray runInitWithMirror(const QByteArray &mainTf, const QHash<QString, QByteArray> &files, QString *failure)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        *failure = QStringLiteral("no temporary directory");
        return {};
    }
    const QString mirror = dir.filePath(QStringLiteral("mirror"));
    const QString work = dir.filePath(QStringLiteral("work"));
    QDir().mkpath(work);
    auto write = [](const QString &path, const QByteArray &data) {
        QDir().mkpath(QFileInfo(path).path());
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
    };
    const QString cli = dir.filePath(QStringLiteral("cli.tfrc"));
    bool ok =
        write(cli,
              "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror.toUtf8() + "\"\n  }\n}\ndisable_checkpoint = true\n")
        && write(work + QStringLiteral("/main.tf"), mainTf);
    for (auto it = files.cbegin(); it != files.cend(); ++it)
        ok = ok && write(mirror + QLatin1Char('/') + it.key(), it.value());
    if (!ok) {
        *failure = QStringLiteral("cannot write the test files");
        return {};
    }
    const test::ProcessRun init = terraformInitJson(dir.path(), work);
    if (!init.finished) {
        *failure = QStringLiteral("terraform did not finish");
        return {};
    }
    return init.out;
}

/// A stored zip with one small file (enough for `terraform init` to install it unverified).
QByteArray tinyZip(const QByteArray &name)
{
    auto le16 = [](QByteArray &b, quint16 v) { b.append(char(v & 0xff)).append(char(v >> 8)); };
    auto le32 = [&](QByteArray &b, quint32 v) {
        le16(b, quint16(v & 0xffff));
        le16(b, quint16(v >> 16));
    };
    const QByteArray data("#!/bin/sh\n");
    // CRC-32 of data, computed bit by bit.
    quint32 crc = 0xffffffffu;
    for (const char ch : data) {
        crc ^= quint8(ch);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    crc ^= 0xffffffffu;
    // What the local header and the central-directory entry share: version needed 2.0, no flags,
    // stored, time 0, date 1980-01-01, CRC, both sizes, name length, no extra field.
    auto shared = [&](QByteArray &b) {
        for (const quint16 v : {quint16(20), quint16(0), quint16(0), quint16(0), quint16(0x21)})
            le16(b, v);
        le32(b, crc);
        le32(b, quint32(data.size()));
        le32(b, quint32(data.size()));
        le16(b, quint16(name.size()));
        le16(b, 0);
    };
    QByteArray z;
    le32(z, 0x04034b50);
    shared(z);
    z += name;
    z += data;
    const quint32 central = quint32(z.size());
    le32(z, 0x02014b50);
    le16(z, 0x031e); // made by Unix, 3.0
    shared(z);
    le16(z, 0);
    le16(z, 0);
    le16(z, 0);
    le32(z, 0100755u << 16);
    le32(z, 0);
    z += name;
    const quint32 centralSize = quint32(z.size()) - central;
    le32(z, 0x06054b50);
    le16(z, 0);
    le16(z, 0);
    le16(z, 1);
    le16(z, 1);
    le32(z, centralSize);
    le32(z, central);
    le16(z, 0);
    return z;
}

const char *const kVersions[] = {
    "1.2.3",
    "1",
    "1.1",
    "1.0.0.0",
    "1.0.0-beta2",
    "1.0-beta2",
    "1.0.0-beta.2",
    "1.0.0+foo",
    "1.0.0+foo.bar",
    "1.0.0-beta1+foo.bar",
    "> 1.1.1",
    "garbage",
    "& 1.1.0",
    "1.*.*",
    "1.0.x",
    "1.0 || 2.0",
    "1.0.0, 2.0.0",
    "1.0.0 - 2.0.0",
    "",
    "   ",
    " 1.2.3",
    "1.2.3 ",
    "1.0_1",
    "=1.2.3",
    ">=1.2.3",
    "x",
    "1.2.X",
    "1.2.*",
    "2.0",
    "01.02.003",
    "1.02",
    "1.2.3-",
    "1.2.3+",
    "1.2.3-a..b",
    "1.2.3-01",
    "1.0.0-BETA+Build.7",
    "0.1.0-alpha.2",
    "1.0.0+build.1",
    "18446744073709551615.0.0",
    "1.",
    "1.2.3-beta+",
    "1..2",
    "1.2.3-\xc3\xbc",
    "&1",
    "1.2.3-_x",
    "\t1.2.3",
    "0.0.0",
    "00001",
    "1.2.3.",
    "1.2.3+-",
    "1.2.3-+",
    "*",
    "X.1",
    "1.2.3 || 4",
    "1.2.3,4",
    "!1.0",
    "~>1.0",
    "^1.0",
    "<1.0",
    "1.0.0-rc.1+b.2",
    // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one version, split where the \x escape ends
    "\xc2\xa0"
    "1.0",
    "1.0\xc2\xa0",
    "-1.0",
    "+1.0",
    "1.0-",
    "1.0+x+y",
    "1.0.0-x.y.z.1",
    "\xe2\x80\x83",
    "1.2.3-a\"b",
};

const char *const kConstraints[] = {
    // tofu-formats.md §2.6, every vector
    "1.2.3",
    "1.2.3-beta+foo.bar",
    ">= 3",
    "~> 3",
    "~> 3.0",
    "~> 3.0.0",
    "> 1.0.0, < 1.0.0, >= 1.0.0, <= 1.0.0, != 1.0.0",
    ">= 3.0, < 4.0",
    ">= 1.2.3, 1.2.3, ~> 1.2, 1.2.3",
    ">= 2.68, >= 2.68.0",
    // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one constraint string, split for the line length
    "< 1.2.3, <= 1.2.3, != 1.2.3, 1.2.3+local.2, 1.2.3+local.1, = 1.2.4, = 1.2.3, > 2, > 1.2.3, >= 1.2.3, ~> 1.2.3, "
    "~> 1.2",
    "~> 1.2, >= 1.2, 1.2.4",
    ">= 2, >= 1.2, < 1.3",
    "1.2",
    "~> 1",
    // errors (§2.6 and go-versions tables)
    "=> 1.0",
    "=< 1.0",
    "^1.0",
    "~ 1.0",
    "~>  1.0",
    "1.*",
    "1.2.x",
    ">= 1.0 < 2",
    "1.0.0.0",
    "=  1.1.1",
    "& 1.1.0",
    " 1.0 ||  2.0",
    // quirks of the scanner and the canonical sort
    "",
    "   ",
    "garbage",
    "~> ,",
    ">=",
    "=",
    ">= ,1.0",
    "1.0,,2.0",
    ", 1.0",
    "1.0,",
    "~> 1.2-beta",
    "~>1.0, ~> 1.0.0, ~> 1",
    "= 1.2",
    ">= 1.0+meta, >= 1.0",
    "!=1.2.3-rc.1",
    ">=1.0 <2.0",
    ">=garbage",
    "> 1.0.0-beta, >1.0.0-alpha.1",
    "1.0.0-beta.11, 1.0.0-beta.2, 1.0.0-rc, 1.0.0-alpha.1",
    "1.2.3+b, 1.2.3+a.1, 1.2.3+a, 1.2.3, 1.2.3+1",
    "~> 0",
    "< 0.0.1-0",
    "\t>= 1.0\n",
    ">= 1.0,\t< 2",
    "1.0-beta",
    "~>1.2.3-rc.1+x",
    "!1.0",
    "> = 1.0",
    "1 2",
    "1.0.0 - 2.0.0",
    "1.0.0garbage",
    ">= 1.0, garbage",
    "*",
    ">= 1.0\xc2\xa0",
    "\xc2\xa0>= 1.0",
    ">=\xc2\xa0"
    "1.0",
    "1.0.0-\xc3\xbc",
    "= 1.0, = 1.0.0, =1, 1.0.0",
    "~> 1.0.0-beta, ~> 1.0-beta",
    "<= 0, < 0, != 0",
};

const char *const kLabels[] = {
    "registry.terraform.io/hashicorp/aws",
    "hashicorp/aws",
    "aws",
    "AWS",
    "Registry.Terraform.io/hashicorp/d",
    "registry.terraform.io:443/hashicorp/e",
    "CAF\xc3\x89.fr:0443/a/b",
    "caf\xc3\xa9.fr/a/b",
    "xn--caf-dma.fr/a/b",
    "XN--caf-dma.fr/a/b",
    "example.com:08443/a/b",
    "example.com:8443/a/b",
    "example.com:-1/a/b",
    "example.com:+80/a/b",
    "example.com:65536/a/b",
    "example.com:boo/a/b",
    "a..b/x/y",
    "a./x/y",
    "a../x/y",
    ".a/x/y",
    // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one label, split where a \x escape ends
    "\xef\xbc\xa5\xef\xbc\xb8\xef\xbc\xa1\xef\xbc\xad\xef\xbc\xb0\xef\xbc\xac\xef\xbc\xa5.com/\xef\xbc\xa1\xef\xbc\xa2"
    "\xef\xbc\xa3/\xef\xac\x81le",
    "stra\xc3\x9f"
    "e.de/stra\xc3\x9f"
    "e/x",
    "\xd0\x98\xd1\x81\xd0\xbf\xd1\x8b\xd1\x82\xd0\xb0\xd0\xbd\xd0\xb8\xd0\xb5"
    ".com/\xd0\x98\xd1\x81\xd0\xbf\xd1\x8b\xd1\x82\xd0\xb0\xd0\xbd\xd0\xb8\xd0\xb5/x",
    "mu\xcc\x88nchen.de/a/b",
    "foo_bar.com/a/b",
    "a/foo_bar",
    "-/aws",
    "registry.terraform.io/-/aws",
    "example.com/-/aws",
    "terraform.io/builtin/terraform",
    "terraform.io/test/x",
    "this/one/okay",
    "a/terraform-provider-aws",
    "a/terraform-aws",
    "a/b/c/d",
    "ab\xe2\x80\x8d"
    "cd/x",
    "a\xe3\x80\x82"
    "b/x/y",
    "localhost:8080/foo/bar",
    "http:80/a/b",
    "https://example.com/a/b",
    "Caf\xc3\xa9/Caf\xc3\xa9",
    "a b/x",
    "ab--cd/x",
    "-foo/x",
    "foo-/x",
    "x/-foo",
    "a/b.c",
    "a-.com/x/y",
    "ab--c.com/x/y",
    "",
    "/",
    "a/",
    "a//b",
    "\xe2\x80\xae"
    "abc/x",
    "a\xc2\xad"
    "b/x",
    "A\xcc\x8a/x",
    "\xe2\x84\xab/x",
    "xn--zca/x",
    "x/y:z",
    "terraform-provider-aws",
    "terraform-aws",
    "hashicorp/terraform-provider-aws",
    "TERRAFORM-x/y",
};

} // namespace

class TestCoreOracle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("this cross-check needs the real terraform (v1.11)")); }

    void versionsAndConstraints()
    {
        QStringList versionInputs, constraintInputs;
        for (const char *v : kVersions)
            versionInputs.append(QString::fromUtf8(v));
        for (const char *c : kConstraints)
            constraintInputs.append(QString::fromUtf8(c));
        checkVersionsAndConstraints(versionInputs, constraintInputs);
    }

    void randomVersionsAndConstraints()
    {
        // Differential fuzzing with a fixed seed: strings from the grammar's alphabet.
        QRandomGenerator rng(oracleSeed(20260811u));
        const QString versionAlphabet = QStringLiteral("0123456789....---++abXx* _,=>|\u00e9");
        const QString constraintAlphabet = QStringLiteral("0123456789....--+abx*  ,,,=><~!^\t\u00a0");
        auto randomString = [&](const QString &alphabet, int maxLen) {
            QString s;
            const int len = int(rng.bounded(maxLen + 1));
            int digitRun = 0;
            for (int i = 0; i < len; ++i) {
                QChar c = alphabet[int(rng.bounded(int(alphabet.size())))];
                digitRun = c.isDigit() ? digitRun + 1 : 0;
                if (digitRun > 9) // stay below uint64 (go-versions would panic)
                    c = QLatin1Char('.');
                s += c;
            }
            return s;
        };
        QStringList versions, constraints;
        for (int i = 0; i < 300; ++i)
            versions.append(randomString(versionAlphabet, 12));
        // constraint items built from plausible pieces, joined with commas
        const QStringList ops = {
            QString(),           QStringLiteral("="),  QStringLiteral("!="), QStringLiteral(">"),  QStringLiteral(">="),
            QStringLiteral("<"), QStringLiteral("<="), QStringLiteral("~>"), QStringLiteral("=>"), QStringLiteral("~"),
            QStringLiteral("^")};
        const QStringList seps = {QString(), QStringLiteral(" "), QStringLiteral(" "), QStringLiteral("  ")};
        for (int i = 0; i < 300; ++i) {
            if (i % 5 == 0) {
                constraints.append(randomString(constraintAlphabet, 14));
                continue;
            }
            QStringList items;
            const int count = 1 + int(rng.bounded(4));
            for (int k = 0; k < count; ++k) {
                QString version = QString::number(rng.bounded(3));
                const int parts = int(rng.bounded(3));
                for (int p = 0; p < parts; ++p)
                    version += QLatin1Char('.') + QString::number(rng.bounded(3));
                if (rng.bounded(4) == 0)
                    version += QStringLiteral("-")
                        + QStringList{QStringLiteral("beta"), QStringLiteral("rc.1"), QStringLiteral("1"),
                                      QStringLiteral("a.b")}[int(rng.bounded(4))];
                if (rng.bounded(6) == 0)
                    version += QStringLiteral("+m") + QString::number(rng.bounded(2));
                items.append(ops[int(rng.bounded(int(ops.size())))] + seps[int(rng.bounded(int(seps.size())))] + version);
            }
            constraints.append(items.join(rng.bounded(5) == 0 ? QStringLiteral(" ,") : QStringLiteral(", ")));
        }
        checkVersionsAndConstraints(versions, constraints);
    }

private:
    /// Our T::parse of `input` against terraform's diagnostics on its line: terraform's error, the
    /// normalized form terraform asks for (`input` is then not canonical for us either), or, when
    /// terraform says nothing, `input` as written (canonical).
    template<typename T> void checkAgainstTerraform(const char *kind, const QString &input, const QList<Diagnostic> &diags)
    {
        QString error, canonical;
        const bool any = readValueDiagnostics(diags, &error, &canonical);
        const Result<T> ours = T::parse(input);
        const QByteArray what = QByteArray(kind) + ' ' + gocompatQuote(input);
        if (!error.isEmpty()) {
            CHECK(!ours.ok(), what + " accepted, terraform: " + error.toUtf8());
            CHECK(ours.error().message == error, what + ": we say " + ours.error().message.toUtf8() + ", terraform says " + error.toUtf8());
        } else if (any) {
            CHECK(ours.ok(), what + " rejected: " + (ours.ok() ? QByteArray() : ours.error().message.toUtf8()));
            CHECK(ours->toString() == canonical, what + ": we print " + ours->toString().toUtf8() + ", terraform " + canonical.toUtf8());
            QVERIFY(!T::isCanonical(input));
        } else {
            CHECK(ours.ok() && ours->toString() == input, what + " is canonical for terraform");
            QVERIFY(T::isCanonical(input));
        }
    }

    void checkVersionsAndConstraints(const QStringList &versionInputs, const QStringList &constraintInputs)
    {
        LockFileRun run;
        QList<std::pair<QString, int>> versions, constraints;
        int n = 0;
        for (const QString &v : versionInputs) {
            int header = 0, versionLine = 0, unused = 0;
            run.add(QStringLiteral("registry.terraform.io/oracle/v%1").arg(n++), v, nullptr, &header, &versionLine, &unused);
            versions.append({v, versionLine});
        }
        for (const QString &text : constraintInputs) {
            int header = 0, versionLine = 0, constraintsLine = 0;
            run.add(QStringLiteral("registry.terraform.io/oracle/c%1").arg(n++), QStringLiteral("1.0.0"), &text, &header, &versionLine,
                    &constraintsLine);
            constraints.append({text, constraintsLine});
        }
        QMultiHash<int, Diagnostic> diags;
        const QString failure = run.run(&diags);
        CHECK(failure.isEmpty(), qPrintable(failure));
        QVERIFY(!diags.isEmpty()); // some inputs are invalid, so terraform must have said something

        int checked = 0;
        for (const auto &[input, line] : std::as_const(versions)) {
            checkAgainstTerraform<Version>("version", input, diagnosticsAt(diags, line));
            if (QTest::currentTestFailed())
                return;
            ++checked;
        }
        for (const auto &[input, line] : std::as_const(constraints)) {
            checkAgainstTerraform<VersionConstraints>("constraints", input, diagnosticsAt(diags, line));
            if (QTest::currentTestFailed())
                return;
            ++checked;
        }
        QCOMPARE(checked, int(versionInputs.size() + constraintInputs.size()));
    }

private Q_SLOTS:

    void providerLabels()
    {
        QStringList labels;
        for (const char *l : kLabels)
            labels.append(QString::fromUtf8(l));
        checkLabels(labels);
    }

    void randomProviderLabels()
    {
        QRandomGenerator rng(oracleSeed(20260812u));
        const QString partAlphabet = QStringLiteral("abcXYZ019--_.\u00e9\u00c9\u00df\uff21\ufb01\u3002u\u0308");
        const QString hostAlphabet = QStringLiteral("abcXY019--..\u00e9\u00c9\u00df\uff21\u3002_");
        QStringList labels;
        for (int i = 0; i < 300; ++i) {
            const int parts = 1 + int(rng.bounded(3));
            QStringList p;
            if (parts == 3) {
                QString host = test::randomString(rng, hostAlphabet, 10);
                if (rng.bounded(3) == 0)
                    host += QLatin1Char(':') + QString::number(rng.bounded(70000));
                p.append(host);
            }
            for (int k = (parts == 3 ? 1 : 0); k < parts; ++k)
                p.append(rng.bounded(6) == 0 ? QStringLiteral("-") : test::randomString(rng, partAlphabet, 7));
            labels.append(p.join(QLatin1Char('/')));
        }
        checkLabels(labels);
    }

private:
    void checkLabels(const QStringList &labelInputs)
    {
        // Labels that normalize to the same address would be "Duplicate provider lock": spread them
        // over several runs (grouped by our own normalization; a wrong grouping shows up as an
        // unexpected diagnostic and fails the test).
        QList<QStringList> batches;
        QList<QSet<QString>> seen;
        for (const QString &label : labelInputs) {
            const Result<ProviderAddress> a = ProviderAddress::parse(label, kTerraformRegistryHost);
            const QString key = a.ok() ? a->toString() : QStringLiteral("\x01") + label;
            qsizetype i = 0;
            while (i < batches.size() && seen[i].contains(key))
                ++i;
            if (i == batches.size()) {
                batches.append(QStringList());
                seen.append(QSet<QString>());
            }
            batches[i].append(label);
            seen[i].insert(key);
        }
        static const QRegularExpression asRe(QStringLiteral("must be written as \"(.*)\", the fully-qualified"),
                                             QRegularExpression::DotMatchesEverythingOption);
        int checked = 0;
        for (const QStringList &batch : std::as_const(batches)) {
            LockFileRun run;
            QList<std::pair<QString, int>> lines;
            for (const QString &label : batch) {
                int header = 0, versionLine = 0, unused = 0;
                run.add(label, QStringLiteral("1.0.0"), nullptr, &header, &versionLine, &unused);
                lines.append({label, header});
            }
            QMultiHash<int, Diagnostic> diags;
            const QString failure = run.run(&diags);
            CHECK(failure.isEmpty(), qPrintable(failure));
            for (const auto &[label, line] : std::as_const(lines)) {
                const Result<ProviderAddress> ours = ProviderAddress::parse(label, kTerraformRegistryHost);
                const QByteArray what = "label " + gocompatQuote(label);
                const QList<Diagnostic> here = diagnosticsAt(diags, line);
                if (here.isEmpty()) {
                    CHECK(ours.ok(), what + " rejected: " + (ours.ok() ? QByteArray() : ours.error().message.toUtf8()));
                    CHECK(ours->toString() == label, what + " printed as " + ours->toString().toUtf8());
                    QVERIFY(!ours->isBuiltIn() && !ours->isLegacy());
                }
                for (const Diagnostic &d : here) {
                    if (d.summary == QLatin1StringView("Invalid provider source address")) {
                        if (d.detail.startsWith(QLatin1StringView("Cannot lock a version for built-in provider"))) {
                            CHECK(ours.ok() && ours->isBuiltIn(), what + " should be built-in");
                        } else if (d.detail.contains(QLatin1StringView("is a special provider that is not eligible"))) {
                            CHECK(ours.ok() && ours->isLegacy(), what + " should be legacy");
                        } else {
                            CHECK(!ours.ok(), what + " accepted as " + (ours.ok() ? ours->toString().toUtf8() : ""));
                        }
                    } else if (d.summary == QLatin1StringView("Non-normalized provider source address")) {
                        const auto m = asRe.match(d.detail);
                        QVERIFY(m.hasMatch());
                        const QString canonical = goUnquote(m.captured(1));
                        CHECK(ours.ok(), what + " rejected: " + (ours.ok() ? QByteArray() : ours.error().message.toUtf8()));
                        CHECK(ours->toString() == canonical,
                              what + ": we print " + ours->toString().toUtf8() + ", terraform " + canonical.toUtf8());
                        QVERIFY(canonical != label);
                    } else {
                        QFAIL(QByteArray(what + " unexpected diagnostic: " + d.summary.toUtf8() + ": " + d.detail.toUtf8()).constData());
                    }
                }
                ++checked;
            }
        }
        QCOMPARE(checked, int(labelInputs.size()));
    }

private Q_SLOTS:

    void allowsMatchesInstallerSelection()
    {
        // terraform init installs the newest version of each provider that its go-versions
        // MeetingConstraints allows. Offer every provider the same versions, and after each round
        // take away the version it installed: the sequence of installs enumerates exactly the
        // allowed subset, newest first. All providers run in the same `terraform init`. Ours is
        // the same sequence from newestAllowed() (what lock init and upgrade, the network mirror's
        // version selection and mirror pull choose with), so both it and allows() are judged.
        const QString platform = test::terraformPlatform();
        QVERIFY2(!platform.isEmpty(), "terraform version -json gave no platform");
        const QStringList offered = {QStringLiteral("0.0.0"),      QStringLiteral("0.0.0+build"), QStringLiteral("0.9.0"),
                                     QStringLiteral("1.0.0-beta"), QStringLiteral("1.0.0"),       QStringLiteral("1.2.0"),
                                     QStringLiteral("1.2.5"),      QStringLiteral("1.3.0-rc1"),   QStringLiteral("1.9.0"),
                                     QStringLiteral("2.0.0-beta"), QStringLiteral("2.0.0"),       QStringLiteral("2.1.0-rc1")};
        // Only constraints that Terraform's configuration parser (hashicorp/go-version) accepts too.
        const QStringList constraints = {QStringLiteral("~> 1.2"),
                                         QStringLiteral("~> 1.2.0"),
                                         QStringLiteral("~> 1"),
                                         QStringLiteral(">= 1.0"),
                                         QStringLiteral("1.2"),
                                         QStringLiteral("2.0.0-beta"),
                                         QStringLiteral(">= 2.0.0-beta"),
                                         QStringLiteral("!= 2.0.0, >= 1.2.0"),
                                         QStringLiteral("< 2.0.0"),
                                         QStringLiteral("> 1.0.0-beta, < 1.3.0"),
                                         QStringLiteral("1.3.0-rc1"),
                                         QStringLiteral("~> 0.9"),
                                         QStringLiteral("<= 1.2.5, > 0.9.0"),
                                         QStringLiteral(">= 1.0.0-beta, < 1.2.0"),
                                         QStringLiteral("~> 1.3.0-rc1"),
                                         QStringLiteral("!= 1.0.0-beta"),
                                         QStringLiteral("1.0.0-beta, >= 1.0.0-beta"),
                                         QStringLiteral("~> 2.1.0-rc1"),
                                         QString()}; // no version argument at all (mirror pull without one)
        const int n = int(constraints.size());
        QList<QStringList> remaining(n, offered);
        QList<QStringList> installed(n);
        QList<bool> done(n, false);
        static const QRegularExpression installedRe(QStringLiteral("^Installed provider version: example\\.com/ns/p(\\d+) v(\\S+)"));
        for (int round = 0; round <= offered.size(); ++round) {
            QByteArray mainTf = "terraform {\n  required_providers {\n";
            QHash<QString, QByteArray> files;
            bool any = false;
            for (int i = 0; i < n; ++i) {
                if (done[i])
                    continue;
                any = true;
                const QByteArray name = "p" + QByteArray::number(i);
                const QByteArray version = constraints[i].isEmpty() ? QByteArray() : ", version = \"" + constraints[i].toUtf8() + '"';
                mainTf += "    " + name + " = { source = \"example.com/ns/" + name + '"' + version + " }\n";
                for (const QString &v : std::as_const(remaining[i])) {
                    const QString file =
                        QStringLiteral("example.com/ns/%1/terraform-provider-%1_%2_%3.zip").arg(QString::fromUtf8(name), v, platform);
                    files.insert(file, tinyZip("terraform-provider-" + name + "_v" + v.toUtf8()));
                }
            }
            if (!any)
                break;
            mainTf += "  }\n}\n";
            QString failure;
            const QByteArray out = runInitWithMirror(mainTf, files, &failure);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
            QSet<int> progressed;
            for (const QByteArray &line : out.split('\n')) {
                const QString message = QJsonDocument::fromJson(line).object().value(QStringLiteral("@message")).toString();
                const auto m = installedRe.match(message);
                if (!m.hasMatch())
                    continue;
                const int i = m.captured(1).toInt();
                QVERIFY(i >= 0 && i < n && !done[i]);
                installed[i].append(m.captured(2));
                QVERIFY2(remaining[i].removeOne(m.captured(2)), qPrintable(m.captured(2)));
                progressed.insert(i);
            }
            for (int i = 0; i < n; ++i) {
                if (!done[i] && !progressed.contains(i))
                    done[i] = true; // nothing (more) acceptable
            }
        }
        int allowedSeen = 0;
        for (int i = 0; i < n; ++i) {
            QVERIFY(done[i]);
            const VersionConstraints c = VersionConstraints::parse(constraints[i]).value();
            QList<Version> left;
            for (const QString &v : offered)
                left.append(Version::parse(v).value());
            QStringList ours; // newest first, like the installs
            while (const std::optional<Version> best = newestAllowed(left, c)) {
                ours.append(best->toString());
                left.removeOne(*best);
            }
            CHECK(ours == installed[i],
                  "constraints \"" + constraints[i].toUtf8() + "\": we allow [" + ours.join(QStringLiteral(", ")).toUtf8()
                      + "], terraform installed [" + installed[i].join(QStringLiteral(", ")).toUtf8() + "]");
            allowedSeen += int(ours.size());
        }
        QVERIFY(allowedSeen > 20);
    }

private:
    static QByteArray gocompatQuote(const QString &s)
    {
        QByteArray out = "\"";
        for (const QChar c : s) {
            if (c.unicode() < 0x20 || c.unicode() > 0x7e)
                out += "\\u" + QByteArray::number(c.unicode(), 16).rightJustified(4, '0');
            else
                out += char(c.unicode());
        }
        return out + '"';
    }
};

QTEST_GUILESS_MAIN(TestCoreOracle)
#include "tst_coreoracle.moc"
