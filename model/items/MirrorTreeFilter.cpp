// MirrorTreeModel: the filter (each node tested once, memoized per filter serial) and the sort
// order (compareRows) that ArchiveFilterProxyModel asks for.
#include "model/items/MirrorTreeModel.h"
#include "model/items/MirrorTreeNode.h"

namespace provender {

using mirrortree::severity;

namespace {

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

} // namespace provender
