#include "model/core/Version.h"

#include "model/core/GoCompat.h"
#include "model/core/VersionScanner.h"

#include <QHash>

namespace provender {

namespace {

Error parseError(const QString &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

QString fromUtf8(QByteArrayView b)
{
    return QString::fromUtf8(b);
}

bool startsWith(QByteArrayView s, char c)
{
    return !s.isEmpty() && s[0] == c;
}

bool allDigits(QStringView s)
{
    for (const QChar ch : s) {
        if (ch < QLatin1Char('0') || ch > QLatin1Char('9'))
            return false;
    }
    return true;
}

/// go-versions lessThanStr: all-digit identifiers sort before others; two all-digit ones compare
/// by length, then lexically; anything else byte-wise.
bool lessThanIdentifier(QStringView a, QStringView b)
{
    const bool aNum = allDigits(a);
    const bool bNum = allDigits(b);
    if (aNum && !bNum)
        return true;
    if (bNum && !aNum)
        return false;
    if (aNum) {
        if (a.size() != b.size())
            return a.size() < b.size();
        return a < b;
    }
    return gocompat::compareUtf8(a, b) < 0;
}

/// go-versions VersionExtra.LessThan.
bool lessThanExtra(QStringView s1, QStringView s2)
{
    if (s1 == s2)
        return false;
    for (;;) {
        const qsizetype d1 = s1.indexOf(QLatin1Char('.'));
        const qsizetype d2 = s2.indexOf(QLatin1Char('.'));
        if (d1 == -1 && d2 != -1)
            return true; // s1 is on its last identifier: it is smaller, whatever the identifiers say
        if (d2 == -1 && d1 != -1)
            return false;
        if (d1 == -1)
            return lessThanIdentifier(s1, s2);
        const QStringView a = s1.left(d1);
        const QStringView b = s2.left(d2);
        if (a != b)
            return lessThanIdentifier(a, b);
        s1 = s1.mid(d1 + 1);
        s2 = s2.mid(d2 + 1);
    }
}

} // namespace

int comparePrereleaseGo(QStringView a, QStringView b)
{
    if (a == b)
        return 0;
    return lessThanExtra(a, b) ? -1 : 1;
}

Version::Version(quint64 major, quint64 minor, quint64 patch, QString prerelease, QString metadata)
    : m_major(major),
      m_minor(minor),
      m_patch(patch),
      m_prerelease(std::move(prerelease)),
      m_metadata(std::move(metadata))
{}

Result<Version> Version::parse(QStringView text)
{
    // go-versions constraints.ParseExactVersion, step by step.
    const QByteArray utf8 = text.toUtf8();
    const QByteArrayView vs(utf8);
    if (gocompat::trimSpace(vs).isEmpty())
        return parseError(QStringLiteral("empty specification"));

    const detail::ScanResult scan = detail::scanConstraint(vs);
    const detail::RawConstraint &raw = scan.raw;

    const QByteArrayView op = gocompat::trimSpace(raw.op);
    if (op == ">" || op == ">=" || op == "<" || op == "<=" || op == "!" || op == "!=" || op == "~>" || op == "^" || op == "~") {
        return parseError(QStringLiteral("can't use constraint operator %1; an exact version is required").arg(gocompat::quote(raw.op)));
    }
    if (op.isEmpty()) {
        if (!raw.sep.isEmpty()) {
            if (raw.sep.contains('v'))
                return parseError(QStringLiteral("a \"v\" prefix should not be used"));
            return parseError(QStringLiteral("extraneous spaces at start of specification"));
        }
    } else {
        return parseError(QStringLiteral("invalid sequence %1 at start of specification").arg(gocompat::quote(raw.op)));
    }

    if (!scan.remain.isEmpty()) {
        const QByteArrayView remain = gocompat::trimSpace(scan.remain);
        if (remain.isEmpty())
            return parseError(QStringLiteral("extraneous spaces at end of specification"));
        if (startsWith(vs, 'v'))
            return parseError(QStringLiteral("a \"v\" prefix should not be used"));
        if (startsWith(remain, ',') || startsWith(remain, '|'))
            return parseError(QStringLiteral("can't specify multiple versions; a single exact version is required"));
        if (startsWith(remain, '-'))
            return parseError(QStringLiteral("can't specify version range; a single exact version is required"));
        if (gocompat::trimSpace(vs).startsWith(remain)) {
            return parseError(QStringLiteral("invalid specification; required format is three positive integers separated by periods"));
        }
        return parseError(QStringLiteral("invalid characters %1").arg(gocompat::quote(remain)));
    }

    if (raw.numCt > 3)
        return parseError(QStringLiteral("too many numbered portions; only three are allowed (major, minor, patch)"));

    std::array<QByteArray, 3> nums = raw.nums;
    for (int i = raw.numCt; i < 3; ++i)
        nums[i] = QByteArrayLiteral("0");
    for (int i = 0; i < 3; ++i) {
        if (detail::isWildcardNum(nums[i])) {
            return parseError(QStringLiteral("can't use wildcard for %1 number; an exact version is required")
                                  .arg(QLatin1StringView(detail::numName(i))));
        }
    }

    quint64 parts[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        // go-versions would panic here (strconv.ParseUint overflow); we report it instead.
        if (!gocompat::parseUint64(nums[i], &parts[i])) {
            return parseError(
                QStringLiteral("%1 number %2 is too large").arg(QLatin1StringView(detail::numName(i)), gocompat::quote(nums[i])));
        }
    }
    return Version(parts[0], parts[1], parts[2], fromUtf8(raw.pre), fromUtf8(raw.meta));
}

bool Version::isCanonical(QStringView text)
{
    const Result<Version> v = parse(text);
    return v.ok() && v->toString() == text;
}

QString Version::toString() const
{
    QString s = QString::number(m_major) + QLatin1Char('.') + QString::number(m_minor) + QLatin1Char('.') + QString::number(m_patch);
    if (!m_prerelease.isEmpty())
        s += QLatin1Char('-') + m_prerelease;
    if (!m_metadata.isEmpty())
        s += QLatin1Char('+') + m_metadata;
    return s;
}

int Version::comparePrecedence(const Version &other) const
{
    if (m_major != other.m_major)
        return m_major < other.m_major ? -1 : 1;
    if (m_minor != other.m_minor)
        return m_minor < other.m_minor ? -1 : 1;
    if (m_patch != other.m_patch)
        return m_patch < other.m_patch ? -1 : 1;
    if (m_prerelease == other.m_prerelease)
        return 0;
    if (m_prerelease.isEmpty())
        return 1; // a release is higher than any of its prereleases
    if (other.m_prerelease.isEmpty())
        return -1;
    return comparePrereleaseGo(m_prerelease, other.m_prerelease);
}

std::strong_ordering Version::operator<=>(const Version &other) const
{
    const int c = comparePrecedence(other);
    if (c != 0)
        return c < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
    return gocompat::orderUtf8(m_metadata, other.m_metadata);
}

size_t qHash(const Version &v, size_t seed) noexcept
{
    return qHashMulti(seed, v.major(), v.minor(), v.patch(), v.prerelease(), v.metadata());
}

} // namespace provender
