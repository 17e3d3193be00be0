#pragma once
// roleNames() of the item models: the base class's names plus the model's own roles, written as
// one table (model/items, model/lockitems).

#include <QByteArray>
#include <QHash>

#include <initializer_list>
#include <utility>

namespace provender {

/// `base` (the Qt base class's roleNames()) with `roles` added.
inline QHash<int, QByteArray> withRoleNames(QHash<int, QByteArray> base, std::initializer_list<std::pair<int, const char *>> roles)
{
    for (const auto &[role, name] : roles)
        base.insert(role, QByteArray(name));
    return base;
}

} // namespace provender
