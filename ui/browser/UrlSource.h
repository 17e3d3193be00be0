#pragma once
// A network mirror as a source of the browser: how a URL typed on the command line, dropped on the
// window or picked from a recent list becomes a RemoteRequest (which model/network's
// openRemoteSource turns into a NetworkSource). The Open URL dialog (ui/remote) remembers each form it opens under its URL; opening that
// URL again from anywhere reuses it, and a URL never opened through the dialog lists its
// providers from the mirror's directory listing (nginx/Apache autoindex).
//
// QSettings: "remote/requests" — a list of maps (url, source, providers, lockFile, caFile,
// allowHttpLoopback, cacheDir), newest first, at most 10. Never a token: a URL with user info is
// refused by parseMirrorBaseUrl and never stored.

#include "model/network/RemoteSession.h"

#include <QString>

namespace provender::ui {

/// True for text that names a network mirror (http:// or https://), not a local path.
bool isMirrorUrl(const QString &text);

/// The request to open `url` with: the one remembered for it, else its directory listing.
RemoteRequest requestForUrl(const QString &url);
/// Remember `request` (its form, without environment or limits) for requestForUrl().
void rememberUrlRequest(const RemoteRequest &request);

} // namespace provender::ui
