// Bundles end to end: create (every writable format) -> verify in place -> import into an empty and
// into a non-empty mirror, compared with the source tree. Expected values come from elsewhere:
// the fixture mirror, its h1:/zh: and the index documents `terraform providers mirror` writes are
// computed by Python (tests/bundle/fixtures.py: zipfile + hashlib + json); each bundle is unpacked
// with the system's tar/unzip and checked with `sha256sum -c`.

#include "BundleTestSupport.h"

#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleWriter.h"
#include "model/mirror/FileSystemMirror.h"

#include "tests/support/TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace provender::test;

namespace {

const QDateTime kTimestamp(QDate(2024, 5, 6), QTime(7, 8, 9), Qt::UTC);

struct ExpectedArchive
{
    QString provider, version, platform, layout, path, h1, zh;
};

bool unpack(const QString &bundle, BundleFormat format, const QString &into, QString *output)
{
    QDir().mkpath(into);
    switch (format) {
    case BundleFormat::TarGz:
        return runTool(QStringLiteral("tar"), {QStringLiteral("-xzf"), bundle, QStringLiteral("-C"), into}, {}, output);
    case BundleFormat::TarZst:
        return runTool(QStringLiteral("tar"), {QStringLiteral("--zstd"), QStringLiteral("-xf"), bundle, QStringLiteral("-C"), into}, {},
                       output);
    case BundleFormat::Zip: return runTool(QStringLiteral("unzip"), {QStringLiteral("-q"), bundle, QStringLiteral("-d"), into}, {}, output);
    default: return false;
    }
}

QStringList filesUnder(const QString &root)
{
    QStringList out;
    const QMap<QString, QString> s = snapshot(root);
    for (auto it = s.cbegin(); it != s.cend(); ++it)
        if (!it.value().startsWith(QLatin1StringView("dir")))
            out.append(it.key());
    return out;
}

void writeOrFail(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(content), content.size());
}

bool copyTree(const QString &from, const QString &to)
{
    return runTool(QStringLiteral("cp"), {QStringLiteral("-a"), from, to});
}

} // namespace

class TestBundle : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_source;
    QList<ExpectedArchive> m_archives;
    QMap<QString, QString> m_indexH1;   ///< index document -> bytes (h1 only, as providers mirror)
    QMap<QString, QString> m_indexH1Zh; ///< index document -> bytes (h1 then zh, as a bundle writes)
    int m_counter = 0;

    QString fresh(const QString &name) { return m_tmp.path() + QStringLiteral("/%1-%2").arg(name).arg(++m_counter); }

    Result<BundleCreateReport> makeBundle(const QString &out, BundleFormat format)
    {
        Result<Catalog> catalog = scanFileSystemMirror(m_source);
        if (!catalog)
            return catalog.error();
        BundleCreateOptions options;
        options.format = format;
        options.timestamp = kTimestamp;
        options.useCache = false;
        return createBundle(out, selectAll(catalog.value()), options);
    }

    /// The imported mirror must hold exactly the source's archives and the regenerated indexes.
    void checkImportedTree(const QString &dir, const QStringList &extraFiles = {}) { checkTree(dir, m_indexH1, extraFiles); }

    /// `dir` holds exactly the source's archives (the same bytes; unpacked ones with their
    /// executable), the index documents `indexes` and `extraFiles`; `*files` gets that list.
    void checkTree(const QString &dir, const QMap<QString, QString> &indexes, const QStringList &extraFiles, QStringList *files = nullptr)
    {
        QStringList expected = extraFiles;
        for (const ExpectedArchive &a : std::as_const(m_archives)) {
            if (a.layout == u"packed") {
                expected.append(a.path);
                QCOMPARE(readFile(dir + u'/' + a.path), readFile(m_source + u'/' + a.path));
            } else {
                for (const QString &f : filesUnder(m_source + u'/' + a.path)) {
                    expected.append(a.path + u'/' + f);
                    QCOMPARE(readFile(dir + u'/' + a.path + u'/' + f), readFile(m_source + u'/' + a.path + u'/' + f));
                }
                QVERIFY(QFileInfo(dir + u'/' + a.path + QStringLiteral("/terraform-provider-gamma_v2.0.0")).isExecutable());
            }
        }
        for (auto it = indexes.cbegin(); it != indexes.cend(); ++it) {
            expected.append(it.key());
            QCOMPARE(QString::fromUtf8(readFile(dir + u'/' + it.key())), it.value());
        }
        QStringList actual = filesUnder(dir);
        actual.sort();
        expected.sort();
        if (files)
            *files = expected;
        QCOMPARE(actual, expected);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("the fixture mirror and its expected hashes come from Python"));
        m_source = m_tmp.path() + QStringLiteral("/source");
        QString error;
        const QByteArray json = runFixture({QStringLiteral("mirror"), m_source}, &error);
        QVERIFY2(!json.isNull(), qPrintable(error));
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        for (const QJsonValue &v : o.value(QStringLiteral("archives")).toArray()) {
            const QJsonObject a = v.toObject();
            m_archives.append({a[QStringLiteral("provider")].toString(), a[QStringLiteral("version")].toString(),
                               a[QStringLiteral("platform")].toString(), a[QStringLiteral("layout")].toString(),
                               a[QStringLiteral("path")].toString(), a[QStringLiteral("h1")].toString(),
                               a[QStringLiteral("zh")].toString()});
        }
        const QJsonObject indexes = o.value(QStringLiteral("indexes")).toObject();
        for (auto it = indexes.constBegin(); it != indexes.constEnd(); ++it) {
            m_indexH1.insert(it.key(), it.value().toObject().value(QStringLiteral("h1")).toString());
            m_indexH1Zh.insert(it.key(), it.value().toObject().value(QStringLiteral("h1zh")).toString());
        }
        QCOMPARE(m_archives.size(), 6);
    }

    void roundTrip_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("tar.gz") << int(BundleFormat::TarGz);
        QTest::newRow("tar.zst") << int(BundleFormat::TarZst);
        QTest::newRow("zip") << int(BundleFormat::Zip);
    }

    void roundTrip()
    {
        QFETCH(int, format);
        const BundleFormat f = BundleFormat(format);
        const QString out = fresh(QStringLiteral("bundle")) + QStringLiteral(".") + toString(f);
        Result<BundleCreateReport> created = makeBundle(out, f);
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().toString()));
        QCOMPARE(created->manifest.archives.size(), m_archives.size());
        QVERIFY(created->missing.isEmpty());

        // --- what other tools see in it
        const QString unpacked = fresh(QStringLiteral("unpacked"));
        QString output;
        QVERIFY2(unpack(out, f, unpacked, &output), qPrintable(output));
        QVERIFY2(runTool(QStringLiteral("sha256sum"), {QStringLiteral("-c"), QStringLiteral("--strict"), QStringLiteral("SHA256SUMS")},
                         unpacked, &output),
                 qPrintable(output));
        // The archives (unpacked ones compared file by file too), the indexes with zh:, SHA256SUMS
        // and the manifest.
        QStringList expectedFiles;
        checkTree(unpacked, m_indexH1Zh, {QString(kBundleSumsName), QString(kBundleManifestName)}, &expectedFiles);
        if (QTest::currentTestFailed())
            return;
        Result<BundleManifest> manifest = parseBundleManifest(readFile(unpacked + u'/' + kBundleManifestName));
        QVERIFY(manifest.ok());
        QCOMPARE(manifest->created, kTimestamp);
        QCOMPARE(manifest->generator, QStringLiteral("Provender " PROVENDER_VERSION));
        QCOMPARE(manifest->sourceMirror, m_source);
        QCOMPARE(manifest->selection, QStringLiteral("all"));
        for (const BundleManifestArchive &a : manifest->archives) {
            const auto it =
                std::find_if(m_archives.cbegin(), m_archives.cend(), [&](const ExpectedArchive &e) { return e.path == a.path; });
            QVERIFY2(it != m_archives.cend(), qPrintable(a.path));
            QCOMPARE(a.h1, it->h1);
            QCOMPARE(a.zh, it->zh);
        }

        // --- reproducible: the same selection and time give the same bytes
        const QString again = fresh(QStringLiteral("again")) + QStringLiteral(".") + toString(f);
        QVERIFY(makeBundle(again, f).ok());
        QCOMPARE(readFile(again), readFile(out));

        // --- verified in place
        Result<BundleContents> verified = verifyBundle(out);
        QVERIFY2(verified.ok(), qPrintable(verified.ok() ? QString() : verified.error().toString()));
        QCOMPARE(int(verified->format), int(f));
        QVERIFY(verified->problems.isEmpty());
        QVERIFY(verified->hasSha256Sums);
        QVERIFY(verified->manifest.has_value());
        QCOMPARE(int(verified->catalog.sourceKind), int(Catalog::SourceKind::Bundle));
        // The only anomaly: gamma (unpacked packages only) has an index.json without versions, which
        // terraform reads as "provider not found" when the bundle's mirror is served (docs/VERDICTS.md).
        QCOMPARE(verified->catalog.anomalies.size(), 1);
        QCOMPARE(toString(verified->catalog.anomalies.first().kind), QStringLiteral("provider-unavailable"));
        QVERIFY(verified->catalog.anomalies.first().path.contains(QLatin1String("gamma/index.json")));
        QCOMPARE(verified->results.size(), m_archives.size());
        for (const ArchiveResult &r : verified->results) {
            QCOMPARE(toString(r.detail.verdict), QStringLiteral("verified"));
            const QString entry = verified->entryName(r.path);
            const auto it = std::find_if(m_archives.cbegin(), m_archives.cend(), [&](const ExpectedArchive &e) { return e.path == entry; });
            QVERIFY2(it != m_archives.cend(), qPrintable(r.path));
            QCOMPARE(r.key.provider.toString(), it->provider);
            QCOMPARE(r.key.version.toString(), it->version);
            QCOMPARE(r.key.platform.toString(), it->platform);
            QVERIFY(r.hashes.has_value());
            QCOMPARE(r.hashes->h1Extracted.toString(), it->h1);
            if (it->layout == u"packed")
                QCOMPARE(r.hashes->zh.toString(), it->zh);
        }
        QCOMPARE(verified->files.size(), expectedFiles.size() - 1); // every file but SHA256SUMS
        for (const BundleFileCheck &file : verified->files)
            QCOMPARE(toString(file.status), QStringLiteral("ok"));
        QVERIFY(!verified->hasFindings());

        // --- imported into an empty mirror
        const QString empty = fresh(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        Result<ImportReport> imported = importBundle(out, empty);
        QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        QCOMPARE(imported->count(ImportAction::Kind::Add), m_archives.size());
        checkImportedTree(empty);

        // --- imported into a mirror that already has some of it, and something else
        const QString busy = fresh(QStringLiteral("busy"));
        const ExpectedArchive &first = m_archives.first();
        writeOrFail(busy + u'/' + first.path, readFile(m_source + u'/' + first.path));
        const QString other = QStringLiteral("example.org/other/delta/terraform-provider-delta_9.9.9_linux_amd64.zip");
        writeOrFail(busy + u'/' + other,
                    readFile(m_source + QStringLiteral("/example.com/acme/beta/terraform-provider-beta_0.1.0_linux_amd64.zip")));
        writeOrFail(busy + QStringLiteral("/README.txt"), "not part of any provider\n");
        const QMap<QString, QString> before = snapshot(busy);
        imported = importBundle(out, busy);
        QVERIFY2(imported.ok(), qPrintable(imported.ok() ? QString() : imported.error().toString()));
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        QCOMPARE(imported->count(ImportAction::Kind::Unchanged), 1);
        QCOMPARE(imported->count(ImportAction::Kind::Add), m_archives.size() - 1);
        checkImportedTree(busy, {other, QStringLiteral("README.txt")});
        const QMap<QString, QString> after = snapshot(busy);
        for (const QString &untouched : {other, QStringLiteral("README.txt"), first.path})
            QCOMPARE(after.value(untouched), before.value(untouched));
        // the unrelated provider got no index (nothing of it changed)
        QVERIFY(!QFile::exists(busy + QStringLiteral("/example.org/other/delta/index.json")));

        // --- a second import of the same bundle changes nothing
        const QMap<QString, QString> settled = snapshot(busy);
        imported = importBundle(out, busy);
        QVERIFY(imported.ok());
        QVERIFY(!imported->committed);
        QCOMPARE(imported->count(ImportAction::Kind::Unchanged), m_archives.size());
        QCOMPARE(snapshotDiff(settled, snapshot(busy)), QString());
    }

    void openWithoutVerifying()
    {
        const QString out = fresh(QStringLiteral("open")) + QStringLiteral(".tar.gz");
        QVERIFY(makeBundle(out, BundleFormat::TarGz).ok());
        Result<BundleContents> opened = openBundle(out);
        QVERIFY(opened.ok());
        QVERIFY(!opened->verified);
        QVERIFY(opened->results.isEmpty());
        QCOMPARE(opened->catalog.archiveCount(), m_archives.size());
        QCOMPARE(opened->mirrorPrefix, QString());
        // Paths name entries inside the bundle.
        for (const Provider &p : opened->catalog.providers)
            for (const ProviderVersion &v : p.versions)
                for (const Archive &a : v.archives) {
                    QString bundle, entry;
                    QVERIFY(splitBundleEntryPath(a.path, &bundle, &entry));
                    QCOMPARE(bundle, opened->path);
                    QVERIFY(std::any_of(m_archives.cbegin(), m_archives.cend(), [&](const ExpectedArchive &e) { return e.path == entry; }));
                    QVERIFY(a.declared.has_value() || a.layout == ArchiveLayout::Unpacked);
                }
    }

    void lockFileSelection()
    {
        const auto find = [&](const QString &provider, const QString &version, const QString &platform) {
            return *std::find_if(m_archives.cbegin(), m_archives.cend(), [&](const ExpectedArchive &e) {
                return e.provider == provider && e.version == version && e.platform == platform;
            });
        };
        const ExpectedArchive alpha =
            find(QStringLiteral("registry.terraform.io/hashicorp/alpha"), QStringLiteral("1.1.0"), QStringLiteral("linux_amd64"));
        const QString lock = fresh(QStringLiteral("lock")) + QStringLiteral(".hcl");
        writeOrFail(lock,
                    QStringLiteral(
                        "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n\n"
                        "provider \"example.com/acme/beta\" {\n  version = \"0.1.0\"\n}\n\n"
                        "provider \"example.com/acme/missing\" {\n  version = \"1.0.0\"\n}\n\n"
                        "provider \"registry.terraform.io/hashicorp/alpha\" {\n  version = \"1.1.0\"\n  hashes = [\n    \"%1\",\n  ]\n}\n")
                        .arg(alpha.h1)
                        .toUtf8());
        Result<Catalog> catalog = scanFileSystemMirror(m_source);
        QVERIFY(catalog.ok());
        const QList<Platform> platforms = {Platform::parse(u"linux_amd64").value(), Platform::parse(u"windows_amd64").value()};
        Result<BundleSelection> selection = selectForLockFiles(catalog.value(), {lock}, platforms);
        QVERIFY2(selection.ok(), qPrintable(selection.ok() ? QString() : selection.error().toString()));
        QStringList paths;
        for (const BundleItem &i : selection->items)
            paths.append(i.bundlePath);
        QCOMPARE(paths, QStringList({QStringLiteral("example.com/acme/beta/terraform-provider-beta_0.1.0_linux_amd64.zip"), alpha.path}));
        QStringList missing;
        for (const BundleShortfall &s : selection->missing)
            missing.append(QStringLiteral("%1 %2 %3").arg(s.provider.toString(), s.version.toString(), s.platform.toString()));
        missing.sort();
        QCOMPARE(missing,
                 QStringList({QStringLiteral("example.com/acme/beta 0.1.0 windows_amd64"),
                              QStringLiteral("example.com/acme/missing 1.0.0 linux_amd64"),
                              QStringLiteral("example.com/acme/missing 1.0.0 windows_amd64"),
                              QStringLiteral("registry.terraform.io/hashicorp/alpha 1.1.0 windows_amd64")}));

        const QString out = fresh(QStringLiteral("locked")) + QStringLiteral(".tar.zst");
        BundleCreateOptions options;
        options.format = BundleFormat::TarZst;
        options.useCache = false;
        Result<BundleCreateReport> created = createBundle(out, selection.value(), options);
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().toString()));
        QCOMPARE(created->manifest.missing.size(), 4);
        QCOMPARE(created->manifest.selection, QStringLiteral("lock-files"));
        QString listing;
        QVERIFY(runTool(QStringLiteral("tar"), {QStringLiteral("--zstd"), QStringLiteral("-tf"), out}, {}, &listing));
        QStringList zips;
        for (const QString &line : listing.split(u'\n'))
            if (line.endsWith(QLatin1StringView(".zip")))
                zips.append(line);
        QCOMPARE(zips, paths);
        Result<BundleContents> verified = verifyBundle(out);
        QVERIFY(verified.ok());
        QVERIFY(!verified->hasFindings());
        QCOMPARE(verified->manifest->missing.size(), 4);

        // A lock file whose hash the archive does not have: nothing is written.
        const QString wrong = fresh(QStringLiteral("wrong")) + QStringLiteral(".hcl");
        writeOrFail(wrong,
                    QStringLiteral("provider \"registry.terraform.io/hashicorp/alpha\" {\n  version = \"1.1.0\"\n  hashes = [\n"
                                   "    \"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\n  ]\n}\n")
                        .toUtf8());
        selection = selectForLockFiles(catalog.value(), {wrong}, platforms);
        QVERIFY(selection.ok());
        const QString refused = fresh(QStringLiteral("refused")) + QStringLiteral(".tar.gz");
        created = createBundle(refused, selection.value(), {});
        QVERIFY(!created.ok());
        QCOMPARE(int(created.error().code), int(ErrorCode::InvalidArgument));
        QVERIFY2(created.error().message.contains(alpha.path.section(u'/', -1)), qPrintable(created.error().message));
        QVERIFY(!QFile::exists(refused));
        QCOMPARE(QDir(m_tmp.path()).entryList({QStringLiteral("refused*")}, QDir::Files | QDir::Hidden).size(), 0);
    }

    void underTopLevelFolder()
    {
        const QString out = fresh(QStringLiteral("inner")) + QStringLiteral(".zip");
        QVERIFY(makeBundle(out, BundleFormat::Zip).ok());
        const QString wrapped = fresh(QStringLiteral("wrapped")) + QStringLiteral(".tar.gz");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("retar"), out, wrapped, QStringLiteral("my-bundle")}, &error).isNull(), qPrintable(error));
        Result<BundleContents> verified = verifyBundle(wrapped);
        QVERIFY(verified.ok());
        QCOMPARE(verified->mirrorPrefix, QStringLiteral("my-bundle/"));
        QCOMPARE(verified->summary.count(Verdict::Verified), m_archives.size());
        QVERIFY(!verified->hasFindings());
        const QString target = fresh(QStringLiteral("from-wrapped"));
        Result<ImportReport> imported = importBundle(wrapped, target); // created: its parent exists
        QVERIFY(imported.ok());
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        checkImportedTree(target);
    }

    void plainTarOfAMirror()
    {
        // A bundle made by hand with tar: no manifest, no SHA256SUMS; only the indexes declare hashes.
        const QString out = fresh(QStringLiteral("plain")) + QStringLiteral(".tar.gz");
        QVERIFY(runTool(QStringLiteral("tar"), {QStringLiteral("-czf"), out, QStringLiteral("-C"), m_source, QStringLiteral(".")}));
        Result<BundleContents> verified = verifyBundle(out);
        QVERIFY(verified.ok());
        QVERIFY(!verified->hasSha256Sums);
        QVERIFY(!verified->manifest.has_value());
        int alpha = 0;
        for (const ArchiveResult &r : verified->results) {
            const bool indexed = r.key.provider.type() == u"alpha";
            alpha += indexed;
            QCOMPARE(toString(r.detail.verdict), indexed ? QStringLiteral("verified") : QStringLiteral("unverified"));
        }
        QCOMPARE(alpha, 4);
        const QString target = fresh(QStringLiteral("plain-target"));
        QVERIFY(QDir().mkpath(target));
        Result<ImportReport> imported = importBundle(out, target);
        QVERIFY(imported.ok());
        QVERIFY(!imported->committed);
        QCOMPARE(imported->count(ImportAction::Kind::Rejected), 2);
        QVERIFY(imported->refusal.contains(QLatin1StringView("allow-unverified")));
        QCOMPARE(snapshot(target).size(), 0);
        ImportOptions options;
        options.allowUnverified = true;
        imported = importBundle(out, target, options);
        QVERIFY(imported.ok());
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        checkImportedTree(target);
    }

    void zipThatNeedsTheWholeFile()
    {
        // A provider zip with bytes before its first local header (a self-extracting stub) cannot
        // be hashed in one pass; verify spools that one entry and lets hashZip() decide. Python's
        // zipfile reads it like Go does (offsets from the end), so its h1 stays the same.
        const QString mirror = fresh(QStringLiteral("sfx"));
        QVERIFY(copyTree(m_source, mirror));
        const ExpectedArchive &victim = m_archives.at(1);
        const QString path = mirror + u'/' + victim.path;
        writeOrFail(path, QByteArray("#!/bin/sh\nexit 0\n") + readFile(path));
        const QString out = fresh(QStringLiteral("sfx")) + QStringLiteral(".tar.gz");
        QVERIFY(runTool(QStringLiteral("tar"), {QStringLiteral("-czf"), out, QStringLiteral("-C"), mirror, QStringLiteral(".")}));
        Result<BundleContents> verified = verifyBundle(out);
        QVERIFY(verified.ok());
        const auto r = std::find_if(verified->results.cbegin(), verified->results.cend(),
                                    [&](const ArchiveResult &a) { return verified->entryName(a.path) == victim.path; });
        QVERIFY(r != verified->results.cend());
        QVERIFY(r->hashes.has_value());
        QCOMPARE(r->hashes->h1Zip.toString(), victim.h1);
        QCOMPARE(toString(r->detail.verdict), QStringLiteral("verified"));
        QVERIFY(r->hashes->zh.toString() != victim.zh); // the stub changed the bytes
    }

    void selectionFromTheBrowser()
    {
        Result<Catalog> catalog = scanFileSystemMirror(m_source);
        QVERIFY(catalog.ok());
        const ExpectedArchive &a = m_archives.at(0);
        const ExpectedArchive &b = m_archives.at(5); // the unpacked package
        const QList<ArchiveKey> keys = {
            ArchiveKey{ProviderAddress::parse(a.provider).value(), Version::parse(a.version).value(), Platform::parse(a.platform).value()},
            ArchiveKey{ProviderAddress::parse(b.provider).value(), Version::parse(b.version).value(), Platform::parse(b.platform).value()},
            ArchiveKey{ProviderAddress::parse(a.provider).value(), Version::parse(u"9.9.9").value(), Platform::parse(a.platform).value()},
        };
        const BundleSelection selection = selectArchives(catalog.value(), keys);
        QCOMPARE(selection.items.size(), 2);
        QCOMPARE(selection.missing.size(), 1);
        QCOMPARE(selection.missing.first().version.toString(), QStringLiteral("9.9.9"));
        const QString out = fresh(QStringLiteral("selected")) + QStringLiteral(".zip");
        BundleCreateOptions options;
        options.format = BundleFormat::Zip;
        options.useCache = false;
        Result<BundleCreateReport> created = createBundle(out, selection, options);
        QVERIFY(created.ok());
        QCOMPARE(created->manifest.selection, QStringLiteral("selection"));
        Result<BundleContents> verified = verifyBundle(out);
        QVERIFY(verified.ok());
        QCOMPARE(verified->results.size(), 2);
        QVERIFY(!verified->hasFindings());
    }

    void tampered()
    {
        const QString out = fresh(QStringLiteral("good")) + QStringLiteral(".tar.gz");
        QVERIFY(makeBundle(out, BundleFormat::TarGz).ok());
        const QString victim = m_archives.at(2).path;
        const QString bad = fresh(QStringLiteral("tampered")) + QStringLiteral(".tar.gz");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("tamper"), out, bad, victim}, &error).isNull(), qPrintable(error));
        Result<BundleContents> verified = verifyBundle(bad);
        QVERIFY(verified.ok());
        QVERIFY(verified->hasFindings());
        for (const ArchiveResult &r : verified->results)
            QCOMPARE(toString(r.detail.verdict),
                     verified->entryName(r.path) == victim ? QStringLiteral("mismatch") : QStringLiteral("verified"));
        const auto file =
            std::find_if(verified->files.cbegin(), verified->files.cend(), [&](const BundleFileCheck &f) { return f.name == victim; });
        QVERIFY(file != verified->files.cend());
        QCOMPARE(toString(file->status), QStringLiteral("mismatch"));

        const QString target = fresh(QStringLiteral("tamper-target"));
        QVERIFY(copyTree(m_source, target));
        const QMap<QString, QString> before = snapshot(target);
        for (const bool dry : {true, false}) {
            ImportOptions options;
            options.dryRun = dry;
            Result<ImportReport> imported = importBundle(bad, target, options);
            QVERIFY(imported.ok());
            QVERIFY(imported->blocked());
            QVERIFY(!imported->committed);
            QCOMPARE(imported->count(ImportAction::Kind::Rejected), 1);
            QVERIFY(imported->refusal.contains(victim));
            QCOMPARE(snapshotDiff(before, snapshot(target)), QString());
        }
    }

    void conflictAndReplace()
    {
        const QString out = fresh(QStringLiteral("c")) + QStringLiteral(".tar.gz");
        QVERIFY(makeBundle(out, BundleFormat::TarGz).ok());
        const QString target = fresh(QStringLiteral("conflict-target"));
        const QString path = m_archives.at(1).path;
        writeOrFail(target + u'/' + path, "a different file with the same name\n");
        const QMap<QString, QString> before = snapshot(target);
        Result<ImportReport> imported = importBundle(out, target);
        QVERIFY(imported.ok());
        QVERIFY(!imported->committed);
        QCOMPARE(imported->count(ImportAction::Kind::Conflict), 1);
        QVERIFY(imported->refusal.contains(path));
        QCOMPARE(snapshotDiff(before, snapshot(target)), QString());

        // The same platform and version under another (valid) name is a conflict too.
        const QString renamed = fresh(QStringLiteral("renamed-target"));
        const QString upper = path.section(u'/', 0, 2) + u'/'
            + path.section(u'/', -1).replace(QStringLiteral("terraform-provider"), QStringLiteral("TERRAFORM-PROVIDER"));
        writeOrFail(renamed + u'/' + upper, "another file for the same platform\n");
        imported = importBundle(out, renamed);
        QVERIFY(imported.ok());
        QVERIFY(!imported->committed);
        QCOMPARE(imported->count(ImportAction::Kind::Conflict), 1);

        ImportOptions options;
        options.replace = true;
        imported = importBundle(out, target, options);
        QVERIFY(imported.ok());
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        QCOMPARE(imported->count(ImportAction::Kind::Replace), 1);
        checkImportedTree(target);
    }

    void dryRunChangesNothing()
    {
        const QString out = fresh(QStringLiteral("d")) + QStringLiteral(".zip");
        QVERIFY(makeBundle(out, BundleFormat::Zip).ok());
        const QString target = fresh(QStringLiteral("dry-target"));
        writeOrFail(target + QStringLiteral("/keep.txt"), "x");
        const QMap<QString, QString> before = snapshot(target);
        ImportOptions options;
        options.dryRun = true;
        Result<ImportReport> plan = importBundle(out, target, options);
        QVERIFY(plan.ok());
        QVERIFY(!plan->committed);
        QVERIFY(!plan->blocked());
        QCOMPARE(plan->count(ImportAction::Kind::Add), m_archives.size());
        for (const ImportAction &a : plan->actions)
            QVERIFY(a.targetPath.startsWith(target + u'/'));
        QCOMPARE(snapshotDiff(before, snapshot(target)), QString());
        // into a directory that does not exist yet: not created
        const QString absent = fresh(QStringLiteral("absent"));
        plan = importBundle(out, absent, options);
        QVERIFY(plan.ok());
        QCOMPARE(plan->count(ImportAction::Kind::Add), m_archives.size());
        QVERIFY(!QFile::exists(absent));
    }

    void cancel()
    {
        const QString out = fresh(QStringLiteral("cancel")) + QStringLiteral(".tar.gz");
        QVERIFY(makeBundle(out, BundleFormat::TarGz).ok());
        const QString target = fresh(QStringLiteral("cancel-target"));
        QVERIFY(QDir().mkpath(target));
        for (const BundleStage stop : {BundleStage::Reading, BundleStage::Hashing, BundleStage::Committing}) {
            bool asked = false;
            Result<ImportReport> imported = importBundle(out, target, {}, [&](BundleStage stage, qint64, qint64) {
                if (stage == stop)
                    asked = true;
                return stage != stop;
            });
            QVERIFY(asked);
            QVERIFY(!imported.ok());
            QCOMPARE(int(imported.error().code), int(ErrorCode::Cancelled));
            QCOMPARE(snapshot(target).size(), 0); // not even the work directory is left
        }
        Result<Catalog> catalog = scanFileSystemMirror(m_source);
        const QString never = fresh(QStringLiteral("never")) + QStringLiteral(".tar.gz");
        BundleCreateOptions options;
        options.useCache = false;
        Result<BundleCreateReport> created = createBundle(never, selectAll(catalog.value()), options,
                                                          [](BundleStage stage, qint64, qint64) { return stage != BundleStage::Writing; });
        QVERIFY(!created.ok());
        QCOMPARE(int(created.error().code), int(ErrorCode::Cancelled));
        QVERIFY(!QFile::exists(never));
        QCOMPARE(QDir(m_tmp.path()).entryList({QStringLiteral("never*")}, QDir::Files | QDir::Hidden).size(), 0);
    }

    void formatNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("format");
        QTest::newRow("tar.gz") << "m.tar.gz"
                                << "tar.gz";
        QTest::newRow("tgz") << "M.TGZ"
                             << "tar.gz";
        QTest::newRow("tar.zst") << "m.tar.zst"
                                 << "tar.zst";
        QTest::newRow("tar.xz") << "m.tar.xz"
                                << "tar.xz";
        QTest::newRow("tar") << "m.tar"
                             << "tar";
        QTest::newRow("zip") << "m.zip"
                             << "zip";
        QTest::newRow("none") << "m.rar"
                              << "";
    }

    void formatNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, format);
        const std::optional<BundleFormat> f = bundleFormatFromFileName(name);
        QCOMPARE(f ? toString(*f) : QString(), format);
        QString bundle, entry;
        QVERIFY(splitBundleEntryPath(QStringLiteral("/a!/b/") + name + QStringLiteral("!/x/y!/z.zip"), &bundle, &entry));
        if (format.isEmpty()) {
            QCOMPARE(bundle, QStringLiteral("/a"));
        } else {
            QCOMPARE(bundle, QStringLiteral("/a!/b/") + name);
            QCOMPARE(entry, QStringLiteral("x/y!/z.zip"));
        }
    }
};

QTEST_GUILESS_MAIN(TestBundle)
#include "tst_bundle.moc"
