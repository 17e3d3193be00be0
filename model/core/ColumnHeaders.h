#pragma once
// headerData() of the item models whose columns have fixed titles, written as one list in column
// order (model/lockitems, model/bundle, model/network).

#include <QAbstractItemModel>
#include <QString>
#include <QVariant>

#include <cstddef>
#include <initializer_list>

namespace provender {

/// The horizontal header's DisplayRole of `section`: its title in `titles` (column order; none
/// for a section out of range). Any other orientation or role: QAbstractItemModel::headerData.
inline QVariant columnTitleHeader(const QAbstractItemModel &model, int section, Qt::Orientation orientation, int role,
                                  std::initializer_list<QString> titles)
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return model.QAbstractItemModel::headerData(section, orientation, role);
    Q_ASSERT(qsizetype(titles.size()) == model.columnCount());
    if (section < 0 || std::size_t(section) >= titles.size())
        return {};
    return *(titles.begin() + section);
}

} // namespace provender
