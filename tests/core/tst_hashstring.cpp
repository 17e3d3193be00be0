// Hash strings. Expected values: tofu-formats.md §1.2/§1.3 (getproviders.ParseHash and the lock
// reader's error detail) and opentofu internal/getproviders/hash_test.go (TestParseHash).

#include "model/core/HashString.h"
#include "tests/support/TestSupport.h"

#include <QTest>

using namespace provender;

class TestHashString : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("kind");
        auto ok = [](const char *name, const char *in, const char *scheme, const char *value, HashString::Scheme k) {
            QTest::newRow(name) << QString::fromUtf8(in) << true << QString::fromUtf8(scheme) << QString::fromUtf8(value) << int(k);
        };
        auto bad = [](const char *name, const char *in) {
            QTest::newRow(name) << QString::fromUtf8(in) << false << QString() << QString() << 0;
        };
        ok("h1", "h1:foo", "h1:", "foo", HashString::Scheme::H1);
        ok("zh", "zh:bar", "zh:", "bar", HashString::Scheme::ZH);
        ok("unknown scheme", "unknown:baz", "unknown:", "baz", HashString::Scheme::Other);
        ok("empty value", "unknown:", "unknown:", "", HashString::Scheme::Other);
        ok("zh empty", "zh:", "zh:", "", HashString::Scheme::ZH);
        ok("test scheme", "test:aaaa", "test:", "aaaa", HashString::Scheme::Other);
        ok("h0", "h0:x", "h0:", "x", HashString::Scheme::Other);
        ok("first colon", "a:b:c", "a:", "b:c", HashString::Scheme::Other);
        ok("upper H1 is not h1", "H1:x", "H1:", "x", HashString::Scheme::Other);
        ok("real h1", "h1:7MjN4eFisdTv4tlhXH5hL4QQd39Jy4baPhFxwAd/EFE=", "h1:", "7MjN4eFisdTv4tlhXH5hL4QQd39Jy4baPhFxwAd/EFE=",
           HashString::Scheme::H1);
        bad("empty", "");
        bad("naked sha256", "1e5f7a5f3ade7b8b1d1d59c5cea2e1a2f8d2f8c3f41962dbbe8647e222be8239");
        bad("empty scheme", ":blah");
        bad("abc", "abc");
    }
    void parse()
    {
        QFETCH(QString, input);
        QFETCH(bool, ok);
        QFETCH(QString, scheme);
        QFETCH(QString, value);
        QFETCH(int, kind);
        const Result<HashString> h = HashString::parse(input);
        QCOMPARE(h.ok(), ok);
        if (!ok) {
            QCOMPARE(h.error().message,
                     QStringLiteral("Cannot interpret \"%1\" as a provider hash: hash string must "
                                    "start with a scheme keyword followed by a colon.")
                         .arg(input));
            return;
        }
        QCOMPARE(h->toString(), input);
        QCOMPARE(h->schemePrefix(), scheme);
        QCOMPARE(h->value(), value);
        QCOMPARE(int(h->scheme()), kind);
        QCOMPARE(h->isKnownScheme(), kind != int(HashString::Scheme::Other));
        QVERIFY(!h->isNull());
    }

    void errorQuoting()
    {
        // The detail quotes with Go's %q.
        QCOMPARE(HashString::parse(u"a\"b").error().message,
                 QStringLiteral("Cannot interpret \"a\\\"b\" as a provider hash: hash string must start with a scheme "
                                "keyword followed by a colon."));
        QCOMPARE(HashString::parse(u"tab\there").error().message.left(30), QStringLiteral("Cannot interpret \"tab\\there\" a"));
    }

    void factories()
    {
        QCOMPARE(HashString::h1(QStringLiteral("abc=")).toString(), QStringLiteral("h1:abc="));
        QCOMPARE(HashString::h1(QStringLiteral("abc=")).scheme(), HashString::Scheme::H1);
        QCOMPARE(HashString::zh(QStringLiteral("00ff")).value(), QStringLiteral("00ff"));
        QCOMPARE(HashString::zh(QStringLiteral("00ff")).schemePrefix(), QStringLiteral("zh:"));
        QCOMPARE(HashString::zh(QStringLiteral("00ff")), HashString::parse(u"zh:00ff").value());
        QVERIFY(HashString().isNull());
    }

    void ordering()
    {
        // §1.1: plain byte-wise order of the full string; h1: sorts before zh:.
        QList<HashString> list;
        for (const char *s : {"zh:01", "test:c", "h1:b", "h1:B", "h1:a", "test:a"})
            list.append(HashString::parse(QString::fromUtf8(s)).value());
        std::sort(list.begin(), list.end());
        QCOMPARE(test::toStrings(list),
                 (QStringList{QStringLiteral("h1:B"), QStringLiteral("h1:a"), QStringLiteral("h1:b"), QStringLiteral("test:a"),
                              QStringLiteral("test:c"), QStringLiteral("zh:01")}));
        // UTF-8 byte order, not UTF-16: U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80).
        QVERIFY(HashString::parse(QStringLiteral("x:\uFF21")).value() < HashString::parse(QStringLiteral("x:\U0001F600")).value());
        QVERIFY(qHash(HashString::parse(u"h1:a").value()) == qHash(HashString::h1(QStringLiteral("a"))));
    }
};

QTEST_GUILESS_MAIN(TestHashString)
#include "tst_hashstring.moc"
