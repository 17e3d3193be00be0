// LockDocument without widgets (QtCore + QtGui's QUndoStack, no QApplication): every edit and
// its undo/redo byte for byte on the shared corpus (lock files terraform and tofu wrote), mirror
// operations against `terraform providers lock -fs-mirror` on a corpus file, outcomes refused
// when cancelled or overtaken by a change, the file on disk changing (reload, keep mine,
// deletion), and a failing save that leaves the file and the document as they were.

#include "model/lockfile/LockWriter.h"
#include "model/lockitems/LockDocument.h"
#include "model/mirror/DemoMirror.h"
#include "model/mirror/FileSystemMirror.h"
#include "tests/support/FileSizeLimit.h"
#include "tests/support/LockMirrorFixture.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/TerraformLock.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cstdio>

using namespace provender;
using namespace Qt::StringLiterals;

namespace {

using test::addr;
using test::platform;
using test::writeFile;

/// The corpus files whose MANIFEST notes say "canonical layout" and not "hand-edited" (as
/// tofu/terraform wrote them).
QSet<QString> canonicalCorpusFiles(const QString &corpus)
{
    QSet<QString> out;
    const QList<QByteArray> lines = test::readFile(corpus + u"/../MANIFEST.tsv"_s).split('\n');
    for (const QByteArray &line : lines)
        if (line.startsWith("lockfiles/") && line.contains("canonical layout") && !line.contains("hand-edited"))
            out << QFileInfo(QString::fromUtf8(line.left(line.indexOf('\t')))).fileName();
    return out;
}

const QByteArray kHeader = "# This file is maintained automatically by \"tofu init\".\n"
                           "# Manual edits may be lost in future updates.\n";

} // namespace

class TestLockDocument : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the hash cache goes to a test location
        QVERIFY(m_tmp.isValid());
    }

    /// Every corpus file: an edit is one undo step, undo gives back the file's exact bytes and
    /// redo the edited ones. Where tofu/terraform wrote the file (canonical layout, nothing a
    /// canonical rewrite drops), removing a
    /// provider and adding it back gives their bytes again; a file with errors refuses edits and
    /// says where the errors are (file and line).
    void corpusEditsUndoByteExact()
    {
        const QString corpus = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(corpus, u"lockfiles"_s);
        const QSet<QString> canonical = canonicalCorpusFiles(corpus);
        QVERIFY2(canonical.size() > 10, "MANIFEST.tsv lists the canonical corpus files");
        int edited = 0;
        int roundTrips = 0;
        const QStringList files = QDir(corpus).entryList({u"*.terraform.lock.hcl"_s}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString &name : files) {
            const QString path = corpus + u'/' + name;
            const QByteArray input = test::readFile(path);
            LockDocument doc;
            QVERIFY(doc.open(path).ok());
            QCOMPARE(doc.bytes(), input);
            QVERIFY(!doc.isModified());
            QCOMPARE(doc.displayName(), name);
            if (doc.hasErrors()) {
                for (const LockDiagnostic &d : doc.parsed().errors()) {
                    QVERIFY2(d.range.line > 0, qPrintable(name));
                    QVERIFY2(d.toString(doc.displayName()).startsWith(name + u':'), qPrintable(d.toString(doc.displayName())));
                }
                QVERIFY(!doc.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.0"_s));
                QCOMPARE(doc.undoStack()->count(), 0);
                QCOMPARE(doc.bytes(), input);
                continue;
            }
            if (doc.lockFile().providers.isEmpty())
                continue;
            const bool drops = doc.lockFile().wouldDropContent();
            const ProviderLock first = doc.lockFile().providers.constFirst();
            const Result<QString> removed = doc.removeProvider(first.address);
            QVERIFY2(removed.ok(), qPrintable(name));
            QCOMPARE(doc.undoStack()->count(), 1);
            const QByteArray after = doc.bytes();
            QVERIFY2(!after.contains(QByteArray("provider \"" + first.address.toString().toUtf8() + '"')), qPrintable(name));
            QVERIFY(doc.isModified());
            doc.undoStack()->undo();
            QCOMPARE(doc.bytes(), input);
            QVERIFY(!doc.isModified());
            doc.undoStack()->redo();
            QCOMPARE(doc.bytes(), after);
            ++edited;
            if (!canonical.contains(name) || drops)
                continue; // e.g. a Terraform Stacks header, which canonical writing replaces (docs/LOCKFILES.md)
            QVERIFY2(doc.addProvider(first).ok(), qPrintable(name));
            if (doc.bytes() != input)
                qWarning("%s: not the bytes tofu/terraform wrote", qPrintable(name));
            QCOMPARE(QString::fromUtf8(doc.bytes()), QString::fromUtf8(input)); // tofu/terraform's bytes
            QCOMPARE(doc.undoStack()->count(), 2);
            doc.undoStack()->undo();
            QCOMPARE(doc.bytes(), after);
            doc.undoStack()->undo();
            QCOMPARE(doc.bytes(), input);
            ++roundTrips;
        }
        qInfo("%d corpus files edited, %d round trips to tofu/terraform's bytes", edited, roundTrips);
        QVERIFY(edited > 40);
        QVERIFY(roundTrips > 10);
    }

    /// Add hashes from the demo mirror to corpus file 017 through a task run right here (what
    /// the window runs as a job), undo/redo, save: terraform providers lock -fs-mirror on the
    /// same input writes the same bytes. Then upgrade: nothing newer within the constraints.
    void mirrorEditsAgainstTerraform()
    {
        const QString corpus = test::corpusDir(u"lockfiles"_s);
        PROVENDER_SKIP_UNLESS_CORPUS(corpus, u"lockfiles"_s);
        const QByteArray input = test::readFile(corpus + u"/017.terraform.lock.hcl"_s);
        QVERIFY(!input.isEmpty());
        const QString mirror = m_tmp.path() + u"/demo"_s;
        QVERIFY(generateDemoMirror(mirror).ok());
        const Result<Catalog> catalog = scanFileSystemMirror(mirror);
        QVERIFY(catalog.ok());
        const QString path = m_tmp.path() + u"/mirror-edit/.terraform.lock.hcl"_s;
        QVERIFY(writeFile(path, input));

        LockDocument doc;
        QVERIFY(doc.open(path).ok());
        QVERIFY(!doc.addHashesTask({platform("linux_amd64")}, false).ok()); // no mirror yet
        doc.setCatalog(catalog.value());
        QVERIFY(!doc.addHashesTask({}, false).ok()); // no platform
        const QList<ProviderAddress> providers{addr("registry.opentofu.org/hashicorp/null"),
                                               addr("registry.opentofu.org/hashicorp/random")};
        const Result<LockMirrorTask> task = doc.addHashesTask({platform("linux_amd64"), platform("darwin_arm64")}, false, providers);
        QVERIFY(task.ok());
        JobProgress progress;
        const LockMirrorOutcome outcome = task->run(progress);
        QVERIFY(!outcome.cancelled);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(progress.total() > 0);
        QCOMPARE(doc.bytes(), input); // running a task changes nothing
        QVERIFY(doc.applyMirrorOutcome(outcome).ok());
        QVERIFY2(doc.notes().isEmpty(), qPrintable(doc.notes().join(u'\n')));
        const QByteArray after = doc.bytes();
        QVERIFY(after != input);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.bytes(), input);
        doc.undoStack()->redo();
        QCOMPARE(doc.bytes(), after);
        QVERIFY(doc.saveAs(path).ok());
        QCOMPARE(test::readFile(path), after);
        QVERIFY(!doc.isModified());

        // Upgrade within the constraints: the demo mirror has nothing newer that meets them.
        const Result<LockMirrorTask> upgrade = doc.upgradeTask(providers, {});
        QVERIFY(upgrade.ok());
        JobProgress upgradeProgress;
        const LockMirrorOutcome upgraded = upgrade->run(upgradeProgress);
        QVERIFY2(upgraded.error.isEmpty(), qPrintable(upgraded.error));
        const int steps = doc.undoStack()->count();
        QVERIFY(doc.applyMirrorOutcome(upgraded).ok());
        QCOMPARE(doc.undoStack()->count(), upgraded.changed ? steps + 1 : steps);

        PROVENDER_SKIP_UNLESS_TERRAFORM(QStringLiteral("the comparison with terraform providers lock is skipped"));
        QList<test::TerraformRequirement> required;
        for (const ProviderLock &p : parseLockFile(input).document.providers)
            required.append({p.address.toString(), p.constraints.toString()});
        const test::TerraformLockRun tf =
            test::terraformProvidersLock(m_tmp.path() + u"/tf"_s, input, required, mirror, {u"linux_amd64"_s, u"darwin_arm64"_s},
                                         {providers.at(0).toString(), providers.at(1).toString()});
        QVERIFY2(tf.run.exitCode == 0, tf.run.err.constData());
        QByteArray ours = after;
        ours.replace("\"tofu init\"", "\"terraform init\""); // we keep the file's own header; terraform writes its own
        QCOMPARE(QString::fromUtf8(ours), QString::fromUtf8(tf.lockFile));
    }

    /// An outcome is refused when its run was cancelled or the text changed while it ran:
    /// nothing is pushed, the bytes stay.
    void mirrorOutcomesRefused()
    {
        const QString mirror = m_tmp.path() + u"/demo-refused"_s;
        QVERIFY(generateDemoMirror(mirror).ok());
        const QByteArray before = test::tofuNullLock("3.2.2");
        LockDocument doc;
        doc.openBytes(before, u"refused.hcl"_s);
        doc.setCatalog(scanFileSystemMirror(mirror).value());

        const Result<LockMirrorTask> task = doc.addHashesTask({platform("linux_amd64")}, false);
        QVERIFY(task.ok());
        JobProgress cancelled;
        cancelled.cancel();
        const LockMirrorOutcome none = task->run(cancelled);
        QVERIFY(none.cancelled);
        const Result<QString> refused = doc.applyMirrorOutcome(none);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::Cancelled);
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(doc.bytes(), before);

        JobProgress progress;
        const LockMirrorOutcome outcome = task->run(progress);
        QVERIFY(!outcome.cancelled);
        QVERIFY(outcome.document.find(addr("registry.opentofu.org/hashicorp/null"))->hashes.size() == 1);
        QVERIFY(doc.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s).ok()); // typed meanwhile
        const QByteArray edited = doc.bytes();
        QVERIFY(!doc.applyMirrorOutcome(outcome).ok());
        QCOMPARE(doc.bytes(), edited);
        QCOMPARE(doc.undoStack()->count(), 1);
    }

    /// Provenance tasks follow the locked versions: one per change of them, and only the
    /// newest task's result is taken.
    void provenanceLatestTaskWins()
    {
        const QString mirror = m_tmp.path() + u"/demo-provenance"_s;
        QVERIFY(generateDemoMirror(mirror).ok());
        LockDocument doc;
        doc.openBytes(test::tofuNullLock("3.2.2"), u"p.hcl"_s);
        QVERIFY(!doc.provenanceTask()); // no mirror
        doc.setCatalog(scanFileSystemMirror(mirror).value());
        const std::optional<LockProvenanceTask> first = doc.provenanceTask();
        QVERIFY(first);
        QVERIFY(!doc.provenanceTask()); // nothing changed
        QVERIFY(doc.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s).ok());
        QVERIFY(!doc.provenanceTask()); // the versions did not change
        QVERIFY(doc.setVersion(addr("registry.opentofu.org/hashicorp/null"), u"3.2.1"_s).ok());
        const std::optional<LockProvenanceTask> second = doc.provenanceTask();
        QVERIFY(second);
        QSignalSpy changed(&doc, &LockDocument::provenanceChanged);
        JobProgress progress;
        doc.setProvenance(*first, first->run(progress).value().index); // superseded: ignored
        QVERIFY(!doc.provenance());
        QCOMPARE(changed.size(), 0);
        doc.setProvenance(*second, second->run(progress).value().index);
        QVERIFY(doc.provenance());
        QCOMPARE(changed.size(), 1);

        // A network mirror that cannot be read again for the trace: the task fails, naming the
        // mirror and why, so that the window can say so (its hashes keep no platform).
        LockProvenanceTask unreadable = *second;
        LockMirror ftp;
        ftp.location = u"ftp://127.0.0.1:1/"_s;
        ftp.network = NetworkMirrorOptions();
        unreadable.mirror = std::make_shared<const LockMirror>(ftp);
        const Result<LockTrace> failed = unreadable.run(progress);
        QVERIFY(!failed.ok());
        QVERIFY2(failed.error().message.startsWith(u"Cannot read the mirror ftp://127.0.0.1:1/: "_s), qPrintable(failed.error().message));
    }

    /// A trace that cannot hash an archive (a corrupt zip, made by Python) says so, as `lock diff
    /// --mirror` warns, so that the window can show why that platform stays unknown.
    void provenanceWarnings()
    {
        const test::LockMirrorFixture fixture(
            {{"example.test/ns/alpha", "1.0.0", "linux_amd64"}, {"example.test/ns/alpha", "1.0.0", "darwin_arm64", false, false, true}});
        QVERIFY2(fixture.error().isEmpty(), qPrintable(fixture.error()));
        LockDocument doc;
        doc.openBytes(test::providerBlock("example.test/ns/alpha", "1.0.0", "", {}), u"w.hcl"_s);
        doc.setCatalog(scanFileSystemMirror(fixture.root()).value());
        const std::optional<LockProvenanceTask> task = doc.provenanceTask();
        QVERIFY(task);
        JobProgress progress;
        const Result<LockTrace> trace = task->run(progress);
        QVERIFY(trace.ok());
        QCOMPARE(trace->warnings.size(), 1);
        QVERIFY2(trace->warnings.first().startsWith(u"could not hash "_s) && trace->warnings.first().contains(u"darwin_arm64"_s),
                 qPrintable(trace->warnings.first()));
        QCOMPARE(trace->warningLine(), u"Hash trace: "_s + trace->warnings.first());
        LockTrace two = trace.value();
        two.warnings << u"second"_s;
        QCOMPARE(two.warningLine(), u"Hash trace: "_s + trace->warnings.first() + u" (and 1 more warning(s))"_s);
        QVERIFY(LockTrace().warningLine().isEmpty());
    }

    /// Another program rewrites the file: the watcher notices (checkDisk); Reload is one undo
    /// step to the disk's bytes, Keep Mine makes the next save overwrite, a deleted file cannot
    /// be reloaded.
    void diskChanges()
    {
        const QByteArray v1 = test::tofuNullLock("3.2.2");
        const QByteArray v2 = test::tofuNullLock("3.2.3");
        const QString path = m_tmp.path() + u"/disk/.terraform.lock.hcl"_s;
        QVERIFY(writeFile(path, v1));
        LockDocument doc;
        QVERIFY(doc.open(path).ok());
        QSignalSpy disk(&doc, &LockDocument::diskStateChanged);
        // Replaced by a rename, as tofu and git write it: the watcher sees it.
        QVERIFY(writeFile(path + u".tmp"_s, v2));
        QVERIFY(::rename(QFile::encodeName(path + u".tmp"_s).constData(), QFile::encodeName(path).constData()) == 0);
        QTRY_VERIFY(doc.diskChangePending());
        QVERIFY(doc.diskFileExists());
        QVERIFY(disk.size() >= 1);
        QVERIFY(doc.reloadFromDisk().ok());
        QCOMPARE(doc.bytes(), v2);
        QVERIFY(!doc.isModified());
        QVERIFY(!doc.diskChangePending());
        doc.undoStack()->undo();
        QCOMPARE(doc.bytes(), v1);
        QVERIFY(doc.isModified()); // the disk has v2 now
        doc.undoStack()->redo();

        // Changed and changed back before anyone looked: nothing pending.
        QVERIFY(writeFile(path, v1));
        doc.checkDisk();
        QVERIFY(doc.diskChangePending());
        QVERIFY(writeFile(path, v2));
        doc.checkDisk();
        QVERIFY(!doc.diskChangePending());

        // Keep Mine: the disk's bytes are accepted as the base; our text counts as modified.
        QVERIFY(doc.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s).ok());
        QVERIFY(writeFile(path, v1));
        doc.checkDisk();
        QVERIFY(doc.diskChangePending());
        doc.keepMine();
        QVERIFY(!doc.diskChangePending());
        QVERIFY(doc.isModified());
        QVERIFY(doc.saveAs(path).ok());
        QCOMPARE(test::readFile(path), doc.bytes());

        // Deleted: pending, not reloadable.
        QVERIFY(QFile::remove(path));
        doc.checkDisk();
        QVERIFY(doc.diskChangePending());
        QVERIFY(!doc.diskFileExists());
        const QByteArray mine = doc.bytes();
        QVERIFY(!doc.reloadFromDisk().ok());
        QCOMPARE(doc.bytes(), mine);
    }

    /// A save that fails (the file size limit stops the write; a folder that does not exist)
    /// leaves the file on disk and the document as they were; a text with errors is not saved.
    void saveFailureLeavesFileAsItWas()
    {
        const QByteArray before = "# my comment\n" + kHeader
            + "provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.2.2\"\n  hashes = [\"h1:nnnn=\"]\n}\n";
        const QString path = m_tmp.path() + u"/save/.terraform.lock.hcl"_s;
        QVERIFY(writeFile(path, before));
        LockDocument doc;
        QVERIFY(doc.open(path).ok());
        QVERIFY(doc.setConstraints(addr("registry.opentofu.org/hashicorp/null"), u"~> 3.2"_s).ok());
        const QByteArray edited = doc.bytes();
        QVERIFY(edited.size() > 64);

        // RLIMIT_FSIZE: writes past 64 bytes fail with EFBIG (SIGXFSZ ignored), as on a full disk.
        test::FileSizeLimit limit(64);
        QVERIFY(limit.ok());
        const Result<void> full = doc.saveAs(path);
        QVERIFY(limit.restore());
        QVERIFY(!full.ok());
        QCOMPARE(full.error().code, ErrorCode::Io);
        QCOMPARE(test::readFile(path), before);
        QCOMPARE(doc.bytes(), edited);
        QVERIFY(doc.isModified());
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(QDir(QFileInfo(path).path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{u".terraform.lock.hcl"_s}); // no temporary left

        const Result<void> nowhere = doc.saveAs(m_tmp.path() + u"/no/such/folder/.terraform.lock.hcl"_s);
        QVERIFY(!nowhere.ok());
        QCOMPARE(doc.path(), QFileInfo(path).absoluteFilePath());
        QVERIFY(doc.isModified());
        QCOMPARE(test::readFile(path), before);

        doc.setText(edited + "provider \"bad\" {\n", u"Edit text"_s);
        QVERIFY(doc.hasErrors());
        QVERIFY(!doc.saveAs(path).ok());
        QCOMPARE(test::readFile(path), before);
        doc.undoStack()->undo(); // the bad text
        doc.undoStack()->undo(); // the constraints: the file's own bytes, comment included
        QCOMPARE(doc.bytes(), before);

        // A save that works writes the canonical form (the comment goes) as one undo step.
        QVERIFY(doc.saveAs(path).ok());
        const QByteArray canonical = kHeader
            + "\nprovider \"registry.opentofu.org/hashicorp/null\" {\n"
              "  version = \"3.2.2\"\n"
              "  hashes = [\n"
              "    \"h1:nnnn=\",\n"
              "  ]\n"
              "}\n";
        QCOMPARE(test::readFile(path), canonical);
        QCOMPARE(doc.bytes(), canonical);
        QVERIFY(!doc.isModified());
        doc.undoStack()->undo();
        QCOMPARE(doc.bytes(), before);
        QVERIFY(doc.isModified());
    }
};

QTEST_GUILESS_MAIN(TestLockDocument)
#include "tst_lockdocument.moc"
