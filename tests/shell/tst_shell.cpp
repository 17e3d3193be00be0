// The shell: recent mirrors in QSettings, the welcome screen (buttons enabled only when something
// handles them), installShell() on the main window (menus, demo mirror, recent list), the About
// dialog. Expected values: hand-written lists, the version parsed from the top-level
// CMakeLists.txt's project(VERSION), and the demo mirror's marker file (model/mirror/DemoMirror.h).
//
// Settings and the cache go to a temporary XDG_CONFIG_HOME / XDG_CACHE_HOME set before the
// application starts. Set PROVENDER_SCREENSHOT_DIR to save welcome.png and about.png there.

#include "model/mirror/DemoMirror.h"
#include "tests/support/TestSupport.h"
#include "ui/MainWindow.h"
#include "ui/bundle/BundleUi.h"
#include "ui/lock/LockUi.h"
#include "ui/remote/RemoteUi.h"
#include "ui/shell/AboutDialog.h"
#include "ui/shell/RecentItems.h"
#include "ui/shell/Shell.h"
#include "ui/shell/WelcomeWidget.h"

#include <QAction>
#include <QApplication>
#include <QCommandLinkButton>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

QString screenshotDir()
{
    return QString::fromLocal8Bit(qgetenv("PROVENDER_SCREENSHOT_DIR"));
}

template<typename T> T *child(QObject *w, const char *name)
{
    return w->findChild<T *>(QLatin1StringView(name));
}

QStringList listTexts(QListWidget *list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out.append(list->item(i)->data(Qt::UserRole).toString());
    return out;
}

} // namespace

class TestShell : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dirs; // mirror folders used as recent entries

    QString makeDir(const QString &name)
    {
        const QString path = m_dirs.path() + QLatin1Char('/') + name;
        QDir().mkpath(path);
        return path;
    }

private Q_SLOTS:
    void init() { QSettings().clear(); }

    void recentMirrors_data()
    {
        QTest::addColumn<QStringList>("added");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("one") << QStringList{u"/m/a"_s} << QStringList{u"/m/a"_s};
        QTest::newRow("most recent first") << QStringList{u"/m/a"_s, u"/m/b"_s} << QStringList{u"/m/b"_s, u"/m/a"_s};
        QTest::newRow("reopen moves to front") << QStringList{u"/m/a"_s, u"/m/b"_s, u"/m/c"_s, u"/m/a"_s}
                                               << QStringList{u"/m/a"_s, u"/m/c"_s, u"/m/b"_s};
        QTest::newRow("cleaned path is the same entry") << QStringList{u"/m/a"_s, u"/m/x/../a/"_s} << QStringList{u"/m/a"_s};
        QTest::newRow("empty ignored") << QStringList{u"/m/a"_s, QString()} << QStringList{u"/m/a"_s};
        QTest::newRow("eight kept") << QStringList{u"/1"_s, u"/2"_s, u"/3"_s, u"/4"_s, u"/5"_s,
                                                   u"/6"_s, u"/7"_s, u"/8"_s, u"/9"_s, u"/10"_s}
                                    << QStringList{u"/10"_s, u"/9"_s, u"/8"_s, u"/7"_s, u"/6"_s, u"/5"_s, u"/4"_s, u"/3"_s};
    }
    void recentMirrors()
    {
        QFETCH(QStringList, added);
        QFETCH(QStringList, expected);
        for (const QString &p : std::as_const(added))
            addRecentMirror(p);
        QCOMPARE(ui::recentMirrors(), expected);
        // Stored under the documented key, as a plain string list.
        QCOMPARE(QSettings().value(u"recentMirrors"_s).toStringList(), expected);
        clearRecentMirrors();
        QVERIFY(ui::recentMirrors().isEmpty());
    }

    void buttonsEnabledOnlyWhenHandled_data()
    {
        QTest::addColumn<QString>("button");
        QTest::newRow("folder") << u"openMirrorFolderButton"_s;
        QTest::newRow("url") << u"openUrlButton"_s;
        QTest::newRow("bundle") << u"openBundleButton"_s;
        QTest::newRow("lock") << u"openLockFileButton"_s;
        QTest::newRow("compare") << u"compareLockFilesButton"_s;
        QTest::newRow("demo") << u"openDemoMirrorButton"_s;
    }
    void buttonsEnabledOnlyWhenHandled()
    {
        QFETCH(QString, button);
        WelcomeWidget w;
        const QList<void (WelcomeWidget::*)()> signalList{
            &WelcomeWidget::openMirrorFolderRequested, &WelcomeWidget::openUrlRequested,          &WelcomeWidget::openBundleRequested,
            &WelcomeWidget::openLockFileRequested,     &WelcomeWidget::compareLockFilesRequested, &WelcomeWidget::openDemoMirrorRequested};
        const QStringList names{u"openMirrorFolderButton"_s, u"openUrlButton"_s,          u"openBundleButton"_s,
                                u"openLockFileButton"_s,     u"compareLockFilesButton"_s, u"openDemoMirrorButton"_s};
        auto *b = w.findChild<QCommandLinkButton *>(button);
        QVERIFY(b);
        QVERIFY(!b->isEnabled());
        QVERIFY(!b->toolTip().isEmpty());

        int hits = 0;
        const auto signal = signalList.at(names.indexOf(button));
        const QMetaObject::Connection c = connect(&w, signal, this, [&hits] { ++hits; });
        QVERIFY(b->isEnabled());
        QVERIFY(b->toolTip().isEmpty());
        QTest::mouseClick(b, Qt::LeftButton);
        QCOMPARE(hits, 1);
        // The other buttons are untouched.
        for (const QString &other : names)
            if (other != button)
                QVERIFY2(!w.findChild<QCommandLinkButton *>(other)->isEnabled(), qPrintable(other));
        disconnect(c);
        QTRY_VERIFY(!b->isEnabled()); // re-checked after the disconnect (queued)
    }

    void recentListShowsSettings()
    {
        const QString a = makeDir(u"mirror-a"_s);
        const QString b = makeDir(u"mirror-b"_s);
        const QString gone = m_dirs.path() + u"/deleted"_s;
        const QString bundle = m_dirs.path() + u"/providers.tar.zst"_s; // bundles are opened like mirrors
        QFile bundleFile(bundle);
        QVERIFY(bundleFile.open(QIODevice::WriteOnly));
        bundleFile.close();
        addRecentMirror(bundle);
        addRecentMirror(gone);
        addRecentMirror(a);
        addRecentMirror(b);

        WelcomeWidget w;
        auto *list = child<QListWidget>(&w, "recentList");
        QVERIFY(list);
        QCOMPARE(listTexts(list), (QStringList{b, a, gone, bundle}));
        QVERIFY(list->item(0)->flags() & Qt::ItemIsEnabled);
        QVERIFY(!(list->item(2)->flags() & Qt::ItemIsEnabled)); // a folder that no longer exists
        QVERIFY(list->item(2)->text().contains(u"not found"_s));
        QVERIFY(list->item(3)->flags() & Qt::ItemIsEnabled);
        QVERIFY(!list->item(3)->text().contains(u"not found"_s));

        QSignalSpy activated(&w, &WelcomeWidget::recentMirrorActivated);
        Q_EMIT list->itemActivated(list->item(1));
        Q_EMIT list->itemActivated(list->item(2)); // disabled: ignored
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), a);

        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(list->isVisible());
        QTest::mouseClick(child<QPushButton>(&w, "clearRecentButton"), Qt::LeftButton);
        QCOMPARE(list->count(), 0);
        QVERIFY(!list->isVisible());
        QVERIFY(child<QLabel>(&w, "recentEmptyLabel")->isVisible());
        QVERIFY(ui::recentMirrors().isEmpty());
    }

    void recentUnderHomeShownWithTilde()
    {
        const QString home = qEnvironmentVariable("HOME"); // set by main() to a temporary folder
        QVERIFY(QDir().mkpath(home + u"/work/mirror"_s));
        addRecentMirror(home + u"/work/mirror"_s);
        WelcomeWidget w;
        auto *list = child<QListWidget>(&w, "recentList");
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->text(), u"~/work/mirror"_s);
        QCOMPARE(list->item(0)->toolTip(), home + u"/work/mirror"_s);
    }

    void installShellOnMainWindow()
    {
        MainWindow window;
        WelcomeWidget *welcome = installShell(&window);
        QVERIFY(welcome);
        QCOMPARE(window.findChild<WelcomeWidget *>(u"welcomeWidget"_s), welcome);
        QVERIFY(window.findChild<QWidget *>(u"emptyState"_s)->isAncestorOf(welcome));
        QVERIFY(!window.windowIcon().isNull());
        QVERIFY(!window.windowIcon().pixmap(32, 32).isNull());

        // What exists is wired; what does not is disabled.
        QVERIFY(child<QCommandLinkButton>(welcome, "openMirrorFolderButton")->isEnabled());
        QVERIFY(child<QCommandLinkButton>(welcome, "openDemoMirrorButton")->isEnabled());
        const QMenu *help = window.menu(MainWindow::Menu::Help);
        QVERIFY(help);
        QStringList helpActions;
        for (const QAction *a : help->actions())
            helpActions.append(a->objectName());
        QVERIFY(helpActions.contains(u"actionAbout"_s));
        QVERIFY(helpActions.contains(u"actionOpenDemoMirror"_s));

        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(welcome->isVisible());
    }

    void welcomeButtonsTriggerFeatureActions_data()
    {
        QTest::addColumn<int>("action"); // MainWindow::StartAction
        QTest::addColumn<QString>("button");
        QTest::addColumn<bool>("before"); // the feature registers its action before installShell()
        QTest::newRow("lock, before") << int(MainWindow::StartAction::OpenLockFile) << u"openLockFileButton"_s << true;
        QTest::newRow("compare, before") << int(MainWindow::StartAction::CompareLockFiles) << u"compareLockFilesButton"_s << true;
        QTest::newRow("bundle, after") << int(MainWindow::StartAction::OpenBundle) << u"openBundleButton"_s << false;
        QTest::newRow("url, after") << int(MainWindow::StartAction::OpenUrl) << u"openUrlButton"_s << false;
    }
    void welcomeButtonsTriggerFeatureActions()
    {
        QFETCH(int, action);
        QFETCH(QString, button);
        QFETCH(bool, before);
        MainWindow window;
        auto addAction = [&] {
            auto *a = new QAction(u"Feature"_s, &window);
            window.addAction(MainWindow::MenuGroup::FileOpen, a);
            window.setStartAction(MainWindow::StartAction(action), a);
            return a;
        };
        QAction *a = before ? addAction() : nullptr;
        WelcomeWidget *welcome = installShell(&window);
        auto *b = child<QCommandLinkButton>(welcome, qPrintable(button));
        if (!before) {
            QVERIFY(!b->isEnabled()); // nothing to do yet
            a = addAction();
        }
        QSignalSpy triggered(a, &QAction::triggered);
        QVERIFY(b->isEnabled()); // wired when the action is registered, before or after the shell
        QTest::mouseClick(b, Qt::LeftButton);
        QCOMPARE(triggered.size(), 1);
        window.setStartAction(MainWindow::StartAction(action), a); // registered again: still one connection
        QTest::mouseClick(b, Qt::LeftButton);
        QCOMPARE(triggered.size(), 2);
    }

    void demoMirrorOpensAndBecomesRecent()
    {
        MainWindow window;
        WelcomeWidget *welcome = installShell(&window);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString expectedDir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/demo-mirror"_s;
        QVERIFY2(expectedDir.startsWith(qEnvironmentVariable("XDG_CACHE_HOME")), qPrintable(expectedDir));
        QCOMPARE(demoMirrorDirectory(), expectedDir);

        QSignalSpy opened(&window, &MainWindow::mirrorOpened);
        QTest::mouseClick(child<QCommandLinkButton>(welcome, "openDemoMirrorButton"), Qt::LeftButton);
        QVERIFY(opened.wait(60000));
        QCOMPARE(opened.at(0).at(0).toString(), expectedDir);
        QVERIFY(QFileInfo::exists(expectedDir + QLatin1Char('/') + kDemoMirrorMarker));
        QVERIFY(QFileInfo(expectedDir + u"/registry.opentofu.org/hashicorp/random"_s).isDir());
        QCOMPARE(window.mirrorRoot(), expectedDir);
        QCOMPARE(ui::recentMirrors(), QStringList{expectedDir});
        QCOMPARE(listTexts(child<QListWidget>(welcome, "recentList")), QStringList{expectedDir});

        // A second run regenerates over the first one (the marker allows it).
        QSignalSpy again(&window, &MainWindow::mirrorOpened);
        openDemoMirror(&window, welcome);
        QVERIFY(again.wait(60000));
        QCOMPARE(ui::recentMirrors(), QStringList{expectedDir});
    }

    void demoMirrorErrorShown()
    {
        MainWindow window;
        WelcomeWidget *welcome = installShell(&window);
        const QString occupied = makeDir(u"not-a-demo"_s);
        QFile f(occupied + u"/keep.txt"_s);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QSignalSpy opened(&window, &MainWindow::mirrorOpened);
        openDemoMirror(&window, welcome, occupied);
        auto *status = child<QLabel>(welcome, "welcomeStatus");
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(u"Cannot create the demo mirror"_s), 30000);
        QCOMPARE(opened.size(), 0);
        QVERIFY(QFileInfo::exists(occupied + u"/keep.txt"_s)); // refused, left as it was
        QVERIFY(child<QCommandLinkButton>(welcome, "openDemoMirrorButton")->isEnabled());
    }

    void aboutDialog()
    {
        // The version comes from the top-level CMakeLists.txt's project(... VERSION x.y.z).
        const QByteArray cmake = test::readFile(test::sourceDir() + u"/CMakeLists.txt"_s);
        QVERIFY(!cmake.isEmpty());
        const QRegularExpressionMatch m =
            QRegularExpression(u"project\\(\\s*Provender\\s+VERSION\\s+([0-9.]+)"_s).match(QString::fromUtf8(cmake));
        QVERIFY(m.hasMatch());
        AboutDialog dialog;
        QVERIFY(child<QLabel>(&dialog, "aboutVersion")->text().contains(m.captured(1)));
        const QString blurb = [&] {
            QString all;
            for (const QLabel *l : dialog.findChildren<QLabel *>())
                all += l->text();
            return all;
        }();
        QVERIFY(blurb.contains(u"GPL-3.0-or-later"_s));
        const QString licences = child<QTextBrowser>(&dialog, "aboutLicences")->toPlainText();
        for (const char *lib : {"Qt 6", "QuaZip", "OpenSSL", "libarchive", "libgit2", "SQLite"})
            QVERIFY2(licences.contains(QLatin1StringView(lib)), lib);
        for (const char *lic : {"LGPL-3.0", "LGPL-2.1-or-later", "Apache-2.0", "BSD-2-Clause", "linking exception", "public domain"})
            QVERIFY2(licences.contains(QLatin1StringView(lic)), lic);
        // The project's LICENSE is the GPL version 3.
        QVERIFY(test::readFile(test::sourceDir() + u"/LICENSE"_s).contains("GNU GENERAL PUBLIC LICENSE"));
        QVERIFY(test::readFile(test::sourceDir() + u"/LICENSE"_s).contains("Version 3, 29 June 2007"));

        if (!screenshotDir().isEmpty()) {
            dialog.show();
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            QVERIFY(dialog.grab().save(screenshotDir() + u"/about.png"_s));
        }
    }

    /// The window as app/main.cpp builds it: every welcome button is wired to a feature (a button
    /// whose feature is missing stays disabled, so this fails when an install call is dropped).
    void everyWelcomeButtonIsWired()
    {
        MainWindow window;
        installLockUi(&window);
        installShell(&window);
        installRemoteUi(&window);
        installBundleUi(&window);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto buttons = window.findChildren<QCommandLinkButton *>();
        QVERIFY(buttons.size() >= 6);
        for (auto *b : buttons)
            QTRY_VERIFY2(b->isEnabled(), qPrintable(b->objectName()));
    }

    void screenshot()
    {
        // Without PROVENDER_SCREENSHOT_DIR the picture is rendered all the same (into a temporary
        // folder), so that this path is exercised by every run.
        QTemporaryDir scratch;
        const QString outDir = screenshotDir().isEmpty() ? scratch.path() : screenshotDir();
        for (const QString &name : {u"mirrors/air-gapped"_s, u"mirrors/staging"_s, u"mirrors/production"_s}) {
            QVERIFY(QDir().mkpath(QDir::homePath() + u"/"_s + name));
            addRecentMirror(QDir::homePath() + u"/"_s + name);
        }
        // The window as app/main.cpp builds it, with every feature that has a welcome button.
        MainWindow window;
        installLockUi(&window);
        installShell(&window);
        installRemoteUi(&window);
        installBundleUi(&window);
        window.resize(1100, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (auto *b : window.findChildren<QCommandLinkButton *>())
            QTRY_VERIFY2(b->isEnabled(), qPrintable(b->objectName())); // every feature is wired (once the loop ran)
        QVERIFY(window.grab().save(outDir + u"/welcome.png"_s));
        QVERIFY(QImage(outDir + u"/welcome.png"_s).width() >= 1100);
        qInfo("screenshot: %s/welcome.png", qPrintable(outDir));
    }
};

int main(int argc, char **argv)
{
    // Settings and caches of this run go to a temporary place, set before Qt reads them.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.path() + u"/config"_s));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(home.path() + u"/cache"_s));
    qputenv("HOME", QFile::encodeName(home.path())); // recent folders under it are shown as ~/…
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"ProvenderTest"_s);
    QCoreApplication::setApplicationName(u"tst_shell"_s);
    TestShell test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_shell.moc"
