#include "model/core/Platform.h"

#include "model/core/GoCompat.h"

#include <QHash>

namespace provender {

namespace {

bool hasWhitespace(QStringView s)
{
    for (const QChar c : s) {
        if (c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n') || c == QLatin1Char('\r'))
            return true;
    }
    return false;
}

} // namespace

Result<Platform> Platform::parse(QStringView text)
{
    // getproviders.ParsePlatform: strings.Split(str, "_") must give exactly two parts.
    const qsizetype underscore = text.indexOf(QLatin1Char('_'));
    if (underscore < 0 || text.indexOf(QLatin1Char('_'), underscore + 1) >= 0)
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("must be two words separated by an underscore"));
    const QStringView os = text.left(underscore);
    const QStringView arch = text.mid(underscore + 1);
    if (hasWhitespace(os))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("OS portion must not contain whitespace"));
    if (hasWhitespace(arch))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("architecture portion must not contain whitespace"));
    return Platform(os.toString(), arch.toString());
}

std::strong_ordering Platform::operator<=>(const Platform &other) const
{
    if (m_os != other.m_os)
        return gocompat::orderUtf8(m_os, other.m_os);
    return gocompat::orderUtf8(m_arch, other.m_arch);
}

size_t qHash(const Platform &p, size_t seed) noexcept
{
    return qHashMulti(seed, p.os(), p.arch());
}

} // namespace provender
