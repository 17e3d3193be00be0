#include "model/registry/ReleaseSignature.h"

#include "model/core/Logging.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>

#include <gpgme.h>

#include <memory>
#include <mutex>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

void initGpgme()
{
    static std::once_flag once;
    std::call_once(once, [] {
        gpgme_check_version(nullptr);
        gpgme_set_locale(nullptr, LC_CTYPE, "C");
    });
}

QString gpgError(gpgme_error_t e)
{
    return QString::fromLocal8Bit(gpgme_strerror(e));
}

/// A GPGME context on a keyring of its own in a temporary directory, removed afterwards.
class PrivateKeyring
{
public:
    PrivateKeyring()
    {
        initGpgme();
        if (!m_home.isValid()) {
            m_error = u"cannot create a temporary keyring directory"_s;
            return;
        }
        QFile::setPermissions(m_home.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        // No agent, no dirmngr, no key server: verification needs none of them.
        QFile conf(m_home.filePath(u"gpg.conf"_s));
        if (!conf.open(QIODevice::WriteOnly) || conf.write("no-autostart\nno-auto-key-retrieve\n") < 0) {
            m_error = u"cannot write the temporary keyring's gpg.conf"_s;
            return;
        }
        conf.close();
        gpgme_error_t e = gpgme_new(&m_ctx);
        if (!e)
            e = gpgme_set_protocol(m_ctx, GPGME_PROTOCOL_OpenPGP);
        if (!e)
            e = gpgme_ctx_set_engine_info(m_ctx, GPGME_PROTOCOL_OpenPGP, nullptr, QFile::encodeName(m_home.path()).constData());
        if (e) {
            m_error = u"GnuPG is not usable: "_s + gpgError(e);
            return;
        }
        gpgme_set_offline(m_ctx, 1);
    }
    ~PrivateKeyring()
    {
        if (m_ctx)
            gpgme_release(m_ctx);
    }
    PrivateKeyring(const PrivateKeyring &) = delete;
    PrivateKeyring &operator=(const PrivateKeyring &) = delete;

    const QString &error() const { return m_error; }
    gpgme_ctx_t ctx() const { return m_ctx; }

    /// Import armoured or binary keys; returns the primary fingerprints imported (upper-case hex).
    QStringList import(const QByteArray &keys, QString *why)
    {
        gpgme_data_t data = nullptr;
        if (gpgme_error_t e = gpgme_data_new_from_mem(&data, keys.constData(), size_t(keys.size()), 0)) {
            *why = gpgError(e);
            return {};
        }
        QStringList fprs;
        const gpgme_error_t e = gpgme_op_import(m_ctx, data);
        gpgme_data_release(data);
        if (e) {
            *why = gpgError(e);
            return {};
        }
        if (gpgme_import_result_t r = gpgme_op_import_result(m_ctx))
            for (gpgme_import_status_t s = r->imports; s; s = s->next)
                if (!s->result && s->fpr)
                    fprs << QString::fromLatin1(s->fpr).toUpper();
        fprs.removeDuplicates();
        return fprs;
    }

private:
    QTemporaryDir m_home{QDir::tempPath() + u"/provender-gpg-XXXXXX"_s};
    gpgme_ctx_t m_ctx = nullptr;
    QString m_error;
};

QStringList pinnedFingerprints(const QList<QByteArray> &pinned, QString *why)
{
    PrivateKeyring ring;
    if (!ring.error().isEmpty()) {
        *why = ring.error();
        return {};
    }
    QStringList out;
    for (const QByteArray &k : pinned) {
        QString e;
        const QStringList f = ring.import(k, &e);
        if (f.isEmpty()) {
            *why = e.isEmpty() ? u"a pinned key could not be read"_s : u"a pinned key could not be read: "_s + e;
            return {};
        }
        out << f;
    }
    return out;
}

} // namespace

SignatureCheck verifyDetachedSignature(const QByteArray &document, const QByteArray &signature, const QList<QByteArray> &keys,
                                       const SignatureOptions &options)
{
    SignatureCheck out;
    PrivateKeyring ring;
    if (!ring.error().isEmpty()) {
        out.reason = ring.error();
        return out;
    }
    QStringList imported;
    for (const QByteArray &k : keys) {
        QString why;
        const QStringList f = ring.import(k, &why);
        if (f.isEmpty()) {
            // terraform: openpgp.ReadArmoredKeyRing fails → "error decoding signing key".
            out.reason = why.isEmpty() ? u"error decoding signing key"_s : u"error decoding signing key: "_s + why;
            return out;
        }
        imported << f;
    }

    gpgme_data_t sig = nullptr, text = nullptr;
    gpgme_data_new_from_mem(&sig, signature.constData(), size_t(signature.size()), 0);
    gpgme_data_new_from_mem(&text, document.constData(), size_t(document.size()), 0);
    const gpgme_error_t e = gpgme_op_verify(ring.ctx(), sig, text, nullptr);
    gpgme_data_release(sig);
    gpgme_data_release(text);
    if (e) {
        out.reason = u"error checking signature: "_s + gpgError(e);
        return out;
    }
    const gpgme_verify_result_t result = gpgme_op_verify_result(ring.ctx());
    if (!result || !result->signatures) {
        out.reason = u"error checking signature: no signature found"_s;
        return out;
    }
    const gpgme_signature_t s = result->signatures;
    if (s->next) {
        // A SHA256SUMS.sig is one detached signature; several are not what registries publish.
        out.reason = u"error checking signature: more than one signature"_s;
        return out;
    }
    // The signing (sub)key → its primary key, as terraform reports entity.PrimaryKey.
    gpgme_key_t key = nullptr;
    if (s->fpr && gpgme_get_key(ring.ctx(), s->fpr, &key, 0) == 0 && key && key->subkeys) {
        out.fingerprint = QString::fromLatin1(key->subkeys->fpr).toUpper();
        out.keyId = QString::fromLatin1(key->subkeys->keyid).toUpper();
        for (gpgme_user_id_t u = key->uids; u; u = u->next)
            if (u->uid)
                out.userIds << QString::fromUtf8(u->uid);
    } else if (s->fpr) {
        out.keyId = QString::fromLatin1(s->fpr).toUpper().right(16);
    }
    const bool keyExpired = key && key->expired;
    const bool keyRevoked = key && key->revoked;
    if (key)
        gpgme_key_unref(key);

    switch (gpgme_err_code(s->status)) {
    case GPG_ERR_NO_ERROR: break;
    case GPG_ERR_NO_PUBKEY: out.reason = u"authentication signature from unknown issuer"_s; return out;
    case GPG_ERR_BAD_SIGNATURE:
        out.reason =
            u"error checking signature: openpgp: invalid signature: the signature does not match SHA256SUMS (key %1)"_s.arg(out.keyId);
        return out;
    case GPG_ERR_KEY_EXPIRED:
        out.reason =
            u"the signing key %1 has expired (terraform accepts this with a warning; Provender does not vouch for it)"_s.arg(out.keyId);
        return out;
    case GPG_ERR_CERT_REVOKED: out.reason = u"the signing key %1 has been revoked"_s.arg(out.keyId); return out;
    case GPG_ERR_SIG_EXPIRED: out.reason = u"the signature by key %1 has expired"_s.arg(out.keyId); return out;
    default: out.reason = u"error checking signature: "_s + gpgError(s->status); return out;
    }
    if (keyRevoked || (s->summary & GPGME_SIGSUM_KEY_REVOKED)) {
        out.reason = u"the signing key %1 has been revoked"_s.arg(out.keyId);
        return out;
    }
    if (keyExpired || (s->summary & GPGME_SIGSUM_KEY_EXPIRED)) {
        out.reason =
            u"the signing key %1 has expired (terraform accepts this with a warning; Provender does not vouch for it)"_s.arg(out.keyId);
        return out;
    }
    if (s->summary & (GPGME_SIGSUM_RED | GPGME_SIGSUM_SIG_EXPIRED)) {
        out.reason = u"error checking signature: the signature is not valid (key %1)"_s.arg(out.keyId);
        return out;
    }
    if (!imported.contains(out.fingerprint)) {
        out.reason = u"authentication signature from unknown issuer"_s;
        return out;
    }
    if (!options.pinnedKeys.isEmpty()) {
        QString why;
        const QStringList pinned = pinnedFingerprints(options.pinnedKeys, &why);
        if (pinned.isEmpty()) {
            out.reason = why;
            return out;
        }
        if (!pinned.contains(out.fingerprint)) {
            out.reason = u"the signing key %1 (%2) is not one of the pinned keys"_s.arg(out.keyId, out.fingerprint);
            return out;
        }
    }
    out.valid = true;
    qCDebug(lcRegistry) << "good signature by" << out.keyId << out.userIds;
    return out;
}

PackageAuthentication authenticateRegistryPackage(const RegistryDownload &meta, const QByteArray &archiveSha256, qint64 archiveSize,
                                                  const QByteArray &sha256sums, const QByteArray &signature,
                                                  const SignatureOptions &options, const SignatureCheck *alreadyVerified)
{
    PackageAuthentication out;
    // 0. registryPackageAuthentication (tofu's package_authentication.go), only when `packages` is there.
    if (!meta.packages.isEmpty()) {
        const RegistryPackage *own = meta.package(meta.platform);
        if (!own) {
            out.reason = u"registry response missing package with platform \"%1\""_s.arg(meta.platform.toString());
            return out;
        }
        if (own->packageSize <= 0) {
            out.reason = u"registry response has invalid package size %1"_s.arg(own->packageSize);
            return out;
        }
        if (own->packageSize != archiveSize) {
            out.reason = u"registry response indicates a package of size %1, but received a package of size %2"_s.arg(own->packageSize)
                             .arg(archiveSize);
            return out;
        }
        // tofu compares the zh: value with the `shasum` text; ours is its lower-case hex form.
        const QString shasum = QString::fromLatin1(meta.sha256.toHex());
        bool found = false;
        for (const HashString &h : own->hashes) {
            if (h.scheme() != HashString::Scheme::ZH)
                continue;
            if (h.value() != shasum) {
                out.reason = u"registry response expected sha256sum is \"%1\", which does not match the platform's value of \"%2\""_s.arg(
                    shasum, h.value());
                return out;
            }
            found = true;
        }
        if (!found) {
            out.reason = u"registry response does not contain matching sha256sum package entry and is invalid"_s;
            return out;
        }
    }
    // 1. matchingChecksumAuthentication
    const Result<QByteArray> listed = sha256SumsLookup(sha256sums, meta.filename);
    if (!listed) {
        out.reason = listed.error().message;
        return out;
    }
    if (*listed != meta.sha256) {
        out.reason = u"checksum list has unexpected SHA-256 hash %1 (expected %2)"_s.arg(QString::fromLatin1(listed->toHex()),
                                                                                         QString::fromLatin1(meta.sha256.toHex()));
        return out;
    }
    // 2. archiveChecksumAuthentication
    if (archiveSha256 != meta.sha256) {
        out.reason = u"archive has incorrect checksum zh:%1 (expected zh:%2)"_s.arg(QString::fromLatin1(archiveSha256.toHex()),
                                                                                    QString::fromLatin1(meta.sha256.toHex()));
        return out;
    }
    // 3. signatureAuthentication
    QList<QByteArray> keys;
    for (const RegistrySigningKey &k : meta.signingKeys)
        keys << k.asciiArmor;
    out.signature = alreadyVerified ? *alreadyVerified : verifyDetachedSignature(sha256sums, signature, keys, options);
    if (!out.signature.valid) {
        out.reason = out.signature.reason;
        return out;
    }
    out.signedOk = true;
    out.vouchedHashes = sha256SumsHashes(sha256sums);
    for (RegistryPackage p : meta.packages) {
        p.hashes.removeIf([](const HashString &h) { return !h.isKnownScheme(); });
        out.reported << p;
    }
    return out;
}

Result<QByteArray> readPinnedKeysFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    return f.readAll();
}

} // namespace provender
