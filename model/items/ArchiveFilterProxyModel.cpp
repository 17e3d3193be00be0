#include "model/items/ArchiveFilterProxyModel.h"

namespace provender {

ArchiveFilterProxyModel::ArchiveFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(MirrorTreeModel::SortRole);
    setDynamicSortFilter(true);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    // For MirrorTreeModel: a parent row is shown when one of its leaves passes the filter.
    setRecursiveFilteringEnabled(true);
}

void ArchiveFilterProxyModel::refilter()
{
    // invalidate(), not invalidateFilter(): over a tree whose many parents already have proxy
    // mappings (every version row the view laid out), invalidateFilter() updates each mapping in
    // place with one rowsRemoved/rowsInserted per parent — tens of thousands of signals, each one
    // handled by the view. invalidate() drops the mappings in one layoutChanged (persistent
    // indexes are remapped) and only the parents the view asks for are filtered again.
    m_filter.serial = MirrorTreeModel::newFilterSerial(); // the tree's memo of the old filter is void
    invalidate();
}

void ArchiveFilterProxyModel::setVerdictFilter(std::optional<Verdict> verdict)
{
    if (verdict == m_filter.verdict)
        return;
    m_filter.verdict = verdict;
    refilter();
}

void ArchiveFilterProxyModel::setTextFilter(const QString &text)
{
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    // Once, not per row; lower case for the leaf test's ASCII fast path (the test is
    // case-insensitive either way).
    m_filter.words = t.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    refilter();
}

void ArchiveFilterProxyModel::setPlatformFilter(const QString &platform)
{
    if (platform == m_filter.platform)
        return;
    m_filter.platform = platform;
    refilter();
}

void ArchiveFilterProxyModel::setSourceModel(QAbstractItemModel *model)
{
    m_tree = qobject_cast<const MirrorTreeModel *>(model);
    // MirrorTreeModel::acceptsRow answers for a whole subtree (memoized); Qt's recursive filtering
    // would test every subtree again for each parent row it maps.
    setRecursiveFilteringEnabled(!m_tree);
    m_filter.serial = MirrorTreeModel::newFilterSerial();
    QSortFilterProxyModel::setSourceModel(model);
}

bool ArchiveFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_tree)
        return m_tree->acceptsRow(sourceRow, sourceParent, m_filter);
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    // Tree parents (MirrorTreeModel) are judged by their leaves only (recursive filtering), so
    // that a provider whose aggregated verdict matches does not show up without matching leaves.
    if (!m_filter.isEmpty() && sourceModel()->hasChildren(idx))
        return false;
    if (m_filter.verdict && idx.data(MirrorTreeModel::VerdictRole).toInt() != int(*m_filter.verdict))
        return false;
    if (!m_filter.platform.isEmpty() && idx.data(MirrorTreeModel::PlatformRole).toString() != m_filter.platform)
        return false;
    if (!m_text.isEmpty()) {
        const QString hay = idx.data(MirrorTreeModel::SearchTextRole).toString();
        for (const QString &w : m_filter.words)
            if (!hay.contains(w, Qt::CaseInsensitive))
                return false;
    }
    return true;
}

int ArchiveFilterProxyModel::matchingArchives() const
{
    return m_tree ? m_tree->matchingArchives(m_filter) : -1;
}

bool ArchiveFilterProxyModel::lessThan(const QModelIndex &sourceLeft, const QModelIndex &sourceRight) const
{
    if (m_tree && sortRole() == MirrorTreeModel::SortRole && !isSortLocaleAware())
        return m_tree->compareRows(sourceLeft, sourceRight, sortCaseSensitivity()) < 0;
    return QSortFilterProxyModel::lessThan(sourceLeft, sourceRight);
}

} // namespace provender
