// Platform parsing and order. Expected values: tofu-formats.md §7 (getproviders.ParsePlatform).

#include "model/core/Platform.h"
#include "tests/support/TestSupport.h"

#include <QTest>

using namespace provender;

class TestPlatform : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("os");
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("error");
        auto ok = [](const char *in, const char *os, const char *arch) {
            QTest::newRow(in) << QString::fromUtf8(in) << QString::fromUtf8(os) << QString::fromUtf8(arch) << QString();
        };
        auto bad = [](const char *name, const char *in, const char *error) {
            QTest::newRow(name) << QString::fromUtf8(in) << QString() << QString() << QString::fromUtf8(error);
        };
        // §7 published values
        for (const char *p : {"darwin_amd64", "darwin_arm64", "freebsd_386", "freebsd_amd64", "freebsd_arm", "freebsd_arm64", "linux_386",
                              "linux_amd64", "linux_arm", "linux_arm64", "windows_386", "windows_amd64", "windows_arm64", "openbsd_386",
                              "openbsd_amd64", "solaris_amd64"}) {
            const QByteArray s(p);
            const qsizetype u = s.indexOf('_');
            QTest::newRow(p) << QString::fromUtf8(s) << QString::fromUtf8(s.left(u)) << QString::fromUtf8(s.mid(u + 1)) << QString();
        }
        ok("_amd64", "", "amd64"); // empty parts are accepted
        ok("linux_", "linux", "");
        ok("Linux_AMD64", "Linux", "AMD64"); // no case folding
        ok("plan9_mips64le", "plan9", "mips64le");
        bad("no underscore", "linuxamd64", "must be two words separated by an underscore");
        bad("empty", "", "must be two words separated by an underscore");
        bad("three words", "linux_amd_64", "must be two words separated by an underscore");
        bad("space in os", "li nux_amd64", "OS portion must not contain whitespace");
        bad("tab in os", "linux\t_amd64", "OS portion must not contain whitespace");
        bad("newline in arch", "linux_amd64\n", "architecture portion must not contain whitespace");
        bad("cr in arch", "linux_\ramd64", "architecture portion must not contain whitespace");
        bad("space in both", " _ ", "OS portion must not contain whitespace");
    }
    void parse()
    {
        QFETCH(QString, input);
        QFETCH(QString, os);
        QFETCH(QString, arch);
        QFETCH(QString, error);
        const Result<Platform> p = Platform::parse(input);
        if (!error.isEmpty()) {
            QVERIFY(!p.ok());
            QCOMPARE(p.error().message, error);
            return;
        }
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message));
        QCOMPARE(p->os(), os);
        QCOMPARE(p->arch(), arch);
        QCOMPARE(p->toString(), input);
        QVERIFY(p->isValid());
    }

    void ordering()
    {
        // §7: OS byte-wise, then arch
        QList<Platform> list;
        for (const char *s : {"windows_amd64", "linux_arm64", "darwin_arm64", "linux_amd64", "Linux_amd64", "linux_386"})
            list.append(Platform::parse(QString::fromUtf8(s)).value());
        std::sort(list.begin(), list.end());
        QCOMPARE(test::toStrings(list),
                 (QStringList{QStringLiteral("Linux_amd64"), QStringLiteral("darwin_arm64"), QStringLiteral("linux_386"),
                              QStringLiteral("linux_amd64"), QStringLiteral("linux_arm64"), QStringLiteral("windows_amd64")}));
        QVERIFY(Platform(QStringLiteral("a"), QStringLiteral("z")) < Platform(QStringLiteral("b"), QStringLiteral("a")));
        QCOMPARE(Platform(QStringLiteral("a"), QStringLiteral("b")), Platform::parse(u"a_b").value());
        QVERIFY(qHash(Platform(QStringLiteral("a"), QStringLiteral("b"))) == qHash(Platform::parse(u"a_b").value()));
        QVERIFY(!Platform().isValid());
    }
};

QTEST_GUILESS_MAIN(TestPlatform)
#include "tst_platform.moc"
