// provender bundle create | verify | import | recover: offline mirror bundles (docs/BUNDLES.md).
//
//   provender bundle create OUT --mirror DIR (--lock FILE... --platform P... | --all) [--format F]
//   provender bundle verify BUNDLE [--json] [--jobs N]
//   provender bundle import BUNDLE --into DIR [--dry-run] [--replace] [--allow-unverified] [--json]
//   provender bundle recover DIR

#include "app/cli/Cli.h"
#include "app/cli/Commands.h"
#include "app/cli/HashingOptions.h"
#include "app/cli/PinnedKeysOption.h"
#include "app/cli/Prologue.h"
#include "app/cli/VerdictJson.h"
#include "model/bundle/BundleImport.h"
#include "model/bundle/BundleMirror.h"
#include "model/bundle/BundleWriter.h"
#include "model/core/SizeFormat.h"
#include "model/lockfile/LockAnchors.h"
#include "model/mirror/FileSystemMirror.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <unistd.h>

namespace provender::cli {

namespace {

/// A progress line on an interactive terminal (never with --json).
class ProgressLine
{
public:
    explicit ProgressLine(bool enabled) : m_enabled(enabled && ::isatty(STDERR_FILENO) == 1) { m_timer.start(); }
    ~ProgressLine()
    {
        if (m_enabled && m_shown)
            err() << "\r\033[K" << Qt::flush;
    }
    BundleProgress callback()
    {
        if (!m_enabled)
            return {};
        return [this](BundleStage stage, qint64 done, qint64 total) {
            if (m_timer.elapsed() >= 200 && total > 0) {
                m_timer.restart();
                m_shown = true;
                err() << "\r" << toString(stage) << ": " << (done * 100 / total) << "% " << Qt::flush;
            }
            return true;
        };
    }

private:
    bool m_enabled;
    bool m_shown = false;
    QElapsedTimer m_timer;
};

QString size(qint64 bytes)
{
    return formatDataSize(bytes);
}

bool parseBytes(const QString &text, qint64 *out)
{
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    if (!ok || v <= 0)
        return false;
    *out = v;
    return true;
}

/// --max-entry-bytes / --max-total-bytes, shared by verify and import.
void addLimitOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("max-entry-bytes"),
                      QStringLiteral("Refuse an entry that inflates to more than N bytes (default 4 GiB)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("max-total-bytes"),
                      QStringLiteral("Refuse a bundle that inflates to more than N bytes in all (default: 32 times the bundle's "
                                     "size, at least 4 GiB; for import also at most the target's free space minus 1 GiB)."),
                      QStringLiteral("N")});
}

bool readLimits(const QCommandLineParser &parser, const char *command, BundleLimits *limits)
{
    for (const auto &[name, field] : {std::pair{QStringLiteral("max-entry-bytes"), &limits->maxEntryBytes},
                                      std::pair{QStringLiteral("max-total-bytes"), &limits->maxTotalBytes}}) {
        if (parser.isSet(name) && !parseBytes(parser.value(name), field)) {
            err() << "provender " << command << ": --" << name << " needs a positive number of bytes\n";
            return false;
        }
    }
    return true;
}

QJsonObject toJson(const BundleEntryProblem &p)
{
    return QJsonObject{
        {QStringLiteral("kind"), toString(p.kind)}, {QStringLiteral("entry"), p.entry}, {QStringLiteral("message"), p.message}};
}

QJsonObject toJson(const BundleFileCheck &f)
{
    QJsonObject o{{QStringLiteral("name"), f.name}, {QStringLiteral("status"), toString(f.status)}};
    insertIfNotEmpty(o, QStringLiteral("expected"), f.expected);
    insertIfNotEmpty(o, QStringLiteral("actual"), f.actual);
    return o;
}

QJsonObject toJson(const Anomaly &a)
{
    QJsonObject o{{QStringLiteral("kind"), toString(a.kind)}, {QStringLiteral("path"), a.path}, {QStringLiteral("message"), a.message}};
    if (a.location.isValid()) {
        o[QStringLiteral("line")] = a.location.line;
        o[QStringLiteral("column")] = a.location.column;
    }
    return o;
}

QJsonObject toJson(const BundleShortfall &s)
{
    QJsonObject o{{QStringLiteral("provider"), s.provider.toString()},
                  {QStringLiteral("version"), s.version.toString()},
                  {QStringLiteral("reason"), s.reason}};
    if (s.platform.isValid())
        o[QStringLiteral("platform")] = s.platform.toString();
    insertIfNotEmpty(o, QStringLiteral("lock_file"), s.lockFile);
    return o;
}

void printShortfalls(QTextStream &o, const QList<BundleShortfall> &missing)
{
    for (const BundleShortfall &s : missing) {
        o << "missing " << s.provider.toString() << ' ' << s.version.toString();
        if (s.platform.isValid())
            o << ' ' << s.platform.toString();
        o << ": " << s.reason;
        if (!s.lockFile.isEmpty())
            o << " (needed by " << s.lockFile << ')';
        o << '\n';
    }
}

void printProblems(QTextStream &o, const QList<BundleEntryProblem> &problems)
{
    for (const BundleEntryProblem &p : problems)
        o << (p.isFatal() ? "refused " : "ignored ") << p.entry << ": " << toString(p.kind) << ": " << p.message << '\n';
}

} // namespace

namespace {

/// What `bundle create` was asked for (its options read and checked).
struct CreateRequest
{
    QString outPath;
    QString mirror;
    bool all = false;
    QStringList locks;
    QList<Platform> platforms;
    BundleCreateOptions options;
    bool json = false;
};

void addCreateOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("mirror"), QStringLiteral("The source filesystem mirror."), QStringLiteral("DIR")});
    parser.addOption(
        {QStringLiteral("lock"), QStringLiteral("A lock file whose providers to bundle (repeatable)."), QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("platform"), QStringLiteral("A platform os_arch to bundle for the lock files (repeatable)."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("all"), QStringLiteral("Bundle every archive of the mirror.")});
    parser.addOption(
        {QStringLiteral("format"), QStringLiteral("tar.gz, tar.zst or zip (default: from OUT's name, else tar.gz)."), QStringLiteral("F")});
    parser.addOption({QStringLiteral("timestamp"),
                      QStringLiteral("Creation time for the manifest and every entry (ISO 8601), for reproducible bundles."),
                      QStringLiteral("TIME")});
    parser.addOption({QStringLiteral("level"), QStringLiteral("Compression level (gzip 1-9, zstd 1-19)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("no-zh"), QStringLiteral("Indexes list only h1: (as terraform providers mirror).")});
    addHashingOptions(parser);
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print a JSON report.")});
    parser.addPositionalArgument(QStringLiteral("out"), QStringLiteral("The bundle file to write."), QStringLiteral("OUT"));
}

/// --format, or the format OUT's name says; false (after saying why) when they disagree.
bool readCreateFormat(const QCommandLineParser &parser, const QString &outPath, BundleCreateOptions *options)
{
    const std::optional<BundleFormat> fromName = bundleFormatFromFileName(outPath);
    if (parser.isSet(QStringLiteral("format"))) {
        const std::optional<BundleFormat> f = bundleFormatFromString(parser.value(QStringLiteral("format")));
        if (!f || !isWritableBundleFormat(*f)) {
            err() << "provender bundle create: --format is tar.gz, tar.zst or zip\n";
            return false;
        }
        if (fromName && *fromName != *f) {
            err() << "provender bundle create: " << outPath << " does not end in ." << toString(*f) << '\n';
            return false;
        }
        options->format = *f;
    } else if (fromName) {
        if (!isWritableBundleFormat(*fromName)) {
            err() << "provender bundle create: bundles are written as .tar.gz, .tar.zst or .zip\n";
            return false;
        }
        options->format = *fromName;
    }
    return true;
}

/// --timestamp, --level, --no-zh and the hashing options; false (after saying why) on a bad value.
bool readCreateWriting(const QCommandLineParser &parser, BundleCreateOptions *options)
{
    if (parser.isSet(QStringLiteral("timestamp"))) {
        const QDateTime t = QDateTime::fromString(parser.value(QStringLiteral("timestamp")), Qt::ISODate);
        if (!t.isValid()) {
            err() << "provender bundle create: --timestamp needs an ISO 8601 time, e.g. 2024-01-01T00:00:00Z\n";
            return false;
        }
        options->timestamp = t;
    }
    if (parser.isSet(QStringLiteral("level"))) {
        const std::optional<int> level =
            wholeNumberOption(parser, QStringLiteral("provender bundle create"), QStringLiteral("level"), 1, "a positive number");
        if (!level)
            return false;
        options->compressionLevel = *level;
    }
    HashRunOptions hashing;
    if (!readHashingOptions(parser, QStringLiteral("provender bundle create"), &hashing))
        return false;
    options->jobs = hashing.jobs;
    options->useCache = hashing.useCache;
    options->withZh = !parser.isSet(QStringLiteral("no-zh"));
    return true;
}

/// Every option of `bundle create`; false (after saying why) on bad usage.
bool readCreateRequest(const QCommandLineParser &parser, CreateRequest *request)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || !parser.isSet(QStringLiteral("mirror"))) {
        err() << "provender bundle create: give OUT and --mirror DIR\n";
        return false;
    }
    request->outPath = positional.first();
    request->mirror = parser.value(QStringLiteral("mirror"));
    request->all = parser.isSet(QStringLiteral("all"));
    request->locks = parser.values(QStringLiteral("lock"));
    if (request->all == !request->locks.isEmpty()) {
        err() << "provender bundle create: give either --all or --lock FILE... with --platform P...\n";
        return false;
    }
    for (const QString &p : parser.values(QStringLiteral("platform"))) {
        Result<Platform> platform = Platform::parse(p);
        if (!platform) {
            err() << "provender bundle create: invalid platform \"" << p << "\": " << platform.error().message << '\n';
            return false;
        }
        request->platforms.append(platform.value());
    }
    if (!request->locks.isEmpty() && request->platforms.isEmpty()) {
        err() << "provender bundle create: --lock needs at least one --platform\n";
        return false;
    }
    request->json = parser.isSet(QStringLiteral("json"));
    return readCreateFormat(parser, request->outPath, &request->options) && readCreateWriting(parser, &request->options);
}

void printCreateReport(const BundleCreateReport &r, bool json)
{
    if (json) {
        QJsonObject o{{QStringLiteral("path"), r.path},
                      {QStringLiteral("format"), toString(r.format)},
                      {QStringLiteral("file_size"), double(r.fileSize)},
                      {QStringLiteral("content_bytes"), double(r.contentBytes)},
                      {QStringLiteral("files"), QJsonArray::fromStringList(r.files)},
                      {QStringLiteral("manifest"), QJsonDocument::fromJson(renderBundleManifest(r.manifest)).object()}};
        QJsonArray missing;
        for (const BundleShortfall &s : r.missing)
            missing.append(toJson(s));
        o[QStringLiteral("missing")] = missing;
        out() << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        for (const BundleManifestArchive &a : r.manifest.archives)
            out() << "added " << a.path << '\n';
        printShortfalls(out(), r.missing);
        out() << "wrote " << r.path << " (" << toString(r.format) << ", " << r.manifest.archives.size() << " archives, " << size(r.fileSize)
              << ")\n";
    }
    out().flush();
}

} // namespace

int runBundleCreate(const QStringList &args)
{
    Prologue p(QStringLiteral("bundle create"), helpText(QStringLiteral("bundle-create")));
    QCommandLineParser &parser = p.parser();
    addCreateOptions(parser);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    CreateRequest request;
    if (!readCreateRequest(parser, &request))
        return ExitUsage;

    Result<Catalog> catalog = scanFileSystemMirror(request.mirror);
    if (!catalog) {
        return p.usage(catalog.error().toString());
    }
    BundleSelection selection;
    if (request.all) {
        selection = selectAll(catalog.value());
    } else {
        Result<BundleSelection> s = selectForLockFiles(catalog.value(), request.locks, request.platforms);
        if (!s) {
            return p.usage(s.error().toString());
        }
        selection = s.value();
    }
    ProgressLine line(!request.json);
    Result<BundleCreateReport> report = createBundle(request.outPath, selection, request.options, line.callback());
    if (!report) {
        p.usage(report.error().toString());
        if (!selection.missing.isEmpty())
            printShortfalls(err(), selection.missing);
        return report.error().code == ErrorCode::InvalidArgument ? ExitFindings : ExitUsage;
    }
    printCreateReport(report.value(), request.json);
    return report->missing.isEmpty() ? ExitOk : ExitFindings;
}

int runBundleVerify(const QStringList &args)
{
    Prologue p(QStringLiteral("bundle verify"), helpText(QStringLiteral("bundle-verify")));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addOption({QStringLiteral("lock"),
                      QStringLiteral("Check the archives against this reviewed lock file too (repeatable); archives of "
                                     "provider versions no lock file covers are reported as not covered (exit 1)."),
                      QStringLiteral("FILE")});
    addLimitOptions(parser);
    addPinnedKeysOption(parser);
    addHashingOptions(parser); // --jobs: the hashing threads beside the reader; a bundle has no hash cache
    parser.addPositionalArgument(QStringLiteral("bundle"), QStringLiteral("The bundle file."), QStringLiteral("BUNDLE"));
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1) {
        return p.usage(QStringLiteral("give exactly one bundle"));
    }
    BundleOpenOptions openOptions;
    openOptions.verify = true;
    HashRunOptions hashing;
    if (!readHashingOptions(parser, QStringLiteral("provender bundle verify"), &hashing))
        return ExitUsage;
    openOptions.jobs = hashing.jobs;
    if (!readLimits(parser, "bundle verify", &openOptions.limits))
        return ExitUsage;
    if (!readPinnedKeys(parser, QStringLiteral("provender bundle verify"), &openOptions.pinnedKeys))
        return ExitUsage;
    if (parser.isSet(QStringLiteral("lock"))) {
        const std::optional<LockAnchors> locks = readLockOption(parser, QStringLiteral("provender bundle verify"));
        if (!locks)
            return ExitUsage;
        locks->applyTo(openOptions);
    }
    const bool json = parser.isSet(QStringLiteral("json"));
    ProgressLine line(!json);
    Result<BundleContents> verified = openBundle(parser.positionalArguments().first(), openOptions, line.callback());
    if (!verified) {
        return p.usage(verified.error().toString());
    }
    const BundleContents &b = verified.value();
    if (json) {
        // The one verdict writer of every verify (docs/VERDICT-JSON.md), with the bundle member.
        VerdictJson doc;
        doc.kind = Catalog::SourceKind::Bundle;
        doc.location = b.path;
        doc.results = &b.results;
        doc.anomalies = b.catalog.anomalies + verdictAnomalies(b.results);
        doc.summary = b.summary;
        doc.lockCoverage = openOptions.lockCoverage;
        doc.extension = bundleJsonExtension(b);
        writeVerdictJson(out(), doc);
    } else {
        out() << "Bundle " << b.path << " (" << toString(b.format) << ", " << b.entryCount << " entries, " << size(b.fileSize) << ")\n";
        if (b.manifest)
            out() << "Made by " << b.manifest->generator << " on " << b.manifest->created.toString(Qt::ISODate) << " from "
                  << b.manifest->sourceMirror << '\n';
        for (const ArchiveResult &r : b.results)
            out() << toString(r.detail.verdict).leftJustified(11) << r.key.toString() << "  [" << anchorText(r.detail) << "]  "
                  << r.detail.reason << '\n';
        printProblems(out(), b.problems);
        for (const BundleFileCheck &f : b.files)
            if (f.status != BundleFileCheck::Status::Ok)
                out() << "SHA256SUMS " << toString(f.status) << ": " << f.name << '\n';
        if (!b.hasSha256Sums && b.sha256SumsError.isEmpty())
            out() << "note: the bundle has no SHA256SUMS\n";
        if (!b.sha256SumsError.isEmpty())
            out() << "SHA256SUMS unreadable: " << b.sha256SumsError << '\n';
        if (!b.manifestError.isEmpty())
            out() << "manifest unreadable: " << b.manifestError << '\n';
        for (const Anomaly &a : b.catalog.anomalies)
            out() << "anomaly " << toString(a.kind) << ": " << a.path << ": " << a.message << '\n';
        const qsizetype okFiles = std::count_if(b.files.cbegin(), b.files.cend(),
                                                [](const BundleFileCheck &f) { return f.status == BundleFileCheck::Status::Ok; });
        out() << "Summary: " << b.summary.count(Verdict::Verified) << " verified, " << b.summary.count(Verdict::Mismatch) << " mismatch, "
              << b.summary.count(Verdict::Unverified) << " unverified, " << b.summary.count(Verdict::Missing) << " missing, "
              << b.summary.count(Verdict::Error) << " error; " << okFiles << '/' << b.files.size() << " files match SHA256SUMS; "
              << b.problems.size() << " entries refused or ignored\n";
    }
    out().flush();
    const bool uncovered =
        std::any_of(b.results.cbegin(), b.results.cend(), [](const ArchiveResult &r) { return r.detail.notCoveredByLock; });
    return b.hasFindings() || uncovered ? ExitFindings : ExitOk;
}

namespace {

void addImportOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("into"), QStringLiteral("The target filesystem mirror."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("dry-run"), QStringLiteral("Verify and show the plan; change nothing.")});
    parser.addOption({QStringLiteral("replace"), QStringLiteral("Replace a different file at the same path instead of refusing.")});
    parser.addOption({QStringLiteral("allow-unverified"), QStringLiteral("Import archives the bundle declares no hash for.")});
    parser.addOption({QStringLiteral("with-zh"), QStringLiteral("Regenerated indexes list zh: too.")});
    addHashingOptions(parser);
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addOption({QStringLiteral("lock"), QStringLiteral("Check the archives against this reviewed lock file too (repeatable)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("require-lock"),
                      QStringLiteral("Import only archives a hash of a --lock file vouches for (the rest is rejected).")});
    addLimitOptions(parser);
    addPinnedKeysOption(parser);
    parser.addPositionalArgument(QStringLiteral("bundle"), QStringLiteral("The bundle file."), QStringLiteral("BUNDLE"));
}

/// Every option of `bundle import`; false (after saying why) on bad usage.
bool readImportOptions(const QCommandLineParser &parser, ImportOptions *options)
{
    if (!readLimits(parser, "bundle import", &options->limits))
        return false;
    if (!readPinnedKeys(parser, QStringLiteral("provender bundle import"), &options->pinnedKeys))
        return false;
    options->dryRun = parser.isSet(QStringLiteral("dry-run"));
    options->replace = parser.isSet(QStringLiteral("replace"));
    options->allowUnverified = parser.isSet(QStringLiteral("allow-unverified"));
    options->withZh = parser.isSet(QStringLiteral("with-zh"));
    HashRunOptions hashing;
    if (!readHashingOptions(parser, QStringLiteral("provender bundle import"), &hashing))
        return false;
    options->jobs = hashing.jobs;
    options->useCache = hashing.useCache;
    options->requireLock = parser.isSet(QStringLiteral("require-lock"));
    if (options->requireLock && !parser.isSet(QStringLiteral("lock"))) {
        err() << "provender bundle import: --require-lock needs at least one --lock FILE\n";
        return false;
    }
    if (parser.isSet(QStringLiteral("lock"))) {
        const std::optional<LockAnchors> locks = readLockOption(parser, QStringLiteral("provender bundle import"));
        if (!locks)
            return false;
        locks->applyTo(*options);
    }
    return true;
}

QJsonObject toJson(const ImportAction &a)
{
    QJsonObject j{{QStringLiteral("action"), toString(a.kind)},          {QStringLiteral("provider"), a.key.provider.toString()},
                  {QStringLiteral("version"), a.key.version.toString()}, {QStringLiteral("platform"), a.key.platform.toString()},
                  {QStringLiteral("layout"), toString(a.layout)},        {QStringLiteral("entry"), a.entry},
                  {QStringLiteral("verdict"), toString(a.verdict)},      {QStringLiteral("size"), double(a.size)}};
    insertIfNotEmpty(j, QStringLiteral("target_path"), a.targetPath);
    insertIfNotEmpty(j, QStringLiteral("existing_path"), a.existingPath);
    insertIfNotEmpty(j, QStringLiteral("reason"), a.reason);
    return j;
}

void printImportJson(const ImportReport &r)
{
    QJsonObject o{{QStringLiteral("bundle"), r.bundle},
                  {QStringLiteral("target"), r.target},
                  {QStringLiteral("dry_run"), r.dryRun},
                  {QStringLiteral("committed"), r.committed},
                  {QStringLiteral("blocked"), r.blocked()},
                  {QStringLiteral("bytes_staged"), double(r.bytesStaged)},
                  {QStringLiteral("index_files"), QJsonArray::fromStringList(r.indexFiles)}};
    insertIfNotEmpty(o, QStringLiteral("refusal"), r.refusal);
    insertIfNotEmpty(o, QStringLiteral("recovery"), r.recovery);
    QJsonArray actions, problems, files, anomalies;
    for (const ImportAction &a : r.actions)
        actions.append(toJson(a));
    for (const BundleEntryProblem &p : r.problems)
        problems.append(toJson(p));
    for (const BundleFileCheck &f : r.files)
        files.append(toJson(f));
    for (const Anomaly &a : r.anomalies)
        anomalies.append(toJson(a));
    o[QStringLiteral("actions")] = actions;
    o[QStringLiteral("problems")] = problems;
    o[QStringLiteral("files")] = files;
    o[QStringLiteral("anomalies")] = anomalies;
    out() << QJsonDocument(o).toJson(QJsonDocument::Indented);
}

void printImportText(const ImportReport &r)
{
    if (!r.recovery.isEmpty())
        out() << "recovered: " << r.recovery << '\n';
    for (const ImportAction &a : r.actions) {
        out() << toString(a.kind).leftJustified(10) << a.key.toString();
        if (!a.reason.isEmpty())
            out() << ": " << a.reason;
        out() << '\n';
    }
    printProblems(out(), r.problems);
    for (const BundleFileCheck &f : r.files)
        if (f.status != BundleFileCheck::Status::Ok)
            out() << "SHA256SUMS " << toString(f.status) << ": " << f.name << '\n';
    for (const QString &f : r.indexFiles)
        out() << (r.committed ? "wrote " : "would write ") << f << '\n';
    const int adds = r.count(ImportAction::Kind::Add) + r.count(ImportAction::Kind::Replace);
    if (!r.refusal.isEmpty())
        out() << "refused: " << r.refusal << '\n';
    else if (r.dryRun)
        out() << "dry run: " << adds << " archive(s) would be imported into " << r.target << ", " << r.count(ImportAction::Kind::Unchanged)
              << " already there\n";
    else
        out() << (r.committed ? "imported " : "nothing to import: ") << adds << " archive(s) into " << r.target << ", "
              << r.count(ImportAction::Kind::Unchanged) << " already there\n";
}

} // namespace

int runBundleImport(const QStringList &args)
{
    Prologue p(QStringLiteral("bundle import"), helpText(QStringLiteral("bundle-import")));
    QCommandLineParser &parser = p.parser();
    addImportOptions(parser);
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1 || !parser.isSet(QStringLiteral("into"))) {
        return p.usage(QStringLiteral("give BUNDLE and --into DIR"));
    }
    ImportOptions options;
    if (!readImportOptions(parser, &options))
        return ExitUsage;
    const bool json = parser.isSet(QStringLiteral("json"));
    ProgressLine line(!json);
    Result<ImportReport> imported =
        importBundle(parser.positionalArguments().first(), parser.value(QStringLiteral("into")), options, line.callback());
    if (!imported) {
        return p.usage(imported.error().toString());
    }
    const ImportReport &r = imported.value();
    if (json)
        printImportJson(r);
    else
        printImportText(r);
    out().flush();
    return r.blocked() || !r.refusal.isEmpty() ? ExitFindings : ExitOk;
}

int runBundleRecover(const QStringList &args)
{
    Prologue p(QStringLiteral("bundle recover"), helpText(QStringLiteral("bundle-recover")));
    QCommandLineParser &parser = p.parser();
    parser.addPositionalArgument(QStringLiteral("dir"), QStringLiteral("The mirror directory."), QStringLiteral("DIR"));
    if (const std::optional<int> exit = p.parse(args, 0, -1))
        return *exit;
    if (parser.positionalArguments().size() != 1) {
        return p.usage(QStringLiteral("give exactly one mirror directory"));
    }
    Result<QString> done = recoverInterruptedImport(parser.positionalArguments().first());
    if (!done) {
        return p.usage(done.error().toString());
    }
    out() << (done->isEmpty() ? QStringLiteral("nothing to recover") : done.value()) << '\n';
    out().flush();
    return ExitOk;
}

} // namespace provender::cli
