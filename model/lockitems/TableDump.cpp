#include "model/lockitems/TableDump.h"

#include <QStringList>

namespace provender {

namespace {

/// The DisplayRole text of the columns of row `row` below `parent`, joined by " | ".
QString rowText(const QAbstractItemModel &model, int row, const QModelIndex &parent)
{
    QStringList cells;
    for (int c = 0; c < model.columnCount(parent); ++c)
        cells << model.data(model.index(row, c, parent)).toString();
    return cells.join(QStringLiteral(" | "));
}

} // namespace

QString dumpTableModel(const QAbstractItemModel &model, bool withRowHeaders)
{
    QString out;
    for (int r = 0; r < model.rowCount(); ++r) {
        if (withRowHeaders)
            out += model.headerData(r, Qt::Vertical).toString() + QStringLiteral(": ");
        out += rowText(model, r, {}) + QLatin1Char('\n');
    }
    return out;
}

QString dumpTreeModel(const QAbstractItemModel &model, const QModelIndex &parent, int depth)
{
    QString out;
    for (int r = 0; r < model.rowCount(parent); ++r) {
        out += QString(depth * 2, QLatin1Char(' ')) + rowText(model, r, parent) + QLatin1Char('\n');
        out += dumpTreeModel(model, model.index(r, 0, parent), depth + 1);
    }
    return out;
}

} // namespace provender
