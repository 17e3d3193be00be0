// OpenTofu's oci_mirror format and credentials rules, without a registry. Expected values come
// from OpenTofu's source and fixtures (cited per constant), never from Provender's own output.
// Also the client against a registry that never answers (a QTcpServer on 127.0.0.1 that accepts
// and stays silent): a cancel stops the request in flight, long before its timeout.

#include "model/oci/OciAuth.h"
#include "model/oci/OciClient.h"
#include "model/oci/OciFormat.h"
#include "model/oci/OciMirror.h"
#include "model/oci/OciProvenance.h"
#include "tests/support/TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <atomic>

using namespace provender;
using namespace provender::oci;

namespace {

// OpenTofu internal/command/e2etest/testdata/oci-provider-mirror/fake-registry/foo/ (commit
// f831fa1aa4b9): the provider zip of foo 1.0.0 (same bytes for every platform) ...
constexpr auto kFixtureZipDigest = "sha256:11aa47eb05d2bac7eb9c27fdbf1447152c4f07c814a24db86c24339253db1534";
constexpr qint64 kFixtureZipSize = 268;
// ... the per-platform image manifests (index.json / blobs/sha256/<digest>) ...
struct FixtureManifest
{
    const char *os;
    const char *arch;
    const char *digest;
    qint64 size;
};
constexpr FixtureManifest kFixtureManifests[] = {
    {"darwin", "arm64", "sha256:59c9d55f9ef8ae99fb02ad0e702e174ede580510c267aa60bc0fc1044e1791c3", 536},
    {"linux", "amd64", "sha256:4f63835dc7bf2efd79c82a1a9dbeed999e4803c33c2bac58fec1fe49f8fa7f31", 535},
    {"linux", "arm64", "sha256:f63e3be601c48bff768cd10288fefb24a632e5d15f3407cbc8b75e2ea7859f38", 535},
    {"windows", "amd64", "sha256:37b9bf1f2bc70bca61737b641f9c7b55eea71ccf6d8d71f37a248e9ebea98f71", 537},
    {"windows", "arm64", "sha256:7bd4128bcf93bb2782038fcb957348867ddbf18267b950cbd16c71a35c74046f", 537},
};
// ... and the index the tag 1.0.0 names (index.json: "org.opencontainers.image.ref.name": "1.0.0").
constexpr auto kFixtureIndexDigest = "sha256:16eb63231a08ad735691df2ecab728316b2598b819d0b74515fd1973454f9000";
constexpr qint64 kFixtureIndexSize = 1443;
// The empty config descriptor of every fixture manifest.
constexpr auto kFixtureEmptyDigest = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";

Descriptor target(const QString &os, const QString &arch, const QString &mediaType = QString(kMediaTypeManifest),
                  const QString &artifactType = QString(kArtifactTypeProviderTarget))
{
    Descriptor d;
    d.mediaType = mediaType;
    d.artifactType = artifactType;
    d.digest = QStringLiteral("sha256:") + QString(64, QLatin1Char('a'));
    d.size = 500;
    d.hasPlatform = true;
    d.os = os;
    d.architecture = arch;
    return d;
}

} // namespace

class TestOciFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void manifestBytesAreOpenTofusFixture()
    {
        // Byte-identical to OpenTofu's own fixture: its digest is the fixture's file name.
        for (const FixtureManifest &f : kFixtureManifests) {
            const QByteArray m = buildImageManifest(Platform(QString::fromLatin1(f.os), QString::fromLatin1(f.arch)),
                                                    QString::fromLatin1(kFixtureZipDigest), kFixtureZipSize);
            QCOMPARE(digestOf(m), QString::fromLatin1(f.digest));
            QCOMPARE(m.size(), f.size);
        }
    }

    void indexBytesAreOpenTofusFixture()
    {
        QList<IndexEntry> entries;
        for (const FixtureManifest &f : kFixtureManifests)
            entries.append(
                IndexEntry{Platform(QString::fromLatin1(f.os), QString::fromLatin1(f.arch)), QString::fromLatin1(f.digest), f.size});
        const QByteArray index = buildImageIndex(entries);
        QCOMPARE(digestOf(index), QString::fromLatin1(kFixtureIndexDigest));
        QCOMPARE(index.size(), kFixtureIndexSize);
    }

    void manifestFieldByField()
    {
        // The same facts, field by field (so a failure says which one).
        const QJsonObject m = QJsonDocument::fromJson(buildImageManifest(Platform(QStringLiteral("linux"), QStringLiteral("amd64")),
                                                                         QString::fromLatin1(kFixtureZipDigest), kFixtureZipSize))
                                  .object();
        QCOMPARE(m.value(QLatin1StringView("schemaVersion")).toInt(), 2);
        QCOMPARE(m.value(QLatin1StringView("mediaType")).toString(), QStringLiteral("application/vnd.oci.image.manifest.v1+json"));
        // oci_registry_mirror_source.go:58 ociPackageManifestArtifactType
        QCOMPARE(m.value(QLatin1StringView("artifactType")).toString(), QStringLiteral("application/vnd.opentofu.provider-target"));
        const QJsonObject config = m.value(QLatin1StringView("config")).toObject();
        QCOMPARE(config.value(QLatin1StringView("mediaType")).toString(), QStringLiteral("application/vnd.oci.empty.v1+json"));
        QCOMPARE(config.value(QLatin1StringView("digest")).toString(), QString::fromLatin1(kFixtureEmptyDigest));
        QCOMPARE(config.value(QLatin1StringView("size")).toInt(), 2);
        QCOMPARE(config.value(QLatin1StringView("data")).toString(), QStringLiteral("e30="));
        const QJsonArray layers = m.value(QLatin1StringView("layers")).toArray();
        QCOMPARE(layers.size(), 1);
        const QJsonObject layer = layers.at(0).toObject();
        // package_location_oci_blob_archive.go:33 ociPackageMediaType
        QCOMPARE(layer.value(QLatin1StringView("mediaType")).toString(), QStringLiteral("archive/zip"));
        QCOMPARE(layer.value(QLatin1StringView("digest")).toString(), QString::fromLatin1(kFixtureZipDigest));
        QCOMPARE(layer.value(QLatin1StringView("size")).toInteger(), kFixtureZipSize);
        QCOMPARE(layer.value(QLatin1StringView("platform")).toObject().value(QLatin1StringView("os")).toString(), QStringLiteral("linux"));
        QCOMPARE(layer.value(QLatin1StringView("platform")).toObject().value(QLatin1StringView("architecture")).toString(),
                 QStringLiteral("amd64"));
    }

    void tagRules_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("tag");
        // oci_registry_mirror_source.go:490: strings.ReplaceAll(version.String(), "+", "_")
        QTest::newRow("plain") << "1.0.0"
                               << "1.0.0";
        QTest::newRow("prerelease") << "1.2.0-beta.1"
                                    << "1.2.0-beta.1";
        QTest::newRow("metadata") << "2.0.0+build.7"
                                  << "2.0.0_build.7";
    }
    void referrersTagSchema()
    {
        // distribution-spec (commit 967efdc079b9) spec.md "Referrers Tag Schema": its own table.
        QCOMPARE(referrersTag(QStringLiteral("sha256:") + QString(64, QLatin1Char('a'))),
                 QStringLiteral("sha256-") + QString(64, QLatin1Char('a')));
        QCOMPARE(referrersTag(QStringLiteral("sha512:") + QString(128, QLatin1Char('a'))),
                 QStringLiteral("sha512-") + QString(64, QLatin1Char('a')));
        QCOMPARE(
            referrersTag(QStringLiteral("test+algorithm+using+algorithm+separators+and+lots+of+characters+to+excercise+overall+"
                                        "truncation:alsoSome=InTheEncodedSectionToShowHyphenReplacementAndLotsAndLotsOfCharactersToExcerc"
                                        "iseEncodedTruncation")),
            QStringLiteral("test-algorithm-using-algorithm-s-alsoSome-InTheEncodedSectionToShowHyphenReplacementAndLotsAndLot"));
        // A tag tofu ignores: it is no version (oci_registry_mirror_source.go:177-216).
        QVERIFY(!versionForTag(referrersTag(QStringLiteral("sha256:") + QString(64, QLatin1Char('0')))));
        QVERIFY(isValidTag(referrersTag(QStringLiteral("sha256:") + QString(64, QLatin1Char('0')))));
    }

    void tagRules()
    {
        QFETCH(QString, version);
        QFETCH(QString, tag);
        const Version v = Version::parse(version).value();
        QCOMPARE(tagForVersion(v), tag);
        QVERIFY(isValidTag(tag));
        // oci_registry_mirror_source.go:183: the reverse mapping
        QCOMPARE(versionForTag(tag)->toString(), version);
    }
    void tagsThatAreNotVersionsAreIgnored()
    {
        // oci_registry_mirror_source.go:184-188: tags that do not parse are skipped
        QVERIFY(!versionForTag(QStringLiteral("latest")));
        QVERIFY(!versionForTag(QStringLiteral("v1.0.0")));
        QVERIFY(!versionForTag(QStringLiteral("sha256-abc.sig")));
    }

    void templates()
    {
        const ProviderAddress foo = ProviderAddress::parse(u"example.com/test/foo").value();
        const Result<RepositoryAddress> r = expandRepositoryTemplate(QStringLiteral("127.0.0.1:5000/mirror/${namespace}/${type}"), foo);
        QVERIFY(r.ok());
        QCOMPARE(r.value().registry, QStringLiteral("127.0.0.1:5000"));
        QCOMPARE(r.value().repository, QStringLiteral("mirror/test/foo"));
        const Result<RepositoryAddress> h = expandRepositoryTemplate(QStringLiteral("reg.example/${hostname}/${namespace}/${type}"), foo);
        QCOMPARE(h.value().repository, QStringLiteral("example.com/test/foo"));
        // provider_installation.go:396-470: only the three symbols; all three needed without `include`.
        QVERIFY(checkRepositoryTemplate(QStringLiteral("reg.example/${hostname}/${namespace}/${type}")).ok());
        QVERIFY(checkRepositoryTemplate(QStringLiteral("reg.example/${namespace}/${type}")).error().message.contains(u"\"hostname\""));
        // ... unless `include` selects one hostname: the providers it is used for share theirs.
        const ProviderAddress bar = ProviderAddress::parse(u"example.com/test/bar").value();
        const ProviderAddress other = ProviderAddress::parse(u"other.example/test/bar").value();
        QVERIFY(checkRepositoryTemplate(QStringLiteral("reg.example/${namespace}/${type}"), {foo, bar}).ok());
        QVERIFY(!checkRepositoryTemplate(QStringLiteral("reg.example/${namespace}/${type}"), {foo, other}).ok());
        QVERIFY(!checkRepositoryTemplate(QStringLiteral("reg.example/${hostname}/${namespace}"), {foo, bar}).ok());
        QVERIFY(checkRepositoryTemplate(QStringLiteral("reg.example/${hostname}/${nope}/${namespace}/${type}"))
                    .error()
                    .message.contains(u"\"nope\""));
        // provider_installation.go:514-527: the result must be registry/repository.
        QVERIFY(!checkRepositoryTemplate(QStringLiteral("${hostname}${namespace}${type}")).ok());
        QVERIFY(!checkRepositoryTemplate(QStringLiteral("reg.example/${hostname}/${namespace}/${type}:latest")).ok());
        // OCI names are lower case: an upper-case path does not map.
        QVERIFY(!expandRepositoryTemplate(QStringLiteral("reg.example/Mirror/${namespace}/${type}"), foo).ok());
        QCOMPARE(templateFromOciUrl(QStringLiteral("oci://h:1/p/${namespace}/${type}/")).value(),
                 QStringLiteral("h:1/p/${namespace}/${type}"));
    }

    void repositoriesBackToProviders()
    {
        // The reverse of the template, for a registry's _catalog: a repository is a provider's only
        // when tofu, expanding the template for that provider, would arrive at it.
        auto back = [](const char *templ, const char *registry, const char *repository, const TemplateDefaults &d = {}) {
            return providerForRepository(QString::fromLatin1(templ),
                                         RepositoryAddress{QString::fromLatin1(registry), QString::fromLatin1(repository)}, d);
        };
        const Result<ProviderAddress> full =
            back("reg.example/${hostname}/${namespace}/${type}", "reg.example", "registry.opentofu.org/hashicorp/aws");
        QVERIFY2(full.ok(), full.ok() ? "" : qPrintable(full.error().message));
        QCOMPARE(full.value().toString(), QStringLiteral("registry.opentofu.org/hashicorp/aws"));
        // No ${hostname}: only with one given (what an `include` pins).
        QVERIFY(back("127.0.0.1:5000/mirror/${namespace}/${type}", "127.0.0.1:5000", "mirror/test/foo")
                    .error()
                    .message.contains(u"has no ${hostname}"));
        TemplateDefaults host;
        host.hostname = QStringLiteral("example.com");
        QCOMPARE(back("127.0.0.1:5000/mirror/${namespace}/${type}", "127.0.0.1:5000", "mirror/test/foo", host).value().toString(),
                 QStringLiteral("example.com/test/foo"));
        // Not of the template: another prefix, another registry, a segment short or too many.
        QVERIFY(!back("127.0.0.1:5000/mirror/${namespace}/${type}", "127.0.0.1:5000", "other/test/foo", host).ok());
        QVERIFY(!back("127.0.0.1:5000/mirror/${namespace}/${type}", "127.0.0.1:5001", "mirror/test/foo", host).ok());
        QVERIFY(!back("127.0.0.1:5000/mirror/${namespace}/${type}", "127.0.0.1:5000", "mirror/foo", host).ok());
        QVERIFY(!back("127.0.0.1:5000/mirror/${namespace}/${type}", "127.0.0.1:5000", "mirror/a/b/c", host).ok());
        // Two symbols in one segment split at a '-' that either value may contain: ambiguous.
        QVERIFY(back("reg.example/p/${namespace}-${type}", "reg.example", "p/a-b-c", host).error().message.contains(u"more than one way"));
        QCOMPARE(back("reg.example/p/${namespace}-${type}", "reg.example", "p/a-b", host).value().toString(),
                 QStringLiteral("example.com/a/b"));
        // A symbol used twice must have one value.
        QCOMPARE(back("reg.example/${namespace}/${namespace}-${type}", "reg.example", "a/a-b", host).value().toString(),
                 QStringLiteral("example.com/a/b"));
        QVERIFY(!back("reg.example/${namespace}/${namespace}-${type}", "reg.example", "a/c-b", host).ok());
        // A valid OCI name that is no provider address ("__" is an OCI separator, not a namespace character).
        QVERIFY(back("reg.example/m/${namespace}/${type}", "reg.example", "m/te__st/foo", host)
                    .error()
                    .message.contains(u"is not a provider address"));
        QCOMPARE(templateSymbols(QStringLiteral("r/${type}/${namespace}/$${x}/${type}")).value(),
                 (QStringList{QStringLiteral("type"), QStringLiteral("namespace")}));
    }

    void digests()
    {
        // package_location_oci_blob_archive.go:273-285 hashFromOCIDigest
        QCOMPARE(hashFromOciDigest(QString::fromLatin1(kFixtureZipDigest)).value().toString(),
                 QStringLiteral("zh:11aa47eb05d2bac7eb9c27fdbf1447152c4f07c814a24db86c24339253db1534"));
        QVERIFY(!hashFromOciDigest(QStringLiteral("sha512:") + QString(128, QLatin1Char('a'))).ok());
        QVERIFY(!hashFromOciDigest(QStringLiteral("sha256:ABC")).ok());
        // The empty config `{}`: the digest the fixtures use.
        QCOMPARE(digestOf("{}"), QString::fromLatin1(kFixtureEmptyDigest));
    }

    void manifestSizeLimit()
    {
        // oci_registry_mirror_source.go:752: (size / 1024 / 1024) > 4 — integer division, so
        // anything below 5 MiB passes.
        QVERIFY(checkManifestSize(4ll * 1024 * 1024).ok());
        QVERIFY(checkManifestSize(5ll * 1024 * 1024 - 1).ok());
        QCOMPARE(checkManifestSize(5ll * 1024 * 1024).error().message,
                 QStringLiteral("manifest size exceeds OpenTofu's size limit of 4 MiB"));
    }

    void resolvedMediaTypes()
    {
        // oci_registry_mirror_source.go:527-536
        QVERIFY(checkResolvedIndex(QStringLiteral("application/vnd.oci.image.index.v1+json")).ok());
        QVERIFY(checkResolvedIndex(QStringLiteral("application/vnd.oci.image.manifest.v1+json"))
                    .error()
                    .message.contains(u"image manifest directly"));
        QVERIFY(checkResolvedIndex(QStringLiteral("application/vnd.docker.distribution.manifest.list.v2+json"))
                    .error()
                    .message.startsWith(u"unsupported media type"));
    }

    void indexArtifactType()
    {
        // oci_registry_mirror_source.go:585-590
        QJsonObject o{{QStringLiteral("schemaVersion"), 2},
                      {QStringLiteral("mediaType"), QString(kMediaTypeIndex)},
                      {QStringLiteral("artifactType"), QStringLiteral("application/vnd.example.other")},
                      {QStringLiteral("manifests"), QJsonArray()}};
        QCOMPARE(parseIndex(QJsonDocument(o).toJson()).error().message,
                 QStringLiteral("unexpected artifact type \"application/vnd.example.other\""));
        o[QStringLiteral("artifactType")] = QString(kArtifactTypeProvider);
        QVERIFY(parseIndex(QJsonDocument(o).toJson()).ok());
        o.remove(QStringLiteral("artifactType"));
        QVERIFY(!parseIndex(QJsonDocument(o).toJson()).ok()); // no artifact type is not "ours" either
    }

    void selection()
    {
        const Platform linux(QStringLiteral("linux"), QStringLiteral("amd64"));
        // oci_registry_mirror_source.go:711-714: two candidates for one platform
        QCOMPARE(
            selectImageManifest(
                {target(QStringLiteral("linux"), QStringLiteral("amd64")), target(QStringLiteral("linux"), QStringLiteral("amd64"))}, linux)
                .error()
                .message,
            QStringLiteral("ambiguous manifest has multiple descriptors for platform linux_amd64"));
        // :654-659 other artifact types are ignored silently
        QVERIFY(selectImageManifest({target(QStringLiteral("linux"), QStringLiteral("amd64")),
                                     target(QStringLiteral("linux"), QStringLiteral("amd64"), QString(kMediaTypeManifest),
                                            QStringLiteral("application/x-other"))},
                                    linux)
                    .ok());
        // :693-700 only wrong artifact types
        QVERIFY(selectImageManifest({target(QStringLiteral("linux"), QStringLiteral("amd64"), QString(kMediaTypeManifest),
                                            QStringLiteral("application/x-other"))},
                                    linux)
                    .error()
                    .message.contains(u"unsupported artifact type \"application/x-other\""));
        // :701-708 none at all: a container image?
        QVERIFY(
            selectImageManifest({target(QStringLiteral("linux"), QStringLiteral("amd64"), QString(kMediaTypeManifest), QString())}, linux)
                .error()
                .message.contains(u"container image"));
        // :660-664 a provider-target that is not an image manifest poisons every platform
        QVERIFY(selectImageManifest({target(QStringLiteral("darwin"), QStringLiteral("arm64"), QString(kMediaTypeIndex)),
                                     target(QStringLiteral("linux"), QStringLiteral("amd64"))},
                                    linux)
                    .error()
                    .message.contains(u"unsupported media type"));
        // :668-676 os.version set: ignored; the only one -> platform not supported
        Descriptor withOsVersion = target(QStringLiteral("linux"), QStringLiteral("amd64"));
        withOsVersion.osVersion = QStringLiteral("5.10");
        bool notSupported = false;
        QVERIFY(!selectImageManifest({withOsVersion}, linux, &notSupported).ok());
        QVERIFY(notSupported);
    }

    void layers()
    {
        Descriptor zip;
        zip.mediaType = QString(kMediaTypeZip);
        Descriptor tar;
        tar.mediaType = QStringLiteral("application/vnd.oci.image.layer.v1.tar");
        // oci_registry_mirror_source.go:718-747
        QVERIFY(selectLayer({tar, zip}).ok());
        QVERIFY(selectLayer({tar}).error().message.contains(u"but has other unsupported formats"));
        QCOMPARE(selectLayer({}).error().message, QStringLiteral("image manifest contains no layers of type \"archive/zip\""));
        QCOMPARE(selectLayer({zip, zip}).error().message,
                 QStringLiteral("ambiguous manifest declares multiple eligible provider packages"));
        // package_location_oci_blob_archive.go:287-305: a layer naming another platform
        zip.hasPlatform = true;
        zip.os = QStringLiteral("darwin");
        zip.architecture = QStringLiteral("arm64");
        QVERIFY(!checkLayerDescriptor(zip, Platform(QStringLiteral("linux"), QStringLiteral("amd64"))).ok());
    }

    void terraformHasNoOciMirror()
    {
        // The block `provender oci push` prints is for OpenTofu only: terraform 1.11 does not know
        // the installation method (it says so and falls back to its default installation).
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("its answer to the oci_mirror block is checked"));
        QTemporaryDir dir; // runTerraform's sandbox: this CLI config, no proxy
        QFile cli(dir.filePath(QStringLiteral("cli.tfrc")));
        QVERIFY(cli.open(QIODevice::WriteOnly));
        const QString block = ociMirrorConfigBlock(QStringLiteral("127.0.0.1:5000/mirror/${namespace}/${type}"),
                                                   {ProviderAddress::parse(u"example.com/test/foo").value()});
        QVERIFY(block.contains(u"oci_mirror {"));
        cli.write(block.toUtf8());
        cli.close();
        const provender::test::ProcessRun r =
            provender::test::runTerraform(dir.path(), dir.path(), {QStringLiteral("version")}, {}, 120000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("Unknown provider installation method \"oci_mirror\"")
                     || r.out.contains("Unknown provider installation method \"oci_mirror\""),
                 r.err.constData());
    }

    void propertyNameMatch_data()
    {
        // OpenTofu ociauthconfig/docker_cli_credentials_config_test.go TestContainersAuthPropertyNameMatch
        QTest::addColumn<QString>("property");
        QTest::addColumn<QString>("repository");
        QTest::addColumn<int>("specificity"); // 0 none, 2 domain, 2+N N path segments
        QTest::newRow("domain") << "example.net"
                                << "foo" << 2;
        QTest::newRow("repo") << "example.net/foo"
                              << "foo" << 3;
        QTest::newRow("prefix") << "example.net/foo"
                                << "foo/bar" << 3;
        QTest::newRow("longer") << "example.net/foo/bar"
                                << "foo" << 0;
        QTest::newRow("two") << "example.net/foo/bar"
                             << "foo/bar" << 4;
        QTest::newRow("two-prefix") << "example.net/foo/bar"
                                    << "foo/bar/baz" << 4;
        QTest::newRow("not-bar") << "example.net/foo/not-bar"
                                 << "foo/bar" << 0;
        QTest::newRow("not-foo") << "example.net/not-foo"
                                 << "foo/bar" << 0;
    }
    void propertyNameMatch()
    {
        QFETCH(QString, property);
        QFETCH(QString, repository);
        QFETCH(int, specificity);
        QCOMPARE(propertyNameSpecificity(property, QStringLiteral("example.net"), repository), specificity);
    }

    void cliConfigBlocks()
    {
        // OpenTofu internal/command/cliconfig/testdata/oci-credentials-basic
        Result<OciCredentialsPolicy> p =
            parseCliConfigOciBlocks("oci_credentials \"example.com\" {\n  username = \"foo\"\n  password = \"bar\"\n}\n",
                                    QStringLiteral("basic.tfrc"), nullptr, nullptr);
        QVERIFY(p.ok());
        QCOMPARE(p.value().entries.size(), 1);
        QCOMPARE(p.value().entries.first().credential.username, QStringLiteral("foo"));
        QVERIFY(!p.value().entries.first().credential.describe().contains(u"bar")); // never the secret
        // testdata/oci-credentials-mixedstyles: two groups
        QVERIFY(parseCliConfigOciBlocks("oci_credentials \"example.com\" {\n  username     = \"foo\"\n  access_token = \"bar\"\n}\n",
                                        QStringLiteral("m.tfrc"), nullptr, nullptr)
                    .error()
                    .message.contains(u"only one group"));
        // testdata/oci-credentials-credhelper-repopath: a helper for a repository path
        QVERIFY(parseCliConfigOciBlocks("oci_credentials \"example.com/foo\" {\n  docker_credentials_helper = \"osxkeychain\"\n}\n",
                                        QStringLiteral("r.tfrc"), nullptr, nullptr)
                    .error()
                    .message.contains(u"credential helpers only support credentials for whole domains"));
        // testdata/oci-credentials-basic-nopassword
        QVERIFY(!parseCliConfigOciBlocks("oci_credentials \"example.com\" {\n  username = \"foo\"\n}\n", QStringLiteral("n.tfrc"), nullptr,
                                         nullptr)
                     .ok());
        // A setting tofu's decoder refuses (plugin_cache_dir must be a string: hcl v1 decoder.go
        // decodeString; tofu's cliconfig.go then uses nothing in the file): no OCI credentials.
        const Result<OciCredentialsPolicy> refused = parseCliConfigOciBlocks(
            "plugin_cache_dir = []\noci_credentials \"example.com\" {\n  username = \"foo\"\n  password = \"bar\"\n}\n",
            QStringLiteral("d.tfrc"), nullptr, nullptr);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.startsWith(QStringLiteral("d.tfrc: line 1: plugin_cache_dir")),
                 qPrintable(refused.error().message));
        // An argument set twice in one body, which tofu 1.12's hcl.Parse refuses (hcl
        // v1.0.1-vault-7 hcl/parser/parser.go:110-121): no OCI credentials either.
        const Result<OciCredentialsPolicy> repeated = parseCliConfigOciBlocks(
            "oci_credentials \"example.com\" {\n  username = \"foo\"\n  password = \"bar\"\n  username = \"baz\"\n}\n",
            QStringLiteral("r.tfrc"), nullptr, nullptr);
        QVERIFY(!repeated.ok());
        QCOMPARE(repeated.error().message,
                 QStringLiteral("r.tfrc: line 4: The argument \"username\" at 4:3 was already set. Each argument can only be defined "
                                "once (tofu uses nothing in this file)"));
        // Other blocks of a CLI config are left alone.
        QVERIFY(parseCliConfigOciBlocks("provider_installation {\n  direct {}\n}\ncredentials \"x.example\" { token = \"t\" }\n",
                                        QStringLiteral("o.tfrc"), nullptr, nullptr)
                    .ok());
    }

    void mostSpecificWins()
    {
        // CredentialsConfigs.CredentialsSourceForRepository: more path segments win over the
        // domain; explicit blocks come before ambient files, and a tie keeps the first.
        OciCredentialsPolicy policy =
            parseCliConfigOciBlocks("oci_credentials \"example.net\" {\n username = \"domain\"\n password = \"p\"\n}\n"
                                    "oci_credentials \"example.net/team\" {\n username = \"team\"\n password = \"p\"\n}\n",
                                    QStringLiteral("a.tfrc"), nullptr, nullptr)
                .value();
        const QByteArray docker =
            R"({"auths": {"example.net": {"auth": "YW1iaWVudDpzZWNyZXQ="}, "other.example": {"auth": "b3RoZXI6eA=="}}})";
        policy.entries.append(parseDockerStyleConfig(docker, QStringLiteral("config.json")).value());
        QCOMPARE(credentialFor(policy, QStringLiteral("example.net"), QStringLiteral("team/foo"))->username, QStringLiteral("team"));
        QCOMPARE(credentialFor(policy, QStringLiteral("example.net"), QStringLiteral("other/foo"))->username, QStringLiteral("domain"));
        // base64("other:x") from the Docker-style file
        QCOMPARE(credentialFor(policy, QStringLiteral("other.example"), QStringLiteral("x"))->username, QStringLiteral("other"));
        QCOMPARE(credentialFor(policy, QStringLiteral("other.example"), QStringLiteral("x"))->password, QStringLiteral("x"));
        QVERIFY(!credentialFor(policy, QStringLiteral("nowhere.example"), QStringLiteral("x")));
        // A file whose auth is not user:password fails as tofu's does.
        QVERIFY(!parseDockerStyleConfig(R"({"auths": {"x": {"auth": "bm9jb2xvbg=="}}})", QStringLiteral("c.json")).ok());
    }

    void ambientFilesAndSwitches()
    {
        QTemporaryDir home;
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral(".docker")));
        QFile docker(home.filePath(QStringLiteral(".docker/config.json")));
        QVERIFY(docker.open(QIODevice::WriteOnly));
        docker.write(R"({"auths": {"reg.example": {"auth": "YWxpY2U6c2VjcmV0"}}})"); // alice:secret
        docker.close();
        QProcessEnvironment env;
        env.insert(QStringLiteral("HOME"), home.path());
        Result<OciCredentialsPolicy> p = loadCredentialsPolicy(env, home.path());
        QVERIFY(p.ok());
        QCOMPARE(credentialFor(p.value(), QStringLiteral("reg.example"), QStringLiteral("a/b"))->username, QStringLiteral("alice"));
        // discover_ambient_credentials = false turns the files off.
        QFile cfg(home.filePath(QStringLiteral("cli.tfrc")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write("oci_default_credentials {\n  discover_ambient_credentials = false\n}\n");
        cfg.close();
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), cfg.fileName());
        p = loadCredentialsPolicy(env, home.path());
        QVERIFY(p.ok());
        QVERIFY(!credentialFor(p.value(), QStringLiteral("reg.example"), QStringLiteral("a/b")));
    }

    void cancelStopsARequestThatGetsNoAnswer()
    {
        // The registry accepts the connection and reads the request, but never answers. The
        // timeout is ten minutes: only the cancel, set while the request waits, can end it.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        QList<QTcpSocket *> accepted;
        QByteArray request;
        connect(&silent, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket *s = silent.nextPendingConnection()) {
                accepted.append(s);
                connect(s, &QTcpSocket::readyRead, this, [s, &request] { request += s->readAll(); });
            }
        });
        std::atomic<bool> cancel{false};
        OciClientOptions options;
        options.allowHttpLoopback = true;
        options.plainHttp = true;
        options.timeoutMs = 600000;
        options.cancel = &cancel;
        OciClient client(RepositoryAddress{QStringLiteral("127.0.0.1:%1").arg(silent.serverPort()), QStringLiteral("ns/p")}, std::nullopt,
                         options);
        // Set once the request has reached the server (the client's wait runs this thread's events).
        QTimer watch;
        connect(&watch, &QTimer::timeout, this, [&] {
            if (request.contains("\r\n\r\n"))
                cancel = true;
        });
        watch.start(20);
        const Result<std::optional<qint64>> head = client.headBlob(QStringLiteral("sha256:") + QString(64, u'a'));
        QVERIFY(!head.ok());
        QCOMPARE(head.error().code, ErrorCode::Cancelled);
        QVERIFY2(head.error().message.endsWith(QStringLiteral(": cancelled")), qPrintable(head.error().message));
        QVERIFY2(request.startsWith("HEAD /v2/ns/p/blobs/sha256:"), request.constData());
        QCOMPARE(client.log().size(), 1);
        QCOMPARE(client.log().constFirst().error, QStringLiteral("cancelled"));
        qDeleteAll(accepted);
    }
};

QTEST_GUILESS_MAIN(TestOciFormat)
#include "tst_oci_format.moc"
