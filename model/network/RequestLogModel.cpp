#include "model/network/RequestLogModel.h"
#include "model/core/ColumnHeaders.h"
#include "model/core/SizeFormat.h"

#include <QLocale>

namespace provender {

RequestLogModel::RequestLogModel(QObject *parent) : QAbstractTableModel(parent) {}

int RequestLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int RequestLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

bool RequestLogModel::isFailure(const RequestLogEntry &e)
{
    return !e.expected && (!e.error.isEmpty() || e.status == 0 || e.status >= 400);
}

QString RequestLogModel::formatBytes(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    return formatDataSize(bytes);
}

QVariant RequestLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RequestLogEntry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case MethodColumn: return e.method;
        case StatusColumn: return e.status > 0 ? QString::number(e.status) : QStringLiteral("—");
        case UrlColumn: return displayUrl(e.url);
        case BytesColumn: return formatBytes(e.bytes);
        case TimeColumn: return QStringLiteral("%1 ms").arg(e.elapsedMs);
        case AuthColumn: return e.authorization ? QStringLiteral("token") : QString();
        case ErrorColumn: return e.error;
        }
        return {};
    case Qt::ToolTipRole:
        if (!e.error.isEmpty())
            return e.error;
        if (index.column() == AuthColumn && e.authorization)
            return QStringLiteral("An Authorization header was sent with this request");
        return displayUrl(e.url);
    case Qt::TextAlignmentRole:
        if (index.column() == BytesColumn || index.column() == TimeColumn || index.column() == StatusColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case StatusRole: return e.status;
    case BytesRole: return e.bytes;
    case ElapsedRole: return e.elapsedMs;
    case FailedRole: return isFailure(e);
    case UrlRole: return e.url;
    }
    return {};
}

QVariant RequestLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitleHeader(*this, section, orientation, role,
                             {QStringLiteral("Method"), QStringLiteral("Status"), QStringLiteral("URL"), QStringLiteral("Bytes"),
                              QStringLiteral("Time"), QStringLiteral("Auth"), QStringLiteral("Error")});
}

void RequestLogModel::append(const RequestLogEntry &entry)
{
    if (m_entries.size() >= m_maxRows) {
        const int drop = int(m_entries.size()) - m_maxRows + 1;
        beginRemoveRows({}, 0, drop - 1);
        for (int i = 0; i < drop; ++i) {
            const RequestLogEntry &old = m_entries.at(i);
            m_failed -= isFailure(old) ? 1 : 0;
            m_bytes -= old.bytes;
        }
        m_entries.remove(0, drop);
        endRemoveRows();
    }
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.append(entry);
    m_failed += isFailure(entry) ? 1 : 0;
    m_bytes += entry.bytes;
    endInsertRows();
}

void RequestLogModel::setEntries(const QList<RequestLogEntry> &entries)
{
    beginResetModel();
    m_entries = entries.size() > m_maxRows ? entries.mid(entries.size() - m_maxRows) : entries;
    m_failed = 0;
    m_bytes = 0;
    for (const RequestLogEntry &e : std::as_const(m_entries)) {
        m_failed += isFailure(e) ? 1 : 0;
        m_bytes += e.bytes;
    }
    endResetModel();
}

void RequestLogModel::clear()
{
    setEntries({});
}

} // namespace provender
