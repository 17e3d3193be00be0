#!/usr/bin/env python3
"""Builds a filesystem mirror for the lock-file tests and prints the expected hashes.

usage: make_lock_mirror.py ROOT  (spec as JSON on stdin)

spec: {"archives": [{"address": "host/ns/type", "version": "1.0.0", "platform": "linux_amd64",
                     "layout": "packed"|"unpacked", "dir_entries": false, "corrupt": false}]}

Prints {"<address> <version> <platform>": {"path", "h1", "h1_zip", "zh"}} computed here with
hashlib/zipfile, independently of the C++ hashing code (tofu-formats.md section 3):
h1 = base64(sha256 of "<sha256 hex>  <name>\\n" lines over the sorted file names).
"""
import base64, hashlib, io, json, os, sys, zipfile

def dirhash(entries):
    summary = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in sorted(entries))
    return "h1:" + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()

root = sys.argv[1]
spec = json.load(sys.stdin)
out = {}
for a in spec["archives"]:
    host, ns, typ = a["address"].split("/")
    version, platform = a["version"], a["platform"]
    binary = f"terraform-provider-{typ}_v{version}"
    content = f"fake provider {a['address']} {version} {platform}\n".encode()
    files = [(binary, content), ("docs/README.md", b"read me\n")]
    key = f"{a['address']} {version} {platform}"
    if a.get("layout", "packed") == "unpacked":
        d = os.path.join(root, host, ns, typ, version, platform)
        for name, data in files:
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        out[key] = {"path": d, "h1": dirhash(files)}
        continue
    d = os.path.join(root, host, ns, typ)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, f"terraform-provider-{typ}_{version}_{platform}.zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if a.get("dir_entries"):
            z.writestr("docs/", b"")
        for name, data in files:
            z.writestr(name, data)
    data = buf.getvalue()
    if a.get("corrupt"):
        data = data[: len(data) // 2]
    with open(path, "wb") as f:
        f.write(data)
    zip_entries = files + ([("docs/", b"")] if a.get("dir_entries") else [])
    out[key] = {"path": path, "h1": dirhash(files), "h1_zip": dirhash(zip_entries),
                "zh": "zh:" + hashlib.sha256(data).hexdigest()}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
