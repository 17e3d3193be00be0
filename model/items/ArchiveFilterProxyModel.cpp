#include "model/items/ArchiveFilterProxyModel.h"

#include "model/items/MirrorTreeModel.h"

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
    invalidate();
}

void ArchiveFilterProxyModel::setVerdictFilter(std::optional<Verdict> verdict)
{
    if (verdict == m_verdict)
        return;
    m_verdict = verdict;
    refilter();
}

void ArchiveFilterProxyModel::setTextFilter(const QString &text)
{
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    // Once, not per row; lower case for MirrorTreeModel::rowMatches' fast path (the test is
    // case-insensitive either way).
    m_words = t.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    refilter();
}

void ArchiveFilterProxyModel::setPlatformFilter(const QString &platform)
{
    if (platform == m_platform)
        return;
    m_platform = platform;
    refilter();
}

void ArchiveFilterProxyModel::setSourceModel(QAbstractItemModel *model)
{
    m_tree = qobject_cast<const MirrorTreeModel *>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

bool ArchiveFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_tree)
        return m_tree->rowMatches(sourceRow, sourceParent, m_verdict, m_platform, m_words);
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    // Tree parents (MirrorTreeModel) are judged by their leaves only (recursive filtering), so
    // that a provider whose aggregated verdict matches does not show up without matching leaves.
    if ((m_verdict || !m_text.isEmpty() || !m_platform.isEmpty()) && sourceModel()->hasChildren(idx))
        return false;
    if (m_verdict && idx.data(MirrorTreeModel::VerdictRole).toInt() != int(*m_verdict))
        return false;
    if (!m_platform.isEmpty() && idx.data(MirrorTreeModel::PlatformRole).toString() != m_platform)
        return false;
    if (!m_text.isEmpty()) {
        const QString hay = idx.data(MirrorTreeModel::SearchTextRole).toString();
        for (const QString &w : m_words)
            if (!hay.contains(w, Qt::CaseInsensitive))
                return false;
    }
    return true;
}

} // namespace provender
