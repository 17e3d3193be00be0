// Helper for bench/hash/run (built on demand, never by CI):
//
//   provender_bench_hash make-zip OUT MIB SEED [PAYLOAD]
//                                                a provider-like zip: one MIB MiB "binary"
//                                                (random and repetitive data, ~2.7x compressible
//                                                like a Go binary, or PAYLOAD repeated) plus
//                                                small text files
//   provender_bench_hash limit JOBS ZIP...       the machine's limit: the least work that gives
//                                                the same hashes (SHA-256 of the file bytes, and
//                                                of every entry inflated), with the same
//                                                libraries (ISA-L or zlib, OpenSSL), one thread
//                                                per archive, JOBS archives at once, from mmap
//   provender_bench_hash measure OUT.json -- CMD...
//                                                runs CMD, writes wall/user/sys seconds and the
//                                                child's peak RSS (wait4 rusage) as JSON

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QString>

#include <openssl/evp.h>
#include <zlib.h>
#ifdef PROVENDER_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// ---- make-zip -------------------------------------------------------------------------------

// Go binaries compress ~2.5-3.5x: machine code and tables (partly compressible) and long runs of
// strings and symbol names (very compressible). This mixes incompressible bytes with tokens
// from a skewed vocabulary; ratio ~2.7x with zlib level 6.
int RandomPercent = 20; // tuned: ~2.7x with zlib level 6
int VocabularySize = 1024;

QByteArray providerLikeData(qint64 size, quint32 seed)
{
    std::mt19937_64 rng(seed);
    std::vector<std::string> vocabulary;
    for (int i = 0; i < VocabularySize; ++i) {
        std::string w;
        const int len = 3 + int(rng() % 22);
        for (int k = 0; k < len; ++k)
            w.push_back(char((rng() % 8 == 0) ? (rng() % 256) : ("abcdefghijklmnopqrstuvwxyz_./"[rng() % 29])));
        vocabulary.push_back(std::move(w));
    }
    QByteArray out;
    out.reserve(size);
    while (out.size() < size) {
        const unsigned kind = unsigned(rng() % 100);
        if (int(kind) < RandomPercent) { // incompressible run
            const int len = 16 + int(rng() % 240);
            for (int k = 0; k < len; k += 8) {
                const quint64 r = rng();
                out.append(reinterpret_cast<const char *>(&r), 8);
            }
        } else { // a run of skewed tokens
            const int count = 4 + int(rng() % 40);
            for (int k = 0; k < count; ++k) {
                const double u = std::generate_canonical<double, 32>(rng);
                const std::size_t idx = std::size_t(u * u * u * double(vocabulary.size()));
                out.append(vocabulary[idx].data(), qsizetype(vocabulary[idx].size()));
            }
        }
    }
    out.truncate(size);
    return out;
}

// A real binary (e.g. terraform itself, a Go program) repeated up to `size`; the seed is
// written at the start so every platform's archive differs.
QByteArray fromPayload(const char *path, qint64 size, quint32 seed)
{
    QFile f(QString::fromLocal8Bit(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray one = f.readAll();
    if (one.isEmpty())
        return {};
    QByteArray out;
    out.reserve(size);
    while (out.size() < size)
        out += one.left(size - out.size());
    std::memcpy(out.data(), &seed, sizeof seed);
    return out;
}

int makeZip(const char *out, qint64 mib, quint32 seed, const char *payload)
{
    QuaZip zip(QString::fromLocal8Bit(out));
    zip.setOsCode(3);
    if (!zip.open(QuaZip::mdCreate)) {
        std::fprintf(stderr, "cannot create %s\n", out);
        return 1;
    }
    const auto add = [&](const QString &name, const QByteArray &data, quint32 mode) {
        QuaZipNewInfo info(name);
        info.dateTime = QDateTime(QDate(2024, 1, 2), QTime(3, 4, 6));
        info.externalAttr = mode << 16;
        QuaZipFile f(&zip);
        if (!f.open(QIODevice::WriteOnly, info, nullptr, 0, Z_DEFLATED, 6))
            return false;
        for (qsizetype at = 0; at < data.size(); at += 1 << 20) {
            if (f.write(data.constData() + at, qMin<qsizetype>(1 << 20, data.size() - at)) < 0)
                return false;
        }
        f.close();
        return f.getZipError() == 0;
    };
    const QByteArray binary = payload ? fromPayload(payload, mib << 20, seed) : providerLikeData(mib << 20, seed);
    if (binary.isEmpty()) {
        std::fprintf(stderr, "cannot read %s\n", payload);
        return 1;
    }
    bool ok = add(QStringLiteral("terraform-provider-big_v1.0.0"), binary, 0100755);
    ok = ok && add(QStringLiteral("LICENSE.txt"), QByteArray("Mozilla Public License Version 2.0\n").repeated(400), 0100644);
    ok = ok && add(QStringLiteral("README.md"), QByteArray("# terraform-provider-big\n\nA benchmark payload.\n"), 0100644);
    ok = ok && add(QStringLiteral("CHANGELOG.md"), providerLikeData(200000, seed + 1), 0100644);
    zip.close();
    if (!ok || zip.getZipError() != 0) {
        std::fprintf(stderr, "cannot write %s\n", out);
        return 1;
    }
    return 0;
}

// ---- limit ----------------------------------------------------------------------------------

quint32 le16(const unsigned char *p)
{
    return quint32(p[0]) | (quint32(p[1]) << 8);
}
quint32 le32(const unsigned char *p)
{
    return le16(p) | (le16(p + 2) << 16);
}

struct Digest
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    const EVP_MD *md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    void init() { EVP_DigestInit_ex(ctx, md, nullptr); }
    void add(const void *p, std::size_t n) { EVP_DigestUpdate(ctx, p, n); }
    void done()
    {
        unsigned char d[32];
        unsigned int l = 0;
        EVP_DigestFinal_ex(ctx, d, &l);
    }
};

// Hashes one archive; returns uncompressed bytes, or -1 on a format it does not handle.
qint64 limitOne(const char *path)
{
    const int fd = ::open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0)
        return -1;
    const std::size_t size = std::size_t(st.st_size);
    auto *base = static_cast<unsigned char *>(::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0));
    ::close(fd);
    if (base == MAP_FAILED)
        return -1;
    ::madvise(base, size, MADV_SEQUENTIAL);
    Digest sha;
    const std::size_t chunk = std::size_t(256) << 10;
    sha.init(); // zh: the whole file
    for (std::size_t at = 0; at < size; at += chunk)
        sha.add(base + at, std::min(chunk, size - at));
    sha.done();

    std::size_t eocd = size >= 22 ? size - 22 : 0;
    while (eocd > 0 && le32(base + eocd) != 0x06054b50)
        --eocd;
    const quint32 count = le16(base + eocd + 10);
    std::size_t cd = le32(base + eocd + 16);
    std::vector<unsigned char> out(chunk);
    qint64 total = 0;
#ifdef PROVENDER_HAVE_ISAL
    auto *state = new inflate_state;
#endif
    for (quint32 i = 0; i < count; ++i) {
        const unsigned char *c = base + cd;
        const quint32 method = le16(c + 10);
        const quint32 csize = le32(c + 20);
        const quint32 local = le32(c + 42);
        cd += 46 + le16(c + 28) + le16(c + 30) + le16(c + 32);
        const unsigned char *l = base + local;
        const unsigned char *data = l + 30 + le16(l + 26) + le16(l + 28);
        sha.init();
        if (method == 0) {
            sha.add(data, csize);
            total += csize;
        } else {
#ifdef PROVENDER_HAVE_ISAL
            isal_inflate_init(state);
            state->crc_flag = ISAL_GZIP_NO_HDR;
            state->next_in = const_cast<unsigned char *>(data);
            state->avail_in = csize;
            while (state->block_state != ISAL_BLOCK_FINISH) {
                state->next_out = out.data();
                state->avail_out = quint32(chunk);
                if (isal_inflate(state) < 0)
                    return -1;
                const std::size_t n = chunk - state->avail_out;
                if (n == 0 && state->avail_in == 0 && state->block_state != ISAL_BLOCK_FINISH)
                    return -1;
                sha.add(out.data(), n);
                total += qint64(n);
            }
#else
            z_stream z;
            std::memset(&z, 0, sizeof z);
            inflateInit2(&z, -MAX_WBITS);
            z.next_in = const_cast<unsigned char *>(data);
            z.avail_in = csize;
            int rc = Z_OK;
            uLong crc = 0;
            while (rc != Z_STREAM_END) {
                z.next_out = out.data();
                z.avail_out = uInt(chunk);
                rc = inflate(&z, Z_NO_FLUSH);
                if (rc != Z_OK && rc != Z_STREAM_END)
                    return -1;
                const std::size_t n = chunk - z.avail_out;
                crc = crc32(crc, out.data(), uInt(n));
                sha.add(out.data(), n);
                total += qint64(n);
            }
            inflateEnd(&z);
#endif
        }
        sha.done();
    }
#ifdef PROVENDER_HAVE_ISAL
    delete state;
#endif
    ::munmap(base, size);
    return total;
}

int limit(int jobs, const std::vector<const char *> &zips)
{
    const auto start = std::chrono::steady_clock::now();
    std::atomic<std::size_t> next{0};
    std::atomic<qint64> bytes{0};
    std::atomic<bool> failed{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < jobs; ++t) {
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < zips.size(); i = next++) {
                const qint64 n = limitOne(zips[i]);
                if (n < 0)
                    failed = true;
                else
                    bytes += n;
            }
        });
    }
    for (std::thread &t : threads)
        t.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (failed) {
        std::fprintf(stderr, "limit: an archive could not be read\n");
        return 1;
    }
    struct rusage ru;
    ::getrusage(RUSAGE_SELF, &ru);
    const double cpu = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    std::printf("{\"seconds\": %.4f, \"cpu\": %.4f, \"bytes\": %lld}\n", secs, cpu, (long long)bytes.load());
    return 0;
}

// ---- measure --------------------------------------------------------------------------------

int measure(const char *outPath, char **argv)
{
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::execvp(argv[0], argv);
        std::perror("exec");
        ::_exit(127);
    }
    int status = 0;
    struct rusage ru;
    if (pid < 0 || ::wait4(pid, &status, 0, &ru) != pid)
        return 1;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double user = double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) / 1e6;
    const double sys = double(ru.ru_stime.tv_sec) + double(ru.ru_stime.tv_usec) / 1e6;
    FILE *f = std::fopen(outPath, "w");
    if (!f)
        return 1;
    std::fprintf(f, "{\"wall\": %.4f, \"user\": %.4f, \"sys\": %.4f, \"maxrss_kib\": %ld, \"exit\": %d}\n", wall, user, sys, ru.ru_maxrss,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    std::fclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (const char *pct = std::getenv("BENCH_RANDOM_PERCENT"))
        RandomPercent = std::atoi(pct);
    if (const char *v = std::getenv("BENCH_VOCABULARY"))
        VocabularySize = std::atoi(v);
    if (cmd == "make-zip" && (argc == 5 || argc == 6))
        return makeZip(argv[2], std::atoll(argv[3]), quint32(std::atoll(argv[4])), argc == 6 ? argv[5] : nullptr);
    if (cmd == "limit" && argc >= 4)
        return limit(std::atoi(argv[2]), std::vector<const char *>(argv + 3, argv + argc));
    if (cmd == "measure" && argc >= 5 && std::strcmp(argv[3], "--") == 0)
        return measure(argv[2], argv + 4);
    std::fprintf(stderr, "usage: provender_bench_hash make-zip OUT MIB SEED [PAYLOAD] | limit JOBS ZIP... | measure OUT.json -- CMD...\n");
    return 2;
}
