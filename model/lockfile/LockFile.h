#pragma once
// The dependency lock file `.terraform.lock.hcl` as a document: parse (with tofu's exact
// diagnostics), inspect, and know what canonical writing would drop (tofu-formats.md §1).
// Writing is in LockWriter.h, edit operations in LockEdit.h.

#include "model/core/HashString.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/core/VersionConstraints.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace provender {

/// Which tool's header a lock file carries (and which default registry host 1- and 2-part
/// addresses expand to while reading).
enum class LockFlavour { Tofu, Terraform };

QString toString(LockFlavour f);                                 ///< "tofu" / "terraform"
std::optional<LockFlavour> lockFlavourFromString(QStringView s); ///< accepts "tofu", "opentofu", "terraform"

/// Byte-wise order of the UTF-8 encodings of two strings (how lock files sort hashes).
bool utf8Less(QStringView a, QStringView b);

/// A position range in the lock file's text. Lines and columns count from 1 (columns in
/// characters, like HCL); bytes from 0 including a BOM.
struct LockSourceRange
{
    int line = 0;
    int column = 0;
    qsizetype byte = 0;
    int endLine = 0;
    int endColumn = 0;
    qsizetype endByte = 0;

    bool isValid() const { return line > 0; }
    /// hcl.Range.String(): `file:1,3-10` or `file:1,3-2,5`.
    QString toHclString(const QString &fileName) const;
    bool operator==(const LockSourceRange &) const = default;
};

struct LockDiagnostic
{
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    QString summary; ///< tofu/terraform's summary, e.g. `Invalid provider version number`
    QString detail;  ///< tofu/terraform's detail, with addresses and values substituted
    LockSourceRange range;

    bool isError() const { return severity == Severity::Error; }
    /// `file:line:column: error: summary: detail` (one line; for CLI output).
    QString toString(const QString &fileName) const;
};

/// One `provider "..." { ... }` entry.
struct ProviderLock
{
    ProviderAddress address;
    Version version;
    VersionConstraints constraints; ///< empty: no `constraints` attribute
    QList<HashString> hashes;       ///< sorted byte-wise, de-duplicated (unknown schemes kept)
    LockSourceRange sourceRange;    ///< the whole block in the file it was read from (not compared)

    /// Semantic equality: address, version, canonical constraints and hashes.
    bool operator==(const ProviderLock &o) const
    {
        return address == o.address && version == o.version && hashes == o.hashes && constraints.toString() == o.constraints.toString();
    }
    /// Sorts and de-duplicates `hashes` in place (NewProviderLock's normalization).
    void normalizeHashes();
};

/// Something in the source that a canonical rewrite does not reproduce.
struct DroppedContent
{
    enum class Kind {
        Comment,           ///< any comment other than the standard two-line header
        Header,            ///< a header naming another tool, e.g. "terraform stacks providers lock"
        ModuleBlock,       ///< `module "..." {}` (tofu warns and ignores it)
        UnknownBlock,      ///< any other block (an error for tofu)
        UnknownAttribute,  ///< an attribute tofu does not know (an error for tofu)
        InvalidProvider,   ///< a provider block that failed validation (errors say why)
        DuplicateProvider, ///< a second block for the same provider (an error for tofu)
    };
    Kind kind = Kind::Comment;
    QString text; ///< the source text (comments, headers, module blocks) or a name
    LockSourceRange range;
};

QString toString(DroppedContent::Kind k); ///< "comment", "header", "module block", ...

/// A parsed lock file. Providers are kept in canonical order (ProviderAddress order, §2.4)
/// and are unique by address.
class LockFile
{
public:
    LockFlavour flavour = LockFlavour::Tofu;
    /// The header the file carried: true when it was the standard two lines of `flavour`.
    bool hasStandardHeader = false;
    /// The tool named by a `# This file is maintained automatically by "<tool>".` line
    /// (e.g. `tofu init`, `terraform stacks providers lock`), empty when there was none.
    QString headerTool;
    QList<ProviderLock> providers;
    /// `module` blocks, verbatim (tofu keeps them out of the model and drops them on write).
    QStringList moduleBlocks;
    QList<DroppedContent> dropped;

    const ProviderLock *find(const ProviderAddress &address) const;
    qsizetype indexOf(const ProviderAddress &address) const;
    bool contains(const ProviderAddress &address) const { return indexOf(address) >= 0; }

    /// Inserts or replaces, keeping canonical order; normalizes the lock's hashes.
    void setProvider(ProviderLock lock);
    bool removeProvider(const ProviderAddress &address);

    /// What a canonical rewrite loses: comments, unknown content, module blocks, a foreign header.
    bool wouldDropContent() const { return !dropped.isEmpty(); }

    /// Locks.Equal: address, version and hashes; constraints and flavour are ignored.
    bool locksEqual(const LockFile &other) const;
    /// Semantic equality including constraints and flavour (not the recorded source details).
    bool operator==(const LockFile &o) const { return flavour == o.flavour && providers == o.providers; }
};

struct LockParseOptions
{
    /// Expand 1- and 2-part labels with this flavour's registry host and word tool-specific
    /// messages for it. Unset: the flavour detected from the file.
    std::optional<LockFlavour> flavour;
    /// Name used in diagnostics that quote a position (`Duplicate provider lock`, ...).
    QString fileName = QStringLiteral(".terraform.lock.hcl");
    /// Version quoted in the `module` warning ("OpenTofu v<version> only supports...").
    QString toolVersion;
};

struct LockParseResult
{
    LockFile document;
    QList<LockDiagnostic> diagnostics;

    bool hasErrors() const;
    QList<LockDiagnostic> errors() const;
};

/// Parse lock-file bytes. Never fails and never throws: problems are diagnostics (with the
/// wording tofu/terraform use), and the document holds every provider that could be read.
LockParseResult parseLockFile(const QByteArray &bytes, const LockParseOptions &options = {});

/// Read and parse a file. I/O problems (missing, a directory, unreadable) are errors;
/// content problems are diagnostics in the result.
Result<LockParseResult> readLockFile(const QString &path, LockParseOptions options = {});

/// Flavour from the header comment, or from the hosts when there is no header:
/// registry.opentofu.org only -> Tofu, otherwise Terraform.
LockFlavour detectFlavour(const QByteArray &bytes);

} // namespace provender
