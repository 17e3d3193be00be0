#!/usr/bin/env python3
"""bench/pull: a static providers.v1 registry with provider-sized archives (Python only).

  make_registry.py ROOT KEYS.asc PROVIDERS PLATFORMS MIB

ROOT gets /.well-known/terraform.json, /v1/providers/bench/pNN/versions, the download documents
and /files/pNN/1.0.0/{zips, SHA256SUMS}. Each zip holds one executable-like entry of MIB MiB:
three quarters pseudo-random bytes (random.Random with a fixed seed: the same bytes every run) and
one quarter text, deflated, so that it compresses about as much as a Go binary does. The test
signs each SHA256SUMS with gpg afterwards. Prints the number of archives and their total size.
"""
import hashlib
import json
import os
import random
import sys
import zipfile

ALL_PLATFORMS = [("linux", "amd64"), ("darwin", "arm64"), ("windows", "amd64"), ("linux", "arm64"),
                 ("darwin", "amd64"), ("freebsd", "amd64"), ("linux", "386"), ("windows", "386")]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def make_zip(path, entry, mib, seed):
    rng = random.Random(seed)
    chunk = 1 << 20
    os.makedirs(os.path.dirname(path), exist_ok=True)
    info = zipfile.ZipInfo(entry, date_time=(2024, 1, 2, 3, 4, 6))
    info.external_attr = 0o755 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open(info, "w", force_zip64=True) as out:
            for i in range(mib):
                if i % 4 == 3:
                    line = b"func provider_%08d() { return symbol_table[%d] }\n" % (i, rng.randrange(1 << 30))
                    out.write((line * (chunk // len(line) + 1))[:chunk])
                else:
                    out.write(rng.randbytes(chunk))


def main():
    root, keys_path, providers, nplat, mib = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    with open(keys_path) as f:
        armour = f.read()
    platforms = ALL_PLATFORMS[:nplat]
    write(os.path.join(root, ".well-known", "terraform.json"), json.dumps({"providers.v1": "/v1/providers/"}).encode())
    total = count = 0
    for p in range(providers):
        ptype, version = "p%02d" % p, "1.0.0"
        write(os.path.join(root, "v1", "providers", "bench", ptype, "versions"), json.dumps({"versions": [
            {"version": version, "protocols": ["5.0"], "platforms": [{"os": o, "arch": a} for o, a in platforms]}]}).encode())
        files = os.path.join(root, "files", ptype, version)
        sums = []
        for os_, arch in platforms:
            name = "terraform-provider-%s_%s_%s_%s.zip" % (ptype, version, os_, arch)
            path = os.path.join(files, name)
            make_zip(path, "terraform-provider-%s_v%s" % (ptype, version), mib, "%s/%s_%s" % (ptype, os_, arch))
            h = hashlib.sha256()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            sha = h.hexdigest()
            sums.append("%s  %s\n" % (sha, name))
            total += os.path.getsize(path)
            count += 1
            sums_name = "terraform-provider-%s_%s_SHA256SUMS" % (ptype, version)
            doc = {"protocols": ["5.0"], "os": os_, "arch": arch, "filename": name,
                   "download_url": "/files/%s/%s/%s" % (ptype, version, name),
                   "shasums_url": "/files/%s/%s/%s" % (ptype, version, sums_name),
                   "shasums_signature_url": "/files/%s/%s/%s.sig" % (ptype, version, sums_name),
                   "shasum": sha,
                   "signing_keys": {"gpg_public_keys": [{"key_id": "", "ascii_armor": armour, "trust_signature": "",
                                                         "source": "Provender bench", "source_url": None}]}}
            write(os.path.join(root, "v1", "providers", "bench", ptype, version, "download", os_, arch), json.dumps(doc).encode())
        write(os.path.join(files, "terraform-provider-%s_%s_SHA256SUMS" % (ptype, version)), "".join(sums).encode())
    print("%d archives, %.1f MiB" % (count, total / 1048576.0))


if __name__ == "__main__":
    main()
