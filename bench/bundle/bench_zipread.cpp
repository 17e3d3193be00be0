// provender_bench_zipread ZIP [REPEATS] — reading every entry of a zip bundle to its end (SHA-256
// of each, as verification does) with the two readers we could use: libarchive's seekable zip
// reader and QuaZip (minizip). Prints the best wall time of each. This is the measurement behind
// "one reader for every bundle format: libarchive" (docs/BUNDLES.md).

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QString>

#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>

#include <cstdio>
#include <memory>

namespace {

struct Sha
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    Sha() { EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr); }
    ~Sha() { EVP_MD_CTX_free(ctx); }
    void add(const void *p, size_t n) { EVP_DigestUpdate(ctx, p, n); }
};

qint64 readWithLibarchive(const QString &path)
{
    struct archive *a = archive_read_new();
    archive_read_support_format_zip_seekable(a);
    if (archive_read_open_filename(a, QFile::encodeName(path).constData(), 256 << 10) != ARCHIVE_OK)
        return -1;
    qint64 total = 0;
    struct archive_entry *e = nullptr;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        Sha sha;
        const void *buf = nullptr;
        size_t size = 0;
        la_int64_t offset = 0;
        while (archive_read_data_block(a, &buf, &size, &offset) == ARCHIVE_OK) {
            sha.add(buf, size);
            total += qint64(size);
        }
    }
    archive_read_free(a);
    return total;
}

qint64 readWithQuaZip(const QString &path)
{
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip))
        return -1;
    qint64 total = 0;
    const std::unique_ptr<char[]> buffer(new char[256 << 10]);
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFile f(&zip);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        Sha sha;
        for (;;) {
            const qint64 n = f.read(buffer.get(), 256 << 10);
            if (n <= 0)
                break;
            sha.add(buffer.get(), size_t(n));
            total += n;
        }
    }
    return total;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: provender_bench_zipread ZIP [REPEATS]\n");
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    for (const auto &[name, fn] :
         {std::pair{"libarchive (zip_seekable)", &readWithLibarchive}, std::pair{"QuaZip (minizip)", &readWithQuaZip}}) {
        qint64 best = -1, bytes = 0;
        for (int i = 0; i < repeats; ++i) {
            QElapsedTimer t;
            t.start();
            bytes = fn(path);
            const qint64 ms = t.elapsed();
            if (best < 0 || ms < best)
                best = ms;
        }
        std::printf("%-28s %8.3f s  %8.1f MiB/s  (%lld bytes)\n", name, double(best) / 1000.0,
                    best > 0 ? double(bytes) / 1048576.0 / (double(best) / 1000.0) : 0.0, static_cast<long long>(bytes));
    }
    return 0;
}
