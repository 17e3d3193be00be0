// libFuzzer target for the lock-file reader and writer (tests/fuzz/README section in
// docs/LOCKFILES.md). Besides "no crash, no hang, no leak, no UB" it checks invariants:
//  - every diagnostic has a summary and a valid position;
//  - a document read without errors writes canonical bytes that read back, without errors,
//    to the same document, and rewrite to the same bytes (write is a fixed point);
//  - reading with either flavour forced never crashes either;
//  - when the fast path (LockFastPath.h) accepts an input, the full parser reports nothing on it
//    and reads the same document, with the same source ranges.

#include "model/lockfile/LockFastPath.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockWriter.h"

#include <QByteArray>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail)
{
    std::fprintf(stderr, "fuzz_lockfile invariant violated: %s\n%s\n", what, detail.constData());
    std::abort();
}

void checkDiagnostics(const LockParseResult &r)
{
    for (const LockDiagnostic &d : r.diagnostics)
        if (d.summary.isEmpty() || !d.range.isValid() || d.range.endLine < d.range.line)
            fail("diagnostic without summary or position", d.summary.toUtf8());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const LockParseResult r = parseLockFile(bytes);
    checkDiagnostics(r);
    if (!r.hasErrors()) {
        const QByteArray written = writeLockFile(r.document);
        const LockParseResult again = parseLockFile(written);
        if (again.hasErrors())
            fail("canonical output does not read back", written);
        if (!(again.document == r.document))
            fail("canonical output reads back to another document", written);
        if (writeLockFile(again.document) != written)
            fail("writing is not a fixed point", written);
        if (!isCanonicalLockFile(written, again))
            fail("canonical output is not canonical", written);
    }
    if (const std::optional<LockParseResult> fast = lockfile_detail::parseLockFileFast(bytes)) {
        const LockParseResult full = lockfile_detail::parseLockFileFull(bytes);
        if (!full.diagnostics.isEmpty() || !full.document.dropped.isEmpty())
            fail("the fast path accepted an input the full parser reports on", bytes);
        const LockFile &a = fast->document;
        const LockFile &b = full.document;
        if (!(a == b) || a.hasStandardHeader != b.hasStandardHeader || a.headerTool != b.headerTool || !fast->diagnostics.isEmpty())
            fail("the fast path read another document", bytes);
        for (qsizetype i = 0; i < a.providers.size(); ++i) {
            if (!(a.providers[i].sourceRange == b.providers[i].sourceRange) || a.providers[i].constraints != b.providers[i].constraints)
                fail("the fast path recorded another source range or constraint set", bytes);
        }
    }
    LockParseOptions forced;
    forced.flavour = r.document.flavour == LockFlavour::Tofu ? LockFlavour::Terraform : LockFlavour::Tofu;
    checkDiagnostics(parseLockFile(bytes, forced));
    return 0;
}
