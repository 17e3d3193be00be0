#pragma once
// The mirror as a tree: host ▸ provider (`namespace/type`) ▸ version ▸ platform archive.
//
// setCatalog() builds the tree (a model reset): every archive of the catalog (forEachArchive
// order, duplicates included) becomes a leaf, Pending (or Missing when declared but absent).
// Versions are ordered by go-versions precedence (Version::comparePrecedence), not as strings.
// applyResults() merges batches of verification results: leaves change in place and every parent
// row re-aggregates — its verdict is the worst of its leaves' (Mismatch > Error > Missing >
// Unverified > Pending > Verified), its size the sum of its present leaves' sizes. Each batch is
// announced with one dataChanged per run of adjacent changed rows under one parent — never a reset.
// mergeCatalog() applies a rescan of the same mirror: rows that are still there stay (persistent
// indexes, so expansion and selection, survive), vanished rows are removed and new ones inserted
// with begin/endRemoveRows and begin/endInsertRows — again never a reset.

#include "model/mirror/Catalog.h"
#include "model/verify/VerifyTypes.h"

#include <QAbstractItemModel>

#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace provender {

class MirrorTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        NameColumn,      ///< host, `namespace/type`, version, or platform
        PlatformsColumn, ///< leaf: its platform; parent: number of distinct platforms below
        SizeColumn,      ///< bytes (display human-readable; SortRole qint64); parents: sum of present leaves
        VerdictColumn,   ///< verdict name; parents: the worst of their leaves
        DeclaredColumn,  ///< number of declared hashes (parents: sum); DeclaredRole has the hashes
        LayoutColumn,    ///< "packed" / "unpacked"; parents: "mixed" when both occur below
        ColumnCount
    };
    Q_ENUM(Column)

    enum Kind { HostNode, ProviderNode, VersionNode, ArchiveNode };
    Q_ENUM(Kind)

    /// ArchiveFilterProxyModel and the verdict badge delegate read these roles.
    enum Role {
        VerdictRole = Qt::UserRole + 1,  ///< int(provender::Verdict), any column (parents: aggregated;
                                         ///< invalid QVariant for a parent with no archive below)
        SortRole,                        ///< raw value that sorts naturally: name column = host / provider / platform
                                         ///< string, or the version's precedence rank (qint64); size = qint64 bytes;
                                         ///< verdict = severity (0 = worst); declared = count; others = display text
        PathRole,                        ///< QString: leaf: archive path ("" when missing); provider: its directory; else ""
        ReasonRole,                      ///< QString: leaf: VerdictDetail::reason
        DeclaredRole = Qt::UserRole + 7, ///< QStringList: leaf: the declared hashes; parents: empty
        SearchTextRole, ///< QString: leaf: "host/ns/type version platform" + declared and computed hashes; parents: their name
        PlatformRole,   ///< QString: leaf: its platform; parents: ""
        KindRole = Qt::UserRole + 20, ///< int(Kind)
        SizeRole,                     ///< qint64 bytes (-1: leaf absent)
        VerdictCountsRole,            ///< QVariantList of kVerdictCount ints (leaves per verdict below, indexed by int(Verdict))
        AnchorRole,                   ///< QString: leaf with a verdict: what it was checked against (describeAnchors)
    };
    Q_ENUM(Role)

    explicit MirrorTreeModel(QObject *parent = nullptr);
    ~MirrorTreeModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// A tree built from a Catalog without any model: buildTree() touches no shared state, so the
    /// scan worker calls it off the GUI thread; setTree() then adopts it in O(1) (a model reset)
    /// and mergeTree() merges it as a rescan. A Tree is consumed by the first setTree/mergeTree.
    class Tree
    {
    public:
        Tree();
        ~Tree();
        Tree(const Tree &);
        Tree &operator=(const Tree &);
        bool isNull() const;
        int archiveCount() const;

    private:
        friend class MirrorTreeModel;
        struct Data;
        std::shared_ptr<Data> d;
    };
    static Tree buildTree(const Catalog &catalog);
    /// Replace the model's tree by `tree` (a model reset; for a different mirror). O(1) apart
    /// from freeing the previous tree.
    void setTree(Tree tree);
    /// Like mergeCatalog() with a tree built by buildTree().
    void mergeTree(Tree tree);

    /// Replace the tree by `catalog` (a model reset; for a different mirror): setTree(buildTree(catalog)).
    void setCatalog(const Catalog &catalog);
    /// Merge a rescan of the same mirror without a reset. Identity of a row: host name, provider
    /// `namespace/type`, version string, and for a leaf its platform, layout and path. Kept rows stay
    /// (with their QPersistentModelIndexes); rows no longer present are removed, new ones inserted
    /// at their sorted place; kept leaves take the new scan's initial result (Pending or Missing) and
    /// every kept row is announced by dataChanged. On an empty model this inserts everything.
    void mergeCatalog(const Catalog &catalog);
    void clear();
    /// Merge verification results (matched by key, layout and path); unknown ones are ignored.
    void applyResults(const QList<ArchiveResult> &results);
    /// Every leaf back to Pending (Missing stays Missing), e.g. before re-verifying.
    void resetVerdicts();

    /// The leaf's result (built from the leaf and its version and provider rows), or nullopt when
    /// `index` is not a leaf.
    std::optional<ArchiveResult> resultAt(const QModelIndex &index) const;
    /// Number of leaves (archives).
    int archiveCount() const { return int(m_index.leaves.size()); }
    /// The row (column 0) of the archive at `path` (exact match), or an empty index.
    QModelIndex indexForArchivePath(const QString &path) const;
    /// The deepest row a file of the mirror belongs to: the archive at `path` or containing it
    /// (unpacked), the version of a `<version>.json` or of a file named after it, the provider whose
    /// directory holds it; an empty index when none.
    QModelIndex indexForPath(const QString &path) const;
    /// Distinct platforms of all leaves, sorted.
    QStringList platforms() const;
    /// Leaves per verdict, indexed by int(Verdict).
    const std::array<int, kVerdictCount> &verdictCounts() const;
    /// A filter of ArchiveFilterProxyModel, tested straight on the nodes (no QVariant, no string
    /// built). With any criterion set only leaves are judged: a leaf passes when its verdict equals
    /// `verdict` (if set), its platform equals `platform` (if not empty) and every word occurs
    /// case-insensitively in its SearchTextRole text (tested piece by piece: the words hold no
    /// space, so no word can span two pieces). `serial` names this filter for the memo of
    /// acceptsRow(): a new serial (newFilterSerial()) every time the criteria change.
    struct RowFilter
    {
        std::optional<Verdict> verdict;
        QString platform;
        QStringList words; ///< lower case for the ASCII fast path (the test is case-insensitive either way)
        quint64 serial = 0;
        bool isEmpty() const { return !verdict && platform.isEmpty() && words.isEmpty(); }
    };
    static quint64 newFilterSerial();
    /// Whether the leaf `row` under `parent` passes `filter` (a parent row: false unless the filter
    /// is empty). Not memoized.
    bool rowMatches(int row, const QModelIndex &parent, const RowFilter &filter) const;
    /// Whether the row passes (a leaf) or has a leaf below that passes (a parent) — recursive
    /// filtering in one call, so that the proxy need not walk subtrees itself. Memoized per node for
    /// `filter.serial` until that node's subtree changes (applyResults, a rescan merge, a reset):
    /// filtering the whole tree tests each node once.
    bool acceptsRow(int row, const QModelIndex &parent, const RowFilter &filter) const;
    /// How many archives (leaves) pass `filter` (all of them for an empty filter); memoized like acceptsRow().
    int matchingArchives(const RowFilter &filter) const;
    /// Compares two sibling rows by SortRole of `left`'s column without building QVariants (the
    /// proxy's lessThan); strings compare with `cs` as QSortFilterProxyModel does. <0, 0 or >0.
    int compareRows(const QModelIndex &left, const QModelIndex &right, Qt::CaseSensitivity cs) const;
    /// Indentation-based textual dump (every column, DisplayRole), for tests and debugging.
    QString dump() const;

Q_SIGNALS:
    void countsChanged();

private:
    struct Node;
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(const Node *node, int column) const;
    /// A leaf found by a hash of its identity: sorted vectors of these replace hash tables of
    /// 100,000 keys (a fraction of the memory, built by one sort).
    struct LeafRef
    {
        size_t hash;
        Node *node;
    };
    struct LeafIndex
    {
        std::vector<Node *> leaves;  ///< depth-first order
        std::vector<LeafRef> byKey;  ///< by leafHash(key, path), then leaf order
        std::vector<LeafRef> byPath; ///< by qHash(path) of present leaves, then leaf order
        void clear();
    };
    static void aggregate(Node *node);
    int matchesBelow(const Node *node, const RowFilter &filter) const;
    bool leafMatches(const Node *leaf, const RowFilter &filter) const;
    void mergeChildren(Node *target, Node *fresh);
    static void indexLeaves(Node *root, LeafIndex &index);
    Node *leafFor(const ArchiveResult &result) const;
    static ArchiveKey keyOf(const Node *leaf);
    const Node *leafAtPath(const QString &path) const;
    void announceAll(const Node *node);
    static void forgetMatches(Node *node);

    std::unique_ptr<Node> m_root;
    LeafIndex m_index;
};

} // namespace provender
