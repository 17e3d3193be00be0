#pragma once
// --pinned-keys FILE for the commands that check a mirror's kept provenance offline (`verify
// DIR|BUNDLE`, `bundle verify`, `bundle import`): the signature over a release's SHA256SUMS must
// then be by one of the OpenPGP keys in FILE (ASCII armoured), not merely by a key kept next to
// the sums (docs/REGISTRY.md "Provenance").

#include "app/cli/Cli.h"
#include "model/registry/ReleaseSignature.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QFile>
#include <QList>
#include <QString>

namespace provender::cli {

inline void addPinnedKeysOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("pinned-keys"),
                      QStringLiteral("Signed provenance (.provenance/ of a pulled mirror or its bundle) counts only when signed by one of "
                                     "the OpenPGP keys in this file (ASCII armoured)."),
                      QStringLiteral("FILE")});
}

/// The keys of --pinned-keys (none when not given); false, after printing why with `prefix`,
/// when the file cannot be read or holds no armoured key.
inline bool readPinnedKeys(const QCommandLineParser &parser, const QString &prefix, QList<QByteArray> *keys)
{
    if (!parser.isSet(QStringLiteral("pinned-keys")))
        return true;
    const QString file = parser.value(QStringLiteral("pinned-keys"));
    const Result<QByteArray> bytes = readPinnedKeysFile(file);
    if (!bytes.ok()) {
        err() << prefix << ": " << bytes.error().message << '\n';
        return false;
    }
    if (!bytes->contains("-----BEGIN PGP PUBLIC KEY BLOCK-----")) {
        err() << prefix << ": " << file << " holds no ASCII-armoured OpenPGP public key\n";
        return false;
    }
    keys->append(*bytes);
    return true;
}

} // namespace provender::cli
