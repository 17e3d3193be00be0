// `provender bundle create|verify|import|recover` as a user runs them: exit codes (0 ok, 1
// findings, 2 usage or unreadable input), JSON shapes, and an import killed with SIGKILL at every
// phase of its commit protocol — and at an arbitrary moment — leaving the target mirror exactly
// as it was (after `provender bundle recover`, which the next import also runs), or exactly as a
// completed import leaves it once the journal says "committed".

#include "BundleTestSupport.h"

#include "model/bundle/BundleImport.h"

#include "tests/support/TestSupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>

using namespace provender;
using namespace provender::test;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run runProvender(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    const ProcessRun p = runProcess(QStringLiteral(PROVENDER_BINARY), args, 300000, env);
    return Run{p.exitCode, QString::fromUtf8(p.out), QString::fromUtf8(p.err)};
}

QMap<QString, QString> visible(const QMap<QString, QString> &s)
{
    QMap<QString, QString> out;
    for (auto it = s.cbegin(); it != s.cend(); ++it)
        if (!it.key().startsWith(kImportWorkDirName))
            out.insert(it.key(), it.value());
    return out;
}

void writeOrFail(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
}

} // namespace

class TestBundleCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_source;
    QString m_bundle; ///< tar.gz of the whole source mirror
    QString m_base;   ///< a target that already has part of it (one provider directory to replace)
    QMap<QString, QString> m_baseSnapshot;
    QMap<QString, QString> m_afterSnapshot; ///< the base after a completed import
    int m_counter = 0;

    QString fresh(const QString &name) { return m_tmp.path() + QStringLiteral("/%1-%2").arg(name).arg(++m_counter); }
    QString copyOfBase()
    {
        const QString dir = fresh(QStringLiteral("target"));
        if (!runTool(QStringLiteral("cp"), {QStringLiteral("-a"), m_base, dir}))
            return {};
        return dir;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        QVERIFY2(QFile::exists(QStringLiteral(PROVENDER_BINARY)), PROVENDER_BINARY);
        PROVENDER_SKIP_UNLESS_PYTHON3(QStringLiteral("the fixture mirror is made with Python"));
        m_source = m_tmp.path() + QStringLiteral("/source");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("mirror"), m_source, QStringLiteral("2000000")}, &error).isNull(), qPrintable(error));
        m_bundle = m_tmp.path() + QStringLiteral("/all.tar.gz");
        const Run created =
            runProvender({QStringLiteral("bundle"), QStringLiteral("create"), m_bundle, QStringLiteral("--mirror"), m_source,
                          QStringLiteral("--all"), QStringLiteral("--timestamp"), QStringLiteral("2024-01-01T00:00:00Z")});
        QVERIFY2(created.exitCode == 0, qPrintable(created.err));
        QVERIFY(created.out.contains(QLatin1StringView("wrote ")));

        // The base: alpha 1.0.0 linux_amd64 already there (its directory is replaced by the
        // import), an unrelated provider, and a file at the root.
        m_base = m_tmp.path() + QStringLiteral("/base");
        const QString alpha = QStringLiteral("registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.0.0_linux_amd64.zip");
        writeOrFail(m_base + u'/' + alpha, readFile(m_source + u'/' + alpha));
        writeOrFail(m_base + QStringLiteral("/registry.terraform.io/hashicorp/alpha/notes.txt"), "kept\n");
        writeOrFail(m_base + QStringLiteral("/example.org/other/delta/terraform-provider-delta_9.9.9_linux_amd64.zip"),
                    readFile(m_source + u'/' + alpha));
        m_baseSnapshot = snapshot(m_base);
        const QString reference = copyOfBase();
        Result<ImportReport> imported = importBundle(m_bundle, reference);
        QVERIFY(imported.ok());
        QVERIFY2(imported->committed, qPrintable(imported->refusal));
        m_afterSnapshot = snapshot(reference);
        QVERIFY(m_afterSnapshot != m_baseSnapshot);
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("create without --mirror")
            << QStringList{QStringLiteral("create"), QStringLiteral("x.tar.gz"), QStringLiteral("--all")};
        QTest::newRow("create with --all and --lock")
            << QStringList{QStringLiteral("create"), QStringLiteral("x.tar.gz"), QStringLiteral("--mirror"), QStringLiteral("."),
                           QStringLiteral("--all"),  QStringLiteral("--lock"),   QStringLiteral("l")};
        QTest::newRow("create --lock without --platform")
            << QStringList{QStringLiteral("create"), QStringLiteral("x.tar.gz"), QStringLiteral("--mirror"),
                           QStringLiteral("."),      QStringLiteral("--lock"),   QStringLiteral("l")};
        QTest::newRow("create format against name")
            << QStringList{QStringLiteral("create"), QStringLiteral("x.zip"),    QStringLiteral("--mirror"), QStringLiteral("."),
                           QStringLiteral("--all"),  QStringLiteral("--format"), QStringLiteral("tar.gz")};
        QTest::newRow("create tar.xz") << QStringList{QStringLiteral("create"), QStringLiteral("x.tar.xz"), QStringLiteral("--mirror"),
                                                      QStringLiteral("."), QStringLiteral("--all")};
        QTest::newRow("create bad platform") << QStringList{
            QStringLiteral("create"), QStringLiteral("x.tar.gz"), QStringLiteral("--mirror"),   QStringLiteral("."),
            QStringLiteral("--lock"), QStringLiteral("l"),        QStringLiteral("--platform"), QStringLiteral("linux")};
        QTest::newRow("verify without bundle") << QStringList{QStringLiteral("verify")};
        QTest::newRow("verify missing file") << QStringList{QStringLiteral("verify"), QStringLiteral("/nonexistent/b.tar.gz")};
        QTest::newRow("import without --into") << QStringList{QStringLiteral("import"), QStringLiteral("b.tar.gz")};
        QTest::newRow("import bad limit") << QStringList{
            QStringLiteral("import"), QStringLiteral("b.tar.gz"),          QStringLiteral("--into"),
            QStringLiteral("d"),      QStringLiteral("--max-total-bytes"), QStringLiteral("lots")};
        QTest::newRow("recover without dir") << QStringList{QStringLiteral("recover")};
    }

    void usage()
    {
        QFETCH(QStringList, args);
        const Run r = runProvender(QStringList{QStringLiteral("bundle")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!r.err.isEmpty());
    }

    void verifyExitCodes()
    {
        Run r = runProvender({QStringLiteral("bundle"), QStringLiteral("verify"), m_bundle, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        // docs/VERDICT-JSON.md: schema 1, the source, and what only a bundle has under "bundle".
        QCOMPARE(o.value(QStringLiteral("schema_version")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("source")).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("bundle"));
        QCOMPARE(o.value(QStringLiteral("source")).toObject().value(QStringLiteral("location")).toString(),
                 QFileInfo(m_bundle).absoluteFilePath());
        const QJsonObject bundle = o.value(QStringLiteral("bundle")).toObject();
        QVERIFY(bundle.value(QStringLiteral("ok")).toBool());
        QCOMPARE(bundle.value(QStringLiteral("format")).toString(), QStringLiteral("tar.gz"));
        QCOMPARE(o.value(QStringLiteral("archives")).toArray().size(), 6);
        for (const QJsonValue &a : o.value(QStringLiteral("archives")).toArray())
            QCOMPARE(a.toObject().value(QStringLiteral("verdict")).toString(), QStringLiteral("verified"));
        QCOMPARE(o.value(QStringLiteral("summary")).toObject().value(QStringLiteral("verified")).toInt(), 6);

        // tampered: findings
        const QString bad = fresh(QStringLiteral("bad")) + QStringLiteral(".tar.gz");
        QString error;
        QVERIFY2(!runFixture({QStringLiteral("tamper"), m_bundle, bad,
                              QStringLiteral("registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.1.0_linux_amd64.zip")},
                             &error)
                      .isNull(),
                 qPrintable(error));
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("verify"), bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains(QLatin1StringView("mismatch")));

        // hostile: findings, the entry named
        const QString hostile = fresh(QStringLiteral("hostile")) + QStringLiteral(".tar.gz");
        QVERIFY(
            !runFixture({QStringLiteral("hostile"), QStringLiteral("traversal"), hostile, QStringLiteral("cli-evil")}, &error).isNull());
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("verify"), hostile});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1StringView("cli-evil")), qPrintable(r.out));

        // truncated: unreadable
        const QString cut = fresh(QStringLiteral("cut")) + QStringLiteral(".tar.gz");
        QByteArray bytes = readFile(m_bundle);
        bytes.truncate(bytes.size() / 2);
        writeOrFail(cut, bytes);
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("verify"), cut});
        QCOMPARE(r.exitCode, 2);
    }

    /// A bundle whose own index and SHA256SUMS agree with an archive that is not the one the team
    /// reviewed: consistent with itself (verified, anchors own-index/own-checksums only); with
    /// --lock the archive is a mismatch and the rest "not covered"; `import --lock --require-lock`
    /// imports nothing. A lock with every reviewed hash (Python's, fixtures.py) imports all.
    void reviewedLockAgainstSelfConsistentBundle()
    {
        const QString original = fresh(QStringLiteral("reviewed"));
        QString error;
        const QByteArray listing = runFixture({QStringLiteral("mirror"), original, QStringLiteral("3000")}, &error);
        QVERIFY2(!listing.isNull(), qPrintable(error));
        const QJsonArray archives = QJsonDocument::fromJson(listing).object()[QStringLiteral("archives")].toArray();
        QVERIFY(archives.size() >= 5);
        // The reviewed lock: every archive's h1 (HashZip for zips, HashDir for the unpacked one).
        QMap<QString, QStringList> byEntry; // "provider version" -> hashes
        for (const QJsonValue &a : archives)
            byEntry[a[QStringLiteral("provider")].toString() + u' ' + a[QStringLiteral("version")].toString()].append(
                a[QStringLiteral("h1")].toString());
        // One block per provider in a lock file, so one file per provider version (--lock repeats).
        QStringList reviewedLocks;
        for (auto it = byEntry.cbegin(); it != byEntry.cend(); ++it) {
            const QStringList pv = it.key().split(u' ');
            QByteArray text = "provider \"" + pv.at(0).toUtf8() + "\" {\n  version = \"" + pv.at(1).toUtf8() + "\"\n  hashes = [\n";
            for (const QString &h : it.value())
                text += "    \"" + h.toUtf8() + "\",\n";
            text += "  ]\n}\n";
            reviewedLocks.append(fresh(QStringLiteral("reviewed.lock.hcl")));
            writeOrFail(reviewedLocks.last(), text);
        }
        auto lockArgs = [&reviewedLocks] {
            QStringList out;
            for (const QString &l : reviewedLocks)
                out << QStringLiteral("--lock") << l;
            return out;
        };
        const QString alphaOnly = fresh(QStringLiteral("alpha.lock.hcl"));
        const QString amd64 = QStringLiteral("registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.0.0_linux_amd64.zip");
        QString amd64H1;
        for (const QJsonValue &a : archives)
            if (a[QStringLiteral("path")].toString() == amd64)
                amd64H1 = a[QStringLiteral("h1")].toString();
        QVERIFY(!amd64H1.isEmpty());
        writeOrFail(alphaOnly,
                    "provider \"registry.terraform.io/hashicorp/alpha\" {\n  version = \"1.0.0\"\n  hashes = [\n    \"" + amd64H1.toUtf8()
                        + "\",\n  ]\n}\n");

        // The substitute: another (valid) package in alpha 1.0.0 linux_amd64's place, indexes
        // rewritten, bundled: every own document agrees with it.
        const QString substituted = fresh(QStringLiteral("substituted"));
        QVERIFY(runTool(QStringLiteral("cp"), {QStringLiteral("-a"), original, substituted}));
        const QString darwin = QStringLiteral("registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.0.0_darwin_arm64.zip");
        writeOrFail(substituted + u'/' + amd64, readFile(original + u'/' + darwin));
        QCOMPARE(runProvender({QStringLiteral("index"), substituted}).exitCode, 0);
        const QString bundle = fresh(QStringLiteral("substituted.tar.gz"));
        const Run created = runProvender(
            {QStringLiteral("bundle"), QStringLiteral("create"), bundle, QStringLiteral("--mirror"), substituted, QStringLiteral("--all")});
        QVERIFY2(created.exitCode == 0, qPrintable(created.err));

        auto archiveIn = [](const QJsonObject &report, const QString &provider, const QString &version, const QString &platform) {
            for (const QJsonValue &a : report[QStringLiteral("archives")].toArray())
                if (a[QStringLiteral("provider")].toString() == provider && a[QStringLiteral("version")].toString() == version
                    && a[QStringLiteral("platform")].toString() == platform)
                    return a.toObject();
            return QJsonObject();
        };
        const QString alpha = QStringLiteral("registry.terraform.io/hashicorp/alpha");
        // Consistent with itself.
        Run r = runProvender({QStringLiteral("bundle"), QStringLiteral("verify"), bundle, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QJsonObject a =
            archiveIn(QJsonDocument::fromJson(r.out.toUtf8()).object(), alpha, QStringLiteral("1.0.0"), QStringLiteral("linux_amd64"));
        QCOMPARE(a[QStringLiteral("verdict")].toString(), QStringLiteral("verified"));
        QStringList kinds;
        for (const QJsonValue &an : a[QStringLiteral("anchors")].toArray()) {
            kinds.append(an[QStringLiteral("kind")].toString());
            QVERIFY(an[QStringLiteral("self_consistency_only")].toBool());
        }
        QCOMPARE(kinds, (QStringList{QStringLiteral("own-index"), QStringLiteral("own-checksums")}));
        // Against the reviewed lock: the substitute is a mismatch, exit 1.
        r = runProvender(
            {QStringLiteral("bundle"), QStringLiteral("verify"), bundle, QStringLiteral("--json"), QStringLiteral("--lock"), alphaOnly});
        QCOMPARE(r.exitCode, 1);
        QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        a = archiveIn(report, alpha, QStringLiteral("1.0.0"), QStringLiteral("linux_amd64"));
        QCOMPARE(a[QStringLiteral("verdict")].toString(), QStringLiteral("mismatch"));
        QVERIFY2(a[QStringLiteral("reason")].toString().contains(QLatin1String("doesn't match any of the checksums previously recorded")),
                 qPrintable(a[QStringLiteral("reason")].toString()));
        // alpha 1.1.0 and the other providers: no lock covers them.
        a = archiveIn(report, alpha, QStringLiteral("1.1.0"), QStringLiteral("linux_amd64"));
        QCOMPARE(a[QStringLiteral("not_covered_by_lock")].toBool(), true);
        // Import with --require-lock: nothing. (The alpha-only lock: a lock lists every platform's
        // hashes, so against the full lock the substitute — darwin_arm64's package — is a package
        // of that version terraform would accept too.)
        const QString target = copyOfBase();
        const QMap<QString, QString> before = snapshot(target);
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), bundle, QStringLiteral("--into"), target,
                          QStringLiteral("--lock"), alphaOnly, QStringLiteral("--require-lock"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(visible(snapshot(target)), visible(before));
        QJsonObject substitute;
        for (const QJsonValue &act : QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("actions")].toArray())
            if (act[QStringLiteral("provider")].toString() == alpha && act[QStringLiteral("version")].toString() == QLatin1String("1.0.0")
                && act[QStringLiteral("platform")].toString() == QLatin1String("linux_amd64"))
                substitute = act.toObject();
        QCOMPARE(substitute[QStringLiteral("action")].toString(), QStringLiteral("rejected"));
        QVERIFY2(substitute[QStringLiteral("reason")].toString().contains(
                     QLatin1String("doesn't match any of the checksums previously recorded")),
                 QJsonDocument(substitute).toJson().constData());
        // --require-lock without --lock is a usage error.
        QCOMPARE(runProvender({QStringLiteral("bundle"), QStringLiteral("import"), bundle, QStringLiteral("--into"), target,
                               QStringLiteral("--require-lock")})
                     .exitCode,
                 2);
        // The unmodified mirror, bundled, against the same reviewed lock: every archive vouched
        // for by the lock, imported.
        const QString good = fresh(QStringLiteral("reviewed.tar.gz"));
        QCOMPARE(runProvender({QStringLiteral("bundle"), QStringLiteral("create"), good, QStringLiteral("--mirror"), original,
                               QStringLiteral("--all")})
                     .exitCode,
                 0);
        const QString empty = fresh(QStringLiteral("empty-target"));
        QVERIFY(QDir().mkpath(empty));
        r = runProvender(QStringList{QStringLiteral("bundle"), QStringLiteral("import"), good, QStringLiteral("--into"), empty,
                                     QStringLiteral("--require-lock")}
                         + lockArgs());
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(readFile(empty + u'/' + amd64), readFile(original + u'/' + amd64));
        // Only the alpha lock: the rest is not covered, so --require-lock rejects it all.
        const QString target2 = copyOfBase();
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), good, QStringLiteral("--into"), target2,
                          QStringLiteral("--lock"), alphaOnly, QStringLiteral("--require-lock")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QLatin1String("no lock file given covers")), qPrintable(r.out));
    }

    void createFromLockFile()
    {
        const QString lock = fresh(QStringLiteral("lock")) + QStringLiteral(".hcl");
        writeOrFail(lock,
                    "provider \"registry.terraform.io/hashicorp/alpha\" {\n  version = \"1.1.0\"\n}\n\n"
                    "provider \"registry.terraform.io/hashicorp/absent\" {\n  version = \"1.0.0\"\n}\n");
        const QString out = fresh(QStringLiteral("locked")) + QStringLiteral(".zip");
        Run r = runProvender({QStringLiteral("bundle"), QStringLiteral("create"), out, QStringLiteral("--mirror"), m_source,
                              QStringLiteral("--lock"), lock, QStringLiteral("--platform"), QStringLiteral("linux_amd64"),
                              QStringLiteral("--platform"), QStringLiteral("darwin_arm64"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1); // written, but the mirror lacks `absent`
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("zip"));
        QCOMPARE(o.value(QStringLiteral("missing")).toArray().size(), 2);
        QCOMPARE(o.value(QStringLiteral("manifest")).toObject().value(QStringLiteral("archives")).toArray().size(), 2);
        QVERIFY(QFile::exists(out));
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("verify"), out});
        QCOMPARE(r.exitCode, 0);
    }

    void importExitCodes()
    {
        const QString target = copyOfBase();
        Run r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target,
                              QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(!o.value(QStringLiteral("committed")).toBool());
        int adds = 0, unchanged = 0;
        for (const QJsonValue &a : o.value(QStringLiteral("actions")).toArray()) {
            adds += a.toObject().value(QStringLiteral("action")).toString() == u"add";
            unchanged += a.toObject().value(QStringLiteral("action")).toString() == u"unchanged";
        }
        QCOMPARE(adds, 5);
        QCOMPARE(unchanged, 1);
        QCOMPARE(snapshotDiff(m_baseSnapshot, snapshot(target)), QString());

        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(snapshotDiff(m_afterSnapshot, snapshot(target)), QString());

        // a different file where an archive goes: refused, then replaced on request
        const QString conflict = copyOfBase();
        const QString path =
            conflict + QStringLiteral("/registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.1.0_linux_amd64.zip");
        writeOrFail(path, "something else\n");
        const QMap<QString, QString> before = snapshot(conflict);
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), conflict});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains(QLatin1StringView("conflict")));
        QCOMPARE(snapshotDiff(before, snapshot(conflict)), QString());
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), conflict,
                          QStringLiteral("--replace")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(snapshotDiff(m_afterSnapshot, snapshot(conflict)), QString());

        // into a file: usage
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), m_bundle});
        QCOMPARE(r.exitCode, 2);

        r = runProvender({QStringLiteral("bundle"), QStringLiteral("recover"), target});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral("nothing to recover"));
    }

    void killed_data()
    {
        QTest::addColumn<QString>("phase");
        QTest::addColumn<bool>("committed");
        QTest::newRow("while staging the bundle") << "staging" << false;
        QTest::newRow("staged, indexes written") << "staged" << false;
        QTest::newRow("journal prepared") << "prepared" << false;
        QTest::newRow("one directory swapped") << "swapped" << false;
        QTest::newRow("journal committed") << "committed" << true;
        QTest::newRow("as soon as the work directory appears") << "" << false;
    }

    void killed()
    {
        QFETCH(QString, phase);
        QFETCH(bool, committed);
        const QString target = copyOfBase();
        QVERIFY(!target.isEmpty());
        QCOMPARE(snapshot(target), m_baseSnapshot);

        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!phase.isEmpty())
            env.insert(QStringLiteral("PROVENDER_TEST_IMPORT_PAUSE"), phase);
        child.setProcessEnvironment(env);
        child.start(QStringLiteral(PROVENDER_BINARY),
                    {QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QVERIFY(child.waitForStarted());
        QElapsedTimer timer;
        timer.start();
        if (phase.isEmpty()) {
            const QString work = target + u'/' + kImportWorkDirName;
            while (!QFileInfo::exists(work) && child.state() == QProcess::Running && timer.elapsed() < 120000)
                QThread::usleep(200);
        } else {
            QByteArray said;
            const QByteArray wanted = "paused at " + phase.toUtf8();
            while (!said.contains(wanted) && child.state() == QProcess::Running && timer.elapsed() < 120000) {
                child.waitForReadyRead(100);
                said += child.readAllStandardError();
            }
            QVERIFY2(said.contains(wanted), said.constData());
        }
        QVERIFY2(child.state() == QProcess::Running, "the import finished before it could be killed");
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(60000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        const QMap<QString, QString> left = snapshot(target);
        if (phase == u"staging" || phase == u"staged" || phase == u"prepared")
            QCOMPARE(snapshotDiff(m_baseSnapshot, visible(left)), QString()); // nothing visible changed yet
        if (phase == u"swapped")
            QVERIFY2(visible(left) != m_baseSnapshot && visible(left) != m_afterSnapshot, "expected a half-swapped mirror");
        if (committed)
            QCOMPARE(snapshotDiff(m_afterSnapshot, visible(left)), QString());

        const Run recovered = runProvender({QStringLiteral("bundle"), QStringLiteral("recover"), target});
        QVERIFY2(recovered.exitCode == 0, qPrintable(recovered.err));
        const QMap<QString, QString> after = snapshot(target);
        if (phase.isEmpty()) {
            QVERIFY2(after == m_baseSnapshot || after == m_afterSnapshot,
                     qPrintable(QStringLiteral("neither before nor after:\n") + snapshotDiff(m_baseSnapshot, after)));
        } else {
            QCOMPARE(snapshotDiff(committed ? m_afterSnapshot : m_baseSnapshot, after), QString());
        }
        QVERIFY(!QFileInfo::exists(target + u'/' + kImportWorkDirName));

        // and the mirror takes the import normally afterwards
        const Run again = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QCOMPARE(snapshotDiff(m_afterSnapshot, snapshot(target)), QString());
    }

    void concurrentImportsExclude_data()
    {
        QTest::addColumn<QString>("phase");
        QTest::newRow("first one staging") << "staging";
        QTest::newRow("first one committed, cleaning up") << "committed";
        // The moment a lock file inside the work directory would have been deleted while held.
        QTest::newRow("first one's work directory removed, lock still held") << "cleaned";
    }

    void concurrentImportsExclude()
    {
        // Two real processes: the first import holds the lock (stopped at a phase by the test hook);
        // a second import, a dry run and a recover into the same mirror are each refused with a
        // clear message and change nothing; the first then finishes normally.
        QFETCH(QString, phase);
        const QString target = copyOfBase();
        QVERIFY(!target.isEmpty());
        QProcess first;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PROVENDER_TEST_IMPORT_PAUSE"), phase);
        first.setProcessEnvironment(env);
        first.start(QStringLiteral(PROVENDER_BINARY),
                    {QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QVERIFY(first.waitForStarted());
        // A failed check must not leave the stopped child behind.
        const auto reap = qScopeGuard([&] {
            if (first.state() != QProcess::NotRunning) {
                ::kill(pid_t(first.processId()), SIGKILL);
                first.waitForFinished(10000);
            }
        });
        QByteArray said;
        QElapsedTimer timer;
        timer.start();
        const QByteArray wanted = "paused at " + phase.toUtf8();
        while (!said.contains(wanted) && first.state() == QProcess::Running && timer.elapsed() < 120000) {
            first.waitForReadyRead(100);
            said += first.readAllStandardError();
        }
        QVERIFY2(said.contains(wanted), said.constData());
        const QString work = target + u'/' + kImportWorkDirName;
        const QMap<QString, QString> during = snapshot(target);
        QCOMPARE(QFileInfo(work).isDir(), phase != u"cleaned");

        const QString refused = QStringLiteral("another import into %1 is running").arg(target);
        const QList<QStringList> others{
            {QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target},
            {QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target, QStringLiteral("--dry-run")},
            {QStringLiteral("bundle"), QStringLiteral("recover"), target},
        };
        for (const QStringList &args : others) {
            const Run second = runProvender(args);
            if (phase == u"cleaned" && args.at(1) == u"recover") {
                // No work directory left: nothing to recover, and nothing is touched.
                QVERIFY2(second.exitCode == 0 && second.out.contains(u"nothing to recover"), qPrintable(second.out + second.err));
                QCOMPARE(snapshotDiff(during, snapshot(target)), QString());
                continue;
            }
            QVERIFY2(second.exitCode == 2, qPrintable(args.join(u' ') + QStringLiteral(": ") + second.out + second.err));
            QVERIFY2(second.err.contains(refused), qPrintable(second.err));
            // Nothing of the first one's was touched: its work directory, the lock, the mirror.
            QCOMPARE(snapshotDiff(during, snapshot(target)), QString());
        }

        ::kill(pid_t(first.processId()), SIGCONT);
        QVERIFY(first.waitForFinished(120000));
        QCOMPARE(first.exitStatus(), QProcess::NormalExit);
        QVERIFY2(first.exitCode() == 0, first.readAllStandardOutput().constData());
        QCOMPARE(snapshotDiff(m_afterSnapshot, snapshot(target)), QString());
        QVERIFY(!QFileInfo::exists(work));
        // and with the lock free, the next import runs (nothing to add now)
        const Run again = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
    }

    void importRecoversByItself()
    {
        // Killed after the first swap; the next `bundle import` rolls back first, then imports.
        const QString target = copyOfBase();
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PROVENDER_TEST_IMPORT_PAUSE"), QStringLiteral("swapped"));
        child.setProcessEnvironment(env);
        child.start(QStringLiteral(PROVENDER_BINARY),
                    {QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QVERIFY(child.waitForStarted());
        QByteArray said;
        QElapsedTimer timer;
        timer.start();
        while (!said.contains("paused at swapped") && child.state() == QProcess::Running && timer.elapsed() < 120000) {
            child.waitForReadyRead(100);
            said += child.readAllStandardError();
        }
        QVERIFY(said.contains("paused at swapped"));
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(60000));
        // A dry run refuses to plan against a half-swapped mirror.
        Run r = runProvender(
            {QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target, QStringLiteral("--dry-run")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QLatin1StringView("recover")));
        r = runProvender({QStringLiteral("bundle"), QStringLiteral("import"), m_bundle, QStringLiteral("--into"), target});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QLatin1StringView("rolled back")), qPrintable(r.out));
        QCOMPARE(snapshotDiff(m_afterSnapshot, snapshot(target)), QString());
    }
};

QTEST_GUILESS_MAIN(TestBundleCli)
#include "tst_bundle_cli.moc"
