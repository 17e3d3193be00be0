// The Create Bundle and Import Bundle dialogs, driven offscreen on the demo mirror
// (model/mirror/DemoMirror.h documents its contents: hashicorp/null 3.2.2 has three verified
// packed archives; hashicorp/random 3.6.0 linux_arm64 is a mismatch). The bundle written is
// listed with `tar`, and imported files are compared byte for byte with the source mirror.

#include "model/bundle/BundlePlanModels.h"
#include "model/mirror/DemoMirror.h"
#include "ui/bundle/BundleDialogs.h"

#include "tests/support/TestSupport.h"

#include <QAbstractItemModelTester>
#include <QButtonGroup>
#include <QCheckBox>
#include <QDir>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace provender;
using namespace provender::ui;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList tarList(const QString &bundle)
{
    QProcess tar;
    tar.start(QStringLiteral("tar"), {QStringLiteral("-tzf"), bundle});
    if (!tar.waitForFinished(60000) || tar.exitCode() != 0)
        return {};
    QStringList names = QString::fromUtf8(tar.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    names.sort();
    return names;
}

} // namespace

class TestBundleDialogs : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_tmp;
    QString m_mirror;
    QStringList m_nullZips; // absolute paths of hashicorp/null 3.2.2's zips, found by listing the directory

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_tmp.isValid());
        if (QStandardPaths::findExecutable(QStringLiteral("tar")).isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("tar is needed to list the bundle independently"));
        m_mirror = m_tmp.filePath(QStringLiteral("demo"));
        const auto demo = generateDemoMirror(m_mirror);
        QVERIFY2(demo.ok(), demo ? "" : qPrintable(demo.error().toString()));
        QDirIterator it(m_mirror + QStringLiteral("/registry.opentofu.org/hashicorp/null"),
                        {QStringLiteral("terraform-provider-null_3.2.2_*.zip")}, QDir::Files);
        while (it.hasNext())
            m_nullZips.append(it.next());
        m_nullZips.sort();
        QCOMPARE(m_nullZips.size(), 3);
    }

    void createRefusesMismatchingArchives()
    {
        CreateBundleDialog dialog(m_mirror, {});
        QSignalSpy loaded(&dialog, &CreateBundleDialog::catalogLoaded);
        QVERIFY(loaded.wait(60000));
        QVERIFY(dialog.findChild<QRadioButton *>(QStringLiteral("modeAll"))->isChecked());
        QVERIFY(!dialog.findChild<QRadioButton *>(QStringLiteral("modeSelection"))->isEnabled());
        const QString out = m_tmp.filePath(QStringLiteral("all.tar.gz"));
        dialog.setOutputPath(out);
        auto *create = dialog.findChild<QPushButton *>(QStringLiteral("createButton"));
        QVERIFY(create->isEnabled());
        QSignalSpy done(&dialog, &CreateBundleDialog::finishedCreating);
        create->click();
        QVERIFY(done.wait(120000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        // The mismatch the demo mirror plants is named, and nothing is left behind.
        const QString message = done.at(0).at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("3.6.0")) && message.contains(QStringLiteral("linux_arm64")), qPrintable(message));
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("statusLabel"))->isVisibleTo(&dialog));
        QVERIFY(!QFileInfo::exists(out));
    }

    void createImportRoundTrip()
    {
        const QString bundle = m_tmp.filePath(QStringLiteral("null.tar.gz"));
        {
            CreateBundleDialog dialog(m_mirror, m_nullZips);
            QSignalSpy loaded(&dialog, &CreateBundleDialog::catalogLoaded);
            QVERIFY(loaded.wait(60000));
            QVERIFY(dialog.findChild<QRadioButton *>(QStringLiteral("modeSelection"))->isChecked());
            auto *preview = dialog.findChild<QTableView *>(QStringLiteral("previewView"));
            QAbstractItemModelTester tester(preview->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            QCOMPARE(preview->model()->rowCount(), 3);
            QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("summaryLabel"))->text().startsWith(QStringLiteral("3 archive")));
            dialog.setOutputPath(bundle);
            QSignalSpy done(&dialog, &CreateBundleDialog::finishedCreating);
            dialog.findChild<QPushButton *>(QStringLiteral("createButton"))->click();
            QVERIFY(done.wait(120000));
            QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
        }
        // tar's view of the bundle: the three zips, their indexes, the manifest and SHA256SUMS.
        QStringList expected;
        for (const QString &zip : std::as_const(m_nullZips))
            expected.append(QStringLiteral("registry.opentofu.org/hashicorp/null/") + QFileInfo(zip).fileName());
        expected << QStringLiteral("registry.opentofu.org/hashicorp/null/index.json")
                 << QStringLiteral("registry.opentofu.org/hashicorp/null/3.2.2.json") << QStringLiteral("provender-bundle.json")
                 << QStringLiteral("SHA256SUMS");
        expected.sort();
        QStringList listed = tarList(bundle);
        listed.removeIf([](const QString &n) { return n.endsWith(QLatin1Char('/')); }); // directory entries
        QCOMPARE(listed, expected);

        const QString target = m_tmp.filePath(QStringLiteral("target"));
        QVERIFY(QDir().mkpath(target));
        ImportBundleDialog dialog(bundle, target);
        auto *plan = dialog.findChild<QTableView *>(QStringLiteral("planView"));
        QAbstractItemModelTester tester(plan->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto *importButton = dialog.findChild<QPushButton *>(QStringLiteral("importButton"));
        QVERIFY(!importButton->isEnabled()); // no preview yet
        QSignalSpy previewed(&dialog, &ImportBundleDialog::previewFinished);
        dialog.preview();
        QVERIFY(previewed.wait(120000));
        QVERIFY(previewed.at(0).at(0).toBool());
        QCOMPARE(dialog.planModel()->rowCount(), 3);
        QCOMPARE(dialog.planModel()->report().count(ImportAction::Kind::Add), 3);
        QVERIFY(QDir(target).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden).isEmpty()); // dry run
        QVERIFY(importButton->isEnabled());

        QSignalSpy imported(&dialog, &ImportBundleDialog::importFinished);
        importButton->click();
        QVERIFY(imported.wait(120000));
        QVERIFY(imported.at(0).at(0).toBool());
        for (const QString &zip : std::as_const(m_nullZips)) {
            const QString copy = target + QStringLiteral("/registry.opentofu.org/hashicorp/null/") + QFileInfo(zip).fileName();
            QCOMPARE(readAll(copy), readAll(zip));
        }
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/registry.opentofu.org/hashicorp/null/index.json")));
        QVERIFY(!importButton->isEnabled()); // a new preview is needed

        // Again: everything is already there.
        previewed.clear();
        dialog.preview();
        QVERIFY(previewed.wait(120000));
        QCOMPARE(dialog.planModel()->report().count(ImportAction::Kind::Unchanged), 3);
        QVERIFY(!importButton->isEnabled()); // nothing to add

        // A different file at the same path is a conflict that blocks the import.
        const QString victim = target + QStringLiteral("/registry.opentofu.org/hashicorp/null/") + QFileInfo(m_nullZips.first()).fileName();
        {
            QFile f(victim);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("not the same archive");
        }
        previewed.clear();
        dialog.preview();
        QVERIFY(previewed.wait(120000));
        QCOMPARE(dialog.planModel()->report().count(ImportAction::Kind::Conflict), 1);
        QVERIFY(dialog.planModel()->report().blocked());
        QVERIFY(!importButton->isEnabled());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("summaryLabel"))->text().contains(QStringLiteral("Nothing can be imported")));
        QCOMPARE(readAll(victim), QByteArray("not the same archive"));

        // With "replace", the conflict becomes a replacement and the import goes through.
        dialog.findChild<QCheckBox *>(QStringLiteral("replaceCheck"))->setChecked(true);
        QVERIFY(!importButton->isEnabled()); // options changed: the plan is stale
        previewed.clear();
        dialog.preview();
        QVERIFY(previewed.wait(120000));
        QCOMPARE(dialog.planModel()->report().count(ImportAction::Kind::Replace), 1);
        QVERIFY(importButton->isEnabled());
        imported.clear();
        importButton->click();
        QVERIFY(imported.wait(120000));
        QVERIFY(imported.at(0).at(0).toBool());
        QCOMPARE(readAll(victim), readAll(m_nullZips.first()));
    }

    void importOfAMissingBundleFailsCleanly()
    {
        const QString target = m_tmp.filePath(QStringLiteral("target2"));
        QVERIFY(QDir().mkpath(target));
        ImportBundleDialog dialog(m_tmp.filePath(QStringLiteral("no-such.tar.gz")), target);
        QSignalSpy previewed(&dialog, &ImportBundleDialog::previewFinished);
        dialog.preview();
        QVERIFY(previewed.wait(60000));
        QCOMPARE(previewed.at(0).at(0).toBool(), false);
        auto *status = dialog.findChild<QLabel *>(QStringLiteral("statusLabel"));
        QVERIFY(status->isVisibleTo(&dialog));
        QVERIFY2(status->text().contains(QStringLiteral("no-such.tar.gz")), qPrintable(status->text()));
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("importButton"))->isEnabled());
    }
};

QTEST_MAIN(TestBundleDialogs)
#include "tst_bundle_dialogs.moc"
