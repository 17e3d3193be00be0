#pragma once
// The trust chain of a provider release: the registry's SHA256SUMS, its detached OpenPGP
// signature and the signing keys the registry lists (tofu-formats.md §12).
//
// Signatures are checked with GPGME in a private keyring made for each check in a temporary
// directory (mode 0700, `no-autostart`: no agent, no dirmngr, no key server) — never the user's
// keyring, so nothing the user trusts or has imported changes the answer, and nothing is left
// behind. Only the keys given are imported; a signature by any other key is "from unknown issuer".
//
// Stricter than terraform on purpose (a "signed" anchor must mean the key was good): terraform
// accepts a signature by an expired key with a log warning; here an expired or revoked key, an
// expired signature, or (when the user pins keys) a key that is not pinned is refused, each with
// its reason. docs/REGISTRY.md has the table.

#include "model/core/Result.h"
#include "model/registry/RegistryDocuments.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace provender {

struct SignatureCheck
{
    bool valid = false;
    QString keyId;       ///< the signing primary key's 64-bit ID, upper-case hex (terraform's KeyIdString)
    QString fingerprint; ///< the signing primary key's fingerprint, upper-case hex
    QStringList userIds;
    QString reason; ///< why it is not valid ("" when valid)
};

struct SignatureOptions
{
    /// ASCII-armoured public keys the user pins. Empty: any key the registry lists may sign.
    /// Otherwise the signing key's fingerprint must be one of these keys'.
    QList<QByteArray> pinnedKeys;
};

/// The bytes of a file of pinned keys (for SignatureOptions::pinnedKeys; not checked here); an Io
/// error "cannot read PATH: why" when it cannot be read.
Result<QByteArray> readPinnedKeysFile(const QString &path);

/// Verify `signature` (detached, binary or armoured) over `document` with `keys`.
SignatureCheck verifyDetachedSignature(const QByteArray &document, const QByteArray &signature, const QList<QByteArray> &keys,
                                       const SignatureOptions &options = {});

/// What the whole chain says of one downloaded archive.
struct PackageAuthentication
{
    bool signedOk = false;
    SignatureCheck signature;
    QString reason;                  ///< the first check that failed, in terraform's words where it has them
    QList<HashString> vouchedHashes; ///< every zh: of the signed SHA256SUMS (when signedOk)
    /// The download document's `packages` (every platform), h1: and zh: only (PreferredHashes),
    /// when signedOk: what tofu marks ReportedByRegistry and records in the lock file.
    QList<RegistryPackage> reported;
};

/// tofu's order (PackageAuthenticationAll in registry_client.go): when the document has
/// `packages`, registryPackageAuthentication first — an entry for the archive's platform, its
/// `package_size` > 0 and equal to `archiveSize`, a zh: in it and every zh: in it equal to
/// `shasum`; then the SHA256SUMS line for the archive's file name equals `shasum`; the archive's
/// SHA-256 equals `shasum`; the signature is good.
/// `alreadyVerified`: what verifyDetachedSignature said for these same sums, signature, the keys
/// `meta` lists and `options` (one check per release instead of one per archive: each is a gpg run).
PackageAuthentication authenticateRegistryPackage(const RegistryDownload &meta, const QByteArray &archiveSha256, qint64 archiveSize,
                                                  const QByteArray &sha256sums, const QByteArray &signature,
                                                  const SignatureOptions &options = {}, const SignatureCheck *alreadyVerified = nullptr);

} // namespace provender
