// Version parsing, canonical form and ordering.
// Expected values: tofu-formats.md §1.2 (parser error texts) and §2.5 (grammar, canonical form,
// ordering, the prerelease quirk "verified by running go-versions"), and the upstream test table
// apparentlymart/go-versions v1.0.3 versions/constraints/version_test.go. tst_coreoracle checks
// many of the same inputs against the real `terraform`.

#include "model/core/Version.h"
#include "tests/support/TestSupport.h"

#include <QRandomGenerator>
#include <QTest>

using namespace provender;

class TestVersion : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("canonical"); // empty when an error is expected
        QTest::addColumn<QString>("error");

        auto ok = [](const char *name, const char *input, const char *canonical) {
            QTest::newRow(name) << QString::fromUtf8(input) << QString::fromUtf8(canonical) << QString();
        };
        auto bad = [](const char *name, const char *input, const char *error) {
            QTest::newRow(name) << QString::fromUtf8(input) << QString() << QString::fromUtf8(error);
        };

        // go-versions version_test.go (TestParseExactVersion)
        bad("empty", "", "empty specification");
        ok("major only", "1", "1.0.0");
        ok("major.minor", "1.1", "1.1.0");
        ok("full", "1.1.1", "1.1.1");
        bad("four parts", "1.0.0.0", "too many numbered portions; only three are allowed (major, minor, patch)");
        bad("v prefix", "v1.0.0", "a \"v\" prefix should not be used");
        ok("prerelease", "1.0.0-beta2", "1.0.0-beta2");
        ok("prerelease short", "1.0-beta2", "1.0.0-beta2");
        ok("dotted prerelease", "1.0.0-beta.2", "1.0.0-beta.2");
        ok("metadata", "1.0.0+foo", "1.0.0+foo");
        ok("dotted metadata", "1.0.0+foo.bar", "1.0.0+foo.bar");
        ok("prerelease+metadata", "1.0.0-beta1+foo.bar", "1.0.0-beta1+foo.bar");
        bad("operator >", "> 1.1.1", "can't use constraint operator \">\"; an exact version is required");
        bad("garbage", "garbage", "invalid specification; required format is three positive integers separated by periods");
        bad("ampersand", "& 1.1.0", "invalid sequence \"&\" at start of specification");
        bad("wildcard minor", "1.*.*", "can't use wildcard for minor number; an exact version is required");
        bad("wildcard patch", "1.0.x", "can't use wildcard for patch number; an exact version is required");
        bad("or", "1.0 || 2.0", "can't specify multiple versions; a single exact version is required");
        bad("comma", "1.0.0, 2.0.0", "can't specify multiple versions; a single exact version is required");
        bad("range", "1.0.0 - 2.0.0", "can't specify version range; a single exact version is required");

        // tofu-formats.md §1.2 and §2.5
        bad("blank", "   ", "empty specification");
        bad("leading space", " 1.2.3", "extraneous spaces at start of specification");
        bad("trailing space", "1.2.3 ", "extraneous spaces at end of specification");
        bad("underscore", "1.0_1", "invalid characters \"_1\"");
        bad("equals operator", "=1.2.3", "invalid sequence \"=\" at start of specification");
        bad("gte operator", ">=1.2.3", "can't use constraint operator \">=\"; an exact version is required");
        bad("wildcard x", "x", "can't use wildcard for major number; an exact version is required");
        bad("wildcard X patch", "1.2.X", "can't use wildcard for patch number; an exact version is required");
        bad("wildcard star", "1.2.*", "can't use wildcard for patch number; an exact version is required");
        ok("two parts", "2.0", "2.0.0");
        ok("leading zeros", "01.02.003", "1.2.3");
        ok("leading zero minor", "1.02", "1.2.0");
        ok("bare dash swallowed", "1.2.3-", "1.2.3");
        ok("bare plus swallowed", "1.2.3+", "1.2.3");
        ok("double dot prerelease", "1.2.3-a..b", "1.2.3-a..b");
        ok("numeric prerelease leading zero", "1.2.3-01", "1.2.3-01");
        ok("case kept", "1.0.0-BETA+Build.7", "1.0.0-BETA+Build.7");
        ok("lock example 1", "1.2.0", "1.2.0");
        ok("lock example 2", "0.1.0-alpha.2", "0.1.0-alpha.2");
        ok("lock example 3", "1.0.0+build.1", "1.0.0+build.1");
        ok("uint64 max", "18446744073709551615.0.0", "18446744073709551615.0.0");
        // go-versions would panic on this one (ParseUint overflow); we must return an error.
        bad("uint64 overflow", "18446744073709551616.0.0", "major number \"18446744073709551616\" is too large");
    }
    void parse()
    {
        QFETCH(QString, input);
        QFETCH(QString, canonical);
        QFETCH(QString, error);
        const Result<Version> v = Version::parse(input);
        if (canonical.isEmpty()) {
            QVERIFY2(!v.ok(), qPrintable(QStringLiteral("accepted as ") + (v.ok() ? v->toString() : QString())));
            QCOMPARE(v.error().message, error);
            QCOMPARE(v.error().code, ErrorCode::InvalidArgument);
        } else {
            QVERIFY2(v.ok(), qPrintable(v.ok() ? QString() : v.error().message));
            QCOMPARE(v->toString(), canonical);
            QCOMPARE(Version::isCanonical(input), input == canonical);
            // The canonical form parses back to the same value.
            QCOMPARE(Version::parse(canonical).value(), v.value());
        }
    }

    void components()
    {
        const Version v = Version::parse(u"1.22.333-rc.1+linux").value();
        QCOMPARE(v.major(), 1u);
        QCOMPARE(v.minor(), 22u);
        QCOMPARE(v.patch(), 333u);
        QCOMPARE(v.prerelease(), QStringLiteral("rc.1"));
        QCOMPARE(v.metadata(), QStringLiteral("linux"));
        QVERIFY(v.isPrerelease());
        QVERIFY(!v.isUnspecified());
        QVERIFY(Version().isUnspecified());
        QVERIFY(Version::parse(u"0.0.0").value().isUnspecified());
        QCOMPARE(Version(3, 0, 1, QStringLiteral("beta"), QStringLiteral("x")).toString(), QStringLiteral("3.0.1-beta+x"));
    }

    void canonical_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("canonical");
        // tofu-formats.md §2.5: the lock file rejects 1, 1.0, 1.02, 01.0.0, 1.2.3-
        QTest::newRow("1.0.0") << QStringLiteral("1.0.0") << true;
        QTest::newRow("1") << QStringLiteral("1") << false;
        QTest::newRow("1.0") << QStringLiteral("1.0") << false;
        QTest::newRow("1.02") << QStringLiteral("1.02") << false;
        QTest::newRow("01.0.0") << QStringLiteral("01.0.0") << false;
        QTest::newRow("1.2.3-") << QStringLiteral("1.2.3-") << false;
        QTest::newRow("1.0.0+build.1") << QStringLiteral("1.0.0+build.1") << true;
        QTest::newRow("0.1.0-alpha.2") << QStringLiteral("0.1.0-alpha.2") << true;
        QTest::newRow("v1.0.0") << QStringLiteral("v1.0.0") << false;
        QTest::newRow("empty") << QString() << false;
    }
    void canonical()
    {
        QFETCH(QString, input);
        QFETCH(bool, canonical);
        QCOMPARE(Version::isCanonical(input), canonical);
    }

    void ordering_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("expected"); // sign of comparePrecedence(a, b)
        auto row = [](const char *a, const char *b, int expected) {
            QTest::addRow("%s vs %s", a, b) << QString::fromUtf8(a) << QString::fromUtf8(b) << expected;
        };
        // numeric parts (§2.5)
        row("1.0.0", "2.0.0", -1);
        row("1.10.0", "1.9.0", 1);
        row("1.2.10", "1.2.9", 1);
        row("0.0.1", "0.0.1", 0);
        // prerelease lower than release (§2.5)
        row("1.0.0-alpha", "1.0.0", -1);
        row("1.0.0", "1.0.0-rc.1", 1);
        // metadata ignored for precedence (§2.5)
        row("1.0.0+a", "1.0.0+b", 0);
        row("1.0.0-rc+a", "1.0.0-rc", 0);
        // go-versions' quirk: the side on its last identifier is smaller (§2.5, verified upstream)
        row("1.0.0-beta", "1.0.0-alpha.1", -1);
        row("1.0.0-rc", "1.0.0-beta.2", -1);
        row("1.0.0-alpha.1", "1.0.0-beta", 1);
        // same-count cases agree with SemVer 2.0 (§2.5)
        row("1.0.0-alpha.1", "1.0.0-alpha.beta", -1);
        row("1.0.0-beta.2", "1.0.0-beta.11", -1);
        row("1.0.0-beta.11", "1.0.0-rc.1", -1);
        row("1.0.0-alpha", "1.0.0-alpha.1", -1);
        row("1.0.0-alpha", "1.0.0-beta", -1);
        row("1.0.0-1", "1.0.0-a", -1);   // all-digit before non-digit
        row("1.0.0-9", "1.0.0-10", -1);  // numeric by length first
        row("1.0.0-010", "1.0.0-10", 1); // ... so a leading zero makes it longer
        row("1.0.0-B", "1.0.0-a", -1);   // byte-wise otherwise
    }
    void ordering()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, expected);
        const Version va = Version::parse(a).value();
        const Version vb = Version::parse(b).value();
        QCOMPARE(va.comparePrecedence(vb), expected);
        QCOMPARE(vb.comparePrecedence(va), -expected);
        if (expected < 0)
            QVERIFY(va < vb);
        else if (expected > 0)
            QVERIFY(va > vb);
    }

    void totalOrderUsesMetadata()
    {
        const Version a = Version::parse(u"1.0.0+a").value();
        const Version b = Version::parse(u"1.0.0+b").value();
        QCOMPARE(a.comparePrecedence(b), 0);
        QVERIFY(a < b);
        QVERIFY(a != b);
        QCOMPARE(a <=> Version::parse(u"1.0.0+a").value(), std::strong_ordering::equal);
        QVERIFY(qHash(a) == qHash(Version::parse(u"1.0.0+a").value()));
    }

    void sortIsConsistent()
    {
        // Sorting with operator< must give the same order whatever the input order.
        const QStringList input = {QStringLiteral("1.0.0"),         QStringLiteral("1.0.0-beta.2"), QStringLiteral("1.0.0-beta"),
                                   QStringLiteral("1.0.0-alpha.1"), QStringLiteral("1.0.0-rc"),     QStringLiteral("0.9.9"),
                                   QStringLiteral("1.0.0-alpha"),   QStringLiteral("1.0.0-beta.11")};
        QList<Version> forward, backward;
        for (const QString &s : input)
            forward.append(Version::parse(s).value());
        backward = forward;
        std::reverse(backward.begin(), backward.end());
        std::sort(forward.begin(), forward.end());
        std::sort(backward.begin(), backward.end());
        QCOMPARE(forward, backward);
        // alpha < beta < rc (one identifier) < alpha.1 < beta.2 < beta.11 (two identifiers)
        QCOMPARE(test::toStrings(forward),
                 (QStringList{QStringLiteral("0.9.9"), QStringLiteral("1.0.0-alpha"), QStringLiteral("1.0.0-beta"),
                              QStringLiteral("1.0.0-rc"), QStringLiteral("1.0.0-alpha.1"), QStringLiteral("1.0.0-beta.2"),
                              QStringLiteral("1.0.0-beta.11"), QStringLiteral("1.0.0")}));
    }

    void comparePrereleaseDirect()
    {
        QCOMPARE(comparePrereleaseGo(u"beta", u"alpha.1"), -1);
        QCOMPARE(comparePrereleaseGo(u"alpha.1", u"beta"), 1);
        QCOMPARE(comparePrereleaseGo(u"x.y", u"x.y"), 0);
        QCOMPARE(comparePrereleaseGo(u"", u"a"), -1); // "" counts as all-digit
    }

    void roundTripProperty()
    {
        // Whatever parses prints a canonical form that parses back to the same value.
        QRandomGenerator rng(7);
        const QString alphabet = QStringLiteral("0123456789.-+abzAZx* ");
        int accepted = 0;
        for (int i = 0; i < 20000; ++i) {
            const QString s = test::randomString(rng, alphabet, 13);
            const Result<Version> v = Version::parse(s);
            if (!v.ok())
                continue;
            ++accepted;
            const QString canonical = v->toString();
            QVERIFY2(Version::isCanonical(canonical), qPrintable(s));
            QCOMPARE(Version::parse(canonical).value(), v.value());
            QCOMPARE(Version::isCanonical(s), s == canonical);
        }
        QVERIFY(accepted > 100);
    }

    void neverCrashes()
    {
        // Odd bytes, long input, non-ASCII: every call returns, ok or not.
        const QStringList inputs = {QString(100000, QLatin1Char('9')),
                                    QStringLiteral("1.2.3-\u00e9"),
                                    QStringLiteral("\u00a01.0"),
                                    QStringLiteral("1.0.0-\U0001F600"),
                                    QString(QChar(0xD800)) + QStringLiteral("1"),
                                    QStringLiteral("...."),
                                    QStringLiteral("-"),
                                    QStringLiteral("+"),
                                    QStringLiteral("1-+"),
                                    QStringLiteral("v")};
        for (const QString &s : inputs) {
            const Result<Version> v = Version::parse(s);
            if (!v.ok())
                QVERIFY(!v.error().message.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestVersion)
#include "tst_version.moc"
