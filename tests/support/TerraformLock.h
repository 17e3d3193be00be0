#pragma once
// `terraform providers lock -fs-mirror=MIRROR -platform=… PROVIDERS` on a lock file, in a
// configuration that requires each given provider with its constraints: the bytes terraform
// writes, which a lock edit of ours is compared with (tst_lockeditor, tst_lockdocument).

#include "tests/support/TestSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace provender::test {

struct TerraformRequirement
{
    QString source;      ///< the provider's address
    QString constraints; ///< "" = any version
};

struct TerraformLockRun
{
    ProcessRun run;
    QByteArray lockFile; ///< what terraform left in .terraform.lock.hcl (null when it failed)
};

/// Runs in `sandbox` (its own CLI config, see runTerraform); `input` is the lock file before.
inline TerraformLockRun terraformProvidersLock(const QString &sandbox, const QByteArray &input, const QList<TerraformRequirement> &required,
                                               const QString &mirror, const QStringList &platforms, const QStringList &providers)
{
    QByteArray config = "terraform {\n  required_providers {\n";
    int i = 0;
    for (const TerraformRequirement &r : required) {
        config += "    p" + QByteArray::number(i++) + " = {\n      source = \"" + r.source.toUtf8() + "\"\n";
        if (!r.constraints.isEmpty())
            config += "      version = \"" + r.constraints.toUtf8() + "\"\n";
        config += "    }\n";
    }
    config += "  }\n}\n";
    const QString cfg = sandbox + QStringLiteral("/cfg");
    TerraformLockRun out;
    QDir().mkpath(cfg);
    for (const auto &[name, bytes] :
         {std::pair{QStringLiteral("/main.tf"), config}, std::pair{QStringLiteral("/.terraform.lock.hcl"), input}}) {
        QFile f(cfg + name);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size()) {
            out.run.err = "cannot write " + QFile::encodeName(cfg + name);
            return out;
        }
    }
    QStringList args{QStringLiteral("providers"), QStringLiteral("lock"), QStringLiteral("-no-color"),
                     QStringLiteral("-fs-mirror=") + mirror};
    for (const QString &p : platforms)
        args << QStringLiteral("-platform=") + p;
    args << providers;
    out.run = runTerraform(sandbox, cfg, args);
    if (out.run.exitCode == 0)
        out.lockFile = readFile(cfg + QStringLiteral("/.terraform.lock.hcl"));
    return out;
}

} // namespace provender::test
