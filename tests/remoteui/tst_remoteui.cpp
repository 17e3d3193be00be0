// The network-mirror GUI offscreen: OpenUrlDialog's validation and the request it builds, the
// recent URLs in QSettings, CredentialsDialog's source and masked token (environment and files
// made by the test), installRemoteUi's menu entries, and RemoteMirrorWindow against a real nginx
// serving MirrorFixture.h's mirror (Python built the zips and declared hashes, so the expected
// verdict counts follow from the fixture). With PROVENDER_SCREENSHOTS=DIR the window is saved
// as DIR/remote.png.

#include "tests/network/MirrorFixture.h"
#include "tests/support/NginxFixture.h"

#include "model/items/AnomalyListModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/network/RequestLogModel.h"
#include "ui/MainWindow.h"
#include "ui/remote/CredentialsDialog.h"
#include "ui/remote/OpenUrlDialog.h"
#include "ui/remote/RemoteMirrorWindow.h"
#include "ui/remote/RemoteUi.h"

#include "tests/support/TestSupport.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace provender::ui;

class TestRemoteUi : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;

    template<typename T>
    static T *child(QWidget *w, const char *name)
    {
        T *c = w->findChild<T *>(QString::fromLatin1(name));
        if (!c)
            qWarning("no child %s", name);
        return c;
    }

    static void saveShot(QWidget *w, const char *name)
    {
        const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOTS");
        if (dir.isEmpty())
            return;
        w->show();
        QApplication::processEvents();
        QVERIFY(w->grab().save(dir + QLatin1Char('/') + QLatin1StringView(name) + QStringLiteral(".png")));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ProvenderTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_remoteui"));
        QSettings().clear();
        QVERIFY(m_tmp.isValid());
    }

    void openUrlValidation_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("source"); // radio objectName
        QTest::addColumn<QString>("text");   // addresses or lock path
        QTest::addColumn<bool>("allowHttp");
        QTest::addColumn<QString>("problem"); // substring; "" = usable
        QTest::newRow("empty") << QString() << "sourceAddresses" << "hashicorp/aws" << false << "Enter the URL";
        QTest::newRow("ok") << "https://m.example/p/" << "sourceAddresses" << "hashicorp/aws" << false << "";
        QTest::newRow("http refused") << "http://127.0.0.1:8080/" << "sourceAddresses" << "hashicorp/aws" << false
                                      << "Cannot use \"http://127.0.0.1:8080/\"";
        QTest::newRow("http loopback allowed") << "http://127.0.0.1:8080/" << "sourceAddresses" << "hashicorp/aws" << true << "";
        QTest::newRow("http remote never") << "http://m.example/" << "sourceAddresses" << "hashicorp/aws" << true << "Cannot use";
        QTest::newRow("user info refused") << "https://me:s3cret-in-url@m.example/" << "sourceAddresses" << "hashicorp/aws" << false
                                           << "user name or password";
        QTest::newRow("no addresses") << "https://m.example/" << "sourceAddresses" << "\n  \n" << false << "Name at least one provider";
        QTest::newRow("bad address") << "https://m.example/" << "sourceAddresses" << "hashicorp/aws\nnot an address!" << false
                                     << "“not an address!” is not a provider address";
        QTest::newRow("lock missing") << "https://m.example/" << "sourceLock" << "/nonexistent.lock.hcl" << false << "is not a file";
        QTest::newRow("autoindex") << "https://m.example/" << "sourceAutoindex" << "" << false << "";
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
        d.setAddresses({QStringLiteral("hashicorp/aws"), QStringLiteral("# a comment"), QStringLiteral("registry.opentofu.org/hashicorp/aws"),
                        QStringLiteral("  example.com/acme/thing  "), QStringLiteral("example.com/acme/thing")});
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
    }

    void installedIntoMainWindow()
    {
        MainWindow window;
        installRemoteUi(&window);
        auto *openUrl = window.findChild<QAction *>(QStringLiteral("actionOpenUrl"));
        QVERIFY(openUrl);
        QCOMPARE(openUrl->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+O")));
        QVERIFY(window.menu(MainWindow::Menu::File)->actions().contains(openUrl));
        auto *credentials = window.findChild<QAction *>(QStringLiteral("actionCredentials"));
        QVERIFY(credentials);
        QVERIFY(window.menu(MainWindow::Menu::Tools)->actions().contains(credentials));
    }

    void remoteWindowAgainstNginx()
    {
        QString missing = test::NginxFixture::missingTools();
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            missing += QStringLiteral(" python3");
        if (!missing.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("needs %1 on PATH").arg(missing));
        test::NginxFixture nginx;
        const QString mirror = m_tmp.filePath(QStringLiteral("mirror"));
        QProcess py;
        py.start(python, {QStringLiteral("-c"), QString::fromUtf8(test::kMakeMirror), mirror});
        QVERIFY(py.waitForFinished(120000));
        QCOMPARE(py.exitCode(), 0);
        QString error;
        QVERIFY2(nginx.makeCertificates(&error), qPrintable(error));
        QVERIFY2(nginx.start(mirror, QString::fromUtf8(test::kServerExtra), {}, &error), qPrintable(error));

        RemoteMirrorWindow window;
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        QAbstractItemModelTester tester(window.requestLog(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy ended(&window, &RemoteMirrorWindow::runEnded);
        window.resize(1200, 760);
        window.show();
        RemoteRequest request;
        request.baseUrl = nginx.baseUrl();
        request.caFile = nginx.caFile();
        request.providers = {ProviderAddress::parse(u"example.com/acme/good").value(),
                             ProviderAddress::parse(u"example.com/acme/wrongtype").value()};
        request.backoffMs = 10;
        request.maxBackoffMs = 50;
        request.environment = QProcessEnvironment();
        request.homeDir = m_tmp.filePath(QStringLiteral("home"));
        window.open(request);
        QVERIFY(child<QPushButton>(&window, "remoteCancel")->isEnabled());
        QVERIFY(ended.wait(60000));
        QVERIFY(!child<QPushButton>(&window, "remoteCancel")->isEnabled());

        const auto &counts = window.archiveModel()->verdictCounts();
        QCOMPARE(window.archiveModel()->archiveCount(), 8);
        QCOMPARE(counts[size_t(Verdict::Verified)], 3);
        QCOMPARE(counts[size_t(Verdict::Mismatch)], 1);
        QCOMPARE(counts[size_t(Verdict::Unverified)], 1);
        QCOMPARE(counts[size_t(Verdict::Missing)], 1);
        QCOMPARE(counts[size_t(Verdict::Error)], 2);
        QCOMPARE(counts[size_t(Verdict::Pending)], 0);
        // wrongtype's index.json and good's 2.0.0.json are anomalies.
        QCOMPARE(window.anomalyModel()->rowCount(), 2);
        auto *log = child<QTableView>(&window, "requestLogView");
        QVERIFY(log->model()->rowCount() >= 12);
        QCOMPARE(window.requestLog()->failedCount(), 5);
        const QString summary = child<QLabel>(&window, "requestLogSummary")->text();
        QVERIFY2(summary.contains(QStringLiteral("5 failed")), qPrintable(summary));
        // "Failures only" keeps the 404s and 500s.
        child<QCheckBox>(&window, "failuresOnly")->setChecked(true);
        QCOMPARE(log->model()->rowCount(), 5);
        child<QCheckBox>(&window, "failuresOnly")->setChecked(false);

        // The details pane shows the selected archive: its verdict and the hash its index declares
        // (read here from the <version>.json that Python wrote, with Qt's JSON reader).
        {
            QFile versionJson(mirror + QStringLiteral("/example.com/acme/good/1.0.0.json"));
            QVERIFY(versionJson.open(QIODevice::ReadOnly));
            const QJsonObject archives = QJsonDocument::fromJson(versionJson.readAll()).object().value(QStringLiteral("archives")).toObject();
            const QString declared = archives.value(QStringLiteral("linux_amd64")).toObject().value(QStringLiteral("hashes")).toArray().first().toString();
            QVERIFY(declared.startsWith(QStringLiteral("h1:")) || declared.startsWith(QStringLiteral("zh:")));
            auto *tree = child<QTreeView>(&window, "remoteArchiveView");
            QModelIndex leaf;
            const QAbstractItemModel *m = tree->model();
            std::function<void(const QModelIndex &)> find = [&](const QModelIndex &parent) {
                for (int r = 0; r < m->rowCount(parent) && !leaf.isValid(); ++r) {
                    const QModelIndex i = m->index(r, 0, parent);
                    if (i.data().toString() == QStringLiteral("linux_amd64") && i.parent().data().toString() == QStringLiteral("1.0.0"))
                        leaf = i;
                    else
                        find(i);
                }
            };
            find({});
            QVERIFY(leaf.isValid());
            tree->setCurrentIndex(leaf);
            const QString details = child<QTextBrowser>(&window, "detailsView")->toPlainText();
            QVERIFY2(details.contains(QStringLiteral("verified")), qPrintable(details));
            QVERIFY2(details.contains(declared), qPrintable(details));
            QVERIFY(!child<QToolButton>(&window, "showInFolderButton")->isVisibleTo(&window));
        }

        window.findChild<QDockWidget *>(QStringLiteral("requestLogDock"))->raise();
        QApplication::processEvents();
        const QImage shot = window.grab().toImage();
        QVERIFY(!shot.isNull());
        const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOTS");
        if (!dir.isEmpty())
            QVERIFY(shot.save(dir + QStringLiteral("/remote.png")));
    }

    void cancelFromTheWindow()
    {
        QTcpServer stall;
        QVERIFY(stall.listen(QHostAddress::LocalHost, 0));
        RemoteMirrorWindow window;
        window.setAttribute(Qt::WA_DeleteOnClose, false);
        QSignalSpy ended(&window, &RemoteMirrorWindow::runEnded);
        RemoteRequest request;
        request.baseUrl = QStringLiteral("https://127.0.0.1:%1/").arg(stall.serverPort());
        request.providers = {ProviderAddress::parse(u"example.com/acme/good").value()};
        request.timeoutMs = 600000;
        request.environment = QProcessEnvironment();
        QSignalSpy connected(&stall, &QTcpServer::newConnection);
        window.show();
        window.open(request);
        // Cancel only once the request really hangs on the stalled server.
        QVERIFY(connected.wait(20000));
        QCOMPARE(ended.size(), 0);
        QTest::mouseClick(child<QPushButton>(&window, "remoteCancel"), Qt::LeftButton);
        QVERIFY(ended.wait(20000));
        QCOMPARE(child<QLabel>(&window, "remoteStatus")->text(), QStringLiteral("Cancelled."));
    }
};

QTEST_MAIN(TestRemoteUi)
#include "tst_remoteui.moc"
