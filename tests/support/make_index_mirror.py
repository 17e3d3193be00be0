#!/usr/bin/env python3
"""Writes a small packed mirror and, independently of Provender, the index files that
`terraform providers mirror` writes for it (tofu-formats.md section 4): h1: is Go dirhash Hash1 of
the zip's entries, zh: the SHA-256 of the zip file, JSON as Go's json.MarshalIndent(v, "", "  ")
writes it (keys sorted byte-wise, no trailing newline).

usage: make_index_mirror.py MIRROR EXPECTED_H1 EXPECTED_ZH
"""
import base64, hashlib, json, os, sys, zipfile

mirror, exp_h1, exp_zh = sys.argv[1:4]
host = "registry.example.test"
providers = {
    ("acme", "alpha"): {"1.0.0": ["darwin_arm64", "linux_amd64"], "1.1.0": ["linux_amd64"]},
    ("acme", "beta"): {"0.1.0": ["windows_amd64"]},
}

def h1(path):
    with zipfile.ZipFile(path) as z:
        names = sorted(i.filename for i in z.infolist())
        summary = "".join("%s  %s\n" % (hashlib.sha256(z.read(n)).hexdigest(), n) for n in names)
    return "h1:" + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()

def zh(path):
    with open(path, "rb") as f:
        return "zh:" + hashlib.sha256(f.read()).hexdigest()

def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=True))

for (ns, typ), versions in providers.items():
    pdir = os.path.join(mirror, host, ns, typ)
    os.makedirs(pdir, exist_ok=True)
    for version, platforms in versions.items():
        arch_h1, arch_zh = {}, {}
        for platform in platforms:
            name = "terraform-provider-%s_%s_%s.zip" % (typ, version, platform)
            path = os.path.join(pdir, name)
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("terraform-provider-%s_v%s" % (typ, version), "#!/bin/sh\necho %s %s %s\n" % (typ, version, platform))
                z.writestr("LICENSE", "MPL-2.0 (%s)\n" % typ)
            arch_h1[platform] = {"hashes": [h1(path)], "url": name}
            arch_zh[platform] = {"hashes": [h1(path), zh(path)], "url": name}
        write(os.path.join(exp_h1, host, ns, typ, version + ".json"), {"archives": arch_h1})
        write(os.path.join(exp_zh, host, ns, typ, version + ".json"), {"archives": arch_zh})
    for d in (exp_h1, exp_zh):
        write(os.path.join(d, host, ns, typ, "index.json"), {"versions": {v: {} for v in versions}})
