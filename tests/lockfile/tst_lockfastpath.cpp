// The lock-file fast path (LockFastPath.h) against the full parser. The full parser is the
// reference (its diagnostics are checked against tofu/terraform elsewhere); the fast path must
// either decline or produce a structurally identical result — same document, same source
// ranges, no diagnostics — for every corpus file, every fixture, generated files and thousands
// of random mutations. Whether a hand-made case is accepted or declined is stated in the table
// from the shape rules (LockFastPath.h), so a fast path that declined everything would fail.

#include "model/lockfile/LockFastPath.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QRandomGenerator>
#include <QTest>

using namespace provender;
using namespace provender::lockfile_detail;
using namespace Qt::StringLiterals;

namespace {

QString dumpRange(const LockSourceRange &r)
{
    return u"%1:%2+%3-%4:%5+%6"_s.arg(r.line).arg(r.column).arg(r.byte).arg(r.endLine).arg(r.endColumn).arg(r.endByte);
}

/// Everything a LockParseResult holds, as text (so a difference shows up readably in QCOMPARE).
QString dump(const LockParseResult &r)
{
    const LockFile &d = r.document;
    QString out;
    out += u"flavour=%1 standardHeader=%2 tool=%3\n"_s.arg(toString(d.flavour)).arg(d.hasStandardHeader).arg(d.headerTool);
    for (const QString &m : d.moduleBlocks)
        out += u"module: "_s + m + u'\n';
    for (const DroppedContent &c : d.dropped)
        out += u"dropped %1 %2 @%3\n"_s.arg(toString(c.kind), c.text, dumpRange(c.range));
    for (const ProviderLock &p : d.providers) {
        out += u"provider %1 [%2|%3|%4|%5] @%6\n"_s.arg(p.address.toString(), p.address.hostname(), p.address.displayHostname(),
                                                        p.address.ns(), p.address.type(), dumpRange(p.sourceRange));
        out += u"  version %1 (%2.%3.%4 %5 %6)\n"_s.arg(p.version.toString())
                   .arg(p.version.major())
                   .arg(p.version.minor())
                   .arg(p.version.patch())
                   .arg(p.version.prerelease(), p.version.metadata());
        out += u"  constraints %1 (%2 items)\n"_s.arg(p.constraints.toString()).arg(p.constraints.items().size());
        for (const VersionConstraints::Item &i : p.constraints.items())
            out += u"    op%1 %2 parts%3\n"_s.arg(int(i.op)).arg(i.boundary.toString()).arg(i.partsGiven);
        for (const HashString &h : p.hashes)
            out += u"  hash %1 (%2)\n"_s.arg(h.toString(), h.schemePrefix());
    }
    for (const LockDiagnostic &g : r.diagnostics)
        out += u"diag %1 %2: %3 @%4\n"_s.arg(g.isError() ? u"E"_s : u"W"_s, g.summary, g.detail, dumpRange(g.range));
    return out;
}

/// Compares both paths; returns whether the fast path accepted. Fails the test on a difference.
bool sameOnBothPaths(const QByteArray &bytes, const LockParseOptions &options = {})
{
    const LockParseResult full = parseLockFileFull(bytes, options);
    const std::optional<LockParseResult> fast = parseLockFileFast(bytes, options);
    if (!fast)
        return false;
    if (!full.diagnostics.isEmpty() || !full.document.dropped.isEmpty()) {
        qWarning("fast path accepted a file the full parser reports on:\n%s\n%s", bytes.left(2000).constData(), qPrintable(dump(full)));
        QTest::qVerify(false, "full.diagnostics.isEmpty() && full.document.dropped.isEmpty()", "fast path accepted", __FILE__, __LINE__);
        return true;
    }
    const QString a = dump(*fast);
    const QString b = dump(full);
    if (a != b)
        qWarning("input:\n%s", bytes.left(4000).constData());
    QTest::qCompare(a, b, "dump(fast)", "dump(full)", __FILE__, __LINE__);
    // parseLockFile() is the fast result.
    QTest::qCompare(dump(parseLockFile(bytes, options)), b, "dump(parseLockFile)", "dump(full)", __FILE__, __LINE__);
    return true;
}

bool isAscii(const QByteArray &b)
{
    return std::all_of(b.cbegin(), b.cend(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

/// A lock file written as text (not with our writer): canonical layout, varied shapes.
QByteArray generate(int providers, bool shuffled, quint32 seed)
{
    QRandomGenerator rng(seed);
    const char *hosts[] = {"registry.terraform.io", "registry.opentofu.org", "example.com", "mirror.example.net:8443"};
    const char *constraintForms[] = {"", ">= 1.0.0", "~> 2.1", "~> 3.0.0", ">= 1.0.0, < 10.0.0", "1.2.3"};
    QList<QByteArray> blocks;
    for (int i = 0; i < providers; ++i) {
        const QByteArray addr = QByteArray(hosts[i % 4]) + "/ns-" + QByteArray::number(i % 13) + "/type" + QByteArray::number(i);
        QByteArray b = "\nprovider \"" + addr + "\" {\n";
        QByteArray version = QByteArray::number(i % 5) + '.' + QByteArray::number(i % 17) + '.' + QByteArray::number(i % 3);
        if (i % 11 == 0)
            version += "-beta." + QByteArray::number(i % 4);
        const QByteArray constraints = constraintForms[i % 6];
        if (constraints.isEmpty()) {
            b += "  version = \"" + version + "\"\n";
        } else {
            b += "  version     = \"" + version + "\"\n";
            b += "  constraints = \"" + constraints + "\"\n";
        }
        const int hashes = i % 9 == 0 ? 0 : 1 + int(rng.bounded(13));
        if (hashes > 0) {
            QList<QByteArray> hs;
            hs << "h1:" + QCryptographicHash::hash(QByteArray(addr + "h1"), QCryptographicHash::Sha256).toBase64();
            for (int h = 1; h < hashes; ++h)
                hs << "zh:" + QCryptographicHash::hash(QByteArray(addr + QByteArray::number(h)), QCryptographicHash::Sha256).toHex();
            if (i % 10 == 3)
                hs << "test:unknown-scheme";
            std::sort(hs.begin(), hs.end());
            b += "  hashes = [\n";
            for (const QByteArray &h : hs)
                b += "    \"" + h + "\",\n";
            b += "  ]\n";
        }
        b += "}\n";
        blocks << b;
    }
    if (shuffled) {
        for (qsizetype i = blocks.size() - 1; i > 0; --i)
            std::swap(blocks[i], blocks[qsizetype(rng.bounded(quint32(i + 1)))]);
    }
    QByteArray out = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";
    for (const QByteArray &b : blocks)
        out += b;
    return out;
}

const QByteArray kTfHeader =
    "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
const QByteArray kTofuHeader = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n";
const QByteArray kBlock = "\nprovider \"registry.terraform.io/hashicorp/null\" {\n"
                          "  version     = \"3.2.1\"\n"
                          "  constraints = \"~> 3.0\"\n"
                          "  hashes = [\n"
                          "    \"h1:tSj1mL6OQ8ILGqR2mDu7OYYYWf+hoir0pf9KAQ8IzO8=\",\n"
                          "    \"zh:0dd6ee5f2e9d7c5bd2d8e15d7a07def6e1fe0d0d0d1b55e4b3bbd1c4a0c0f001\",\n"
                          "  ]\n"
                          "}\n";

} // namespace

class TestLockFastPath : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shapes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("accepted");
        const QByteArray b = kBlock;
        QTest::newRow("canonical terraform") << kTfHeader + b << true;
        QTest::newRow("canonical tofu") << kTofuHeader + QByteArray(b).replace("registry.terraform.io", "registry.opentofu.org") << true;
        QTest::newRow("header only") << kTfHeader << true;
        QTest::newRow("two blocks, reversed order") << kTfHeader + QByteArray(b).replace("/null", "/random") + b << true;
        QTest::newRow("blank lines with spaces and tabs") << kTfHeader + "  \n\t\n" + QByteArray(b).replace("  version", "\t version  ")
                + " \n" << true;
        QTest::newRow("no spaces, hashes on one line, no trailing comma")
            << kTfHeader + "provider\"registry.terraform.io/hashicorp/null\"{\nversion=\"3.2.1\"\nhashes=[\"zh:b\",\"h1:a\"]\n}\n"
            << true;
        QTest::newRow("version only") << kTfHeader + "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"1.0.0\"\n}\n"
                                      << true;
        QTest::newRow("attributes in another order, blank line inside")
            << kTfHeader + "provider \"registry.terraform.io/hashicorp/null\" {\n  hashes = [\"h1:a\"]\n\n  version = \"1.0.0\"\n}\n"
            << true;
        QTest::newRow("unsorted duplicate hashes")
            << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n  hashes = [\"zh:2\", \"h1:1\", \"zh:2\"]\n}\n"
            << true;
        QTest::newRow("prerelease and metadata")
            << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0-rc.1+x\"\n}\n"
            << true;
        QTest::newRow("host with port") << kTfHeader + "provider \"example.com:8443/a/b\" {\n  version = \"1.0.0\"\n}\n" << true;
        QTest::newRow("dollar and percent without a brace")
            << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n  hashes = [\"x:$5%\"]\n}\n"
            << true;

        // Declined: each would give a diagnostic or dropped content, or is outside the shape.
        QTest::newRow("no header") << b << false;
        QTest::newRow("header for another tool")
            << "# This file is maintained automatically by \"terraform stacks providers lock\".\n# Manual edits may be lost in future updates.\n"
                + b
            << false;
        QTest::newRow("blank line before header") << "\n" + kTfHeader + b << false;
        QTest::newRow("BOM") << "\xEF\xBB\xBF" + kTfHeader + b << false;
        QTest::newRow("CRLF") << QByteArray(kTfHeader + b).replace("\n", "\r\n") << false;
        QTest::newRow("comment in block") << kTfHeader + QByteArray(b).replace("  hashes", "  # note\n  hashes") << false;
        QTest::newRow("comment after block") << kTfHeader + b + "// end\n" << false;
        QTest::newRow("block comment") << kTfHeader + "/* x */" + b << false;
        QTest::newRow("escape in string") << kTfHeader + QByteArray(b).replace("h1:tS", "h1:\\u0074S") << false;
        QTest::newRow("template") << kTfHeader + QByteArray(b).replace("h1:tS", "h1:${x}") << false;
        QTest::newRow("escaped template") << kTfHeader + QByteArray(b).replace("h1:tS", "h1:$${x}") << false;
        QTest::newRow("non-ASCII") << kTfHeader + QByteArray(b).replace("hashicorp", "h\xC3\xA9") << false;
        QTest::newRow("uppercase address") << kTfHeader + QByteArray(b).replace("hashicorp", "HashiCorp") << false;
        QTest::newRow("two-part address") << kTfHeader + QByteArray(b).replace("registry.terraform.io/", "") << false;
        QTest::newRow("legacy namespace") << kTfHeader + QByteArray(b).replace("hashicorp", "-") << false;
        QTest::newRow("built-in provider") << kTfHeader
                + QByteArray(b).replace("registry.terraform.io/hashicorp/null", "terraform.io/builtin/terraform")
                                           << false;
        QTest::newRow("punycode host") << kTfHeader + QByteArray(b).replace("registry.terraform.io", "xn--caf-dma.fr") << false;
        QTest::newRow("duplicate provider") << kTfHeader + b + b << false;
        QTest::newRow("non-canonical version") << kTfHeader + QByteArray(b).replace("3.2.1", "3.2") << false;
        QTest::newRow("invalid version") << kTfHeader + QByteArray(b).replace("3.2.1", "v3.2.1") << false;
        QTest::newRow("non-canonical constraints") << kTfHeader + QByteArray(b).replace("~> 3.0", "~>3.0") << false;
        QTest::newRow("invalid hash") << kTfHeader + QByteArray(b).replace("h1:tSj", ":tSj") << false;
        QTest::newRow("empty hashes") << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n  hashes = []\n}\n"
                                      << false;
        QTest::newRow("missing version") << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  hashes = [\"h1:a\"]\n}\n" << false;
        QTest::newRow("unknown attribute") << kTfHeader + QByteArray(b).replace("  hashes", "  extra = \"x\"\n  hashes") << false;
        QTest::newRow("attribute twice") << kTfHeader + QByteArray(b).replace("  hashes", "  version = \"3.2.1\"\n  hashes") << false;
        QTest::newRow("module block") << kTfHeader + b + "\nmodule \"x\" {\n}\n" << false;
        QTest::newRow("nested block") << kTfHeader + QByteArray(b).replace("  hashes", "  inner {\n  }\n  hashes") << false;
        QTest::newRow("one-line block") << kTfHeader + "provider \"registry.terraform.io/a/b\" { version = \"1.0.0\" }\n" << false;
        QTest::newRow("no newline at end") << kTfHeader + b.chopped(1) << false;
        QTest::newRow("missing comma in list") << kTfHeader + QByteArray(b).replace("=\",\n", "=\"\n") << false;
        QTest::newRow("double comma") << kTfHeader + QByteArray(b).replace("=\",\n", "=\",,\n") << false;
        QTest::newRow("null version") << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = null\n}\n" << false;
        QTest::newRow("number version") << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = 1\n}\n" << false;
        QTest::newRow("heredoc") << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = <<EOT\n1.0.0\nEOT\n}\n" << false;
        QTest::newRow("second label") << kTfHeader + "provider \"registry.terraform.io/a/b\" \"x\" {\n  version = \"1.0.0\"\n}\n" << false;
        QTest::newRow("unclosed block") << kTfHeader + "provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n" << false;
        QTest::newRow("top-level attribute") << kTfHeader + "version = \"1.0.0\"\n" << false;
    }

    void shapes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, accepted);
        QCOMPARE(sameOnBothPaths(bytes), accepted);
    }

    void flavourOption()
    {
        const QByteArray bytes = kTfHeader + kBlock;
        LockParseOptions same;
        same.flavour = LockFlavour::Terraform;
        QVERIFY(sameOnBothPaths(bytes, same));
        LockParseOptions other;
        other.flavour = LockFlavour::Tofu; // the header is then dropped content
        QVERIFY(!sameOnBothPaths(bytes, other));
        QVERIFY(!parseLockFile(bytes, other).document.dropped.isEmpty());
    }

    void fixtures_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(test::sourceDir() + u"/tests/lockfile/data"_s);
        const QStringList files = dir.entryList({u"*.hcl"_s}, QDir::Files);
        QVERIFY(files.size() >= 5);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void fixtures()
    {
        QFETCH(QString, path);
        const QByteArray bytes = test::readFile(path);
        sameOnBothPaths(bytes);
        // With the standard header in front, the valid fixture is still compared (it has comments,
        // so it is declined); the invalid ones keep their diagnostics.
        sameOnBothPaths(kTfHeader + bytes);
    }

    void corpus_data()
    {
        QTest::addColumn<QString>("path");
        const QString dir = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(dir, u"lockfiles"_s);
        const QStringList files = QDir(dir).entryList({u"*.hcl"_s}, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir + u'/' + f;
    }

    void corpus()
    {
        QFETCH(QString, path);
        const QByteArray bytes = test::readFile(path);
        const bool accepted = sameOnBothPaths(bytes);
        const LockParseResult full = parseLockFileFull(bytes);
        // Every canonical ASCII file — what tofu/terraform write — takes the fast path.
        if (isCanonicalLockFile(bytes, full) && isAscii(bytes))
            QVERIFY2(accepted, "a canonical lock file was declined by the fast path");
        if (accepted) {
            ++m_corpusAccepted;
            // Writing the fast result gives the same bytes as writing the full one.
            QCOMPARE(writeLockFile(parseLockFileFast(bytes)->document), writeLockFile(full.document));
        }
        ++m_corpusFiles;
    }

    void generated_data()
    {
        QTest::addColumn<int>("providers");
        QTest::addColumn<bool>("shuffled");
        QTest::newRow("10 sorted") << 10 << false;
        QTest::newRow("300 shuffled") << 300 << true;
        QTest::newRow("3000 sorted") << 3000 << false;
        QTest::newRow("3000 shuffled") << 3000 << true;
    }

    void generated()
    {
        QFETCH(int, providers);
        QFETCH(bool, shuffled);
        const QByteArray bytes = generate(providers, shuffled, quint32(providers));
        QVERIFY(sameOnBothPaths(bytes));
        QCOMPARE(parseLockFile(bytes).document.providers.size(), providers);
    }

    /// Random mutations of valid files: both paths agree, or the fast path declines.
    void mutations_data()
    {
        QTest::addColumn<quint32>("seed");
        for (quint32 s = 1; s <= 8; ++s)
            QTest::newRow(qPrintable(u"seed %1"_s.arg(s))) << s;
    }

    void mutations()
    {
        QFETCH(quint32, seed);
        QRandomGenerator rng(seed);
        const QByteArray base =
            seed % 2 ? generate(6, seed % 4 == 1, seed) : kTfHeader + kBlock + QByteArray(kBlock).replace("/null", "/aws");
        static const char interesting[] = "\"{}[],=#/\\$%\n\r\t a0.~>-:*<!'`;\x01\x7f";
        int accepted = 0;
        int declined = 0;
        for (int round = 0; round < 600; ++round) {
            QByteArray m = base;
            const int edits = 1 + int(rng.bounded(3));
            for (int e = 0; e < edits && !m.isEmpty(); ++e) {
                const qsizetype at = qsizetype(rng.bounded(quint32(m.size())));
                switch (rng.bounded(7)) {
                case 0: m[at] = interesting[rng.bounded(quint32(sizeof interesting - 1))]; break;
                case 1: m.insert(at, interesting[rng.bounded(quint32(sizeof interesting - 1))]); break;
                case 2: m.remove(at, 1 + qsizetype(rng.bounded(3))); break;
                case 3: m[at] = char(rng.bounded(256)); break;
                case 4: { // duplicate a line
                    const qsizetype s = m.lastIndexOf('\n', at) + 1;
                    const qsizetype n = m.indexOf('\n', at);
                    if (n > s)
                        m.insert(s, m.mid(s, n - s + 1));
                    break;
                }
                case 5: { // delete a line
                    const qsizetype s = m.lastIndexOf('\n', at) + 1;
                    const qsizetype n = m.indexOf('\n', at);
                    if (n >= s)
                        m.remove(s, n - s + 1);
                    break;
                }
                default: { // change a digit or letter to a neighbour
                    const char c = m[at];
                    if ((c >= '0' && c < '9') || (c >= 'a' && c < 'z'))
                        m[at] = char(c + 1);
                    break;
                }
                }
            }
            if (sameOnBothPaths(m))
                ++accepted;
            else
                ++declined;
            if (QTest::currentTestFailed()) {
                qWarning("mutation round %d of seed %u", round, seed);
                return;
            }
        }
        qInfo("seed %u: fast path accepted %d mutants, declined %d", seed, accepted, declined);
        // Both outcomes happen (a test that always declines would prove nothing).
        QVERIFY(accepted > 0);
        QVERIFY(declined > 0);
    }

    /// The writer's output buffer grows past its estimate, and escaping still applies (expected
    /// bytes written out by hand from the rules of tofu-formats.md §1.1).
    void writerGrowsAndEscapes()
    {
        ProviderLock p;
        p.address = ProviderAddress::parse(u"registry.terraform.io/hashicorp/null"_s).value();
        p.version = Version::parse(u"1.0.0"_s).value();
        QByteArray expectedHashes;
        for (char c = 'A'; c < 'A' + 20; ++c) {
            const QByteArray value(600, c);
            p.hashes.append(HashString::parse(QString(u"test:"_s + QString::fromLatin1(value))).value());
            expectedHashes += "    \"test:" + value + "\",\n";
        }
        p.hashes.append(HashString::parse(u"test:a\"b${c}%{d}\\e"_s).value());
        expectedHashes += "    \"test:a\\\"b$${c}%%{d}\\\\e\",\n";
        LockFile doc;
        doc.flavour = LockFlavour::Terraform;
        doc.setProvider(p);
        const QByteArray expected = kTfHeader
            + "\nprovider \"registry.terraform.io/hashicorp/null\" {\n  version = \"1.0.0\"\n  hashes = [\n" + expectedHashes + "  ]\n}\n";
        QCOMPARE(writeLockFile(doc), expected);
    }

    void cleanupTestCase()
    {
        if (m_corpusFiles > 0)
            qInfo("corpus: the fast path took %d of %d files", m_corpusAccepted, m_corpusFiles);
    }

private:
    int m_corpusAccepted = 0;
    int m_corpusFiles = 0;
};

QTEST_GUILESS_MAIN(TestLockFastPath)
#include "tst_lockfastpath.moc"
