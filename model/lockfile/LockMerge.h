#pragma once
// Three-way merge of lock files by meaning (the `provender lock merge` git merge driver and the
// merge window). Pure functions on values: no I/O.
//
// Per provider (B = base, O = ours, T = theirs; "changed" = semantically different from B):
//   O == T                                    -> that block
//   only one side changed it                  -> that side's block
//   added on one side                         -> included
//   added on both, same version               -> union of hashes (constraints must agree)
//   added on both, different versions        -> conflict
//   same version on both sides (both changed) -> hashes: everything either side added, minus
//                                                what one side removed and the other kept
//                                                (plain union when neither removed one);
//                                                constraints of the side that changed them
//                                                (both changed them differently -> conflict)
//   version changed on one side only          -> that side's block whole
//   both changed to different versions        -> conflict
//   removed on one side, unchanged on other   -> removed
//   removed on one side, changed on the other -> conflict (git's modify/delete)
// The result is canonical (writeLockFile) when there is no conflict and no foreign block.
//
// Top-level blocks that are not `provider` blocks (`module` blocks, unknown blocks) are kept
// verbatim and merged by their text (same rules: one side changed -> that side, both differently
// -> conflict); they follow the provider blocks in the output. Comments are lost, as on every
// canonical write (readMergeInput lists them so the caller can warn).

#include "model/core/Result.h"
#include "model/lockfile/LockFile.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace provender::lockmerge {

/// A top-level block other than `provider`, verbatim.
struct ForeignBlock
{
    QString key;  ///< type and labels (`module "a"`), with `#2`, `#3` for repeats
    QString text; ///< the block's source text, from the type to the closing brace
    LockSourceRange range;
    bool operator==(const ForeignBlock &o) const { return key == o.key && text == o.text; }
};

/// One input of a merge, read from bytes.
struct MergeInput
{
    LockFile document;
    QList<ForeignBlock> foreign;
    /// Errors that make the input unmergeable: syntax errors, invalid or duplicate provider
    /// blocks, unknown attributes. (Errors inside a foreign block only say the block is unknown
    /// to tofu; that block is kept verbatim, so they are not here.)
    QList<LockDiagnostic> errors;
    /// Warnings (module blocks) and the tolerated errors about foreign blocks.
    QList<LockDiagnostic> warnings;
    /// Comments and non-standard headers a merge does not carry over (outside foreign blocks).
    QList<DroppedContent> dropped;
    /// The file had the standard header or another tool's header line (flavour is not a guess).
    bool hasHeader = false;

    bool ok() const { return errors.isEmpty(); }
};

MergeInput readMergeInput(const QByteArray &bytes, const QString &fileName);

/// What a side did to a provider relative to the base (or to a foreign block).
enum class SideChange { Absent, Unchanged, Added, Removed, Changed, Upgraded, Downgraded };
QString toString(SideChange c); ///< "absent", "unchanged", "added", ...

enum class Outcome {
    Unchanged, ///< the same on every side
    Same,      ///< both sides made the same change
    Ours,      ///< ours' block (only ours changed it, or ours added it)
    Theirs,    ///< theirs' block
    Union,     ///< same version on both sides: hashes and constraints merged
    Removed,   ///< removed (one side removed it, the other left it alone; or both removed it)
    Conflict,
};
QString toString(Outcome o);

enum class ConflictKind {
    None,
    DifferentVersions, ///< both changed (or added) it with different versions
    ConstraintsDiffer, ///< same version, both changed the constraints differently
    ModifyDelete,      ///< one side removed it, the other changed it
    TextDiffers,       ///< foreign block: both changed it differently
};

/// How a user (the merge window) decides a provider or foreign block.
enum class Choice {
    Automatic, ///< the merge's own outcome (unresolved when that is a conflict)
    Ours,      ///< ours' block, or nothing when ours has none
    Theirs,
    Union, ///< both present with the same version: all hashes of both (providers only)
    Base,  ///< the base's block, or nothing
};
QString toString(Choice c);

/// What the merge of a provider and of a foreign block share: the block on each side, the
/// outcome, the automatic result and the user's choice. `Block`: ProviderLock or ForeignBlock.
template<typename Block> struct MergeSides
{
    std::optional<Block> base, ours, theirs;
    Outcome outcome = Outcome::Unchanged;
    std::optional<Block> merged; ///< the automatic result (nullopt: absent or conflict)
    Choice choice = Choice::Automatic;

    bool isConflict() const { return outcome == Outcome::Conflict; }
    /// Resolved: not a conflict, or a choice was made.
    bool isResolved() const { return !isConflict() || choice != Choice::Automatic; }

protected:
    /// The block `c` gives when it is not Union, which each kind of block merges its own way
    /// (nullopt: no block; Automatic on a conflict gives nullopt).
    std::optional<Block> sideBlock(Choice c) const
    {
        switch (c) {
        case Choice::Automatic: return merged;
        case Choice::Ours: return ours;
        case Choice::Theirs: return theirs;
        case Choice::Base: return base;
        case Choice::Union: break;
        }
        return std::nullopt;
    }
};

struct ProviderMerge : MergeSides<ProviderLock>
{
    ProviderAddress address;
    ConflictKind conflict = ConflictKind::None;
    /// Union outcome: hashes of the base that one side removed and the other kept, so they are
    /// not in `merged` (the side that removed them: true = ours).
    QList<std::pair<HashString, bool>> removedHashes;

    SideChange oursChange() const;
    SideChange theirsChange() const;
    /// Whether `c` can be chosen: Union needs ours and theirs with the same version; Base a base.
    bool isAvailable(Choice c) const;
    /// The block `c` gives (nullopt: no block). Automatic on a conflict gives nullopt.
    std::optional<ProviderLock> resolved(Choice c) const;
    std::optional<ProviderLock> resolved() const { return resolved(choice); }
    /// One line: "registry.terraform.io/hashicorp/aws: ours upgraded 5.1.0 -> 5.2.0, theirs ..."
    QString explanation() const;
};

struct ForeignMerge : MergeSides<ForeignBlock>
{
    QString key;

    bool isAvailable(Choice c) const;
    std::optional<ForeignBlock> resolved(Choice c) const;
    std::optional<ForeignBlock> resolved() const { return resolved(choice); }
    QString explanation() const;
};

struct WriteOptions
{
    bool diff3 = false; ///< also write `||||||| base` sections
    QString oursLabel = QStringLiteral("ours");
    QString theirsLabel = QStringLiteral("theirs");
    QString baseLabel = QStringLiteral("base");
};

struct MergeResult
{
    LockFlavour flavour = LockFlavour::Tofu;
    QList<ProviderMerge> providers; ///< every provider of any input, in canonical order
    QList<ForeignMerge> foreign;    ///< ours' order, then theirs' additions, then base-only ones

    int conflictCount() const; ///< unresolved conflicts
    bool hasConflicts() const { return conflictCount() > 0; }
    /// The resolved providers (unresolved conflicts left out).
    LockFile document() const;
    /// The merged file: canonical bytes (exactly writeLockFile(document())) when nothing is
    /// unresolved and there are no foreign blocks; conflict markers around each unresolved
    /// provider (or foreign) block otherwise.
    QByteArray bytes(const WriteOptions &options = {}) const;
    /// One line per unresolved conflict.
    QStringList conflictLines() const;
    /// One line per hash left out of an automatic union because one side removed it.
    QStringList noteLines() const;
    qsizetype indexOf(const ProviderAddress &address) const;
};

MergeResult mergeLockFiles(const MergeInput &base, const MergeInput &ours, const MergeInput &theirs);

/// A file with conflict markers split into its sides (lines outside the regions go to every side).
struct ConflictSplit
{
    QByteArray ours, theirs;
    std::optional<QByteArray> base; ///< when every region has a `|||||||` section (diff3 style)
    int regions = 0;
    QString oursLabel, theirsLabel; ///< the text after `<<<<<<<` / `>>>>>>>` of the first region
};

/// Whether `bytes` has a line starting with `<<<<<<<` followed by a `=======` and a `>>>>>>>` line.
bool hasConflictMarkers(const QByteArray &bytes);
/// Splits git-style conflict markers (7 characters). InvalidArgument with the line when a region
/// is not closed or markers are out of order.
Result<ConflictSplit> splitConflictMarkers(const QByteArray &bytes, const QString &fileName = {});

} // namespace provender::lockmerge
