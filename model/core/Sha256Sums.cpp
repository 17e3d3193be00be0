#include "model/core/Sha256Sums.h"

using namespace Qt::StringLiterals;

namespace provender {

namespace {

/// Go's bytes.Fields: split on runs of ASCII white space.
QList<QByteArrayView> fields(QByteArrayView line)
{
    QList<QByteArrayView> out;
    qsizetype i = 0;
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (i < line.size()) {
        while (i < line.size() && space(line.at(i)))
            ++i;
        const qsizetype start = i;
        while (i < line.size() && !space(line.at(i)))
            ++i;
        if (i > start)
            out << line.sliced(start, i - start);
    }
    return out;
}

} // namespace

bool isSha256Hex(QByteArrayView text)
{
    if (text.size() != 64)
        return false;
    for (const char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    return true;
}

Result<QByteArray> sha256SumsLookup(const QByteArray &document, const QString &filename)
{
    const QByteArray name = filename.toUtf8();
    qsizetype start = 0;
    while (start <= document.size()) {
        qsizetype end = document.indexOf('\n', start);
        if (end < 0)
            end = document.size();
        const QList<QByteArrayView> parts = fields(QByteArrayView(document).sliced(start, end - start));
        if (parts.size() > 1 && parts.at(1) == QByteArrayView(name)) {
            if (!isSha256Hex(parts.at(0)))
                return makeError(ErrorCode::InvalidArgument,
                                 u"checksum list has invalid SHA256 hash \"%1\""_s.arg(QString::fromUtf8(parts.at(0))));
            return QByteArray::fromHex(parts.at(0).toByteArray());
        }
        start = end + 1;
    }
    return makeError(ErrorCode::NotFound, u"checksum list has no SHA-256 hash for \"%1\""_s.arg(filename));
}

QList<Sha256SumsEntry> sha256SumsEntries(const QByteArray &document)
{
    QList<Sha256SumsEntry> out;
    qsizetype start = 0;
    while (start < document.size()) {
        qsizetype end = document.indexOf('\n', start);
        if (end < 0)
            end = document.size();
        const QList<QByteArrayView> parts = fields(QByteArrayView(document).sliced(start, end - start));
        start = end + 1;
        if (parts.isEmpty())
            continue;
        if (parts.size() < 2 || !isSha256Hex(parts.at(0)))
            return {}; // not a checksums file
        // A name that is not UTF-8 cannot be held in a QString as it is; decoded, it could stand
        // for another line's name ("\xff" reads as U+FFFD, which is "\xef\xbf\xbd"). Such an
        // entry keeps its sum (terraform records every line's) and gets no name to match.
        QString name = QString::fromUtf8(parts.at(1));
        if (name.toUtf8() != parts.at(1))
            name.clear();
        out << Sha256SumsEntry{QByteArray::fromHex(parts.at(0).toByteArray()), name};
    }
    return out;
}

QList<HashString> sha256SumsHashes(const QByteArray &document)
{
    QList<HashString> out;
    for (const Sha256SumsEntry &e : sha256SumsEntries(document))
        out << HashString::zh(QString::fromLatin1(e.sha256.toHex()));
    return out;
}

} // namespace provender
