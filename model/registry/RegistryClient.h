#pragma once
// A client for an origin registry's providers.v1 protocol (tofu-formats.md §12), on the shared
// HTTP engine (model/network/HttpRunner: TLS always verified, redirect and Authorization rules,
// stall timeouts, body caps). Blocking calls that run a local event loop: call them from a worker.
//
//   - service discovery: `host "HOST" { services = { "providers.v1" = "…" } }` blocks of the CLI
//     config override it, as in tofu/terraform; otherwise GET https://HOST/.well-known/terraform.json
//     and resolve `providers.v1` against that URL;
//   - the token (TF_TOKEN_…, `credentials` blocks, credentials.tfrc.json) goes to the registry's
//     own host only, as `Authorization: Bearer`; never to download, SHA256SUMS or signature URLs
//     on other hosts (HttpRunner drops it on redirects to another host);
//   - documents are read by RegistryDocuments.h; archives stream to a sink with their SHA-256
//     computed on the way (no archive is ever held in memory).

#include "model/core/Platform.h"
#include "model/core/ProviderAddress.h"
#include "model/core/Result.h"
#include "model/core/Version.h"
#include "model/network/Credentials.h"
#include "model/network/HttpRunner.h"
#include "model/registry/RegistryDocuments.h"

#include <QHash>
#include <QProcessEnvironment>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>

namespace provender {

struct RegistryOptions
{
    HttpSettings http;
    /// providers.v1 base URL per host (comparison form), from the CLI config's `host` blocks.
    QHash<QString, QUrl> serviceOverrides;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment(); ///< for credentials
    QString homeDir;                                                            ///< "" = the user's
    bool useCredentials = true;
    qint64 maxDocumentBytes = 4 * 1024 * 1024; ///< JSON documents, SHA256SUMS, signatures
    qint64 maxArchiveBytes = qint64(4) * 1024 * 1024 * 1024;
};

/// `host` blocks of a CLI config text: host as written → its `providers.v1` service URL.
QHash<QString, QUrl> providerServicesFromCliConfig(const QByteArray &text, QStringList *warnings = nullptr);
/// The same, read from the CLI config file tofu/terraform would read (TF_CLI_CONFIG_FILE, …).
QHash<QString, QUrl> providerServicesFromEnvironment(const QProcessEnvironment &env, const QString &homeDir,
                                                     QStringList *warnings = nullptr);

/// The certificates of an extra CA file for registry requests (readCaFile), in the registry
/// commands' words: an InvalidArgument error "no certificate in PATH" when it holds none.
Result<QList<QSslCertificate>> readRegistryCaFile(const QString &path);

struct DownloadedArchive
{
    QByteArray sha256; ///< of every byte received
    qint64 size = 0;
    QUrl finalUrl;
};

class RegistryClient
{
public:
    explicit RegistryClient(RegistryOptions options);
    ~RegistryClient();
    RegistryClient(const RegistryClient &) = delete;
    RegistryClient &operator=(const RegistryClient &) = delete;

    /// The providers.v1 base URL for `host` (memoized).
    Result<QUrl> providersBase(const QString &host);
    Result<RegistryVersions> versions(const ProviderAddress &provider);
    Result<RegistryDownload> download(const ProviderAddress &provider, const Version &version, const Platform &platform);
    /// A small document (SHA256SUMS, its signature): body capped by maxDocumentBytes.
    Result<QByteArray> fetchDocument(const QUrl &url);
    /// Streams `url` into `sink` (return false to stop); the SHA-256 is computed on the way.
    Result<DownloadedArchive> fetchArchive(const QUrl &url, const std::function<bool(const char *, qint64)> &sink,
                                           const std::atomic<bool> *cancel = nullptr);

    /// Several archives at once (up to HttpSettings::maxParallel in flight), each streamed into
    /// its own sink with its SHA-256 computed on the way (unless the entry says otherwise); one
    /// result per entry, in order.
    struct ArchiveFetch
    {
        QUrl url;
        std::function<bool(const char *, qint64)> sink;
        /// false: the sink hashes the bytes itself (StreamedArchive); DownloadedArchive::sha256 stays empty.
        bool sha256 = true;
        /// Called as soon as this download has ended (true: every byte is in the sink), before
        /// the others have.
        std::function<void(bool complete)> done;
        /// Backpressure (HttpJob::ready): false while the sink would wait; it then calls `wake`
        /// once it would not.
        std::function<bool(const HttpWake &wake)> ready;
    };
    QList<Result<DownloadedArchive>> fetchArchives(const QList<ArchiveFetch> &fetches, const std::atomic<bool> *cancel = nullptr);

    const QList<RequestLogEntry> &log() const;

private:
    struct Fetched
    {
        HttpOutcome outcome;
    };
    Fetched get(const QUrl &url, bool withToken, const QString &tokenHost, qint64 cap,
                const std::function<bool(const char *, qint64)> &sink = {}, const std::atomic<bool> *cancel = nullptr);
    QByteArray authorizationFor(const QString &host);

    RegistryOptions m_options;
    std::unique_ptr<HttpRunner> m_http;
    QHash<QString, QUrl> m_bases;
    QHash<QString, QByteArray> m_tokens;
};

} // namespace provender
