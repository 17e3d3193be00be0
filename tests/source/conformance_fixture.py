#!/usr/bin/env python3
# The conformance suite's mirror (tests/source/tst_source_conformance.cpp), built with Python's
# zipfile/hashlib/json/tarfile only, so every expected hash and verdict below is independent of
# Provender's own code.
#
#   python3 conformance_fixture.py OUT [KEY.asc]  ->  OUT/mirror/ (the directory), OUT/bundle.tar.gz
#   and OUT/bundle.zip (the same tree packed), and prints the expectations as JSON on stdout.
#   With KEY.asc also OUT/registry/: the same archives as a providers.v1 origin registry (versions
#   and download documents, files/ with the zips and one SHA256SUMS per release, to be signed by
#   the test with that key), and the registry's expectations under "registry".
#
# Expected verdicts follow docs/VERDICTS.md (network-mirror hash rules: one declared h1:/zh: must
# match — h1: against the zip's HashZip, zh: against its bytes).
import base64, hashlib, io, json, os, sys, tarfile, zipfile

out = sys.argv[1]
root = os.path.join(out, 'mirror')

def payload(seed, size):
    data = bytearray(); block = seed.encode()
    while len(data) < size:
        block = hashlib.sha256(block).digest(); data += block
    return bytes(data[:size])

def hash_zip_h1(path):
    # dirhash.HashZip (Hash1): the entries sorted by name, one "sha256hex  name\n" line each, then
    # SHA-256 of the lines, base64.
    with zipfile.ZipFile(path) as z:
        entries = sorted(z.infolist(), key=lambda i: i.filename)
        lines = ''.join('%s  %s\n' % (hashlib.sha256(z.read(i)).hexdigest(), i.filename) for i in entries)
    return 'h1:' + base64.b64encode(hashlib.sha256(lines.encode()).digest()).decode()

def zh(path):
    return 'zh:' + hashlib.sha256(open(path, 'rb').read()).hexdigest()

expect = {'archives': [], 'providers': {}}

def make_zip(directory, ptype, version, plat, size, method):
    name = 'terraform-provider-%s_%s_%s.zip' % (ptype, version, plat)
    path = os.path.join(directory, name)
    with zipfile.ZipFile(path, 'w', method) as z:
        z.writestr('terraform-provider-%s_v%s' % (ptype, version), payload(ptype + version + plat, size))
        z.writestr('LICENSE', b'MIT ' + plat.encode())
    return name, path

def provider(ptype, versions):
    """versions: {version: [(platform, kind)]}; kind says what is planted."""
    directory = os.path.join(root, 'example.com', 'acme', ptype)
    os.makedirs(directory, exist_ok=True)
    addr = 'example.com/acme/' + ptype
    expect['providers'][addr] = sorted(versions)
    for version, plats in versions.items():
        archives = {}
        for plat, kind in plats:
            rec = {'provider': addr, 'version': version, 'platform': plat, 'kind': kind,
                   'index': 'example.com/acme/%s/%s.json' % (ptype, version)}
            if kind == 'absent':
                archives[plat] = {'url': 'terraform-provider-%s_%s_%s.zip' % (ptype, version, plat),
                                  'hashes': ['zh:' + hashlib.sha256(b'never written').hexdigest()]}
                rec.update(verdict='missing', present=False, declared=archives[plat]['hashes'])
                expect['archives'].append(rec)
                continue
            if kind == 'corrupt':
                name = 'terraform-provider-%s_%s_%s.zip' % (ptype, version, plat)
                path = os.path.join(directory, name)
                with open(path, 'wb') as f:
                    f.write(b'PK\x03\x04 this is not a zip archive ' * 40)
                archives[plat] = {'url': name, 'hashes': [zh(path)]}
                rec.update(verdict='error', present=True, declared=archives[plat]['hashes'],
                           path='example.com/acme/%s/%s' % (ptype, name), zh=zh(path))
                expect['archives'].append(rec)
                continue
            stored = plat.endswith('amd64')
            name, path = make_zip(directory, ptype, version, plat, 3000 + 1000 * len(plat),
                                  zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED)
            h1, z = hash_zip_h1(path), zh(path)
            if kind == 'zh':
                hashes, verdict, matched, contradicting = [z], 'verified', ['zh'], []
            elif kind == 'h1':
                hashes, verdict, matched, contradicting = [h1], 'verified', ['h1 (zip)'], []
            elif kind == 'both':
                hashes, verdict, matched, contradicting = [h1, z], 'verified', ['h1 (zip)', 'zh'], []
            elif kind == 'wrong':
                # the SHA-256 of other bytes: matches nothing
                hashes = ['zh:' + hashlib.sha256(b'other bytes').hexdigest()]
                verdict, matched, contradicting = 'mismatch', [], hashes
            elif kind == 'extra':
                # a right zh: and an h1: that matches nothing: verified, plus a verdict anomaly
                bad = 'h1:' + base64.b64encode(hashlib.sha256(b'nothing').digest()).decode()
                hashes, verdict, matched, contradicting = [bad, z], 'verified', ['zh'], [bad]
            elif kind == 'none':
                hashes, verdict, matched, contradicting = [], 'unverified', [], []
            archives[plat] = {'url': name, 'hashes': hashes} if hashes else {'url': name}
            rec.update(verdict=verdict, present=True, declared=hashes, matched=matched, contradicting=contradicting,
                       h1=h1, zh=z, path='example.com/acme/%s/%s' % (ptype, name), size=os.path.getsize(path))
            expect['archives'].append(rec)
        json.dump({'archives': archives}, open(os.path.join(directory, version + '.json'), 'w'), indent=2)
    json.dump({'versions': {v: {} for v in versions}}, open(os.path.join(directory, 'index.json'), 'w'), indent=2)

provider('demo', {
    '1.0.0': [('linux_amd64', 'zh'), ('darwin_arm64', 'h1'), ('windows_amd64', 'wrong'), ('linux_arm64', 'none'),
              ('freebsd_amd64', 'absent'), ('linux_386', 'corrupt'), ('openbsd_amd64', 'extra')],
    '1.2.0': [('linux_amd64', 'both'), ('darwin_amd64', 'zh')],
})
provider('other', {'0.1.0': [('linux_amd64', 'h1')]})

# The same tree packed, by tarfile and zipfile (entries at the root of the bundle, no SHA256SUMS).
names = []
for d, dirs, files in os.walk(root):
    dirs.sort()
    for f in sorted(files):
        names.append(os.path.relpath(os.path.join(d, f), root))
with tarfile.open(os.path.join(out, 'bundle.tar.gz'), 'w:gz') as t:
    for n in names:
        t.add(os.path.join(root, n), arcname=n)
with zipfile.ZipFile(os.path.join(out, 'bundle.zip'), 'w', zipfile.ZIP_STORED) as z:
    for n in names:
        z.write(os.path.join(root, n), arcname=n)

# A third bundle with a SHA256SUMS (sha256sum's "<hex>  <path>" lines) of every file — one line
# deliberately wrong — so that the bundle's own checksums are a second anchor (docs/VERDICTS.md:
# a match adds "own-checksums" to a verified archive and verifies an unverified one; a mismatch
# is a mismatch whatever the index says).
wrong_sums = 'example.com/acme/demo/terraform-provider-demo_1.2.0_darwin_amd64.zip'
sums_lines = []
for n in names:
    digest = hashlib.sha256(open(os.path.join(root, n), 'rb').read()).hexdigest()
    if n == wrong_sums:
        digest = hashlib.sha256(b'tampered').hexdigest()
    sums_lines.append('%s  %s\n' % (digest, n))
with tarfile.open(os.path.join(out, 'bundle-sums.tar.gz'), 'w:gz') as t:
    for n in names:
        t.add(os.path.join(root, n), arcname=n)
    data = ''.join(sums_lines).encode()
    info = tarfile.TarInfo('SHA256SUMS'); info.size = len(data); info.mtime = 0
    t.addfile(info, io.BytesIO(data))
sums = {}
for rec in expect['archives']:
    key = '%s %s %s' % (rec['provider'], rec['version'], rec['platform'])
    verdict, anchors = rec['verdict'], []
    if rec.get('path') == wrong_sums:
        verdict = 'mismatch'
    elif verdict == 'verified':
        anchors = ['own-index', 'own-checksums']
    elif verdict == 'unverified':
        verdict, anchors = 'verified', ['own-checksums']
    sums[key] = {'verdict': verdict, 'anchors': anchors}
expect['sums'] = sums
expect['sums_file'] = 'SHA256SUMS'

# The same archives as an origin registry (tofu-formats.md §12). What a registry declares is the
# download document's shasum (the SHA-256 of the bytes it serves), anchored to the signed
# SHA256SUMS: every archive the mirror has verifies by its zh: whatever the mirror's index
# declared; the absent one is a 404 (missing); the corrupt one matches its shasum and then fails
# to extract (error), as from the mirror.
if len(sys.argv) > 2:
    armour = open(sys.argv[2]).read()
    reg = os.path.join(out, 'registry')
    by_release = {}
    for rec in expect['archives']:
        by_release.setdefault((rec['provider'], rec['version']), []).append(rec)
    registry = {}
    versions_docs = {}
    for (addr, version), recs in sorted(by_release.items()):
        ptype = addr.split('/')[-1]
        files = os.path.join(reg, 'files', ptype, version)
        os.makedirs(files, exist_ok=True)
        sums_name = 'terraform-provider-%s_%s_SHA256SUMS' % (ptype, version)
        lines = []
        for rec in sorted(recs, key=lambda r: r['platform']):
            name = 'terraform-provider-%s_%s_%s.zip' % (ptype, version, rec['platform'])
            if rec['kind'] == 'absent':
                sha = hashlib.sha256(b'never written').hexdigest()
            else:
                data = open(os.path.join(root, 'example.com', 'acme', ptype, name), 'rb').read()
                sha = hashlib.sha256(data).hexdigest()
                open(os.path.join(files, name), 'wb').write(data)
            lines.append('%s  %s\n' % (sha, name))
            os_, arch = rec['platform'].split('_')
            doc = {'protocols': ['5.0'], 'os': os_, 'arch': arch, 'filename': name,
                   'download_url': '/files/%s/%s/%s' % (ptype, version, name),
                   'shasums_url': '/files/%s/%s/%s' % (ptype, version, sums_name),
                   'shasums_signature_url': '/files/%s/%s/%s.sig' % (ptype, version, sums_name),
                   'shasum': sha,
                   'signing_keys': {'gpg_public_keys': [{'key_id': '', 'ascii_armor': armour}]}}
            d = os.path.join(reg, 'v1', 'providers', 'acme', ptype, version, 'download', os_)
            os.makedirs(d, exist_ok=True)
            json.dump(doc, open(os.path.join(d, arch), 'w'))
            versions_docs.setdefault(ptype, {}).setdefault(version, []).append({'os': os_, 'arch': arch})
            key = '%s %s %s' % (addr, version, rec['platform'])
            e = {'declared': ['zh:' + sha], 'sums': 'files/%s/%s/%s' % (ptype, version, sums_name),
                 'url': 'files/%s/%s/%s' % (ptype, version, name)}
            if rec['kind'] == 'absent':
                e.update(verdict='missing')
            elif rec['kind'] == 'corrupt':
                e.update(verdict='error', zh='zh:' + sha)
            else:
                e.update(verdict='verified', matched=['zh'], h1=rec['h1'], zh=rec['zh'])
            registry[key] = e
        open(os.path.join(files, sums_name), 'w').write(''.join(lines))
    for ptype, vs in versions_docs.items():
        d = os.path.join(reg, 'v1', 'providers', 'acme', ptype)
        json.dump({'versions': [{'version': v, 'protocols': ['5.0'], 'platforms': p} for v, p in sorted(vs.items())]},
                  open(os.path.join(d, 'versions'), 'w'))
    expect['registry'] = registry

print(json.dumps(expect, indent=1))
