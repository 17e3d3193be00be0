// AnomalyListModel under QAbstractItemModelTester: one row per scan anomaly, locations relative to
// the mirror root with line:column when the anomaly has one.

#include "model/items/AnomalyListModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace provender;

class TestAnomalyListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anomalies()
    {
        AnomalyListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString root = QStringLiteral("/m");
        const QList<Anomaly> anomalies = {
            Anomaly{AnomalyKind::MalformedJson, QStringLiteral("/m/h/n/t/1.0.0.json"), QStringLiteral("bad"),
                    Location{QStringLiteral("/m/h/n/t/1.0.0.json"), 3, 7}},
            Anomaly{AnomalyKind::ArchiveNotInIndex, QStringLiteral("/m/h/n/t/x.zip"), QStringLiteral("not listed"), {}}};
        model.setAnomalies(anomalies, root);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.index(0, AnomalyListModel::KindColumn).data().toString(), QStringLiteral("malformed-json"));
        QCOMPARE(model.index(0, AnomalyListModel::LocationColumn).data().toString(), QStringLiteral("h/n/t/1.0.0.json:3:7"));
        QCOMPARE(model.index(1, AnomalyListModel::LocationColumn).data().toString(), QStringLiteral("h/n/t/x.zip"));
        QCOMPARE(model.index(1, AnomalyListModel::MessageColumn).data().toString(), QStringLiteral("not listed"));
        QCOMPARE(model.index(0, 0).data(AnomalyListModel::KindRole).toInt(), int(AnomalyKind::MalformedJson));
        QCOMPARE(model.index(0, 0).data(AnomalyListModel::LineRole).toInt(), 3);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAnomalyListModel)
#include "tst_anomalylistmodel.moc"
