// libFuzzer target for the lock-file reader and writer (tests/fuzz/README section in
// docs/LOCKFILES.md). Besides "no crash, no hang, no leak, no UB" it checks invariants:
//  - every diagnostic has a summary and a valid position;
//  - a document read without errors writes canonical bytes that read back, without errors,
//    to the same document, and rewrite to the same bytes (write is a fixed point);
//  - reading with either flavour forced never crashes either.

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
    LockParseOptions forced;
    forced.flavour = r.document.flavour == LockFlavour::Tofu ? LockFlavour::Terraform : LockFlavour::Tofu;
    checkDiagnostics(parseLockFile(bytes, forced));
    return 0;
}
