#include "model/network/TrustStore.h"

#include "model/core/Logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include <unistd.h>

namespace provender {

QStringList defaultCertFiles()
{
    return {
        QStringLiteral("/etc/ssl/certs/ca-certificates.crt"),                // Debian/Ubuntu/Gentoo etc.
        QStringLiteral("/etc/pki/tls/certs/ca-bundle.crt"),                  // Fedora/RHEL 6
        QStringLiteral("/etc/ssl/ca-bundle.pem"),                            // OpenSUSE
        QStringLiteral("/etc/pki/tls/cacert.pem"),                           // OpenELEC
        QStringLiteral("/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"), // CentOS/RHEL 7
        QStringLiteral("/etc/ssl/cert.pem"),                                 // Alpine Linux
    };
}

QStringList defaultCertDirectories()
{
    return {
        QStringLiteral("/etc/ssl/certs"),               // SLES10/SLES11
        QStringLiteral("/etc/pki/tls/certs"),           // Fedora/RHEL
        QStringLiteral("/system/etc/security/cacerts"), // Android
    };
}

namespace {

void append(TrustStore &store, const QByteArray &pem)
{
    for (const QSslCertificate &c : QSslCertificate::fromData(pem, QSsl::Pem))
        if (!c.isNull() && !store.certificates.contains(c))
            store.certificates.append(c);
}

/// os.ReadFile: the contents, or nullopt; `absent` tells "does not exist" (also a dangling
/// symlink: ENOENT) from other errors.
std::optional<QByteArray> readWhole(const QString &path, bool *absent, QString *error)
{
    const QFileInfo info(path);
    *absent = !info.exists();
    if (*absent)
        return std::nullopt;
    if (info.isDir()) {
        *error = QStringLiteral("is a directory");
        return std::nullopt;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return std::nullopt;
    }
    return f.readAll();
}

} // namespace

TrustStore loadTrustStore(const QString &certFileEnv, const QString &certDirEnv, const QStringList &certFiles,
                          const QStringList &certDirectories)
{
    TrustStore store;
    store.fromEnvironment = !certFileEnv.isEmpty() || !certDirEnv.isEmpty();

    const QStringList files = certFileEnv.isEmpty() ? certFiles : QStringList{certFileEnv};
    for (const QString &file : files) {
        bool absent = false;
        QString error;
        const std::optional<QByteArray> data = readWhole(file, &absent, &error);
        if (data) {
            append(store, *data);
            store.sources.append(file);
            break; // the first file that can be read
        }
        if (!absent)
            store.warnings.append(QStringLiteral("%1: %2").arg(file, error));
    }

    // OpenSSL's separator for SSL_CERT_DIR; an empty element is an empty path (absent).
    const QStringList dirs = certDirEnv.isEmpty() ? certDirectories : certDirEnv.split(QLatin1Char(':'));
    for (const QString &directory : dirs) {
        const QFileInfo info(directory);
        if (directory.isEmpty() || !info.exists())
            continue;
        QDir dir(directory);
        if (!info.isDir() || !info.isReadable()) {
            store.warnings.append(QStringLiteral("%1: not a readable directory").arg(directory));
            continue;
        }
        store.sources.append(directory);
        const QStringList entries = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &name : entries) {
            const QString path = directory + QLatin1Char('/') + name;
            const QFileInfo entry(path);
            // Go's isSameDirSymlink: a link whose target has no '/' is a second name of a file
            // that is read anyway (c_rehash's HASH.0 links).
            if (entry.isSymLink()) {
                const QByteArray target = QFile::encodeName(path);
                char buffer[4096];
                const ssize_t n = ::readlink(target.constData(), buffer, sizeof buffer);
                if (n > 0 && !QByteArrayView(buffer, n).contains('/'))
                    continue;
            }
            bool absent = false;
            QString error;
            if (const std::optional<QByteArray> data = readWhole(path, &absent, &error))
                append(store, *data);
        }
    }
    return store;
}

const TrustStore &systemTrustStore()
{
    static std::mutex mutex;
    static std::map<std::pair<QString, QString>, std::unique_ptr<TrustStore>> cache;
    const QString file = qEnvironmentVariable("SSL_CERT_FILE");
    const QString dir = qEnvironmentVariable("SSL_CERT_DIR");
    const std::lock_guard lock(mutex);
    auto &slot = cache[{file, dir}];
    if (!slot) {
        slot = std::make_unique<TrustStore>(loadTrustStore(file, dir));
        qCDebug(lcNetwork).noquote() << "trust store:" << slot->certificates.size() << "certificates from"
                                     << slot->sources.join(QStringLiteral(", "))
                                     << (slot->fromEnvironment ? "(SSL_CERT_FILE/SSL_CERT_DIR)" : "");
        for (const QString &w : std::as_const(slot->warnings))
            qCWarning(lcNetwork).noquote() << "trust store:" << w;
    }
    return *slot;
}

Result<QList<QSslCertificate>> readCaFile(const QString &path)
{
    QList<QSslCertificate> certs = QSslCertificate::fromPath(path, QSsl::Pem);
    if (certs.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("%1: no PEM certificate could be read").arg(path));
    return certs;
}

} // namespace provender
