#pragma once
// Builds mirror directory trees in a temporary directory (the mirror and interop tests) and scans
// them (scanOk), and the Python zip writer whose hashes are independent of ours. The served mirror
// of the network tests is ServedMirror.h.

#include "model/mirror/FileSystemMirror.h"
#include "tests/support/TestSupport.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

namespace provender::test {

class MirrorFixture
{
public:
    MirrorFixture() : m_root(m_dir.path() + QStringLiteral("/mirror")) { QDir().mkpath(m_root); }

    bool isValid() const { return m_dir.isValid(); }
    /// The mirror root (inside the temporary directory, so siblings can be created).
    const QString &root() const { return m_root; }
    QString base() const { return m_dir.path(); }
    QString path(const QString &rel) const { return m_root + QLatin1Char('/') + rel; }

    /// Creates a file (and its parent directories) under the root.
    bool file(const QString &rel, const QByteArray &content = QByteArrayLiteral("placeholder\n")) const
    {
        return writeAbsolute(path(rel), content);
    }
    bool dir(const QString &rel) const { return QDir().mkpath(path(rel)); }
    /// A symlink at `rel` pointing at `target` (written as given: relative or absolute).
    bool link(const QString &rel, const QString &target) const
    {
        QDir().mkpath(QFileInfo(path(rel)).path());
        return QFile::link(target, path(rel));
    }
    static bool writeAbsolute(const QString &absolute, const QByteArray &content) { return writeFile(absolute, content); }

private:
    QTemporaryDir m_dir;
    QString m_root;
};

/// The catalog of the mirror at `root` (scanFileSystemMirror), or an empty one with a warning
/// that says why the scan failed.
inline Catalog scanOk(const QString &root, const ScanOptions &options = {})
{
    Result<Catalog> r = scanFileSystemMirror(root, options);
    if (!r.ok())
        qWarning("scan failed: %s", qPrintable(r.error().toString()));
    return r.ok() ? r.value() : Catalog{};
}

/// A Python program that writes zip files and prints, per zip, a line
/// `<path> <h1 of the zip as Go's dirhash.HashZip computes it> <zh:>`: an implementation of
/// tofu-formats.md §3.3/§3.4 independent of ours (zipfile + hashlib). Arguments: for each zip,
/// `PATH ENTRY[=CONTENT] ...` separated by `--`; an ENTRY ending in `/` is a directory entry.
inline const char *kZipWriterPy = R"PY(
import sys, zipfile, hashlib, base64
def hash_zip(path):
    lines = []
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        last = {}
        for i in infos:
            last[i.filename] = z.read(i) if not i.filename.endswith('/') else b''
        for name in sorted((i.filename for i in infos), key=lambda n: n.encode('utf-8')):
            lines.append('%s  %s\n' % (hashlib.sha256(last[name]).hexdigest(), name))
    summary = ''.join(lines).encode('utf-8')
    return 'h1:' + base64.b64encode(hashlib.sha256(summary).digest()).decode()
def zh(path):
    with open(path, 'rb') as f:
        return 'zh:' + hashlib.sha256(f.read()).hexdigest()
groups, cur = [], []
for a in sys.argv[1:]:
    if a == '--':
        groups.append(cur); cur = []
    else:
        cur.append(a)
if cur:
    groups.append(cur)
for g in groups:
    path, entries = g[0], g[1:]
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
        for e in entries:
            name, _, content = e.partition('=')
            if name.endswith('/'):
                z.writestr(zipfile.ZipInfo(name), b'')
            else:
                z.writestr(name, (content or ('contents of ' + name + '\n')).encode('utf-8'))
    print(path, hash_zip(path), zh(path))
)PY";

} // namespace provender::test
