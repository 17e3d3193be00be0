#include "model/network/CliConfigSyntax.h"

#include "model/network/CliConfigScanner.h"

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace provender::cliconfig {

namespace {

using namespace detail;

/// The value of a literal token of either form (a heredoc comes only from HCL, null only from JSON).
Value literalValue(const Token &t)
{
    Value v;
    v.line = t.pos.line;
    switch (t.type) {
    case Tok::Number:
    case Tok::Float:
        v.type = Value::Type::Number;
        v.text = QString::fromUtf8(t.text);
        v.fraction = t.type == Tok::Float;
        break;
    case Tok::Bool:
        v.type = Value::Type::Bool;
        v.boolean = t.text == "true";
        break;
    case Tok::Null: v.type = Value::Type::Null; break;
    case Tok::Heredoc:
        v.text = heredocText(t.text);
        v.heredoc = true;
        break;
    default: v.text = unquote(t.text); break;
    }
    return v;
}

// ---- the parser: hcl v1's hcl/parser ----------------------------------------------------------

class Parser
{
public:
    explicit Parser(const QByteArray &text) : m_scanner(text) {}

    Result<QList<Item>> document()
    {
        QList<Item> items;
        const std::optional<ScanError> parseError = objectList(false, items);
        const std::optional<ScanError> e = m_scanner.error ? m_scanner.error : parseError;
        if (e)
            return makeError(ErrorCode::InvalidArgument, u"line %1, column %2: %3"_s.arg(e->line).arg(e->column).arg(e->message));
        return items;
    }

private:
    Scanner m_scanner;
    Token m_tok;
    bool m_buffered = false;
    bool m_eof = false; ///< objectKey() met the end of the text
    Token m_firstKey;   ///< the first key objectKey() read

    Token scan()
    {
        if (m_buffered) {
            m_buffered = false;
            return m_tok;
        }
        do
            m_tok = m_scanner.scan();
        while (m_tok.type == Tok::Comment);
        return m_tok;
    }
    void unscan() { m_buffered = true; }
    static ScanError at(const Token &t, const QString &message) { return {t.pos.line, t.pos.column, message}; }

    std::optional<ScanError> objectList(bool inObject, QList<Item> &items)
    {
        for (;;) {
            if (inObject) {
                const Token t = scan();
                unscan();
                if (t.type == Tok::RBrace)
                    return std::nullopt;
            }
            Item item;
            m_eof = false;
            if (std::optional<ScanError> e = objectItem(item))
                return e;
            if (m_eof)
                return std::nullopt; // the end of the text
            items.append(item);
            if (scan().type != Tok::Comma)
                unscan();
        }
    }

    std::optional<ScanError> objectItem(Item &item)
    {
        std::optional<ScanError> e = objectKey(item.keys);
        if (!item.keys.isEmpty() && m_eof) {
            m_eof = false; // a key without a value: the error below
        }
        if (m_eof)
            return std::nullopt;
        if (!item.keys.isEmpty() && e && m_tok.type == Tok::RBrace) {
            e.reset();
            m_tok.type = Tok::Eof;
        }
        if (e)
            return e;
        item.line = m_firstKey.pos.line;
        item.column = m_firstKey.pos.column;
        item.keyToken = m_firstKey.text;
        std::optional<Value> v;
        if (m_tok.type == Tok::Assign) {
            item.assign = true;
            v = object(e);
        } else if (m_tok.type == Tok::LBrace) {
            v = objectType(e);
        } else {
            return at(m_tok, u"key '%1' expected start of object ('{') or assignment ('=')"_s.arg(item.keys.join(u' ')));
        }
        if (e)
            return e;
        if (!v) { // `key =` at the end of the text: hcl v1 drops the item without a word
            m_eof = true;
            return std::nullopt;
        }
        item.value = std::make_shared<const Value>(*v);
        return std::nullopt;
    }

    std::optional<ScanError> objectKey(QStringList &keys)
    {
        for (;;) {
            const Token t = scan();
            switch (t.type) {
            case Tok::Eof: m_eof = true; return std::nullopt;
            case Tok::Assign:
                if (keys.size() > 1)
                    return at(t, u"nested object expected: LBRACE got: ASSIGN"_s);
                if (keys.isEmpty())
                    return at(t, u"no object keys found!"_s);
                return std::nullopt;
            case Tok::LBrace:
                if (keys.isEmpty())
                    return at(t, u"expected: IDENT | STRING got: LBRACE"_s);
                return std::nullopt;
            case Tok::Ident:
            case Tok::String:
                if (keys.isEmpty())
                    m_firstKey = t;
                keys.append(t.type == Tok::Ident ? QString::fromUtf8(t.text) : unquote(t.text));
                break;
            case Tok::Illegal: return at(t, u"illegal character"_s);
            default: return at(t, u"expected: IDENT | STRING | ASSIGN | LBRACE got: %1"_s.arg(QString::fromUtf8(t.text)));
            }
        }
    }

    /// A value after `=`; nullopt without an error at the end of the text.
    std::optional<Value> object(std::optional<ScanError> &e)
    {
        const Token t = scan();
        switch (t.type) {
        case Tok::Number:
        case Tok::Float:
        case Tok::Bool:
        case Tok::String:
        case Tok::Heredoc: return literalValue(t);
        case Tok::LBrace: return objectType(e);
        case Tok::LBrack: return listType(e);
        case Tok::Eof: return std::nullopt;
        default: e = at(t, u"Unknown token: %1"_s.arg(QString::fromUtf8(t.text))); return std::nullopt;
        }
    }

    std::optional<Value> objectType(std::optional<ScanError> &e)
    {
        Value v;
        v.type = Value::Type::Object;
        v.line = m_tok.pos.line;
        e = objectList(true, v.object);
        if (e && m_tok.type != Tok::RBrace)
            return std::nullopt;
        e.reset();
        const Token t = scan();
        if (t.type != Tok::RBrace) {
            e = at(t, u"object expected closing RBRACE got: %1"_s.arg(t.type == Tok::Eof ? u"EOF"_s : QString::fromUtf8(t.text)));
            return std::nullopt;
        }
        return v;
    }

    std::optional<Value> listType(std::optional<ScanError> &e)
    {
        Value v;
        v.type = Value::Type::List;
        v.line = m_tok.pos.line;
        bool needComma = false;
        for (;;) {
            const Token t = scan();
            if (needComma && t.type != Tok::Comma && t.type != Tok::RBrack) {
                e = at(t, u"error parsing list, expected comma or list end"_s);
                return std::nullopt;
            }
            std::optional<Value> element;
            switch (t.type) {
            case Tok::Bool:
            case Tok::Number:
            case Tok::Float:
            case Tok::String:
            case Tok::Heredoc: element = literalValue(t); break;
            case Tok::Comma: needComma = false; continue;
            case Tok::LBrace: element = objectType(e); break;
            case Tok::LBrack: element = listType(e); break;
            case Tok::RBrack: return v;
            default: e = at(t, u"unexpected token while parsing list"_s); return std::nullopt;
            }
            if (e)
                return std::nullopt;
            v.list.append(*element);
            needComma = t.type != Tok::LBrack; // hcl v1 asks for no comma after a nested list
        }
    }
};

// ---- the JSON form ----------------------------------------------------------------------------

/// hcl v1's JSON parser (json/parser), lenient as it is: only the first object counts (text after
/// it is ignored), commas are optional in lists, a member without a value and an object left open
/// at the end are accepted; members keep their order and duplicates (QJsonDocument would sort and
/// merge them). The tokens come from the same scanner in its JSON mode.
class JsonParser
{
public:
    explicit JsonParser(const QByteArray &text) : m_scanner(text, true) {}

    Result<Value> document()
    {
        std::optional<ScanError> e;
        std::optional<Value> root;
        const Token t = scan();
        if (t.type == Tok::LBrace)
            root = objectType(e);
        else
            e = ScanError{t.pos.line, t.pos.column, u"expected an object"_s};
        if (m_scanner.error)
            e = m_scanner.error;
        if (e || !root)
            return makeError(ErrorCode::InvalidArgument,
                             u"line %1, column %2: %3"_s.arg(e ? e->line : 1).arg(e ? e->column : 1).arg(e ? e->message : u"no object"_s));
        return *root;
    }

private:
    Scanner m_scanner;
    Token m_tok;

    Token scan() { return m_tok = m_scanner.scan(); }
    static ScanError at(const Token &t, const QString &message) { return {t.pos.line, t.pos.column, message}; }

    /// After '{': members up to '}' (or whatever ends them).
    std::optional<Value> objectType(std::optional<ScanError> &e)
    {
        Value v;
        v.type = Value::Type::Object;
        v.line = m_tok.pos.line;
        for (;;) {
            Item item;
            const std::optional<bool> more = member(item, e);
            if (!more)
                break; // the end of the text, or an error
            v.object.append(item);
            if (scan().type != Tok::Comma)
                break;
        }
        if (e && m_tok.type != Tok::RBrace)
            return std::nullopt;
        e.reset();
        return v;
    }

    /// One `"key" …: value`; nullopt at the end of the text or on an error (in `e`).
    std::optional<bool> member(Item &item, std::optional<ScanError> &e)
    {
        for (;;) {
            const Token t = scan();
            if (t.type == Tok::Eof)
                return std::nullopt;
            if (t.type == Tok::String) {
                item.keys.append(unquote(t.text));
                continue;
            }
            if (t.type == Tok::Colon && !item.keys.isEmpty())
                break;
            e = at(t, u"expected: STRING got: %1"_s.arg(QString::fromUtf8(t.text)));
            return std::nullopt;
        }
        const Token t = scan();
        const std::optional<Value> value = valueAt(t, e);
        if (!value) {
            if (!e && t.type != Tok::Eof) // a member without a value at the end of the text is dropped
                e = at(t, u"Expected object value, got unknown token: %1"_s.arg(QString::fromUtf8(t.text)));
            return std::nullopt;
        }
        item.assign = !value->isObject();
        item.value = std::make_shared<const Value>(*value);
        return true;
    }

    /// The value that starts with `t` (a literal, an object or a list); nullopt when none starts
    /// there (`e` untouched) or on an error (in `e`).
    std::optional<Value> valueAt(const Token &t, std::optional<ScanError> &e)
    {
        switch (t.type) {
        case Tok::Number:
        case Tok::Float:
        case Tok::Bool:
        case Tok::Null:
        case Tok::String: return literalValue(t);
        case Tok::LBrace: return objectType(e);
        case Tok::LBrack: return listType(e);
        default: return std::nullopt;
        }
    }

    std::optional<Value> listType(std::optional<ScanError> &e)
    {
        Value v;
        v.type = Value::Type::List;
        v.line = m_tok.pos.line;
        for (;;) {
            const Token t = scan();
            if (t.type == Tok::Comma) // hcl v1's JSON lists need no commas
                continue;
            if (t.type == Tok::RBrack)
                return v;
            // hcl v1 quirks, checked against terraform: a nested list ends the outer one (what
            // follows it is read as members: `[[1], 2]` fails at the 2), and null is refused.
            if (t.type == Tok::LBrack)
                return listType(e);
            const std::optional<Value> element = t.type == Tok::Null ? std::nullopt : valueAt(t, e);
            if (!element) {
                if (!e)
                    e = at(t, u"unexpected token while parsing list"_s);
                return std::nullopt;
            }
            v.list.append(*element);
        }
    }
};

/// hcl v1's flattenObjects for the JSON form: an item whose object holds only objects becomes one
/// item per member, with the member's name as one more label (`"credentials": {"h": {…}}` is
/// `credentials "h" {…}`); a list of objects, one item per element. Applied all the way down.
void flatten(const Item &item, QList<Item> &out);

Value flattened(const Value &v)
{
    Value r = v;
    if (v.isObject()) {
        r.object.clear();
        for (const Item &i : v.object)
            flatten(i, r.object);
    } else if (v.type == Value::Type::List) {
        for (Value &e : r.list)
            e = flattened(e);
    }
    return r;
}

void flatten(const Item &item, QList<Item> &out)
{
    const Value &v = *item.value;
    const auto allObjects = [](const auto &range, auto isObject) { return std::all_of(range.begin(), range.end(), isObject); };
    if (v.isObject() && !v.object.isEmpty() && allObjects(v.object, [](const Item &i) { return i.value->isObject(); })) {
        for (const Item &sub : v.object) {
            Item nested = sub;
            nested.keys = item.keys + sub.keys;
            nested.assign = item.assign;
            flatten(nested, out);
        }
        return;
    }
    if (v.type == Value::Type::List && !v.list.isEmpty() && allObjects(v.list, [](const Value &e) { return e.isObject(); })) {
        for (const Value &e : v.list) {
            Item each = item;
            each.value = std::make_shared<const Value>(e);
            flatten(each, out);
        }
        return;
    }
    Item kept = item;
    kept.value = std::make_shared<const Value>(flattened(v));
    out.append(kept);
}

bool startsWithBrace(const QByteArray &text)
{
    for (qsizetype i = 0; i < text.size();) {
        const auto [ch, size] = decodeRune(text, i);
        if (!QChar::isSpace(ch))
            return ch == '{';
        i += size;
    }
    return false;
}

Value nested(const QStringList &keys, const Value &v)
{
    if (keys.isEmpty())
        return v;
    Value o;
    o.type = Value::Type::Object;
    o.line = v.line;
    Item i;
    i.keys = keys.mid(0, 1);
    i.line = v.line;
    i.value = std::make_shared<const Value>(nested(keys.mid(1), v));
    o.object.append(i);
    return o;
}

} // namespace

Result<QList<Item>> parse(const QByteArray &text)
{
    if (!startsWithBrace(text))
        return Parser(text).document();
    Result<Value> root = JsonParser(text).document();
    if (!root.ok())
        return root.error();
    return flattened(root.value()).object;
}

QList<Entry> mapEntries(const QList<Item> &items, QLatin1StringView name)
{
    QList<Entry> labelled;
    QList<Entry> assigned;
    for (const Item &i : items) {
        if (i.keys.first().compare(name, Qt::CaseInsensitive) != 0)
            continue;
        if (i.keys.size() > 1) {
            labelled.append(Entry{i.keys.at(1), nested(i.keys.mid(2), *i.value), i.line});
        } else if (i.value->isObject()) {
            for (const Item &sub : i.value->object)
                assigned.append(Entry{sub.keys.first(), nested(sub.keys.mid(1), *sub.value), sub.line ? sub.line : i.line});
        }
    }
    return labelled + assigned;
}

QList<const Value *> attributeValues(const QList<const Value *> &bodies, QLatin1StringView name, Qt::CaseSensitivity cs)
{
    QList<const Value *> out;
    for (const Value *body : bodies) {
        if (!body || !body->isObject())
            continue;
        for (const Item &i : body->object)
            if (i.keys.size() == 1 && i.keys.first().compare(name, cs) == 0)
                out.append(i.value.get());
    }
    return out;
}

} // namespace provender::cliconfig
