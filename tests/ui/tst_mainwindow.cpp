// The main window on the demo mirror, driven through objectNames. Expected verdict counts are those
// planted by the demo mirror (model/mirror/DemoMirror.h), counted by hand.
//
// Set PROVENDER_SCREENSHOT_DIR to also save PNGs of the window (empty state and demo mirror).

#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleWriter.h"
#include "model/items/AnomalyListModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/MainWindowSupport.h"
#include "tests/support/TestSupport.h"
#include "tests/support/TreeRows.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/lock/MirrorScan.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>

using namespace provender;

/// Receives QDesktopServices::openUrl("file:...") instead of a real file manager.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl &url) { urls.append(url); }
};

class TestMainWindow : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_demo;

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

    static QModelIndex leafMatching(const QAbstractItemModel *m, const QString &searchText)
    {
        for (const QModelIndex &i : test::archiveRows(m))
            if (i.data(MirrorTreeModel::SearchTextRole).toString().contains(searchText))
                return i;
        return {};
    }

    /// h1: of the files of a zip as Go's dirhash.Hash1 computes it, by python3 (independent of our code).
    static QString pythonH1(const QString &zip)
    {
        const QString py = provender::test::python3();
        if (py.isEmpty())
            return {};
        QProcess p;
        p.start(py,
                {QStringLiteral("-c"),
                 QStringLiteral("import zipfile,hashlib,base64,sys\n"
                                "z=zipfile.ZipFile(sys.argv[1])\n"
                                "fs=sorted((i.filename,hashlib.sha256(z.read(i)).hexdigest()) for i in z.infolist() if not i.is_dir())\n"
                                "s=''.join('%s  %s\\n'%(h,n) for n,h in fs)\n"
                                "print('h1:'+base64.b64encode(hashlib.sha256(s.encode()).digest()).decode())\n"),
                 zip});
        p.waitForFinished(30000);
        return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    }

    /// Open the demo mirror in `w` and wait until verification has finished.

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
        QVERIFY(test::showExposed(w, {1280, 780}));
        QWidget *empty = test::child<QWidget>(w, "emptyState");
        QVERIFY(empty);
        QVERIFY(empty->isVisible());
        QVERIFY(!test::child<QProgressBar>(w, "verifyProgress")->isVisible());
        screenshot(w, "mainwindow-empty.png");

        QSignalSpy failed(&w, &ui::MainWindow::openFailed);
        w.openMirror(m_tmp.filePath(QStringLiteral("no-such-dir")));
        QCOMPARE(failed.size(), 1);
        QLabel *error = test::child<QLabel>(w, "errorLabel");
        QVERIFY(error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("not a directory")));
        QVERIFY(error->text().contains(QStringLiteral("no-such-dir")));
        QVERIFY(empty->isVisible());
    }

    void demoMirrorLiveVerdicts()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w, {1280, 780}));
        QAbstractItemModelTester tester(w.archiveModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        QAbstractItemModelTester proxyTester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        w.openMirror(m_demo);
        QVERIFY(test::child<QProgressBar>(w, "verifyProgress")->isVisible()); // busy while scanning
        QVERIFY(test::child<QPushButton>(w, "cancelButton")->isVisible());
        QVERIFY(opened.wait(30000));
        QCOMPARE(test::archiveRows(view->model()).size(), 28);
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
        QVERIFY(!test::child<QProgressBar>(w, "verifyProgress")->isVisible());
        QVERIFY(!test::child<QPushButton>(w, "cancelButton")->isVisible());
        // The status bar's badges: count and name per verdict (DemoMirror.h: 21/1/4/1/1).
        const QList<std::pair<const char *, int>> badges{
            {"badge-verified", 21}, {"badge-mismatch", 1}, {"badge-unverified", 4}, {"badge-missing", 1}, {"badge-error", 1}};
        for (const auto &[name, n] : badges) {
            QLabel *badge = test::child<QLabel>(w, name);
            QVERIFY2(badge && badge->isVisible(), name);
            QVERIFY2(badge->text().contains(QStringLiteral("<b>%1</b>").arg(n)), qPrintable(badge->text()));
            QVERIFY(!badge->toolTip().isEmpty());
        }
        QVERIFY(!test::child<QLabel>(w, "badge-pending")->isVisible());
        QVERIFY(test::child<QLabel>(w, "summaryLabel")->text().contains(QStringLiteral("28 archives")));
        QCOMPARE(test::child<QTreeView>(w, "anomalyView")->model()->rowCount(), 2);
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("demo")));

        // The filter finds the planted mismatch; selecting it shows the contradicting hash.
        QLineEdit *filter = test::child<QLineEdit>(w, "filterEdit");
        QTest::keyClicks(filter, QStringLiteral("random 3.6.0 linux_arm64"));
        QTRY_COMPARE(test::archiveRows(view->model()).size(), 1);
        QCOMPARE(view->model()->rowCount(), 1); // only the host of that archive stays
        const QModelIndex verdict = test::archiveRows(view->model()).constFirst().siblingAtColumn(MirrorTreeModel::VerdictColumn);
        QCOMPARE(verdict.data().toString(), QStringLiteral("mismatch"));
        view->setCurrentIndex(verdict);
        QTextBrowser *details = test::child<QTextBrowser>(w, "detailsView");
        const QString mismatchText = details->toPlainText();
        QVERIFY2(mismatchText.contains(QStringLiteral("✘ matches nothing computed")), qPrintable(mismatchText));
        QVERIFY(mismatchText.contains(QStringLiteral("terraform-provider-random_3.6.0_linux_arm64.zip")));
        // The computed h1: shown equals python's dirhash of the same zip.
        const QString zipPath = verdict.data(MirrorTreeModel::PathRole).toString();
        const QString h1 = pythonH1(zipPath);
        if (!h1.isEmpty())
            QVERIFY2(mismatchText.contains(h1), qPrintable(h1));
        QVERIFY(mismatchText.contains(QStringLiteral("h1 (zip)")));
        QVERIFY(mismatchText.contains(QStringLiteral("zh")));
        QVERIFY(test::child<QToolButton>(w, "copyHashButton")->isEnabled());
        QTest::mouseClick(test::child<QToolButton>(w, "copyHashButton"), Qt::LeftButton);
        if (!h1.isEmpty())
            QCOMPARE(QApplication::clipboard()->text(), h1);
        filter->clear();
        QCOMPARE(test::archiveRows(view->model()).size(), 28);

        // The verdict filter.
        QComboBox *verdictFilter = test::child<QComboBox>(w, "verdictFilter");
        verdictFilter->setCurrentIndex(verdictFilter->findText(QStringLiteral("unverified")));
        QCOMPARE(test::archiveRows(view->model()).size(), 4);
        verdictFilter->setCurrentIndex(0);
        QCOMPARE(test::archiveRows(view->model()).size(), 28);

        // Select the archive with directory entries for the screenshot's details pane.
        for (const QModelIndex &i : test::archiveRows(view->model())) {
            if (i.data(MirrorTreeModel::SearchTextRole).toString().contains(QStringLiteral("/null 3.2.2 linux_amd64"))) {
                view->scrollTo(i);
                view->setCurrentIndex(i);
            }
        }
        // DemoMirror.h: null 3.2.2's index holds the zip-level h1: (its zips have directory entries).
        QVERIFY2(details->toPlainText().contains(QStringLiteral("✔ matches h1 (zip)")), qPrintable(details->toPlainText()));
        screenshot(w, "mainwindow-demo.png");

        // Verify again: a rescan, answered from the hash cache except the corrupt zip.
        finished.clear();
        test::child<QAction>(w, "actionReverify")->trigger();
        QVERIFY(finished.wait(60000));
        const auto again = finished.at(0).at(0).value<VerifySummary>();
        QCOMPARE(again.cacheHits, 26);
        QCOMPARE(again.hashed, 1);
        QCOMPARE(verdictCount(w, Verdict::Verified), 21);
    }

    /// The trust anchor in the details pane and the tooltip: the mirror's own index first; after
    /// "Check against Lock Files…" the lock file by path for the archive it vouches for, and "no
    /// lock file given covers" for the others.
    void anchorInDetailsAndTooltip()
    {
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("it computes the lock file's hash"));
        ui::MainWindow w;
        QVERIFY(test::showExposed(w, {1280, 780}));
        QVERIFY(test::openAndVerify(w, m_demo));
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        QTextBrowser *details = test::child<QTextBrowser>(w, "detailsView");
        QModelIndex target, other;
        for (const QModelIndex &i : test::archiveRows(view->model())) {
            const QString text = i.data(MirrorTreeModel::SearchTextRole).toString();
            if (text.contains(QStringLiteral("/null 3.2.2 linux_amd64")))
                target = i;
            else if (!other.isValid() && i.siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString() == QLatin1String("verified"))
                other = i;
        }
        QVERIFY(target.isValid() && other.isValid());
        view->setCurrentIndex(target);
        QVERIFY2(details->toPlainText().contains(QStringLiteral("Anchor")), qPrintable(details->toPlainText()));
        QVERIFY2(details->toPlainText().contains(QStringLiteral("consistent with its own index")), qPrintable(details->toPlainText()));
        QVERIFY(target.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Checked against: consistent with its own index")));

        // A reviewed lock with the zip's zh: (SHA-256 by python) for null 3.2.2.
        const QString zip = target.data(MirrorTreeModel::PathRole).toString();
        QProcess p;
        p.start(provender::test::python3(),
                {QStringLiteral("-c"),
                 QStringLiteral("import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())"), zip});
        QVERIFY(p.waitForFinished(30000));
        const QString zh = QStringLiteral("zh:") + QString::fromUtf8(p.readAllStandardOutput()).trimmed();
        const QString address = target.data(MirrorTreeModel::SearchTextRole).toString().section(u' ', 0, 0);
        const QString lock = m_tmp.filePath(QStringLiteral("reviewed.lock.hcl"));
        {
            QFile f(lock);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                QStringLiteral("provider \"%1\" {\n  version = \"3.2.2\"\n  hashes = [\n    \"%2\",\n  ]\n}\n").arg(address, zh).toUtf8());
        }
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        QVERIFY(test::child<QAction>(w, "actionCheckLocks")->isEnabled());
        w.checkAgainstLockFiles({lock});
        QVERIFY(finished.wait(60000));
        QVERIFY(test::child<QAction>(w, "actionClearLocks")->isEnabled());
        view->setCurrentIndex(QModelIndex());
        view->setCurrentIndex(target);
        QVERIFY2(details->toPlainText().contains(QStringLiteral("lock file ") + lock), qPrintable(details->toPlainText()));
        QCOMPARE(target.siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString(), QStringLiteral("verified"));
        QVERIFY(target.data(Qt::ToolTipRole).toString().contains(QStringLiteral("lock file ") + lock));
        view->setCurrentIndex(other);
        QVERIFY2(details->toPlainText().contains(QStringLiteral("no lock file given covers this provider version")),
                 qPrintable(details->toPlainText()));
        // And back: not checking against lock files any more.
        finished.clear();
        test::child<QAction>(w, "actionClearLocks")->trigger();
        QVERIFY(finished.wait(60000));
        view->setCurrentIndex(QModelIndex());
        view->setCurrentIndex(target);
        QVERIFY(details->toPlainText().contains(QStringLiteral("consistent with its own index")));
        QVERIFY(!details->toPlainText().contains(lock));
    }

    void cancelScanKeepsWindowUsable()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        w.openMirror(m_demo);
        QPushButton *cancel = test::child<QPushButton>(w, "cancelButton");
        QVERIFY(cancel->isVisible());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(!cancel->isVisible());
        QVERIFY(!opened.wait(1000)); // the scan's result is dropped
        QVERIFY(test::child<QWidget>(w, "emptyState")->isVisible());
        // ... and a new open works.
        w.openMirror(m_demo);
        QVERIFY(opened.wait(30000));
        QCOMPARE(test::archiveRows(test::child<QTreeView>(w, "archiveView")->model()).size(), 28);
    }

    void cancelVerification()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        w.openMirror(m_demo);
        QVERIFY(opened.wait(30000));
        QPushButton *cancel = test::child<QPushButton>(w, "cancelButton");
        if (finished.isEmpty() && cancel->isVisible())
            QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(finished.size() == 1 || finished.wait(60000));
        const auto summary = finished.at(0).at(0).value<VerifySummary>();
        // Whether the click came before the last archive was hashed or not, the window must
        // agree with the engine: rows still pending exactly when cancelled early.
        QCOMPARE(verdictCount(w, Verdict::Pending), summary.count(Verdict::Pending));
        QVERIFY(!cancel->isVisible());
        if (summary.cancelled)
            QVERIFY(test::child<QLabel>(w, "statusLabel")->text().contains(QStringLiteral("cancelled")));
    }

    void dropDirectoryOpensIt()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QVERIFY(test::dropUrls(w, {QUrl::fromLocalFile(m_demo)}));
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

    // A filter that matches more than MainWindow::kExpandAllMatches archives opens hosts and
    // providers only (and says how many match); a narrower one opens every version; clearing the
    // filter goes back to the overview with the current archive still shown.
    void filterExpansionAndClear()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString provider = dir.path() + QStringLiteral("/example.com/acme/big");
        QVERIFY(QDir().mkpath(provider));
        const QByteArray emptyZip = QByteArray("PK\x05\x06", 4) + QByteArray(18, '\0');
        const QStringList platforms{QStringLiteral("linux_amd64"),   QStringLiteral("linux_arm64"),   QStringLiteral("darwin_amd64"),
                                    QStringLiteral("darwin_arm64"),  QStringLiteral("windows_amd64"), QStringLiteral("windows_386"),
                                    QStringLiteral("freebsd_amd64"), QStringLiteral("freebsd_386"),   QStringLiteral("linux_386"),
                                    QStringLiteral("openbsd_amd64")};
        const int versions = ui::MainWindow::kExpandAllMatches / 10 + 20;
        for (int v = 0; v < versions; ++v)
            for (const QString &platform : platforms) {
                QFile f(QStringLiteral("%1/terraform-provider-big_1.0.%2_%3.zip").arg(provider).arg(v).arg(platform));
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(emptyZip);
            }
        const int archives = versions * int(platforms.size());

        ui::MainWindow w;
        QVERIFY(test::showExposed(w, {1000, 700}));
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        w.openMirror(dir.path());
        QVERIFY(finished.wait(120000));
        auto *view = test::child<QTreeView>(w, "archiveView");
        auto *filter = test::child<QLineEdit>(w, "filterEdit");
        auto *summary = test::child<QLabel>(w, "summaryLabel");
        const QAbstractItemModel *m = view->model();
        const auto providerRow = [&] { return m->index(0, 0, m->index(0, 0)); };

        filter->setText(QStringLiteral("acme/big")); // every archive
        QCOMPARE(test::archiveRows(m).size(), archives);
        QVERIFY(view->isExpanded(m->index(0, 0)));
        QVERIFY(view->isExpanded(providerRow()));
        QCOMPARE(m->rowCount(providerRow()), versions);
        for (int r = 0; r < versions; ++r)
            QVERIFY2(!view->isExpanded(m->index(r, 0, providerRow())), "a version is open although the filter matches everything");
        QVERIFY2(summary->text().contains(QStringLiteral("%1 shown by the filter").arg(archives)), qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QStringLiteral("expand a version")));
        screenshot(w, "filter-many-matches.png");
        // What the user opens stays open while the filter stays the same (a space typed).
        view->expand(m->index(3, 0, providerRow()));
        filter->setText(QStringLiteral("acme/big "));
        QVERIFY(view->isExpanded(m->index(3, 0, providerRow())));

        filter->setText(QStringLiteral("1.0.1")); // 1.0.1, 1.0.10–19, 1.0.100–199: 111 versions
        QCOMPARE(m->rowCount(providerRow()), 111);
        for (int r = 0; r < m->rowCount(providerRow()); ++r)
            QVERIFY(view->isExpanded(m->index(r, 0, providerRow())));
        QVERIFY(summary->text().contains(QStringLiteral("%1 shown by the filter").arg(1110)));
        QVERIFY(!summary->text().contains(QStringLiteral("expand a version")));

        // The current archive under the filter: 1.0.150 darwin_arm64.
        QModelIndex version;
        for (int r = 0; r < m->rowCount(providerRow()); ++r)
            if (m->index(r, 0, providerRow()).data().toString() == QStringLiteral("1.0.150"))
                version = m->index(r, 0, providerRow());
        QVERIFY(version.isValid());
        QModelIndex archive;
        for (int r = 0; r < m->rowCount(version); ++r)
            if (m->index(r, 0, version).data().toString() == QStringLiteral("darwin_arm64"))
                archive = m->index(r, 0, version);
        QVERIFY(archive.isValid());
        test::selectRow(view, archive);

        filter->clear();
        QCOMPARE(test::archiveRows(m).size(), archives);
        QVERIFY(!summary->text().contains(QStringLiteral("shown by the filter")));
        const QModelIndex current = view->currentIndex();
        QCOMPARE(current.data().toString(), QStringLiteral("darwin_arm64"));
        QCOMPARE(current.parent().data().toString(), QStringLiteral("1.0.150"));
        QVERIFY(view->isExpanded(current.parent()));
        QVERIFY(view->isExpanded(providerRow()));
        int open = 0;
        for (int r = 0; r < m->rowCount(providerRow()); ++r)
            open += view->isExpanded(m->index(r, 0, providerRow())) ? 1 : 0;
        QCOMPARE(open, 1); // only the current archive's version
        QVERIFY(view->visualRect(current).isValid() && view->viewport()->rect().intersects(view->visualRect(current)));

        // A platform filter the next mirror has no archive for is dropped when it opens: the
        // summary no longer counts filter matches and the tree is the overview.
        auto *platformBox = test::child<QComboBox>(w, "platformFilter");
        platformBox->setCurrentIndex(platformBox->findData(QStringLiteral("openbsd_amd64")));
        QVERIFY(platformBox->currentIndex() > 0);
        QVERIFY(summary->text().contains(QStringLiteral("%1 shown by the filter").arg(versions)));
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        w.openMirror(m_demo);
        QVERIFY(opened.wait(30000));
        QCOMPARE(platformBox->currentIndex(), 0);
        QVERIFY2(!summary->text().contains(QStringLiteral("shown by the filter")), qPrintable(summary->text()));
    }

    void settingsRemembered()
    {
        {
            ui::MainWindow w;
            QVERIFY(test::showExposed(w));
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

    void rescanKeepsSelectionAndExpansion()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        QAbstractItemModelTester tester(w.archiveModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(test::openAndVerify(w, m_demo));
        const QModelIndex leaf = leafMatching(view->model(), QStringLiteral("/null 3.2.2 darwin_arm64"));
        QVERIFY(leaf.isValid());
        test::selectRow(view, leaf);
        const QPersistentModelIndex version = leaf.parent();
        QVERIFY(view->isExpanded(version));

        // Something changes on disk: a new platform file appears in null 3.2.2 (unindexed ->
        // unverified) — the rescan merges it in; selection and expansion stay.
        const QString zip = leaf.data(MirrorTreeModel::PathRole).toString();
        const QString added = QFileInfo(zip).absolutePath() + QStringLiteral("/terraform-provider-null_3.2.2_openbsd_amd64.zip");
        QVERIFY(QFile::copy(zip, added));
        QSignalSpy reset(w.archiveModel(), &QAbstractItemModel::modelReset);
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        QTest::keyClick(view, Qt::Key_F5);
        QVERIFY(finished.wait(60000));
        QCOMPARE(reset.size(), 0);
        QCOMPARE(test::archiveRows(view->model()).size(), 29);
        QCOMPARE(verdictCount(w, Verdict::Unverified), 5);
        QVERIFY(version.isValid());
        QVERIFY(view->isExpanded(version));
        QVERIFY(view->currentIndex().isValid());
        QVERIFY(view->currentIndex()
                    .siblingAtColumn(0)
                    .data(MirrorTreeModel::SearchTextRole)
                    .toString()
                    .contains(QStringLiteral("/null 3.2.2 darwin_arm64")));
        QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), view->currentIndex().parent()));
        QVERIFY(QFile::remove(added));
    }

    void anomalySelectsRow()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QVERIFY(test::openAndVerify(w, m_demo));
        QTreeView *anomalies = test::child<QTreeView>(w, "anomalyView");
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        QVERIFY(anomalies->model()->rowCount() > 0);
        // A filter that hides everything: revealing an anomaly's row clears it.
        test::child<QLineEdit>(w, "filterEdit")->setText(QStringLiteral("no-such-provider"));
        QCOMPARE(test::archiveRows(view->model()).size(), 0);
        for (int r = 0; r < anomalies->model()->rowCount(); ++r) {
            const QModelIndex a = anomalies->model()->index(r, 0);
            const QString path = a.data(AnomalyListModel::PathRole).toString();
            QVERIFY(!path.isEmpty());
            w.revealAnomaly(a);
            const QModelIndex current = view->currentIndex();
            QVERIFY2(current.isValid(), qPrintable(path));
            // The selected row is the archive itself (the unindexed freebsd zip) or its version
            // (the index entry for the deleted windows zip): its name occurs in the anomaly's file.
            const QString row = current.siblingAtColumn(0).data().toString();
            QVERIFY2(QFileInfo(path).fileName().contains(row), qPrintable(row + QStringLiteral(" / ") + path));
            for (QModelIndex p = current.parent(); p.isValid(); p = p.parent())
                QVERIFY(view->isExpanded(p));
            QVERIFY(test::child<QTextBrowser>(w, "detailsView")
                        ->toPlainText()
                        .contains(a.siblingAtColumn(AnomalyListModel::MessageColumn).data().toString()));
        }
        QVERIFY(test::child<QLineEdit>(w, "filterEdit")->text().isEmpty());
    }

    void keyboardMenusAndActions()
    {
        ui::MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(test::openAndVerify(w, m_demo));
        QTreeView *view = test::child<QTreeView>(w, "archiveView");

        // Ctrl+F focuses the filter.
        view->setFocus();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(test::child<QLineEdit>(w, "filterEdit")->hasFocus());

        // The context menu offers verify, copy hash, copy path, show in file manager.
        auto *menu = w.findChild<QMenu *>(QStringLiteral("rowContextMenu"));
        QVERIFY(menu);
        QStringList names;
        for (QAction *a : menu->actions())
            if (!a->isSeparator())
                names.append(a->objectName());
        QCOMPARE(names,
                 (QStringList{QStringLiteral("actionVerifyArchive"), QStringLiteral("actionCopyHash"), QStringLiteral("actionCopyPath"),
                              QStringLiteral("actionShowInFolder")}));
        // Standard shortcuts.
        QCOMPARE(test::child<QAction>(w, "actionOpen")->shortcut(), QKeySequence(QKeySequence::Open));
        QCOMPARE(test::child<QAction>(w, "actionFind")->shortcut(), QKeySequence(QKeySequence::Find));
        QCOMPARE(test::child<QAction>(w, "actionCopy")->shortcut(), QKeySequence(QKeySequence::Copy));
        QCOMPARE(test::child<QAction>(w, "actionQuit")->shortcut(), QKeySequence(QKeySequence::Quit));
        QVERIFY(test::child<QAction>(w, "actionReverify")->shortcuts().contains(QKeySequence(Qt::Key_F5)));

        // Ctrl+C on an archive copies its h1: (python's dirhash of the zip).
        const QModelIndex leaf = leafMatching(view->model(), QStringLiteral("/random 3.5.1 linux_amd64"));
        QVERIFY(leaf.isValid());
        test::selectRow(view, leaf);
        view->setFocus();
        QApplication::clipboard()->clear();
        QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
        const QString zip = leaf.data(MirrorTreeModel::PathRole).toString();
        if (const QString h1 = pythonH1(zip); !h1.isEmpty())
            QCOMPARE(QApplication::clipboard()->text(), h1);
        else
            QVERIFY(QApplication::clipboard()->text().startsWith(QStringLiteral("h1:")));
        test::child<QAction>(w, "actionCopyPath")->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QDir::toNativeSeparators(zip));

        // Show in file manager opens the folder holding the zip.
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
        QTest::mouseClick(test::child<QToolButton>(w, "showInFolderButton"), Qt::LeftButton);
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        QCOMPARE(catcher.urls.size(), 1);
        QCOMPARE(catcher.urls.constFirst(), QUrl::fromLocalFile(QFileInfo(zip).absolutePath()));

        // Re-verify this archive: hashed again (not from the cache), same verdict.
        QVERIFY(test::child<QToolButton>(w, "reverifyArchiveButton")->isEnabled());
        QTest::mouseClick(test::child<QToolButton>(w, "reverifyArchiveButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(test::child<QLabel>(w, "statusLabel")->text().startsWith(QStringLiteral("Re-verified")), 30000);
        QCOMPARE(view->currentIndex().siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString(), QStringLiteral("verified"));
        QVERIFY(!test::child<QTextBrowser>(w, "detailsView")->toPlainText().contains(QStringLiteral("hash cache")));
    }

    void platformFilter()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QVERIFY(test::openAndVerify(w, m_demo));
        // Expected: what is on disk for linux_arm64 (zips named *_linux_arm64.zip, unpacked
        // directories named linux_arm64), counted by walking the directory, not by our scanner.
        int onDisk = 0;
        QDirIterator it(m_demo, QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo f(it.next());
            if ((f.isFile() && f.fileName().endsWith(QStringLiteral("_linux_arm64.zip")))
                || (f.isDir() && f.fileName() == QStringLiteral("linux_arm64")))
                ++onDisk;
        }
        QVERIFY(onDisk > 0);
        QComboBox *platforms = test::child<QComboBox>(w, "platformFilter");
        const int i = platforms->findText(QStringLiteral("linux_arm64"));
        QVERIFY(i > 0);
        QVERIFY(platforms->findText(QStringLiteral("windows_amd64")) > 0);
        platforms->setCurrentIndex(i);
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        QCOMPARE(test::archiveRows(view->model()).size(), onDisk);
        for (const QModelIndex &l : test::archiveRows(view->model()))
            QCOMPARE(l.siblingAtColumn(MirrorTreeModel::PlatformsColumn).data().toString(), QStringLiteral("linux_arm64"));
        // Combined with the verdict filter: the planted mismatch is random 3.6.0 linux_arm64.
        QComboBox *verdicts = test::child<QComboBox>(w, "verdictFilter");
        verdicts->setCurrentIndex(verdicts->findText(QStringLiteral("mismatch")));
        QCOMPARE(test::archiveRows(view->model()).size(), 1);
        platforms->setCurrentIndex(0);
        verdicts->setCurrentIndex(0);
        QCOMPARE(test::archiveRows(view->model()).size(), 28);
    }

    void bundleOpensLikeADirectory()
    {
        // A bundle of the demo mirror's archives that createBundle accepts (it refuses the
        // mismatching and the corrupt one), written by the same code as `provender bundle create`.
        const Result<Catalog> catalog = scanFileSystemMirror(m_demo);
        QVERIFY(catalog.ok());
        BundleSelection selection = selectAll(catalog.value());
        const auto refused = [](const BundleItem &item) {
            const QString name = QFileInfo(item.archive.path).fileName();
            return name == QStringLiteral("terraform-provider-random_3.6.0_linux_arm64.zip")
                || name == QStringLiteral("terraform-provider-widgets_1.1.0_windows_amd64.zip");
        };
        selection.items.erase(std::remove_if(selection.items.begin(), selection.items.end(), refused), selection.items.end());
        const int expected = int(selection.items.size());
        QVERIFY(expected > 20);
        const QString bundle = m_tmp.filePath(QStringLiteral("demo.tar.gz"));
        BundleCreateOptions options;
        options.cacheFile = m_tmp.filePath(QStringLiteral("bundle-cache.sqlite"));
        const auto created = createBundle(bundle, selection, options);
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().message));

        ui::MainWindow w;
        QVERIFY(test::showExposed(w));
        QAbstractItemModelTester tester(w.archiveModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Dropping the file opens it.
        QSignalSpy finished(&w, &ui::MainWindow::verificationFinished);
        QVERIFY(test::dropUrls(w, {QUrl::fromLocalFile(bundle)}));
        QVERIFY(finished.wait(60000));
        QCOMPARE(w.mirrorRoot(), bundle);
        QCOMPARE(w.archiveModel()->archiveCount(), expected);
        // Every archive was hashed at creation and the bundle's indexes were written from those
        // hashes: all verify, none pending (no VerifyEngine ran on entry paths).
        QCOMPARE(verdictCount(w, Verdict::Verified), expected);
        QCOMPARE(verdictCount(w, Verdict::Pending), 0);
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        const QModelIndex leaf = leafMatching(view->model(), QStringLiteral("/random 3.5.1 linux_amd64"));
        QVERIFY(leaf.isValid());
        test::selectRow(view, leaf);
        QVERIFY(test::child<QTextBrowser>(w, "detailsView")->toPlainText().contains(bundle + QStringLiteral("!/")));
        // Re-verify reads the member again through the bundle (one more pass over the container).
        QToolButton *reverify = test::child<QToolButton>(w, "reverifyArchiveButton");
        QVERIFY(reverify->isEnabled());
        QVERIFY(!test::child<QToolButton>(w, "showInFolderButton")->isHidden()); // the bundle file's folder
        QTest::mouseClick(reverify, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(test::child<QLabel>(w, "statusLabel")->text(), QStringLiteral("Re-verified the archive: verified."),
                                  30000);
        QCOMPARE(verdictCount(w, Verdict::Verified), expected);
        QCOMPARE(verdictCount(w, Verdict::Pending), 0);
        // The same filters as a directory: one platform leaves that platform's archives.
        auto *platform = test::child<QComboBox>(w, "platformFilter");
        platform->setCurrentIndex(platform->findData(QStringLiteral("linux_amd64")));
        for (const QModelIndex &i : test::archiveRows(view->model()))
            QCOMPARE(i.data().toString(), QStringLiteral("linux_amd64"));
        QVERIFY(!test::archiveRows(view->model()).isEmpty());
        platform->setCurrentIndex(0);

        // Something that is not a bundle fails cleanly.
        const QString bogus = m_tmp.filePath(QStringLiteral("bogus.zip"));
        QFile f(bogus);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a zip");
        f.close();
        QSignalSpy failed(&w, &ui::MainWindow::openFailed);
        w.openMirror(bogus);
        QVERIFY(failed.wait(30000));
        QCOMPARE(w.mirrorRoot(), bundle); // the open one stays
    }

    // Lock windows and dialogs that need the catalog of the directory the browser shows take the
    // browser's (ui/lock/MirrorScan, MainWindow::shownCatalog) instead of scanning it again: an
    // archive added on disk after the browser's scan is not in it; another directory is scanned.
    void lockWindowsReuseTheBrowsersCatalog()
    {
        const QString mirror = m_tmp.filePath(QStringLiteral("reuse"));
        QVERIFY(generateDemoMirror(mirror).ok());
        ui::MainWindow w;
        w.show();
        QVERIFY(test::openAndVerify(w, mirror));
        const qsizetype shown = w.catalog().archiveCount();
        // A new packed archive of a new version, after the browser's scan.
        const QString extra =
            mirror + QStringLiteral("/registry.opentofu.org/hashicorp/random/terraform-provider-random_9.9.9_linux_amd64.zip");
        QString zip;
        for (QDirIterator it(mirror, {QStringLiteral("terraform-provider-random_3.5.1_linux_amd64.zip")}, QDir::Files,
                             QDirIterator::Subdirectories);
             it.hasNext();)
            zip = it.next();
        QVERIFY2(!zip.isEmpty(), "the demo mirror has a packed random 3.5.1 linux_amd64");
        QVERIFY(QFile::copy(zip, extra));
        QVERIFY(scanFileSystemMirror(mirror).value().archiveCount() == shown + 1); // a scan would see it

        auto scanned = [](const QString &root) -> Result<Catalog> {
            std::optional<Result<Catalog>> got;
            ui::JobTracker jobs;
            ui::scanMirrorAsync(&jobs, root, [&got](const Result<Catalog> &c) { got = c; });
            if (!QTest::qWaitFor([&got] { return got.has_value(); }, 30000))
                return makeError(ErrorCode::Internal, QStringLiteral("no catalog arrived"));
            return *got;
        };
        const Result<Catalog> reused = scanned(mirror);
        QVERIFY(reused.ok());
        QCOMPARE(reused.value().archiveCount(), shown); // the browser's catalog, not a new scan
        const Result<Catalog> other = scanned(m_demo);  // not shown: scanned
        QVERIFY(other.ok());
        QCOMPARE(other.value().archiveCount(), scanFileSystemMirror(m_demo).value().archiveCount());
        w.reverify(); // the browser rescans: now the lock windows get the new archive too
        QSignalSpy opened(&w, &ui::MainWindow::mirrorOpened);
        QVERIFY(opened.wait(30000));
        QCOMPARE(scanned(mirror).value().archiveCount(), shown + 1);
    }

    void settingsRoundTrip()
    {
        QSettings().setValue(QStringLiteral("recentMirrors"),
                             QStringList{m_tmp.filePath(QStringLiteral("gone-away")), QDir(m_demo).absolutePath()});
        {
            ui::MainWindow w;
            QVERIFY(test::showExposed(w));
            // File ▸ Open Recent drops the entry that no longer exists.
            auto *recent = w.findChild<QMenu *>(QStringLiteral("menuRecent"));
            QVERIFY(recent);
            QMetaObject::invokeMethod(recent, "aboutToShow");
            QStringList shown;
            for (QAction *a : recent->actions())
                if (a->data().isValid())
                    shown.append(a->data().toString());
            QCOMPARE(shown, QStringList{QDir(m_demo).absolutePath()});
            QCOMPARE(QSettings().value(QStringLiteral("recentMirrors")).toStringList(), shown);

            QVERIFY(test::openAndVerify(w, m_demo));
            QTreeView *view = test::child<QTreeView>(w, "archiveView");
            view->sortByColumn(MirrorTreeModel::SizeColumn, Qt::DescendingOrder);
            view->header()->resizeSection(MirrorTreeModel::NameColumn, 345);
            w.resize(1000, 700);
            w.close();
        }
        ui::MainWindow again;
        QCOMPARE(again.size(), QSize(1000, 700));
        QTreeView *view = test::child<QTreeView>(again, "archiveView");
        QCOMPARE(view->header()->sectionSize(MirrorTreeModel::NameColumn), 345);
        QCOMPARE(view->header()->sortIndicatorSection(), int(MirrorTreeModel::SizeColumn));
        QCOMPARE(view->header()->sortIndicatorOrder(), Qt::DescendingOrder);
        QCOMPARE(qobject_cast<QSortFilterProxyModel *>(view->model())->sortColumn(), int(MirrorTreeModel::SizeColumn));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
