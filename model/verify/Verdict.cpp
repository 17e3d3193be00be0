#include "model/verify/Verdict.h"

#include <QHash>

#include <algorithm>
#include <iterator>

namespace provender {

namespace {

bool isSupported(const HashString &h)
{
    return h.scheme() == HashString::Scheme::H1 || h.scheme() == HashString::Scheme::ZH;
}

void addUnique(QList<HashMatch> &into, const QList<HashMatch> &from)
{
    for (HashMatch m : from)
        if (!into.contains(m))
            into.append(m);
}

QString describeMatches(const QList<HashMatch> &matched)
{
    // Few distinct texts, many archives: share one string per combination (implicit sharing).
    thread_local QHash<quint32, QString> memo;
    quint32 key = quint32(matched.size());
    for (HashMatch m : matched)
        key = key * 4 + quint32(m) + 1;
    if (matched.size() <= 8) {
        const auto it = memo.constFind(key);
        if (it != memo.constEnd())
            return *it;
    }
    QStringList parts;
    for (HashMatch m : matched)
        parts.append(toString(m));
    const QString text = QStringLiteral("matched ") + parts.join(QStringLiteral(", "));
    if (matched.size() <= 8)
        memo.insert(key, text);
    return text;
}

/// The note for a declared/locked h1: that equals the extracted folder's h1 but not the zip's.
QString extractedOnlyNote(const PackageHashes &c, const QList<HashString> &hashes)
{
    if (c.kind != PackageHashes::Kind::Zip || c.h1Extracted.isNull() || c.h1Extracted == c.h1Zip)
        return {};
    for (const HashString &h : hashes)
        if (h == c.h1Extracted)
            return QStringLiteral(" (%1 is the h1: of the folder the zip extracts to; for a packed archive terraform "
                                  "checks h1: over the zip's own entries (HashZip), which differ because the zip has "
                                  "directory entries)")
                .arg(h.toString());
    return {};
}

/// terraform's PackageMatchesAnyHash over `hashes` in their order, for a packed (zip) or unpacked
/// (directory) package: h1: against HashZip resp. HashDir, zh: against the zip bytes (never a
/// directory). `failure` gets the hashing error Go would stop at (h1: of a zip HashZip refuses).
struct AnyMatch
{
    bool matched = false;
    QList<HashMatch> which;
    QList<HashString> unmatched; ///< supported hashes that match nothing
    QString failure;
};

AnyMatch matchAny(const PackageHashes &c, const QList<HashString> &hashes)
{
    AnyMatch out;
    const bool zip = c.kind == PackageHashes::Kind::Zip;
    for (const HashString &h : hashes) {
        if (h.scheme() == HashString::Scheme::H1) {
            const HashString &mine = zip ? c.h1Zip : c.h1Extracted;
            if (mine.isNull()) {
                if (!out.matched && out.failure.isEmpty())
                    out.failure = zip && !c.h1ZipError.isEmpty() ? c.h1ZipError : QStringLiteral("h1: not computable");
                out.unmatched.append(h);
                continue;
            }
            if (h == mine) {
                out.matched = true;
                addUnique(out.which, {zip ? HashMatch::H1Zip : HashMatch::H1Extracted});
            } else {
                out.unmatched.append(h);
            }
        } else if (h.scheme() == HashString::Scheme::ZH) {
            if (!zip)
                continue; // "A zip hash can never match an unpacked directory"
            if (h == c.zh) {
                out.matched = true;
                addUnique(out.which, {HashMatch::ZH});
            } else {
                out.unmatched.append(h);
            }
        }
    }
    return out;
}

/// The hashes of the schemes terraform checks (h1:, zh:), in their order.
QList<HashString> supportedOnly(const QList<HashString> &hashes)
{
    QList<HashString> out;
    std::copy_if(hashes.cbegin(), hashes.cend(), std::back_inserter(out), isSupported);
    return out;
}

bool hasH1(const QList<HashString> &hashes)
{
    return std::any_of(hashes.cbegin(), hashes.cend(), [](const HashString &h) { return h.scheme() == HashString::Scheme::H1; });
}

/// The verdict when \p m matched: verified, by which hashes.
VerdictDetail verifiedBy(const AnyMatch &m)
{
    VerdictDetail d;
    d.verdict = Verdict::Verified;
    d.matched = m.which;
    d.reason = describeMatches(d.matched);
    return d;
}

} // namespace

VerdictDetail decideVerdict(const PackageHashes &computed, const QList<HashString> &declared)
{
    VerdictDetail d;
    const QList<HashString> supported = supportedOnly(declared);
    if (declared.isEmpty()) {
        d.verdict = Verdict::Unverified;
        d.reason = QStringLiteral("no hash is declared for this archive (terraform installs it unchecked)");
        return d;
    }
    if (supported.isEmpty()) {
        d.verdict = Verdict::Refused;
        d.reason = QStringLiteral("this version of Terraform does not support any of the checksum formats given for "
                                  "this provider");
        return d;
    }
    const AnyMatch m = matchAny(computed, supported);
    if (m.matched) {
        VerdictDetail v = verifiedBy(m);
        v.contradicting = m.unmatched;
        return v;
    }
    d.contradicting = m.unmatched;
    if (computed.kind == PackageHashes::Kind::Directory) {
        // An index never names a directory; what would apply is the local-directory check.
        if (!hasH1(supported)) {
            d.verdict = Verdict::Unverified;
            d.reason = QStringLiteral("only zh: hashes are declared, which cannot be checked against an unpacked "
                                      "directory (terraform installs it unchecked)");
            d.contradicting.clear();
            return d;
        }
    }
    if (!m.failure.isEmpty()) {
        d.verdict = Verdict::Refused;
        d.reason = QStringLiteral("failed to verify provider package checksums: ") + m.failure;
        return d;
    }
    d.verdict = Verdict::Mismatch;
    d.reason = supported.size() == 1
        ? QStringLiteral("provider package doesn't match the expected checksum \"%1\"").arg(supported.first().toString())
        // sic: terraform's wording
        : QStringLiteral("provider package doesn't match the any of the expected checksums");
    d.reason += extractedOnlyNote(computed, supported);
    return d;
}

VerdictDetail verifyAgainstLock(const PackageHashes &computed, const QList<HashString> &lockHashes)
{
    VerdictDetail d;
    const QList<HashString> preferred = supportedOnly(lockHashes);
    const bool dir = computed.kind == PackageHashes::Kind::Directory;
    if (preferred.isEmpty() || (dir && !hasH1(preferred))) {
        d.verdict = Verdict::Unverified;
        d.reason = preferred.isEmpty() ? QStringLiteral("the lock file has no h1:/zh: hash for this provider version (terraform "
                                                        "installs it unchecked)")
                                       : QStringLiteral("the lock file has only zh: hashes, which terraform cannot check against an "
                                                        "unpacked directory (it installs it unchecked)");
        return d;
    }
    const AnyMatch m = matchAny(computed, preferred);
    if (m.matched)
        return verifiedBy(m);
    if (!m.failure.isEmpty()) {
        d.verdict = Verdict::Refused;
        d.reason = QStringLiteral("failed to calculate checksum: ") + m.failure;
        return d;
    }
    d.verdict = Verdict::Mismatch;
    d.reason = dir ? QStringLiteral("the local package doesn't match any of the checksums previously recorded in the "
                                    "dependency lock file (this might be because the available checksums are for "
                                    "packages targeting different platforms)")
                   : QStringLiteral("the current package doesn't match any of the checksums previously recorded in the "
                                    "dependency lock file");
    d.reason += extractedOnlyNote(computed, preferred);
    return d;
}

VerdictDetail combineVerdicts(const VerdictDetail &index, const VerdictDetail &lock)
{
    if (index.verdict == Verdict::Missing || index.verdict == Verdict::Error || index.verdict == Verdict::Pending)
        return index;
    VerdictDetail d;
    d.matched = index.matched;
    addUnique(d.matched, lock.matched);
    d.contradicting = index.contradicting;
    for (const HashString &h : lock.contradicting)
        if (!d.contradicting.contains(h))
            d.contradicting.append(h);
    d.notCoveredByLock = index.notCoveredByLock || lock.notCoveredByLock;
    auto either = [&](Verdict v) { return index.verdict == v || lock.verdict == v; };
    if (either(Verdict::Mismatch))
        d.verdict = Verdict::Mismatch;
    else if (either(Verdict::Refused))
        d.verdict = Verdict::Refused;
    else if (either(Verdict::Verified))
        d.verdict = Verdict::Verified;
    else
        d.verdict = Verdict::Unverified;
    if (d.verdict == Verdict::Verified) {
        // The lock (reviewed elsewhere) first: it is the stronger anchor.
        if (lock.verdict == Verdict::Verified)
            d.anchors += lock.anchors;
        if (index.verdict == Verdict::Verified)
            for (const TrustAnchor &a : index.anchors)
                if (!d.anchors.contains(a))
                    d.anchors.append(a);
    }
    QStringList reasons;
    if (index.verdict == d.verdict || d.verdict == Verdict::Unverified)
        reasons.append(QStringLiteral("index: ") + index.reason);
    if (lock.verdict == d.verdict || d.verdict == Verdict::Unverified)
        reasons.append(QStringLiteral("lock file: ") + lock.reason);
    d.reason = reasons.join(QStringLiteral("; "));
    return d;
}

QString installProblem(const PackageHashes &computed, const QString &providerType)
{
    if (computed.kind == PackageHashes::Kind::Zip && !computed.extractionProblem.isEmpty())
        return computed.extractionProblem;
    // providercache.CachedProvider.ExecutableFile: the first top-level non-directory whose name is
    // the prefix, or the prefix followed by '_' or '.'.
    const QString prefix = QStringLiteral("terraform-provider-") + providerType;
    for (const QString &name : computed.executableCandidates) {
        if (!name.startsWith(prefix))
            continue;
        const QStringView rest = QStringView(name).mid(prefix.size());
        if (rest.isEmpty() || rest.front() == QLatin1Char('_') || rest.front() == QLatin1Char('.'))
            return {};
    }
    return QStringLiteral("provider binary not found: could not find executable file starting with %1").arg(prefix);
}

void applyInstallCheck(VerdictDetail &d, const PackageHashes &computed, const QString &providerType)
{
    if (d.verdict != Verdict::Verified && d.verdict != Verdict::Unverified)
        return;
    const QString problem = installProblem(computed, providerType);
    if (problem.isEmpty())
        return;
    d.verdict = Verdict::Refused;
    d.reason = problem + (d.matched.isEmpty() ? QString() : QStringLiteral(" (the hashes %1)").arg(d.reason));
}

namespace {

/// The verdict against the source's own index, anchored by it when verified.
VerdictDetail ownIndexVerdict(const PackageHashes &computed, const QList<HashString> &declared, const TrustAnchor &indexAnchor)
{
    VerdictDetail d = decideVerdict(computed, declared);
    if (d.verdict == Verdict::Verified)
        d.anchors = {indexAnchor};
    return d;
}

/// What follows the source's own anchors: the lock file's hashes (when given), terraform's install
/// check, and no anchors unless the result is Verified.
VerdictDetail afterOwnAnchors(VerdictDetail d, const PackageHashes &computed, const QString &providerType, const QList<HashString> *lock,
                              const TrustAnchor &lockAnchor)
{
    if (lock) {
        VerdictDetail l = verifyAgainstLock(computed, *lock);
        if (l.verdict == Verdict::Verified)
            l.anchors = {lockAnchor};
        d = combineVerdicts(d, l);
    }
    applyInstallCheck(d, computed, providerType);
    if (d.verdict != Verdict::Verified)
        d.anchors.clear();
    return d;
}

} // namespace

VerdictDetail decideArchive(const PackageHashes &computed, const QString &providerType, const QList<HashString> &declared,
                            const TrustAnchor &indexAnchor, const QList<HashString> *lock, const TrustAnchor &lockAnchor)
{
    return afterOwnAnchors(ownIndexVerdict(computed, declared, indexAnchor), computed, providerType, lock, lockAnchor);
}

VerdictDetail decideBundleArchive(const PackageHashes &computed, const QString &providerType, const QList<HashString> &declared,
                                  const TrustAnchor &indexAnchor, SumsCheck sums, const TrustAnchor &sumsAnchor,
                                  const QList<HashString> *lock, const TrustAnchor &lockAnchor)
{
    VerdictDetail d = ownIndexVerdict(computed, declared, indexAnchor);
    if (sums == SumsCheck::Mismatch) {
        d.verdict = Verdict::Mismatch;
        d.anchors.clear();
        d.reason = sumsAnchor.kind == TrustAnchor::Kind::Signature
            ? QStringLiteral("the archive does not match its release's signed SHA256SUMS (its SHA-256 is %1; %2)")
                  .arg(computed.zh.toString().mid(3), sumsAnchor.document)
            : computed.kind == PackageHashes::Kind::Zip
            ? QStringLiteral("the archive does not match the bundle's SHA256SUMS (its SHA-256 is %1)").arg(computed.zh.toString().mid(3))
            : QStringLiteral("a file of the package does not match the bundle's SHA256SUMS");
        return d;
    }
    if (sums == SumsCheck::Match) {
        if (d.verdict == Verdict::Verified) {
            d.anchors.append(sumsAnchor);
        } else if (d.verdict == Verdict::Unverified) {
            d.verdict = Verdict::Verified;
            d.anchors = {sumsAnchor};
            d.reason = computed.kind == PackageHashes::Kind::Zip ? QStringLiteral("matches the bundle's SHA256SUMS")
                                                                 : QStringLiteral("every file matches the bundle's SHA256SUMS");
        }
    }
    return afterOwnAnchors(d, computed, providerType, lock, lockAnchor);
}

std::optional<VerdictDetail> decideLockBeforeDownload(const HashString &digestZh, const QList<HashString> &lock,
                                                      const PackageHashes *computed, const QString &package)
{
    const QList<HashString> preferred = supportedOnly(lock);
    if (preferred.isEmpty() || preferred.contains(digestZh))
        return std::nullopt;
    VerdictDetail d;
    const bool h1Locked = computed && verifyAgainstLock(*computed, preferred).verdict == Verdict::Verified;
    d.verdict = h1Locked ? Verdict::Error : Verdict::Mismatch;
    d.reason = QStringLiteral("the current package for %1 doesn't match any of the checksums previously recorded in the "
                              "dependency lock file")
                   .arg(package);
    if (h1Locked)
        d.reason += QStringLiteral(" (its h1: is in the lock, but tofu compares the layer digest, zh:, before downloading: add "
                                   "%1 to the lock)")
                        .arg(digestZh.toString());
    d.contradicting = preferred;
    return d;
}

VerdictDetail decideUnreadableArchive(const HashString &zh, const QString &error, const QList<HashString> &declared)
{
    VerdictDetail d;
    const QList<HashString> supported = supportedOnly(declared);
    if (!declared.isEmpty() && supported.isEmpty()) {
        d.verdict = Verdict::Refused;
        d.reason = QStringLiteral("this version of Terraform does not support any of the checksum formats given for "
                                  "this provider");
        return d;
    }
    bool matched = supported.isEmpty();
    for (const HashString &h : supported) {
        if (h.scheme() == HashString::Scheme::H1) {
            d.verdict = Verdict::Refused;
            d.reason = QStringLiteral("failed to verify provider package checksums: ") + error;
            return d;
        }
        if (h == zh) {
            matched = true;
            break;
        }
    }
    if (!matched) {
        d.verdict = Verdict::Mismatch;
        d.contradicting = supported;
        d.reason = supported.size() == 1
            ? QStringLiteral("provider package doesn't match the expected checksum \"%1\"").arg(supported.first().toString())
            : QStringLiteral("provider package doesn't match the any of the expected checksums");
        return d;
    }
    d.verdict = Verdict::Error;
    d.reason = error;
    return d;
}

VerdictDetail decideUnreadableAgainstLock(const HashString &zh, const QString &error, const QList<HashString> &lock,
                                          const TrustAnchor &lockAnchor)
{
    VerdictDetail d;
    d.verdict = Verdict::Error;
    d.reason = error;
    for (const HashString &h : lock) {
        if (!isSupported(h))
            continue;
        if (h.scheme() == HashString::Scheme::H1) {
            d.verdict = Verdict::Refused;
            d.reason = QStringLiteral("failed to calculate checksum: ") + error;
            return d;
        }
        if (h == zh) {
            d.verdict = Verdict::Error; // the checksum holds; extracting fails
            return d;
        }
        d.verdict = Verdict::Mismatch;
    }
    if (d.verdict == Verdict::Mismatch) {
        d.reason = QStringLiteral("the current package doesn't match any of the checksums previously recorded in the dependency "
                                  "lock file");
        d.anchors = {lockAnchor};
        d.contradicting.append(supportedOnly(lock));
    }
    return d;
}

void applyInvalidDeclaredHashes(VerdictDetail &d, const QStringList &invalidHashes, const QString &indexDocument)
{
    if (invalidHashes.isEmpty() || d.verdict == Verdict::Missing || d.verdict == Verdict::Error)
        return;
    d.verdict = Verdict::Refused;
    d.anchors.clear();
    d.reason = QStringLiteral("failed to query provider mirror%1: provider mirror returned invalid provider hash \"%2\": "
                              "hash string must start with a scheme keyword followed by a colon")
                   .arg(indexDocument.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(indexDocument), invalidHashes.first());
}

QString toString(Verdict v)
{
    switch (v) {
    case Verdict::Pending: return QStringLiteral("pending");
    case Verdict::Verified: return QStringLiteral("verified");
    case Verdict::Mismatch: return QStringLiteral("mismatch");
    case Verdict::Unverified: return QStringLiteral("unverified");
    case Verdict::Missing: return QStringLiteral("missing");
    case Verdict::Error: return QStringLiteral("error");
    case Verdict::Refused: return QStringLiteral("refused");
    }
    return QStringLiteral("error");
}

QString toString(HashMatch m)
{
    switch (m) {
    case HashMatch::H1Zip: return QStringLiteral("h1 (zip)");
    case HashMatch::H1Extracted: return QStringLiteral("h1 (extracted)");
    case HashMatch::ZH: return QStringLiteral("zh");
    }
    return {};
}

QString toString(TrustAnchor::Kind k)
{
    switch (k) {
    case TrustAnchor::Kind::OwnIndex: return QStringLiteral("own-index");
    case TrustAnchor::Kind::OwnChecksums: return QStringLiteral("own-checksums");
    case TrustAnchor::Kind::LockFile: return QStringLiteral("lock-file");
    case TrustAnchor::Kind::Signature: return QStringLiteral("signature");
    }
    return {};
}

QString describe(const TrustAnchor &a)
{
    const QString where = a.document.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(a.document);
    switch (a.kind) {
    case TrustAnchor::Kind::OwnIndex: return QStringLiteral("consistent with its own index") + where;
    case TrustAnchor::Kind::OwnChecksums: return QStringLiteral("consistent with its own SHA256SUMS") + where;
    case TrustAnchor::Kind::LockFile:
        return QStringLiteral("lock file ") + (a.document.isEmpty() ? QStringLiteral("(unnamed)") : a.document);
    case TrustAnchor::Kind::Signature:
        if (a.keyId.isEmpty()) // the document names the key (RegistrySource: "<SHA256SUMS URL> signed by key ID X")
            return QStringLiteral("signature") + where;
        return QStringLiteral("signed by %1").arg(a.keyId) + (a.signer.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(a.signer))
            + where;
    }
    return {};
}

QString describeAnchors(const VerdictDetail &d)
{
    if (d.anchors.isEmpty())
        return d.notCoveredByLock ? QStringLiteral("nothing: no lock file given covers this provider version") : QStringLiteral("nothing");
    QStringList parts;
    for (const TrustAnchor &a : d.anchors)
        parts.append(describe(a));
    if (d.notCoveredByLock)
        parts.append(QStringLiteral("no lock file given covers this provider version"));
    return parts.join(QStringLiteral("; "));
}

std::optional<Verdict> verdictFromString(QStringView s)
{
    for (Verdict v : allVerdicts())
        if (s == toString(v))
            return v;
    return std::nullopt;
}

QList<Verdict> allVerdicts()
{
    return {Verdict::Pending, Verdict::Verified, Verdict::Mismatch, Verdict::Unverified,
            Verdict::Missing, Verdict::Error,    Verdict::Refused};
}

} // namespace provender
