// provender lock fmt | diff | check | add-hashes | upgrade | init | merge: the lock-file commands.
// Everything here is argument handling and printing; the work is done by model/lockfile.
// Exit codes: 0 ok, 1 findings (not canonical, a difference, mismatch/missing, a package that
// could not be hashed), 2 bad usage or unreadable input (including a lock file with errors).

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/HashingOptions.h"
#include "app/cli/LockMirror.h"
#include "app/cli/Prologue.h"
#include "model/hashing/PackageHashes.h"
#include "model/lockfile/ConfigReader.h"
#include "model/lockfile/LockCheck.h"
#include "model/lockfile/LockDiff.h"
#include "model/lockfile/LockEdit.h"
#include "model/lockfile/LockFile.h"
#include "model/lockfile/LockInit.h"
#include "model/lockfile/LockMerge.h"
#include "model/lockfile/LockWriter.h"
#include "model/network/Credentials.h"
#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"
#include "model/registry/MirrorPull.h"
#include "model/registry/RegistryClient.h"
#include "model/registry/RegistryDocuments.h"
#include "model/registry/ReleaseProvenance.h"
#include "model/registry/ReleaseSignature.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

namespace provender::cli {

namespace {

const QCommandLineOption kJson(u"json"_s, u"Print JSON instead of text."_s);
const QCommandLineOption kCaFile(u"ca-file"_s, u"With --registry: also trust the CA certificates in this PEM file."_s, u"PEM"_s);
const QCommandLineOption kPinnedKeys(u"pinned-keys"_s, u"With --registry: accept only signatures by the OpenPGP keys in this file."_s,
                                     u"FILE"_s);
const QCommandLineOption kMirror(u"mirror"_s,
                                 u"A filesystem mirror directory (packed or unpacked layout), or a network mirror's https:// base URL."_s,
                                 u"DIR|URL"_s);
const QCommandLineOption kPlatform(u"platform"_s, u"A target platform os_arch (repeatable)."_s, u"P"_s);
const QCommandLineOption kProvider(u"provider"_s, u"Only this provider (repeatable), e.g. registry.opentofu.org/hashicorp/null."_s,
                                   u"ADDR"_s);
const QCommandLineOption kZh(u"zh"_s, u"Also record the zh: hash (SHA-256 of the zip) of each package."_s);
const QCommandLineOption kFlavour(u"flavour"_s, u"Header to write: tofu or terraform (default: the file's own)."_s, u"F"_s);
const QCommandLineOption kConfig(
    u"config"_s, u"A configuration directory: take the providers and constraints from its required_providers (and its modules')."_s,
    u"DIR"_s);

void printDiagnostics(const QString &file, const LockParseResult &r)
{
    for (const LockDiagnostic &d : r.diagnostics)
        err() << d.toString(file) << '\n';
}

/// Reads and parses a lock file; on I/O failure or errors prints why and returns nullopt.
std::optional<LockParseResult> loadLock(const QString &path, std::optional<LockFlavour> flavour = std::nullopt)
{
    LockParseOptions o;
    o.fileName = path;
    o.flavour = flavour;
    Result<LockParseResult> r = readLockFile(path, o);
    if (!r.ok()) {
        err() << path << ": error: " << r.error().message << '\n';
        return std::nullopt;
    }
    printDiagnostics(path, r.value());
    if (r->hasErrors()) {
        err() << path << ": the lock file has errors\n";
        return std::nullopt;
    }
    return std::move(r).value();
}

bool parsePlatforms(const QStringList &texts, QList<Platform> *out)
{
    for (const QString &t : texts) {
        const Result<Platform> p = Platform::parse(t);
        if (!p.ok()) {
            err() << "invalid platform \"" << t << "\": " << p.error().message << '\n';
            return false;
        }
        if (!out->contains(p.value()))
            out->append(p.value());
    }
    return true;
}

bool parseProviders(const QStringList &texts, LockFlavour flavour, QList<ProviderAddress> *out)
{
    const QLatin1StringView host = flavour == LockFlavour::Tofu ? kOpenTofuRegistryHost : kTerraformRegistryHost;
    for (const QString &t : texts) {
        const Result<ProviderAddress> a = ProviderAddress::parse(t, host);
        if (!a.ok()) {
            err() << "invalid provider address \"" << t << "\": " << a.error().message << '\n';
            return false;
        }
        out->append(a.value());
    }
    return true;
}

/// The inputs add-hashes and upgrade share, read in their order: --zh, --platform and the hashing
/// options into `options` and `hashing`, the lock file `path`, then --provider (in the lock's
/// flavour). nullopt after printing why.
template<typename EditOptions>
std::optional<LockParseResult> readLockEditInputs(const QCommandLineParser &parser, const QString &command, const QString &path,
                                                  EditOptions *options, HashRunOptions *hashing)
{
    options->includeZh = parser.isSet(kZh);
    if (!parsePlatforms(parser.values(kPlatform), &options->platforms))
        return std::nullopt;
    if (!readHashingOptions(parser, command, hashing))
        return std::nullopt;
    std::optional<LockParseResult> lock = loadLock(path);
    if (lock && !parseProviders(parser.values(kProvider), lock->document.flavour, &options->providers))
        return std::nullopt;
    return lock;
}

/// Tells what a canonical rewrite of `path` loses; call before writing.
void warnAboutDrops(const QString &path, const LockFile &doc)
{
    for (const DroppedContent &d : doc.dropped) {
        QString text = d.text;
        text.replace(u'\n', u' ');
        if (text.size() > 72)
            text = text.left(69) + u"..."_s;
        err() << path << ':' << d.range.line << ": warning: the canonical form drops this " << toString(d.kind) << ": " << text << '\n';
    }
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool save(const QString &path, const LockFile &doc, LockFlavour flavour)
{
    const Result<void> r = saveLockFile(doc, flavour, path);
    if (!r.ok()) {
        err() << "Failed to update dependency lock file: " << r.error().message << '\n';
        return false;
    }
    return true;
}

/// Sets `options.hasher` to lockMirrorHasher()'s: `operation` (a lock operation taking the
/// options) runs once with the recording hasher, its result dropped, to learn what to hash.
template<typename Options, typename Operation>
void prehash(const QString &command, const HashRunOptions &hashing, const LockMirror &mirror, Options &options, const Operation &operation)
{
    options.hasher = lockMirrorHasher(command, mirror, hashing, [&](const ArchiveHasher &record) {
        Options recording = options;
        recording.hasher = record;
        (void)operation(recording);
    });
}

/// Like terraform, `path` is rewritten in canonical form as `edited` (unless that changes nothing),
/// after a warning about what the rewrite of `read` (the file as it was) drops.
int saveEdited(const QString &path, const LockFile &read, const LockFile &edited)
{
    if (writeLockFile(edited) == readAll(path))
        return ExitOk;
    warnAboutDrops(path, read);
    return save(path, edited, edited.flavour) ? ExitOk : ExitUsage;
}

void printNotes(const QList<lockedit::MirrorHashNote> &notes, const QString &indent)
{
    for (const lockedit::MirrorHashNote &n : notes) {
        out() << indent << n.provider.toString() << ' ' << n.version.toString() << ' ' << n.platform.toString() << ": ";
        if (n.kind == lockedit::MirrorHashNote::Kind::Added) {
            QStringList hs;
            for (const HashString &h : n.hashes)
                hs << h.toString();
            out() << hs.join(u", "_s) << (n.newHashes == 0 ? u" (already locked)"_s : QString()) << '\n';
        } else {
            out() << (n.isProblem() ? "error: " : "note: ") << n.message << '\n';
        }
    }
}

// ---- diff output -------------------------------------------------------------------------------

QString provenanceText(const QList<HashProvenance> &ps)
{
    if (ps.isEmpty())
        return u"unknown origin"_s;
    QStringList parts;
    for (const HashProvenance &p : ps)
        parts << u"%1 %2 %3"_s.arg(p.platform.toString(), p.version.toString(), toString(p.origin))
                + (p.note.isEmpty() ? QString() : u", "_s + p.note);
    return parts.join(u"; "_s);
}

QJsonObject provenanceJson(const HashChange &c)
{
    QJsonObject o;
    o[u"hash"_s] = c.hash.toString();
    o[u"scheme"_s] = c.scheme();
    QJsonArray ps;
    for (const HashProvenance &p : c.provenance) {
        QJsonObject j;
        j[u"origin"_s] = toString(p.origin);
        j[u"platform"_s] = p.platform.toString();
        j[u"version"_s] = p.version.toString();
        j[u"archive"_s] = p.archivePath;
        insertIfNotEmpty(j, u"note"_s, p.note);
        ps.append(j);
    }
    o[u"provenance"_s] = ps;
    return o;
}

void printDiffText(const LockDiff &diff)
{
    if (diff.oldFlavour != diff.newFlavour)
        out() << "header: " << toString(diff.oldFlavour) << " -> " << toString(diff.newFlavour) << '\n';
    for (const ProviderDiff &p : diff.providers) {
        if (p.change == ProviderDiff::Change::Unchanged)
            continue;
        const QString oldV = p.oldVersion ? p.oldVersion->toString() : QString();
        const QString newV = p.newVersion ? p.newVersion->toString() : QString();
        switch (p.change) {
        case ProviderDiff::Change::Added: out() << "+ " << p.address.toString() << ' ' << newV << ": added\n"; break;
        case ProviderDiff::Change::Removed: out() << "- " << p.address.toString() << ' ' << oldV << ": removed\n"; break;
        case ProviderDiff::Change::Upgraded:
        case ProviderDiff::Change::Downgraded:
            out() << "~ " << p.address.toString() << ": " << toString(p.change) << ' ' << oldV << " -> " << newV << '\n';
            break;
        default: out() << "~ " << p.address.toString() << ' ' << newV << ": changed\n"; break;
        }
        if (p.constraintsChanged() && p.change != ProviderDiff::Change::Added && p.change != ProviderDiff::Change::Removed)
            out() << "    constraints: \"" << p.oldConstraints << "\" -> \"" << p.newConstraints << "\"\n";
        for (const HashChange &h : p.hashesAdded)
            out() << "    + " << h.hash.toString() << "  (" << provenanceText(h.provenance) << ")\n";
        for (const HashChange &h : p.hashesRemoved)
            out() << "    - " << h.hash.toString() << "  (" << provenanceText(h.provenance) << ")\n";
    }
    if (diff.isEmpty())
        out() << "no semantic change\n";
}

QJsonObject diffJson(const LockDiff &diff, const QString &textDiff)
{
    QJsonObject o;
    QJsonObject flavour;
    flavour[u"old"_s] = toString(diff.oldFlavour);
    flavour[u"new"_s] = toString(diff.newFlavour);
    o[u"flavour"_s] = flavour;
    QJsonArray providers;
    for (const ProviderDiff &p : diff.providers) {
        QJsonObject j;
        j[u"address"_s] = p.address.toString();
        j[u"change"_s] = toString(p.change);
        j[u"old_version"_s] = p.oldVersion ? QJsonValue(p.oldVersion->toString()) : QJsonValue();
        j[u"new_version"_s] = p.newVersion ? QJsonValue(p.newVersion->toString()) : QJsonValue();
        j[u"old_constraints"_s] = p.oldConstraints;
        j[u"new_constraints"_s] = p.newConstraints;
        QJsonArray added, removed;
        for (const HashChange &h : p.hashesAdded)
            added.append(provenanceJson(h));
        for (const HashChange &h : p.hashesRemoved)
            removed.append(provenanceJson(h));
        j[u"hashes_added"_s] = added;
        j[u"hashes_removed"_s] = removed;
        j[u"hashes_kept"_s] = p.hashesKept;
        providers.append(j);
    }
    o[u"providers"_s] = providers;
    o[u"changed"_s] = !diff.isEmpty();
    o[u"text_diff"_s] = textDiff;
    return o;
}

// ---- check output ------------------------------------------------------------------------------

void printCheckText(const LockCheckResult &r)
{
    int width = 8;
    for (const LockCheckRow &row : r.rows)
        width = std::max(width, int(row.address.toString().size()));
    out() << u"provider"_s.leftJustified(width + 2) << u"version"_s.leftJustified(14);
    for (const Platform &p : r.platforms)
        out() << p.toString().leftJustified(std::max(12, int(p.toString().size()) + 2));
    out() << '\n';
    for (const LockCheckRow &row : r.rows) {
        out() << row.address.toString().leftJustified(width + 2) << row.version.toString().leftJustified(14);
        for (qsizetype i = 0; i < row.cells.size(); ++i)
            out() << toString(row.cells[i].verdict()).leftJustified(std::max(12, int(r.platforms[i].toString().size()) + 2));
        out() << '\n';
    }
    bool header = false;
    for (const LockCheckRow &row : r.rows)
        for (const LockCheckCell &c : row.cells) {
            if (c.verdict() == Verdict::Verified)
                continue;
            if (!header) {
                out() << '\n';
                header = true;
            }
            out() << row.address.toString() << ' ' << row.version.toString() << ' ' << c.platform.toString() << ": "
                  << toString(c.verdict()) << ": " << c.detail.reason << '\n';
        }
    out() << '\n'
          << r.count(Verdict::Verified) << " verified, " << r.count(Verdict::Mismatch) << " mismatch, " << r.count(Verdict::Missing)
          << " missing, " << r.count(Verdict::Unverified) << " unverified, " << r.count(Verdict::Error) << " error\n";
}

QJsonObject checkJson(const LockCheckResult &r)
{
    QJsonObject o;
    o[u"platforms"_s] = jsonStrings(r.platforms);
    QJsonArray rows;
    for (const LockCheckRow &row : r.rows) {
        QJsonObject j;
        j[u"address"_s] = row.address.toString();
        j[u"version"_s] = row.version.toString();
        j[u"provider_in_mirror"_s] = row.providerInMirror;
        j[u"version_in_mirror"_s] = row.versionInMirror;
        j[u"mirror_platforms"_s] = jsonStrings(row.mirrorPlatforms);
        QJsonArray cells;
        for (const LockCheckCell &c : row.cells) {
            QJsonObject cj;
            cj[u"platform"_s] = c.platform.toString();
            cj[u"verdict"_s] = toString(c.verdict());
            cj[u"reason"_s] = c.detail.reason;
            QJsonArray matched;
            for (HashMatch m : c.detail.matched)
                matched.append(toString(m));
            cj[u"matched"_s] = matched;
            cj[u"archive"_s] = c.archivePath;
            if (c.hashes) {
                cj[u"h1"_s] = c.hashes->h1Extracted.toString();
                if (c.hashes->kind == PackageHashes::Kind::Zip) {
                    cj[u"h1_zip"_s] = c.hashes->h1Zip.toString();
                    cj[u"zh"_s] = c.hashes->zh.toString();
                }
            }
            cells.append(cj);
        }
        j[u"cells"_s] = cells;
        rows.append(j);
    }
    o[u"providers"_s] = rows;
    QJsonObject summary;
    for (Verdict v : {Verdict::Verified, Verdict::Mismatch, Verdict::Unverified, Verdict::Missing, Verdict::Error, Verdict::Refused})
        summary[toString(v)] = r.count(v);
    o[u"summary"_s] = summary;
    o[u"findings"_s] = r.hasFindings();
    return o;
}

// ---- configurations (lock init, --config) ------------------------------------------------------

/// Reads the requirements of the configuration in `dir`; prints its diagnostics. nullopt on errors.
std::optional<ConfigRequirements> loadConfig(const QString &dir, LockFlavour flavour)
{
    ConfigReadOptions o;
    o.flavour = flavour;
    ConfigRequirements r = readConfigRequirements(dir, o);
    for (const ConfigDiagnostic &d : r.diagnostics)
        err() << d.toString() << '\n';
    if (r.hasErrors()) {
        err() << dir << ": the configuration has errors\n";
        return std::nullopt;
    }
    return r;
}

void printSelections(const QList<lockinit::SelectionNote> &notes)
{
    for (const lockinit::SelectionNote &n : notes) {
        const QString c = n.constraints.isEmpty() ? QString() : u" (%1)"_s.arg(n.constraints.toString());
        switch (n.kind) {
        case lockinit::SelectionNote::Kind::Selected:
            out() << n.provider.toString() << ": selected " << n.version.toString() << c << '\n';
            break;
        case lockinit::SelectionNote::Kind::Kept: out() << n.provider.toString() << ": locked " << n.version.toString() << c << '\n'; break;
        case lockinit::SelectionNote::Kind::NotLocked: out() << n.provider.toString() << ": note: " << n.message << '\n'; break;
        default: err() << n.provider.toString() << ": error: " << n.message << '\n'; break;
        }
    }
}

/// add-hashes --config: terraform providers lock with an existing lock file. Returns an exit code.
int addHashesWithConfig(const QString &path, const LockFile &lock, const QString &mirrorLocation, const QString &configDir,
                        const lockedit::MirrorHashOptions &hashOptions, const HashRunOptions &hashing)
{
    const std::optional<ConfigRequirements> config = loadConfig(configDir, lock.flavour);
    if (!config)
        return ExitUsage;
    LockMirrorRequest request;
    request.providers = lockedVersions(lock, hashOptions.providers).providers;
    for (const ConfigProviderRequirement &r : config->providers)
        if (!request.providers.contains(r.address) && providerWanted(hashOptions.providers, r.address))
            request.providers.append(r.address);
    request.choose = [&](const ProviderAddress &provider, const QList<Version> &listed) {
        return lockinit::versionsToRead(*config, &lock, provider, listed);
    };
    const std::optional<LockMirror> mirror = openLockMirror(u"provender lock add-hashes"_s, mirrorLocation, request);
    if (!mirror)
        return ExitUsage;
    if (selectedVersionUnusable(*mirror, path, u"not changed"_s))
        return ExitFindings;
    lockinit::InitOptions o;
    o.platforms = hashOptions.platforms;
    o.includeZh = hashOptions.includeZh;
    o.providers = hashOptions.providers;
    const auto update = [&](const lockinit::InitOptions &options) {
        return lockinit::updateFromConfig(lock, *config, mirror->catalog, options);
    };
    prehash(u"provender lock add-hashes"_s, hashing, *mirror, o, update);
    const Result<lockinit::InitResult> r = update(o);
    if (!r.ok()) {
        err() << "provender lock add-hashes: " << r.error().message << '\n';
        return ExitUsage;
    }
    printSelections(r->selections);
    printNotes(r->hashNotes, QString());
    if (r->hasProblems()) {
        err() << path << ": not changed: some providers have no suitable version or package in the mirror\n";
        return ExitFindings;
    }
    return saveEdited(path, lock, r->document);
}

/// The registry client's options shared by `lock add-hashes --registry` and `lock diff --registry`:
/// an extra CA file, pinned signing keys, and the CLI config's `host` blocks (as tofu reads them).
bool readRegistryOptions(const QString &command, const QString &caFile, const QString &pinnedKeysFile, RegistryOptions *ro,
                         SignatureOptions *signature)
{
    if (!caFile.isEmpty()) {
        const Result<QList<QSslCertificate>> certs = readRegistryCaFile(caFile);
        if (!certs.ok()) {
            err() << "provender lock " << command << ": " << certs.error().message << '\n';
            return false;
        }
        ro->http.caCertificates = *certs;
    }
    if (!pinnedKeysFile.isEmpty()) {
        const Result<QByteArray> keys = readPinnedKeysFile(pinnedKeysFile);
        if (!keys.ok()) {
            err() << "provender lock " << command << ": " << keys.error().message << '\n';
            return false;
        }
        signature->pinnedKeys << *keys;
    }
    QStringList warnings;
    ro->serviceOverrides = providerServicesFromEnvironment(ro->environment, QString(), &warnings);
    for (const QString &w : warnings)
        err() << "provender lock " << command << ": CLI config: " << w << '\n';
    return true;
}

/// add-hashes --registry: `terraform providers lock` against the providers' origin registries.
/// Each locked version's archives for the platforms are pulled (every one proven against the
/// release's signed SHA256SUMS, model/registry/MirrorPull.h) into a private temporary mirror;
/// then, as terraform's installer records them, the h1: of each extracted package and every zh:
/// the signed SHA256SUMS vouches for are added. Nothing is written unless every platform of every
/// provider was pulled and proven.
int addHashesFromRegistry(const QString &path, const LockFile &lock, const lockedit::MirrorHashOptions &hashOptions,
                          const HashRunOptions &hashing, const QString &caFile, const QString &pinnedKeysFile)
{
    RegistryOptions ro;
    PullOptions po;
    po.platforms = hashOptions.platforms;
    if (!readRegistryOptions(u"add-hashes"_s, caFile, pinnedKeysFile, &ro, &po.signature))
        return ExitUsage;
    QList<PullRequest> requests;
    for (const ProviderLock &p : lock.providers)
        if (hashOptions.providers.isEmpty() || hashOptions.providers.contains(p.address))
            requests << PullRequest{p.address, p.version, std::nullopt};
    if (requests.isEmpty()) {
        err() << "provender lock add-hashes: no locked provider to hash\n";
        return ExitUsage;
    }
    QTemporaryDir staging(QDir::tempPath() + u"/provender-lock-registry-XXXXXX"_s);
    if (!staging.isValid()) {
        err() << "provender lock add-hashes: cannot create a temporary directory: " << staging.errorString() << '\n';
        return ExitUsage;
    }
    po.destination = staging.path();
    RegistryClient client(ro);
    bool complete = true;
    const PullReport report = pullFromRegistry(requests, po, client, [&](const PulledArchive &a) {
        if (a.status == PulledArchive::Status::Fetched)
            return;
        complete = false;
        err() << toString(a.status) << ' ' << a.provider.toString() << ' ' << a.version.toString() << ' ' << a.platform.toString()
              << (a.reason.isEmpty() ? QString() : u": "_s + a.reason) << '\n';
    });
    for (const QString &e : report.errors)
        err() << "provender lock add-hashes: " << e << '\n';
    if (!complete || !report.errors.isEmpty() || report.cancelled) {
        err() << path << ": not changed: some packages could not be pulled and proven\n";
        return ExitFindings;
    }
    const std::optional<LockMirror> pulled = openLockMirror(u"provender lock add-hashes"_s, staging.path(), LockMirrorRequest());
    if (!pulled)
        return ExitUsage;
    lockedit::MirrorHashOptions h1Options = hashOptions;
    h1Options.includeZh = false; // the zh: come from the signed SHA256SUMS below (all platforms)
    // The h1: of all pulled archives in one engine run (--jobs); never through the hash cache: the
    // files are temporary.
    HashRunOptions noCache = hashing;
    noCache.useCache = false;
    const auto addHashes = [&](const lockedit::MirrorHashOptions &options) {
        return lockedit::addHashesFromMirror(lock, pulled->catalog, options);
    };
    prehash(u"provender lock add-hashes"_s, noCache, *pulled, h1Options, addHashes);
    Result<lockedit::MirrorEditResult> r = addHashes(h1Options);
    if (!r.ok()) {
        err() << "provender lock add-hashes: " << r.error().message << '\n';
        return ExitUsage;
    }
    printNotes(r->notes, QString());
    if (r->hasProblems()) {
        err() << path << ": not changed: some pulled packages could not be hashed\n";
        return ExitFindings;
    }
    LockFile document = r->document;
    bool refused = false;
    for (ProviderLock &p : document.providers) {
        if (!hashOptions.providers.isEmpty() && !hashOptions.providers.contains(p.address))
            continue;
        const QString sums = provenanceDirectory(staging.path(), p.address, p.version) + u"/SHA256SUMS"_s;
        QFile f(sums);
        if (!f.open(QIODevice::ReadOnly)) {
            err() << "provender lock add-hashes: the signed SHA256SUMS of " << p.address.toString() << ' ' << p.version.toString()
                  << " is missing: " << f.errorString() << '\n';
            return ExitFindings;
        }
        const QList<HashString> signedZh = sha256SumsHashes(f.readAll());
        p.hashes << signedZh;
        // The registry's `packages` (OpenTofu's registry): every platform's h1: and zh:, recorded as
        // tofu's installer records hashes ReportedByRegistry (docs/REGISTRY.md "packages"). Stricter
        // than tofu, which records them unchecked: each zh: must be one the signed SHA256SUMS lists,
        // and a pulled platform's listed h1: must be the one computed from its archive.
        for (const PulledArchive &a : report.archives) {
            if (a.provider != p.address || a.version != p.version || a.reported.isEmpty())
                continue;
            for (const RegistryPackage &pkg : a.reported) {
                for (const HashString &h : pkg.hashes) {
                    if (h.scheme() == HashString::Scheme::ZH && !signedZh.contains(h)) {
                        err() << "provender lock add-hashes: " << p.address.toString() << ' ' << p.version.toString()
                              << ": the registry reports " << h.toString() << " for " << pkg.platform.toString()
                              << ", which the signed SHA256SUMS does not list\n";
                        refused = true;
                    }
                }
                if (pkg.platform != a.platform)
                    continue;
                const bool listsH1 = std::any_of(pkg.hashes.cbegin(), pkg.hashes.cend(),
                                                 [](const HashString &h) { return h.scheme() == HashString::Scheme::H1; });
                if (!listsH1)
                    continue;
                const Result<PackageHashes> computed = hashZip(QDir(staging.path()).filePath(a.path));
                const bool matches = computed && std::any_of(pkg.hashes.cbegin(), pkg.hashes.cend(), [&](const HashString &h) {
                                         return h == computed->h1Extracted || (!computed->h1Zip.isNull() && h == computed->h1Zip);
                                     });
                if (!matches) {
                    err() << "provender lock add-hashes: " << p.address.toString() << ' ' << p.version.toString() << ' '
                          << a.platform.toString() << ": the registry reports an h1: that is not the archive's ("
                          << (computed ? computed->h1Extracted.toString() : computed.error().message) << ")\n";
                    refused = true;
                }
            }
            for (const RegistryPackage &pkg : a.reported)
                p.hashes << pkg.hashes;
        }
        p.normalizeHashes();
    }
    if (refused) {
        err() << path << ": not changed: the registry's reported hashes disagree with what it signed or served\n";
        return ExitFindings;
    }
    return saveEdited(path, lock, document);
}

/// Where each hash of the provider versions two lock files mention comes from, for lock diff: the
/// archives of a filesystem mirror (hashed in one engine run, plus the signed SHA256SUMS a pulled
/// mirror keeps) or of a network mirror (downloaded in one run and decided against its index, as
/// every lock command does). `pinnedKeys`: the file of keys the directory's SHA256SUMS must be
/// signed by. Prints warnings; nullopt when the mirror or the keys cannot be read.
std::optional<HashProvenanceIndex> mirrorProvenance(const QString &command, const QString &location, const LockFile &a, const LockFile &b,
                                                    const HashRunOptions &hashing, const QString &pinnedKeys)
{
    const QList<HashProvenanceIndex::Wanted> wanted = HashProvenanceIndex::wantedFor(a, b);
    const std::optional<LockMirror> mirror = openLockMirror(u"provender lock diff"_s, location, provenanceVersions(wanted));
    if (!mirror)
        return std::nullopt;
    SignatureOptions signature; // for the signed SHA256SUMS a pulled mirror keeps
    HashRunOptions options;     // a network mirror's downloads use its own settings
    if (!mirror->network) {
        RegistryOptions unused;
        if (!pinnedKeys.isEmpty() && !readRegistryOptions(u"diff"_s, {}, pinnedKeys, &unused, &signature))
            return std::nullopt;
        options = hashing;
        options.progress = hashingProgress();
    }
    const LockProvenance built = buildLockProvenance(*mirror, wanted, options, signature);
    if (!mirror->network)
        clearHashingProgress();
    printCacheWarning(command, built.hashing.cacheWarning);
    for (const QString &f : built.index.failures())
        err() << "warning: could not hash " << f << '\n';
    for (const QString &w : std::as_const(built.warnings))
        err() << "warning: " << w << '\n';
    return built.index;
}

} // namespace

int runLockFmt(const QStringList &args)
{
    Prologue p(u"lock fmt"_s, helpText(u"lock-fmt"_s));
    QCommandLineParser &parser = p.parser();
    const QCommandLineOption check(u"check"_s, u"Only check: exit 1 when the file is not in canonical form."_s);
    parser.addOptions({check, kFlavour});
    p.positional(u"FILE"_s, u"The .terraform.lock.hcl to format."_s, u"FILE"_s);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1)
        return p.usage(u"give exactly one lock file"_s);
    std::optional<LockFlavour> flavour;
    if (parser.isSet(kFlavour)) {
        flavour = lockFlavourFromString(parser.value(kFlavour));
        if (!flavour)
            return p.usage(u"--flavour must be tofu or terraform"_s);
    }
    const QString path = parser.positionalArguments().constFirst();
    const QByteArray original = readAll(path);
    const std::optional<LockParseResult> parsed = loadLock(path);
    if (!parsed)
        return ExitUsage;
    const LockFlavour target = flavour.value_or(parsed->document.flavour);
    const QByteArray canonical = writeLockFile(parsed->document, target);
    if (parser.isSet(check)) {
        if (canonical == original)
            return ExitOk;
        err() << path << ": not in canonical form\n";
        out() << unifiedDiff(original, canonical, path, path + u" (canonical)"_s);
        return ExitFindings;
    }
    if (canonical == original)
        return ExitOk;
    warnAboutDrops(path, parsed->document);
    return save(path, parsed->document, target) ? ExitOk : ExitUsage;
}

int runLockDiff(const QStringList &args)
{
    Prologue p(u"lock diff"_s, helpText(u"lock-diff"_s));
    QCommandLineParser &parser = p.parser();
    parser.addOption(kMirror);
    const QCommandLineOption registry(u"registry"_s,
                                      u"Name the platform of each zh: from the releases' signed SHA256SUMS, "
                                      "fetched from the providers' origin registries."_s);
    parser.addOptions({registry, kCaFile, kPinnedKeys, kJson});
    addHashingOptions(parser);
    p.positional(u"A B"_s, u"The old and the new lock file."_s, u"A B"_s);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 2)
        return p.usage(u"give two lock files"_s);
    const QString pathA = parser.positionalArguments().at(0);
    const QString pathB = parser.positionalArguments().at(1);
    HashRunOptions hashing;
    if (!readHashingOptions(parser, args.value(0), &hashing))
        return ExitUsage;
    const std::optional<LockParseResult> a = loadLock(pathA);
    const std::optional<LockParseResult> b = loadLock(pathB);
    if (!a || !b)
        return ExitUsage;
    std::optional<HashProvenanceIndex> provenance;
    if (parser.isSet(kMirror)) {
        provenance = mirrorProvenance(args.value(0), parser.value(kMirror), a->document, b->document, hashing, parser.value(kPinnedKeys));
        if (!provenance)
            return ExitUsage;
    }
    if (parser.isSet(registry)) {
        RegistryOptions ro;
        SignatureOptions signature;
        if (!readRegistryOptions(u"diff"_s, parser.value(kCaFile), parser.value(kPinnedKeys), &ro, &signature))
            return ExitUsage;
        if (!provenance)
            provenance = HashProvenanceIndex();
        RegistryClient client(ro);
        for (const QString &w :
             addRegistryProvenance(*provenance, client, HashProvenanceIndex::wantedFor(a->document, b->document), signature).warnings)
            err() << "warning: " << w << '\n';
    }
    const LockDiff diff = diffLockFiles(a->document, b->document, provenance ? &*provenance : nullptr);
    const QString text = unifiedDiff(readAll(pathA), readAll(pathB), pathA, pathB);
    if (parser.isSet(kJson)) {
        out() << QJsonDocument(diffJson(diff, text)).toJson(QJsonDocument::Indented);
    } else {
        printDiffText(diff);
        if (!text.isEmpty())
            out() << '\n' << text;
    }
    return diff.isEmpty() ? ExitOk : ExitFindings;
}

int runLockCheck(const QStringList &args)
{
    Prologue p(u"lock check"_s, helpText(u"lock-check"_s));
    QCommandLineParser &parser = p.parser();
    parser.addOptions({kMirror, kPlatform, kJson});
    addHashingOptions(parser);
    p.positional(u"FILE"_s, u"The .terraform.lock.hcl to check."_s, u"FILE"_s);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(kMirror))
        return p.usage(u"give one lock file and --mirror DIR|URL"_s);
    LockCheckOptions options;
    if (!parsePlatforms(parser.values(kPlatform), &options.platforms))
        return ExitUsage;
    HashRunOptions hashing;
    if (!readHashingOptions(parser, args.value(0), &hashing))
        return ExitUsage;
    const std::optional<LockParseResult> lock = loadLock(parser.positionalArguments().constFirst());
    if (!lock)
        return ExitUsage;
    const std::optional<LockMirror> mirror =
        openLockMirror(u"provender lock check"_s, parser.value(kMirror), lockedVersions(lock->document));
    if (!mirror)
        return ExitUsage;
    const auto check = [&](const LockCheckOptions &o) { return checkLockAgainstMirror(lock->document, mirror->catalog, o); };
    prehash(args.value(0), hashing, *mirror, options, check);
    const LockCheckResult result = check(options);
    if (parser.isSet(kJson))
        out() << QJsonDocument(checkJson(result)).toJson(QJsonDocument::Indented);
    else
        printCheckText(result);
    return result.hasFindings() ? ExitFindings : ExitOk;
}

int runLockAddHashes(const QStringList &args)
{
    Prologue p(u"lock add-hashes"_s, helpText(u"lock-add-hashes"_s));
    QCommandLineParser &parser = p.parser();
    parser.addOptions({kMirror, kPlatform, kZh, kProvider, kConfig});
    const QCommandLineOption registry(u"registry"_s,
                                      u"Hash the packages of the providers' origin registries instead of a mirror, like "
                                      "`terraform providers lock -platform=P`: h1: of each package and every zh: of the "
                                      "release's signed SHA256SUMS."_s);
    parser.addOptions({registry, kCaFile, kPinnedKeys});
    addHashingOptions(parser);
    p.positional(u"FILE"_s, u"The .terraform.lock.hcl to update."_s, u"FILE"_s);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1 || parser.isSet(kMirror) == parser.isSet(registry) || !parser.isSet(kPlatform)
        || (parser.isSet(registry) && parser.isSet(kConfig)))
        return p.usage(u"give one lock file, --mirror DIR|URL or --registry, and at least one --platform"_s);
    const QString path = parser.positionalArguments().constFirst();
    lockedit::MirrorHashOptions options;
    HashRunOptions hashing;
    const std::optional<LockParseResult> lock = readLockEditInputs(parser, args.value(0), path, &options, &hashing);
    if (!lock)
        return ExitUsage;
    if (parser.isSet(registry))
        return addHashesFromRegistry(path, lock->document, options, hashing, parser.value(kCaFile), parser.value(kPinnedKeys));
    if (parser.isSet(kConfig))
        return addHashesWithConfig(path, lock->document, parser.value(kMirror), parser.value(kConfig), options, hashing);
    const std::optional<LockMirror> mirror =
        openLockMirror(u"provender lock add-hashes"_s, parser.value(kMirror), lockedVersions(lock->document, options.providers));
    if (!mirror)
        return ExitUsage;
    const auto addHashes = [&](const lockedit::MirrorHashOptions &o) {
        return lockedit::addHashesFromMirror(lock->document, mirror->catalog, o);
    };
    prehash(args.value(0), hashing, *mirror, options, addHashes);
    const Result<lockedit::MirrorEditResult> r = addHashes(options);
    if (!r.ok()) {
        err() << "provender lock add-hashes: " << r.error().message << '\n';
        return ExitUsage;
    }
    printNotes(r->notes, QString());
    if (r->hasProblems()) {
        err()
            << path
            << ": not changed: some packages are missing from the mirror, could not be hashed, or terraform would refuse to install them\n";
        return ExitFindings;
    }
    return saveEdited(path, lock->document, r->document);
}

int runLockUpgrade(const QStringList &args)
{
    Prologue p(u"lock upgrade"_s, helpText(u"lock-upgrade"_s));
    QCommandLineParser &parser = p.parser();
    parser.addOptions({kMirror, kProvider, kPlatform, kZh, kConfig});
    addHashingOptions(parser);
    p.positional(u"FILE"_s, u"The .terraform.lock.hcl to update."_s, u"FILE"_s);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(kMirror))
        return p.usage(u"give one lock file and --mirror DIR|URL"_s);
    const QString path = parser.positionalArguments().constFirst();
    lockedit::UpgradeOptions options;
    HashRunOptions hashing;
    const std::optional<LockParseResult> lock = readLockEditInputs(parser, args.value(0), path, &options, &hashing);
    if (!lock)
        return ExitUsage;
    LockFile document = lock->document;
    if (parser.isSet(kConfig)) {
        // The configuration's constraints replace the recorded ones (and are written).
        const std::optional<ConfigRequirements> config = loadConfig(parser.value(kConfig), document.flavour);
        if (!config)
            return ExitUsage;
        QList<lockinit::SelectionNote> notes;
        document = lockinit::withConfigConstraints(document, *config, &options.providers, &notes);
        printSelections(notes);
        if (options.providers.isEmpty()) {
            out() << "no locked provider is required by the configuration\n";
            return ExitOk;
        }
    }
    // After the configuration: a broken one fails before any request, and only the providers it
    // requires are listed. Of a network mirror, only the <version>.json of the version selected
    // from each index.json is read (see selectedVersionUnusable).
    const std::optional<LockMirror> mirror =
        openLockMirror(u"provender lock upgrade"_s, parser.value(kMirror), upgradeVersions(document, options.providers));
    if (!mirror)
        return ExitUsage;
    if (selectedVersionUnusable(*mirror, path, u"not changed"_s))
        return ExitFindings;
    const auto upgrade = [&](const lockedit::UpgradeOptions &o) { return lockedit::upgradeFromMirror(document, mirror->catalog, o); };
    prehash(args.value(0), hashing, *mirror, options, upgrade);
    const Result<lockedit::UpgradeResult> r = upgrade(options);
    if (!r.ok()) {
        err() << "provender lock upgrade: " << r.error().message << '\n';
        return ExitUsage;
    }
    for (const lockedit::UpgradeNote &n : r->notes) {
        switch (n.kind) {
        case lockedit::UpgradeNote::Kind::Upgraded:
            out() << n.provider.toString() << ": " << n.from.toString() << " -> " << n.to.toString() << '\n';
            printNotes(n.hashNotes, u"    "_s);
            break;
        case lockedit::UpgradeNote::Kind::UpToDate:
            out() << n.provider.toString() << ": " << n.from.toString() << " is the newest the mirror offers\n";
            break;
        case lockedit::UpgradeNote::Kind::NotInMirror:
            out() << n.provider.toString() << ": the mirror has no version that meets the constraints\n";
            break;
        }
    }
    if (r->hasProblems()) {
        err() << path << ": not changed: some packages of the new versions could not be hashed\n";
        return ExitFindings;
    }
    if (parser.isSet(kConfig)) {
        // upgrade never downgrades: a locked version the configuration's constraints exclude, with
        // nothing newer that they allow, stays an error (as in terraform without -upgrade).
        bool outside = false;
        for (const ProviderLock &p : r->document.providers)
            if (options.providers.contains(p.address) && !p.constraints.allows(p.version)) {
                err() << "provender lock upgrade: locked provider " << p.address.toString() << ' ' << p.version.toString()
                      << " does not match configured version constraint " << p.constraints.toString()
                      << ", and the mirror has no newer version that does\n";
                outside = true;
            }
        if (outside) {
            err() << path << ": not changed\n";
            return ExitFindings;
        }
    }
    if (!r->changed() && writeLockFile(r->document) == writeLockFile(lock->document))
        return ExitOk;
    warnAboutDrops(path, lock->document);
    return save(path, r->document, r->document.flavour) ? ExitOk : ExitUsage;
}

int runLockInit(const QStringList &args)
{
    Prologue p(u"lock init"_s, helpText(u"lock-init"_s));
    QCommandLineParser &parser = p.parser();
    parser.addOptions({kConfig, kMirror, kPlatform, kZh, kProvider});
    const QCommandLineOption flavour(u"flavour"_s,
                                     u"terraform (default: .tf/.tf.json files, registry.terraform.io, terraform's header) or tofu "
                                     "(also .tofu/.tofu.json files, registry.opentofu.org, tofu's header)."_s,
                                     u"F"_s);
    parser.addOption(flavour);
    const QCommandLineOption output(QStringList{u"o"_s, u"output"_s}, u"Write here (default: DIR/.terraform.lock.hcl)."_s, u"FILE"_s);
    parser.addOption(output);
    const QCommandLineOption force(u"force"_s, u"Replace an existing lock file."_s);
    parser.addOption(force);
    addHashingOptions(parser);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (!parser.positionalArguments().isEmpty() || !parser.isSet(kConfig) || !parser.isSet(kMirror) || !parser.isSet(kPlatform))
        return p.usage(u"give --config DIR, --mirror DIR|URL and at least one --platform"_s);
    lockinit::InitOptions options;
    if (parser.isSet(flavour)) {
        const std::optional<LockFlavour> f = lockFlavourFromString(parser.value(flavour));
        if (!f)
            return p.usage(u"--flavour must be tofu or terraform"_s);
        options.flavour = *f;
    }
    options.includeZh = parser.isSet(kZh);
    if (!parsePlatforms(parser.values(kPlatform), &options.platforms))
        return ExitUsage;
    if (!parseProviders(parser.values(kProvider), options.flavour, &options.providers))
        return ExitUsage;
    HashRunOptions hashing;
    if (!readHashingOptions(parser, args.value(0), &hashing))
        return ExitUsage;
    const QString configDir = parser.value(kConfig);
    const QString path = parser.isSet(output) ? parser.value(output) : QDir(configDir).filePath(u".terraform.lock.hcl"_s);
    if (QFileInfo::exists(path) && !parser.isSet(force)) {
        err() << path << ": already exists (use --force to replace it, or `provender lock add-hashes " << path << " --config " << configDir
              << "` to update it)\n";
        return ExitUsage;
    }
    const std::optional<ConfigRequirements> config = loadConfig(configDir, options.flavour);
    if (!config)
        return ExitUsage;
    LockMirrorRequest request;
    for (const ConfigProviderRequirement &r : config->providers)
        if (providerWanted(options.providers, r.address))
            request.providers << r.address;
    request.choose = [&](const ProviderAddress &provider, const QList<Version> &listed) {
        return lockinit::versionsToRead(*config, nullptr, provider, listed);
    };
    const std::optional<LockMirror> mirror = openLockMirror(u"provender lock init"_s, parser.value(kMirror), request);
    if (!mirror)
        return ExitUsage;
    if (selectedVersionUnusable(*mirror, path, u"not written"_s))
        return ExitFindings;
    const auto init = [&](const lockinit::InitOptions &o) { return lockinit::initFromMirror(*config, mirror->catalog, o); };
    prehash(args.value(0), hashing, *mirror, options, init);
    const Result<lockinit::InitResult> r = init(options);
    if (!r.ok()) {
        err() << "provender lock init: " << r.error().message << '\n';
        return ExitUsage;
    }
    printSelections(r->selections);
    printNotes(r->hashNotes, u"    "_s);
    if (r->hasProblems()) {
        err() << path << ": not written: some providers have no suitable version or package in the mirror\n";
        return ExitFindings;
    }
    return save(path, r->document, options.flavour) ? ExitOk : ExitUsage;
}

// ---- lock merge ---------------------------------------------------------------------------------

namespace {

/// Runs git in `dir`; false (with the reason in *output) when it cannot start or fails.
bool runGit(const QStringList &args, const QString &dir, QString *output)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(u"git"_s, args);
    if (!p.waitForStarted(10000)) {
        *output = u"cannot run git: "_s + p.errorString();
        return false;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(1000);
        *output = u"git did not finish"_s;
        return false;
    }
    *output = QString::fromLocal8Bit(p.exitCode() == 0 ? p.readAllStandardOutput() : p.readAllStandardError()).trimmed();
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

/// The command git should run: "provender" when that is this program on PATH, else our path.
QString selfCommand()
{
    const QString self = QFileInfo(QCoreApplication::applicationFilePath()).canonicalFilePath();
    const QString onPath = QStandardPaths::findExecutable(u"provender"_s);
    if (!onPath.isEmpty() && QFileInfo(onPath).canonicalFilePath() == self)
        return u"provender"_s;
    QString quoted = self;
    quoted.replace(u'\'', u"'\\''"_s);
    return u"'"_s + quoted + u"'"_s;
}

/// `provender lock merge --install`: the driver in the repository's config, the attribute in its
/// top-level .gitattributes.
int installMergeDriver()
{
    QString top;
    if (!runGit({u"rev-parse"_s, u"--show-toplevel"_s}, QDir::currentPath(), &top)) {
        err() << "provender lock merge --install: not in a git work tree (" << top << ")\n";
        return ExitUsage;
    }
    const QString driver = selfCommand() + u" lock merge %O %A %B"_s;
    QString out1;
    if (!runGit({u"config"_s, u"merge.tflock.name"_s, u"Provender: merge .terraform.lock.hcl by meaning"_s}, top, &out1)
        || !runGit({u"config"_s, u"merge.tflock.driver"_s, driver}, top, &out1)) {
        err() << "provender lock merge --install: git config failed: " << out1 << '\n';
        return ExitUsage;
    }
    const QString attributesPath = top + u"/.gitattributes"_s;
    const QByteArray line = ".terraform.lock.hcl merge=tflock";
    QByteArray attributes;
    if (QFileInfo::exists(attributesPath)) {
        QFile f(attributesPath);
        if (!f.open(QIODevice::ReadOnly)) {
            err() << attributesPath << ": " << f.errorString() << '\n';
            return ExitUsage;
        }
        attributes = f.readAll();
    }
    bool present = false;
    for (const QByteArray &l : attributes.split('\n'))
        present = present || l.trimmed() == line;
    if (!present) {
        if (!attributes.isEmpty() && !attributes.endsWith('\n'))
            attributes += '\n';
        attributes += line + '\n';
        QSaveFile f(attributesPath);
        if (!f.open(QIODevice::WriteOnly) || f.write(attributes) != attributes.size() || !f.flush() || !f.commit()) {
            err() << attributesPath << ": " << f.errorString() << '\n';
            return ExitUsage;
        }
    }
    out() << "git config merge.tflock.driver \"" << driver << "\"\n"
          << attributesPath << ": " << (present ? "already has " : "added ") << line << '\n'
          << "Commit .gitattributes so that everyone's clone uses the driver (each clone needs the git config once).\n";
    return ExitOk;
}

/// One input, or nullopt (after printing why) when it cannot be read or merged.
std::optional<lockmerge::MergeInput> readMergeSide(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        err() << path << ": error: " << (QFileInfo::exists(path) ? f.errorString() : u"no such file"_s) << '\n';
        return std::nullopt;
    }
    const QByteArray bytes = f.readAll();
    lockmerge::MergeInput in = lockmerge::readMergeInput(bytes, path);
    for (const LockDiagnostic &d : in.errors)
        err() << d.toString(path) << '\n';
    if (!in.ok()) {
        err() << path << ": cannot merge a lock file with errors\n";
        return std::nullopt;
    }
    for (const DroppedContent &d : in.dropped) {
        QString text = d.text;
        text.replace(u'\n', u' ');
        if (text.size() > 72)
            text = text.left(69) + u"..."_s;
        err() << path << ':' << d.range.line << ": warning: the merged file does not keep this " << toString(d.kind) << ": " << text
              << '\n';
    }
    return in;
}

} // namespace

int runLock(const QStringList &args)
{
    // `provender lock`, `provender lock --help`, or an unknown subcommand: the list of subcommands.
    const QString sub = args.value(1);
    const bool help = sub.isEmpty() || sub == u"--help"_s || sub == u"-h"_s || sub == u"help"_s;
    QTextStream &o = help ? out() : err();
    if (!help)
        o << "provender lock: unknown subcommand '" << sub << "'\n\n";
    o << "Usage: provender lock <subcommand> [options] ...\n\nSubcommands:\n";
    for (const Command &c : commands()) {
        const QString name = QString::fromLatin1(c.name);
        if (name.startsWith(u"lock "_s))
            o << "  " << name.mid(5).leftJustified(12) << QString::fromLatin1(c.summary) << '\n';
    }
    o << "\nRun 'provender lock <subcommand> --help' for its options. docs/LOCKFILES.md describes them all.\n";
    return help ? ExitOk : ExitUsage;
}

int runLockMerge(const QStringList &args)
{
    Prologue p(u"lock merge"_s, helpText(u"lock-merge"_s));
    QCommandLineParser &parser = p.parser();
    const QCommandLineOption output({u"o"_s, u"output"_s}, u"Write the result to OUT instead of OURS."_s, u"OUT"_s);
    const QCommandLineOption install(u"install"_s,
                                     u"Set up the current git repository: merge.tflock.driver in its config and "
                                     ".terraform.lock.hcl merge=tflock in its .gitattributes."_s);
    const QCommandLineOption diff3(u"diff3"_s, u"Conflict regions also show the base's block (||||||| base)."_s);
    const QCommandLineOption gui(u"gui"_s, u"Open the three-way merge window instead (for git mergetool)."_s);
    parser.addOptions({output, install, diff3, gui});
    p.positional(u"BASE OURS THEIRS"_s, u"The common ancestor, our version (the result goes here), their version."_s,
                 u"BASE OURS THEIRS"_s);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.isSet(install)) {
        if (!parser.positionalArguments().isEmpty()) {
            err() << "provender lock merge --install: takes no files\n";
            return ExitUsage;
        }
        return installMergeDriver();
    }
    if (parser.isSet(gui)) {
        err() << "provender lock merge --gui: the window needs the graphical program (run provender lock merge --gui ... directly)\n";
        return ExitUsage;
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() != 3)
        return p.usage(u"give three lock files: BASE OURS THEIRS"_s);
    const std::optional<lockmerge::MergeInput> base = readMergeSide(files.at(0));
    const std::optional<lockmerge::MergeInput> ours = readMergeSide(files.at(1));
    const std::optional<lockmerge::MergeInput> theirs = readMergeSide(files.at(2));
    if (!base || !ours || !theirs) {
        err() << "provender lock merge: nothing written\n";
        return ExitUsage;
    }
    const lockmerge::MergeResult result = lockmerge::mergeLockFiles(*base, *ours, *theirs);
    lockmerge::WriteOptions options;
    options.diff3 = parser.isSet(diff3);
    const QByteArray bytes = result.bytes(options);
    const QString target = parser.isSet(output) ? parser.value(output) : files.at(1);
    if (!(target == files.at(1) && readAll(target) == bytes)) {
        const Result<void> saved = saveBytesAtomically(bytes, target);
        if (!saved.ok()) {
            err() << "provender lock merge: " << saved.error().message << '\n';
            return ExitUsage;
        }
    }
    for (const QString &n : result.noteLines())
        err() << "provender lock merge: note: " << n << '\n';
    const QStringList conflicts = result.conflictLines();
    for (const QString &c : conflicts)
        err() << "provender lock merge: conflict: " << c << '\n';
    if (!conflicts.isEmpty()) {
        err() << "provender lock merge: " << conflicts.size() << (conflicts.size() == 1 ? " conflict" : " conflicts") << " marked in "
              << target << '\n';
        return ExitFindings;
    }
    return ExitOk;
}

} // namespace provender::cli
