#pragma once
// The one verdict JSON writer of every `verify` — `provender verify DIR | BUNDLE | URL` and
// `provender bundle verify` — so that each prints the same fields (docs/VERDICT-JSON.md,
// "schema_version": 1). Archives are written one per line as they go (a mirror can have 100,000
// of them; a QJsonDocument of them costs seconds and hundreds of MiB), the rest through
// QJsonDocument (4-space indentation, keys sorted).

#include "model/bundle/BundleMirror.h"
#include "model/mirror/Catalog.h"
#include "model/verify/VerifyTypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QTextStream>

#include <optional>

namespace provender::cli {

/// The schema version printed as "schema_version"; bump it when a field changes meaning or goes.
inline constexpr int kVerdictJsonSchemaVersion = 1;

struct VerdictJson
{
    Catalog::SourceKind kind = Catalog::SourceKind::Directory;
    QString location; ///< the directory, bundle file or URL as opened
    const QList<ArchiveResult> *results = nullptr;
    QList<Anomaly> anomalies; ///< the listing's and the verdicts' (verdictAnomalies)
    VerifySummary summary;
    bool lockCoverage = false;             ///< --lock given: summary.not_covered_by_lock is written
    std::optional<qint64> bytesDownloaded; ///< network: summary.bytes_downloaded
    /// What only this kind of source has: written as "bundle" or "network" (kind's name).
    QJsonObject extension;
    /// Overrides sourceKindName(kind) in `source.kind` and as the extension's name: "oci" for an
    /// OCI registry mirror (app/cli/OciCommands.cpp), which is no Catalog::SourceKind of its own.
    QString kindName;
};

/// "directory", "bundle", "network"
QString sourceKindName(Catalog::SourceKind kind);

void writeVerdictJson(QTextStream &out, const VerdictJson &document);

/// The "bundle" member: what a bundle's pass found besides the archives (format, entries, the
/// manifest, entry problems, every SHA256SUMS line, "ok").
QJsonObject bundleJsonExtension(const BundleContents &bundle);

/// One archive as the one-line JSON object of "archives".
QString archiveJson(const ArchiveResult &result);
QJsonObject anomalyJson(const Anomaly &anomaly);

} // namespace provender::cli
