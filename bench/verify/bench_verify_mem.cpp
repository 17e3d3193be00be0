// bench/verify memory: peak memory of one asynchronous VerifyEngine run over a scanned mirror, as
// the GUI does it (batches delivered to the thread the engine lives on), optionally with a slow
// consumer to show that the engine does not run ahead of it. On demand, never in CI.
//
//   provender_bench_verify_mem DIR [--slow-ms N] [--jobs N] [--no-cache]
//
// Prints one JSON object: archives, results delivered, batches, summary counts, the peak RSS after
// the scan and at the end (VmHWM), and the most batches seen queued-but-unapplied by the consumer.
// The hash cache is QStandardPaths' (set XDG_CACHE_HOME to choose a cold or warm one).

#include "model/mirror/FileSystemMirror.h"
#include "model/verify/VerifyEngine.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>

#include <cstdio>

using namespace provender;

namespace {

double statusMib(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    if (args.isEmpty()) {
        std::fprintf(stderr, "usage: provender_bench_verify_mem DIR [--slow-ms N] [--jobs N] [--no-cache]\n");
        return 2;
    }
    const QString dir = args.takeFirst();
    int slowMs = 0;
    VerifyOptions options;
    while (!args.isEmpty()) {
        const QString a = args.takeFirst();
        if (a == u"--slow-ms" && !args.isEmpty())
            slowMs = args.takeFirst().toInt();
        else if (a == u"--jobs" && !args.isEmpty())
            options.jobs = args.takeFirst().toInt();
        else if (a == u"--no-cache")
            options.useCache = false;
        else {
            std::fprintf(stderr, "unknown argument: %s\n", qPrintable(a));
            return 2;
        }
    }

    QElapsedTimer clock;
    clock.start();
    Result<Catalog> scanned = scanFileSystemMirror(dir);
    if (!scanned.ok()) {
        std::fprintf(stderr, "scan failed: %s\n", qPrintable(scanned.error().message));
        return 2;
    }
    const Catalog catalog = std::move(scanned).value();
    const double scanSeconds = clock.restart() / 1000.0;
    const double hwmAfterScan = statusMib("VmHWM");
    const double rssAfterScan = statusMib("VmRSS");

    VerifyEngine engine;
    qint64 delivered = 0;
    int batches = 0;
    int maxInFlight = 0;
    VerifySummary summary;
    QObject::connect(&engine, &VerifyEngine::archivesVerified, &app, [&](const QList<ArchiveResult> &list) {
        delivered += list.size();
        ++batches;
        maxInFlight = std::max(maxInFlight, engine.batchesInFlight());
        if (slowMs > 0)
            QThread::msleep(slowMs);
    });
    QObject::connect(&engine, &VerifyEngine::finished, &app, [&](const VerifySummary &s) {
        summary = s;
        app.quit();
    });
    engine.start(catalog, options);
    app.exec();
    const double verifySeconds = clock.elapsed() / 1000.0;

    std::printf("{\"archives\": %d, \"delivered\": %lld, \"batches\": %d, \"verified\": %d, \"missing\": %d, "
                "\"error\": %d, \"hashed\": %d, \"cache_hits\": %d, \"slow_ms\": %d, \"max_batches_in_flight\": %d, "
                "\"scan_s\": %.2f, \"verify_s\": %.2f, \"rss_after_scan_mib\": %.1f, \"peak_rss_after_scan_mib\": %.1f, "
                "\"peak_rss_mib\": %.1f}\n",
                summary.archives, static_cast<long long>(delivered), batches, summary.count(Verdict::Verified),
                summary.count(Verdict::Missing), summary.count(Verdict::Error), summary.hashed, summary.cacheHits, slowMs, maxInFlight,
                scanSeconds, verifySeconds, rssAfterScan, hwmAfterScan, statusMib("VmHWM"));
    return 0;
}
