#pragma once
// Internal helpers that reproduce the few Go standard-library behaviours the tofu formats depend
// on: strconv.Quote (`%q`), unicode.IsPrint/IsLetter/IsSpace, strings.TrimSpace, byte-wise string order,
// strconv's integer parsing and float range, and the Levenshtein distance of hcl's suggestions.
// Used by the value types in this folder, the lock-file and configuration readers
// (model/lockfile) and the CLI-config decoder (model/network), so each lives in one place.

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringView>

#include <compare>

namespace provender::gocompat {

/// Go's `%q` / strconv.Quote of a UTF-8 string: `"..."` with `\"`, `\\`, `\n`, `\x1f`, `\u00a0`
/// escapes for anything unicode.IsPrint rejects; invalid UTF-8 bytes become `\xNN`.
QString quote(QByteArrayView utf8);
inline QString quote(QStringView text)
{
    return quote(QByteArrayView(text.toUtf8()));
}

/// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
bool isPrint(char32_t c);
/// unicode.IsLetter: the general categories Lu, Ll, Lt, Lm and Lo.
bool isLetter(char32_t c);

/// Levenshtein distance over code points (agext/levenshtein with default costs, what hcl's
/// "Did you mean" suggestions use).
int levenshtein(QStringView a, QStringView b);

/// unicode.IsSpace.
bool isSpace(char32_t c);
/// strings.TrimSpace on UTF-8 bytes.
QByteArrayView trimSpace(QByteArrayView utf8);

/// Order of the UTF-8 encodings (= Unicode code point order), what Go's `<` on strings does.
int compareUtf8(QStringView a, QStringView b);
inline std::strong_ordering orderUtf8(QStringView a, QStringView b)
{
    const int c = compareUtf8(a, b);
    return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
}

/// strconv.Atoi as used by svchost (64-bit int): optional sign, then one or more ASCII digits,
/// value within int64. Returns false when Atoi would return an error.
bool atoi64(QByteArrayView text, qint64 *out);

/// strconv.ParseInt(text, base, 64) for base 10 (what Atoi is) or 0: then also a `0x`, `0o`, `0b`
/// prefix or a leading `0` (octal), and `_` between digits as Go's underscoreOK allows. No
/// spaces. False where ParseInt returns an error (syntax or range); `out` may be null.
bool parseInt64(QByteArrayView text, int base, qint64 *out = nullptr);

/// Whether strconv.ParseFloat(text, 64) reads a decimal number (`1`, `-2.5e3`, `.5`): false for
/// other syntax and for a value that overflows to infinity (one that underflows reads as 0).
bool parsesAsFloat64(QByteArrayView text);

/// strconv.ParseUint(s, 10, 64) for a string of ASCII digits. False on overflow or bad input.
bool parseUint64(QByteArrayView digits, quint64 *out);

} // namespace provender::gocompat
