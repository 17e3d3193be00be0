// Export Indexes… in the main window against the real `terraform providers mirror`: terraform
// fills a mirror directory from an origin registry (make_registry.py's static providers.v1 tree
// served by nginx over TLS on 127.0.0.1, SHA256SUMS signed with a key gpg makes here — the setup
// of tests/registry/tst_interop_pull.cpp, tests/support/RegistryFixture), twice so that its indexes merge. Then:
//   1. the mirror open in the main window, the dialog's dry run over terraform's own files finds
//      nothing to write (and Export stays disabled);
//   2. terraform's index.json / <version>.json are recorded and deleted; the dialog's preview
//      lists exactly those files as "create", and its export writes them back byte for byte;
//   3. the browser rescans and shows every archive verified against the new indexes.
// Skips without terraform, nginx, gpg or python3.

#include "model/verify/Verdict.h"
#include "tests/support/RegistryFixture.h"
#include "tests/support/TestSupport.h"
#include "ui/MainWindow.h"
#include "ui/export/ExportDialogs.h"
#include "ui/export/ExportUi.h"

#include <QAction>
#include <QDirIterator>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace provender;
using namespace provender::ui;
using namespace Qt::StringLiterals;

namespace {

const QString kHost = test::RegistryFixture::host();
using Wanted = test::RegistryFixture::Wanted;

} // namespace

class TestExportUiTerraform : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    test::RegistryFixture m_registry;

    test::ProcessRun terraformMirror(const QString &configName, const QList<Wanted> &wanted, const QString &dest)
    {
        const QString dir = m_tmp.filePath(configName);
        if (!test::RegistryFixture::writeConfiguration(dir, wanted))
            return {};
        return m_registry.terraformMirror(dir, {u"linux_amd64"_s, u"darwin_arm64"_s}, dest);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        test::useOwnSettings(u"tst_exportui_terraform"_s);
        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform is skipped"));
        PROVENDER_SKIP_UNLESS_ON_PATH(test::RegistryFixture::missingTools());
        QString error;
        QVERIFY2(m_registry.start(m_tmp.path(), &error), qPrintable(error));
    }

    void exportWritesWhatTerraformProvidersMirrorWrites()
    {
        const QString mirror = m_tmp.filePath(u"mirror"_s);
        int n = 0;
        for (const QList<Wanted> &wanted :
             {QList<Wanted>{{u"demo"_s, u"~> 1.0"_s}, {u"pair"_s, u">= 0.1.0, < 0.3.0"_s}}, QList<Wanted>{{u"pair"_s, u"0.1.0"_s}}}) {
            const test::ProcessRun tf = terraformMirror(u"config%1"_s.arg(++n), wanted, mirror);
            QVERIFY2(tf.exitCode == 0, tf.err.constData());
        }
        const QMap<QString, QByteArray> terraformFiles = test::jsonFiles(mirror);
        QCOMPARE(terraformFiles.size(), 5); // demo: index + 1.1.0; pair: index + 0.1.0 + 0.2.0

        MainWindow w;
        installExportUi(&w);
        {
            QSignalSpy finished(&w, &MainWindow::verificationFinished);
            w.openMirror(mirror);
            QVERIFY(finished.wait(120000));
        }
        auto *action = w.findChild<QAction *>(u"actionExportIndexes"_s);
        QVERIFY(action && action->isEnabled());

        // 1. Over terraform's own files: nothing to write.
        {
            ExportIndexesDialog dialog(mirror, &w);
            QSignalSpy previewed(&dialog, &ExportIndexesDialog::previewReady);
            QVERIFY(previewed.wait(120000));
            QVERIFY2(dialog.previewPaths().isEmpty(), qPrintable(dialog.previewPaths().join(u", "_s)));
            QVERIFY(!dialog.findChild<QPushButton *>(u"exportButton"_s)->isEnabled());
        }

        // 2. Without them: the preview lists them, the export writes terraform's bytes.
        for (auto it = terraformFiles.cbegin(); it != terraformFiles.cend(); ++it)
            QVERIFY(QFile::remove(mirror + u'/' + it.key()));
        QSignalSpy rescanned(&w, &MainWindow::verificationFinished);
        action->trigger();
        auto *dialog = w.findChild<ExportIndexesDialog *>(u"exportIndexesDialog"_s);
        QVERIFY(dialog);
        QSignalSpy previewed(dialog, &ExportIndexesDialog::previewReady);
        QVERIFY(previewed.wait(120000));
        QCOMPARE(dialog->previewPaths(), QStringList(terraformFiles.keys()));
        auto *files = dialog->findChild<QTreeWidget *>(u"previewFiles"_s);
        for (int i = 0; i < files->topLevelItemCount(); ++i)
            QCOMPARE(files->topLevelItem(i)->text(0), u"create"_s);
        QSignalSpy exported(dialog, &ExportIndexesDialog::exportFinished);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"exportButton"_s), Qt::LeftButton);
        QVERIFY(exported.wait(120000));
        QCOMPARE(exported.first().first().toBool(), true);
        const QString differs = test::fileTreeMismatch(terraformFiles, test::jsonFiles(mirror), u"terraform"_s);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));

        // 3. The browser rescanned: every archive is verified by the new indexes.
        QVERIFY(rescanned.wait(120000));
        const QString zip = mirror + u'/' + kHost + u"/acme/pair/terraform-provider-pair_0.1.0_linux_amd64.zip"_s;
        const QModelIndex leaf = w.archiveModel()->indexForArchivePath(zip);
        QVERIFY(leaf.isValid());
        QCOMPARE(leaf.data(MirrorTreeModel::VerdictRole).toInt(), int(Verdict::Verified));
    }
};

QTEST_MAIN(TestExportUiTerraform)
#include "tst_exportui_terraform.moc"
