#include "model/bundle/BundleArchive.h"

#include "model/core/Logging.h"

#include <QFile>
#include <QFileInfo>

#include <archive.h>
#include <archive_entry.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include <algorithm>
#include <cstring>

namespace provender::bundle_detail {

namespace {

constexpr std::size_t kZeroBlock = std::size_t(256) << 10;
constexpr std::size_t kReadBlock = std::size_t(256) << 10;

BundleFormat formatFromFilter(int code)
{
    switch (code) {
    case ARCHIVE_FILTER_GZIP: return BundleFormat::TarGz;
    case ARCHIVE_FILTER_XZ:
    case ARCHIVE_FILTER_LZMA: return BundleFormat::TarXz;
    case ARCHIVE_FILTER_ZSTD: return BundleFormat::TarZst;
    default: return BundleFormat::Tar;
    }
}

BundleEntryProblem problem(BundleEntryProblem::Kind kind, const BundleEntry &e, const QString &message)
{
    return BundleEntryProblem{kind, displayEntryName(e.rawName), message};
}

bool isSeparator(QChar c)
{
    return c == QLatin1Char('/') || c == QLatin1Char('\\');
}

/// Components of `path` split on '/' and '\'.
QList<QStringView> componentsBothSeparators(QStringView path)
{
    QList<QStringView> out;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= path.size(); ++i) {
        if (i == path.size() || isSeparator(path.at(i))) {
            out.append(path.sliced(start, i - start));
            start = i + 1;
        }
    }
    return out;
}

bool hasDriveLetter(QStringView s)
{
    return s.size() >= 2 && s.at(1) == QLatin1Char(':') && s.at(0).unicode() < 0x80 && s.at(0).isLetter();
}

quint32 le32(const char *p)
{
    return quint32(uchar(p[0])) | (quint32(uchar(p[1])) << 8) | (quint32(uchar(p[2])) << 16) | (quint32(uchar(p[3])) << 24);
}
quint64 le64(const char *p)
{
    return quint64(le32(p)) | (quint64(le32(p + 4)) << 32);
}

/// A zip bundle must end with its own end record, and its central directory must sit right
/// before it. A truncated zip bundle would otherwise be "opened" through the end record of a zip
/// stored inside it (libarchive, like minizip, searches backwards and corrects offsets).
QString checkZipEnd(QFile &file, qint64 size)
{
    const qint64 window = qMin<qint64>(size, 0xffff + 22);
    if (!file.seek(size - window))
        return QStringLiteral("cannot read the end of the file");
    const QByteArray tail = file.read(window);
    if (tail.size() != window)
        return QStringLiteral("cannot read the end of the file");
    for (qsizetype i = tail.size() - 22; i >= 0; --i) {
        const char *p = tail.constData() + i;
        if (le32(p) != 0x06054b50)
            continue;
        const qint64 at = size - window + i;
        const quint16 commentLength = quint16(uchar(p[20]) | (uchar(p[21]) << 8));
        if (at + 22 + commentLength != size)
            continue; // a signature inside the comment or the data: keep looking further back
        quint64 dirSize = le32(p + 12);
        quint64 dirOffset = le32(p + 16);
        qint64 dirEnd = at;
        if (dirOffset == 0xffffffffu || dirSize == 0xffffffffu) {
            if (i < 20 || le32(p - 20) != 0x07064b50)
                return QStringLiteral("a zip64 end record without its locator");
            const qint64 zip64End = qint64(le64(p - 20 + 8));
            if (zip64End < 0 || zip64End > at - 20 - 56 || !file.seek(zip64End)) // no overflow near 2^63
                return QStringLiteral("the zip64 locator points outside the file");
            const QByteArray record = file.read(56);
            if (record.size() != 56 || le32(record.constData()) != 0x06064b50)
                return QStringLiteral("no zip64 end record where the locator points");
            dirSize = le64(record.constData() + 40);
            dirOffset = le64(record.constData() + 48);
            dirEnd = zip64End;
        }
        if (dirOffset + dirSize != quint64(dirEnd))
            return QStringLiteral("the central directory is not where the end record says (truncated, or data before the zip)");
        return {};
    }
    return QStringLiteral("no end-of-central-directory record at the end of the file (truncated?)");
}

/// Compressions libarchive knows that Provender refuses, by their magic bytes: for a clear message
/// (they are never handed to libarchive, whose support for several runs an external program).
QString refusedCompression(const QByteArray &head)
{
    struct Magic
    {
        QByteArrayView bytes;
        const char *name;
    };
    static const Magic magics[] = {
        {QByteArrayView("BZh", 3), "bzip2"},
        {QByteArrayView("\x89LZO\x00\r\n\x1a\n", 9), "lzop"},
        {QByteArrayView("LRZI", 4), "lrzip"},
        {QByteArrayView("GRZipII\x00\x02\x04:)", 12), "grzip"},
        {QByteArrayView("\x04\x22\x4d\x18", 4), "lz4"},
        {QByteArrayView("\x02\x21\x4c\x18", 4), "lz4 (legacy format)"},
        {QByteArrayView("LZIP", 4), "lzip"},
        {QByteArrayView("\x1f\x9d", 2), "compress (.Z)"},
        {QByteArrayView("\x1f\xa0", 2), "compress (LZH)"},
        {QByteArrayView("\x5d\x00\x00", 3), "lzma (the legacy .lzma format)"},
        {QByteArrayView("begin ", 6), "uuencode"},
        {QByteArrayView("\xed\xab\xee\xdb", 4), "rpm"},
        {QByteArrayView("7z\xbc\xaf\x27\x1c", 6), "7-Zip"},
        {QByteArrayView("Rar!\x1a\x07", 6), "RAR"},
    };
    for (const Magic &m : magics) {
        if (head.startsWith(m.bytes))
            return QString::fromLatin1(m.name);
    }
    return {};
}

/// The filters Provender reads, each only if this libarchive decompresses it in-process: the
/// support call returns ARCHIVE_WARN ("Using external ... program") when it would fork one.
struct Filters
{
    bool gzip = false;
    bool xz = false;
    bool zstd = false;
};

const Filters &inProcessFilters()
{
    static const Filters filters = [] {
        auto probe = [](int (*support)(struct archive *)) {
            struct archive *a = archive_read_new();
            const int rc = a ? support(a) : ARCHIVE_FATAL;
            if (a)
                archive_read_free(a);
            if (rc != ARCHIVE_OK)
                qCWarning(lcMirror) << "bundle: a libarchive filter is not available in-process; bundles compressed with it are refused";
            return rc == ARCHIVE_OK;
        };
        return Filters{probe(archive_read_support_filter_gzip), probe(archive_read_support_filter_xz),
                       probe(archive_read_support_filter_zstd)};
    }();
    return filters;
}

/// `202E` for U+202E.
QString codePoint(char32_t c)
{
    return QString::number(uint(c), 16).toUpper().rightJustified(4, QLatin1Char('0'));
}

bool isBidiControl(char32_t c)
{
    return u_hasBinaryProperty(UChar32(c), UCHAR_BIDI_CONTROL);
}

/// NFD(toCasefold(NFD(s))): Unicode's canonical caseless match key (D145). Empty on an ICU error.
QString caselessKey(const QString &s)
{
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
    if (U_FAILURE(status))
        return {};
    auto normalize = [&](const std::u16string &in) {
        std::u16string out(in.size() * 4 + 16, u'\0');
        UErrorCode st = U_ZERO_ERROR;
        const int32_t n = unorm2_normalize(nfd, reinterpret_cast<const UChar *>(in.data()), int32_t(in.size()),
                                           reinterpret_cast<UChar *>(out.data()), int32_t(out.size()), &st);
        if (U_FAILURE(st))
            return std::u16string();
        out.resize(std::size_t(n));
        return out;
    };
    const std::u16string first = normalize(s.toStdU16String());
    if (first.empty() && !s.isEmpty())
        return {};
    std::u16string folded(first.size() * 3 + 16, u'\0');
    const int32_t n = u_strFoldCase(reinterpret_cast<UChar *>(folded.data()), int32_t(folded.size()),
                                    reinterpret_cast<const UChar *>(first.data()), int32_t(first.size()), U_FOLD_CASE_DEFAULT, &status);
    if (U_FAILURE(status))
        return {};
    folded.resize(std::size_t(n));
    return QString::fromStdU16String(normalize(folded));
}

/// `a/./b//c/` -> `a/b/c`
QString cleanName(QStringView name)
{
    QStringList kept;
    for (QStringView part : name.split(QLatin1Char('/'))) {
        if (part.isEmpty() || part == u".")
            continue;
        kept.append(part.toString());
    }
    return kept.join(QLatin1Char('/'));
}

} // namespace

QString displayEntryName(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (const char32_t c : name.toUcs4()) {
        if (isBidiControl(c))
            out += QStringLiteral("<U+%1>").arg(codePoint(c));
        else
            out += QString::fromUcs4(&c, 1);
    }
    return out;
}

QString displayEntryName(const QByteArray &raw)
{
    return displayEntryName(QString::fromUtf8(raw));
}

BundleReader::BundleReader() = default;

BundleReader::~BundleReader()
{
    if (m_archive)
        archive_read_free(m_archive);
}

Error BundleReader::archiveError(const QString &what) const
{
    const char *text = m_archive ? archive_error_string(m_archive) : nullptr;
    const QString reason = text ? QString::fromLocal8Bit(text) : QStringLiteral("unknown error");
    return makeError(ErrorCode::CorruptArchive, what + QStringLiteral(": ") + reason);
}

Result<void> BundleReader::open(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return makeError(ErrorCode::NotFound, QStringLiteral("%1: no such file").arg(path));
    if (QFileInfo(path).isDir())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: is a directory, not a bundle file").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, QStringLiteral("%1: cannot open: %2").arg(path, file.errorString()));
    m_fileSize = file.size();
    const QByteArray head = file.read(16);
    const bool zip = head.startsWith("PK\x03\x04") || head.startsWith("PK\x05\x06");
    if (zip) {
        if (const QString problem = checkZipEnd(file, m_fileSize); !problem.isEmpty())
            return makeError(ErrorCode::CorruptArchive, QStringLiteral("%1: not a readable zip: %2").arg(path, problem));
    }
    file.close();
    const QString formats = QStringLiteral("a bundle is a .tar, .tar.gz, .tar.xz, .tar.zst or .zip file");
    if (!zip) {
        if (const QString other = refusedCompression(head); !other.isEmpty()) {
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("%1: compressed with %2, which Provender does not read (%3; Provender never runs an "
                                            "external decompressor on a bundle)")
                                 .arg(path, other, formats));
        }
    }

    m_archive = archive_read_new();
    if (!m_archive)
        return makeError(ErrorCode::Internal, QStringLiteral("libarchive: out of memory"));
    if (zip) {
        // Seekable: entries come from the central directory, like every other zip reader we match.
        archive_read_support_format_zip_seekable(m_archive);
    } else {
        // Explicitly these filters and no others: archive_read_support_filter_all() would also
        // enable lrzip, grzip (always an external program), lzop, lz4, bzip2 (an external program
        // when libarchive lacks the library), ...
        const Filters &filters = inProcessFilters();
        if (filters.gzip)
            archive_read_support_filter_gzip(m_archive);
        if (filters.xz)
            archive_read_support_filter_xz(m_archive);
        if (filters.zstd)
            archive_read_support_filter_zstd(m_archive);
        archive_read_support_format_tar(m_archive);
    }
    if (archive_read_open_filename(m_archive, QFile::encodeName(path).constData(), kReadBlock) != ARCHIVE_OK) {
        const Error e = archiveError(path);
        return makeError(ErrorCode::CorruptArchive, e.message + QStringLiteral(" (") + formats + QStringLiteral(")"));
    }
    for (int i = 0; i < archive_filter_count(m_archive); ++i) {
        const int code = archive_filter_code(m_archive, i);
        if (code != ARCHIVE_FILTER_NONE && code != ARCHIVE_FILTER_GZIP && code != ARCHIVE_FILTER_XZ && code != ARCHIVE_FILTER_ZSTD) {
            const char *name = archive_filter_name(m_archive, i);
            return makeError(ErrorCode::Unsupported,
                             QStringLiteral("%1: compressed with %2, which Provender does not read (%3)")
                                 .arg(path, QString::fromLatin1(name ? name : "an unknown filter"), formats));
        }
    }
    m_format = zip ? BundleFormat::Zip : BundleFormat::Tar;
    if (!m_zeros) {
        m_zeros.reset(new char[kZeroBlock]);
        std::memset(m_zeros.get(), 0, kZeroBlock);
    }
    return {};
}

qint64 BundleReader::bytesConsumed() const
{
    if (!m_archive)
        return 0;
    // The last filter reads the file itself.
    const int count = archive_filter_count(m_archive);
    return count > 0 ? qint64(archive_filter_bytes(m_archive, count - 1)) : 0;
}

Result<bool> BundleReader::next(BundleEntry &entry)
{
    struct archive_entry *e = nullptr;
    const int rc = archive_read_next_header(m_archive, &e);
    if (rc == ARCHIVE_EOF)
        return false;
    if (rc < ARCHIVE_WARN || !e)
        return archiveError(QStringLiteral("cannot read the next entry"));
    if (rc == ARCHIVE_WARN)
        qCDebug(lcMirror) << "bundle: warning:" << archive_error_string(m_archive);
    if (m_format != BundleFormat::Zip)
        m_format = formatFromFilter(archive_filter_code(m_archive, 0));

    entry = BundleEntry{};
    const char *utf8 = archive_entry_pathname_utf8(e);
    const char *raw = utf8 ? utf8 : archive_entry_pathname(e);
    entry.rawName = raw ? QByteArray(raw) : QByteArray();
    const char *hardlink = archive_entry_hardlink_utf8(e);
    if (!hardlink)
        hardlink = archive_entry_hardlink(e);
    const mode_t type = archive_entry_filetype(e);
    if (hardlink) {
        entry.type = BundleEntry::Type::Hardlink;
        entry.linkTarget = QString::fromUtf8(hardlink);
    } else if (type == AE_IFREG) {
        entry.type = BundleEntry::Type::File;
    } else if (type == AE_IFDIR) {
        entry.type = BundleEntry::Type::Directory;
    } else if (type == AE_IFLNK) {
        entry.type = BundleEntry::Type::Symlink;
        const char *target = archive_entry_symlink_utf8(e);
        if (!target)
            target = archive_entry_symlink(e);
        entry.linkTarget = target ? QString::fromUtf8(target) : QString();
    } else {
        entry.type = BundleEntry::Type::Special;
    }
    // A zip entry whose name ends in '/' is a directory whatever its attributes say.
    if (entry.rawName.endsWith('/') && entry.type == BundleEntry::Type::File)
        entry.type = BundleEntry::Type::Directory;
    entry.sizeKnown = archive_entry_size_is_set(e) != 0;
    entry.size = entry.sizeKnown ? qint64(archive_entry_size(e)) : 0;
    if (archive_entry_mtime_is_set(e))
        entry.modified = QDateTime::fromSecsSinceEpoch(qint64(archive_entry_mtime(e)), Qt::UTC);
    entry.mode = int(archive_entry_perm(e));
    entry.encrypted = archive_entry_is_encrypted(e) != 0;
    m_position = 0;
    m_pendingHole = 0;
    m_pendingBlock = nullptr;
    m_pendingSize = 0;
    return true;
}

Result<QByteArrayView> BundleReader::readBlock()
{
    if (m_pendingHole > 0) {
        const qint64 n = qMin<qint64>(m_pendingHole, qint64(kZeroBlock));
        m_pendingHole -= n;
        m_position += n;
        return QByteArrayView(m_zeros.get(), n);
    }
    if (m_pendingBlock) {
        const QByteArrayView view(static_cast<const char *>(m_pendingBlock), qsizetype(m_pendingSize));
        m_position += qint64(m_pendingSize);
        m_pendingBlock = nullptr;
        m_pendingSize = 0;
        return view;
    }
    const void *buffer = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    const int rc = archive_read_data_block(m_archive, &buffer, &size, &offset);
    if (rc == ARCHIVE_EOF) {
        if (offset > m_position) { // a trailing hole of a sparse file
            m_pendingHole = offset - m_position;
            return readBlock();
        }
        return QByteArrayView();
    }
    // libarchive reports a zip CRC mismatch as a warning: any non-OK status is a damaged entry.
    if (rc != ARCHIVE_OK)
        return archiveError(QStringLiteral("cannot read the entry's data"));
    if (offset < m_position)
        return makeError(ErrorCode::CorruptArchive, QStringLiteral("entry data out of order"));
    if (offset > m_position) {
        m_pendingHole = offset - m_position;
        m_pendingBlock = buffer;
        m_pendingSize = size;
        return readBlock();
    }
    m_position += qint64(size);
    if (size == 0)
        return readBlock(); // an empty block is not the end
    return QByteArrayView(static_cast<const char *>(buffer), qsizetype(size));
}

std::optional<BundleEntryProblem> checkEntry(BundleEntry &entry)
{
    using Kind = BundleEntryProblem::Kind;
    const QByteArray &raw = entry.rawName;
    if (raw.isEmpty())
        return problem(Kind::UnsafePath, entry, QStringLiteral("the entry has no name"));
    const QString name = QString::fromUtf8(raw);
    if (name.toUtf8() != raw)
        return problem(Kind::UnsafePath, entry, QStringLiteral("the name is not valid UTF-8"));
    for (char c : raw) {
        if (uchar(c) < 0x20 || uchar(c) == 0x7f)
            return problem(Kind::UnsafePath, entry, QStringLiteral("the name contains a control character"));
    }
    for (const char32_t c : name.toUcs4()) {
        if (isBidiControl(c)) {
            return problem(Kind::UnsafePath, entry,
                           QStringLiteral("the name contains U+%1, a bidirectional control character: it would be shown "
                                          "in another order than it is stored")
                               .arg(codePoint(c)));
        }
    }
    if (isSeparator(name.front()))
        return problem(Kind::UnsafePath, entry, QStringLiteral("absolute path"));
    if (hasDriveLetter(name))
        return problem(Kind::UnsafePath, entry, QStringLiteral("the name starts with a drive letter"));
    for (QStringView part : componentsBothSeparators(name)) {
        if (part == u"..")
            return problem(Kind::UnsafePath, entry, QStringLiteral("the name has a '..' component"));
    }
    entry.name = cleanName(name);
    const qsizetype kept = entry.name.isEmpty() ? 0 : entry.name.count(QLatin1Char('/')) + 1;

    switch (entry.type) {
    case BundleEntry::Type::Special: return problem(Kind::SpecialFile, entry, QStringLiteral("a device, FIFO or socket: never extracted"));
    case BundleEntry::Type::Symlink: {
        if (entry.name.isEmpty()) // "./": extracting it would replace the root with a link
            return problem(Kind::UnsafePath, entry, QStringLiteral("a symbolic link named like the bundle's root"));
        const QString &target = entry.linkTarget;
        if (target.isEmpty())
            return problem(Kind::LinkOutside, entry, QStringLiteral("symbolic link with an empty target"));
        if (isSeparator(target.front()) || hasDriveLetter(target))
            return problem(Kind::LinkOutside, entry, QStringLiteral("symbolic link to an absolute path: %1").arg(target));
        qsizetype depth = kept - 1; // the link's directory
        for (QStringView part : componentsBothSeparators(target)) {
            if (part.isEmpty() || part == u".")
                continue;
            if (part == u"..") {
                if (--depth < 0)
                    return problem(Kind::LinkOutside, entry, QStringLiteral("symbolic link leaves the bundle: %1").arg(target));
                continue;
            }
            ++depth;
        }
        return problem(Kind::Link, entry, QStringLiteral("symbolic link to %1: links are never followed or extracted").arg(target));
    }
    case BundleEntry::Type::Hardlink: {
        const QString &target = entry.linkTarget;
        if (target.isEmpty() || isSeparator(target.front()) || hasDriveLetter(target))
            return problem(Kind::LinkOutside, entry, QStringLiteral("hard link to an absolute path: %1").arg(target));
        for (QStringView part : componentsBothSeparators(target)) {
            if (part == u"..")
                return problem(Kind::LinkOutside, entry, QStringLiteral("hard link leaves the bundle: %1").arg(target));
        }
        if (cleanName(target).isEmpty())
            return problem(Kind::LinkOutside, entry, QStringLiteral("hard link to the bundle's root: %1").arg(target));
        if (entry.name.isEmpty())
            return problem(Kind::UnsafePath, entry, QStringLiteral("a hard link named like the bundle's root"));
        // Resolved by runBundlePass against the files before it (tar's rule: a hard link names an
        // earlier member).
        entry.linkTarget = cleanName(target);
        break;
    }
    case BundleEntry::Type::File:
        if (entry.encrypted)
            return problem(Kind::Unsupported, entry, QStringLiteral("encrypted entry"));
        if (entry.name.isEmpty())
            return problem(Kind::UnsafePath, entry, QStringLiteral("a file named like the bundle's root"));
        break;
    case BundleEntry::Type::Directory: break;
    }
    return std::nullopt;
}

std::optional<BundleEntryProblem> DuplicateGuard::add(const BundleEntry &entry)
{
    using Kind = BundleEntryProblem::Kind;
    const QString &name = entry.name;
    if (name.isEmpty())
        return std::nullopt;
    // Every parent is a directory.
    for (qsizetype slash = name.indexOf(QLatin1Char('/')); slash >= 0; slash = name.indexOf(QLatin1Char('/'), slash + 1)) {
        const QString parent = name.left(slash);
        const auto it = m_names.constFind(parent);
        if (it != m_names.cend()) {
            if (!it.value())
                return problem(Kind::DuplicateName, entry, QStringLiteral("\"%1\" is both a file and a directory").arg(parent));
            continue;
        }
        if (std::optional<BundleEntryProblem> p = addFolded(parent, entry))
            return p;
        m_names.insert(parent, true);
    }
    const bool isDir = entry.type == BundleEntry::Type::Directory;
    const auto it = m_names.constFind(name);
    if (it != m_names.cend()) {
        if (isDir && it.value())
            return std::nullopt;
        if (isDir || it.value())
            return problem(Kind::DuplicateName, entry, QStringLiteral("\"%1\" is both a file and a directory").arg(name));
        return problem(Kind::DuplicateName, entry, QStringLiteral("a second entry named \"%1\"").arg(name));
    }
    if (std::optional<BundleEntryProblem> p = addFolded(name, entry))
        return p;
    m_names.insert(name, isDir);
    return std::nullopt;
}

std::optional<BundleEntryProblem> DuplicateGuard::addFolded(const QString &path, const BundleEntry &entry)
{
    QString key = caselessKey(path);
    if (key.isEmpty())
        key = path; // ICU failed (never seen): exact names still collide
    const auto it = m_folded.constFind(key);
    if (it == m_folded.cend()) {
        m_folded.insert(key, Folded{path, displayEntryName(entry.rawName)});
        return std::nullopt;
    }
    if (it->path == path)
        return std::nullopt;
    return problem(BundleEntryProblem::Kind::DuplicateName, entry,
                   QStringLiteral("\"%1\" (entry \"%2\") and \"%3\" (entry \"%4\") are one name on a case-insensitive or "
                                  "Unicode-normalizing file system (macOS, Windows): they differ only in case or normalization")
                       .arg(displayEntryName(it->path), it->entry, displayEntryName(path), displayEntryName(entry.rawName)));
}

} // namespace provender::bundle_detail
