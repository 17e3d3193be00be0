// Go's strconv as model/core/GoCompat reproduces it (ParseInt in bases 10 and 0, ParseFloat's
// range). Expected values: Go's own tests, src/strconv/atoi_test.go (parseInt64Tests,
// parseInt64BaseTests with their underscore and sign rows), and the float64 range of
// strconv.ParseFloat (ErrRange past ±1.8e308; an underflow reads as 0 without an error).

#include "model/core/GoCompat.h"
#include "tests/support/TestSupport.h"

#include <QTest>

#include <limits>

using namespace provender;

class TestGoCompat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parseInt_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("base");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        const auto row = [](const char *text, int base, bool ok, qint64 value) {
            QTest::addRow("%s (base %d)", text, base) << QByteArray(text) << base << ok << value;
        };
        // parseInt64Tests (base 10, what Atoi is)
        row("", 10, false, 0);
        row("0", 10, true, 0);
        row("-0", 10, true, 0);
        row("+1", 10, true, 1);
        row("-12345", 10, true, -12345);
        row("012345", 10, true, 12345);
        row("9223372036854775807", 10, true, std::numeric_limits<qint64>::max());
        row("9223372036854775808", 10, false, 0);
        row("-9223372036854775808", 10, true, std::numeric_limits<qint64>::min());
        row("-9223372036854775809", 10, false, 0);
        row("-1_2_3_4_5", 10, false, 0); // base 10: no underscores
        row("12345_", 10, false, 0);
        row("123%45", 10, false, 0);
        // parseInt64BaseTests (base 0)
        row("", 0, false, 0);
        row("0", 0, true, 0);
        row("-0", 0, true, 0);
        row("012345", 0, true, 012345);
        row("-012345", 0, true, -012345);
        row("0x12345", 0, true, 0x12345);
        row("-0X12345", 0, true, -0x12345);
        row("12345x", 0, false, 0);
        row("9223372036854775808", 0, false, 0);
        row("-9223372036854775808", 0, true, std::numeric_limits<qint64>::min());
        row("-0x_1_2_3_4_5", 0, true, -0x12345);
        row("0x_1_2_3_4_5", 0, true, 0x12345);
        row("-_0x12345", 0, false, 0);
        row("_-0x12345", 0, false, 0);
        row("0x__12345", 0, false, 0);
        row("0x1234__5", 0, false, 0);
        row("0x12345_", 0, false, 0);
        row("-0_1_2_3_4_5", 0, true, -012345);
        row("0__12345", 0, false, 0);
        row("012345_", 0, false, 0);
        row("+0xf", 0, true, 0xf);
        row("0x+f", 0, false, 0);
        row("0b", 0, false, 0);
        // parseUint64BaseTests' prefixes, signed
        row("0b101", 0, true, 5);
        row("0o17", 0, true, 017);
        row("08", 0, false, 0);
    }
    void parseInt()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, base);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        qint64 out = -42;
        QCOMPARE(gocompat::parseInt64(text, base, &out), ok);
        if (ok)
            QCOMPARE(out, value);
        if (base == 10) {
            qint64 atoi = -42;
            QCOMPARE(gocompat::atoi64(text, &atoi), ok);
        }
    }

    void parseFloat_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::newRow("integer") << QByteArray("1") << true;
        QTest::newRow("fraction and exponent") << QByteArray("-2.5e3") << true;
        QTest::newRow("no integer part") << QByteArray(".5") << true;
        QTest::newRow("largest float64") << QByteArray("1.7976931348623157e308") << true;
        QTest::newRow("past the largest: ErrRange") << QByteArray("1e309") << false;
        QTest::newRow("underflow reads as 0") << QByteArray("1e-400") << true;
        QTest::newRow("not a number") << QByteArray("1.2.3") << false;
        QTest::newRow("empty") << QByteArray("") << false;
    }
    void parseFloat()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QCOMPARE(gocompat::parsesAsFloat64(text), ok);
    }
};

QTEST_GUILESS_MAIN(TestGoCompat)
#include "tst_gocompat.moc"
