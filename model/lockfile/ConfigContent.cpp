// Configuration reader, from native syntax to content: the static values of the few expressions
// requirements need (strings, numbers, objects, traversals), and what a file declares: the
// terraform block's required_providers, provider blocks, module calls.

#include "model/lockfile/ConfigReaderInternal.h"

#include "model/core/GoCompat.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>

using namespace Qt::StringLiterals;

namespace provender::config_detail {

// ---- From syntax to content ------------------------------------------------------------------

bool goVersionConstraintAccepts(const QString &text)
{
    static const QRegularExpression re(
        uR"(^\s*(|=|!=|>|<|>=|<=|~>)\s*v?([0-9]+(\.[0-9]+)*?)(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?\s*$)"_s);
    for (const QString &part : text.split(u','))
        if (!re.match(part).hasMatch())
            return false;
    return true;
}

/// Shared by the native and the JSON reader: turns decoded pieces into content + diagnostics.

void ContentBuilder::requiredProvider(ConfigFileContent::RequiredProvidersBlock &out, ConfigFileContent::RequiredProvider rp,
                                      const std::optional<QString> &legacy, const std::optional<QList<RequirementAttribute>> &attributes)
{
    if (legacy) {
        if (checkConstraint(*legacy, rp.position))
            rp.version = *legacy;
        out.entries.append(rp);
        return;
    }
    if (!checkLocalName(rp.localName, rp.position))
        return;
    if (!attributes) {
        error(rp.position, u"Invalid required_providers object"_s, u"required_providers entries must be strings or objects."_s);
        return;
    }
    bool ok = true;
    for (const RequirementAttribute &a : *attributes) {
        if (!a.keyIsStatic) {
            error(a.keyPos, u"Invalid Attribute"_s, u"Invalid attribute value for provider requirement."_s);
            ok = false;
            continue;
        }
        if (a.key == u"version"_s) {
            if (!a.string) {
                error(a.valuePos, u"Invalid version constraint"_s, u"Version must be specified as a string."_s);
                ok = false;
            } else if (!checkConstraint(*a.string, a.valuePos)) {
                ok = false;
            } else {
                rp.version = *a.string;
            }
        } else if (a.key == u"source"_s) {
            if (!a.string) {
                error(a.valuePos, u"Invalid source"_s, u"Source must be specified as a string."_s);
                ok = false;
            } else {
                rp.source = *a.string;
                rp.position = a.valuePos;
            }
        } else if (a.key == u"configuration_aliases"_s) {
            if (!a.references) {
                error(a.valuePos, u"Invalid expression"_s, u"A static list expression is required."_s);
                ok = false;
                continue;
            }
            for (const std::optional<QString> &ref : *a.references) {
                if (!ref) {
                    error(
                        a.valuePos, u"Invalid configuration_aliases value"_s,
                        u"Configuration aliases can only contain references to local provider configuration names in the format of provider.alias"_s);
                    ok = false;
                    continue;
                }
                const QString local = ref->section(u'.', 0, 0);
                if (local != rp.localName) {
                    error(a.valuePos, u"Invalid configuration_aliases value"_s,
                          u"Configuration aliases must be prefixed with the provider name. Expected %1, but found %2."_s.arg(
                              gocompat::quote(rp.localName), gocompat::quote(local)));
                    ok = false;
                    continue;
                }
                rp.configurationAliases << *ref;
            }
        } else {
            error(
                a.keyPos, u"Invalid required_providers object"_s,
                u"required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block."_s);
            ok = false;
            break;
        }
    }
    if (ok)
        out.entries.append(rp);
}

void ContentBuilder::providerVersion(ConfigFileContent::ProviderBlock &p, bool isNull, const std::optional<QString> &constraint)
{
    warning(
        p.position, u"Version constraints inside provider configuration blocks are deprecated"_s,
        u"Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block."_s);
    if (isNull)
        return; // treated like no constraint
    if (!constraint)
        error(p.position, u"Invalid version constraint"_s, u"A string value is required for version."_s);
    else if (checkConstraint(*constraint, p.position))
        p.version = *constraint;
}

namespace {

// ---- Static values of the few expressions the requirements need ----------------------------

/// What a token range is, as far as requirements care.
struct StaticValue
{
    enum class Kind { String, Number, Bool, Null, Object, Tuple, Traversal, FunctionCall, Other };
    Kind kind = Kind::Other;
    QString text; ///< String/Number/Bool: the value; Traversal: the dotted text (`aws.west`)
    struct Item
    {
        QString key;
        bool keyIsStatic = true;
        int keyTok = 0;
        int begin = 0;
        int end = 0;
    };
    QList<Item> items; ///< Object: key/value ranges; Tuple: element ranges (key empty)
    bool isPrimitive() const { return kind == Kind::String || kind == Kind::Number || kind == Kind::Bool; }
};

class Evaluator
{
public:
    explicit Evaluator(NativeReader &r) : r(r) {}

    /// Classifies [begin, end); parentheses around a value are looked through.
    StaticValue value(int begin, int end, int depth = 0) const
    {
        StaticValue v;
        if (begin >= end || depth > 64)
            return v;
        const Tok first = r.tok(begin).type;
        if (first == Tok::OParen && r.skipGroup(begin) == end && r.tok(end - 1).type == Tok::CParen)
            return value(begin + 1, end - 1, depth + 1);
        if (first == Tok::OQuote) {
            QString s;
            int k = begin + 1;
            while (k < end && r.tok(k).type == Tok::QuotedLit)
                s += r.text(k++);
            if (k == end - 1 && r.tok(k).type == Tok::CQuote) {
                v.kind = StaticValue::Kind::String;
                v.text = NativeReader::decodeEscapes(s);
            }
            return v;
        }
        if (first == Tok::Number && end == begin + 1) {
            v.kind = StaticValue::Kind::Number;
            v.text = r.text(begin);
            return v;
        }
        if (first == Tok::Ident) {
            if (end == begin + 1 && (r.is(begin, "true") || r.is(begin, "false"))) {
                v.kind = StaticValue::Kind::Bool;
                v.text = r.text(begin);
                return v;
            }
            if (end == begin + 1 && r.is(begin, "null")) {
                v.kind = StaticValue::Kind::Null;
                return v;
            }
            if (begin + 1 < end && (r.tok(begin + 1).type == Tok::OParen || r.tok(begin + 1).type == Tok::DoubleColon)) {
                v.kind = StaticValue::Kind::FunctionCall;
                return v;
            }
            // A traversal: name(.attr | [index])*
            QString t = r.text(begin);
            int k = begin + 1;
            bool plain = true;
            while (k < end) {
                if (r.tok(k).type == Tok::Dot && k + 1 < end && r.tok(k + 1).type == Tok::Ident) {
                    t += u'.' + r.text(k + 1);
                    k += 2;
                    continue;
                }
                if (r.tok(k).type == Tok::OBrack) {
                    const int close = r.skipGroup(k);
                    if (close <= k)
                        break;
                    plain = false;
                    k = close;
                    continue;
                }
                break;
            }
            if (k == end) {
                v.kind = StaticValue::Kind::Traversal;
                v.text = plain ? t : QString();
            }
            return v;
        }
        if (first == Tok::OBrace && r.skipGroup(begin) == end && r.tok(end - 1).type == Tok::CBrace)
            return objectValue(begin, end);
        if (first == Tok::OBrack && r.skipGroup(begin) == end && r.tok(end - 1).type == Tok::CBrack) {
            v.kind = StaticValue::Kind::Tuple;
            if (begin + 1 < end - 1 && r.tok(begin + 1).type == Tok::Ident && r.is(begin + 1, "for")) {
                v.kind = StaticValue::Kind::Other;
                return v;
            }
            readItems(begin, end, v.items, [&](int k) -> std::optional<StaticValue::Item> {
                StaticValue::Item item;
                item.begin = k;
                item.end = std::min(r.skipExpression(k), end - 1);
                if (item.end == k)
                    return std::nullopt;
                return item;
            });
            return v;
        }
        return v;
    }

    /// The first token from `k` on that is not a newline or a comma: where the next item of a tuple
    /// or object starts (`close` when none is left).
    int nextItem(int k, int close) const
    {
        while (k < close && (r.tok(k).type == Tok::Newline || r.tok(k).type == Tok::Comma))
            ++k;
        return k;
    }

    /// The items of a tuple or object constructor over [begin, end), brackets included, appended
    /// to `items`: `read(k)` reads the item that starts at token `k` (it ends before `end - 1`);
    /// none stops the walk. False when the walk stopped before the closing bracket.
    template<typename Read> bool readItems(int begin, int end, QList<StaticValue::Item> &items, Read read) const
    {
        for (int k = nextItem(begin + 1, end - 1); k < end - 1; k = nextItem(k, end - 1)) {
            const std::optional<StaticValue::Item> item = read(k);
            if (!item)
                return false;
            items.append(*item);
            k = item->end;
        }
        return true;
    }

    /// An object constructor `{ key = value, ... }` over [begin, end), braces included.
    StaticValue objectValue(int begin, int end) const
    {
        StaticValue v;
        v.kind = StaticValue::Kind::Object;
        const bool complete = readItems(begin, end, v.items, [&](int k) -> std::optional<StaticValue::Item> {
            StaticValue::Item item;
            item.keyTok = k;
            const int keyEnd = skipUntil(k, end - 1, {Tok::Equal, Tok::Colon});
            const StaticValue key = value(k, keyEnd);
            if (key.kind == StaticValue::Kind::String) {
                item.key = key.text;
            } else if (keyEnd == k + 1 && r.tok(k).type == Tok::Ident) {
                item.key = r.text(k); // a bare name is a literal key
            } else {
                item.keyIsStatic = false;
            }
            if (keyEnd >= end - 1) // no `=`: not an object we can read
                return std::nullopt;
            if (r.is(k, "for") && r.tok(k).type == Tok::Ident && keyEnd != k + 1)
                return std::nullopt; // a for expression
            item.begin = keyEnd + 1;
            item.end = r.skipExpression(item.begin);
            if (item.end > end - 1)
                item.end = end - 1;
            return item;
        });
        if (!complete)
            v.kind = StaticValue::Kind::Other;
        return v;
    }

private:
    NativeReader &r;

    /// The first token in [from, limit) of one of `kinds` at nesting level 0, else limit.
    int skipUntil(int from, int limit, std::initializer_list<Tok> kinds) const
    {
        int k = from;
        while (k < limit) {
            if (std::find(kinds.begin(), kinds.end(), r.tok(k).type) != kinds.end())
                return k;
            if (isOpener(r.tok(k).type)) {
                const int after = r.skipGroup(k);
                k = after;
                continue;
            }
            if (r.tok(k).type == Tok::Newline || r.tok(k).type == Tok::Comma)
                return limit;
            ++k;
        }
        return limit;
    }
};

class NativeContent
{
public:
    NativeContent(const QByteArray &data, const QString &fileName) : m_reader(data, fileName), m_eval(m_reader) { m_b.file = fileName; }

    ConfigFileContent run()
    {
        const NBody root = m_reader.parse();
        for (const NBlock &b : root.blocks) {
            if (b.type == u"terraform"_s) {
                for (const NBlock &inner : b.body.blocks)
                    if (inner.type == u"required_providers"_s)
                        requiredProviders(inner);
            } else if (b.type == u"provider"_s && b.labels.size() == 1) {
                providerBlock(b);
            } else if ((b.type == u"resource"_s || b.type == u"data"_s || b.type == u"ephemeral"_s) && b.labels.size() == 2) {
                resource(b);
            } else if (b.type == u"check"_s) {
                for (const NBlock &inner : b.body.blocks)
                    if (inner.type == u"data"_s && inner.labels.size() == 2)
                        resource(inner);
            } else if (b.type == u"import"_s) {
                importBlock(b);
            } else if (b.type == u"module"_s && b.labels.size() == 1) {
                moduleCall(b);
            }
        }
        ConfigFileContent c = std::move(m_b.content);
        c.diagnostics = m_reader.diagnostics + c.diagnostics;
        return c;
    }

private:
    NativeReader m_reader;
    Evaluator m_eval;
    ContentBuilder m_b;

    Position header(const NBlock &b) const { return m_reader.position(b.typeTok, b.lastHeaderTok); }
    Position range(const NAttr &a) const { return m_reader.rangeOf(a.begin, a.end); }
    Position range(int begin, int end) const { return m_reader.rangeOf(begin, end); }

    /// A reference like `aws.west` or `aws`: the local name, "" when the expression is not one.
    QString localNameOf(const NAttr &a) const
    {
        const StaticValue v = m_eval.value(a.begin, a.end);
        if (v.kind != StaticValue::Kind::Traversal || v.text.isEmpty())
            return {};
        return v.text.section(u'.', 0, 0);
    }

    /// The attributes of a required_providers entry object.
    QList<RequirementAttribute> requirementAttributes(const StaticValue &object) const
    {
        QList<RequirementAttribute> attributes;
        for (const StaticValue::Item &item : object.items) {
            RequirementAttribute a;
            a.key = item.key;
            a.keyIsStatic = item.keyIsStatic;
            a.keyPos = range(item.keyTok, item.keyTok + 1);
            a.valuePos = range(item.begin, item.end);
            const StaticValue value = m_eval.value(item.begin, item.end);
            if (value.kind == StaticValue::Kind::String)
                a.string = value.text;
            if (value.kind == StaticValue::Kind::Tuple) {
                a.references.emplace();
                for (const StaticValue::Item &e : value.items) {
                    const StaticValue ref = m_eval.value(e.begin, e.end);
                    const bool reference = ref.kind == StaticValue::Kind::Traversal && !ref.text.isEmpty() && ref.text.count(u'.') <= 1;
                    a.references->append(reference ? std::optional(ref.text) : std::nullopt);
                }
            }
            attributes.append(a);
        }
        return attributes;
    }

    void requiredProviders(const NBlock &block)
    {
        ConfigFileContent::RequiredProvidersBlock out;
        out.position = header(block);
        for (const NBlock &nested : block.body.blocks)
            m_b.error(header(nested), u"Unexpected %1 block"_s.arg(gocompat::quote(nested.type)), u"Blocks are not allowed here."_s);
        for (const NAttr &a : block.body.attrs) {
            ConfigFileContent::RequiredProvider rp;
            rp.localName = a.name;
            rp.position = range(a);
            rp.versionPosition = range(a.nameTok, a.end);
            const StaticValue v = m_eval.value(a.begin, a.end);
            m_b.requiredProvider(out, rp, v.isPrimitive() ? std::optional(v.text) : std::nullopt,
                                 v.kind == StaticValue::Kind::Object ? std::optional(requirementAttributes(v)) : std::nullopt);
        }
        m_b.content.requiredProviders.append(out);
    }

    void providerBlock(const NBlock &b)
    {
        ConfigFileContent::ProviderBlock p;
        p.localName = b.labels.constFirst();
        p.position = header(b);
        if (!m_b.checkLocalName(p.localName, p.position))
            return;
        if (const NAttr *version = b.body.attr(u"version")) {
            p.position = range(*version);
            p.versionPosition = range(version->nameTok, version->end);
            const StaticValue v = m_eval.value(version->begin, version->end);
            m_b.providerVersion(p, v.kind == StaticValue::Kind::Null, v.isPrimitive() ? std::optional(v.text) : std::nullopt);
        }
        m_b.content.providers.append(p);
    }

    void resource(const NBlock &b)
    {
        ConfigFileContent::Resource r;
        r.mode = b.type;
        r.type = b.labels.at(0);
        r.name = b.labels.at(1);
        r.position = header(b);
        if (const NAttr *provider = b.body.attr(u"provider"))
            r.providerLocalName = localNameOf(*provider);
        m_b.content.resources.append(r);
    }

    void importBlock(const NBlock &b)
    {
        ConfigFileContent::ImportBlock i;
        i.position = header(b);
        if (const NAttr *to = b.body.attr(u"to")) {
            const StaticValue v = m_eval.value(to->begin, to->end);
            if (v.kind == StaticValue::Kind::Traversal) {
                // `type.name` (maybe with an index); a `module.` target is elsewhere.
                QString t = m_reader.text(to->begin);
                if (t != u"module"_s && to->begin + 2 < to->end && m_reader.tok(to->begin + 1).type == Tok::Dot)
                    i.toResource = t + u'.' + m_reader.text(to->begin + 2);
            }
        }
        if (const NAttr *provider = b.body.attr(u"provider"))
            i.providerLocalName = localNameOf(*provider);
        m_b.content.imports.append(i);
    }

    void moduleCall(const NBlock &b)
    {
        ConfigFileContent::ModuleCall m;
        m.name = b.labels.constFirst();
        m.position = b.openTok >= 0 ? range(b.openTok, b.openTok + 1) : header(b); // MissingItemRange
        if (const NAttr *source = b.body.attr(u"source")) {
            m.position = range(*source);
            const StaticValue v = m_eval.value(source->begin, source->end);
            if (v.kind == StaticValue::Kind::String)
                m.source = v.text;
            else if (v.kind == StaticValue::Kind::Traversal)
                m_b.error(m.position, u"Variables not allowed"_s, u"Variables may not be used here."_s);
            else if (v.kind == StaticValue::Kind::FunctionCall)
                m_b.error(m.position, u"Function calls not allowed"_s, u"Functions may not be called here."_s);
            else
                m_b.invalidModuleSource(m.position);
        }
        m_b.content.moduleCalls.append(m);
    }
};

} // namespace

ConfigFileContent readNativeContent(const QByteArray &data, const QString &fileName)
{
    return NativeContent(data, fileName).run();
}

} // namespace provender::config_detail
