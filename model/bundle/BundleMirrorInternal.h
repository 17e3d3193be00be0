#pragma once
// Pieces of BundleMirror.cpp that BundleImport.cpp (and BundleWriter.cpp) share. Internal to
// provender_bundle.

#include "model/bundle/BundleArchive.h"
#include "model/bundle/BundleMirror.h"
#include "model/mirror/Catalog.h"
#include "model/verify/VerifyTypes.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>

namespace provender::bundle_detail {

/// SHA256SUMS or the manifest (at the root or under one folder), or a `*.json` where index
/// documents live: the files read into memory.
bool isMetadataName(const QString &name);
/// `[FOLDER/].provenance/HOST/NS/TYPE/VERSION/{SHA256SUMS, SHA256SUMS.sig, keys.asc}`: a pulled
/// mirror's proof of a release (model/registry/ReleaseProvenanceStore.h), read as metadata.
bool isProvenanceName(const QString &name);

/// "" (the mirror tree is at the bundle's root) or "<folder>/" when every entry is under one
/// folder and that folder looks more like the mirror root (it holds SHA256SUMS, the manifest, or
/// more archives at the layout's depth).
QString choosePrefix(const QList<BundleEntry> &entries);

/// The Catalog of the entries under `prefix`, from the directory scanner run over an empty sparse
/// skeleton of them (only index documents get their content, from `metadata`). Paths are
/// rewritten to `entryPathBase + entry name` (e.g. `/b.tar.gz!/` + `host/ns/type/x.zip`).
Result<Catalog> catalogFromEntries(const QList<BundleEntry> &entries, const QHash<QString, QByteArray> &metadata, const QString &prefix,
                                   const QString &entryPathBase);

/// SHA256SUMS against what was read: a check for each name `sums` lists, in its order (Ok,
/// Mismatch, or Missing when `digestOf` has no SHA-256 for the entry `prefix + name`); those
/// entry names go into `listed`.
QList<BundleFileCheck> checkListedSums(const QMap<QString, QByteArray> &sums, const QString &prefix,
                                       const std::function<std::optional<QByteArray>(const QString &entry)> &digestOf,
                                       QSet<QString> *listed);

/// verifyCatalog() with its progress reported to `progress` as BundleStage::Hashing; a Cancelled
/// error when `progress` asks to stop or the run was cancelled.
Result<VerifyReport> verifyForBundle(const Catalog &catalog, const VerifyOptions &options, const BundleProgress &progress);

} // namespace provender::bundle_detail
