#include "ui/browser/MirrorTreeView.h"

namespace provender::ui {

void MirrorTreeView::dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    for (QModelIndex p = topLeft.parent(); p.isValid(); p = p.parent())
        if (!isExpanded(p))
            return; // not on screen: nothing to repaint or re-measure
    QTreeView::dataChanged(topLeft, bottomRight, roles);
}

} // namespace provender::ui
