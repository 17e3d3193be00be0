// runBundlePass() (BundleArchive.h): one pass over a bundle's entries, every entry checked before
// anything looks at its data, limits enforced while it inflates.

#include "model/bundle/BundleArchive.h"

#include <algorithm>

namespace provender::bundle_detail {

namespace {

using Kind = BundleEntryProblem::Kind;

BundleEntryProblem tooLarge(const BundleEntry &e, const QString &message)
{
    return BundleEntryProblem{Kind::TooLarge, displayEntryName(e.rawName), message};
}

/// The state of one pass; run() steps through the entries.
class PassRunner
{
public:
    PassRunner(BundleReader &reader, const BundleLimits &limits, const std::function<bool(const QString &name)> &isMetadata,
               const FileHandler &onFile, const BundleProgress &progress, bool stopAtFatal)
        : m_reader(reader),
          m_limits(limits),
          m_isMetadata(isMetadata),
          m_onFile(onFile),
          m_progress(progress),
          m_stopAtFatal(stopAtFatal)
    {
        m_pass.fileSize = reader.fileSize();
        m_pass.format = reader.format();
        m_maxTotal = limits.maxTotalBytes > 0 ? limits.maxTotalBytes : automaticTotalBytes(m_pass.fileSize);
        m_totalLimit = limits.maxTotalBytes > 0
            ? QStringLiteral("its limit of %1 bytes in all").arg(m_maxTotal)
            : QStringLiteral("its limit of %1 bytes in all (automatic: %2 times the bundle's size, at least %3 bytes; "
                             "--max-total-bytes sets it)")
                  .arg(m_maxTotal)
                  .arg(kAutomaticTotalRatio)
                  .arg(kAutomaticTotalFloor);
    }

    Result<BundlePass> run();

private:
    bool report(bool force);
    bool mustStop() const;
    void refuseFile(BundleEntry e, const QString &message);
    bool accept(BundleEntry &entry);
    Result<void> onHardlink(BundleEntry &entry);
    Result<void> onFile(const BundleEntry &entry);
    Result<void> onMetadata(const BundleEntry &entry, const PullBytes &pull, const QString &overflow, QString *refused, bool *skip);
    Result<void> handled(const BundleEntry &entry, const Result<void> &result, const QString &overflow, const QString &refused, qint64 got);

    BundleReader &m_reader;
    const BundleLimits &m_limits;
    const std::function<bool(const QString &name)> &m_isMetadata;
    const FileHandler &m_onFile;
    const BundleProgress &m_progress;
    const bool m_stopAtFatal;
    const Error m_cancelled = makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));

    BundlePass m_pass;
    DuplicateGuard m_guard;
    qint64 m_inflatedTotal = 0;
    qint64 m_metadataBytes = 0;
    qint64 m_lastReport = -1;
    qint64 m_maxTotal = 0;
    QString m_totalLimit;
    bool m_totalExceeded = false;
    bool m_stopped = false;             ///< the handler refused an entry (out of disk space)
    QHash<QString, qint64> m_fileSizes; ///< accepted files (and resolved hard links) -> size
};

bool PassRunner::report(bool force)
{
    if (!m_progress)
        return true;
    const qint64 at = m_reader.bytesConsumed();
    if (!force && m_lastReport >= 0 && at - m_lastReport < (qint64(1) << 20))
        return true;
    m_lastReport = at;
    return m_progress(BundleStage::Reading, at, m_pass.fileSize);
}

bool PassRunner::mustStop() const
{
    if (m_totalExceeded || m_stopped)
        return true;
    if (!m_stopAtFatal)
        return false;
    return std::any_of(m_pass.problems.cbegin(), m_pass.problems.cend(), [](const BundleEntryProblem &p) { return p.isFatal(); });
}

/// An entry that is refused for its size is still listed (so that its archive gets an error
/// verdict naming the limit), but never read.
void PassRunner::refuseFile(BundleEntry e, const QString &message)
{
    m_pass.problems.append(tooLarge(e, message));
    e.refused = message;
    m_pass.entries.append(e);
}

Result<BundlePass> PassRunner::run()
{
    BundleEntry entry;
    while (!mustStop()) {
        Result<bool> more = m_reader.next(entry);
        if (!more.ok())
            return more.error();
        if (!more.value())
            break;
        m_pass.format = m_reader.format();
        if (++m_pass.entryCount > m_limits.maxEntries) {
            m_pass.problems.append(
                tooLarge(entry, QStringLiteral("the bundle has more than %1 entries; the rest was not read").arg(m_limits.maxEntries)));
            break;
        }
        if (!accept(entry))
            continue;
        Result<void> done;
        if (entry.type == BundleEntry::Type::Directory)
            m_pass.entries.append(entry);
        else if (entry.type == BundleEntry::Type::Hardlink)
            done = onHardlink(entry);
        else
            done = onFile(entry);
        if (!done.ok())
            return done.error();
    }
    if (!report(true))
        return m_cancelled;
    return m_pass;
}

/// Checks the entry's name and type and refuses duplicates; false when it goes no further (a
/// problem, or the root itself). An in-bundle symbolic link is listed and reported.
bool PassRunner::accept(BundleEntry &entry)
{
    if (std::optional<BundleEntryProblem> p = checkEntry(entry)) {
        if (p->kind == Kind::Link) {
            if (std::optional<BundleEntryProblem> dup = m_guard.add(entry)) {
                m_pass.problems.append(*dup);
                return false;
            }
            m_pass.entries.append(entry);
        }
        m_pass.problems.append(*p);
        return false;
    }
    if (entry.name.isEmpty())
        return false; // "./": the root itself
    if (std::optional<BundleEntryProblem> dup = m_guard.add(entry)) {
        m_pass.problems.append(*dup);
        return false;
    }
    return true;
}

/// A copy of an earlier file (tar stores the second name of a file that way). Anything else would
/// make `tar -x` link to whatever the disk has at that path.
Result<void> PassRunner::onHardlink(BundleEntry &entry)
{
    const auto target = m_fileSizes.constFind(entry.linkTarget);
    if (target == m_fileSizes.cend()) {
        m_pass.problems.append(BundleEntryProblem{
            Kind::LinkOutside, displayEntryName(entry.rawName),
            QStringLiteral("hard link to \"%1\", which is not a file earlier in the bundle").arg(displayEntryName(entry.linkTarget))});
        return {};
    }
    entry.size = target.value();
    entry.sizeKnown = true;
    if (m_isMetadata && m_isMetadata(entry.name)) {
        const auto content = m_pass.metadata.constFind(entry.linkTarget);
        if (content == m_pass.metadata.cend()) {
            m_pass.problems.append(tooLarge(entry,
                                            QStringLiteral("a hard link to \"%1\", which was not read as an index or metadata file")
                                                .arg(displayEntryName(entry.linkTarget))));
            return {};
        }
        m_pass.metadata.insert(entry.name, content.value());
    }
    QString refused;
    const PullBytes none = []() -> Result<QByteArrayView> { return QByteArrayView(); };
    if (m_onFile) {
        Result<void> handled = m_onFile(entry, none, &refused);
        if (!handled.ok())
            return handled.error();
    }
    if (!refused.isEmpty()) {
        refuseFile(entry, refused);
        m_stopped = true;
        return {};
    }
    m_fileSizes.insert(entry.name, entry.size);
    m_pass.contentBytes += entry.size;
    m_pass.entries.append(entry);
    return {};
}

/// A regular file: its declared size against the limits, then its data to the handler (from
/// memory for a metadata file), bounded while it inflates.
Result<void> PassRunner::onFile(const BundleEntry &entry)
{
    if (entry.sizeKnown && entry.size > m_limits.maxEntryBytes) {
        refuseFile(entry,
                   QStringLiteral("declares %1 bytes; the limit for one entry is %2 (--max-entry-bytes sets it)")
                       .arg(entry.size)
                       .arg(m_limits.maxEntryBytes));
        return {};
    }
    if (entry.sizeKnown && m_inflatedTotal + entry.size > m_maxTotal) {
        refuseFile(entry, QStringLiteral("would take the bundle past %1; the rest of the bundle was not read").arg(m_totalLimit));
        m_totalExceeded = true;
        return {};
    }
    const qint64 bound = entry.sizeKnown ? qMin(entry.size, m_limits.maxEntryBytes) : m_limits.maxEntryBytes;
    qint64 got = 0;
    QString overflow;
    const PullBytes pull = [&]() -> Result<QByteArrayView> {
        Result<QByteArrayView> block = m_reader.readBlock();
        if (!block.ok())
            return block;
        got += block->size();
        m_inflatedTotal += block->size();
        if (got > bound) {
            overflow = entry.sizeKnown && got > entry.size
                ? QStringLiteral("inflates to more than its declared %1 bytes").arg(entry.size)
                : QStringLiteral("inflates to more than the limit of %1 bytes for one entry").arg(m_limits.maxEntryBytes);
            return makeError(ErrorCode::InvalidArgument, overflow);
        }
        if (m_inflatedTotal > m_maxTotal) {
            overflow = QStringLiteral("takes the bundle past %1; the rest of the bundle was not read").arg(m_totalLimit);
            m_totalExceeded = true;
            return makeError(ErrorCode::InvalidArgument, overflow);
        }
        if (!report(false))
            return m_cancelled;
        return block;
    };
    // The handler first, then what it made of the entry: `got` and `overflow` are set by the reads.
    QString refused;
    if (m_isMetadata && m_isMetadata(entry.name)) {
        bool skip = false;
        const Result<void> r = onMetadata(entry, pull, overflow, &refused, &skip);
        return skip ? Result<void>() : handled(entry, r, overflow, refused, got);
    }
    const Result<void> r = m_onFile ? m_onFile(entry, pull, &refused) : Result<void>();
    return handled(entry, r, overflow, refused, got);
}

/// An index or metadata file: read into memory (within maxMetadataBytes in all), then handed to
/// the handler from there. `*skip`: it was not read (a problem says why).
Result<void> PassRunner::onMetadata(const BundleEntry &entry, const PullBytes &pull, const QString &overflow, QString *refused, bool *skip)
{
    const QString beyond = QStringLiteral("index and metadata files beyond %1 bytes in all are not read").arg(m_limits.maxMetadataBytes);
    if (m_metadataBytes + entry.size > m_limits.maxMetadataBytes) {
        m_pass.problems.append(tooLarge(entry, beyond));
        *skip = true;
        return {};
    }
    QByteArray content;
    QString tooMuch;
    for (;;) {
        Result<QByteArrayView> block = pull();
        if (!block.ok()) {
            if (!overflow.isEmpty())
                break;
            return block.error();
        }
        if (block->isEmpty())
            break;
        if (m_metadataBytes + content.size() + block->size() > m_limits.maxMetadataBytes) {
            tooMuch = beyond;
            break;
        }
        content.append(block->data(), block->size());
    }
    if (!overflow.isEmpty() || !tooMuch.isEmpty()) {
        m_pass.problems.append(tooLarge(entry, overflow.isEmpty() ? tooMuch : overflow));
        *skip = true;
        return {};
    }
    m_metadataBytes += content.size();
    m_pass.metadata.insert(entry.name, content);
    bool served = false;
    const PullBytes fromMemory = [&]() -> Result<QByteArrayView> {
        if (served)
            return QByteArrayView();
        served = true;
        return QByteArrayView(content);
    };
    return m_onFile ? m_onFile(entry, fromMemory, refused) : Result<void>();
}

/// What the handler's answer makes of the entry: refused for a limit it met while inflating, or
/// for what the handler said (out of disk space: the pass stops), else accepted.
Result<void> PassRunner::handled(const BundleEntry &entry, const Result<void> &result, const QString &overflow, const QString &refused,
                                 qint64 got)
{
    if (!result.ok()) {
        if (!overflow.isEmpty()) {
            refuseFile(entry, overflow);
            return {};
        }
        return result.error();
    }
    if (!refused.isEmpty()) {
        refuseFile(entry, refused);
        m_stopped = true;
        return {};
    }
    const qint64 size = entry.sizeKnown ? entry.size : got;
    m_pass.contentBytes += size;
    m_fileSizes.insert(entry.name, size);
    m_pass.entries.append(entry);
    if (!report(false))
        return m_cancelled;
    return {};
}

} // namespace

Result<void> spoolEntry(const PullBytes &pull, QFileDevice &out)
{
    for (;;) {
        Result<QByteArrayView> block = pull();
        if (!block.ok())
            return block.error();
        if (block->isEmpty())
            break;
        if (out.write(block->data(), block->size()) != block->size())
            return makeError(ErrorCode::Io, QStringLiteral("cannot write %1: %2").arg(out.fileName(), out.errorString()));
    }
    if (!out.flush()) // a short final write is a full disk, not a corrupt archive
        return makeError(ErrorCode::Io, QStringLiteral("cannot write %1: %2").arg(out.fileName(), out.errorString()));
    return {};
}

Result<BundlePass> runBundlePass(BundleReader &reader, const BundleLimits &limits,
                                 const std::function<bool(const QString &name)> &isMetadata, const FileHandler &onFile,
                                 const BundleProgress &progress, bool stopAtFatal)
{
    return PassRunner(reader, limits, isMetadata, onFile, progress, stopAtFatal).run();
}

} // namespace provender::bundle_detail
