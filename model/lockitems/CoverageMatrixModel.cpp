#include "model/lockitems/CoverageMatrixModel.h"

#include "model/core/RoleNames.h"
#include "model/lockitems/TableDump.h"

using namespace Qt::StringLiterals;

namespace provender {

namespace {

QByteArray csvField(const QString &s)
{
    QByteArray f = s.toUtf8();
    if (f.contains(',') || f.contains('"') || f.contains('\n') || f.contains('\r')) {
        f.replace("\"", "\"\"");
        f = '"' + f + '"';
    }
    return f;
}

/// The sign a cell shows before the verdict's name.
QString cellSign(Verdict v)
{
    switch (v) {
    case Verdict::Verified: return u"✓"_s;
    case Verdict::Mismatch: return u"✗"_s;
    case Verdict::Unverified: return u"?"_s;
    case Verdict::Missing: return u"–"_s;
    case Verdict::Error: return u"!"_s;
    case Verdict::Pending: return u"…"_s;
    case Verdict::Refused: return u"⊘"_s;
    }
    return {};
}

} // namespace

CoverageMatrixModel::CoverageMatrixModel(QObject *parent) : QAbstractTableModel(parent) {}

void CoverageMatrixModel::setResult(const LockCheckResult &result)
{
    beginResetModel();
    m_result = result;
    endResetModel();
}

QString CoverageMatrixModel::cellText(Verdict v)
{
    return cellSign(v) + u' ' + toString(v);
}

int CoverageMatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.rows.size());
}

int CoverageMatrixModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_result.platforms.size());
}

QVariant CoverageMatrixModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LockCheckRow &row = m_result.rows.at(index.row());
    if (index.column() >= row.cells.size())
        return {};
    const LockCheckCell &cell = row.cells.at(index.column());
    switch (role) {
    case Qt::DisplayRole: return cellText(cell.verdict());
    case Qt::ToolTipRole: {
        QString tip =
            u"%1 %2 %3: %4"_s.arg(row.address.toString(), row.version.toString(), cell.platform.toString(), toString(cell.verdict()));
        if (!cell.detail.reason.isEmpty())
            tip += u"\n"_s + cell.detail.reason;
        if (!cell.archivePath.isEmpty())
            tip += u"\n"_s + cell.archivePath;
        return tip;
    }
    case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
    case VerdictRole: return int(cell.verdict());
    case InMirrorRole: return !cell.archivePath.isEmpty();
    case MatchesLockRole: return cell.verdict() == Verdict::Verified;
    case AddressRole: return row.address.toString();
    case VersionRole: return row.version.toString();
    case PlatformRole: return cell.platform.toString();
    case ArchivePathRole: return cell.archivePath;
    case ReasonRole: return cell.detail.reason;
    }
    return {};
}

QVariant CoverageMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < m_result.platforms.size() ? m_result.platforms.at(section).toString() : QVariant();
    if (section < 0 || section >= m_result.rows.size())
        return {};
    const LockCheckRow &row = m_result.rows.at(section);
    return QString(row.address.forDisplay(QAnyStringView()) + u' ' + row.version.toString());
}

QHash<int, QByteArray> CoverageMatrixModel::roleNames() const
{
    return withRoleNames(QAbstractTableModel::roleNames(),
                         {{VerdictRole, "verdict"},
                          {InMirrorRole, "inMirror"},
                          {MatchesLockRole, "matchesLock"},
                          {AddressRole, "address"},
                          {VersionRole, "version"},
                          {PlatformRole, "platform"},
                          {ArchivePathRole, "archivePath"},
                          {ReasonRole, "reason"}});
}

QByteArray CoverageMatrixModel::toCsv() const
{
    QByteArray out = "provider,version";
    for (const Platform &p : m_result.platforms)
        out += ',' + csvField(p.toString());
    out += "\r\n";
    for (const LockCheckRow &row : m_result.rows) {
        out += csvField(row.address.toString()) + ',' + csvField(row.version.toString());
        for (const LockCheckCell &cell : row.cells)
            out += ',' + csvField(toString(cell.verdict()));
        out += "\r\n";
    }
    return out;
}

QString CoverageMatrixModel::dump() const
{
    return dumpTableModel(*this, true);
}

} // namespace provender
