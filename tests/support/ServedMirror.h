#pragma once
// The served mirror shared by the network tests: Python (zipfile, hashlib) builds the zips and the
// JSON documents and computes the hashes they declare; a real nginx (NginxFixture) serves it over
// TLS on 127.0.0.1, its locations adding the error cases. Link provender_testsupport_net.
//
//   example.com/acme/good 1.0.0:   linux_amd64 zh ok -> verified      darwin_arm64 h1 ok -> verified
//     windows_amd64 wrong zh -> mismatch   linux_arm64 no hashes -> unverified
//     freebsd_amd64 404 -> missing         openbsd_amd64 500 -> error     linux_386 not a zip -> error
//     solaris_amd64 `../good/<linux_amd64 zip>` with its zh -> verified
//   index.json also lists 2.0.0, whose 2.0.0.json is absent (404).
//   example.com/acme/{wrongtype (text/plain), forbidden (403), badjson (line 3), huge (3 MiB)}

#include "model/verify/Verdict.h"
#include "tests/support/NginxFixture.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace provender::test {

// argv: mirror dir. Prints {"<platform>": {"zh": ..., "h1": ...}} for the good provider's zips.
inline const char *kMakeMirror = R"PY(
import sys, os, json, hashlib, base64, zipfile
root = sys.argv[1]
good = os.path.join(root, 'example.com', 'acme', 'good')
os.makedirs(good, exist_ok=True)
def h1(files):
    lines = ''.join('%s  %s\n' % (hashlib.sha256(d).hexdigest(), n) for n, d in sorted(files))
    return 'h1:' + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()
def payload(seed, size):
    out = bytearray(); block = seed.encode()
    while len(out) < size:
        block = hashlib.sha256(block).digest(); out += block
    return bytes(out[:size])
expected = {}
for plat, size in [('linux_amd64', 3 * 1024 * 1024), ('darwin_arm64', 5000), ('windows_amd64', 7000), ('linux_arm64', 100)]:
    files = [('terraform-provider-good_v1.0.0', payload(plat, size)), ('LICENSE', b'MIT ' + plat.encode())]
    name = 'terraform-provider-good_1.0.0_%s.zip' % plat
    path = os.path.join(good, name)
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_STORED if plat == 'linux_amd64' else zipfile.ZIP_DEFLATED) as z:
        for n, d in files: z.writestr(n, d)
    expected[plat] = {'zh': 'zh:' + hashlib.sha256(open(path, 'rb').read()).hexdigest(), 'h1': h1(files), 'url': name}
with open(os.path.join(good, 'notazip.zip'), 'wb') as f: f.write(b'not a zip at all')
notzip = 'zh:' + hashlib.sha256(b'not a zip at all').hexdigest()
archives = {
  'linux_amd64':   {'url': expected['linux_amd64']['url'], 'hashes': [expected['linux_amd64']['zh']]},
  'darwin_arm64':  {'url': expected['darwin_arm64']['url'], 'hashes': [expected['darwin_arm64']['h1']]},
  'windows_amd64': {'url': expected['windows_amd64']['url'], 'hashes': [expected['linux_arm64']['zh']]},
  'linux_arm64':   {'url': expected['linux_arm64']['url']},
  'freebsd_amd64': {'url': 'absent.zip', 'hashes': []},
  'openbsd_amd64': {'url': '/status/500/x.zip'},
  'linux_386':     {'url': 'notazip.zip', 'hashes': [notzip]},
  'solaris_amd64': {'url': '../good/' + expected['linux_amd64']['url'], 'hashes': [expected['linux_amd64']['zh']]},
}
json.dump({'archives': archives}, open(os.path.join(good, '1.0.0.json'), 'w'))
json.dump({'versions': {'1.0.0': {}, '2.0.0': {}}}, open(os.path.join(good, 'index.json'), 'w'))
for name, body in [('wrongtype', '{"versions": {}}'), ('forbidden', '{"versions": {}}'),
                   ('badjson', '{"versions": {\n  "1.0.0": {},\n  oops\n}}')]:
    d = os.path.join(root, 'example.com', 'acme', name); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, 'index.json'), 'w').write(body)
d = os.path.join(root, 'example.com', 'acme', 'huge'); os.makedirs(d, exist_ok=True)
with open(os.path.join(d, 'index.json'), 'w') as f:
    f.write('{"versions": {}' + ' ' * (3 * 1024 * 1024) + '}')
print(json.dumps(expected))
)PY";

inline const char *kServerExtra = R"NGX(
    absolute_redirect off;
    location /example.com/acme/wrongtype/ { types { } default_type text/plain; }
    location /example.com/acme/forbidden/ { return 403; }
    location /status/500/ { return 500; }
    location /r1/ { rewrite ^/r1/(.*)$ /r2/$1 redirect; }
    location /r2/ { rewrite ^/r2/(.*)$ /$1 redirect; }
    location /loop/ { rewrite ^/loop/(.*)$ /loop/$1 redirect; }
    location /tohttp/ { return 302 http://127.0.0.1:9/; }
)NGX";

/// The mirror below written by kMakeMirror and served by nginx with kServerExtra.
class ServedMirror
{
public:
    /// "" when nginx, openssl and python3 are there, else which are missing (for PROVENDER_SKIP).
    static QString missingTools();

    /// Writes the mirror to `dir`, makes the certificates and starts nginx on it; `serverExtra`
    /// goes after kServerExtra inside the server block. False with *error on failure.
    bool start(const QString &dir, QString *error, const QString &serverExtra = {});

    NginxFixture &nginx() { return m_nginx; }
    /// https://127.0.0.1:<port>/
    QString baseUrl() const { return m_nginx.baseUrl(); }
    QString caFile() const { return m_nginx.caFile(); }
    /// What kMakeMirror printed: {"<platform>": {"zh": ..., "h1": ..., "url": ...}} of the good provider.
    const QJsonObject &expected() const { return m_expected; }

private:
    NginxFixture m_nginx;
    QJsonObject m_expected;
};

/// The verdict of each of the good provider's 1.0.0 archives (the table at the top), by platform.
struct ServedVerdict
{
    const char *platform;
    Verdict verdict;
};
inline const QList<ServedVerdict> kServedVerdicts = {{"linux_amd64", Verdict::Verified},   {"darwin_arm64", Verdict::Verified},
                                                     {"windows_amd64", Verdict::Mismatch}, {"linux_arm64", Verdict::Unverified},
                                                     {"freebsd_amd64", Verdict::Missing},  {"openbsd_amd64", Verdict::Error},
                                                     {"linux_386", Verdict::Error},        {"solaris_amd64", Verdict::Verified}};

} // namespace provender::test
