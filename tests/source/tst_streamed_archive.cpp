// StreamedArchive (model/source): the bytes written while they arrive are the file's bytes, on a
// file system that takes O_DIRECT (the build tree) and on one that refuses it (tmpfs), whatever
// the block sizes; its SHA-256 and h1: are those Python's hashlib/zipfile compute (dirhash's rule
// written out here, not Provender's code), for a zip the stream walk hashes and for one it hands
// to hashZip (data descriptors on stored entries); a failure to write stops the writer, and bytes
// reach the disk before the stream ends.

#include "model/source/StreamedArchive.h"
#include "tests/support/TestSupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <memory>

using namespace Qt::StringLiterals;
using provender::StreamedArchive;

namespace {

/// Python: a zip of `entries` files (deflated, or stored and written to a pipe so that every
/// entry has a data descriptor) and its zh:/h1: by hashlib and dirhash's rule.
const char *kMakeZip = R"PY(
import base64, hashlib, io, json, random, sys, zipfile
out, mode, entries = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(7)
files = [("bin/terraform-provider-x_v1.0.%d" % i, rng.randbytes(300000 + 4099 * i) + b"text " * 20000) for i in range(entries)]
class Pipe(io.RawIOBase):
    def __init__(self): self.buf = bytearray()
    def writable(self): return True
    def write(self, b): self.buf += b; return len(b)
sink = Pipe() if mode == "stored-pipe" else io.BytesIO()
method = zipfile.ZIP_STORED if mode == "stored-pipe" else zipfile.ZIP_DEFLATED
with zipfile.ZipFile(sink, "w", method) as z:
    for name, data in files:
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 6))
        info.compress_type = method
        with z.open(info, "w") as f:  # to a pipe: sizes and CRC in a data descriptor after the data
            f.write(data)
data = bytes(sink.buf) if mode == "stored-pipe" else sink.getvalue()
if mode == "prefixed":  # bytes before the first local header (a self-extractor's stub)
    data = b"#!stub\n" * 100 + data
open(out, "wb").write(data)
lines = sorted((name.encode(), hashlib.sha256(content).hexdigest()) for name, content in files)
summary = hashlib.sha256("".join("%s  %s\n" % (d, n.decode()) for n, d in lines).encode()).digest()
print(json.dumps({"zh": hashlib.sha256(data).hexdigest(), "h1": "h1:" + base64.b64encode(summary).decode()}))
)PY";

/// Gives `bytes` to the writer in blocks of the sizes `pattern` cycles through.
bool feed(StreamedArchive &w, const QByteArray &bytes, const QList<qint64> &pattern)
{
    qint64 at = 0;
    for (qsizetype i = 0; at < bytes.size(); ++i) {
        const qint64 n = std::min<qint64>(pattern.at(i % pattern.size()), bytes.size() - at);
        if (!w.write(bytes.constData() + at, n))
            return false;
        at += n;
    }
    return true;
}

} // namespace

class TestStreamedArchive : public QObject
{
    Q_OBJECT

    QString m_shm; ///< a tmpfs directory (refuses O_DIRECT), "" when there is none

    /// A temporary directory in the build tree (a disk file system) or on tmpfs.
    std::unique_ptr<QTemporaryDir> makeDir(const QString &where) const
    {
        return std::make_unique<QTemporaryDir>((where == u"tmpfs"_s ? m_shm : QDir::currentPath()) + u"/streamed-XXXXXX"_s);
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QFileInfo(u"/dev/shm"_s).isDir() && QFileInfo(u"/dev/shm"_s).isWritable())
            m_shm = u"/dev/shm"_s;
    }

    void bytesAndSha256_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<qint64>("size");
        QTest::addColumn<QList<qint64>>("blocks");
        for (const QString &where : {u"build tree"_s, u"tmpfs"_s})
            for (const qint64 size : {qint64(0), qint64(1), qint64(4095), qint64(4096), qint64(4097), qint64(1) << 20,
                                      (qint64(1) << 20) + 1, qint64(3) * 1048576 + 123})
                for (const auto &[name, blocks] :
                     {std::pair{"64k", QList<qint64>{65536}}, std::pair{"odd", QList<qint64>{1, 4095, 7, 100000, 3}}})
                    QTest::addRow("%s %lld %s", qPrintable(where), size, name) << where << size << blocks;
    }

    void bytesAndSha256()
    {
        QFETCH(QString, where);
        QFETCH(qint64, size);
        QFETCH(QList<qint64>, blocks);
        if (where == u"tmpfs"_s && m_shm.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Platform, u"no writable /dev/shm (tmpfs) here"_s);
        const std::unique_ptr<QTemporaryDir> tmp = makeDir(where);
        QVERIFY(tmp->isValid());
        const QString dir = tmp->path();
        QByteArray bytes(size, Qt::Uninitialized);
        QRandomGenerator gen{quint32(size)};
        for (char &c : bytes)
            c = char(gen.generate());
        const QString path = dir + u"/a.bin"_s;
        StreamedArchive::Options options;
        options.durable = true;
        StreamedArchive w(path, options);
        QVERIFY(feed(w, bytes, blocks));
        const StreamedArchive::Outcome o = w.finish();
        QVERIFY2(o.written.ok(), qPrintable(o.written.ok() ? QString() : o.written.error().message));
        QCOMPARE(provender::test::readFile(path), bytes);
        QCOMPARE(o.size, size);
        QCOMPARE(o.sha256, QCryptographicHash::hash(bytes, QCryptographicHash::Sha256));
        QVERIFY(!o.hashes.ok()); // not a zip: the error hashZip gives
        QVERIFY(w.writeError().isEmpty());
    }

    void zipHashes_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("mode");
        for (const QString &where : {u"build tree"_s, u"tmpfs"_s}) {
            QTest::addRow("%s deflated (hashed by the stream walk)", qPrintable(where)) << where << u"deflated"_s;
            QTest::addRow("%s stored with data descriptors", qPrintable(where)) << where << u"stored-pipe"_s;
            QTest::addRow("%s a stub before the zip (hashed from the file)", qPrintable(where)) << where << u"prefixed"_s;
        }
    }

    void zipHashes()
    {
        QFETCH(QString, where);
        QFETCH(QString, mode);
        if (where == u"tmpfs"_s && m_shm.isEmpty())
            PROVENDER_SKIP(provender::test::Missing::Platform, u"no writable /dev/shm (tmpfs) here"_s);
        const std::unique_ptr<QTemporaryDir> tmp = makeDir(where);
        QVERIFY(tmp->isValid());
        const QString dir = tmp->path();
        const QString source = dir + u"/source.zip"_s;
        QString error;
        const QByteArray made = provender::test::runPythonCode(QString::fromUtf8(kMakeZip), {source, mode, u"3"_s}, &error);
        if (made.isNull())
            QFAIL(qPrintable(u"the Python zip generator failed: "_s + error));
        const QJsonObject expected = QJsonDocument::fromJson(made).object();
        const QByteArray bytes = provender::test::readFile(source);
        QVERIFY(!bytes.isEmpty());

        const QString path = dir + u"/streamed.zip"_s;
        StreamedArchive w(path);
        QVERIFY(feed(w, bytes, {65536, 17}));
        const StreamedArchive::Outcome o = w.finish();
        QVERIFY2(o.written.ok(), qPrintable(o.written.ok() ? QString() : o.written.error().message));
        QCOMPARE(provender::test::readFile(path), bytes);
        QCOMPARE(QString::fromLatin1(o.sha256.toHex()), expected.value(u"zh"_s).toString());
        QVERIFY2(o.hashes.ok(), qPrintable(o.hashes.ok() ? QString() : o.hashes.error().message));
        QCOMPARE(o.hashes.value().h1Zip.toString(), expected.value(u"h1"_s).toString());
        QCOMPARE(o.hashes.value().h1Extracted.toString(), expected.value(u"h1"_s).toString());
        QCOMPARE(o.hashes.value().zh.toString(), u"zh:"_s + expected.value(u"zh"_s).toString());
    }

    void unwritableFileStopsTheWriter()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(u"no-such-dir/a.zip"_s);
        StreamedArchive w(path);
        const QByteArray block(65536, 'x');
        bool accepted = true;
        for (int i = 0; i < 1000 && accepted; ++i) // the worker notices at once; the producer within a few blocks
            accepted = w.write(block.constData(), block.size());
        QVERIFY(!accepted);
        QVERIFY2(w.writeError().contains(path), qPrintable(w.writeError()));
        const StreamedArchive::Outcome o = w.finish();
        QVERIFY(!o.written.ok());
        QVERIFY(o.written.error().message.contains(path));
        QVERIFY(!w.write(block.constData(), 1)); // finished: nothing more is taken
    }

    void bytesReachTheDiskBeforeTheEnd()
    {
        // A slow download: what has arrived is on disk while the rest is awaited (a killed pull
        // shows a partial staging file, never a final one).
        QTemporaryDir tmp(QDir::currentPath() + u"/streamed-XXXXXX"_s);
        const QString path = tmp.filePath(u"slow.zip"_s);
        StreamedArchive w(path);
        const QByteArray block(5000, 'y');
        QVERIFY(w.write(block.constData(), block.size()));
        QVERIFY(QTest::qWaitFor([&] { return QFileInfo(path).size() >= 4096; }, 60000));
        w.abandon();
        QVERIFY(QFileInfo::exists(path)); // left to the caller
        QVERIFY(QFileInfo(path).size() <= block.size());
    }

    // A pulled mirror is served to others (nginx, a CI runner): the umask decides the mode, as for
    // any file Qt creates and as terraform's mirror writes them (0644 under umask 022). Found by
    // review: the files were created 0600.
    void fileModeFollowsTheUmask()
    {
        const mode_t old = ::umask(022);
        QTemporaryDir tmp(QDir::currentPath() + u"/streamed-XXXXXX"_s);
        const QString path = tmp.filePath(u"mode.zip"_s);
        {
            StreamedArchive w(path);
            QVERIFY(w.write("x", 1));
            QVERIFY(w.finish().written.ok());
        }
        struct stat st = {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        ::umask(old);
        QCOMPARE(st.st_mode & 0777, mode_t(0644));
    }
};

QTEST_GUILESS_MAIN(TestStreamedArchive)
#include "tst_streamed_archive.moc"
