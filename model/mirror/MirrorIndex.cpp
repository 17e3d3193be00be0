#include "model/mirror/MirrorIndex.h"

#include "model/core/Logging.h"
#include "model/mirror/MirrorIndexFastPath.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QVarLengthArray>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace provender {

namespace {

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

/// Offset of the first `"key"` followed by `:` in the document, or -1. Good enough to point a
/// reader at the member a message is about; keys with escapes may not be found.
qsizetype findKey(const QByteArray &bytes, const QString &key, qsizetype from = 0)
{
    QByteArray needle = key.toUtf8();
    needle.replace('\\', "\\\\").replace('"', "\\\"");
    needle.prepend('"').append('"');
    for (qsizetype pos = bytes.indexOf(needle, from); pos >= 0; pos = bytes.indexOf(needle, pos + 1)) {
        qsizetype i = pos + needle.size();
        while (i < bytes.size() && isJsonSpace(bytes.at(i)))
            ++i;
        if (i < bytes.size() && bytes.at(i) == ':')
            return pos;
    }
    return -1;
}

struct Doc
{
    const QByteArray &bytes;
    const QString &source;

    Location at(qsizetype offset) const { return offset >= 0 ? locationOfOffset(bytes, offset, source) : Location{source, 0, 0}; }
    Location atKey(const QString &key, qsizetype from = 0) const { return at(findKey(bytes, key, from)); }
    Error error(const QString &message, const Location &where) const { return makeError(ErrorCode::InvalidArgument, message, where); }
};

/// Go's encoding/json matches object keys to struct fields case-insensitively (Unicode simple
/// folding). Every member whose key folds to `field`, in key order.
QList<QJsonValue> fieldValues(const QJsonObject &object, QLatin1StringView field, QStringList *matchedKeys = nullptr)
{
    QList<QJsonValue> values;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (it.key().compare(field, Qt::CaseInsensitive) == 0) {
            values.append(it.value());
            if (matchedKeys)
                matchedKeys->append(it.key());
        }
    }
    return values;
}

/// Syntax check with the rules and wording of Go's encoding/json scanner, which is stricter than
/// QJsonDocument in some places (raw control characters in strings, unknown escapes, a byte-order
/// mark) and more lenient in others (it stops after the first value). Finds the end of the first
/// value, or the offending byte.
class GoJsonScanner
{
public:
    explicit GoJsonScanner(const QByteArray &bytes) : m_b(bytes) {}

    /// True when the first value is well-formed; `end()` is then just past it.
    bool scan()
    {
        skipSpace();
        return value(0);
    }
    qsizetype end() const { return m_pos; }
    qsizetype errorOffset() const { return m_errorOffset; }
    const QString &errorMessage() const { return m_error; }

private:
    // encoding/json allows 10000 levels; QJsonDocument stops at 1024, so deeper documents are
    // reported here (and the recursion stays shallow on any thread's stack).
    static constexpr int kMaxDepth = 1024;

    bool atEnd() const { return m_pos >= m_b.size(); }
    char peek() const { return m_b.at(m_pos); }
    void skipSpace()
    {
        while (!atEnd() && isJsonSpace(peek()))
            ++m_pos;
    }
    /// Go's quoteChar: the byte as a rune in single quotes, escaped like strconv.Quote.
    static QString quoteChar(char c)
    {
        const auto u = static_cast<unsigned char>(c);
        switch (u) {
        case '\'': return QStringLiteral("'\\''");
        case '"': return QStringLiteral("'\"'");
        case '\a': return QStringLiteral("'\\a'");
        case '\b': return QStringLiteral("'\\b'");
        case '\f': return QStringLiteral("'\\f'");
        case '\n': return QStringLiteral("'\\n'");
        case '\r': return QStringLiteral("'\\r'");
        case '\t': return QStringLiteral("'\\t'");
        case '\v': return QStringLiteral("'\\v'");
        default: break;
        }
        if (u < 0x20 || u == 0x7F)
            return QStringLiteral("'\\x%1'").arg(u, 2, 16, QLatin1Char('0'));
        if (u >= 0x80 && u < 0xA0)
            return QStringLiteral("'\\u%1'").arg(u, 4, 16, QLatin1Char('0'));
        return QLatin1Char('\'') + QChar(char16_t(u)) + QLatin1Char('\'');
    }
    bool fail(const QString &context)
    {
        m_errorOffset = m_pos;
        m_error = atEnd() ? QStringLiteral("unexpected end of JSON input")
                          : QStringLiteral("invalid character %1 %2").arg(quoteChar(peek()), context);
        return false;
    }
    bool literal(const char *word)
    {
        for (const char *w = word; *w; ++w, ++m_pos) {
            if (atEnd() || peek() != *w)
                return fail(QStringLiteral("in literal %1 (expecting '%2')").arg(QLatin1StringView(word), QString(QLatin1Char(*w))));
        }
        return true;
    }
    bool digits()
    {
        if (atEnd() || !std::isdigit(static_cast<unsigned char>(peek())))
            return fail(QStringLiteral("in numeric literal"));
        while (!atEnd() && std::isdigit(static_cast<unsigned char>(peek())))
            ++m_pos;
        return true;
    }
    bool number()
    {
        if (peek() == '-')
            ++m_pos;
        if (!atEnd() && peek() == '0')
            ++m_pos;
        else if (!digits())
            return false;
        if (accept('.') && !digits())
            return false;
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            ++m_pos;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_pos;
            if (!digits())
                return false;
        }
        return true;
    }
    bool string()
    {
        ++m_pos; // opening quote
        while (!atEnd()) {
            const auto c = static_cast<unsigned char>(peek());
            if (c == '"') {
                ++m_pos;
                return true;
            }
            if (c < 0x20)
                return fail(QStringLiteral("in string literal"));
            if (c == '\\') {
                ++m_pos;
                if (atEnd())
                    break;
                const char e = peek();
                if (e == 'u') {
                    ++m_pos;
                    for (int i = 0; i < 4; ++i, ++m_pos) {
                        if (atEnd() || !std::isxdigit(static_cast<unsigned char>(peek())))
                            return fail(QStringLiteral("in \\u hexadecimal character escape"));
                    }
                    continue;
                }
                if (!std::strchr("\"\\/bfnrt", e) || e == 0)
                    return fail(QStringLiteral("in string escape code"));
            }
            ++m_pos;
        }
        return fail({});
    }
    bool value(int depth)
    {
        if (atEnd())
            return fail({});
        switch (peek()) {
        case '{': return object(depth + 1);
        case '[': return array(depth + 1);
        case '"': return string();
        case 't': return literal("true");
        case 'f': return literal("false");
        case 'n': return literal("null");
        default: break;
        }
        if (peek() == '-' || std::isdigit(static_cast<unsigned char>(peek())))
            return number();
        return fail(QStringLiteral("looking for beginning of value"));
    }
    /// Takes \p c when it comes next.
    bool accept(char c)
    {
        if (atEnd() || peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    /// An object or array after its opening bracket: \p element, separated by commas, up to
    /// \p close. \p afterElement is encoding/json's context when neither follows an element.
    template<typename Element> bool sequence(int depth, char close, const QString &afterElement, Element element)
    {
        if (depth > kMaxDepth)
            return fail(QStringLiteral("nested deeper than 1024 levels (not supported)"));
        ++m_pos;
        skipSpace();
        if (accept(close))
            return true;
        for (;;) {
            if (!element())
                return false;
            skipSpace();
            if (accept(',')) {
                skipSpace();
                continue;
            }
            if (accept(close))
                return true;
            return fail(afterElement);
        }
    }
    bool object(int depth)
    {
        return sequence(depth, '}', QStringLiteral("after object key:value pair"), [&] {
            if (atEnd() || peek() != '"')
                return fail(QStringLiteral("looking for beginning of object key string"));
            if (!string())
                return false;
            skipSpace();
            if (!accept(':'))
                return fail(QStringLiteral("after object key"));
            skipSpace();
            return value(depth);
        });
    }
    bool array(int depth)
    {
        return sequence(depth, ']', QStringLiteral("after array element"), [&] { return value(depth); });
    }

    const QByteArray &m_b;
    qsizetype m_pos = 0;
    qsizetype m_errorOffset = -1;
    QString m_error;
};

/// Go decodes invalid UTF-8 inside strings as U+FFFD; QJsonDocument rejects it. Only called on
/// text the scanner accepted, so replacing bytes cannot change the structure.
QByteArray replaceInvalidUtf8(const QByteArray &bytes)
{
    const QString decoded = QString::fromUtf8(bytes); // invalid sequences become U+FFFD
    QByteArray again = decoded.toUtf8();
    return again;
}

/// Go decodes a `\\uXXXX` escape of a surrogate that is not half of a valid pair as U+FFFD
/// (encoding/json: "invalid UTF-16 surrogate pairs ... are replaced by the Unicode replacement
/// character"); QJsonDocument keeps the lone surrogate. Rewrites such escapes to `\\ufffd` (same
/// length, so offsets stay). Only called on text the scanner accepted.
QByteArray replaceLoneSurrogateEscapes(const QByteArray &bytes)
{
    if (!bytes.contains("\\u"))
        return bytes;
    const auto hex4 = [&](qsizetype at) -> int { // the value of 4 hex digits at `at`, or -1
        if (at + 4 > bytes.size())
            return -1;
        bool ok = false;
        const int v = QByteArrayView(bytes).sliced(at, 4).toInt(&ok, 16);
        return ok ? v : -1;
    };
    QByteArray out = bytes;
    bool inString = false;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (!inString) {
            inString = c == '"';
            continue;
        }
        if (c == '"') {
            inString = false;
        } else if (c == '\\' && i + 1 < bytes.size()) {
            if (bytes.at(i + 1) != 'u') {
                ++i; // a two-character escape
                continue;
            }
            const int unit = hex4(i + 2);
            if (unit >= 0xD800 && unit <= 0xDBFF && i + 7 < bytes.size() && bytes.at(i + 6) == '\\' && bytes.at(i + 7) == 'u') {
                const int low = hex4(i + 8);
                if (low >= 0xDC00 && low <= 0xDFFF) {
                    i += 11; // a valid pair
                    continue;
                }
            }
            if (unit >= 0xD800 && unit <= 0xDFFF)
                out.replace(i, 6, "\\ufffd");
            i += 5;
        }
    }
    return out;
}

/// Parses the first JSON value of the document. `null` gives an empty object (Go leaves the
/// struct zero); anything but an object or null is a type error.
Result<QJsonObject> parseTopObject(const Doc &doc, QList<MirrorIndexIssue> &issues)
{
    const QByteArray &bytes = doc.bytes;
    GoJsonScanner scanner(bytes);
    if (!scanner.scan())
        return doc.error(QStringLiteral("malformed JSON: ") + scanner.errorMessage(), doc.at(scanner.errorOffset()));

    qsizetype start = 0;
    while (start < bytes.size() && isJsonSpace(bytes.at(start)))
        ++start;
    qsizetype rest = scanner.end();
    while (rest < bytes.size() && isJsonSpace(bytes.at(rest)))
        ++rest;
    if (rest < bytes.size()) {
        // Go's json.Decoder stops after the first value; what follows is never read.
        issues.append({MirrorIndexIssue::Kind::TrailingData,
                       {},
                       QStringLiteral("data after the first JSON value (tofu and terraform read only the first value and ignore the rest)"),
                       doc.at(rest)});
    }
    const char first = bytes.at(start);
    if (first == 'n')
        return QJsonObject(); // null
    if (first != '{')
        return doc.error(QStringLiteral("malformed JSON: the document must be an object, found ")
                             + (first == '[' ? QStringLiteral("an array") : QStringLiteral("a scalar")),
                         doc.at(start));

    QByteArray value = bytes.mid(start, scanner.end() - start);
    if (!value.isValidUtf8())
        value = replaceInvalidUtf8(value);
    value = replaceLoneSurrogateEscapes(value);
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(value, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // Only what Go accepts and Qt does not is left here (e.g. a number out of double range).
        return doc.error(QStringLiteral("unsupported JSON: ") + parseError.errorString(),
                         doc.at(start + std::max(0, parseError.offset - 1)));
    }
    return json.object();
}

/// Go decodes several members that fold to the same map field into one map (later keys win).
Result<QJsonObject> mapField(const Doc &doc, const QJsonObject &top, QLatin1StringView field)
{
    QStringList keys;
    const QList<QJsonValue> values = fieldValues(top, field, &keys);
    QJsonObject merged;
    for (qsizetype i = 0; i < values.size(); ++i) {
        const QJsonValue &v = values.at(i);
        if (v.isNull())
            continue;
        if (!v.isObject())
            return doc.error(QStringLiteral("\"%1\" must be an object, found %2").arg(keys.at(i), typeName(v)), doc.atKey(keys.at(i)));
        const QJsonObject o = v.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            merged.insert(it.key(), it.value());
    }
    return merged;
}

/// The document's one map: \p field of the top-level object (`versions` or `archives`).
Result<QJsonObject> topLevelMap(const Doc &doc, QList<MirrorIndexIssue> &issues, QLatin1StringView field)
{
    Result<QJsonObject> top = parseTopObject(doc, issues);
    if (!top)
        return top.error();
    return mapField(doc, top.value(), field);
}

/// Go sorts map keys as UTF-8 byte strings; QJsonObject keeps them in UTF-16 order, which differs
/// only for characters beyond U+FFFF versus U+E000..U+FFFF.
QStringList sortedKeysByBytes(const QJsonObject &o)
{
    QStringList keys = o.keys();
    const bool bmpOnly = std::all_of(keys.cbegin(), keys.cend(), [](const QString &k) {
        return std::none_of(k.cbegin(), k.cend(), [](QChar c) { return c.isSurrogate(); });
    });
    if (bmpOnly) {
        std::sort(keys.begin(), keys.end(), [](const QString &a, const QString &b) {
            return std::lexicographical_compare(a.cbegin(), a.cend(), b.cbegin(), b.cend(),
                                                [](QChar x, QChar y) { return x.unicode() < y.unicode(); });
        });
        return keys;
    }
    QList<QPair<QByteArray, QString>> withBytes;
    for (const QString &k : std::as_const(keys))
        withBytes.append({k.toUtf8(), k});
    std::sort(withBytes.begin(), withBytes.end());
    keys.clear();
    for (const auto &p : std::as_const(withBytes))
        keys.append(p.second);
    return keys;
}

} // namespace

Location locationOfOffset(const QByteArray &bytes, qsizetype offset, const QString &sourceName)
{
    offset = std::clamp<qsizetype>(offset, 0, bytes.size());
    int line = 1;
    int column = 1;
    for (qsizetype i = 0; i < offset; ++i) {
        const auto c = static_cast<unsigned char>(bytes.at(i));
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) { // not a UTF-8 continuation byte: a new code point
            ++column;
        }
    }
    return Location{sourceName, line, column};
}

Result<MirrorIndexDocument> parseIndexJson(const QByteArray &bytes, const QString &sourceName)
{
    const Doc doc{bytes, sourceName};
    MirrorIndexDocument out;
    Result<QJsonObject> versions = topLevelMap(doc, out.issues, QLatin1StringView("versions"));
    if (!versions)
        return versions.error();

    out.keys = sortedKeysByBytes(versions.value());
    for (const QString &key : std::as_const(out.keys)) {
        const QJsonValue v = versions->value(key);
        // Each value decodes into struct{}: an object (members ignored) or null.
        if (!v.isObject() && !v.isNull())
            return doc.error(QStringLiteral("version \"%1\" must map to an object, found %2").arg(key, typeName(v)), doc.atKey(key));
        Result<Version> version = Version::parse(key);
        if (!version) {
            out.issues.append({MirrorIndexIssue::Kind::InvalidVersionKey, key,
                               QStringLiteral("\"%1\" is not a valid version (%2); clients skip it").arg(key, version.error().message),
                               doc.atKey(key)});
            continue;
        }
        if (!out.versions.contains(version.value()))
            out.versions.append(version.value());
    }
    std::sort(out.versions.begin(), out.versions.end());
    if (out.versions.isEmpty())
        out.issues.append({MirrorIndexIssue::Kind::NoVersions, QString(),
                           out.keys.isEmpty() ? QStringLiteral("lists no version: terraform reports the provider as not found (\"was not "
                                                               "found in any of the search locations\")")
                                              : QStringLiteral("lists no valid version: terraform skips every key and reports the "
                                                               "provider as not found (\"was not found in any of the search locations\")"),
                           Location{sourceName, 0, 0}});
    return out;
}

Result<MirrorVersionDocument> parseVersionJson(const QByteArray &bytes, const QString &sourceName)
{
    if (std::optional<MirrorVersionDocument> fast = mirror_detail::parseVersionJsonFast(bytes))
        return std::move(*fast);
    return mirror_detail::parseVersionJsonFull(bytes, sourceName);
}

namespace mirror_detail {

namespace {

/// Reads the plain shape described in MirrorIndexFastPath.h; every `return false` declines.
class FastVersionReader
{
public:
    explicit FastVersionReader(const QByteArray &bytes) : m_p(bytes.constData()), m_end(bytes.constData() + bytes.size()) {}

    bool read(MirrorVersionDocument &out)
    {
        // {"archives": {
        if (!token('{') || !key("archives") || !token('{'))
            return false;
        // A capacity hint: every entry is one object.
        out.archives.reserve(std::max<qsizetype>(0, qsizetype(std::count(m_p, m_end, '{'))));
        std::string_view previous;
        skipSpace();
        if (m_p < m_end && *m_p == '}') {
            ++m_p;
        } else {
            for (;;) {
                std::string_view platformKey;
                if (!string(platformKey) || !token(':') || !token('{'))
                    return false;
                // Go sorts map keys; the full reader lists entries in byte-wise key order. Keys
                // out of order (or repeated) are left to it.
                if (!previous.empty() && !(previous < platformKey))
                    return false;
                previous = platformKey;
                MirrorArchiveEntry entry;
                if (!archive(platformKey, entry))
                    return false;
                out.archives.append(std::move(entry));
                skipSpace();
                if (m_p < m_end && *m_p == ',') {
                    ++m_p;
                    continue;
                }
                if (!token('}'))
                    return false;
                break;
            }
        }
        if (!token('}'))
            return false;
        skipSpace();
        return m_p == m_end; // trailing data (an issue) is left to the full reader
    }

private:
    void skipSpace()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool token(char c)
    {
        skipSpace();
        if (m_p >= m_end || *m_p != c)
            return false;
        ++m_p;
        return true;
    }
    /// A string of printable ASCII without escapes; `text` views its content.
    bool string(std::string_view &text)
    {
        skipSpace();
        if (m_p >= m_end || *m_p != '"')
            return false;
        const char *start = ++m_p;
        while (m_p < m_end && *m_p != '"') {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c < 0x20 || c > 0x7E || c == '\\')
                return false;
            ++m_p;
        }
        if (m_p >= m_end)
            return false;
        text = std::string_view(start, size_t(m_p - start));
        ++m_p;
        return true;
    }
    /// `"name":` exactly (the full reader matches member names case-insensitively).
    bool key(std::string_view name)
    {
        std::string_view text;
        return string(text) && text == name && token(':');
    }
    static QStringView widen(std::string_view ascii, QVarLengthArray<char16_t, 128> &buffer)
    {
        buffer.resize(qsizetype(ascii.size()));
        std::copy(ascii.begin(), ascii.end(), buffer.begin());
        return QStringView(buffer.constData(), buffer.size());
    }
    /// The members of one entry, after its `{`.
    bool archive(std::string_view platformKey, MirrorArchiveEntry &entry)
    {
        QVarLengthArray<char16_t, 128> buffer;
        bool haveUrl = false;
        bool haveHashes = false;
        for (;;) {
            std::string_view name;
            if (!string(name) || !token(':'))
                return false;
            if (name == "url" && !haveUrl) {
                std::string_view url;
                if (!string(url) || url.empty())
                    return false; // an empty url is an issue
                entry.url = QString::fromLatin1(url.data(), qsizetype(url.size()));
                haveUrl = true;
            } else if (name == "hashes" && !haveHashes) {
                if (!token('['))
                    return false;
                skipSpace();
                if (m_p < m_end && *m_p == ']') {
                    ++m_p;
                } else {
                    for (;;) {
                        std::string_view text;
                        if (!string(text))
                            return false;
                        Result<HashString> hash = HashString::parse(widen(text, buffer));
                        if (!hash)
                            return false; // an invalid hash is an issue
                        entry.hashes.append(std::move(hash).value());
                        if (token(','))
                            continue;
                        if (!token(']'))
                            return false;
                        break;
                    }
                }
                haveHashes = true;
            } else {
                return false; // another member, another case, or a repeated one
            }
            if (token(','))
                continue;
            if (!token('}'))
                return false;
            break;
        }
        if (!haveUrl)
            return false; // a missing url is an issue
        // Documents repeat the same dozen platform keys: each thread keeps the parsed ones (and
        // their key strings), so an entry shares them instead of allocating three strings.
        struct KnownPlatform
        {
            std::string key;
            QString keyText;
            Platform platform;
        };
        static thread_local std::vector<KnownPlatform> known;
        const auto it = std::find_if(known.cbegin(), known.cend(), [&](const KnownPlatform &k) { return k.key == platformKey; });
        if (it != known.cend()) {
            entry.key = it->keyText;
            entry.platform = it->platform;
            return true;
        }
        entry.key = QString::fromLatin1(platformKey.data(), qsizetype(platformKey.size()));
        Result<Platform> platform = Platform::parse(entry.key);
        if (!platform)
            return false; // an invalid platform key is an issue
        entry.platform = std::move(platform).value();
        if (known.size() < 64)
            known.push_back({std::string(platformKey), entry.key, entry.platform});
        return true;
    }

    const char *m_p;
    const char *m_end;
};

} // namespace

std::optional<MirrorVersionDocument> parseVersionJsonFast(const QByteArray &bytes)
{
    MirrorVersionDocument out;
    if (!FastVersionReader(bytes).read(out))
        return std::nullopt;
    return out;
}

Result<MirrorVersionDocument> parseVersionJsonFull(const QByteArray &bytes, const QString &sourceName)
{
    const Doc doc{bytes, sourceName};
    MirrorVersionDocument out;
    Result<QJsonObject> archives = topLevelMap(doc, out.issues, QLatin1StringView("archives"));
    if (!archives)
        return archives.error();

    for (const QString &key : sortedKeysByBytes(archives.value())) {
        const QJsonValue v = archives->value(key);
        // Where the entry is, for messages only (searched when needed).
        const auto keyOffset = [&] { return findKey(bytes, key); };
        if (v.isNull()) {
            out.issues.append({MirrorIndexIssue::Kind::NullArchive, key,
                               QStringLiteral("the archive entry for \"%1\" is null (tofu and terraform crash on it)").arg(key),
                               doc.at(keyOffset())});
            continue;
        }
        if (!v.isObject())
            return doc.error(QStringLiteral("archive \"%1\" must be an object, found %2").arg(key, typeName(v)), doc.at(keyOffset()));
        const QJsonObject entryObject = v.toObject();
        MirrorArchiveEntry entry;
        entry.key = key;

        QStringList urlKeys;
        const QList<QJsonValue> urls = fieldValues(entryObject, QLatin1StringView("url"), &urlKeys);
        for (qsizetype i = 0; i < urls.size(); ++i) {
            const QJsonValue &u = urls.at(i);
            if (u.isNull())
                continue; // Go leaves the string unchanged
            if (!u.isString())
                return doc.error(QStringLiteral("\"%1\" of archive \"%2\" must be a string, found %3").arg(urlKeys.at(i), key, typeName(u)),
                                 doc.at(findKey(bytes, urlKeys.at(i), std::max<qsizetype>(0, keyOffset()))));
            entry.url = u.toString();
        }

        QStringList hashKeys;
        const QList<QJsonValue> hashLists = fieldValues(entryObject, QLatin1StringView("hashes"), &hashKeys);
        for (qsizetype i = 0; i < hashLists.size(); ++i) {
            const QJsonValue &h = hashLists.at(i);
            if (h.isNull())
                continue;
            const auto where = [&] { return doc.at(findKey(bytes, hashKeys.at(i), std::max<qsizetype>(0, keyOffset()))); };
            if (!h.isArray())
                return doc.error(
                    QStringLiteral("\"%1\" of archive \"%2\" must be an array of strings, found %3").arg(hashKeys.at(i), key, typeName(h)),
                    where());
            // Go decodes into a fresh slice: a later "hashes" member replaces an earlier one.
            entry.hashes.clear();
            entry.invalidHashes.clear();
            const QJsonArray array = h.toArray();
            for (const QJsonValue &element : array) {
                if (!element.isString() && !element.isNull())
                    return doc.error(QStringLiteral("\"%1\" of archive \"%2\" must hold only strings, found %3")
                                         .arg(hashKeys.at(i), key, typeName(element)),
                                     where());
                const QString text = element.toString(); // null decodes as ""
                Result<HashString> hash = HashString::parse(text);
                if (hash) {
                    entry.hashes.append(hash.value());
                } else {
                    entry.invalidHashes.append(text);
                    out.issues.append({MirrorIndexIssue::Kind::InvalidHash, key,
                                       QStringLiteral("archive \"%1\" lists the invalid hash \"%2\" (installing it fails: "
                                                      "a hash must start with a scheme keyword followed by a colon)")
                                           .arg(key, text),
                                       where()});
                }
            }
        }

        Result<Platform> platform = Platform::parse(key);
        if (!platform) {
            out.issues.append(
                {MirrorIndexIssue::Kind::InvalidPlatformKey, key,
                 QStringLiteral("\"%1\" is not a valid platform (%2); no client ever requests it").arg(key, platform.error().message),
                 doc.at(keyOffset())});
            continue;
        }
        entry.platform = platform.value();
        if (entry.url.isEmpty())
            out.issues.append({MirrorIndexIssue::Kind::MissingUrl, key,
                               QStringLiteral("archive \"%1\" has no url (a client would download the JSON document itself)").arg(key),
                               doc.at(keyOffset())});
        out.archives.append(std::move(entry));
    }
    return out;
}

} // namespace mirror_detail

} // namespace provender
