#pragma once
// Item models for the bundle dialogs: what a bundle will contain (BundleSelectionModel) and what
// an import will do to a mirror (ImportPlanModel). Both are flat tables filled from value types
// the workers return (BundleSelection, ImportReport); only the GUI thread touches them.

#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleWriter.h"

#include <QAbstractTableModel>

namespace provender {

/// The archives a bundle selection includes, then what the source mirror lacks.
class BundleSelectionModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ProviderColumn, VersionColumn, PlatformColumn, LayoutColumn, SizeColumn, StatusColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value: size as qint64, version in go-versions order key
        MissingRole,                 ///< bool: the row is a shortfall (not in the mirror)
        PathRole,                    ///< QString: the source archive's path ("" for a shortfall)
    };
    Q_ENUM(Role)

    using QAbstractTableModel::QAbstractTableModel;

    void setSelection(const BundleSelection &selection);
    void clear();
    const BundleSelection &selection() const { return m_selection; }
    qint64 totalBytes() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    BundleSelection m_selection;
};

/// An import plan: one row per archive action, then one per refused bundle entry and one per
/// SHA256SUMS line that did not check out.
class ImportPlanModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ActionColumn, ArchiveColumn, SizeColumn, ReasonColumn, TargetColumn, ColumnCount };
    Q_ENUM(Column)
    enum RowKind { ActionRow, EntryProblemRow, FileCheckRow };
    Q_ENUM(RowKind)
    enum Role {
        SortRole = Qt::UserRole + 1,
        RowKindRole,    ///< int(RowKind)
        ActionKindRole, ///< int(ImportAction::Kind) for action rows, -1 otherwise
        BlockingRole,   ///< bool: this row keeps the import from happening
    };
    Q_ENUM(Role)

    using QAbstractTableModel::QAbstractTableModel;

    void setReport(const ImportReport &report);
    void clear();
    const ImportReport &report() const { return m_report; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ImportReport m_report;
    QList<BundleFileCheck> m_badChecks; ///< m_report.files that are not Ok
};

/// "1.5 MiB"-style size for the dialogs.
QString formatBundleBytes(qint64 bytes);

} // namespace provender
