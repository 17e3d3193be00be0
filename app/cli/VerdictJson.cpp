#include "app/cli/VerdictJson.h"

#include "app/cli/Cli.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace provender::cli {

namespace {

/// A JSON string literal (RFC 8259 escaping).
void appendJsonString(QString &out, const QString &s)
{
    out += QLatin1Char('"');
    for (QChar c : s) {
        switch (c.unicode()) {
        case '"': out += QLatin1StringView("\\\""); break;
        case '\\': out += QLatin1StringView("\\\\"); break;
        case '\n': out += QLatin1StringView("\\n"); break;
        case '\r': out += QLatin1StringView("\\r"); break;
        case '\t': out += QLatin1StringView("\\t"); break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    out += QLatin1Char('"');
}

void appendField(QString &out, const char *key, const QString &value)
{
    out += QLatin1Char('"') + QLatin1StringView(key) + QLatin1StringView("\": ");
    appendJsonString(out, value);
    out += QLatin1StringView(", ");
}

void appendField(QString &out, const char *key, const QStringList &values)
{
    out += QLatin1Char('"') + QLatin1StringView(key) + QLatin1StringView("\": [");
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += QLatin1StringView(", ");
        appendJsonString(out, values.at(i));
    }
    out += QLatin1StringView("], ");
}

const QLatin1StringView boolText(bool b)
{
    return b ? QLatin1StringView("true") : QLatin1StringView("false");
}

} // namespace

QString sourceKindName(Catalog::SourceKind kind)
{
    switch (kind) {
    case Catalog::SourceKind::Directory: return QStringLiteral("directory");
    case Catalog::SourceKind::Bundle: return QStringLiteral("bundle");
    case Catalog::SourceKind::Network: return QStringLiteral("network");
    }
    return {};
}

QString archiveJson(const ArchiveResult &r)
{
    QString o;
    o.reserve(640);
    o += QLatin1Char('{');
    appendField(o, "provider", r.key.provider.toString());
    appendField(o, "version", r.key.version.toString());
    appendField(o, "platform", r.key.platform.toString());
    appendField(o, "layout", toString(r.layout));
    appendField(o, "path", r.path);
    o += QStringLiteral("\"size\": %1, ").arg(r.size);
    appendField(o, "verdict", toString(r.detail.verdict));
    appendField(o, "reason", r.detail.reason);
    o += QLatin1StringView("\"anchors\": [");
    for (qsizetype i = 0; i < r.detail.anchors.size(); ++i) {
        const TrustAnchor &a = r.detail.anchors.at(i);
        o += (i == 0 ? QLatin1StringView("{") : QLatin1StringView(", {"));
        appendField(o, "kind", toString(a.kind));
        appendField(o, "document", a.document);
        if (a.kind == TrustAnchor::Kind::Signature) {
            appendField(o, "key_id", a.keyId);
            appendField(o, "signer", a.signer);
        }
        appendField(o, "text", describe(a));
        o += QLatin1StringView("\"self_consistency_only\": ") + boolText(a.isSelfConsistencyOnly()) + QLatin1Char('}');
    }
    o += QLatin1StringView("], ");
    appendField(o, "anchor", describeAnchors(r.detail));
    if (r.detail.notCoveredByLock)
        o += QLatin1StringView("\"not_covered_by_lock\": true, ");
    QStringList matched;
    for (HashMatch m : r.detail.matched)
        matched.append(toString(m));
    appendField(o, "matched", matched);
    QStringList contradicting;
    for (const HashString &h : r.detail.contradicting)
        contradicting.append(h.toString());
    appendField(o, "contradicting", contradicting);
    QStringList declared;
    for (const HashString &h : r.declared)
        declared.append(h.toString());
    appendField(o, "declared", declared);
    if (r.hashes) {
        appendField(o, "h1", r.hashes->h1Extracted.toString());
        if (r.hashes->kind == PackageHashes::Kind::Zip) {
            appendField(o, "h1_zip", r.hashes->h1Zip.toString());
            appendField(o, "zh", r.hashes->zh.toString());
        }
    }
    if (!r.error.isEmpty())
        appendField(o, "error", r.error);
    o += QLatin1StringView("\"from_cache\": ") + boolText(r.fromCache) + QLatin1Char('}');
    return o;
}

QJsonObject anomalyJson(const Anomaly &a)
{
    QJsonObject o;
    o[QStringLiteral("kind")] = toString(a.kind);
    o[QStringLiteral("path")] = a.path;
    o[QStringLiteral("message")] = a.message;
    if (a.location.isValid()) {
        o[QStringLiteral("line")] = a.location.line;
        o[QStringLiteral("column")] = a.location.column;
    }
    return o;
}

QJsonObject bundleJsonExtension(const BundleContents &b)
{
    QJsonObject o{{QStringLiteral("path"), b.path},
                  {QStringLiteral("format"), toString(b.format)},
                  {QStringLiteral("file_size"), double(b.fileSize)},
                  {QStringLiteral("entries"), b.entryCount},
                  {QStringLiteral("mirror_prefix"), b.mirrorPrefix},
                  {QStringLiteral("has_sha256sums"), b.hasSha256Sums}};
    if (b.manifest)
        o[QStringLiteral("manifest")] = QJsonDocument::fromJson(renderBundleManifest(*b.manifest)).object();
    insertIfNotEmpty(o, QStringLiteral("manifest_error"), b.manifestError);
    insertIfNotEmpty(o, QStringLiteral("sha256sums_error"), b.sha256SumsError);
    QJsonArray problems, files;
    for (const BundleEntryProblem &p : b.problems)
        problems.append(QJsonObject{
            {QStringLiteral("kind"), toString(p.kind)}, {QStringLiteral("entry"), p.entry}, {QStringLiteral("message"), p.message}});
    for (const BundleFileCheck &f : b.files) {
        QJsonObject fo{{QStringLiteral("name"), f.name}, {QStringLiteral("status"), toString(f.status)}};
        insertIfNotEmpty(fo, QStringLiteral("expected"), f.expected);
        insertIfNotEmpty(fo, QStringLiteral("actual"), f.actual);
        files.append(fo);
    }
    o[QStringLiteral("problems")] = problems;
    o[QStringLiteral("files")] = files;
    o[QStringLiteral("ok")] = !b.hasFindings();
    return o;
}

void writeVerdictJson(QTextStream &o, const VerdictJson &d)
{
    static const QList<ArchiveResult> none;
    const QList<ArchiveResult> &results = d.results ? *d.results : none;
    QString location;
    appendJsonString(location, d.location);
    const QString kindName = d.kindName.isEmpty() ? sourceKindName(d.kind) : d.kindName;
    o << "{\n    \"schema_version\": " << kVerdictJsonSchemaVersion << ",\n    \"source\": {\n        \"kind\": \"" << kindName
      << "\",\n        \"location\": " << location << "\n    },\n    \"root\": " << location << ",\n    \"archives\": [";
    for (qsizetype i = 0; i < results.size(); ++i)
        o << (i == 0 ? "\n        " : ",\n        ") << archiveJson(results.at(i));
    o << (results.isEmpty() ? "],\n" : "\n    ],\n");

    QJsonArray anomalies;
    for (const Anomaly &a : d.anomalies)
        anomalies.append(anomalyJson(a));
    const VerifySummary &s = d.summary;
    QJsonObject summary;
    for (Verdict v : allVerdicts())
        summary[toString(v)] = s.count(v);
    summary[QStringLiteral("archives")] = s.archives;
    summary[QStringLiteral("hashed")] = s.hashed;
    summary[QStringLiteral("cache_hits")] = s.cacheHits;
    summary[QStringLiteral("anomalies")] = int(d.anomalies.size());
    if (d.lockCoverage)
        summary[QStringLiteral("not_covered_by_lock")] =
            int(std::count_if(results.cbegin(), results.cend(), [](const ArchiveResult &r) { return r.detail.notCoveredByLock; }));
    insertIfNotEmpty(summary, QStringLiteral("cache_warning"), s.cacheWarning);
    if (d.bytesDownloaded)
        summary[QStringLiteral("bytes_downloaded")] = double(*d.bytesDownloaded);
    QJsonObject rest;
    rest[QStringLiteral("anomalies")] = anomalies;
    rest[QStringLiteral("summary")] = summary;
    if (!d.extension.isEmpty())
        rest[kindName] = d.extension;
    const QByteArray restText = QJsonDocument(rest).toJson(QJsonDocument::Indented);
    o << QString::fromUtf8(restText.mid(restText.indexOf('\n') + 1)); // the rest of the object, after its "{"
}

} // namespace provender::cli
