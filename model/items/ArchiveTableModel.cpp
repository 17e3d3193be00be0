#include "model/items/ArchiveTableModel.h"

#include "model/core/Logging.h"
#include "model/items/MirrorTreeModel.h"

#include <QLocale>

#include <algorithm>

namespace provender {

namespace {

int severity(Verdict v)
{
    switch (v) {
    case Verdict::Mismatch: return 0;
    case Verdict::Error: return 1;
    case Verdict::Missing: return 2;
    case Verdict::Unverified: return 3;
    case Verdict::Pending: return 4;
    case Verdict::Verified: return 5;
    }
    return 6;
}

/// Sorts like version precedence for the usual cases: numbers numerically, a prerelease before
/// its release.
QString versionSortKey(const Version &v)
{
    return QStringLiteral("%1.%2.%3%4")
        .arg(v.major(), 20, 10, QLatin1Char('0'))
        .arg(v.minor(), 20, 10, QLatin1Char('0'))
        .arg(v.patch(), 20, 10, QLatin1Char('0'))
        .arg(v.isPrerelease() ? QStringLiteral("-") + v.prerelease() : QStringLiteral("~"));
}

QString detailText(const ArchiveResult &r)
{
    if (r.detail.verdict == Verdict::Verified && !r.detail.matched.isEmpty()) {
        QStringList parts;
        for (HashMatch m : r.detail.matched)
            parts.append(toString(m));
        return parts.join(QStringLiteral(", "));
    }
    if (r.detail.verdict == Verdict::Pending)
        return {};
    return r.detail.reason;
}

QString toolTipFor(const ArchiveResult &r)
{
    QStringList lines;
    lines.append(QStringLiteral("<b>%1 %2 %3</b>").arg(r.key.provider.toString().toHtmlEscaped(),
                                                      r.key.version.toString().toHtmlEscaped(),
                                                      r.key.platform.toString().toHtmlEscaped()));
    lines.append(QStringLiteral("Verdict: <b>%1</b> — %2").arg(toString(r.detail.verdict), r.detail.reason.toHtmlEscaped()));
    if (!r.path.isEmpty())
        lines.append(QStringLiteral("Path: %1").arg(r.path.toHtmlEscaped()));
    if (r.hashes) {
        lines.append(QStringLiteral("h1 (extracted): <tt>%1</tt>").arg(r.hashes->h1Extracted.toString()));
        if (r.hashes->kind == PackageHashes::Kind::Zip) {
            lines.append(QStringLiteral("h1 (zip): <tt>%1</tt>").arg(r.hashes->h1Zip.toString()));
            lines.append(QStringLiteral("zh: <tt>%1</tt>").arg(r.hashes->zh.toString()));
        }
        if (r.fromCache)
            lines.append(QStringLiteral("<i>hashes from the hash cache</i>"));
    }
    for (const HashString &h : r.declared)
        lines.append(QStringLiteral("declared: <tt>%1</tt>%2")
                         .arg(h.toString().toHtmlEscaped(),
                              r.detail.contradicting.contains(h) ? QStringLiteral(" <b>(matches nothing)</b>") : QString()));
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

ArchiveTableModel::ArchiveTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int ArchiveTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ArchiveTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ArchiveTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ArchiveResult &r = m_rows.at(index.row());
    const bool zip = r.hashes && r.hashes->kind == PackageHashes::Kind::Zip;

    switch (role) {
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case ProviderColumn: return r.key.provider.toString();
        case VersionColumn: return r.key.version.toString();
        case PlatformColumn: return r.key.platform.toString();
        case LayoutColumn: return toString(r.layout);
        case SizeColumn:
            return r.size < 0 ? QString() : QLocale().formattedDataSize(r.size, 1, QLocale::DataSizeTraditionalFormat);
        case VerdictColumn: return toString(r.detail.verdict);
        case DetailColumn: return detailText(r);
        case H1Column: return r.hashes ? r.hashes->h1Extracted.toString() : QString();
        case ZhColumn: return zip ? r.hashes->zh.toString() : QString();
        case ColumnCount: break;
        }
        return {};
    case Qt::ToolTipRole:
        return toolTipFor(r);
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        return {};
    case VerdictRole:
        return int(r.detail.verdict);
    case SortRole:
        switch (Column(index.column())) {
        case VersionColumn: return versionSortKey(r.key.version);
        case SizeColumn: return r.size;
        case VerdictColumn: return severity(r.detail.verdict);
        default: return data(index, Qt::DisplayRole);
        }
    case PathRole:
        return r.path;
    case ReasonRole:
        return r.detail.reason;
    case FromCacheRole:
        return r.fromCache;
    case H1ZipRole:
        return zip ? r.hashes->h1Zip.toString() : QString();
    case DeclaredRole: {
        QStringList declared;
        for (const HashString &h : r.declared)
            declared.append(h.toString());
        return declared;
    }
    case SearchTextRole:
        return QString(r.key.provider.toString() + QLatin1Char(' ') + r.key.version.toString() + QLatin1Char(' ')
                       + r.key.platform.toString());
    case PlatformRole:
        return r.key.platform.toString();
    default:
        return {};
    }
}

QVariant ArchiveTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case ProviderColumn: return tr("Provider");
        case VersionColumn: return tr("Version");
        case PlatformColumn: return tr("Platform");
        case LayoutColumn: return tr("Layout");
        case SizeColumn: return tr("Size");
        case VerdictColumn: return tr("Verdict");
        case DetailColumn: return tr("Matched / reason");
        case H1Column: return tr("h1");
        case ZhColumn: return tr("zh");
        case ColumnCount: break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case DetailColumn: return tr("Which computed hash matched a declared one, or why the archive is not verified");
        case H1Column: return tr("h1: of the extracted package — the value lock files record");
        case ZhColumn: return tr("zh: — SHA-256 of the zip file (zips only)");
        default: break;
        }
    }
    if (role == Qt::TextAlignmentRole && section == SizeColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QHash<int, QByteArray> ArchiveTableModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(VerdictRole, "verdict");
    names.insert(SortRole, "sort");
    names.insert(PathRole, "path");
    names.insert(ReasonRole, "reason");
    names.insert(FromCacheRole, "fromCache");
    names.insert(H1ZipRole, "h1Zip");
    names.insert(DeclaredRole, "declared");
    names.insert(SearchTextRole, "searchText");
    names.insert(PlatformRole, "platform");
    return names;
}

void ArchiveTableModel::setCatalog(const Catalog &catalog)
{
    beginResetModel();
    m_rows.clear();
    m_rowsByKey.clear();
    m_rows.reserve(catalog.archiveCount());
    forEachArchive(catalog, [&](const Provider &p, const ProviderVersion &v, const Archive &a) {
        m_rowsByKey[ArchiveKey{p.address, v.version, a.platform}].append(int(m_rows.size()));
        m_rows.append(initialResult(p.address, v.version, a));
    });
    endResetModel();
    recount();
}

void ArchiveTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_rowsByKey.clear();
    endResetModel();
    recount();
}

void ArchiveTableModel::applyResults(const QList<ArchiveResult> &results)
{
    QList<int> changed;
    changed.reserve(results.size());
    for (const ArchiveResult &r : results) {
        const auto it = m_rowsByKey.constFind(r.key);
        if (it == m_rowsByKey.constEnd()) {
            qCDebug(lcItems) << "result for an unknown archive ignored:" << r.key.toString();
            continue;
        }
        int row = -1;
        for (int candidate : it.value()) {
            const ArchiveResult &current = m_rows.at(candidate);
            if (current.layout == r.layout && current.path == r.path) {
                row = candidate;
                break;
            }
        }
        if (row < 0)
            continue;
        ArchiveResult &slot = m_rows[row];
        --m_counts[size_t(slot.detail.verdict)];
        slot = r;
        ++m_counts[size_t(slot.detail.verdict)];
        changed.append(row);
    }
    if (changed.isEmpty())
        return;
    std::sort(changed.begin(), changed.end());
    // One dataChanged per run of adjacent rows.
    qsizetype start = 0;
    for (qsizetype i = 1; i <= changed.size(); ++i) {
        if (i < changed.size() && changed.at(i) <= changed.at(i - 1) + 1)
            continue;
        Q_EMIT dataChanged(index(changed.at(start), VerdictColumn), index(changed.at(i - 1), ZhColumn));
        start = i;
    }
    Q_EMIT countsChanged();
}

void ArchiveTableModel::resetVerdicts()
{
    if (m_rows.isEmpty())
        return;
    for (ArchiveResult &r : m_rows) {
        if (r.detail.verdict == Verdict::Missing)
            continue;
        const QList<HashString> declared = r.declared;
        r.detail = VerdictDetail{};
        r.detail.reason = QStringLiteral("not hashed yet");
        r.hashes.reset();
        r.error.clear();
        r.fromCache = false;
        r.declared = declared;
    }
    Q_EMIT dataChanged(index(0, VerdictColumn), index(int(m_rows.size()) - 1, ZhColumn));
    recount();
}

void ArchiveTableModel::recount()
{
    m_counts.fill(0);
    for (const ArchiveResult &r : std::as_const(m_rows))
        ++m_counts[size_t(r.detail.verdict)];
    Q_EMIT countsChanged();
}

// ---------------------------------------------------------------------------------------------

ArchiveFilterProxyModel::ArchiveFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(ArchiveTableModel::SortRole);
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
    if (m_verdict && idx.data(ArchiveTableModel::VerdictRole).toInt() != int(*m_verdict))
        return false;
    if (!m_platform.isEmpty() && idx.data(ArchiveTableModel::PlatformRole).toString() != m_platform)
        return false;
    if (!m_text.isEmpty()) {
        const QString hay = idx.data(ArchiveTableModel::SearchTextRole).toString();
        for (const QString &w : m_words)
            if (!hay.contains(w, Qt::CaseInsensitive))
                return false;
    }
    return true;
}

} // namespace provender
