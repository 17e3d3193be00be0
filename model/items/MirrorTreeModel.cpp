#include "model/items/MirrorTreeModel.h"

#include "model/core/RoleNames.h"
#include "model/items/MirrorTreeNode.h"

#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"

#include <QLocale>

#include <algorithm>

namespace provender {

using mirrortree::byHash;
using mirrortree::leafHash;
using mirrortree::LeafResult;
using mirrortree::PackedBit;
using mirrortree::severity;
using mirrortree::UnpackedBit;

MirrorTreeModel::MirrorTreeModel(QObject *parent) : QAbstractItemModel(parent), m_root(std::make_unique<Node>()) {}

MirrorTreeModel::~MirrorTreeModel() = default;

MirrorTreeModel::Node *MirrorTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex MirrorTreeModel::indexOf(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row, column, const_cast<Node *>(node));
}

QModelIndex MirrorTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    const Node *p = nodeOf(parent);
    if (row >= int(p->children.size()))
        return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex MirrorTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent, 0);
}

int MirrorTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int MirrorTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant MirrorTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *n = nodeOf(index);
    const bool leaf = n->kind == ArchiveNode;
    const Verdict verdict = n->verdict();
    const bool judged = n->hasVerdict();
    const qint64 size = leaf ? n->result.size : n->size;

    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case NameColumn: return n->name;
        case PlatformsColumn: return leaf ? n->name : QString::number(n->platforms);
        case SizeColumn: return size < 0 ? QString() : formatDataSize(size, QLocale());
        case VerdictColumn: return judged ? toString(verdict) : QString();
        case DeclaredColumn: return QString::number(n->declared);
        case LayoutColumn:
            switch (n->layouts) {
            case PackedBit: return toString(ArchiveLayout::Packed);
            case UnpackedBit: return toString(ArchiveLayout::Unpacked);
            case PackedBit | UnpackedBit: return tr("mixed");
            default: return QString();
            }
        case ColumnCount: break;
        }
        return {};
    case Qt::ToolTipRole:
        if (leaf) {
            QStringList lines{QStringLiteral("%1 — %2").arg(toString(verdict), n->result.detail.reason)};
            if (judged)
                lines.append(tr("Checked against: %1").arg(describeAnchors(n->result.detail)));
            if (!n->result.path.isEmpty())
                lines.append(n->result.path);
            for (const HashString &h : n->result.declared)
                lines.append(h.toString());
            return lines.join(QLatin1Char('\n'));
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn || index.column() == DeclaredColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case VerdictRole: return judged ? QVariant(int(verdict)) : QVariant();
    case AnchorRole: return leaf && judged ? QVariant(describeAnchors(n->result.detail)) : QVariant();
    case SortRole:
        switch (Column(index.column())) {
        case NameColumn:
            if (n->kind == VersionNode)
                return n->rank();
            return n->name;
        case PlatformsColumn: return leaf ? QVariant(n->name) : QVariant(n->platforms);
        case SizeColumn: return size;
        case VerdictColumn: return judged ? severity(verdict) : 7; // after the verified ones
        case DeclaredColumn: return n->declared;
        default: return data(index, Qt::DisplayRole);
        }
    case PathRole: return leaf ? n->result.path : n->path();
    case KindRole: return int(n->kind);
    case SizeRole: return size;
    case DeclaredRole: {
        QStringList declared;
        if (leaf)
            for (const HashString &h : n->result.declared)
                declared.append(h.toString());
        return declared;
    }
    case SearchTextRole: {
        if (!leaf)
            return n->name;
        QString text = keyOf(n).toString();
        for (const HashString &h : n->result.declared)
            text += QLatin1Char(' ') + h.toString();
        if (n->result.hashes) {
            const PackageHashes &c = *n->result.hashes;
            for (const HashString *h : {&c.h1Extracted, &c.h1Zip, &c.zh})
                if (!h->isNull())
                    text += QLatin1Char(' ') + h->toString();
        }
        return text;
    }
    case PlatformRole: return leaf ? n->name : QString();
    case ReasonRole: return leaf ? n->result.detail.reason : QString();
    case VerdictCountsRole: {
        QVariantList counts;
        for (int c : n->counts)
            counts.append(c);
        return counts;
    }
    default: return {};
    }
}

QVariant MirrorTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case NameColumn: return tr("Name");
        case PlatformsColumn: return tr("Platforms");
        case SizeColumn: return tr("Size");
        case VerdictColumn: return tr("Verdict");
        case DeclaredColumn: return tr("Declared");
        case LayoutColumn: return tr("Layout");
        case ColumnCount: break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case PlatformsColumn: return tr("The archive's platform, or how many distinct platforms are below");
        case VerdictColumn: return tr("The worst verdict of the archives below");
        case DeclaredColumn: return tr("Hashes the mirror's index declares");
        default: break;
        }
    }
    if (role == Qt::TextAlignmentRole && (section == SizeColumn || section == DeclaredColumn))
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QHash<int, QByteArray> MirrorTreeModel::roleNames() const
{
    return withRoleNames(QAbstractItemModel::roleNames(),
                         {{VerdictRole, "verdict"},
                          {SortRole, "sort"},
                          {PathRole, "path"},
                          {KindRole, "kind"},
                          {SizeRole, "size"},
                          {DeclaredRole, "declared"},
                          {SearchTextRole, "searchText"},
                          {ReasonRole, "reason"},
                          {PlatformRole, "platform"},
                          {VerdictCountsRole, "verdictCounts"},
                          {AnchorRole, "anchor"}});
}

MirrorTreeModel::Node *MirrorTreeModel::leafFor(const ArchiveResult &r) const
{
    const LeafRef probe{leafHash(r.key, r.path), nullptr};
    auto [it, end] = std::equal_range(m_index.byKey.begin(), m_index.byKey.end(), probe, byHash<LeafRef, LeafRef>);
    for (; it != end; ++it) {
        const LeafResult &candidate = it->node->result;
        if (candidate.layout == r.layout && candidate.path == r.path && keyOf(it->node) == r.key)
            return it->node;
    }
    return nullptr;
}

void MirrorTreeModel::applyResults(const QList<ArchiveResult> &results)
{
    QHash<Node *, QList<int>> changedRows; // parent -> rows changed under it
    for (const ArchiveResult &r : results) {
        Node *leaf = leafFor(r);
        if (!leaf) {
            qCDebug(lcItems) << "result for an unknown archive ignored:" << r.key.toString() << r.path;
            continue;
        }
        const std::array<int, kVerdictCount> oldCounts = leaf->counts;
        const qint64 oldSize = leaf->size;
        const int oldDeclared = leaf->declared;
        leaf->result.assign(ArchiveResult(r));
        aggregate(leaf);
        m_root->memoSerial = 0;
        for (Node *n = leaf; n != m_root.get(); n = n->parent) {
            n->memoSerial = 0; // its subtree changed: filter it again
            if (n != leaf) {
                for (size_t i = 0; i < n->counts.size(); ++i)
                    n->counts[i] += leaf->counts[i] - oldCounts[i];
                n->size += leaf->size - oldSize;
                n->declared += leaf->declared - oldDeclared;
            }
            QList<int> &rows = changedRows[n->parent];
            if (rows.isEmpty() || rows.last() != n->row)
                rows.append(n->row);
        }
        for (size_t i = 0; i < m_root->counts.size(); ++i)
            m_root->counts[i] += leaf->counts[i] - oldCounts[i];
        m_root->size += leaf->size - oldSize;
        m_root->declared += leaf->declared - oldDeclared;
    }
    if (changedRows.isEmpty())
        return;
    for (auto it = changedRows.begin(); it != changedRows.end(); ++it) {
        QList<int> &rows = it.value();
        std::sort(rows.begin(), rows.end());
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        const QModelIndex parentIndex = indexOf(it.key(), 0);
        qsizetype start = 0;
        for (qsizetype i = 1; i <= rows.size(); ++i) {
            if (i < rows.size() && rows.at(i) == rows.at(i - 1) + 1)
                continue;
            Q_EMIT dataChanged(index(rows.at(start), SizeColumn, parentIndex), index(rows.at(i - 1), DeclaredColumn, parentIndex));
            start = i;
        }
    }
    Q_EMIT countsChanged();
}

void MirrorTreeModel::resetVerdicts()
{
    QList<ArchiveResult> reset;
    reset.reserve(qsizetype(m_index.leaves.size()));
    for (const Node *leaf : m_index.leaves) {
        ArchiveResult r = leaf->result.toResult(keyOf(leaf));
        if (r.detail.verdict == Verdict::Missing)
            continue;
        r.detail = VerdictDetail{};
        r.detail.reason = QStringLiteral("not hashed yet");
        r.hashes.reset();
        r.error.clear();
        r.fromCache = false;
        reset.append(std::move(r));
    }
    applyResults(reset);
}

std::optional<ArchiveResult> MirrorTreeModel::resultAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return std::nullopt;
    const Node *n = nodeOf(index);
    if (n->kind != ArchiveNode)
        return std::nullopt;
    return n->result.toResult(keyOf(n));
}

ArchiveKey MirrorTreeModel::keyOf(const Node *leaf)
{
    // A leaf always hangs under its version, under its provider (buildTree, mergeTree).
    const Node *version = leaf->parent;
    const Node *provider = version ? version->parent : nullptr;
    if (!provider || !version->info || !provider->info)
        return ArchiveKey{{}, {}, leaf->result.platform};
    return ArchiveKey{provider->info->provider, version->info->version, leaf->result.platform};
}

QModelIndex MirrorTreeModel::indexForArchivePath(const QString &path) const
{
    const Node *leaf = leafAtPath(path);
    return leaf ? indexOf(leaf, 0) : QModelIndex();
}

const MirrorTreeModel::Node *MirrorTreeModel::leafAtPath(const QString &path) const
{
    if (path.isEmpty())
        return nullptr;
    const LeafRef probe{qHash(path), nullptr};
    auto [it, end] = std::equal_range(m_index.byPath.begin(), m_index.byPath.end(), probe, byHash<LeafRef, LeafRef>);
    for (; it != end; ++it)
        if (it->node->result.path == path)
            return it->node; // the first of equal paths
    return nullptr;
}

QModelIndex MirrorTreeModel::indexForPath(const QString &path) const
{
    if (path.isEmpty())
        return {};
    if (const QModelIndex exact = indexForArchivePath(path); exact.isValid())
        return exact;
    const auto under = [&path](const QString &dir) {
        return !dir.isEmpty() && path.size() > dir.size() && path.startsWith(dir) && path.at(dir.size()) == QLatin1Char('/');
    };
    // A file inside an unpacked package: one of its parent directories is the package.
    for (qsizetype slash = path.lastIndexOf(QLatin1Char('/')); slash > 0; slash = path.lastIndexOf(QLatin1Char('/'), slash - 1)) {
        const Node *leaf = leafAtPath(path.left(slash));
        if (leaf && leaf->result.layout == ArchiveLayout::Unpacked)
            return indexOf(leaf, 0);
    }
    for (const auto &host : m_root->children) {
        for (const auto &provider : host->children) {
            if (!under(provider->path()))
                continue;
            // HOST/NS/TYPE/<version>.json, or a file whose name holds a version of this provider
            // (terraform-provider-TYPE_<version>_<os>_<arch>.zip, <version>/...).
            const QString rest = path.mid(provider->path().size() + 1);
            const Node *best = nullptr;
            for (const auto &version : provider->children) {
                const QString &v = version->name;
                if (rest == v + QStringLiteral(".json") || rest.startsWith(v + QLatin1Char('/'))
                    || rest.contains(QLatin1Char('_') + v + QLatin1Char('_'))) {
                    if (!best || v.size() > best->name.size())
                        best = version.get();
                }
            }
            return indexOf(best ? best : provider.get(), 0);
        }
    }
    return {};
}

QStringList MirrorTreeModel::platforms() const
{
    QSet<QString> set;
    for (const Node *leaf : m_index.leaves)
        set.insert(leaf->name);
    QStringList out(set.begin(), set.end());
    out.sort();
    return out;
}

const std::array<int, kVerdictCount> &MirrorTreeModel::verdictCounts() const
{
    return m_root->counts;
}

QString MirrorTreeModel::dump() const
{
    // One line per row, depth-first, two spaces of indentation per level:
    // name | platforms | size in bytes | verdict | declared | layout
    QString out;
    std::vector<std::pair<const Node *, int>> stack;
    for (auto it = m_root->children.rbegin(); it != m_root->children.rend(); ++it)
        stack.emplace_back(it->get(), 0);
    while (!stack.empty()) {
        const auto [n, depth] = stack.back();
        stack.pop_back();
        const QModelIndex idx = indexOf(n, 0);
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells.append(c == SizeColumn ? QString::number(idx.siblingAtColumn(c).data(SizeRole).toLongLong())
                                         : idx.siblingAtColumn(c).data().toString());
        out += QString(depth * 2, QLatin1Char(' ')) + cells.join(QStringLiteral(" | ")) + QLatin1Char('\n');
        for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
            stack.emplace_back(it->get(), depth + 1);
    }
    return out;
}

} // namespace provender
