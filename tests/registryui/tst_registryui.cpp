// File ▸ Pull from Registry… offscreen, against make_registry.py's registry (zips, sizes and
// hashes from Python's hashlib/zipfile) served by nginx over TLS with gpg-signed SHA256SUMS: the
// dry run lists what would be fetched and how big (sizes from the registry's `packages`, Python's
// numbers) and writes nothing; the pull places the very bytes Python wrote, each row signed by the
// key gpg made; the main window's action opens the pulled mirror in the browser. With
// PROVENDER_SCREENSHOT_DIR=DIR the dialog after the pull is saved as DIR/pull-registry.png.
// Open Registry: the registry itself in the browser (RegistrySource), every archive verified with
// the signature anchor naming the key ID gpg gives; `registry:HOST?provider=…` opens the same.

#include "model/core/SizeFormat.h"
#include "tests/support/MainWindowSupport.h"
#include "tests/support/RegistryFixture.h"
#include "tests/support/TestSupport.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/registry/OpenRegistryDialog.h"
#include "ui/registry/PullRegistryDialog.h"
#include "ui/registry/RegistryUi.h"

#include "model/items/MirrorTreeModel.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace provender;
using namespace provender::ui;

class TestRegistryUi : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::RegistryFixture m_registry;

    PullRegistryDialog::Form form(const QString &dest) const
    {
        PullRegistryDialog::Form f;
        const QString host = test::RegistryFixture::host();
        f.typed = {host + u"/acme/demo=1.1.0"_s, host + u"/acme/packaged=1.0.0"_s};
        f.platforms = {Platform(u"linux"_s, u"amd64"_s), Platform(u"darwin"_s, u"arm64"_s)};
        f.destination = dest;
        f.caFile = m_registry.caFile();
        return f;
    }

    /// Runs `d` on form(dest) against the served registry (`dryRun`: only lists what it would
    /// fetch); false when it does not finish.
    bool run(PullRegistryDialog &d, const QString &dest, bool dryRun) const
    {
        d.setEnvironment(m_registry.environment());
        d.setForm(form(dest));
        QSignalSpy finished(&d, &PullRegistryDialog::finished);
        d.start(dryRun);
        return finished.wait(120000);
    }

    QJsonObject expected(const QString &type, const QString &version, const QString &platform) const
    {
        return m_registry.expected().value(type).toObject().value(version).toObject().value(platform).toObject();
    }

    static QString cell(const QStandardItemModel *m, int row, int column) { return m->item(row, column)->text(); }

private Q_SLOTS:
    void initTestCase()
    {
        PROVENDER_SKIP_UNLESS_ON_PATH(test::RegistryFixture::missingTools());
        QString error;
        QVERIFY2(m_registry.start(m_tmp.path(), &error), qPrintable(error));
    }

    void formProblems()
    {
        PullRegistryDialog d;
        QVERIFY(!d.problem().isEmpty()); // no providers yet
        PullRegistryDialog::Form f = form(m_tmp.filePath(u"x"_s));
        f.typed = {u"not an address!"_s};
        d.setForm(f);
        QVERIFY2(d.problem().startsWith(u"Providers: line 1: "_s), qPrintable(d.problem()));
        f = form({});
        d.setForm(f);
        QCOMPARE(d.problem(), u"Choose the target directory."_s);
        d.setForm(form(m_tmp.filePath(u"x"_s)));
        QCOMPARE(d.problem(), QString());
    }

    void dryRunListsWhatAndHowBig()
    {
        const QString dest = m_tmp.filePath(u"dry"_s);
        PullRegistryDialog d;
        QVERIFY(run(d, dest, true));
        const QStandardItemModel *rows = d.results();
        QCOMPARE(rows->rowCount(), 4);
        QHash<QString, QString> sizes;
        for (int r = 0; r < rows->rowCount(); ++r) {
            QCOMPARE(cell(rows, r, 0), u"would fetch"_s);
            sizes.insert(cell(rows, r, 1).section(u'/', -1) + u' ' + cell(rows, r, 3), cell(rows, r, 4));
        }
        // packaged publishes `packages` sizes (Python's len of each zip); demo does not.
        for (const QString &platform : {u"linux_amd64"_s, u"darwin_arm64"_s}) {
            QCOMPARE(sizes.value(u"packaged "_s + platform),
                     formatDataSize(expected(u"packaged"_s, u"1.0.0"_s, platform).value(u"size"_s).toInteger()));
            QCOMPARE(sizes.value(u"demo "_s + platform), u"unknown"_s);
        }
        const qint64 known = expected(u"packaged"_s, u"1.0.0"_s, u"linux_amd64"_s).value(u"size"_s).toInteger()
            + expected(u"packaged"_s, u"1.0.0"_s, u"darwin_arm64"_s).value(u"size"_s).toInteger();
        QCOMPARE(d.summary(), u"4 would fetch (%1 known, 2 of unknown size)"_s.arg(formatDataSize(known)));
        QVERIFY(!QFileInfo::exists(dest));
    }

    void pullPlacesTheSignedArchives()
    {
        const QString dest = m_tmp.filePath(u"pulled"_s);
        PullRegistryDialog d;
        QSignalSpy pulled(&d, &PullRegistryDialog::pulled);
        QVERIFY(run(d, dest, false));
        QCOMPARE(pulled.size(), 1);
        QCOMPARE(pulled.at(0).at(0).toString(), dest);
        const QStandardItemModel *rows = d.results();
        QCOMPARE(rows->rowCount(), 4);
        for (int r = 0; r < rows->rowCount(); ++r) {
            QCOMPARE(cell(rows, r, 0), u"fetched"_s);
            QVERIFY2(cell(rows, r, 5).startsWith(u"key ID "_s) && cell(rows, r, 5).size() == 7 + 16, qPrintable(cell(rows, r, 5)));
        }
        for (const auto &[type, version] : {std::pair{u"demo"_s, u"1.1.0"_s}, std::pair{u"packaged"_s, u"1.0.0"_s}})
            for (const QString &platform : {u"linux_amd64"_s, u"darwin_arm64"_s}) {
                const QJsonObject e = expected(type, version, platform);
                QCOMPARE(
                    test::readFile(dest + u'/' + test::RegistryFixture::host() + u"/acme/"_s + type + u'/' + e.value(u"file"_s).toString()),
                    test::readFile(e.value(u"zip"_s).toString()));
            }
        QVERIFY(d.summary().startsWith(u"4 fetched ("_s));
        if (const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR"); !dir.isEmpty()) {
            // The form as a user would fill it (no temporary paths in the picture).
            PullRegistryDialog::Form shown = form(u"/srv/mirrors/acme"_s);
            shown.caFile = u"/etc/provender/registry-ca.pem"_s;
            d.setForm(shown);
            d.jobs()->setMessage(u"Pulled into /srv/mirrors/acme."_s);
            d.show();
            QApplication::processEvents();
            QVERIFY(d.grab().save(dir + u"/pull-registry.png"_s));
        }
    }

    /// Every archive result of the window's tree.
    static QList<ArchiveResult> results(const MainWindow &window)
    {
        QList<ArchiveResult> out;
        const MirrorTreeModel *m = window.archiveModel();
        std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
            for (int r = 0; r < m->rowCount(parent); ++r) {
                const QModelIndex i = m->index(r, 0, parent);
                if (const std::optional<ArchiveResult> a = m->resultAt(i))
                    out << *a;
                walk(i);
            }
        };
        walk({});
        return out;
    }

    QString gpgKeyId() const
    {
        const test::ProcessRun shown = test::runProcess(u"gpg"_s, {u"--with-colons"_s, u"--show-keys"_s, m_tmp.filePath(u"key.asc"_s)},
                                                        60000, m_registry.environment());
        for (const QByteArray &line : shown.out.split('\n'))
            if (line.startsWith("fpr:"))
                return QString::fromLatin1(line.split(':').value(9)).right(16);
        return {};
    }

    void openRegistryInTheBrowser_data()
    {
        QTest::addColumn<bool>("commandLine");
        QTest::newRow("Open Registry… form") << false;
        QTest::newRow("registry:HOST?… argument") << true;
    }

    void openRegistryInTheBrowser()
    {
        QFETCH(bool, commandLine);
        const QString keyId = gpgKeyId();
        QCOMPARE(keyId.size(), 16);
        MainWindow window;
        QSignalSpy verified(&window, &MainWindow::verificationFinished);
        if (commandLine) {
            // The command-line form reads the process environment's CLI config, as the app does.
            qputenv("TF_CLI_CONFIG_FILE", m_registry.environment().value(u"TF_CLI_CONFIG_FILE"_s).toLocal8Bit());
            QString error;
            QVERIFY2(openRegistryArgument(&window,
                                          u"registry:%1?provider=acme/demo=1.1.0&platform=linux_amd64&platform=darwin_arm64&ca=%2"_s.arg(
                                              test::RegistryFixture::host(), m_registry.caFile()),
                                          &error),
                     qPrintable(error));
            QVERIFY(!openRegistryArgument(&window, u"/some/directory"_s, &error));
            QVERIFY(!openRegistryArgument(&window, u"registry:h?color=red"_s, &error));
            QVERIFY(error.contains(u"unknown item color"_s));
        } else {
            OpenRegistryDialog dialog;
            RegistryOpenForm f;
            f.host = test::RegistryFixture::host();
            f.typed = {u"acme/demo=1.1.0"_s}; // NS/TYPE gets the host
            f.platforms = {Platform(u"linux"_s, u"amd64"_s), Platform(u"darwin"_s, u"arm64"_s)};
            f.caFile = m_registry.caFile();
            f.environment = m_registry.environment();
            dialog.setForm(f);
            QCOMPARE(dialog.problem(), QString());
            QVERIFY(openRegistry(&window, dialog.form()));
        }
        QVERIFY(verified.wait(120000));
        QCOMPARE(window.mirrorRoot(), u"registry:"_s + test::RegistryFixture::host());
        const QList<ArchiveResult> got = results(window);
        QCOMPARE(got.size(), 2);
        for (const ArchiveResult &r : got) {
            QVERIFY2(r.detail.verdict == Verdict::Verified, qPrintable(r.key.toString() + u": "_s + r.detail.reason));
            QCOMPARE(r.hashes->zh.toString(),
                     u"zh:"_s + expected(u"demo"_s, u"1.1.0"_s, r.key.platform.toString()).value(u"sha256"_s).toString());
            QCOMPARE(r.detail.anchors.size(), 1);
            QVERIFY(r.detail.anchors.at(0).kind == TrustAnchor::Kind::Signature);
            QVERIFY2(describe(r.detail.anchors.at(0)).endsWith(u" signed by key ID "_s + keyId + u')'),
                     qPrintable(describe(r.detail.anchors.at(0))));
        }
        // Refresh lists the registry again (the kept maker), and verifies again.
        verified.clear();
        window.reverify();
        QVERIFY(verified.wait(120000));
        QCOMPARE(results(window).size(), 2);
        if (const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR"); !dir.isEmpty() && !commandLine) {
            window.resize(1200, 720);
            window.show();
            window.selectArchive(got.at(0).path);
            QApplication::processEvents();
            QVERIFY(window.grab().save(dir + u"/registry.png"_s));
        }
    }

    void mainWindowOpensThePulledMirror()
    {
        MainWindow window;
        installRegistryUi(&window);
        QAction *pull = test::menuAction(window, MainWindow::Menu::File, u"&Pull from Registry…"_s);
        QVERIFY(pull);
        pull->trigger();
        auto *dialog = test::visibleTopLevel<PullRegistryDialog>();
        QVERIFY(dialog);
        const QString dest = m_tmp.filePath(u"browsed"_s);
        dialog->setEnvironment(m_registry.environment());
        dialog->setForm(form(dest));
        QSignalSpy opened(&window, &MainWindow::mirrorOpened);
        dialog->start(false);
        QVERIFY(opened.wait(120000));
        QCOMPARE(window.mirrorRoot(), dest);
        QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Directory);
        QCOMPARE(window.catalog().archiveCount(), 4);
        dialog->close();
    }
};

QTEST_MAIN(TestRegistryUi)
#include "tst_registryui.moc"
