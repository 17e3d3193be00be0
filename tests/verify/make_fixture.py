#!/usr/bin/env python3
"""Builds the verification fixture with Python's zipfile/hashlib — an implementation independent
of Provender's hashing — and prints, as JSON, every file's path and its h1:/zh: values computed
here per tofu-formats.md §3 (sha256 lines "<hex>  <name>\n", sorted by name, base64 of their
sha256; directory entries of a zip hash as empty content in the zip-level h1 only).

usage: make_fixture.py OUTDIR
"""
import base64
import hashlib
import json
import os
import random
import sys
import zipfile


def h1(entries):
    lines = "".join(
        "%s  %s\n" % (hashlib.sha256(data).hexdigest(), name) for name, data in sorted(entries)
    )
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


def payload(seed, size):
    rng = random.Random(seed)
    return bytes(rng.getrandbits(8) for _ in range(size // 4)) + b"provider " * (size // 12)


def write_zip(path, entries, dir_entries=()):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for d in dir_entries:
            z.writestr(zipfile.ZipInfo(d, date_time=(2024, 1, 2, 3, 4, 5)), b"")
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 5)), data, zipfile.ZIP_DEFLATED)
    with open(path, "rb") as f:
        zh = "zh:" + hashlib.sha256(f.read()).hexdigest()
    files = list(entries)
    return {
        "path": path,
        "h1": h1(files),
        "h1zip": h1(files + [(d, b"") for d in dir_entries]),
        "zh": zh,
    }


def main():
    out = os.path.abspath(sys.argv[1])
    base = os.path.join(out, "registry.opentofu.org", "hashicorp", "alpha")
    os.makedirs(base, exist_ok=True)
    result = {}

    def zip_for(platform, seed, dir_entries=()):
        entries = [
            ("terraform-provider-alpha_v1.0.0_x5", payload(seed, 20000 + seed * 100)),
            ("LICENSE", b"fixture license %d\n" % seed),
        ]
        if dir_entries:
            entries.append(("docs/index.md", b"# docs %d\n" % seed))
        name = "terraform-provider-alpha_1.0.0_%s.zip" % platform
        return write_zip(os.path.join(base, name), entries, dir_entries)

    result["linux_amd64"] = zip_for("linux_amd64", 1)
    result["darwin_arm64"] = zip_for("darwin_arm64", 2, dir_entries=("docs/",))
    result["darwin_amd64"] = zip_for("darwin_amd64", 3, dir_entries=("docs/",))
    result["windows_amd64"] = zip_for("windows_amd64", 4)
    result["freebsd_amd64"] = zip_for("freebsd_amd64", 5)
    corrupt = zip_for("linux_arm64", 6)
    with open(corrupt["path"], "r+b") as f:
        f.truncate(os.path.getsize(corrupt["path"]) // 2)
    result["linux_arm64"] = {"path": corrupt["path"]}

    # An unpacked package directory (HashDir semantics: files only).
    pkg = os.path.join(base, "1.0.0", "solaris_amd64")
    os.makedirs(os.path.join(pkg, "sub"), exist_ok=True)
    files = [("terraform-provider-alpha", payload(7, 5000)), ("sub/notes.txt", b"notes\n")]
    for name, data in files:
        with open(os.path.join(pkg, name), "wb") as f:
            f.write(data)
    result["solaris_amd64"] = {"path": pkg, "h1": h1(files)}

    # A hash that matches nothing in the fixture.
    result["wrong_h1"] = h1([("something-else", b"other")])
    json.dump(result, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
