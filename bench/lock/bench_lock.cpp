// bench/lock: parse and write a generated lock file with many providers.
//
//   provender_bench_lock [PROVIDERS] [HASHES-PER-PROVIDER] [REPEATS]
//
// The file looks like registry-made locks: each provider has a version, a constraint and
// 1 h1: + (HASHES-1) zh: hashes (defaults: 10000 providers, 13 hashes, 7 repeats). Prints the
// size, then the best and median wall time of parse (bytes -> LockFile with diagnostics),
// write (LockFile -> canonical bytes) and both, and checks the round trip. parseLockFile() takes
// its fast path for such a file (LockFastPath.h); the general parser, which every file with a
// diagnostic goes through, is timed on its own for comparison.

#include "model/lockfile/LockFastPath.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"

#include <QCryptographicHash>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace provender;

namespace {

QByteArray generate(int providers, int hashes)
{
    // Built as text (with the canonical layout), not with our writer, so that the benchmark
    // input does not depend on the code it measures.
    QList<QByteArray> blocks;
    for (int i = 0; i < providers; ++i) {
        const QByteArray ns = "ns" + QByteArray::number(i % 97);
        const QByteArray type = "provider" + QByteArray::number(i);
        QByteArray b = "\nprovider \"registry.terraform.io/" + ns + '/' + type + "\" {\n";
        b += "  version     = \"" + QByteArray::number(1 + i % 7) + '.' + QByteArray::number(i % 50) + ".0\"\n";
        b += "  constraints = \">= " + QByteArray::number(1 + i % 7) + ".0.0, < 10.0.0\"\n";
        b += "  hashes = [\n";
        QList<QByteArray> hs;
        const QByteArray seed = ns + type;
        hs << "h1:" + QCryptographicHash::hash(QByteArray(seed + "h1"), QCryptographicHash::Sha256).toBase64();
        for (int h = 1; h < hashes; ++h)
            hs << "zh:" + QCryptographicHash::hash(QByteArray(seed + QByteArray::number(h)), QCryptographicHash::Sha256).toHex();
        std::sort(hs.begin(), hs.end());
        for (const QByteArray &h : hs)
            b += "    \"" + h + "\",\n";
        b += "  ]\n}\n";
        blocks << b;
    }
    // Canonical order is by host, namespace, type: sort the blocks by that key.
    std::sort(blocks.begin(), blocks.end(), [](const QByteArray &a, const QByteArray &b) {
        auto key = [](const QByteArray &x) {
            const qsizetype s = x.indexOf("io/") + 3;
            const QByteArray path = x.mid(s, x.indexOf('"', s) - s);
            return path.split('/');
        };
        return key(a) < key(b);
    });
    QByteArray out = "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n";
    for (const QByteArray &b : blocks)
        out += b;
    return out;
}

/// CPU time of this thread: on a busy machine it is the fairer figure (wall time includes
/// waiting for a core).
double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

struct Stats
{
    double best = 0;
    double median = 0;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v.front(), v[v.size() / 2]};
}

} // namespace

int main(int argc, char **argv)
{
    const int providers = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int hashes = argc > 2 ? std::max(1, std::atoi(argv[2])) : 13;
    const int repeats = argc > 3 ? std::max(1, std::atoi(argv[3])) : 7;
    const QByteArray input = generate(providers, hashes);
    std::printf("lock file: %d providers, %d hashes each, %.1f MiB, %lld lines\n", providers, hashes, input.size() / 1048576.0,
                static_cast<long long>(input.count('\n')));

    std::vector<double> parseMs, writeMs, parseCpu, writeCpu;
    bool ok = true;
    for (int r = 0; r < repeats; ++r) {
        QElapsedTimer t;
        t.start();
        double c = threadCpuMs();
        const LockParseResult parsed = parseLockFile(input);
        parseMs.push_back(t.nsecsElapsed() / 1e6);
        parseCpu.push_back(threadCpuMs() - c);
        t.restart();
        c = threadCpuMs();
        const QByteArray written = writeLockFile(parsed.document);
        writeMs.push_back(t.nsecsElapsed() / 1e6);
        writeCpu.push_back(threadCpuMs() - c);
        ok = ok && !parsed.hasErrors() && parsed.document.providers.size() == providers && written == input;
    }
    std::vector<double> fullMs, fullCpu;
    for (int r = 0; r < std::max(1, repeats / 2); ++r) {
        QElapsedTimer t;
        t.start();
        const double c = threadCpuMs();
        const LockParseResult parsed = lockfile_detail::parseLockFileFull(input);
        fullMs.push_back(t.nsecsElapsed() / 1e6);
        fullCpu.push_back(threadCpuMs() - c);
        ok = ok && !parsed.hasErrors() && parsed.document == parseLockFile(input).document;
    }
    const bool fast = lockfile_detail::parseLockFileFast(input).has_value();
    const Stats p = stats(parseMs), pc = stats(parseCpu);
    const Stats w = stats(writeMs), wc = stats(writeCpu);
    std::printf("               wall best   wall median    cpu best    cpu median\n");
    std::printf("parse:      %9.1f ms %9.1f ms %9.1f ms %9.1f ms\n", p.best, p.median, pc.best, pc.median);
    std::printf("write:      %9.1f ms %9.1f ms %9.1f ms %9.1f ms\n", w.best, w.median, wc.best, wc.median);
    std::printf("both:       %9.1f ms %9.1f ms %9.1f ms %9.1f ms\n", p.best + w.best, p.median + w.median, pc.best + wc.best,
                pc.median + wc.median);
    const Stats f = stats(fullMs), fc = stats(fullCpu);
    std::printf("(general parser alone: %.1f ms best, %.1f ms median; cpu %.1f / %.1f ms; fast path taken: %s)\n", f.best, f.median,
                fc.best, fc.median, fast ? "yes" : "NO");
    std::printf("round trip (parse, write == input, no diagnostics): %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
