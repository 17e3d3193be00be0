// ui/JobTracker: the one way the GUI runs background work. Workers here block on semaphores the
// test releases, so the order of events is the test's, not the scheduler's.

#include "ui/JobTracker.h"

#include <QEventLoop>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

using namespace provender;
using namespace provender::ui;

class TestJobTracker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void latestRunWins()
    {
        JobTracker tracker;
        QSignalSpy finished(&tracker, &JobTracker::finished);
        QSemaphore releaseFirst, releaseSecond;
        QList<int> delivered;
        // A "scan" job that returns `value` once `release` is released; delivered results are kept.
        auto blockedScan = [&](const QString &description, QSemaphore &release, int value) {
            return tracker.run(
                QStringLiteral("scan"), description,
                [&release, value](JobProgress &) {
                    release.acquire();
                    return value;
                },
                [&delivered](int v) { delivered.append(v); });
        };
        auto first = blockedScan(QStringLiteral("Scanning A…"), releaseFirst, 1);
        auto second = blockedScan(QStringLiteral("Scanning B…"), releaseSecond, 2);
        QVERIFY(first->isCancelled()); // the older run is told to stop
        QVERIFY(!second->isCancelled());
        QCOMPARE(tracker.currentDescription(), QStringLiteral("Scanning B…"));
        // The superseded run ends *last*: its result must still be dropped.
        releaseSecond.release();
        QTRY_COMPARE(delivered, QList<int>{2});
        releaseFirst.release();
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(delivered, QList<int>{2});
        QCOMPARE(finished.size(), 1); // one finish, for the run that counted
        QVERIFY(!tracker.isBusy());
    }

    void cancelReachesWorkerAndStatus()
    {
        JobTracker tracker;
        QLabel label;
        QProgressBar bar;
        QPushButton cancel;
        tracker.bindStatus(&label, &bar, &cancel);
        QVERIFY(bar.isHidden() && cancel.isHidden());
        QSemaphore running;
        bool delivered = false;
        bool sawCancel = false;
        tracker.run(
            QStringLiteral("hash"), QStringLiteral("Hashing 3 archives…"),
            [&running](JobProgress &job) {
                job.report(10, 100);
                running.release();
                while (!job.isCancelled())
                    QThread::yieldCurrentThread();
                return Result<int>(makeError(ErrorCode::Cancelled, QStringLiteral("stopped")));
            },
            [&](Result<int> r) {
                delivered = true;
                sawCancel = !r.ok() && r.error().code == ErrorCode::Cancelled;
            });
        QCOMPARE(label.text(), QStringLiteral("Hashing 3 archives…"));
        QVERIFY(!bar.isHidden() && !cancel.isHidden() && cancel.isEnabled());
        running.acquire();
        // Progress is polled from the JobProgress, not signalled by the worker.
        QTRY_COMPARE(bar.maximum(), 1000);
        QCOMPARE(bar.value(), 100);
        QTest::mouseClick(&cancel, Qt::LeftButton); // the Cancel button cancels the current job
        QTRY_VERIFY(delivered);
        QVERIFY(sawCancel);
        QCOMPARE(label.text(), QStringLiteral("Hashing 3 archives cancelled."));
        QVERIFY(bar.isHidden() && cancel.isHidden());
    }

    void errorReachesStatusBar()
    {
        JobTracker tracker;
        QLabel label;
        tracker.bindStatus(&label, nullptr, nullptr);
        QSignalSpy errors(&tracker, &JobTracker::errorOccurred);
        QString seenInDone;
        tracker.run(
            QStringLiteral("open"), QStringLiteral("Opening…"),
            [](JobProgress &) { return Result<QString>(makeError(ErrorCode::Io, QStringLiteral("/m: permission denied"))); },
            [&](const Result<QString> &r) { seenInDone = r.error().message; });
        QTRY_COMPARE(errors.size(), 1);
        QCOMPARE(errors.at(0).at(0).toString(), QStringLiteral("open"));
        QCOMPARE(errors.at(0).at(1).toString(), QStringLiteral("/m: permission denied"));
        QCOMPARE(label.text(), QStringLiteral("/m: permission denied"));
        QCOMPARE(seenInDone, QStringLiteral("/m: permission denied")); // the caller still gets the result
        QVERIFY(!tracker.isBusy());
    }

    void externalJobs()
    {
        JobTracker tracker;
        QLabel label;
        QProgressBar bar;
        tracker.bindStatus(&label, &bar, nullptr);
        int cancels = 0;
        auto first = tracker.begin(QStringLiteral("verify"), QStringLiteral("Verifying…"), [&cancels] { ++cancels; });
        first->report(5, 50);
        QTRY_COMPARE(bar.value(), 100);
        // A second run under the same name cancels the first, whose end is then ignored.
        auto second = tracker.begin(QStringLiteral("verify"), QStringLiteral("Verifying again…"), [&cancels] { ++cancels; });
        QCOMPARE(cancels, 1);
        QVERIFY(first->isCancelled());
        tracker.end(first, QStringLiteral("stale"));
        QVERIFY(tracker.isRunning(QStringLiteral("verify")));
        QCOMPARE(label.text(), QStringLiteral("Verifying again…"));
        tracker.cancel(QStringLiteral("verify"));
        QCOMPARE(cancels, 2);
        tracker.end(second, QStringLiteral("Verified 4 archives."));
        QCOMPARE(label.text(), QStringLiteral("Verified 4 archives."));
        QVERIFY(!tracker.isBusy());
        QVERIFY(bar.isHidden());

        auto third = tracker.begin(QStringLiteral("remote"), QStringLiteral("Fetching…"));
        tracker.fail(third, QStringLiteral("cannot connect"));
        QCOMPARE(label.text(), QStringLiteral("cannot connect"));
    }

    void twoNamesRunSideBySide()
    {
        JobTracker tracker;
        QSemaphore a, b;
        QStringList order;
        tracker.run(
            QStringLiteral("a"), QStringLiteral("A…"), [&a](JobProgress &) { a.acquire(); }, [&order] { order << QStringLiteral("a"); });
        tracker.run(
            QStringLiteral("b"), QStringLiteral("B…"), [&b](JobProgress &) { b.acquire(); }, [&order] { order << QStringLiteral("b"); });
        QCOMPARE(tracker.currentName(), QStringLiteral("b"));
        b.release();
        QTRY_COMPARE(order, QStringList{QStringLiteral("b")});
        QCOMPARE(tracker.currentName(), QStringLiteral("a"));
        a.release();
        QTRY_COMPARE(order, (QStringList{QStringLiteral("b"), QStringLiteral("a")}));
    }

    void noDeliveryAfterTheTrackerIsGone()
    {
        QSemaphore release;
        bool delivered = false;
        std::shared_ptr<JobProgress> job;
        {
            JobTracker tracker;
            job = tracker.run(
                QStringLiteral("x"), QStringLiteral("X…"),
                [&release](JobProgress &) {
                    release.acquire();
                    return 7;
                },
                [&delivered](int) { delivered = true; });
        }
        QVERIFY(job->isCancelled()); // the window closed: its work is told to stop
        release.release();
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }

    void clearCancelsOnceAndForgets()
    {
        // What a window's destructor does while the engines its onCancel callbacks use still exist.
        int cancels = 0;
        {
            JobTracker tracker;
            auto job = tracker.begin(QStringLiteral("verify"), QStringLiteral("Verifying…"), [&cancels] { ++cancels; });
            tracker.clear();
            QCOMPARE(cancels, 1);
            QVERIFY(job->isCancelled());
            QVERIFY(!tracker.isBusy());
            tracker.end(job, QStringLiteral("late")); // the engine's late end is ignored
        }
        QCOMPARE(cancels, 1); // the destructor has nothing left to cancel
    }

    /// The end of the application: a job that waits in an event loop of its own until its
    /// JobProgress is cancelled (as a download's HttpRunner does) on a tracker nobody deleted (a
    /// window closed but not yet destroyed) ends, and the pool is idle afterwards. Without the
    /// cancel, waitForDone would wait for ever (the suite's timeout).
    void stopEverythingEndsEventLoopJobs()
    {
        auto *tracker = new JobTracker; // like a closed window's: never deleted before the end
        std::shared_ptr<JobProgress> job = tracker->run(
            QStringLiteral("download"), QStringLiteral("Downloading…"),
            [](JobProgress &progress) {
                QEventLoop loop;
                QTimer poll;
                QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
                    if (progress.isCancelled())
                        loop.quit();
                });
                poll.start(20);
                loop.exec();
                return 1;
            },
            [](int) {});
        QTest::qWait(50); // the work has started its loop
        JobTracker::stopEverything();
        QVERIFY(job->isCancelled());
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
        delete tracker;
    }

    void dropForgetsAJob()
    {
        JobTracker tracker;
        QSemaphore release;
        bool delivered = false;
        tracker.run(
            QStringLiteral("x"), QStringLiteral("X…"),
            [&release](JobProgress &) {
                release.acquire();
                return 1;
            },
            [&delivered](int) { delivered = true; });
        tracker.drop(QStringLiteral("x"));
        QVERIFY(!tracker.isBusy());
        release.release();
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::processEvents();
        QVERIFY(!delivered);
    }
};

QTEST_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
