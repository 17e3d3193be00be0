#pragma once
// A plain-text dump of a flat table model for tests and debugging: one line per row, the
// DisplayRole text of each column joined by " | ", optionally prefixed by the row's vertical
// header ("header: a | b | c").

#include <QAbstractItemModel>
#include <QString>

namespace provender {

QString dumpTableModel(const QAbstractItemModel &model, bool withRowHeaders = false);

} // namespace provender
