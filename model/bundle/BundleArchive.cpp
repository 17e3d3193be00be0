#include "model/bundle/BundleArchive.h"

#include "model/core/Logging.h"

#include <QFile>
#include <QFileInfo>

#include <archive.h>
#include <archive_entry.h>

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

} // namespace

QString displayEntryName(const QByteArray &raw)
{
    return QString::fromUtf8(raw);
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
    const QByteArray head = file.read(4);
    const bool zip = head.startsWith("PK\x03\x04") || head.startsWith("PK\x05\x06");
    if (zip) {
        if (const QString problem = checkZipEnd(file, m_fileSize); !problem.isEmpty())
            return makeError(ErrorCode::CorruptArchive, QStringLiteral("%1: not a readable zip: %2").arg(path, problem));
    }
    file.close();

    m_archive = archive_read_new();
    if (!m_archive)
        return makeError(ErrorCode::Internal, QStringLiteral("libarchive: out of memory"));
    if (zip) {
        // Seekable: entries come from the central directory, like every other zip reader we match.
        archive_read_support_format_zip_seekable(m_archive);
    } else {
        archive_read_support_filter_all(m_archive);
        archive_read_support_format_tar(m_archive);
    }
    if (archive_read_open_filename(m_archive, QFile::encodeName(path).constData(), kReadBlock) != ARCHIVE_OK) {
        const Error e = archiveError(path);
        return makeError(ErrorCode::CorruptArchive,
                         e.message + QStringLiteral(" (a bundle is a .tar, .tar.gz, .tar.xz, .tar.zst or .zip file)"));
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
    if (isSeparator(name.front()))
        return problem(Kind::UnsafePath, entry, QStringLiteral("absolute path"));
    if (hasDriveLetter(name))
        return problem(Kind::UnsafePath, entry, QStringLiteral("the name starts with a drive letter"));
    QStringList kept;
    for (QStringView part : componentsBothSeparators(name)) {
        if (part == u"..")
            return problem(Kind::UnsafePath, entry, QStringLiteral("the name has a '..' component"));
    }
    for (QStringView part : QStringView(name).split(QLatin1Char('/'))) {
        if (part.isEmpty() || part == u".")
            continue;
        kept.append(part.toString());
    }
    entry.name = kept.join(QLatin1Char('/'));

    switch (entry.type) {
    case BundleEntry::Type::Special:
        return problem(Kind::SpecialFile, entry, QStringLiteral("a device, FIFO or socket: never extracted"));
    case BundleEntry::Type::Symlink: {
        if (entry.name.isEmpty()) // "./": extracting it would replace the root with a link
            return problem(Kind::UnsafePath, entry, QStringLiteral("a symbolic link named like the bundle's root"));
        const QString &target = entry.linkTarget;
        if (target.isEmpty())
            return problem(Kind::LinkOutside, entry, QStringLiteral("symbolic link with an empty target"));
        if (isSeparator(target.front()) || hasDriveLetter(target))
            return problem(Kind::LinkOutside, entry, QStringLiteral("symbolic link to an absolute path: %1").arg(target));
        qsizetype depth = kept.size() - 1; // the link's directory
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
        return problem(Kind::Link, entry, QStringLiteral("hard link to %1: links are never followed or extracted").arg(target));
    }
    case BundleEntry::Type::File:
        if (entry.encrypted)
            return problem(Kind::Unsupported, entry, QStringLiteral("encrypted entry"));
        if (entry.name.isEmpty())
            return problem(Kind::UnsafePath, entry, QStringLiteral("a file named like the bundle's root"));
        break;
    case BundleEntry::Type::Directory:
        break;
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
    m_names.insert(name, isDir);
    return std::nullopt;
}

Result<BundlePass> runBundlePass(BundleReader &reader, const BundleLimits &limits,
                                 const std::function<bool(const QString &name)> &isMetadata,
                                 const FileHandler &onFile, const BundleProgress &progress, bool stopAtFatal)
{
    using Kind = BundleEntryProblem::Kind;
    BundlePass pass;
    pass.fileSize = reader.fileSize();
    pass.format = reader.format();
    DuplicateGuard guard;
    qint64 inflatedTotal = 0;
    qint64 metadataBytes = 0;
    qint64 lastReport = -1;
    auto report = [&](bool force) {
        if (!progress)
            return true;
        const qint64 at = reader.bytesConsumed();
        if (!force && lastReport >= 0 && at - lastReport < (qint64(1) << 20))
            return true;
        lastReport = at;
        return progress(BundleStage::Reading, at, pass.fileSize);
    };
    const Error cancelled = makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    auto tooLarge = [](const BundleEntry &e, const QString &message) {
        return BundleEntryProblem{Kind::TooLarge, displayEntryName(e.rawName), message};
    };

    bool totalExceeded = false;
    auto mustStop = [&] {
        if (totalExceeded)
            return true;
        if (!stopAtFatal)
            return false;
        return std::any_of(pass.problems.cbegin(), pass.problems.cend(), [](const BundleEntryProblem &p) { return p.isFatal(); });
    };
    BundleEntry entry;
    for (;;) {
        if (mustStop())
            break;
        Result<bool> more = reader.next(entry);
        if (!more.ok())
            return more.error();
        if (!more.value())
            break;
        pass.format = reader.format();
        if (++pass.entryCount > limits.maxEntries) {
            pass.problems.append(tooLarge(entry, QStringLiteral("the bundle has more than %1 entries; the rest was not read")
                                                     .arg(limits.maxEntries)));
            break;
        }
        if (std::optional<BundleEntryProblem> p = checkEntry(entry)) {
            if (p->kind == Kind::Link) {
                if (std::optional<BundleEntryProblem> dup = guard.add(entry)) {
                    pass.problems.append(*dup);
                    continue;
                }
                pass.entries.append(entry);
            }
            pass.problems.append(*p);
            continue;
        }
        if (entry.name.isEmpty())
            continue; // "./": the root itself
        if (std::optional<BundleEntryProblem> dup = guard.add(entry)) {
            pass.problems.append(*dup);
            continue;
        }
        if (entry.type == BundleEntry::Type::Directory) {
            pass.entries.append(entry);
            continue;
        }
        if (entry.sizeKnown && entry.size > limits.maxEntryBytes) {
            pass.problems.append(tooLarge(entry, QStringLiteral("declares %1 bytes; the limit for one entry is %2")
                                                     .arg(entry.size)
                                                     .arg(limits.maxEntryBytes)));
            continue;
        }
        if (limits.maxTotalBytes > 0 && entry.sizeKnown && inflatedTotal + entry.size > limits.maxTotalBytes) {
            pass.problems.append(tooLarge(entry, QStringLiteral("would take the bundle past its limit of %1 bytes in all; "
                                                                "the rest of the bundle was not read")
                                                     .arg(limits.maxTotalBytes)));
            totalExceeded = true;
            continue;
        }

        const qint64 bound = entry.sizeKnown ? qMin(entry.size, limits.maxEntryBytes) : limits.maxEntryBytes;
        qint64 got = 0;
        QString overflow;
        const PullBytes pull = [&]() -> Result<QByteArrayView> {
            Result<QByteArrayView> block = reader.readBlock();
            if (!block.ok())
                return block;
            got += block->size();
            inflatedTotal += block->size();
            if (got > bound) {
                overflow = entry.sizeKnown && got > entry.size
                               ? QStringLiteral("inflates to more than its declared %1 bytes").arg(entry.size)
                               : QStringLiteral("inflates to more than the limit of %1 bytes for one entry").arg(limits.maxEntryBytes);
                return makeError(ErrorCode::InvalidArgument, overflow);
            }
            if (limits.maxTotalBytes > 0 && inflatedTotal > limits.maxTotalBytes) {
                overflow = QStringLiteral("takes the bundle past its limit of %1 bytes in all; the rest of the bundle was not read")
                               .arg(limits.maxTotalBytes);
                totalExceeded = true;
                return makeError(ErrorCode::InvalidArgument, overflow);
            }
            if (!report(false))
                return cancelled;
            return block;
        };

        Result<void> handled;
        if (isMetadata && isMetadata(entry.name)) {
            if (metadataBytes + entry.size > limits.maxMetadataBytes) {
                pass.problems.append(tooLarge(entry, QStringLiteral("index and metadata files beyond %1 bytes in all are not read")
                                                         .arg(limits.maxMetadataBytes)));
                continue;
            }
            QByteArray content;
            for (;;) {
                Result<QByteArrayView> block = pull();
                if (!block.ok()) {
                    if (!overflow.isEmpty())
                        break;
                    return block.error();
                }
                if (block->isEmpty())
                    break;
                if (metadataBytes + content.size() + block->size() > limits.maxMetadataBytes) {
                    overflow = QStringLiteral("index and metadata files beyond %1 bytes in all are not read").arg(limits.maxMetadataBytes);
                    break;
                }
                content.append(block->data(), block->size());
            }
            if (!overflow.isEmpty()) {
                pass.problems.append(tooLarge(entry, overflow));
                continue;
            }
            metadataBytes += content.size();
            pass.metadata.insert(entry.name, content);
            bool served = false;
            const PullBytes fromMemory = [&]() -> Result<QByteArrayView> {
                if (served)
                    return QByteArrayView();
                served = true;
                return QByteArrayView(content);
            };
            handled = onFile ? onFile(entry, fromMemory) : Result<void>();
        } else {
            handled = onFile ? onFile(entry, pull) : Result<void>();
        }
        if (!handled.ok()) {
            if (!overflow.isEmpty()) {
                pass.problems.append(tooLarge(entry, overflow));
                continue;
            }
            return handled.error();
        }
        pass.contentBytes += entry.sizeKnown ? entry.size : got;
        pass.entries.append(entry);
        if (!report(false))
            return cancelled;
    }
    if (!report(true))
        return cancelled;
    return pass;
}

} // namespace provender::bundle_detail
