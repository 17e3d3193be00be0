// The browser shows signed provenance (issue 19 item 4): a mirror whose `.provenance/` keeps a
// release's SHA256SUMS (written here by Python's hashlib over the archives), signed by a key gpg
// makes, opens in the main window; after verification the archive's details pane and tree tooltip
// say "signed by <gpg's key ID> (<user ID>)", an archive of another release still says
// "consistent with its own index", and after one byte of the SHA256SUMS is flipped and the mirror
// verified again the archive is refused with the reason.

#include "model/items/MirrorTreeModel.h"
#include "model/mirror/DemoMirror.h"
#include "tests/support/GpgFixture.h"
#include "tests/support/MainWindowSupport.h"
#include "tests/support/TestSupport.h"
#include "tests/support/TreeRows.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

using namespace provender;
using namespace Qt::StringLiterals;

class TestProvenanceUi : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_demo, m_keyId, m_sums;
    const QString kUid = u"Widget Releases <widget@acme.test>"_s;

    static QModelIndex leafMatching(const QAbstractItemModel *m, const QString &text)
    {
        for (const QModelIndex &i : test::archiveRows(m))
            if (i.data(MirrorTreeModel::SearchTextRole).toString().contains(text))
                return i;
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!test::GpgFixture::available() || test::python3().isEmpty())
            PROVENDER_SKIP(test::Missing::Package, u"needs gpg and python3"_s);
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_tmp.filePath(u"cache"_s)));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_tmp.filePath(u"config"_s)));
        QCoreApplication::setOrganizationName(u"Provender"_s);
        QCoreApplication::setApplicationName(u"provender-test"_s);
        m_demo = m_tmp.filePath(u"demo"_s);
        QVERIFY(generateDemoMirror(m_demo).ok());

        // The proof of null 3.2.2, laid out as `mirror pull` keeps it: SHA256SUMS by hashlib.
        QString error;
        const QByteArray dir = test::runPythonCode(
            u"import glob, hashlib, os, sys\n"
            "zips = sorted(glob.glob(os.path.join(sys.argv[1], '*', '*', 'null', 'terraform-provider-null_3.2.2_*.zip')))\n"
            "host, ns = zips[0].split(os.sep)[-4], zips[0].split(os.sep)[-3]\n"
            "d = os.path.join(sys.argv[1], '.provenance', host, ns, 'null', '3.2.2')\n"
            "os.makedirs(d)\n"
            "with open(os.path.join(d, 'SHA256SUMS'), 'w') as f:\n"
            "    for z in zips:\n"
            "        f.write('%s  %s\\n' % (hashlib.sha256(open(z, 'rb').read()).hexdigest(), os.path.basename(z)))\n"
            "print(d)\n"_s,
            {m_demo}, &error);
        QVERIFY2(!dir.trimmed().isEmpty(), qPrintable(error));
        const QString prov = QString::fromUtf8(dir.trimmed());
        m_sums = prov + u"/SHA256SUMS"_s;
        test::GpgFixture gpg;
        const QString fpr = gpg.generateKey(kUid);
        QVERIFY2(!fpr.isEmpty(), qPrintable(gpg.lastError()));
        const QByteArray sig = gpg.sign(fpr, test::readFile(m_sums));
        QVERIFY(!sig.isEmpty());
        for (const auto &[name, bytes] : {std::pair{u"/SHA256SUMS.sig"_s, sig}, std::pair{u"/keys.asc"_s, gpg.exportKey(fpr)}}) {
            QFile f(prov + name);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        }
        const test::ProcessRun list =
            test::runProcess(u"gpg"_s, {u"--batch"_s, u"--with-colons"_s, u"--list-keys"_s, fpr}, 60000, gpg.environment());
        for (const QByteArray &line : list.out.split('\n'))
            if (line.startsWith("pub:"))
                m_keyId = QString::fromLatin1(line.split(':').value(4));
        QCOMPARE(m_keyId.size(), 16);
    }

    void detailsAndTooltipSaySignedBy()
    {
        ui::MainWindow w;
        QVERIFY(test::showExposed(w, {1280, 780}));
        QVERIFY(test::openAndVerify(w, m_demo));
        QTreeView *view = test::child<QTreeView>(w, "archiveView");
        QTextBrowser *details = test::child<QTextBrowser>(w, "detailsView");
        QVERIFY(view && details);
        const QString signedBy = u"signed by %1 (%2)"_s.arg(m_keyId, kUid);

        const QModelIndex target = leafMatching(view->model(), u"/null 3.2.2 linux_amd64"_s);
        QVERIFY(target.isValid());
        QCOMPARE(target.siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString(), u"verified"_s);
        view->setCurrentIndex(target);
        QVERIFY2(details->toPlainText().contains(signedBy), qPrintable(details->toPlainText()));
        QVERIFY2(target.data(Qt::ToolTipRole).toString().contains(u"Checked against: "_s + signedBy),
                 qPrintable(target.data(Qt::ToolTipRole).toString()));

        // Another release keeps no proof: only its own index.
        const QModelIndex other = leafMatching(view->model(), u"/null 3.2.1 linux_amd64"_s);
        QVERIFY(other.isValid());
        view->setCurrentIndex(other);
        QVERIFY(!details->toPlainText().contains(u"signed by"_s));
        QVERIFY(details->toPlainText().contains(u"consistent with its own index"_s));

        // One byte of the signed SHA256SUMS flipped: verified again, refused, and why.
        QByteArray sums = test::readFile(m_sums);
        sums[0] = char(sums.at(0) ^ 0x01);
        QFile f(m_sums);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(sums) == sums.size());
        f.close();
        QVERIFY(test::openAndVerify(w, m_demo));
        const QModelIndex again = leafMatching(view->model(), u"/null 3.2.2 linux_amd64"_s);
        QVERIFY(again.isValid());
        QCOMPARE(again.siblingAtColumn(MirrorTreeModel::VerdictColumn).data().toString(), u"refused"_s);
        view->setCurrentIndex(again);
        QVERIFY2(details->toPlainText().contains(u"is not good"_s), qPrintable(details->toPlainText()));
        QVERIFY(!details->toPlainText().contains(signedBy));
    }
};

QTEST_MAIN(TestProvenanceUi)
#include "tst_provenance_ui.moc"
