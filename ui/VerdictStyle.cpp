#include "ui/VerdictStyle.h"

#include "model/items/MirrorTreeModel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QPixmap>
#include <QToolTip>

namespace provender::ui {

QColor verdictColor(Verdict verdict)
{
    // Each has >= 4.5:1 contrast with white (WCAG relative luminance <= 0.183).
    switch (verdict) {
    case Verdict::Verified: return QColor(0x2e, 0x7d, 0x32);   // green 800
    case Verdict::Mismatch: return QColor(0xc6, 0x28, 0x28);   // red 800
    case Verdict::Unverified: return QColor(0x45, 0x5a, 0x64); // blue grey 700
    case Verdict::Missing: return QColor(0xa8, 0x4a, 0x00);    // dark orange
    case Verdict::Error: return QColor(0x7b, 0x1f, 0xa2);      // purple 700
    case Verdict::Pending: return QColor(0x61, 0x61, 0x61);    // grey 700
    case Verdict::Refused: return QColor(0xad, 0x14, 0x57);    // pink 800
    }
    return QColor(0x61, 0x61, 0x61);
}

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

QColor verdictTextColor(Verdict verdict, const QPalette &palette)
{
    const QColor c = verdictColor(verdict);
    if (!isDarkPalette(palette))
        return c;
    // Same hue, light enough to read on a dark base.
    float h = 0, s = 0, l = 0, a = 1;
    c.getHslF(&h, &s, &l, &a);
    return QColor::fromHslF(h < 0 ? 0 : h, std::min(s, 0.75f), 0.72f);
}

QString verdictGlyph(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Verified: return QStringLiteral("✔");
    case Verdict::Mismatch: return QStringLiteral("✘");
    case Verdict::Unverified: return QStringLiteral("?");
    case Verdict::Missing: return QStringLiteral("–");
    case Verdict::Error: return QStringLiteral("!");
    case Verdict::Pending: return QStringLiteral("…");
    case Verdict::Refused: return QStringLiteral("⊘");
    }
    return {};
}

QString verdictExplanation(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Verified:
        return QApplication::translate("VerdictStyle",
                                       "Verified: terraform would install it — a hash it checks matches "
                                       "(see the anchor: what it was checked against).");
    case Verdict::Mismatch:
        return QApplication::translate("VerdictStyle",
                                       "Mismatch: none of the hashes terraform checks matches the archive — "
                                       "it changed after it was indexed, or the index was altered.");
    case Verdict::Unverified:
        return QApplication::translate("VerdictStyle",
                                       "Unverified: terraform would install it unchecked — nothing declares a "
                                       "hash it checks for this archive.");
    case Verdict::Refused:
        return QApplication::translate("VerdictStyle",
                                       "Refused: terraform would not install it — it cannot be extracted, has no "
                                       "provider executable, or the index gives only hash formats terraform "
                                       "does not support.");
    case Verdict::Missing:
        return QApplication::translate("VerdictStyle", "Missing: an index lists this archive but the file is not in the mirror.");
    case Verdict::Error:
        return QApplication::translate("VerdictStyle", "Error: the archive could not be read or hashed (corrupt zip, I/O error).");
    case Verdict::Pending: return QApplication::translate("VerdictStyle", "Pending: not hashed yet.");
    }
    return {};
}

void paintVerdictGlyph(QPainter *painter, const QRectF &rect, Verdict verdict, const QColor &color)
{
    const qreal s = std::min(rect.width(), rect.height());
    const QRectF r(rect.center().x() - s / 2, rect.center().y() - s / 2, s, s);
    auto at = [&r](qreal x, qreal y) { return QPointF(r.left() + x * r.width(), r.top() + y * r.height()); };
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPen pen(color, std::max<qreal>(1.5, s * 0.16), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    switch (verdict) {
    case Verdict::Verified: { // check mark
        QPainterPath p(at(0.15, 0.55));
        p.lineTo(at(0.40, 0.80));
        p.lineTo(at(0.85, 0.22));
        painter->drawPath(p);
        break;
    }
    case Verdict::Mismatch: // cross
        painter->drawLine(at(0.2, 0.2), at(0.8, 0.8));
        painter->drawLine(at(0.8, 0.2), at(0.2, 0.8));
        break;
    case Verdict::Unverified: // open ring: nothing to check against
        pen.setWidthF(std::max<qreal>(1.2, s * 0.12));
        painter->setPen(pen);
        painter->drawEllipse(QRectF(at(0.2, 0.2), at(0.8, 0.8)));
        break;
    case Verdict::Missing: // a dash: nothing there
        painter->drawLine(at(0.18, 0.5), at(0.82, 0.5));
        break;
    case Verdict::Error: // exclamation mark
        painter->drawLine(at(0.5, 0.15), at(0.5, 0.58));
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawEllipse(at(0.5, 0.82), s * 0.1, s * 0.1);
        break;
    case Verdict::Refused: // a circle with a bar: no entry
        pen.setWidthF(std::max<qreal>(1.2, s * 0.12));
        painter->setPen(pen);
        painter->drawEllipse(QRectF(at(0.15, 0.15), at(0.85, 0.85)));
        painter->drawLine(at(0.28, 0.72), at(0.72, 0.28));
        break;
    case Verdict::Pending: // three dots
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        for (qreal x : {0.2, 0.5, 0.8})
            painter->drawEllipse(at(x, 0.55), s * 0.09, s * 0.09);
        break;
    }
    painter->restore();
}

QIcon verdictIcon(Verdict verdict)
{
    QIcon icon;
    for (int size : {16, 24, 32}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(verdictColor(verdict));
        p.drawEllipse(QRectF(0.5, 0.5, size - 1, size - 1));
        const qreal inset = size * 0.22;
        paintVerdictGlyph(&p, QRectF(inset, inset, size - 2 * inset, size - 2 * inset), verdict, Qt::white);
        p.end();
        icon.addPixmap(pm);
    }
    return icon;
}

namespace {

QFont badgeFont(const QFont &base)
{
    QFont font = base;
    font.setBold(true);
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.85);
    return font;
}

} // namespace

void VerdictBadgeDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    // Background, selection and focus as the style draws them, without the text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QVariant v = index.data(MirrorTreeModel::VerdictRole);
    if (!v.isValid())
        return;
    const Verdict verdict = Verdict(v.toInt());
    const QString text = toString(verdict);
    const QFont font = badgeFont(option.font);
    const QFontMetrics fm(font);
    const int padX = 7;
    const int h = std::min(option.rect.height() - 4, fm.height() + 4);
    const int glyph = h - 6;
    const int w = std::min(option.rect.width() - 6, padX + glyph + 5 + fm.horizontalAdvance(text) + padX);
    const QRect pill(option.rect.left() + 3, option.rect.center().y() - h / 2 + 1, w, h);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(QRectF(pill), h / 2.0, h / 2.0);
    const QColor fill = verdictColor(verdict);
    painter->fillPath(path, fill);
    if (isDarkPalette(option.palette)) { // a light rim keeps dark fills apart from a dark base
        painter->setPen(QPen(verdictTextColor(verdict, option.palette), 1));
        painter->drawPath(path);
    }
    const QRectF glyphRect(pill.left() + padX, pill.top() + 3, glyph, glyph);
    paintVerdictGlyph(painter, glyphRect, verdict, Qt::white);
    painter->setPen(Qt::white);
    painter->setFont(font);
    const QRect textRect = pill.adjusted(padX + glyph + 5, 0, -padX + 2, 0);
    painter->drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(text, Qt::ElideRight, textRect.width()));
    painter->restore();
}

QSize VerdictBadgeDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    const QFontMetrics fm(badgeFont(option.font));
    s.setWidth(std::max(s.width(), fm.horizontalAdvance(QStringLiteral("unverified")) + fm.height() + 30));
    s.setHeight(std::max(s.height(), fm.height() + 8));
    return s;
}

QString VerdictBadgeDelegate::toolTip(const QModelIndex &index)
{
    const QVariant v = index.data(MirrorTreeModel::VerdictRole);
    if (!v.isValid())
        return {};
    const Verdict verdict = Verdict(v.toInt());
    QString tip = verdictExplanation(verdict);
    const QVariant counts = index.data(MirrorTreeModel::VerdictCountsRole);
    const bool parentRow = index.model()->hasChildren(index.siblingAtColumn(0));
    if (parentRow && counts.isValid()) {
        QStringList parts;
        const QVariantList list = counts.toList();
        for (int i = 0; i < list.size(); ++i)
            if (const int n = list.at(i).toInt())
                parts.append(QStringLiteral("%1 %2").arg(n).arg(toString(Verdict(i))));
        tip = QApplication::translate("VerdictStyle", "The worst verdict below: %1\n%2").arg(parts.join(QStringLiteral(", ")), tip);
    } else {
        const QString reason = index.data(MirrorTreeModel::ReasonRole).toString();
        if (!reason.isEmpty())
            tip += QLatin1Char('\n') + reason;
    }
    return tip;
}

bool VerdictBadgeDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
                                     const QModelIndex &index)
{
    if (event && event->type() == QEvent::ToolTip) {
        const QString tip = toolTip(index);
        if (!tip.isEmpty()) {
            QToolTip::showText(event->globalPos(), tip, view);
            return true;
        }
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
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
