#pragma once
// The semantic summary of a LockDiff as a tree:
//
//   provider (added / removed / upgraded / downgraded / changed)       old → new version
//     version                                                          3.2.1 → 3.2.2
//     constraints                                                      ~> 3.1 → ~> 3.2
//     hashes added (N)
//       platform (or "unknown platform")                               origins
//         hash                                                         origin, archive
//     hashes removed (N)
//       ...
//
// Unchanged providers are left out. Hashes are grouped by the platform of the archive they were
// traced to (provenance: the mirror given to diffLockFiles), then listed with their origin.

#include "model/lockfile/LockDiff.h"

#include "model/lockitems/NodeTreeModel.h"

namespace provender {

class LockDiffTreeModel final : public NodeTreeModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, DetailColumn, ColumnCount };
    Q_ENUM(Column)
    enum class Kind { Provider, Version, Constraints, HashesAdded, HashesRemoved, PlatformGroup, Hash };
    Q_ENUM(Kind)
    enum Role {
        KindRole = Qt::UserRole + 1, ///< int(Kind)
        ChangeRole,                  ///< int(ProviderDiff::Change) of the provider the item belongs to
        AddressRole,                 ///< QString: full provider address
        HashRole,                    ///< QString: Hash items: the hash
        PlatformRole,                ///< QString: PlatformGroup and Hash items ("" when unknown)
        AddedRole,                   ///< bool: the item is about something added (hashes added, new side)
    };
    Q_ENUM(Role)

    explicit LockDiffTreeModel(QObject *parent = nullptr);

    void setDiff(const LockDiff &diff);
    const LockDiff &diff() const { return m_diff; }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Indented dump ("name | detail", two spaces per level), for tests.
    QString dump() const;

private:
    struct Node
    {
        Kind kind = Kind::Provider;
        QString name;
        QString detail;
        QString address;
        QString hash;
        QString platform;
        int change = 0;
        bool added = false;
    };
    void addHashGroup(int providerNode, const ProviderDiff &p, bool added);

    LockDiff m_diff;
    QList<Node> m_nodes; ///< by node id
};

} // namespace provender
