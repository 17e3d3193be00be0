#include "model/lockitems/NodeTreeModel.h"

namespace provender {

const QList<int> &NodeTreeModel::childrenOf(const QModelIndex &parent) const
{
    return parent.isValid() ? m_links.at(int(parent.internalId())).children : m_roots;
}

QModelIndex NodeTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= columnCount(parent))
        return {};
    if (parent.isValid() && parent.column() != 0)
        return {};
    const QList<int> &siblings = childrenOf(parent);
    if (row >= siblings.size())
        return {};
    return createIndex(row, column, quintptr(siblings.at(row)));
}

QModelIndex NodeTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const int p = m_links.at(int(child.internalId())).parent;
    if (p < 0)
        return {};
    return createIndex(m_links.at(p).row, 0, quintptr(p));
}

int NodeTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(childrenOf(parent).size());
}

int NodeTreeModel::addTreeNode(int parent)
{
    const int id = int(m_links.size());
    m_links.append({parent, 0, {}});
    QList<int> &siblings = parent < 0 ? m_roots : m_links[parent].children;
    m_links[id].row = int(siblings.size());
    siblings.append(id);
    return id;
}

} // namespace provender
