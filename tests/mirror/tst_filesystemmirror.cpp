// Scanning filesystem mirrors: both layouts, every rule of tofu-formats.md §5, symlinks, IDN host
// directories, and every anomaly kind.
//
// Expected values: the fixture and expectations of tofu/terraform's own scanner test
// (internal/getproviders/filesystem_mirror_source_test.go, rebuilt here file by file), the rules
// quoted in tofu-formats.md §5/§6, and paths the test itself created.

#include "model/mirror/FileSystemMirror.h"
#include "tests/support/MirrorFixture.h"
#include "tests/support/TestSupport.h"

#include <QCoreApplication>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

/// One line per archive: "ADDRESS VERSION PLATFORM LAYOUT RELPATH [flags]".
QStringList dump(const Catalog &c, bool withDuplicates = false)
{
    QStringList out;
    const QString prefix = c.root + QLatin1Char('/');
    auto line = [&](const Provider &p, const ProviderVersion &v, const Archive &a, const QString &tag) -> QString {
        QString s = QStringLiteral("%1 %2 %3 %4 %5")
                        .arg(p.address.toString(), v.version.toString(), a.platform.toString(), toString(a.layout),
                             a.present ? QString(a.path).remove(0, prefix.size()) : QStringLiteral("(absent:%1)").arg(a.fileName));
        if (a.declared)
            s += QStringLiteral(" declared=%1").arg(a.declared->url);
        if (a.indexedOnly)
            s += QStringLiteral(" indexed-only");
        return s + tag;
    };
    for (const Provider &p : c.providers)
        for (const ProviderVersion &v : p.versions) {
            for (const Archive &a : v.archives)
                out.append(line(p, v, a, {}));
            if (withDuplicates)
                for (const Archive &a : v.duplicates)
                    out.append(line(p, v, a, QStringLiteral(" (duplicate)")));
        }
    return out;
}

/// "kind relpath" per anomaly.
QStringList anomalies(const Catalog &c)
{
    QStringList out;
    for (const Anomaly &a : c.anomalies)
        out.append(toString(a.kind) + QLatin1Char(' ') + QString(a.path).remove(0, c.root.size() + 1));
    return out;
}

QString messageFor(const Catalog &c, AnomalyKind kind, const QString &relPath)
{
    for (const Anomaly &a : c.anomalies)
        if (a.kind == kind && a.path == c.root + QLatin1Char('/') + relPath)
            return a.message;
    return {};
}

const Anomaly *findAnomaly(const Catalog &c, AnomalyKind kind)
{
    for (const Anomaly &a : c.anomalies)
        if (a.kind == kind)
            return &a;
    return nullptr;
}

using test::scanOk;

} // namespace

class TestFileSystemMirror : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    /// terraform's fixture testdata/filesystem-mirror and the result its test expects.
    void upstreamFixture()
    {
        test::MirrorFixture m;
        const QByteArray placeholder("# This is just a placeholder file for discovery testing, not a real provider plugin.\n");
        QVERIFY(m.file(u"registry.terraform.io/-/legacy/1.0.0/linux_amd64/terraform-provider-legacy"_s, placeholder));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/2.0.0/darwin_amd64/terraform-provider-null"_s, placeholder));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/2.0.0/linux_amd64/terraform-provider-null"_s, placeholder));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/2.0.0/windows_amd64/terraform-provider-null.exe"_s, placeholder));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/terraform-provider-null_invalid.zip"_s));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/terraform-provider-null_invalid_invalid_invalid.zip"_s));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/invalid"_s));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/random/1.2.0/linux_amd64/terraform-provider-random"_s, placeholder));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/random/1.3.0/linux_amd64"_s)); // a file, not a package dir
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/random-beta/1.2.0/linux_amd64/terraform-provider-random-beta"_s, placeholder));
        QVERIFY(m.file(u"registry.terraform.io/linux_amd64/linux_amd64"_s)); // too shallow
        QVERIFY(m.file(u"tfe.example.com/AwesomeCorp/happycloud/0.1.0-alpha.2/darwin_amd64/extra-data.txt"_s));
        QVERIFY(m.file(u"tfe.example.com/AwesomeCorp/happycloud/0.1.0-alpha.2/darwin_amd64/terraform-provider-happycloud"_s, placeholder));

        const Catalog c = scanOk(m.root());
        // Providers sorted by (host, namespace, type) byte-wise; versions by precedence; archives by platform.
        QCOMPARE(
            dump(c),
            (QStringList{
                u"registry.terraform.io/-/legacy 1.0.0 linux_amd64 unpacked registry.terraform.io/-/legacy/1.0.0/linux_amd64"_s,
                u"registry.terraform.io/hashicorp/null 2.0.0 darwin_amd64 unpacked registry.terraform.io/hashicorp/null/2.0.0/darwin_amd64"_s,
                u"registry.terraform.io/hashicorp/null 2.0.0 linux_amd64 unpacked registry.terraform.io/hashicorp/null/2.0.0/linux_amd64"_s,
                u"registry.terraform.io/hashicorp/null 2.0.0 windows_amd64 unpacked registry.terraform.io/hashicorp/null/2.0.0/windows_amd64"_s,
                u"registry.terraform.io/hashicorp/null 2.1.0 linux_amd64 packed registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0_linux_amd64.zip"_s,
                u"registry.terraform.io/hashicorp/random 1.2.0 linux_amd64 unpacked registry.terraform.io/hashicorp/random/1.2.0/linux_amd64"_s,
                u"registry.terraform.io/hashicorp/random-beta 1.2.0 linux_amd64 unpacked registry.terraform.io/hashicorp/random-beta/1.2.0/linux_amd64"_s,
                u"tfe.example.com/awesomecorp/happycloud 0.1.0-alpha.2 darwin_amd64 unpacked tfe.example.com/AwesomeCorp/happycloud/0.1.0-alpha.2/darwin_amd64"_s,
            }));
        QVERIFY(c.providers.at(0).address.isLegacy());
        // What tofu skips with a warning is reported, with the reason.
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"unparseable-name registry.terraform.io/hashicorp/null/invalid"_s,
                     u"unparseable-name registry.terraform.io/hashicorp/null/terraform-provider-null_invalid.zip"_s,
                     u"unparseable-name registry.terraform.io/hashicorp/null/terraform-provider-null_invalid_invalid_invalid.zip"_s,
                     u"unparseable-name registry.terraform.io/hashicorp/random/1.3.0/linux_amd64"_s,
                     u"invalid-address registry.terraform.io/linux_amd64"_s, // namespace "linux_amd64" has an underscore
                 }));
        QVERIFY(messageFor(c, AnomalyKind::UnparseableName, u"registry.terraform.io/hashicorp/null/terraform-provider-null_invalid.zip"_s)
                    .contains(u"does not include a version number, target OS, and target architecture"_s));
        QVERIFY(messageFor(c, AnomalyKind::UnparseableName,
                           u"registry.terraform.io/hashicorp/null/terraform-provider-null_invalid_invalid_invalid.zip"_s)
                    .contains(u"invalid version"_s));

        // Sizes and metadata of what was found.
        const Archive &packed = c.providers.at(1).versions.at(1).archives.at(0);
        QCOMPARE(packed.size, qint64(QByteArray("placeholder\n").size()));
        QCOMPARE(packed.fileName, u"terraform-provider-null_2.1.0_linux_amd64.zip"_s);
        QVERIFY(packed.present);
        QVERIFY(packed.inode != 0);
        QCOMPARE(packed.modified, QFileInfo(packed.path).lastModified().toUTC());
        const Archive &happy = c.providers.at(4).versions.at(0).archives.at(0);
        QCOMPARE(happy.size, qint64(QByteArray("placeholder\n").size() + placeholder.size()));
        QCOMPARE(happy.fileName, u"darwin_amd64"_s);
        QCOMPARE(c.archiveCount(), 8);
    }

    void packedNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("expected"); // "VERSION PLATFORM" or "error: <substring>"

        QTest::newRow("canonical") << u"terraform-provider-aws_5.1.0_linux_amd64.zip"_s << u"aws"_s << u"5.1.0 linux_amd64"_s;
        QTest::newRow("case folded") << u"Terraform-Provider-AWS_5.1.0_Linux_AMD64.ZIP"_s << u"aws"_s << u"5.1.0 linux_amd64"_s;
        QTest::newRow("prerelease lower-cased")
            << u"terraform-provider-aws_5.1.0-BETA.1_linux_amd64.zip"_s << u"aws"_s << u"5.1.0-beta.1 linux_amd64"_s;
        QTest::newRow("extra parts ignored") << u"terraform-provider-null_2.1.0_linux_amd64_extra_more.zip"_s << u"null"_s
                                             << u"2.1.0 linux_amd64"_s;
        QTest::newRow("lenient version") << u"terraform-provider-null_2.0_linux_amd64.zip"_s << u"null"_s << u"2.0.0 linux_amd64"_s;
        QTest::newRow("build metadata") << u"terraform-provider-x_1.0.0+abc_linux_arm64.zip"_s << u"x"_s << u"1.0.0+abc linux_arm64"_s;
        QTest::newRow("dashed type") << u"terraform-provider-random-beta_1.2.0_linux_amd64.zip"_s << u"random-beta"_s
                                     << u"1.2.0 linux_amd64"_s;
        QTest::newRow("other provider's archive")
            << u"terraform-provider-random_1.2.0_linux_amd64.zip"_s << u"random-beta"_s << u"error: lacks the prefix"_s;
        QTest::newRow("not a zip") << u"terraform-provider-null_2.1.0_linux_amd64.tar.gz"_s << u"null"_s << u"error: suffix"_s;
        QTest::newRow("two parts") << u"terraform-provider-null_2.1.0_linux.zip"_s << u"null"_s << u"error: does not include"_s;
        QTest::newRow("v prefix") << u"terraform-provider-null_v2.1.0_linux_amd64.zip"_s << u"null"_s << u"error: invalid version"_s;
        QTest::newRow("index.json") << u"index.json"_s << u"null"_s << u"error: lacks the prefix"_s;
        QTest::newRow("staging file") << u".terraform-provider-null_2.1.0_linux_amd64.zip"_s << u"null"_s << u"error: lacks the prefix"_s;
        QTest::newRow("just the prefix") << u"terraform-provider-null_.zip"_s << u"null"_s << u"error: does not include"_s;
    }
    void packedNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, type);
        QFETCH(QString, expected);
        Result<PackedName> r = parsePackedArchiveName(name, type);
        if (expected.startsWith(u"error: "_s)) {
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.contains(expected.mid(7)), qPrintable(r.error().message));
        } else {
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
            QCOMPARE(r->version.toString() + QLatin1Char(' ') + r->platform.toString(), expected);
        }
    }

    void unpackedPlatformNotCaseFolded()
    {
        test::MirrorFixture m;
        QVERIFY(m.file(u"example.com/ns/thing/1.0/Linux_AMD64/terraform-provider-thing"_s));
        const Catalog c = scanOk(m.root());
        // Version lenient (1.0 -> 1.0.0); the platform keeps its case (it then never matches).
        QCOMPARE(dump(c), QStringList{u"example.com/ns/thing 1.0.0 Linux_AMD64 unpacked example.com/ns/thing/1.0/Linux_AMD64"_s});
        QVERIFY(c.anomalies.isEmpty());
    }

    void hostAndNamespaceDirectories()
    {
        test::MirrorFixture m;
        // Unicode host directory (what `providers mirror` writes) and its case-folded form.
        QVERIFY(m.file(u"caf\u00e9.example/acme/widget/terraform-provider-widget_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"CAF\u00c9.example/acme/widget/terraform-provider-widget_1.1.0_linux_amd64.zip"_s));
        // Punycode directory names are rejected (svchost refuses user-written xn-- labels).
        QVERIFY(m.file(u"xn--caf-dma.example/acme/widget/terraform-provider-widget_2.0.0_linux_amd64.zip"_s));
        // Case folding of host and namespace; the type too.
        QVERIFY(m.file(u"Registry.Terraform.IO/HashiCorp/AWS/terraform-provider-aws_5.0.0_linux_amd64.zip"_s));
        // Invalid namespace/type; the legacy namespace only on a default registry host.
        QVERIFY(m.file(u"registry.terraform.io/foo_bar/x/terraform-provider-x_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"registry.terraform.io/ok/a--b/terraform-provider-a--b_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"example.com/-/legacy/terraform-provider-legacy_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"registry.opentofu.org/-/legacy/terraform-provider-legacy_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"bad_host/ns/type/terraform-provider-type_1.0.0_linux_amd64.zip"_s));
        // Hidden top-level entries (a .git directory, caches) are skipped silently.
        QVERIFY(m.file(u".git/objects/ab/cdef"_s));

        const Catalog c = scanOk(m.root());
        QCOMPARE(
            dump(c),
            (QStringList{
                u"registry.opentofu.org/-/legacy 1.0.0 linux_amd64 packed registry.opentofu.org/-/legacy/terraform-provider-legacy_1.0.0_linux_amd64.zip"_s,
                u"registry.terraform.io/hashicorp/aws 5.0.0 linux_amd64 packed Registry.Terraform.IO/HashiCorp/AWS/terraform-provider-aws_5.0.0_linux_amd64.zip"_s,
                u"caf\u00e9.example/acme/widget 1.0.0 linux_amd64 packed caf\u00e9.example/acme/widget/terraform-provider-widget_1.0.0_linux_amd64.zip"_s,
                u"caf\u00e9.example/acme/widget 1.1.0 linux_amd64 packed CAF\u00c9.example/acme/widget/terraform-provider-widget_1.1.0_linux_amd64.zip"_s,
            }));
        // Sorted by the comparison (punycode) form: "registry..." < "xn--caf-dma.example".
        QCOMPARE(c.providers.last().address.hostname(), u"xn--caf-dma.example"_s);
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"invalid-address bad_host"_s,
                     u"invalid-address example.com/-"_s,
                     u"invalid-address registry.terraform.io/foo_bar"_s,
                     u"invalid-address registry.terraform.io/ok/a--b"_s,
                     u"invalid-address xn--caf-dma.example"_s,
                 }));
        QVERIFY(messageFor(c, AnomalyKind::InvalidAddress, u"example.com/-"_s).contains(u"legacy"_s));
    }

    void symlinks()
    {
        test::MirrorFixture m;
        const QString real = m.base() + u"/real"_s;
        QVERIFY(test::MirrorFixture::writeAbsolute(real + u"/example.com/foo/bar/1.0.0/linux_amd64/terraform-provider-bar"_s, {}));
        // Nested symlink to a host directory: ignored (only the base may be a symlink).
        QVERIFY(QFile::link(u"example.com"_s, real + u"/example.net"_s));
        // Symlinked packed archive (a link to a file counts) and unpacked package (a link to a dir counts).
        QVERIFY(test::MirrorFixture::writeAbsolute(m.base() + u"/store/a.zip"_s, "zip"));
        QVERIFY(QDir().mkpath(m.base() + u"/store/pkg"_s));
        QVERIFY(QFile::link(m.base() + u"/store/a.zip"_s, real + u"/example.com/foo/bar/terraform-provider-bar_2.0.0_linux_amd64.zip"_s));
        QVERIFY(QFile::link(m.base() + u"/store/pkg"_s, real + u"/example.com/foo/bar/1.0.0/darwin_arm64"_s));
        // A symlinked version directory and a symlinked provider directory are not followed.
        QVERIFY(QFile::link(u"1.0.0"_s, real + u"/example.com/foo/bar/3.0.0"_s));
        QVERIFY(QFile::link(u"bar"_s, real + u"/example.com/foo/baz"_s));
        // A broken link.
        QVERIFY(QFile::link(u"nowhere.zip"_s, real + u"/example.com/foo/bar/terraform-provider-bar_4.0.0_linux_amd64.zip"_s));
        // The mirror root itself is a symlink.
        QVERIFY(QDir(m.root()).removeRecursively());
        QVERIFY(QFile::link(real, m.root()));

        const Catalog c = scanOk(m.root());
        QCOMPARE(c.root, m.root()); // as opened, not resolved
        QCOMPARE(dump(c),
                 (QStringList{
                     u"example.com/foo/bar 1.0.0 darwin_arm64 unpacked example.com/foo/bar/1.0.0/darwin_arm64"_s,
                     u"example.com/foo/bar 1.0.0 linux_amd64 unpacked example.com/foo/bar/1.0.0/linux_amd64"_s,
                     u"example.com/foo/bar 2.0.0 linux_amd64 packed example.com/foo/bar/terraform-provider-bar_2.0.0_linux_amd64.zip"_s,
                 }));
        const Archive &linked = c.providers.at(0).versions.at(1).archives.at(0);
        QCOMPARE(linked.size, 3); // the target's size
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"unreadable-entry example.com/foo/bar/3.0.0"_s,
                     u"unreadable-entry example.com/foo/bar/terraform-provider-bar_4.0.0_linux_amd64.zip"_s,
                     u"unreadable-entry example.com/foo/baz"_s,
                     u"unreadable-entry example.net"_s,
                 }));
        QVERIFY(messageFor(c, AnomalyKind::UnreadableEntry, u"example.com/foo/bar/terraform-provider-bar_4.0.0_linux_amd64.zip"_s)
                    .contains(u"broken symbolic link"_s));
    }

    void specialFilesAreNotArchives()
    {
        test::MirrorFixture m;
        QVERIFY(m.dir(u"example.com/foo/bar"_s));
        const QByteArray fifo = QFile::encodeName(m.path(u"example.com/foo/bar/terraform-provider-bar_1.0.0_linux_amd64.zip"_s));
        QCOMPARE(::mkfifo(fifo.constData(), 0644), 0);
        const Catalog c = scanOk(m.root());
        QVERIFY(dump(c).isEmpty());
        QCOMPARE(anomalies(c), QStringList{u"unreadable-entry example.com/foo/bar/terraform-provider-bar_1.0.0_linux_amd64.zip"_s});
    }

    void duplicates()
    {
        test::MirrorFixture m;
        // Unpacked 2.1.0 comes first in walk order ("2" < "t"), so it is what installers use.
        QVERIFY(m.file(u"example.com/ns/null/2.1.0/linux_amd64/terraform-provider-null"_s));
        QVERIFY(m.file(u"example.com/ns/null/terraform-provider-null_2.1.0_linux_amd64.zip"_s));
        // Two packed copies of 3.0.0 linux_amd64: ".zip" sorts before "_extra.zip".
        QVERIFY(m.file(u"example.com/ns/null/terraform-provider-null_3.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"example.com/ns/null/terraform-provider-null_3.0.0_linux_amd64_extra.zip"_s));
        // "3.0" (lenient) is the same version as "3.0.0".
        QVERIFY(m.file(u"example.com/ns/null/terraform-provider-null_3.0_linux_amd64.zip"_s));

        const Catalog c = scanOk(m.root());
        QCOMPARE(
            dump(c, true),
            (QStringList{
                u"example.com/ns/null 2.1.0 linux_amd64 unpacked example.com/ns/null/2.1.0/linux_amd64"_s,
                u"example.com/ns/null 2.1.0 linux_amd64 packed example.com/ns/null/terraform-provider-null_2.1.0_linux_amd64.zip (duplicate)"_s,
                u"example.com/ns/null 3.0.0 linux_amd64 packed example.com/ns/null/terraform-provider-null_3.0.0_linux_amd64.zip"_s,
                u"example.com/ns/null 3.0.0 linux_amd64 packed example.com/ns/null/terraform-provider-null_3.0.0_linux_amd64_extra.zip (duplicate)"_s,
                u"example.com/ns/null 3.0.0 linux_amd64 packed example.com/ns/null/terraform-provider-null_3.0_linux_amd64.zip (duplicate)"_s,
            }));
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"duplicate-archive example.com/ns/null/terraform-provider-null_2.1.0_linux_amd64.zip"_s,
                     u"duplicate-archive example.com/ns/null/terraform-provider-null_3.0.0_linux_amd64_extra.zip"_s,
                     u"duplicate-archive example.com/ns/null/terraform-provider-null_3.0_linux_amd64.zip"_s,
                 }));
        // Only the first copy counts as an archive.
        QCOMPARE(c.archiveCount(), 2);
    }

    void indexesDeclareArchives()
    {
        test::MirrorFixture m;
        const QString p = u"registry.terraform.io/hashicorp/aws/"_s;
        QVERIFY(m.file(p + u"terraform-provider-aws_4.16.0_linux_amd64.zip"_s));
        QVERIFY(m.file(p + u"terraform-provider-aws_4.16.0_windows_amd64.zip"_s));
        QVERIFY(m.file(p + u"terraform-provider-aws_4.62.0_darwin_arm64.zip"_s));
        QVERIFY(m.file(p + u"weird name.zip"_s));
        QVERIFY(m.file(p + u"index.json"_s, "{\n  \"versions\": {\n    \"4.16.0\": {},\n    \"4.62.0\": {}\n  }\n}"));
        // 4.16.0: the terraform format; 4.62.0: ./-relative, percent-encoded, absolute and
        // unusual-file urls.
        QVERIFY(m.file(
            p + u"4.16.0.json"_s,
            "{\"archives\": {"
            "\"linux_amd64\": {\"hashes\": [\"h1:AAA=\"], \"url\": \"terraform-provider-aws_4.16.0_linux_amd64.zip\"},"
            "\"windows_amd64\": {\"hashes\": [\"h1:BBB=\", \"zh:cc\"], \"url\": \"./terraform-provider-aws_4.16.0_windows_amd64.zip\"}}}"));
        QVERIFY(m.file(
            p + u"4.62.0.json"_s,
            "{\"archives\": {"
            "\"darwin_arm64\": {\"hashes\": [\"h1:DDD=\"], \"url\": \"https://releases.example.com/terraform-provider-aws_4.62.0_darwin_arm64.zip\"},"
            "\"linux_amd64\": {\"hashes\": [\"h1:EEE=\"], \"url\": \"weird%20name.zip\"}}}"));

        const Catalog c = scanOk(m.root());
        QCOMPARE(
            dump(c),
            (QStringList{
                u"registry.terraform.io/hashicorp/aws 4.16.0 linux_amd64 packed registry.terraform.io/hashicorp/aws/terraform-provider-aws_4.16.0_linux_amd64.zip declared=terraform-provider-aws_4.16.0_linux_amd64.zip"_s,
                u"registry.terraform.io/hashicorp/aws 4.16.0 windows_amd64 packed registry.terraform.io/hashicorp/aws/terraform-provider-aws_4.16.0_windows_amd64.zip declared=./terraform-provider-aws_4.16.0_windows_amd64.zip"_s,
                u"registry.terraform.io/hashicorp/aws 4.62.0 darwin_arm64 packed registry.terraform.io/hashicorp/aws/terraform-provider-aws_4.62.0_darwin_arm64.zip declared=https://releases.example.com/terraform-provider-aws_4.62.0_darwin_arm64.zip"_s,
                u"registry.terraform.io/hashicorp/aws 4.62.0 linux_amd64 packed registry.terraform.io/hashicorp/aws/weird name.zip declared=weird%20name.zip indexed-only"_s,
            }));
        QCOMPARE(anomalies(c), QStringList{u"unparseable-name registry.terraform.io/hashicorp/aws/weird name.zip"_s});
        const ProviderVersion &v = c.providers.at(0).versions.at(0);
        QVERIFY(c.providers.at(0).hasIndex);
        QVERIFY(v.listedInIndex);
        QVERIFY(v.hasVersionIndex);
        const DeclaredArchive &d = *v.archives.at(1).declared;
        QCOMPARE(d.hashes.size(), 2);
        QCOMPARE(d.hashes.at(0).toString(), u"h1:BBB="_s);
        QCOMPARE(d.hashes.at(1).toString(), u"zh:cc"_s);
        QCOMPARE(d.indexFile, m.path(p + u"4.16.0.json"_s));
        QCOMPARE(c.providers.at(0).versions.at(1).archives.at(1).size, qint64(12));
    }

    /// Every anomaly kind the index checks produce, each with its path.
    void indexAnomalies()
    {
        test::MirrorFixture m;
        const QString p = u"example.com/acme/tool/"_s;
        QVERIFY(m.file(p + u"terraform-provider-tool_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(p + u"terraform-provider-tool_1.0.0_windows_amd64.zip"_s));
        QVERIFY(m.file(p + u"terraform-provider-tool_1.1.0_linux_amd64.zip"_s));
        QVERIFY(m.file(p + u"terraform-provider-tool_1.2.0_linux_amd64.zip"_s));
        QVERIFY(m.file(p + u"1.3.0/linux_amd64/terraform-provider-tool"_s));
        // index.json lists 1.0.0 (with a <version>.json), 1.1.0 (no 1.1.0.json), 1.3.0 and 1.4.0 (absent),
        // not 1.2.0; it also has a key that is not a version.
        QVERIFY(m.file(p + u"index.json"_s, R"({"versions": {"1.0.0": {}, "1.1.0": {}, "1.3.0": {}, "1.4.0": {}, "latest": {}}})"));
        // 1.0.0.json lists linux_amd64 (present), darwin_arm64 (absent), but not windows_amd64.
        QVERIFY(m.file(p + u"1.0.0.json"_s,
                       R"({"archives": {"linux_amd64": {"url": "terraform-provider-tool_1.0.0_linux_amd64.zip", "hashes": ["h1:x"]},)"
                       R"( "darwin_arm64": {"url": "terraform-provider-tool_1.0.0_darwin_arm64.zip", "hashes": ["nonsense"]}}})"));
        // A <version>.json that index.json does not list, and one that is malformed.
        QVERIFY(m.file(p + u"0.9.0.json"_s, R"({"archives": {}})"));
        QVERIFY(m.file(p + u"1.2.0.json"_s, "{\n  \"archives\": {\n    \"linux_amd64\": {\n  }\n"));
        // A non-canonical version file name and another json.
        QVERIFY(m.file(p + u"1.0.json"_s, "{}"));
        QVERIFY(m.file(p + u"notes.json"_s, "{}"));

        const Catalog c = scanOk(m.root());
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"stale-version-index example.com/acme/tool/0.9.0.json"_s,
                     u"malformed-json example.com/acme/tool/1.0.0.json"_s, // the invalid hash
                     u"unparseable-name example.com/acme/tool/1.0.json"_s,
                     u"malformed-json example.com/acme/tool/1.2.0.json"_s,
                     u"stale-version-index example.com/acme/tool/1.2.0.json"_s,
                     u"unparseable-name example.com/acme/tool/index.json"_s, // "latest"
                     u"index-lists-absent-version example.com/acme/tool/index.json"_s,
                     u"index-lists-absent-version example.com/acme/tool/index.json"_s,
                     u"unparseable-name example.com/acme/tool/notes.json"_s,
                     u"index-lists-absent-archive example.com/acme/tool/terraform-provider-tool_1.0.0_darwin_arm64.zip"_s,
                     u"archive-not-in-index example.com/acme/tool/terraform-provider-tool_1.0.0_windows_amd64.zip"_s,
                     u"archive-not-in-index example.com/acme/tool/terraform-provider-tool_1.1.0_linux_amd64.zip"_s,
                     u"archive-not-in-index example.com/acme/tool/terraform-provider-tool_1.2.0_linux_amd64.zip"_s,
                 }));
        const Anomaly *malformed = nullptr;
        for (const Anomaly &a : c.anomalies)
            if (a.kind == AnomalyKind::MalformedJson && a.path.endsWith(u"1.2.0.json"_s))
                malformed = &a;
        QVERIFY(malformed);
        QCOMPARE(malformed->location.line, 5); // unexpected end of input after the last line
        QCOMPARE(malformed->location.column, 1);
        QVERIFY(messageFor(c, AnomalyKind::IndexListsAbsentVersion, p + u"index.json"_s).contains(u"1.3.0"_s));
        QVERIFY(messageFor(c, AnomalyKind::ArchiveNotInIndex, p + u"terraform-provider-tool_1.1.0_linux_amd64.zip"_s)
                    .contains(u"1.1.0.json is absent"_s));
        QVERIFY(messageFor(c, AnomalyKind::ArchiveNotInIndex, p + u"terraform-provider-tool_1.2.0_linux_amd64.zip"_s)
                    .contains(u"does not list version 1.2.0"_s));
        QVERIFY(messageFor(c, AnomalyKind::ArchiveNotInIndex, p + u"terraform-provider-tool_1.0.0_windows_amd64.zip"_s)
                    .contains(u"1.0.0.json does not list windows_amd64"_s));

        // The catalog: absent archives and versions are there to be reported as missing.
        QCOMPARE(
            dump(c),
            (QStringList{
                u"example.com/acme/tool 1.0.0 darwin_arm64 packed (absent:terraform-provider-tool_1.0.0_darwin_arm64.zip) declared=terraform-provider-tool_1.0.0_darwin_arm64.zip indexed-only"_s,
                u"example.com/acme/tool 1.0.0 linux_amd64 packed example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip declared=terraform-provider-tool_1.0.0_linux_amd64.zip"_s,
                u"example.com/acme/tool 1.0.0 windows_amd64 packed example.com/acme/tool/terraform-provider-tool_1.0.0_windows_amd64.zip"_s,
                u"example.com/acme/tool 1.1.0 linux_amd64 packed example.com/acme/tool/terraform-provider-tool_1.1.0_linux_amd64.zip"_s,
                u"example.com/acme/tool 1.2.0 linux_amd64 packed example.com/acme/tool/terraform-provider-tool_1.2.0_linux_amd64.zip"_s,
                u"example.com/acme/tool 1.3.0 linux_amd64 unpacked example.com/acme/tool/1.3.0/linux_amd64"_s,
            }));
        const Provider &tool = c.providers.at(0);
        QStringList versions;
        for (const ProviderVersion &v : tool.versions)
            versions.append(v.version.toString() + (v.listedInIndex ? u" listed"_s : QString())
                            + (v.hasVersionIndex ? u" json"_s : QString()));
        QCOMPARE(versions, (QStringList{u"1.0.0 listed json"_s, u"1.1.0 listed"_s, u"1.2.0"_s, u"1.3.0 listed"_s, u"1.4.0 listed"_s}));
        // The invalid hash is not a declared hash.
        QCOMPARE(tool.versions.at(0).archives.at(0).declared->hashes.size(), 0);
        QVERIFY(findAnomaly(c, AnomalyKind::StaleVersionIndex));
    }

    void indexNamesAnotherFile()
    {
        test::MirrorFixture m;
        const QString p = u"example.com/acme/tool/"_s;
        // Installers use the unpacked copy; the index describes the packed one.
        QVERIFY(m.file(p + u"1.0.0/linux_amd64/terraform-provider-tool"_s));
        QVERIFY(m.file(p + u"terraform-provider-tool_1.0.0_linux_amd64.zip"_s));
        // The index names a missing file for windows although an archive is there.
        QVERIFY(m.file(p + u"terraform-provider-tool_1.0.0_windows_amd64.zip"_s));
        QVERIFY(m.file(p + u"index.json"_s, R"({"versions": {"1.0.0": {}}})"));
        QVERIFY(m.file(p + u"1.0.0.json"_s,
                       R"({"archives": {"linux_amd64": {"url": "terraform-provider-tool_1.0.0_linux_amd64.zip"},)"
                       R"( "windows_amd64": {"url": "renamed.zip"}}})"));
        const Catalog c = scanOk(m.root());
        QCOMPARE(
            dump(c, true),
            (QStringList{
                u"example.com/acme/tool 1.0.0 linux_amd64 unpacked example.com/acme/tool/1.0.0/linux_amd64"_s,
                u"example.com/acme/tool 1.0.0 windows_amd64 packed example.com/acme/tool/terraform-provider-tool_1.0.0_windows_amd64.zip"_s,
                u"example.com/acme/tool 1.0.0 linux_amd64 packed example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip declared=terraform-provider-tool_1.0.0_linux_amd64.zip (duplicate)"_s,
                u"example.com/acme/tool 1.0.0 windows_amd64 packed (absent:renamed.zip) declared=renamed.zip indexed-only (duplicate)"_s,
            }));
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"index-lists-absent-archive example.com/acme/tool/renamed.zip"_s,
                     u"duplicate-archive example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip"_s,
                     u"archive-not-in-index example.com/acme/tool/terraform-provider-tool_1.0.0_windows_amd64.zip"_s,
                 }));
        QVERIFY(messageFor(c, AnomalyKind::ArchiveNotInIndex, p + u"terraform-provider-tool_1.0.0_windows_amd64.zip"_s)
                    .contains(u"lists \"renamed.zip\" for windows_amd64 instead"_s));
    }

    void noIndexIsFine()
    {
        // A pure filesystem mirror needs no indexes: no index anomalies at all.
        test::MirrorFixture m;
        QVERIFY(m.file(u"example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip"_s));
        const Catalog c = scanOk(m.root());
        QVERIFY(c.anomalies.isEmpty());
        QVERIFY(!c.providers.at(0).hasIndex);
        QVERIFY(!c.providers.at(0).versions.at(0).listedInIndex);
    }

    void strayEntries()
    {
        test::MirrorFixture m;
        QVERIFY(m.file(u"README.md"_s));
        QVERIFY(m.file(u"example.com/notes.txt"_s));
        QVERIFY(m.file(u"example.com/acme/file"_s));
        QVERIFY(m.dir(u"example.com/acme/tool/latest"_s));
        QVERIFY(m.file(u"example.com/acme/tool/1.0.0/linux_amd64.zip"_s));
        QVERIFY(m.dir(u"example.com/acme/tool/1.0.0/linux-amd64"_s));
        QVERIFY(m.file(u"example.com/acme/tool/.terraform-provider-tool_1.0.0_linux_amd64.zip"_s));
        // Package contents are never inspected, however deep.
        QVERIFY(m.file(u"example.com/acme/tool/1.0.0/linux_amd64/a/b/c/d/anything"_s));
        const Catalog c = scanOk(m.root());
        QCOMPARE(anomalies(c),
                 (QStringList{
                     u"unparseable-name README.md"_s,
                     u"unparseable-name example.com/acme/file"_s,
                     u"unparseable-name example.com/acme/tool/.terraform-provider-tool_1.0.0_linux_amd64.zip"_s,
                     u"unparseable-name example.com/acme/tool/1.0.0/linux-amd64"_s,
                     u"unparseable-name example.com/acme/tool/1.0.0/linux_amd64.zip"_s,
                     u"unparseable-name example.com/acme/tool/latest"_s,
                     u"unparseable-name example.com/notes.txt"_s,
                 }));
        QVERIFY(messageFor(c, AnomalyKind::UnparseableName, u"example.com/acme/tool/.terraform-provider-tool_1.0.0_linux_amd64.zip"_s)
                    .contains(u"staging file"_s));
        QCOMPARE(dump(c), QStringList{u"example.com/acme/tool 1.0.0 linux_amd64 unpacked example.com/acme/tool/1.0.0/linux_amd64"_s});
    }

    void unreadableDirectory()
    {
        if (::geteuid() == 0) {
            // Root reads every directory whatever its mode: run this one test function again as
            // an unprivileged user (setpriv from util-linux drops all capabilities with the uid).
            const QString setpriv = QStandardPaths::findExecutable(u"setpriv"_s);
            if (setpriv.isEmpty())
                PROVENDER_SKIP(test::Missing::Platform,
                               u"running as root and setpriv (util-linux) is missing: directory permissions do not apply"_s);
            // The build tree may sit below a folder only root can enter (/root/…): run a copy of
            // this binary from a world-readable temporary folder.
            QTemporaryDir copyDir;
            QVERIFY(copyDir.isValid());
            QVERIFY(QFile::setPermissions(copyDir.path(),
                                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                                              | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther));
            const QString copy = copyDir.filePath(u"tst_filesystemmirror"_s);
            QVERIFY(QFile::copy(QCoreApplication::applicationFilePath(), copy));
            const test::ProcessRun r =
                test::runProcess(setpriv, {u"--reuid=65534"_s, u"--regid=65534"_s, u"--clear-groups"_s, copy, u"unreadableDirectory"_s},
                                 120000, QProcessEnvironment::systemEnvironment(), copyDir.path());
            QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
            QVERIFY2(r.out.contains("PASS   : TestFileSystemMirror::unreadableDirectory()"), r.out.constData());
            return;
        }
        test::MirrorFixture m;
        QVERIFY(m.file(u"example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip"_s));
        QVERIFY(m.file(u"example.com/acme/other/terraform-provider-other_1.0.0_linux_amd64.zip"_s));
        QVERIFY(QFile::setPermissions(m.path(u"example.com/acme/tool"_s), QFileDevice::WriteOwner));
        const Catalog c = scanOk(m.root());
        QFile::setPermissions(m.path(u"example.com/acme/tool"_s), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QCOMPARE(anomalies(c), QStringList{u"unreadable-entry example.com/acme/tool"_s});
        QCOMPARE(c.archiveCount(), 1);
    }

    void rootErrors()
    {
        test::MirrorFixture m;
        Result<Catalog> missing = scanFileSystemMirror(m.base() + u"/does-not-exist"_s);
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(m.file(u"plain-file"_s));
        Result<Catalog> file = scanFileSystemMirror(m.path(u"plain-file"_s));
        QVERIFY(!file.ok());
        QCOMPARE(file.error().code, ErrorCode::InvalidArgument);
        Result<Catalog> empty = scanFileSystemMirror(m.base() + u"/mirror/"_s); // trailing slash
        QVERIFY(empty.ok());
        QCOMPARE(empty->root, m.root());
    }
};

QTEST_GUILESS_MAIN(TestFileSystemMirror)
#include "tst_filesystemmirror.moc"
