// hashZip / hashDirectory / hashFileZh / dirhash1 against values from an independent source:
// tofu-formats.md §3.5 and §9 (vectors asserted in OpenTofu's and Terraform's own tests),
// coreutils' sha256sum for zh:, and tests/hashing/refhash.py (Python's zipfile + hashlib) for
// awkward archives and trees. The real terraform judges h1: in tests/interop/tst_interop_hash.

#include "model/hashing/PackageHashes.h"
#include "model/hashing/Sha256.h"
#include "tests/support/TestSupport.h"
#include "tests/support/ZipFixture.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <optional>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace provender;
using provender::test::ZipEntrySpec;

namespace {

/// For QVERIFY2 messages: evaluated even when the check passes, so it must not touch error() of a value.
template<typename T> QString errorText(const provender::Result<T> &r)
{
    return r.ok() ? QString() : r.error().toString();
}

const QByteArray Placeholder = "# This is just a placeholder file for discovery testing, not a real provider plugin.\n";

QByteArray fakePackage(const char *type, const char *version)
{
    return QByteArray("This is a fake provider package for registry.opentofu.org/hashicorp/") + type + ' ' + version
        + ", not a real provider.\n";
}

QString refScript()
{
    return provender::test::sourceDir() + QStringLiteral("/tests/hashing/refhash.py");
}

QString sha256sum(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("sha256sum"), {path});
    if (!p.waitForFinished(120000) || p.exitCode() != 0)
        return {};
    return QString::fromLatin1(p.readAllStandardOutput().left(64));
}

using provender::test::writeFile;

// Deterministic, moderately compressible bytes (text-like runs and noise).
QByteArray pseudoBinary(qsizetype size, quint32 seed)
{
    QRandomGenerator rng(seed);
    QByteArray out;
    out.reserve(size);
    static const char *words[] = {"runtime.", "github.com/hashicorp/", "terraform-plugin-", "func ", "\x00\x00\x00\x00", "main.", "error"};
    while (out.size() < size) {
        if (rng.bounded(3) == 0) {
            for (int i = rng.bounded(64); i >= 0; --i)
                out.append(char(rng.bounded(256)));
        } else {
            out.append(words[rng.bounded(7)]);
        }
    }
    out.truncate(size);
    return out;
}

struct LocalRef
{
    qsizetype local = -1;
    qsizetype central = -1;
};

// Offsets of the n-th local header and n-th central directory record.
LocalRef locate(const QByteArray &zip, int n)
{
    LocalRef r;
    int seen = 0;
    for (qsizetype i = zip.indexOf("PK\x01\x02"); i >= 0; i = zip.indexOf("PK\x01\x02", i + 4)) {
        if (seen++ == n) {
            r.central = i;
            const uchar *p = reinterpret_cast<const uchar *>(zip.constData()) + i + 42;
            r.local = qsizetype(p[0] | (p[1] << 8) | (p[2] << 16) | (quint32(p[3]) << 24));
            break;
        }
    }
    return r;
}

void put16(QByteArray &b, qsizetype at, quint16 v)
{
    b[at] = char(v & 0xff);
    b[at + 1] = char(v >> 8);
}

void put32(QByteArray &b, qsizetype at, quint32 v)
{
    for (int i = 0; i < 4; ++i)
        b[at + i] = char((v >> (8 * i)) & 0xff);
}

quint32 get32(const QByteArray &b, qsizetype at)
{
    const uchar *p = reinterpret_cast<const uchar *>(b.constData()) + at;
    return quint32(p[0]) | (quint32(p[1]) << 8) | (quint32(p[2]) << 16) | (quint32(p[3]) << 24);
}

} // namespace

class TestPackageHashes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    int m_counter = 0;

    QString newPath(const QString &suffix) { return m_tmp.filePath(QStringLiteral("f%1%2").arg(++m_counter).arg(suffix)); }

    QJsonObject reference(const QString &mode, const QString &path)
    {
        QString error;
        const QByteArray out = provender::test::runPython({refScript(), mode, path}, &error);
        if (out.isNull()) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        return QJsonDocument::fromJson(out).object();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void sha256Basics()
    {
        QCOMPARE(Sha256::emptyDigest().toHex(), QByteArray("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        // tofu-formats.md §3.5: sha256 of the 85-byte placeholder.
        QCOMPARE(Placeholder.size(), 85);
        QCOMPARE(Sha256::hash(Placeholder).toHex(), QByteArray("1c705b4eb296bde8abd99a75e9df466cbafcbc6e201ff77658787245f76f5343"));
        Sha256 s;
        s.addData(Placeholder.left(10));
        s.addData(Placeholder.mid(10));
        QCOMPARE(s.result(), Sha256::hash(Placeholder));
    }

    void knownVectors_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        // tofu-formats.md §3.1 (empty package), §3.5 and §9.
        QTest::newRow("empty package") << QByteArray() << QByteArray() << QStringLiteral("h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
        QTest::newRow("providers-lock test (empty file)")
            << QByteArray("terraform-provider-test") << QByteArray() << QStringLiteral("h1:7MjN4eFisdTv4tlhXH5hL4QQd39Jy4baPhFxwAd/EFE=");
        QTest::newRow("null placeholder") << QByteArray("terraform-provider-null") << Placeholder
                                          << QStringLiteral("h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g=");
        QTest::newRow("null windows .exe") << QByteArray("terraform-provider-null.exe") << Placeholder
                                           << QStringLiteral("h1:kGhswZiaZEZCbem7JPB+GCzba57SfLtNV20LNIBP1CU=");
        QTest::newRow("random") << QByteArray("terraform-provider-random") << Placeholder
                                << QStringLiteral("h1:qWk5Hr1Xw9sEbxS5zNAhmVPxQtius4R/4hrOPgH1sDY=");
        QTest::newRow("random-beta") << QByteArray("terraform-provider-random-beta") << Placeholder
                                     << QStringLiteral("h1:N8DD/Gk20FXTX4vRLCU4ALq0CPQfRzROct61H9xIPl8=");
        QTest::newRow("legacy") << QByteArray("terraform-provider-legacy") << Placeholder
                                << QStringLiteral("h1:L0FggsTJoRyllCWXkBEgtoiw7dIWeJaLF/VZ1PgTRSU=");
        QTest::newRow("symlinks fixture bar (empty)")
            << QByteArray("terraform-provider-bar") << QByteArray() << QStringLiteral("h1:6cU1EXqJ1xuhhaeWD2wav+GdmtD70XFXAO+QJpFtU/E=");
        QTest::newRow("fake test 1.2.3") << QByteArray("terraform-provider-test_1.2.3") << fakePackage("test", "1.2.3")
                                         << QStringLiteral("h1:8CjxaUBuegKZSFnRos39Fs+CS78ax0Dyb7aIA5XBiNI=");
        QTest::newRow("fake test-beta 1.2.4") << QByteArray("terraform-provider-test-beta_1.2.4") << fakePackage("test-beta", "1.2.4")
                                              << QStringLiteral("h1:vEthLkqAecdQimaW6JHZ0SBRNtHibLnOb31tX9ZXlcI=");
        QTest::newRow("fake source 1.2.3") << QByteArray("terraform-provider-source_1.2.3") << fakePackage("source", "1.2.3")
                                           << QStringLiteral("h1:ACYytVQ2Q6JfoEs7xxCqa1yGFf9HwF3SEHzJKBoJfo0=");
    }

    void knownVectors()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);

        QList<DirhashEntry> lines;
        if (!name.isEmpty())
            lines.append(DirhashEntry{name, Sha256::hash(content)});
        const Result<HashString> direct = dirhash1(lines);
        QVERIFY(direct.ok());
        QCOMPARE(direct->toString(), expected);

        // Unpacked directory.
        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir));
        if (!name.isEmpty())
            QVERIFY(writeFile(dir + u'/' + QString::fromUtf8(name), content));
        const Result<PackageHashes> fromDir = hashDirectory(dir);
        QVERIFY2(fromDir.ok(), qPrintable(errorText(fromDir)));
        QCOMPARE(fromDir->h1Extracted.toString(), expected);
        QCOMPARE(fromDir->kind, PackageHashes::Kind::Directory);
        QCOMPARE(fromDir->entryCount, name.isEmpty() ? 0 : 1);

        // Zip, deflated and stored: both h1 agree (no directory entries), zh is sha256sum's.
        for (auto method : {ZipEntrySpec::Deflate, ZipEntrySpec::Store}) {
            const QString zipPath = newPath(QStringLiteral(".zip"));
            QList<ZipEntrySpec> entries;
            if (!name.isEmpty())
                entries.append(ZipEntrySpec::executable(name, content, method));
            QString error;
            QVERIFY2(provender::test::writeZip(zipPath, entries, false, &error), qPrintable(error));
            const Result<PackageHashes> z = hashZip(zipPath);
            QVERIFY2(z.ok(), qPrintable(errorText(z)));
            QCOMPARE(z->h1Zip.toString(), expected);
            QCOMPARE(z->h1Extracted.toString(), expected);
            QCOMPARE(z->zh.toString(), QStringLiteral("zh:") + sha256sum(zipPath));
            QCOMPARE(z->fileSize, QFileInfo(zipPath).size());
            QCOMPARE(z->contentBytes, content.size());
            QCOMPARE(z->entryCount, int(entries.size()));
            QVERIFY(!z->hasDirectoryEntries);
            QVERIFY(z->unsafeNames.isEmpty());
        }
    }

    void zhOfAnyFile()
    {
        const QString path = newPath(QStringLiteral(".bin"));
        QVERIFY(writeFile(path, pseudoBinary(3 << 20, 7)));
        const Result<HashString> zh = hashFileZh(path);
        QVERIFY(zh.ok());
        QCOMPARE(zh->toString(), QStringLiteral("zh:") + sha256sum(path));
        QCOMPARE(zh->scheme(), HashString::Scheme::ZH);
        const Result<HashString> missing = hashFileZh(m_tmp.filePath(QStringLiteral("nope")));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
    }

    void awkwardZips_data()
    {
        QTest::addColumn<QList<ZipEntrySpec>>("entries");
        QTest::addColumn<bool>("utf8Flag");
        QTest::addColumn<bool>("hasDirs");
        QTest::addColumn<QStringList>("unsafe");
        QTest::addColumn<QString>("problem"); // extractionProblem: what terraform refuses (tests/interop)

        using Z = ZipEntrySpec;
        const QByteArray bin = pseudoBinary(300000, 1);
        QTest::newRow("directory entries, nested") << QList<Z>{Z::directory("docs/"),
                                                               Z::file("docs/README.md", "# readme\n"),
                                                               Z::directory("docs/deep/"),
                                                               Z::directory("docs/deep/er/"),
                                                               Z::file("docs/deep/er/x.txt", "x"),
                                                               Z::executable("terraform-provider-x_v1.0.0", bin)}
                                                   << false << true << QStringList() << QString();
        QTest::newRow("only directories") << QList<Z>{Z::directory("a/"), Z::directory("a/b/")} << false << true << QStringList()
                                          << QString();
        QTest::newRow("utf-8 and emoji, flag set")
            << QList<Z>{Z::file("données/été.txt", "é"), Z::file("🚀/🦀.bin", bin.left(5000)), Z::file("日本語", "")} << true << false
            << QStringList() << QString();
        QTest::newRow("utf-8 bytes, no flag") << QList<Z>{Z::file("données/été.txt", "é"), Z::file("🚀", "rocket")} << false << false
                                              << QStringList() << QString();
        QTest::newRow("sort-order stress") << QList<Z>{Z::file("a", "1"),     Z::file("a.b", "2"),       Z::file("a/b", "3"),
                                                       Z::file("a-b", "4"),   Z::file("A", "5"),         Z::file("a b", "6"),
                                                       Z::file("a_b", "7"),   Z::file("a~", "8"),        Z::file("ab", "9"),
                                                       Z::file("a\tb", "10"), Z::file("\xc3\xa9", "11"), Z::file("z", "12")}
                                           << false << false << QStringList() << QStringLiteral("\"a\" is both a file and a directory");
        QTest::newRow("stored and deflated, empty files") << QList<Z>{Z::file("empty-stored", "", Z::Store),
                                                                      Z::file("empty-deflated", "", Z::Deflate),
                                                                      Z::file("big-stored", bin, Z::Store),
                                                                      Z::file("big-deflated", bin, Z::Deflate),
                                                                      Z{"level0", bin.left(70000), Z::Deflate, 0100644, 0},
                                                                      Z{"level9", bin.left(70000), Z::Deflate, 0100644, 9}}
                                                          << false << false << QStringList() << QString();
        QTest::newRow("duplicates: last wins") << QList<Z>{Z::file("dup", "first"), Z::file("other", "o"), Z::file("dup", "second, longer"),
                                                           Z::file("dup", "third")}
                                               << false << false << QStringList() << QString();
        QTest::newRow("names that clean to the same path")
            << QList<Z>{Z::file("a/b", "1"), Z::file("a//b", "2"), Z::file("./a/b", "3"), Z::file("c", "4")} << false << false
            << QStringList() << QString();
        QTest::newRow("backslashes are plain characters")
            << QList<Z>{Z::file("dir\\file.txt", "bs"), Z::file("dir/file.txt", "fs")} << false << false << QStringList() << QString();
        QTest::newRow("unsafe names are hashed as names")
            << QList<Z>{Z::file("../evil", "e"), Z::file("/abs/path", "a"),  Z::file("ok/../../up", "u"), Z::file("..\\win", "w"),
                        Z::file("C:\\x", "c"),   Z::file("fine..name", "f"), Z::file("..hidden", "h")}
            << false << false
            << QStringList{QStringLiteral("../evil"), QStringLiteral("/abs/path"), QStringLiteral("ok/../../up"), QStringLiteral("..\\win"),
                           QStringLiteral("C:\\x")}
            << QStringLiteral("entry contains '..': ../evil");
        QTest::newRow("directory by attributes only") << QList<Z>{Z{"looks-like-a-file", {}, Z::Store, 040755, 0}, Z::file("real", "r")}
                                                      << false << true << QStringList() << QString();
        QTest::newRow("symlink entry (target text is the content)")
            << QList<Z>{Z{"link", "target", Z::Store, 0120777, 0}, Z::file("target", "t")} << false << false << QStringList() << QString();
        QTest::newRow("hidden files") << QList<Z>{Z::file(".hidden", "h"), Z::file(".d/.e", "e")} << false << false << QStringList()
                                      << QString();
    }

    void awkwardZips()
    {
        QFETCH(QList<ZipEntrySpec>, entries);
        QFETCH(bool, utf8Flag);
        QFETCH(bool, hasDirs);
        QFETCH(QStringList, unsafe);
        QFETCH(QString, problem);

        const QString zipPath = newPath(QStringLiteral(".zip"));
        QString error;
        QVERIFY2(provender::test::writeZip(zipPath, entries, utf8Flag, &error), qPrintable(error));
        const QJsonObject ref = reference(QStringLiteral("zip"), zipPath);
        if (ref.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package,
                           QStringLiteral("python3 (tests/hashing/refhash.py) is needed for the independent reference values"));

        const Result<PackageHashes> z = hashZip(zipPath);
        QVERIFY2(z.ok(), qPrintable(errorText(z)));
        QCOMPARE(z->zh.toString(), ref.value(QStringLiteral("zh")).toString());
        QCOMPARE(z->h1Zip.toString(), ref.value(QStringLiteral("h1_zip")).toString());
        QCOMPARE(z->h1Extracted.toString(), ref.value(QStringLiteral("h1_extracted")).toString());
        QCOMPARE(z->entryCount, ref.value(QStringLiteral("entries")).toInt());
        QCOMPARE(z->hasDirectoryEntries, hasDirs);
        QCOMPARE(z->unsafeNames, unsafe);
        QVERIFY(z->h1ZipError.isEmpty());
        QCOMPARE(z->extractionProblem, problem);
        if (!hasDirs && QTest::currentDataTag() == QByteArrayView("stored and deflated, empty files"))
            QCOMPARE(z->h1Zip, z->h1Extracted);
        if (hasDirs)
            QVERIFY(z->h1Zip != z->h1Extracted);
    }

    void duplicateSemantics()
    {
        // Spelled out, independent of Python: HashZip gives both "dup" lines the LAST content;
        // the extracted folder has one "dup" with the last content.
        const QString zipPath = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(zipPath, {ZipEntrySpec::file("dup", "first"), ZipEntrySpec::file("dup", "second")}));
        const Result<PackageHashes> z = hashZip(zipPath);
        QVERIFY(z.ok());
        const QByteArray second = Sha256::hash("second");
        QCOMPARE(z->h1Zip, dirhash1({{"dup", second}, {"dup", second}}).value());
        QCOMPARE(z->h1Extracted, dirhash1({{"dup", second}}).value());
    }

    void directoryEntryWithData()
    {
        // Go's zip reader refuses to open a "dir/" entry that declares data: no h1Zip, but the
        // extracted folder (go-getter only makes the directory) still has an h1.
        const QString zipPath = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(zipPath,
                                          {ZipEntrySpec{"dir/", "data!", ZipEntrySpec::Deflate, 040755, 6}, ZipEntrySpec::file("f", "x")}));
        const Result<PackageHashes> z = hashZip(zipPath);
        QVERIFY2(z.ok(), qPrintable(errorText(z)));
        QVERIFY(z->h1Zip.isNull());
        QVERIFY(z->h1ZipError.contains(QStringLiteral("dir/")));
        QCOMPARE(z->h1Extracted, dirhash1({{"f", Sha256::hash("x")}}).value());
    }

    void newlineNames()
    {
        const QString zipPath = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(zipPath, {ZipEntrySpec::file("bad\nname", "x")}));
        const Result<PackageHashes> z = hashZip(zipPath);
        QVERIFY(!z.ok());
        QCOMPARE(z.error().message, QStringLiteral("dirhash: filenames with newlines are not supported"));

        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/sub")));
        QVERIFY(writeFile(dir + QStringLiteral("/sub/bad\nname"), "x"));
        const Result<PackageHashes> d = hashDirectory(dir);
        QVERIFY(!d.ok());
        QCOMPARE(d.error().message, QStringLiteral("dirhash: filenames with newlines are not supported"));

        const Result<HashString> direct = dirhash1({{"a\nb", Sha256::hash("")}});
        QVERIFY(!direct.ok());
        QCOMPARE(direct.error().message, QStringLiteral("dirhash: filenames with newlines are not supported"));
    }

    void corruptZips_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<int>("code");
        const int corrupt = int(ErrorCode::CorruptArchive);
        const int unsupported = int(ErrorCode::Unsupported);
        QTest::newRow("text placeholder, not a zip") << QStringLiteral("text") << corrupt;
        QTest::newRow("empty file") << QStringLiteral("empty") << corrupt;
        QTest::newRow("tail cut (no end record)") << QStringLiteral("cut-tail") << corrupt;
        QTest::newRow("cut in half") << QStringLiteral("cut-half") << corrupt;
        QTest::newRow("flipped byte in deflate data") << QStringLiteral("flip-deflate") << corrupt;
        QTest::newRow("flipped byte in stored data") << QStringLiteral("flip-stored") << corrupt;
        QTest::newRow("wrong CRC") << QStringLiteral("crc") << corrupt;
        QTest::newRow("declared size too large") << QStringLiteral("size-large") << corrupt;
        QTest::newRow("declared size too small") << QStringLiteral("size-small") << corrupt;
        QTest::newRow("local header mismatch") << QStringLiteral("local-name") << corrupt;
        QTest::newRow("compressed size past end of file") << QStringLiteral("csize-past-eof") << corrupt;
        QTest::newRow("bzip2 method") << QStringLiteral("method-12") << unsupported;
        QTest::newRow("unknown method 99") << QStringLiteral("method-99") << unsupported;
        QTest::newRow("encrypted entry") << QStringLiteral("encrypted") << unsupported;
    }

    void corruptZips()
    {
        QFETCH(QString, how);
        QFETCH(int, code);
        const QString good = newPath(QStringLiteral(".zip"));
        const QByteArray bin = pseudoBinary(400000, 3);
        QVERIFY(provender::test::writeZip(good,
                                          {ZipEntrySpec::file("a.txt", "hello hello hello"),
                                           ZipEntrySpec::executable("terraform-provider-x_v1", bin, ZipEntrySpec::Deflate),
                                           ZipEntrySpec::file("stored.bin", bin.left(100000), ZipEntrySpec::Store)}));
        QVERIFY(hashZip(good).ok());
        QByteArray bytes = provender::test::readFile(good);
        const LocalRef e1 = locate(bytes, 1);
        const LocalRef e2 = locate(bytes, 2);
        QVERIFY(e1.local > 0 && e1.central > 0 && e2.local > 0);
        const auto dataStart = [&](const LocalRef &r) {
            return r.local + 30 + (uchar(bytes[r.local + 26]) | (uchar(bytes[r.local + 27]) << 8))
                + (uchar(bytes[r.local + 28]) | (uchar(bytes[r.local + 29]) << 8));
        };

        QString path = newPath(QStringLiteral(".zip"));
        if (how == u"text") {
            bytes = "This is not a zip file, just a placeholder used by the filesystem mirror tests.\n";
        } else if (how == u"empty") {
            bytes.clear();
        } else if (how == u"cut-tail") {
            bytes.chop(10);
        } else if (how == u"cut-half") {
            bytes.truncate(bytes.size() / 2);
        } else if (how == u"flip-deflate") {
            bytes[dataStart(e1) + 20000] = char(bytes[dataStart(e1) + 20000] ^ 0x55);
        } else if (how == u"flip-stored") {
            bytes[dataStart(e2) + 500] = char(bytes[dataStart(e2) + 500] ^ 0x01);
        } else if (how == u"crc") {
            const quint32 crc = get32(bytes, e1.central + 16) ^ 0x1;
            put32(bytes, e1.central + 16, crc);
            put32(bytes, e1.local + 14, crc);
        } else if (how == u"size-large" || how == u"size-small") {
            const quint32 size = get32(bytes, e1.central + 24) + (how == u"size-large" ? 1000 : -1000);
            put32(bytes, e1.central + 24, size);
            put32(bytes, e1.local + 22, size);
        } else if (how == u"local-name") {
            put16(bytes, e1.local + 26, 3); // name length differs from the central directory's
        } else if (how == u"csize-past-eof") {
            put32(bytes, e1.central + 20, 0x7ffffff0);
            put32(bytes, e1.local + 18, 0x7ffffff0);
        } else if (how.startsWith(u"method-")) {
            const quint16 method = quint16(how.mid(7).toUInt());
            put16(bytes, e1.central + 10, method);
            put16(bytes, e1.local + 8, method);
        } else if (how == u"encrypted") {
            path = newPath(QStringLiteral(".zip"));
            QuaZip zip(path);
            QVERIFY(zip.open(QuaZip::mdCreate));
            QuaZipFile out(&zip);
            QVERIFY(out.open(QIODevice::WriteOnly, QuaZipNewInfo(QStringLiteral("secret")), "password", 0, Z_DEFLATED));
            out.write("top secret content");
            out.close();
            zip.close();
            bytes = provender::test::readFile(path);
        }
        QVERIFY(writeFile(path, bytes));
        const Result<PackageHashes> z = hashZip(path);
        QVERIFY2(!z.ok(), "a damaged zip must not hash");
        QCOMPARE(int(z.error().code), code);
        QVERIFY(!z.error().message.isEmpty());
        qDebug("%s -> %s", qPrintable(how), qPrintable(errorText(z)));
    }

    // Found by tests/fuzz/fuzz_zip: after a data error ISA-L left avail_in at 2^32 - 1 and the
    // input position moved by that much (pointer overflow, caught by UBSan). Python's zlib reads
    // this entry's data as "invalid distance too far back". The zip stays in the fuzz seeds.
    void deflateErrorInvalidDistance()
    {
        const QByteArray bytes = QByteArray::fromHex(
            "504b03041400000008000000215c2c7c1ae815000000a086010001000000663abf816ca848720375f7b741d1afdae139801b97a3504b0102"
            "14031400000008000000215c2c7c1ae815000000a086010001000000000000000000000080010000000066504b050600000000010001002f"
            "000000340000000000");
        const QString path = newPath(QStringLiteral(".zip"));
        QVERIFY(writeFile(path, bytes));
        const Result<PackageHashes> z = hashZip(path);
        QVERIFY2(!z.ok(), "invalid deflate data must not hash");
        QCOMPARE(z.error().code, ErrorCode::CorruptArchive);
        QVERIFY2(z.error().message.contains(QStringLiteral("distance")), qPrintable(z.error().message));
    }

    void emptyZip()
    {
        const QString path = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(path, {}));
        QCOMPARE(QFileInfo(path).size(), 22); // just the end of central directory record
        const Result<PackageHashes> z = hashZip(path);
        QVERIFY(z.ok());
        QCOMPARE(z->h1Zip.toString(), QStringLiteral("h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="));
        QCOMPARE(z->h1Extracted.toString(), QStringLiteral("h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="));
        QCOMPARE(z->entryCount, 0);
        QCOMPARE(z->extractionProblem, QStringLiteral("empty archive"));
    }

    void fileAndDirectoryClash()
    {
        for (const auto &entries : {QList<ZipEntrySpec>{ZipEntrySpec::file("a", "1"), ZipEntrySpec::file("a/b", "2")},
                                    QList<ZipEntrySpec>{ZipEntrySpec::file("a/b", "2"), ZipEntrySpec::file("a", "1")},
                                    QList<ZipEntrySpec>{ZipEntrySpec::directory("a/"), ZipEntrySpec::file("a", "1")}}) {
            const QString path = newPath(QStringLiteral(".zip"));
            QVERIFY(provender::test::writeZip(path, entries));
            const Result<PackageHashes> z = hashZip(path);
            QVERIFY(z.ok());
            QCOMPARE(z->extractionProblem, QStringLiteral("\"a\" is both a file and a directory"));
        }
    }

    void mutatedZipsNeverCrash()
    {
        // Random damage anywhere: every call returns (a value or an error), none crashes or hangs.
        const QString good = newPath(QStringLiteral(".zip"));
        const QByteArray bin = pseudoBinary(20000, 9);
        QVERIFY(provender::test::writeZip(good,
                                          {ZipEntrySpec::directory("d/"), ZipEntrySpec::file("d/a", bin),
                                           ZipEntrySpec::file("b", bin.left(3000), ZipEntrySpec::Store), ZipEntrySpec::file("c", "")}));
        const QByteArray original = provender::test::readFile(good);
        QRandomGenerator rng(12345);
        const QString path = newPath(QStringLiteral(".zip"));
        int ok = 0;
        int failed = 0;
        for (int round = 0; round < 1500; ++round) {
            QByteArray bytes = original;
            const int flips = 1 + rng.bounded(4);
            for (int i = 0; i < flips; ++i) {
                const qsizetype at = rng.bounded(bytes.size());
                bytes[at] = char(rng.bounded(256));
            }
            if (rng.bounded(10) == 0)
                bytes.truncate(rng.bounded(bytes.size()));
            QVERIFY(writeFile(path, bytes));
            const Result<PackageHashes> z = hashZip(path);
            (z.ok() ? ok : failed)++;
            if (!z.ok())
                QVERIFY(!z.error().message.isEmpty());
        }
        qDebug("mutations: %d hashed, %d refused", ok, failed);
        QVERIFY(failed > 0);
    }

    void directories()
    {
        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/docs/deep")));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/empty-dir")));
        QVERIFY(writeFile(dir + QStringLiteral("/terraform-provider-x_v1.0.0"), pseudoBinary(100000, 5)));
        QVERIFY(writeFile(dir + QStringLiteral("/docs/README.md"), "readme"));
        QVERIFY(writeFile(dir + QStringLiteral("/docs/deep/.hidden"), ""));
        QVERIFY(writeFile(dir + QStringLiteral("/données 🚀"), "utf8"));
        QVERIFY(writeFile(dir + QStringLiteral("/a b"), "space"));
        QVERIFY(writeFile(dir + QStringLiteral("/a.b"), "dot"));
        QVERIFY(writeFile(dir + QStringLiteral("/A"), "upper"));
        // A file name that is not UTF-8: must hash with its exact bytes.
        {
            const QByteArray raw = QFile::encodeName(dir) + "/latin1-\xe9";
            FILE *f = fopen(raw.constData(), "wb");
            QVERIFY(f);
            fputs("latin1", f);
            fclose(f);
        }
        // Symlink to a file: listed under its own name, hashed with the target's content.
        QVERIFY(QFile::link(QStringLiteral("docs/README.md"), dir + QStringLiteral("/readme-link")));
        const QJsonObject ref = reference(QStringLiteral("dir"), dir);
        if (ref.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Package,
                           QStringLiteral("python3 (tests/hashing/refhash.py) is needed for the independent reference values"));
        const Result<PackageHashes> d = hashDirectory(dir);
        QVERIFY2(d.ok(), qPrintable(errorText(d)));
        QCOMPARE(d->h1Extracted.toString(), ref.value(QStringLiteral("h1")).toString());
        QCOMPARE(d->entryCount, 9);

        // The package path itself may be a symlink (cache linking): followed.
        const QString link = newPath(QStringLiteral(".link"));
        QVERIFY(QFile::link(dir, link));
        const Result<PackageHashes> viaLink = hashDirectory(link);
        QVERIFY(viaLink.ok());
        QCOMPARE(viaLink->h1Extracted, d->h1Extracted);

        // The same tree zipped (files only) has the same h1 both ways.
        QList<ZipEntrySpec> entries;
        const QStringList names{QStringLiteral("terraform-provider-x_v1.0.0"),
                                QStringLiteral("docs/README.md"),
                                QStringLiteral("docs/deep/.hidden"),
                                QStringLiteral("données 🚀"),
                                QStringLiteral("a b"),
                                QStringLiteral("a.b"),
                                QStringLiteral("A")};
        for (const QString &n : names)
            entries.append(ZipEntrySpec::file(n.toUtf8(), provender::test::readFile(dir + u'/' + n)));
        entries.append(ZipEntrySpec::file("latin1-\xe9", "latin1"));
        entries.append(ZipEntrySpec::file("readme-link", "readme"));
        const QString zipPath = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(zipPath, entries));
        const Result<PackageHashes> z = hashZip(zipPath);
        QVERIFY(z.ok());
        QCOMPARE(z->h1Zip, d->h1Extracted);
        QCOMPARE(z->h1Extracted, d->h1Extracted);
        // QTemporaryDir cannot remove a name that is not UTF-8.
        ::unlink(QByteArray(QFile::encodeName(dir) + "/latin1-\xe9").constData());
    }

    void directoryErrors()
    {
        // Symlink to a directory: a file name whose content cannot be read.
        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir + QStringLiteral("/sub")));
        QVERIFY(writeFile(dir + QStringLiteral("/sub/f"), "f"));
        QVERIFY(QFile::link(QStringLiteral("sub"), dir + QStringLiteral("/dirlink")));
        const Result<PackageHashes> d = hashDirectory(dir);
        QVERIFY(!d.ok());
        QVERIFY2(d.error().message.contains(QStringLiteral("is a directory")), qPrintable(errorText(d)));

        // Dangling symlink.
        const QString dir2 = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir2));
        QVERIFY(QFile::link(QStringLiteral("missing"), dir2 + QStringLiteral("/dangling")));
        QVERIFY(!hashDirectory(dir2).ok());

        // A FIFO must give an error, never block.
        const QString dir3 = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir3));
        QCOMPARE(::mkfifo(QFile::encodeName(dir3 + QStringLiteral("/fifo")).constData(), 0600), 0);
        const Result<PackageHashes> fifo = hashDirectory(dir3);
        QVERIFY(!fifo.ok());
        QCOMPARE(fifo.error().code, ErrorCode::Unsupported);

        // Not a directory.
        const QString file = newPath(QStringLiteral(".txt"));
        QVERIFY(writeFile(file, "x"));
        const Result<PackageHashes> notDir = hashDirectory(file);
        QVERIFY(!notDir.ok());
        QCOMPARE(notDir.error().message, file + QStringLiteral(" is not a directory"));
        QCOMPARE(hashDirectory(m_tmp.filePath(QStringLiteral("absent"))).error().code, ErrorCode::NotFound);
    }

    void specialFilesNeverBlock()
    {
        const QString fifo = newPath(QStringLiteral(".fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QCOMPARE(hashZip(fifo).error().code, ErrorCode::Unsupported);
        QCOMPARE(hashFileZh(fifo).error().code, ErrorCode::Unsupported);
        QCOMPARE(hashPackage(fifo).error().code, ErrorCode::Unsupported);
        QCOMPARE(hashZip(QStringLiteral("/dev/zero")).error().code, ErrorCode::Unsupported);
        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(!hashZip(dir).ok());
    }

    void concurrentCallsAgree()
    {
        // The verify engine hashes several archives at once: results must not depend on it.
        QStringList paths;
        for (int i = 0; i < 8; ++i) {
            const QString p = newPath(QStringLiteral(".zip"));
            QVERIFY(
                provender::test::writeZip(p,
                                          {ZipEntrySpec::directory("d/"), ZipEntrySpec::file("d/x", pseudoBinary(400000 + i, quint32(i))),
                                           ZipEntrySpec::file("y", pseudoBinary(1000, 77), ZipEntrySpec::Store)}));
            paths << p;
        }
        QList<PackageHashes> sequential;
        for (const QString &p : std::as_const(paths))
            sequential.append(hashZip(p).value());
        QList<std::optional<Result<PackageHashes>>> parallel(paths.size());
        std::vector<std::thread> threads;
        for (qsizetype i = 0; i < paths.size(); ++i)
            threads.emplace_back([&, i] { parallel[i].emplace(hashZip(paths.at(i))); });
        for (std::thread &t : threads)
            t.join();
        for (qsizetype i = 0; i < paths.size(); ++i) {
            QVERIFY(parallel[i]->ok());
            QCOMPARE(parallel[i]->value().h1Zip, sequential[i].h1Zip);
            QCOMPARE(parallel[i]->value().h1Extracted, sequential[i].h1Extracted);
            QCOMPARE(parallel[i]->value().zh, sequential[i].zh);
        }
    }

    void hashPackageDispatches()
    {
        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeFile(dir + QStringLiteral("/terraform-provider-null"), Placeholder));
        const QString zipPath = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(zipPath, {ZipEntrySpec::file("terraform-provider-null", Placeholder)}));
        const Result<PackageHashes> d = hashPackage(dir);
        const Result<PackageHashes> z = hashPackage(zipPath);
        QVERIFY(d.ok() && z.ok());
        QCOMPARE(d->kind, PackageHashes::Kind::Directory);
        QCOMPARE(z->kind, PackageHashes::Kind::Zip);
        QCOMPARE(d->h1Extracted.toString(), QStringLiteral("h1:qjsREM4DqEWECD43FcPqddZ9oxCG+IaMTxvWPciS05g="));
        QCOMPARE(z->h1Extracted, d->h1Extracted);
        QVERIFY(d->zh.isNull());
        QCOMPARE(hashPackage(m_tmp.filePath(QStringLiteral("absent"))).error().code, ErrorCode::NotFound);
    }

    void progressAndCancel()
    {
        const QByteArray bin = pseudoBinary(6 << 20, 11);
        const QString zipPath = newPath(QStringLiteral(".zip"));
        QVERIFY(provender::test::writeZip(zipPath,
                                          {ZipEntrySpec::file("a", bin), ZipEntrySpec::directory("d/"),
                                           ZipEntrySpec::file("d/b", bin.left(1 << 20), ZipEntrySpec::Store)}));
        const qint64 fileSize = QFileInfo(zipPath).size();
        const qint64 expectedTotal = fileSize + bin.size() + (1 << 20);

        QList<QPair<qint64, qint64>> calls;
        const Result<PackageHashes> z = hashZip(zipPath, [&](qint64 done, qint64 total) {
            calls.append({done, total});
            return true;
        });
        QVERIFY(z.ok());
        QVERIFY(calls.size() >= 3);
        for (qsizetype i = 0; i < calls.size(); ++i) {
            QCOMPARE(calls[i].second, expectedTotal);
            if (i > 0)
                QVERIFY(calls[i].first >= calls[i - 1].first);
        }
        QCOMPARE(calls.last().first, expectedTotal);

        int seen = 0;
        const Result<PackageHashes> cancelled = hashZip(zipPath, [&](qint64, qint64) { return ++seen < 3; });
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().code, ErrorCode::Cancelled);
        QCOMPARE(seen, 3);

        // Directory and zh: the same contract.
        const QString dir = newPath(QStringLiteral(".d"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(writeFile(dir + QStringLiteral("/big"), bin));
        qint64 lastDone = -1;
        qint64 lastTotal = -1;
        QVERIFY(hashDirectory(dir, [&](qint64 done, qint64 total) {
                    lastDone = done;
                    lastTotal = total;
                    return true;
                }).ok());
        QCOMPARE(lastDone, bin.size());
        QCOMPARE(lastTotal, bin.size());
        QCOMPARE(hashDirectory(dir, [](qint64, qint64) { return false; }).error().code, ErrorCode::Cancelled);
        QCOMPARE(hashFileZh(zipPath, [](qint64, qint64) { return false; }).error().code, ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestPackageHashes)
#include "tst_packagehashes.moc"
