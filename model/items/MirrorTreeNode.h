#pragma once
// What the files of MirrorTreeModel share and nothing else includes: the tree's node and the
// helpers its parts use. MirrorTreeModel.cpp is the item model (rows, data, results, lookups),
// MirrorTreeBuild.cpp builds, aggregates and merges trees, MirrorTreeFilter.cpp filters and sorts.

#include "model/items/MirrorTreeModel.h"

#include <array>
#include <memory>
#include <vector>

namespace provender::mirrortree {

/// 0 = worst. Parents show the verdict of lowest severity among their leaves.
inline int severity(Verdict v)
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

inline qint64 presentSize(qint64 size)
{
    return size > 0 ? size : 0;
}

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

inline const QString kNoString;

/// The hash a leaf is found by in applyResults(): what identifies its result (key, path) without
/// building a string (ArchiveKey's qHash formats the version and platform).
inline size_t leafHash(const ArchiveKey &k, const QString &path)
{
    return qHashMulti(0, path, k.platform.os(), k.platform.arch(), k.provider.type(), k.provider.ns(), k.provider.hostname(),
                      k.version.major(), k.version.minor(), k.version.patch(), k.version.prerelease());
}
inline bool byHash(const auto &a, const auto &b)
{
    return a.hash < b.hash;
}

} // namespace provender::mirrortree

namespace provender {

struct MirrorTreeModel::Node
{
    Kind kind = HostNode;
    Node *parent = nullptr;
    int row = 0;
    QString name;
    std::unique_ptr<mirrortree::ParentInfo> info; ///< ProviderNode, VersionNode
    std::vector<std::unique_ptr<Node>> children;
    mirrortree::LeafResult result;           ///< ArchiveNode only
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
        for (Verdict v : mirrortree::kWorstFirst)
            if (counts[size_t(v)] > 0)
                return v;
        return Verdict::Verified; // an empty parent: see hasVerdict()
    }

    const QString &path() const { return info ? info->path : mirrortree::kNoString; }
    const QString &address() const { return info ? info->address : mirrortree::kNoString; }
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

} // namespace provender
