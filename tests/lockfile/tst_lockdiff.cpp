// LockDiff and the unified text diff. Provenance expectations come from Python's hashes of the
// fixture archives (make_lock_mirror.py); the text diff is checked against GNU `diff -u` where
// the edit is unambiguous, and on random edits by applying it with GNU `patch`.

#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockWriter.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/LockMirrorFixture.h"

#include "tests/support/LockTestSupport.h"
#include "tests/support/TestSupport.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

QString summarize(const LockDiff &d)
{
    QStringList out;
    for (const ProviderDiff &p : d.providers) {
        QString s = p.address.type() + u' ' + toString(p.change);
        if (p.constraintsChanged())
            s += u" constraints"_s;
        s += u" +%1 -%2 =%3"_s.arg(p.hashesAdded.size()).arg(p.hashesRemoved.size()).arg(p.hashesKept);
        out << s;
    }
    return out.join(u"; "_s);
}

} // namespace

class TestLockDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void semantic()
    {
        LockFile a, b;
        a.setProvider(test::providerLock("example.test/ns/kept", "1.0.0", "", {u"h1:x"_s}));
        a.setProvider(test::providerLock("example.test/ns/gone", "1.0.0"));
        a.setProvider(test::providerLock("example.test/ns/up", "1.0.0", "~> 1.0", {u"h1:old"_s, u"zh:same"_s}));
        a.setProvider(test::providerLock("example.test/ns/down", "2.0.0"));
        a.setProvider(test::providerLock("example.test/ns/cons", "1.0.0", ">= 1.0.0"));
        a.setProvider(test::providerLock("example.test/ns/meta", "1.0.0+a"));
        b.setProvider(test::providerLock("example.test/ns/kept", "1.0.0", "", {u"h1:x"_s}));
        b.setProvider(test::providerLock("example.test/ns/new", "0.1.0", "", {u"h1:n"_s}));
        b.setProvider(test::providerLock("example.test/ns/up", "1.2.0", "~> 1.2", {u"h1:new"_s, u"zh:same"_s}));
        b.setProvider(test::providerLock("example.test/ns/down", "1.9.9"));
        b.setProvider(test::providerLock("example.test/ns/cons", "1.0.0", ">= 1.0.0, < 2.0.0"));
        b.setProvider(test::providerLock("example.test/ns/meta", "1.0.0+b"));
        const LockDiff d = diffLockFiles(a, b);
        QCOMPARE(summarize(d),
                 u"cons changed constraints +0 -0 =0; down downgraded +0 -0 =0; gone removed +0 -0 =0; "
                 "kept unchanged +0 -0 =1; meta changed +0 -0 =0; new added +1 -0 =0; "
                 "up upgraded constraints +1 -1 =1"_s);
        QVERIFY(!d.isEmpty());
        QCOMPARE(d.count(ProviderDiff::Change::Upgraded), 1);
        const ProviderDiff &up = d.providers.last();
        QCOMPARE(up.oldVersion->toString(), u"1.0.0"_s);
        QCOMPARE(up.newVersion->toString(), u"1.2.0"_s);
        QCOMPARE(up.oldConstraints, u"~> 1.0"_s);
        QCOMPARE(up.newConstraints, u"~> 1.2"_s);
        QCOMPARE(up.hashesAdded[0].hash.toString(), u"h1:new"_s);
        QCOMPARE(up.hashesAdded[0].scheme(), u"h1:"_s);
        QCOMPARE(up.hashesRemoved[0].hash.toString(), u"h1:old"_s);
        QVERIFY(up.hashesAdded[0].provenance.isEmpty());

        QVERIFY(diffLockFiles(a, a).isEmpty());
        LockFile other = a;
        other.flavour = LockFlavour::Terraform;
        const LockDiff flavourOnly = diffLockFiles(a, other);
        QVERIFY(flavourOnly.isEmpty()); // the header is not a semantic change
        QVERIFY(flavourOnly.oldFlavour != flavourOnly.newFlavour);
    }

    void provenance()
    {
        test::LockMirrorFixture fixture({
            {"example.test/ns/widget", "1.0.0", "linux_amd64"},
            {"example.test/ns/widget", "1.0.0", "darwin_arm64", false, true},
            {"example.test/ns/widget", "1.1.0", "linux_amd64"},
        });
        if (!fixture.error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + fixture.error()));
        const Result<Catalog> catalog = scanFileSystemMirror(fixture.root());
        QVERIFY(catalog.ok());
        const QString linuxH1 = fixture.expected("example.test/ns/widget", "1.0.0", "linux_amd64", "h1");
        const QString linuxZh = fixture.expected("example.test/ns/widget", "1.0.0", "linux_amd64", "zh");
        const QString darwinH1 = fixture.expected("example.test/ns/widget", "1.0.0", "darwin_arm64", "h1");
        const QString darwinZipH1 = fixture.expected("example.test/ns/widget", "1.0.0", "darwin_arm64", "h1_zip");
        const QString newH1 = fixture.expected("example.test/ns/widget", "1.1.0", "linux_amd64", "h1");
        QVERIFY(darwinH1 != darwinZipH1); // the zip has a directory entry (§3.3)

        LockFile a, b;
        a.setProvider(test::providerLock("example.test/ns/widget", "1.0.0", "", {linuxH1, linuxZh, darwinZipH1, u"h1:nobody"_s}));
        b.setProvider(test::providerLock("example.test/ns/widget", "1.1.0", "", {newH1, darwinH1}));
        const HashProvenanceIndex index = HashProvenanceIndex::build(catalog.value(), HashProvenanceIndex::wantedFor(a, b));
        QVERIFY(index.failures().isEmpty());
        const LockDiff d = diffLockFiles(a, b, &index);
        QCOMPARE(d.providers.size(), 1);
        const ProviderDiff &p = d.providers[0];
        QVERIFY(p.change == ProviderDiff::Change::Upgraded);
        auto describe = [](const HashChange &c) {
            QStringList parts;
            for (const HashProvenance &h : c.provenance)
                parts << u"%1 %2 %3"_s.arg(h.version.toString(), h.platform.toString(), toString(h.origin));
            return parts.isEmpty() ? u"unknown"_s : parts.join(u", "_s);
        };
        QMap<QString, QString> got;
        for (const HashChange &c : p.hashesAdded)
            got[u"+"_s + c.hash.toString()] = describe(c);
        for (const HashChange &c : p.hashesRemoved)
            got[u"-"_s + c.hash.toString()] = describe(c);
        QMap<QString, QString> want;
        want[u"+"_s + newH1] = u"1.1.0 linux_amd64 h1 (extracted)"_s;
        want[u"+"_s + darwinH1] = u"1.0.0 darwin_arm64 h1 (extracted)"_s;
        want[u"-"_s + linuxH1] = u"1.0.0 linux_amd64 h1 (extracted)"_s;
        want[u"-"_s + linuxZh] = u"1.0.0 linux_amd64 zh"_s;
        want[u"-"_s + darwinZipH1] = u"1.0.0 darwin_arm64 h1 (zip)"_s;
        want[u"-h1:nobody"_s] = u"unknown"_s;
        QCOMPARE(got, want);
    }

    void provenanceFromSha256Sums()
    {
        // A release's SHA256SUMS names the platform of each zh: (issue 19 item 5). Only lines for
        // this provider's archives of this version count; a platform the archive itself already
        // gave for the same hash is not listed twice. The list is written here by hand in the
        // format of the spec (tofu-formats.md §12): "<64 hex>  <file name>".
        test::LockMirrorFixture fixture({{"example.test/ns/widget", "1.0.0", "linux_amd64"}});
        if (!fixture.error().isEmpty())
            QFAIL(qPrintable(u"fixture: "_s + fixture.error()));
        const Result<Catalog> catalog = scanFileSystemMirror(fixture.root());
        QVERIFY(catalog.ok());
        const QString linuxZh = fixture.expected("example.test/ns/widget", "1.0.0", "linux_amd64", "zh");
        const QByteArray linuxHex = linuxZh.mid(3).toLatin1();
        const QByteArray darwinHex = QByteArray(64, 'd'), windowsHex = QByteArray(64, 'e'), otherHex = QByteArray(64, 'f');
        const QByteArray sums = linuxHex + "  terraform-provider-widget_1.0.0_linux_amd64.zip\n" + darwinHex
            + "  terraform-provider-widget_1.0.0_darwin_arm64.zip\n" + windowsHex + "  terraform-provider-widget_1.0.0_windows_amd64.zip\n"
            + otherHex + "  terraform-provider-widget_1.0.0_manifest.json\n"    // not an archive
            + otherHex + "  terraform-provider-gadget_1.0.0_linux_arm64.zip\n"  // another type
            + otherHex + "  terraform-provider-widget_1.1.0_linux_arm64.zip\n"; // another version
        LockFile a, b;
        a.setProvider(test::providerLock("example.test/ns/widget", "1.0.0"));
        b.setProvider(test::providerLock("example.test/ns/widget", "1.0.0", "",
                                         {linuxZh, u"zh:"_s + QString::fromLatin1(darwinHex), u"zh:"_s + QString::fromLatin1(otherHex)}));
        const auto wanted = HashProvenanceIndex::wantedFor(a, b);
        HashProvenanceIndex index = HashProvenanceIndex::build(catalog.value(), wanted);
        const ProviderAddress widget = ProviderAddress::parse(u"example.test/ns/widget"_s).value();
        QCOMPARE(index.addSha256Sums(widget, Version::parse(u"1.0.0"_s).value(), sums, u"/sums"_s, u"signed by key ID ABC"_s), 2);
        // Twice: nothing new.
        QCOMPARE(index.addSha256Sums(widget, Version::parse(u"1.0.0"_s).value(), sums, u"/sums"_s, u"signed by key ID ABC"_s), 0);
        // Not a checksums file at all (one line is not "<hex> <name>"): nothing.
        QCOMPARE(index.addSha256Sums(widget, Version::parse(u"1.0.0"_s).value(), sums + "garbage\n", u"/other"_s, {}), 0);

        const QList<HashProvenance> linux = index.lookup(widget, HashString::parse(linuxZh).value());
        QCOMPARE(linux.size(), 1);
        QCOMPARE(toString(linux.at(0).origin), u"zh"_s); // from the archive, not repeated from the list
        const QList<HashProvenance> darwin =
            index.lookup(widget, HashString::parse(QString(u"zh:"_s + QString::fromLatin1(darwinHex))).value());
        QCOMPARE(darwin.size(), 1);
        QCOMPARE(darwin.at(0).platform.toString(), u"darwin_arm64"_s);
        QCOMPARE(toString(darwin.at(0).origin), u"zh (SHA256SUMS)"_s);
        QCOMPARE(darwin.at(0).archivePath, u"/sums"_s);
        QCOMPARE(darwin.at(0).note, u"signed by key ID ABC"_s);
        QVERIFY(index.lookup(widget, HashString::parse(QString(u"zh:"_s + QString::fromLatin1(otherHex))).value()).isEmpty());
        QCOMPARE(index.lookup(widget, HashString::parse(QString(u"zh:"_s + QString::fromLatin1(windowsHex))).value()).size(), 1);

        const LockDiff d = diffLockFiles(a, b, &index);
        QCOMPARE(d.providers.size(), 1);
        QCOMPARE(d.providers[0].hashesAdded.size(), 3);
    }

    void unifiedAgainstGnuDiff_data()
    {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QByteArray base;
        for (int i = 1; i <= 30; ++i)
            base += "line " + QByteArray::number(i) + "\n";
        auto edit = [&](std::function<void(QList<QByteArray> &)> f) {
            QList<QByteArray> lines = base.split('\n');
            lines.removeLast();
            f(lines);
            return QByteArray(lines.join('\n') + '\n');
        };
        QTest::newRow("one change") << base << edit([](auto &l) { l[14] = "changed"; });
        QTest::newRow("two far changes") << base << edit([](auto &l) {
            l[2] = "x";
            l[25] = "y";
        });
        QTest::newRow("two near changes") << base << edit([](auto &l) {
            l[10] = "x";
            l[15] = "y";
        });
        QTest::newRow("insert at start") << base << edit([](auto &l) { l.prepend("new"); });
        QTest::newRow("delete at end") << base << edit([](auto &l) {
            l.removeLast();
            l.removeLast();
        });
        QTest::newRow("insert block") << base << edit([](auto &l) {
            l.insert(20, "a");
            l.insert(20, "b");
        });
        QTest::newRow("no final newline") << base << base.chopped(1);
        QTest::newRow("from empty") << QByteArray() << QByteArray("a\nb\n");
        QTest::newRow("to empty") << QByteArray("a\nb\n") << QByteArray();
        QTest::newRow("lock upgrade") << QByteArray("# h\n\nprovider \"a\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"h1:a\",\n  ]\n}\n")
                                      << QByteArray(
                                             "# h\n\nprovider \"a\" {\n  version = \"1.1.0\"\n  hashes = [\n    \"h1:b\",\n  ]\n}\n");
    }

    void unifiedAgainstGnuDiff()
    {
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(u"a"_s), a) && test::writeFile(dir.filePath(u"b"_s), b));
        QProcess p;
        p.start(u"diff"_s, {u"-u"_s, u"--label"_s, u"old"_s, u"--label"_s, u"new"_s, dir.filePath(u"a"_s), dir.filePath(u"b"_s)});
        if (!p.waitForStarted())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("GNU diff is not installed"));
        QVERIFY(p.waitForFinished());
        QCOMPARE(unifiedDiff(a, b, u"old"_s, u"new"_s), QString::fromUtf8(p.readAllStandardOutput()));
    }

    void unifiedAppliesWithPatch()
    {
        QRandomGenerator rng(7);
        QTemporaryDir dir;
        for (int round = 0; round < 60; ++round) {
            QList<QByteArray> lines;
            const int n = rng.bounded(40);
            for (int i = 0; i < n; ++i)
                lines << QByteArray(1, char('a' + rng.bounded(4))); // many repeated lines: ambiguous
            QList<QByteArray> other = lines;
            const int edits = rng.bounded(8);
            for (int e = 0; e < edits; ++e) {
                const int pos = other.isEmpty() ? 0 : rng.bounded(int(other.size()));
                switch (rng.bounded(3)) {
                case 0: other.insert(pos, QByteArray(1, char('a' + rng.bounded(5)))); break;
                case 1:
                    if (!other.isEmpty())
                        other.removeAt(pos);
                    break;
                case 2:
                    if (!other.isEmpty())
                        other[pos] = "z";
                    break;
                }
            }
            const QByteArray a = lines.isEmpty() ? QByteArray() : lines.join('\n') + '\n';
            const QByteArray b = other.isEmpty() ? QByteArray() : other.join('\n') + (rng.bounded(4) == 0 ? "" : "\n");
            const QString patchText = unifiedDiff(a, b, u"a"_s, u"b"_s);
            if (a == b) {
                QVERIFY(patchText.isEmpty());
                continue;
            }
            const QString target = dir.filePath(u"file"_s);
            QVERIFY(test::writeFile(target, a));
            QProcess p;
            p.start(u"patch"_s, {u"-s"_s, u"-f"_s, target});
            if (!p.waitForStarted())
                PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("GNU patch is not installed"));
            p.write(patchText.toUtf8());
            p.closeWriteChannel();
            QVERIFY(p.waitForFinished());
            QVERIFY2(p.exitCode() == 0, qPrintable(patchText + QString::fromUtf8(p.readAllStandardError())));
            QFile f(target);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), b);
        }
    }
};

QTEST_GUILESS_MAIN(TestLockDiff)
#include "tst_lockdiff.moc"
