#pragma once
// ArchiveFilterProxyModel: the search box, verdict and platform filters of the mirror browser.

#include "model/items/MirrorTreeModel.h"
#include "model/verify/Verdict.h"

#include <QSortFilterProxyModel>
#include <QStringList>

#include <optional>

namespace provender {

/// The mirror tree's sort/filter proxy: sorts by MirrorTreeModel::SortRole and filters by text
/// (provider, version, platform, hash prefix), verdict and platform. Filtering is recursive and only
/// leaves are tested: a parent row stays when one of its leaves passes. Over a MirrorTreeModel the
/// nodes are tested and compared directly (MirrorTreeModel::acceptsRow, which memoizes whole
/// subtrees, so Qt's own recursive filtering is off; MirrorTreeModel::compareRows); over another
/// model with the same role numbers, through data() with Qt's recursive filtering.

class ArchiveFilterProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ArchiveFilterProxyModel(QObject *parent = nullptr);
    /// Over a MirrorTreeModel, rows are tested on its nodes directly (MirrorTreeModel::acceptsRow).
    void setSourceModel(QAbstractItemModel *model) override;
    /// Only rows with this verdict; std::nullopt: all.
    void setVerdictFilter(std::optional<Verdict> verdict);
    std::optional<Verdict> verdictFilter() const { return m_filter.verdict; }
    /// Case-insensitive substring of provider, version or platform; "" = all.
    void setTextFilter(const QString &text);
    /// Only archives of this platform (PlatformRole, e.g. "linux_amd64"); "" = all.
    void setPlatformFilter(const QString &platform);
    QString platformFilter() const { return m_filter.platform; }
    /// Whether any of the three filters is set.
    bool isFiltering() const { return !m_filter.isEmpty(); }
    /// How many archives pass the filters (over a MirrorTreeModel; -1 over another model).
    int matchingArchives() const;
    /// Changes whenever a filter criterion does (a setter with the same value keeps it).
    quint64 filterSerial() const { return m_filter.serial; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &sourceLeft, const QModelIndex &sourceRight) const override;

private:
    void refilter();
    const MirrorTreeModel *m_tree = nullptr;
    MirrorTreeModel::RowFilter m_filter; ///< words: the text filter split at spaces, lower case
    QString m_text;
};

} // namespace provender
