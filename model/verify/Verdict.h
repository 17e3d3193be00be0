#pragma once
// One vocabulary everywhere: badges, CLI, JSON, tests (DESIGN.md "Verdicts").

#include "model/core/HashString.h"
#include "model/hashing/PackageHashes.h"

#include <QList>
#include <QString>

#include <optional>

namespace provender {

enum class Verdict { Pending, Verified, Mismatch, Unverified, Missing, Error };

/// Which computed hash a declared hash matched.
enum class HashMatch { H1Zip, H1Extracted, ZH };

struct VerdictDetail
{
    Verdict verdict = Verdict::Pending;
    QList<HashMatch> matched;           ///< which computed hashes matched a declared one
    QList<HashString> contradicting;    ///< declared h1:/zh: hashes that match nothing computed
    QString reason;                     ///< for Error/Missing: why; for Verified: which hash matched
};

/// Decide a verdict from the computed hashes of a present archive and the declared hashes.
/// Unknown schemes are ignored. A declared `h1:` matching either the zip-level or the
/// extracted-folder h1 counts as a match (never reported as tampering).
///
/// Rule for several declared hashes: an index lists hashes of *this* archive, so any declared
/// h1:/zh: that matches nothing makes it a Mismatch. (Lock files list hashes of every platform;
/// callers comparing against a lock pass only "does any match", see verifyAgainstLock.)
VerdictDetail decideVerdict(const PackageHashes &computed, const QList<HashString> &declared);

/// Lock-file semantics: the lock lists hashes for all platforms, so the archive is Verified when
/// one of them matches, Mismatch when the lock has h1:/zh: hashes but none matches.
VerdictDetail verifyAgainstLock(const PackageHashes &computed, const QList<HashString> &lockHashes);

/// Both an index's declared hashes and a lock file's hashes apply to one archive: Mismatch when
/// either contradicts, else Verified when either verifies, else Unverified. Missing/Error/Pending
/// in `a` win (they say the archive could not be hashed at all).
VerdictDetail combineVerdicts(const VerdictDetail &index, const VerdictDetail &lock);

QString toString(Verdict v);     ///< "verified", "mismatch", "unverified", "missing", "error", "pending"
QString toString(HashMatch m);   ///< "h1 (zip)", "h1 (extracted)", "zh"
std::optional<Verdict> verdictFromString(QStringView s);

} // namespace provender
