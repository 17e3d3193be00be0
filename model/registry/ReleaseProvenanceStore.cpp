#include "model/registry/ReleaseProvenanceStore.h"

#include "model/core/Logging.h"

#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace provender {

QString provenanceRelativeDirectory(const ProviderAddress &provider, const Version &version)
{
    return u".provenance/"_s + provider.hostname() + u'/' + provider.ns() + u'/' + provider.type() + u'/' + version.toString();
}

const QStringList &provenanceFileNames()
{
    static const QStringList names{u"SHA256SUMS"_s, u"SHA256SUMS.sig"_s, u"keys.asc"_s};
    return names;
}

ReleaseProvenanceStore::ReleaseProvenanceStore(Reader reader, QString documentBase, SignatureOptions options)
    : m_reader(std::move(reader)),
      m_base(std::move(documentBase)),
      m_options(std::move(options))
{}

std::shared_ptr<ReleaseProvenanceStore> ReleaseProvenanceStore::forDirectory(const QString &mirrorRoot, SignatureOptions options,
                                                                             const QString &documentBase)
{
    const QString root = mirrorRoot.endsWith(u'/') ? mirrorRoot : mirrorRoot + u'/';
    Reader reader = [root](const QString &rel) -> std::optional<Result<QByteArray>> {
        const QString path = root + rel;
        const QFileInfo info(path);
        if (!info.exists())
            return std::nullopt;
        QFile f(path);
        if (!info.isFile() || !f.open(QIODevice::ReadOnly))
            return Result<QByteArray>(makeError(ErrorCode::Io, u"%1 cannot be read: %2"_s.arg(path, f.errorString())));
        if (f.size() > kMaxProvenanceFileBytes)
            return Result<QByteArray>(
                makeError(ErrorCode::InvalidArgument, u"%1 is larger than %2 bytes"_s.arg(path).arg(kMaxProvenanceFileBytes)));
        return Result<QByteArray>(f.readAll());
    };
    return std::make_shared<ReleaseProvenanceStore>(std::move(reader), documentBase.isEmpty() ? root : documentBase, std::move(options));
}

std::shared_ptr<ReleaseProvenanceStore> ReleaseProvenanceStore::forFiles(QHash<QString, QByteArray> files, const QString &documentBase,
                                                                         SignatureOptions options)
{
    Reader reader = [files = std::move(files), documentBase](const QString &rel) -> std::optional<Result<QByteArray>> {
        const auto it = files.constFind(rel);
        if (it == files.cend())
            return std::nullopt;
        if (it->size() > kMaxProvenanceFileBytes)
            return Result<QByteArray>(makeError(ErrorCode::InvalidArgument,
                                                u"%1%2 is larger than %3 bytes"_s.arg(documentBase, rel).arg(kMaxProvenanceFileBytes)));
        return Result<QByteArray>(it.value());
    };
    return std::make_shared<ReleaseProvenanceStore>(std::move(reader), documentBase, std::move(options));
}

void ReleaseProvenanceStore::setOptions(SignatureOptions options)
{
    const std::lock_guard lock(m_mutex);
    m_options = std::move(options);
    m_cache.clear();
}

const SignedRelease *ReleaseProvenanceStore::release(const ProviderAddress &provider, const Version &version) const
{
    const QString dir = provenanceRelativeDirectory(provider, version);
    const std::lock_guard lock(m_mutex);
    if (const auto it = m_cache.find(dir); it != m_cache.end())
        return it->second ? &*it->second : nullptr;
    std::optional<SignedRelease> &slot = m_cache[dir];
    const QStringList &names = provenanceFileNames();
    std::optional<Result<QByteArray>> parts[3];
    for (int i = 0; i < 3; ++i)
        parts[i] = m_reader(dir + u'/' + names.at(i));
    if (!parts[0])
        return nullptr; // no proof kept for this release (most mirrors keep none)
    SignedRelease out;
    out.document = m_base + dir + u"/SHA256SUMS"_s;
    for (int i = 0; i < 3 && out.reason.isEmpty(); ++i) {
        if (!parts[i])
            out.reason = u"%1%2/%3 is missing"_s.arg(m_base, dir, names.at(i));
        else if (!parts[i]->ok())
            out.reason = parts[i]->error().message;
    }
    if (out.reason.isEmpty()) {
        const SignatureCheck check = verifyDetachedSignature(parts[0]->value(), parts[1]->value(), {parts[2]->value()}, m_options);
        out.valid = check.valid;
        out.keyId = check.keyId;
        out.fingerprint = check.fingerprint;
        out.userIds = check.userIds;
        out.reason = check.reason;
        if (out.valid) {
            out.entries = sha256SumsEntries(parts[0]->value());
            if (out.entries.isEmpty()) {
                out.valid = false;
                out.reason = u"%1 is signed but is not a checksum list"_s.arg(out.document);
            }
        }
    }
    qCDebug(lcRegistry) << "provenance of" << provider.toString() << version.toString() << (out.valid ? "good" : "not good") << out.keyId
                        << out.reason;
    slot = std::move(out);
    return &*slot;
}

} // namespace provender
