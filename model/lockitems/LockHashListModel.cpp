#include "model/lockitems/LockHashListModel.h"

#include "model/core/ColumnHeaders.h"
#include "model/core/RoleNames.h"
#include "model/lockitems/TableDump.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace provender {

LockHashListModel::LockHashListModel(QObject *parent) : QAbstractTableModel(parent) {}

void LockHashListModel::setProvider(const ProviderLock &lock, const HashProvenanceIndex *provenance)
{
    beginResetModel();
    m_lock = lock;
    m_rows.clear();
    for (const HashString &h : lock.hashes) {
        Row row{h, {}};
        if (provenance) {
            QList<HashProvenance> all = provenance->lookup(lock.address, h);
            // The locked version's archives first; an archive of another version is still worth showing.
            std::stable_sort(all.begin(), all.end(), [&lock](const HashProvenance &a, const HashProvenance &b) {
                return (a.version == lock.version) > (b.version == lock.version);
            });
            row.matches = all;
        }
        m_rows.append(row);
    }
    endResetModel();
}

void LockHashListModel::clear()
{
    beginResetModel();
    m_lock = ProviderLock();
    m_rows.clear();
    endResetModel();
}

HashString LockHashListModel::hashAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).hash : HashString();
}

int LockHashListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LockHashListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockHashListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const HashProvenance *first = row.matches.isEmpty() ? nullptr : &row.matches.constFirst();
    QString scheme = row.hash.schemePrefix();
    scheme.chop(1);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case HashColumn: return row.hash.toString();
        case SchemeColumn: return scheme;
        case PlatformColumn:
            if (!first)
                return QString();
            return first->version == m_lock.version ? first->platform.toString()
                                                    : u"%1 (%2)"_s.arg(first->platform.toString(), first->version.toString());
        case ArchiveColumn:
            if (!first)
                return QString();
            if (first->origin == HashOrigin::Sha256Sums) // no archive: the signed list names the platform
                return u"listed in SHA256SUMS — %1"_s.arg(first->note);
            return u"%1 — %2"_s.arg(first->archivePath.isEmpty() ? u"(absent)"_s : QFileInfo(first->archivePath).fileName(),
                                    toString(first->origin));
        }
        return {};
    case Qt::ToolTipRole: {
        if (row.matches.isEmpty())
            return index.column() >= PlatformColumn ? u"No archive of the open mirror has this hash."_s : row.hash.toString();
        QStringList lines;
        for (const HashProvenance &p : row.matches)
            lines << u"%1 %2: %3 (%4)"_s.arg(p.version.toString(), p.platform.toString(), p.archivePath, toString(p.origin))
                    + (p.note.isEmpty() ? QString() : u", "_s + p.note);
        return lines.join(u'\n');
    }
    case HashRole: return row.hash.toString();
    case SchemeRole: return scheme;
    case PlatformRole: return first ? first->platform.toString() : QString();
    case ArchivePathRole: return first ? first->archivePath : QString();
    case OriginRole: return int(first ? first->origin : HashOrigin::Unknown);
    }
    return {};
}

QVariant LockHashListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitleHeader(*this, section, orientation, role, {u"Hash"_s, u"Scheme"_s, u"Platform"_s, u"Archive"_s});
}

QHash<int, QByteArray> LockHashListModel::roleNames() const
{
    return withRoleNames(
        QAbstractTableModel::roleNames(),
        {{HashRole, "hash"}, {SchemeRole, "scheme"}, {PlatformRole, "platform"}, {ArchivePathRole, "archivePath"}, {OriginRole, "origin"}});
}

QString LockHashListModel::dump() const
{
    return dumpTableModel(*this);
}

} // namespace provender
