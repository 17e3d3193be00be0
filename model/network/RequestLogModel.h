#pragma once
// The per-request log of a remote mirror session as a table (method, URL, status, bytes, time,
// token sent, error) for diagnosing a mirror. Append-only while a session runs; rows beyond
// `maxRows` drop the oldest. Only the GUI thread touches it (feed it from
// RemoteSession::requestFinished). Never holds a token: RequestLogEntry only says whether one was sent.

#include "model/network/HttpRunner.h"

#include <QAbstractTableModel>
#include <QList>

namespace provender {

class RequestLogModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { MethodColumn, StatusColumn, UrlColumn, BytesColumn, TimeColumn, AuthColumn, ErrorColumn, ColumnCount };
    enum Roles {
        StatusRole = Qt::UserRole + 1, ///< int HTTP status (0 = none)
        BytesRole,                     ///< qint64 body bytes
        ElapsedRole,                   ///< qint64 milliseconds
        FailedRole,                    ///< bool: an error, or a status other than 2xx/3xx, unless expected
        UrlRole,                       ///< QUrl
    };

    explicit RequestLogModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void append(const RequestLogEntry &entry);
    void setEntries(const QList<RequestLogEntry> &entries);
    void clear();
    const RequestLogEntry &entry(int row) const { return m_entries.at(row); }
    int failedCount() const { return m_failed; }
    qint64 totalBytes() const { return m_bytes; }

    void setMaxRows(int maxRows) { m_maxRows = std::max(1, maxRows); }
    int maxRows() const { return m_maxRows; }

    static bool isFailure(const RequestLogEntry &e);
    /// "1.5 MiB", "312 B"
    static QString formatBytes(qint64 bytes);

private:
    QList<RequestLogEntry> m_entries;
    int m_maxRows = 20000;
    int m_failed = 0;
    qint64 m_bytes = 0;
};

} // namespace provender
