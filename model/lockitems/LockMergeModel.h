#pragma once
// A three-way lock-file merge (lockmerge::MergeResult) as a tree for the merge window:
//
//   provider / foreign block        base        ours        theirs       result (choice)
//     version                       5.1.0       5.2.0       5.3.0        —
//     constraints                   ~> 5.1      ~> 5.2      ~> 5.3       —
//     hashes                        1           2           2            3
//       h1:…                        ✓           ✓                        ✓
//
// One top-level row per provider (canonical order), then one per foreign block. Hash rows list
// every hash of any side, so choosing another resolution never changes the rows, only the result
// column (dataChanged). Choices go through a handler (the window turns them into undo commands
// and calls setChoice); the model never decides by itself.

#include "model/lockfile/LockMerge.h"

#include "model/lockitems/NodeTreeModel.h"

#include <functional>

namespace provender {

class LockMergeModel final : public NodeTreeModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, BaseColumn, OursColumn, TheirsColumn, ResultColumn, ColumnCount };
    Q_ENUM(Column)
    enum class Kind { Provider, Foreign, Version, Constraints, Hashes, Hash };
    Q_ENUM(Kind)
    enum Role {
        KindRole = Qt::UserRole + 1, ///< int(Kind)
        KeyRole,                     ///< QString: the provider address or foreign block key of the row's top item
        StateRole,                   ///< QString on top rows: "conflict" (unresolved), "chosen", "merged", "unchanged"
        ChoiceRole,                  ///< int(lockmerge::Choice) of the top item
        ChoicesRole,                 ///< QVariantList of int(Choice) the top item offers
        TopRowRole,                  ///< int: the row of the top item (provider or foreign) this row belongs to
        HashRole,                    ///< QString on hash rows
    };
    Q_ENUM(Role)

    /// Called when a view edits the result column of a top row (EditRole, an int(Choice)).
    using ChoiceHandler = std::function<bool(int topRow, lockmerge::Choice choice)>;

    explicit LockMergeModel(QObject *parent = nullptr);

    void setMerge(const lockmerge::MergeResult &merge);
    const lockmerge::MergeResult &merge() const { return m_merge; }
    void setChoiceHandler(ChoiceHandler handler) { m_handler = std::move(handler); }

    /// Top rows: providers first, then foreign blocks.
    int topRowCount() const { return int(m_merge.providers.size() + m_merge.foreign.size()); }
    bool isForeignRow(int topRow) const { return topRow >= m_merge.providers.size(); }
    QString keyOf(int topRow) const;
    int topRowOf(const QString &key) const;
    lockmerge::Choice choiceOf(int topRow) const;
    QList<lockmerge::Choice> choicesOf(int topRow) const;
    bool isUnresolved(int topRow) const;
    /// Sets the choice of a top row (unavailable choices are refused); emits dataChanged for it
    /// and its children and resultChanged().
    bool setChoice(int topRow, lockmerge::Choice choice);
    /// The next top row after `fromTopRow` (wrapping) that is an unresolved conflict; -1 when none.
    int nextConflict(int fromTopRow) const;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Indented dump, columns joined by " | " (two spaces per level), for tests.
    QString dump() const;

Q_SIGNALS:
    void resultChanged();

private:
    struct Node
    {
        Kind kind = Kind::Provider;
        int top = 0;  ///< top row this node belongs to
        QString hash; ///< Hash nodes
    };
    QString cell(const Node &n, int column) const;
    QString topText(int top, int column) const;
    void emitTopChanged(int top);

    lockmerge::MergeResult m_merge;
    QList<Node> m_nodes; ///< by node id
    ChoiceHandler m_handler;
};

} // namespace provender
