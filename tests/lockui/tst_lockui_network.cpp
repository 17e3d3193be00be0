// The lock windows with a network mirror's URL (Open Mirror… takes DIR|URL, as the CLI's
// `--mirror`): the shared served mirror (tests/support/ServedMirror.h: zips, hashes and JSON
// documents made by Python's zipfile/hashlib, served by a real nginx over TLS on 127.0.0.1).
// Expected hashes are Python's; the editor's bytes and the coverage matrix's verdicts are also
// compared with what the CLI (`provender lock add-hashes|check --mirror URL`, another process;
// tst_interop_lockinit compares those with terraform's -net-mirror) writes and decides.
//
//   example.com/acme/good 1.0.0: linux_amd64 (zh declared, matches), darwin_arm64 (h1 declared,
//   matches), windows_amd64 (the index declares another zip's zh: terraform refuses it),
//   linux_arm64 (nothing declared), freebsd_amd64 (404); index.json also lists 2.0.0, whose
//   2.0.0.json is absent.

#include "model/lockfile/LockFile.h"
#include "model/lockitems/CoverageMatrixModel.h"
#include "model/lockitems/LockDiffTreeModel.h"
#include "model/lockitems/LockHashListModel.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/ServedMirror.h"
#include "tests/support/TestSupport.h"
#include "ui/lock/CoverageMatrixWindow.h"
#include "ui/lock/LockDialogs.h"
#include "ui/lock/LockDiffWindow.h"
#include "ui/lock/LockEditorWindow.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

const char *kGood = "example.com/acme/good";

/// The good provider at 1.0.0 with `hashes` (none: no hashes argument), `constraints` "" for none.
QByteArray lockText(const QStringList &hashes, const char *constraints = "")
{
    QList<QByteArray> bytes;
    for (const QString &h : hashes)
        bytes << h.toUtf8();
    return test::providerBlock(kGood, "1.0.0", constraints, bytes);
}

QStringList lockedHashes(const QByteArray &bytes)
{
    QStringList out;
    const LockParseResult parsed = parseLockFile(bytes);
    if (const ProviderLock *p = parsed.document.find(ProviderAddress::parse(QString::fromLatin1(kGood)).value()))
        for (const HashString &h : p->hashes)
            out << h.toString();
    out.sort();
    return out;
}

bool waitIdle(const std::function<bool()> &busy)
{
    return QTest::qWaitFor([&busy] { return !busy(); }, 120000);
}

} // namespace

class TestLockUiNetwork : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::unique_ptr<test::ServedMirror> m_served;

    /// Python's hash `field` ("h1", "zh") of the good provider's `platform` package.
    QString py(const char *platform, const char *field) const
    {
        return m_served->expected().value(QString::fromLatin1(platform)).toObject().value(QString::fromLatin1(field)).toString();
    }

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_tmp.filePath(name);
        return test::writeFile(path, bytes) ? path : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(u"tst_lockui_network"_s);
        PROVENDER_SKIP_UNLESS_ON_PATH(test::ServedMirror::missingTools());
        m_served = std::make_unique<test::ServedMirror>();
        QString error;
        QVERIFY2(m_served->start(m_tmp.filePath(u"mirror"_s), &error), qPrintable(error));
        // Trusted as a system CA, as a user would set it (before the first request of the process).
        qputenv("SSL_CERT_FILE", QFile::encodeName(m_served->caFile()));
        for (const char *proxy : {"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"})
            qunsetenv(proxy);
        QVERIFY(!py("linux_amd64", "h1").isEmpty());
    }

    /// Add Hashes from a URL: the h1: of the packages terraform would install, as Python computed
    /// them; a package that does not match what the index declares gets no hash and is named.
    void editorAddsHashesFromUrl()
    {
        const QString path = write(u"add.terraform.lock.hcl"_s, lockText({}));
        LockEditorWindow w;
        QVERIFY(w.openFile(path));
        QSignalSpy opened(&w, &LockEditorWindow::mirrorChanged);
        const qint64 logStart = m_served->nginx().accessLogSize();
        w.openMirror(m_served->baseUrl());
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QCOMPARE(opened.size(), 1);
        QVERIFY(w.findChild<QLabel *>(u"mirrorLabel"_s)->text().contains(m_served->baseUrl()));
        QCOMPARE(test::toStrings(w.mirrorPlatforms()),
                 (QStringList{u"darwin_arm64"_s, u"freebsd_amd64"_s, u"linux_386"_s, u"linux_amd64"_s, u"linux_arm64"_s, u"openbsd_amd64"_s,
                              u"solaris_amd64"_s, u"windows_amd64"_s}));

        // The locked versions have not changed since Open Mirror… read the indexes for them: the
        // hash trace and Add Hashes download packages and read no index again.
        QVERIFY2(
            w.addHashesFromMirror({test::platform("linux_amd64"), test::platform("darwin_arm64"), test::platform("linux_arm64")}, false),
            qPrintable(w.lastMessage()));
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QVERIFY(QTest::qWaitFor([&w] { return w.provenanceReady(); }, 120000));
        const QByteArray log = m_served->nginx().accessLogFrom(logStart);
        QVERIFY2(log.count("/index.json ") == 1 && log.count("/1.0.0.json ") == 1, log.constData());
        QVERIFY2(log.contains(m_served->expected().value(u"darwin_arm64"_s).toObject().value(u"url"_s).toString().toUtf8()),
                 log.constData());
        QVERIFY2(w.notes().isEmpty(), qPrintable(w.notes().join(u'\n')));
        QStringList expected{py("linux_amd64", "h1"), py("darwin_arm64", "h1"), py("linux_arm64", "h1")};
        expected.sort();
        QCOMPARE(lockedHashes(w.currentBytes()), expected);
        // Byte for byte what `provender lock add-hashes --mirror URL` writes for the same file.
        const QString cliPath = write(u"add-cli.terraform.lock.hcl"_s, lockText({}));
        const test::ProcessRun cli =
            test::runProcess(QStringLiteral(PROVENDER_BINARY),
                             {u"lock"_s, u"add-hashes"_s, cliPath, u"--mirror"_s, m_served->baseUrl(), u"--platform"_s, u"linux_amd64"_s,
                              u"--platform"_s, u"darwin_arm64"_s, u"--platform"_s, u"linux_arm64"_s},
                             120000);
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.text()));
        QCOMPARE(w.currentBytes(), test::readFile(cliPath));
        // The hash list names each hash's platform, traced through the URL's downloaded packages.
        QVERIFY(QTest::qWaitFor([&w] { return w.provenanceReady(); }, 120000));
        const QAbstractItemModel *hashList = w.findChild<QTableView *>(u"hashView"_s)->model();
        QMap<QString, QString> platformByHash;
        for (int row = 0; row < hashList->rowCount(); ++row)
            platformByHash.insert(hashList->index(row, LockHashListModel::HashColumn).data(Qt::DisplayRole).toString(),
                                  hashList->index(row, LockHashListModel::PlatformColumn).data().toString());
        QCOMPARE(platformByHash.value(py("linux_amd64", "h1")), u"linux_amd64"_s);
        QCOMPARE(platformByHash.value(py("darwin_arm64", "h1")), u"darwin_arm64"_s);
        QCOMPARE(platformByHash.value(py("linux_arm64", "h1")), u"linux_arm64"_s);

        // Cancel (Edit ▸ Cancel Hashing) while the mirror is read or the packages download: nothing changes.
        const QByteArray added = w.currentBytes();
        QVERIFY(w.addHashesFromMirror({test::platform("solaris_amd64")}, false));
        w.cancelHashing();
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QCOMPARE(w.currentBytes(), added);
        QVERIFY2(w.lastMessage().startsWith(u"Cancelled"_s), qPrintable(w.lastMessage()));

        // windows_amd64: its bytes are not what the index declares; freebsd_amd64: 404.
        const QByteArray before = w.currentBytes();
        QVERIFY(w.addHashesFromMirror({test::platform("windows_amd64"), test::platform("freebsd_amd64")}, false));
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QCOMPARE(w.currentBytes(), before);
        QCOMPARE(w.notes().size(), 2);
        QVERIFY2(w.notes().join(u'\n').contains(u"windows_amd64"_s) && w.notes().join(u'\n').contains(u"freebsd_amd64"_s),
                 qPrintable(w.notes().join(u'\n')));
        QVERIFY2(w.lastMessage().contains(u"2 problem(s)"_s), qPrintable(w.lastMessage()));
    }

    /// Upgrade reads only the version its constraints select from index.json, as lock upgrade
    /// (and terraform) does: 2.0.0, whose 2.0.0.json is absent, so nothing changes and the line says why.
    void editorUpgradeFromUrl()
    {
        const QByteArray text = lockText({py("linux_amd64", "h1")}, ">= 1.0.0");
        LockEditorWindow w;
        QVERIFY(w.openFile(write(u"upgrade.terraform.lock.hcl"_s, text)));
        w.openMirror(m_served->baseUrl());
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QVERIFY(w.catalog());
        QVERIFY(w.upgradeFromMirror());
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QCOMPARE(w.currentBytes(), text);
        QVERIFY2(w.lastMessage().contains(
                     u"example.com/acme/good 2.0.0 is the selected version, but the mirror's 2.0.0.json could not be read"_s),
                 qPrintable(w.lastMessage()));
    }

    /// A location that is no usable mirror URL: a clear line naming it, and no mirror; an
    /// unreachable one: the line says which request failed.
    void editorRefusesBadUrl()
    {
        LockEditorWindow w;
        QVERIFY(w.openFile(write(u"bad.terraform.lock.hcl"_s, lockText({}))));
        w.openMirror(u"ftp://127.0.0.1/mirror/"_s);
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QVERIFY(!w.catalog());
        QVERIFY2(w.lastMessage().startsWith(u"Cannot read the mirror ftp://127.0.0.1/mirror/: "_s), qPrintable(w.lastMessage()));

        // Nothing listening: the mirror opens as lock check opens it (no provider found), and the
        // line names the URL and the failed request.
        w.openMirror(u"https://127.0.0.1:1/"_s);
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QVERIFY(w.catalog() && w.catalog()->providers.isEmpty());
        QVERIFY2(w.lastMessage().startsWith(u"The mirror https://127.0.0.1:1/ warns: "_s)
                     && w.lastMessage().contains(u"example.com/acme/good"_s),
                 qPrintable(w.lastMessage()));
    }

    /// The diff window traces hashes to the URL mirror's packages: Python's h1: of linux_amd64 and
    /// darwin_arm64 are named; windows_amd64's, whose package terraform refuses, stays unknown.
    void diffNamesPlatformsFromUrl()
    {
        LockDiffWindow w;
        QVERIFY(w.openFiles(write(u"old.hcl"_s, lockText({})),
                            write(u"new.hcl"_s, lockText({py("linux_amd64", "h1"), py("darwin_arm64", "h1"), py("windows_amd64", "h1")}))));
        QSignalSpy traced(&w, &LockDiffWindow::provenanceChanged);
        w.openMirror(m_served->baseUrl());
        QVERIFY(traced.wait(120000));
        QVERIFY(w.findChild<QLabel *>(u"mirrorLabel"_s)->text().contains(m_served->baseUrl()));
        const QStringList lines = w.model()->dump().split(u'\n');
        const auto platformOf = [&lines](const QString &hash) {
            for (qsizetype i = 0; i < lines.size(); ++i)
                if (lines.at(i).trimmed().startsWith(hash))
                    for (qsizetype j = i - 1; j >= 0; --j)
                        if (lines.at(j).startsWith(u"    "_s) && !lines.at(j).startsWith(u"      "_s))
                            return lines.at(j).trimmed().section(u" |"_s, 0, 0);
            return QString();
        };
        QCOMPARE(platformOf(py("linux_amd64", "h1")), u"linux_amd64"_s);
        QCOMPARE(platformOf(py("darwin_arm64", "h1")), u"darwin_arm64"_s);
        QCOMPARE(platformOf(py("windows_amd64", "h1")), u"unknown platform"_s);
    }

    /// The coverage matrix against the URL: the verdicts `provender lock check --mirror URL`
    /// gives for the same file, and the two Python hashes verified.
    void coverageFromUrl()
    {
        QSettings().remove(QString(CoverageMatrixWindow::kSettingsKey));
        const QByteArray text = lockText({py("linux_amd64", "zh"), py("darwin_arm64", "h1")});
        const QString path = write(u"check.terraform.lock.hcl"_s, text);
        const QStringList platforms{u"darwin_arm64"_s, u"freebsd_amd64"_s, u"linux_amd64"_s, u"linux_arm64"_s, u"windows_amd64"_s};
        CoverageMatrixWindow w;
        QSignalSpy updated(&w, &CoverageMatrixWindow::matrixUpdated);
        QVERIFY(w.openLockFile(path));
        QList<Platform> columns;
        for (const QString &p : platforms)
            columns << test::platform(p.toLatin1().constData());
        w.setPlatforms(columns);
        w.openMirror(m_served->baseUrl());
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        QVERIFY(!updated.isEmpty());
        const QString row = w.model()->dump().trimmed();
        const QStringList cells = row.section(u": "_s, 1).split(u" | "_s);
        QCOMPARE(cells.size(), platforms.size());
        // darwin_arm64 and linux_amd64: Python's hashes in the lock; freebsd_amd64: 404;
        // linux_arm64: installable (nothing declared) but not the lock's; windows_amd64: refused.
        QCOMPARE(row, u"example.com/acme/good 1.0.0: ✓ verified | ! error | ✓ verified | ✗ mismatch | ! error"_s);

        QStringList args{u"lock"_s, u"check"_s, path, u"--mirror"_s, m_served->baseUrl(), u"--json"_s};
        for (const QString &p : platforms)
            args << u"--platform"_s << p;
        const test::ProcessRun cli = test::runProcess(QStringLiteral(PROVENDER_BINARY), args, 120000);
        const QJsonArray cliCells =
            QJsonDocument::fromJson(cli.out).object().value(u"providers"_s).toArray().at(0).toObject().value(u"cells"_s).toArray();
        QVERIFY2(cliCells.size() == platforms.size(), qPrintable(cli.text()));
        for (qsizetype i = 0; i < platforms.size(); ++i)
            QVERIFY2(cells.at(i).endsWith(cliCells.at(i).toObject().value(u"verdict"_s).toString()),
                     qPrintable(platforms.at(i) + u": "_s + cells.at(i) + u" vs "_s + QString::fromUtf8(cli.out)));
        QVERIFY2(w.findChild<QLabel *>(u"statusLabel"_s)->text().contains(m_served->baseUrl()),
                 qPrintable(w.findChild<QLabel *>(u"statusLabel"_s)->text()));
    }

    /// A locked version whose <version>.json the mirror lacks: the check's line says what the
    /// mirror warned when it was opened (as lock check prints it).
    void coverageShowsMirrorWarning()
    {
        CoverageMatrixWindow w;
        QVERIFY(w.openLockFile(write(u"absent.terraform.lock.hcl"_s, test::providerBlock(kGood, "2.0.0", "", {}))));
        w.openMirror(m_served->baseUrl());
        QVERIFY(waitIdle([&w] { return w.isBusy(); }));
        const QString status = w.findChild<QLabel *>(u"statusLabel"_s)->text();
        QVERIFY2(status.contains(u"The mirror %1 warns: "_s.arg(m_served->baseUrl())) && status.contains(u"2.0.0"_s), qPrintable(status));
    }

    /// Open Mirror…: OK only for a directory or a usable URL, the reason shown; a URL opened is
    /// remembered with the recent URLs.
    void mirrorLocationDialog()
    {
        MirrorLocationDialog dialog{QString()};
        auto *ok = dialog.findChild<QDialogButtonBox *>(u"buttons"_s)->button(QDialogButtonBox::Ok);
        auto *problem = dialog.findChild<QLabel *>(u"problemLabel"_s);
        QVERIFY(!ok->isEnabled());
        dialog.setLocation(m_tmp.filePath(u"nothing-here"_s));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(problem->text().contains(u"not a directory"_s), qPrintable(problem->text()));
        dialog.setLocation(u"http://mirror.example.com/"_s);
        QVERIFY(!ok->isEnabled());
        QVERIFY(!problem->text().isEmpty());
        dialog.setLocation(m_tmp.path());
        QVERIFY(ok->isEnabled());
        dialog.setLocation(m_served->baseUrl());
        QVERIFY(ok->isEnabled());
        dialog.accept();
        QCOMPARE(dialog.location(), m_served->baseUrl());
        MirrorLocationDialog again{QString()};
        QVERIFY(again.findChild<QComboBox *>(u"mirrorLocation"_s)->findText(m_served->baseUrl()) >= 0);
    }
};

QTEST_MAIN(TestLockUiNetwork)
#include "tst_lockui_network.moc"
