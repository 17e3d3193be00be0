#!/usr/bin/env python3
"""A static providers.v1 registry for tests (tofu-formats.md §12), written with Python only.

  make_registry.py ROOT KEYS.asc   -> prints JSON {type: {version: {platform: {...}}}}

ROOT gets /.well-known/terraform.json, /v1/providers/acme/TYPE/versions,
/v1/providers/acme/TYPE/VERSION/download/OS/ARCH and /files/TYPE/VERSION/{zips, SHA256SUMS}.
The signatures (SHA256SUMS.sig) are made by the test with gpg afterwards; KEYS.asc is the
armoured key every download document lists. Provider types and what is wrong with them:

  demo      1.0.0, 1.1.0, 2.0.0-beta1: all good
  pair      0.1.0, 0.2.0, 0.3.0: all good (a second provider for the interop tests)
  unsafe    1.0.0: good signature, but the zip has an entry "../escape.txt" (refused by --unpacked)
  wrongsum  SHA256SUMS lists another sum for the zip
  nosum     SHA256SUMS has no line for the zip
  tampered  the zip served is not the one `shasum` names
  badsig    (good files; the test signs other bytes)
  unlisted  (good files; the test signs with a key the registry does not list)

and with `packages` in the download documents (OpenTofu's registry, rfc/20251027-provider-
registry-hashes.md: every platform's zh:/h1: and package_size, computed here by hashlib and refhash):

  packaged    1.0.0: right for every platform
  pkgzh       the linux_amd64 entry's zh: is not the document's shasum
  pkgsize     the linux_amd64 entry's package_size is one byte too many
  pkgmissing  only a darwin_arm64 entry
  pkgh1       the linux_amd64 entry's h1: is darwin_arm64's
  pkgunsigned the darwin_arm64 entry's zh: is not in SHA256SUMS (and not its shasum)
"""
import hashlib
import io
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hashing"))
import refhash  # noqa: E402

PLATFORMS = [("linux", "amd64"), ("darwin", "arm64")]
TYPES = {
    "demo": ["1.0.0", "1.1.0", "2.0.0-beta1"],
    "pair": ["0.1.0", "0.2.0", "0.3.0"],
    "unsafe": ["1.0.0"],
    "wrongsum": ["1.0.0"],
    "nosum": ["1.0.0"],
    "tampered": ["1.0.0"],
    "badsig": ["1.0.0"],
    "unlisted": ["1.0.0"],
    "packaged": ["1.0.0"],
    "pkgzh": ["1.0.0"],
    "pkgsize": ["1.0.0"],
    "pkgmissing": ["1.0.0"],
    "pkgh1": ["1.0.0"],
    "pkgunsigned": ["1.0.0"],
}


def noise(n):
    out, block = bytearray(), b"provender"
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block
    return bytes(out[:n])


def make_zip(ptype, version, os_, arch, salt=b""):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if (ptype, version, os_, arch) == ("demo", "1.0.0", "linux", "amd64"):
            # 256 KiB that do not compress: a download the test can kill half-way.
            big = zipfile.ZipInfo("big.bin", date_time=(2024, 1, 2, 3, 4, 6))
            z.writestr(big, noise(256 * 1024), compress_type=zipfile.ZIP_STORED)
        if ptype == "unsafe":
            z.writestr(zipfile.ZipInfo("../escape.txt", date_time=(2024, 1, 2, 3, 4, 6)), b"outside\n")
        if ptype == "demo":
            z.writestr(zipfile.ZipInfo("docs/", date_time=(2024, 1, 2, 3, 4, 6)), b"")
            z.writestr(zipfile.ZipInfo("docs/README.md", date_time=(2024, 1, 2, 3, 4, 6)), b"# demo\n")
        info = zipfile.ZipInfo("terraform-provider-%s_v%s" % (ptype, version), date_time=(2024, 1, 2, 3, 4, 6))
        info.external_attr = 0o755 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, b"#!/bin/sh\n# fake %s %s %s_%s\n%s" % (ptype.encode(), version.encode(), os_.encode(), arch.encode(), salt) * 50)
    return buf.getvalue()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    root, keys_path = sys.argv[1], sys.argv[2]
    with open(keys_path) as f:
        armour = f.read()
    write(os.path.join(root, ".well-known", "terraform.json"), json.dumps({"providers.v1": "/v1/providers/"}).encode())
    out = {}
    for ptype, versions in TYPES.items():
        vdoc = {"versions": []}
        for version in versions:
            vdoc["versions"].append({"version": version, "protocols": ["5.0"],
                                     "platforms": [{"os": o, "arch": a} for o, a in PLATFORMS]})
            files = os.path.join(root, "files", ptype, version)
            sums = []
            made = {}
            for os_, arch in PLATFORMS:
                name = "terraform-provider-%s_%s_%s_%s.zip" % (ptype, version, os_, arch)
                data = make_zip(ptype, version, os_, arch)
                tmp = os.path.join(root, "..", "hash-%s" % name)
                write(tmp, data)
                ref = refhash.zip_hashes(tmp)
                os.remove(tmp)
                made["%s_%s" % (os_, arch)] = (name, data, hashlib.sha256(data).hexdigest(), ref)
            packages = None
            if ptype.startswith("pkg") or ptype == "packaged":
                packages = {plat: {"hashes": [ref["h1_extracted"], "zh:" + sha], "package_size": len(data)}
                            for plat, (name, data, sha, ref) in made.items()}
                if ptype == "pkgzh":
                    packages["linux_amd64"]["hashes"][1] = "zh:" + hashlib.sha256(b"not the archive").hexdigest()
                if ptype == "pkgsize":
                    packages["linux_amd64"]["package_size"] += 1
                if ptype == "pkgmissing":
                    del packages["linux_amd64"]
                if ptype == "pkgh1":
                    packages["linux_amd64"]["hashes"][0] = packages["darwin_arm64"]["hashes"][0]
                if ptype == "pkgunsigned":
                    packages["darwin_arm64"]["hashes"][1] = "zh:" + hashlib.sha256(b"never signed").hexdigest()
            for os_, arch in PLATFORMS:
                name, data, sha, ref = made["%s_%s" % (os_, arch)]
                served = make_zip(ptype, version, os_, arch, b"tampered") if ptype == "tampered" else data
                write(os.path.join(files, name), served)
                listed = sha
                if ptype == "wrongsum":
                    listed = hashlib.sha256(b"something else").hexdigest()
                if ptype != "nosum":
                    sums.append("%s  %s\n" % (listed, name))
                doc = {
                    "protocols": ["5.0"], "os": os_, "arch": arch, "filename": name,
                    "download_url": "/files/%s/%s/%s" % (ptype, version, name),
                    "shasums_url": "/files/%s/%s/terraform-provider-%s_%s_SHA256SUMS" % (ptype, version, ptype, version),
                    "shasums_signature_url": "/files/%s/%s/terraform-provider-%s_%s_SHA256SUMS.sig" % (ptype, version, ptype, version),
                    "shasum": sha,
                    "signing_keys": {"gpg_public_keys": [{"key_id": "", "ascii_armor": armour, "trust_signature": "",
                                                          "source": "Provender tests", "source_url": None}]},
                }
                if packages is not None:
                    doc["packages"] = packages
                write(os.path.join(root, "v1", "providers", "acme", ptype, version, "download", os_, arch),
                      json.dumps(doc).encode())
                out.setdefault(ptype, {}).setdefault(version, {})["%s_%s" % (os_, arch)] = {
                    "file": name, "sha256": sha, "h1": ref["h1_zip"], "h1_extracted": ref["h1_extracted"], "zip": os.path.join(files, name),
                    "size": len(data)}
            write(os.path.join(files, "terraform-provider-%s_%s_SHA256SUMS" % (ptype, version)), "".join(sums).encode())
        write(os.path.join(root, "v1", "providers", "acme", ptype, "versions"), json.dumps(vdoc).encode())
    print(json.dumps(out))


if __name__ == "__main__":
    main()
