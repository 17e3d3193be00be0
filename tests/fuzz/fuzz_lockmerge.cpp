// libFuzzer target for `provender lock merge` (model/lockfile/LockMerge.h): three lock files from
// one input, split on the byte 0x00 (missing parts are empty files). Besides "no crash, no hang,
// no leak, no UB" it checks:
//  - readMergeInput never loses an error: an input it accepts has no error outside kept blocks;
//  - when all three inputs merge, the result bytes are well-formed: without conflicts and foreign
//    blocks they read back without errors to the merged document and are canonical (a fixed point
//    of writeLockFile); with conflicts they split back into sides (splitConflictMarkers) that read
//    without errors, and a re-merge of those sides reports the same conflicts;
//  - every conflict has its one-line explanation, and every choice that is offered resolves.

#include "model/lockfile/LockMerge.h"
#include "model/lockfile/LockWriter.h"

#include <QByteArray>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace provender;
using namespace provender::lockmerge;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail)
{
    std::fprintf(stderr, "fuzz_lockmerge invariant violated: %s\n%s\n", what, detail.constData());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray all(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<QByteArray> parts = all.split('\0');
    while (parts.size() < 3)
        parts.append(QByteArray());
    const MergeInput base = readMergeInput(parts.at(0), QStringLiteral("base"));
    const MergeInput ours = readMergeInput(parts.at(1), QStringLiteral("ours"));
    const MergeInput theirs = readMergeInput(parts.at(2), QStringLiteral("theirs"));
    if (!base.ok() || !ours.ok() || !theirs.ok())
        return 0;
    MergeResult r = mergeLockFiles(base, ours, theirs);
    const QByteArray bytes = r.bytes();
    const QStringList lines = r.conflictLines();
    if (lines.size() != r.conflictCount())
        fail("conflict lines and conflicts differ", bytes);
    for (const QString &l : lines)
        if (l.isEmpty() || l.contains(QLatin1Char('\n')))
            fail("a conflict explanation is not one line", l.toUtf8());

    bool hasForeign = false;
    for (const ForeignMerge &f : r.foreign)
        hasForeign = hasForeign || f.resolved().has_value() || f.isConflict();
    if (!r.hasConflicts() && !hasForeign) {
        const LockParseResult again = parseLockFile(bytes);
        if (again.hasErrors())
            fail("the merged file does not read back", bytes);
        if (!(again.document == r.document()))
            fail("the merged file reads back to another document", bytes);
        if (!isCanonicalLockFile(bytes, again))
            fail("the merged file is not canonical", bytes);
    } else if (r.hasConflicts()) {
        WriteOptions o;
        o.diff3 = true;
        const Result<ConflictSplit> split = splitConflictMarkers(r.bytes(o));
        if (!split.ok() || split->regions != r.conflictCount() || !split->base)
            fail("the conflict markers do not split back", r.bytes(o));
        const MergeInput sb = readMergeInput(*split->base, QStringLiteral("base"));
        const MergeInput so = readMergeInput(split->ours, QStringLiteral("ours"));
        const MergeInput st = readMergeInput(split->theirs, QStringLiteral("theirs"));
        if (!sb.ok() || !so.ok() || !st.ok())
            fail("a side rebuilt from the markers has errors", r.bytes(o));
        if (mergeLockFiles(sb, so, st).conflictLines() != lines)
            fail("re-merging the rebuilt sides gives other conflicts", r.bytes(o));
    }
    // Every offered choice resolves.
    for (ProviderMerge &p : r.providers) {
        for (Choice c : {Choice::Ours, Choice::Theirs, Choice::Union, Choice::Base}) {
            if (!p.isAvailable(c))
                continue;
            p.choice = c;
            if (!p.isResolved())
                fail("an offered choice does not resolve", p.address.toString().toUtf8());
        }
    }
    if (r.conflictCount() != 0 && !hasForeign)
        fail("choices left a provider conflict", bytes);
    return 0;
}
