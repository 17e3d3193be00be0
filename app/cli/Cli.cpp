#include "app/cli/Cli.h"

#include "app/cli/Commands.h"

namespace provender::cli {

const QList<Command> &commands()
{
    static const QList<Command> all = {
        {"hash", "print h1:/zh: hashes of provider zips and package directories", &runHash},
        {"index", "write index.json/<version>.json of a packed mirror, as terraform providers mirror does", &runIndex},
        {"verify", "hash every archive of a mirror directory and check it against its indexes", &runVerify},
        {"demo-mirror", "write the demo mirror (every verdict planted) into a directory", &runDemoMirror},
    };
    return all;
}

const Command *findCommand(const QStringList &argv, int *consumed)
{
    const Command *best = nullptr;
    int bestWords = 0;
    for (const Command &c : commands()) {
        const QStringList words = QString::fromLatin1(c.name).split(QLatin1Char(' '));
        if (words.size() > argv.size() - 1 || words.size() <= bestWords)
            continue;
        bool match = true;
        for (int i = 0; i < words.size() && match; ++i)
            match = argv.at(i + 1) == words.at(i);
        if (match) {
            best = &c;
            bestWords = int(words.size());
        }
    }
    if (consumed)
        *consumed = bestWords;
    return best;
}

QTextStream &out()
{
    static QTextStream s(stdout);
    return s;
}

QTextStream &err()
{
    static QTextStream s(stderr);
    return s;
}

} // namespace provender::cli
