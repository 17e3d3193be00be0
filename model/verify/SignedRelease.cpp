#include "model/verify/SignedRelease.h"

#include "model/mirror/FileSystemMirror.h"

using namespace Qt::StringLiterals;

namespace provender {

TrustAnchor signatureAnchor(const SignedRelease &release)
{
    TrustAnchor a{TrustAnchor::Kind::Signature, release.document};
    a.keyId = release.keyId;
    a.signer = release.userIds.value(0);
    return a;
}

void applySignedRelease(VerdictDetail &d, const PackageHashes &computed, const QString &providerType, const Version &version,
                        const Platform &platform, const SignedRelease &release)
{
    if (d.verdict != Verdict::Verified && d.verdict != Verdict::Unverified)
        return;
    if (computed.kind != PackageHashes::Kind::Zip)
        return; // an unpacked package: the signed sums are of zips, which are not here
    const QString sums = release.document.isEmpty() ? u"the release's SHA256SUMS"_s : release.document;
    if (!release.valid) {
        d.verdict = Verdict::Refused;
        d.anchors.clear();
        d.reason = u"the signature of %1 is not good: %2"_s.arg(sums, release.reason);
        return;
    }
    const QString fileName = u"terraform-provider-%1_%2_%3.zip"_s.arg(providerType, version.toString(), platform.toString());
    const QString who = u"signed by key ID %1"_s.arg(release.keyId);
    QList<const Sha256SumsEntry *> own;
    const Sha256SumsEntry *elsewhere = nullptr;
    for (const Sha256SumsEntry &e : release.entries) {
        const bool same = HashString::zh(QString::fromLatin1(e.sha256.toHex())) == computed.zh;
        const Result<PackedName> name = parsePackedArchiveName(e.filename, providerType);
        if (name.ok() && name->version == version && name->platform == platform)
            own.append(&e);
        else if (same && !elsewhere)
            elsewhere = &e;
    }
    for (const Sha256SumsEntry *e : std::as_const(own)) {
        if (HashString::zh(QString::fromLatin1(e->sha256.toHex())) != computed.zh)
            continue;
        const TrustAnchor anchor = signatureAnchor(release);
        if (d.verdict == Verdict::Unverified) {
            d.verdict = Verdict::Verified;
            d.anchors = {anchor};
            d.reason = u"matches the SHA256SUMS %1"_s.arg(who);
        } else if (!d.anchors.contains(anchor)) {
            // After a lock file (reviewed elsewhere), before the source's own documents.
            qsizetype at = 0;
            while (at < d.anchors.size() && !d.anchors.at(at).isSelfConsistencyOnly())
                ++at;
            d.anchors.insert(at, anchor);
        }
        if (!d.matched.contains(HashMatch::ZH))
            d.matched.append(HashMatch::ZH);
        return;
    }
    d.anchors.clear();
    if (!own.isEmpty()) {
        // terraform's archiveChecksumAuthentication.
        d.verdict = Verdict::Mismatch;
        d.reason = u"archive has incorrect checksum %1 (expected zh:%2 from %3, %4)"_s.arg(
            computed.zh.toString(), QString::fromLatin1(own.constFirst()->sha256.toHex()), sums, who);
    } else if (elsewhere) {
        d.verdict = Verdict::Mismatch;
        d.reason = u"the archive is listed as %1 in %2 (%3), not as %4"_s.arg(
            elsewhere->filename.isEmpty() ? u"a name that is not UTF-8"_s : elsewhere->filename, sums, who, fileName);
    } else {
        // terraform's matchingChecksumAuthentication.
        d.verdict = Verdict::Refused;
        d.reason = u"checksum list has no SHA-256 hash for \"%1\" (%2, %3)"_s.arg(fileName, sums, who);
    }
}

} // namespace provender
