#pragma once
// How verdicts look in the GUI. A verdict is never told by colour alone: each has its own glyph
// (✔ verified, ✘ mismatch, ? ring unverified, – missing, ! error, … pending) drawn as vector
// shapes, its name as text, and a colour. Badges are white glyph and text on a saturated fill whose
// contrast with white is at least 4.5:1 (WCAG AA), so they read the same on light and dark palettes;
// coloured text on the window background uses verdictTextColor(), which adapts to the palette.

#include "model/verify/Verdict.h"

#include <QColor>
#include <QIcon>
#include <QStyledItemDelegate>

class QPainter;
class QPalette;

namespace provender::ui {

/// Badge fill for a verdict (glyph and text on it are white).
QColor verdictColor(Verdict verdict);
/// The verdict's colour for text or glyphs drawn directly on `palette`'s base/window colour:
/// verdictColor() on light palettes, a lighter shade of it on dark ones (contrast >= 4.5:1).
QColor verdictTextColor(Verdict verdict, const QPalette &palette);
/// A Unicode glyph close to the vector shape, for rich text: ✔ ✘ ? – ! …
QString verdictGlyph(Verdict verdict);
/// One sentence saying what the verdict means (badge tooltips, legend).
QString verdictExplanation(Verdict verdict);
/// Draw the verdict's glyph shape into `rect` with `color` (lines scale with the rect).
void paintVerdictGlyph(QPainter *painter, const QRectF &rect, Verdict verdict, const QColor &color);
/// A small icon: the glyph in white on a round badge of verdictColor() (combo boxes, menus).
QIcon verdictIcon(Verdict verdict);
/// True when `palette`'s base colour is dark.
bool isDarkPalette(const QPalette &palette);

/// Paints the Verdict column as a badge: glyph + verdict name on the verdict's colour. The
/// verdict comes from the VerdictRole (MirrorTreeModel::VerdictRole); the
/// tooltip explains the verdict and, for an archive, why (ReasonRole), for a parent the counts.
class VerdictBadgeDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option, const QModelIndex &index) override;
    /// The badge's tooltip text for `index` ("" when it has no verdict).
    static QString toolTip(const QModelIndex &index);
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
