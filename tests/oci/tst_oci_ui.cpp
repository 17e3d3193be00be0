// The OCI GUI (ui/oci) offscreen against a real registry: Debian's docker-registry with TLS and
// htpasswd (OciRegistryFixture), the packed mirror oci_tool.py writes with Python's zipfile.
//   - Publish to OCI Registry… from the directory mirror the main window shows: the dry run lists
//     every blob as "would upload" with the digests and sizes Python's hashlib and the file system
//     give, and writes nothing (the registry's tags, read with Python's http.client, stay empty);
//     the push tags each version, reads it back verified, and its oci_mirror block names the
//     template and the providers; OciSource then reads every layer back and its digest is the
//     SHA-256 Python computes of the zip; the source directory is byte for byte as before; a
//     second dry run finds everything present and every tag unchanged.
//   - From a bundle the browser shows: pushed, read back verified, its layers the zips Python
//     hashed, the bundle file unchanged (Python's SHA-256 before and after).
//   - Cancel: a push cancelled after its first upload writes no tag for a version it did not
//     finish, and every tag that exists names an index whose manifests and blobs all exist; a
//     push cancelled from the dialog's Cancel button leaves no tag the report does not list.
//     A large archive uploaded in chunks and cancelled after the first: the upload session is
//     deleted (the registry answers the DELETE), the blob never exists, nothing is tagged. The
//     same archive in one PUT, cancelled while its bytes go out (the byte progress says so): the
//     PUT is aborted in flight, with the same outcome.
//   - Open OCI Registry… / `provender oci://…` / the registry's catalog: the browser shows the
//     five archives verified, anchored in the registry's manifest oci://REPO:TAG, with the
//     verdict, platform and text filters, the details pane, one-archive re-verify (one more
//     blob download in the request log) and F5; the hostile repositories of oci_tool.py show
//     tofu's refusals per archive (Error) beside a good platform (Verified).
//   - Errors as messages, never a hang: an unreachable port, a 401 without credentials, a server
//     that is no OCI registry (Python's http.server), a catalog refused without credentials, and
//     the form's own problems.
//   - Every item model the dialogs add runs under QAbstractItemModelTester.
// With PROVENDER_SCREENSHOT_DIR=DIR: DIR/oci.png (the browser on the registry) and
// DIR/oci-publish.png (the dialog after the push).

#include "model/bundle/BundleWriter.h"
#include "model/items/MirrorTreeModel.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/network/RequestLogModel.h"
#include "model/oci/OciSource.h"
#include "tests/oci/OciRegistryFixture.h"
#include "tests/support/MainWindowSupport.h"
#include "tests/support/TestSupport.h"
#include "tests/support/TreeRows.h"
#include "ui/JobTracker.h"
#include "ui/MainWindow.h"
#include "ui/oci/OciUi.h"
#include "ui/oci/OpenOciDialog.h"
#include "ui/oci/PublishOciDialog.h"
#include "ui/shell/RecentItems.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace provender;
using namespace provender::ui;

namespace {

template<typename T> T *child(QObject *parent, const char *name)
{
    return parent->findChild<T *>(QString::fromLatin1(name));
}

QList<ArchiveResult> results(const MainWindow &window)
{
    QList<ArchiveResult> out;
    for (const QModelIndex &i : test::archiveRows(window.archiveModel()))
        if (const std::optional<ArchiveResult> r = window.archiveModel()->resultAt(i))
            out << *r;
    return out;
}

/// Children of the results' group `row` (0 versions, 1 blobs) as rows of cell texts.
QList<QStringList> group(const QStandardItemModel *m, int row)
{
    QList<QStringList> out;
    const QStandardItem *g = m->item(row, 0);
    for (int r = 0; g && r < g->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m->columnCount(); ++c)
            cells << (g->child(r, c) ? g->child(r, c)->text() : QString());
        out << cells;
    }
    return out;
}

} // namespace

class TestOciUi : public QObject
{
    Q_OBJECT

    test::OciRegistryFixture m_registry;
    QTemporaryDir m_tmp;
    QMap<QString, QString> m_sha256; ///< zip file name -> Python's SHA-256

    OciOpenForm openForm(const QString &prefix = u"mirror"_s) const
    {
        OciOpenForm f;
        f.repositoryTemplate = u"oci://"_s + m_registry.templ(prefix);
        f.from = OciOpenForm::Providers::Typed;
        f.typed = {u"example.com/test/foo"_s, u"example.com/test/bar"_s};
        f.caFile = m_registry.caFile();
        f.environment = m_registry.environment();
        return f;
    }
    PublishOciDialog::Form publishForm(const QString &prefix) const
    {
        PublishOciDialog::Form f;
        f.repositoryTemplate = m_registry.templ(prefix);
        f.caFile = m_registry.caFile();
        return f;
    }
    /// Opens the fixture's mirror directory in `window` and waits for its catalog.
    static bool openDirectory(MainWindow &window, const QString &dir)
    {
        QSignalSpy finished(&window, &MainWindow::verificationFinished);
        window.openMirror(dir);
        return finished.wait(60000) && window.sourceKind() == MainWindow::SourceKind::Directory;
    }
    /// The fixture's mirror directory as the browser catalogs it (an error when it does not open).
    Result<Catalog> mirrorCatalog() const
    {
        MainWindow window;
        return openDirectory(window, m_registry.mirror()) ? Result<Catalog>(window.catalog())
                                                          : Result<Catalog>(makeError(ErrorCode::Io, u"open"_s));
    }
    /// Every tag of every repository under PREFIX/test names an index whose manifests and layers the
    /// registry has (read with Python); "" or what is missing.
    QString tagsAreWhole(const QString &prefix, const QStringList &types) const
    {
        for (const QString &type : types) {
            const QString repo = prefix + u"/test/"_s + type;
            for (const QString &tag : m_registry.tags(repo)) {
                const QJsonObject index = m_registry.document(repo + u"/manifests/"_s + tag);
                const QJsonArray manifests = index.value("manifests"_L1).toArray();
                if (manifests.isEmpty())
                    return u"%1:%2 names no index"_s.arg(repo, tag);
                for (const QJsonValue &m : manifests) {
                    const QJsonObject manifest = m_registry.document(repo + u"/manifests/"_s + m.toObject().value("digest"_L1).toString());
                    const QJsonArray layers = manifest.value("layers"_L1).toArray();
                    if (layers.size() != 1)
                        return u"%1:%2: a manifest without its layer"_s.arg(repo, tag);
                    const QString blob = layers.at(0).toObject().value("digest"_L1).toString();
                    const test::ProcessRun got =
                        m_registry.tool({u"get"_s, u"https://127.0.0.1:%1/v2/%2/blobs/%3"_s.arg(m_registry.port()).arg(repo, blob),
                                         m_registry.caFile(), u"alice"_s, u"secret"_s});
                    if (got.exitCode != 0)
                        return u"%1:%2: blob %3 is missing"_s.arg(repo, tag, blob);
                }
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnSettings(u"tst_oci_ui"_s);
        QVERIFY(m_tmp.isValid());
        if (const auto missing = m_registry.missing())
            PROVENDER_SKIP(missing->first, missing->second);
        const QString started = m_registry.start();
        if (!started.isEmpty())
            QFAIL(qPrintable(started));
        for (const QString &zip : m_registry.zips())
            m_sha256.insert(QFileInfo(zip).fileName(), m_registry.pythonSha256(zip));
        QCOMPARE(m_sha256.size(), 5);
        QVERIFY(m_sha256.first().size() == 64);
    }

    void formProblems()
    {
        OciOpenForm f = openForm();
        QCOMPARE(ociFormProblem(f), QString());
        f.repositoryTemplate.clear();
        QVERIFY(ociFormProblem(f).contains(u"repository template"_s));
        f = openForm();
        f.repositoryTemplate = u"127.0.0.1:5000/mirror/${namespace}"_s; // ${type} left out for two types
        QVERIFY(!ociFormProblem(f).isEmpty());
        f = openForm();
        f.typed = {u"not a provider"_s};
        QVERIFY(ociFormProblem(f).contains(u"not a provider"_s));
        f = openForm();
        f.from = OciOpenForm::Providers::LockFiles;
        QVERIFY(ociFormProblem(f).contains(u"lock files"_s));
        f = openForm();
        f.caFile = m_tmp.filePath(u"no-such-ca.pem"_s);
        QVERIFY(ociFormProblem(f).contains(u"does not exist"_s));

        // The dialog shows the problem and keeps Open disabled; a usable form is remembered.
        OpenOciDialog dialog;
        dialog.setForm(openForm());
        QCOMPARE(dialog.problem(), QString());
        dialog.accept();
        const OciOpenForm saved = OpenOciDialog::savedForm();
        QCOMPARE(saved.repositoryTemplate, openForm().repositoryTemplate);
        QCOMPARE(saved.typed, openForm().typed);
        QVERIFY(saved.from == OciOpenForm::Providers::Typed);
        QCOMPARE(OpenOciDialog::recentTemplates().value(0), openForm().repositoryTemplate);

        // oci://…?… arguments.
        const auto parsed = ociFormFromArgument(u"oci://h:1/m/${namespace}/${type}?provider=a/b&ca=/x.pem&no-credentials=1"_s);
        QVERIFY(parsed && parsed->ok());
        QCOMPARE(parsed->value().templ(), u"h:1/m/${namespace}/${type}"_s);
        QCOMPARE(parsed->value().typed, QStringList{u"a/b"_s});
        QVERIFY(!parsed->value().credentials);
        QVERIFY(!ociFormFromArgument(u"/a/directory"_s));
        const auto bad = ociFormFromArgument(u"oci://h/m/${type}?color=red"_s);
        QVERIFY(bad && !bad->ok() && bad->error().message.contains(u"unknown item color"_s));
    }

    void publishDryRunWritesNothing()
    {
        MainWindow window;
        QVERIFY(openDirectory(window, m_registry.mirror()));
        const QMap<QString, QByteArray> before = test::fileTree(m_registry.mirror());
        PublishOciDialog dialog(&window);
        dialog.setEnvironment(m_registry.environment());
        dialog.setForm(publishForm(u"mirror"_s));
        QCOMPARE(dialog.problem(), QString());
        QAbstractItemModelTester tester(dialog.results(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&dialog, &PublishOciDialog::finished);
        dialog.start(true);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).toBool(), true);
        const QList<QStringList> blobs = group(dialog.results(), 1);
        // An empty registry: every zip and each repository's empty config would be uploaded.
        QCOMPARE(blobs.size(), 5 + 2);
        int zips = 0;
        for (const QStringList &b : blobs) {
            QCOMPARE(b.at(1), u"would upload"_s);
            if (b.at(0) == u"the empty config"_s) {
                // OpenTofu's e2e fixture's config digest (the SHA-256 of "{}")
                QCOMPARE(b.at(4), u"sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"_s);
                continue;
            }
            // "linux_amd64 of example.com/test/foo 1.0.0" -> terraform-provider-foo_1.0.0_linux_amd64.zip
            const QStringList words = b.at(0).split(u' ');
            const QString file = u"terraform-provider-%1_%2_%3.zip"_s.arg(words.at(2).section(u'/', 2), words.at(3), words.at(0));
            QVERIFY2(m_sha256.contains(file), qPrintable(file));
            QCOMPARE(b.at(4), u"sha256:"_s + m_sha256.value(file));
            ++zips;
        }
        QCOMPARE(zips, 5);
        const QList<QStringList> versions = group(dialog.results(), 0);
        QCOMPARE(versions.size(), 3);
        for (const QStringList &v : versions)
            QCOMPARE(v.at(1), u"would tag"_s);
        QVERIFY(dialog.summary().startsWith(u"Dry run: would upload 7 blob(s)"_s));
        QVERIFY(m_registry.tags(u"mirror/test/foo"_s).isEmpty());
        QVERIFY(m_registry.tags(u"mirror/test/bar"_s).isEmpty());
        QCOMPARE(test::fileTree(m_registry.mirror()), before);
    }

    void publishThenReadBack()
    {
        MainWindow window;
        installOciUi(&window);
        QVERIFY(openDirectory(window, m_registry.mirror()));
        const QMap<QString, QByteArray> before = test::fileTree(m_registry.mirror());
        // The File menu's action opens the dialog on the window's source.
        QAction *action = test::menuAction(window, MainWindow::Menu::File, u"Publish to OCI Re&gistry…"_s);
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(u"Ctrl+Alt+P"_s));
        action->trigger();
        auto *dialog = test::visibleTopLevel<PublishOciDialog>();
        QVERIFY(dialog);
        dialog->setEnvironment(m_registry.environment());
        dialog->setForm(publishForm(u"mirror"_s));
        QAbstractItemModelTester tester(dialog->results(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(dialog, &PublishOciDialog::finished);
        dialog->start(false);
        QVERIFY(finished.wait(180000));
        QVERIFY2(!dialog->report().hasErrors(), qPrintable(dialog->summary()));
        QCOMPARE(dialog->report().tagsWritten, 3);
        QVERIFY2(dialog->summary().contains(u"Read back: 5 of 5 archive(s) verified."_s), qPrintable(dialog->summary()));
        for (const QStringList &v : group(dialog->results(), 0))
            QCOMPARE(v.at(1), u"tagged"_s);
        // The registry's tags, read with Python: "+" written "_" (OpenTofu's rule).
        QCOMPARE(m_registry.tags(u"mirror/test/foo"_s), (QStringList{u"1.0.0"_s, u"2.0.0_build.1"_s}));
        QCOMPARE(m_registry.tags(u"mirror/test/bar"_s), QStringList{u"0.1.0"_s});
        const QString block = dialog->configBlock();
        QVERIFY2(block.contains(u"repository_template = \"%1\""_s.arg(m_registry.templ())), qPrintable(block));
        QVERIFY2(block.contains(u"include             = [\"example.com/test/bar\", \"example.com/test/foo\"]"_s), qPrintable(block));
        QCOMPARE(test::fileTree(m_registry.mirror()), before); // publishing never changes the source

        // Read back with OciSource: each layer is the zip Python hashed.
        const Result<oci::OciMirrorOptions> mirror = ociMirrorOptions(openForm());
        QVERIFY(mirror.ok());
        oci::OciSource source(
            mirror.value(),
            {ProviderAddress::parse(u"example.com/test/foo"_s).value(), ProviderAddress::parse(u"example.com/test/bar"_s).value()});
        const Result<Catalog> listed = source.list();
        QVERIFY(listed.ok());
        QCOMPARE(listed.value().archiveCount(), 5);
        QList<ArchiveRef> refs;
        for (const Provider &p : listed.value().providers)
            for (const ProviderVersion &v : p.versions)
                for (const Archive &a : v.archives)
                    refs << ArchiveRef{&p, &v, &a};
        QMap<QString, QString> got;
        const ArchiveReadSummary read = source.readArchives(refs, {}, [&](qsizetype index, ArchiveRead &&r) {
            if (r.hashes.ok())
                got.insert(refs.at(index).archive->fileName, r.hashes.value().zh.value());
        });
        QCOMPARE(read.hashed, 5);
        QCOMPARE(got, m_sha256);

        // Again as a dry run: everything is there, no tag would change.
        finished.clear();
        dialog->start(true);
        QVERIFY(finished.wait(120000));
        for (const QStringList &b : group(dialog->results(), 1))
            QCOMPARE(b.at(1), u"already in the registry"_s);
        for (const QStringList &v : group(dialog->results(), 0))
            QCOMPARE(v.at(1), u"unchanged (the tag names this index)"_s);
        if (const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR"); !dir.isEmpty()) {
            finished.clear();
            dialog->setForm(publishForm(u"opentofu"_s)); // the picture shows a first push
            dialog->start(false);
            QVERIFY(finished.wait(120000));
            dialog->resize(900, 680);
            QApplication::processEvents();
            QVERIFY(dialog->grab().save(dir + u"/oci-publish.png"_s));
        }
        dialog->close();
    }

    void publishFromABundle()
    {
        // A bundle made from the mirror (model/bundle), opened in the browser (read in place).
        const Result<Catalog> catalog = mirrorCatalog();
        QVERIFY(catalog.ok());
        const QString bundle = m_tmp.filePath(u"mirror.tar.gz"_s);
        const Result<BundleCreateReport> made = createBundle(bundle, selectAll(catalog.value()));
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().toString()));
        const QString bundleSha = m_registry.pythonSha256(bundle);
        MainWindow window;
        QSignalSpy opened(&window, &MainWindow::verificationFinished);
        window.openMirror(bundle);
        QVERIFY(opened.wait(60000));
        QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Bundle);
        PublishOciDialog dialog(&window);
        dialog.setEnvironment(m_registry.environment());
        dialog.setForm(publishForm(u"frombundle"_s));
        QCOMPARE(dialog.problem(), QString());
        QSignalSpy finished(&dialog, &PublishOciDialog::finished);
        dialog.start(false);
        QVERIFY(finished.wait(180000));
        QVERIFY2(!dialog.report().hasErrors(), qPrintable(dialog.summary()));
        QCOMPARE(dialog.report().tagsWritten, 3);
        QVERIFY2(dialog.summary().contains(u"Read back: 5 of 5 archive(s) verified."_s), qPrintable(dialog.summary()));
        // The layers are the zips Python hashed (the bundle carries them unchanged) ...
        QStringList digests;
        for (const oci::OciBlobStep &b : dialog.report().blobs)
            if (b.what != u"the empty config"_s)
                digests << b.digest.mid(7);
        digests.sort();
        QStringList expected = m_sha256.values();
        expected.sort();
        QCOMPARE(digests, expected);
        // ... and the bundle file is as it was.
        QCOMPARE(m_registry.pythonSha256(bundle), bundleSha);
        QCOMPARE(m_registry.tags(u"frombundle/test/foo"_s), (QStringList{u"1.0.0"_s, u"2.0.0_build.1"_s}));
    }

    void cancelLeavesNoHalfWrittenTag()
    {
        // In the model: cancelled right after the first archive upload (the progress line comes on
        // the push's own thread, so this is exact).
        const Result<Catalog> catalog = mirrorCatalog();
        QVERIFY(catalog.ok());
        OciOpenForm f = openForm(u"cancelled"_s);
        Result<oci::OciMirrorOptions> mirror = ociMirrorOptions(f);
        QVERIFY(mirror.ok());
        std::atomic<bool> cancel{false};
        oci::OciPushOptions options;
        options.cancel = &cancel;
        options.progress = [&](const QString &line) {
            if (line.startsWith(u"uploaded "_s) && !line.contains(u"sha256:44136fa3"_s))
                cancel = true;
        };
        const oci::OciPushReport report = oci::pushToOci(catalog.value(), mirror.value(), options);
        QVERIFY(report.cancelled);
        QVERIFY(!report.verification);
        QCOMPARE(report.tagsWritten, 0); // the first version had more to upload: nothing tagged
        for (const oci::OciPushedVersion &v : report.versions)
            QVERIFY2(v.error.startsWith(u"cancelled"_s), qPrintable(v.error));
        QVERIFY(m_registry.tags(u"cancelled/test/bar"_s).isEmpty());
        QVERIFY(m_registry.tags(u"cancelled/test/foo"_s).isEmpty());

        // From the dialog's Cancel button, at once: whatever it managed is whole.
        MainWindow window;
        QVERIFY(openDirectory(window, m_registry.mirror()));
        PublishOciDialog dialog(&window);
        dialog.setEnvironment(m_registry.environment());
        dialog.setForm(publishForm(u"cancelled2"_s));
        dialog.show();
        QSignalSpy finished(&dialog, &PublishOciDialog::finished);
        dialog.start(false);
        dialog.jobs()->cancelCurrent();
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(1).toBool(), true);
        QStringList tagged;
        for (const oci::OciPushedVersion &v : dialog.report().versions)
            if (v.tagWritten)
                tagged << v.repository.section(u'/', 1) + u':' + v.tag;
        QStringList present;
        for (const QString &type : {u"foo"_s, u"bar"_s})
            for (const QString &tag : m_registry.tags(u"cancelled2/test/"_s + type))
                present << u"cancelled2/test/"_s + type + u':' + tag;
        tagged.sort();
        present.sort();
        QCOMPARE(present, tagged);
        QCOMPARE(tagsAreWhole(u"cancelled2"_s, {u"foo"_s, u"bar"_s}), QString());
        QCOMPARE(tagsAreWhole(u"mirror"_s, {u"foo"_s, u"bar"_s}), QString());
    }

    void cancelBetweenChunks()
    {
        // A 3 MiB archive uploaded in 1 MiB PATCH chunks, cancelled once the first chunk is in: the
        // upload session is deleted, the blob never exists, nothing is tagged.
        const QString big = m_tmp.filePath(u"big"_s);
        const test::ProcessRun made = m_registry.tool({u"bigmirror"_s, big});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString zip = QString::fromUtf8(made.out).trimmed();
        const Result<Catalog> catalog = scanFileSystemMirror(big);
        QVERIFY(catalog.ok());
        Result<oci::OciMirrorOptions> mirror = ociMirrorOptions(openForm(u"chunked"_s));
        QVERIFY(mirror.ok());
        mirror.value().client.chunkSize = 1 << 20;
        std::atomic<bool> cancel{false};
        QStringList methods;
        mirror.value().client.onRequest = [&](const oci::OciRequestLog &e) {
            methods << e.method + u' ' + QString::number(e.status);
            if (e.method == u"PATCH"_s && e.status == 202)
                cancel = true;
        };
        oci::OciPushOptions options;
        options.cancel = &cancel;
        const oci::OciPushReport report = oci::pushToOci(catalog.value(), mirror.value(), options);
        QVERIFY(report.cancelled);
        QCOMPARE(report.versions.size(), 1);
        QVERIFY2(report.versions.at(0).error.startsWith(u"cancelled after 1048576 of"_s), qPrintable(report.versions.at(0).error));
        QCOMPARE(methods.count(u"PATCH 202"_s), 1);
        QVERIFY2(methods.contains(u"DELETE 204"_s), qPrintable(methods.join(u", "_s))); // the session, deleted
        QCOMPARE(methods.count(u"PUT 201"_s), 1);                                       // only the empty config: no manifest, index or tag
        const test::ProcessRun blob = m_registry.tool(
            {u"get"_s,
             u"https://127.0.0.1:%1/v2/chunked/test/big/blobs/sha256:%2"_s.arg(m_registry.port()).arg(m_registry.pythonSha256(zip)),
             m_registry.caFile(), u"alice"_s, u"secret"_s});
        QVERIFY(blob.exitCode != 0);
        QVERIFY(m_registry.tags(u"chunked/test/big"_s).isEmpty());
    }

    void cancelDuringOneUpload()
    {
        // The same 3 MiB archive in one PUT, cancelled as its bytes go out: the PUT is aborted
        // in flight, the upload session is deleted, the blob never exists, nothing is tagged;
        // the progress saw bytes of the archive before its upload ended. Not a race: Qt's HTTP
        // thread gets a file's bytes through this thread (its upload device is forwarded in
        // pieces on request), so the PUT cannot finish while the first progress signal, queued
        // before the later pieces are asked for, waits here.
        const QString big = m_tmp.filePath(u"big-one-put"_s);
        const test::ProcessRun made = m_registry.tool({u"bigmirror"_s, big});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString zip = QString::fromUtf8(made.out).trimmed();
        const qint64 size = QFileInfo(zip).size();
        const Result<Catalog> catalog = scanFileSystemMirror(big);
        QVERIFY(catalog.ok());
        Result<oci::OciMirrorOptions> mirror = ociMirrorOptions(openForm(u"onput"_s));
        QVERIFY(mirror.ok());
        mirror.value().client.chunkSize = 0; // always one PUT
        QStringList methods;
        mirror.value().client.onRequest = [&](const oci::OciRequestLog &e) { methods << e.method + u' ' + QString::number(e.status); };
        std::atomic<bool> cancel{false};
        QList<qint64> progress;
        oci::OciPushOptions options;
        options.cancel = &cancel;
        options.bytes = [&](qint64 done, qint64 total) {
            progress << done;
            QCOMPARE(total, size);
            if (done > 0 && done < total)
                cancel = true;
        };
        const oci::OciPushReport report = oci::pushToOci(catalog.value(), mirror.value(), options);
        QVERIFY(report.cancelled);
        QCOMPARE(report.versions.size(), 1);
        const QString error = report.versions.at(0).error;
        static const QRegularExpression sent(
            u"^cancelled after (\\d+) of (\\d+) bytes of sha256:[0-9a-f]{64}: the upload was abandoned$"_s);
        const QRegularExpressionMatch m = sent.match(error);
        QVERIFY2(m.hasMatch(), qPrintable(error));
        QCOMPARE(m.captured(2).toLongLong(), size);
        QVERIFY2(m.captured(1).toLongLong() < size, qPrintable(error));
        QVERIFY(!progress.isEmpty());
        QVERIFY(progress.constFirst() > 0 && progress.constFirst() < size);
        QVERIFY(!progress.contains(size));
        // The empty config's PUT is the only one that succeeded; the archive's PUT never got an
        // answer (status 0), and its session was deleted after it. Distribution 2.8 answers that
        // DELETE with 404, as it drops a session whose PUT broke off by itself; another registry
        // may answer 204. Either way the blob does not exist (below).
        QCOMPARE(methods.count(u"PUT 201"_s), 1);
        const qsizetype put = methods.indexOf(u"PUT 0"_s);
        QVERIFY2(put >= 0, qPrintable(methods.join(u", "_s)));
        QVERIFY2(methods.mid(put + 1) == QStringList{u"DELETE 404"_s} || methods.mid(put + 1) == QStringList{u"DELETE 204"_s},
                 qPrintable(methods.join(u", "_s)));
        const test::ProcessRun blob = m_registry.tool(
            {u"get"_s, u"https://127.0.0.1:%1/v2/onput/test/big/blobs/sha256:%2"_s.arg(m_registry.port()).arg(m_registry.pythonSha256(zip)),
             m_registry.caFile(), u"alice"_s, u"secret"_s});
        QVERIFY(blob.exitCode != 0);
        QVERIFY(m_registry.tags(u"onput/test/big"_s).isEmpty());
    }

    void openInBrowser_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("Open OCI Registry… form") << u"form"_s;
        QTest::newRow("oci://… argument") << u"argument"_s;
        QTest::newRow("the registry's catalog") << u"catalog"_s;
    }

    void openInBrowser()
    {
        QFETCH(QString, how);
        MainWindow window;
        QSignalSpy verified(&window, &MainWindow::verificationFinished);
        QSignalSpy failed(&window, &MainWindow::openFailed);
        QString error;
        if (how == u"form"_s) {
            QVERIFY2(openOci(&window, openForm(), &error), qPrintable(error));
        } else if (how == u"argument"_s) {
            // The argument form reads the process environment's CLI config, as the app does.
            qputenv("TF_CLI_CONFIG_FILE", m_registry.environment().value(u"TF_CLI_CONFIG_FILE"_s).toLocal8Bit());
            QVERIFY2(openOciArgument(&window,
                                     u"oci://%1?provider=example.com/test/foo&provider=example.com/test/bar&ca=%2"_s.arg(
                                         m_registry.templ(), m_registry.caFile()),
                                     &error),
                     qPrintable(error));
            QVERIFY(!openOciArgument(&window, u"/some/directory"_s, &error));
        } else {
            OpenOciDialog dialog;
            OciOpenForm f = openForm();
            f.from = OciOpenForm::Providers::Catalog;
            f.typed.clear();
            f.hostname = u"example.com"_s;
            dialog.setForm(f);
            QSignalSpy listed(&dialog, &OpenOciDialog::catalogListed);
            dialog.listCatalog();
            QVERIFY(listed.wait(60000));
            QCOMPARE(listed.first().at(0).toBool(), true);
            // mirror/test/{foo,bar} fit the template; cancelled*/… are other repositories.
            QCOMPARE(dialog.form().typed, (QStringList{u"example.com/test/bar"_s, u"example.com/test/foo"_s}));
            QVERIFY2(dialog.catalogMessage().contains(u"2 provider(s)"_s), qPrintable(dialog.catalogMessage()));
            QVERIFY(openOci(&window, f, &error)); // the catalog again, on the open job
        }
        QVERIFY(verified.wait(120000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
        QCOMPARE(window.mirrorRoot(), u"oci://"_s + m_registry.templ());
        QCOMPARE(window.sourceKind(), MainWindow::SourceKind::Url);
        // Not in File ▸ Open Recent (it could not reopen it): the dialog keeps the form and templates.
        QVERIFY(!recentMirrors().contains(window.mirrorRoot()));
        const QList<ArchiveResult> got = results(window);
        QCOMPARE(got.size(), 5);
        for (const ArchiveResult &r : got) {
            QVERIFY2(r.detail.verdict == Verdict::Verified, qPrintable(r.key.toString() + u": "_s + r.detail.reason));
            const QString file =
                u"terraform-provider-%1_%2_%3.zip"_s.arg(r.key.provider.type(), r.key.version.toString(), r.key.platform.toString());
            QCOMPARE(r.hashes->zh.value(), m_sha256.value(file));
            // Anchored in the registry's manifest: oci://REPO:TAG.
            QVERIFY(!r.detail.anchors.isEmpty());
            const QString tag = r.key.version.toString().replace(u'+', u'_');
            QVERIFY2(describe(r.detail.anchors.at(0))
                         .contains(u"oci://127.0.0.1:%1/mirror/test/%2:%3"_s.arg(m_registry.port()).arg(r.key.provider.type(), tag)),
                     qPrintable(describe(r.detail.anchors.at(0))));
        }
        QVERIFY(window.requestLog()->rowCount() >= 5 + 3 + 5); // tag lists, indexes, manifests, blobs
        if (how != u"form"_s)
            return;

        // The protocol's own answers are in the log but are no failures: docker-registry answers
        // each client's first, anonymous request with a 401 challenge (then the request is sent
        // with the credentials), and Distribution 2.8 has no referrers API (404: the tag schema).
        int challenges = 0, lookups = 0;
        QStringList failures;
        for (int row = 0; row < window.requestLog()->rowCount(); ++row) {
            const RequestLogEntry &e = window.requestLog()->entry(row);
            challenges += e.status == 401 && !e.authorization ? 1 : 0;
            lookups += e.status == 404 && e.url.path().contains(u"/referrers/"_s) ? 1 : 0;
            if (RequestLogModel::isFailure(e))
                failures << u"%1 %2 %3"_s.arg(e.method).arg(e.status).arg(e.url.toString());
        }
        QVERIFY(challenges > 0);
        QVERIFY(lookups > 0);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u"; "_s)));
        QCOMPARE(window.requestLog()->failedCount(), 0);

        // Filters, details, re-verify, F5 — the same browser as every source.
        auto *view = child<QTreeView>(&window, "archiveView");
        auto *verdict = child<QComboBox>(&window, "verdictFilter");
        verdict->setCurrentIndex(verdict->findData(int(Verdict::Verified)));
        QCOMPARE(test::archiveRows(view->model()).size(), 5);
        verdict->setCurrentIndex(verdict->findData(int(Verdict::Mismatch)));
        QCOMPARE(test::archiveRows(view->model()).size(), 0);
        verdict->setCurrentIndex(0);
        auto *platform = child<QComboBox>(&window, "platformFilter");
        platform->setCurrentIndex(platform->findData(u"windows_amd64"_s));
        QCOMPARE(test::archiveRows(view->model()).size(), 1);
        platform->setCurrentIndex(0);
        child<QLineEdit>(&window, "filterEdit")->setText(u"foo 1.0.0"_s);
        QCOMPARE(test::archiveRows(view->model()).size(), 2);
        child<QLineEdit>(&window, "filterEdit")->clear();

        QModelIndex leaf;
        for (const QModelIndex &i : test::archiveRows(view->model()))
            if (i.data().toString() == u"darwin_arm64"_s)
                leaf = i;
        QVERIFY(leaf.isValid());
        test::selectRow(view, leaf);
        const QString details = child<QTextBrowser>(&window, "detailsView")->toPlainText();
        const QString zh = m_sha256.value(u"terraform-provider-foo_1.0.0_darwin_arm64.zip"_s);
        QVERIFY2(details.contains(u"zh:"_s + zh), qPrintable(details));
        QVERIFY2(details.contains(u"verified"_s), qPrintable(details));
        QCOMPARE(window.selectedArchivePaths().size(), 1);
        QCOMPARE(window.selectedArchivePaths().first(),
                 u"https://127.0.0.1:%1/v2/mirror/test/foo/blobs/sha256:%2"_s.arg(m_registry.port()).arg(zh));

        const int requestsBefore = window.requestLog()->rowCount();
        auto *reverify = child<QToolButton>(&window, "reverifyArchiveButton");
        QVERIFY(reverify->isEnabled());
        QTest::mouseClick(reverify, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(child<QLabel>(&window, "statusLabel")->text().startsWith(u"Re-verified"_s), 60000);
        // The blob, downloaded again (after the anonymous try the registry answers 401 to).
        QVERIFY(window.requestLog()->rowCount() > requestsBefore);
        const RequestLogEntry &last = window.requestLog()->entry(window.requestLog()->rowCount() - 1);
        QCOMPARE(last.url.toString(), window.selectedArchivePaths().first());
        QCOMPARE(last.status, 200);

        verified.clear();
        window.reverify(); // F5: the registry listed again, the tree merged
        QVERIFY(verified.wait(120000));
        QCOMPARE(window.archiveModel()->verdictCounts()[size_t(Verdict::Verified)], 5);
        QVERIFY(view->currentIndex().data(MirrorTreeModel::SearchTextRole).toString().contains(u"darwin_arm64"_s));

        if (const QString dir = qEnvironmentVariable("PROVENDER_SCREENSHOT_DIR"); !dir.isEmpty()) {
            window.resize(1200, 720);
            window.show();
            QApplication::processEvents();
            QVERIFY(window.grab().save(dir + u"/oci.png"_s));
        }
    }

    void hostileArtifactsInTheBrowser()
    {
        const test::ProcessRun written =
            m_registry.tool({u"hostile"_s, QString::number(m_registry.port()), m_registry.caFile(), u"alice"_s, u"secret"_s,
                             m_registry.zips().at(0), m_registry.zips().at(1), m_tmp.filePath(u"hostile-dir"_s)});
        QVERIFY2(written.exitCode == 0, written.err.constData());
        MainWindow window;
        QSignalSpy verified(&window, &MainWindow::verificationFinished);
        OciOpenForm f = openForm(u"hostile"_s);
        f.typed = {u"example.com/test/twice"_s, u"example.com/test/notzip"_s};
        QVERIFY(openOci(&window, f));
        QVERIFY(verified.wait(120000));
        QMap<QString, ArchiveResult> byName;
        for (const ArchiveResult &r : results(window))
            byName.insert(r.key.provider.type() + u' ' + r.key.platform.toString(), r);
        QCOMPARE(byName.size(), 3);
        // Two manifests for linux_amd64: tofu refuses that platform.
        QCOMPARE(int(byName.value(u"twice linux_amd64"_s).detail.verdict), int(Verdict::Error));
        QVERIFY(byName.value(u"twice linux_amd64"_s).detail.reason.contains(u"multiple descriptors for platform linux_amd64"_s));
        // darwin_arm64 has one manifest with the right digest, but the package in it is foo's: no
        // terraform-provider-twice executable, so tofu's installer refuses it after the download.
        QCOMPARE(int(byName.value(u"twice darwin_arm64"_s).detail.verdict), int(Verdict::Refused));
        QVERIFY(byName.value(u"twice darwin_arm64"_s).detail.reason.contains(u"terraform-provider-twice"_s));
        QCOMPARE(int(byName.value(u"notzip linux_amd64"_s).detail.verdict), int(Verdict::Error));
        QVERIFY(byName.value(u"notzip linux_amd64"_s).detail.reason.contains(u"no layers of type \"archive/zip\""_s));
    }

    void openErrors_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unreachable") << u"unreachable"_s << u"checking 127.0.0.1:"_s;
        QTest::newRow("401 without credentials") << u"401"_s << u"no credentials are configured"_s;
        QTest::newRow("catalog refused without credentials") << u"catalog"_s << u"name the providers or give a lock file"_s;
        QTest::newRow("not an OCI registry") << u"web"_s << u"does not answer as an OCI registry: GET /v2/ gave 404"_s;
        QTest::newRow("no such repositories") << u"absent"_s << u"has no repository for example.com/test/nothere"_s;
    }

    void openErrors()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        OciOpenForm f = openForm();
        QProcess web;
        if (kind == u"unreachable"_s) {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            const quint16 closed = probe.serverPort();
            probe.close();
            f.repositoryTemplate = u"127.0.0.1:%1/mirror/${namespace}/${type}"_s.arg(closed);
        } else if (kind == u"401"_s) {
            f.credentials = false;
        } else if (kind == u"catalog"_s) {
            f.credentials = false;
            f.from = OciOpenForm::Providers::Catalog;
            f.hostname = u"example.com"_s;
        } else if (kind == u"web"_s) {
            // A plain web server (Python's http.server over http on loopback) is no registry.
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            const quint16 port = probe.serverPort();
            probe.close();
            QVERIFY(QDir().mkpath(m_tmp.filePath(u"web"_s)));
            web.start(u"python3"_s,
                      {u"-m"_s, u"http.server"_s, u"--bind"_s, u"127.0.0.1"_s, u"--directory"_s, m_tmp.filePath(u"web"_s),
                       QString::number(port)});
            QVERIFY(web.waitForStarted(10000));
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    QTcpSocket s;
                    s.connectToHost(QHostAddress::LocalHost, port);
                    return s.waitForConnected(200);
                }(),
                20000);
            f.repositoryTemplate = u"127.0.0.1:%1/mirror/${namespace}/${type}"_s.arg(port);
            f.plainHttp = true;
            f.caFile.clear();
        } else {
            f.typed = {u"example.com/test/nothere"_s};
        }
        MainWindow window;
        QSignalSpy failed(&window, &MainWindow::openFailed);
        QString error;
        QVERIFY2(openOci(&window, f, &error), qPrintable(error));
        QVERIFY(failed.wait(120000));
        const QString message = failed.first().at(1).toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY(!message.contains(u"secret"_s));
        QVERIFY2(child<QLabel>(&window, "errorLabel")->text() == message, qPrintable(child<QLabel>(&window, "errorLabel")->text()));
        if (kind == u"401"_s) // a challenge nobody can answer (Basic, no credentials) is a failure
            QVERIFY(window.requestLog()->failedCount() > 0);
        if (web.state() != QProcess::NotRunning) {
            web.terminate();
            web.waitForFinished(5000);
        }
    }

    void openActionAndShortcut()
    {
        MainWindow window;
        installOciUi(&window);
        QAction *open = test::menuAction(window, MainWindow::Menu::File, u"Open &OCI Registry…"_s);
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(u"Ctrl+Alt+O"_s));
        // Publishing needs a directory or a bundle in the browser.
        PublishOciDialog dialog(&window);
        QVERIFY(dialog.problem().contains(u"Open a directory mirror or a bundle"_s));
    }
};

QTEST_MAIN(TestOciUi)
#include "tst_oci_ui.moc"
