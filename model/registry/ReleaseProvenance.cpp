#include "model/registry/ReleaseProvenance.h"

#include "model/core/Logging.h"
#include "model/registry/RegistryClient.h"
#include "model/registry/ReleaseProvenanceStore.h"
#include "model/verify/ArchiveHashing.h"

#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

QString releaseName(const ProviderAddress &provider, const Version &version)
{
    return provider.toString() + u' ' + version.toString();
}

/// Adds `sums` when `signature` over it is good by one of `keys`; the outcome goes to `report`.
void addSigned(HashProvenanceIndex &index, ReleaseProvenanceReport &report, const HashProvenanceIndex::Wanted &w, const QByteArray &sums,
               const QByteArray &signature, const QList<QByteArray> &keys, const QString &source, const SignatureOptions &options)
{
    const SignatureCheck check = verifyDetachedSignature(sums, signature, keys, options);
    if (!check.valid) {
        report.warnings << u"%1: the SHA256SUMS at %2 is not used: %3"_s.arg(releaseName(w.provider, w.version), source, check.reason);
        return;
    }
    ++report.releases;
    report.hashes += index.addSha256Sums(w.provider, w.version, sums, source, u"signed by key ID %1"_s.arg(check.keyId));
}

} // namespace

QString provenanceDirectory(const QString &mirrorRoot, const ProviderAddress &provider, const Version &version)
{
    return mirrorRoot + u'/' + provenanceRelativeDirectory(provider, version);
}

ReleaseProvenanceReport addMirrorProvenance(HashProvenanceIndex &index, const QString &mirrorRoot,
                                            const QList<HashProvenanceIndex::Wanted> &wanted, const SignatureOptions &options)
{
    ReleaseProvenanceReport report;
    if (mirrorRoot.isEmpty() || !QFileInfo(mirrorRoot).isDir())
        return report;
    for (const HashProvenanceIndex::Wanted &w : wanted) {
        const QString dir = provenanceDirectory(mirrorRoot, w.provider, w.version);
        if (!QFileInfo(dir).isDir())
            continue;
        QByteArray parts[3];
        const QString names[3] = {u"SHA256SUMS"_s, u"SHA256SUMS.sig"_s, u"keys.asc"_s};
        bool ok = true;
        for (int i = 0; i < 3 && ok; ++i) {
            QFile f(dir + u'/' + names[i]);
            // The same cap as the registry client's documents: a provenance folder is not trusted input.
            if (!f.open(QIODevice::ReadOnly) || f.size() > 4 * 1024 * 1024) {
                report.warnings << u"%1: %2 cannot be read: %3"_s.arg(releaseName(w.provider, w.version), f.fileName(),
                                                                      f.isOpen() ? u"larger than 4 MiB"_s : f.errorString());
                ok = false;
                break;
            }
            parts[i] = f.readAll();
        }
        if (ok)
            addSigned(index, report, w, parts[0], parts[1], {parts[2]}, dir + u"/SHA256SUMS"_s, options);
    }
    qCDebug(lcRegistry) << "mirror provenance:" << report.releases << "releases," << report.hashes << "hashes";
    return report;
}

ReleaseProvenanceReport addRegistryProvenance(HashProvenanceIndex &index, RegistryClient &client,
                                              const QList<HashProvenanceIndex::Wanted> &wanted, const SignatureOptions &options)
{
    ReleaseProvenanceReport report;
    QHash<QString, RegistryVersions> listed;
    for (const HashProvenanceIndex::Wanted &w : wanted) {
        const QString name = releaseName(w.provider, w.version);
        const QString key = w.provider.toString();
        if (!listed.contains(key)) {
            Result<RegistryVersions> v = client.versions(w.provider);
            if (!v.ok()) {
                report.warnings << u"%1: cannot list the registry's versions: %2"_s.arg(key, v.error().message);
                listed.insert(key, {});
                continue;
            }
            listed.insert(key, v.value());
        }
        const RegistryVersions &versions = listed[key];
        const RegistryVersion *release = nullptr;
        for (const RegistryVersion &rv : versions.versions) {
            const Result<Version> parsed = Version::parse(rv.version);
            if (parsed.ok() && parsed.value() == w.version) {
                release = &rv;
                break;
            }
        }
        if (!release || release->platforms.isEmpty()) {
            if (!versions.versions.isEmpty())
                report.warnings << u"%1: the registry lists no platform for this version"_s.arg(name);
            continue;
        }
        const Result<RegistryDownload> meta = client.download(w.provider, w.version, release->platforms.constFirst());
        if (!meta.ok()) {
            report.warnings << u"%1: %2"_s.arg(name, meta.error().message);
            continue;
        }
        const Result<QByteArray> sums = client.fetchDocument(meta->shasumsUrl);
        const Result<QByteArray> signature = sums.ok() ? client.fetchDocument(meta->shasumsSignatureUrl) : Result<QByteArray>(sums.error());
        if (!sums.ok() || !signature.ok()) {
            report.warnings << u"%1: %2"_s.arg(name, (sums.ok() ? signature : sums).error().message);
            continue;
        }
        QList<QByteArray> keys;
        for (const RegistrySigningKey &k : meta->signingKeys)
            keys << k.asciiArmor;
        addSigned(index, report, w, sums.value(), signature.value(), keys, meta->shasumsUrl.toString(), options);
    }
    return report;
}

LockProvenance buildLockProvenance(const LockMirror &mirror, const QList<HashProvenanceIndex::Wanted> &wanted,
                                   const HashRunOptions &hashing, const SignatureOptions &signature)
{
    LockProvenance out;
    // Every archive the provenance needs, hashed (or downloaded and checked) in one run.
    const ArchiveHasher hasher = lockMirrorHasher(
        mirror, hashing, [&](const ArchiveHasher &record) { (void)HashProvenanceIndex::build(mirror.catalog, wanted, record); },
        &out.hashing);
    out.index = HashProvenanceIndex::build(mirror.catalog, wanted, hasher);
    // A pulled mirror's signed SHA256SUMS name the platform of zh: hashes whose archive is absent.
    if (!mirror.network)
        out.warnings = addMirrorProvenance(out.index, mirror.catalog.root, wanted, signature).warnings;
    return out;
}

} // namespace provender
