#include "model/lockfile/LockWriter.h"

#include "model/core/GoCompat.h"
#include "model/core/Logging.h"
#include "model/lockfile/HclSyntax.h"

#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <unordered_map>
#include <vector>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

/// Characters copied into a quoted string as they are (escapeHclString changes nothing for them;
/// `$` and `%` are left to it because of `${`/`%{`).
constexpr bool isPlain(char16_t u)
{
    return u >= 0x20 && u < 0x7F && u != '"' && u != '\\' && u != '$' && u != '%';
}

/// The output buffer: one allocation of the estimated size, written through a pointer (no
/// per-append capacity bookkeeping of QByteArray), grown only when the estimate was short.
class Out
{
public:
    explicit Out(qsizetype estimate)
    {
        m_buf.resize(std::max<qsizetype>(estimate, 64)); // not filled: pages are touched as written
        m_p = m_buf.data();
        m_end = m_p + m_buf.size();
    }
    qsizetype size() const { return m_p - m_buf.constData(); }
    void truncate(qsizetype n) { m_p = m_buf.data() + n; }
    /// `n` writable bytes at the end, counted as written.
    char *grow(qsizetype n)
    {
        if (m_end - m_p < n)
            expand(n);
        char *at = m_p;
        m_p += n;
        return at;
    }
    void append(const char *s, qsizetype n) { std::memcpy(grow(n), s, size_t(n)); }
    Out &operator+=(char c)
    {
        *grow(1) = c;
        return *this;
    }
    template<size_t N> Out &operator+=(const char (&literal)[N])
    {
        append(literal, qsizetype(N - 1));
        return *this;
    }
    Out &operator+=(const QByteArray &b)
    {
        append(b.constData(), b.size());
        return *this;
    }
    QByteArray take()
    {
        m_buf.resize(size());
        return std::move(m_buf);
    }

private:
    void expand(qsizetype n)
    {
        const qsizetype used = size();
        m_buf.resize(std::max(m_buf.size() * 2, used + n));
        m_p = m_buf.data() + used;
        m_end = m_buf.data() + m_buf.size();
    }
    QByteArray m_buf;
    char *m_p = nullptr;
    char *m_end = nullptr;
};

/// Appends `s` without quotes: straight into the buffer when it is plain ASCII (one pass, no
/// temporary), else through escapeHclString. Returns false (appending nothing) when `s` is not
/// plain and `fallback` is false.
bool appendEscaped(Out &out, QStringView s, bool fallback = true)
{
    const char16_t *src = s.utf16();
    const qsizetype n = s.size();
    const qsizetype at = out.size();
    char *dst = out.grow(n);
    qsizetype i = 0;
#if defined(__SSE2__)
    // 8 characters at a time: all in 0x20..0x7E and none of " \ $ %, then narrowed to bytes.
    const __m128i below = _mm_set1_epi16(0x20 - 1);
    const __m128i above = _mm_set1_epi16(0x7F);
    const __m128i quote = _mm_set1_epi16('"');
    const __m128i backslash = _mm_set1_epi16('\\');
    const __m128i dollar = _mm_set1_epi16('$');
    const __m128i percent = _mm_set1_epi16('%');
    for (; i + 8 <= n; i += 8) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
        // Signed 16-bit compares: characters >= 0x8000 are negative and fail the first test.
        const __m128i inRange = _mm_and_si128(_mm_cmpgt_epi16(v, below), _mm_cmplt_epi16(v, above));
        const __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi16(v, quote), _mm_cmpeq_epi16(v, backslash)),
                                             _mm_or_si128(_mm_cmpeq_epi16(v, dollar), _mm_cmpeq_epi16(v, percent)));
        if (_mm_movemask_epi8(_mm_andnot_si128(special, inRange)) != 0xFFFF)
            break;
        _mm_storel_epi64(reinterpret_cast<__m128i *>(dst + i), _mm_packus_epi16(v, v));
    }
#endif
    for (; i < n; ++i) {
        const char16_t u = src[i];
        if (!isPlain(u))
            break;
        dst[i] = char(u);
    }
    if (i == n)
        return true;
    out.truncate(at);
    if (!fallback)
        return false;
    out += escapeHclString(s.toString());
    return true;
}

void appendQuoted(Out &out, QStringView s)
{
    out += '"';
    appendEscaped(out, s);
    out += '"';
}

void appendAddress(Out &out, const ProviderAddress &a)
{
    out += '"';
    const qsizetype at = out.size();
    // Part by part when each is plain (then so is the whole label, toString()); else the whole
    // label, so that escaping sees the same text as escapeHclString(a.toString()).
    bool plain = !a.isNull() && appendEscaped(out, a.displayHostname(), false);
    if (plain) {
        out += '/';
        plain = appendEscaped(out, a.ns(), false);
    }
    if (plain) {
        out += '/';
        plain = appendEscaped(out, a.type(), false);
    }
    if (!plain) {
        out.truncate(at);
        appendEscaped(out, a.toString());
    }
    out += '"';
}

/// The quoted canonical text of each distinct version / constraint set, computed once per write
/// (toString() is a pure function of the value; equal values give equal text).
template<typename T, typename Hash> class TextMemo
{
public:
    explicit TextMemo(Hash hash) : m_hash(hash) {}
    const QByteArray &get(const T &value)
    {
        std::vector<std::pair<T, QByteArray>> &bucket = m_map[m_hash(value)];
        for (const auto &entry : bucket) {
            if (entry.first == value)
                return entry.second;
        }
        Out quoted(32);
        appendQuoted(quoted, value.toString());
        bucket.emplace_back(value, quoted.take());
        return bucket.back().second;
    }

private:
    Hash m_hash;
    std::unordered_map<size_t, std::vector<std::pair<T, QByteArray>>> m_map;
};

size_t hashConstraints(const VersionConstraints &c)
{
    size_t h = size_t(c.items().size());
    for (const VersionConstraints::Item &item : c.items())
        h = qHashMulti(h, int(item.op), item.partsGiven, item.boundary);
    return h;
}

} // namespace

QByteArray escapeHclString(const QString &s)
{
    // Fast path: printable ASCII without anything to escape is written as it is.
    const bool plain = std::all_of(s.cbegin(), s.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return u >= 0x20 && u < 0x7F && u != '"' && u != '\\' && u != '$' && u != '%';
    });
    if (plain)
        return s.toLatin1();
    QByteArray out;
    out.reserve(s.size() + 8);
    const QList<uint> ucs = s.toUcs4();
    for (qsizetype i = 0; i < ucs.size(); ++i) {
        const char32_t r = ucs.at(i);
        switch (r) {
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '"': out += "\\\""; continue;
        case '\\': out += "\\\\"; continue;
        case '$':
        case '%':
            out += char(r);
            if (i + 1 < ucs.size() && ucs.at(i + 1) == '{')
                out += char(r);
            continue;
        default: break;
        }
        if (r >= 0x20 && r < 0x7F) {
            out += char(r);
        } else if (!gocompat::isPrint(r)) {
            if (r < 0x10000)
                out += "\\u" + QByteArray::number(uint(r), 16).rightJustified(4, '0');
            else
                out += "\\U" + QByteArray::number(uint(r), 16).rightJustified(8, '0');
        } else {
            out += QString::fromUcs4(&r, 1).toUtf8();
        }
    }
    return out;
}

QByteArray writeLockFile(const LockFile &doc)
{
    return writeLockFile(doc, doc.flavour);
}

QByteArray writeLockFile(const LockFile &doc, LockFlavour flavour)
{
    qsizetype estimate = 128;
    for (const ProviderLock &p : doc.providers)
        estimate += 160 + p.hashes.size() * 80;
    Out out(estimate);
    if (flavour == LockFlavour::Tofu)
        out += "# This file is maintained automatically by \"tofu init\".\n";
    else
        out += "# This file is maintained automatically by \"terraform init\".\n";
    out += "# Manual edits may be lost in future updates.\n";

    // The document keeps providers sorted; sort a view anyway so hand-built documents write right.
    std::vector<const ProviderLock *> order;
    order.reserve(size_t(doc.providers.size()));
    for (const ProviderLock &p : doc.providers)
        order.push_back(&p);
    if (!std::is_sorted(order.begin(), order.end(), [](const ProviderLock *a, const ProviderLock *b) { return a->address < b->address; }))
        std::stable_sort(order.begin(), order.end(), [](const ProviderLock *a, const ProviderLock *b) { return a->address < b->address; });

    const auto hashVersion = [](const Version &v) { return qHash(v); };
    TextMemo<Version, decltype(hashVersion)> versions(hashVersion);
    TextMemo<VersionConstraints, decltype(&hashConstraints)> constraintTexts(&hashConstraints);
    const auto less = [](const HashString &a, const HashString &b) { return utf8Less(a.toString(), b.toString()); };
    for (size_t k = 0; k < order.size(); ++k) {
        const ProviderLock &p = *order[k];
        if (k > 0 && p.address == order[k - 1]->address)
            continue; // a provider appears once; the first wins
        out += "\nprovider ";
        appendAddress(out, p.address);
        out += " {\n";
        if (p.constraints.isEmpty()) {
            out += "  version = ";
            out += versions.get(p.version);
            out += '\n';
        } else {
            out += "  version     = ";
            out += versions.get(p.version);
            out += "\n  constraints = ";
            out += constraintTexts.get(p.constraints);
            out += '\n';
        }
        if (!p.hashes.isEmpty()) {
            QList<HashString> hashes = p.hashes; // shared, not copied, unless it needs sorting
            if (!std::is_sorted(hashes.cbegin(), hashes.cend(), less)
                || std::adjacent_find(hashes.cbegin(), hashes.cend()) != hashes.cend()) {
                std::sort(hashes.begin(), hashes.end(), less);
                hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
            }
            out += "  hashes = [\n";
            for (const HashString &h : hashes) {
                out += "    \"";
                appendEscaped(out, h.toString());
                out += "\",\n";
            }
            out += "  ]\n";
        }
        out += "}\n";
    }
    return out.take();
}

bool isCanonicalLockFile(const QByteArray &bytes, const LockParseResult &parsed)
{
    return !parsed.hasErrors() && writeLockFile(parsed.document) == bytes;
}

Result<void> saveBytesAtomically(const QByteArray &bytes, const QString &path)
{
    const auto fail = [&](const QString &reason) {
        return Result<void>(makeError(ErrorCode::Io, u"Error while writing new dependency lock information to %1: %2."_s.arg(path, reason),
                                      Location{path, 0, 0}));
    };
    // A symlink is written through (QSaveFile replaces its target); keep the existing file's mode
    // and owner, as editing in place would.
    const QString target = QFileInfo(path).isSymLink() ? QFileInfo(path).canonicalFilePath() : path;
    const QByteArray native = QFile::encodeName(target.isEmpty() ? path : target);
    struct stat old
    {
    };
    const bool existed = ::stat(native.constData(), &old) == 0;
    if (existed && !S_ISREG(old.st_mode))
        return fail(u"not a regular file"_s);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(f.errorString());
    // flush() before commit(): Qt 6.4's commit() reports success after a failed flush (a full
    // disk, EFBIG) and renames the truncated temporary file over the old one.
    errno = 0;
    if (f.write(bytes) != bytes.size() || !f.flush()) {
        const QString why = errno != 0 ? QString::fromLocal8Bit(std::strerror(errno)) : f.errorString(); // Qt says "Unknown error"
        f.cancelWriting();
        return fail(why);
    }
    const int fd = f.handle();
    const mode_t mode = existed ? (old.st_mode & 07777) : 0644;
    if (fd < 0 || ::fchmod(fd, mode) != 0) {
        f.cancelWriting();
        return fail(u"cannot set the file mode: "_s + QString::fromLocal8Bit(std::strerror(errno)));
    }
    if (existed) {
        struct stat now
        {
        };
        if (::fstat(fd, &now) == 0 && (now.st_uid != old.st_uid || now.st_gid != old.st_gid) && ::fchown(fd, old.st_uid, old.st_gid) != 0) {
            const QString why = QString::fromLocal8Bit(std::strerror(errno));
            f.cancelWriting();
            return fail(u"cannot keep the file's owner %1:%2 (%3); the file was not changed"_s.arg(old.st_uid).arg(old.st_gid).arg(why));
        }
    }
    if (!f.commit()) // flushes and fsyncs the temporary file, then renames it over the old one
        return fail(f.errorString());
    // The rename is durable only once the directory is on disk too.
    const QByteArray dir = QFile::encodeName(QFileInfo(target.isEmpty() ? path : target).absolutePath());
    if (const int dfd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        if (::fsync(dfd) != 0)
            qCWarning(lcLock) << "fsync of" << dir << "failed:" << std::strerror(errno);
        ::close(dfd);
    }
    qCDebug(lcLock) << "wrote" << bytes.size() << "bytes to" << path;
    return {};
}

Result<void> saveLockFile(const LockFile &doc, const QString &path)
{
    return saveBytesAtomically(writeLockFile(doc), path);
}

Result<void> saveLockFile(const LockFile &doc, LockFlavour flavour, const QString &path)
{
    return saveBytesAtomically(writeLockFile(doc, flavour), path);
}

} // namespace provender
