#include "model/verify/Verdict.h"

#include <QHash>

namespace provender {

namespace {

// Which computed hashes does `h` equal? Empty list: none (or not computable for this package).
QList<HashMatch> matchesOf(const PackageHashes &c, const HashString &h)
{
    QList<HashMatch> out;
    if (h.scheme() == HashString::Scheme::H1) {
        if (c.kind == PackageHashes::Kind::Zip && !c.h1Zip.isNull() && h == c.h1Zip)
            out.append(HashMatch::H1Zip);
        if (!c.h1Extracted.isNull() && h == c.h1Extracted)
            out.append(HashMatch::H1Extracted);
    } else if (h.scheme() == HashString::Scheme::ZH) {
        if (c.kind == PackageHashes::Kind::Zip && !c.zh.isNull() && h == c.zh)
            out.append(HashMatch::ZH);
    }
    return out;
}

// Can this declared hash be checked against this package at all? (zh: against a directory cannot.)
bool computable(const PackageHashes &c, const HashString &h)
{
    switch (h.scheme()) {
    case HashString::Scheme::H1:
        return true;
    case HashString::Scheme::ZH:
        return c.kind == PackageHashes::Kind::Zip;
    case HashString::Scheme::Other:
        return false;
    }
    return false;
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

} // namespace

VerdictDetail decideVerdict(const PackageHashes &computed, const QList<HashString> &declared)
{
    VerdictDetail d;
    bool anyCheckable = false;
    for (const HashString &h : declared) {
        if (!computable(computed, h))
            continue;
        anyCheckable = true;
        const QList<HashMatch> m = matchesOf(computed, h);
        if (m.isEmpty())
            d.contradicting.append(h);
        else
            addUnique(d.matched, m);
    }
    if (!anyCheckable) {
        d.verdict = Verdict::Unverified;
        d.reason = declared.isEmpty() ? QStringLiteral("no hash is declared for this archive")
                                      : QStringLiteral("no declared hash can be checked against this package");
    } else if (!d.contradicting.isEmpty()) {
        d.verdict = Verdict::Mismatch;
        d.reason = QStringLiteral("declared %1 matches no computed hash").arg(d.contradicting.first().toString());
    } else {
        d.verdict = Verdict::Verified;
        d.reason = describeMatches(d.matched);
    }
    return d;
}

VerdictDetail verifyAgainstLock(const PackageHashes &computed, const QList<HashString> &lockHashes)
{
    VerdictDetail d;
    bool anyCheckable = false;
    for (const HashString &h : lockHashes) {
        if (!computable(computed, h))
            continue;
        anyCheckable = true;
        addUnique(d.matched, matchesOf(computed, h));
    }
    if (!anyCheckable) {
        d.verdict = Verdict::Unverified;
        d.reason = QStringLiteral("the lock file has no hash that can be checked against this package");
    } else if (d.matched.isEmpty()) {
        d.verdict = Verdict::Mismatch;
        d.reason = QStringLiteral("none of the lock file's hashes matches this package");
    } else {
        d.verdict = Verdict::Verified;
        d.reason = describeMatches(d.matched);
    }
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
    if (index.verdict == Verdict::Mismatch || lock.verdict == Verdict::Mismatch)
        d.verdict = Verdict::Mismatch;
    else if (index.verdict == Verdict::Verified || lock.verdict == Verdict::Verified)
        d.verdict = Verdict::Verified;
    else
        d.verdict = Verdict::Unverified;
    QStringList reasons;
    if (index.verdict == d.verdict || d.verdict == Verdict::Unverified)
        reasons.append(QStringLiteral("index: ") + index.reason);
    if (lock.verdict == d.verdict || d.verdict == Verdict::Unverified)
        reasons.append(QStringLiteral("lock file: ") + lock.reason);
    d.reason = reasons.join(QStringLiteral("; "));
    return d;
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

std::optional<Verdict> verdictFromString(QStringView s)
{
    for (Verdict v : {Verdict::Pending, Verdict::Verified, Verdict::Mismatch, Verdict::Unverified,
                      Verdict::Missing, Verdict::Error})
        if (s == toString(v))
            return v;
    return std::nullopt;
}

} // namespace provender
