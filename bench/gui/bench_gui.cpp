// bench/gui: the mirror browser on a large mirror (on demand, never in CI; see bench/gui/run).
//
//   provender_bench_gui DIR     opens DIR in ui::MainWindow (the real scan, tree model, proxy,
//                               view, delegate and VerifyEngine) and prints one JSON object:
//   provender_bench_gui URL CA  the same for a network mirror at URL (https, trusting the PEM CA;
//                               providers found in its autoindex listing): listing = the index
//                               documents, verifying = downloading and hashing every archive
//
//   first_paint_s      openMirror() -> the tree's viewport has painted rows of the new mirror
//   scan_to_shown_s    openMirror() -> mirrorOpened (scan off the GUI thread + building the tree)
//   verify_s           mirrorOpened -> verificationFinished (hashing every archive)
//   stall_open_ms      longest GUI-thread stall from openMirror() until the tree is shown and the
//                      verification started (building the tree of 100,000 rows is one such stall)
//   stall_stream_ms    longest GUI-thread stall while verdicts stream in (mirrorOpened -> finished)
//   filter_*_ms        setting a filter (text, hash prefix, verdict, platform) until it is painted
//   peak_rss_mib       VmHWM of the process
//
// Stalls are measured as the lateness of a 5 ms QTimer on the GUI thread (how much later than
// due it fired), so they include everything the event loop did in between.

#include "model/items/ArchiveFilterProxyModel.h"
#include "model/items/MirrorTreeModel.h"
#include "model/mirror/FileSystemMirror.h"
#include "model/network/RemoteSession.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QLineEdit>
#include <QPaintEvent>
#include <QTimer>
#include <QTreeView>

#include <cstdio>

#include <sys/resource.h>

using namespace provender;

namespace {

double peakRssMib()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return -1;
}

/// User + system CPU time of the whole process so far (every thread).
double cpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

class PaintWatch : public QObject
{
public:
    bool armed = false;
    bool painted = false;
    qint64 at = 0;
    QElapsedTimer *clock = nullptr;

protected:
    bool eventFilter(QObject *, QEvent *e) override
    {
        if (armed && !painted && e->type() == QEvent::Paint) {
            painted = true;
            // Stamp when the paint is done (the next turn of the event loop).
            QTimer::singleShot(0, this, [this] { at = clock->nsecsElapsed(); });
        }
        return false;
    }
};

/// Runs the event loop until `done` or the timeout. It sleeps between events like a real event
/// loop (a 10 ms timer wakes it to check `done`): a loop calling processEvents() without waiting
/// would keep one of the machine's cores busy and slow down the scan and hashing threads it measures.
void spinUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QTimer wake;
    wake.start(10);
    while (!done() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Provender"));
    QCoreApplication::setApplicationName(QStringLiteral("provender-bench-gui"));
    if (argc < 2) {
        std::fprintf(stderr, "usage: provender_bench_gui MIRROR_DIR | provender_bench_gui URL CA_FILE\n");
        return 2;
    }
    const QString dir = QString::fromLocal8Bit(argv[1]);
    const bool url = dir.startsWith(QLatin1StringView("https://"));
    if (url && argc < 3) {
        std::fprintf(stderr, "usage: provender_bench_gui URL CA_FILE\n");
        return 2;
    }

    // For profiling the pieces of "first paint" apart (perf record): PROVENDER_BENCH_BUILD_TREE=N
    // scans DIR once, builds the browser's tree from it N times and prints each phase's time.
    if (const int n = qEnvironmentVariableIntValue("PROVENDER_BENCH_BUILD_TREE"); n > 0) {
        QElapsedTimer t;
        t.start();
        const Result<Catalog> catalog = scanFileSystemMirror(dir);
        if (!catalog) {
            std::fprintf(stderr, "%s\n", qPrintable(catalog.error().message));
            return 1;
        }
        std::fprintf(stderr, "scan %.1f ms (CPU %.1f ms)\n", double(t.nsecsElapsed()) / 1e6, cpuMs());
        for (int i = 0; i < n; ++i) {
            t.restart();
            const double cpu0 = cpuMs();
            MirrorTreeModel::Tree tree = MirrorTreeModel::buildTree(catalog.value());
            const double built = double(t.nsecsElapsed()) / 1e6;
            const double cpu = cpuMs() - cpu0;
            MirrorTreeModel model;
            model.setTree(tree);
            tree = {};
            const double adopted = double(t.nsecsElapsed()) / 1e6;
            std::fprintf(stderr, "buildTree %.1f ms (CPU %.1f ms), setTree %.1f ms, %d archives\n", built, cpu, adopted - built,
                         model.archiveCount());
        }
        return 0;
    }

    ui::MainWindow w;
    w.resize(1280, 800);
    w.show();
    spinUntil([] { return false; }, 300); // settle the empty window

    auto *view = w.findChild<QTreeView *>(QStringLiteral("archiveView"));
    auto *filter = w.findChild<QLineEdit *>(QStringLiteral("filterEdit"));
    auto *verdicts = w.findChild<QComboBox *>(QStringLiteral("verdictFilter"));
    auto *platforms = w.findChild<QComboBox *>(QStringLiteral("platformFilter"));

    QElapsedTimer clock;
    PaintWatch paint;
    paint.clock = &clock;
    view->viewport()->installEventFilter(&paint);

    // The tick right after mirrorOpened still belongs to opening: showing the catalog (building
    // the tree) and starting the engine run in the same turn of the event loop.
    enum Phase { Opening, Shown, Streaming, Done } phase = Opening;
    qint64 last = 0, stallOpen = 0, stallStream = 0, shownAt = 0, finishedAt = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const qint64 late = now - last - 5'000'000;
        last = now;
        if (phase == Opening || phase == Shown)
            stallOpen = std::max(stallOpen, late);
        if (phase == Shown)
            phase = Streaming;
        else if (phase == Streaming)
            stallStream = std::max(stallStream, late);
    });
    QObject::connect(&w, &ui::MainWindow::mirrorOpened, [&] {
        shownAt = clock.nsecsElapsed();
        phase = Shown;
        paint.armed = true;
    });
    bool finished = false;
    VerifySummary summary;
    QObject::connect(&w, &ui::MainWindow::verificationFinished, [&](const VerifySummary &s) {
        finishedAt = clock.nsecsElapsed();
        phase = Done;
        finished = true;
        summary = s;
    });
    bool failed = false;
    QObject::connect(&w, &ui::MainWindow::openFailed, [&] { failed = true; });

    clock.start();
    last = 0;
    probe.start();
    if (url) {
        RemoteRequest request;
        request.baseUrl = dir;
        request.source = RemoteRequest::ProviderSource::Autoindex;
        request.caFile = QString::fromLocal8Bit(argv[2]);
        request.useCredentials = false;
        w.openUrl(request);
    } else {
        w.openMirror(dir);
    }
    spinUntil([&] { return finished || failed; }, 30 * 60 * 1000);
    probe.stop();
    if (failed || !finished) {
        std::fprintf(stderr, "opening %s failed or timed out\n", qPrintable(dir));
        return 1;
    }
    spinUntil([&] { return paint.at > 0; }, 5000);

    auto timed = [&](const std::function<void()> &apply) {
        QElapsedTimer t;
        t.start();
        apply();
        view->viewport()->repaint(); // the filtered tree on screen
        QCoreApplication::processEvents();
        return double(t.nsecsElapsed()) / 1e6;
    };
    // For profiling the filter (perf record): PROVENDER_BENCH_FILTER_REPEAT=N sets and clears the
    // verdict and text filters N times before the measured runs.
    if (auto *proxy = qobject_cast<ArchiveFilterProxyModel *>(view->model());
        proxy && qEnvironmentVariableIsSet("PROVENDER_BENCH_FILTER_PHASES")) {
        // Where a verdict filter's time goes: the proxy alone, expanding the view, painting.
        for (int i = 0; i < 6; ++i) {
            QElapsedTimer t;
            t.start();
            if (i % 2)
                proxy->setTextFilter(QStringLiteral("h1:47DEQ")); // every archive
            else
                proxy->setVerdictFilter(Verdict::Mismatch);
            const double a = double(t.nsecsElapsed()) / 1e6;
            view->expandAll();
            const double b = double(t.nsecsElapsed()) / 1e6;
            view->viewport()->repaint();
            QCoreApplication::processEvents();
            const double c = double(t.nsecsElapsed()) / 1e6;
            proxy->setVerdictFilter(std::nullopt);
            proxy->setTextFilter(QString());
            view->collapseAll();
            view->expandToDepth(1);
            const double d = double(t.nsecsElapsed()) / 1e6;
            std::fprintf(stderr, "phases: proxy %.1f ms, expandAll %.1f ms, paint %.1f ms, clear %.1f ms\n", a, b - a, c - b, d - c);
        }
    }
    for (int i = 0, n = qEnvironmentVariableIntValue("PROVENDER_BENCH_FILTER_REPEAT"); i < n; ++i) {
        timed([&] { verdicts->setCurrentIndex(verdicts->findText(QStringLiteral("mismatch"))); });
        timed([&] { verdicts->setCurrentIndex(0); });
        timed([&] { filter->setText(QStringLiteral("p0042")); });
        timed([&] { filter->clear(); });
    }
    const double filterText = timed([&] { filter->setText(QStringLiteral("p0042")); });
    const double filterClear = timed([&] { filter->clear(); });
    // A hash prefix: every leaf's search text is built and scanned.
    const double filterHash = timed([&] { filter->setText(QStringLiteral("zh:00ff")); });
    filter->clear();
    // A prefix every archive's declared hash has: all 100,000 rows pass and are expanded.
    const double filterAll = timed([&] { filter->setText(QStringLiteral("h1:47DEQ")); });
    filter->clear();
    const double filterVerdict = timed([&] { verdicts->setCurrentIndex(verdicts->findText(QStringLiteral("mismatch"))); });
    verdicts->setCurrentIndex(0);
    const double filterPlatform = timed([&] { platforms->setCurrentIndex(1); });
    platforms->setCurrentIndex(0);

    std::printf(
        "{\"archives\": %d, \"first_paint_s\": %.3f, \"scan_to_shown_s\": %.3f, \"verify_s\": %.3f, "
        "\"stall_open_ms\": %.1f, \"stall_stream_ms\": %.1f, \"filter_text_ms\": %.1f, \"filter_clear_ms\": %.1f, "
        "\"filter_hash_ms\": %.1f, \"filter_all_ms\": %.1f, \"filter_verdict_ms\": %.1f, \"filter_platform_ms\": %.1f, \"peak_rss_mib\": %.0f, "
        "\"hashed\": %d, \"cache_hits\": %d, \"verified\": %d}\n",
        w.archiveModel()->archiveCount(), double(paint.at) / 1e9, double(shownAt) / 1e9, double(finishedAt - shownAt) / 1e9,
        double(stallOpen) / 1e6, double(stallStream) / 1e6, filterText, filterClear, filterHash, filterAll, filterVerdict, filterPlatform,
        peakRssMib(), summary.hashed, summary.cacheHits, summary.count(Verdict::Verified));
    return 0;
}
