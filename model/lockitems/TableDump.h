#pragma once
// A plain-text dump of an item model for tests and debugging: one line per row, the DisplayRole
// text of each column joined by " | ". A flat table's rows may be prefixed by the row's vertical
// header ("header: a | b | c"); a tree's rows are written depth-first, indented two spaces per
// level.

#include <QAbstractItemModel>
#include <QString>

namespace provender {

QString dumpTableModel(const QAbstractItemModel &model, bool withRowHeaders = false);

/// The rows below `parent` and, after each, its children (one level deeper), depth-first.
QString dumpTreeModel(const QAbstractItemModel &model, const QModelIndex &parent = {}, int depth = 0);

} // namespace provender
