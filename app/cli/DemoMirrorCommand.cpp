// provender demo-mirror DIR: write the deterministic demo mirror (see model/mirror/DemoMirror.h).

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/Prologue.h"
#include "model/mirror/DemoMirror.h"

namespace provender::cli {

int runDemoMirror(const QStringList &args)
{
    Prologue p(QStringLiteral("demo-mirror"), helpText(QStringLiteral("demo-mirror")));
    p.positional(QStringLiteral("dir"), QStringLiteral("Where to write the demo mirror."), QStringLiteral("DIR"));
    if (const std::optional<int> exit = p.parse(args, 1, 1, QStringLiteral("one directory")))
        return *exit;
    const Result<DemoMirrorReport> r = generateDemoMirror(p.parser().positionalArguments().constFirst());
    if (!r.ok()) {
        err() << "provender demo-mirror: " << r.error().toString() << '\n';
        return ExitUsage;
    }
    out() << "Demo mirror written to " << r.value().root << " (" << r.value().archives << " archives). Planted:\n";
    for (const QString &line : r.value().planted)
        out() << "  " << line << '\n';
    return ExitOk;
}

} // namespace provender::cli
