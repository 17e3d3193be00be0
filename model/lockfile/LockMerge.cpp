#include "model/lockfile/LockMerge.h"

#include "model/core/GoCompat.h"
#include "model/core/Logging.h"
#include "model/lockfile/HclSyntax.h"
#include "model/lockfile/LockWriter.h"

#include <QHash>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender::lockmerge {

namespace {

QString quoted(const QString &s)
{
    return u'"' + s + u'"';
}

SideChange changeOf(const std::optional<ProviderLock> &base, const std::optional<ProviderLock> &side)
{
    if (!base && !side)
        return SideChange::Absent;
    if (!base)
        return SideChange::Added;
    if (!side)
        return SideChange::Removed;
    if (*base == *side)
        return SideChange::Unchanged;
    if (side->version > base->version)
        return SideChange::Upgraded;
    if (side->version < base->version)
        return SideChange::Downgraded;
    return SideChange::Changed;
}

/// "upgraded 5.1.0 -> 5.2.0", "added 1.0.0", "changed the hashes", ...
QString describe(const std::optional<ProviderLock> &base, const std::optional<ProviderLock> &side)
{
    switch (changeOf(base, side)) {
    case SideChange::Absent: return u"has no block"_s;
    case SideChange::Unchanged: return u"left it at "_s + base->version.toString();
    case SideChange::Added: return u"added "_s + side->version.toString();
    case SideChange::Removed: return u"removed it"_s;
    case SideChange::Upgraded: return u"upgraded %1 -> %2"_s.arg(base->version.toString(), side->version.toString());
    case SideChange::Downgraded: return u"downgraded %1 -> %2"_s.arg(base->version.toString(), side->version.toString());
    case SideChange::Changed: {
        QStringList what;
        if (!(side->version == base->version))
            what << u"the version (%1 -> %2)"_s.arg(base->version.toString(), side->version.toString());
        if (side->constraints.toString() != base->constraints.toString())
            what << u"the constraints (\"%1\" -> \"%2\")"_s.arg(base->constraints.toString(), side->constraints.toString());
        if (side->hashes != base->hashes)
            what << u"the hashes"_s;
        return u"changed "_s + what.join(u" and "_s);
    }
    }
    return {};
}

QStringList hashTexts(const QList<HashString> &hashes)
{
    QStringList out;
    out.reserve(hashes.size());
    for (const HashString &h : hashes)
        out << h.toString();
    return out;
}

/// Hashes of `ours` and `theirs` (same version), minus those `base` (when it is that version)
/// had and one side dropped.
QList<HashString> mergeHashes(const std::optional<ProviderLock> &base, const ProviderLock &ours, const ProviderLock &theirs,
                              QList<std::pair<HashString, bool>> *removed = nullptr)
{
    QSet<QString> baseSet;
    if (base && base->version == ours.version)
        for (const HashString &h : base->hashes)
            baseSet.insert(h.toString());
    const QStringList o = hashTexts(ours.hashes);
    const QStringList t = hashTexts(theirs.hashes);
    const QSet<QString> oSet(o.cbegin(), o.cend());
    const QSet<QString> tSet(t.cbegin(), t.cend());
    QList<HashString> out;
    const auto keep = [&](const HashString &h) {
        const QString &s = h.toString();
        const bool inBoth = oSet.contains(s) && tSet.contains(s);
        return inBoth || !baseSet.contains(s); // in one side only: kept unless the other side dropped it
    };
    for (const HashString &h : ours.hashes)
        if (keep(h))
            out.append(h);
    for (const HashString &h : theirs.hashes)
        if (!oSet.contains(h.toString()) && keep(h))
            out.append(h);
    if (removed && base && base->version == ours.version)
        for (const HashString &h : base->hashes)
            if (oSet.contains(h.toString()) != tSet.contains(h.toString()))
                removed->append({h, !oSet.contains(h.toString())});
    return out;
}

/// Constraints by three-way rule; nullopt when both changed them differently.
std::optional<VersionConstraints> mergeConstraints(const std::optional<ProviderLock> &base, const ProviderLock &ours,
                                                   const ProviderLock &theirs)
{
    const QString o = ours.constraints.toString();
    const QString t = theirs.constraints.toString();
    if (o == t)
        return ours.constraints;
    if (base) {
        const QString b = base->constraints.toString();
        if (o == b)
            return theirs.constraints;
        if (t == b)
            return ours.constraints;
    }
    return std::nullopt;
}

void decideProvider(ProviderMerge &m)
{
    const auto &b = m.base;
    const auto &o = m.ours;
    const auto &t = m.theirs;
    const auto conflict = [&](ConflictKind k) {
        m.outcome = Outcome::Conflict;
        m.conflict = k;
        m.merged.reset();
    };
    const auto take = [&](Outcome outcome, const std::optional<ProviderLock> &lock) {
        m.outcome = outcome;
        m.merged = lock;
    };
    if (!o && !t) {
        take(b ? Outcome::Removed : Outcome::Unchanged, std::nullopt);
        return;
    }
    if (o && t && *o == *t) {
        take(b && *b == *o ? Outcome::Unchanged : Outcome::Same, o);
        return;
    }
    if (!b) {
        if (o && !t)
            return take(Outcome::Ours, o);
        if (t && !o)
            return take(Outcome::Theirs, t);
    } else {
        if (!o)
            return *t == *b ? take(Outcome::Removed, std::nullopt) : conflict(ConflictKind::ModifyDelete);
        if (!t)
            return *o == *b ? take(Outcome::Removed, std::nullopt) : conflict(ConflictKind::ModifyDelete);
        if (*o == *b)
            return take(Outcome::Theirs, t);
        if (*t == *b)
            return take(Outcome::Ours, o);
    }
    // Both present, both differ from the base (or both added), and they differ from each other.
    if (o->version == t->version) {
        const std::optional<VersionConstraints> c = mergeConstraints(b, *o, *t);
        if (!c)
            return conflict(ConflictKind::ConstraintsDiffer);
        ProviderLock u = *o;
        u.constraints = *c;
        m.removedHashes.clear();
        u.hashes = mergeHashes(b, *o, *t, &m.removedHashes);
        u.normalizeHashes();
        u.sourceRange = {};
        return take(Outcome::Union, u);
    }
    if (b && o->version == b->version)
        return take(Outcome::Theirs, t);
    if (b && t->version == b->version)
        return take(Outcome::Ours, o);
    conflict(ConflictKind::DifferentVersions);
}

void decideForeign(ForeignMerge &m)
{
    const auto &b = m.base;
    const auto &o = m.ours;
    const auto &t = m.theirs;
    const auto take = [&](Outcome outcome, const std::optional<ForeignBlock> &block) {
        m.outcome = outcome;
        m.merged = block;
    };
    const auto same = [](const std::optional<ForeignBlock> &x, const std::optional<ForeignBlock> &y) {
        return x.has_value() == y.has_value() && (!x || x->text == y->text);
    };
    if (same(o, t))
        return take(!o ? (b ? Outcome::Removed : Outcome::Unchanged) : same(b, o) ? Outcome::Unchanged : Outcome::Same, o);
    if (same(b, o))
        return take(t ? Outcome::Theirs : Outcome::Removed, t);
    if (same(b, t))
        return take(o ? Outcome::Ours : Outcome::Removed, o);
    m.outcome = Outcome::Conflict;
    m.merged.reset();
}

/// The canonical bytes of one provider block (`provider "..." {` to `}\n`).
QByteArray blockBytes(const ProviderLock &p, LockFlavour flavour)
{
    LockFile one;
    one.flavour = flavour;
    one.providers = {p};
    LockFile none;
    const qsizetype header = writeLockFile(none, flavour).size();
    return writeLockFile(one, flavour).mid(header + 1); // + 1: the blank line before the block
}

QByteArray marker(char c, const QString &label)
{
    QByteArray m(7, c);
    if (!label.isEmpty())
        m += ' ' + label.toUtf8();
    return m + '\n';
}

QByteArray textLine(const QString &text)
{
    QByteArray b = text.toUtf8();
    if (!b.endsWith('\n'))
        b += '\n';
    return b;
}

enum class MarkerKind { None, Open, Base, Separator, Close };

MarkerKind markerOf(QByteArrayView line)
{
    if (line.endsWith('\n'))
        line.chop(1);
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.size() < 7)
        return MarkerKind::None;
    const char c = line.at(0);
    if (c != '<' && c != '|' && c != '=' && c != '>')
        return MarkerKind::None;
    for (int i = 1; i < 7; ++i)
        if (line.at(i) != c)
            return MarkerKind::None;
    if (c == '=')
        return line.size() == 7 ? MarkerKind::Separator : MarkerKind::None;
    if (line.size() > 7 && line.at(7) != ' ')
        return MarkerKind::None;
    switch (c) {
    case '<': return MarkerKind::Open;
    case '|': return MarkerKind::Base;
    default: return MarkerKind::Close;
    }
}

QString labelOf(QByteArrayView line)
{
    return QString::fromUtf8(line.sliced(7)).trimmed();
}

} // namespace

// ---- reading ------------------------------------------------------------------------------------

MergeInput readMergeInput(const QByteArray &bytes, const QString &fileName)
{
    MergeInput in;
    LockParseOptions options;
    options.fileName = fileName;
    LockParseResult parsed = parseLockFile(bytes, options);
    in.document = std::move(parsed.document);
    in.hasHeader = in.document.hasStandardHeader || !in.document.headerTool.isEmpty();

    // Foreign blocks and syntax errors need the syntax tree; files without any diagnostic or
    // dropped content (the common case, and every file the fast path reads) have neither.
    QList<hcl::Span> foreignSpans;
    bool syntaxErrors = false;
    if (!parsed.diagnostics.isEmpty() || !in.document.dropped.isEmpty()) {
        const hcl::SourceMap map(bytes);
        QHash<QString, int> seen;
        const hcl::File file = hcl::parseFileStreaming(bytes, [&](hcl::Block &&b) {
            if (b.type == u"provider"_s)
                return;
            QString key = b.type;
            for (const QString &l : b.labels)
                key += u' ' + gocompat::quote(l);
            const int n = ++seen[key];
            if (n > 1)
                key += u" #"_s + QString::number(n);
            const hcl::Span full = b.fullSpan();
            const hcl::Range r = map.range(full);
            in.foreign.append({key, QString::fromUtf8(bytes.mid(full.begin, full.end - full.begin)),
                               LockSourceRange{r.start.line, r.start.column, r.start.byte, r.end.line, r.end.column, r.end.byte}});
            foreignSpans.append(full);
        });
        syntaxErrors = std::any_of(file.diagnostics.cbegin(), file.diagnostics.cend(),
                                   [](const hcl::Diagnostic &d) { return d.severity == hcl::Diagnostic::Severity::Error; });
    }
    const auto inForeign = [&](qsizetype byte) {
        return std::any_of(foreignSpans.cbegin(), foreignSpans.cend(),
                           [byte](const hcl::Span &s) { return byte >= s.begin && byte < s.end; });
    };
    for (const LockDiagnostic &d : parsed.diagnostics) {
        if (!d.isError())
            in.warnings.append(d);
        else if (!syntaxErrors && inForeign(d.range.byte))
            in.warnings.append(d);
        else
            in.errors.append(d);
    }
    for (const DroppedContent &d : in.document.dropped) {
        if ((d.kind == DroppedContent::Kind::Comment || d.kind == DroppedContent::Kind::Header) && !inForeign(d.range.byte))
            in.dropped.append(d);
    }
    if (syntaxErrors)
        in.foreign.clear();
    return in;
}

// ---- small types --------------------------------------------------------------------------------

QString toString(SideChange c)
{
    switch (c) {
    case SideChange::Absent: return u"absent"_s;
    case SideChange::Unchanged: return u"unchanged"_s;
    case SideChange::Added: return u"added"_s;
    case SideChange::Removed: return u"removed"_s;
    case SideChange::Changed: return u"changed"_s;
    case SideChange::Upgraded: return u"upgraded"_s;
    case SideChange::Downgraded: return u"downgraded"_s;
    }
    return {};
}

QString toString(Outcome o)
{
    switch (o) {
    case Outcome::Unchanged: return u"unchanged"_s;
    case Outcome::Same: return u"same change"_s;
    case Outcome::Ours: return u"ours"_s;
    case Outcome::Theirs: return u"theirs"_s;
    case Outcome::Union: return u"union"_s;
    case Outcome::Removed: return u"removed"_s;
    case Outcome::Conflict: return u"conflict"_s;
    }
    return {};
}

QString toString(Choice c)
{
    switch (c) {
    case Choice::Automatic: return u"automatic"_s;
    case Choice::Ours: return u"ours"_s;
    case Choice::Theirs: return u"theirs"_s;
    case Choice::Union: return u"union"_s;
    case Choice::Base: return u"base"_s;
    }
    return {};
}

// ---- ProviderMerge ------------------------------------------------------------------------------

SideChange ProviderMerge::oursChange() const
{
    return changeOf(base, ours);
}

SideChange ProviderMerge::theirsChange() const
{
    return changeOf(base, theirs);
}

bool ProviderMerge::isAvailable(Choice c) const
{
    switch (c) {
    case Choice::Automatic: return true;
    case Choice::Ours:
    case Choice::Theirs: return true;
    case Choice::Union: return ours && theirs && ours->version == theirs->version;
    case Choice::Base: return true;
    }
    return false;
}

std::optional<ProviderLock> ProviderMerge::resolved(Choice c) const
{
    if (c != Choice::Union)
        return sideBlock(c);
    if (!isAvailable(Choice::Union))
        return std::nullopt;
    ProviderLock u = *ours;
    u.constraints = mergeConstraints(base, *ours, *theirs).value_or(ours->constraints);
    u.hashes = ours->hashes + theirs->hashes;
    u.normalizeHashes();
    u.sourceRange = {};
    return u;
}

QString ProviderMerge::explanation() const
{
    const QString a = address.toString();
    switch (conflict) {
    case ConflictKind::None: break;
    case ConflictKind::DifferentVersions:
        if (!base)
            return u"%1: both sides added it with different versions (ours %2, theirs %3)"_s.arg(a, ours->version.toString(),
                                                                                                 theirs->version.toString());
        return u"%1: both sides changed the version differently (ours %2, theirs %3)"_s.arg(a, describe(base, ours),
                                                                                            describe(base, theirs));
    case ConflictKind::ConstraintsDiffer:
        return u"%1: both sides changed the constraints of %2 differently (ours %3, theirs %4)"_s.arg(
            a, ours->version.toString(), quoted(ours->constraints.toString()), quoted(theirs->constraints.toString()));
    case ConflictKind::ModifyDelete:
        return u"%1: one side removed it, the other changed it (ours %2, theirs %3)"_s.arg(a, describe(base, ours), describe(base, theirs));
    case ConflictKind::TextDiffers: break;
    }
    return u"%1: %2 (ours %3, theirs %4)"_s.arg(a, toString(outcome), describe(base, ours), describe(base, theirs));
}

// ---- ForeignMerge -------------------------------------------------------------------------------

bool ForeignMerge::isAvailable(Choice c) const
{
    return c != Choice::Union;
}

std::optional<ForeignBlock> ForeignMerge::resolved(Choice c) const
{
    return sideBlock(c); // no union of foreign blocks
}

QString ForeignMerge::explanation() const
{
    const auto what = [this](const std::optional<ForeignBlock> &side) {
        if (!side)
            return base ? u"removed it"_s : u"has no block"_s;
        if (!base)
            return u"added it"_s;
        return side->text == base->text ? u"left it alone"_s : u"changed it"_s;
    };
    return u"%1 (kept verbatim): %2 (ours %3, theirs %4)"_s.arg(key, toString(outcome), what(ours), what(theirs));
}

// ---- MergeResult --------------------------------------------------------------------------------

int MergeResult::conflictCount() const
{
    int n = 0;
    for (const ProviderMerge &p : providers)
        n += p.isResolved() ? 0 : 1;
    for (const ForeignMerge &f : foreign)
        n += f.isResolved() ? 0 : 1;
    return n;
}

LockFile MergeResult::document() const
{
    LockFile doc;
    doc.flavour = flavour;
    doc.hasStandardHeader = true;
    for (const ProviderMerge &p : providers)
        if (p.isResolved())
            if (std::optional<ProviderLock> lock = p.resolved())
                doc.setProvider(std::move(*lock));
    for (const ForeignMerge &f : foreign)
        if (f.isResolved())
            if (const std::optional<ForeignBlock> block = f.resolved())
                doc.moduleBlocks.append(block->text);
    return doc;
}

QStringList MergeResult::conflictLines() const
{
    QStringList out;
    for (const ProviderMerge &p : providers)
        if (!p.isResolved())
            out << p.explanation();
    for (const ForeignMerge &f : foreign)
        if (!f.isResolved())
            out << f.explanation();
    return out;
}

QStringList MergeResult::noteLines() const
{
    QStringList out;
    for (const ProviderMerge &p : providers) {
        if (p.outcome != Outcome::Union || p.choice != Choice::Automatic)
            continue;
        for (const auto &[hash, byOurs] : p.removedHashes)
            out << u"%1: %2 stays removed (%3 removed it, %4 left it alone)"_s.arg(
                p.address.toString(), hash.toString(), byOurs ? u"ours"_s : u"theirs"_s, byOurs ? u"theirs"_s : u"ours"_s);
    }
    return out;
}

qsizetype MergeResult::indexOf(const ProviderAddress &address) const
{
    for (qsizetype i = 0; i < providers.size(); ++i)
        if (providers.at(i).address == address)
            return i;
    return -1;
}

QByteArray MergeResult::bytes(const WriteOptions &options) const
{
    bool plain = !hasConflicts();
    for (const ForeignMerge &f : foreign)
        plain = plain && !f.resolved();
    if (plain)
        return writeLockFile(document(), flavour);

    QByteArray out = writeLockFile(LockFile(), flavour); // the header
    const auto region = [&](const QByteArray &o, const QByteArray &b, const QByteArray &t) {
        out += '\n';
        out += marker('<', options.oursLabel);
        out += o;
        if (options.diff3) {
            out += marker('|', options.baseLabel);
            out += b;
        }
        out += marker('=', {});
        out += t;
        out += marker('>', options.theirsLabel);
    };
    for (const ProviderMerge &p : providers) {
        if (p.isResolved()) {
            if (const std::optional<ProviderLock> lock = p.resolved()) {
                out += '\n';
                out += blockBytes(*lock, flavour);
            }
            continue;
        }
        const auto side = [&](const std::optional<ProviderLock> &l) { return l ? blockBytes(*l, flavour) : QByteArray(); };
        region(side(p.ours), side(p.base), side(p.theirs));
    }
    for (const ForeignMerge &f : foreign) {
        if (f.isResolved()) {
            if (const std::optional<ForeignBlock> block = f.resolved()) {
                out += '\n';
                out += textLine(block->text);
            }
            continue;
        }
        const auto side = [](const std::optional<ForeignBlock> &b) { return b ? textLine(b->text) : QByteArray(); };
        region(side(f.ours), side(f.base), side(f.theirs));
    }
    return out;
}

// ---- merging ------------------------------------------------------------------------------------

MergeResult mergeLockFiles(const MergeInput &base, const MergeInput &ours, const MergeInput &theirs)
{
    MergeResult r;
    // The header: theirs' flavour when only theirs changed it; an input without any header says
    // nothing about its flavour (it was guessed from the hosts).
    r.flavour = ours.document.flavour;
    if (theirs.hasHeader && (!ours.hasHeader || (base.hasHeader && ours.document.flavour == base.document.flavour)))
        r.flavour = theirs.document.flavour;

    // Providers: a sorted merge of three sorted lists.
    QList<ProviderAddress> addresses;
    for (const MergeInput *in : {&base, &ours, &theirs})
        for (const ProviderLock &p : in->document.providers)
            addresses.append(p.address);
    std::sort(addresses.begin(), addresses.end());
    addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
    r.providers.reserve(addresses.size());
    const auto lookup = [](const MergeInput &in, const ProviderAddress &a) -> std::optional<ProviderLock> {
        if (const ProviderLock *p = in.document.find(a)) {
            ProviderLock copy = *p;
            copy.normalizeHashes();
            return copy;
        }
        return std::nullopt;
    };
    for (const ProviderAddress &a : addresses) {
        ProviderMerge m;
        m.address = a;
        m.base = lookup(base, a);
        m.ours = lookup(ours, a);
        m.theirs = lookup(theirs, a);
        decideProvider(m);
        r.providers.append(std::move(m));
    }

    // Foreign blocks: ours' order, then theirs' new ones, then those only the base had.
    QStringList keys;
    for (const MergeInput *in : {&ours, &theirs, &base})
        for (const ForeignBlock &f : in->foreign)
            if (!keys.contains(f.key))
                keys.append(f.key);
    const auto find = [](const MergeInput &in, const QString &key) -> std::optional<ForeignBlock> {
        for (const ForeignBlock &f : in.foreign)
            if (f.key == key)
                return f;
        return std::nullopt;
    };
    for (const QString &k : keys) {
        ForeignMerge m;
        m.key = k;
        m.base = find(base, k);
        m.ours = find(ours, k);
        m.theirs = find(theirs, k);
        decideForeign(m);
        if (m.isConflict())
            qCDebug(lcLock) << "merge: foreign block conflict" << k;
        r.foreign.append(std::move(m));
    }
    qCDebug(lcLock) << "merged" << r.providers.size() << "providers," << r.conflictCount() << "conflicts";
    return r;
}

// ---- conflict markers ---------------------------------------------------------------------------

Result<ConflictSplit> splitConflictMarkers(const QByteArray &bytes, const QString &fileName)
{
    ConflictSplit s;
    QByteArray base;
    bool everyRegionHasBase = true;
    enum class State { Outside, Ours, Base, Theirs } state = State::Outside;
    bool regionHasBase = false;
    int openedAt = 0;
    int lineNo = 0;
    const auto fail = [&](const QString &what) {
        return Result<ConflictSplit>(
            makeError(ErrorCode::InvalidArgument, u"%1:%2: %3"_s.arg(fileName).arg(lineNo).arg(what), Location{fileName, lineNo, 1}));
    };
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        qsizetype nl = bytes.indexOf('\n', pos);
        const qsizetype end = nl < 0 ? bytes.size() : nl + 1;
        const QByteArrayView line(bytes.constData() + pos, end - pos);
        pos = end;
        ++lineNo;
        const MarkerKind k = markerOf(line);
        switch (state) {
        case State::Outside:
            if (k == MarkerKind::Open) {
                state = State::Ours;
                openedAt = lineNo;
                regionHasBase = false;
                if (s.regions == 0)
                    s.oursLabel = labelOf(line);
                continue;
            }
            if (k == MarkerKind::Base || k == MarkerKind::Close)
                return fail(u"conflict marker outside a conflict region"_s);
            s.ours += line;
            s.theirs += line;
            base += line;
            continue;
        case State::Ours:
            if (k == MarkerKind::Open)
                return fail(u"a conflict region opens inside the region opened at line %1"_s.arg(openedAt));
            if (k == MarkerKind::Close)
                return fail(u"\">>>>>>>\" before \"=======\" in the region opened at line %1"_s.arg(openedAt));
            if (k == MarkerKind::Base) {
                state = State::Base;
                regionHasBase = true;
                continue;
            }
            if (k == MarkerKind::Separator) {
                state = State::Theirs;
                continue;
            }
            s.ours += line;
            continue;
        case State::Base:
            if (k == MarkerKind::Separator) {
                state = State::Theirs;
                continue;
            }
            if (k != MarkerKind::None)
                return fail(u"unexpected conflict marker in the base section of the region opened at line %1"_s.arg(openedAt));
            base += line;
            continue;
        case State::Theirs:
            if (k == MarkerKind::Close) {
                if (s.regions == 0)
                    s.theirsLabel = labelOf(line);
                ++s.regions;
                everyRegionHasBase = everyRegionHasBase && regionHasBase;
                state = State::Outside;
                continue;
            }
            if (k != MarkerKind::None)
                return fail(u"unexpected conflict marker in the region opened at line %1"_s.arg(openedAt));
            s.theirs += line;
            continue;
        }
    }
    if (state != State::Outside)
        return fail(u"the conflict region opened at line %1 is not closed"_s.arg(openedAt));
    if (s.regions > 0 && everyRegionHasBase)
        s.base = base;
    return s;
}

bool hasConflictMarkers(const QByteArray &bytes)
{
    if (!bytes.contains("<<<<<<<"))
        return false;
    const Result<ConflictSplit> s = splitConflictMarkers(bytes);
    return s.ok() && s->regions > 0;
}

} // namespace provender::lockmerge
