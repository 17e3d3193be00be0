#pragma once
// A flat table of every archive of a Catalog with its verification result, fed by the GUI thread:
// setCatalog() lays out the rows (Pending, or Missing for declared-but-absent archives), then
// applyResults() merges batches from VerifyEngine::archivesVerified with one dataChanged per run
// of adjacent rows. Rows are in catalog order (provider, version, platform).

#include "model/mirror/Catalog.h"
#include "model/verify/VerifyEngine.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>

#include <array>
#include <optional>

namespace provender {

class ArchiveTableModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ProviderColumn, ///< full address `host/namespace/type`
        VersionColumn,
        PlatformColumn,
        LayoutColumn,   ///< "packed" / "unpacked"
        SizeColumn,     ///< bytes on disk (display: human-readable; SortRole: qint64)
        VerdictColumn,  ///< verdict name; VerdictRole gives the enum
        DetailColumn,   ///< which hash matched, or why not
        H1Column,       ///< computed h1: of the extracted package (the lock-file form)
        ZhColumn,       ///< computed zh: (zips only)
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        VerdictRole = Qt::UserRole + 1, ///< int(provender::Verdict), any column
        SortRole,       ///< a value that sorts naturally (version precedence, size in bytes, verdict severity)
        PathRole,       ///< QString absolute path ("" when missing)
        ReasonRole,     ///< QString VerdictDetail::reason
        FromCacheRole,  ///< bool: hashes came from the hash cache
        H1ZipRole,      ///< QString computed zip-level h1: ("" for directories or not hashed)
        DeclaredRole,   ///< QStringList of the hashes the index declares
        SearchTextRole, ///< QString: provider, version and platform, for filtering
        PlatformRole,   ///< QString: the archive's platform ("linux_amd64")
    };
    Q_ENUM(Role)

    explicit ArchiveTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Replace every row by the archives of `catalog` (a model reset).
    void setCatalog(const Catalog &catalog);
    void clear();
    /// Merge verification results (matched by key, layout and path); unknown keys are ignored.
    void applyResults(const QList<ArchiveResult> &results);
    /// Every row back to Pending (Missing rows stay Missing), e.g. before re-verifying.
    void resetVerdicts();

    const ArchiveResult &resultAt(int row) const { return m_rows.at(row); }
    /// Count of rows per verdict, indexed by int(Verdict).
    const std::array<int, 6> &verdictCounts() const { return m_counts; }

Q_SIGNALS:
    /// verdictCounts() changed (after setCatalog, clear, applyResults, resetVerdicts).
    void countsChanged();

private:
    void recount();
    QList<ArchiveResult> m_rows;
    QHash<ArchiveKey, QList<int>> m_rowsByKey;
    std::array<int, 6> m_counts{};
};

/// Sorts by ArchiveTableModel::SortRole and filters by text (provider/version/platform) and verdict.
/// Also serves MirrorTreeModel (same role numbers): filtering is recursive and only leaves are
/// tested, a parent row stays when one of its leaves passes.
class MirrorTreeModel;

class ArchiveFilterProxyModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ArchiveFilterProxyModel(QObject *parent = nullptr);
    /// Over a MirrorTreeModel, rows are tested on its nodes directly (MirrorTreeModel::rowMatches).
    void setSourceModel(QAbstractItemModel *model) override;
    /// Only rows with this verdict; std::nullopt: all.
    void setVerdictFilter(std::optional<Verdict> verdict);
    std::optional<Verdict> verdictFilter() const { return m_verdict; }
    /// Case-insensitive substring of provider, version or platform; "" = all.
    void setTextFilter(const QString &text);
    /// Only archives of this platform (PlatformRole, e.g. "linux_amd64"); "" = all.
    void setPlatformFilter(const QString &platform);
    QString platformFilter() const { return m_platform; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    void refilter();
    const MirrorTreeModel *m_tree = nullptr;
    std::optional<Verdict> m_verdict;
    QString m_text;
    QStringList m_words; ///< m_text split at spaces
    QString m_platform;
};

} // namespace provender
