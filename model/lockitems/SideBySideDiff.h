#pragma once
// Two texts aligned line by line for a side-by-side view: equal lines face each other, a run of
// removed lines faces the run of added lines that replaced it, and the shorter side is padded
// with filler rows so both sides have the same number of rows (scrolling one scrolls the other
// by the same amount). Built on unifiedDiff()'s edit script.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

struct SideBySideDiff
{
    enum class RowKind { Same, Changed, Filler };
    QStringList left; ///< row text (a filler row is "")
    QStringList right;
    QList<RowKind> leftKind;
    QList<RowKind> rightKind;
    QList<int> leftLine; ///< 1-based source line, 0 for a filler row
    QList<int> rightLine;

    qsizetype rowCount() const { return left.size(); }
    int changedRows() const;
    /// First row whose text on either side contains `needle` (after row `from`), or -1.
    int findRow(const QString &needle, bool leftSide, bool rightSide, int from = 0) const;
};

SideBySideDiff alignSideBySide(const QByteArray &a, const QByteArray &b);

} // namespace provender
