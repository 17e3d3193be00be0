// Configuration reader, JSON syntax (.tf.json): the same content as the native reader, with
// terraform's JSON rules and positions found in the text (Qt's JSON keeps none).

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

using namespace Qt::StringLiterals;

namespace provender::config_detail {

namespace {

// ---- JSON syntax ----------------------------------------------------------------------------

/// Offsets of the values of a JSON text by path (keys and array indices), for diagnostics:
/// Qt's JSON does not keep positions. The text is already known to be valid JSON.
class JsonPositions
{
public:
    explicit JsonPositions(const QByteArray &data) : m_data(data), m_map(data) {}

    Position at(const QStringList &path) const
    {
        qsizetype i = skipWs(0);
        for (const QString &step : path) {
            const qsizetype next = child(i, step);
            if (next < 0)
                break;
            i = next;
        }
        const hcl::Pos p = m_map.pos(i);
        return {p.line, p.column, p.line, p.column};
    }

private:
    const QByteArray &m_data;
    hcl::SourceMap m_map;

    qsizetype skipWs(qsizetype i) const
    {
        while (i < m_data.size() && (m_data[i] == ' ' || m_data[i] == '\t' || m_data[i] == '\n' || m_data[i] == '\r'))
            ++i;
        return i;
    }
    qsizetype skipString(qsizetype i) const // at the opening quote; returns after the closing one
    {
        for (++i; i < m_data.size(); ++i) {
            if (m_data[i] == '\\')
                ++i;
            else if (m_data[i] == '"')
                return i + 1;
        }
        return i;
    }
    qsizetype skipValue(qsizetype i) const
    {
        i = skipWs(i);
        if (i >= m_data.size())
            return i;
        if (m_data[i] == '"')
            return skipString(i);
        if (m_data[i] == '{' || m_data[i] == '[') {
            int depth = 0;
            for (; i < m_data.size(); ++i) {
                const char c = m_data[i];
                if (c == '"') {
                    i = skipString(i) - 1;
                } else if (c == '{' || c == '[') {
                    ++depth;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0)
                        return i + 1;
                }
            }
            return i;
        }
        while (i < m_data.size() && !QByteArrayView(",}] \t\r\n").contains(m_data[i]))
            ++i;
        return i;
    }
    /// From the start of an object/array value, the start of the member value `step`.
    qsizetype child(qsizetype i, const QString &step) const
    {
        if (i >= m_data.size())
            return -1;
        if (m_data[i] == '[') {
            bool ok = false;
            const int want = step.toInt(&ok);
            if (!ok)
                return -1;
            qsizetype k = skipWs(i + 1);
            for (int n = 0; k < m_data.size() && m_data[k] != ']'; ++n) {
                if (n == want)
                    return k;
                k = skipWs(skipValue(k));
                if (k < m_data.size() && m_data[k] == ',')
                    k = skipWs(k + 1);
            }
            return -1;
        }
        if (m_data[i] != '{')
            return -1;
        qsizetype k = skipWs(i + 1);
        qsizetype found = -1;
        while (k < m_data.size() && m_data[k] == '"') {
            const qsizetype keyEnd = skipString(k);
            const QString key = QJsonDocument::fromJson("[" + m_data.mid(k, keyEnd - k) + "]").array().at(0).toString();
            qsizetype v = skipWs(keyEnd);
            if (v < m_data.size() && m_data[v] == ':')
                v = skipWs(v + 1);
            if (key == step)
                found = v; // the last duplicate wins, as in Qt's JSON
            k = skipWs(skipValue(v));
            if (k < m_data.size() && m_data[k] == ',')
                k = skipWs(k + 1);
        }
        return found;
    }
};

class JsonContent
{
public:
    JsonContent(const QByteArray &data, const QString &fileName) : m_data(data), m_pos(data) { m_b.file = fileName; }

    ConfigFileContent run()
    {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(m_data, &pe);
        if (pe.error != QJsonParseError::NoError) {
            // Qt's offset is just after the offending character; terraform points at it.
            const hcl::Pos p = hcl::SourceMap(m_data).pos(std::max(0, pe.offset - 1));
            m_b.error({p.line, p.column, p.line, p.column}, u"Invalid JSON"_s, pe.errorString());
            return std::move(m_b.content);
        }
        if (!doc.isObject()) {
            m_b.error(m_pos.at({}), u"Invalid JSON configuration"_s, u"The root of a JSON configuration file must be an object."_s);
            return std::move(m_b.content);
        }
        const QJsonObject root = doc.object();
        for (auto it = root.begin(); it != root.end(); ++it) {
            const QString type = it.key();
            const QStringList path{type};
            if (type == u"terraform"_s) {
                forEachBody(it.value(), path, [&](const QJsonObject &body, const QStringList &p) {
                    if (body.contains(u"required_providers"_s))
                        forEachBody(body.value(u"required_providers"_s), p + QStringList{u"required_providers"_s},
                                    [&](const QJsonObject &rp, const QStringList &rpPath) { requiredProviders(rp, rpPath); });
                });
            } else if (type == u"provider"_s) {
                forEachLabel(it.value(), path,
                             [&](const QString &name, const QJsonObject &body, const QStringList &p) { provider(name, body, p); });
            } else if (type == u"resource"_s || type == u"data"_s || type == u"ephemeral"_s) {
                forEachLabel(
                    it.value(), path,
                    [&](const QString &rtype, const QJsonObject &byName, const QStringList &p) {
                        forEachLabel(
                            byName, p,
                            [&](const QString &name, const QJsonObject &body, const QStringList &p2) {
                                resource(type, rtype, name, body, p2);
                            },
                            false);
                    },
                    false);
            } else if (type == u"check"_s) {
                forEachLabel(it.value(), path, [&](const QString &, const QJsonObject &body, const QStringList &p) {
                    if (!body.contains(u"data"_s))
                        return;
                    forEachLabel(
                        body.value(u"data"_s), p + QStringList{u"data"_s},
                        [&](const QString &rtype, const QJsonObject &byName, const QStringList &p2) {
                            forEachLabel(byName, p2, [&](const QString &name, const QJsonObject &b, const QStringList &p3) {
                                resource(u"data"_s, rtype, name, b, p3);
                            });
                        },
                        false);
                });
            } else if (type == u"import"_s) {
                forEachBody(it.value(), path, [&](const QJsonObject &body, const QStringList &p) { importBlock(body, p); });
            } else if (type == u"module"_s) {
                forEachLabel(it.value(), path,
                             [&](const QString &name, const QJsonObject &body, const QStringList &p) { moduleCall(name, body, p); });
            }
        }
        return std::move(m_b.content);
    }

private:
    const QByteArray &m_data;
    JsonPositions m_pos;
    ContentBuilder m_b;

    /// A block body: an object, or an array of objects (several blocks).
    void forEachBody(const QJsonValue &v, const QStringList &path, const std::function<void(const QJsonObject &, const QStringList &)> &f)
    {
        if (v.isObject()) {
            f(v.toObject(), path);
        } else if (v.isArray()) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size(); ++i) {
                const QStringList p = path + QStringList{QString::number(i)};
                if (a.at(i).isObject())
                    f(a.at(i).toObject(), p);
                else
                    m_b.error(m_pos.at(p), u"Incorrect JSON value type"_s,
                              u"A JSON object is required here, setting the arguments for this block."_s);
            }
        } else {
            m_b.error(m_pos.at(path), u"Incorrect JSON value type"_s,
                      u"Either a JSON object or a JSON array is required, representing the contents of one or more blocks."_s);
        }
    }

    /// An object whose property names are block labels ("//" is a comment).
    void forEachLabel(const QJsonValue &v, const QStringList &path,
                      const std::function<void(const QString &, const QJsonObject &, const QStringList &)> &f, bool bodies = true)
    {
        const auto each = [&](const QJsonObject &o, const QStringList &p) {
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (it.key() == u"//"_s)
                    continue;
                const QStringList lp = p + QStringList{it.key()};
                if (bodies)
                    forEachBody(it.value(), lp, [&](const QJsonObject &body, const QStringList &bp) { f(it.key(), body, bp); });
                else if (it.value().isObject())
                    f(it.key(), it.value().toObject(), lp);
                else
                    m_b.error(m_pos.at(lp), u"Incorrect JSON value type"_s,
                              u"A JSON object is required here, to define the blocks of this type."_s);
            }
        };
        if (v.isObject())
            each(v.toObject(), path);
        else if (v.isArray()) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size(); ++i)
                if (a.at(i).isObject())
                    each(a.at(i).toObject(), path + QStringList{QString::number(i)});
        } else {
            m_b.error(m_pos.at(path), u"Incorrect JSON value type"_s,
                      u"A JSON object is required here, to define the blocks of this type."_s);
        }
    }

    /// A JSON string is a template: only one without interpolation or directives is static.
    static std::optional<QString> literal(const QJsonValue &v)
    {
        if (!v.isString())
            return std::nullopt;
        QString s = v.toString();
        const QString probe = QString(s).replace(u"$${"_s, QString()).replace(u"%%{"_s, QString());
        if (probe.contains(u"${"_s) || probe.contains(u"%{"_s))
            return std::nullopt;
        return s.replace(u"$${"_s, u"${"_s).replace(u"%%{"_s, u"%{"_s);
    }

    /// The attributes of a required_providers entry object ("//" is a comment).
    QList<RequirementAttribute> requirementAttributes(const QJsonObject &e, const QStringList &path) const
    {
        static const QRegularExpression traversal(uR"(^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)?$)"_s);
        QList<RequirementAttribute> attributes;
        for (auto k = e.begin(); k != e.end(); ++k) {
            if (k.key() == u"//"_s)
                continue;
            RequirementAttribute a;
            a.key = k.key();
            a.keyPos = a.valuePos = m_pos.at(path + QStringList{k.key()});
            a.string = literal(k.value());
            if (k.value().isArray()) {
                a.references.emplace();
                for (const QJsonValue &ref : k.value().toArray()) {
                    const bool reference = ref.isString() && traversal.match(ref.toString()).hasMatch();
                    a.references->append(reference ? std::optional(ref.toString()) : std::nullopt);
                }
            }
            attributes.append(a);
        }
        return attributes;
    }

    void requiredProviders(const QJsonObject &o, const QStringList &path)
    {
        ConfigFileContent::RequiredProvidersBlock out;
        out.position = m_pos.at(path);
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == u"//"_s)
                continue;
            const QStringList p = path + QStringList{it.key()};
            ConfigFileContent::RequiredProvider rp;
            rp.localName = it.key();
            rp.position = m_pos.at(p);
            rp.versionPosition = rp.position;
            const QJsonValue v = it.value();
            std::optional<QString> legacy;
            if (v.isString() || v.isDouble() || v.isBool())
                legacy = v.isString() ? literal(v).value_or(QString())
                    : v.isBool()      ? (v.toBool() ? u"true"_s : u"false"_s)
                                      : QString::number(v.toDouble());
            m_b.requiredProvider(out, rp, legacy, v.isObject() ? std::optional(requirementAttributes(v.toObject(), p)) : std::nullopt);
        }
        m_b.content.requiredProviders.append(out);
    }

    void provider(const QString &name, const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::ProviderBlock p;
        p.localName = name;
        p.position = m_pos.at(path);
        if (!m_b.checkLocalName(name, p.position))
            return;
        if (body.contains(u"version"_s)) {
            p.position = m_pos.at(path + QStringList{u"version"_s});
            p.versionPosition = p.position;
            const QJsonValue v = body.value(u"version"_s);
            m_b.providerVersion(p, v.isNull(), literal(v));
        }
        m_b.content.providers.append(p);
    }

    static QString localNameOfRef(const QJsonValue &v)
    {
        static const QRegularExpression ref(uR"(^([A-Za-z_][A-Za-z0-9_-]*)(\.[A-Za-z_][A-Za-z0-9_-]*)?$)"_s);
        const QRegularExpressionMatch m = ref.match(v.toString().trimmed());
        return m.hasMatch() ? m.captured(1) : QString();
    }

    void resource(const QString &mode, const QString &type, const QString &name, const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::Resource r;
        r.mode = mode;
        r.type = type;
        r.name = name;
        r.position = m_pos.at(path);
        if (body.contains(u"provider"_s))
            r.providerLocalName = localNameOfRef(body.value(u"provider"_s));
        m_b.content.resources.append(r);
    }

    void importBlock(const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::ImportBlock i;
        i.position = m_pos.at(path);
        const QStringList to = body.value(u"to"_s).toString().split(u'.');
        if (to.size() >= 2 && to.at(0) != u"module"_s)
            i.toResource = to.at(0) + u'.' + to.at(1).section(u'[', 0, 0);
        if (body.contains(u"provider"_s))
            i.providerLocalName = localNameOfRef(body.value(u"provider"_s));
        m_b.content.imports.append(i);
    }

    void moduleCall(const QString &name, const QJsonObject &body, const QStringList &path)
    {
        ConfigFileContent::ModuleCall m;
        m.name = name;
        m.position = m_pos.at(path);
        if (body.contains(u"source"_s)) {
            m.position = m_pos.at(path + QStringList{u"source"_s});
            if (const std::optional<QString> s = literal(body.value(u"source"_s)))
                m.source = *s;
            else
                m_b.invalidModuleSource(m.position);
        }
        m_b.content.moduleCalls.append(m);
    }
};

} // namespace

ConfigFileContent readJsonContent(const QByteArray &data, const QString &fileName)
{
    return JsonContent(data, fileName).run();
}

} // namespace provender::config_detail
