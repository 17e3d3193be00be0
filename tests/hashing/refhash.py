#!/usr/bin/env python3
"""Independent reference for the Provender hashing tests (Python's zipfile + hashlib only).

  refhash.py zip PATH      -> JSON {"zh", "h1_zip", "h1_extracted", "entries"}
  refhash.py dir PATH      -> JSON {"h1"}
  refhash.py zeros N       -> hex SHA-256 of N zero bytes

h1_zip follows dirhash.HashZip (every central-directory name as stored, names ending in '/'
hash as empty, duplicates all take the last entry's content); h1_extracted follows go-getter's
extraction (directory entries make no file, later entries overwrite earlier ones, names joined
like filepath.Join) followed by dirhash.HashDir. Written separately from the C++ code on purpose.
"""
import base64
import hashlib
import json
import os
import posixpath
import stat
import sys
import zipfile


def dirhash(lines):
    summary = hashlib.sha256()
    for name, digest in sorted(lines, key=lambda item: item[0]):
        if b"\n" in name:
            raise SystemExit("dirhash: filenames with newlines are not supported")
        summary.update(digest.hex().encode() + b"  " + name + b"\n")
    return "h1:" + base64.b64encode(summary.digest()).decode()


def raw_name(info):
    # zipfile decodes names as UTF-8 when flag 0x800 is set, cp437 otherwise; both round-trip.
    return info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")


def is_dir_entry(info):
    name = raw_name(info)
    if name.endswith(b"/"):
        return True
    if info.create_system in (3, 19):
        return stat.S_ISDIR(info.external_attr >> 16)
    if info.create_system in (0, 11, 14):
        return bool(info.external_attr & 0x10)
    return False


def zip_hashes(path):
    with open(path, "rb") as f:
        zh = "zh:" + hashlib.sha256(f.read()).hexdigest()
    digests = []
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
        for info in infos:
            name = raw_name(info)
            if name.endswith(b"/"):
                digests.append((name, hashlib.sha256(b"").digest()))
                continue
            h = hashlib.sha256()
            with zf.open(info) as member:
                while True:
                    block = member.read(1 << 20)
                    if not block:
                        break
                    h.update(block)
            digests.append((name, h.digest()))
    last = {}
    for name, digest in digests:
        last[name] = digest
    h1_zip = dirhash([(name, last[name]) for name, _ in digests])
    extracted = {}
    for info, (name, digest) in zip(infos, digests):
        if is_dir_entry(info):
            continue
        rel = posixpath.normpath(b"/" + name.lstrip(b"/")).lstrip(b"/")
        if rel in (b"", b"."):
            continue
        extracted[rel] = digest
    h1_extracted = dirhash(list(extracted.items()))
    return {"zh": zh, "h1_zip": h1_zip, "h1_extracted": h1_extracted, "entries": len(infos)}


def dir_hash(path):
    root = os.path.realpath(os.fsencode(path))
    lines = []
    for dirpath, dirnames, filenames in os.walk(root):
        # os.walk lists symlinks to directories among dirnames but does not descend into them;
        # Go's filepath.Walk treats them as files.
        for name in list(dirnames) + filenames:
            full = os.path.join(dirpath, name)
            if name in dirnames and not os.path.islink(full):
                continue
            rel = os.path.relpath(full, root)
            with open(full, "rb") as f:
                lines.append((rel, hashlib.sha256(f.read()).digest()))
    return {"h1": dirhash(lines)}


def main():
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == "zip":
        print(json.dumps(zip_hashes(arg)))
    elif mode == "dir":
        print(json.dumps(dir_hash(arg)))
    elif mode == "zeros":
        n = int(arg)
        h = hashlib.sha256()
        block = bytes(1 << 24)
        while n > 0:
            take = min(n, len(block))
            h.update(block[:take] if take < len(block) else block)
            n -= take
        print(h.hexdigest())
    else:
        raise SystemExit("usage: refhash.py zip|dir|zeros ARG")


if __name__ == "__main__":
    main()
