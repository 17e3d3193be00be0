#pragma once
// Lock files made from a configuration: `provender lock init --config DIR --mirror DIR`, like
// `terraform providers lock -fs-mirror=DIR -platform=...` in a directory without a lock file,
// and the `--config` variants of add-hashes and upgrade (the configuration's constraints).
// Version selection follows terraform's installer with a filesystem mirror: the newest version
// the mirror has a package of (for any platform) that meets every constraint of every module;
// prereleases only when a constraint names them exactly. That version must then have a package
// for each platform asked for. Hashes are those of LockEdit's addHashesFromMirror.

#include "model/core/Result.h"
#include "model/lockfile/ConfigReader.h"
#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockFile.h"
#include "model/mirror/Catalog.h"

#include <optional>

namespace provender {

namespace lockinit {

/// What happened to one required provider.
struct SelectionNote
{
    enum class Kind {
        Selected,                 ///< `version` chosen (lock init, or a provider the lock did not have)
        Kept,                     ///< already locked at a version the constraints allow (constraints updated)
        NoMatchingVersion,        ///< the mirror has no version that meets the constraints (a problem)
        LockedOutsideConstraints, ///< the locked version does not meet the configuration's constraints (a problem)
        NotLocked,                ///< upgrade --config: required but not in the lock file (left alone)
    };
    Kind kind = Kind::Selected;
    ProviderAddress provider;
    Version version;
    VersionConstraints constraints;
    QString message;

    bool isProblem() const { return kind == Kind::NoMatchingVersion || kind == Kind::LockedOutsideConstraints; }
};

struct InitOptions
{
    QList<Platform> platforms; ///< required
    bool includeZh = false;
    LockFlavour flavour = LockFlavour::Terraform;
    QList<ProviderAddress> providers; ///< only these (empty: every required provider)
    ArchiveHasher hasher;             ///< default: directArchiveHasher()
};

struct InitResult
{
    LockFile document;
    QList<SelectionNote> selections;
    QList<lockedit::MirrorHashNote> hashNotes;
    bool hasProblems() const;
};

/// A new lock file for `requirements` from `mirror`. Fails with InvalidArgument when no
/// platform is given or `providers` names a provider the configuration does not require.
Result<InitResult> initFromMirror(const ConfigRequirements &requirements, const Catalog &mirror, const InitOptions &options);

/// `terraform providers lock` with an existing lock file: every required provider (or those in
/// `options.providers`) gets the configuration's constraints; a locked one keeps its version
/// (a problem when the constraints no longer allow it), a new one gets the newest allowed
/// version; then the platforms' hashes are added. Providers the configuration does not require
/// are left as they are.
Result<InitResult> updateFromConfig(const LockFile &doc, const ConfigRequirements &requirements, const Catalog &mirror,
                                    const InitOptions &options);

/// The version of `provider` that initFromMirror (`doc` null) or updateFromConfig (`doc` the
/// lock file) selects when the mirror lists `listed`: a locked version the constraints allow,
/// else the newest they allow; none for a provider the configuration does not require or whose
/// locked version it excludes. A network mirror reads only that version's <version>.json, as
/// terraform reads only the document of the version it selected.
QList<Version> versionsToRead(const ConfigRequirements &requirements, const LockFile *doc, const ProviderAddress &provider,
                              const QList<Version> &listed);

/// For `lock upgrade --config`: the locked providers the configuration requires get its
/// constraints (the others are dropped from `providers`, which becomes the list to upgrade).
/// Required providers that are not locked are NotLocked notes.
LockFile withConfigConstraints(const LockFile &doc, const ConfigRequirements &requirements, QList<ProviderAddress> *providers,
                               QList<SelectionNote> *notes);

} // namespace lockinit

QString toString(lockinit::SelectionNote::Kind k);

} // namespace provender
