// Canonical writer. Expected bytes: the exact outputs asserted by upstream tests and quoted in
// tofu-formats.md §1.1 (TestSaveLocksToFile, TestProvidersLock/basic), the alignment, sorting
// and escaping rules of §1.1, and the ordering examples of §2.4. tests/interop/tst_interop_lock
// compares the writer with what terraform itself writes.

#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"
#include "tests/support/LockTestSupport.h"
#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace provender;
using namespace Qt::StringLiterals;

class TestLockWriter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // opentofu internal/depsfile/locks_file_test.go TestSaveLocksToFile, as quoted in §1.1.
    void saveLocksToFileVector()
    {
        LockFile doc;
        doc.flavour = LockFlavour::Tofu;
        doc.setProvider(test::providerLock("test/foo", "1.0.0", ">= 1.0.0",
                                           {u"test:cccccccccccccccccccccccccccccccccccccccccccccccc"_s,
                                            u"test:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"_s,
                                            u"test:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"_s}));
        doc.setProvider(test::providerLock("test/bar", "1.2.0", "~> 1"));
        doc.setProvider(test::providerLock("test/baz", "1.2.0"));
        doc.setProvider(test::providerLock("test/boo", "1.2.0", "1.2"));
        const QByteArray expected = R"(# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/test/bar" {
  version     = "1.2.0"
  constraints = "~> 1.0"
}

provider "registry.opentofu.org/test/baz" {
  version = "1.2.0"
}

provider "registry.opentofu.org/test/boo" {
  version     = "1.2.0"
  constraints = "1.2.0"
}

provider "registry.opentofu.org/test/foo" {
  version     = "1.0.0"
  constraints = ">= 1.0.0"
  hashes = [
    "test:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "test:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    "test:cccccccccccccccccccccccccccccccccccccccccccccccc",
  ]
}
)";
        QCOMPARE(writeLockFile(doc), expected);
        // The bytes read back to the same document and are canonical.
        const LockParseResult back = parseLockFile(expected);
        QVERIFY(!back.hasErrors());
        QVERIFY(back.document == doc);
        QVERIFY(isCanonicalLockFile(expected, back));
    }

    // opentofu internal/command/providers_lock_test.go TestProvidersLock/basic, as quoted in §1.1.
    void providersLockBasicVector()
    {
        LockFile doc;
        doc.setProvider(test::providerLock("hashicorp/test", "1.0.0", "", {u"h1:7MjN4eFisdTv4tlhXH5hL4QQd39Jy4baPhFxwAd/EFE="_s}));
        QCOMPARE(writeLockFile(doc, LockFlavour::Tofu), QByteArray(R"(# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/test" {
  version = "1.0.0"
  hashes = [
    "h1:7MjN4eFisdTv4tlhXH5hL4QQd39Jy4baPhFxwAd/EFE=",
  ]
}
)"));
    }

    void headers()
    {
        LockFile empty;
        // With zero providers the file is just the two header lines (§1.1).
        QCOMPARE(writeLockFile(empty, LockFlavour::Tofu),
                 QByteArray("# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n"));
        QCOMPARE(
            writeLockFile(empty, LockFlavour::Terraform),
            QByteArray("# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n"));
        empty.flavour = LockFlavour::Terraform;
        QVERIFY(writeLockFile(empty).contains("\"terraform init\""));
    }

    void alignment_data()
    {
        QTest::addColumn<QString>("constraints");
        QTest::addColumn<QStringList>("hashes");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("version only") << QString() << QStringList() << QByteArray("  version = \"2.0.0\"\n");
        QTest::newRow("version and hashes") << QString() << QStringList{u"zh:1"_s}
                                            << QByteArray("  version = \"2.0.0\"\n  hashes = [\n    \"zh:1\",\n  ]\n");
        QTest::newRow("version and constraints")
            << u">= 1"_s << QStringList() << QByteArray("  version     = \"2.0.0\"\n  constraints = \">= 1.0.0\"\n");
        QTest::newRow("all three")
            << u">= 1"_s << QStringList{u"zh:1"_s, u"h1:2"_s}
            << QByteArray("  version     = \"2.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n    \"h1:2\",\n    \"zh:1\",\n  ]\n");
    }

    void alignment()
    {
        QFETCH(QString, constraints);
        QFETCH(QStringList, hashes);
        QFETCH(QByteArray, body);
        LockFile doc;
        doc.setProvider(test::providerLock("example.com/a/b", "2.0.0", constraints.toUtf8().constData(), hashes));
        const QByteArray expected =
            "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\n"
            "provider \"example.com/a/b\" {\n"
            + body + "}\n";
        QCOMPARE(writeLockFile(doc, LockFlavour::Tofu), expected);
    }

    void hashesSortedAndDeduplicated()
    {
        // Byte-wise order of the whole string: "h1:" < "test:" < "zh:"; duplicates removed.
        LockFile doc;
        ProviderLock p = test::providerLock("example.com/a/b", "1.0.0");
        for (const char *h : {"zh:b", "h1:b", "test:x", "h1:a", "zh:b", "h1:B", "h0:z"})
            p.hashes.append(HashString::parse(QString::fromLatin1(h)).value());
        doc.setProvider(p);
        const QByteArray out = writeLockFile(doc, LockFlavour::Terraform);
        QVERIFY(out.endsWith(
            "  hashes = [\n    \"h0:z\",\n    \"h1:B\",\n    \"h1:a\",\n    \"h1:b\",\n    \"test:x\",\n    \"zh:b\",\n  ]\n}\n"));
    }

    void ordering_data()
    {
        QTest::addColumn<QStringList>("addresses"); // in the expected written order
        // §2.4: component-wise comparison, not of the whole string.
        QTest::newRow("host before longer host") << QStringList{u"example.com/x/y"_s, u"example.com-b/x/y"_s};
        QTest::newRow("opentofu before terraform") << QStringList{u"registry.opentofu.org/a/b"_s, u"registry.terraform.io/a/b"_s};
        // IDN hosts sort by their punycode form (xn--caf-dma.fr > d.fr) but are written in Unicode.
        QTest::newRow("IDN by punycode") << QStringList{u"d.fr/a/b"_s, u"café.fr/a/b"_s};
        QTest::newRow("namespace then type") << QStringList{u"h/a/z"_s, u"h/b/a"_s, u"h/b/b"_s};
    }

    void ordering()
    {
        QFETCH(QStringList, addresses);
        LockFile doc;
        for (qsizetype i = addresses.size() - 1; i >= 0; --i)
            doc.setProvider(test::providerLock(addresses.at(i).toUtf8().constData(), "1.0.0"));
        QList<qsizetype> positions;
        const QByteArray out = writeLockFile(doc);
        for (const QString &a : addresses)
            positions << out.indexOf(QByteArray("provider \"" + a.toUtf8() + "\" {"));
        for (qsizetype i = 0; i < positions.size(); ++i) {
            QVERIFY2(positions[i] > 0, qPrintable(addresses[i]));
            if (i > 0)
                QVERIFY(positions[i] > positions[i - 1]);
        }
        // Same order however the document was built.
        LockFile doc2;
        for (const QString &a : addresses)
            doc2.setProvider(test::providerLock(a.toUtf8().constData(), "1.0.0"));
        QCOMPARE(writeLockFile(doc2), out);
    }

    void escaping_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QByteArray>("written");
        // §1.1: \n \r \t \" \\, ${ -> $${, %{ -> %%{, non-printable as \uXXXX / \UXXXXXXXX
        // (lower-case hex), other Unicode verbatim.
        QTest::newRow("newline") << u"x:a\nb"_s << QByteArray("x:a\\nb");
        QTest::newRow("cr tab") << u"x:\r\t"_s << QByteArray("x:\\r\\t");
        QTest::newRow("quote backslash") << u"x:\"\\"_s << QByteArray("x:\\\"\\\\");
        QTest::newRow("interpolation") << u"x:${a}"_s << QByteArray("x:$${a}");
        QTest::newRow("directive") << u"x:%{a}"_s << QByteArray("x:%%{a}");
        QTest::newRow("lone signs") << u"x:$a%b$"_s << QByteArray("x:$a%b$");
        QTest::newRow("bell") << u"x:\a"_s << QByteArray("x:\\u0007");
        QTest::newRow("no-break space") << u"x:\u00a0"_s << QByteArray("x:\\u00a0");
        QTest::newRow("zero width space") << u"x:\u200b"_s << QByteArray("x:\\u200b");
        QTest::newRow("accent") << u"x:é"_s << QByteArray("x:\xc3\xa9");
        QTest::newRow("emoji") << u"x:\U0001F600"_s << QByteArray("x:\xf0\x9f\x98\x80");
        QTest::newRow("unassigned astral") << u"x:\U0010FFFF"_s << QByteArray("x:\\U0010ffff");
    }

    void escaping()
    {
        QFETCH(QString, value);
        QFETCH(QByteArray, written);
        QCOMPARE(escapeHclString(value), written);
        // And the reader turns the written form back into the value.
        LockFile doc;
        ProviderLock p = test::providerLock("example.com/a/b", "1.0.0");
        p.hashes.append(HashString::parse(value).value());
        doc.setProvider(p);
        const QByteArray out = writeLockFile(doc);
        QVERIFY(out.contains(QByteArray("    \"" + written + "\",\n")));
        const LockParseResult back = parseLockFile(out);
        QVERIFY(!back.hasErrors());
        QCOMPARE(back.document.providers.first().hashes.first().toString(), value);
    }

    void unicodeHostIsWrittenInDisplayForm()
    {
        LockFile doc;
        doc.setProvider(test::providerLock("CAFÉ.fr/a/b", "1.0.0"));
        QVERIFY(writeLockFile(doc).contains("provider \"café.fr/a/b\" {\n"));
    }

    void saveIsAtomicAndReadable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u".terraform.lock.hcl"_s);
        QVERIFY(test::writeFile(path, "old content"));

        LockFile doc;
        doc.setProvider(test::providerLock("example.com/a/b", "1.0.0", "", {u"h1:x"_s}));
        const Result<void> r = saveLockFile(doc, LockFlavour::Terraform, path);
        QVERIFY2(r.ok(), qPrintable(r.error().message));
        QCOMPARE(test::readFile(path), writeLockFile(doc, LockFlavour::Terraform));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{u".terraform.lock.hcl"_s});
        const QFile::Permissions perms = QFile::permissions(path);
        QVERIFY(perms & QFile::ReadOwner && perms & QFile::WriteOwner && perms & QFile::ReadOther);
        QVERIFY(!(perms & (QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther | QFile::WriteOther)));

        const Result<void> bad = saveLockFile(doc, dir.filePath(u"missing/dir/.terraform.lock.hcl"_s));
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.startsWith(u"Error while writing new dependency lock information to "_s));
    }

    void saveKeepsModeAndOwner()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u".terraform.lock.hcl"_s);
        QVERIFY(test::writeFile(path, "old content"));
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        // As root the file can belong to someone else (the case that matters: a shared checkout);
        // otherwise it keeps the user's own ids.
        const bool root = ::geteuid() == 0;
        if (root)
            QVERIFY(::chown(QFile::encodeName(path).constData(), 65534, 65534) == 0);
        struct stat before
        {
        };
        QVERIFY(::stat(QFile::encodeName(path).constData(), &before) == 0);

        LockFile doc;
        doc.setProvider(test::providerLock("example.com/a/b", "1.0.0", "", {u"h1:x"_s}));
        const Result<void> r = saveLockFile(doc, LockFlavour::Terraform, path);
        QVERIFY2(r.ok(), qPrintable(r.error().message));
        struct stat after
        {
        };
        QVERIFY(::stat(QFile::encodeName(path).constData(), &after) == 0);
        QVERIFY(after.st_ino != before.st_ino); // replaced by a rename, not rewritten in place
        QCOMPARE(after.st_mode & 07777, mode_t(0640));
        QCOMPARE(after.st_uid, root ? uid_t(65534) : ::geteuid());
        QCOMPARE(after.st_gid, root ? gid_t(65534) : before.st_gid);
        QCOMPARE(test::readFile(path), writeLockFile(doc, LockFlavour::Terraform));
    }

    void saveWritesThroughSymlink()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(u"real"_s));
        const QString target = dir.filePath(u"real/.terraform.lock.hcl"_s);
        QFile old(target);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old content");
        old.close();
        const QString link = dir.filePath(u".terraform.lock.hcl"_s);
        QVERIFY(QFile::link(u"real/.terraform.lock.hcl"_s, link));
        LockFile doc;
        doc.setProvider(test::providerLock("example.com/a/b", "1.0.0", "", {u"h1:x"_s}));
        const Result<void> r = saveLockFile(doc, link);
        QVERIFY2(r.ok(), qPrintable(r.error().message));
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(test::readFile(target), writeLockFile(doc));
    }

    void saveRefusesNonRegularFile()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(u".terraform.lock.hcl"_s);
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0644) == 0);
        LockFile doc;
        const Result<void> r = saveLockFile(doc, fifo);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(u"not a regular file"_s), qPrintable(r.error().message));
    }
};

QTEST_GUILESS_MAIN(TestLockWriter)
#include "tst_lockwriter.moc"
