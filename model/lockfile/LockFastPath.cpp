#include "model/lockfile/LockFastPath.h"

#include "model/lockfile/HclSyntax.h"

#include <algorithm>
#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string_view>
#include <unordered_map>

using namespace Qt::StringLiterals;

namespace provender::lockfile_detail {

namespace {

constexpr std::string_view kTofuHeader = "# This file is maintained automatically by \"tofu init\".\n"
                                         "# Manual edits may be lost in future updates.\n";
constexpr std::string_view kTerraformHeader = "# This file is maintained automatically by \"terraform init\".\n"
                                              "# Manual edits may be lost in future updates.\n";

struct RawAttr
{
    std::string_view text;
    bool present = false;
};

/// One provider block as scanned: views into the input bytes.
struct RawBlock
{
    std::string_view label;
    RawAttr version;
    RawAttr constraints;
    bool hasHashes = false;
    qsizetype firstHash = 0; ///< into Scanner::hashes
    qsizetype hashCount = 0;
    LockSourceRange range;
};

/// A strict scanner over the bytes: every accepted construct is one the full parser reads the
/// same way without a diagnostic; anything else makes it fail (the caller then declines).
class Scanner
{
public:
    explicit Scanner(const QByteArray &bytes)
        : m_begin(bytes.constData()),
          m_p(m_begin),
          m_end(m_begin + bytes.size()),
          m_lineStart(m_begin)
    {}

    std::vector<std::string_view> hashes;

    bool header(std::string_view *which)
    {
        for (std::string_view h : {kTofuHeader, kTerraformHeader}) {
            if (size_t(m_end - m_p) >= h.size() && std::string_view(m_p, h.size()) == h) {
                m_p += h.size();
                m_line += 2;
                m_lineStart = m_p;
                *which = h;
                return true;
            }
        }
        return false;
    }

    /// Scans all blocks up to the end of the input; false when something is not in the plain shape.
    bool blocks(std::vector<RawBlock> &out)
    {
        for (;;) {
            skipBlankLines();
            if (m_p == m_end)
                return true;
            RawBlock b;
            if (!block(b))
                return false;
            out.push_back(b);
        }
    }

private:
    const char *m_begin;
    const char *m_p;
    const char *m_end;
    const char *m_lineStart;
    int m_line = 1;

    void spaces()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\t'))
            ++m_p;
    }
    bool newline()
    {
        if (m_p < m_end && *m_p == '\n') {
            ++m_p;
            ++m_line;
            m_lineStart = m_p;
            return true;
        }
        return false;
    }
    /// Spaces and newlines (inside brackets, where HCL ignores newlines).
    void skipBlankLines()
    {
        for (;;) {
            spaces();
            if (!newline())
                return;
        }
    }
    bool take(char c)
    {
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    /// Columns are bytes + 1: everything accepted is ASCII without CR (one byte, one column).
    void position(int *line, int *column, qsizetype *byte) const
    {
        *line = m_line;
        *column = int(m_p - m_lineStart) + 1;
        *byte = m_p - m_begin;
    }
    /// A quoted string of printable ASCII without escapes or template sequences.
    bool string(std::string_view *out)
    {
        if (!take('"'))
            return false;
        const char *start = m_p;
        while (m_p < m_end) {
#if defined(__SSE2__)
            // Skip 16 bytes at a time while none is special (the loop below decides about those).
            const __m128i below = _mm_set1_epi8(0x20 - 1);
            const __m128i above = _mm_set1_epi8(0x7F);
            while (m_end - m_p >= 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_p));
                // Signed compares: bytes >= 0x80 are negative and fail the first test.
                const __m128i inRange = _mm_and_si128(_mm_cmpgt_epi8(v, below), _mm_cmplt_epi8(v, above));
                const __m128i special =
                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('$')), _mm_cmpeq_epi8(v, _mm_set1_epi8('%'))));
                const int plain = _mm_movemask_epi8(_mm_andnot_si128(special, inRange));
                if (plain != 0xFFFF) {
                    m_p += std::countr_one(unsigned(plain));
                    break;
                }
                m_p += 16;
            }
            if (m_p == m_end)
                break;
#endif
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                *out = std::string_view(start, size_t(m_p - start));
                ++m_p;
                return true;
            }
            if (c < 0x20 || c > 0x7E || c == '\\')
                return false;
            if ((c == '$' || c == '%') && m_p + 1 < m_end && m_p[1] == '{')
                return false;
            ++m_p;
        }
        return false;
    }
    std::string_view identifier()
    {
        const char *start = m_p;
        while (m_p < m_end) {
            const char c = *m_p;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')
                ++m_p;
            else
                break;
        }
        return {start, size_t(m_p - start)};
    }

    bool block(RawBlock &b)
    {
        position(&b.range.line, &b.range.column, &b.range.byte);
        if (identifier() != "provider")
            return false;
        spaces();
        if (!string(&b.label))
            return false;
        spaces();
        if (!take('{'))
            return false;
        spaces();
        if (!newline())
            return false;
        for (;;) {
            skipBlankLines();
            if (take('}')) {
                position(&b.range.endLine, &b.range.endColumn, &b.range.endByte);
                spaces();
                return newline(); // a block at the very end without a newline: left to the full parser
            }
            const std::string_view name = identifier();
            spaces();
            if (!take('='))
                return false;
            spaces();
            if (name == "version" || name == "constraints") {
                RawAttr &a = name == "version" ? b.version : b.constraints;
                if (a.present || !string(&a.text))
                    return false;
                a.present = true;
            } else if (name == "hashes") {
                if (b.hasHashes || !take('['))
                    return false;
                b.hasHashes = true;
                b.firstHash = qsizetype(hashes.size());
                for (;;) {
                    skipBlankLines();
                    if (take(']'))
                        break;
                    std::string_view h;
                    if (!string(&h))
                        return false;
                    hashes.push_back(h);
                    skipBlankLines();
                    if (take(','))
                        continue;
                    if (take(']'))
                        break;
                    return false;
                }
                b.hashCount = qsizetype(hashes.size()) - b.firstHash;
            } else {
                return false;
            }
            spaces();
            if (!newline())
                return false;
        }
    }
};

QLatin1StringView latin1(std::string_view s)
{
    return QLatin1StringView(s.data(), qsizetype(s.size()));
}

struct ViewHash
{
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

/// The value of `raw` when it is canonical (T::parse reads it, and toString() gives it back), parsed
/// once per distinct text into `cache`; nullptr when it is not canonical.
template<typename T> const T *canonical(std::unordered_map<std::string_view, T, ViewHash> &cache, std::string_view raw)
{
    auto it = cache.find(raw);
    if (it == cache.end()) {
        const QString text = latin1(raw);
        const Result<T> parsed = T::parse(text);
        if (!parsed.ok() || parsed.value().toString() != text)
            return nullptr;
        it = cache.emplace(raw, parsed.value()).first;
    }
    return &it->second;
}

} // namespace

std::optional<LockParseResult> parseLockFileFast(const QByteArray &bytes, const LockParseOptions &options)
{
    if (bytes.size() > hcl::kMaxInputSize)
        return std::nullopt;
    Scanner scanner(bytes);
    std::string_view header;
    if (!scanner.header(&header))
        return std::nullopt;
    const LockFlavour flavour = header == kTofuHeader ? LockFlavour::Tofu : LockFlavour::Terraform;
    // A header for another flavour than the one asked for is dropped content: full parser.
    if (options.flavour && *options.flavour != flavour)
        return std::nullopt;

    std::vector<RawBlock> blocks;
    // Reserve for the input's likely shape, capped: the scan may still decline a few bytes later.
    blocks.reserve(size_t(qMin<qsizetype>(bytes.size() / 256 + 1, 16384)));
    scanner.hashes.reserve(size_t(qMin<qsizetype>(bytes.size() / 64 + 1, 262144)));
    if (!scanner.blocks(blocks))
        return std::nullopt;

    LockParseResult result;
    LockFile &doc = result.document;
    doc.flavour = flavour;
    doc.headerTool = flavour == LockFlavour::Tofu ? u"tofu init"_s : u"terraform init"_s;
    doc.hasStandardHeader = true;
    doc.providers.reserve(qsizetype(blocks.size()));

    // The core parsers are pure functions of their text: parse each distinct text once.
    std::unordered_map<std::string_view, QString, ViewHash> hosts;                     // raw host -> comparison form ("" when invalid)
    std::unordered_map<std::string_view, Version, ViewHash> versions;                  // canonical ones only
    std::unordered_map<std::string_view, VersionConstraints, ViewHash> constraintSets; // canonical ones only
    QString scratch;

    for (const RawBlock &b : blocks) {
        // The address: canonical labels are always HOST/NS/TYPE.
        const size_t slash1 = b.label.find('/');
        const size_t slash2 = slash1 == std::string_view::npos ? slash1 : b.label.find('/', slash1 + 1);
        if (slash2 == std::string_view::npos || b.label.find('/', slash2 + 1) != std::string_view::npos || slash1 == 0)
            return std::nullopt;
        const std::string_view rawHost = b.label.substr(0, slash1);
        const std::string_view rawNs = b.label.substr(slash1 + 1, slash2 - slash1 - 1);
        // "-" is the legacy namespace, an error in a lock file.
        if (rawNs == "-")
            return std::nullopt;
        auto host = hosts.find(rawHost);
        if (host == hosts.end()) {
            const Result<QString> normalized = ProviderAddress::normalizeHostname(QString(latin1(rawHost)));
            host = hosts.emplace(rawHost, normalized.ok() ? normalized.value() : QString()).first;
        }
        if (host->second.isEmpty())
            return std::nullopt;
        // ProviderAddress::parse("NS/TYPE", H) with H = normalizeHostname(HOST) gives the same
        // address as parse("HOST/NS/TYPE"): the 3-part form normalizes the same two parts, then
        // sets the host to normalizeHostname(HOST); the default host matters only for the
        // namespace "-", excluded above. It saves the hostname's IDNA pass per provider.
        scratch = latin1(b.label.substr(slash1 + 1));
        const Result<ProviderAddress> parsed = ProviderAddress::parse(scratch, host->second);
        if (!parsed.ok())
            return std::nullopt;
        ProviderLock lock;
        lock.address = parsed.value();
        // Non-normalized labels are errors. Compared part by part, without building toString()
        // (displayHost/ns/type): equal parts give an equal label; a part holding a '/' (which
        // IDNA with STD3 rules never lets through) could only make this decline.
        const std::string_view rawType = b.label.substr(slash2 + 1);
        if (lock.address.isBuiltIn() || lock.address.isLegacy() || lock.address.displayHostname() != latin1(rawHost)
            || lock.address.ns() != latin1(rawNs) || lock.address.type() != latin1(rawType))
            return std::nullopt;

        if (!b.version.present)
            return std::nullopt;
        const Version *version = canonical(versions, b.version.text);
        if (!version)
            return std::nullopt;
        lock.version = *version;

        if (b.constraints.present) {
            const VersionConstraints *c = canonical(constraintSets, b.constraints.text);
            if (!c)
                return std::nullopt;
            lock.constraints = *c;
        }

        if (b.hasHashes) {
            if (b.hashCount == 0)
                return std::nullopt; // "Invalid provider hash set"
            lock.hashes.reserve(b.hashCount);
            for (qsizetype k = b.firstHash; k < b.firstHash + b.hashCount; ++k) {
                scratch = latin1(scanner.hashes[size_t(k)]); // reuses scratch's buffer
                Result<HashString> h = HashString::parse(scratch);
                if (!h.ok())
                    return std::nullopt;
                lock.hashes.append(std::move(h).value());
            }
            lock.normalizeHashes();
        }
        lock.sourceRange = b.range;
        doc.providers.append(std::move(lock));
    }

    const auto less = [](const ProviderLock &a, const ProviderLock &b) { return a.address < b.address; };
    if (!std::is_sorted(doc.providers.cbegin(), doc.providers.cend(), less))
        std::stable_sort(doc.providers.begin(), doc.providers.end(), less);
    // A provider locked twice is an error ("Duplicate provider lock"): full parser.
    const auto dup = std::adjacent_find(doc.providers.cbegin(), doc.providers.cend(),
                                        [](const ProviderLock &a, const ProviderLock &b) { return a.address == b.address; });
    if (dup != doc.providers.cend())
        return std::nullopt;
    return result;
}

} // namespace provender::lockfile_detail
