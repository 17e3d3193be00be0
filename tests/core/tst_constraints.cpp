// Version constraints: parsing, canonical text, allows().
// Expected values: every vector of tofu-formats.md §2.6 (from opentofu
// internal/getproviders/types_test.go and the lock-file tests), the error wording of §2.6, the
// upstream tables of apparentlymart/go-versions v1.0.3 (ruby_style_test.go for errors, set_test.go
// for MeetingConstraints membership). tst_coreoracle re-checks the quirkier inputs with terraform.

#include "model/core/VersionConstraints.h"
#include "tests/support/TestSupport.h"

#include <QRandomGenerator>
#include <QTest>

using namespace provender;

class TestConstraints : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void canonical_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("canonical");
        auto row = [](const char *input, const char *canonical) {
            QTest::newRow(input) << QString::fromUtf8(input) << QString::fromUtf8(canonical);
        };
        // tofu-formats.md §2.6 test vectors, every row
        row("1.2.3", "1.2.3");
        row("1.2.3-beta+foo.bar", "1.2.3-beta+foo.bar");
        row(">= 3", ">= 3.0.0");
        row("~> 3", "~> 3.0");
        row("~> 3.0", "~> 3.0");
        row("~> 3.0.0", "~> 3.0.0");
        row("> 1.0.0, < 1.0.0, >= 1.0.0, <= 1.0.0, != 1.0.0", "> 1.0.0, >= 1.0.0, <= 1.0.0, < 1.0.0, != 1.0.0");
        row(">= 3.0, < 4.0", ">= 3.0.0, < 4.0.0");
        row(">= 1.2.3, 1.2.3, ~> 1.2, 1.2.3", "~> 1.2, >= 1.2.3, 1.2.3");
        row(">= 2.68, >= 2.68.0", ">= 2.68.0");
        row("< 1.2.3, <= 1.2.3, != 1.2.3, 1.2.3+local.2, 1.2.3+local.1, = 1.2.4, = 1.2.3, > 2, > 1.2.3, >= 1.2.3, "
            "~> 1.2.3, ~> 1.2",
            "~> 1.2, > 1.2.3, >= 1.2.3, 1.2.3, ~> 1.2.3, <= 1.2.3, < 1.2.3, != 1.2.3, 1.2.3+local.1, 1.2.3+local.2, "
            "1.2.4, > 2.0.0");
        row("~> 1.2, >= 1.2, 1.2.4", ">= 1.2.0, ~> 1.2, 1.2.4");
        row(">= 2, >= 1.2, < 1.3", ">= 1.2.0, < 1.3.0, >= 2.0.0");
        row("1.2", "1.2.0");
        row("~> 1", "~> 1.0");
        // §1.1 TestSaveLocksToFile inputs, and §2.6 prose
        row(">= 1.0.0", ">= 1.0.0");
        row("~>1.0", "~> 1.0");
        row("", "");
        row("   ", "");
        row("  >= 1.0 ,  < 2  ", ">= 1.0.0, < 2.0.0");
        row("1.0-beta", "1.0.0-beta"); // pre/meta present: omitted parts are 0
    }
    void canonical()
    {
        QFETCH(QString, input);
        QFETCH(QString, canonical);
        const Result<VersionConstraints> c = VersionConstraints::parse(input);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->toString(), canonical);
        QCOMPARE(VersionConstraints::isCanonical(input), input == canonical);
        // canonical text is a fixed point
        QVERIFY(VersionConstraints::isCanonical(canonical));
        QCOMPARE(c->isEmpty(), canonical.isEmpty());
    }

    void errors_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("error");
        auto row = [](const char *input, const char *error) {
            QTest::newRow(input) << QString::fromUtf8(input) << QString::fromUtf8(error);
        };
        // tofu-formats.md §2.6
        row("=> 1.0", "invalid specification \"=> 1.0\": invalid constraint operator \"=>\"; did you mean \">=\"?");
        row("=< 1.0", "invalid specification \"=< 1.0\": invalid constraint operator \"=<\"; did you mean \"<=\"?");
        row("^1.0", "invalid specification \"^1.0\": invalid constraint operator \"^\"");
        row("~ 1.0", "invalid specification \"~ 1.0\": invalid constraint operator \"~\"");
        row("~>  1.0", "invalid specification \"~>  1.0\": only one space is expected after the operator \"~>\"");
        row("v1.0", "invalid specification \"v1.0\": a \"v\" prefix should not be used when specifying versions");
        row("1.*",
            "invalid specification \"1.*\": can't use wildcard for minor number; omit segments that should be "
            "unconstrained");
        row("1.2.x",
            "invalid specification \"1.2.x\": can't use wildcard for patch number; omit segments that should "
            "be unconstrained");
        // go-versions ruby_style_test.go, TestParseRubyStyleMulti
        row("~> v1.1.1",
            "invalid specification \"~> v1.1.1\": a \"v\" prefix should not be used when specifying "
            "versions");
        row(">= 1.0, < v2.0",
            "invalid specification \"< v2.0\": a \"v\" prefix should not be used when specifying "
            "versions");
        row(">= 1.0 < 2", "missing comma after \">= 1.0\"");
        // TestParseRubyStyle errors, as ParseRubyStyleMulti wraps them (§2.6)
        row("1.0.0.0",
            "invalid specification \"1.0.0.0\": too many numbered portions; only three are allowed "
            "(major, minor, patch)");
        row("=  1.1.1", "invalid specification \"=  1.1.1\": only one space is expected after the operator \"=\"");
        row("& 1.1.0", "invalid specification \"& 1.1.0\": invalid constraint operator \"&\"");
        row(" 1.0 ||  2.0", "missing comma after \"1.0\"");
    }
    void errors()
    {
        QFETCH(QString, input);
        QFETCH(QString, error);
        const Result<VersionConstraints> c = VersionConstraints::parse(input);
        QVERIFY2(!c.ok(), qPrintable(c.ok() ? c->toString() : QString()));
        QCOMPARE(c.error().message, error);
        QVERIFY(!VersionConstraints::isCanonical(input));
    }

    void items()
    {
        const VersionConstraints c = VersionConstraints::parse(u"~> 1.2, ~> 1.2.3, != 2.0.0-rc1+x, 3").value();
        QCOMPARE(c.items().size(), 4);
        using Op = VersionConstraints::Operator;
        QCOMPARE(c.items()[0].op, Op::PessimisticMinor);
        QCOMPARE(c.items()[0].partsGiven, 2);
        QCOMPARE(c.items()[0].boundary, Version(1, 2, 0));
        QCOMPARE(c.items()[1].op, Op::PessimisticPatch);
        QCOMPARE(c.items()[1].partsGiven, 3);
        QCOMPARE(c.items()[2].op, Op::NotEqual);
        QCOMPARE(c.items()[2].boundary, Version(2, 0, 0, QStringLiteral("rc1"), QStringLiteral("x")));
        QCOMPARE(c.items()[3].op, Op::Equal);
        QCOMPARE(c.items()[3].partsGiven, 1);
        QCOMPARE(c.items()[3].boundary, Version(3, 0, 0));
    }

    void allows_data()
    {
        QTest::addColumn<QString>("constraints");
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("allowed");
        auto row = [](const char *c, const char *v, bool allowed) {
            QTest::addRow("%s has %s", c, v) << QString::fromUtf8(c) << QString::fromUtf8(v) << allowed;
        };
        // go-versions set_test.go TestSetHas with MeetingConstraintsStringRuby
        row(">= 1.0.0", "1.0.0", true);
        row(">= 1.0.0", "1.0.0-beta1", false);
        row(">= 1.0.0", "2.0.0-beta1", false); // prereleases excluded unless named
        row("2.0.0-beta1", "2.0.0-beta1", true);
        row("!= 2.0.0-beta1, 2.0.0-beta1", "2.0.0-beta1", false);
        row(">= 1.0.0", "1.0.1", true);
        row("~> 1.2.3", "1.2.3", true); // patch-only
        row("~> 1.2.3", "1.2.5", true);
        row("~> 1.2.3", "1.3.0", false);
        row("~> 1.2", "1.2.3", true); // minor-only
        row("~> 1.2", "1.2.5", true);
        row("~> 1.2", "1.3.0", true);
        row("~> 1.2", "2.0.0", false);
        row("~> 1", "1.2.3", true);
        row("~> 1", "1.2.5", true);
        row("~> 1", "1.3.0", true);
        row("~> 1", "2.0.0", false);
        // tofu-formats.md §2.6: ~> 1.2.3 = >= 1.2.3, < 1.3.0; ~> 1.2 = >= 1.2.0, < 2.0.0
        row("~> 1.2.3", "1.2.2", false);
        row("~> 1.2", "1.1.9", false);
        row("~> 1.2", "1.9.9", true);
        // §2.5: prereleases excluded unless a constraint names that exact prerelease
        row("~> 1.2", "1.3.0-beta", false);
        row(">= 1.0.0-beta, < 2.0.0", "1.5.0-rc1", false);
        row(">= 1.0.0-beta", "1.0.0-beta", false); // named, but not by an exact (=) selection
        row("1.0.0-beta", "1.0.0-beta", true);
        row("", "1.2.3", true);
        row("", "1.2.3-rc1", false);
        row("< 2.0.0", "2.0.0-rc1", false);
        row("> 1.0.0", "1.0.0+meta", false); // metadata has no precedence
        row(">= 1.0.0", "1.0.0+meta", true);
        row("!= 1.0.0", "1.0.1", true);
        row("!= 1.0.0", "1.0.0", false);
    }
    void allows()
    {
        QFETCH(QString, constraints);
        QFETCH(QString, version);
        QFETCH(bool, allowed);
        const VersionConstraints c = VersionConstraints::parse(constraints).value();
        QCOMPARE(c.allows(Version::parse(version).value()), allowed);
    }

    void equalityAndEmpty()
    {
        QVERIFY(VersionConstraints::parse(u"").value().isEmpty());
        QCOMPARE(VersionConstraints::parse(u">= 1.0").value(), VersionConstraints::parse(u">=1.0").value());
        QVERIFY(VersionConstraints::parse(u">= 1.0").value() != VersionConstraints::parse(u">= 1.0.1").value());
    }

    void roundTripProperty()
    {
        // Canonical text is a fixed point and keeps the meaning (same allows() answers).
        QRandomGenerator rng(11);
        const QString alphabet = QStringLiteral("0123.-+ab ,=><~!");
        const QList<Version> probes = {
            Version(0, 0, 1), Version(1, 0, 0), Version(1, 2, 3), Version(2, 0, 0), Version(1, 0, 0, QStringLiteral("a")),
            Version(3, 1, 0)};
        int accepted = 0;
        for (int i = 0; i < 20000; ++i) {
            const QString s = test::randomString(rng, alphabet, 15);
            const Result<VersionConstraints> c = VersionConstraints::parse(s);
            if (!c.ok())
                continue;
            ++accepted;
            const QString canonical = c->toString();
            const Result<VersionConstraints> again = VersionConstraints::parse(canonical);
            QVERIFY2(again.ok(), qPrintable(s + QStringLiteral(" -> ") + canonical));
            QCOMPARE(again->toString(), canonical);
            for (const Version &v : probes)
                QCOMPARE(again->allows(v), c->allows(v));
        }
        QVERIFY(accepted > 100);
    }

    void neverCrashes()
    {
        QString big;
        for (int i = 0; i < 2000; ++i)
            big += QStringLiteral(">= %1.0, ").arg(2000 - i);
        big += QStringLiteral("1.0");
        const Result<VersionConstraints> c = VersionConstraints::parse(big);
        QVERIFY(c.ok());
        QVERIFY(c->toString().startsWith(QStringLiteral(">= 1.0.0, 1.0.0, >= 2.0.0, >= 3.0.0")));
        for (const char *s : {",", ",,", "~>", "!", "\t", "1,", "-", "+1", "1+", "\xc2\xa0"}) {
            const Result<VersionConstraints> r = VersionConstraints::parse(QString::fromUtf8(s));
            if (r.ok())
                (void)r->toString();
        }
    }
};

QTEST_GUILESS_MAIN(TestConstraints)
#include "tst_constraints.moc"
