#!/usr/bin/env python3
"""Writes a synthetic packed filesystem mirror of N small provider zips (default 100,000):
N/100 providers x 25 versions x 4 platforms, each zip holding one small file, plus index.json and
<version>.json files declaring each archive's h1: (computed here with hashlib, tofu-formats §3).

usage: make_mirror.py DIR [N]
"""
import base64
import hashlib
import io
import os
import sys
import zipfile

PLATFORMS = ["darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"]


def h1(entries):
    lines = "".join("%s  %s\n" % (hashlib.sha256(d).hexdigest(), n) for n, d in sorted(entries))
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


def main():
    root = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    per_provider = 25 * len(PLATFORMS)
    providers = max(1, n // per_provider)
    for p in range(providers):
        ptype = "p%04d" % p
        d = os.path.join(root, "registry.opentofu.org", "bench", ptype)
        os.makedirs(d, exist_ok=True)
        versions = ["1.%d.0" % v for v in range(25)]
        for v in versions:
            archives = {}
            for plat in PLATFORMS:
                name = "terraform-provider-%s_%s_%s.zip" % (ptype, v, plat)
                entry = "terraform-provider-%s_v%s" % (ptype, v)
                data = ("%s %s %s\n" % (ptype, v, plat)).encode() * 8
                buf = io.BytesIO()
                with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                    z.writestr(zipfile.ZipInfo(entry, date_time=(2024, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
                with open(os.path.join(d, name), "wb") as f:
                    f.write(buf.getvalue())
                archives[plat] = '      "hashes": [\n        "%s"\n      ],\n      "url": "%s"' % (h1([(entry, data)]), name)
            body = ",\n".join('    "%s": {\n%s\n    }' % (k, archives[k]) for k in sorted(archives))
            with open(os.path.join(d, v + ".json"), "w") as f:
                f.write('{\n  "archives": {\n%s\n  }\n}' % body)
        with open(os.path.join(d, "index.json"), "w") as f:
            f.write('{\n  "versions": {\n%s\n  }\n}' % ",\n".join('    "%s": {}' % v for v in sorted(versions)))


if __name__ == "__main__":
    main()
