#pragma once
// Version constraint strings, Ruby style, as go-versions ParseRubyStyleMulti reads them and as
// getproviders.VersionConstraintsString canonicalizes them (tofu-formats.md §2.6).

#include "model/core/Result.h"
#include "model/core/Version.h"

#include <QList>
#include <QString>

#include <optional>

namespace provender {

class VersionConstraints
{
public:
    enum class Operator { Equal, NotEqual, Greater, GreaterOrEqual, Less, LessOrEqual, PessimisticPatch, PessimisticMinor };

    struct Item
    {
        Operator op = Operator::Equal;
        Version boundary; ///< omitted numeric parts are 0
        /// How many numeric parts were written (1..3; 0 for the degenerate `~> ,` that
        /// go-versions accepts). With a prerelease or metadata the omitted parts are 0 anyway.
        int partsGiven = 3;
        bool operator==(const Item &) const = default;
    };

    /// Empty or blank text is valid and means "no constraints". Errors use go-versions' wording,
    /// e.g. `invalid specification "=> 1.0": invalid constraint operator "=>"; did you mean ">="?`.
    static Result<VersionConstraints> parse(QStringView text);
    /// True when `text` parses and equals its canonical toString() (what lock files demand).
    static bool isCanonical(QStringView text);

    bool isEmpty() const { return m_items.isEmpty(); }
    const QList<Item> &items() const { return m_items; }

    /// Canonical text: `~>1.0` -> `~> 1.0`, `>= 3` -> `>= 3.0.0`, sorted and de-duplicated.
    QString toString() const;

    /// Does `v` meet every item? Prereleases are excluded unless an `=` item names that exact
    /// prerelease version (go-versions MeetingConstraints). As in go-versions, `=`/`!=` compare
    /// metadata too, the other operators ignore it, `= 1.2` means exactly 1.2.0, and the
    /// unspecified version 0.0.0 is never allowed.
    bool allows(const Version &v) const;

    bool operator==(const VersionConstraints &) const = default;

private:
    QList<Item> m_items;
};

/// The newest of `versions` that `constraints` allow, or nullopt: terraform's selection from a
/// list of available versions (versions.List.NewestInSet of MeetingConstraints; of versions of
/// equal precedence, the first listed). Empty constraints allow every release but 0.0.0.
std::optional<Version> newestAllowed(const QList<Version> &versions, const VersionConstraints &constraints);

} // namespace provender
