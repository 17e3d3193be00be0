#pragma once
// How verdicts look in the GUI: one colour per verdict, a rounded "badge" painted by a delegate,
// and the same colours in the summary line above the table.

#include "model/verify/Verdict.h"

#include <QColor>
#include <QStyledItemDelegate>

namespace provender::ui {

/// Badge background for a verdict (text on it is white).
QColor verdictColor(Verdict verdict);

/// Paints the Verdict column as a coloured pill; the verdict comes from
/// ArchiveTableModel::VerdictRole.
class VerdictBadgeDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

/// Hash columns: a fixed-width font, elided in the middle so both ends stay readable.
class HashDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
};

} // namespace provender::ui
