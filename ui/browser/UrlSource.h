#pragma once
// A network mirror as a source of the browser: how a URL typed on the command line, dropped on the
// window or picked from a recent list becomes a RemoteRequest, and what a one-archive re-verify
// needs. The Open URL dialog (ui/remote) remembers each form it opens under its URL; opening that
// URL again from anywhere reuses it, and a URL never opened through the dialog lists its
// providers from the mirror's directory listing (nginx/Apache autoindex).
//
// QSettings: "remote/requests" — a list of maps (url, source, providers, lockFile, caFile,
// allowHttpLoopback, cacheDir), newest first, at most 10. Never a token: a URL with user info is
// refused by parseMirrorBaseUrl and never stored.

#include "model/network/NetworkSource.h"
#include "model/network/RemoteSession.h"
#include "model/network/RemoteVerify.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace provender::ui {

/// True for text that names a network mirror (http:// or https://), not a local path.
bool isMirrorUrl(const QString &text);

/// The request to open `url` with: the one remembered for it, else its directory listing.
RemoteRequest requestForUrl(const QString &url);
/// Remember `request` (its form, without environment or limits) for requestForUrl().
void rememberUrlRequest(const RemoteRequest &request);

/// The verify options a RemoteSession run of `request` uses (HTTP limits, extra CAs, retries,
/// the lock file's expected hashes), for re-verifying single archives. Fails when the CA file or
/// the lock file cannot be read.
Result<RemoteVerifyOptions> remoteVerifyOptions(const RemoteRequest &request);

/// What opening a URL source gives: the source (its providers resolved) and what the run should
/// know.
struct OpenedUrl
{
    std::shared_ptr<NetworkSource> source;
    ExpectedHashes expected; ///< a lock file's hashes (lock-file semantics), when the request names one
    QStringList notes;       ///< warnings: the URL, the lock file, the crawl, the credential
};

/// Resolve `request` into a NetworkSource — its providers from the typed addresses, the lock
/// file, or the mirror's directory listing (crawlAutoindex), its token as tofu finds it — ready
/// for list() and the verification engine. Blocks (the crawl): call off the GUI thread.
/// `onRequest` gets every request the source makes, crawl included (on whatever thread makes it).
Result<OpenedUrl> openNetworkSource(const RemoteRequest &request, std::function<void(const RequestLogEntry &)> onRequest,
                                    const std::atomic<bool> *cancel = nullptr);

} // namespace provender::ui
