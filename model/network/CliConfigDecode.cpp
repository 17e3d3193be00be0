#include "model/network/CliConfigDecode.h"

#include "model/core/GoCompat.h"

#include <QHash>
#include <QSet>

using namespace Qt::StringLiterals;

namespace provender::cliconfig {

namespace {

/// Go's strconv.ParseInt(s, 0, 64), hcl v1's decodeInt.
bool goParsesInt(const QString &s)
{
    return gocompat::parseInt64(s.toUtf8(), 0);
}

/// Go's strconv.ParseFloat(s, 64), hcl v1's decodeFloat: hcl's scanner never makes the
/// hexadecimal form (it needs a `p` exponent), so a decimal number.
bool goParsesFloat(const QString &s)
{
    return gocompat::parsesAsFloat64(s.toUtf8());
}

// ---- values -----------------------------------------------------------------------------------

/// What hcl v1's decodeString takes: STRING and HEREDOC tokens (JSON null is a STRING ""), and
/// NUMBER ones as written.
bool stringLike(const Value &v)
{
    return v.type == Value::Type::String || v.type == Value::Type::Null || (v.type == Value::Type::Number && !v.fraction);
}

QString kindOf(const Value &v)
{
    switch (v.type) {
    case Value::Type::String: return v.heredoc ? u"a heredoc"_s : u"a string"_s;
    case Value::Type::Number: return v.fraction ? u"a fraction"_s : u"an integer"_s;
    case Value::Type::Bool: return u"a boolean"_s;
    case Value::Type::Null: return u"null"_s;
    case Value::Type::List: return u"a list"_s;
    case Value::Type::Object: break;
    }
    return u"an object"_s;
}

bool sameName(const QString &key, QLatin1StringView name)
{
    return key.compare(name, Qt::CaseInsensitive) == 0;
}

/// A node hcl v1 decodes into interface{}: a value, or the labels of an item after the ones read
/// (`a "b" { … }` inside an object decodes as `a = { b = { … } }`).
struct Node
{
    const Value *value = nullptr;
    const Item *item = nullptr;
    qsizetype next = 0;

    bool isObject() const { return item || value->isObject(); }
    int line() const { return item ? (item->line ? item->line : item->value->line) : value->line; }
};

Node child(const Item &i, qsizetype next)
{
    return next < i.keys.size() ? Node{nullptr, &i, next} : Node{i.value.get()};
}

/// An object node's members in document order.
QList<std::pair<QString, Node>> members(const Node &n)
{
    if (n.item)
        return {{n.item->keys.at(n.next), child(*n.item, n.next + 1)}};
    QList<std::pair<QString, Node>> out;
    for (const Item &i : n.value->object)
        out.append({i.keys.first(), child(i, 1)});
    return out;
}

/// The Go type hcl v1's decodeInterface gave an interface{} (its first value's), and whether a
/// []map[string]interface{} is anywhere in it: an object decodes as map[string]interface{}
/// directly inside a list, as []map[string]interface{} anywhere else.
struct Dynamic
{
    enum class Type {
        String,
        Int,
        Float,
        Bool,
        List,    ///< []interface{}
        Objects, ///< []map[string]interface{}
        Object,  ///< map[string]interface{}, only ever a list's element (never decoded into again)
    };
    Type type = Type::String;
    bool objects = false;
    int objectsLine = 0; ///< where the first of them is

    void absorb(const Dynamic &inner)
    {
        if (inner.objects && !objects)
            objectsLine = inner.objectsLine;
        objects |= inner.objects;
    }
};

QString typeName(Dynamic::Type t)
{
    switch (t) {
    case Dynamic::Type::String: return u"a string"_s;
    case Dynamic::Type::Int: return u"an integer"_s;
    case Dynamic::Type::Float: return u"a number"_s;
    case Dynamic::Type::Bool: return u"a boolean"_s;
    case Dynamic::Type::List: return u"a list"_s;
    case Dynamic::Type::Objects:
    case Dynamic::Type::Object: break;
    }
    return u"an object"_s;
}

// ---- the decoder ------------------------------------------------------------------------------

enum class Reader { Terraform, Tofu };

class Decoder
{
public:
    Decoder(const QList<Item> &items, Reader reader) : m_items(items), m_reader(reader) {}

    std::optional<DecodeProblem> run()
    {
        // decodeStruct takes the fields in the order of the Config struct, and stops at a failure.
        if (m_reader == Reader::Terraform
            && !(stringMap(QLatin1StringView("providers")) && stringMap(QLatin1StringView("provisioners"))
                 && scalar(QLatin1StringView("disable_checkpoint"), true)
                 && scalar(QLatin1StringView("disable_checkpoint_signature"), true)))
            return m_problem;
        if (scalar(QLatin1StringView("plugin_cache_dir"), false)
            && scalar(QLatin1StringView("plugin_cache_may_break_dependency_lock_file"), true) && hosts() && credentials())
            helpers();
        return m_problem;
    }

    QList<std::pair<QString, DecodeProblem>> unconvertible;

private:
    const QList<Item> &m_items;
    const Reader m_reader;
    std::optional<DecodeProblem> m_problem;
    QString m_path; ///< the setting being decoded, for messages
    int m_line = 0; ///< its line, where a value has none

    bool fail(int line, const QString &what)
    {
        m_problem = DecodeProblem{line ? line : m_line, what};
        return false;
    }
    bool notA(const Node &n, const QString &expected)
    {
        return fail(n.line(), u"%1 is %2, not %3"_s.arg(m_path, n.item ? u"a labelled block"_s : kindOf(*n.value), expected));
    }

    /// A string or boolean setting: every `name = …` must be one (a block never is).
    bool scalar(QLatin1StringView name, bool boolean)
    {
        m_path = name;
        m_line = 0;
        for (const Item &i : m_items) {
            if (!sameName(i.keys.first(), name))
                continue;
            const Node n = child(i, 1);
            if (n.item || !(boolean ? n.value->type == Value::Type::Bool : stringLike(*n.value)))
                return notA(n, boolean ? u"true or false"_s : u"a string"_s);
        }
        return true;
    }

    /// The entry of a map setting decoded next, for messages.
    void at(const QString &path, const Entry &e)
    {
        m_path = path;
        m_line = e.line ? e.line : e.value.line;
    }

    /// A map setting: written `name = …`, an object (decodeMap: "not an object type for map"), and
    /// each entry `expected`: an object for map[string]*struct and map[string]map[…] ("not an
    /// object type for struct" / "… for map"), a string for map[string]string.
    bool entriesAre(QLatin1StringView name, bool (*ok)(const Value &), const QString &expected)
    {
        m_path = name;
        m_line = 0;
        for (const Item &i : m_items)
            if (i.keys.size() == 1 && sameName(i.keys.first(), name) && !i.value->isObject())
                return notA(child(i, 1), u"an object"_s);
        for (const Entry &e : mapEntries(m_items, name)) {
            at(u"%1 \"%2\""_s.arg(name, e.key), e);
            if (!ok(e.value))
                return notA(Node{&e.value}, expected);
        }
        return true;
    }
    bool objectEntries(QLatin1StringView name)
    {
        return entriesAre(
            name, [](const Value &v) { return v.isObject(); }, u"an object"_s);
    }
    bool stringMap(QLatin1StringView name) { return entriesAre(name, stringLike, u"a string"_s); }

    bool hosts()
    {
        if (!objectEntries(QLatin1StringView("host")))
            return false;
        // host is map[string]*ConfigHost: terraform's hcl v1.0.0 decodes each entry into a new
        // ConfigHost (a later block of a host replaces the earlier one); tofu's v1.0.1-vault-7
        // decodes into the one it has (decodePtr: "if pointer is not nil, decode into existing
        // value"), so its `services` values must agree across the blocks of a host.
        QHash<QString, QHash<QString, Dynamic>> servicesOf;
        for (const Entry &e : mapEntries(m_items, QLatin1StringView("host"))) {
            QHash<QString, Dynamic> own;
            QHash<QString, Dynamic> &seen = m_reader == Reader::Tofu ? servicesOf[e.key] : own;
            at(u"host \"%1\" services"_s.arg(e.key), e);
            for (const Value *s : attributeValues({&e.value}, QLatin1StringView("services"), Qt::CaseInsensitive))
                if (!(s->isObject() ? objectInto(Node{s}, seen) : notA(Node{s}, u"an object"_s)))
                    return false;
        }
        return true;
    }

    bool credentials()
    {
        if (!objectEntries(QLatin1StringView("credentials")))
            return false;
        // map[string]map[string]interface{}: the entries of a host merge into one map.
        QHash<QString, QHash<QString, Dynamic>> attributesOf;
        QStringList hosts; // in order, each once
        for (const Entry &e : mapEntries(m_items, QLatin1StringView("credentials"))) {
            if (!attributesOf.contains(e.key))
                hosts.append(e.key);
            at(u"credentials \"%1\""_s.arg(e.key), e);
            if (!objectInto(Node{&e.value}, attributesOf[e.key]))
                return false;
        }
        for (const QString &host : std::as_const(hosts)) {
            const QHash<QString, Dynamic> &attributes = attributesOf[host];
            for (auto it = attributes.cbegin(); it != attributes.cend(); ++it)
                if (it->objects)
                    unconvertible.append({host,
                                          DecodeProblem{it->objectsLine,
                                                        u"credentials \"%1\" %2 holds an object (`{ … }` or a block), which tofu "
                                                        "and terraform crash on (hcl2shim: can't convert []map[string]interface {})"_s.arg(
                                                            host, it.key())}});
        }
        return true;
    }

    /// map[string]*ConfigCredentialsHelper: `args` is []string.
    bool helpers()
    {
        if (!objectEntries(QLatin1StringView("credentials_helper")))
            return false;
        for (const Entry &e : mapEntries(m_items, QLatin1StringView("credentials_helper"))) {
            at(u"credentials_helper \"%1\" args"_s.arg(e.key), e);
            for (const Item &i : e.value.object) {
                if (!sameName(i.keys.first(), QLatin1StringView("args")))
                    continue;
                const Node n = child(i, 1);
                // decodeSlice: a list, or an object (its members, never strings: only `{}` passes).
                if (n.item || (n.value->isObject() && !n.value->object.isEmpty())
                    || (!n.value->isObject() && n.value->type != Value::Type::List))
                    return notA(n, u"a list of strings"_s);
                for (const Value &a : n.value->list)
                    if (!stringLike(a))
                        return notA(Node{&a}, u"a string"_s);
            }
        }
        return true;
    }

    // ---- interface{} (decodeInterface, and the decode of a later value into the type it chose)

    /// map[string]interface{} from an object node: its members in order, a later one with a key
    /// into the type of the first (`seen`, kept across the bodies decoded into one map).
    bool objectInto(const Node &n, QHash<QString, Dynamic> &seen, Dynamic *owner = nullptr)
    {
        const QString path = m_path;
        for (const auto &[key, node] : members(n)) {
            m_path = path + u' ' + key;
            auto it = seen.find(key);
            if (it == seen.end()) {
                const std::optional<Dynamic> d = fresh(node, false);
                if (!d)
                    return false;
                it = seen.insert(key, *d);
            } else if (!into(*it, node)) {
                return false;
            }
            if (owner)
                owner->absorb(*it);
        }
        m_path = path;
        return true;
    }

    /// The first value of an interface{}; `inList`: directly inside a list.
    std::optional<Dynamic> fresh(const Node &n, bool inList)
    {
        if (n.isObject()) {
            Dynamic d{inList ? Dynamic::Type::Object : Dynamic::Type::Objects, !inList, inList ? 0 : n.line()};
            QHash<QString, Dynamic> seen;
            return objectInto(n, seen, &d) ? std::optional(d) : std::nullopt;
        }
        const Value &v = *n.value;
        switch (v.type) {
        case Value::Type::List: {
            Dynamic d{Dynamic::Type::List};
            for (const Value &e : v.list) {
                const std::optional<Dynamic> element = fresh(Node{&e}, true);
                if (!element)
                    return std::nullopt;
                d.absorb(*element);
            }
            return d;
        }
        case Value::Type::Bool: return Dynamic{Dynamic::Type::Bool};
        case Value::Type::Number:
            if (!(v.fraction ? goParsesFloat(v.text) : goParsesInt(v.text))) {
                fail(v.line,
                     u"%1: Go cannot read %2 as %3 (out of range or malformed)"_s.arg(m_path, v.text,
                                                                                      v.fraction ? u"a float64"_s : u"an int"_s));
                return std::nullopt;
            }
            return Dynamic{v.fraction ? Dynamic::Type::Float : Dynamic::Type::Int};
        default: return Dynamic{Dynamic::Type::String};
        }
    }

    /// A later value into the Go type `d` has (decodeString, decodeInt, decodeFloat, decodeBool,
    /// decodeSlice of the []interface{} or []map[string]interface{} it holds).
    bool into(Dynamic &d, const Node &n)
    {
        const QString expected = typeName(d.type) + u" (the type of its first value)"_s;
        if (d.type == Dynamic::Type::List || d.type == Dynamic::Type::Objects || d.type == Dynamic::Type::Object)
            return sliceInto(d, n, expected);
        const Value *v = n.item ? nullptr : n.value;
        bool ok = false;
        if (v && v->type != Value::Type::List && v->type != Value::Type::Object) {
            const bool integer = v->type == Value::Type::Number && !v->fraction;
            switch (d.type) {
            case Dynamic::Type::String: ok = stringLike(*v); break;
            case Dynamic::Type::Int:
                ok = (integer || v->type == Value::Type::String || v->type == Value::Type::Null) && !v->heredoc;
                if (ok && !goParsesInt(v->text))
                    return fail(v->line, u"%1: Go cannot read \"%2\" as an int, the type of its first value"_s.arg(m_path, v->text));
                break;
            case Dynamic::Type::Float:
                ok = v->type == Value::Type::Number;
                if (ok && !goParsesFloat(v->text))
                    return fail(v->line, u"%1: Go cannot read %2 as a float64, the type of its first value"_s.arg(m_path, v->text));
                break;
            default: ok = v->type == Value::Type::Bool; break;
            }
        }
        return ok || notA(n, expected);
    }

    bool sliceInto(Dynamic &d, const Node &n, const QString &expected)
    {
        const bool maps = d.type != Dynamic::Type::List;
        QList<Node> elements; // decodeSlice: an object is one element, a list has its own
        if (n.isObject()) {
            if (n.item && !maps) // the items of a labelled block: an item is no interface{} value
                return notA(n, expected);
            elements = {n};
        } else if (n.value->type == Value::Type::List) {
            for (const Value &e : n.value->list)
                elements.append(Node{&e});
        } else {
            return notA(n, expected);
        }
        for (const Node &e : std::as_const(elements)) {
            if (maps) {
                QHash<QString, Dynamic> seen;
                if (!(e.isObject() ? objectInto(e, seen, &d) : notA(e, u"an object (its first value made it a list of objects)"_s)))
                    return false;
                continue;
            }
            const std::optional<Dynamic> element = fresh(e, true);
            if (!element)
                return false;
            d.absorb(*element);
        }
        return true;
    }
};

std::optional<DecodeProblem> firstRepeatedArgument(const QList<Item> &items);

/// The first argument set twice in a body within `v` (an object, or objects in lists).
std::optional<DecodeProblem> firstRepeatedArgumentIn(const Value &v)
{
    if (v.type == Value::Type::Object)
        return firstRepeatedArgument(v.object);
    if (v.type == Value::Type::List) {
        for (const Value &element : v.list)
            if (std::optional<DecodeProblem> p = firstRepeatedArgumentIn(element))
                return p;
    }
    return std::nullopt;
}

/// The argument tofu 1.12's parser stops at: the first one, in the order it parses, whose key (as
/// written) an earlier argument of the same body has. It checks an item once the item's value is
/// parsed, so a repeat inside the value comes first.
std::optional<DecodeProblem> firstRepeatedArgument(const QList<Item> &items)
{
    QSet<QByteArray> seen;
    for (const Item &item : items) {
        if (item.value)
            if (std::optional<DecodeProblem> p = firstRepeatedArgumentIn(*item.value))
                return p;
        if (!item.assign || item.keyToken.isEmpty())
            continue; // a block, or the JSON form
        if (seen.contains(item.keyToken))
            return DecodeProblem{item.line,
                                 u"The argument %1 at %2:%3 was already set. Each argument can only be defined once"_s
                                     .arg(gocompat::quote(QByteArrayView(item.keyToken)))
                                     .arg(item.line)
                                     .arg(item.column),
                                 true};
        seen.insert(item.keyToken);
    }
    return std::nullopt;
}

} // namespace

DecodeVerdict decodeProblems(const QList<Item> &items)
{
    DecodeVerdict verdict;
    Decoder terraform(items, Reader::Terraform);
    Decoder tofu(items, Reader::Tofu);
    verdict.terraform = terraform.run();
    // tofu parses before it decodes: a repeated argument ends its reading first.
    verdict.tofu = firstRepeatedArgument(items);
    if (!verdict.tofu)
        verdict.tofu = tofu.run();
    // The same for both, once either decoded the credentials (terraform may stop before them).
    verdict.unconvertible = terraform.unconvertible.isEmpty() ? tofu.unconvertible : terraform.unconvertible;
    return verdict;
}

} // namespace provender::cliconfig
