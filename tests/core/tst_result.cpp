#include "model/core/Result.h"

#include <QTest>

using namespace provender;

class TestResult : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void valueAndError()
    {
        Result<int> good(42);
        QVERIFY(good.ok());
        QCOMPARE(good.value(), 42);
        Result<int> bad(makeError(ErrorCode::Io, QStringLiteral("boom"), {QStringLiteral("f.hcl"), 3, 7}));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().code, ErrorCode::Io);
        QCOMPARE(bad.error().toString(), QStringLiteral("f.hcl:3:7: boom"));
        QCOMPARE(bad.valueOr(5), 5);
    }
    void locationForms()
    {
        QCOMPARE((Location{QStringLiteral("a"), 0, 0}).toString(), QStringLiteral("a"));
        QCOMPARE((Location{QStringLiteral("a"), 2, 0}).toString(), QStringLiteral("a:2"));
        QCOMPARE((Location{QString(), 2, 9}).toString(), QStringLiteral("2:9"));
        QCOMPARE((Error{ErrorCode::Internal, QStringLiteral("x"), {}}).toString(), QStringLiteral("x"));
    }
    void voidResult()
    {
        Result<void> ok;
        QVERIFY(ok.ok());
        Result<void> bad(makeError(ErrorCode::Cancelled, QStringLiteral("stopped")));
        QVERIFY(!bad);
        QCOMPARE(bad.error().message, QStringLiteral("stopped"));
    }
};

QTEST_GUILESS_MAIN(TestResult)
#include "tst_result.moc"
