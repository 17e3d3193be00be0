// Index export: the files `terraform providers mirror` would write, rebuilt from the archives.
//
// Expected values are computed by Python in the test, independently of our code: the zips are
// written by Python's zipfile, their h1: (Go's dirhash.HashZip, tofu-formats.md §3.3) and zh:
// computed with hashlib, and the expected JSON bytes rendered by json.dumps(indent=2,
// sort_keys=True), which for these ASCII documents produces exactly Go's MarshalIndent output.
// The selection rules (last packed copy wins, unpacked-only providers get {"versions": {}}) are
// terraform's (providers_mirror.go, tofu-formats.md §4); tests/interop checks them against the
// real terraform.

#include "model/mirror/IndexWriter.h"
#include "tests/support/MirrorFixture.h"
#include "tests/support/TestSupport.h"

#include <QDirIterator>
#include <QStandardPaths>
#include <QTest>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

struct ZipHashes
{
    QString h1;
    QString zh;
};

/// Writes zips with Python; returns path -> hashes. `spec` = {path: entries}.
QHash<QString, ZipHashes> makeZips(const QList<QPair<QString, QStringList>> &spec)
{
    QStringList args;
    for (const auto &[path, entries] : spec) {
        QDir().mkpath(QFileInfo(path).path());
        args << path << entries << u"--"_s;
    }
    QString error;
    const QByteArray out = test::runPythonCode(QString::fromUtf8(test::kZipWriterPy), args, &error);
    QHash<QString, ZipHashes> result;
    if (out.isNull()) {
        qWarning("python failed: %s", qPrintable(error));
        return result;
    }
    for (const QByteArray &line : out.split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        if (f.size() == 3)
            result.insert(QString::fromUtf8(f.at(0)), {QString::fromUtf8(f.at(1)), QString::fromUtf8(f.at(2))});
    }
    return result;
}

/// json.dumps(json.loads(compact), indent=2, sort_keys=True), without a final newline.
QByteArray pythonRender(const QByteArray &compact)
{
    return test::runPythonCode(u"import json, sys; sys.stdout.write(json.dumps(json.loads(sys.argv[1]), indent=2, sort_keys=True))"_s,
                               {QString::fromUtf8(compact)});
}

QByteArray readAll(const QString &path)
{
    return test::readFile(path);
}

QStringList statuses(const IndexExportReport &r, const QString &root)
{
    QStringList out;
    for (const IndexFileResult &f : r.files)
        out.append(toString(f.status) + QLatin1Char(' ') + QString(f.path).remove(0, root.size() + 1));
    return out;
}

QStringList changes(const IndexExportReport &r, const QString &root)
{
    QStringList out;
    for (const IndexEntryChange &c : r.changes)
        out.append(QStringLiteral("%1 %2 %3 %4")
                       .arg(toString(c.kind), QString(c.file).remove(0, root.size() + 1), c.version, c.platform)
                       .trimmed());
    return out;
}

QStringList hiddenLeftovers(const QString &root)
{
    QStringList out;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        if (QFileInfo(p).fileName().contains(u".provender-"_s))
            out.append(p);
    }
    return out;
}

} // namespace

class TestIndexWriter : public QObject
{
    Q_OBJECT

    QString nullDir;
    QString templateDir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the hash cache under ~/.qttest, not the user's
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it builds the zips and computes the expected hashes independently"));
    }

    /// The e2e layout of tofu-formats.md §4: null 2.1.0 and template 2.1.1 on two platforms.
    void exportMatchesProvidersMirror()
    {
        test::MirrorFixture m;
        nullDir = m.path(u"registry.terraform.io/hashicorp/null"_s);
        templateDir = m.path(u"registry.terraform.io/hashicorp/template"_s);
        const QString nl = nullDir + u"/terraform-provider-null_2.1.0_linux_amd64.zip"_s;
        const QString nw = nullDir + u"/terraform-provider-null_2.1.0_windows_386.zip"_s;
        const QString tl = templateDir + u"/terraform-provider-template_2.1.1_linux_amd64.zip"_s;
        const QString tw = templateDir + u"/terraform-provider-template_2.1.1_windows_386.zip"_s;
        const auto h = makeZips({{nl, {u"terraform-provider-null_v2.1.0_x4"_s}},
                                 {nw, {u"terraform-provider-null_v2.1.0_x4.exe"_s}},
                                 {tl, {u"terraform-provider-template_v2.1.1_x4"_s, u"docs/"_s, u"docs/README.md=<&>"_s}},
                                 {tw, {u"terraform-provider-template_v2.1.1_x4.exe"_s}}});
        QCOMPARE(h.size(), 4);
        QVERIFY(m.file(u"README.txt"_s, "unrelated\n"));
        QVERIFY(m.file(u"registry.terraform.io/hashicorp/null/NOTES"_s, "unrelated\n"));

        qint64 lastDone = -1, lastTotal = -1;
        bool monotonic = true;
        Result<IndexExportReport> r = exportIndexes(m.root(), {}, [&](qint64 done, qint64 total) {
            monotonic = monotonic && done >= lastDone && done <= total;
            lastDone = done;
            lastTotal = total;
            return true;
        });
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
        QVERIFY(monotonic);
        const qint64 totalSize = QFileInfo(nl).size() + QFileInfo(nw).size() + QFileInfo(tl).size() + QFileInfo(tw).size();
        QCOMPARE(lastTotal, totalSize);
        QCOMPARE(lastDone, totalSize);
        QCOMPARE(r->archivesHashed, 4);
        QCOMPARE(r->bytesHashed, totalSize);
        QCOMPARE(r->providersIndexed, 2);
        QVERIFY(r->hashFailures.isEmpty());
        QVERIFY(r->skipped.isEmpty());
        QVERIFY(r->staleVersionFiles.isEmpty());

        // The exact file set of the e2e test plus our two unrelated files, nothing else.
        QStringList files;
        QDirIterator it(m.root(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next().mid(m.root().size() + 1));
        files.sort();
        QCOMPARE(files,
                 (QStringList{
                     u"README.txt"_s,
                     u"registry.terraform.io/hashicorp/null/2.1.0.json"_s,
                     u"registry.terraform.io/hashicorp/null/NOTES"_s,
                     u"registry.terraform.io/hashicorp/null/index.json"_s,
                     u"registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0_linux_amd64.zip"_s,
                     u"registry.terraform.io/hashicorp/null/terraform-provider-null_2.1.0_windows_386.zip"_s,
                     u"registry.terraform.io/hashicorp/template/2.1.1.json"_s,
                     u"registry.terraform.io/hashicorp/template/index.json"_s,
                     u"registry.terraform.io/hashicorp/template/terraform-provider-template_2.1.1_linux_amd64.zip"_s,
                     u"registry.terraform.io/hashicorp/template/terraform-provider-template_2.1.1_windows_386.zip"_s,
                 }));

        QCOMPARE(readAll(nullDir + u"/index.json"_s), pythonRender(R"({"versions": {"2.1.0": {}}})"));
        // <version>.json of a linux_amd64 and a windows_386 zip, as Python renders it.
        const auto versionJson = [&](const QString &linuxZip, const QString &windowsZip) {
            return pythonRender(
                QStringLiteral(
                    R"({"archives": {"linux_amd64": {"hashes": ["%1"], "url": "%2"}, "windows_386": {"hashes": ["%3"], "url": "%4"}}})")
                    .arg(h[linuxZip].h1, QFileInfo(linuxZip).fileName(), h[windowsZip].h1, QFileInfo(windowsZip).fileName())
                    .toUtf8());
        };
        QCOMPARE(readAll(nullDir + u"/2.1.0.json"_s), versionJson(nl, nw));
        QCOMPARE(readAll(templateDir + u"/2.1.1.json"_s), versionJson(tl, tw));
        QVERIFY(!readAll(nullDir + u"/index.json"_s).endsWith('\n'));
        QCOMPARE(readAll(m.path(u"README.txt"_s)), QByteArray("unrelated\n"));
        QCOMPARE(QFile::permissions(nullDir + u"/index.json"_s),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser | QFileDevice::ReadGroup
                     | QFileDevice::ReadOther);
        QVERIFY(hiddenLeftovers(m.root()).isEmpty());
        QCOMPARE(statuses(r.value(), m.root()),
                 (QStringList{
                     u"created registry.terraform.io/hashicorp/null/index.json"_s,
                     u"created registry.terraform.io/hashicorp/null/2.1.0.json"_s,
                     u"created registry.terraform.io/hashicorp/template/index.json"_s,
                     u"created registry.terraform.io/hashicorp/template/2.1.1.json"_s,
                 }));
        QCOMPARE(changes(r.value(), m.root()),
                 (QStringList{
                     u"added registry.terraform.io/hashicorp/null/index.json 2.1.0"_s,
                     u"added registry.terraform.io/hashicorp/null/2.1.0.json 2.1.0 linux_amd64"_s,
                     u"added registry.terraform.io/hashicorp/null/2.1.0.json 2.1.0 windows_386"_s,
                     u"added registry.terraform.io/hashicorp/template/index.json 2.1.1"_s,
                     u"added registry.terraform.io/hashicorp/template/2.1.1.json 2.1.1 linux_amd64"_s,
                     u"added registry.terraform.io/hashicorp/template/2.1.1.json 2.1.1 windows_386"_s,
                 }));

        // A zip with a directory entry is indexed with its zip-level h1:, which then differs
        // from the extracted folder's (what the Python reference computes without the entry).
        const QByteArray extracted = test::runPythonCode(
            u"import zipfile, hashlib, base64, sys\n"
            "z = zipfile.ZipFile(sys.argv[1])\n"
            "names = sorted((i.filename for i in z.infolist() if not i.filename.endswith('/')), key=lambda n: n.encode())\n"
            "s = ''.join('%s  %s\\n' % (hashlib.sha256(z.read(n)).hexdigest(), n) for n in names).encode()\n"
            "sys.stdout.write('h1:' + base64.b64encode(hashlib.sha256(s).digest()).decode())"_s,
            {tl});
        QVERIFY(!extracted.isEmpty());
        QVERIFY(QString::fromUtf8(extracted) != h[tl].h1);

        // Second run: nothing to do, files untouched.
        const QDateTime before = QFileInfo(nullDir + u"/2.1.0.json"_s).lastModified();
        QTest::qSleep(20);
        Result<IndexExportReport> again = exportIndexes(m.root(), {});
        QVERIFY(again.ok());
        QCOMPARE(again->writtenCount(), 0);
        QVERIFY(again->changes.isEmpty());
        QCOMPARE(QFileInfo(nullDir + u"/2.1.0.json"_s).lastModified(), before);
    }

    void mergeDryRunAndStale()
    {
        test::MirrorFixture m;
        const QString dir = m.path(u"example.com/acme/tool"_s);
        const QString a = dir + u"/terraform-provider-tool_1.0.0_linux_amd64.zip"_s;
        const QString b = dir + u"/terraform-provider-tool_1.0.0_darwin_arm64.zip"_s;
        auto h = makeZips({{a, {u"terraform-provider-tool_v1.0.0"_s}}, {b, {u"terraform-provider-tool_v1.0.0=mac"_s}}});
        QVERIFY(exportIndexes(m.root(), {}).ok());

        // Add 1.1.0, remove darwin 1.0.0, and change linux 1.0.0's bytes.
        const QString c = dir + u"/terraform-provider-tool_1.1.0_linux_amd64.zip"_s;
        const QString oldLinuxHash = h[a].h1;
        QVERIFY(QFile::remove(b));
        QVERIFY(QFile::remove(a));
        h.insert(makeZips({{c, {u"terraform-provider-tool_v1.1.0"_s}}, {a, {u"terraform-provider-tool_v1.0.0=rebuilt"_s}}}));
        const QByteArray oldIndex = readAll(dir + u"/index.json"_s);
        const QByteArray old100 = readAll(dir + u"/1.0.0.json"_s);

        IndexExportOptions dry;
        dry.dryRun = true;
        Result<IndexExportReport> preview = exportIndexes(m.root(), dry);
        QVERIFY(preview.ok());
        QVERIFY(preview->dryRun);
        QCOMPARE(changes(preview.value(), m.root()),
                 (QStringList{
                     u"added example.com/acme/tool/index.json 1.1.0"_s,
                     u"changed example.com/acme/tool/1.0.0.json 1.0.0 linux_amd64"_s,
                     u"removed example.com/acme/tool/1.0.0.json 1.0.0 darwin_arm64"_s,
                     u"added example.com/acme/tool/1.1.0.json 1.1.0 linux_amd64"_s,
                 }));
        QCOMPARE(statuses(preview.value(), m.root()),
                 (QStringList{
                     u"updated example.com/acme/tool/index.json"_s,
                     u"updated example.com/acme/tool/1.0.0.json"_s,
                     u"created example.com/acme/tool/1.1.0.json"_s,
                 }));
        const IndexEntryChange &changed = preview->changes.at(1);
        QVERIFY(oldLinuxHash != h[a].h1);
        QVERIFY2(changed.before.contains(oldLinuxHash), qPrintable(changed.before));
        QVERIFY2(changed.after.contains(h[a].h1), qPrintable(changed.after));
        // Nothing was written.
        QCOMPARE(readAll(dir + u"/index.json"_s), oldIndex);
        QCOMPARE(readAll(dir + u"/1.0.0.json"_s), old100);
        QVERIFY(!QFile::exists(dir + u"/1.1.0.json"_s));

        Result<IndexExportReport> r = exportIndexes(m.root(), {});
        QVERIFY(r.ok());
        QCOMPARE(r->writtenCount(), 3);
        QCOMPARE(readAll(dir + u"/index.json"_s), pythonRender(R"({"versions": {"1.0.0": {}, "1.1.0": {}}})"));
        QCOMPARE(readAll(dir + u"/1.0.0.json"_s),
                 pythonRender(QStringLiteral(R"({"archives": {"linux_amd64": {"hashes": ["%1"], "url": "%2"}}})")
                                  .arg(h[a].h1, QFileInfo(a).fileName())
                                  .toUtf8()));

        // All 1.0.0 archives gone: 1.0.0.json stays (like providers mirror) and is reported stale.
        QVERIFY(QFile::remove(a));
        r = exportIndexes(m.root(), {});
        QVERIFY(r.ok());
        QCOMPARE(r->staleVersionFiles, QStringList{dir + u"/1.0.0.json"_s});
        QVERIFY(QFile::exists(dir + u"/1.0.0.json"_s));
        QCOMPARE(readAll(dir + u"/index.json"_s), pythonRender(R"({"versions": {"1.1.0": {}}})"));
        QCOMPARE(changes(r.value(), m.root()), QStringList{u"removed example.com/acme/tool/index.json 1.0.0"_s});
    }

    void withZh()
    {
        test::MirrorFixture m;
        const QString a = m.path(u"example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip"_s);
        const auto h = makeZips({{a, {u"terraform-provider-tool_v1.0.0"_s}}});
        IndexExportOptions o;
        o.withZh = true;
        o.jobs = 1;
        QVERIFY(exportIndexes(m.root(), o).ok());
        QCOMPARE(readAll(m.path(u"example.com/acme/tool/1.0.0.json"_s)),
                 pythonRender(QStringLiteral(R"({"archives": {"linux_amd64": {"hashes": ["%1", "%2"], "url": "%3"}}})")
                                  .arg(h[a].h1, h[a].zh, QFileInfo(a).fileName())
                                  .toUtf8()));
    }

    void layoutEdgeCases()
    {
        test::MirrorFixture m;
        // A provider with only unpacked packages gets {"versions": {}}.
        QVERIFY(m.file(u"example.com/acme/unpacked/1.0.0/linux_amd64/terraform-provider-unpacked"_s));
        // Several packed copies of one version/platform: the last in walk order is indexed; the
        // unpacked copy that installers prefer is ignored by the index.
        const QString dir = m.path(u"example.com/acme/dup"_s);
        QVERIFY(m.file(u"example.com/acme/dup/1.0.0/linux_amd64/terraform-provider-dup"_s));
        const QString first = dir + u"/terraform-provider-dup_1.0.0_linux_amd64.zip"_s;
        const QString last = dir + u"/terraform-provider-dup_1.0.0_linux_amd64_extra.zip"_s;
        const QString upper = dir + u"/Terraform-Provider-Dup_1.0.0_linux_amd64.zip"_s;
        // A file that is not a zip: left out, reported, the rest still written.
        QVERIFY(m.file(u"example.com/acme/dup/terraform-provider-dup_2.0.0_linux_amd64.zip"_s, "not a zip"));
        // A differently spelled provider directory: not indexed (clients use the canonical one).
        const QString odd = m.path(u"example.com/Acme/odd/terraform-provider-odd_1.0.0_linux_amd64.zip"_s);
        const auto h = makeZips({{first, {u"a"_s}}, {last, {u"b"_s}}, {upper, {u"c"_s}}, {odd, {u"d"_s}}});
        QCOMPARE(h.size(), 4);

        Result<IndexExportReport> r = exportIndexes(m.root(), {});
        QVERIFY(r.ok());
        QCOMPARE(readAll(m.path(u"example.com/acme/unpacked/index.json"_s)), QByteArray("{\n  \"versions\": {}\n}"));
        QVERIFY(!QFile::exists(m.path(u"example.com/acme/unpacked/1.0.0.json"_s)));
        QCOMPARE(readAll(dir + u"/index.json"_s), pythonRender(R"({"versions": {"1.0.0": {}}})"));
        QCOMPARE(readAll(dir + u"/1.0.0.json"_s),
                 pythonRender(QStringLiteral(R"({"archives": {"linux_amd64": {"hashes": ["%1"], "url": "%2"}}})")
                                  .arg(h[last].h1, QFileInfo(last).fileName())
                                  .toUtf8()));
        QVERIFY(!QFile::exists(dir + u"/2.0.0.json"_s));
        QCOMPARE(r->hashFailures.size(), 1);
        QCOMPARE(r->hashFailures.at(0).path, dir + u"/terraform-provider-dup_2.0.0_linux_amd64.zip"_s);
        QCOMPARE(r->skipped.size(), 1);
        QVERIFY(r->skipped.at(0).message.contains(u"example.com/acme/odd"_s));
        QVERIFY(!QFile::exists(m.path(u"example.com/Acme/odd/index.json"_s)));
        QVERIFY(!QFile::exists(m.path(u"example.com/acme/odd"_s)));
    }

    void cancel()
    {
        test::MirrorFixture m;
        const QString a = m.path(u"example.com/acme/tool/terraform-provider-tool_1.0.0_linux_amd64.zip"_s);
        const QString b = m.path(u"example.com/acme/tool/terraform-provider-tool_1.0.0_windows_amd64.zip"_s);
        QCOMPARE(makeZips({{a, {u"x"_s}}, {b, {u"y"_s}}}).size(), 2);
        Result<IndexExportReport> r = exportIndexes(m.root(), {}, [](qint64, qint64) { return false; });
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Cancelled);
        QVERIFY(!QFile::exists(m.path(u"example.com/acme/tool/index.json"_s)));
        QVERIFY(hiddenLeftovers(m.root()).isEmpty());
    }

    void errors()
    {
        test::MirrorFixture m;
        Result<IndexExportReport> r = exportIndexes(m.base() + u"/missing"_s, {});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::NotFound);
        // An empty mirror: nothing to do, not an error.
        r = exportIndexes(m.root(), {});
        QVERIFY(r.ok());
        QVERIFY(r->files.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestIndexWriter)
#include "tst_indexwriter.moc"
