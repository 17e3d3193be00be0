#pragma once
// A network mirror's <version>.json as read (MirrorVersionDocument): every field as text, to
// compare two readers' documents (the fast path and the full reader, a document and its rewrite),
// and the records that write it back (renderVersionJson). Header-only and Qt Core only: also
// compiled into the fuzzers (tests/fuzz), which do not link the test support library.

#include "model/mirror/IndexWriter.h"
#include "model/mirror/MirrorIndex.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace provender::test {

/// `s` in quotes, or <null>: a null and an empty string dump differently.
inline QString quotedOrNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("<null>") : QLatin1Char('"') + s + QLatin1Char('"');
}

/// One line per archive entry: key, platform, url, hashes and invalid hashes, in the document's order.
inline QString dumpArchives(const MirrorVersionDocument &d)
{
    QStringList out;
    for (const MirrorArchiveEntry &e : d.archives) {
        QStringList hashes;
        for (const HashString &h : e.hashes)
            hashes.append(quotedOrNull(h.toString()));
        QStringList invalid;
        for (const QString &h : e.invalidHashes)
            invalid.append(quotedOrNull(h));
        out.append(QStringLiteral("entry %1 %2/%3 url=%4 hashes=[%5] invalid=[%6]")
                       .arg(quotedOrNull(e.key), quotedOrNull(e.platform.os()), quotedOrNull(e.platform.arch()), quotedOrNull(e.url),
                            hashes.join(QLatin1Char(',')), invalid.join(QLatin1Char(','))));
    }
    return out.join(QLatin1Char('\n'));
}

/// dumpArchives, then one line per issue (kind, key, message, location).
inline QString dumpVersionDocument(const MirrorVersionDocument &d)
{
    QStringList out{dumpArchives(d)};
    for (const MirrorIndexIssue &i : d.issues)
        out.append(
            QStringLiteral("issue %1 %2 %3 @%4").arg(int(i.kind)).arg(quotedOrNull(i.key), quotedOrNull(i.message), i.location.toString()));
    return out.join(QLatin1Char('\n'));
}

/// The document, or the error (code, message, location).
inline QString dumpVersionDocument(const Result<MirrorVersionDocument> &r)
{
    if (!r)
        return QStringLiteral("error %1 %2 @%3").arg(int(r.error().code)).arg(r.error().message, r.error().location.toString());
    return dumpVersionDocument(r.value());
}

/// The document's archives as renderVersionJson takes them (key, url, hashes), in its order.
inline QList<IndexArchiveRecord> archiveRecords(const MirrorVersionDocument &d)
{
    QList<IndexArchiveRecord> records;
    for (const MirrorArchiveEntry &e : d.archives) {
        QStringList hashes;
        for (const HashString &h : e.hashes)
            hashes.append(h.toString());
        records.append({e.key, e.url, hashes});
    }
    return records;
}

} // namespace provender::test
