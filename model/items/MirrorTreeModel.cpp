#include "model/items/MirrorTreeModel.h"

#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"

#include <QLocale>
#include <QSet>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <atomic>
#include <bit>
#include <numeric>

namespace provender {

namespace {

/// 0 = worst. Parents show the verdict of lowest severity among their leaves.
int severity(Verdict v)
{
    switch (v) {
    case Verdict::Mismatch: return 0;
    case Verdict::Refused: return 1;
    case Verdict::Error: return 2;
    case Verdict::Missing: return 3;
    case Verdict::Unverified: return 4;
    case Verdict::Pending: return 5;
    case Verdict::Verified: return 6;
    }
    return 7;
}

constexpr std::array<Verdict, kVerdictCount> kWorstFirst{Verdict::Mismatch,   Verdict::Refused, Verdict::Error,   Verdict::Missing,
                                                         Verdict::Unverified, Verdict::Pending, Verdict::Verified};

enum LayoutBits { PackedBit = 1, UnpackedBit = 2 };

qint64 presentSize(qint64 size)
{
    return size > 0 ? size : 0;
}

/// Whether `word` is ASCII without upper-case letters (containsFolded's fast path applies).
bool isFoldedAscii(QStringView word)
{
    for (QChar ch : word)
        if (ch.unicode() >= 0x80 || (ch.unicode() >= u'A' && ch.unicode() <= u'Z'))
            return false;
    return true;
}

/// Case-insensitive substring test for a word that isFoldedAscii(): ASCII letters of `hay` are
/// folded on the fly (QString::contains(Qt::CaseInsensitive) folds every character through the
/// Unicode tables and was most of the filter's time). Other words take Qt's path.
bool containsFolded(QStringView hay, QStringView word, bool foldedAscii)
{
    if (!foldedAscii)
        return hay.contains(word, Qt::CaseInsensitive);
    const qsizetype m = word.size();
    const qsizetype n = hay.size();
    if (m == 0)
        return true;
    const auto fold = [](char16_t c) -> char16_t { return c >= u'A' && c <= u'Z' ? char16_t(c + 32) : c; };
    const char16_t *h = reinterpret_cast<const char16_t *>(hay.data());
    const char16_t *w = reinterpret_cast<const char16_t *>(word.data());
    for (qsizetype i = 0; i + m <= n; ++i) {
        if (fold(h[i]) != w[0])
            continue;
        qsizetype j = 1;
        while (j < m && fold(h[i + j]) == w[j])
            ++j;
        if (j == m)
            return true;
    }
    return false;
}

} // namespace

namespace {

/// What a leaf keeps of its ArchiveResult: all but the key (its provider and version are its
/// ancestors'; see MirrorTreeModel::keyOf), and the computed hashes shared rather than inline —
/// a third of ArchiveResult's 608 bytes, so that 100,000 leaves are quick to allocate.
struct LeafResult
{
    Platform platform;
    ArchiveLayout layout = ArchiveLayout::Packed;
    bool fromCache = false;
    QString path;
    qint64 size = -1;
    VerdictDetail detail;
    std::shared_ptr<const PackageHashes> hashes;
    QList<HashString> declared;
    QString error;

    void assign(ArchiveResult &&r)
    {
        platform = std::move(r.key.platform);
        layout = r.layout;
        fromCache = r.fromCache;
        path = std::move(r.path);
        size = r.size;
        detail = std::move(r.detail);
        hashes = r.hashes ? std::make_shared<const PackageHashes>(std::move(*r.hashes)) : nullptr;
        declared = std::move(r.declared);
        error = std::move(r.error);
    }
    ArchiveResult toResult(ArchiveKey key) const
    {
        ArchiveResult r;
        r.key = std::move(key);
        r.layout = layout;
        r.path = path;
        r.size = size;
        r.detail = detail;
        if (hashes)
            r.hashes = *hashes;
        r.declared = declared;
        r.error = error;
        r.fromCache = fromCache;
        return r;
    }
};

/// Provider and version rows: what leaves and the details pane need from them.
struct ParentInfo
{
    ProviderAddress provider; ///< ProviderNode: its address
    Version version;          ///< VersionNode
    QString path;             ///< ProviderNode: its directory
    QString address;          ///< ProviderNode: ProviderAddress::toString(), for filtering
    qint64 rank = 0;          ///< VersionNode: precedence rank among its siblings
};

const QString kNoString;

} // namespace

struct MirrorTreeModel::Node
{
    Kind kind = HostNode;
    Node *parent = nullptr;
    int row = 0;
    QString name;
    std::unique_ptr<ParentInfo> info; ///< ProviderNode, VersionNode
    std::vector<std::unique_ptr<Node>> children;
    LeafResult result;                       ///< ArchiveNode only
    std::array<int, kVerdictCount> counts{}; ///< leaves per verdict below (a leaf: its own)
    qint64 size = 0;                         ///< sum of present leaves' sizes
    int declared = 0;                        ///< sum of declared hashes
    int platforms = 0;                       ///< distinct platforms below
    int layouts = 0;                         ///< LayoutBits below
    /// acceptsRow()'s memo: how many leaves of this row (itself, for a leaf) pass the filter with
    /// serial `memoSerial` (0: none).
    mutable quint64 memoSerial = 0;
    mutable int memoMatches = 0;

    Verdict verdict() const
    {
        if (kind == ArchiveNode)
            return result.detail.verdict;
        for (Verdict v : kWorstFirst)
            if (counts[size_t(v)] > 0)
                return v;
        return Verdict::Verified; // an empty parent: see hasVerdict()
    }

    const QString &path() const { return info ? info->path : kNoString; }
    const QString &address() const { return info ? info->address : kNoString; }
    qint64 rank() const { return info ? info->rank : 0; }

    /// A parent without any archive below (e.g. a network mirror's version whose <version>.json
    /// could not be read) has nothing to judge: no verdict, no badge.
    bool hasVerdict() const
    {
        if (kind == ArchiveNode)
            return true;
        for (int c : counts)
            if (c > 0)
                return true;
        return false;
    }

    Node *child(const QString &childName, Kind childKind)
    {
        for (const auto &c : children) // siblings are few at every level but the leaves
            if (c->name == childName)
                return c.get();
        auto node = std::make_unique<Node>();
        node->kind = childKind;
        node->parent = this;
        node->row = int(children.size());
        node->name = childName;
        children.push_back(std::move(node));
        return children.back().get();
    }
};

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
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(VerdictRole, "verdict");
    names.insert(SortRole, "sort");
    names.insert(PathRole, "path");
    names.insert(KindRole, "kind");
    names.insert(SizeRole, "size");
    names.insert(DeclaredRole, "declared");
    names.insert(SearchTextRole, "searchText");
    names.insert(ReasonRole, "reason");
    names.insert(PlatformRole, "platform");
    names.insert(VerdictCountsRole, "verdictCounts");
    names.insert(AnchorRole, "anchor");
    return names;
}

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

namespace {
/// A row's identity across rescans (see mergeCatalog).
QString identity(const MirrorTreeModel::Kind kind, const QString &name, const LeafResult &r)
{
    if (kind != MirrorTreeModel::ArchiveNode)
        return name;
    return name + QLatin1Char('|') + toString(r.layout) + QLatin1Char('|') + r.path;
}
} // namespace

struct MirrorTreeModel::Tree::Data
{
    std::unique_ptr<Node> root;
    LeafIndex index;
};

namespace {
/// The hash a leaf is found by in applyResults(): what identifies its result (key, path) without
/// building a string (ArchiveKey's qHash formats the version and platform).
size_t leafHash(const ArchiveKey &k, const QString &path)
{
    return qHashMulti(0, path, k.platform.os(), k.platform.arch(), k.provider.type(), k.provider.ns(), k.provider.hostname(),
                      k.version.major(), k.version.minor(), k.version.patch(), k.version.prerelease());
}
bool byHash(const auto &a, const auto &b)
{
    return a.hash < b.hash;
}
} // namespace

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

quint64 MirrorTreeModel::newFilterSerial()
{
    static std::atomic<quint64> serial{0};
    return ++serial; // never 0 (a node's "no memo")
}

bool MirrorTreeModel::rowMatches(int row, const QModelIndex &parent, const RowFilter &filter) const
{
    const Node *p = nodeOf(parent);
    if (row < 0 || row >= int(p->children.size()))
        return false;
    const Node *n = p->children[size_t(row)].get();
    if (filter.isEmpty())
        return true;
    return n->kind == ArchiveNode && leafMatches(n, filter); // parents are judged by their leaves
}

bool MirrorTreeModel::acceptsRow(int row, const QModelIndex &parent, const RowFilter &filter) const
{
    const Node *p = nodeOf(parent);
    if (row < 0 || row >= int(p->children.size()))
        return false;
    return filter.isEmpty() || matchesBelow(p->children[size_t(row)].get(), filter) > 0;
}

int MirrorTreeModel::matchingArchives(const RowFilter &filter) const
{
    return filter.isEmpty() ? archiveCount() : matchesBelow(m_root.get(), filter);
}

int MirrorTreeModel::matchesBelow(const Node *n, const RowFilter &filter) const
{
    if (filter.serial != 0 && n->memoSerial == filter.serial)
        return n->memoMatches;
    int matches = 0;
    if (n->kind == ArchiveNode && n != m_root.get()) {
        matches = leafMatches(n, filter) ? 1 : 0;
    } else {
        for (const auto &c : n->children)
            matches += matchesBelow(c.get(), filter);
    }
    n->memoSerial = filter.serial;
    n->memoMatches = matches;
    return matches;
}

void MirrorTreeModel::forgetMatches(Node *node)
{
    node->memoSerial = 0;
    for (const auto &c : node->children)
        forgetMatches(c.get());
}

bool MirrorTreeModel::leafMatches(const Node *n, const RowFilter &filter) const
{
    if (filter.verdict && n->result.detail.verdict != *filter.verdict)
        return false;
    if (!filter.platform.isEmpty() && n->name != filter.platform)
        return false;
    if (filter.words.isEmpty())
        return true;
    // The pieces of the SearchTextRole text: "host/ns/type version platform" + hashes.
    const Node *version = n->parent;
    const Node *provider = version ? version->parent : nullptr;
    const PackageHashes *c = n->result.hashes ? &*n->result.hashes : nullptr;
    for (const QString &w : filter.words) {
        const bool ascii = isFoldedAscii(w);
        const auto in = [&w, ascii](const QString &piece) { return containsFolded(piece, w, ascii); };
        if (in(n->name) || (version && in(version->name)) || (provider && in(provider->address())))
            continue;
        bool found = false;
        for (const HashString &h : n->result.declared)
            if (in(h.toString())) {
                found = true;
                break;
            }
        if (!found && c)
            for (const HashString *h : {&c->h1Extracted, &c->h1Zip, &c->zh})
                if (!h->isNull() && in(h->toString())) {
                    found = true;
                    break;
                }
        if (!found)
            return false;
    }
    return true;
}

int MirrorTreeModel::compareRows(const QModelIndex &left, const QModelIndex &right, Qt::CaseSensitivity cs) const
{
    const Node *a = nodeOf(left);
    const Node *b = nodeOf(right);
    const auto three = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
    const auto text = [cs](const QString &x, const QString &y) { return QString::compare(x, y, cs); };
    if (a->kind != b->kind) // not siblings of one level: what SortRole's QVariants would say
        return QVariant::compare(data(left, SortRole), data(right, SortRole)) == QPartialOrdering::Less ? -1 : 1;
    const bool leaf = a->kind == ArchiveNode;
    switch (Column(left.column())) {
    case NameColumn: return a->kind == VersionNode ? three(a->rank(), b->rank()) : text(a->name, b->name);
    case PlatformsColumn: return leaf ? text(a->name, b->name) : three(a->platforms, b->platforms);
    case SizeColumn: return leaf ? three(a->result.size, b->result.size) : three(a->size, b->size);
    case VerdictColumn: {
        const auto rank = [](const Node *n) { return n->hasVerdict() ? severity(n->verdict()) : 6; };
        return three(rank(a), rank(b));
    }
    case DeclaredColumn: return three(a->declared, b->declared);
    default: return text(data(left, Qt::DisplayRole).toString(), data(right, Qt::DisplayRole).toString());
    }
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
