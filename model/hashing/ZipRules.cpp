// h1Zip and h1Extracted of a zip from its entries' digests (see ZipRules.h):
//  - h1Zip = Go's dirhash.HashZip: every central-directory name exactly as stored, names ending
//    in '/' hash as empty, a duplicated name gives one line per entry, all with the content of
//    the LAST entry of that name.
//  - h1Extracted = dirhash.HashDir of the folder terraform/tofu extract the zip to (go-getter's
//    ZipDecompressor): directory entries (name ending in '/' or directory attributes) make no
//    file, names are joined like filepath.Join ("a//b", "./a" -> "a/b", "a"), a later entry
//    overwrites an earlier one of the same path.

#include "model/hashing/ZipRules.h"

#include "model/hashing/HashingInternal.h"
#include "model/hashing/Sha256.h"

#include <QHash>
#include <QList>
#include <QSet>

namespace provender::hashing_detail {

namespace {

bool isSlash(char c)
{
    return c == '/' || c == '\\';
}

bool isDriveLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

} // namespace

bool attributesSayDirectory(quint32 versionMadeBy, quint32 externalAttrs)
{
    switch (versionMadeBy >> 8) {
    case 3:  // Unix
    case 19: // macOS
        return ((externalAttrs >> 16) & 0xF000) == 0x4000;
    case 0:  // FAT
    case 11: // NTFS
    case 14: // VFAT
        return (externalAttrs & 0x10) != 0;
    default: return false;
    }
}

bool containsDotDot(const QByteArray &name)
{
    qsizetype start = 0;
    for (qsizetype i = 0; i <= name.size(); ++i) {
        if (i == name.size() || isSlash(name.at(i))) {
            if (i - start == 2 && name.at(start) == '.' && name.at(start + 1) == '.')
                return true;
            start = i + 1;
        }
    }
    return false;
}

bool isUnsafeName(const QByteArray &name)
{
    if (name.isEmpty())
        return false;
    if (isSlash(name.front()))
        return true;
    if (name.size() >= 2 && name.at(1) == ':' && isDriveLetter(name.at(0)))
        return true;
    return containsDotDot(name);
}

QByteArray extractedName(const QByteArray &name)
{
    QList<QByteArrayView> parts;
    const QByteArrayView all(name);
    qsizetype start = 0;
    for (qsizetype i = 0; i <= all.size(); ++i) {
        if (i < all.size() && all.at(i) != '/')
            continue;
        const QByteArrayView part = all.sliced(start, i - start);
        start = i + 1;
        if (part.isEmpty() || part == ".")
            continue;
        if (part == "..") {
            if (!parts.isEmpty())
                parts.removeLast();
            continue;
        }
        parts.append(part);
    }
    QByteArray out;
    out.reserve(name.size());
    for (QByteArrayView part : std::as_const(parts)) {
        if (!out.isEmpty())
            out += '/';
        out += part;
    }
    return out;
}

namespace {

/// h1Zip: every name as stored, each with the content of the last entry of that name. Null with
/// `problem` set when Go's HashZip would fail.
Result<void> combineH1Zip(const std::vector<ZipEntryDigest> &entries, PackageHashes &out)
{
    QString problem;
    for (const ZipEntryDigest &e : entries) {
        // Go's File.Open returns no data for these, and fails if the header claims some.
        if (e.dirByName && e.uncompressedSize != 0) {
            problem = QStringLiteral("directory entry %1 declares %2 bytes of data (Go's zip reader refuses "
                                     "to open it)")
                          .arg(displayName(e.name))
                          .arg(e.uncompressedSize);
            break;
        }
    }
    if (!problem.isEmpty()) {
        out.h1ZipError = problem;
        return {};
    }
    const QByteArray empty = Sha256::emptyDigest();
    QHash<QByteArray, const QByteArray *> lastByName;
    lastByName.reserve(qsizetype(entries.size()));
    for (const ZipEntryDigest &e : entries)
        lastByName.insert(e.name, e.dirByName ? &empty : &e.digest);
    QList<DirhashEntry> lines;
    lines.reserve(qsizetype(entries.size()));
    for (const ZipEntryDigest &e : entries)
        lines.append(DirhashEntry{e.name, *lastByName.value(e.name)});
    Result<HashString> h1 = dirhash1(std::move(lines));
    if (!h1.ok())
        return h1.error();
    out.h1Zip = h1.value();
    return {};
}

/// h1Extracted: the files go-getter would write, later entries overwriting earlier ones.
/// Whatever go-getter would refuse is noted in extractionProblem (its wording where it has one).
Result<void> combineH1Extracted(const std::vector<ZipEntryDigest> &entries, PackageHashes &out)
{
    QHash<QByteArray, const QByteArray *> extracted;
    QSet<QByteArray> directories;
    extracted.reserve(qsizetype(entries.size()));
    for (const ZipEntryDigest &e : entries) {
        if (out.extractionProblem.isEmpty() && containsDotDot(e.name))
            out.extractionProblem = QStringLiteral("entry contains '..': %1").arg(QString::fromUtf8(e.name));
        const QByteArray path = extractedName(e.name);
        for (qsizetype slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1))
            directories.insert(path.left(slash));
        if (e.dirByName || e.dirByMode) {
            directories.insert(path);
            continue;
        }
        if (path.isEmpty()) {
            if (out.extractionProblem.isEmpty()) {
                out.extractionProblem = QStringLiteral("entry %1 would be written over the package folder itself").arg(displayName(e.name));
            }
            continue;
        }
        extracted.insert(path, &e.digest);
    }
    if (entries.empty())
        out.extractionProblem = QStringLiteral("empty archive");
    if (out.extractionProblem.isEmpty()) {
        for (auto it = extracted.cbegin(); it != extracted.cend(); ++it) {
            if (directories.contains(it.key())) {
                out.extractionProblem = QStringLiteral("%1 is both a file and a directory").arg(displayName(it.key()));
                break;
            }
        }
    }
    QList<DirhashEntry> files;
    files.reserve(extracted.size());
    for (auto it = extracted.cbegin(); it != extracted.cend(); ++it)
        files.append(DirhashEntry{it.key(), *it.value()});
    out.executableCandidates = executableCandidatesOf(extracted.keys());
    Result<HashString> h1 = dirhash1(std::move(files));
    if (!h1.ok())
        return h1.error();
    out.h1Extracted = h1.value();
    return {};
}

} // namespace

Result<void> combineZipDigests(const std::vector<ZipEntryDigest> &entries, PackageHashes &out)
{
    for (const ZipEntryDigest &e : entries) {
        if (e.dirByName || e.dirByMode)
            out.hasDirectoryEntries = true;
        if (isUnsafeName(e.name))
            out.unsafeNames.append(QString::fromUtf8(e.name));
    }
    if (Result<void> zip = combineH1Zip(entries, out); !zip.ok())
        return zip;
    return combineH1Extracted(entries, out);
}

} // namespace provender::hashing_detail
