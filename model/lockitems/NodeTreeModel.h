#pragma once
// The shape of a tree model kept in lists: every row is a node numbered in the order it was added,
// with its parent, its row under that parent and its children. index(), parent() and rowCount()
// follow from that alone; a derived model keeps what it shows of node `id` at position `id` of its
// own list (an index's internalId() is the id) and adds columnCount() and data().

#include <QAbstractItemModel>
#include <QList>

#include <utility>

namespace provender {

class NodeTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    using QAbstractItemModel::QAbstractItemModel;

    /// Children hang under column 0 only; a column is valid below columnCount().
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;

protected:
    /// Appends `node` to `nodes` (the model's own list, by id) as the last child of node `parent`
    /// (-1: the last top-level row); its id.
    template<typename Node> int addNode(QList<Node> &nodes, int parent, Node node)
    {
        nodes.append(std::move(node));
        const int id = addTreeNode(parent);
        Q_ASSERT(id == nodes.size() - 1);
        return id;
    }
    /// Forgets every node: the tree and the model's own list `nodes` (inside
    /// beginResetModel/endResetModel).
    template<typename Node> void clearNodes(QList<Node> &nodes)
    {
        nodes.clear();
        m_links.clear();
        m_roots.clear();
    }

private:
    /// A new node, the last child of node `parent`; its id (0, 1, ...).
    int addTreeNode(int parent);

    struct Links
    {
        int parent = -1; ///< -1 = a top-level row
        int row = 0;     ///< row under the parent
        QList<int> children;
    };
    const QList<int> &childrenOf(const QModelIndex &parent) const;

    QList<Links> m_links;
    QList<int> m_roots;
};

} // namespace provender
