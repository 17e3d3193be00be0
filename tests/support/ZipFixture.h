#pragma once
// Test helper: writes zip archives with QuaZip, entry by entry, with exact name bytes, stored or
// deflated data, and Unix or DOS directory attributes.

#include "tests/support/TestSupport.h"

#include <quazip/quazip.h>
#include <quazip/quazipfile.h>
#include <quazip/quazipnewinfo.h>

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <zlib.h>

namespace provender::test {

struct ZipEntrySpec
{
    enum Method { Deflate, Store };
    QByteArray name;    ///< exact bytes written to the archive
    QByteArray content; ///< ignored for directory entries
    Method method = Deflate;
    quint32 unixMode = 0100644; ///< written to the external attributes (high 16 bits)
    int level = Z_DEFAULT_COMPRESSION;

    static ZipEntrySpec file(QByteArray name, QByteArray content, Method method = Deflate)
    {
        return ZipEntrySpec{std::move(name), std::move(content), method, 0100644, Z_DEFAULT_COMPRESSION};
    }
    static ZipEntrySpec executable(QByteArray name, QByteArray content, Method method = Deflate)
    {
        return ZipEntrySpec{std::move(name), std::move(content), method, 0100755, Z_DEFAULT_COMPRESSION};
    }
    /// A directory entry as `zip -r` writes it: name ending in '/', Unix directory mode.
    static ZipEntrySpec directory(QByteArray name) { return ZipEntrySpec{std::move(name), {}, Store, 040755, Z_DEFAULT_COMPRESSION}; }
};

/// Writes `entries` in order to `path`. Names are written byte for byte (Latin-1 codec trick);
/// with `utf8Flag` the general-purpose flag 0x800 is set and names must be valid UTF-8.
inline bool writeZip(const QString &path, const QList<ZipEntrySpec> &entries, bool utf8Flag = false, QString *error = nullptr)
{
    QuaZip zip(path);
    zip.setOsCode(3); // Unix: the external attributes carry st_mode
    if (utf8Flag)
        zip.setUtf8Enabled(true);
    else
        zip.setFileNameCodec("ISO-8859-1");
    if (!zip.open(QuaZip::mdCreate)) {
        if (error)
            *error = QStringLiteral("cannot create %1 (QuaZip error %2)").arg(path).arg(zip.getZipError());
        return false;
    }
    for (const ZipEntrySpec &e : entries) {
        QuaZipNewInfo info(utf8Flag ? QString::fromUtf8(e.name) : QString::fromLatin1(e.name));
        info.dateTime = QDateTime(QDate(2024, 1, 2), QTime(3, 4, 6));
        info.externalAttr = (e.unixMode << 16) | (((e.unixMode & 0170000) == 040000) ? 0x10u : 0u);
        QuaZipFile out(&zip);
        const int method = e.method == ZipEntrySpec::Store ? 0 : Z_DEFLATED;
        if (!out.open(QIODevice::WriteOnly, info, nullptr, 0, method, e.level)) {
            if (error)
                *error = QStringLiteral("cannot add %1 (QuaZip error %2)").arg(QString::fromUtf8(e.name)).arg(out.getZipError());
            return false;
        }
        if (!e.content.isEmpty() && out.write(e.content) != e.content.size()) {
            if (error)
                *error = QStringLiteral("cannot write %1").arg(QString::fromUtf8(e.name));
            return false;
        }
        out.close();
        if (out.getZipError() != 0) {
            if (error)
                *error = QStringLiteral("cannot close %1 (QuaZip error %2)").arg(QString::fromUtf8(e.name)).arg(out.getZipError());
            return false;
        }
    }
    zip.close();
    if (zip.getZipError() != 0) {
        if (error)
            *error = QStringLiteral("cannot finish %1 (QuaZip error %2)").arg(path).arg(zip.getZipError());
        return false;
    }
    return true;
}

} // namespace provender::test
