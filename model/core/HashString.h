#pragma once
// A package hash string `scheme:value` (tofu-formats.md §1.3). Unknown schemes are kept verbatim.

#include "model/core/Result.h"

#include <QString>

#include <compare>

namespace provender {

class HashString
{
public:
    enum class Scheme { H1, ZH, Other };

    HashString() = default;

    /// A hash is any string with a `:` at index >= 1. Error text is tofu's:
    /// `Cannot interpret "abc" as a provider hash: hash string must start with a scheme keyword followed by a colon.`
    static Result<HashString> parse(QStringView text);
    static HashString h1(const QString &base64) { return fromParts(QStringLiteral("h1:"), base64); }
    static HashString zh(const QString &hex) { return fromParts(QStringLiteral("zh:"), hex); }

    /// Scheme including the colon: `h1:`, `zh:`, `test:`.
    QString schemePrefix() const { return m_text.left(m_colon + 1); }
    QString value() const { return m_text.mid(m_colon + 1); }
    Scheme scheme() const;
    bool isKnownScheme() const { return scheme() != Scheme::Other; }
    bool isNull() const { return m_text.isEmpty(); }
    const QString &toString() const { return m_text; }

    /// Byte-wise order of the full text (how lock files sort hashes).
    std::strong_ordering operator<=>(const HashString &other) const;
    bool operator==(const HashString &other) const { return m_text == other.m_text; }

private:
    static HashString fromParts(const QString &scheme, const QString &value);
    QString m_text;
    qsizetype m_colon = -1;
};

size_t qHash(const HashString &h, size_t seed = 0) noexcept;

} // namespace provender
