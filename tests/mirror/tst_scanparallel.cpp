// The parallel filesystem-mirror scan gives exactly the sequential scan's Catalog.
//
// A generated mirror with many providers on several hosts, case-variant provider directories
// (AWESOMECORP / AwesomeCorp / awesomecorp: one provider, three directories, interleaved with
// other namespaces in walk order), duplicates inside and across directories, unpacked packages,
// broken and odd index documents, stale <version>.json files, stray files, symlinks and FIFOs —
// anomalies of every filesystem kind in many providers, several on the same path. Expected
// values: the scan with ScanOptions{threads = 1} (everything on the calling thread, the
// sequential algorithm), compared as a whole (tests/mirror/CatalogDump.h: every field, anomaly
// order included), plus counts the generator itself knows.

#include "model/mirror/FileSystemMirror.h"
#include "tests/mirror/CatalogDump.h"
#include "tests/support/MirrorFixture.h"

#include <QSet>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

const QStringList kPlatforms{u"darwin_arm64"_s, u"freebsd_arm"_s, u"linux_amd64"_s, u"windows_386"_s};

/// What the generator wrote, for expectations that do not come from the scanner.
struct Generated
{
    int providerDirs = 0;
    QSet<QString> providers; ///< normalized addresses with at least one archive
};

class MessyMirror
{
public:
    explicit MessyMirror(const test::MirrorFixture &m) : m_m(m) {}

    bool build(Generated &g)
    {
        bool ok = true;
        // Root level: a stray file, a hidden directory, an invalid hostname, a symlinked host.
        ok &= m_m.file(u"notes.txt"_s);
        ok &= m_m.file(u".cache/registry.terraform.io/x/y/terraform-provider-y_1.0.0_linux_amd64.zip"_s);
        ok &= m_m.dir(u"bad host!"_s);
        ok &= m_m.link(u"link.example.com"_s, u"example.com"_s);
        // Host level: the legacy namespace where it is not allowed, an invalid namespace, a file.
        ok &= m_m.file(u"example.com/-/old/terraform-provider-old_1.0.0_linux_amd64.zip"_s);
        ok &= m_m.dir(u"example.com/bad ns!"_s);
        ok &= m_m.file(u"example.com/file.txt"_s);
        // Namespace level: an invalid type, a file.
        ok &= m_m.dir(u"example.com/ns0/bad type!"_s);
        ok &= m_m.file(u"example.com/ns0/readme"_s);
        // The legacy namespace where it is allowed.
        ok &= m_m.file(u"registry.terraform.io/-/legacy/terraform-provider-legacy_1.0.0_linux_amd64.zip"_s);
        g.providers.insert(u"registry.terraform.io/-/legacy"_s);
        ++g.providerDirs;

        const QStringList hosts{u"example.com"_s, u"registry.terraform.io"_s, u"tfe.example.com"_s};
        for (int i = 0; i < 36; ++i) {
            const QString type = u"p%1"_s.arg(i, 2, 10, QLatin1Char('0'));
            const QString dir = u"%1/ns%2/%3/"_s.arg(hosts.at(i % 3)).arg(i % 4).arg(type);
            ok &= provider(dir, type, i);
            g.providers.insert(u"%1/ns%2/%3"_s.arg(hosts.at(i % 3)).arg(i % 4).arg(type));
            ++g.providerDirs;
        }
        // One provider in three directories, with "Bother" between them in walk order
        // ("AWESOMECORP" < "AwesomeCorp" < "Bother" < "awesomecorp").
        const QStringList variants{u"AWESOMECORP"_s, u"AwesomeCorp"_s, u"awesomecorp"_s};
        for (int v = 0; v < variants.size(); ++v) {
            ok &= provider(u"tfe.example.com/%1/happycloud/"_s.arg(variants.at(v)), u"happycloud"_s, 40 + v);
            ++g.providerDirs;
        }
        g.providers.insert(u"tfe.example.com/awesomecorp/happycloud"_s);
        ok &= provider(u"tfe.example.com/Bother/x/"_s, u"x"_s, 50);
        g.providers.insert(u"tfe.example.com/bother/x"_s);
        ++g.providerDirs;
        return ok;
    }

private:
    QString zipName(const QString &type, const QString &version, const QString &platform) const
    {
        return u"terraform-provider-%1_%2_%3.zip"_s.arg(type, version, platform);
    }

    bool provider(const QString &dir, const QString &type, int i)
    {
        bool ok = true;
        QStringList indexVersions;
        for (int v = 0; v < 6; ++v) {
            const QString version = u"1.%1.0"_s.arg(v);
            if (!(i % 4 == 2 && v == 5))
                indexVersions.append(version);
            QStringList entries;
            for (int k = 0; k < kPlatforms.size(); ++k) {
                const QString platform = kPlatforms.at(k);
                const int n = i + v + k;
                if (n % 7 == 0)
                    continue; // absent
                QString url = zipName(type, version, platform);
                if (n % 5 == 0) {
                    ok &= m_m.file(dir + version + u'/' + platform + u"/terraform-provider-"_s + type, QByteArray(n % 13 + 1, 'u'));
                    url = u"unpacked-%1.zip"_s.arg(platform); // an index naming a file that is absent
                } else {
                    ok &= m_m.file(dir + url, QByteArray(n % 17 + 1, 'z'));
                }
                if ((i + v) % 6 == 1 && k == 1) // a second copy: sorts after the first
                    ok &= m_m.file(dir + zipName(type, version, platform).replace(u".zip"_s, u"_extra.zip"_s));
                if ((i + v) % 9 == 2 && k == 2) // an upper-case copy: sorts before, so installers use it
                    ok &= m_m.file(dir + zipName(type, version, platform).toUpper().replace(u".ZIP"_s, u".zip"_s));
                QString entry;
                switch (n % 11) {
                case 0: entry = u"\"%1\": {\"hashes\": [\"h1:AAA%2=\"]}"_s.arg(platform).arg(n); break; // no url
                case 1: entry = u"\"%1\": {\"hashes\": [\"nohash\"], \"url\": \"%2\"}"_s.arg(platform, url); break;
                case 2: entry = u"\"%1\": {\"hashes\": [\"h1:B%2=\"], \"url\": \"other.zip\"}"_s.arg(platform).arg(n); break;
                case 3: entry = u"\"%1\": {\"hashes\": [\"h1:C=\"], \"url\": \"https://example.org/%2\"}"_s.arg(platform, url); break;
                case 4: entry = u"\"%1\": {\"hashes\": [\"h1:D=\", \"zh:dd\"], \"url\": \"./%2\"}"_s.arg(platform, url); break;
                case 5: entry = u"\"%1\": null"_s.arg(platform); break;
                case 6: entry = u"\"%1\": {\"url\": \"%2\", \"hashes\": [\"h1:E%3=\"]}"_s.arg(platform, url).arg(n); break;
                default: entry = u"\"%1\": {\"hashes\": [\"h1:F%3=\"], \"url\": \"%2\"}"_s.arg(platform, url).arg(n); break;
                }
                entries.append(entry);
            }
            if (i % 9 == 7 && v == 2)
                entries.append(u"\"Linux_AMD64x\": {\"hashes\": [], \"url\": \"x.zip\"}"_s); // not os_arch
            if ((i + v) % 3 == 0)
                continue; // no <version>.json
            QByteArray json = u"{\"archives\": {%1}}"_s.arg(entries.join(u",\n  "_s)).toUtf8();
            if ((i + v) % 13 == 4)
                json = "{\"archives\": {\"linux_amd64\": }}"; // malformed
            if ((i + v) % 17 == 5)
                json += "\n{}"; // trailing data
            ok &= m_m.file(dir + version + u".json"_s, json);
        }
        if (i % 8 == 5)
            ok &= m_m.file(dir + u"index.json"_s, "{\"versions\": {");
        else if (i % 4 != 3) {
            // Lists a version without files (9.9.9) and a key that is not a version.
            QStringList members;
            for (const QString &version : std::as_const(indexVersions))
                members.append(u"\"%1\": {}"_s.arg(version));
            members << u"\"9.9.9\": {}"_s << u"\"not a version\": {}"_s;
            ok &= m_m.file(dir + u"index.json"_s, u"{\"versions\": {%1}}"_s.arg(members.join(u", "_s)).toUtf8());
        }
        if (i % 5 == 0)
            ok &= m_m.file(dir + u"1.0.json"_s, "{\"archives\": {}}"); // not the canonical name
        if (i % 6 == 0)
            ok &= m_m.file(dir + u"notes.json"_s, "{}");
        if (i % 7 == 0)
            ok &= m_m.file(dir + u"README"_s);
        if (i % 10 == 3)
            ok &= m_m.file(dir + u".terraform-provider-"_s + type + u"_1.0.0_linux_amd64.zip"_s);
        if (i % 9 == 4) // a link to an archive counts as the archive
            ok &= m_m.link(dir + zipName(type, u"2.0.0"_s, u"linux_amd64"_s), zipName(type, u"1.1.0"_s, u"linux_amd64"_s));
        if (i % 9 == 5)
            ok &= m_m.link(dir + zipName(type, u"2.1.0"_s, u"linux_amd64"_s), u"does-not-exist.zip"_s);
        if (i % 9 == 6)
            ok &= m_m.link(dir + u"3.0.0"_s, m_m.base());
        if (i % 12 == 7)
            ok &= ::mkfifo(QFile::encodeName(m_m.path(dir + u"fifo"_s)).constData(), 0600) == 0;
        if (i % 8 == 1)
            ok &= m_m.dir(dir + u"notaversion"_s);
        if (i % 8 == 2)
            ok &= m_m.dir(dir + u"1.2.0/linux-amd64"_s);
        if (i % 8 == 3)
            ok &= m_m.file(dir + u"1.3.0/stray.txt"_s);
        return ok;
    }

    const test::MirrorFixture &m_m;
};

} // namespace

class TestScanParallel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_mirror.isValid());
        MessyMirror messy(m_mirror);
        QVERIFY(messy.build(m_generated));
        m_sequential = test::scanOk(m_mirror.root(), ScanOptions{1});
        m_sequentialDump = test::dumpCatalog(m_sequential);
    }

    /// The fixture exercises what the merge has to get right; otherwise the comparisons below
    /// could not fail.
    void fixtureIsMessy()
    {
        const Catalog &c = m_sequential;
        QSet<QString> addresses;
        for (const Provider &p : c.providers)
            addresses.insert(p.address.toString());
        QCOMPARE(addresses, m_generated.providers);
        // Every kind a filesystem scan reports.
        QSet<AnomalyKind> kinds;
        QSet<QString> providerDirsWithAnomalies;
        QHash<QString, QSet<AnomalyKind>> kindsByPath;
        for (const Anomaly &a : c.anomalies) {
            kinds.insert(a.kind);
            kindsByPath[a.path].insert(a.kind);
            const QStringList parts = QString(a.path).remove(0, c.root.size() + 1).split(u'/');
            if (parts.size() > 3)
                providerDirsWithAnomalies.insert(parts.mid(0, 3).join(u'/'));
        }
        for (AnomalyKind k : {AnomalyKind::UnparseableName, AnomalyKind::InvalidAddress, AnomalyKind::MalformedJson,
                              AnomalyKind::IndexListsAbsentVersion, AnomalyKind::IndexListsAbsentArchive, AnomalyKind::ArchiveNotInIndex,
                              AnomalyKind::StaleVersionIndex, AnomalyKind::UnreadableEntry, AnomalyKind::DuplicateArchive})
            QVERIFY2(kinds.contains(k), qPrintable(toString(k)));
        QVERIFY2(providerDirsWithAnomalies.size() >= 30, qPrintable(QString::number(providerDirsWithAnomalies.size())));
        // Paths with anomalies from both the walk and the index checks (their relative order is
        // what the merge must keep), and paths with several index anomalies.
        int walkAndIndex = 0;
        for (const QSet<AnomalyKind> &k : std::as_const(kindsByPath))
            if (k.contains(AnomalyKind::DuplicateArchive) && k.contains(AnomalyKind::ArchiveNotInIndex))
                ++walkAndIndex;
        QVERIFY(walkAndIndex > 0);
        // The three case-variant directories make one provider; its directory is the first one.
        const auto happy = std::find_if(c.providers.cbegin(), c.providers.cend(), [](const Provider &p) {
            return p.address.toString() == u"tfe.example.com/awesomecorp/happycloud"_s;
        });
        QVERIFY(happy != c.providers.cend());
        QCOMPARE(happy->directory, m_mirror.path(u"tfe.example.com/AWESOMECORP/happycloud"_s));
        int crossDirectoryDuplicates = 0;
        for (const ProviderVersion &v : happy->versions)
            for (const Archive &d : v.duplicates)
                crossDirectoryDuplicates += d.path.contains(u"/AwesomeCorp/"_s) || d.path.contains(u"/awesomecorp/"_s);
        QVERIFY(crossDirectoryDuplicates > 0);
    }

    /// Rules of the sequential scan that the merge of per-directory results must keep, checked
    /// on the catalog itself (so a wrong merge is caught even when every thread count agrees).
    void orderRules()
    {
        const Catalog &c = m_sequential;
        // Anomalies sorted by path as UTF-8 bytes; on one path, what the walk finds (here: a
        // duplicate) comes before what the index checks find about the same file.
        for (qsizetype i = 1; i < c.anomalies.size(); ++i)
            QVERIFY(c.anomalies.at(i - 1).path.toUtf8() <= c.anomalies.at(i).path.toUtf8());
        int checkedPairs = 0;
        for (qsizetype i = 1; i < c.anomalies.size(); ++i) {
            if (c.anomalies.at(i - 1).path != c.anomalies.at(i).path)
                continue;
            const AnomalyKind a = c.anomalies.at(i - 1).kind;
            const AnomalyKind b = c.anomalies.at(i).kind;
            QVERIFY2(!(a == AnomalyKind::ArchiveNotInIndex && b == AnomalyKind::DuplicateArchive), qPrintable(c.anomalies.at(i).path));
            checkedPairs += a == AnomalyKind::DuplicateArchive && b == AnomalyKind::ArchiveNotInIndex;
        }
        QVERIFY(checkedPairs > 0);
        // The archive installers use is the first copy in walk order (lexical per directory
        // level, depth first), across the directories of one provider too.
        const auto walkKey = [&c](const QString &path) {
            QList<QByteArray> parts = path.mid(c.root.size() + 1).toUtf8().split('/');
            return parts;
        };
        int duplicatesChecked = 0;
        for (const Provider &p : c.providers)
            for (const ProviderVersion &v : p.versions)
                for (const Archive &d : v.duplicates) {
                    if (d.indexedOnly || !d.present)
                        continue;
                    const auto primary =
                        std::find_if(v.archives.cbegin(), v.archives.cend(), [&d](const Archive &a) { return a.platform == d.platform; });
                    QVERIFY(primary != v.archives.cend());
                    QVERIFY2(walkKey(primary->path) < walkKey(d.path), qPrintable(primary->path + u" / "_s + d.path));
                    ++duplicatesChecked;
                }
        QVERIFY(duplicatesChecked > 10);
    }

    void parallelEqualsSequential_data()
    {
        QTest::addColumn<int>("threads");
        QTest::newRow("2 threads") << 2;
        QTest::newRow("3 threads") << 3;
        QTest::newRow("8 threads") << 8;
        QTest::newRow("one per core (default)") << 0;
        QTest::newRow("more threads than providers") << 100;
    }
    void parallelEqualsSequential()
    {
        QFETCH(int, threads);
        // Several times: a race would show as a different order now and then.
        for (int run = 0; run < 5; ++run) {
            const QString dump = test::dumpCatalog(test::scanOk(m_mirror.root(), ScanOptions{threads}));
            if (dump != m_sequentialDump) {
                QCOMPARE(dump.split(u'\n'), m_sequentialDump.split(u'\n')); // shows the first differing line
                QFAIL("dumps differ");
            }
        }
    }

    /// The dump really covers what it compares: changing one anomaly's order, or one field,
    /// changes it.
    void dumpDetectsDifferences()
    {
        Catalog swapped = m_sequential;
        QVERIFY(swapped.anomalies.size() > 2);
        qsizetype i = 0;
        while (i + 1 < swapped.anomalies.size() && swapped.anomalies.at(i).path != swapped.anomalies.at(i + 1).path)
            ++i;
        QVERIFY(i + 1 < swapped.anomalies.size()); // two anomalies on one path
        swapped.anomalies.swapItemsAt(i, i + 1);
        QVERIFY(test::dumpCatalog(swapped) != m_sequentialDump);
        Catalog changed = m_sequential;
        changed.providers[0].versions[0].archives[0].inode += 1;
        QVERIFY(test::dumpCatalog(changed) != m_sequentialDump);
    }

private:
    test::MirrorFixture m_mirror;
    Generated m_generated;
    Catalog m_sequential;
    QString m_sequentialDump;
};

QTEST_GUILESS_MAIN(TestScanParallel)
#include "tst_scanparallel.moc"
