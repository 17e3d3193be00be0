#include "ui/VerdictStyle.h"

#include "model/items/ArchiveTableModel.h"

#include <QApplication>
#include <QFontDatabase>
#include <QPainter>
#include <QPainterPath>

namespace provender::ui {

QColor verdictColor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Verified: return QColor(0x2e, 0x7d, 0x32);   // green
    case Verdict::Mismatch: return QColor(0xc6, 0x28, 0x28);   // red
    case Verdict::Unverified: return QColor(0x54, 0x6e, 0x7a); // blue grey
    case Verdict::Missing: return QColor(0xe6, 0x51, 0x00);    // orange
    case Verdict::Error: return QColor(0x8e, 0x24, 0xaa);      // purple
    case Verdict::Pending: return QColor(0x9e, 0x9e, 0x9e);    // grey
    }
    return QColor(Qt::gray);
}

void VerdictBadgeDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    // Background, selection and focus as the style draws them, without the text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QVariant v = index.data(ArchiveTableModel::VerdictRole);
    if (!v.isValid())
        return;
    const Verdict verdict = Verdict(v.toInt());
    const QString text = toString(verdict);
    QFont font = option.font;
    font.setBold(true);
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.85);
    const QFontMetrics fm(font);
    const int padX = 8;
    const int h = std::min(option.rect.height() - 4, fm.height() + 4);
    const int w = fm.horizontalAdvance(text) + 2 * padX;
    const QRect pill(option.rect.left() + 4, option.rect.center().y() - h / 2 + 1, w, h);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(QRectF(pill), h / 2.0, h / 2.0);
    painter->fillPath(path, verdictColor(verdict));
    painter->setPen(Qt::white);
    painter->setFont(font);
    painter->drawText(pill, Qt::AlignCenter, text);
    painter->restore();
}

QSize VerdictBadgeDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    QFont font = option.font;
    font.setBold(true);
    const QFontMetrics fm(font);
    s.setWidth(std::max(s.width(), fm.horizontalAdvance(QStringLiteral("unverified")) + 28));
    s.setHeight(std::max(s.height(), fm.height() + 8));
    return s;
}

void HashDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (option->font.pointSizeF() > 0)
        fixed.setPointSizeF(option->font.pointSizeF() * 0.95);
    option->font = fixed;
    option->textElideMode = Qt::ElideMiddle;
}

} // namespace provender::ui
