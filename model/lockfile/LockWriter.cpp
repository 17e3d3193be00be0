#include "model/lockfile/LockWriter.h"

#include "model/core/Logging.h"
#include "model/lockfile/HclSyntax.h"

#include <QSaveFile>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace provender {

namespace {

void appendQuoted(QByteArray &out, const QString &s)
{
    const bool plain = std::all_of(s.cbegin(), s.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return u >= 0x20 && u < 0x7F && u != '"' && u != '\\' && u != '$' && u != '%';
    });
    out += '"';
    if (plain) {
        // Printable ASCII with nothing to escape: copy the characters straight in.
        const qsizetype at = out.size();
        out.resize(at + s.size());
        char *dst = out.data() + at;
        for (QChar c : s)
            *dst++ = char(c.unicode());
    } else {
        out += escapeHclString(s);
    }
    out += '"';
}

} // namespace

QByteArray escapeHclString(const QString &s)
{
    // Fast path: printable ASCII without anything to escape is written as it is.
    const bool plain = std::all_of(s.cbegin(), s.cend(), [](QChar c) {
        const char16_t u = c.unicode();
        return u >= 0x20 && u < 0x7F && u != '"' && u != '\\' && u != '$' && u != '%';
    });
    if (plain)
        return s.toLatin1();
    QByteArray out;
    out.reserve(s.size() + 8);
    const QList<uint> ucs = s.toUcs4();
    for (qsizetype i = 0; i < ucs.size(); ++i) {
        const char32_t r = ucs.at(i);
        switch (r) {
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '"': out += "\\\""; continue;
        case '\\': out += "\\\\"; continue;
        case '$':
        case '%':
            out += char(r);
            if (i + 1 < ucs.size() && ucs.at(i + 1) == '{')
                out += char(r);
            continue;
        default:
            break;
        }
        if (r >= 0x20 && r < 0x7F) {
            out += char(r);
        } else if (!hcl::isGoPrintable(r)) {
            if (r < 0x10000)
                out += "\\u" + QByteArray::number(uint(r), 16).rightJustified(4, '0');
            else
                out += "\\U" + QByteArray::number(uint(r), 16).rightJustified(8, '0');
        } else {
            out += QString::fromUcs4(&r, 1).toUtf8();
        }
    }
    return out;
}

QByteArray writeLockFile(const LockFile &doc)
{
    return writeLockFile(doc, doc.flavour);
}

QByteArray writeLockFile(const LockFile &doc, LockFlavour flavour)
{
    QByteArray out;
    qsizetype estimate = 128;
    for (const ProviderLock &p : doc.providers)
        estimate += 160 + p.hashes.size() * 80;
    out.reserve(estimate);
    out += flavour == LockFlavour::Tofu ? "# This file is maintained automatically by \"tofu init\".\n"
                                        : "# This file is maintained automatically by \"terraform init\".\n";
    out += "# Manual edits may be lost in future updates.\n";

    // The document keeps providers sorted; sort a view anyway so hand-built documents write right.
    std::vector<const ProviderLock *> order;
    order.reserve(size_t(doc.providers.size()));
    for (const ProviderLock &p : doc.providers)
        order.push_back(&p);
    if (!std::is_sorted(order.begin(), order.end(), [](const ProviderLock *a, const ProviderLock *b) { return a->address < b->address; }))
        std::stable_sort(order.begin(), order.end(), [](const ProviderLock *a, const ProviderLock *b) { return a->address < b->address; });

    for (size_t k = 0; k < order.size(); ++k) {
        const ProviderLock &p = *order[k];
        if (k > 0 && p.address == order[k - 1]->address)
            continue; // a provider appears once; the first wins
        out += "\nprovider ";
        appendQuoted(out, p.address.toString());
        out += " {\n";
        const QString constraints = p.constraints.toString();
        if (constraints.isEmpty()) {
            out += "  version = ";
            appendQuoted(out, p.version.toString());
            out += '\n';
        } else {
            out += "  version     = ";
            appendQuoted(out, p.version.toString());
            out += "\n  constraints = ";
            appendQuoted(out, constraints);
            out += '\n';
        }
        if (!p.hashes.isEmpty()) {
            const auto less = [](const HashString &a, const HashString &b) { return utf8Less(a.toString(), b.toString()); };
            QList<HashString> hashes = p.hashes; // shared, not copied, unless it needs sorting
            if (!std::is_sorted(hashes.cbegin(), hashes.cend(), less) || std::adjacent_find(hashes.cbegin(), hashes.cend()) != hashes.cend()) {
                std::sort(hashes.begin(), hashes.end(), less);
                hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
            }
            out += "  hashes = [\n";
            for (const HashString &h : hashes) {
                out += "    ";
                appendQuoted(out, h.toString());
                out += ",\n";
            }
            out += "  ]\n";
        }
        out += "}\n";
    }
    return out;
}

bool isCanonicalLockFile(const QByteArray &bytes, const LockParseResult &parsed)
{
    return !parsed.hasErrors() && writeLockFile(parsed.document) == bytes;
}

Result<void> saveBytesAtomically(const QByteArray &bytes, const QString &path)
{
    const auto fail = [&](const QString &reason) {
        return Result<void>(makeError(ErrorCode::Io,
                                      u"Error while writing new dependency lock information to %1: %2."_s.arg(path, reason),
                                      Location{path, 0, 0}));
    };
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(f.errorString());
    if (f.write(bytes) != bytes.size())
        return fail(f.errorString());
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    if (!f.commit())
        return fail(f.errorString());
    qCDebug(lcLock) << "wrote" << bytes.size() << "bytes to" << path;
    return {};
}

Result<void> saveLockFile(const LockFile &doc, const QString &path)
{
    return saveBytesAtomically(writeLockFile(doc), path);
}

Result<void> saveLockFile(const LockFile &doc, LockFlavour flavour, const QString &path)
{
    return saveBytesAtomically(writeLockFile(doc, flavour), path);
}

} // namespace provender
