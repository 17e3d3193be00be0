// MirrorTreeModel: building a tree off the GUI thread (buildTree), aggregating parents, adopting
// it (setTree) and merging a rescan into the rows shown (mergeTree).
#include "model/items/MirrorTreeModel.h"
#include "model/items/MirrorTreeNode.h"

#include "model/core/Logging.h"

#include <QSet>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <atomic>
#include <bit>
#include <numeric>

namespace provender {

using mirrortree::byHash;
using mirrortree::leafHash;
using mirrortree::LeafResult;
using mirrortree::PackedBit;
using mirrortree::ParentInfo;
using mirrortree::presentSize;
using mirrortree::UnpackedBit;

namespace {

/// Distinct platforms below a node: one bit per platform name, numbered as first met.
struct PlatformBits
{
    QHash<QString, int> ids;
    int idOf(const QString &name)
    {
        const auto it = ids.constFind(name);
        return it != ids.constEnd() ? *it : *ids.insert(name, int(ids.size()));
    }
    static void set(std::vector<quint64> &bits, int id)
    {
        const size_t word = size_t(id) / 64;
        if (bits.size() <= word)
            bits.resize(word + 1, 0);
        bits[word] |= quint64(1) << (id % 64);
    }
    static void unite(std::vector<quint64> &into, const std::vector<quint64> &from)
    {
        if (into.size() < from.size())
            into.resize(from.size(), 0);
        for (size_t i = 0; i < from.size(); ++i)
            into[i] |= from[i];
    }
    static int count(const std::vector<quint64> &bits)
    {
        int n = 0;
        for (quint64 w : bits)
            n += std::popcount(w);
        return n;
    }
};

/// A row's identity across rescans (see mergeCatalog).
QString identity(const MirrorTreeModel::Kind kind, const QString &name, const LeafResult &r)
{
    if (kind != MirrorTreeModel::ArchiveNode)
        return name;
    return name + QLatin1Char('|') + toString(r.layout) + QLatin1Char('|') + r.path;
}

} // namespace

void MirrorTreeModel::aggregate(Node *node)
{
    // One bottom-up pass: every parent's counts, size, declared, layouts and distinct platforms
    // from its children's (the platforms as bit sets, so no leaf is visited twice).
    struct Walk
    {
        PlatformBits platforms;
        static void leaf(Node *n)
        {
            n->counts.fill(0);
            ++n->counts[size_t(n->result.detail.verdict)];
            n->size = presentSize(n->result.size);
            n->declared = int(n->result.declared.size());
            n->platforms = 1;
            n->layouts = n->result.layout == ArchiveLayout::Packed ? PackedBit : UnpackedBit;
        }
        void parent(Node *n, std::vector<quint64> &bits)
        {
            n->counts.fill(0);
            n->size = 0;
            n->declared = 0;
            n->layouts = 0;
            bits.assign(bits.size(), 0);
            std::vector<quint64> below;
            for (const auto &c : n->children) {
                if (c->kind == ArchiveNode) {
                    leaf(c.get());
                    PlatformBits::set(bits, platforms.idOf(c->name)); // the leaf's name is its platform
                } else {
                    parent(c.get(), below);
                    PlatformBits::unite(bits, below);
                }
                for (size_t i = 0; i < n->counts.size(); ++i)
                    n->counts[i] += c->counts[i];
                n->size += c->size;
                n->declared += c->declared;
                n->layouts |= c->layouts;
            }
            n->platforms = PlatformBits::count(bits);
        }
    };
    if (node->kind == ArchiveNode) {
        Walk::leaf(node);
        return;
    }
    Walk walk;
    std::vector<quint64> bits;
    walk.parent(node, bits);
}

struct MirrorTreeModel::Tree::Data
{
    std::unique_ptr<Node> root;
    LeafIndex index;
};

void MirrorTreeModel::LeafIndex::clear()
{
    leaves.clear();
    byKey.clear();
    byPath.clear();
}

MirrorTreeModel::Tree::Tree() = default;
MirrorTreeModel::Tree::~Tree() = default;
MirrorTreeModel::Tree::Tree(const Tree &) = default;
MirrorTreeModel::Tree &MirrorTreeModel::Tree::operator=(const Tree &) = default;
bool MirrorTreeModel::Tree::isNull() const
{
    return !d || !d->root;
}
int MirrorTreeModel::Tree::archiveCount() const
{
    return d ? int(d->index.leaves.size()) : 0;
}

MirrorTreeModel::Tree MirrorTreeModel::buildTree(const Catalog &catalog)
{
    // 1. Each provider's version rows with their leaves, independent of every other provider: built
    //    on the global pool when the catalog is large (on two cores in about half the time, and the
    //    100,000 allocations spread over the threads' heaps).
    using Versions = std::vector<std::unique_ptr<Node>>;
    const auto buildVersions = [](const Provider &p) {
        // One string per distinct platform, shared by the leaves (their names).
        QHash<std::pair<QString, QString>, QString> platformNames;
        const auto platformName = [&platformNames](const Platform &platform) {
            const std::pair<QString, QString> key{platform.os(), platform.arch()};
            auto it = platformNames.find(key);
            if (it == platformNames.end())
                it = platformNames.insert(key, platform.toString());
            return *it;
        };
        QList<const ProviderVersion *> versions;
        for (const ProviderVersion &v : p.versions)
            versions.append(&v);
        std::stable_sort(versions.begin(), versions.end(),
                         [](const ProviderVersion *a, const ProviderVersion *b) { return a->version.comparePrecedence(b->version) < 0; });
        Versions out;
        out.reserve(size_t(versions.size()));
        for (const ProviderVersion *v : std::as_const(versions)) {
            auto version = std::make_unique<Node>();
            version->kind = VersionNode;
            version->name = v->version.toString();
            version->info = std::make_unique<ParentInfo>();
            version->info->version = v->version;
            version->children.reserve(size_t(v->archives.size() + v->duplicates.size()));
            auto addLeaf = [&](const Archive &a) {
                auto leaf = std::make_unique<Node>();
                leaf->kind = ArchiveNode;
                leaf->parent = version.get();
                leaf->row = int(version->children.size());
                leaf->result.assign(initialResult(p.address, v->version, a));
                leaf->name = platformName(a.platform);
                version->children.push_back(std::move(leaf));
            };
            for (const Archive &a : v->archives)
                addLeaf(a);
            for (const Archive &a : v->duplicates)
                addLeaf(a);
            out.push_back(std::move(version));
        }
        return out;
    };
    std::vector<Versions> built(size_t(catalog.providers.size()));
    if (catalog.providers.size() > 1 && catalog.archiveCount() >= 4096) {
        std::vector<qsizetype> order(built.size());
        std::iota(order.begin(), order.end(), 0);
        // A pool of its own: buildTree runs on a global-pool thread (the scan worker), and Qt 6's
        // blockingMap does not let the waiting thread take part, so on the global pool it would
        // wait for a free thread forever when none is left (one core, or two scans at once).
        QThreadPool pool;
        pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        QtConcurrent::blockingMap(&pool, order, [&](qsizetype i) { built[size_t(i)] = buildVersions(catalog.providers[i]); });
    } else {
        for (qsizetype i = 0; i < catalog.providers.size(); ++i)
            built[size_t(i)] = buildVersions(catalog.providers[i]);
    }

    // 2. Hosts and providers in catalog order. Providers that display alike under one host share a
    //    row, and so do their equal versions (the leaves of both, in catalog order).
    Tree tree;
    tree.d = std::make_shared<Tree::Data>();
    auto root = std::make_unique<Node>();
    for (qsizetype i = 0; i < catalog.providers.size(); ++i) {
        const Provider &p = catalog.providers[i];
        Node *host = root->child(ProviderAddress::hostnameForDisplay(p.address.hostname()), HostNode);
        // Two providers that display alike (hostnames of one display form) keep their own rows:
        // a leaf's key is its ancestors' address and version.
        const QString name = p.address.ns() + QLatin1Char('/') + p.address.type();
        const QString address = p.address.toString();
        Node *provider = nullptr;
        for (const auto &c : host->children)
            if (c->name == name && c->info && c->info->provider == p.address)
                provider = c.get();
        if (!provider) {
            auto node = std::make_unique<Node>();
            node->kind = ProviderNode;
            node->parent = host;
            node->row = int(host->children.size());
            node->name = name;
            node->info = std::make_unique<ParentInfo>();
            provider = node.get();
            host->children.push_back(std::move(node));
        }
        provider->info->provider = p.address;
        provider->info->path = p.directory;
        provider->info->address = address;
        QHash<QString, Node *> existing;
        for (const auto &c : provider->children)
            existing.insert(c->name, c.get());
        for (std::unique_ptr<Node> &version : built[size_t(i)]) {
            if (Node *same = existing.value(version->name)) {
                for (std::unique_ptr<Node> &leaf : version->children) {
                    leaf->parent = same;
                    leaf->row = int(same->children.size());
                    same->children.push_back(std::move(leaf));
                }
                continue;
            }
            version->parent = provider;
            version->row = int(provider->children.size());
            existing.insert(version->name, version.get());
            provider->children.push_back(std::move(version));
        }
        // Precedence rank of each version among its siblings (the rows are in precedence order).
        for (const auto &c : provider->children)
            c->info->rank = c->row;
    }
    aggregate(root.get());
    indexLeaves(root.get(), tree.d->index);
    tree.d->root = std::move(root);
    return tree;
}

void MirrorTreeModel::indexLeaves(Node *root, LeafIndex &index)
{
    index.clear();
    std::vector<Node *> stack{root};
    while (!stack.empty()) {
        Node *n = stack.back();
        stack.pop_back();
        if (n->kind == ArchiveNode && n != root) {
            index.leaves.push_back(n);
            continue;
        }
        for (auto it = n->children.rbegin(); it != n->children.rend(); ++it)
            stack.push_back(it->get());
    }
    index.byKey.reserve(index.leaves.size());
    index.byPath.reserve(index.leaves.size());
    for (Node *n : index.leaves) {
        index.byKey.push_back({leafHash(keyOf(n), n->result.path), n});
        if (!n->result.path.isEmpty())
            index.byPath.push_back({qHash(n->result.path), n});
    }
    // Stable: among equal hashes the leaf order stays (the first of equal paths wins).
    std::stable_sort(index.byKey.begin(), index.byKey.end(), byHash<LeafRef, LeafRef>);
    std::stable_sort(index.byPath.begin(), index.byPath.end(), byHash<LeafRef, LeafRef>);
}

void MirrorTreeModel::setCatalog(const Catalog &catalog)
{
    setTree(buildTree(catalog));
}

void MirrorTreeModel::setTree(Tree tree)
{
    if (tree.isNull()) {
        clear();
        return;
    }
    Tree::Data &d = *tree.d;
    beginResetModel();
    std::swap(m_root, d.root); // the previous tree is freed with `tree`, after the reset
    std::swap(m_index, d.index);
    endResetModel();
    tree.d.reset();
    Q_EMIT countsChanged();
}

void MirrorTreeModel::mergeCatalog(const Catalog &catalog)
{
    mergeTree(buildTree(catalog));
}

void MirrorTreeModel::mergeTree(Tree tree)
{
    if (tree.isNull())
        tree = buildTree(Catalog{});
    Node *fresh = tree.d->root.get();
    // The leaf indexes point into rows the merge may free: empty them first, so that a slot on
    // rowsRemoved/rowsInserted that looks a path up finds nothing rather than a freed node.
    m_index.clear();
    mergeChildren(m_root.get(), fresh);
    tree.d.reset();
    indexLeaves(m_root.get(), m_index);
    aggregate(m_root.get());
    forgetMatches(m_root.get()); // kept rows may hold other data now
    announceAll(m_root.get());
    Q_EMIT countsChanged();
}

void MirrorTreeModel::mergeChildren(Node *target, Node *fresh)
{
    auto key = [](const Node *n) { return identity(n->kind, n->name, n->result); };
    const QModelIndex parentIndex = indexOf(target, 0);

    // Fresh rows by identity (the first of equal ones; later equal ones are inserted as new).
    QHash<QString, int> freshRow;
    for (const auto &c : fresh->children)
        if (const QString k = key(c.get()); !freshRow.contains(k))
            freshRow.insert(k, c->row);

    // 1. Remove the rows that are gone, and rows whose order relative to the kept ones changed
    //    (they come back as insertions), in runs of adjacent rows, last run first.
    std::vector<bool> keep(target->children.size(), false);
    int lastKept = -1;
    QSet<int> used;
    for (size_t i = 0; i < target->children.size(); ++i) {
        const auto it = freshRow.constFind(key(target->children[i].get()));
        if (it != freshRow.constEnd() && *it > lastKept && !used.contains(*it)) {
            keep[i] = true;
            lastKept = *it;
            used.insert(*it);
        }
    }
    for (int last = int(target->children.size()) - 1; last >= 0;) {
        if (keep[size_t(last)]) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && !keep[size_t(first - 1)])
            --first;
        beginRemoveRows(parentIndex, first, last);
        target->children.erase(target->children.begin() + first, target->children.begin() + last + 1);
        for (size_t r = size_t(first); r < target->children.size(); ++r)
            target->children[r]->row = int(r);
        endRemoveRows();
        last = first - 1;
    }

    // 2. Walk the fresh rows: a kept row takes the fresh values and merges its children; a run of
    //    fresh rows that are not there is inserted in one go.
    size_t t = 0;
    for (size_t f = 0; f < fresh->children.size();) {
        Node *fc = fresh->children[f].get();
        if (t < target->children.size() && key(target->children[t].get()) == key(fc)) {
            Node *tc = target->children[t].get();
            if (fc->info)
                tc->info = std::make_unique<ParentInfo>(*fc->info);
            if (tc->kind == ArchiveNode)
                tc->result = fc->result;
            else
                mergeChildren(tc, fc);
            ++t;
            ++f;
            continue;
        }
        size_t end = f + 1;
        const QString next = t < target->children.size() ? key(target->children[t].get()) : QString();
        while (end < fresh->children.size() && (next.isNull() || key(fresh->children[end].get()) != next))
            ++end;
        const int first = int(t);
        const int count = int(end - f);
        beginInsertRows(parentIndex, first, first + count - 1);
        for (size_t i = f; i < end; ++i) {
            std::unique_ptr<Node> moved = std::move(fresh->children[i]);
            moved->parent = target;
            target->children.insert(target->children.begin() + qsizetype(t), std::move(moved));
            ++t;
        }
        for (size_t r = size_t(first); r < target->children.size(); ++r)
            target->children[r]->row = int(r);
        for (int r = first; r < first + count; ++r) // the new rows' aggregates are right at once
            aggregate(target->children[size_t(r)].get());
        endInsertRows();
        f = end;
    }
}

void MirrorTreeModel::announceAll(const Node *node)
{
    if (node->children.empty())
        return;
    const QModelIndex parentIndex = indexOf(node, 0);
    Q_EMIT dataChanged(index(0, 0, parentIndex), index(int(node->children.size()) - 1, ColumnCount - 1, parentIndex));
    for (const auto &c : node->children)
        announceAll(c.get());
}

void MirrorTreeModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    m_index.clear();
    endResetModel();
    Q_EMIT countsChanged();
}

} // namespace provender
