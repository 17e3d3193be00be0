#include "model/lockitems/LockMergeModel.h"

#include "model/core/ColumnHeaders.h"
#include "model/core/Logging.h"
#include "model/core/RoleNames.h"
#include "model/lockitems/TableDump.h"

#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;
using provender::lockmerge::Choice;
using provender::lockmerge::ConflictKind;
using provender::lockmerge::ForeignMerge;
using provender::lockmerge::Outcome;
using provender::lockmerge::ProviderMerge;
using provender::lockmerge::SideChange;

namespace provender {

namespace {

const QString kAbsent = u"—"_s;
const QString kPresent = u"✓"_s;

QString versionText(const std::optional<ProviderLock> &l)
{
    return l ? l->version.toString() : kAbsent;
}

QString constraintsText(const std::optional<ProviderLock> &l)
{
    if (!l)
        return kAbsent;
    return l->constraints.isEmpty() ? u"(none)"_s : l->constraints.toString();
}

QString sideText(const std::optional<ProviderLock> &l, SideChange c)
{
    switch (c) {
    case SideChange::Unchanged:
    case SideChange::Absent: return versionText(l);
    case SideChange::Removed: return kAbsent + u" (removed)"_s;
    default: return versionText(l) + u" ("_s + lockmerge::toString(c) + u')';
    }
}

QString conflictText(ConflictKind k)
{
    switch (k) {
    case ConflictKind::DifferentVersions: return u"conflict: different versions"_s;
    case ConflictKind::ConstraintsDiffer: return u"conflict: different constraints"_s;
    case ConflictKind::ModifyDelete: return u"conflict: removed and changed"_s;
    case ConflictKind::TextDiffers: return u"conflict: changed differently"_s;
    case ConflictKind::None: break;
    }
    return u"conflict"_s;
}

bool hasHash(const std::optional<ProviderLock> &l, const QString &hash)
{
    if (!l)
        return false;
    return std::any_of(l->hashes.cbegin(), l->hashes.cend(), [&](const HashString &h) { return h.toString() == hash; });
}

} // namespace

LockMergeModel::LockMergeModel(QObject *parent) : NodeTreeModel(parent) {}

void LockMergeModel::setMerge(const lockmerge::MergeResult &merge)
{
    beginResetModel();
    m_merge = merge;
    clearNodes(m_nodes);
    for (int i = 0; i < m_merge.providers.size(); ++i) {
        const ProviderMerge &p = m_merge.providers.at(i);
        const int top = addNode(m_nodes, -1, {Kind::Provider, i, {}});
        addNode(m_nodes, top, {Kind::Version, i, {}});
        addNode(m_nodes, top, {Kind::Constraints, i, {}});
        QStringList hashes;
        QSet<QString> seen;
        for (const std::optional<ProviderLock> *side : {&p.base, &p.ours, &p.theirs})
            if (*side)
                for (const HashString &h : (*side)->hashes)
                    if (!seen.contains(h.toString())) {
                        seen.insert(h.toString());
                        hashes << h.toString();
                    }
        std::sort(hashes.begin(), hashes.end(), [](const QString &a, const QString &b) { return utf8Less(a, b); });
        const int group = addNode(m_nodes, top, {Kind::Hashes, i, {}});
        for (const QString &h : hashes)
            addNode(m_nodes, group, {Kind::Hash, i, h});
    }
    for (int j = 0; j < m_merge.foreign.size(); ++j)
        addNode(m_nodes, -1, {Kind::Foreign, int(m_merge.providers.size()) + j, {}});
    endResetModel();
    qCDebug(lcItems) << "merge model:" << topRowCount() << "items," << m_merge.conflictCount() << "conflicts";
    Q_EMIT resultChanged();
}

QString LockMergeModel::keyOf(int top) const
{
    if (top < 0 || top >= topRowCount())
        return {};
    return isForeignRow(top) ? m_merge.foreign.at(top - m_merge.providers.size()).key : m_merge.providers.at(top).address.toString();
}

int LockMergeModel::topRowOf(const QString &key) const
{
    for (int i = 0; i < topRowCount(); ++i)
        if (keyOf(i) == key)
            return i;
    return -1;
}

Choice LockMergeModel::choiceOf(int top) const
{
    if (top < 0 || top >= topRowCount())
        return Choice::Automatic;
    return isForeignRow(top) ? m_merge.foreign.at(top - m_merge.providers.size()).choice : m_merge.providers.at(top).choice;
}

QList<Choice> LockMergeModel::choicesOf(int top) const
{
    QList<Choice> out;
    if (top < 0 || top >= topRowCount())
        return out;
    for (Choice c : {Choice::Automatic, Choice::Ours, Choice::Theirs, Choice::Union, Choice::Base}) {
        const bool available = isForeignRow(top) ? m_merge.foreign.at(top - m_merge.providers.size()).isAvailable(c)
                                                 : m_merge.providers.at(top).isAvailable(c);
        if (available)
            out << c;
    }
    return out;
}

bool LockMergeModel::isUnresolved(int top) const
{
    if (top < 0 || top >= topRowCount())
        return false;
    return isForeignRow(top) ? !m_merge.foreign.at(top - m_merge.providers.size()).isResolved() : !m_merge.providers.at(top).isResolved();
}

bool LockMergeModel::setChoice(int top, Choice choice)
{
    if (top < 0 || top >= topRowCount() || !choicesOf(top).contains(choice))
        return false;
    if (isForeignRow(top))
        m_merge.foreign[top - m_merge.providers.size()].choice = choice;
    else
        m_merge.providers[top].choice = choice;
    emitTopChanged(top);
    Q_EMIT resultChanged();
    return true;
}

void LockMergeModel::emitTopChanged(int top)
{
    const QModelIndex parentIndex = index(top, 0);
    Q_EMIT dataChanged(parentIndex, index(top, ColumnCount - 1));
    for (int row = 0; row < rowCount(parentIndex); ++row) {
        Q_EMIT dataChanged(index(row, 0, parentIndex), index(row, ColumnCount - 1, parentIndex));
        const QModelIndex group = index(row, 0, parentIndex);
        if (const int children = rowCount(group); children > 0)
            Q_EMIT dataChanged(index(0, 0, group), index(children - 1, ColumnCount - 1, group));
    }
}

int LockMergeModel::nextConflict(int from) const
{
    const int n = topRowCount();
    for (int k = 1; k <= n; ++k) {
        const int top = ((from < 0 ? -1 : from) + k) % n;
        if (isUnresolved(top))
            return top;
    }
    return -1;
}

int LockMergeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QString LockMergeModel::topText(int top, int column) const
{
    if (isForeignRow(top)) {
        const ForeignMerge &f = m_merge.foreign.at(top - m_merge.providers.size());
        const auto side = [&](const std::optional<lockmerge::ForeignBlock> &b) -> QString {
            if (!b)
                return f.base ? kAbsent + u" (removed)"_s : kAbsent;
            if (!f.base)
                return kPresent + u" (added)"_s;
            return b->text == f.base->text ? kPresent : kPresent + u" (changed)"_s;
        };
        switch (column) {
        case NameColumn: return f.key + u" (kept verbatim)"_s;
        case BaseColumn: return f.base ? kPresent : kAbsent;
        case OursColumn: return side(f.ours);
        case TheirsColumn: return side(f.theirs);
        case ResultColumn:
            if (!f.isResolved())
                return conflictText(ConflictKind::TextDiffers);
            if (f.choice != Choice::Automatic)
                return lockmerge::toString(f.choice) + u" (chosen)"_s;
            return lockmerge::toString(f.outcome);
        }
        return {};
    }
    const ProviderMerge &p = m_merge.providers.at(top);
    switch (column) {
    case NameColumn: return p.address.toString();
    case BaseColumn: return versionText(p.base);
    case OursColumn: return sideText(p.ours, p.oursChange());
    case TheirsColumn: return sideText(p.theirs, p.theirsChange());
    case ResultColumn: {
        if (!p.isResolved())
            return conflictText(p.conflict);
        const std::optional<ProviderLock> r = p.resolved();
        const QString what = r ? r->version.toString() : u"removed"_s;
        if (p.choice != Choice::Automatic)
            return lockmerge::toString(p.choice) + u" (chosen): "_s + what;
        if (p.outcome == Outcome::Removed || p.outcome == Outcome::Unchanged)
            return r ? what : lockmerge::toString(p.outcome);
        return lockmerge::toString(p.outcome) + u": "_s + what;
    }
    }
    return {};
}

QString LockMergeModel::cell(const Node &n, int column) const
{
    if (n.kind == Kind::Provider || n.kind == Kind::Foreign)
        return topText(n.top, column);
    const ProviderMerge &p = m_merge.providers.at(n.top);
    const std::optional<ProviderLock> result = p.isResolved() ? p.resolved() : std::nullopt;
    const std::optional<ProviderLock> *side = nullptr;
    switch (column) {
    case BaseColumn: side = &p.base; break;
    case OursColumn: side = &p.ours; break;
    case TheirsColumn: side = &p.theirs; break;
    case ResultColumn: side = &result; break;
    default: break;
    }
    const bool unresolvedResult = column == ResultColumn && !p.isResolved();
    switch (n.kind) {
    case Kind::Version:
        if (column == NameColumn)
            return u"version"_s;
        return unresolvedResult ? u"?"_s : versionText(*side);
    case Kind::Constraints:
        if (column == NameColumn)
            return u"constraints"_s;
        return unresolvedResult ? u"?"_s : constraintsText(*side);
    case Kind::Hashes:
        if (column == NameColumn)
            return u"hashes"_s;
        if (unresolvedResult)
            return u"?"_s;
        return *side ? QString::number((*side)->hashes.size()) : kAbsent;
    case Kind::Hash:
        if (column == NameColumn)
            return n.hash;
        if (unresolvedResult)
            return u"?"_s;
        return hasHash(*side, n.hash) ? kPresent : QString();
    default: break;
    }
    return {};
}

QVariant LockMergeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &n = m_nodes.at(int(index.internalId()));
    switch (role) {
    case Qt::DisplayRole: return cell(n, index.column());
    case Qt::EditRole:
        if (index.column() == ResultColumn && !index.parent().isValid())
            return int(choiceOf(n.top));
        return cell(n, index.column());
    case Qt::ToolTipRole:
        if (!index.parent().isValid()) {
            if (isForeignRow(n.top))
                return m_merge.foreign.at(n.top - m_merge.providers.size()).explanation();
            return m_merge.providers.at(n.top).explanation();
        }
        return {};
    case KindRole: return int(n.kind);
    case KeyRole: return keyOf(n.top);
    case StateRole: {
        if (isUnresolved(n.top))
            return u"conflict"_s;
        if (choiceOf(n.top) != Choice::Automatic)
            return u"chosen"_s;
        const Outcome o =
            isForeignRow(n.top) ? m_merge.foreign.at(n.top - m_merge.providers.size()).outcome : m_merge.providers.at(n.top).outcome;
        return o == Outcome::Unchanged ? u"unchanged"_s : u"merged"_s;
    }
    case ChoiceRole: return int(choiceOf(n.top));
    case ChoicesRole: {
        QVariantList l;
        for (Choice c : choicesOf(n.top))
            l << int(c);
        return l;
    }
    case TopRowRole: return n.top;
    case HashRole: return n.kind == Kind::Hash ? QVariant(n.hash) : QVariant();
    default: return {};
    }
}

bool LockMergeModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || !m_handler || !checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() != ResultColumn
        || index.parent().isValid())
        return false;
    bool ok = false;
    const int c = value.toInt(&ok);
    if (!ok || c < int(Choice::Automatic) || c > int(Choice::Base))
        return false;
    const int top = m_nodes.at(int(index.internalId())).top;
    if (Choice(c) == choiceOf(top) || !choicesOf(top).contains(Choice(c)))
        return false;
    return m_handler(top, Choice(c));
}

Qt::ItemFlags LockMergeModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractItemModel::flags(index);
    if (index.isValid() && m_handler && index.column() == ResultColumn && !index.parent().isValid())
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant LockMergeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return columnTitleHeader(*this, section, orientation, role, {u"Provider"_s, u"Base"_s, u"Ours"_s, u"Theirs"_s, u"Result"_s});
}

QHash<int, QByteArray> LockMergeModel::roleNames() const
{
    return withRoleNames(QAbstractItemModel::roleNames(),
                         {{KindRole, "kind"},
                          {KeyRole, "key"},
                          {StateRole, "state"},
                          {ChoiceRole, "choice"},
                          {ChoicesRole, "choices"},
                          {TopRowRole, "topRow"},
                          {HashRole, "hash"}});
}

QString LockMergeModel::dump() const
{
    return dumpTreeModel(*this);
}

} // namespace provender
