#pragma once
// Where a mirror keeps each release's proof, and the check of it that verification uses offline
// (issue 19 item 4, docs/REGISTRY.md "Provenance"):
//
//   .provenance/HOST/NS/TYPE/VERSION/SHA256SUMS        the release's checksum list, byte for byte
//   .provenance/HOST/NS/TYPE/VERSION/SHA256SUMS.sig    its detached signature, byte for byte
//   .provenance/HOST/NS/TYPE/VERSION/keys.asc          the signing keys the registry listed
//
// `mirror pull` writes it (MirrorPull), `bundle create` carries it (under the same names at the
// bundle's mirror root), `bundle import` copies it into the target. A DirectorySource and a
// BundleSource each hold a store: the first time an archive of a release is decided, the store
// reads the three files (from disk, or from the bundle's metadata pass) and checks the signature
// with verifyDetachedSignature (private temporary keyring, no network; the user's pinned keys
// when given), and keeps the outcome for the other archives of that release.
//
// Below model/source (library provender_signature) so that sources can hold one. Thread-safe
// (a mutex around the cache): the verification engine decides on one thread, but a store may be
// shared by a source and the reader it hands out.

#include "model/core/ProviderAddress.h"
#include "model/core/Version.h"
#include "model/registry/ReleaseSignature.h"
#include "model/verify/SignedRelease.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace provender {

/// The folder of a release's proof, relative to the mirror root: ".provenance/HOST/NS/TYPE/VERSION".
QString provenanceRelativeDirectory(const ProviderAddress &provider, const Version &version);
/// The three file names of a release's proof, in the order SHA256SUMS, SHA256SUMS.sig, keys.asc.
const QStringList &provenanceFileNames();
/// A provenance file is not trusted input: each is read only up to this size (the registry
/// client's cap for its documents).
inline constexpr qint64 kMaxProvenanceFileBytes = qint64(4) << 20;

class ReleaseProvenanceStore
{
public:
    /// Reads a file of the proof, by its path relative to the mirror root: the bytes, nullopt
    /// when it is absent, or an error (unreadable, too large).
    using Reader = std::function<std::optional<Result<QByteArray>>(const QString &relativePath)>;

    /// `documentBase` + relative path names the SHA256SUMS in anchors and reasons (a directory
    /// path with '/', or `<bundle>!/<prefix>`).
    ReleaseProvenanceStore(Reader reader, QString documentBase, SignatureOptions options = {});

    /// The proof kept under the directory `mirrorRoot`, named `documentBase` + relative path in
    /// anchors (default: the directory's own path).
    static std::shared_ptr<ReleaseProvenanceStore> forDirectory(const QString &mirrorRoot, SignatureOptions options = {},
                                                                const QString &documentBase = {});
    /// The proof among `files` (relative path → bytes, e.g. a bundle's metadata), named
    /// `documentBase` + relative path.
    static std::shared_ptr<ReleaseProvenanceStore> forFiles(QHash<QString, QByteArray> files, const QString &documentBase,
                                                            SignatureOptions options = {});

    /// The checked proof of a release, or null when the mirror keeps none for it (no folder, or
    /// no SHA256SUMS in it). A folder with a SHA256SUMS but a missing or unreadable signature or
    /// key file gives a release that is not valid, with the reason.
    const SignedRelease *release(const ProviderAddress &provider, const Version &version) const;

    /// Drops what was checked (the options changed, or the files may have).
    void setOptions(SignatureOptions options);

private:
    Reader m_reader;
    QString m_base;
    SignatureOptions m_options;
    mutable std::mutex m_mutex;
    /// node-based: pointers handed out stay valid while the store lives (until setOptions()).
    mutable std::map<QString, std::optional<SignedRelease>> m_cache;
};

} // namespace provender
