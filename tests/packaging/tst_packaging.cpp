// The Debian package: cpack builds it from the already built binary, `dpkg -x` extracts it into a
// temporary root, and the tools of the desktop check what is there. Expected values come from
// outside our code: the version from the top-level CMakeLists.txt's project(VERSION), the
// architecture from `dpkg --print-architecture`, the command list from app/cli/Cli.cpp's table,
// the libraries from `readelf -d` / `ldd` / `dpkg -S`, validity from desktop-file-validate,
// appstreamcli, update-mime-database and man, completions from hand-written lists.

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using Run = provender::test::ProcessRun;

Run run(const QString &program, const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
        int timeoutMs = 600000)
{
    return provender::test::runProcess(program, args, timeoutMs, env);
}

QString tool(const char *name)
{
    return QStandardPaths::findExecutable(QLatin1StringView(name));
}

} // namespace

class TestPackaging : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_deb;
    QString m_root; // the extracted package
    QString m_version;

    QString path(const QString &rel) const { return m_root + QLatin1Char('/') + rel; }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *t : {"dpkg-deb", "dpkg-shlibdeps", "dpkg", "readelf", "ldd"})
            if (tool(t).isEmpty())
                PROVENDER_SKIP(provender::test::Missing::Package,
                               u"%1 is not installed (Debian: dpkg-dev, binutils); the package cannot be built or checked"_s.arg(
                                   QLatin1StringView(t)));
        QVERIFY2(QFileInfo(QStringLiteral(PROVENDER_BINARY_DIR "/bin/provender")).isExecutable(), "build the provender target first");
        QVERIFY(m_tmp.isValid());

        const QByteArray cmake = provender::test::readFile(provender::test::sourceDir() + u"/CMakeLists.txt"_s);
        const QRegularExpressionMatch m =
            QRegularExpression(u"project\\(\\s*Provender\\s+VERSION\\s+([0-9.]+)"_s).match(QString::fromUtf8(cmake));
        QVERIFY(m.hasMatch());
        m_version = m.captured(1);

        // Package from the existing build (no rebuild); everything cpack writes goes to the temp dir.
        const QString out = m_tmp.path() + u"/out"_s;
        const Run cpack = run(QStringLiteral(PROVENDER_CPACK),
                              {u"-G"_s, u"DEB"_s, u"-B"_s, out, u"--config"_s, QStringLiteral(PROVENDER_BINARY_DIR "/CPackConfig.cmake")});
        QVERIFY2(cpack.exitCode == 0, QByteArray(cpack.out + cpack.err).constData());

        const Run arch = run(tool("dpkg"), {u"--print-architecture"_s});
        QCOMPARE(arch.exitCode, 0);
        m_deb = out + u"/provender_%1_%2.deb"_s.arg(m_version, QString::fromLatin1(arch.out.trimmed()));
        QVERIFY2(QFileInfo::exists(m_deb), qPrintable(m_deb + u" not written; cpack said:\n"_s + QString::fromLocal8Bit(cpack.out)));

        m_root = m_tmp.path() + u"/root"_s;
        const Run x = run(tool("dpkg-deb"), {u"-x"_s, m_deb, m_root});
        QVERIFY2(x.exitCode == 0, x.err.constData());
    }

    void files_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("binary") << u"usr/bin/provender"_s;
        QTest::newRow("desktop") << u"usr/share/applications/provender.desktop"_s;
        QTest::newRow("metainfo") << u"usr/share/metainfo/io.github.provender.Provender.metainfo.xml"_s;
        QTest::newRow("mime") << u"usr/share/mime/packages/provender.xml"_s;
        QTest::newRow("man") << u"usr/share/man/man1/provender.1.gz"_s;
        QTest::newRow("bash completion") << u"usr/share/bash-completion/completions/provender"_s;
        QTest::newRow("copyright") << u"usr/share/doc/provender/copyright"_s;
        QTest::newRow("scalable icon") << u"usr/share/icons/hicolor/scalable/apps/provender.svg"_s;
        for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
            QTest::addRow("icon %d", size) << u"usr/share/icons/hicolor/%1x%1/apps/provender.png"_s.arg(size);
    }
    void files()
    {
        QFETCH(QString, file);
        const QFileInfo info(path(file));
        QVERIFY2(info.isFile(), qPrintable(file));
        QVERIFY(info.size() > 0);
        const QRegularExpressionMatch m = QRegularExpression(u"hicolor/(\\d+)x\\1/"_s).match(file);
        if (m.hasMatch()) { // the PNG really has that size
            const QImage image(info.filePath());
            QCOMPARE(image.width(), m.captured(1).toInt());
            QCOMPARE(image.height(), m.captured(1).toInt());
        }
    }

    void nothingElse()
    {
        // Everything lives under /usr; no build paths, no tests, no static libraries.
        const QStringList top = QDir(m_root).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
        QCOMPARE(top, QStringList{u"usr"_s});
        QCOMPARE(QDir(path(u"usr/bin"_s)).entryList(QDir::Files), QStringList{u"provender"_s});
        QCOMPARE(QDir(m_root).entryList({u"*.a"_s}, QDir::Files), QStringList{});
    }

    void desktopFileValidates()
    {
        if (tool("desktop-file-validate").isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package,
                           QStringLiteral("desktop-file-validate is not installed (Debian: desktop-file-utils)"));
        const Run r = run(tool("desktop-file-validate"), {path(u"usr/share/applications/provender.desktop"_s)});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed().isEmpty(), QByteArray(r.out + r.err).constData());
        const QByteArray desktop = provender::test::readFile(path(u"usr/share/applications/provender.desktop"_s));
        QVERIFY(desktop.contains("\nExec=provender %F\n"));
        QVERIFY(desktop.contains("\nIcon=provender\n")); // the icon name installed above
        QVERIFY(desktop.contains("text/x-terraform-lock;"));
    }

    void appstreamValidates()
    {
        if (tool("appstreamcli").isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("appstreamcli is not installed (Debian: appstream)"));
        const QString file = path(u"usr/share/metainfo/io.github.provender.Provender.metainfo.xml"_s);
        const Run r = run(tool("appstreamcli"), {u"validate"_s, u"--no-net"_s, u"--pedantic"_s, file});
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QByteArray xml = provender::test::readFile(file);
        QVERIFY(xml.contains(QByteArray("<release version=\"" + m_version.toLatin1() + "\"")));
        QVERIFY(xml.contains("<launchable type=\"desktop-id\">provender.desktop</launchable>"));
        QVERIFY(xml.contains("<project_license>GPL-3.0-or-later</project_license>"));
    }

    void mimeTypeGlob()
    {
        if (tool("update-mime-database").isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package,
                           QStringLiteral("update-mime-database is not installed (Debian: shared-mime-info)"));
        QTemporaryDir data; // a data dir of its own, named in XDG_DATA_DIRS so that the tool does not warn
        const QString mime = data.path() + u"/mime"_s;
        QVERIFY(QDir().mkpath(mime + u"/packages"_s));
        QVERIFY(QFile::copy(path(u"usr/share/mime/packages/provender.xml"_s), mime + u"/packages/provender.xml"_s));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"XDG_DATA_DIRS"_s, data.path());
        env.insert(u"XDG_DATA_HOME"_s, data.path());
        const Run r = run(tool("update-mime-database"), {mime}, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData()); // it warns about invalid XML on stderr
        const QByteArray globs = provender::test::readFile(mime + u"/globs2"_s);
        QVERIFY2(globs.contains("80:text/x-terraform-lock:.terraform.lock.hcl"), globs.constData());
    }

    void manPageCoversEveryCommand()
    {
        const Run z = run(tool("gzip"), {u"-dc"_s, path(u"usr/share/man/man1/provender.1.gz"_s)});
        QCOMPARE(z.exitCode, 0);
        const QString roff = QString::fromUtf8(z.out);
        QVERIFY(roff.contains(u"Provender "_s + m_version));

        // The command table, read from the source.
        const QString cli = QString::fromUtf8(provender::test::readFile(provender::test::sourceDir() + u"/app/cli/Cli.cpp"_s));
        QStringList commands;
        QRegularExpressionMatchIterator it = QRegularExpression(u"\\{\"([a-z -]+)\", \""_s).globalMatch(cli);
        while (it.hasNext())
            commands.append(it.next().captured(1));
        QVERIFY2(commands.size() >= 10, qPrintable(commands.join(u", "_s)));
        // ... and the window commands app/main.cpp handles before the table.
        const QString mainCpp = QString::fromUtf8(provender::test::readFile(provender::test::sourceDir() + u"/app/main.cpp"_s));
        for (const QString &gui : {u"diff"_s, u"difftool"_s})
            if (mainCpp.contains(u"QStringLiteral(\"%1\")"_s.arg(gui)))
                commands.append(gui);

        if (tool("man").isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("man is not installed (Debian: man-db)"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"MANWIDTH"_s, u"200"_s);
        env.insert(u"LC_ALL"_s, u"C.UTF-8"_s);
        env.insert(u"MAN_KEEP_STDERR"_s, u"1"_s);
        const Run man = run(tool("man"), {u"--warnings"_s, u"-l"_s, path(u"usr/share/man/man1/provender.1.gz"_s)}, env);
        QCOMPARE(man.exitCode, 0);
        QVERIFY2(man.err.trimmed().isEmpty(), man.err.constData()); // groff warnings
        const QString text = QString::fromUtf8(man.out);
        for (const QString &c : std::as_const(commands))
            QVERIFY2(QRegularExpression(u"\\n {7}"_s + QRegularExpression::escape(c) + u"\\b"_s).match(text).hasMatch(),
                     qPrintable(u"the man page has no entry for '%1'"_s.arg(c)));
        for (const char *section : {"SYNOPSIS", "COMMANDS", "EXIT STATUS", "EXAMPLES"})
            QVERIFY(text.contains(QLatin1StringView(section)));
    }

    void bashCompletion_data()
    {
        QTest::addColumn<QString>("line"); // words typed; the last one is being completed
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("commands") << u"provender |"_s
                                  << QStringList{u"bundle"_s, u"demo-mirror"_s, u"diff"_s,   u"difftool"_s, u"hash"_s,
                                                 u"index"_s,  u"lock"_s,        u"mirror"_s, u"oci"_s,      u"verify"_s};
        QTest::newRow("lock") << u"provender lock |"_s
                              << QStringList{u"add-hashes"_s, u"check"_s, u"diff"_s, u"fmt"_s, u"init"_s, u"merge"_s, u"upgrade"_s};
        QTest::newRow("bundle") << u"provender bundle |"_s << QStringList{u"create"_s, u"import"_s, u"recover"_s, u"verify"_s};
        QTest::newRow("oci") << u"provender oci |"_s << QStringList{u"list"_s, u"push"_s, u"verify"_s};
        QTest::newRow("mirror") << u"provender mirror |"_s << QStringList{u"pull"_s};
        QTest::newRow("lock fmt options") << u"provender lock fmt --|"_s << QStringList{u"--check"_s, u"--flavour"_s, u"--help"_s};
        QTest::newRow("flavour") << u"provender lock fmt --flavour |"_s << QStringList{u"terraform"_s, u"tofu"_s};
        QTest::newRow("platform prefix") << u"provender lock check --platform darwin|"_s
                                         << QStringList{u"darwin_amd64"_s, u"darwin_arm64"_s};
        QTest::newRow("bundle format") << u"provender bundle create --format tar|"_s << QStringList{u"tar.gz"_s, u"tar.zst"_s};
        QTest::newRow("difftool options") << u"provender difftool --|"_s << QStringList{u"--help"_s, u"--mirror"_s};
        QTest::newRow("top-level options") << u"provender --|"_s << QStringList{u"--help"_s, u"--version"_s};
    }
    void bashCompletion()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, expected);
        const QString bash = tool("bash");
        if (bash.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package, QStringLiteral("bash is not installed"));
        QString words = line;
        words.chop(1); // the cursor mark
        QStringList parts = words.split(u' ');
        // Minimal stand-ins for bash-completion's helpers, so the test does not need that package.
        const QString script = u"_init_completion() { words=(\"${COMP_WORDS[@]}\"); cword=$COMP_CWORD; cur=${COMP_WORDS[COMP_CWORD]}; "
                               "prev=${COMP_WORDS[COMP_CWORD-1]}; }\n"
                               "_filedir() { :; }\n"
                               "source \"$1\" || exit 3\n"
                               "shift\n"
                               "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1))\n"
                               "_provender\n"
                               "printf '%s\\n' \"${COMPREPLY[@]}\" | sort -u\n"_s;
        const Run r =
            run(bash, QStringList{u"-c"_s, script, u"bash"_s, path(u"usr/share/bash-completion/completions/provender"_s)} + parts);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QStringList got = QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(got, expected);
    }

    void dependencies()
    {
        const Run info = run(tool("dpkg-deb"), {u"-f"_s, m_deb, u"Depends"_s});
        QCOMPARE(info.exitCode, 0);
        QStringList depends;
        for (const QString &d : QString::fromUtf8(info.out).split(u',', Qt::SkipEmptyParts))
            depends.append(d.trimmed().section(u' ', 0, 0).section(u':', 0, 0));
        QVERIFY(depends.contains(u"qt6-qpa-plugins"_s));
        QVERIFY(depends.contains(u"libqt6sql6-sqlite"_s));

        // Every library the binary links directly (readelf NEEDED, resolved by ldd) comes from a
        // package listed in Depends.
        const QString binary = path(u"usr/bin/provender"_s);
        const Run elf = run(tool("readelf"), {u"-d"_s, binary});
        QCOMPARE(elf.exitCode, 0);
        QStringList needed;
        QRegularExpressionMatchIterator it =
            QRegularExpression(u"\\(NEEDED\\)\\s+Shared library: \\[([^\\]]+)\\]"_s).globalMatch(QString::fromUtf8(elf.out));
        while (it.hasNext())
            needed.append(it.next().captured(1));
        QVERIFY2(needed.contains(u"libQt6Widgets.so.6"_s), qPrintable(needed.join(u' ')));
        const Run ldd = run(tool("ldd"), {binary});
        QCOMPARE(ldd.exitCode, 0);
        const QString lddText = QString::fromUtf8(ldd.out);
        QVERIFY2(!lddText.contains(u"not found"_s), ldd.out.constData());
        for (const QString &lib : std::as_const(needed)) {
            // "libX.so.N => /path (0x…)"; the dynamic loader is listed by its path alone.
            const QRegularExpressionMatch m =
                QRegularExpression(QRegularExpression::escape(lib) + u" => (\\S+)|(\\S+/"_s + QRegularExpression::escape(lib) + u") \\("_s)
                    .match(lddText);
            QVERIFY2(m.hasMatch(), qPrintable(lib));
            const QString resolved = QFileInfo(m.captured(1).isEmpty() ? m.captured(2) : m.captured(1)).canonicalFilePath();
            Run owner = run(tool("dpkg"), {u"-S"_s, resolved});
            if (owner.exitCode != 0) // usrmerge: dpkg knows /lib/..., ldd says /usr/lib/... (or the reverse)
                owner = run(tool("dpkg"), {u"-S"_s, resolved.startsWith(u"/usr/"_s) ? resolved.mid(4) : u"/usr"_s + resolved});
            QVERIFY2(owner.exitCode == 0, qPrintable(u"no package owns "_s + resolved));
            const QString package = QString::fromUtf8(owner.out).section(u':', 0, 0).trimmed();
            QVERIFY2(depends.contains(package), qPrintable(u"%1 (%2) is not in Depends: %3"_s.arg(lib, package, depends.join(u", "_s))));
        }
    }

    void extractedBinaryRuns()
    {
        const QString binary = path(u"usr/bin/provender"_s);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(u"LD_LIBRARY_PATH"_s);
        const Run version = run(binary, {u"--version"_s}, env);
        QCOMPARE(version.exitCode, 0);
        QCOMPARE(QString::fromUtf8(version.out), u"provender %1\n"_s.arg(m_version));

        const Run help = run(binary, {u"--help"_s}, env);
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("lock add-hashes"));

        // Every command's --help, from the installed binary: exit 0, and every description under
        // resources/cli-help/ (compiled in) shown by some command, whole.
        const QString cli = QString::fromUtf8(provender::test::readFile(provender::test::sourceDir() + u"/app/cli/Cli.cpp"_s));
        QList<QStringList> invocations{{u"verify"_s, u"https://mirror.example/"_s},
                                       {u"verify"_s, u"oci://r.example/p/${namespace}/${type}"_s}};
        QRegularExpressionMatchIterator it = QRegularExpression(u"\\{\"([a-z -]+)\", \""_s).globalMatch(cli);
        while (it.hasNext())
            invocations.append(it.next().captured(1).split(u' '));
        QString helps;
        for (const QStringList &words : std::as_const(invocations)) {
            const Run h = run(binary, words + QStringList{u"--help"_s}, env);
            QVERIFY2(h.exitCode == 0, qPrintable(words.join(u' ') + u": "_s + QString::fromUtf8(h.err)));
            helps += QString::fromUtf8(h.out);
        }
        const QDir texts(provender::test::sourceDir() + u"/resources/cli-help"_s);
        const QStringList files = texts.entryList({u"*.txt"_s}, QDir::Files);
        QVERIFY(files.size() >= 20);
        for (const QString &f : files) {
            QString text = QString::fromUtf8(provender::test::readFile(texts.filePath(f)));
            text.chop(1); // the file's final newline
            QVERIFY2(helps.contains(text), qPrintable(f + u" is not the description of any command's --help"_s));
        }
    }

    void extractedGuiStartsOffscreen()
    {
        QTemporaryDir home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(u"LD_LIBRARY_PATH"_s);
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        env.insert(u"HOME"_s, home.path());
        env.insert(u"XDG_CONFIG_HOME"_s, home.path() + u"/config"_s);
        env.insert(u"XDG_CACHE_HOME"_s, home.path() + u"/cache"_s);
        env.insert(u"QT_LOGGING_RULES"_s, u"provender.*.debug=true"_s);
        QProcess gui;
        gui.setProcessEnvironment(env);
        gui.start(path(u"usr/bin/provender"_s), {});
        QVERIFY(gui.waitForStarted(30000));
        // A GUI never exits by itself; one that cannot load its platform plugin exits at once.
        QVERIFY2(!gui.waitForFinished(3000), gui.readAllStandardError().constData());
        QCOMPARE(gui.state(), QProcess::Running);
        gui.terminate();
        QVERIFY(gui.waitForFinished(30000));
        const QByteArray err = gui.readAllStandardError();
        QVERIFY2(!err.contains("Could not load the Qt platform plugin"), err.constData());
        QVERIFY2(!err.contains("QSqlDatabase: QSQLITE driver not loaded"), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
