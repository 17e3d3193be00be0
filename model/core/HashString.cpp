#include "model/core/HashString.h"

#include "model/core/GoCompat.h"

#include <QHash>

namespace provender {

Result<HashString> HashString::parse(QStringView text)
{
    // getproviders.ParseHash: a colon at byte index >= 1 (a zero-length scheme is not allowed).
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon < 1) {
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Cannot interpret %1 as a provider hash: hash string must start with a "
                                        "scheme keyword followed by a colon.")
                             .arg(gocompat::quote(text)));
    }
    HashString h;
    h.m_text = text.toString();
    h.m_colon = colon;
    return h;
}

HashString HashString::fromParts(const QString &scheme, const QString &value)
{
    HashString h;
    h.m_text = scheme + value;
    h.m_colon = scheme.size() - 1;
    return h;
}

HashString::Scheme HashString::scheme() const
{
    if (m_colon != 2)
        return Scheme::Other;
    if (m_text.startsWith(QLatin1StringView("h1:")))
        return Scheme::H1;
    if (m_text.startsWith(QLatin1StringView("zh:")))
        return Scheme::ZH;
    return Scheme::Other;
}

std::strong_ordering HashString::operator<=>(const HashString &other) const
{
    return gocompat::orderUtf8(m_text, other.m_text);
}

size_t qHash(const HashString &h, size_t seed) noexcept
{
    return qHash(h.toString(), seed);
}

} // namespace provender
