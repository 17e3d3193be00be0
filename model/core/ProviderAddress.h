#pragma once
// Provider source addresses with the rules of opentofu/registry-address and svchost
// (tofu-formats.md §2.1–§2.4).

#include "model/core/Result.h"

#include <QAnyStringView>
#include <QString>

#include <compare>

namespace provender {

inline constexpr QLatin1StringView kOpenTofuRegistryHost("registry.opentofu.org");
inline constexpr QLatin1StringView kTerraformRegistryHost("registry.terraform.io");

class ProviderAddress
{
public:
    ProviderAddress() = default;

    /// Parse `type`, `namespace/type` or `hostname/namespace/type`, normalizing every part
    /// (lower-case, IDNA) and rejecting with tofu's reasons. A 1-part address gets namespace
    /// `hashicorp`; a missing host gets `defaultHost`.
    /// `defaultHost` is a comparison-form hostname. (It is a QAnyStringView so that the
    /// QLatin1StringView constants above can be the default.)
    /// Errors are registry-address's `<summary>: <detail>` texts with their quirks (the namespace
    /// and hostname details quote an empty string and end in a stray `"`). As upstream, a 1-part
    /// address skips the `terraform-`/`opentofu-` type-prefix checks; IDNA is ICU's UTS #46.
    static Result<ProviderAddress> parse(QStringView source, QAnyStringView defaultHost = kOpenTofuRegistryHost);

    /// svchost.ForComparison: returns the ASCII comparison form (`CAFÉ.fr` -> `xn--caf-dma.fr`,
    /// `:443` dropped, port re-printed). Rejects user-written `xn--` labels.
    static Result<QString> normalizeHostname(QStringView host);
    /// Hostname.ForDisplay: punycode labels back to Unicode (`xn--caf-dma.fr` -> `café.fr`).
    static QString hostnameForDisplay(const QString &comparisonHost);
    /// registry-address ParseProviderPart: one namespace/type label, normalized.
    static Result<QString> normalizePart(QStringView part);

    const QString &hostname() const { return m_host; } ///< comparison (ASCII/punycode) form
    QString displayHostname() const;                   ///< Unicode display form (`café.fr`), computed once by parse()
    const QString &ns() const { return m_namespace; }
    const QString &type() const { return m_type; }
    bool isNull() const { return m_type.isEmpty(); }

    /// `String()`: `<display host>/<namespace>/<type>` — the lock-file label form.
    QString toString() const;
    /// `ForDisplay()`: like toString() without the host when it is `defaultHost`.
    QString forDisplay(QAnyStringView defaultHost = kOpenTofuRegistryHost) const;

    /// `terraform.io/builtin/*` (and `opentofu.org/builtin/*`).
    bool isBuiltIn() const;
    /// `<default registry host>/-/<type>`.
    bool isLegacy() const;

    /// Provider.LessThan: host comparison form, then namespace, then type, each byte-wise.
    std::strong_ordering operator<=>(const ProviderAddress &other) const;
    bool operator==(const ProviderAddress &other) const
    {
        return m_host == other.m_host && m_namespace == other.m_namespace && m_type == other.m_type;
    }

private:
    QString m_host;
    QString m_namespace;
    QString m_type;
    QString m_displayHost; ///< derived from m_host
};

size_t qHash(const ProviderAddress &a, size_t seed = 0) noexcept;

} // namespace provender
