#!/usr/bin/env python3
"""Mirrors with one kind of problem each, for tst_interop_verdicts (docs/VERDICTS.md).

Usage: verdict_fixtures.py ROOT  -> writes ROOT/<case>/... and prints the case list as JSON.

Every case holds ONE provider (example.com/acme/fake), ONE version (1.0.0) and ONE platform
(linux_amd64), so `terraform init` decides exactly one archive. The expected outcome is never
written here: terraform decides it in the test. Zips are built with Python's zipfile; hashes for
the index documents with hashlib, the h1: as golang.org/x/mod/sumdb/dirhash defines it.
"""
import base64, hashlib, io, itertools, json, os, sys, tarfile, zipfile

ROOT = sys.argv[1]
PLATFORM = "linux_amd64"
VERSION = "1.0.0"
ZIPNAME = "terraform-provider-fake_%s_%s.zip" % (VERSION, PLATFORM)
EXE = b"#!/bin/sh\necho fake provider\n"
cases = []


def sha(b):
    return hashlib.sha256(b).hexdigest()


def h1(files):
    lines = "".join("%s  %s\n" % (sha(files[n]), n) for n in sorted(files))
    return "h1:" + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()


def mkzip(entries):
    """entries: (name, bytes or None for a directory entry, unix mode)"""
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, "w") as z:
        for name, data, mode in entries:
            zi = zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0))
            if data is None:
                zi.external_attr = (0o40755 << 16) | 0x10
                z.writestr(zi, b"")
            else:
                zi.external_attr = mode << 16
                zi.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(zi, data)
    return bio.getvalue()


def hashes_of(zb):
    z = zipfile.ZipFile(io.BytesIO(zb))
    every = {i.filename: z.read(i) for i in z.infolist()}           # dirhash.HashZip: every entry
    files = {i.filename: z.read(i) for i in z.infolist() if not i.filename.endswith("/")}
    return {"zh": "zh:" + sha(zb), "h1zip": h1(every), "h1ext": h1(files)}


def provider_dir(case):
    d = os.path.join(ROOT, case, "example.com", "acme", "fake")
    os.makedirs(d, exist_ok=True)
    return d


def write(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def index_docs(d, archive_entry, index_text=None, version_files=None):
    write(os.path.join(d, "index.json"), index_text if index_text is not None else json.dumps({"versions": {VERSION: {}}}))
    if version_files is None:
        version_files = {VERSION + ".json": json.dumps({"archives": {PLATFORM: archive_entry}})}
    for name, text in version_files.items():
        write(os.path.join(d, name), text)


def add(name, cls, layout, **extra):
    c = {"name": name, "class": cls, "layout": layout, "dir": os.path.join(ROOT, name)}
    c.update(extra)
    cases.append(c)


def lock_text(hashes):
    body = "".join('    "%s",\n' % h for h in hashes)
    return ('provider "example.com/acme/fake" {\n  version     = "%s"\n  constraints = "%s"\n  hashes = [\n%s  ]\n}\n'
            % (VERSION, VERSION, body))


# --- 1. package content: executable names, placement, modes, extraction problems -------------
names = ["terraform-provider-fake", "terraform-provider-fake_v1.0.0_x5", "terraform-provider-fake.exe",
         "terraform-provider-fake_", "terraform-provider-fake.", "terraform-provider-fakex",
         "terraform-provider-fake-v1", "Terraform-Provider-Fake_v1", "terraform-provider-other_v1",
         "terraform-provider-", "README.md"]
contents = {}
for i, n in enumerate(names):
    contents["name%02d" % i] = [(n, EXE, 0o100755)]
for i, n in enumerate(names[:2] + names[5:6]):
    contents["subdir%02d" % i] = [("bin/", None, 0), ("bin/" + n, EXE, 0o100755)]
contents["noxbit"] = [("terraform-provider-fake_v1", EXE, 0o100644)]
contents["several"] = [("terraform-provider-fake_v2", EXE, 0o100755), ("terraform-provider-fake_v1", EXE, 0o100755)]
contents["severalonebad"] = [("terraform-provider-fakex", EXE, 0o100755), ("terraform-provider-fake_v1", EXE, 0o100755)]
contents["dirnamed"] = [("terraform-provider-fake_v1/", None, 0), ("terraform-provider-fake_v1/x", EXE, 0o100755)]
contents["direntries"] = [("docs/", None, 0), ("docs/a.md", b"a", 0o100644), ("terraform-provider-fake_v1", EXE, 0o100755)]
contents["dotslash"] = [("./terraform-provider-fake_v1", EXE, 0o100755)]
contents["dotdot"] = [("../terraform-provider-fake_v1", EXE, 0o100755)]
contents["dotdotinner"] = [("a/../terraform-provider-fake_v1", EXE, 0o100755)]
contents["empty"] = []
contents["onlydir"] = [("docs/", None, 0)]
contents["fileanddir"] = [("terraform-provider-fake_v1", EXE, 0o100755), ("x", b"1", 0o100644), ("x/y", b"2", 0o100644)]

for key, entries in contents.items():
    zb = mkzip(entries)
    hs = hashes_of(zb)
    # packed filesystem mirror (no index: terraform's filesystem_mirror reads none)
    name = "content_packed_" + key
    write(os.path.join(provider_dir(name), ZIPNAME), zb)
    add(name, "content", "packed")
    # the same zip served as a network mirror whose index declares its zip h1 (and zh)
    name = "content_net_" + key
    d = provider_dir(name)
    write(os.path.join(d, ZIPNAME), zb)
    index_docs(d, {"url": ZIPNAME, "hashes": [hs["h1zip"], hs["zh"]]})
    add(name, "content", "net")
    # unpacked: the files a clean extraction gives (only where one exists)
    if key in ("dotdot", "dotdotinner", "empty", "fileanddir"):
        continue
    name = "content_unpacked_" + key
    pkg = os.path.join(provider_dir(name), VERSION, PLATFORM)
    os.makedirs(pkg, exist_ok=True)
    for n, data, mode in entries:
        p = os.path.normpath(os.path.join(pkg, n))
        if data is None:
            os.makedirs(p, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        write(p, data)
        os.chmod(p, mode & 0o777)
    add(name, "content", "unpacked")

# --- 2. declared hashes of a network mirror (index entries) --------------------------------
# A zip with directory entries: its h1 over the zip (HashZip) and over the extracted folder differ.
zb = mkzip([("docs/", None, 0), ("docs/a.md", b"a", 0o100644), ("terraform-provider-fake_v1", EXE, 0o100755)])
hs = hashes_of(zb)
other = hashes_of(mkzip([("terraform-provider-fake_v9", EXE, 0o100755)]))
kinds = {"h1zip": hs["h1zip"], "h1ext": hs["h1ext"], "zh": hs["zh"], "wrongh1": other["h1zip"],
         "wrongzh": other["zh"], "unknown": "h9:" + sha(b"x"), "upperzh": "ZH:" + hs["zh"][3:],
         "noscheme": sha(zb)}
combos = [()] + [(k,) for k in kinds] + list(itertools.combinations(["h1zip", "h1ext", "zh", "wrongh1", "wrongzh", "unknown"], 2))
combos += [("noscheme", "zh"), ("upperzh", "zh")]
for combo in combos:
    name = "hashes_" + ("-".join(combo) or "none")
    d = provider_dir(name)
    write(os.path.join(d, ZIPNAME), zb)
    index_docs(d, {"url": ZIPNAME, "hashes": [kinds[k] for k in combo]})
    add(name, "hashes", "net", declared=[kinds[k] for k in combo])

# --- 3. lock files at install, per layout -----------------------------------------------
lockkinds = {"h1ext": [hs["h1ext"]], "h1zip": [hs["h1zip"]], "zh": [hs["zh"]], "wrongh1": [other["h1ext"]],
             "wrongzh": [other["zh"]], "wrongh1-zh": [other["h1ext"], hs["zh"]], "unknown": ["h9:" + sha(b"y")],
             "h1ext-wrongzh": [hs["h1ext"], other["zh"]]}
for layout in ("packed", "unpacked", "net"):
    for lk, hl in lockkinds.items():
        name = "lock_%s_%s" % (layout, lk)
        d = provider_dir(name)
        if layout == "unpacked":
            pkg = os.path.join(d, VERSION, PLATFORM)
            os.makedirs(os.path.join(pkg, "docs"), exist_ok=True)
            write(os.path.join(pkg, "docs", "a.md"), b"a")
            write(os.path.join(pkg, "terraform-provider-fake_v1"), EXE)
            os.chmod(os.path.join(pkg, "terraform-provider-fake_v1"), 0o755)
        else:
            write(os.path.join(d, ZIPNAME), zb)
            if layout == "net":
                index_docs(d, {"url": ZIPNAME, "hashes": [hs["zh"]]})
        add(name, "lock", layout, lock=lock_text(hl))

# --- 4. index document shapes (network mirror) -------------------------------------------
good = mkzip([("terraform-provider-fake_v1", EXE, 0o100755)])
gh = hashes_of(good)
GV = json.dumps({"archives": {PLATFORM: {"url": ZIPNAME, "hashes": [gh["zh"]]}}})
GI = json.dumps({"versions": {VERSION: {}}})
V = VERSION + ".json"
shapes = {
    "good": (GI, {V: GV}),
    "i_empty_versions": ('{"versions": {}}', {V: GV}),
    "i_no_versions": ('{}', {V: GV}),
    "i_versions_null": ('{"versions": null}', {V: GV}),
    "i_versions_list": ('{"versions": ["1.0.0"]}', {V: GV}),
    "i_versions_string": ('{"versions": "1.0.0"}', {V: GV}),
    "i_entry_null": ('{"versions": {"1.0.0": null}}', {V: GV}),
    "i_entry_number": ('{"versions": {"1.0.0": 5}}', {V: GV}),
    "i_entry_list": ('{"versions": {"1.0.0": []}}', {V: GV}),
    "i_entry_fields": ('{"versions": {"1.0.0": {"x": 1}}}', {V: GV}),
    "i_vprefix": ('{"versions": {"v1.0.0": {}}}', {V: GV, "v1.0.0.json": GV}),
    "i_short": ('{"versions": {"1.0": {}}}', {V: GV, "1.0.json": GV}),
    "i_junk_and_good": ('{"versions": {"latest": {}, "1.0.0": {}}}', {V: GV}),
    "i_extra_top": ('{"versions": {"1.0.0": {}}, "extra": [1, 2]}', {V: GV}),
    "i_top_list": ('[]', {V: GV}),
    "i_top_null": ('null', {V: GV}),
    "i_top_string": ('"x"', {V: GV}),
    "i_empty_body": ('', {V: GV}),
    "i_syntax": ('{"versions": {"1.0.0": {}', {V: GV}),
    "i_trailing": (GI + ' garbage', {V: GV}),
    "i_upper_key": ('{"VERSIONS": {"1.0.0": {}}}', {V: GV}),
    "i_leading_zero": ('{"versions": {"01.0.0": {}}}', {V: GV, "01.0.0.json": GV}),
    "i_no_version_doc": (GI, {}),
    "v_empty": (GI, {V: '{}'}),
    "v_archives_empty": (GI, {V: '{"archives": {}}'}),
    "v_archives_null": (GI, {V: '{"archives": null}'}),
    "v_archives_list": (GI, {V: '{"archives": []}'}),
    "v_entry_empty": (GI, {V: '{"archives": {"%s": {}}}' % PLATFORM}),
    "v_no_url": (GI, {V: json.dumps({"archives": {PLATFORM: {"hashes": [gh["zh"]]}}})}),
    "v_url_number": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": 5, "hashes": [gh["zh"]]}}})}),
    "v_url_absent_file": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": "nothere.zip", "hashes": [gh["zh"]]}}})}),
    "v_no_hashes": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": ZIPNAME}}})}),
    "v_hashes_null": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": ZIPNAME, "hashes": None}}})}),
    "v_hashes_string": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": ZIPNAME, "hashes": gh["zh"]}}})}),
    "v_hashes_number_item": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": ZIPNAME, "hashes": [5, gh["zh"]]}}})}),
    "v_upper_fields": (GI, {V: json.dumps({"ARCHIVES": {PLATFORM: {"URL": ZIPNAME, "HASHES": [gh["zh"]]}}})}),
    "v_upper_platform": (GI, {V: json.dumps({"archives": {"LINUX_AMD64": {"url": ZIPNAME, "hashes": [gh["zh"]]}}})}),
    "v_extra_fields": (GI, {V: json.dumps({"archives": {PLATFORM: {"url": ZIPNAME, "hashes": [gh["zh"]], "size": 5}}, "x": {}})}),
    "v_other_platform_bad": (GI, {V: json.dumps({"archives": {"bogus": {"url": 5}, PLATFORM: {"url": ZIPNAME, "hashes": [gh["zh"]]}}})}),
    "v_other_platform_only": (GI, {V: json.dumps({"archives": {"darwin_arm64": {"url": ZIPNAME, "hashes": [gh["zh"]]}}})}),
    "v_trailing": (GI, {V: GV + "]]"}),
    "v_top_null": (GI, {V: 'null'}),
    "v_syntax": (GI, {V: GV[:-2]}),
}
for key, (idx, vers) in shapes.items():
    name = "shape_" + key
    d = provider_dir(name)
    write(os.path.join(d, ZIPNAME), good)
    index_docs(d, None, index_text=idx, version_files=vers)
    add(name, "shape", "net")

# --- 5. packages that are not readable zips (issue 15: the same outcome from every source) ----
# Bytes that are no zip at all, and a good zip cut short (its central directory gone). Packed:
# without a lock, with the lock's zh: of the bytes, with another zh:; served: the index declares
# the bytes' zh:, another zh:, or the good zip's h1:.
unreadable = {"notzip": b"this is not a zip archive\n" * 40, "truncated": good[: len(good) // 2]}
for key, zb in unreadable.items():
    zh = "zh:" + sha(zb)
    name = "unreadable_packed_%s_nolock" % key
    write(os.path.join(provider_dir(name), ZIPNAME), zb)
    add(name, "content", "packed")
    for lk, hl in (("lockzh", [zh]), ("lockwrongzh", [gh["zh"]]), ("lockh1", [gh["h1zip"]])):
        name = "unreadable_packed_%s_%s" % (key, lk)
        write(os.path.join(provider_dir(name), ZIPNAME), zb)
        add(name, "lock", "packed", lock=lock_text(hl))
    for ik, hl in (("zh", [zh]), ("wrongzh", [gh["zh"]]), ("h1", [gh["h1zip"]])):
        name = "unreadable_net_%s_%s" % (key, ik)
        d = provider_dir(name)
        write(os.path.join(d, ZIPNAME), zb)
        index_docs(d, {"url": ZIPNAME, "hashes": hl})
        add(name, "hashes", "net", declared=hl)

# --- 6. the same unreadable packages inside bundles --------------------------------------
# Each unreadable_* mirror tree, as it is on disk, packed by Python's tarfile (gzip, xz, plain)
# and zipfile (stored, as `zip -0`) into ROOT/_bundles/: `provender verify BUNDLE` and `bundle
# verify` must give the verdict `verify DIR` gives for the tree, and terraform's outcome for it.
BUNDLES = os.path.join(ROOT, "_bundles")
os.makedirs(BUNDLES, exist_ok=True)


def tree_files(top):
    for base, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            full = os.path.join(base, f)
            yield full, os.path.relpath(full, top)


for c in cases:
    if not c["name"].startswith("unreadable_"):
        continue
    made = []
    for ext, mode in (("tar.gz", "w:gz"), ("tar.xz", "w:xz"), ("tar", "w")):
        out = os.path.join(BUNDLES, "%s.%s" % (c["name"], ext))
        with tarfile.open(out, mode) as t:
            for full, rel in tree_files(c["dir"]):
                t.add(full, arcname=rel)
        made.append(out)
    out = os.path.join(BUNDLES, c["name"] + ".zip")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for full, rel in tree_files(c["dir"]):
            z.write(full, rel)
    made.append(out)
    c["bundles"] = made

json.dump(cases, sys.stdout, indent=1)
