#include "model/lockitems/TableDump.h"

#include <QStringList>

namespace provender {

QString dumpTableModel(const QAbstractItemModel &model, bool withRowHeaders)
{
    QString out;
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << model.data(model.index(r, c)).toString();
        if (withRowHeaders)
            out += model.headerData(r, Qt::Vertical).toString() + QStringLiteral(": ");
        out += cells.join(QStringLiteral(" | ")) + QLatin1Char('\n');
    }
    return out;
}

} // namespace provender
