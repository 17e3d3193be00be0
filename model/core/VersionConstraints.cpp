#include "model/core/VersionConstraints.h"

#include "model/core/GoCompat.h"
#include "model/core/VersionScanner.h"

#include <QSet>

namespace provender {

namespace {

using Op = VersionConstraints::Operator;
using Item = VersionConstraints::Item;

struct ItemParse
{
    Item item;
    qsizetype consumed = 0; ///< bytes of the input the scanner used
    QString error;          ///< empty on success
};

/// go-versions parseRubyStyle: one item from the start of `str`.
ItemParse parseRubyStyle(QByteArrayView str)
{
    ItemParse out;
    const detail::ScanResult scan = detail::scanConstraint(str);
    const detail::RawConstraint &raw = scan.raw;
    out.consumed = str.size() - scan.remain.size();
    auto fail = [&](const QString &message) {
        out.error = message;
        return out;
    };

    const QByteArrayView op(raw.op);
    if (op == "=" || op.isEmpty())
        out.item.op = Op::Equal;
    else if (op == "!=")
        out.item.op = Op::NotEqual;
    else if (op == ">")
        out.item.op = Op::Greater;
    else if (op == ">=")
        out.item.op = Op::GreaterOrEqual;
    else if (op == "<")
        out.item.op = Op::Less;
    else if (op == "<=")
        out.item.op = Op::LessOrEqual;
    else if (op == "~>")
        out.item.op = raw.numCt == 3 ? Op::PessimisticPatch : Op::PessimisticMinor;
    else if (op == "=<")
        return fail(QStringLiteral("invalid constraint operator %1; did you mean \"<=\"?").arg(gocompat::quote(op)));
    else if (op == "=>")
        return fail(QStringLiteral("invalid constraint operator %1; did you mean \">=\"?").arg(gocompat::quote(op)));
    else
        return fail(QStringLiteral("invalid constraint operator %1").arg(gocompat::quote(op)));

    if (raw.sep.isEmpty()) {
        // no separator is always fine
    } else if (raw.sep == " ") {
        if (op.isEmpty())
            return fail(QStringLiteral("extraneous spaces at start of specification"));
    } else {
        if (raw.sep.contains('v'))
            return fail(QStringLiteral("a \"v\" prefix should not be used when specifying versions"));
        if (op.isEmpty())
            return fail(QStringLiteral("extraneous spaces at start of specification"));
        return fail(QStringLiteral("only one space is expected after the operator %1").arg(gocompat::quote(op)));
    }

    if (raw.numCt > 3)
        return fail(QStringLiteral("too many numbered portions; only three are allowed (major, minor, patch)"));

    std::array<QByteArray, 3> nums = raw.nums;
    for (int i = 0; i < 3; ++i) {
        if (detail::isWildcardNum(nums[i])) {
            return fail(QStringLiteral("can't use wildcard for %1 number; omit segments that should be unconstrained")
                            .arg(QLatin1StringView(detail::numName(i))));
        }
    }
    if (!raw.pre.isEmpty() || !raw.meta.isEmpty()) {
        for (QByteArray &n : nums) {
            if (n.isEmpty())
                n = QByteArrayLiteral("0");
        }
    }

    // Unconstrained (omitted) parts become 0, as getproviders.VersionConstraintsString and
    // versions.MeetingConstraints both do before using the boundary.
    quint64 parts[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        if (nums[i].isEmpty())
            continue;
        // go-versions would panic on overflow; we report it.
        if (!gocompat::parseUint64(nums[i], &parts[i])) {
            return fail(QStringLiteral("%1 number %2 is too large").arg(QLatin1StringView(detail::numName(i)), gocompat::quote(nums[i])));
        }
    }
    out.item.boundary = Version(parts[0], parts[1], parts[2], QString::fromUtf8(raw.pre), QString::fromUtf8(raw.meta));
    out.item.partsGiven = raw.numCt;
    return out;
}

/// Canonical sort priority of operators (getproviders.versionSelectionsBoundaryPriority).
int operatorPriority(Op op)
{
    switch (op) {
    case Op::Greater: return 1;
    case Op::GreaterOrEqual: return 2;
    case Op::Equal: return 3;
    case Op::PessimisticPatch: return 4;
    case Op::PessimisticMinor: return 5;
    case Op::LessOrEqual: return 6;
    case Op::Less: return 7;
    case Op::NotEqual: return 8;
    }
    return 0;
}

/// getproviders.versionSelectionBoundaryCompare.
int compareBoundary(const Version &a, const Version &b)
{
    const int c = a.comparePrecedence(b);
    if (c != 0)
        return c;
    return comparePrereleaseGo(a.metadata(), b.metadata());
}

bool canonicalLess(const Item &a, const Item &b)
{
    const int c = compareBoundary(a.boundary, b.boundary);
    if (c == 0)
        return operatorPriority(a.op) < operatorPriority(b.op);
    return c < 0;
}

/// A plain top-down merge sort: always terminates and stays in bounds whatever the comparator.
template<typename T, typename Less> void mergeSort(QList<T> &items, Less less)
{
    if (items.size() < 2)
        return;
    const qsizetype mid = items.size() / 2;
    QList<T> left = items.mid(0, mid);
    QList<T> right = items.mid(mid);
    mergeSort(left, less);
    mergeSort(right, less);
    qsizetype i = 0, j = 0, k = 0;
    while (i < left.size() && j < right.size())
        items[k++] = less(right[j], left[i]) ? right[j++] : left[i++];
    while (i < left.size())
        items[k++] = left[i++];
    while (j < right.size())
        items[k++] = right[j++];
}

bool sameFields(const Version &a, const Version &b)
{
    return a.major() == b.major() && a.minor() == b.minor() && a.patch() == b.patch() && a.prerelease() == b.prerelease()
        && a.metadata() == b.metadata();
}

/// Does `v` lie in the set versions.MeetingConstraintsExact builds for this one item?
bool itemHas(const Item &item, const Version &v)
{
    const Version &lower = item.boundary; // already constrained to zero
    switch (item.op) {
    case Op::Equal: return sameFields(v, lower); // Go map-key equality: metadata counts
    case Op::NotEqual: return !sameFields(v, lower);
    case Op::Greater: return v.comparePrecedence(lower) > 0;
    case Op::GreaterOrEqual: return v.comparePrecedence(lower) >= 0;
    case Op::Less: return v.comparePrecedence(lower) < 0;
    case Op::LessOrEqual: return v.comparePrecedence(lower) <= 0;
    case Op::PessimisticMinor: {
        const Version upper(lower.major() + 1, 0, 0); // uint64 wrap-around as in Go
        return v.comparePrecedence(lower) >= 0 && v.comparePrecedence(upper) < 0;
    }
    case Op::PessimisticPatch: {
        const Version upper(lower.major(), lower.minor() + 1, 0);
        return v.comparePrecedence(lower) >= 0 && v.comparePrecedence(upper) < 0;
    }
    }
    return false;
}

} // namespace

Result<VersionConstraints> VersionConstraints::parse(QStringView text)
{
    // go-versions constraints.ParseRubyStyleMulti.
    const QByteArray utf8 = text.toUtf8();
    QByteArrayView remain = gocompat::trimSpace(utf8);
    VersionConstraints out;
    while (!remain.isEmpty()) {
        if (gocompat::trimSpace(remain).isEmpty())
            break;
        const ItemParse item = parseRubyStyle(remain);
        const QByteArrayView consumed = remain.first(item.consumed);
        if (!item.error.isEmpty()) {
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("invalid specification %1: %2").arg(gocompat::quote(consumed), item.error));
        }
        remain = gocompat::trimSpace(remain.sliced(item.consumed));
        if (!remain.isEmpty()) {
            if (remain.startsWith('v')) {
                return makeError(ErrorCode::InvalidArgument, QStringLiteral("a \"v\" prefix should not be used when specifying versions"));
            }
            if (!remain.startsWith(',')) {
                return makeError(ErrorCode::InvalidArgument, QStringLiteral("missing comma after %1").arg(gocompat::quote(consumed)));
            }
            remain = gocompat::trimSpace(remain.sliced(1));
        }
        out.m_items.append(item.item);
    }
    return out;
}

bool VersionConstraints::isCanonical(QStringView text)
{
    const Result<VersionConstraints> c = parse(text);
    return c.ok() && c->toString() == text;
}

QString VersionConstraints::toString() const
{
    // getproviders.VersionConstraintsString: de-duplicate (operator, boundary), sort, join.
    QList<Item> unique;
    QSet<QString> seen; // operator + boundary text: equal exactly when (operator, boundary) are
    for (const Item &item : m_items) {
        const QString key = QString::number(int(item.op)) + QLatin1Char(' ') + item.boundary.toString();
        if (!seen.contains(key)) {
            seen.insert(key);
            unique.append(item);
        }
    }
    mergeSort(unique, canonicalLess);

    QString out;
    for (qsizetype i = 0; i < unique.size(); ++i) {
        const Item &item = unique[i];
        if (i > 0)
            out += QStringLiteral(", ");
        switch (item.op) {
        case Op::Greater: out += QStringLiteral("> "); break;
        case Op::Less: out += QStringLiteral("< "); break;
        case Op::GreaterOrEqual: out += QStringLiteral(">= "); break;
        case Op::PessimisticPatch:
        case Op::PessimisticMinor: out += QStringLiteral("~> "); break;
        case Op::LessOrEqual: out += QStringLiteral("<= "); break;
        case Op::Equal: break;
        case Op::NotEqual: out += QStringLiteral("!= "); break;
        }
        const Version &b = item.boundary;
        out += QString::number(b.major()) + QLatin1Char('.') + QString::number(b.minor());
        if (item.op != Op::PessimisticMinor)
            out += QLatin1Char('.') + QString::number(b.patch());
        if (!b.prerelease().isEmpty())
            out += QLatin1Char('-') + b.prerelease();
        if (!b.metadata().isEmpty())
            out += QLatin1Char('+') + b.metadata();
    }
    return out;
}

bool VersionConstraints::allows(const Version &v) const
{
    // versions.MeetingConstraints: Set.Has answers "false" for the unspecified version 0.0.0
    // unless the set is All, which MeetingConstraints never returns.
    if (sameFields(v, Version()))
        return false;
    for (const Item &item : m_items) {
        if (!itemHas(item, v))
            return false;
    }
    if (!v.isPrerelease())
        return true;
    // A prerelease is in only if an `=` item names exactly this version.
    for (const Item &item : m_items) {
        if (item.op == Op::Equal && sameFields(item.boundary, v))
            return true;
    }
    return false;
}

std::optional<Version> newestAllowed(const QList<Version> &versions, const VersionConstraints &constraints)
{
    std::optional<Version> best;
    for (const Version &v : versions)
        if (constraints.allows(v) && (!best || v.comparePrecedence(*best) > 0))
            best = v;
    return best;
}

} // namespace provender
