// One suite for every MirrorSource (model/source/MirrorSource.h): the same mirror — made by
// conformance_fixture.py with Python's zipfile/hashlib/json/tarfile — laid out as a directory
// (DirectorySource), packed into a .tar.gz and a .zip bundle (BundleSource) and served by a real
// nginx over HTTPS on 127.0.0.1 (NetworkSource). Every source must list the same catalog, decide
// the same verdicts with the same anchors and computed hashes, report the same anomalies, stream
// an archive's bytes, say what it can do, and stop when cancelled. Expected values come from the
// fixture script (independent hashes, the verdict rules of docs/VERDICTS.md), never from our own
// output; the sources are also compared with each other.
//
// Where a source cannot know something the others do, the test says so explicitly: a network
// mirror cannot list files, so an archive its index names but nobody serves is "present" in its
// catalog and becomes Missing by the 404 (the directory and bundles see the absence while
// listing and add an index-lists-absent-archive anomaly).
//
// The same archives as an origin registry (RegistrySource; a second nginx over HTTPS, SHA256SUMS
// signed by a key gpg makes here): the same catalog of providers, versions and platforms, the same
// computed hashes and bytes; what the registry declares is each download document's shasum,
// anchored to the signed SHA256SUMS ("signature … signed by key ID X", X as gpg gives it), so an
// archive the mirror's index leaves unverified or contradicts verifies from the registry, and the
// verdicts agree with the mirror's where the declared hashes mean the same (docs/REGISTRY.md).

#include "model/bundle/BundleSource.h"
#include "model/network/NetworkSource.h"
#include "model/registry/RegistrySource.h"
#include "model/source/DirectorySource.h"
#include "model/verify/VerifyEngine.h"
#include "tests/support/GpgFixture.h"
#include "tests/support/NginxFixture.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace provender;

namespace {

/// One archive as every source must see it, paths relative to the source's root.
struct Seen
{
    QString verdict;
    QStringList declared;
    QStringList matched; ///< sorted
    QStringList contradicting;
    QStringList anchors; ///< "kind relative-document"
    QString h1Zip, zh;
    QString path; ///< relative
    bool operator==(const Seen &) const = default;
};

QString describeSeen(const Seen &s)
{
    return QStringLiteral("%1 declared=[%2] matched=[%3] contradicting=[%4] anchors=[%5] h1=%6 zh=%7 path=%8")
        .arg(s.verdict, s.declared.join(u','), s.matched.join(u','), s.contradicting.join(u','), s.anchors.join(u','), s.h1Zip, s.zh,
             s.path);
}

QStringList jsonStrings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out.append(e.toString());
    return out;
}

} // namespace

class TestSourceConformance : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QJsonObject m_expected;
    test::NginxFixture m_nginx;
    QList<QSslCertificate> m_ca;
    std::unique_ptr<test::GpgFixture> m_gpg; ///< null without gpg: the registry cases skip
    test::NginxFixture m_registryNginx;
    QList<QSslCertificate> m_registryCa;
    QString m_keyId;

    std::unique_ptr<RegistrySource> makeRegistrySource(const SignatureOptions &signature = {}) const
    {
        RegistryOptions o;
        o.http.caCertificates = m_registryCa;
        o.serviceOverrides.insert(QStringLiteral("example.com"), QUrl(m_registryNginx.baseUrl() + QStringLiteral("v1/providers/")));
        o.useCredentials = false;
        QList<PullRequest> wanted;
        for (const char *type : {"demo", "other"})
            wanted << PullRequest{
                ProviderAddress::parse(QString(QStringLiteral("example.com/acme/") + QLatin1StringView(type))).value(), {}, {}};
        return std::make_unique<RegistrySource>(o, wanted, QList<Platform>{}, signature);
    }

    std::unique_ptr<MirrorSource> makeSource(const QString &kind) const
    {
        if (kind == QLatin1StringView("directory"))
            return std::make_unique<DirectorySource>(m_tmp.filePath(QStringLiteral("mirror")));
        if (kind == QLatin1StringView("bundle.tar.gz") || kind == QLatin1StringView("bundle.zip"))
            return std::make_unique<BundleSource>(m_tmp.filePath(kind));
        if (kind == QLatin1StringView("bundle.zip, read ahead")) { // list() makes the hashing pass too
            auto b = std::make_unique<BundleSource>(m_tmp.filePath(QStringLiteral("bundle.zip")));
            b->setReadAhead(true);
            return b;
        }
        NetworkMirrorOptions mirror;
        mirror.http.caCertificates = m_ca;
        RemoteVerifyOptions download;
        download.http.caCertificates = m_ca;
        download.retries = 0;
        return std::make_unique<NetworkSource>(
            m_nginx.baseUrl(),
            QList<ProviderAddress>{ProviderAddress::parse(QStringLiteral("example.com/acme/demo")).value(),
                                   ProviderAddress::parse(QStringLiteral("example.com/acme/other")).value()},
            mirror, download);
    }
    /// A source and what its list() gives.
    template<typename Source> struct Listed
    {
        std::unique_ptr<Source> source;
        Result<Catalog> catalog;
    };
    template<typename Source> static Listed<Source> listOf(std::unique_ptr<Source> source)
    {
        Result<Catalog> catalog = source->list();
        return {std::move(source), std::move(catalog)};
    }

    /// The prefix every path of the source's catalog starts with.
    static QString baseOf(const Catalog &catalog)
    {
        switch (catalog.sourceKind) {
        case Catalog::SourceKind::Directory: return catalog.root + QLatin1Char('/');
        case Catalog::SourceKind::Bundle: return catalog.root + QStringLiteral("!/");
        case Catalog::SourceKind::Network: return catalog.root;
        }
        return {};
    }
    static QString relative(const QString &path, const QString &base)
    {
        return path.startsWith(base) ? path.mid(base.size()) : QStringLiteral("<outside the source: %1>").arg(path);
    }

    static QHash<QString, Seen> seen(const VerifyReport &report, const QString &base)
    {
        QHash<QString, Seen> out;
        for (const ArchiveResult &r : report.results) {
            Seen s;
            s.verdict = toString(r.detail.verdict);
            s.declared = test::toStrings(r.declared);
            for (HashMatch m : r.detail.matched)
                s.matched.append(toString(m));
            s.matched.sort();
            s.contradicting = test::toStrings(r.detail.contradicting);
            for (const TrustAnchor &a : r.detail.anchors)
                s.anchors.append(toString(a.kind) + QLatin1Char(' ') + relative(a.document, base));
            if (r.hashes) {
                s.h1Zip = r.hashes->h1Zip.toString();
                s.zh = r.hashes->zh.toString();
            }
            // An absent archive has no path on disk; a network source keeps the URL it asked for.
            if (r.detail.verdict != Verdict::Missing)
                s.path = relative(r.path, base);
            out.insert(r.key.toString(), s);
        }
        return out;
    }

    static Seen expectedSeen(const QJsonObject &e)
    {
        Seen s;
        s.verdict = e.value(u"verdict").toString();
        s.declared = jsonStrings(e.value(u"declared"));
        s.matched = jsonStrings(e.value(u"matched"));
        s.matched.sort();
        s.contradicting = jsonStrings(e.value(u"contradicting"));
        if (s.verdict == QLatin1StringView("verified"))
            s.anchors = {QStringLiteral("own-index ") + e.value(u"index").toString()};
        if (e.contains(u"h1")) {
            s.h1Zip = e.value(u"h1").toString();
            s.zh = e.value(u"zh").toString();
        }
        s.path = e.value(u"path").toString(); // "" for the absent one
        return s;
    }

    static QString keyOf(const QJsonObject &e)
    {
        return e.value(u"provider").toString() + QLatin1Char(' ') + e.value(u"version").toString() + QLatin1Char(' ')
            + e.value(u"platform").toString();
    }

    /// verifySource() without the hash cache (every readable archive is hashed by this run).
    static VerifyReport verifyUncached(MirrorSource &source, const Catalog &catalog, std::atomic<bool> *cancel = nullptr)
    {
        VerifyOptions options;
        options.useCache = false;
        return verifySource(source, catalog, options, {}, cancel);
    }

    static QHash<QString, const Archive *> archivesByKey(const Catalog &catalog)
    {
        QHash<QString, const Archive *> byKey;
        forEachArchive(catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
            byKey.insert(ArchiveKey{p.address, v.version, a.platform}.toString(), &a);
        });
        return byKey;
    }

    /// The catalog lists the fixture's providers with their versions, in its order.
    void compareProviders(const Catalog &c) const
    {
        QStringList providers;
        for (const Provider &p : c.providers) {
            providers.append(p.address.toString());
            QStringList versions;
            for (const ProviderVersion &v : p.versions)
                versions.append(v.version.toString());
            QCOMPARE(versions, jsonStrings(m_expected.value(u"providers").toObject().value(p.address.toString())));
        }
        QCOMPARE(providers, m_expected.value(u"providers").toObject().keys());
    }

    void addSources()
    {
        QTest::addColumn<QString>("kind");
        for (const char *k : {"directory", "bundle.tar.gz", "bundle.zip", "bundle.zip, read ahead", "network"})
            QTest::newRow(k) << QString::fromLatin1(k);
    }

    /// Anomalies as "kind relative-path", sorted.
    static QStringList anomalyTexts(const QList<Anomaly> &anomalies, const QString &base)
    {
        QStringList out;
        for (const Anomaly &a : anomalies)
            out.append(toString(a.kind) + QLatin1Char(' ') + relative(a.path, base));
        out.sort();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::NginxFixture::missingToolsWithPython());
        const QString python = test::python3();
        QVERIFY(m_tmp.isValid());
        QStringList fixtureArgs{test::sourceDir() + QStringLiteral("/tests/source/conformance_fixture.py"), m_tmp.path()};
        if (test::GpgFixture::available()) {
            m_gpg = std::make_unique<test::GpgFixture>();
            const QString fpr = m_gpg->generateKey(QStringLiteral("Acme Releases <releases@acme.test>"));
            QVERIFY2(!fpr.isEmpty(), qPrintable(m_gpg->lastError()));
            QFile key(m_tmp.filePath(QStringLiteral("key.asc")));
            QVERIFY(key.open(QIODevice::WriteOnly));
            key.write(m_gpg->exportKey(fpr));
            key.close();
            fixtureArgs << key.fileName();
        }
        const test::ProcessRun py = test::runProcess(python, fixtureArgs, 120000);
        if (py.exitCode != 0)
            QFAIL(qPrintable(QStringLiteral("conformance_fixture.py failed: ") + QString::fromUtf8(py.err)));
        m_expected = QJsonDocument::fromJson(py.out).object();
        QVERIFY(!m_expected.value(u"archives").toArray().isEmpty());
        QString error;
        QVERIFY2(m_nginx.makeCertificates(&error), qPrintable(error));
        QVERIFY2(m_nginx.start(m_tmp.filePath(QStringLiteral("mirror")), {}, {}, &error), qPrintable(error));
        m_ca = QSslCertificate::fromPath(m_nginx.caFile(), QSsl::Pem);
        QVERIFY(!m_ca.isEmpty());
        if (m_gpg) {
            // Every release's SHA256SUMS signed; the key ID as gpg itself gives it.
            QDirIterator it(m_tmp.filePath(QStringLiteral("registry/files")), {QStringLiteral("*_SHA256SUMS")}, QDir::Files,
                            QDirIterator::Subdirectories);
            QString fpr;
            const test::ProcessRun shown = test::runProcess(
                QStringLiteral("gpg"),
                {QStringLiteral("--with-colons"), QStringLiteral("--show-keys"), m_tmp.filePath(QStringLiteral("key.asc"))}, 60000);
            for (const QByteArray &line : shown.out.split('\n'))
                if (line.startsWith("fpr:") && fpr.isEmpty())
                    fpr = QString::fromLatin1(line.split(':').value(9));
            QCOMPARE(fpr.size(), 40);
            m_keyId = fpr.right(16);
            while (it.hasNext()) {
                const QString sums = it.next();
                const QByteArray sig = m_gpg->sign(fpr, test::readFile(sums));
                QFile f(sums + QStringLiteral(".sig"));
                QVERIFY2(!sig.isEmpty() && f.open(QIODevice::WriteOnly) && f.write(sig) == sig.size(), qPrintable(m_gpg->lastError()));
            }
            QVERIFY2(m_registryNginx.makeCertificates(&error), qPrintable(error));
            QVERIFY2(m_registryNginx.start(m_tmp.filePath(QStringLiteral("registry")),
                                           QStringLiteral("    location /v1/ { default_type application/json; }\n"), {}, &error),
                     qPrintable(error));
            m_registryCa = QSslCertificate::fromPath(m_registryNginx.caFile(), QSsl::Pem);
            QVERIFY(!m_registryCa.isEmpty());
        }
    }

    /// list(): the providers, versions, platforms and declared hashes the fixture wrote.
    void catalog_data() { addSources(); }
    void catalog()
    {
        QFETCH(QString, kind);
        auto [source, listed] = listOf(makeSource(kind));
        QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
        const Catalog &c = listed.value();
        QVERIFY(c.sourceKind == source->kind());
        QCOMPARE(c.root, source->location());
        const QString base = baseOf(c);

        compareProviders(c);
        if (QTest::currentTestFailed())
            return;

        const QHash<QString, const Archive *> byKey = archivesByKey(c);
        QCOMPARE(byKey.size(), m_expected.value(u"archives").toArray().size());
        for (const QJsonValue &value : m_expected.value(u"archives").toArray()) {
            const QJsonObject e = value.toObject();
            const Archive *a = byKey.value(keyOf(e));
            QVERIFY2(a, qPrintable(keyOf(e)));
            QVERIFY(a->declared.has_value());
            QCOMPARE(test::toStrings(a->declared->hashes), jsonStrings(e.value(u"declared")));
            QCOMPARE(relative(a->declared->indexFile, base), e.value(u"index").toString());
            QVERIFY(a->layout == ArchiveLayout::Packed);
            // A network mirror cannot list files: what its index names is present until the 404.
            const bool present = c.sourceKind == Catalog::SourceKind::Network || e.value(u"present").toBool();
            QCOMPARE(a->present, present);
            if (e.value(u"present").toBool())
                QCOMPARE(relative(a->path, base), e.value(u"path").toString());
            if (c.sourceKind != Catalog::SourceKind::Network && e.contains(u"size"))
                QCOMPARE(a->size, qint64(e.value(u"size").toInteger()));
        }

        // Listing anomalies: the one absent archive, seen by the sources that can list files.
        const QStringList anomalies = anomalyTexts(c.anomalies, base);
        if (c.sourceKind == Catalog::SourceKind::Network)
            QCOMPARE(anomalies, QStringList());
        else
            QCOMPARE(anomalies,
                     QStringList{QStringLiteral(
                         "index-lists-absent-archive example.com/acme/demo/terraform-provider-demo_1.0.0_freebsd_amd64.zip")});
    }

    /// verifySource(): every verdict, matched/contradicting hash, anchor and computed hash as the
    /// fixture expects, and the verdict anomaly of the archive with a stray declared hash.
    void verdicts_data() { addSources(); }
    void verdicts()
    {
        QFETCH(QString, kind);
        auto [source, listed] = listOf(makeSource(kind));
        QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
        const VerifyReport report = verifyUncached(*source, listed.value());
        QVERIFY(!report.summary.cancelled);
        const QString base = baseOf(listed.value());
        const QHash<QString, Seen> got = seen(report, base);
        QCOMPARE(got.size(), m_expected.value(u"archives").toArray().size());
        QMap<QString, int> counts;
        for (const QJsonValue &value : m_expected.value(u"archives").toArray()) {
            const QJsonObject e = value.toObject();
            const Seen want = expectedSeen(e);
            const Seen have = got.value(keyOf(e));
            QVERIFY2(have == want,
                     qPrintable(keyOf(e) + QStringLiteral("\n  got:      ") + describeSeen(have) + QStringLiteral("\n  expected: ")
                                + describeSeen(want)));
            ++counts[want.verdict];
        }
        for (Verdict v : allVerdicts())
            QCOMPARE(report.summary.count(v), counts.value(toString(v)));
        QCOMPARE(report.summary.archives, int(report.results.size()));
        // Each hashed (readable) archive was hashed by this run, not taken from a cache.
        QCOMPARE(report.summary.cacheHits, 0);
        for (const ArchiveResult &r : report.results)
            QVERIFY(!r.fromCache);
        // The corrupt archive is an error whose reason says why, in every source.
        for (const ArchiveResult &r : report.results)
            if (r.detail.verdict == Verdict::Error || r.detail.verdict == Verdict::Missing)
                QVERIFY2(!r.detail.reason.isEmpty(), qPrintable(r.key.toString()));

        QCOMPARE(anomalyTexts(verdictAnomalies(report.results), base),
                 QStringList{QStringLiteral("declared-hash-matches-nothing "
                                            "example.com/acme/demo/terraform-provider-demo_1.0.0_openbsd_amd64.zip")});
    }

    /// The sources agree with each other, result by result (a second check besides the fixture's
    /// expectations: nothing a source adds on its own, e.g. an anchor, may differ).
    void sourcesAgree()
    {
        QHash<QString, Seen> reference;
        for (const char *k : {"directory", "bundle.tar.gz", "bundle.zip", "network"}) {
            std::unique_ptr<MirrorSource> source = makeSource(QString::fromLatin1(k));
            Result<Catalog> listed = source->list();
            QVERIFY(listed.ok());
            const QHash<QString, Seen> got = seen(verifyUncached(*source, listed.value()), baseOf(listed.value()));
            if (reference.isEmpty()) {
                reference = got;
                continue;
            }
            QCOMPARE(got.keys().size(), reference.keys().size());
            for (auto it = reference.cbegin(); it != reference.cend(); ++it)
                QVERIFY2(got.value(it.key()) == it.value(),
                         qPrintable(QStringLiteral("%1 in %2:\n  %3\n  directory: %4")
                                        .arg(it.key(), QLatin1StringView(k), describeSeen(got.value(it.key())), describeSeen(it.value()))));
        }
    }

    /// openArchive(): the bytes of an archive as a stream (file, bundle member, download), equal
    /// to the file the fixture wrote (its SHA-256 from hashlib); an absent one is an error.
    void openArchive_data() { addSources(); }
    void openArchive()
    {
        QFETCH(QString, kind);
        auto [source, listed] = listOf(makeSource(kind));
        QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
        const QHash<QString, const Archive *> byKey = archivesByKey(listed.value());
        int opened = 0;
        for (const QJsonValue &value : m_expected.value(u"archives").toArray()) {
            const QJsonObject e = value.toObject();
            const Archive *a = byKey.value(keyOf(e));
            QVERIFY(a);
            Result<std::unique_ptr<QIODevice>> device = source->openArchive(*a);
            if (!e.value(u"present").toBool()) {
                QVERIFY2(!device.ok(), qPrintable(keyOf(e)));
                continue;
            }
            QVERIFY2(device.ok(), qPrintable(keyOf(e) + QStringLiteral(": ") + (device.ok() ? QString() : device.error().toString())));
            QCryptographicHash sha(QCryptographicHash::Sha256);
            QVERIFY(sha.addData(device.value().get()));
            QCOMPARE(QStringLiteral("zh:") + QString::fromLatin1(sha.result().toHex()), e.value(u"zh").toString());
            ++opened;
        }
        QVERIFY(opened >= 8);
    }

    /// capabilities(): what each kind says it can do.
    void capabilities()
    {
        const SourceCapabilities dir = makeSource(QStringLiteral("directory"))->capabilities();
        QVERIFY(dir.writable && dir.indexExport && dir.hashCache && dir.parallelReads);
        QVERIFY(!dir.credentials && !dir.requestLog);
        for (const char *k : {"bundle.tar.gz", "bundle.zip"})
            QVERIFY(makeSource(QString::fromLatin1(k))->capabilities() == SourceCapabilities{});
        std::unique_ptr<MirrorSource> net = makeSource(QStringLiteral("network"));
        const SourceCapabilities n = net->capabilities();
        QVERIFY(n.credentials && n.requestLog && n.parallelReads);
        QVERIFY(!n.writable && !n.indexExport && !n.hashCache);
        // The request log is real: list() asked for each provider's index.json and version documents.
        QVERIFY(net->list().ok());
        const QList<RequestLogEntry> &log = static_cast<NetworkSource *>(net.get())->requestLog();
        QStringList urls;
        for (const RequestLogEntry &entry : log)
            urls.append(entry.url.path());
        QVERIFY2(urls.contains(QStringLiteral("/example.com/acme/demo/index.json")), qPrintable(urls.join(u' ')));
        QVERIFY2(urls.contains(QStringLiteral("/example.com/acme/other/0.1.0.json")), qPrintable(urls.join(u' ')));
    }

    /// A cancel set before the run: nothing is read, nothing verifies, the summary says cancelled.
    void cancelled_data() { addSources(); }
    void cancelled()
    {
        QFETCH(QString, kind);
        auto [source, listed] = listOf(makeSource(kind));
        QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
        std::atomic<bool> cancel{true};
        const VerifyReport report = verifyUncached(*source, listed.value(), &cancel);
        QVERIFY(report.summary.cancelled);
        QCOMPARE(report.summary.count(Verdict::Verified), 0);
        QCOMPARE(report.summary.count(Verdict::Mismatch), 0);
        // Missing archives (known without reading) are final; everything present stays pending.
        for (const ArchiveResult &r : report.results)
            QVERIFY2(r.detail.verdict == Verdict::Pending || r.detail.verdict == Verdict::Missing,
                     qPrintable(r.key.toString() + QStringLiteral(": ") + toString(r.detail.verdict)));
    }

    /// A bundle's own SHA256SUMS is a second anchor (checksumsAnchor): the verdicts and anchors the
    /// fixture expects from it, the one wrong line a mismatch whatever the index says.
    void bundleChecksums()
    {
        BundleSource source(m_tmp.filePath(QStringLiteral("bundle-sums.tar.gz")));
        Result<Catalog> listed = source.list();
        QVERIFY(listed.ok());
        QVERIFY(source.checksumsAnchor().has_value());
        QVERIFY(source.checksumsAnchor()->kind == TrustAnchor::Kind::OwnChecksums);
        const QString base = baseOf(listed.value());
        QCOMPARE(relative(source.checksumsAnchor()->document, base), m_expected.value(u"sums_file").toString());
        const VerifyReport report = verifyUncached(source, listed.value());
        const QJsonObject sums = m_expected.value(u"sums").toObject();
        QCOMPARE(report.results.size(), sums.size());
        for (const ArchiveResult &r : report.results) {
            const QJsonObject e = sums.value(r.key.toString()).toObject();
            QVERIFY2(!e.isEmpty(), qPrintable(r.key.toString()));
            QCOMPARE(toString(r.detail.verdict), e.value(u"verdict").toString());
            QStringList kinds;
            for (const TrustAnchor &a : r.detail.anchors)
                kinds.append(toString(a.kind));
            QCOMPARE(kinds, jsonStrings(e.value(u"anchors")));
        }
        // What the pass found besides the archives: every SHA256SUMS line, one of them wrong.
        QVERIFY(source.lastRead());
        int mismatched = 0;
        for (const BundleFileCheck &f : source.lastRead()->files)
            mismatched += f.status == BundleFileCheck::Status::Mismatch;
        QCOMPARE(mismatched, 1);
    }

    /// The registry's catalog: the same providers, versions and platforms; declared = the shasum.
    void registryCatalog()
    {
        if (!m_gpg)
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs gpg to sign the registry's SHA256SUMS"));
        std::unique_ptr<RegistrySource> source = makeRegistrySource();
        Result<Catalog> listed = source->list();
        QVERIFY2(listed.ok(), qPrintable(listed.ok() ? QString() : listed.error().toString()));
        const Catalog &c = listed.value();
        QVERIFY(c.sourceKind == source->kind());
        QCOMPARE(c.root, source->location());
        QCOMPARE(c.anomalies.size(), 0);
        compareProviders(c);
        if (QTest::currentTestFailed())
            return;
        const QString base = m_registryNginx.baseUrl();
        const QJsonObject registry = m_expected.value(u"registry").toObject();
        int archives = 0;
        forEachArchive(c, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
            ++archives;
            const QString key = ArchiveKey{p.address, v.version, a.platform}.toString();
            const QJsonObject e = registry.value(key).toObject();
            QVERIFY2(!e.isEmpty(), qPrintable(key));
            QVERIFY(a.present && a.declared);
            QCOMPARE(test::toStrings(a.declared->hashes), jsonStrings(e.value(u"declared")));
            QCOMPARE(relative(a.path, base), e.value(u"url").toString());
            QCOMPARE(relative(a.declared->indexFile, base),
                     QStringLiteral("v1/providers/%1/%2/%3/download/%4/%5")
                         .arg(p.address.ns(), p.address.type(), v.version.toString(), a.platform.os(), a.platform.arch()));
        });
        QCOMPARE(archives, m_expected.value(u"archives").toArray().size());
    }

    /// The registry's verdicts and anchors as the fixture expects, computed hashes identical to the
    /// directory's, and the same verdict wherever the mirror's index declared the true zh:/h1:.
    void registryVerdicts()
    {
        if (!m_gpg)
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs gpg to sign the registry's SHA256SUMS"));
        auto [source, listed] = listOf(makeRegistrySource());
        QVERIFY(listed.ok());
        const QString base = m_registryNginx.baseUrl();
        const QHash<QString, Seen> got = seen(verifyUncached(*source, listed.value()), base);
        auto [dir, dirListed] = listOf(makeSource(QStringLiteral("directory")));
        QVERIFY(dirListed.ok());
        const QHash<QString, Seen> mirror = seen(verifyUncached(*dir, dirListed.value()), baseOf(dirListed.value()));
        const QJsonObject registry = m_expected.value(u"registry").toObject();
        QCOMPARE(got.size(), registry.size());
        for (const QJsonValue &value : m_expected.value(u"archives").toArray()) {
            const QJsonObject a = value.toObject();
            const QJsonObject e = registry.value(keyOf(a)).toObject();
            Seen want;
            want.verdict = e.value(u"verdict").toString();
            want.declared = jsonStrings(e.value(u"declared"));
            want.matched = jsonStrings(e.value(u"matched"));
            if (want.verdict == QLatin1StringView("verified"))
                want.anchors = {QStringLiteral("signature ") + e.value(u"sums").toString() + QStringLiteral(" signed by key ID ")
                                + m_keyId};
            want.h1Zip = e.value(u"h1").toString();
            want.zh = e.value(u"verdict").toString() == QLatin1StringView("error") ? QString() : e.value(u"zh").toString();
            if (want.verdict != QLatin1StringView("missing"))
                want.path = e.value(u"url").toString();
            const Seen have = got.value(keyOf(a));
            QVERIFY2(have == want,
                     qPrintable(keyOf(a) + QStringLiteral("\n  got:      ") + describeSeen(have) + QStringLiteral("\n  expected: ")
                                + describeSeen(want)));
            // Where they mean the same: the same computed hashes; the same verdict when the
            // mirror's index declared the archive's true hashes (or it is absent or corrupt).
            const Seen &m = mirror.value(keyOf(a));
            QCOMPARE(have.h1Zip, m.h1Zip);
            const QString kind = a.value(u"kind").toString();
            if (kind != QLatin1StringView("wrong") && kind != QLatin1StringView("none"))
                QCOMPARE(have.verdict, m.verdict);
        }
    }

    /// openArchive(): the registry's download, byte for byte the mirror's file; the absent one fails.
    void registryOpenArchive()
    {
        if (!m_gpg)
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs gpg to sign the registry's SHA256SUMS"));
        auto [source, listed] = listOf(makeRegistrySource());
        QVERIFY(listed.ok());
        int opened = 0;
        forEachArchive(listed.value(), [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
            const QString key = ArchiveKey{p.address, v.version, a.platform}.toString();
            Result<std::unique_ptr<QIODevice>> device = source->openArchive(a);
            for (const QJsonValue &value : m_expected.value(u"archives").toArray()) {
                const QJsonObject e = value.toObject();
                if (keyOf(e) != key)
                    continue;
                if (!e.value(u"present").toBool()) {
                    QVERIFY2(!device.ok(), qPrintable(key));
                    return;
                }
                QVERIFY2(device.ok(), qPrintable(key));
                QCryptographicHash sha(QCryptographicHash::Sha256);
                QVERIFY(sha.addData(device.value().get()));
                QCOMPARE(QStringLiteral("zh:") + QString::fromLatin1(sha.result().toHex()), e.value(u"zh").toString());
                ++opened;
            }
        });
        QCOMPARE(opened, 9);
    }

    /// Signatures by a key that is not pinned: every archive refused with the reason, none read.
    void registryUnpinnedKeyRefused()
    {
        if (!m_gpg)
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs gpg to sign the registry's SHA256SUMS"));
        SignatureOptions pinned;
        pinned.pinnedKeys << m_gpg->exportKey(m_gpg->generateKey(QStringLiteral("Somebody Else <else@acme.test>")));
        std::unique_ptr<RegistrySource> source = makeRegistrySource(pinned);
        Result<Catalog> listed = source->list();
        QVERIFY(listed.ok());
        const VerifyReport report = verifyUncached(*source, listed.value());
        QCOMPARE(report.summary.count(Verdict::Refused), int(report.results.size()));
        for (const ArchiveResult &r : report.results) {
            QVERIFY2(r.detail.reason.contains(QStringLiteral("not one of the pinned keys")), qPrintable(r.detail.reason));
            QVERIFY(r.detail.anchors.isEmpty());
        }
        for (const RequestLogEntry &e : source->requestLog())
            QVERIFY2(!e.url.path().endsWith(QStringLiteral(".zip")), qPrintable(e.url.toString()));
    }

    /// A cancel set before the run: nothing is read.
    void registryCancelled()
    {
        if (!m_gpg)
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs gpg to sign the registry's SHA256SUMS"));
        auto [source, listed] = listOf(makeRegistrySource());
        QVERIFY(listed.ok());
        std::atomic<bool> cancel{true};
        const VerifyReport report = verifyUncached(*source, listed.value(), &cancel);
        QVERIFY(report.summary.cancelled);
        for (const ArchiveResult &r : report.results)
            QVERIFY2(r.detail.verdict == Verdict::Pending,
                     qPrintable(r.key.toString() + QStringLiteral(": ") + toString(r.detail.verdict)));
    }

    /// The GUI engine takes any source: VerifyEngine::start(source, …) delivers the same verdicts
    /// as the blocking verifySource().
    void asyncEngine_data() { addSources(); }
    void asyncEngine()
    {
        QFETCH(QString, kind);
        std::shared_ptr<MirrorSource> source = makeSource(kind);
        Result<Catalog> listed = source->list();
        QVERIFY(listed.ok());
        VerifyOptions options;
        options.useCache = false;
        VerifyEngine engine;
        QSignalSpy finished(&engine, &VerifyEngine::finished);
        QHash<QString, QString> verdicts;
        connect(&engine, &VerifyEngine::archivesVerified, this, [&](const QList<ArchiveResult> &batch) {
            for (const ArchiveResult &r : batch)
                verdicts.insert(r.key.toString(), toString(r.detail.verdict));
        });
        engine.start(source, listed.value(), options);
        QVERIFY(finished.wait(120000));
        for (const QJsonValue &value : m_expected.value(u"archives").toArray()) {
            const QJsonObject e = value.toObject();
            QCOMPARE(verdicts.value(keyOf(e)), e.value(u"verdict").toString());
        }
    }
};

QTEST_GUILESS_MAIN(TestSourceConformance)
#include "tst_source_conformance.moc"
