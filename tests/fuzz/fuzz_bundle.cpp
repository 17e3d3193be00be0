// libFuzzer target for the bundle entry reader (model/bundle/BundleArchive.h): the input is a
// bundle file (tar behind any filter libarchive recognises, or zip) read by BundleReader and
// runBundlePass() as openBundle(verify) reads it — every accepted file's data pulled through the
// limits, `.zip` entries through the streaming zip hasher — and the metadata it collects given
// to the readers of SHA256SUMS, the manifest and the index documents. Besides "no crash, no
// hang, no leak, no UB" it checks what the entry checks promise (docs/BUNDLES.md), with rules
// written here independently of checkEntry():
//  - an accepted name is valid UTF-8, relative, without control characters, `..`, `.` or empty
//    components, and no accepted file shares its name with another entry or with a directory;
//  - no entry serves more bytes than its declared size or the per-entry limit, the bundle no
//    more than the total limit, the metadata no more than its limit; the counts add up;
//  - SHA256SUMS that reads writes back (renderSha256Sums) to a text that reads to the same map.

#include "FuzzSupport.h"

#include "model/bundle/BundleArchive.h"
#include "model/bundle/BundleFormat.h"
#include "model/hashing/Sha256.h"
#include "model/hashing/StreamingZipHasher.h"
#include "model/mirror/MirrorIndex.h"

#include <QHash>
#include <QSet>

#include <cstdint>

using namespace provender;
using namespace provender::bundle_detail;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail = {})
{
    fuzz::fail("fuzz_bundle", what, detail);
}

BundleLimits limits()
{
    BundleLimits l;
    l.maxEntryBytes = qint64(8) << 20;
    l.maxTotalBytes = qint64(32) << 20;
    l.maxEntries = 4096;
    l.maxMetadataBytes = qint64(1) << 20;
    return l;
}

bool isMetadata(const QString &name)
{
    const QString base = name.section(QLatin1Char('/'), -1);
    return base == kBundleSumsName || base == kBundleManifestName || name.endsWith(QLatin1StringView(".json"));
}

/// The naming rules, restated: what an accepted entry's cleaned name must look like.
bool isCleanName(const QString &name, const QByteArray &raw)
{
    if (name.isEmpty() || QString::fromUtf8(raw).toUtf8() != raw)
        return false;
    if (name.startsWith(u'/') || name.startsWith(u'\\') || (name.size() >= 2 && name.at(1) == u':' && name.at(0).isLetter()))
        return false;
    for (QChar c : name)
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            return false;
    for (const QString &part : name.split(u'/')) {
        if (part.isEmpty() || part == u"." || part == u"..")
            return false;
        for (const QString &sub : part.split(u'\\'))
            if (sub == u"..")
                return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString path = fuzz::writeScratchFile(QStringLiteral("input.bundle"), bytes);
    BundleReader reader;
    if (Result<void> opened = reader.open(path); !opened) {
        if (opened.error().message.isEmpty())
            fail("open failed without a message");
        return 0;
    }
    const BundleLimits l = limits();

    QHash<QString, qint64> served; // entry name -> bytes pulled
    qint64 servedTotal = 0;
    const FileHandler onFile = [&](const BundleEntry &e, const PullBytes &pull, QString *) -> Result<void> {
        qint64 &got = served[e.name];
        const PullBytes counting = [&]() -> Result<QByteArrayView> {
            Result<QByteArrayView> block = pull();
            if (block) {
                got += block->size();
                servedTotal += block->size();
            }
            return block;
        };
        if (e.name.endsWith(QLatin1StringView(".zip"), Qt::CaseInsensitive)) {
            Result<StreamingZipOutcome> z = hashZipStream(counting, l.maxEntryBytes);
            if (!z)
                return z.error();
            if (z->size != got)
                fail("the streaming zip hasher's size is not what it read");
            return {};
        }
        Sha256 sha;
        for (;;) {
            Result<QByteArrayView> block = counting();
            if (!block)
                return block.error();
            if (block->isEmpty())
                return {};
            sha.addData(block->data(), std::size_t(block->size()));
        }
    };

    const Result<BundlePass> passed = runBundlePass(reader, l, isMetadata, onFile, {});
    if (!passed) {
        if (passed.error().message.isEmpty())
            fail("the pass failed without a message");
        return 0;
    }
    const BundlePass &pass = passed.value();

    if (pass.entryCount > l.maxEntries + 1)
        fail("more entries read than the limit");
    if (pass.entries.size() > pass.entryCount || pass.problems.size() > pass.entryCount + 1)
        fail("more entries or problems than entries read");
    if (servedTotal > l.maxTotalBytes || pass.contentBytes > l.maxTotalBytes)
        fail("the bundle served more than the total limit");
    for (const BundleEntryProblem &p : pass.problems)
        if (p.message.isEmpty())
            fail("a problem without a message", p.entry.toUtf8());

    QHash<QString, BundleEntry::Type> seen; // name -> type, accepted entries
    QSet<QString> parents;
    for (const BundleEntry &e : pass.entries) {
        if (!isCleanName(e.name, e.rawName))
            fail("an accepted entry has an unsafe name", e.rawName);
        if (e.type == BundleEntry::Type::Special)
            fail("an accepted special file", e.rawName);
        const bool isDir = e.type == BundleEntry::Type::Directory;
        if (const auto it = seen.constFind(e.name); it != seen.cend() && !(isDir && it.value() == BundleEntry::Type::Directory))
            fail("two accepted entries of the same name", e.rawName);
        seen.insert(e.name, e.type);
        for (qsizetype slash = e.name.indexOf(u'/'); slash >= 0; slash = e.name.indexOf(u'/', slash + 1))
            parents.insert(e.name.left(slash));
        if (!e.refused.isEmpty()) {
            // Refused for its size: listed (for its verdict), never read.
            if (served.value(e.name) != 0)
                fail("a refused entry served data", e.rawName);
            continue;
        }
        if (e.type == BundleEntry::Type::File) {
            if (e.sizeKnown && e.size > l.maxEntryBytes)
                fail("an accepted entry beyond the per-entry limit", e.rawName);
            const qint64 got = served.value(e.name);
            if ((e.sizeKnown && got > e.size) || got > l.maxEntryBytes)
                fail("an entry served more than its declared size or the limit", e.rawName);
        }
    }
    for (const QString &parent : std::as_const(parents)) {
        const auto it = seen.constFind(parent);
        if (it != seen.cend() && it.value() != BundleEntry::Type::Directory)
            fail("an accepted file is also a directory", parent.toUtf8());
    }

    qint64 metadataBytes = 0;
    for (auto it = pass.metadata.cbegin(); it != pass.metadata.cend(); ++it) {
        metadataBytes += it.value().size();
        const QString base = it.key().section(QLatin1Char('/'), -1);
        if (base == kBundleSumsName) {
            const Result<QMap<QString, QByteArray>> sums = parseSha256Sums(it.value());
            if (sums) {
                const QByteArray written = renderSha256Sums(sums.value());
                const Result<QMap<QString, QByteArray>> again = parseSha256Sums(written);
                if (!again || again.value() != sums.value())
                    fail("SHA256SUMS written back reads back to another list", written);
            }
        } else if (base == kBundleManifestName) {
            (void)parseBundleManifest(it.value());
        } else if (base == u"index.json") {
            (void)parseIndexJson(it.value(), it.key());
        } else {
            (void)parseVersionJson(it.value(), it.key());
        }
    }
    if (metadataBytes > l.maxMetadataBytes)
        fail("more metadata held than the limit");
    return 0;
}
