// Bundle import, the plan phase's work per archive: hashing the target's archives of the versions
// the bundle brings (one engine run), and the action for each archive of the bundle — add,
// unchanged, replace, conflict, rejected or skipped, with the reason a user reads.

#include "model/bundle/BundleImport.h"

#include "model/bundle/BundleImportInternal.h"
#include "model/verify/HashEngine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSet>
#include <QTemporaryDir>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace provender::bundle_detail {

Result<void> ImportTransaction::hashTargetArchives()
{
    // The target's archives of every version the bundle brings are what the plan compares the
    // bundle's with: hash them in one engine run (all cores, the hash cache) before planning.
    // A failure here is left to the plan's own call, which says why in its words.
    QList<HashRequest> requests;
    for (const Provider &p : m_bundleCatalog.providers)
        for (const Provider &tp : m_targetCatalog.providers) {
            if (!(tp.address == p.address))
                continue;
            for (const ProviderVersion &v : p.versions)
                for (const ProviderVersion &tv : tp.versions) {
                    if (tv.version != v.version)
                        continue;
                    for (const QList<Archive> *list : {&tv.archives, &tv.duplicates})
                        for (const Archive &ta : *list)
                            if (ta.present && !ta.path.isEmpty())
                                requests.append(HashRequest{ta.path, ta.size});
                }
        }
    HashRunOptions hashOptions;
    hashOptions.jobs = m_options.jobs;
    hashOptions.useCache = m_options.useCache;
    hashOptions.cacheFile = m_options.cacheFile;
    hashOptions.progress = [&](qint64 done, qint64 total) { return !m_progress || m_progress(BundleStage::Hashing, done, total); };
    const HashRunReport hashed = hashArchives(requests, hashOptions);
    if (hashed.summary.cancelled)
        return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
    for (qsizetype i = 0; i < requests.size(); ++i)
        if (hashed.outcomes.at(i).hashes.ok())
            m_targetHashes.insert(requests.at(i).path, hashed.outcomes.at(i).hashes.value());
    return {};
}

void ImportTransaction::planArchive(const Provider &p, const Provider *existingProvider, const ProviderVersion &v, const Archive &a,
                                    bool duplicate)
{
    ImportAction act;
    act.key = ArchiveKey{p.address, v.version, a.platform};
    act.layout = a.layout;
    act.entry = entryOf(a.path);
    act.size = a.size;
    if (!a.present || a.indexedOnly)
        return; // index-only names and absent archives are anomalies of the bundle, not archives
    const ArchiveResult r = m_resultByPath.value(a.path);
    act.verdict = r.detail.verdict;
    if (duplicate) {
        act.kind = ImportAction::Kind::Skipped;
        act.reason = QStringLiteral("another copy of the same version and platform comes first in the bundle");
        m_report.actions.append(act);
        return;
    }
    const QString relArchive = QDir(m_stagedRoot).relativeFilePath(a.path);
    const QStringList parts = relArchive.split(QLatin1Char('/'));
    Placement to;
    to.providerDir =
        existingProvider ? QDir(m_target).relativeFilePath(existingProvider->directory) : parts.mid(0, 3).join(QLatin1Char('/'));
    to.rel = to.providerDir + QLatin1Char('/') + parts.mid(3).join(QLatin1Char('/'));
    act.targetPath = m_target + QLatin1Char('/') + to.rel;

    const bool lockVouches = std::any_of(r.detail.anchors.cbegin(), r.detail.anchors.cend(),
                                         [](const TrustAnchor &t) { return t.kind == TrustAnchor::Kind::LockFile; });
    if (m_options.requireLock && r.detail.verdict == Verdict::Verified && !lockVouches) {
        act.kind = ImportAction::Kind::Rejected;
        act.reason = r.detail.notCoveredByLock
            ? QStringLiteral("no lock file given covers %1 %2 (--require-lock)").arg(p.address.toString(), v.version.toString())
            : QStringLiteral("no lock file hash vouches for it, only %1 (--require-lock)").arg(describeAnchors(r.detail));
        m_report.actions.append(act);
        return;
    }
    if (r.detail.verdict != Verdict::Verified
        && !(r.detail.verdict == Verdict::Unverified && m_options.allowUnverified && !m_options.requireLock)) {
        act.kind = ImportAction::Kind::Rejected;
        act.reason = r.detail.verdict == Verdict::Unverified
            ? QStringLiteral("nothing in the bundle declares a hash for it (import with --allow-unverified to accept it)")
            : r.detail.reason;
        m_report.actions.append(act);
        return;
    }
    const QString bundleH1 = r.hashes ? r.hashes->h1Extracted.toString() : QString();
    struct stat st;
    if (::lstat(encode(act.targetPath).constData(), &st) == 0) {
        act.existingPath = act.targetPath;
        bool same = false;
        QString why;
        const auto known = m_targetHashes.constFind(act.targetPath);
        if (a.layout == ArchiveLayout::Packed && S_ISREG(st.st_mode) && known != m_targetHashes.cend()
            && known->kind == PackageHashes::Kind::Zip) {
            same = r.hashes && known->zh == r.hashes->zh;
            why = QStringLiteral("the mirror has a different file there");
        } else if (a.layout == ArchiveLayout::Packed && S_ISREG(st.st_mode)) {
            Result<HashString> zh = hashFileZh(act.targetPath);
            same = zh.ok() && r.hashes && zh.value() == r.hashes->zh;
            why = zh.ok() ? QStringLiteral("the mirror has a different file there") : zh.error().message;
        } else if (a.layout == ArchiveLayout::Unpacked && S_ISDIR(st.st_mode)) {
            Result<PackageHashes> h = known != m_targetHashes.cend() && known->kind == PackageHashes::Kind::Directory
                ? Result<PackageHashes>(known.value())
                : hashDirectory(act.targetPath);
            same = h.ok() && h->h1Extracted.toString() == bundleH1;
            why = h.ok() ? QStringLiteral("the mirror has a different package there") : h.error().message;
        } else {
            why = QStringLiteral("the mirror has something else there");
        }
        if (same) {
            act.kind = ImportAction::Kind::Unchanged;
            act.reason = QStringLiteral("already in the mirror");
        } else if (m_options.replace && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
            act.kind = ImportAction::Kind::Replace;
            act.reason = why;
            m_moves.append(Move{a.path, to, true});
        } else {
            act.kind = ImportAction::Kind::Conflict;
            act.reason = why + (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ? QStringLiteral(" (--replace replaces it)") : QString());
        }
        m_report.actions.append(act);
        return;
    }
    // The same version and platform under another name?
    const Archive *other = nullptr;
    if (existingProvider) {
        for (const ProviderVersion &tv : existingProvider->versions) {
            if (tv.version != v.version)
                continue;
            for (const QList<Archive> *list : {&tv.archives, &tv.duplicates})
                for (const Archive &ta : *list)
                    if (!other && ta.present && ta.platform == a.platform)
                        other = &ta;
        }
    }
    if (other) {
        act.existingPath = other->path;
        const auto known = m_targetHashes.constFind(other->path);
        Result<PackageHashes> h = known != m_targetHashes.cend() ? Result<PackageHashes>(known.value()) : hashPackage(other->path);
        if (h.ok() && h->h1Extracted.toString() == bundleH1) {
            act.kind = ImportAction::Kind::Unchanged;
            act.reason = QStringLiteral("already in the mirror as %1").arg(other->path);
        } else {
            act.kind = ImportAction::Kind::Conflict;
            act.reason = QStringLiteral("the mirror already has a different %1 %2 for %3 at %4")
                             .arg(p.address.toString(), v.version.toString(), a.platform.toString(), other->path);
        }
        m_report.actions.append(act);
        return;
    }
    act.kind = ImportAction::Kind::Add;
    m_moves.append(Move{a.path, to, false});
    m_report.actions.append(act);
}

} // namespace provender::bundle_detail
