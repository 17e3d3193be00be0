#include "model/lockitems/SideBySideDiff.h"

#include "model/lockfile/LockDiff.h"

using namespace Qt::StringLiterals;

namespace provender {

namespace {

QString stripCr(QString s)
{
    if (s.endsWith(u'\r'))
        s.chop(1);
    return s;
}

QStringList splitText(const QByteArray &text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = QString::fromUtf8(text).split(u'\n');
    if (text.endsWith('\n'))
        lines.removeLast();
    for (QString &l : lines)
        l = stripCr(l);
    return lines;
}

} // namespace

int SideBySideDiff::changedRows() const
{
    int n = 0;
    for (qsizetype i = 0; i < left.size(); ++i)
        n += leftKind.at(i) != RowKind::Same || rightKind.at(i) != RowKind::Same ? 1 : 0;
    return n;
}

int SideBySideDiff::findRow(const QString &needle, bool leftSide, bool rightSide, int from) const
{
    for (qsizetype i = qMax(0, from); i < left.size(); ++i)
        if ((leftSide && left.at(i).contains(needle)) || (rightSide && right.at(i).contains(needle)))
            return int(i);
    return -1;
}

SideBySideDiff alignSideBySide(const QByteArray &a, const QByteArray &b)
{
    SideBySideDiff d;
    auto push = [&d](const QString &l, SideBySideDiff::RowKind lk, int ll, const QString &r, SideBySideDiff::RowKind rk, int rl) {
        d.left << l;
        d.leftKind << lk;
        d.leftLine << ll;
        d.right << r;
        d.rightKind << rk;
        d.rightLine << rl;
    };
    if (a == b) {
        const QStringList lines = splitText(a);
        for (qsizetype i = 0; i < lines.size(); ++i)
            push(lines.at(i), SideBySideDiff::RowKind::Same, int(i + 1), lines.at(i), SideBySideDiff::RowKind::Same, int(i + 1));
        return d;
    }
    // One hunk covering both files entirely.
    const QString diff = unifiedDiff(a, b, u"a"_s, u"b"_s, 1 << 28);
    QStringList lines = diff.split(u'\n');
    if (!lines.isEmpty() && lines.constLast().isEmpty())
        lines.removeLast();
    QStringList removed;
    QStringList added;
    int la = 0, lb = 0;
    auto flush = [&] {
        const qsizetype n = qMax(removed.size(), added.size());
        for (qsizetype i = 0; i < n; ++i) {
            const bool hasL = i < removed.size();
            const bool hasR = i < added.size();
            push(hasL ? removed.at(i) : QString(), hasL ? SideBySideDiff::RowKind::Changed : SideBySideDiff::RowKind::Filler,
                 hasL ? ++la : 0, hasR ? added.at(i) : QString(), hasR ? SideBySideDiff::RowKind::Changed : SideBySideDiff::RowKind::Filler,
                 hasR ? ++lb : 0);
        }
        removed.clear();
        added.clear();
    };
    for (qsizetype i = 2; i < lines.size(); ++i) { // skip the ---/+++ header
        const QString &l = lines.at(i);
        if (l.startsWith(u"@@"_s) || l.startsWith(u'\\'))
            continue;
        const QChar op = l.isEmpty() ? u' ' : l.at(0);
        const QString text = stripCr(l.mid(1));
        if (op == u'-') {
            if (!added.isEmpty())
                flush();
            removed << text;
        } else if (op == u'+') {
            added << text;
        } else {
            flush();
            ++la;
            ++lb;
            push(text, SideBySideDiff::RowKind::Same, la, text, SideBySideDiff::RowKind::Same, lb);
        }
    }
    flush();
    return d;
}

} // namespace provender
