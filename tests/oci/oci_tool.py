#!/usr/bin/env python3
"""Independent helper for tests/oci: writes artifacts into a registry with http.client (not with
Provender's client) and computes expected values with hashlib/zipfile.

  oci_tool.py mirror DIR                  write a small packed mirror (zips made with zipfile)
  oci_tool.py h1 ZIP                      print h1: of a zip (golang.org/x/mod/sumdb/dirhash Hash1)
  oci_tool.py get URL CA USER PASS        print a registry document (Accept: OCI index+manifest)
  oci_tool.py hostile PORT CA USER PASS ZIP ZIP2 OUTDIR
                                          write every hostile case into repositories
                                          hostile/test/<case>, tag 1.0.0; print JSON facts
  oci_tool.py liar PORT CERT KEY ZIP LOG  a registry stand-in whose blob answers lie about their
                                          size (see liar())
  oci_tool.py repos PORT CA USER PASS NAME...
                                          push version 1.0.0 linux_amd64 into each repository
                                          NAME (for the _catalog tests)
"""
import base64
import hashlib
import http.client
import io
import json
import os
import ssl
import sys
import zipfile

INDEX = "application/vnd.oci.image.index.v1+json"
MANIFEST = "application/vnd.oci.image.manifest.v1+json"
EMPTY = b"{}"


def h1(path):
    lines = []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            lines.append("%s  %s\n" % (hashlib.sha256(z.read(info)).hexdigest(), info.filename))
    lines.sort(key=lambda l: l.split("  ", 1)[1].encode())
    return "h1:" + base64.b64encode(hashlib.sha256("".join(lines).encode()).digest()).decode()


def make_zip(path, name, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, text)
        z.writestr("README.txt", "test provider\n")


def mirror(root):
    # example.com/test/foo 1.0.0 (linux_amd64, darwin_arm64), 2.0.0+build.1 (linux_amd64);
    # example.com/test/bar 0.1.0 (linux_amd64, windows_amd64).
    rows = [("foo", "1.0.0", "linux_amd64"), ("foo", "1.0.0", "darwin_arm64"), ("foo", "2.0.0+build.1", "linux_amd64"),
            ("bar", "0.1.0", "linux_amd64"), ("bar", "0.1.0", "windows_amd64")]
    for t, v, p in rows:
        path = os.path.join(root, "example.com", "test", t, "terraform-provider-%s_%s_%s.zip" % (t, v, p))
        make_zip(path, "terraform-provider-%s_v%s" % (t, v), "#!/bin/sh\necho %s %s %s\n" % (t, v, p) + "x" * 3000)
        print(path)


def bigmirror(root):
    # example.com/test/big 1.0.0 linux_amd64 with 3 MiB of incompressible content (chunked uploads).
    path = os.path.join(root, "example.com", "test", "big", "terraform-provider-big_1.0.0_linux_amd64.zip")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("terraform-provider-big_v1.0.0", os.urandom(3 * 1024 * 1024 + 12345))
    print(path)


class Registry:
    def __init__(self, port, ca, user, password):
        self.ctx = ssl.create_default_context(cafile=ca)
        self.port = int(port)
        self.auth = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()

    def request(self, method, path, body=None, headers=None):
        c = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.ctx)
        h = {"Authorization": self.auth}
        h.update(headers or {})
        if body is not None:
            h["Content-Length"] = str(len(body))
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r, data

    def blob(self, repo, data):
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        r, _ = self.request("POST", "/v2/%s/blobs/uploads/" % repo, b"")
        assert r.status == 202, (r.status, repo)
        loc = r.getheader("Location")
        if loc.startswith("https://"):
            loc = "/" + loc.split("/", 3)[3]
        sep = "&" if "?" in loc else "?"
        r, body = self.request("PUT", loc + sep + "digest=" + digest, data, {"Content-Type": "application/octet-stream"})
        assert r.status == 201, (r.status, body)
        return digest, len(data)

    def manifest(self, repo, ref, media_type, doc):
        data = json.dumps(doc, separators=(",", ":")).encode()
        r, body = self.request("PUT", "/v2/%s/manifests/%s" % (repo, ref), data, {"Content-Type": media_type})
        assert r.status == 201, (r.status, body, repo, ref)
        return "sha256:" + hashlib.sha256(data).hexdigest(), len(data)


def image_manifest(reg, repo, zip_bytes, os_, arch, layer_media_type="archive/zip", size_delta=0, layer_platform=None):
    cfg_digest, cfg_size = reg.blob(repo, EMPTY)
    digest, size = reg.blob(repo, zip_bytes)
    layer = {"mediaType": layer_media_type, "digest": digest, "size": size + size_delta}
    if layer_platform:
        layer["platform"] = {"architecture": layer_platform[1], "os": layer_platform[0]}
    doc = {
        "schemaVersion": 2, "mediaType": MANIFEST, "artifactType": "application/vnd.opentofu.provider-target",
        "config": {"mediaType": "application/vnd.oci.empty.v1+json", "digest": cfg_digest, "size": cfg_size, "data": "e30="},
        "layers": [layer],
    }
    mdigest, msize = reg.manifest(repo, "sha256:" + hashlib.sha256(json.dumps(doc, separators=(",", ":")).encode()).hexdigest(),
                                  MANIFEST, doc)
    return {"mediaType": MANIFEST, "digest": mdigest, "size": msize, "platform": {"os": os_, "architecture": arch},
            "artifactType": "application/vnd.opentofu.provider-target"}, digest


def index(reg, repo, entries, artifact_type="application/vnd.opentofu.provider"):
    doc = {"schemaVersion": 2, "mediaType": INDEX, "artifactType": artifact_type, "manifests": entries}
    return reg.manifest(repo, "1.0.0", INDEX, doc)


def hostile(port, ca, user, password, zip1, zip2, outdir):
    reg = Registry(port, ca, user, password)
    z1 = open(zip1, "rb").read()
    z2 = open(zip2, "rb").read()
    facts = {}
    # 1. the index has another artifact type
    d, _ = image_manifest(reg, "hostile/test/wrongtype", z1, "linux", "amd64")
    index(reg, "hostile/test/wrongtype", [d], artifact_type="application/vnd.example.other")
    # 2. two manifests for one platform
    a, _ = image_manifest(reg, "hostile/test/twice", z1, "linux", "amd64")
    b, _ = image_manifest(reg, "hostile/test/twice", z2, "linux", "amd64")
    c, _ = image_manifest(reg, "hostile/test/twice", z2, "darwin", "arm64")
    index(reg, "hostile/test/twice", [a, b, c])
    # 3. a layer that is not archive/zip
    d, _ = image_manifest(reg, "hostile/test/notzip", z1, "linux", "amd64", layer_media_type="application/vnd.oci.image.layer.v1.tar")
    index(reg, "hostile/test/notzip", [d])
    # 4. bytes that do not match the digest: the test rewrites the stored blob afterwards (a zip of
    # its own: Distribution stores each blob once for every repository)
    own = io.BytesIO()
    with zipfile.ZipFile(own, "w", zipfile.ZIP_STORED) as z:
        z.writestr("terraform-provider-badbytes_v1.0.0", "only in the badbytes repository\n" * 50)
    d, blob = image_manifest(reg, "hostile/test/badbytes", own.getvalue(), "linux", "amd64")
    index(reg, "hostile/test/badbytes", [d])
    facts["badbytes_blob"] = blob
    # 5. a descriptor whose size is over tofu's manifest limit
    d, _ = image_manifest(reg, "hostile/test/oversized", z1, "linux", "amd64")
    d["size"] = 5 * 1024 * 1024
    index(reg, "hostile/test/oversized", [d])
    # 6. the tag names an image manifest, not an index
    d, _ = image_manifest(reg, "hostile/test/direct", z1, "linux", "amd64")
    doc = {"schemaVersion": 2, "mediaType": MANIFEST, "artifactType": "application/vnd.opentofu.provider-target",
           "config": {"mediaType": "application/vnd.oci.empty.v1+json", "digest": "sha256:" + hashlib.sha256(EMPTY).hexdigest(),
                      "size": 2, "data": "e30="},
           "layers": [{"mediaType": "archive/zip", "digest": "sha256:" + hashlib.sha256(z1).hexdigest(), "size": len(z1)}]}
    reg.manifest("hostile/test/direct", "1.0.0", MANIFEST, doc)
    # 7. a layer descriptor that claims fewer bytes than the blob has (tofu reads only that many)
    d, _ = image_manifest(reg, "hostile/test/short", z1, "linux", "amd64", size_delta=-10)
    index(reg, "hostile/test/short", [d])
    # 8. a package without the provider's executable (only a README), and 9. a layer that is no zip
    # at all: the digests are right, the content is what tofu refuses after the download
    noexe = io.BytesIO()
    with zipfile.ZipFile(noexe, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("README.txt", "no executable in here\n")
    notazip = b"this is not a zip archive\n" * 20
    d, _ = image_manifest(reg, "hostile/test/noexe", noexe.getvalue(), "linux", "amd64")
    index(reg, "hostile/test/noexe", [d])
    d, _ = image_manifest(reg, "hostile/test/notazip", notazip, "linux", "amd64")
    index(reg, "hostile/test/notazip", [d])
    # The same two packages as a directory mirror, for `provender verify DIR` to judge them too.
    for t, content in (("noexe", noexe.getvalue()), ("notazip", notazip)):
        path = os.path.join(outdir, "example.com", "test", t, "terraform-provider-%s_1.0.0_linux_amd64.zip" % t)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)
    # 10. a layer descriptor that declares an absurd size (1 PiB) for a real blob
    d, _ = image_manifest(reg, "hostile/test/absurd", z1, "linux", "amd64", size_delta=2 ** 50)
    index(reg, "hostile/test/absurd", [d])
    facts["absurd_blob"] = "sha256:" + hashlib.sha256(z1).hexdigest()
    # 11. a linux_amd64 manifest whose layer is annotated as another platform's
    d, _ = image_manifest(reg, "hostile/test/otherplatform", z1, "linux", "amd64", layer_platform=("darwin", "arm64"))
    index(reg, "hostile/test/otherplatform", [d])
    print(json.dumps(facts))


def repos(port, ca, user, password, *names):
    # Each repository gets version 1.0.0 for linux_amd64: a zip whose executable is named after the
    # repository's last path segment (the provider type under a .../${namespace}/${type} template).
    reg = Registry(port, ca, user, password)
    for name in names:
        kind = name.rsplit("/", 1)[-1]
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("terraform-provider-%s_v1.0.0" % kind, "#!/bin/sh\necho %s\n" % name)
        d, _ = image_manifest(reg, name, buf.getvalue(), "linux", "amd64")
        index(reg, name, [d])


def liar(port, cert, key, zip_path, log):
    """A registry stand-in (no auth) for blob answers that lie about their size. Repositories
    liar/<case>/foo, tag 1.0.0, one linux_amd64 manifest whose archive/zip layer is ZIP:
      longer    the blob GET announces Content-Length = size + 1 MiB and sends that much
      endless   no Content-Length: the blob, then zeros until the client hangs up (at most 1 GiB)
      digesthdr the right bytes with a Docker-Content-Digest header naming another digest
      gzipped   the right bytes gzip-compressed (Content-Encoding: gzip, Content-Length compressed)
      absurd    the layer descriptor declares 2**50 bytes (a blob GET would be logged)
    Every request is logged; `endless` logs how many bytes it wrote and whether the client hung up."""
    import http.server
    data = open(zip_path, "rb").read()
    blob_digest = "sha256:" + hashlib.sha256(data).hexdigest()

    def manifest_doc(case):
        size = 2 ** 50 if case == "absurd" else len(data)
        return json.dumps({
            "schemaVersion": 2, "mediaType": MANIFEST, "artifactType": "application/vnd.opentofu.provider-target",
            "config": {"mediaType": "application/vnd.oci.empty.v1+json", "digest": "sha256:" + hashlib.sha256(EMPTY).hexdigest(),
                       "size": 2, "data": "e30="},
            "layers": [{"mediaType": "archive/zip", "digest": blob_digest, "size": size}]}, separators=(",", ":")).encode()

    def index_doc(case):
        m = manifest_doc(case)
        return json.dumps({
            "schemaVersion": 2, "mediaType": INDEX, "artifactType": "application/vnd.opentofu.provider",
            "manifests": [{"mediaType": MANIFEST, "digest": "sha256:" + hashlib.sha256(m).hexdigest(), "size": len(m),
                           "platform": {"os": "linux", "architecture": "amd64"},
                           "artifactType": "application/vnd.opentofu.provider-target"}]}, separators=(",", ":")).encode()

    def note(line):
        with open(log, "a") as f:
            f.write(line + "\n")

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body, headers=(), send_body=True):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if send_body:
                self.wfile.write(body)

        def do_HEAD(self):
            self.do_GET(send_body=False)

        def do_GET(self, send_body=True):
            note("%s %s" % (self.command, self.path))
            parts = self.path.split("/")
            # /v2/liar/<case>/foo/<kind>/<ref> (ZIP is a package of provider type foo)
            if len(parts) < 7 or parts[1] != "v2" or parts[2] != "liar" or parts[4] != "foo":
                return self.answer(404, b'{"errors":[{"code":"NAME_UNKNOWN"}]}')
            case, kind, ref = parts[3], parts[5], "/".join(parts[6:])
            if kind == "tags":
                return self.answer(200, json.dumps({"name": "liar/%s/foo" % case, "tags": ["1.0.0"]}).encode(),
                                   [("Content-Type", "application/json")], send_body)
            if kind == "manifests":
                m, i = manifest_doc(case), index_doc(case)
                for doc, media in ((i, INDEX), (m, MANIFEST)):
                    digest = "sha256:" + hashlib.sha256(doc).hexdigest()
                    if ref in ("1.0.0", digest) and (ref != "1.0.0" or media == INDEX):
                        return self.answer(200, doc, [("Content-Type", media), ("Docker-Content-Digest", digest)], send_body)
                return self.answer(404, b'{"errors":[{"code":"MANIFEST_UNKNOWN"}]}')
            if kind == "blobs" and ref == blob_digest:
                if case == "longer":
                    extra = b"\0" * (1 << 20)
                    return self.answer(200, data + extra, [("Content-Type", "application/octet-stream")], send_body)
                if case == "gzipped":
                    import gzip
                    packed = gzip.compress(data)
                    return self.answer(200, packed, [("Content-Type", "application/octet-stream"),
                                                     ("Content-Encoding", "gzip")], send_body)
                if case == "digesthdr":
                    return self.answer(200, data, [("Content-Type", "application/octet-stream"),
                                                   ("Docker-Content-Digest", "sha256:" + "0" * 64)], send_body)
                if case == "endless":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/octet-stream")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    wrote, closed = 0, False
                    try:
                        self.wfile.write(data)
                        wrote = len(data)
                        chunk = b"\0" * 65536
                        while wrote < (1 << 30):
                            self.wfile.write(chunk)
                            wrote += len(chunk)
                    except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
                        closed = True
                    note("endless wrote=%d closed=%s" % (wrote, "yes" if closed else "no"))
                    self.close_connection = True
                    return
                return self.answer(200, data, [("Content-Type", "application/octet-stream")], send_body)
            return self.answer(404, b'{"errors":[{"code":"BLOB_UNKNOWN"}]}')

    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(port)), Handler)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.serve_forever()


def mint(sign_key, sign_cert, issuer, service, user, scopes):
    """An RS256 JWT as Distribution's token auth accepts it (x5c header, access claims)."""
    import time
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding

    signer = serialization.load_pem_private_key(open(sign_key, "rb").read(), password=None)
    der = x509.load_pem_x509_certificate(open(sign_cert, "rb").read()).public_bytes(serialization.Encoding.DER)

    def b64url(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    access = []
    for s in scopes:
        kind, name, actions = s.split(":")
        access.append({"type": kind, "name": name, "actions": actions.split(",")})
    now = int(time.time())
    header = {"typ": "JWT", "alg": "RS256", "x5c": [base64.b64encode(der).decode()]}
    claims = {"iss": issuer, "sub": user, "aud": service, "exp": now + 600, "nbf": now - 60, "iat": now,
              "jti": os.urandom(8).hex(), "access": access}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    return signing_input + "." + b64url(signer.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))


def tokenserver(port, cert, key, sign_key, sign_cert, issuer, service, user, password, log):
    """A Distribution token server (docs.docker.com/registry/spec/auth/token): GET /token with
    Basic credentials -> {"token": RS256 JWT with an x5c header}, the access every scope asks for."""
    import http.server
    from urllib.parse import urlparse, parse_qs

    want = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            q = parse_qs(urlparse(self.path).query)
            scopes = q.get("scope", [])
            ok = self.headers.get("Authorization") == want
            with open(log, "a") as f:
                f.write("%s service=%s scopes=%s\n" % ("auth=ok" if ok else "auth=none", ",".join(q.get("service", [])), " ".join(scopes)))
            if not ok or q.get("service", [""])[0] != service:
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"errors":[{"code":"UNAUTHORIZED","message":"bad credentials"}]}')
                return
            token = mint(sign_key, sign_cert, issuer, service, user, scopes)
            body = json.dumps({"token": token, "access_token": token, "expires_in": 600}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.HTTPServer(("127.0.0.1", int(port)), Handler)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print("ready", flush=True)
    server.serve_forever()


def redirector(port, cert, key, user, password, blob, log, port2=None):
    """A registry stand-in for redirects: GET /v2/<repo>/blobs/<digest> wants Basic credentials,
    then redirects. Repository r: to https://localhost:<port>/elsewhere/… (another host name);
    port: to https://127.0.0.1:<port2>/elsewhere/… (the same host, another port: another origin);
    plain: to http://127.0.0.1:<port>/elsewhere/… (a downgrade to http). /elsewhere/ok serves the
    blob; /elsewhere/auth answers 401 with a Basic challenge. Every request is logged with its Host
    and whether it carried an Authorization header."""
    import http.server
    import threading
    want = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
    data = open(blob, "rb").read()
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    targets = {"r": "https://localhost:%s" % port, "port": "https://127.0.0.1:%s" % port2,
               "plain": "http://127.0.0.1:%s" % port}

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            auth = self.headers.get("Authorization")
            with open(log, "a") as f:
                f.write("%s %s auth=%s\n" % (self.headers.get("Host"), self.path, "yes" if auth else "no"))
            challenge = [("WWW-Authenticate", 'Basic realm="redirector"')]
            parts = self.path.split("/")
            if self.path.startswith("/v2/") and len(parts) > 3 and parts[3] == "blobs" and parts[2] in targets:
                if auth != want:
                    return self.answer(401, b"", challenge)
                where = "ok" if self.path.endswith(digest) else "auth"
                return self.answer(307, b"", [("Location", "%s/elsewhere/%s" % (targets[parts[2]], where))])
            if self.path == "/elsewhere/ok":
                return self.answer(200, data, [("Content-Type", "application/octet-stream")])
            return self.answer(401, b"", challenge)

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    if port2:
        other = http.server.HTTPServer(("127.0.0.1", int(port2)), Handler)
        other.socket = ctx.wrap_socket(other.socket, server_side=True)
        threading.Thread(target=other.serve_forever, daemon=True).start()
    server = http.server.HTTPServer(("127.0.0.1", int(port)), Handler)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.serve_forever()


def get(url, ca, user, password):
    ctx = ssl.create_default_context(cafile=ca)
    rest = url.split("://", 1)[1]
    hostport, path = rest.split("/", 1)
    c = http.client.HTTPSConnection(hostport, context=ctx)
    c.request("GET", "/" + path, headers={
        "Authorization": "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode(),
        "Accept": INDEX + ", " + MANIFEST})
    r = c.getresponse()
    sys.stdout.buffer.write(r.read())
    if r.status != 200:
        sys.exit("HTTP %d" % r.status)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "mirror":
        mirror(sys.argv[2])
    elif cmd == "bigmirror":
        bigmirror(sys.argv[2])
    elif cmd == "h1":
        print(h1(sys.argv[2]))
    elif cmd == "get":
        get(*sys.argv[2:6])
    elif cmd == "redirector":
        redirector(*sys.argv[2:10])
    elif cmd == "mint":
        print(mint(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7:]))
    elif cmd == "tokenserver":
        tokenserver(*sys.argv[2:12])
    elif cmd == "hostile":
        hostile(*sys.argv[2:9])
    elif cmd == "liar":
        liar(*sys.argv[2:7])
    elif cmd == "repos":
        repos(*sys.argv[2:])
    else:
        sys.exit("unknown command " + cmd)
