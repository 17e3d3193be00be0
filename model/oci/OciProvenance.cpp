#include "model/oci/OciProvenance.h"

#include "model/registry/ReleaseProvenance.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace provender::oci {

namespace {

constexpr qint64 kMaxProvenanceFile = 4 * 1024 * 1024; ///< the cap of every provenance document
const char *const kFileNames[3] = {"SHA256SUMS", "SHA256SUMS.sig", "keys.asc"};

QJsonObject emptyConfig()
{
    const QByteArray data(kEmptyConfigData.data(), kEmptyConfigData.size());
    return QJsonObject{{QStringLiteral("mediaType"), QString(kMediaTypeEmpty)},
                       {QStringLiteral("digest"), digestOf(data)},
                       {QStringLiteral("size"), qint64(data.size())},
                       {QStringLiteral("data"), QString::fromLatin1(data.toBase64())}};
}

QJsonObject annotationsOf(const ProviderAddress &provider, const Version &version)
{
    return QJsonObject{{QStringLiteral("dev.provender.provider"), provider.toString()},
                       {QStringLiteral("dev.provender.version"), version.toString()}};
}

/// The referrers list (an image index) as the referrers API or the tag serves it.
Result<QJsonArray> referrersOf(const QByteArray &body, const QString &what)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &e);
    if (e.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::CorruptArchive, QStringLiteral("%1 is not a JSON image index").arg(what));
    const QJsonObject o = doc.object();
    if (o.value(QLatin1StringView("mediaType")).toString() != kMediaTypeIndex)
        return makeError(
            ErrorCode::CorruptArchive,
            QStringLiteral("%1 is not an image index (mediaType \"%2\")").arg(what, o.value(QLatin1StringView("mediaType")).toString()));
    return o.value(QLatin1StringView("manifests")).toArray();
}

} // namespace

Result<std::optional<ProvenanceFiles>> readProvenanceFolder(const QString &mirrorRoot, const ProviderAddress &provider,
                                                            const Version &version)
{
    const QString dir = provenanceDirectory(mirrorRoot, provider, version);
    if (mirrorRoot.isEmpty() || !QFileInfo(dir).isDir())
        return std::optional<ProvenanceFiles>();
    QByteArray parts[3];
    for (int i = 0; i < 3; ++i) {
        QFile f(dir + QLatin1Char('/') + QLatin1StringView(kFileNames[i]));
        if (!f.open(QIODevice::ReadOnly))
            return makeError(ErrorCode::Io, QStringLiteral("%1: %2").arg(f.fileName(), f.errorString()));
        if (f.size() > kMaxProvenanceFile)
            return makeError(ErrorCode::Io, QStringLiteral("%1: larger than 4 MiB").arg(f.fileName()));
        parts[i] = f.readAll();
    }
    return std::optional<ProvenanceFiles>(ProvenanceFiles{parts[0], parts[1], parts[2]});
}

QString referrersTag(const QString &digest)
{
    const qsizetype colon = digest.indexOf(QLatin1Char(':'));
    const QString algorithm = digest.left(colon).left(32);
    const QString encoded = digest.mid(colon + 1).left(64);
    QString tag = algorithm + QLatin1Char('-') + encoded;
    // `<tag>`: [a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}; anything else becomes '-'.
    for (QChar &c : tag)
        if (!(c.unicode() < 128 && (c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('.') || c == QLatin1Char('-'))))
            c = QLatin1Char('-');
    return tag;
}

QList<ProvenanceLayer> provenanceLayers(const ProvenanceFiles &files)
{
    const QByteArray *data[3] = {&files.sums, &files.signature, &files.keys};
    const QLatin1StringView types[3] = {kMediaTypeSha256Sums, kMediaTypePgpSignature, kMediaTypePgpKeys};
    QList<ProvenanceLayer> out;
    for (int i = 0; i < 3; ++i)
        out.append(ProvenanceLayer{QString(types[i]), digestOf(*data[i]), data[i]->size(), QString::fromLatin1(kFileNames[i])});
    return out;
}

QByteArray buildProvenanceManifest(const QString &subjectDigest, qint64 subjectSize, const QList<ProvenanceLayer> &layers,
                                   const ProviderAddress &provider, const Version &version)
{
    QJsonArray layerArray;
    for (const ProvenanceLayer &l : layers)
        layerArray.append(QJsonObject{{QStringLiteral("mediaType"), l.mediaType},
                                      {QStringLiteral("digest"), l.digest},
                                      {QStringLiteral("size"), l.size},
                                      {QStringLiteral("annotations"), QJsonObject{{QString(kAnnotationTitle), l.title}}}});
    const QJsonObject manifest{
        {QStringLiteral("schemaVersion"), 2},
        {QStringLiteral("mediaType"), QString(kMediaTypeManifest)},
        {QStringLiteral("artifactType"), QString(kArtifactTypeReleaseProvenance)},
        {QStringLiteral("config"), emptyConfig()},
        {QStringLiteral("layers"), layerArray},
        {QStringLiteral("subject"),
         QJsonObject{{QStringLiteral("mediaType"), QString(kMediaTypeIndex)},
                     {QStringLiteral("digest"), subjectDigest},
                     {QStringLiteral("size"), subjectSize}}},
        {QStringLiteral("annotations"), annotationsOf(provider, version)},
    };
    return QJsonDocument(manifest).toJson(QJsonDocument::Compact);
}

Result<ProvenancePush> pushProvenance(OciClient &client, const QString &subjectDigest, qint64 subjectSize, const ProviderAddress &provider,
                                      const Version &version, const ProvenanceFiles &files, bool dryRun,
                                      const std::function<Result<void>(const QString &digest, const QByteArray &data)> &ensureBlob)
{
    ProvenancePush out;
    const QByteArray empty(kEmptyConfigData.data(), kEmptyConfigData.size());
    const QList<ProvenanceLayer> layers = provenanceLayers(files);
    const QByteArray *data[3] = {&files.sums, &files.signature, &files.keys};
    if (Result<void> e = ensureBlob(digestOf(empty), empty); !e.ok())
        return e.error();
    for (int i = 0; i < 3; ++i)
        if (Result<void> e = ensureBlob(layers.at(i).digest, *data[i]); !e.ok())
            return e.error();
    // 1. The artifact by digest (a registry MUST accept a subject it does not know yet; ours exists).
    const QByteArray manifest = buildProvenanceManifest(subjectDigest, subjectSize, layers, provider, version);
    out.artifactDigest = digestOf(manifest);
    const Result<FetchedManifest> existing = client.headManifest(out.artifactDigest, OciClient::Absent::IsAnswer);
    if (!existing.ok() && existing.error().code != ErrorCode::NotFound)
        return existing.error();
    if (!existing.ok() && !dryRun) {
        const Result<QString> put = client.putManifest(out.artifactDigest, kMediaTypeManifest, manifest);
        if (!put.ok())
            return put.error();
        out.manifestWritten = true;
    }
    // 2. The referrers: the registry's own API when it has one and lists the artifact ...
    const Result<std::optional<QByteArray>> api = client.getReferrers(subjectDigest);
    if (!api.ok())
        return api.error();
    if (api.value()) {
        const Result<QJsonArray> listed = referrersOf(*api.value(), QStringLiteral("the referrers of %1").arg(subjectDigest));
        if (listed.ok())
            for (const QJsonValue &v : listed.value())
                if (v.toObject().value(QLatin1StringView("digest")).toString() == out.artifactDigest) {
                    out.referrers = QStringLiteral("api");
                    return out;
                }
    }
    // ... else the referrers tag schema: pull the list, add the descriptor once, push it back.
    const QString tag = referrersTag(subjectDigest);
    out.referrers = tag;
    QJsonArray entries;
    const Result<FetchedManifest> current = client.getManifest(tag, 4ll << 20, OciClient::Absent::IsAnswer);
    if (current.ok()) {
        const Result<QJsonArray> listed = referrersOf(current.value().body, QStringLiteral("the referrers tag %1").arg(tag));
        if (!listed.ok())
            return listed.error(); // the spec: report a failure and skip the remaining steps
        entries = listed.value();
    } else if (current.error().code != ErrorCode::NotFound) {
        return current.error();
    }
    for (const QJsonValue &v : std::as_const(entries))
        if (v.toObject().value(QLatin1StringView("digest")).toString() == out.artifactDigest)
            return out;
    entries.append(QJsonObject{{QStringLiteral("mediaType"), QString(kMediaTypeManifest)},
                               {QStringLiteral("digest"), out.artifactDigest},
                               {QStringLiteral("size"), qint64(manifest.size())},
                               {QStringLiteral("artifactType"), QString(kArtifactTypeReleaseProvenance)},
                               {QStringLiteral("annotations"), annotationsOf(provider, version)}});
    if (dryRun)
        return out;
    const QJsonObject index{{QStringLiteral("schemaVersion"), 2},
                            {QStringLiteral("mediaType"), QString(kMediaTypeIndex)},
                            {QStringLiteral("manifests"), entries}};
    const Result<QString> put = client.putManifest(tag, kMediaTypeIndex, QJsonDocument(index).toJson(QJsonDocument::Compact));
    if (!put.ok())
        return put.error();
    out.referrersTagWritten = true;
    return out;
}

Result<QList<FetchedProvenance>> fetchProvenance(OciClient &client, const QString &subjectDigest)
{
    QList<FetchedProvenance> out;
    QJsonArray entries;
    QString via;
    const Result<std::optional<QByteArray>> api = client.getReferrers(subjectDigest);
    if (api.ok() && api.value()) {
        const Result<QJsonArray> listed = referrersOf(*api.value(), QStringLiteral("the referrers of %1").arg(subjectDigest));
        if (!listed.ok())
            return listed.error();
        entries = listed.value();
        via = QStringLiteral("referrers API");
    } else {
        // A 404 (no referrers API): the tag schema; a tag that is missing or no index: none.
        const QString tag = referrersTag(subjectDigest);
        const Result<FetchedManifest> got = client.getManifest(tag, 4ll << 20, OciClient::Absent::IsAnswer);
        if (!got.ok())
            return got.error().code == ErrorCode::NotFound ? Result<QList<FetchedProvenance>>(out) : got.error();
        const Result<QJsonArray> listed = referrersOf(got.value().body, QStringLiteral("the referrers tag %1").arg(tag));
        if (!listed.ok())
            return out;
        entries = listed.value();
        via = QStringLiteral("referrers tag ") + tag;
    }
    for (const QJsonValue &v : std::as_const(entries)) {
        const QJsonObject d = v.toObject();
        if (d.value(QLatin1StringView("artifactType")).toString() != kArtifactTypeReleaseProvenance)
            continue;
        const QString digest = d.value(QLatin1StringView("digest")).toString();
        const qint64 size = d.value(QLatin1StringView("size")).toInteger(-1);
        if (Result<void> s = checkManifestSize(size); !s.ok() || size < 0)
            return makeError(ErrorCode::CorruptArchive, QStringLiteral("provenance artifact %1: size %2 refused").arg(digest).arg(size));
        const Result<FetchedManifest> got = client.getManifest(digest, size);
        if (!got.ok())
            return got.error();
        if (Result<void> ok = checkManifestDigest(got.value().body, digest); !ok.ok())
            return makeError(ErrorCode::CorruptArchive, QStringLiteral("provenance artifact %1: %2").arg(digest, ok.error().message));
        const QJsonObject m = QJsonDocument::fromJson(got.value().body).object();
        const QString subject = m.value(QLatin1StringView("subject")).toObject().value(QLatin1StringView("digest")).toString();
        if (m.value(QLatin1StringView("artifactType")).toString() != kArtifactTypeReleaseProvenance || subject != subjectDigest)
            return makeError(
                ErrorCode::CorruptArchive,
                QStringLiteral("provenance artifact %1 is listed for %2 but its subject is \"%3\"").arg(digest, subjectDigest, subject));
        FetchedProvenance f;
        f.artifactDigest = digest;
        f.via = via;
        QByteArray *into[3] = {&f.files.sums, &f.files.signature, &f.files.keys};
        int found = 0;
        for (const QJsonValue &lv : m.value(QLatin1StringView("layers")).toArray()) {
            const QJsonObject l = lv.toObject();
            const QString title = l.value(QLatin1StringView("annotations")).toObject().value(kAnnotationTitle).toString();
            for (int i = 0; i < 3; ++i) {
                if (title != QLatin1StringView(kFileNames[i]))
                    continue;
                const qint64 blobSize = l.value(QLatin1StringView("size")).toInteger(-1);
                if (blobSize < 0 || blobSize > kMaxProvenanceFile)
                    return makeError(ErrorCode::CorruptArchive,
                                     QStringLiteral("provenance artifact %1: %2 declares %3 bytes").arg(digest, title).arg(blobSize));
                QByteArray bytes;
                const Result<qint64> blob =
                    client.fetchBlob(l.value(QLatin1StringView("digest")).toString(), blobSize, [&bytes](const char *p, qint64 n) {
                        bytes.append(p, n);
                        return true;
                    });
                if (!blob.ok())
                    return makeError(blob.error().code,
                                     QStringLiteral("provenance artifact %1: %2: %3").arg(digest, title, blob.error().message));
                *into[i] = bytes;
                ++found;
            }
        }
        if (found != 3)
            return makeError(ErrorCode::CorruptArchive,
                             QStringLiteral("provenance artifact %1 lacks SHA256SUMS, SHA256SUMS.sig or keys.asc").arg(digest));
        out.append(f);
    }
    return out;
}

Result<SignedSums> checkProvenance(const QString &repository, const QList<FetchedProvenance> &found, const SignatureOptions &options)
{
    QStringList why;
    for (const FetchedProvenance &f : found) {
        const SignatureCheck check = verifyDetachedSignature(f.files.sums, f.files.signature, {f.files.keys}, options);
        const QString document = QStringLiteral("oci://%1@%2").arg(repository, f.artifactDigest);
        if (check.valid)
            return SignedSums{f.files.sums, document + QStringLiteral(", key ID ") + check.keyId, check};
        why.append(QStringLiteral("%1: %2").arg(document, check.reason));
    }
    return makeError(ErrorCode::InvalidArgument, why.isEmpty() ? QStringLiteral("no provenance artifact") : why.join(QStringLiteral("; ")));
}

} // namespace provender::oci
