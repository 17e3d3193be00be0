#pragma once
// The anomalies of a Catalog scan (names that do not fit, malformed or stale JSON, archives no
// index lists, ...) as a table for the GUI.

#include "model/mirror/Catalog.h"

#include <QAbstractTableModel>

namespace provender {

class AnomalyListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KindColumn,     ///< stable machine name, e.g. "archive-not-in-index"
        LocationColumn, ///< path relative to the mirror root, with :line:column for JSON
        MessageColumn,  ///< human-readable reason
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        KindRole = Qt::UserRole + 1, ///< int(provender::AnomalyKind)
        PathRole,                    ///< QString absolute path
        LineRole,                    ///< int line (0 when unknown)
    };
    Q_ENUM(Role)

    explicit AnomalyListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Replace the rows by `anomalies`; locations are shown relative to `root`.
    void setAnomalies(const QList<Anomaly> &anomalies, const QString &root = {});
    void clear() { setAnomalies({}); }

private:
    QList<Anomaly> m_anomalies;
    QString m_root;
};

} // namespace provender
