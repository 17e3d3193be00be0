#pragma once
// Provider versions with the exact rules of go-versions (tofu-formats.md §2.5).

#include "model/core/Result.h"

#include <QString>
#include <QStringView>

#include <compare>

namespace provender {

class Version
{
public:
    Version() = default;
    Version(quint64 major, quint64 minor, quint64 patch, QString prerelease = {}, QString metadata = {});

    /// go-versions ParseExactVersion: lenient (`2.0` -> 2.0.0, leading zeros dropped, a bare
    /// trailing `-`/`+` swallowed). Rejects a `v` prefix, spaces, operators, wildcards, 4 parts.
    /// The error message is the go-versions wording (e.g. `a "v" prefix should not be used`).
    /// A number above uint64 is an error here (go-versions panics on it).
    static Result<Version> parse(QStringView text);
    /// True when `text` parses and is already in canonical form (`text == parse(text).toString()`),
    /// which the lock-file reader demands (`1.0`, `1.02`, `1.2.3-` are not canonical).
    static bool isCanonical(QStringView text);

    quint64 major() const { return m_major; }
    quint64 minor() const { return m_minor; }
    quint64 patch() const { return m_patch; }
    const QString &prerelease() const { return m_prerelease; }
    const QString &metadata() const { return m_metadata; }
    bool isPrerelease() const { return !m_prerelease.isEmpty(); }
    bool isUnspecified() const { return m_major == 0 && m_minor == 0 && m_patch == 0 && m_prerelease.isEmpty(); }

    /// Canonical form: MAJOR.MINOR.PATCH[-PRERELEASE][+METADATA].
    QString toString() const;

    /// go-versions precedence (Version.LessThan), metadata ignored; <0, 0, >0.
    /// Includes go-versions' prerelease quirk: `1.0.0-beta` < `1.0.0-alpha.1`.
    int comparePrecedence(const Version &other) const;

    /// Total order for containers: precedence, then metadata byte-wise.
    std::strong_ordering operator<=>(const Version &other) const;
    bool operator==(const Version &other) const = default;

private:
    quint64 m_major = 0;
    quint64 m_minor = 0;
    quint64 m_patch = 0;
    QString m_prerelease;
    QString m_metadata;
};

size_t qHash(const Version &v, size_t seed = 0) noexcept;

/// go-versions VersionExtra.LessThan on two dot-separated prerelease strings; <0, 0, >0.
int comparePrereleaseGo(QStringView a, QStringView b);

} // namespace provender
