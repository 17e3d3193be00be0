// The filesystem scan inside one provider directory: its versions, platform archives (packed zips
// and unpacked directories) and index documents found, in the walk order installers use.
#include "model/mirror/FileSystemMirror.h"
#include "model/mirror/FileSystemScan.h"

#include "model/mirror/MirrorIndex.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace provender {

using namespace fsscan;

namespace {

/// strings.ToLower: simple (one code point to one code point) lower-case mapping. QString::toLower
/// applies the full mapping (U+0130 becomes two code points), which Go does not.
QString goToLower(const QString &s)
{
    const bool ascii = std::all_of(s.cbegin(), s.cend(), [](QChar c) { return c.unicode() < 0x80; });
    if (ascii)
        return s.toLower();
    QString out;
    out.reserve(s.size());
    const QList<uint> codePoints = s.toUcs4();
    for (uint c : codePoints) {
        const char32_t lower = QChar::toLower(char32_t(c));
        out.append(QString::fromUcs4(&lower, 1));
    }
    return out;
}

/// An archive found by the walk at `entryPath` (file or directory `name`, stat `st`); its size is
/// the caller's.
Archive foundArchive(const Platform &platform, ArchiveLayout layout, const QString &entryPath, const QString &name, const struct stat &st)
{
    Archive a;
    a.platform = platform;
    a.layout = layout;
    a.present = true;
    a.path = entryPath;
    a.fileName = name;
    a.modified = mtimeOf(st);
    a.inode = st.st_ino;
    return a;
}

} // namespace

void DirWalker::walkProvider(int fd, ProviderDir &dir)
{
    DirNames names;
    if (!list(fd, dir.path, names))
        return;
    dir.found.reserve(size_t(names.size()));
    const QString prefix = dir.path + QLatin1Char('/');
    const QString namePrefix = QStringLiteral("terraform-provider-") + dir.address.type() + QLatin1Char('_');
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        const QString name = QFile::decodeName(QByteArray::fromRawData(raw, names.length(i)));
        // Exactly sized: `prefix + name` of two QStrings appends to a copy of `prefix`, which
        // allocates room to grow (almost twice the memory, for 100,000s of paths kept).
        QString entryPath(prefix.size() + name.size(), Qt::Uninitialized);
        std::copy(name.cbegin(), name.cend(), std::copy(prefix.cbegin(), prefix.cend(), entryPath.begin()));
        struct stat st;
        bool isLink = false;
        if (!statEntry(fd, raw, entryPath, st, isLink))
            continue;

        if (S_ISDIR(st.st_mode)) {
            if (isLink) {
                anomaly(AnomalyKind::UnreadableEntry, entryPath,
                        QStringLiteral("symbolic link to a directory not followed: only the mirror directory itself may be a symlink"));
                continue;
            }
            Result<Version> version = Version::parse(name);
            if (!version) {
                anomaly(AnomalyKind::UnparseableName, entryPath, QStringLiteral("not a VERSION directory: ") + version.error().message);
                continue;
            }
            Fd sub(openDir(fd, raw, entryPath));
            if (sub.valid())
                walkVersion(sub.get(), entryPath, dir, version.value());
            continue;
        }
        if (!S_ISREG(st.st_mode)) {
            anomaly(AnomalyKind::UnreadableEntry, entryPath, QStringLiteral("not a regular file (a device, FIFO or socket is never read)"));
            continue;
        }

        if (name == kIndexJson) {
            dir.indexJson = entryPath;
            continue;
        }
        if (name.endsWith(kJsonSuffix)) {
            const QString stem = name.chopped(kJsonSuffix.size());
            Result<Version> version = Version::parse(stem);
            if (!version) {
                anomaly(AnomalyKind::UnparseableName, entryPath,
                        QStringLiteral("neither index.json nor a <version>.json: ") + version.error().message);
            } else if (version->toString() != stem) {
                anomaly(AnomalyKind::UnparseableName, entryPath,
                        QStringLiteral("not the canonical name of a version index: clients request %1.json").arg(version->toString()));
            } else {
                dir.versionJsons.append({version.value(), entryPath});
            }
            continue;
        }
        Result<PackedName> packed = parsePacked(name, namePrefix);
        if (!packed) {
            QString message = packed.error().message;
            if (name.startsWith(QLatin1Char('.')))
                message += QStringLiteral(" (a hidden file: maybe the staging file of an interrupted download)");
            anomaly(AnomalyKind::UnparseableName, entryPath, message);
            continue;
        }
        // A capacity hint for the version's archive list: at the first of a run of names with
        // the same "terraform-provider-TYPE_VERSION_" (sorted names: one version's platforms
        // are adjacent), the length of the run. Only for ASCII names (bytes == characters).
        qsizetype expected = 0;
        if (const qsizetype u = name.indexOf(QLatin1Char('_'), namePrefix.size()); u > 0 && names.length(i) == name.size()) {
            const auto sameVersion = [&](qsizetype j) { return std::strncmp(names.at(j), raw, size_t(u + 1)) == 0; };
            if (i == 0 || !sameVersion(i - 1))
                for (expected = 1; i + expected < names.size() && expected < 1024 && sameVersion(i + expected);)
                    ++expected;
        }
        Archive a = foundArchive(packed->platform, ArchiveLayout::Packed, entryPath, name, st);
        a.size = st.st_size;
        addFound(dir, packed->version, std::move(a), expected);
    }
}

void DirWalker::walkVersion(int fd, const QString &path, ProviderDir &dir, const Version &version)
{
    forEachEntry(fd, path, [&](const char *raw, const QString &name, const QString &entryPath) {
        struct stat st;
        bool isLink = false;
        if (!statEntry(fd, raw, entryPath, st, isLink))
            return;
        if (!S_ISDIR(st.st_mode)) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not a directory: a VERSION directory holds OS_ARCH package directories"));
            return;
        }
        Result<Platform> platform = Platform::parse(name);
        if (!platform) {
            anomaly(AnomalyKind::UnparseableName, entryPath,
                    QStringLiteral("not an OS_ARCH package directory: ") + platform.error().message);
            return;
        }
        Archive a = foundArchive(platform.value(), ArchiveLayout::Unpacked, entryPath, name, st);
        qint64 size = 0;
        Fd sub(openDir(fd, raw, entryPath, /*follow=*/isLink));
        if (sub.valid())
            packageContents(sub.get(), 0, size, a.modified);
        a.size = size;
        addFound(dir, version, std::move(a));
    });
}

/// Sum of the file sizes of a package directory and its newest mtime (so that a changed file
/// inside changes the archive's identity for the hash cache). Symlinked files count with their
/// target's size, like dirhash reads them; symlinked directories are not entered.
void DirWalker::packageContents(int fd, int depth, qint64 &size, QDateTime &newest)
{
    if (depth > 64)
        return;
    DirNames names;
    int error = 0;
    if (!names.read(fd, error))
        return; // the hash of this package will report the failure with its reason
    for (qsizetype i = 0; i < names.size(); ++i) {
        const char *raw = names.at(i);
        struct stat st;
        if (::fstatat(fd, raw, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISLNK(st.st_mode) && ::fstatat(fd, raw, &st, 0) != 0)
            continue;
        const QDateTime m = mtimeOf(st);
        if (m > newest)
            newest = m;
        if (S_ISDIR(st.st_mode)) {
            const int sub = ::openat(fd, raw, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            if (sub >= 0) {
                packageContents(sub, depth + 1, size, newest);
                ::close(sub);
            }
        } else {
            size += st.st_size;
        }
    }
}

namespace {

constexpr QLatin1StringView kZipSuffix(".zip");

/// "VERSION_OS_ARCH[_MORE...]" of a lower-cased packed file name.
Result<PackedName> parsePackedMiddle(QStringView middle)
{
    const qsizetype u1 = middle.indexOf(QLatin1Char('_'));
    const qsizetype u2 = u1 < 0 ? -1 : middle.indexOf(QLatin1Char('_'), u1 + 1);
    if (u2 < 0)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("the name does not include a version number, target OS, and target architecture"));
    const qsizetype u3 = middle.indexOf(QLatin1Char('_'), u2 + 1); // further parts are ignored
    const QStringView versionText = middle.left(u1);
    Result<Version> version = Version::parse(versionText);
    if (!version)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("invalid version \"%1\": %2").arg(versionText.toString(), version.error().message));
    const QStringView platformText = middle.mid(u1 + 1, (u3 < 0 ? middle.size() : u3) - u1 - 1);
    Result<Platform> platform = Platform::parse(platformText);
    if (!platform)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("invalid platform \"%1\": %2").arg(platformText.toString(), platform.error().message));
    return PackedName{version.value(), platform.value()};
}

/// Splits a lower-cased file name into the middle part, or says why it is not a packed archive.
Result<QStringView> packedMiddle(const QString &lower, const QString &prefix)
{
    if (!lower.startsWith(prefix))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("not an archive of this provider: the name lacks the prefix \"%1\"").arg(prefix));
    if (!lower.endsWith(kZipSuffix) || lower.size() < prefix.size() + kZipSuffix.size())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("not an archive: the name lacks the suffix \".zip\""));
    return QStringView(lower).mid(prefix.size(), lower.size() - prefix.size() - kZipSuffix.size());
}

} // namespace

Result<PackedName> parsePackedArchiveName(const QString &fileName, const QString &type)
{
    const QString lower = goToLower(fileName);
    Result<QStringView> middle = packedMiddle(lower, QStringLiteral("terraform-provider-") + type + QLatin1Char('_'));
    if (!middle)
        return middle.error();
    return parsePackedMiddle(middle.value());
}

Result<PackedName> DirWalker::parsePacked(const QString &name, const QString &prefix)
{
    const QString lower = goToLower(name);
    Result<QStringView> middle = packedMiddle(lower, prefix);
    if (!middle)
        return middle.error();
    // Mirrors repeat the same VERSION_OS_ARCH across providers: parse each one once. The lookup
    // key borrows the characters (no allocation); only a new entry is copied.
    const QStringView m = middle.value();
    const QString key = QString::fromRawData(m.data(), m.size());
    if (const auto it = m_packedCache.constFind(key); it != m_packedCache.cend())
        return it.value();
    Result<PackedName> parsed = parsePackedMiddle(m);
    if (parsed && m_packedCache.size() < 200000)
        m_packedCache.insert(m.toString(), parsed.value());
    return parsed;
}

/// Archives arrive in walk order: the first copy of a version/platform is the one installers use.
void DirWalker::addFound(ProviderDir &dir, const Version &version, Archive &&archive, qsizetype expected)
{
    VersionAcc *va = dir.found.empty() ? nullptr : dir.found.back().va; // one version's archives are mostly adjacent
    if (!va || !(va->pv.version == version))
        va = &versionAcc(*dir.acc, version);
    const qsizetype existing = va->primary(archive.platform);
    if (existing < 0) {
        if (va->pv.archives.capacity() == 0 && expected > 1)
            va->pv.archives.reserve(expected); // instead of growing (and copying) it 1, 2, 4, 8, 16
        dir.found.push_back({va, va->pv.archives.size(), false});
        va->pv.archives.append(std::move(archive));
        return;
    }
    anomaly(AnomalyKind::DuplicateArchive, archive.path,
            QStringLiteral("another copy of %1 %2 for %3; installers use the first one, %4")
                .arg(dir.address.toString(), version.toString(), archive.platform.toString(), va->pv.archives.at(existing).path));
    dir.found.push_back({va, va->pv.duplicates.size(), true});
    va->pv.duplicates.append(std::move(archive));
}

} // namespace provender
