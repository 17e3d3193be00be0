#!/usr/bin/env python3
"""Seed inputs for the fuzzers of tests/fuzz, written at run time by tests/fuzz/run-all (nothing
generated is committed). Small on purpose (a few KiB each): libFuzzer's max_len defaults to the
largest seed, and small inputs run fast. Deterministic (fixed dates, seeded random data).

    make-seeds.py zip|bundle|bundlemeta <output directory>

zip: provider-like zips from Python's zipfile (stored, deflate, data descriptors, zip64,
comments, directories by name and by attributes, duplicates, unsafe names, empty archive) and a
few damaged ones. bundle: small mirror trees (index documents, a provider zip, SHA256SUMS, the
manifest) as tar (ustar, GNU, pax) behind no filter, gzip, xz, zstd (when the zstd program is
installed) and bzip2 (which the reader may refuse), and as zip (also with zip64 end records),
plus hostile entries (links, devices, traversal, duplicates, a root-named link). bundlemeta: SHA256SUMS and provender-bundle.json documents.
"""
import hashlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import warnings
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import zip_writer  # noqa: E402  (tests/support/zip_writer.py: zips from zipfile, shared with tests/bundle/fixtures.py)

warnings.simplefilter('ignore')  # zipfile warns about the duplicate names written on purpose

FIXED = (2026, 1, 2, 3, 4, 6)
MTIME = 1767323046
rng = random.Random(20261201)


def data(n):
    return bytes(rng.randrange(256) for _ in range(n))


def zip_bytes(entries, **options):
    """zip_writer.zip_bytes dated FIXED: entries (name, content, method, mode)."""
    return zip_writer.zip_bytes(entries, FIXED, **options)


D, S = zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED
F, X, DIR = 0o100644, 0o100755, 0o040755


def provider_entries():
    return [('terraform-provider-x_v1.0.0', data(300) + b'A' * 600, D, X), ('docs/', b'', S, DIR),
            ('docs/README.md', b'readme\n' * 8, D, F), ('LICENSE', b'license text\n', S, F)]


def with_zip64_end(z):
    """The zip with a zip64 end record and locator before its end record (which then says
    0xffffffff for the directory's offset), as writers do for large archives."""
    import struct
    e = z.rfind(b'PK\x05\x06')
    n = struct.unpack_from('<H', z, e + 10)[0]
    size, offset = struct.unpack_from('<II', z, e + 12)
    record = struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 45, 45, 0, 0, n, n, size, offset)
    locator = struct.pack('<IIQI', 0x07064b50, 0, e, 1)
    end = bytearray(z[e:])
    struct.pack_into('<I', end, 16, 0xffffffff)
    return z[:e] + record + locator + bytes(end)


def zips():
    base = provider_entries()
    out = {
        **zip_writer.layouts(base, FIXED),
        'comment': zip_bytes(base, comment=b'a comment PK\x05\x06 with a signature'),
        'duplicates': zip_bytes(base + [('LICENSE', b'second\n', D, F)]),
        'unsafe-names': zip_bytes([('../evil', b'x', D, F), ('/abs', b'y', S, F), ('C:drive', b'z', S, F),
                                   ('a\\..\\b', b'w', S, F), ('./dot//slash', b'v', S, F)]),
        'dos-directory': zip_bytes([('dir-by-attributes', b'', S, DIR), ('x', b'y', S, F)], system=0),
        'file-and-directory': zip_bytes([('a', b'1', S, F), ('a/b', b'2', S, F)]),
        'empty-files': zip_bytes([('empty', b'', D, F), ('stored-empty', b'', S, F)]),
        'stored-descriptor': zip_bytes([('a', b'xPK\x07\x08' + b'\0' * 12, S, F), ('b', b'tail', S, F)], stream=True),
        'locator-signature-in-data': zip_bytes([('a', b'PK\x06\x07' + b'\0' * 16, S, F)]),
        'directory-with-data': zip_bytes([('d/', b'data in a directory', S, DIR)]),
        'newline-name': zip_bytes([('a\nb', b'x', S, F)]),
    }
    out['zip64-end-records'] = with_zip64_end(out['plain'])
    out.update(zip_writer.broken_zips(out['plain'], 120))
    encrypted = bytearray(zip_bytes([('secret', b'x' * 20, S, F)]))
    for sig in (b'PK\x03\x04', b'PK\x01\x02'):  # set the "encrypted" flag in both headers
        at = encrypted.find(sig)
        encrypted[at + (6 if sig == b'PK\x03\x04' else 8)] |= 1
    out['encrypted-flag'] = bytes(encrypted)
    return out


def mirror_tree(host='registry.example', prefix=''):
    """(name, bytes) of a small filesystem mirror, with SHA256SUMS and the manifest."""
    provider = zip_bytes(provider_entries())
    d = f'{host}/ns/x'
    z = f'{d}/terraform-provider-x_1.0.0_linux_amd64.zip'
    files = [
        (f'{d}/index.json', json.dumps({'versions': {'1.0.0': {}}}, indent=2).encode()),
        (f'{d}/1.0.0.json', json.dumps({'archives': {'linux_amd64': {
            'hashes': ['zh:' + hashlib.sha256(provider).hexdigest()],
            'url': 'terraform-provider-x_1.0.0_linux_amd64.zip'}}}, indent=2).encode()),
        (z, provider),
        (f'{d}/1.0.0/linux_arm64/terraform-provider-x_v1.0.0', b'unpacked binary\n'),
    ]
    sums = ''.join(f'{hashlib.sha256(b).hexdigest()}  {n}\n' for n, b in sorted(files))
    manifest = manifest_doc([(d, z, provider)])
    files += [('SHA256SUMS', sums.encode()), ('provender-bundle.json', manifest)]
    return [(prefix + n, b) for n, b in files]


def manifest_doc(archives):
    return json.dumps({
        'format': 'provender-bundle', 'format_version': 1, 'generator': 'Provender 0.1.0',
        'created': '2026-01-02T03:04:06Z',
        'source': {'mirror': '/srv/mirror', 'selection': 'lock-files', 'lock_files': ['a/.terraform.lock.hcl'],
                   'platforms': ['linux_amd64']},
        'archives': [{'provider': 'registry.example/ns/x', 'version': '1.0.0', 'platform': 'linux_amd64',
                      'layout': 'packed', 'path': z, 'h1': 'h1:' + 'A' * 43 + '=',
                      'zh': 'zh:' + hashlib.sha256(b).hexdigest(), 'size': len(b)} for d, z, b in archives],
        'missing': [{'provider': 'registry.example/ns/y', 'version': '2.0.0', 'platform': 'darwin_arm64',
                     'lock_file': 'a/.terraform.lock.hcl', 'reason': 'not in the mirror'}],
    }, indent=4, sort_keys=True).encode()


def tar_bytes(members, fmt=tarfile.PAX_FORMAT, dirs=True):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode='w', format=fmt) as t:
        seen = set()
        for name, content, *rest in members:
            kind = rest[0] if rest else tarfile.REGTYPE
            link = rest[1] if len(rest) > 1 else ''
            if dirs:
                parts = name.split('/')[:-1]
                for i in range(1, len(parts) + 1):
                    p = '/'.join(parts[:i]) + '/'
                    if p not in seen:
                        seen.add(p)
                        info = tarfile.TarInfo(p)
                        info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, MTIME
                        t.addfile(info)
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime, info.linkname = kind, 0o644, MTIME, link
            if kind == tarfile.REGTYPE:
                info.size = len(content)
                t.addfile(info, io.BytesIO(content))
            else:
                t.addfile(info)
    # tarfile pads to a 10 KiB record; two zero blocks end the archive as well (smaller seeds).
    raw = buf.getvalue().rstrip(b'\0')
    return raw + b'\0' * (-len(raw) % 512 + 1024)


def compress(raw, program):
    if program == 'gzip':
        import gzip
        return gzip.compress(raw, mtime=0)
    if program == 'bzip2':
        import bz2
        return bz2.compress(raw)
    if program == 'xz':
        import lzma
        return lzma.compress(raw)
    if program == 'zstd':
        if not shutil.which('zstd'):
            return None
        return subprocess.run(['zstd', '-q', '-c', '-19'], input=raw, capture_output=True, check=True).stdout
    raise ValueError(program)


def bundles():
    tree = mirror_tree()
    out = {}
    for fmt, fname in ((tarfile.USTAR_FORMAT, 'ustar'), (tarfile.GNU_FORMAT, 'gnu'), (tarfile.PAX_FORMAT, 'pax')):
        out[f'mirror-{fname}.tar'] = tar_bytes(tree, fmt)
    raw = tar_bytes(mirror_tree(prefix='bundle/'))
    for program, suffix in (('gzip', 'tar.gz'), ('bzip2', 'tar.bz2'), ('xz', 'tar.xz'), ('zstd', 'tar.zst')):
        packed = compress(raw, program)
        if packed is not None:
            out[f'mirror.{suffix}'] = packed
    out['mirror.zip'] = zip_bytes([(n, b, D, F) for n, b in tree])
    out['mirror-zip64-end.zip'] = with_zip64_end(out['mirror.zip'])
    out['no-directories.tar'] = tar_bytes(tree, dirs=False)
    long_name = 'registry.example/ns/x/' + 'long-' * 30 + 'name.json'
    out['long-names-gnu.tar'] = tar_bytes([(long_name, b'{}')], tarfile.GNU_FORMAT)
    out['long-names-pax.tar'] = tar_bytes([(long_name, b'{}'), ('caf\u00e9/\u00fc.json', b'{}')], tarfile.PAX_FORMAT)
    hostile = [
        ('registry.example/ns/../../../etc/evil', b'evil'),
        ('/absolute/evil', b'evil'),
        ('registry.example/ns/link', b'', tarfile.SYMTYPE, '../../../outside'),
        ('registry.example/ns/inside', b'', tarfile.SYMTYPE, 'x/index.json'),
        ('registry.example/ns/hard', b'', tarfile.LNKTYPE, 'registry.example/ns/x/index.json'),
        ('registry.example/ns/hard-out', b'', tarfile.LNKTYPE, '../outside'),
        ('registry.example/ns/dev', b'', tarfile.CHRTYPE),
        ('registry.example/ns/fifo', b'', tarfile.FIFOTYPE),
        ('registry.example/ns/x/index.json', b'{"versions":{}}'),
        ('registry.example/ns/x/index.json', b'{"versions":{"2.0.0":{}}}'),
        ('registry.example/ns/x/index.json/below-a-file', b'x'),
        ('ctl\x01name', b'x'),
        ('./', b'', tarfile.SYMTYPE, 'registry.example'),
    ]
    out['hostile.tar'] = tar_bytes(tree[:1] + hostile, tarfile.PAX_FORMAT, dirs=False)
    out['hostile.tar.gz'] = compress(out['hostile.tar'], 'gzip')
    out['hostile.zip'] = zip_bytes([('../evil', b'x', S, F), ('dup', b'1', S, F), ('dup', b'2', S, F),
                                    ('registry.example/ns/link', b'../../../x', S, 0o120777)])
    out['empty.tar'] = b'\0' * 1024
    out['truncated.tar.gz'] = out['mirror.tar.gz'][: len(out['mirror.tar.gz']) // 2]
    return out


def bundlemeta():
    tree = dict(mirror_tree())
    return {
        'SHA256SUMS': tree['SHA256SUMS'],
        'SHA256SUMS-binary-crlf': b''.join(
            line[:64] + b' *' + line[66:] + b'\r\n' for line in tree['SHA256SUMS'].splitlines()),
        'SHA256SUMS-unsafe': b'0' * 64 + b'  ../up\n' + b'1' * 64 + b'  ./ok\n',
        'provender-bundle.json': tree['provender-bundle.json'],
        'manifest-minimal.json': b'{"format":"provender-bundle","format_version":1,"archives":[{"size":7}]}',
    }


def main():
    kind, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seeds = {'zip': zips, 'bundle': bundles, 'bundlemeta': bundlemeta}[kind]()
    for name, content in seeds.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(content)


if __name__ == '__main__':
    main()
