#include "model/core/GoCompat.h"

#include <QChar>
#include <QList>
#include <QRegularExpression>
#include <QString>

#include <algorithm>
#include <limits>
#include <vector>

namespace provender::gocompat {

namespace {

/// Decodes one UTF-8 sequence at `i`. Returns the code point, or -1 for an invalid byte
/// (then `len` is 1), like Go's utf8.DecodeRune returning RuneError with size 1.
qint32 decodeUtf8(QByteArrayView s, qsizetype i, int *len)
{
    const auto b0 = static_cast<uchar>(s[i]);
    *len = 1;
    if (b0 < 0x80)
        return b0;
    int need = 0;
    qint32 cp = 0;
    qint32 min = 0;
    if ((b0 & 0xE0) == 0xC0) {
        need = 1;
        cp = b0 & 0x1F;
        min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        need = 2;
        cp = b0 & 0x0F;
        min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        need = 3;
        cp = b0 & 0x07;
        min = 0x10000;
    } else {
        return -1;
    }
    if (i + need >= s.size())
        return -1;
    for (int k = 1; k <= need; ++k) {
        const auto b = static_cast<uchar>(s[i + k]);
        if ((b & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *len = need + 1;
    return cp;
}

void appendHex(QString &out, quint32 v, int width)
{
    out += QString::number(v, 16).rightJustified(width, QLatin1Char('0'));
}

} // namespace

bool isLetter(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase:
    case QChar::Letter_Lowercase:
    case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier:
    case QChar::Letter_Other: return true;
    default: return false;
    }
}

bool isPrint(char32_t c)
{
    if (c < 0x80)
        return c >= 0x20 && c < 0x7F;
    if (isLetter(c))
        return true;
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing:
    case QChar::Number_DecimalDigit:
    case QChar::Number_Letter:
    case QChar::Number_Other:
    case QChar::Punctuation_Connector:
    case QChar::Punctuation_Dash:
    case QChar::Punctuation_Open:
    case QChar::Punctuation_Close:
    case QChar::Punctuation_InitialQuote:
    case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
    case QChar::Symbol_Math:
    case QChar::Symbol_Currency:
    case QChar::Symbol_Modifier:
    case QChar::Symbol_Other: return true;
    default: return false;
    }
}

QString quote(QByteArrayView s)
{
    QString out;
    out.reserve(s.size() + 2);
    out += QLatin1Char('"');
    for (qsizetype i = 0; i < s.size();) {
        int len = 1;
        const qint32 cp = decodeUtf8(s, i, &len);
        if (cp < 0) {
            out += QStringLiteral("\\x");
            appendHex(out, static_cast<uchar>(s[i]), 2);
            i += 1;
            continue;
        }
        i += len;
        const auto c = static_cast<char32_t>(cp);
        if (c == U'"' || c == U'\\') {
            out += QLatin1Char('\\');
            out += QChar(static_cast<char16_t>(c));
            continue;
        }
        if (isPrint(c)) {
            out += QStringView(QChar::fromUcs4(c));
            continue;
        }
        switch (c) {
        case U'\a': out += QStringLiteral("\\a"); continue;
        case U'\b': out += QStringLiteral("\\b"); continue;
        case U'\f': out += QStringLiteral("\\f"); continue;
        case U'\n': out += QStringLiteral("\\n"); continue;
        case U'\r': out += QStringLiteral("\\r"); continue;
        case U'\t': out += QStringLiteral("\\t"); continue;
        case U'\v': out += QStringLiteral("\\v"); continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7F) {
            out += QStringLiteral("\\x");
            appendHex(out, c, 2);
        } else if (c < 0x10000) {
            out += QStringLiteral("\\u");
            appendHex(out, c, 4);
        } else {
            out += QStringLiteral("\\U");
            appendHex(out, c, 8);
        }
    }
    out += QLatin1Char('"');
    return out;
}

int levenshtein(QStringView a, QStringView b)
{
    const QList<uint> s = a.toUcs4();
    const QList<uint> t = b.toUcs4();
    std::vector<int> prev(size_t(t.size()) + 1), cur(size_t(t.size()) + 1);
    for (size_t j = 0; j <= size_t(t.size()); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= s.size(); ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= t.size(); ++j) {
            const int cost = s[i - 1] == t[j - 1] ? 0 : 1;
            cur[size_t(j)] = std::min({prev[size_t(j)] + 1, cur[size_t(j - 1)] + 1, prev[size_t(j - 1)] + cost});
        }
        std::swap(prev, cur);
    }
    return prev[size_t(t.size())];
}

bool isSpace(char32_t c)
{
    switch (c) {
    case U'\t':
    case U'\n':
    case U'\v':
    case U'\f':
    case U'\r':
    case U' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000: return true;
    default: return c >= 0x2000 && c <= 0x200A;
    }
}

QByteArrayView trimSpace(QByteArrayView s)
{
    qsizetype start = 0;
    while (start < s.size()) {
        int len = 1;
        const qint32 cp = decodeUtf8(s, start, &len);
        if (cp < 0 || !isSpace(static_cast<char32_t>(cp)))
            break;
        start += len;
    }
    qsizetype end = s.size();
    while (end > start) {
        // Step back to the start of the last UTF-8 sequence.
        qsizetype k = end - 1;
        while (k > start && (static_cast<uchar>(s[k]) & 0xC0) == 0x80 && end - k < 4)
            --k;
        int len = 1;
        const qint32 cp = decodeUtf8(s, k, &len);
        if (cp < 0 || k + len != end || !isSpace(static_cast<char32_t>(cp)))
            break;
        end = k;
    }
    return s.sliced(start, end - start);
}

int compareUtf8(QStringView a, QStringView b)
{
    // UTF-8 byte order equals code point order; UTF-16 order differs only when one side has a
    // surrogate (U+10000 and up) and the other a code unit in U+E000..U+FFFF.
    const qsizetype n = std::min(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t x = a[i].unicode();
        const char16_t y = b[i].unicode();
        if (x == y)
            continue;
        auto rank = [](char16_t u) -> quint32 {
            if (u >= 0xD800 && u <= 0xDFFF)
                return u + 0x2000u; // surrogates sort above U+E000..U+FFFF
            if (u >= 0xE000)
                return u - 0x800u;
            return u;
        };
        return rank(x) < rank(y) ? -1 : 1;
    }
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

namespace {

/// Digits in `base` (2 to 36, either case), skipping `_` when `underscores`; false on any other
/// character, on no digit at all, or beyond 64 bits.
bool parseDigits(QByteArrayView digits, int base, bool underscores, quint64 *out)
{
    quint64 v = 0;
    bool any = false;
    for (const char ch : digits) {
        if (ch == '_' && underscores)
            continue;
        const char c = char(ch | 0x20); // ASCII lower case (digits unchanged)
        const int d = ch >= '0' && ch <= '9' ? ch - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : base;
        if (d >= base || v > (std::numeric_limits<quint64>::max() - quint64(d)) / quint64(base))
            return false;
        v = v * quint64(base) + quint64(d);
        any = true;
    }
    *out = v;
    return any;
}

/// strconv.underscoreOK: `_` only between digits, or after a base prefix (sign already removed).
bool underscoresOk(QByteArrayView s)
{
    char saw = '^';
    qsizetype i = 0;
    bool hex = false;
    if (s.size() >= 2 && s[0] == '0' && QByteArrayView("box").contains(char(s[1] | 0x20))) {
        i = 2;
        saw = '0';
        hex = char(s[1] | 0x20) == 'x';
    }
    for (; i < s.size(); ++i) {
        const char c = char(s[i] | 0x20);
        if ((s[i] >= '0' && s[i] <= '9') || (hex && c >= 'a' && c <= 'f')) {
            saw = '0';
        } else if (s[i] == '_') {
            if (saw != '0')
                return false;
            saw = '_';
        } else {
            if (saw == '_')
                return false;
            saw = '!';
        }
    }
    return saw != '_';
}

} // namespace

bool parseUint64(QByteArrayView digits, quint64 *out)
{
    return parseDigits(digits, 10, false, out);
}

bool parseInt64(QByteArrayView s, int base, qint64 *out)
{
    bool negative = false;
    if (!s.isEmpty() && (s[0] == '+' || s[0] == '-')) {
        negative = s[0] == '-';
        s = s.sliced(1);
    }
    const bool anyBase = base == 0; // prefixes and underscores
    QByteArrayView digits = s;
    if (anyBase) {
        base = 10;
        if (s.size() >= 1 && s[0] == '0') {
            const char prefix = s.size() >= 3 ? char(s[1] | 0x20) : '\0';
            base = prefix == 'b' ? 2 : prefix == 'x' ? 16 : 8;
            digits = s.sliced(prefix == 'b' || prefix == 'o' || prefix == 'x' ? 2 : 1);
            if (digits.isEmpty()) // "0" itself
                digits = s;
        }
        if (s.contains('_') && !underscoresOk(s))
            return false;
    }
    quint64 mag = 0;
    if (!parseDigits(digits, base, anyBase, &mag))
        return false;
    const quint64 limit = negative ? quint64(std::numeric_limits<qint64>::max()) + 1 : quint64(std::numeric_limits<qint64>::max());
    if (mag > limit)
        return false;
    if (out)
        *out = negative ? static_cast<qint64>(0 - mag) : static_cast<qint64>(mag);
    return true;
}

bool atoi64(QByteArrayView s, qint64 *out)
{
    return parseInt64(s, 10, out);
}

bool parsesAsFloat64(QByteArrayView s)
{
    static const QRegularExpression decimal(QStringLiteral("^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"));
    const QString text = QString::fromLatin1(s);
    if (!decimal.match(text).hasMatch())
        return false;
    bool ok = false;
    const double d = text.toDouble(&ok);
    return ok || !qIsInf(d); // QString::toDouble: infinity on overflow, 0 (and !ok) on underflow
}

} // namespace provender::gocompat
