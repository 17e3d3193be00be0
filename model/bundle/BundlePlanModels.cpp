#include "model/bundle/BundlePlanModels.h"

#include "model/core/ColumnHeaders.h"
#include "model/core/Logging.h"
#include "model/core/SizeFormat.h"

#include <QLocale>

namespace provender {

QString formatBundleBytes(qint64 bytes)
{
    if (bytes < 0)
        return {};
    return formatDataSize(bytes);
}

// ---- BundleSelectionModel ----------------------------------------------------------------------

void BundleSelectionModel::setSelection(const BundleSelection &selection)
{
    beginResetModel(); // a new selection is a different list, not an update of the old one
    m_selection = selection;
    endResetModel();
}

void BundleSelectionModel::clear()
{
    setSelection({});
}

qint64 BundleSelectionModel::totalBytes() const
{
    qint64 sum = 0;
    for (const BundleItem &item : m_selection.items)
        sum += qMax<qint64>(0, item.archive.size);
    return sum;
}

int BundleSelectionModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return int(m_selection.items.size() + m_selection.missing.size());
}

int BundleSelectionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BundleSelectionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const qsizetype row = index.row();
    const bool missing = row >= m_selection.items.size();
    if (role == MissingRole)
        return missing;
    if (missing) {
        const BundleShortfall &s = m_selection.missing.at(row - m_selection.items.size());
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            switch (index.column()) {
            case ProviderColumn: return s.provider.toString();
            case VersionColumn: return s.version.toString();
            case PlatformColumn: return !s.platform.isValid() ? tr("(all)") : s.platform.toString();
            case LayoutColumn: return QString();
            case SizeColumn: return role == SortRole ? QVariant(qint64(-1)) : QVariant(QString());
            case StatusColumn: return tr("missing: %1").arg(s.reason);
            }
            break;
        case Qt::ToolTipRole: return s.lockFile.isEmpty() ? s.reason : tr("%1 (needed by %2)").arg(s.reason, s.lockFile);
        case PathRole: return QString();
        }
        return {};
    }
    const BundleItem &item = m_selection.items.at(row);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ProviderColumn: return item.provider.toString();
        case VersionColumn: return item.version.toString();
        case PlatformColumn: return item.archive.platform.toString();
        case LayoutColumn: return toString(item.archive.layout);
        case SizeColumn: return formatBundleBytes(item.archive.size);
        case StatusColumn: return tr("included");
        }
        break;
    case SortRole:
        if (index.column() == SizeColumn)
            return item.archive.size;
        return data(index, Qt::DisplayRole);
    case Qt::ToolTipRole: return item.bundlePath;
    case PathRole: return item.archive.path;
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    return {};
}

QVariant BundleSelectionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitleHeader(*this, section, orientation, role,
                             {tr("Provider"), tr("Version"), tr("Platform"), tr("Layout"), tr("Size"), tr("Status")});
}

// ---- ImportPlanModel ---------------------------------------------------------------------------

void ImportPlanModel::setReport(const ImportReport &report)
{
    beginResetModel();
    m_report = report;
    m_badChecks.clear();
    for (const BundleFileCheck &f : std::as_const(m_report.files))
        if (f.status != BundleFileCheck::Status::Ok)
            m_badChecks.append(f);
    endResetModel();
}

void ImportPlanModel::clear()
{
    setReport({});
}

int ImportPlanModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return int(m_report.actions.size() + m_report.problems.size() + m_badChecks.size());
}

int ImportPlanModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

bool actionBlocks(ImportAction::Kind kind)
{
    return kind == ImportAction::Kind::Conflict || kind == ImportAction::Kind::Rejected;
}

} // namespace

QVariant ImportPlanModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    qsizetype row = index.row();
    const int column = index.column();
    if (row < m_report.actions.size()) {
        const ImportAction &a = m_report.actions.at(row);
        switch (role) {
        case Qt::DisplayRole:
            switch (column) {
            case ActionColumn: return toString(a.kind);
            case ArchiveColumn: return a.key.toString();
            case SizeColumn: return formatBundleBytes(a.size);
            case TargetColumn: {
                // Relative to the target mirror (the full path is in the tooltip).
                const QString root = m_report.target.endsWith(QLatin1Char('/')) ? m_report.target : m_report.target + QLatin1Char('/');
                if (!m_report.target.isEmpty() && a.targetPath.startsWith(root))
                    return a.targetPath.mid(root.size());
                return a.targetPath;
            }
            case ReasonColumn: return a.reason;
            }
            break;
        case SortRole:
            if (column == SizeColumn)
                return a.size;
            if (column == ActionColumn)
                return int(a.kind);
            return data(index, Qt::DisplayRole);
        case Qt::ToolTipRole:
            if (!a.existingPath.isEmpty())
                return tr("bundle entry: %1\ninto: %2\nin the mirror now: %3").arg(a.entry, a.targetPath, a.existingPath);
            return tr("bundle entry: %1\ninto: %2").arg(a.entry, a.targetPath);
        case RowKindRole: return int(ActionRow);
        case ActionKindRole: return int(a.kind);
        case BlockingRole: return actionBlocks(a.kind);
        case Qt::TextAlignmentRole:
            if (column == SizeColumn)
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            break;
        }
        return {};
    }
    row -= m_report.actions.size();
    if (row < m_report.problems.size()) {
        const BundleEntryProblem &p = m_report.problems.at(row);
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
            switch (column) {
            case ActionColumn: return p.isFatal() ? tr("refused") : tr("ignored");
            case ArchiveColumn: return p.entry;
            case SizeColumn: return role == SortRole ? QVariant(qint64(-1)) : QVariant(QString());
            case TargetColumn: return QString();
            case ReasonColumn: return QStringLiteral("%1: %2").arg(toString(p.kind), p.message);
            }
            break;
        case Qt::ToolTipRole: return p.message;
        case RowKindRole: return int(EntryProblemRow);
        case ActionKindRole: return -1;
        case BlockingRole: return p.isFatal();
        }
        return {};
    }
    row -= m_report.problems.size();
    const BundleFileCheck &f = m_badChecks.at(row);
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (column) {
        case ActionColumn: return tr("SHA256SUMS");
        case ArchiveColumn: return f.name;
        case SizeColumn: return role == SortRole ? QVariant(qint64(-1)) : QVariant(QString());
        case TargetColumn: return QString();
        case ReasonColumn:
            switch (f.status) {
            case BundleFileCheck::Status::Mismatch: return tr("SHA-256 %1, SHA256SUMS says %2").arg(f.actual, f.expected);
            case BundleFileCheck::Status::Missing: return tr("listed in SHA256SUMS but not in the bundle");
            case BundleFileCheck::Status::Unlisted: return tr("in the bundle but not listed in SHA256SUMS");
            case BundleFileCheck::Status::Ok: return QString();
            }
            break;
        }
        break;
    case RowKindRole: return int(FileCheckRow);
    case ActionKindRole: return -1;
    case BlockingRole: return true;
    }
    return {};
}

QVariant ImportPlanModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitleHeader(*this, section, orientation, role, {tr("Action"), tr("Archive"), tr("Size"), tr("Reason"), tr("Into")});
}

} // namespace provender
