#include "model/network/RemoteSession.h"

#include "model/core/Logging.h"
#include "model/lockfile/LockFile.h"
#include "model/network/NetworkMirror.h"
#include "model/network/RemoteVerify.h"
#include "model/network/TrustStore.h"
#include "model/verify/VerifyEngine.h"

#include <QDir>
#include <QElapsedTimer>
#include <QSslCertificate>
#include <QThread>

#include <atomic>

namespace provender {

Result<LockSelection> lockSelection(const QString &lockFile)
{
    const Result<LockParseResult> lock = readLockFile(lockFile);
    if (!lock.ok())
        return lock.error();
    LockSelection out;
    for (const LockDiagnostic &d : lock.value().errors())
        out.warnings.append(d.toString(lockFile));
    for (const ProviderLock &p : lock.value().document.providers) {
        if (!out.providers.contains(p.address))
            out.providers.append(p.address);
        out.onlyVersions[p.address].append(p.version);
        out.expected[ProviderVersionKey{p.address, p.version}] = p.hashes;
    }
    return out;
}

std::optional<Credential> mirrorCredential(const QString &baseUrl, const QProcessEnvironment &env, const QString &homeDir,
                                           QStringList *warnings)
{
    const Result<QUrl> base = parseMirrorBaseUrl(baseUrl, true);
    if (!base.ok())
        return std::nullopt;
    return findCredential(mirrorCredentialsHost(base.value()), env, homeDir, warnings);
}

HttpSettings httpSettings(const RemoteRequest &request)
{
    HttpSettings http;
    http.maxParallel = std::max(1, request.maxParallel);
    http.timeoutMs = std::max(1, request.timeoutMs);
    http.deadlineMs = std::max<qint64>(0, request.deadlineMs);
    http.minBytesPerSecond = std::max<qint64>(0, request.minBytesPerSecond);
    http.maxErrorBodyBytes = request.maxErrorBodyBytes;
    http.allowHttpLoopback = request.allowHttpLoopback;
    return http;
}

Result<RemoteSourceSetup> openRemoteSource(const RemoteRequest &request, HttpSettings http, const std::atomic<bool> *cancel)
{
    RemoteSourceSetup out;
    auto fail = [](const QString &text) { return makeError(ErrorCode::InvalidArgument, text); };
    if (!request.caFile.isEmpty()) {
        Result<QList<QSslCertificate>> certs = readCaFile(request.caFile);
        if (!certs.ok())
            return certs.error();
        http.caCertificates = std::move(certs).value();
    }
    QString warning;
    const Result<QUrl> base = parseMirrorBaseUrl(request.baseUrl, request.allowHttpLoopback, &warning);
    if (!base.ok())
        return fail(base.error().message);
    if (!warning.isEmpty())
        out.notes.append(warning);

    NetworkMirrorOptions mirrorOptions;
    RemoteVerifyOptions verifyOptions;
    QList<ProviderAddress> providers;
    switch (request.source) {
    case RemoteRequest::ProviderSource::Addresses: providers = request.providers; break;
    case RemoteRequest::ProviderSource::LockFile: {
        const Result<LockSelection> lock = lockSelection(request.lockFile);
        if (!lock.ok())
            return fail(lock.error().message);
        out.notes += lock.value().warnings;
        providers = lock.value().providers;
        mirrorOptions.onlyVersions = lock.value().onlyVersions;
        out.verify.expected = lock.value().expected;
        break;
    }
    case RemoteRequest::ProviderSource::Autoindex: {
        AutoindexOptions crawl = request.autoindex;
        crawl.http = http;
        const Result<AutoindexResult> found = crawlAutoindex(base.value().toString(), crawl, cancel);
        if (!found.ok())
            return fail(found.error().message);
        if (found.value().cancelled) {
            out.cancelled = true;
            return out;
        }
        out.notes += found.value().warnings;
        providers = found.value().providers;
        break;
    }
    }
    if (providers.isEmpty())
        return fail(
            request.source == RemoteRequest::ProviderSource::Autoindex
                ? QStringLiteral("the directory listing of %1 shows no provider (no HOST/NAMESPACE/TYPE/index.json)").arg(request.baseUrl)
                : QStringLiteral("no providers to check: a network mirror cannot list its providers; name them, "
                                 "choose a lock file or use the mirror's directory listing"));

    if (request.useCredentials) {
        QStringList warnings;
        mirrorOptions.credential = findCredential(mirrorCredentialsHost(base.value()), request.environment, request.homeDir, &warnings);
        out.notes += warnings;
        if (mirrorOptions.credential) {
            const Credential &c = *mirrorOptions.credential;
            out.credential = c;
            out.notes.append(QStringLiteral("Credentials for %1: token %2 from %3").arg(c.host, c.maskedToken(), c.source));
            if (base.value().scheme() != QLatin1StringView("https"))
                out.notes.append(credentialNotSentOverHttp(c.host));
        }
    }
    mirrorOptions.http = http;
    mirrorOptions.maxJsonBytes = request.maxJsonBytes;
    verifyOptions.http = http;
    verifyOptions.retries = request.retries;
    verifyOptions.backoffMs = request.backoffMs;
    verifyOptions.maxBackoffMs = request.maxBackoffMs;
    verifyOptions.cacheDir = request.cacheDir;
    verifyOptions.maxArchiveBytes = request.maxArchiveBytes;
    out.source = std::make_unique<NetworkSource>(request.baseUrl, providers, mirrorOptions, verifyOptions);
    return out;
}

struct RemoteSession::Run
{
    quint64 generation = 0;
    std::atomic<bool> cancel{false};
    QThread *thread = nullptr;
};

namespace {

/// Posts `f` to `target`'s thread unless the run is superseded by then.
template<typename F> void post(RemoteSession *target, F &&f)
{
    QMetaObject::invokeMethod(target, std::forward<F>(f), Qt::QueuedConnection);
}

} // namespace

RemoteSession::RemoteSession(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<ArchiveResult>();
    qRegisterMetaType<VerifySummary>();
    qRegisterMetaType<RequestLogEntry>();
    qRegisterMetaType<Catalog>();
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(150);
    connect(&m_flushTimer, &QTimer::timeout, this, &RemoteSession::flush);
}

RemoteSession::~RemoteSession()
{
    for (const auto &run : std::as_const(m_runs)) {
        run->cancel = true;
        if (run->thread) {
            run->thread->wait();
            delete run->thread;
        }
    }
}

void RemoteSession::cancel()
{
    if (m_current)
        m_current->cancel = true;
}

void RemoteSession::flush()
{
    m_flushTimer.stop();
    if (m_batch.isEmpty())
        return;
    const QList<ArchiveResult> batch = std::exchange(m_batch, {});
    Q_EMIT archivesVerified(batch);
}

void RemoteSession::reap()
{
    for (qsizetype i = m_runs.size() - 1; i >= 0; --i) {
        const auto &run = m_runs.at(i);
        if (run->thread && run->thread->isFinished()) {
            run->thread->wait();
            delete run->thread;
            m_runs.removeAt(i);
        }
    }
}

quint64 RemoteSession::start(const RemoteRequest &request)
{
    if (m_current)
        m_current->cancel = true;
    reap();
    m_flushTimer.stop();
    m_batch.clear(); // results of the superseded run are dropped
    m_catalog = Catalog{};
    m_log.clear();
    m_credential.reset();

    auto run = std::make_shared<Run>();
    run->generation = ++m_generation;
    m_current = run;
    m_running = true;
    const quint64 gen = run->generation;

    // Everything the worker needs, resolved now (cheap: small files).
    HttpSettings http = httpSettings(request);
    http.onRequestLogged = [this, gen](const RequestLogEntry &entry) {
        post(this, [this, gen, entry] {
            if (gen != m_generation)
                return;
            m_log.append(entry);
            Q_EMIT requestFinished(entry);
        });
    };

    run->thread = QThread::create([this, run, request, http] { work(run, request, http); });
    run->thread->setObjectName(QStringLiteral("RemoteSession"));
    m_runs.append(run);
    run->thread->start();
    return gen;
}

void RemoteSession::work(const std::shared_ptr<Run> &run, const RemoteRequest &request, const HttpSettings &http)
{
    // On the run's thread: everything it finds reaches the GUI thread through post(), dropped
    // there once a newer run started.
    const quint64 gen = run->generation;
    auto fail = [this, gen](const QString &text) {
        post(this, [this, gen, text] {
            if (gen != m_generation)
                return;
            m_running = false;
            flush();
            Q_EMIT failed(text);
        });
    };
    auto note = [this, gen](const QString &text) {
        post(this, [this, gen, text] {
            if (gen == m_generation)
                Q_EMIT message(text);
        });
    };
    auto finishWith = [this, gen](const VerifySummary &summary) {
        post(this, [this, gen, summary] {
            if (gen != m_generation)
                return;
            flush();
            m_running = false;
            Q_EMIT finished(summary);
        });
    };
    auto cancelledSummary = [&finishWith] {
        VerifySummary s;
        s.cancelled = true;
        finishWith(s);
    };

    Result<RemoteSourceSetup> setup = openRemoteSource(request, http, &run->cancel);
    if (!setup.ok())
        return fail(setup.error().message);
    if (setup.value().cancelled)
        return cancelledSummary();
    for (const QString &n : std::as_const(setup.value().notes))
        note(n);
    if (setup.value().credential) {
        const Credential c = *setup.value().credential;
        post(this, [this, gen, c] {
            if (gen == m_generation)
                m_credential = c;
        });
    }
    NetworkSource &source = *setup.value().source;
    const Result<Catalog> listed = source.list(&run->cancel);
    if (!listed.ok()) {
        if (listed.error().code == ErrorCode::Cancelled)
            return cancelledSummary();
        return fail(listed.error().message);
    }
    const Catalog &catalog = listed.value();
    post(this, [this, gen, catalog] {
        if (gen != m_generation)
            return;
        m_catalog = catalog;
        Q_EMIT catalogReady(catalog);
    });

    auto onResult = [this, gen](const ArchiveResult &r) {
        post(this, [this, gen, r] {
            if (gen != m_generation)
                return;
            m_batch.append(r);
            if (!m_flushTimer.isActive())
                m_flushTimer.start();
        });
    };
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    auto sendProgress = [this, gen](qint64 done, qint64 total) {
        post(this, [this, gen, done, total] {
            if (gen == m_generation)
                Q_EMIT progress(done, total);
        });
    };
    const VerifyReport report = verifySource(
        source, catalog, setup.value().verify,
        [&](qint64 done, qint64 total) {
            if (sinceProgress.elapsed() >= 100) {
                sinceProgress.restart();
                sendProgress(done, total);
            }
        },
        &run->cancel, onResult);
    sendProgress(source.bytesDownloaded(), source.bytesDownloaded());
    finishWith(report.summary);
}

} // namespace provender
