#include "model/items/AnomalyListModel.h"

#include <QDir>

namespace provender {

AnomalyListModel::AnomalyListModel(QObject *parent) : QAbstractTableModel(parent) {}

int AnomalyListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_anomalies.size());
}

int AnomalyListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AnomalyListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Anomaly &a = m_anomalies.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case KindColumn: return toString(a.kind);
        case LocationColumn: {
            QString where = m_root.isEmpty() ? a.path : QDir(m_root).relativeFilePath(a.path);
            if (a.location.line > 0) {
                where += QLatin1Char(':') + QString::number(a.location.line);
                if (a.location.column > 0)
                    where += QLatin1Char(':') + QString::number(a.location.column);
            }
            return where;
        }
        case MessageColumn: return a.message;
        case ColumnCount: break;
        }
        return {};
    case Qt::ToolTipRole: return QString(a.path + QLatin1Char('\n') + a.message);
    case KindRole: return int(a.kind);
    case PathRole: return a.path;
    case LineRole: return a.location.line;
    default: return {};
    }
}

QVariant AnomalyListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn: return tr("Anomaly");
    case LocationColumn: return tr("Where");
    case MessageColumn: return tr("Details");
    default: return {};
    }
}

void AnomalyListModel::setAnomalies(const QList<Anomaly> &anomalies, const QString &root)
{
    beginResetModel();
    m_anomalies = anomalies;
    m_root = root;
    endResetModel();
}

} // namespace provender
