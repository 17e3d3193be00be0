#pragma once
// A filesystem mirror built by make_lock_mirror.py (Python's zipfile/hashlib), with the hashes
// that script computed independently of our hashing code.

#include "tests/support/TestSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTemporaryDir>

namespace provender::test {

struct FixtureArchive
{
    const char *address;
    const char *version;
    const char *platform;
    bool unpacked = false;
    bool dirEntries = false;
    bool corrupt = false;
};

class LockMirrorFixture
{
public:
    /// Builds the mirror; check error() afterwards ("" on success).
    explicit LockMirrorFixture(const QList<FixtureArchive> &archives)
    {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("no temporary directory");
            return;
        }
        if (python3().isEmpty()) {
            m_error = QStringLiteral("python3 not found");
            return;
        }
        QJsonArray list;
        for (const FixtureArchive &a : archives) {
            QJsonObject o;
            o[QStringLiteral("address")] = QString::fromUtf8(a.address);
            o[QStringLiteral("version")] = QString::fromUtf8(a.version);
            o[QStringLiteral("platform")] = QString::fromUtf8(a.platform);
            o[QStringLiteral("layout")] = a.unpacked ? QStringLiteral("unpacked") : QStringLiteral("packed");
            o[QStringLiteral("dir_entries")] = a.dirEntries;
            o[QStringLiteral("corrupt")] = a.corrupt;
            list.append(o);
        }
        QJsonObject spec;
        spec[QStringLiteral("archives")] = list;
        QString error;
        const QByteArray out = runPython({sourceDir() + QStringLiteral("/tests/support/make_lock_mirror.py"), root()}, &error, 60000,
                                         QJsonDocument(spec).toJson());
        if (out.isNull()) {
            m_error = QStringLiteral("make_lock_mirror.py failed: ") + error;
            return;
        }
        m_expected = QJsonDocument::fromJson(out).object();
    }

    QString error() const { return m_error; }
    QString root() const { return m_dir.path() + QStringLiteral("/mirror"); }
    QString base() const { return m_dir.path(); }
    /// Python's hashes of one archive: field "h1" (extracted), "h1_zip", "zh" or "path".
    QString expected(const char *address, const char *version, const char *platform, const char *field) const
    {
        const QString key =
            QString::fromUtf8(address) + QLatin1Char(' ') + QString::fromUtf8(version) + QLatin1Char(' ') + QString::fromUtf8(platform);
        return m_expected.value(key).toObject().value(QString::fromUtf8(field)).toString();
    }

private:
    QTemporaryDir m_dir;
    QString m_error;
    QJsonObject m_expected;
};

} // namespace provender::test
