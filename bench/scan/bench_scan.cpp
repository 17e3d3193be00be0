// provender_bench_scan: builds a synthetic packed filesystem mirror and times scanFileSystemMirror
// on it (no hashing). Run through bench/scan/run; never part of CI.
//
//   provender_bench_scan generate DIR ARCHIVES [--with-indexes]
//       HOST/acme/pNNN/terraform-provider-pNNN_V_OS_ARCH.zip, 10 platforms per version, 100
//       versions per provider, as many providers as needed; every file is the same 22-byte empty
//       zip. --with-indexes also writes index.json and <version>.json (as `provender index`
//       would, with made-up hashes), so the scan also reads and checks ~ARCHIVES/10 JSON files.
//   provender_bench_scan scan DIR [REPEAT] [--threads N]
//       scans REPEAT times (default 3; with N scan threads, default: one per core) and prints one line of JSON: archives, providers,
//       anomalies, wall and CPU (user + system) seconds of every run, RSS before the first scan
//       and peak RSS (KiB). The catalog of each run is freed before the next.
//   provender_bench_scan dump DIR
//       prints every field of the scanned Catalog (tests/mirror/CatalogDump.h), to compare the
//       output of two builds of the scanner byte for byte.

#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/IndexWriter.h"
#include "tests/mirror/CatalogDump.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace provender;

namespace {

const char kEmptyZip[22] = {'P', 'K', 5, 6}; // end-of-central-directory record of an empty zip

long peakRssKiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

double cpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

long currentRssKiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.size() > 1 ? fields.at(1).toLong() * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

int generate(const QString &root, int archives, bool withIndexes)
{
    static const QStringList platforms{
        QStringLiteral("darwin_amd64"),  QStringLiteral("darwin_arm64"),  QStringLiteral("freebsd_amd64"), QStringLiteral("linux_386"),
        QStringLiteral("linux_amd64"),   QStringLiteral("linux_arm"),     QStringLiteral("linux_arm64"),   QStringLiteral("windows_386"),
        QStringLiteral("windows_amd64"), QStringLiteral("windows_arm64"),
    };
    const QByteArray zip(kEmptyZip, sizeof kEmptyZip);
    int written = 0;
    for (int p = 0; written < archives; ++p) {
        const QString type = QStringLiteral("p%1").arg(p, 4, 10, QLatin1Char('0'));
        const QString host = p % 2 == 0 ? QStringLiteral("registry.terraform.io") : QStringLiteral("mirror.example.internal");
        const QString dir = QStringLiteral("%1/%2/acme/%3").arg(root, host, type);
        if (!QDir().mkpath(dir))
            return 2;
        QStringList versions;
        for (int v = 0; v < 100 && written < archives; ++v) {
            const QString version = QStringLiteral("%1.%2.%3").arg(v / 10).arg(v % 10).arg(p % 7);
            versions.append(version);
            QList<IndexArchiveRecord> records;
            for (const QString &platform : platforms) {
                if (written >= archives)
                    break;
                const QString name = QStringLiteral("terraform-provider-%1_%2_%3.zip").arg(type, version, platform);
                if (!writeFile(dir + QLatin1Char('/') + name, zip))
                    return 2;
                records.append({platform, name, {QStringLiteral("h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")}});
                ++written;
            }
            if (withIndexes && !writeFile(dir + QLatin1Char('/') + version + QStringLiteral(".json"), renderVersionJson(records)))
                return 2;
        }
        if (withIndexes && !writeFile(dir + QStringLiteral("/index.json"), renderIndexJson(versions)))
            return 2;
    }
    QTextStream(stdout) << "generated " << written << " archives under " << root << '\n';
    return 0;
}

int scan(const QString &root, int repeat, int threads)
{
    const long before = currentRssKiB();
    QJsonArray seconds;
    QJsonArray cpu;
    qsizetype archives = 0, providers = 0, anomalies = 0;
    for (int i = 0; i < repeat; ++i) {
        QElapsedTimer t;
        const double cpuBefore = cpuSeconds();
        t.start();
        Result<Catalog> c = scanFileSystemMirror(root, ScanOptions{threads});
        const double s = double(t.nsecsElapsed()) / 1e9;
        cpu.append(cpuSeconds() - cpuBefore);
        if (!c) {
            QTextStream(stderr) << c.error().toString() << '\n';
            return 2;
        }
        seconds.append(s);
        if (qEnvironmentVariableIsSet("BENCH_SCAN_MALLINFO")) {
            const struct mallinfo2 mi = mallinfo2();
            std::fprintf(stderr, "main arena in use after scan %d: %zu KiB (arena %zu KiB, mmapped %zu KiB)\n", i,
                         (mi.uordblks + mi.hblkhd) / 1024, mi.arena / 1024, mi.hblkhd / 1024);
        }
        archives = c->archiveCount();
        providers = c->providers.size();
        anomalies = c->anomalies.size();
    }
    QJsonObject o;
    o[QStringLiteral("archives")] = double(archives);
    o[QStringLiteral("providers")] = double(providers);
    o[QStringLiteral("anomalies")] = double(anomalies);
    o[QStringLiteral("seconds")] = seconds;
    o[QStringLiteral("cpu_seconds")] = cpu;
    o[QStringLiteral("rss_before_kib")] = double(before);
    o[QStringLiteral("peak_rss_kib")] = double(peakRssKiB());
    QTextStream(stdout) << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() >= 4 && args.at(1) == QLatin1StringView("generate"))
        return generate(args.at(2), args.at(3).toInt(), args.contains(QStringLiteral("--with-indexes")));
    if (args.size() >= 3 && args.at(1) == QLatin1StringView("dump")) {
        Result<Catalog> c = scanFileSystemMirror(args.at(2));
        if (!c) {
            QTextStream(stderr) << c.error().toString() << '\n';
            return 2;
        }
        QTextStream(stdout) << provender::test::dumpCatalog(c.value());
        return 0;
    }
    if (args.size() >= 3 && args.at(1) == QLatin1StringView("scan")) {
        const qsizetype t = args.indexOf(QStringLiteral("--threads"));
        const int threads = t > 0 && t + 1 < args.size() ? args.at(t + 1).toInt() : 0;
        return scan(args.at(2), args.size() >= 4 && t != 3 ? std::max(1, args.at(3).toInt()) : 3, threads);
    }
    std::fprintf(stderr,
                 "usage: provender_bench_scan generate DIR ARCHIVES [--with-indexes] | scan DIR [REPEAT] [--threads N] | dump DIR\n");
    return 2;
}
