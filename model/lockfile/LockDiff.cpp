#include "model/lockfile/LockDiff.h"

#include "model/core/Logging.h"
#include "model/core/Sha256Sums.h"
#include "model/mirror/FileSystemMirror.h"

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace provender {

QString toString(HashOrigin o)
{
    switch (o) {
    case HashOrigin::Unknown: return u"unknown"_s;
    case HashOrigin::H1Zip: return u"h1 (zip)"_s;
    case HashOrigin::H1Extracted: return u"h1 (extracted)"_s;
    case HashOrigin::ZH: return u"zh"_s;
    case HashOrigin::Declared: return u"declared by index"_s;
    case HashOrigin::Sha256Sums: return u"zh (SHA256SUMS)"_s;
    }
    return {};
}

QString toString(ProviderDiff::Change c)
{
    switch (c) {
    case ProviderDiff::Change::Added: return u"added"_s;
    case ProviderDiff::Change::Removed: return u"removed"_s;
    case ProviderDiff::Change::Upgraded: return u"upgraded"_s;
    case ProviderDiff::Change::Downgraded: return u"downgraded"_s;
    case ProviderDiff::Change::Changed: return u"changed"_s;
    case ProviderDiff::Change::Unchanged: return u"unchanged"_s;
    }
    return {};
}

// ---- provenance -------------------------------------------------------------------------------

namespace {

QString provenanceKey(const ProviderAddress &provider, const HashString &hash)
{
    return provider.toString() + u' ' + hash.toString();
}

} // namespace

QList<HashProvenanceIndex::Wanted> HashProvenanceIndex::wantedFor(const LockFile &a, const LockFile &b)
{
    QList<Wanted> out;
    for (const LockFile *doc : {&a, &b})
        for (const ProviderLock &p : doc->providers) {
            const bool seen =
                std::any_of(out.cbegin(), out.cend(), [&](const Wanted &w) { return w.provider == p.address && w.version == p.version; });
            if (!seen)
                out.append({p.address, p.version});
        }
    return out;
}

HashProvenanceIndex HashProvenanceIndex::build(const Catalog &catalog, const QList<Wanted> &wanted, const ArchiveHasher &hasher)
{
    const ArchiveHasher hash = hasher ? hasher : directArchiveHasher();
    HashProvenanceIndex index;
    auto add = [&](const ProviderAddress &provider, const HashString &h, HashProvenance p) {
        if (h.isNull())
            return;
        QList<HashProvenance> &list = index.m_map[provenanceKey(provider, h)];
        const bool dup = std::any_of(list.cbegin(), list.cend(), [&](const HashProvenance &q) {
            return q.origin == p.origin && q.archivePath == p.archivePath && q.platform == p.platform && q.version == p.version;
        });
        if (!dup)
            list.append(std::move(p));
    };
    for (const Wanted &w : wanted) {
        const Provider *provider = findProvider(catalog, w.provider);
        if (!provider)
            continue;
        const ProviderVersion *version = findVersion(*provider, w.version);
        if (!version)
            continue;
        QList<const Archive *> archives;
        for (const Archive &a : version->archives)
            archives.append(&a);
        for (const Archive &a : version->duplicates)
            archives.append(&a);
        for (const Archive *a : archives) {
            const HashProvenance base{HashOrigin::Unknown, version->version, a->platform, a->path, {}};
            bool hashed = false;
            QList<HashString> computed;
            if (a->present) {
                const Result<PackageHashes> h = hash(*a);
                if (h.ok()) {
                    hashed = true;
                    HashProvenance p = base;
                    p.origin = HashOrigin::H1Extracted;
                    add(w.provider, h->h1Extracted, p);
                    computed << h->h1Extracted;
                    if (h->kind == PackageHashes::Kind::Zip) {
                        p.origin = HashOrigin::H1Zip;
                        if (h->h1Zip != h->h1Extracted)
                            add(w.provider, h->h1Zip, p);
                        p.origin = HashOrigin::ZH;
                        add(w.provider, h->zh, p);
                        computed << h->h1Zip << h->zh;
                    }
                } else {
                    index.m_failures << u"%1: %2"_s.arg(a->path, h.error().message);
                }
            }
            if (a->declared) {
                for (const HashString &d : a->declared->hashes) {
                    if (hashed && computed.contains(d))
                        continue;
                    HashProvenance p = base;
                    p.origin = HashOrigin::Declared;
                    add(w.provider, d, p);
                }
            }
        }
    }
    return index;
}

int HashProvenanceIndex::addSha256Sums(const ProviderAddress &provider, const Version &version, const QByteArray &document,
                                       const QString &source, const QString &note)
{
    int added = 0;
    for (const Sha256SumsEntry &e : sha256SumsEntries(document)) {
        const Result<PackedName> name = parsePackedArchiveName(e.filename, provider.type());
        if (!name.ok() || name->version != version)
            continue;
        const HashString zh = HashString::zh(QString::fromLatin1(e.sha256.toHex()));
        QList<HashProvenance> &list = m_map[provenanceKey(provider, zh)];
        const bool known = std::any_of(list.cbegin(), list.cend(), [&](const HashProvenance &q) {
            return q.platform == name->platform && q.version == version
                && (q.origin == HashOrigin::ZH || (q.origin == HashOrigin::Sha256Sums && q.archivePath == source));
        });
        if (known)
            continue;
        list.append(HashProvenance{HashOrigin::Sha256Sums, version, name->platform, source, note});
        ++added;
    }
    return added;
}

QList<HashProvenance> HashProvenanceIndex::lookup(const ProviderAddress &provider, const HashString &hash) const
{
    return m_map.value(provenanceKey(provider, hash));
}

// ---- semantic diff ----------------------------------------------------------------------------

bool LockDiff::isEmpty() const
{
    return std::all_of(providers.cbegin(), providers.cend(),
                       [](const ProviderDiff &p) { return p.change == ProviderDiff::Change::Unchanged; });
}

int LockDiff::count(ProviderDiff::Change c) const
{
    return int(std::count_if(providers.cbegin(), providers.cend(), [c](const ProviderDiff &p) { return p.change == c; }));
}

LockDiff diffLockFiles(const LockFile &before, const LockFile &after, const HashProvenanceIndex *provenance)
{
    LockDiff diff;
    diff.oldFlavour = before.flavour;
    diff.newFlavour = after.flavour;
    auto changes = [&](const ProviderAddress &address, const QList<HashString> &hashes) {
        QList<HashChange> out;
        for (const HashString &h : hashes)
            out.append({h, provenance ? provenance->lookup(address, h) : QList<HashProvenance>()});
        return out;
    };
    qsizetype i = 0, j = 0;
    const QList<ProviderLock> &a = before.providers;
    const QList<ProviderLock> &b = after.providers;
    while (i < a.size() || j < b.size()) {
        // The provider's lock in each file, in address order (nullptr: not in that file). A side
        // that has none counts as no version, no constraints and no hashes.
        const bool removed = j >= b.size() || (i < a.size() && a[i].address < b[j].address);
        const bool added = !removed && (i >= a.size() || b[j].address < a[i].address);
        const ProviderLock *old = added ? nullptr : &a[i++];
        const ProviderLock *now = removed ? nullptr : &b[j++];
        const QList<HashString> oldHashes = old ? old->hashes : QList<HashString>();
        const QList<HashString> newHashes = now ? now->hashes : QList<HashString>();
        ProviderDiff d;
        d.address = old ? old->address : now->address;
        if (old) {
            d.oldVersion = old->version;
            d.oldConstraints = old->constraints.toString();
        }
        if (now) {
            d.newVersion = now->version;
            d.newConstraints = now->constraints.toString();
        }
        QList<HashString> hashesAdded, hashesRemoved;
        for (const HashString &h : newHashes) {
            if (oldHashes.contains(h))
                ++d.hashesKept;
            else
                hashesAdded.append(h);
        }
        for (const HashString &h : oldHashes)
            if (!newHashes.contains(h))
                hashesRemoved.append(h);
        d.hashesAdded = changes(d.address, hashesAdded);
        d.hashesRemoved = changes(d.address, hashesRemoved);
        const int order = old && now ? now->version.comparePrecedence(old->version) : 0;
        if (!now)
            d.change = ProviderDiff::Change::Removed;
        else if (!old)
            d.change = ProviderDiff::Change::Added;
        else if (order > 0)
            d.change = ProviderDiff::Change::Upgraded;
        else if (order < 0)
            d.change = ProviderDiff::Change::Downgraded;
        else if (!(old->version == now->version) || d.constraintsChanged() || !hashesAdded.isEmpty() || !hashesRemoved.isEmpty())
            d.change = ProviderDiff::Change::Changed;
        else
            d.change = ProviderDiff::Change::Unchanged;
        diff.providers.append(std::move(d));
    }
    return diff;
}

// ---- unified text diff --------------------------------------------------------------------------

namespace {

enum class Op : quint8 { Equal, Delete, Insert };

/// An index computed in int (the edit script's arithmetic), as a container index.
constexpr size_t ix(int i)
{
    return size_t(i);
}

/// Myers' greedy O((N+M)D) shortest edit script over interned lines. Beyond `maxD` edits it
/// gives up on minimality and replaces the whole differing middle (still a correct diff).
std::vector<Op> editScript(const std::vector<int> &a, const std::vector<int> &b)
{
    const int n = int(a.size());
    const int m = int(b.size());
    // Common prefix and suffix first: most lock-file diffs are small.
    int pre = 0;
    while (pre < n && pre < m && a[size_t(pre)] == b[size_t(pre)])
        ++pre;
    int suf = 0;
    while (suf < n - pre && suf < m - pre && a[ix(n - 1 - suf)] == b[ix(m - 1 - suf)])
        ++suf;
    const int N = n - pre - suf;
    const int M = m - pre - suf;
    std::vector<Op> middle;
    const int maxD = std::min(N + M, 4000);
    const int offset = maxD + 1;
    std::vector<int> v(ix(2 * maxD + 3), 0);
    std::vector<std::vector<int>> trace;
    bool found = N + M == 0;
    int dFound = 0;
    for (int d = 0; d <= maxD && !found; ++d) {
        trace.push_back(v);
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[ix(offset + k - 1)] < v[ix(offset + k + 1)]))
                x = v[ix(offset + k + 1)];
            else
                x = v[ix(offset + k - 1)] + 1;
            int y = x - k;
            while (x < N && y < M && a[ix(pre + x)] == b[ix(pre + y)]) {
                ++x;
                ++y;
            }
            v[ix(offset + k)] = x;
            if (x >= N && y >= M) {
                found = true;
                dFound = d;
                break;
            }
        }
    }
    if (!found) {
        middle.assign(size_t(N), Op::Delete);
        middle.insert(middle.end(), size_t(M), Op::Insert);
    } else if (N + M > 0) {
        // Backtrack through the saved V arrays.
        int x = N, y = M;
        std::vector<Op> rev;
        for (int d = dFound; d > 0; --d) {
            const std::vector<int> &pv = trace[size_t(d)];
            const int k = x - y;
            int prevK;
            if (k == -d || (k != d && pv[ix(offset + k - 1)] < pv[ix(offset + k + 1)]))
                prevK = k + 1;
            else
                prevK = k - 1;
            const int prevX = pv[ix(offset + prevK)];
            const int prevY = prevX - prevK;
            while (x > prevX && y > prevY) {
                rev.push_back(Op::Equal);
                --x;
                --y;
            }
            if (x == prevX)
                rev.push_back(Op::Insert), --y;
            else
                rev.push_back(Op::Delete), --x;
        }
        while (x > 0 && y > 0) {
            rev.push_back(Op::Equal);
            --x;
            --y;
        }
        middle.assign(rev.rbegin(), rev.rend());
    }
    std::vector<Op> ops(size_t(pre), Op::Equal);
    ops.insert(ops.end(), middle.begin(), middle.end());
    ops.insert(ops.end(), size_t(suf), Op::Equal);
    // Within each run of changes, deletions first (as diff -u prints them).
    for (size_t s = 0; s < ops.size();) {
        if (ops[s] == Op::Equal) {
            ++s;
            continue;
        }
        size_t e = s;
        while (e < ops.size() && ops[e] != Op::Equal)
            ++e;
        std::stable_partition(ops.begin() + qsizetype(s), ops.begin() + qsizetype(e), [](Op o) { return o == Op::Delete; });
        s = e;
    }
    return ops;
}

struct Lines
{
    QList<QByteArray> lines;
    bool missingFinalNewline = false;

    /// Whether line `i` is the last one and has no newline.
    bool noNewlineAt(qsizetype i) const { return i == lines.size() - 1 && missingFinalNewline; }
};

Lines splitLines(const QByteArray &text)
{
    Lines l;
    if (text.isEmpty())
        return l;
    l.lines = text.split('\n');
    if (text.endsWith('\n'))
        l.lines.removeLast();
    else
        l.missingFinalNewline = true;
    return l;
}

QString range(int start, int count)
{
    // GNU diff: "start,count"; a single line is just "start"; an empty range names the line before.
    if (count == 1)
        return QString::number(start);
    return u"%1,%2"_s.arg(count == 0 ? start - 1 : start).arg(count);
}

} // namespace

QString unifiedDiff(const QByteArray &a, const QByteArray &b, const QString &labelA, const QString &labelB, int context)
{
    if (a == b)
        return {};
    const Lines la = splitLines(a);
    const Lines lb = splitLines(b);
    QHash<QByteArray, int> ids;
    // Intern lines; a last line without newline differs from the same text with one.
    auto internStable = [&](const Lines &l) {
        std::vector<int> out;
        out.reserve(size_t(l.lines.size()));
        for (qsizetype i = 0; i < l.lines.size(); ++i) {
            QByteArray key = l.lines[i];
            if (l.noNewlineAt(i))
                key.prepend('\x01');
            auto it = ids.constFind(key);
            if (it == ids.constEnd())
                it = ids.insert(key, int(ids.size()));
            out.push_back(it.value());
        }
        return out;
    };
    const std::vector<int> ia = internStable(la);
    const std::vector<int> ib = internStable(lb);
    const std::vector<Op> ops = editScript(ia, ib);

    QString out;
    out += u"--- "_s + labelA + u'\n';
    out += u"+++ "_s + labelB + u'\n';
    const size_t total = ops.size();
    size_t k = 0;
    while (k < total) {
        while (k < total && ops[k] == Op::Equal)
            ++k;
        if (k >= total)
            break;
        // A hunk: from `context` lines before the first change to `context` after the last,
        // joining changes separated by at most 2*context equal lines.
        size_t startOp = k >= size_t(context) ? k - size_t(context) : 0;
        size_t e = k;
        for (;;) {
            while (e < total && ops[e] != Op::Equal)
                ++e;
            size_t eq = e;
            while (eq < total && ops[eq] == Op::Equal)
                ++eq;
            if (eq < total && eq - e <= ix(2 * context)) {
                e = eq;
                continue;
            }
            break;
        }
        const size_t endOp = std::min(total, e + size_t(context));
        // Line numbers at startOp.
        int lineA = 0, lineB = 0;
        for (size_t t = 0; t < startOp; ++t) {
            if (ops[t] != Op::Insert)
                ++lineA;
            if (ops[t] != Op::Delete)
                ++lineB;
        }
        int countA = 0, countB = 0;
        for (size_t t = startOp; t < endOp; ++t) {
            if (ops[t] != Op::Insert)
                ++countA;
            if (ops[t] != Op::Delete)
                ++countB;
        }
        out += u"@@ -"_s + range(lineA + 1, countA) + u" +"_s + range(lineB + 1, countB) + u" @@\n"_s;
        int ai = lineA, bi = lineB;
        for (size_t t = startOp; t < endOp; ++t) {
            // An equal or deleted line is A's, an inserted one B's.
            const bool fromA = ops[t] != Op::Insert;
            const Lines &side = fromA ? la : lb;
            const int i = fromA ? ai : bi;
            const QChar prefix = ops[t] == Op::Equal ? u' ' : fromA ? u'-' : u'+';
            out += prefix + QString::fromUtf8(side.lines[i]) + u'\n';
            if (side.noNewlineAt(i))
                out += u"\\ No newline at end of file\n"_s;
            if (ops[t] != Op::Insert)
                ++ai;
            if (ops[t] != Op::Delete)
                ++bi;
        }
        k = endOp;
    }
    return out;
}

} // namespace provender
