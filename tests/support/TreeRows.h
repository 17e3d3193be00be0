#pragma once
// Rows of the browser's tree in widget tests (tst_mainwindow, tst_remoteui): the archive rows
// (leaves of host ▸ provider ▸ version ▸ archive) a model shows, and selecting one in a view as a
// user would (its parents expanded, scrolled to, current and selected).

#include "model/items/MirrorTreeModel.h"

#include <QAbstractItemModel>
#include <QItemSelectionModel>
#include <QTreeView>

namespace provender::test {

inline QModelIndexList archiveRows(const QAbstractItemModel *m, const QModelIndex &parent = {})
{
    QModelIndexList out;
    for (int r = 0; r < m->rowCount(parent); ++r) {
        const QModelIndex i = m->index(r, 0, parent);
        if (i.data(MirrorTreeModel::KindRole).toInt() == MirrorTreeModel::ArchiveNode)
            out.append(i);
        else
            out += archiveRows(m, i);
    }
    return out;
}

inline void selectRow(QTreeView *view, const QModelIndex &i)
{
    for (QModelIndex p = i.parent(); p.isValid(); p = p.parent())
        view->expand(p);
    view->scrollTo(i);
    view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

} // namespace provender::test
