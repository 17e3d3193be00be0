#include "app/cli/Cli.h"

#include "app/cli/Commands.h"

#include <algorithm>

namespace provender::cli {

const QList<Command> &commands()
{
    static const QList<Command> all = {
        {"hash", "print h1:/zh: hashes of provider zips and package directories", &runHash},
        {"index", "write index.json/<version>.json of a packed mirror, as terraform providers mirror does", &runIndex},
        {"verify", "hash every archive of a mirror directory, bundle or URL and check it against its indexes", &runVerify},
        {"demo-mirror", "write the demo mirror (every verdict planted) into a directory", &runDemoMirror},
        {"lock", "list the lock-file subcommands (provender lock --help)", &runLock},
        {"lock fmt", "rewrite a lock file in tofu/terraform's canonical form (--check: only check)", &runLockFmt},
        {"lock diff", "compare two lock files by meaning and as text (--mirror: where each hash comes from)", &runLockDiff},
        {"lock check", "check a lock file against a mirror: provider x platform verdicts", &runLockCheck},
        {"lock add-hashes", "add the hashes of a mirror's packages for given platforms to a lock file", &runLockAddHashes},
        {"lock upgrade", "upgrade locked providers to the newest mirror version meeting their constraints", &runLockUpgrade},
        {"lock init", "make a lock file for a configuration's required providers from a mirror directory or URL", &runLockInit},
        {"lock merge", "three-way merge of lock files by meaning (a git merge driver; --gui: the merge window)", &runLockMerge},
        {"bundle create", "write a bundle (.tar.gz/.tar.zst/.zip) of a mirror, or of what lock files need", &runBundleCreate},
        {"bundle verify", "verify a bundle in place: archives against its indexes and SHA256SUMS", &runBundleVerify},
        {"bundle import", "verify a bundle and merge it into a mirror directory, all or nothing", &runBundleImport},
        {"bundle recover", "finish or roll back an interrupted bundle import", &runBundleRecover},
        {"oci push", "publish a mirror or bundle to an OCI registry in OpenTofu's oci_mirror format", &runOciPush},
        {"oci verify", "verify an OCI registry mirror (same as verify oci://...)", &runOciVerify},
        {"oci list", "list the providers an OCI registry holds (its _catalog) under a repository template", &runOciList},
        {"mirror pull", "pull providers from their origin registries into a mirror, each archive proven by its signature", &runMirrorPull},
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

void printColumns(QTextStream &o, const QList<QStringList> &rows)
{
    QList<qsizetype> widths;
    for (const QStringList &row : rows)
        for (qsizetype c = 0; c + 1 < row.size(); ++c) {
            if (widths.size() <= c)
                widths.append(0);
            widths[c] = std::max(widths[c], row.at(c).size());
        }
    for (const QStringList &row : rows) {
        for (qsizetype c = 0; c + 1 < row.size(); ++c)
            o << row.at(c).leftJustified(widths[c] + 2);
        if (!row.isEmpty())
            o << row.last();
        o << '\n';
    }
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
