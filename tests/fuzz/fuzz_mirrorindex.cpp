// libFuzzer target for the network-mirror JSON readers (model/mirror/MirrorIndex.h): every input
// goes through parseIndexJson() and both readers of <version>.json. Besides "no crash, no hang,
// no leak, no UB" it checks:
//  - every issue and error has a message, and a location inside the document when it has one;
//  - index.json: the versions are strictly ascending, one per valid key; writing the keys back
//    with renderIndexJson() reads back to the same keys and versions;
//  - <version>.json: when the fast path (MirrorIndexFastPath.h) accepts an input, the full reader
//    accepts it without issues and reads the same document; parseVersionJson() always equals the
//    full reader; a document read without issues, written back with renderVersionJson(), reads
//    back (through both readers) to the same archives.

#include "FuzzSupport.h"

#include "model/mirror/IndexWriter.h"
#include "model/mirror/MirrorIndex.h"
#include "model/mirror/MirrorIndexFastPath.h"
#include "tests/support/VersionDocumentDump.h"

#include <QByteArray>
#include <QStringList>

#include <cstdint>

using namespace provender;

namespace {

[[noreturn]] void fail(const char *what, const QByteArray &detail)
{
    fuzz::fail("fuzz_mirrorindex", what, detail);
}

const QString kSource = QStringLiteral("v.json");

/// A location, when known, names the document and lies inside it.
void checkLocation(const Location &where, const QByteArray &bytes, const char *what)
{
    if (where.line == 0 && where.column == 0)
        return; // not located
    if (where.file != kSource)
        fail(what, "location without the document's name");
    const qsizetype lines = bytes.count('\n') + 1;
    if (where.line < 1 || where.column < 1 || where.line > lines)
        fail(what, where.toString().toUtf8());
}

void checkIssues(const QList<MirrorIndexIssue> &issues, const QByteArray &bytes)
{
    for (const MirrorIndexIssue &i : issues) {
        if (i.message.isEmpty())
            fail("issue without a message", bytes);
        checkLocation(i.location, bytes, "issue location outside the document");
    }
}

void checkError(const Error &e, const QByteArray &bytes)
{
    if (e.message.isEmpty())
        fail("error without a message", bytes);
    checkLocation(e.location, bytes, "error location outside the document");
}

void indexJson(const QByteArray &bytes)
{
    const Result<MirrorIndexDocument> r = parseIndexJson(bytes, kSource);
    if (!r) {
        checkError(r.error(), bytes);
        return;
    }
    const MirrorIndexDocument &doc = r.value();
    checkIssues(doc.issues, bytes);
    for (qsizetype i = 1; i < doc.versions.size(); ++i)
        if (!(doc.versions.at(i - 1) < doc.versions.at(i)))
            fail("index.json versions not strictly ascending", bytes);
    if (doc.versions.size() > doc.keys.size())
        fail("more versions than keys", bytes);

    const QByteArray written = renderIndexJson(doc.keys);
    const Result<MirrorIndexDocument> again = parseIndexJson(written, kSource);
    if (!again)
        fail("index.json written from the keys does not read back", written);
    if (again->keys != doc.keys || again->versions != doc.versions)
        fail("index.json written from the keys reads back to other keys or versions", written);
    // Written back, the only issues may be the keys' own: invalid version keys, and (when no key
    // is a valid version) "lists no version", which the original document had too.
    for (const MirrorIndexIssue &i : again->issues) {
        const bool noVersions = i.kind == MirrorIndexIssue::Kind::NoVersions && doc.versions.isEmpty();
        if (i.kind != MirrorIndexIssue::Kind::InvalidVersionKey && !noVersions)
            fail("index.json written from the keys has a document-level issue", written);
    }
}

void versionJson(const QByteArray &bytes)
{
    const Result<MirrorVersionDocument> full = mirror_detail::parseVersionJsonFull(bytes, kSource);
    if (full)
        checkIssues(full->issues, bytes);
    else
        checkError(full.error(), bytes);

    if (const std::optional<MirrorVersionDocument> fast = mirror_detail::parseVersionJsonFast(bytes)) {
        if (!full || !full->issues.isEmpty())
            fail("the fast path accepted a document the full reader reports on", bytes);
        if (!fast->issues.isEmpty() || test::dumpVersionDocument(*fast) != test::dumpVersionDocument(full))
            fail("the fast path read another document",
                 (test::dumpVersionDocument(*fast) + u"\n---\n" + test::dumpVersionDocument(full)).toUtf8());
    }
    if (test::dumpVersionDocument(parseVersionJson(bytes, kSource)) != test::dumpVersionDocument(full))
        fail("parseVersionJson differs from the full reader", bytes);

    if (!full || !full->issues.isEmpty())
        return;
    const QByteArray written = renderVersionJson(test::archiveRecords(*full));
    const Result<MirrorVersionDocument> again = mirror_detail::parseVersionJsonFull(written, kSource);
    if (!again || !again->issues.isEmpty() || test::dumpArchives(*again) != test::dumpArchives(*full))
        fail("<version>.json written back reads back to another document",
             (written + "\n---\n" + test::dumpVersionDocument(again).toUtf8()));
    if (test::dumpVersionDocument(parseVersionJson(written, kSource)) != test::dumpVersionDocument(again))
        fail("parseVersionJson differs from the full reader on a written document", written);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    indexJson(bytes);
    versionJson(bytes);
    return 0;
}
