// provender demo-mirror DIR: write the deterministic demo mirror (see model/mirror/DemoMirror.h).

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "model/mirror/DemoMirror.h"

#include <QCommandLineParser>

namespace provender::cli {

int runDemoMirror(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Write a small demonstration mirror into DIR: three providers on two hosts, packed and unpacked layouts, "
                       "indexes, and planted defects so that every verdict shows up in 'provender verify DIR' and the GUI.\n"
                       "DIR must not exist, be empty, or be an earlier demo mirror (which is then replaced)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("Where to write the demo mirror."), QStringLiteral("DIR"));
    if (!parser.parse(args)) {
        err() << "provender demo-mirror: " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        return ExitOk;
    }
    if (parser.positionalArguments().size() != 1) {
        err() << "provender demo-mirror: give exactly one directory (see --help)\n";
        return ExitUsage;
    }
    const Result<DemoMirrorReport> r = generateDemoMirror(parser.positionalArguments().constFirst());
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
