#pragma once
// Python pieces of tst_network_hostile: a small HTTP(S) server for the cases nginx cannot play
// (a body that drips one byte a second, an error body that never ends, a huge archive with or
// without Content-Length, redirects to any URL) and the generator of the served mirror.
// Both are independent of Provender: the zips and hashes come from Python's zipfile/hashlib.

namespace provender::test {

// argv: root log [cert key]. Serves `root` (static files, .json as application/json, .zip as
// application/zip) over HTTP/1.0 on 127.0.0.1 and a free port, printed on the first stdout line;
// TLS when cert and key are given. Every request is appended to `log` as
//   <METHOD> <path> auth="<Authorization header or ->"
// and every special body's size as `sent <n> <path>` when the client went away.
//   /drip/...            200 application/json, no length, one byte a second (at most 600)
//   /driphead/...        a status line, then header bytes one a second (the headers never end)
//   /hugeerror/...       500 with a body that never ends (64 KiB chunks)
//   /bigbody/<n>/...     200 application/zip, no length, n bytes
//   /biglength/...       200 with Content-Length 3 GiB, then 1 KiB a second
//   /redirect?to=<url>   302 to <url> (percent-decoded)
inline const char *kHostileServer = R"PY(
import sys, os, ssl, time, threading, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
root, logpath = sys.argv[1], sys.argv[2]
lock = threading.Lock()
def log(line):
    with lock:
        with open(logpath, 'a') as f:
            f.write(line + '\n')
class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def stream(self, chunk, count, delay):
        sent = 0
        try:
            for _ in range(count):
                self.wfile.write(chunk); self.wfile.flush(); sent += len(chunk)
                if delay: time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            pass
        log('sent %d %s' % (sent, self.path))
    def do_GET(self):
        log('GET %s auth="%s"' % (self.path, self.headers.get('Authorization', '-')))
        p = urllib.parse.urlsplit(self.path)
        parts = p.path.split('/')
        if p.path.startswith('/redirect'):
            to = urllib.parse.parse_qs(p.query).get('to', [''])[0]
            self.send_response(302); self.send_header('Location', to); self.send_header('Content-Length', '0'); self.end_headers(); return
        if p.path.startswith('/driphead/'):
            # The status line, then the headers one byte a second: never complete in time.
            self.wfile.write(b'HTTP/1.0 200 OK\r\n'); self.wfile.flush()
            self.stream(b'X', 600, 1.0); return
        if p.path.startswith('/drip/'):
            self.send_response(200); self.send_header('Content-Type', 'application/json'); self.end_headers()
            self.stream(b' ', 600, 1.0); return
        if p.path.startswith('/hugeerror/'):
            self.send_response(500); self.send_header('Content-Type', 'text/html'); self.end_headers()
            self.stream(b'x' * 65536, 1 << 20, 0); return
        if p.path.startswith('/bigbody/'):
            n = int(parts[2])
            self.send_response(200); self.send_header('Content-Type', 'application/zip'); self.end_headers()
            self.stream(b'z' * 65536, (n + 65535) // 65536, 0); return
        if p.path.startswith('/biglength/'):
            self.send_response(200); self.send_header('Content-Type', 'application/zip')
            self.send_header('Content-Length', str(3 * 1024 ** 3)); self.end_headers()
            self.stream(b'z' * 1024, 600, 1.0); return
        path = os.path.join(root, urllib.parse.unquote(p.path).lstrip('/'))
        if not os.path.isfile(path):
            self.send_response(404); self.send_header('Content-Length', '0'); self.end_headers(); return
        data = open(path, 'rb').read()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json' if path.endswith('.json') else 'application/zip')
        self.send_header('Content-Length', str(len(data))); self.end_headers()
        self.wfile.write(data)
ThreadingHTTPServer.daemon_threads = True
server = ThreadingHTTPServer(('127.0.0.1', 0), H)
if len(sys.argv) > 4:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(sys.argv[3], sys.argv[4])
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
)PY";

// argv: root nginxPort plainPort tlsPort outside. Writes the mirror (below) and prints
// {"zh": <zh: of the clean zip>, "outside": <path of a copy of that zip outside the mirror>}.
//   example.com/acme/clean      1.0.0 linux_amd64, relative URL, its zh           -> verified
//   example.com/acme/plainhttp  1.0.0 linux_amd64 at http://127.0.0.1:<plain>/... -> verified + insecure-url
//   example.com/acme/downgrade  1.0.0 linux_amd64 at https://127.0.0.1:<nginx>/down/..., which nginx
//     redirects to http://127.0.0.1:<plain>/...                                -> error (refused)
//   example.com/acme/schemes    1.0.0, each with the clean zip's zh (so reading it would verify):
//     linux_amd64   file://<outside copy>
//     darwin_arm64  data:application/zip;base64,<the zip>
//     windows_amd64 https://127.0.0.1:<tls>/redirect?to=file://<outside copy>
//     linux_arm64   https://127.0.0.1:<tls>/redirect?to=data:...
//     freebsd_amd64 ftp://127.0.0.1:9/x.zip
//     openbsd_amd64 https://archive-user:<userinfo secret>@127.0.0.1:<nginx>/<clean zip> (user info removed -> verified)
//   example.com/acme/limits     1.0.0: linux_amd64 /bigbody/1000000, darwin_arm64 /biglength,
//     windows_amd64 /hugeerror (all on the TLS server)
inline const char *kMakeHostileMirror = R"PY(
import sys, os, json, hashlib, base64, zipfile, io, urllib.parse
root, nginx, plain, tls, outside = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
    # One executable per provider type served (terraform looks for terraform-provider-<type>*).
    for t in ('clean', 'plainhttp', 'schemes', 'downgrade'):
        info = zipfile.ZipInfo('terraform-provider-%s_v1.0.0' % t, (2024, 1, 1, 0, 0, 0))
        info.external_attr = 0o100755 << 16
        z.writestr(info, b'#!/bin/sh\necho clean\n' * 100)
data = buf.getvalue()
zh = 'zh:' + hashlib.sha256(data).hexdigest()
name = 'terraform-provider-clean_1.0.0_linux_amd64.zip'
def provider(t, archives):
    d = os.path.join(root, 'example.com', 'acme', t); os.makedirs(d, exist_ok=True)
    json.dump({'versions': {'1.0.0': {}}}, open(os.path.join(d, 'index.json'), 'w'))
    json.dump({'archives': {k: {'url': u, 'hashes': [zh]} for k, u in archives.items()}}, open(os.path.join(d, '1.0.0.json'), 'w'))
    return d
d = provider('clean', {'linux_amd64': name})
open(os.path.join(d, name), 'wb').write(data)
open(outside, 'wb').write(data)
clean = 'example.com/acme/clean/' + name
datauri = 'data:application/zip;base64,' + base64.b64encode(data).decode()
provider('plainhttp', {'linux_amd64': 'http://127.0.0.1:%s/%s' % (plain, clean)})
provider('downgrade', {'linux_amd64': 'https://127.0.0.1:%s/down/%s' % (nginx, clean)})
provider('schemes', {
    'linux_amd64': 'file://' + outside,
    'darwin_arm64': datauri,
    'windows_amd64': 'https://127.0.0.1:%s/redirect?to=%s' % (tls, urllib.parse.quote('file://' + outside, safe='')),
    'linux_arm64': 'https://127.0.0.1:%s/redirect?to=%s' % (tls, urllib.parse.quote(datauri, safe='')),
    'freebsd_amd64': 'ftp://127.0.0.1:9/x.zip',
    'openbsd_amd64': 'https://archive-user:archive-Pa55-s3cret@127.0.0.1:%s/%s' % (nginx, clean),
})
provider('limits', {
    'linux_amd64': 'https://127.0.0.1:%s/bigbody/1000000/x.zip' % tls,
    'darwin_arm64': 'https://127.0.0.1:%s/biglength/x.zip' % tls,
    'windows_amd64': 'https://127.0.0.1:%s/hugeerror/x.zip' % tls,
})
print(json.dumps({'zh': zh, 'outside': outside}))
)PY";

} // namespace provender::test
