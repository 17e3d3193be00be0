// libFuzzer target for the two metadata files a bundle carries (model/bundle/BundleFormat.h):
// provender-bundle.json (parseBundleManifest) and SHA256SUMS (parseSha256Sums). Every input is
// read as both. Besides "no crash, no hang, no leak, no UB" it checks:
//  - an error has a message (SHA256SUMS: and the line it is about);
//  - SHA256SUMS that reads holds only safe relative paths, and written back (renderSha256Sums)
//    reads back to the same list;
//  - a manifest that reads, written back (renderBundleManifest), reads back and writes the same
//    bytes again (writing is a fixed point).

#include "FuzzSupport.h"

#include "model/bundle/BundleFormat.h"

#include <cstdint>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail = {})
{
    fuzz::fail("fuzz_bundlemeta", what, detail);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));

    const Result<QMap<QString, QByteArray>> sums = parseSha256Sums(bytes);
    if (sums) {
        for (auto it = sums->cbegin(); it != sums->cend(); ++it) {
            const QString &p = it.key();
            if (p.isEmpty() || p.startsWith(u'/') || it.value().size() != 32)
                fail("SHA256SUMS holds an empty or absolute path or a short digest", p.toUtf8());
            for (const QString &part : p.split(u'/'))
                if (part == u"..")
                    fail("SHA256SUMS holds a path with '..'", p.toUtf8());
        }
        const QByteArray written = renderSha256Sums(sums.value());
        const Result<QMap<QString, QByteArray>> again = parseSha256Sums(written);
        if (!again || again.value() != sums.value())
            fail("SHA256SUMS written back reads back to another list", written);
    } else if (sums.error().message.isEmpty() || !sums.error().location.isValid()) {
        fail("a SHA256SUMS error without a message or line");
    }

    const Result<BundleManifest> manifest = parseBundleManifest(bytes);
    if (manifest) {
        const QByteArray written = renderBundleManifest(manifest.value());
        const Result<BundleManifest> again = parseBundleManifest(written);
        if (!again)
            fail("a manifest written back does not read back", written);
        if (renderBundleManifest(again.value()) != written)
            fail("writing a manifest is not a fixed point", written);
    } else if (manifest.error().message.isEmpty()) {
        fail("a manifest error without a message");
    }
    return 0;
}
