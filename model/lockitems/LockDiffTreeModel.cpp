#include "model/lockitems/LockDiffTreeModel.h"

#include "model/core/RoleNames.h"
#include "model/lockitems/TableDump.h"

#include <QFileInfo>
#include <QMap>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

QString versionText(const std::optional<Version> &v)
{
    return v ? v->toString() : QString();
}

QString constraintText(const QString &c)
{
    return c.isEmpty() ? u"(none)"_s : c;
}

} // namespace

LockDiffTreeModel::LockDiffTreeModel(QObject *parent) : NodeTreeModel(parent) {}

void LockDiffTreeModel::addHashGroup(int providerNode, const ProviderDiff &p, bool added)
{
    const QList<HashChange> &changes = added ? p.hashesAdded : p.hashesRemoved;
    if (changes.isEmpty())
        return;
    Node group;
    group.kind = added ? Kind::HashesAdded : Kind::HashesRemoved;
    group.name = added ? u"hashes added"_s : u"hashes removed"_s;
    group.detail = QString::number(changes.size());
    group.address = p.address.toString();
    group.change = int(p.change);
    group.added = added;
    const int groupNode = addNode(m_nodes, providerNode, group);

    // Platform groups in platform order, "unknown platform" last.
    const std::optional<Version> &side = added ? p.newVersion : p.oldVersion;
    QMap<QString, QList<const HashChange *>> byPlatform;
    QList<const HashChange *> unknown;
    for (const HashChange &c : changes) {
        const HashProvenance *best = nullptr;
        for (const HashProvenance &prov : c.provenance)
            if (!best || (side && prov.version == *side && !(best->version == *side)))
                best = &prov;
        if (best && best->platform.isValid())
            byPlatform[best->version == side.value_or(best->version) ? best->platform.toString()
                                                                     : best->platform.toString() + u" (" + best->version.toString() + u')']
                .append(&c);
        else
            unknown.append(&c);
    }
    auto addPlatform = [&](const QString &platform, const QList<const HashChange *> &hashes) {
        Node pg;
        pg.kind = Kind::PlatformGroup;
        pg.name = platform.isEmpty() ? u"unknown platform"_s : platform;
        QStringList origins;
        for (const HashChange *c : hashes) {
            const QString o = c->provenance.isEmpty() ? u"unknown"_s : toString(c->provenance.constFirst().origin);
            if (!origins.contains(o))
                origins << o;
        }
        pg.detail = origins.join(u", "_s);
        pg.address = p.address.toString();
        pg.platform = platform.section(u' ', 0, 0);
        pg.change = int(p.change);
        pg.added = added;
        const int pgNode = addNode(m_nodes, groupNode, pg);
        for (const HashChange *c : hashes) {
            Node h;
            h.kind = Kind::Hash;
            h.name = c->hash.toString();
            if (c->provenance.isEmpty()) {
                h.detail = u"unknown"_s;
            } else {
                const HashProvenance &prov = c->provenance.constFirst();
                h.detail = toString(prov.origin) + (prov.note.isEmpty() ? QString() : u", "_s + prov.note);
                if (!prov.archivePath.isEmpty() && prov.origin != HashOrigin::Sha256Sums)
                    h.detail += u", "_s + QFileInfo(prov.archivePath).fileName();
            }
            h.hash = c->hash.toString();
            h.address = p.address.toString();
            h.platform = pg.platform;
            h.change = int(p.change);
            h.added = added;
            addNode(m_nodes, pgNode, h);
        }
    };
    for (auto it = byPlatform.cbegin(); it != byPlatform.cend(); ++it)
        addPlatform(it.key(), it.value());
    if (!unknown.isEmpty())
        addPlatform(QString(), unknown);
}

void LockDiffTreeModel::setDiff(const LockDiff &diff)
{
    beginResetModel();
    m_diff = diff;
    clearNodes(m_nodes);
    for (const ProviderDiff &p : diff.providers) {
        if (p.change == ProviderDiff::Change::Unchanged)
            continue;
        Node pn;
        pn.kind = Kind::Provider;
        pn.name = p.address.forDisplay(QAnyStringView());
        pn.address = p.address.toString();
        pn.change = int(p.change);
        pn.added = p.change != ProviderDiff::Change::Removed;
        switch (p.change) {
        case ProviderDiff::Change::Added: pn.detail = u"added "_s + versionText(p.newVersion); break;
        case ProviderDiff::Change::Removed: pn.detail = u"removed "_s + versionText(p.oldVersion); break;
        case ProviderDiff::Change::Upgraded:
        case ProviderDiff::Change::Downgraded:
            pn.detail = toString(p.change) + u' ' + versionText(p.oldVersion) + u" → "_s + versionText(p.newVersion);
            break;
        default: pn.detail = u"changed "_s + versionText(p.newVersion); break;
        }
        const int providerNode = addNode(m_nodes, -1, pn);
        const auto addChange = [&](Kind kind, const QString &name, const QString &detail) {
            Node n;
            n.kind = kind;
            n.name = name;
            n.detail = detail;
            n.address = pn.address;
            n.change = pn.change;
            n.added = true;
            addNode(m_nodes, providerNode, n);
        };
        if (p.oldVersion && p.newVersion && !(*p.oldVersion == *p.newVersion))
            addChange(Kind::Version, u"version"_s, versionText(p.oldVersion) + u" → "_s + versionText(p.newVersion));
        if (p.constraintsChanged())
            addChange(Kind::Constraints, u"constraints"_s, constraintText(p.oldConstraints) + u" → "_s + constraintText(p.newConstraints));
        addHashGroup(providerNode, p, true);
        addHashGroup(providerNode, p, false);
    }
    endResetModel();
}

int LockDiffTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant LockDiffTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node &n = m_nodes.at(int(index.internalId()));
    switch (role) {
    case Qt::DisplayRole: return index.column() == NameColumn ? n.name : n.detail;
    case Qt::ToolTipRole: return n.kind == Kind::Hash ? QVariant(QString(n.hash + u"\n"_s + n.detail)) : QVariant();
    case KindRole: return int(n.kind);
    case ChangeRole: return n.change;
    case AddressRole: return n.address;
    case HashRole: return n.hash;
    case PlatformRole: return n.platform;
    case AddedRole: return n.added;
    }
    return {};
}

QVariant LockDiffTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    return section == NameColumn ? u"Change"_s : u"Detail"_s;
}

QHash<int, QByteArray> LockDiffTreeModel::roleNames() const
{
    return withRoleNames(QAbstractItemModel::roleNames(),
                         {{KindRole, "kind"},
                          {ChangeRole, "change"},
                          {AddressRole, "address"},
                          {HashRole, "hash"},
                          {PlatformRole, "platform"},
                          {AddedRole, "added"}});
}

QString LockDiffTreeModel::dump() const
{
    return dumpTreeModel(*this);
}

} // namespace provender
