// The main window on the demo mirror, driven through objectNames. Expected verdict counts are those
// planted by the demo mirror (model/mirror/DemoMirror.h), counted by hand.
//
// Set PROVENDER_SCREENSHOT_DIR to also save PNGs of the window (empty state and demo mirror).

#include "model/items/AnomalyListModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/mirror/DemoMirror.h"
#include "ui/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

using namespace provender;

class TestMainWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_demo;

    template<typename T>
    static T *child(QWidget &w, const char *name)
    {
        return w.findChild<T *>(QLatin1StringView(name));
    }

    static void screenshot(QWidget &w, const char *name)
    {
        const QByteArray dir = qgetenv("PROVENDER_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        const QString path = QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1StringView(name);
        QVERIFY(w.grab().save(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    static int verdictCount(ui::MainWindow &w, Verdict v) { return w.archiveModel()->verdictCounts()[size_t(v)]; }

    /// Archive rows (the leaves of host ▸ provider ▸ version ▸ archive) the view's model shows.
    static QModelIndexList leaves(const QAbstractItemModel *m, const QModelIndex &parent = {})
    {
        QModelIndexList out;
        for (int r = 0; r < m->rowCount(parent); ++r) {
            const QModelIndex i = m->index(r, 0, parent);
            if (i.data(MirrorTreeModel::KindRole).toInt() == MirrorTreeModel::ArchiveNode)
                out.append(i);
            else
                out += leaves(m, i);
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        // Our own cache and settings: nothing from the user's, nothing left behind.
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_tmp.filePath(QStringLiteral("cache"))));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.filePath(QStringLiteral("config"))));
        QCoreApplication::setOrganizationName(QStringLiteral("Provender"));
        QCoreApplication::setApplicationName(QStringLiteral("provender-test"));
        m_demo = m_tmp.filePath(QStringLiteral("demo"));
        QVERIFY(generateDemoMirror(m_demo).ok());
    }

    void emptyStateAndErrors()
    {
        ui::MainWindow w;
        w.resize(1280, 780);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QWidget *empty = child<QWidget>(w, "emptyState");
        QVERIFY(empty);
        QVERIFY(empty->isVisible());
        QVERIFY(!child<QProgressBar>(w, "verifyProgress")->isVisible());
        screenshot(w, "mainwindow-empty.png");

        QSignalSpy failed(&w, &ui::MainWindow::openFailed);
        w.openMirror(m_tmp.filePath(QStringLiteral("no-such-dir")));
        QCOMPARE(failed.size(), 1);
        QLabel *error = child<QLabel>(w, "errorLabel");
        QVERIFY(error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("not a directory")));
        QVERIFY(error->text().contains(QStringLiteral("no-such-dir")));
        QVERIFY(empty->isVisible());
    }

    void demoMirrorLiveVerdicts()
    {
        ui::MainWindow w;
        w.resize(1280, 780);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAbstractItemModelTester tester(w.archiveModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTreeView *view = child<QTreeView>(w, "archiveView");
        QAbstractItemModelTester proxyTester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        w.openMirror(m_demo);
        QVERIFY(child<QProgressBar>(w, "verifyProgress")->isVisible()); // busy while scanning
        QVERIFY(child<QPushButton>(w, "cancelButton")->isVisible());
        QVERIFY(opened.wait(30000));
        QCOMPARE(leaves(view->model()).size(), 28);
        QVERIFY(finished.wait(60000));
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        QVERIFY(!summary.cancelled);
        QCOMPARE(summary.cacheHits, 0);

        QCOMPARE(verdictCount(w, Verdict::Verified), 21);
        QCOMPARE(verdictCount(w, Verdict::Mismatch), 1);
        QCOMPARE(verdictCount(w, Verdict::Unverified), 4);
        QCOMPARE(verdictCount(w, Verdict::Missing), 1);
        QCOMPARE(verdictCount(w, Verdict::Error), 1);
        QCOMPARE(verdictCount(w, Verdict::Pending), 0);
        QVERIFY(!child<QProgressBar>(w, "verifyProgress")->isVisible());
        QVERIFY(!child<QPushButton>(w, "cancelButton")->isVisible());
        QVERIFY(child<QLabel>(w, "summaryLabel")->text().contains(QStringLiteral("<b>21</b>")));
        QCOMPARE(child<QTreeView>(w, "anomalyView")->model()->rowCount(), 2);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("demo")));

        // The filter finds the planted mismatch; selecting it shows the contradicting hash.
        QLineEdit *filter = child<QLineEdit>(w, "filterEdit");
        QTest::keyClicks(filter, QStringLiteral("random 3.6.0 linux_arm64"));
        QTRY_COMPARE(leaves(view->model()).size(), 1);
        QCOMPARE(view->model()->rowCount(), 1); // only the host of that archive stays
        const QModelIndex verdict = leaves(view->model()).constFirst().siblingAtColumn(MirrorTreeModel::VerdictColumn);
        QCOMPARE(verdict.data().toString(), QStringLiteral("mismatch"));
        view->setCurrentIndex(verdict);
        QTextBrowser *details = child<QTextBrowser>(w, "detailsView");
        QVERIFY(details->toPlainText().contains(QStringLiteral("matches nothing")));
        filter->clear();
        QCOMPARE(leaves(view->model()).size(), 28);

        // The verdict filter.
        QComboBox *verdictFilter = child<QComboBox>(w, "verdictFilter");
        verdictFilter->setCurrentIndex(verdictFilter->findText(QStringLiteral("unverified")));
        QCOMPARE(leaves(view->model()).size(), 4);
        verdictFilter->setCurrentIndex(0);
        QCOMPARE(leaves(view->model()).size(), 28);

        // Select the archive with directory entries for the screenshot's details pane.
        for (const QModelIndex &i : leaves(view->model())) {
            if (i.data(MirrorTreeModel::SearchTextRole).toString().contains(QStringLiteral("/null 3.2.2 linux_amd64"))) {
                view->scrollTo(i);
                view->setCurrentIndex(i);
            }
        }
        QVERIFY(details->toPlainText().contains(QStringLiteral("h1 (zip)")));
        screenshot(w, "mainwindow-demo.png");

        // Verify again: a rescan, answered from the hash cache except the corrupt zip.
        finished.clear();
        child<QAction>(w, "actionReverify")->trigger();
        QVERIFY(finished.wait(60000));
        const auto again = finished.at(0).at(0).value<VerifySummary>();
        QCOMPARE(again.cacheHits, 26);
        QCOMPARE(again.hashed, 1);
        QCOMPARE(verdictCount(w, Verdict::Verified), 21);
    }

    void cancelScanKeepsWindowUsable()
    {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        w.openMirror(m_demo);
        QPushButton *cancel = child<QPushButton>(w, "cancelButton");
        QVERIFY(cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(!cancel->isVisible());
        QVERIFY(!opened.wait(1000)); // the scan's result is dropped
        QVERIFY(child<QWidget>(w, "emptyState")->isVisible());
        // ... and a new open works.
        w.openMirror(m_demo);
        QVERIFY(opened.wait(30000));
        QCOMPARE(leaves(child<QTreeView>(w, "archiveView")->model()).size(), 28);
    }

    void cancelVerification()
    {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        w.openMirror(m_demo);
        QVERIFY(opened.wait(30000));
        QPushButton *cancel = child<QPushButton>(w, "cancelButton");
        if (finished.isEmpty() && cancel->isVisible())
            QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(finished.size() == 1 || finished.wait(60000));
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        // Whether the click came before the last archive was hashed or not, the window must
        // agree with the engine: rows still pending exactly when cancelled early.
        QCOMPARE(verdictCount(w, Verdict::Pending), summary.count(Verdict::Pending));
        QVERIFY(!cancel->isVisible());
        if (summary.cancelled)
            QVERIFY(child<QLabel>(w, "statusLabel")->text().contains(QStringLiteral("cancelled")));
    }

    void dropDirectoryOpensIt()
    {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_demo)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QVERIFY(opened.wait(30000));
        QCOMPARE(w.mirrorRoot(), QDir(m_demo).absolutePath());

        // A file is not accepted.
        QMimeData file;
        file.setUrls({QUrl::fromLocalFile(m_demo + QStringLiteral("/.provender-demo-mirror"))});
        QDragEnterEvent enterFile(QPoint(10, 10), Qt::CopyAction, &file, Qt::LeftButton, Qt::NoModifier);
        enterFile.setAccepted(false);
        QApplication::sendEvent(&w, &enterFile);
        QVERIFY(!enterFile.isAccepted());
    }

    void settingsRemembered()
    {
        {
            ui::MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
            w.openMirror(m_demo);
            QVERIFY(opened.wait(30000));
            w.resize(900, 640);
            w.close();
        }
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("lastDirectory")).toString(), QDir(m_demo).absolutePath());
        QVERIFY(!settings.value(QStringLiteral("mainWindow/geometry")).toByteArray().isEmpty());
        ui::MainWindow again;
        QCOMPARE(again.size(), QSize(900, 640));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
