#include "model/lockitems/LockProviderTableModel.h"

#include "model/core/ColumnHeaders.h"
#include "model/core/RoleNames.h"
#include "model/lockitems/TableDump.h"

#include <QMap>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

/// Scheme name without the colon; h1 and zh first.
QMap<QString, int> countSchemes(const ProviderLock &lock)
{
    QMap<QString, int> counts;
    for (const HashString &h : lock.hashes) {
        QString scheme = h.schemePrefix();
        scheme.chop(1);
        counts[scheme.isEmpty() ? u"?"_s : scheme] += 1;
    }
    return counts;
}

QStringList orderedSchemes(const QMap<QString, int> &counts)
{
    QStringList order;
    for (const QString &s : {u"h1"_s, u"zh"_s})
        if (counts.contains(s))
            order << s;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (!order.contains(it.key()))
            order << it.key();
    return order;
}

} // namespace

LockProviderTableModel::LockProviderTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void LockProviderTableModel::setDocument(const LockFile &document)
{
    beginResetModel();
    m_doc = document;
    endResetModel();
}

void LockProviderTableModel::setProvenance(std::optional<HashProvenanceIndex> provenance)
{
    m_provenance = std::move(provenance);
    if (!m_doc.providers.isEmpty())
        Q_EMIT dataChanged(index(0, PlatformsColumn), index(rowCount() - 1, PlatformsColumn));
}

ProviderAddress LockProviderTableModel::addressAt(int row) const
{
    return row >= 0 && row < m_doc.providers.size() ? m_doc.providers.at(row).address : ProviderAddress();
}

int LockProviderTableModel::rowOf(const ProviderAddress &address) const
{
    return int(m_doc.indexOf(address));
}

QStringList LockProviderTableModel::coveredPlatforms(const ProviderLock &lock) const
{
    QStringList platforms;
    if (!m_provenance)
        return platforms;
    for (const HashString &h : lock.hashes)
        for (const HashProvenance &p : m_provenance->lookup(lock.address, h))
            if (p.version == lock.version && p.platform.isValid() && !platforms.contains(p.platform.toString()))
                platforms << p.platform.toString();
    platforms.sort();
    return platforms;
}

QString LockProviderTableModel::hashCountText(const ProviderLock &lock)
{
    const QMap<QString, int> counts = countSchemes(lock);
    QStringList parts;
    for (const QString &s : orderedSchemes(counts))
        parts << u"%1 %2"_s.arg(counts.value(s)).arg(s);
    return parts.isEmpty() ? u"none"_s : parts.join(u", "_s);
}

int LockProviderTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_doc.providers.size());
}

int LockProviderTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockProviderTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ProviderLock &lock = m_doc.providers.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (index.column()) {
        case AddressColumn: return lock.address.forDisplay(QAnyStringView());
        case VersionColumn: return lock.version.toString();
        case ConstraintsColumn: return lock.constraints.toString();
        case HashesColumn: return hashCountText(lock);
        case PlatformsColumn: return m_provenance ? coveredPlatforms(lock).join(u", "_s) : QString();
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == PlatformsColumn && !m_provenance)
            return u"Open a mirror to see which platforms the hashes cover."_s;
        if (index.column() == VersionColumn || index.column() == ConstraintsColumn)
            return m_editHandler ? u"Double-click to edit"_s : QVariant();
        return {};
    case AddressRole: return lock.address.toString();
    case SortRole:
        switch (index.column()) {
        case AddressColumn: return index.row(); // the document keeps canonical address order
        case VersionColumn: {
            int rank = 0;
            for (const ProviderLock &o : m_doc.providers)
                rank += o.version < lock.version ? 1 : 0;
            return rank;
        }
        case ConstraintsColumn: return lock.constraints.toString();
        case HashesColumn: return int(lock.hashes.size());
        case PlatformsColumn: return int(coveredPlatforms(lock).size());
        }
        return {};
    case HashCountsRole: {
        QVariantMap map;
        const QMap<QString, int> counts = countSchemes(lock);
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            map.insert(it.key(), it.value());
        return map;
    }
    case PlatformsRole: return coveredPlatforms(lock);
    }
    return {};
}

bool LockProviderTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !m_editHandler || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    if (index.column() != VersionColumn && index.column() != ConstraintsColumn)
        return false;
    if (value.toString() == data(index, Qt::EditRole).toString())
        return false;
    // The handler normally replaces the whole document (setDocument), which resets the model.
    return m_editHandler(m_doc.providers.at(index.row()).address, Column(index.column()), value.toString());
}

Qt::ItemFlags LockProviderTableModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && m_editHandler && (index.column() == VersionColumn || index.column() == ConstraintsColumn))
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant LockProviderTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitleHeader(*this, section, orientation, role,
                             {u"Provider"_s, u"Version"_s, u"Constraints"_s, u"Hashes"_s, u"Platforms covered"_s});
}

QHash<int, QByteArray> LockProviderTableModel::roleNames() const
{
    return withRoleNames(QAbstractTableModel::roleNames(),
                         {{AddressRole, "address"}, {SortRole, "sort"}, {HashCountsRole, "hashCounts"}, {PlatformsRole, "platforms"}});
}

QString LockProviderTableModel::dump() const
{
    return dumpTableModel(*this);
}

} // namespace provender
