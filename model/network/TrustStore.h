#pragma once
// The system CA certificates as tofu and terraform find them on Linux: Go's crypto/x509
// (root_unix.go loadSystemRoots, root_linux.go), so that a private CA users already configured for
// tofu (SSL_CERT_FILE / SSL_CERT_DIR) works here too (docs/NETWORK.md "Trust store"):
//   1. Files: SSL_CERT_FILE when set and not empty, else Go's list (/etc/ssl/certs/ca-certificates.crt,
//      /etc/pki/tls/certs/ca-bundle.crt, ...). Only the FIRST file that can be read is used.
//   2. Directories: SSL_CERT_DIR when set and not empty (colon-separated, as OpenSSL), else Go's
//      list (/etc/ssl/certs, /etc/pki/tls/certs, /system/etc/security/cacerts). EVERY directory is
//      read: every entry except symlinks whose target has no '/' (the c_rehash hash links),
//      every PEM certificate in each file that can be read.
//   Both steps always run: setting only SSL_CERT_FILE replaces the file list but the default
//   directories are still read (and the reverse). A file or directory that does not exist is
//   skipped silently; other read errors are reported (warnings).
// `--ca-file` certificates are added on top by HttpRunner. Duplicates are dropped.

#include "model/core/Result.h"

#include <QList>
#include <QProcessEnvironment>
#include <QSslCertificate>
#include <QString>
#include <QStringList>

namespace provender {

struct TrustStore
{
    QList<QSslCertificate> certificates;
    QStringList sources;          ///< the file and directories read, in order
    QStringList warnings;         ///< files/directories that exist but could not be read
    bool fromEnvironment = false; ///< SSL_CERT_FILE or SSL_CERT_DIR was set (not empty)
};

/// Go's default lists (root_linux.go).
QStringList defaultCertFiles();
QStringList defaultCertDirectories();

/// Loads the store for the given values of SSL_CERT_FILE and SSL_CERT_DIR ("" = not set) and the
/// default lists (tests pass their own).
TrustStore loadTrustStore(const QString &certFileEnv, const QString &certDirEnv, const QStringList &certFiles = defaultCertFiles(),
                          const QStringList &certDirectories = defaultCertDirectories());

/// The PEM certificates of an extra CA file (`--ca-file`, a dialog's "Extra CA file"), trusted
/// besides the store; an InvalidArgument error "PATH: no PEM certificate could be read" when it
/// holds none.
Result<QList<QSslCertificate>> readCaFile(const QString &path);

/// loadTrustStore for this process's SSL_CERT_FILE / SSL_CERT_DIR, cached per pair of values
/// (thread-safe).
const TrustStore &systemTrustStore();

} // namespace provender
