// Verdict badges: readable on light and dark palettes, told apart by shape and not only colour,
// with tooltips. Contrast is checked with the WCAG 2 formula written here (relative luminance,
// (L1 + 0.05) / (L2 + 0.05) >= 4.5 for text), not with anything from ui/.

#include "model/items/MirrorTreeModel.h"
#include "tests/support/DarkPalette.h"
#include "ui/VerdictStyle.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QTest>

#include <cmath>

using namespace provender;

namespace {

double channel(double c)
{
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor &c)
{
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette lightPalette()
{
    QPalette p;
    p.setColor(QPalette::Base, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Window, QColor(0xef, 0xef, 0xef));
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::WindowText, Qt::black);
    return p;
}

using test::darkPalette;

const QList<Verdict> kAll = allVerdicts(); // refused included

QImage glyphImage(Verdict v)
{
    QImage img(32, 32, QImage::Format_ARGB32);
    img.fill(Qt::transparent);
    QPainter p(&img);
    ui::paintVerdictGlyph(&p, QRectF(4, 4, 24, 24), v, Qt::black);
    return img;
}

} // namespace

class TestVerdictStyle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void badgeFillContrastsWithWhite_data()
    {
        QTest::addColumn<int>("verdict");
        for (Verdict v : kAll)
            QTest::newRow(qPrintable(toString(v))) << int(v);
    }
    void badgeFillContrastsWithWhite()
    {
        QFETCH(int, verdict);
        const Verdict v = Verdict(verdict);
        QVERIFY2(contrast(ui::verdictColor(v), Qt::white) >= 4.5, qPrintable(ui::verdictColor(v).name()));
        // Coloured text on the window background, light and dark.
        for (const QPalette &pal : {lightPalette(), darkPalette()}) {
            const QColor text = ui::verdictTextColor(v, pal);
            QVERIFY2(contrast(text, pal.color(QPalette::Base)) >= 4.5,
                     qPrintable(text.name() + QStringLiteral(" on ") + pal.color(QPalette::Base).name()));
        }
        QVERIFY(!ui::verdictExplanation(v).isEmpty());
        QVERIFY(!ui::verdictGlyph(v).isEmpty());
    }

    void shapesDiffer()
    {
        // Drawn in one colour, every pair of glyphs differs in many pixels: shape alone tells them apart.
        for (qsizetype i = 0; i < kAll.size(); ++i) {
            const QImage a = glyphImage(kAll.at(i));
            int inked = 0;
            for (int y = 0; y < a.height(); ++y)
                for (int x = 0; x < a.width(); ++x)
                    inked += qAlpha(a.pixel(x, y)) > 128;
            QVERIFY2(inked > 15, qPrintable(toString(kAll.at(i))));
            for (qsizetype j = i + 1; j < kAll.size(); ++j) {
                const QImage b = glyphImage(kAll.at(j));
                int differ = 0;
                for (int y = 0; y < a.height(); ++y)
                    for (int x = 0; x < a.width(); ++x)
                        differ += (qAlpha(a.pixel(x, y)) > 128) != (qAlpha(b.pixel(x, y)) > 128);
                QVERIFY2(differ > 20, qPrintable(toString(kAll.at(i)) + QStringLiteral(" vs ") + toString(kAll.at(j))));
            }
        }
    }

    void badgeRendersOnLightAndDark_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::addColumn<int>("verdict");
        for (bool dark : {false, true})
            for (Verdict v : kAll)
                QTest::addRow("%s %s", dark ? "dark" : "light", qPrintable(toString(v))) << dark << int(v);
    }
    void badgeRendersOnLightAndDark()
    {
        QFETCH(bool, dark);
        QFETCH(int, verdict);
        QStandardItemModel model(1, 1);
        model.setData(model.index(0, 0), verdict, MirrorTreeModel::VerdictRole);
        ui::VerdictBadgeDelegate delegate;
        QStyleOptionViewItem option;
        option.rect = QRect(0, 0, 160, 26);
        option.palette = dark ? darkPalette() : lightPalette();
        option.font = QApplication::font();
        option.state = QStyle::State_Enabled;
        QImage img(option.rect.size(), QImage::Format_ARGB32);
        img.fill(option.palette.color(QPalette::Base));
        {
            QPainter p(&img);
            delegate.paint(&p, option, model.index(0, 0));
        }
        const QColor fill = ui::verdictColor(Verdict(verdict));
        int fillPixels = 0, whitePixels = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                fillPixels += c == fill;
                whitePixels += c.red() > 240 && c.green() > 240 && c.blue() > 240;
            }
        // A badge of the verdict's colour with white glyph and text on it.
        QVERIFY2(fillPixels > 300, qPrintable(QString::number(fillPixels)));
        QVERIFY2(whitePixels > 40, qPrintable(QString::number(whitePixels)));
        // The badge stands out from the base colour around it (rim on dark palettes).
        const QColor rim = ui::verdictTextColor(Verdict(verdict), option.palette);
        QVERIFY(contrast(dark ? rim : fill, option.palette.color(QPalette::Base)) >= 3.0);
        // Wide enough for the longest verdict name with its glyph.
        QVERIFY(delegate.sizeHint(option, model.index(0, 0)).width()
                >= QFontMetrics(option.font).horizontalAdvance(QStringLiteral("unverified")) + 20);
        if (qEnvironmentVariableIsSet("PROVENDER_SCREENSHOT_DIR"))
            img.save(qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR")
                     + QStringLiteral("/badge-%1-%2.png")
                           .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"), toString(Verdict(verdict))));
    }

    void toolTips()
    {
        QStandardItemModel model(1, 1);
        model.setData(model.index(0, 0), int(Verdict::Mismatch), MirrorTreeModel::VerdictRole);
        model.setData(model.index(0, 0), QStringLiteral("h1:abc matches nothing"), MirrorTreeModel::ReasonRole);
        const QString tip = ui::VerdictBadgeDelegate::toolTip(model.index(0, 0));
        QVERIFY(tip.startsWith(QStringLiteral("Mismatch:")));
        QVERIFY(tip.contains(QStringLiteral("h1:abc matches nothing")));
        QStandardItemModel none(1, 1);
        QCOMPARE(ui::VerdictBadgeDelegate::toolTip(none.index(0, 0)), QString());
    }
};

QTEST_MAIN(TestVerdictStyle)
#include "tst_verdictstyle.moc"
