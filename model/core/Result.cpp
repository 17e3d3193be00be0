#include "model/core/Result.h"

namespace provender {

QString Location::toString() const
{
    QString out = file;
    if (line > 0) {
        if (!out.isEmpty())
            out += QLatin1Char(':');
        out += QString::number(line);
        if (column > 0)
            out += QLatin1Char(':') + QString::number(column);
    }
    return out;
}

QString Error::toString() const
{
    const QString where = location.toString();
    return where.isEmpty() ? message : where + QStringLiteral(": ") + message;
}

} // namespace provender
