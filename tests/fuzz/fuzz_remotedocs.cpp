// libFuzzer target for the documents Provender reads from origin and OCI registries, which come
// from servers nobody reviewed: a registry's versions and download documents (with OpenTofu's
// `packages`, model/registry/RegistryDocuments.h), a release's SHA256SUMS (model/core/Sha256Sums.h),
// and an OCI image index, image manifest and digest (model/oci/OciFormat.h). The first byte picks
// the reader, the rest is the document. Besides "no crash, no hang, no leak, no UB" it checks:
//  - every error has a message;
//  - a download document read without error is for the platform asked for, has a 32-byte shasum,
//    http(s) URLs only, and `packages` sorted by platform with package() finding each entry;
//  - SHA256SUMS: every entry has 32 bytes; the lookup of an entry's name answers the first line
//    with that name;
//  - an OCI digest accepted by hashFromOciDigest() is a zh: of 64 lowercase hex digits, the same
//    digits as the input.

#include "FuzzSupport.h"

#include "model/core/Sha256Sums.h"
#include "model/oci/OciFormat.h"
#include "model/registry/RegistryDocuments.h"

#include <QByteArray>
#include <QUrl>

#include <cstdint>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail = {})
{
    fuzz::fail("fuzz_remotedocs", what, detail);
}

template<typename T> void needsMessage(const Result<T> &r, const char *reader)
{
    if (!r.ok() && r.error().message.isEmpty())
        fail(reader);
}

bool httpUrl(const QUrl &url)
{
    return url.isEmpty() || url.scheme() == QLatin1StringView("https") || url.scheme() == QLatin1StringView("http");
}

void registryDownload(const QByteArray &doc)
{
    const Platform requested(QStringLiteral("linux"), QStringLiteral("amd64"));
    const QUrl url(QStringLiteral("https://registry.example/v1/providers/acme/thing/1.0.0/download/linux/amd64"));
    const Result<RegistryDownload> r = parseRegistryDownload(doc, url, requested);
    needsMessage(r, "a download document error without a message");
    if (!r.ok())
        return;
    const RegistryDownload &d = r.value();
    if (d.platform != requested)
        fail("a download document accepted for another platform", d.platform.toString().toUtf8());
    if (d.sha256.size() != 32)
        fail("a shasum that is not 32 bytes", d.sha256.toHex());
    if (!httpUrl(d.downloadUrl) || !httpUrl(d.shasumsUrl) || !httpUrl(d.shasumsSignatureUrl))
        fail("a URL that is not http(s)", d.downloadUrl.toEncoded());
    for (qsizetype i = 0; i < d.packages.size(); ++i) {
        if (i > 0 && !(d.packages.at(i - 1).platform < d.packages.at(i).platform))
            fail("packages not sorted by platform (or a platform twice)", d.packages.at(i).platform.toString().toUtf8());
        const RegistryPackage *found = d.package(d.packages.at(i).platform);
        if (!found || found->platform != d.packages.at(i).platform)
            fail("package() does not find a listed platform", d.packages.at(i).platform.toString().toUtf8());
    }
}

void sha256Sums(const QByteArray &doc)
{
    const QList<Sha256SumsEntry> entries = sha256SumsEntries(doc);
    for (const Sha256SumsEntry &e : entries) {
        if (e.sha256.size() != 32)
            fail("a SHA256SUMS entry that is not 32 bytes", e.filename.toUtf8());
    }
    if (entries.isEmpty())
        return;
    const QString name = entries.constFirst().filename;
    const Result<QByteArray> found = sha256SumsLookup(doc, name);
    needsMessage(found, "a SHA256SUMS lookup error without a message");
    if (found.ok() && found.value() != entries.constFirst().sha256)
        fail("the lookup of the first entry's name is not the first entry", name.toUtf8());
}

void ociDigest(const QByteArray &doc)
{
    const QString digest = QString::fromUtf8(doc);
    const Result<HashString> r = oci::hashFromOciDigest(digest);
    needsMessage(r, "an OCI digest error without a message");
    if (!r.ok())
        return;
    const QString zh = r.value().toString();
    if (zh.size() != 67 || !zh.startsWith(QLatin1StringView("zh:")) || zh.mid(3) != digest.mid(7))
        fail("an OCI digest read as something else", zh.toUtf8());
    for (const QChar c : zh.mid(3)) {
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f')))
            fail("an OCI digest with a character that is not lowercase hex", zh.toUtf8());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray doc(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    switch (data[0] % 6) {
    case 0: needsMessage(parseRegistryVersions(doc), "a versions document error without a message"); break;
    case 1: registryDownload(doc); break;
    case 2: sha256Sums(doc); break;
    case 3: needsMessage(oci::parseIndex(doc), "an OCI index error without a message"); break;
    case 4: needsMessage(oci::parseManifest(doc), "an OCI manifest error without a message"); break;
    default: ociDigest(doc); break;
    }
    return 0;
}
