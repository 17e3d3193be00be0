#pragma once
// Target platform `os_arch` (tofu-formats.md §7).

#include "model/core/Result.h"

#include <QString>

#include <compare>

namespace provender {

class Platform
{
public:
    Platform() = default;
    Platform(QString os, QString arch) : m_os(std::move(os)), m_arch(std::move(arch)) {}

    /// getproviders.ParsePlatform: exactly two `_`-separated words, no whitespace, no case folding.
    static Result<Platform> parse(QStringView text);

    const QString &os() const { return m_os; }
    const QString &arch() const { return m_arch; }
    QString toString() const { return m_os + QLatin1Char('_') + m_arch; }
    bool isValid() const { return !m_os.isEmpty() || !m_arch.isEmpty(); }

    /// OS byte-wise, then arch byte-wise.
    std::strong_ordering operator<=>(const Platform &other) const;
    bool operator==(const Platform &other) const = default;

private:
    QString m_os;
    QString m_arch;
};

size_t qHash(const Platform &p, size_t seed = 0) noexcept;

} // namespace provender
