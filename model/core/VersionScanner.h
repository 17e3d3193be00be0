#pragma once
// Internal: the tokenizer shared by Version::parse and VersionConstraints::parse. It reproduces
// the state machine of go-versions' `scanConstraint` (versions/constraints/raw_scan.rl) byte for
// byte, including its quirks:
//  * `op` is any run of bytes that are not digits, ASCII spaces, ASCII letters, `.` or `*`;
//  * `sep` is a run of spaces and `v`;
//  * numbers are digit runs or a wildcard `*`/`x`/`X`; only the first three are kept, all counted;
//  * a bare trailing `-`, `+` or `.` at the end of input is swallowed;
//  * when the operator is followed directly by something that cannot start a version, `sep` gets
//    the same bytes as `op` (so `>=garbage` reports "only one space is expected after ...").
// Scanning stops at the first byte that does not fit; the rest is returned as `remain`.

#include <QByteArray>
#include <QByteArrayView>

#include <array>

namespace provender::detail {

struct RawConstraint
{
    QByteArray op;
    QByteArray sep;
    std::array<QByteArray, 3> nums;
    int numCt = 0;
    QByteArray pre;
    QByteArray meta;
};

struct ScanResult
{
    RawConstraint raw;
    QByteArray remain;
};

ScanResult scanConstraint(QByteArrayView data);

inline bool isWildcardNum(QByteArrayView s)
{
    return s == "*" || s == "x" || s == "X";
}

inline const char *numName(int i)
{
    static const char *const names[] = {"major", "minor", "patch"};
    return names[i];
}

} // namespace provender::detail
