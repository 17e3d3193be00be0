// libFuzzer target for the readers of zip structure (docs/FUZZING.md): hashZip() (QuaZip/minizip
// finds the end record and walks the central directory; our code checks the entries, reads and
// inflates their data and combines the digests), the streaming walker of model/bundle
// (StreamingZipHasher.h: local headers, data descriptors, central directory and end records in
// one front-to-back pass) and a zip bundle's end-record check with libarchive's seekable zip
// reader behind it (BundleReader::open on the same file). Besides "no crash, no hang, no leak,
// no UB" it checks:
//  - the stream reads every byte: its size and SHA-256 are the input's, however it is chunked;
//  - when the stream says Hashed, hashZip() succeeds on the same bytes with identical
//    PackageHashes (the stream's promise: it never claims a result hashZip() would not give);
//  - hashZip()'s zh: is the SHA-256 of the input, and its counts are consistent.

#include "FuzzSupport.h"

#include "model/bundle/BundleArchive.h"
#include "model/hashing/PackageHashes.h"
#include "model/hashing/StreamingZipHasher.h"

#include <QCryptographicHash>

#include <cstdint>

using namespace provender;
using namespace provender::bundle_detail;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail = {})
{
    fuzz::fail("fuzz_zip", what, detail);
}

QByteArray describe(const PackageHashes &h)
{
    return QStringLiteral("zh=%1 h1Zip=%2 h1ZipError=%3 h1Extracted=%4 dirs=%5 problem=%6 unsafe=[%7] size=%8 content=%9 entries=%10")
        .arg(h.zh.toString(), h.h1Zip.toString(), h.h1ZipError, h.h1Extracted.toString())
        .arg(h.hasDirectoryEntries)
        .arg(h.extractionProblem, h.unsafeNames.join(u','))
        .arg(h.fileSize)
        .arg(h.contentBytes)
        .arg(h.entryCount)
        .toUtf8();
}

/// The bytes in chunks of 1..4096 bytes from a generator seeded with the input's length, so
/// that headers and descriptors straddle chunk boundaries in ever other places.
Result<StreamingZipOutcome> hashStream(const QByteArray &bytes)
{
    quint64 state = quint64(bytes.size()) * 0x9E3779B97F4A7C15ull + 1;
    qsizetype at = 0;
    const PullBytes pull = [&]() -> Result<QByteArrayView> {
        if (at >= bytes.size())
            return QByteArrayView();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        const qsizetype n = qMin<qsizetype>(qsizetype(1 + state % 4096), bytes.size() - at);
        const QByteArrayView view(bytes.constData() + at, n);
        at += n;
        return view;
    };
    return hashZipStream(pull, qint64(64) << 20);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const QByteArray sha = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
    const QString path = fuzz::writeScratchFile(QStringLiteral("input.zip"), bytes);

    const Result<PackageHashes> reference = hashZip(path);
    if (reference) {
        const PackageHashes &h = reference.value();
        if (h.zh.toString() != u"zh:" + QString::fromLatin1(sha.toHex()) || h.fileSize != bytes.size())
            fail("hashZip's zh: or size is not the file's", describe(h));
        if (h.entryCount < 0 || h.contentBytes < 0 || (h.h1Zip.isNull() == h.h1ZipError.isEmpty()) || h.h1Extracted.isNull())
            fail("hashZip's result is inconsistent", describe(h));
    } else if (reference.error().message.isEmpty()) {
        fail("hashZip failed without a message");
    }

    const Result<StreamingZipOutcome> streamed = hashStream(bytes);
    if (!streamed)
        fail("hashZipStream failed although its input cannot fail", streamed.error().message.toUtf8());
    const StreamingZipOutcome &s = streamed.value();
    if (s.size != bytes.size() || s.sha256 != sha)
        fail("the stream did not read every byte");
    if (s.status == StreamingZipOutcome::Status::Hashed) {
        if (!reference)
            fail("the stream hashed a zip that hashZip refuses", reference.error().message.toUtf8());
        if (describe(s.hashes) != describe(reference.value()))
            fail("the stream and hashZip disagree", describe(s.hashes) + "\n---\n" + describe(reference.value()));
    } else if (s.reason.isEmpty()) {
        fail("NeedsRandomAccess without a reason");
    }

    // A zip bundle: the end-record check, then libarchive's seekable reader lists the entries.
    BundleReader reader;
    if (reader.open(path)) {
        BundleEntry entry;
        for (int i = 0; i < 10000; ++i) {
            Result<bool> more = reader.next(entry);
            if (!more || !more.value())
                break;
            (void)checkEntry(entry);
        }
    }
    return 0;
}
