// The network-mirror GUI offscreen: OpenUrlDialog's validation and the request it builds, the
// recent URLs in QSettings, CredentialsDialog's source and masked token (environment and files
// made by the test), installRemoteUi's menu entries, and a network mirror in the main window's
// browser against a real nginx serving ServedMirror.h's mirror (Python built the zips and
// declared hashes, so the expected verdict counts follow from the fixture): opened as the dialog
// opens it, from the command line (also the real binary), by drag and drop and from the recent
// list; filters, details, re-verify and the request log on it. With PROVENDER_SCREENSHOT_DIR=DIR the
// window is saved as DIR/remote.png (details) and DIR/remote-requests.png (request log).

#include "tests/support/NginxFixture.h"
#include "tests/support/ServedMirror.h"

#include "model/items/AnomalyListModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/lockitems/CoverageMatrixModel.h"
#include "model/network/RequestLogModel.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/browser/UrlSource.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockEditorWindow.h"
#include "ui/lock/LockUi.h"
#include "ui/remote/CredentialsDialog.h"
#include "ui/remote/OpenUrlDialog.h"
#include "ui/remote/RemoteUi.h"

#include "tests/support/LockTestSupport.h"
#include "tests/support/MainWindowSupport.h"
#include "tests/support/TestSupport.h"
#include "tests/support/TreeRows.h"
#include "tests/support/VerifyResults.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

using namespace provender;
using namespace provender::ui;

class TestRemoteUi : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    template<typename T> static T *child(QWidget *w, const char *name)
    {
        T *c = w->findChild<T *>(QString::fromLatin1(name));
        if (!c)
            qWarning("no child %s", name);
        return c;
    }

    static void saveShot(QWidget *w, const char *name)
    {
        const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        w->show();
        QApplication::processEvents();
        QVERIFY(w->grab().save(dir + QLatin1Char('/') + QLatin1StringView(name) + QStringLiteral(".png")));
    }

    std::unique_ptr<test::ServedMirror> m_served;
    QString m_mirror;

    /// The fixture mirror (Python) served by nginx; `autoindex`: with directory listings.
    void startNginx(bool autoindex)
    {
        m_served.reset();
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        m_mirror = m_tmp.filePath(autoindex ? QStringLiteral("mirror-listed") : QStringLiteral("mirror"));
        QDir(m_mirror).removeRecursively();
        auto served = std::make_unique<test::ServedMirror>();
        QString error;
        QVERIFY2(served->start(m_mirror, &error, autoindex ? QStringLiteral("    autoindex on;\n") : QString()), qPrintable(error));
        QFile::remove(m_mirror + QStringLiteral(".orig-windows.zip")); // from an earlier test function
        QVERIFY(QFile::copy(m_mirror + QStringLiteral("/example.com/acme/good/terraform-provider-good_1.0.0_windows_amd64.zip"),
                            m_mirror + QStringLiteral(".orig-windows.zip")));
        m_served = std::move(served);
    }

    RemoteRequest fixtureRequest() const
    {
        RemoteRequest request;
        request.baseUrl = m_served->baseUrl();
        request.caFile = m_served->caFile();
        request.backoffMs = 10;
        request.maxBackoffMs = 50;
        request.environment = QProcessEnvironment();
        request.homeDir = m_tmp.filePath(QStringLiteral("home"));
        return request;
    }

    QJsonObject fixtureArchives() const
    {
        QFile versionJson(m_mirror + QStringLiteral("/example.com/acme/good/1.0.0.json"));
        if (!versionJson.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(versionJson.readAll()).object().value(QStringLiteral("archives")).toObject();
    }

    /// ServedMirror.h's verdicts for example.com/acme/good 1.0.0.
    static void expectFixtureCounts(MainWindow &window)
    {
        QCOMPARE(window.archiveModel()->archiveCount(), 8);
        QCOMPARE(test::verdictCountsText(window.archiveModel()->verdictCounts()),
                 QStringLiteral("pending 0, verified 3, mismatch 1, unverified 1, missing 1, error 2, refused 0"));
    }

    /// The good provider's 1.0.0 archive for `platform` in the view.
    static QModelIndex leafFor(QTreeView *view, const QString &platform)
    {
        for (const QModelIndex &i : test::archiveRows(view->model()))
            if (i.data().toString() == platform && i.parent().data().toString() == QStringLiteral("1.0.0"))
                return i;
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(QStringLiteral("tst_remoteui"));
        QVERIFY(m_tmp.isValid());
    }

    void openUrlValidation_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("source"); // radio objectName
        QTest::addColumn<QString>("text");   // addresses or lock path
        QTest::addColumn<bool>("allowHttp");
        QTest::addColumn<QString>("problem"); // substring; "" = usable
        QTest::newRow("empty") << QString() << "sourceAddresses"
                               << "hashicorp/aws" << false << "Enter the URL";
        QTest::newRow("ok") << "https://m.example/p/"
                            << "sourceAddresses"
                            << "hashicorp/aws" << false << "";
        QTest::newRow("http refused") << "http://127.0.0.1:8080/"
                                      << "sourceAddresses"
                                      << "hashicorp/aws" << false << "Cannot use \"http://127.0.0.1:8080/\"";
        QTest::newRow("http loopback allowed") << "http://127.0.0.1:8080/"
                                               << "sourceAddresses"
                                               << "hashicorp/aws" << true << "";
        QTest::newRow("http remote never") << "http://m.example/"
                                           << "sourceAddresses"
                                           << "hashicorp/aws" << true << "Cannot use";
        QTest::newRow("user info refused") << "https://me:s3cret-in-url@m.example/"
                                           << "sourceAddresses"
                                           << "hashicorp/aws" << false << "user name or password";
        QTest::newRow("no addresses") << "https://m.example/"
                                      << "sourceAddresses"
                                      << "\n  \n"
                                      << false << "Name at least one provider";
        QTest::newRow("bad address") << "https://m.example/"
                                     << "sourceAddresses"
                                     << "hashicorp/aws\nnot an address!" << false << "“not an address!” is not a provider address";
        QTest::newRow("lock missing") << "https://m.example/"
                                      << "sourceLock"
                                      << "/nonexistent.lock.hcl" << false << "is not a file";
        QTest::newRow("autoindex") << "https://m.example/"
                                   << "sourceAutoindex"
                                   << "" << false << "";
    }
    void openUrlValidation()
    {
        QFETCH(QString, url);
        QFETCH(QString, source);
        QFETCH(QString, text);
        QFETCH(bool, allowHttp);
        QFETCH(QString, problem);
        OpenUrlDialog d;
        d.setUrl(url);
        d.findChild<QRadioButton *>(source)->setChecked(true);
        if (source == QLatin1StringView("sourceLock"))
            d.setLockFile(text);
        else
            d.findChild<QPlainTextEdit *>(QStringLiteral("addressesEdit"))->setPlainText(text);
        d.setAllowHttpLoopback(allowHttp);
        QPushButton *open = d.findChild<QDialogButtonBox *>(QStringLiteral("buttons"))->button(QDialogButtonBox::Open);
        if (problem.isEmpty()) {
            QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
            QVERIFY(open->isEnabled());
        } else {
            QVERIFY2(d.problem().contains(problem), qPrintable(d.problem()));
            QVERIFY(!open->isEnabled());
            QCOMPARE(d.findChild<QLabel *>(QStringLiteral("problemLabel"))->text(), d.problem());
        }
    }

    void openUrlRequestAndRecents()
    {
        QSettings().remove(QStringLiteral("remote/recentUrls"));
        const QString lock = m_tmp.filePath(QStringLiteral("x.lock.hcl"));
        QFile f(lock);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        for (int i = 0; i < 12; ++i) {
            OpenUrlDialog d;
            d.setUrl(QStringLiteral("https://m%1.example/providers/").arg(i));
            d.setSource(RemoteRequest::ProviderSource::LockFile);
            d.setLockFile(lock);
            d.setCaFile(lock); // any existing file passes the form; the session reads it later
            d.findChild<QLineEdit *>(QStringLiteral("cacheEdit"))->setText(QStringLiteral("/tmp/cache"));
            const RemoteRequest r = d.request();
            QCOMPARE(r.baseUrl, QStringLiteral("https://m%1.example/providers/").arg(i));
            QVERIFY(r.source == RemoteRequest::ProviderSource::LockFile);
            QCOMPARE(r.lockFile, lock);
            QCOMPARE(r.caFile, lock);
            QCOMPARE(r.cacheDir, QStringLiteral("/tmp/cache"));
            QVERIFY(!r.allowHttpLoopback);
            d.accept();
            QCOMPARE(d.result(), int(QDialog::Accepted));
        }
        // Newest first, at most 10; a reopened URL moves to the front without a duplicate.
        QStringList recent = OpenUrlDialog::recentUrls();
        QCOMPARE(recent.size(), 10);
        QCOMPARE(recent.first(), QStringLiteral("https://m11.example/providers/"));
        QCOMPARE(recent.last(), QStringLiteral("https://m2.example/providers/"));
        OpenUrlDialog::addRecentUrl(QStringLiteral("https://m5.example/providers/"));
        recent = OpenUrlDialog::recentUrls();
        QCOMPARE(recent.first(), QStringLiteral("https://m5.example/providers/"));
        QCOMPARE(recent.count(QStringLiteral("https://m5.example/providers/")), 1);
        // A token in the URL's user info is never written to the settings file.
        OpenUrlDialog::addRecentUrl(QStringLiteral("https://user:s3cret-token@m6.example/providers/"));
        recent = OpenUrlDialog::recentUrls();
        QCOMPARE(recent.first(), QStringLiteral("https://m6.example/providers/"));
        QVERIFY(!recent.join(QLatin1Char(' ')).contains(QStringLiteral("s3cret")));
        OpenUrlDialog::addRecentUrl(QStringLiteral("https://m5.example/providers/"));
        // The combo box offers them.
        OpenUrlDialog d;
        QComboBox *combo = d.findChild<QComboBox *>(QStringLiteral("urlEdit"));
        QCOMPARE(combo->count(), 10);
        QCOMPARE(combo->itemText(0), QStringLiteral("https://m5.example/providers/"));
        // Typed addresses: parsed, duplicates dropped, comments skipped.
        d.setSource(RemoteRequest::ProviderSource::Addresses);
        // A bare NAMESPACE/TYPE means registry.opentofu.org (tofu's default host, as on the command line).
        d.setAddresses({QStringLiteral("hashicorp/aws"), QStringLiteral("# a comment"),
                        QStringLiteral("registry.opentofu.org/hashicorp/aws"), QStringLiteral("  example.com/acme/thing  "),
                        QStringLiteral("example.com/acme/thing")});
        QStringList names;
        for (const ProviderAddress &a : d.request().providers)
            names << a.toString();
        QCOMPARE(names, (QStringList{QStringLiteral("registry.opentofu.org/hashicorp/aws"), QStringLiteral("example.com/acme/thing")}));
        saveShot(&d, "remote-open-url");
    }

    void userInfoUrlNeverStored()
    {
        // A URL with a secret in its user info: refused with how to give a token, never saved in
        // the recent list or anywhere in the settings file, not shown by the credentials dialog.
        const QString secret = QStringLiteral("Dlg-s3cret-ZXCVB-77");
        QSettings().remove(QStringLiteral("remote/recentUrls"));
        OpenUrlDialog d;
        d.setUrl(QStringLiteral("https://someone:%1@m.example/providers/").arg(secret));
        d.setSource(RemoteRequest::ProviderSource::Addresses);
        d.setAddresses({QStringLiteral("hashicorp/aws")});
        QVERIFY2(d.problem().contains(QStringLiteral("credentials")) && d.problem().contains(QStringLiteral("TF_TOKEN_")),
                 qPrintable(d.problem()));
        QVERIFY(!d.problem().contains(secret));
        QVERIFY(!d.findChild<QLabel *>(QStringLiteral("problemLabel"))->text().contains(secret));
        d.accept();
        QVERIFY(d.result() != int(QDialog::Accepted));
        OpenUrlDialog::addRecentUrl(QStringLiteral("https://someone:%1@m.example/providers/").arg(secret)); // even if called
        QSettings settings;
        settings.sync();
        QVERIFY(!OpenUrlDialog::recentUrls().join(QLatin1Char(' ')).contains(secret));
        QFile file(settings.fileName());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("m.example")); // the file is the one written
        QVERIFY2(!stored.contains(secret.toUtf8()), stored.constData());
        CredentialsDialog c(QStringLiteral("https://someone:%1@m.example/providers/").arg(secret), QProcessEnvironment(),
                            m_tmp.filePath(QStringLiteral("home")));
        QVERIFY(!c.findChild<QLineEdit *>(QStringLiteral("hostEdit"))->text().contains(secret));
    }

    void credentialsDialog()
    {
        // Environment variable first, then the CLI config file (tofu's order).
        const QString config = m_tmp.filePath(QStringLiteral("cli.tfrc"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("credentials \"my-mirror.example\" {\n  token = \"fromfile0123456789\"\n}\n"
                "credentials \"mirror.example:8443\" {\n  token = \"porttoken-xyz\"\n}\n");
        f.close();
        QProcessEnvironment env;
        env.insert(QStringLiteral("TF_TOKEN_my__mirror_example"), QStringLiteral("fromenvABCDEFGHIJKL"));
        env.insert(QStringLiteral("TF_CLI_CONFIG_FILE"), config);
        const QString home = m_tmp.filePath(QStringLiteral("home"));

        CredentialsDialog d(QStringLiteral("https://my-mirror.example/providers/"), env, home);
        auto *host = d.findChild<QLineEdit *>(QStringLiteral("hostEdit"));
        auto *source = d.findChild<QLabel *>(QStringLiteral("sourceLabel"));
        auto *token = d.findChild<QLabel *>(QStringLiteral("tokenLabel"));
        auto *searched = d.findChild<QLabel *>(QStringLiteral("searchedLabel"));
        QCOMPARE(host->text(), QStringLiteral("my-mirror.example"));
        QCOMPARE(source->text(), QStringLiteral("environment variable TF_TOKEN_my__mirror_example"));
        QCOMPARE(token->text(), QStringLiteral("from… (19 characters)"));
        QVERIFY(searched->text().contains(QStringLiteral("TF_TOKEN_my__mirror_example")));
        QVERIFY(searched->text().contains(config));

        env.remove(QStringLiteral("TF_TOKEN_my__mirror_example"));
        CredentialsDialog fromFile(QStringLiteral("my-mirror.example"), env, home);
        QVERIFY(fromFile.findChild<QLabel *>(QStringLiteral("sourceLabel"))->text().contains(config));
        QCOMPARE(fromFile.findChild<QLabel *>(QStringLiteral("tokenLabel"))->text(), QStringLiteral("from… (18 characters)"));

        // host:port from a URL keeps the port (not 443) and finds the block for it.
        fromFile.findChild<QLineEdit *>(QStringLiteral("hostEdit"))->setText(QStringLiteral("https://mirror.example:8443/x/"));
        QCOMPARE(fromFile.findChild<QLabel *>(QStringLiteral("tokenLabel"))->text(), QStringLiteral("por… (13 characters)"));
        fromFile.findChild<QLineEdit *>(QStringLiteral("hostEdit"))->setText(QStringLiteral("other.example"));
        QCOMPARE(fromFile.findChild<QLabel *>(QStringLiteral("tokenLabel"))->text(), QStringLiteral("none"));
        saveShot(&d, "remote-credentials");
        for (QLabel *l : fromFile.findChildren<QLabel *>())
            QVERIFY(!l->text().contains(QStringLiteral("fromfile0123456789")) && !l->text().contains(QStringLiteral("porttoken")));

        // A CLI config that hcl v1 cannot parse gives no token at all (as in terraform), and the
        // dialog says where the file broke.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("credentials \"my-mirror.example\" {\n  token = \"fromfile0123456789\"\n}\nbroken \"\n");
        f.close();
        CredentialsDialog broken(QStringLiteral("my-mirror.example"), env, home);
        const QString said = broken.findChild<QLabel *>(QStringLiteral("sourceLabel"))->text();
        QVERIFY2(
            said.startsWith(QStringLiteral("No token for my-mirror.example (%1: line 4, column 9: literal not terminated;").arg(config)),
            qPrintable(said));
        QCOMPARE(broken.findChild<QLabel *>(QStringLiteral("tokenLabel"))->text(), QStringLiteral("none"));
        saveShot(&broken, "remote-credentials-broken-config");
    }

    void installedIntoMainWindow()
    {
        MainWindow window;
        installRemoteUi(&window);
        auto *openUrl = window.findChild<QAction *>(QStringLiteral("actionOpenUrl"));
        QVERIFY(openUrl);
        QCOMPARE(openUrl->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+O")));
        // In the File menu's Open group: right after Open Mirror Directory…, before Open Recent.
        const QList<QAction *> file = window.menu(MainWindow::Menu::File)->actions();
        const qsizetype at = file.indexOf(openUrl);
        QVERIFY(at > 0);
        QCOMPARE(file.at(at - 1)->objectName(), QStringLiteral("actionOpen"));
        QCOMPARE(file.at(at + 1)->menu()->objectName(), QStringLiteral("menuRecent"));
        QCOMPARE(window.startAction(MainWindow::StartAction::OpenUrl), openUrl); // the welcome screen's button
        auto *credentials = window.findChild<QAction *>(QStringLiteral("actionCredentials"));
        QVERIFY(credentials);
        QVERIFY(window.menu(MainWindow::Menu::Tools)->actions().contains(credentials));
    }

    // The served fixture mirror in the main window, opened as the Open URL dialog opens it (typed
    // addresses): the same tree, filters, details, re-verify, anomalies and status bar as a
    // directory, plus the request log dock. Expected counts follow from ServedMirror.h.
    void urlSourceInMainWindow()
    {
        startNginx(false);
        if (QTest::currentTestFailed() || !m_served)
            return;
        MainWindow window;
        installRemoteUi(&window);
        QAbstractItemModelTester tester(window.requestLog(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester treeTester(window.archiveModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&window, &MainWindow::verificationFinished);
        window.resize(1280, 820);
        window.show();
        RemoteRequest request = fixtureRequest();
        request.providers = {ProviderAddress::parse(u"example.com/acme/good").value(),
                             ProviderAddress::parse(u"example.com/acme/wrongtype").value()};
        window.openUrl(request);
        QVERIFY(child<QPushButton>(&window, "cancelButton")->isVisible());
        QVERIFY(finished.wait(60000));
        QVERIFY(!child<QPushButton>(&window, "cancelButton")->isVisible());
        QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Url);
        QCOMPARE(window.mirrorRoot(), m_served->baseUrl());
        QCOMPARE(child<QLabel>(&window, "rootLabel")->text(), m_served->baseUrl());
        expectFixtureCounts(window);
        // wrongtype's index.json and good's 2.0.0.json are anomalies.
        QCOMPARE(window.anomalyModel()->rowCount(), 2);
        const QString status = child<QLabel>(&window, "statusLabel")->text();
        QVERIFY2(status.contains(QStringLiteral("Downloaded and verified 8 archives")), qPrintable(status));
        QVERIFY(child<QLabel>(&window, "badge-mismatch")->text().contains(QStringLiteral(">1<")));

        // The request log is a dock of this window, for URL sources.
        auto *logDock = window.findChild<QDockWidget *>(QStringLiteral("requestLogDock"));
        QVERIFY(logDock && logDock->isVisibleTo(&window));
        auto *log = child<QTableView>(&window, "requestLogView");
        QVERIFY(log->model()->rowCount() >= 12);
        QCOMPARE(window.requestLog()->failedCount(), 5);
        QVERIFY(child<QLabel>(&window, "requestLogSummary")->text().contains(QStringLiteral("5 failed")));
        child<QCheckBox>(&window, "failuresOnly")->setChecked(true); // keeps the 404s, 403 and 500s
        QCOMPARE(log->model()->rowCount(), 5);
        child<QCheckBox>(&window, "failuresOnly")->setChecked(false);

        // Filters: the verdict filter leaves the one mismatch, the platform filter one archive of
        // each platform, the text filter what names it.
        auto *view = child<QTreeView>(&window, "archiveView");
        auto *verdict = child<QComboBox>(&window, "verdictFilter");
        verdict->setCurrentIndex(verdict->findData(int(Verdict::Mismatch)));
        QCOMPARE(test::archiveRows(view->model()).size(), 1);
        QVERIFY(test::archiveRows(view->model())
                    .first()
                    .data(MirrorTreeModel::SearchTextRole)
                    .toString()
                    .contains(QStringLiteral("windows_amd64")));
        verdict->setCurrentIndex(0);
        auto *platform = child<QComboBox>(&window, "platformFilter");
        QCOMPARE(platform->count(), 1 + 8); // "All platforms" + the fixture's eight
        platform->setCurrentIndex(platform->findData(QStringLiteral("darwin_arm64")));
        QCOMPARE(test::archiveRows(view->model()).size(), 1);
        platform->setCurrentIndex(0);
        child<QLineEdit>(&window, "filterEdit")->setText(QStringLiteral("good 1.0.0 linux"));
        QCOMPARE(test::archiveRows(view->model()).size(), 3); // linux_amd64, linux_arm64, linux_386
        child<QLineEdit>(&window, "filterEdit")->clear();
        QCOMPARE(test::archiveRows(view->model()).size(), 8);

        // Details: the selected archive's verdict and the hash its index declares (read here from
        // the <version>.json Python wrote, with Qt's JSON reader); no folder to show.
        const QJsonObject archives = fixtureArchives();
        const QString declared =
            archives.value(QStringLiteral("linux_amd64")).toObject().value(QStringLiteral("hashes")).toArray().first().toString();
        QVERIFY(declared.startsWith(QStringLiteral("zh:")));
        QModelIndex leaf = leafFor(view, QStringLiteral("linux_amd64"));
        QVERIFY(leaf.isValid());
        test::selectRow(view, leaf);
        QString details = child<QTextBrowser>(&window, "detailsView")->toPlainText();
        QVERIFY2(details.contains(QStringLiteral("verified")), qPrintable(details));
        QVERIFY2(details.contains(declared), qPrintable(details));
        QVERIFY(!child<QToolButton>(&window, "showInFolderButton")->isVisibleTo(&window));
        QVERIFY(!window.findChild<QAction *>(QStringLiteral("actionShowInFolder"))->isEnabled());
        QCOMPARE(window.selectedArchivePaths().size(), 1);
        QVERIFY(window.selectedArchivePaths().first().startsWith(m_served->baseUrl()));

        // Re-verify downloads the archive again: the mirror now serves, under windows_amd64's
        // name, the zip whose zh: its index declares (linux_arm64's), so the mismatch turns verified.
        const QString good = m_mirror + QStringLiteral("/example.com/acme/good/");
        QVERIFY(QFile::remove(good + QStringLiteral("terraform-provider-good_1.0.0_windows_amd64.zip")));
        QVERIFY(QFile::copy(good + QStringLiteral("terraform-provider-good_1.0.0_linux_arm64.zip"),
                            good + QStringLiteral("terraform-provider-good_1.0.0_windows_amd64.zip")));
        leaf = leafFor(view, QStringLiteral("windows_amd64"));
        test::selectRow(view, leaf);
        QCOMPARE(leaf.siblingAtColumn(MirrorTreeModel::VerdictColumn).data(MirrorTreeModel::VerdictRole).toInt(), int(Verdict::Mismatch));
        const int requestsBefore = window.requestLog()->rowCount();
        auto *reverify = child<QToolButton>(&window, "reverifyArchiveButton");
        QVERIFY(reverify->isEnabled());
        QTest::mouseClick(reverify, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(&window, "statusLabel")->text().startsWith(QStringLiteral("Re-verified")), 30000);
        leaf = leafFor(view, QStringLiteral("windows_amd64"));
        QCOMPARE(leaf.siblingAtColumn(MirrorTreeModel::VerdictColumn).data(MirrorTreeModel::VerdictRole).toInt(), int(Verdict::Verified));
        QCOMPARE(window.archiveModel()->verdictCounts()[size_t(Verdict::Mismatch)], 0);
        QCOMPARE(window.requestLog()->rowCount(), requestsBefore + 1); // one more download, in the same log

        // F5 fetches again and merges: the selection survives.
        QSignalSpy opened(&window, &MainWindow::mirrorOpened);
        window.reverify();
        QVERIFY(finished.wait(60000));
        QCOMPARE(opened.size(), 1);
        QVERIFY(view->currentIndex().data(MirrorTreeModel::SearchTextRole).toString().contains(QStringLiteral("windows_amd64")));
        QCOMPARE(window.archiveModel()->verdictCounts()[size_t(Verdict::Verified)], 4);

        // Select the mismatch fixture state again for the picture: undo the swap, verify again.
        QVERIFY(QFile::remove(good + QStringLiteral("terraform-provider-good_1.0.0_windows_amd64.zip")));
        QVERIFY(QFile::copy(m_mirror + QStringLiteral(".orig-windows.zip"),
                            good + QStringLiteral("terraform-provider-good_1.0.0_windows_amd64.zip")));
        window.reverify();
        QVERIFY(finished.wait(60000));
        expectFixtureCounts(window);
        test::selectRow(view, leafFor(view, QStringLiteral("windows_amd64")));
        logDock->raise();
        QApplication::processEvents();
        const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            window.findChild<QDockWidget *>(QStringLiteral("detailsDock"))->raise();
            QApplication::processEvents();
            QVERIFY(window.grab().save(dir + QStringLiteral("/remote.png")));
            logDock->raise();
            QApplication::processEvents();
            QVERIFY(window.grab().save(dir + QStringLiteral("/remote-requests.png")));
        }
    }

    /// Tools ▸ Coverage Matrix… and a lock file opened from the browser read the URL source shown,
    /// with that source's own settings: its CA file (this process trusts the fixture's CA through
    /// nothing else; the default settings fail). The verdicts are the fixture's design
    /// (ServedMirror.h): the lock holds Python's hashes of linux_amd64 and darwin_arm64.
    void lockWindowsReadTheUrlSource()
    {
        startNginx(false);
        if (QTest::currentTestFailed() || !m_served)
            return;
        MainWindow window;
        installRemoteUi(&window);
        QString why;
        QVERIFY(!browserMirror(&window, &why));
        QVERIFY2(why.contains(QStringLiteral("Open URL")), qPrintable(why));
        QSignalSpy finished(&window, &MainWindow::verificationFinished);
        RemoteRequest request = fixtureRequest();
        request.providers = {ProviderAddress::parse(u"example.com/acme/good").value()};
        window.openUrl(request);
        QVERIFY(finished.wait(60000));
        const std::optional<LockMirrorLocation> shown = browserMirror(&window);
        QVERIFY(shown);
        QCOMPARE(shown->location, m_served->baseUrl());
        QCOMPARE(shown->http.caCertificates.size(), 1);

        const auto hash = [this](const char *platform, const char *field) {
            return m_served->expected()
                .value(QString::fromLatin1(platform))
                .toObject()
                .value(QString::fromLatin1(field))
                .toString()
                .toUtf8();
        };
        const QString path = m_tmp.filePath(QStringLiteral("browser.terraform.lock.hcl"));
        QVERIFY(test::writeFile(
            path, test::providerBlock("example.com/acme/good", "1.0.0", "", {hash("linux_amd64", "zh"), hash("darwin_arm64", "h1")})));
        QSettings().remove(QString(CoverageMatrixWindow::kSettingsKey));
        QPointer<CoverageMatrixWindow> matrix = openCoverageMatrix(&window, path);
        QVERIFY(matrix);
        matrix->setPlatforms({test::platform("darwin_arm64"), test::platform("freebsd_amd64"), test::platform("linux_amd64"),
                              test::platform("linux_arm64"), test::platform("windows_amd64")});
        QVERIFY(QTest::qWaitFor([&matrix] { return !matrix->isBusy(); }, 120000));
        QCOMPARE(matrix->model()->dump().trimmed(),
                 QStringLiteral("example.com/acme/good 1.0.0: ✓ verified | ! error | ✓ verified | ✗ mismatch | ! error"));
        matrix->close();

        QPointer<LockEditorWindow> editor = openLockEditor(&window, path);
        QVERIFY(editor);
        QVERIFY(QTest::qWaitFor([&editor] { return editor->hasMirror() && !editor->isBusy(); }, 120000));
        QCOMPARE(editor->mirrorPlatforms().size(), 8);
        // Its hash trace downloads every platform's package: let it end before the window does.
        QVERIFY(QTest::qWaitFor([&editor] { return editor->provenanceReady(); }, 120000));
        editor->close();

        // The same URL with the CLI's settings (system CAs only) cannot be read here — checked
        // while SSL_CERT_FILE does not name the fixture's CA (urlFromCommandLineDropAndRecent,
        // declared after this function, sets it).
        if (!qEnvironmentVariableIsEmpty("SSL_CERT_FILE"))
            return;
        CoverageMatrixWindow plain;
        QVERIFY(plain.openLockFile(path));
        plain.openMirror(m_served->baseUrl());
        QVERIFY(QTest::qWaitFor([&plain] { return !plain.isBusy(); }, 120000));
        const QString status = plain.findChild<QLabel *>(QStringLiteral("statusLabel"))->text();
        QVERIFY2(status.contains(QStringLiteral("TLS")), qPrintable(status));
    }

    // A URL typed on the command line (main.cpp hands it to MainWindow::openMirror), dropped on
    // the window, or picked from File ▸ Open Recent opens in the same browser; never opened
    // through the dialog, its providers come from the mirror's directory listing.
    void urlFromCommandLineDropAndRecent()
    {
        startNginx(true); // autoindex on
        if (QTest::currentTestFailed() || !m_served)
            return;
        qputenv("SSL_CERT_FILE", QFile::encodeName(m_served->caFile())); // trusted as a system CA, as a user would set it
        QSettings().remove(QStringLiteral("remote/requests"));
        const QString url = m_served->baseUrl();
        {
            MainWindow window;
            QSignalSpy finished(&window, &MainWindow::verificationFinished);
            QSignalSpy failed(&window, &MainWindow::openFailed);
            window.show();
            window.openMirror(url);
            QVERIFY(finished.wait(60000));
            QCOMPARE(failed.size(), 0);
            QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Url);
            QCOMPARE(window.urlRequest().source, RemoteRequest::ProviderSource::Autoindex);
            expectFixtureCounts(window); // good's eight archives; the other providers have none
            QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("requestLogDock"))->isVisibleTo(&window));

            // The recent list keeps the URL (not a path: it does not "exist" on disk).
            auto *recent = window.findChild<QMenu *>(QStringLiteral("menuRecent"));
            QMetaObject::invokeMethod(recent, "aboutToShow");
            QAction *entry = nullptr;
            for (QAction *a : recent->actions())
                if (a->data().toString() == url)
                    entry = a;
            QVERIFY(entry);
            QVERIFY(QDir().mkpath(m_tmp.filePath(QStringLiteral("empty"))));
            window.openMirror(m_tmp.filePath(QStringLiteral("empty"))); // something else first (an empty directory)
            QVERIFY(finished.wait(60000));
            QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Directory);
            entry->trigger();
            QVERIFY(finished.wait(60000));
            QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Url);
            QCOMPARE(window.mirrorRoot(), url);
        }
        {
            // Dropped as a URL (a browser's link): accepted and opened.
            MainWindow window;
            QSignalSpy finished(&window, &MainWindow::verificationFinished);
            window.show();
            QVERIFY(test::dropUrls(window, {QUrl(url)}));
            QVERIFY(finished.wait(60000));
            QCOMPARE(window.mirrorRoot(), url);
            expectFixtureCounts(window);
        }
        // The real binary with the URL as its argument: it shows the mirror (no "Cannot open
        // ./https:/…") and verifies it; its log says so (provender.ui info lines).
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("provender.ui.info=true"));
        env.insert(QStringLiteral("SSL_CERT_FILE"), m_served->caFile());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_tmp.filePath(QStringLiteral("cli-config")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_tmp.filePath(QStringLiteral("cli-cache")));
        QProcess gui;
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(PROVENDER_BINARY), {url});
        QVERIFY(gui.waitForStarted());
        QByteArray err;
        while (!err.contains("Downloaded and verified") && gui.state() == QProcess::Running && gui.waitForReadyRead(60000))
            err += gui.readAllStandardError();
        err += gui.readAllStandardError();
        gui.kill();
        gui.waitForFinished();
        QVERIFY2(!err.contains("Cannot open"), err.constData());
        QVERIFY2(err.contains(QByteArray("showing " + url.toUtf8() + ": 8 archives")), err.constData());
        QVERIFY2(err.contains("Downloaded and verified 8 archives"), err.constData());
        qunsetenv("SSL_CERT_FILE");
    }

    // File ▸ Open URL… fills the dialog and opens the mirror in this window; the form is
    // remembered for the URL, so opening it again from anywhere uses the same providers.
    void openUrlDialogOpensInTheMainWindow()
    {
        startNginx(false); // no listing: only the remembered providers can open it
        if (QTest::currentTestFailed() || !m_served)
            return;
        QSettings().remove(QStringLiteral("remote/requests"));
        MainWindow window;
        installRemoteUi(&window);
        QSignalSpy finished(&window, &MainWindow::verificationFinished);
        window.show();
        bool filled = false;
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = qobject_cast<OpenUrlDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            dialog->setUrl(m_served->baseUrl());
            dialog->setSource(RemoteRequest::ProviderSource::Addresses);
            dialog->setAddresses({QStringLiteral("example.com/acme/good")});
            dialog->setCaFile(m_served->caFile());
            QVERIFY2(dialog->problem().isEmpty(), qPrintable(dialog->problem()));
            filled = true;
            dialog->accept();
        });
        window.findChild<QAction *>(QStringLiteral("actionOpenUrl"))->trigger();
        QVERIFY(filled);
        QVERIFY(finished.wait(60000));
        QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Url);
        expectFixtureCounts(window);
        // Remembered: the URL alone (command line, recent list) gets the same form back.
        const RemoteRequest again = requestForUrl(m_served->baseUrl());
        QCOMPARE(again.source, RemoteRequest::ProviderSource::Addresses);
        QCOMPARE(again.providers.size(), 1);
        QCOMPARE(again.providers.first().toString(), QStringLiteral("example.com/acme/good"));
        QCOMPARE(again.caFile, m_served->caFile());
        MainWindow second;
        QSignalSpy secondFinished(&second, &MainWindow::verificationFinished);
        second.openMirror(m_served->baseUrl());
        QVERIFY(secondFinished.wait(60000));
        expectFixtureCounts(second);
    }

    void cancelFromTheWindow()
    {
        QTcpServer stall;
        QVERIFY(stall.listen(QHostAddress::LocalHost, 0));
        MainWindow window;
        QSignalSpy finished(&window, &MainWindow::verificationFinished);
        RemoteRequest request;
        request.baseUrl = QStringLiteral("https://127.0.0.1:%1/").arg(stall.serverPort());
        request.providers = {ProviderAddress::parse(u"example.com/acme/good").value()};
        request.timeoutMs = 600000;
        request.environment = QProcessEnvironment();
        QSignalSpy connected(&stall, &QTcpServer::newConnection);
        window.show();
        window.openUrl(request);
        // Cancel only once the request really hangs on the stalled server.
        QVERIFY(connected.wait(20000));
        QCOMPARE(finished.size(), 0);
        QPushButton *cancel = child<QPushButton>(&window, "cancelButton");
        QVERIFY(cancel->isVisible());
        QSignalSpy failed(&window, &MainWindow::openFailed);
        QTest::mouseClick(cancel, Qt::LeftButton);
        // Cancelled while its indexes were being fetched: nothing is shown, nothing failed.
        QVERIFY(!cancel->isVisible());
        QCOMPARE(child<QLabel>(&window, "statusLabel")->text(),
                 QStringLiteral("Fetching the indexes of %1 cancelled.").arg(request.baseUrl));
        QVERIFY(!window.jobs()->isBusy());
        QTest::qWait(200); // let a result that should have been dropped arrive
        QCOMPARE(finished.size(), 0);
        QCOMPARE(failed.size(), 0);
        QCOMPARE(window.sourceKind(), MainWindow::SourceKind::None);
        QVERIFY(child<QWidget>(&window, "emptyState")->isVisibleTo(&window));
    }

    void unusableRequestFailsCleanly()
    {
        // The run cannot start (its CA file holds no certificate): the error is shown on the empty
        // page, nothing runs, and the window stays usable.
        MainWindow window;
        QSignalSpy failed(&window, &MainWindow::openFailed);
        window.show();
        const QString notPem = m_tmp.filePath(QStringLiteral("not-a-ca.pem"));
        QFile f(notPem);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("no certificate here\n");
        f.close();
        RemoteRequest request;
        request.baseUrl = QStringLiteral("https://127.0.0.1:9/");
        request.caFile = notPem;
        request.providers = {ProviderAddress::parse(u"example.com/acme/good").value()};
        request.environment = QProcessEnvironment();
        window.openUrl(request);
        QVERIFY(failed.wait(30000));
        QLabel *error = child<QLabel>(&window, "errorLabel");
        QVERIFY(error->isVisibleTo(&window));
        QCOMPARE(error->text(), QStringLiteral("Cannot open https://127.0.0.1:9/: %1: no PEM certificate could be read").arg(notPem));
        QVERIFY(child<QWidget>(&window, "emptyState")->isVisibleTo(&window));
        QVERIFY(!child<QPushButton>(&window, "cancelButton")->isVisible());
        QVERIFY(!window.jobs()->isBusy());
    }
};

QTEST_MAIN(TestRemoteUi)
#include "tst_remoteui.moc"
