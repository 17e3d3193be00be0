#pragma once
// The mirror tree's view. QTreeView::dataChanged() looks the changed row up among the visible
// rows, linearly when the row is not visible (under a collapsed parent) — with 100,000 archives
// streaming verdicts that is most rows and most of the GUI thread's time. Rows under a collapsed
// ancestor are not drawn, so their changes are skipped here; expanding lays them out afresh.

#include <QTreeView>

namespace provender::ui {

class MirrorTreeView : public QTreeView
{
    Q_OBJECT
public:
    using QTreeView::QTreeView;

protected:
    void dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles = {}) override;
};

} // namespace provender::ui
