#include "model/core/VersionScanner.h"

namespace provender::detail {

namespace {

bool isDigit(uchar c)
{
    return c >= '0' && c <= '9';
}
bool isAlpha(uchar c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isSpace(uchar c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
} // Ragel's `space`
bool isWild(uchar c)
{
    return c == '*' || c == 'x' || c == 'X';
}
bool isSepChar(uchar c)
{
    return isSpace(c) || c == 'v';
}
bool isOpChar(uchar c)
{
    return !(isDigit(c) || isSpace(c) || isAlpha(c) || c == '.' || c == '*');
}
bool isExtraChar(uchar c)
{
    return isDigit(c) || isAlpha(c) || c == '.' || c == '-';
}

enum State {
    Start,     // nothing read yet: an operator, separator or number may follow
    InOp,      // inside the operator
    InSep,     // inside the separator
    AfterPlus, // read `+`, metadata must follow
    AfterDash, // read `-`, prerelease must follow
    AfterDot,  // read `.`, a number must follow
    InWild,    // read a wildcard number (final)
    InMeta,    // inside metadata (final)
    InPre,     // inside prerelease (final)
    InDigits,  // inside a numeric number (final)
};

} // namespace

// NOLINTNEXTLINE(readability-function-size): go-versions raw_scan.rl's state machine state by state (docs/ARCHITECTURE.md, core)
ScanResult scanConstraint(QByteArrayView d)
{
    ScanResult result;
    RawConstraint &c = result.raw;
    int numIdx = 0;
    qsizetype ts = 0;
    qsizetype p = 0;
    State cs = Start;

    auto slice = [&](qsizetype from, qsizetype to) { return d.sliced(from, to - from).toByteArray(); };
    auto finOp = [&] { c.op = slice(ts, p); };
    auto finSep = [&] { c.sep = slice(ts, p); };
    auto finNum = [&] {
        ++c.numCt;
        if (numIdx < 3)
            c.nums[numIdx++] = slice(ts, p);
    };
    auto finPre = [&] { c.pre = slice(ts + 1, p); };
    auto finMeta = [&] { c.meta = slice(ts + 1, p); };
    auto stop = [&] {
        result.remain = d.sliced(p).toByteArray();
        return result;
    };
    // A number may start here: wildcard or digit. Returns false if `ch` starts neither.
    auto startNum = [&](uchar ch) {
        if (isWild(ch)) {
            ts = p;
            cs = InWild;
            return true;
        }
        if (isDigit(ch)) {
            ts = p;
            cs = InDigits;
            return true;
        }
        return false;
    };
    // After a number: `+`, `-` or `.`; anything else ends the scan.
    auto afterNum = [&](uchar ch) {
        if (ch == '+') {
            finNum();
            ts = p;
            cs = AfterPlus;
            return true;
        }
        if (ch == '-') {
            finNum();
            ts = p;
            cs = AfterDash;
            return true;
        }
        if (ch == '.') {
            finNum();
            cs = AfterDot;
            return true;
        }
        finNum();
        return false;
    };

    for (; p < d.size(); ++p) {
        const auto ch = static_cast<uchar>(d[p]);
        switch (cs) {
        case Start:
            if (isWild(ch) || isDigit(ch)) {
                ts = p;
                finOp();
                finSep();
                startNum(ch);
            } else if (isSepChar(ch)) {
                ts = p;
                finOp();
                cs = InSep;
            } else if (isOpChar(ch)) {
                ts = p;
                cs = InOp;
            } else {
                finOp();
                finSep();
                return stop();
            }
            break;
        case InOp:
            if (isOpChar(ch))
                break;
            if (isSepChar(ch)) {
                finOp();
                ts = p;
                cs = InSep;
            } else if (isWild(ch) || isDigit(ch)) {
                finOp();
                ts = p;
                finSep();
                startNum(ch);
            } else {
                finOp();
                finSep(); // yes: sep becomes the operator text too
                return stop();
            }
            break;
        case InSep:
            if (isSepChar(ch))
                break;
            if (isWild(ch) || isDigit(ch)) {
                finSep();
                startNum(ch);
            } else {
                finSep();
                return stop();
            }
            break;
        case AfterPlus:
            if (!isExtraChar(ch))
                return stop();
            cs = InMeta;
            break;
        case AfterDash:
            if (!isExtraChar(ch))
                return stop();
            cs = InPre;
            break;
        case AfterDot:
            if (!startNum(ch))
                return stop();
            break;
        case InWild:
            if (!afterNum(ch))
                return stop();
            break;
        case InDigits:
            if (isDigit(ch))
                break;
            if (!afterNum(ch))
                return stop();
            break;
        case InMeta:
            if (isExtraChar(ch))
                break;
            finMeta();
            return stop();
        case InPre:
            if (isExtraChar(ch))
                break;
            if (ch == '+') {
                finPre();
                ts = p;
                cs = AfterPlus;
                break;
            }
            finPre();
            return stop();
        }
    }

    // End of input.
    switch (cs) {
    case Start:
    case InOp:
        finOp();
        finSep();
        break;
    case InSep: finSep(); break;
    case InWild:
    case InDigits: finNum(); break;
    case InMeta: finMeta(); break;
    case InPre: finPre(); break;
    case AfterPlus:
    case AfterDash:
    case AfterDot: break;
    }
    return result;
}

} // namespace provender::detail
