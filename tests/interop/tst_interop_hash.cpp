// Our h1: of the extracted folder equals what the real terraform records.
//
// Awkward zips are laid out as a packed filesystem mirror
// (HOST/NS/TYPE/terraform-provider-TYPE_VER_OS_ARCH.zip); `terraform providers lock
// -fs-mirror=DIR -platform=...` installs (extracts) each one and writes the h1: of the
// extracted folder into .terraform.lock.hcl. For each provider the set of our h1Extracted
// values over its platforms must equal the set of h1: terraform wrote (every zip differs, so
// set equality pins each one).
//
// Findings recorded here (terraform v1.11.4, go-getter v1.7.5), each asserted below:
//  - backslashes are ordinary name characters on Unix: "dir\file" is a file of that name;
//  - "./a", "a//b", "d/./e" are cleaned like filepath.Join; "/abs/x" lands at "abs/x";
//  - duplicate names: the last entry wins (one file);
//  - directory entries, by trailing '/' or by attributes alone, make no file; a "dir/" entry
//    with data is still just a directory (Go's HashZip would refuse that zip);
//  - a symlink entry becomes a regular file whose content is the link target text;
//  - a path that is both a file and a directory ("a" and "a/b", in either order): the install
//    fails (mkdir: not a directory / open: is a directory);
//  - any ".." component (split on '/' or '\'), anywhere in a name: terraform refuses the
//    package with "entry contains '..': NAME";
//  - a zip with no entries: "empty archive"; a name with '\n': the install fails (dirhash).
// terraform never leaves the machine: the only source is the local mirror, proxies point at a
// closed port on 127.0.0.1 and the CLI config is an empty temporary file.

#include "model/hashing/PackageHashes.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ZipFixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using provender::test::ZipEntrySpec;

namespace {

const QString Host = QStringLiteral("example.com");
const QString Namespace = QStringLiteral("provender");
const QString Version = QStringLiteral("1.0.0");
const QStringList Platforms{QStringLiteral("linux_amd64"), QStringLiteral("linux_arm64"), QStringLiteral("darwin_arm64"),
                            QStringLiteral("windows_amd64")};

QByteArray noise(qsizetype size, quint32 seed)
{
    QRandomGenerator rng(seed);
    QByteArray out;
    out.reserve(size);
    while (out.size() < size) {
        if (rng.bounded(2) == 0) {
            for (int i = rng.bounded(48); i >= 0; --i)
                out.append(char(rng.bounded(256)));
        } else {
            out.append("github.com/example/terraform-provider-");
        }
    }
    out.truncate(size);
    return out;
}

/// The entries of one awkward package for one platform (index p varies content and method).
QList<ZipEntrySpec> packageEntries(const QString &type, int p)
{
    using Z = ZipEntrySpec;
    const Z::Method alt = (p % 2) ? Z::Store : Z::Deflate;
    const QByteArray binaryName = QStringLiteral("terraform-provider-%1_v%2").arg(type, Version).toUtf8();
    const QByteArray binary =
        "fake provider " + type.toUtf8() + " for " + Platforms.at(p).toUtf8() + "\n" + noise(20000 + 1000 * p, 17 * p + 1);
    QList<Z> e{Z::executable(binaryName, binary, alt)};
    const QByteArray tag = Platforms.at(p).toUtf8();
    if (type == u"dirs") {
        e << Z::directory("docs/") << Z::file("docs/README.md", "readme " + tag) << Z::directory("docs/deep/")
          << Z::directory("docs/deep/er/") << Z::file("docs/deep/er/notes.txt", tag, alt) << Z::directory("empty/");
    } else if (type == u"utf") {
        e << Z::file("données/été.txt", "é " + tag) << Z::file("🚀/🦀.bin", noise(3000, 99), alt) << Z::file("日本語", "")
          << Z::file("Ωmega", tag);
    } else if (type == u"sorting") {
        // No name may be both a file and a directory (see refusedArchives for that case).
        for (const char *n : {"a.b", "a/b", "a/b0", "a/c/d", "a-b", "A", "a b", "a_b", "a~", "ab", "a\tb", "B", "a0", "a.", "a+", "Z/a"})
            e << Z::file(n, QByteArray(n) + ' ' + tag, alt);
    } else if (type == u"mixed") {
        e << Z::file("empty-stored", "", Z::Store) << Z::file("empty-deflated", "", Z::Deflate)
          << Z::file("stored.bin", noise(70000, 5), Z::Store) << Z::file("deflated.bin", noise(70000, 6), Z::Deflate)
          << Z{"level0.bin", noise(50000, 7), Z::Deflate, 0100644, 0} << Z{"level9.bin", noise(50000, 8), Z::Deflate, 0100644, 9}
          << Z::file("platform", tag);
    } else if (type == u"dups") {
        e << Z::file("dup", "first " + tag) << Z::file("other", "o") << Z::file("dup", "second " + tag, alt) << Z::file("sub/dup", "x")
          << Z::file("sub/dup", "y " + tag);
    } else if (type == u"names") {
        e << Z::file("dir\\file.txt", "backslash " + tag) << Z::file("dir/file.txt", "slash") << Z::file("./dot", "dot")
          << Z::file("b//c", "double") << Z::file("d/./e", "inner dot") << Z::file("/abs/x", "absolute " + tag) << Z::file(".hidden", "h")
          << Z::file("fine..name", "not a dot-dot component");
    } else if (type == u"attrs") {
        e << Z{"dir-by-attributes", {}, Z::Store, 040755, 0} << Z{"link", "terraform-provider-attrs_v1.0.0", Z::Store, 0120777, 0}
          << Z{"withdata/", "data " + tag, Z::Deflate, 040755, 6} << Z::file("f", tag);
    }
    return e;
}

struct TerraformRun
{
    int exitCode = -1;
    QString output;
    QString lockFile;
};

class Workspace
{
public:
    explicit Workspace(const QTemporaryDir &tmp) : m_root(tmp.path())
    {
        for (const char *d : {"mirror", "cfg", "data", "tmp", "home"})
            QDir().mkpath(m_root + u'/' + QLatin1StringView(d));
        QFile cli(m_root + QStringLiteral("/cli.tfrc"));
        cli.open(QIODevice::WriteOnly); // empty CLI configuration
    }

    QString zipPath(const QString &type, const QString &platform) const
    {
        const QString dir = QStringLiteral("%1/mirror/%2/%3/%4").arg(m_root, Host, Namespace, type);
        QDir().mkpath(dir);
        return QStringLiteral("%1/terraform-provider-%2_%3_%4.zip").arg(dir, type, Version, platform);
    }

    TerraformRun lock(const QStringList &types, const QStringList &platforms) const
    {
        QString tf = QStringLiteral("terraform {\n  required_providers {\n");
        for (const QString &t : types)
            tf += QStringLiteral("    %1 = {\n      source  = \"%2/%3/%1\"\n      version = \"%4\"\n    }\n")
                      .arg(t, Host, Namespace, Version);
        tf += QStringLiteral("  }\n}\n");
        QFile main(m_root + QStringLiteral("/cfg/main.tf"));
        main.open(QIODevice::WriteOnly | QIODevice::Truncate);
        main.write(tf.toUtf8());
        main.close();
        QFile::remove(m_root + QStringLiteral("/cfg/.terraform.lock.hcl"));

        // terraform in the sandbox m_root (test::runTerraform: cli.tfrc, data/, home/, tmp/, no proxy).
        QProcessEnvironment extra;
        extra.insert(QStringLiteral("XDG_DATA_HOME"), m_root + QStringLiteral("/home/.local/share"));
        QStringList args{QStringLiteral("providers"), QStringLiteral("lock"), QStringLiteral("-no-color"),
                         QStringLiteral("-fs-mirror=") + m_root + QStringLiteral("/mirror")};
        for (const QString &p : platforms)
            args << QStringLiteral("-platform=") + p;
        const provender::test::ProcessRun r = provender::test::runTerraform(m_root, m_root + QStringLiteral("/cfg"), args, extra);
        TerraformRun run;
        if (!r.finished) {
            run.output = QStringLiteral("terraform did not finish in time");
            return run;
        }
        run.exitCode = r.exitCode;
        run.output = QString::fromUtf8(r.err).simplified(); // stderr, then stdout
        run.lockFile = QString::fromUtf8(provender::test::readFile(m_root + QStringLiteral("/cfg/.terraform.lock.hcl")));
        return run;
    }

private:
    QString m_root;
};

/// provider address -> its h1: hashes, from a lock file (a simple regex is enough for
/// terraform's own canonical output).
QHash<QString, QSet<QString>> lockedH1(const QString &lockFile)
{
    QHash<QString, QSet<QString>> out;
    static const QRegularExpression block(QStringLiteral("provider \"([^\"]+)\" \\{(.*?)\\n\\}"),
                                          QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression hash(QStringLiteral("\"(h1:[A-Za-z0-9+/=]+)\""));
    for (auto it = block.globalMatch(lockFile); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QSet<QString> &set = out[m.captured(1)];
        for (auto h = hash.globalMatch(m.captured(2)); h.hasNext();)
            set.insert(h.next().captured(1));
    }
    return out;
}

} // namespace

class TestInteropHash : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the h1: interop check needs the real terraform (v1.11)")); }

    void extractedH1MatchesTerraform()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        Workspace ws(tmp);
        const QStringList types{QStringLiteral("dirs"), QStringLiteral("utf"),   QStringLiteral("sorting"), QStringLiteral("mixed"),
                                QStringLiteral("dups"), QStringLiteral("names"), QStringLiteral("attrs")};
        QHash<QString, QSet<QString>> ours;
        QHash<QString, QSet<QString>> oursZipLevel;
        for (const QString &type : types) {
            for (int p = 0; p < Platforms.size(); ++p) {
                const QString path = ws.zipPath(type, Platforms.at(p));
                QString error;
                // UTF-8 flag on half the platforms: terraform reads names as bytes either way.
                QVERIFY2(provender::test::writeZip(path, packageEntries(type, p), type == u"utf" && p % 2 == 0, &error), qPrintable(error));
                const Result<PackageHashes> h = hashZip(path);
                QVERIFY2(h.ok(), qPrintable(h.ok() ? QString() : h.error().message));
                QVERIFY(h->unsafeNames.isEmpty() || type == u"names");
                QVERIFY2(h->extractionProblem.isEmpty(), qPrintable(h->extractionProblem));
                ours[type].insert(h->h1Extracted.toString());
                if (!h->h1Zip.isNull())
                    oursZipLevel[type].insert(h->h1Zip.toString());
            }
            QCOMPARE(ours[type].size(), Platforms.size());
        }

        const TerraformRun run = ws.lock(types, Platforms);
        QVERIFY2(run.exitCode == 0, qPrintable(run.output));
        const QHash<QString, QSet<QString>> locked = lockedH1(run.lockFile);
        QCOMPARE(locked.size(), types.size());
        for (const QString &type : types) {
            const QString address = QStringLiteral("%1/%2/%3").arg(Host, Namespace, type);
            QVERIFY2(locked.contains(address), qPrintable(run.lockFile));
            QCOMPARE(ours.value(type), locked.value(address));
        }
        // Where directory entries or collapsed names exist, the zip-level h1 (HashZip) is a
        // different, also legitimate value that terraform does not record here.
        for (const QString &type : {QStringLiteral("dirs"), QStringLiteral("dups"), QStringLiteral("names")})
            QVERIFY(!oursZipLevel.value(type).intersects(locked.value(QStringLiteral("%1/%2/%3").arg(Host, Namespace, type))));
        // A "withdata/" directory entry with data: Go's HashZip refuses it, we leave h1Zip null.
        QVERIFY(oursZipLevel.value(QStringLiteral("attrs")).isEmpty());
    }

    void refusedArchives_data()
    {
        QTest::addColumn<QList<ZipEntrySpec>>("extra");
        QTest::addColumn<bool>("withBinary");
        QTest::addColumn<QString>("terraformSays");
        QTest::addColumn<bool>("weHash");
        QTest::addColumn<QStringList>("unsafe");
        // Our extractionProblem for the rows we hash says the same thing terraform does.
        QTest::newRow("../evil") << QList<ZipEntrySpec>{ZipEntrySpec::file("../evil", "e")} << true
                                 << QStringLiteral("entry contains '..': ../evil") << true << QStringList{QStringLiteral("../evil")};
        QTest::newRow("a/../b") << QList<ZipEntrySpec>{ZipEntrySpec::file("a/../b", "e")} << true
                                << QStringLiteral("entry contains '..': a/../b") << true << QStringList{QStringLiteral("a/../b")};
        QTest::newRow("..\\x") << QList<ZipEntrySpec>{ZipEntrySpec::file("..\\x", "e")} << true
                               << QStringLiteral("entry contains '..': ..\\x") << true << QStringList{QStringLiteral("..\\x")};
        QTest::newRow("no entries") << QList<ZipEntrySpec>{} << false << QStringLiteral("empty archive") << true << QStringList();
        QTest::newRow("file a, then a/b") << QList<ZipEntrySpec>{ZipEntrySpec::file("a", "1"), ZipEntrySpec::file("a/b", "2")} << true
                                          << QStringLiteral("not a directory") << true << QStringList();
        QTest::newRow("a/b, then file a") << QList<ZipEntrySpec>{ZipEntrySpec::file("a/b", "2"), ZipEntrySpec::file("a", "1")} << true
                                          << QStringLiteral("is a directory") << true << QStringList();
        QTest::newRow("newline in a name") << QList<ZipEntrySpec>{ZipEntrySpec::file("a\nb", "n")} << true
                                           << QStringLiteral("could not be installed") << false << QStringList();
    }

    void refusedArchives()
    {
        QFETCH(QList<ZipEntrySpec>, extra);
        QFETCH(bool, withBinary);
        QFETCH(QString, terraformSays);
        QFETCH(bool, weHash);
        QFETCH(QStringList, unsafe);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        Workspace ws(tmp);
        const QString type = QStringLiteral("refused");
        QList<ZipEntrySpec> entries;
        if (withBinary)
            entries << ZipEntrySpec::executable("terraform-provider-refused_v1.0.0", "bin");
        entries << extra;
        const QString path = ws.zipPath(type, Platforms.first());
        QVERIFY(provender::test::writeZip(path, entries));

        const Result<PackageHashes> h = hashZip(path);
        QCOMPARE(h.ok(), weHash);
        if (h.ok()) {
            QCOMPARE(h->unsafeNames, unsafe);
            QVERIFY2(!h->extractionProblem.isEmpty(), "terraform refuses this archive; extractionProblem must say so");
            if (terraformSays.startsWith(u"entry contains") || terraformSays == u"empty archive")
                QCOMPARE(h->extractionProblem, terraformSays);
        } else
            QCOMPARE(h.error().message, QStringLiteral("dirhash: filenames with newlines are not supported"));

        const TerraformRun run = ws.lock({type}, {Platforms.first()});
        QVERIFY2(run.exitCode != 0, qPrintable(run.output));
        QVERIFY2(run.output.contains(terraformSays), qPrintable(run.output));
    }
};

QTEST_GUILESS_MAIN(TestInteropHash)
#include "tst_interop_hash.moc"
