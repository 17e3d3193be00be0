// RequestLogModel: the per-request log table. QAbstractItemModelTester watches every change;
// expected cells are written out by hand from the entries the test appends.

#include "model/network/RequestLogModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace provender;

namespace {

RequestLogEntry entry(const char *url, int status, qint64 bytes, qint64 ms, const char *error = "", bool auth = false)
{
    RequestLogEntry e;
    e.url = QUrl(QString::fromLatin1(url));
    e.status = status;
    e.bytes = bytes;
    e.elapsedMs = ms;
    e.error = QString::fromLatin1(error);
    e.authorization = auth;
    return e;
}

} // namespace

class TestRequestLogModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cells_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("display");
        QTest::newRow("method") << int(RequestLogModel::MethodColumn) << QStringLiteral("GET");
        QTest::newRow("status") << int(RequestLogModel::StatusColumn) << QStringLiteral("404");
        QTest::newRow("url") << int(RequestLogModel::UrlColumn) << QStringLiteral("https://m.example/a b/index.json");
        QTest::newRow("bytes") << int(RequestLogModel::BytesColumn) << QStringLiteral("1.5 KiB");
        QTest::newRow("time") << int(RequestLogModel::TimeColumn) << QStringLiteral("12 ms");
        QTest::newRow("auth") << int(RequestLogModel::AuthColumn) << QStringLiteral("token");
        QTest::newRow("error") << int(RequestLogModel::ErrorColumn) << QString();
    }
    void cells()
    {
        QFETCH(int, column);
        QFETCH(QString, display);
        RequestLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.append(entry("https://m.example/a%20b/index.json", 404, 1536, 12, "", true));
        QCOMPARE(model.data(model.index(0, column)).toString(), display);
        QCOMPARE(model.data(model.index(0, 0), RequestLogModel::FailedRole).toBool(), true);
        QCOMPARE(model.data(model.index(0, 0), RequestLogModel::StatusRole).toInt(), 404);
    }

    void appendDropClear()
    {
        RequestLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setMaxRows(3);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.append(entry("https://m/1", 200, 10, 1));
        model.append(entry("https://m/2", 0, 0, 5000, "request failed: timed out"));
        model.append(entry("https://m/3", 302, 0, 2));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.failedCount(), 1);
        QCOMPARE(model.totalBytes(), 10);
        QCOMPARE(model.data(model.index(1, RequestLogModel::StatusColumn)).toString(), QStringLiteral("—"));
        QCOMPARE(model.data(model.index(1, RequestLogModel::UrlColumn), Qt::ToolTipRole).toString(),
                 QStringLiteral("request failed: timed out"));
        QCOMPARE(model.data(model.index(2, 0), RequestLogModel::FailedRole).toBool(), false); // a redirect hop
        model.append(entry("https://m/4", 500, 7, 3));
        QCOMPARE(removed.size(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.entry(0).url.toString(), QStringLiteral("https://m/2"));
        QCOMPARE(model.failedCount(), 2); // the timeout and the 500
        QCOMPARE(model.totalBytes(), 7);
        model.setEntries({entry("https://m/5", 200, 1, 1), entry("https://m/6", 200, 2, 1), entry("https://m/7", 200, 3, 1),
                          entry("https://m/8", 403, 4, 1)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.entry(0).url.toString(), QStringLiteral("https://m/6"));
        QCOMPARE(model.totalBytes(), 9);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.failedCount(), 0);
        QCOMPARE(model.headerData(RequestLogModel::UrlColumn, Qt::Horizontal).toString(), QStringLiteral("URL"));
    }
};

QTEST_GUILESS_MAIN(TestRequestLogModel)
#include "tst_network_requestlog.moc"
