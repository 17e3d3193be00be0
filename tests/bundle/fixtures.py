#!/usr/bin/env python3
"""Fixtures for the bundle tests, written with Python's own zipfile/tarfile/hashlib/zlib: an
implementation independent of Provender's (libarchive, QuaZip, OpenSSL) for every expected value.

  mirror DIR                 a fake provider mirror; prints JSON: every archive with its h1 (Go's
                             dirhash.HashZip / HashDir, tofu-formats.md §3) and zh, and the index
                             documents `terraform providers mirror` would write (Go's MarshalIndent)
  zips DIR                   awkward zips for the streaming hasher; prints their names
  hostile KIND OUT [ARGS]    hostile bundles (see make_hostile)
  bomb KIND OUT GIB          zip/tar.gz/tar.xz/tar.zst bombs made of repeated compressed blocks (built in
                             seconds; the zstd frames are written by hand from RFC 8878: RLE blocks),
                             and tar.gz bundles holding a zip bomb (tests/hashing/zipbombs.py)
  hardlinked OUT             a tar.gz bundle whose second archive is a hard link to the first; prints
                             JSON: both entry names and the first zip's h1 (Go's HashZip), zh, sha256
  retar SRC OUT PREFIX       a bundle's entries again, under a top-level folder PREFIX
  tamper SRC OUT NAME        a tar bundle with entry NAME's content changed (SHA256SUMS/indexes kept)
"""
import base64
import bz2
import gzip
import hashlib
import io
import json
import lzma
import os
import stat
import struct
import sys
import tarfile
import tempfile
import time
import zipfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'hashing'))
import zipbombs  # noqa: E402  (tests/hashing/zipbombs.py: zip bombs record by record)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import zip_writer  # noqa: E402  (tests/support/zip_writer.py: zips from zipfile, shared with tests/fuzz/make-seeds.py)

FIXED = (2024, 1, 2, 3, 4, 6)


def h1_of(files):
    """files: list of (name, bytes) -> h1: (dirhash.Hash1)."""
    lines = ''.join('%s  %s\n' % (hashlib.sha256(c).hexdigest(), n)
                    for n, c in sorted(files, key=lambda f: f[0].encode('utf-8')))
    return 'h1:' + base64.b64encode(hashlib.sha256(lines.encode('utf-8')).digest()).decode()


def hash_zip(path):
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        last = {}
        for i in infos:
            last[i.filename] = b'' if i.filename.endswith('/') else z.read(i)
        return h1_of([(i.filename, last[i.filename]) for i in infos])


def zh(path):
    with open(path, 'rb') as f:
        return 'zh:' + hashlib.sha256(f.read()).hexdigest()


def go_json(value):
    """Go's json.MarshalIndent(v, "", "  ") for ASCII maps/lists/strings: keys sorted, no newline."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True)


def provider_zip(path, ptype, version, platform, extra=0):
    body = ('#!/bin/sh\necho fake provider %s %s %s\n' % (ptype, version, platform)).encode() + os.urandom(extra)
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo('terraform-provider-%s_v%s' % (ptype, version), FIXED)
        info.external_attr = (0o100755 << 16)
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, body)
        info = zipfile.ZipInfo('LICENSE', FIXED)
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, b'MPL-2.0 placeholder for %s\n' % ptype.encode())


def make_mirror(root, extra):
    """Packed: registry.terraform.io/hashicorp/alpha 1.0.0, 1.1.0 (linux_amd64, darwin_arm64), with
    indexes; example.com/acme/beta 0.1.0 linux_amd64 without indexes. Unpacked:
    example.com/acme/gamma 2.0.0 linux_amd64."""
    out = {'archives': [], 'indexes': {}}
    packed = [('registry.terraform.io/hashicorp', 'alpha', v, p, True)
              for v in ('1.0.0', '1.1.0') for p in ('linux_amd64', 'darwin_arm64')]
    packed += [('example.com/acme', 'beta', '0.1.0', 'linux_amd64', False)]
    versions = {}
    for ns, ptype, version, platform, indexed in packed:
        d = os.path.join(root, ns, ptype)
        os.makedirs(d, exist_ok=True)
        name = 'terraform-provider-%s_%s_%s.zip' % (ptype, version, platform)
        path = os.path.join(d, name)
        provider_zip(path, ptype, version, platform, extra)
        h1, z = hash_zip(path), zh(path)
        rel = '%s/%s/%s' % (ns, ptype, name)
        out['archives'].append({'provider': '%s/%s' % (ns, ptype), 'version': version, 'platform': platform,
                                'layout': 'packed', 'path': rel, 'h1': h1, 'zh': z})
        versions.setdefault((ns, ptype), {}).setdefault(version, {})[platform] = (name, h1, z, indexed)
    # what `terraform providers mirror` writes (h1 only) and what a bundle writes (h1 then zh)
    for (ns, ptype), vs in versions.items():
        rel = '%s/%s' % (ns, ptype)
        idx = go_json({'versions': {v: {} for v in vs}})
        out['indexes'][rel + '/index.json'] = {'h1': idx, 'h1zh': idx}
        for v, plats in vs.items():
            docs = {}
            for mode in ('h1', 'h1zh'):
                docs[mode] = go_json({'archives': {p: {'hashes': [h1] + ([z] if mode == 'h1zh' else []), 'url': n}
                                                   for p, (n, h1, z, _) in plats.items()}})
            out['indexes']['%s/%s.json' % (rel, v)] = docs
            if all(i for (_, _, _, i) in plats.values()):
                with open(os.path.join(root, ns, ptype, v + '.json'), 'w') as f:
                    f.write(docs['h1'])
        if all(i for plats in vs.values() for (_, _, _, i) in plats.values()):
            with open(os.path.join(root, ns, ptype, 'index.json'), 'w') as f:
                f.write(idx)
    # unpacked package
    pkg = os.path.join(root, 'example.com/acme/gamma/2.0.0/linux_amd64')
    os.makedirs(os.path.join(pkg, 'docs'), exist_ok=True)
    files = [('terraform-provider-gamma_v2.0.0', b'#!/bin/sh\necho gamma\n' + os.urandom(extra)),
             ('docs/README.md', b'# gamma\n')]
    for n, c in files:
        with open(os.path.join(pkg, n), 'wb') as f:
            f.write(c)
    os.chmod(os.path.join(pkg, files[0][0]), 0o755)
    out['archives'].append({'provider': 'example.com/acme/gamma', 'version': '2.0.0', 'platform': 'linux_amd64',
                            'layout': 'unpacked', 'path': 'example.com/acme/gamma/2.0.0/linux_amd64',
                            'h1': h1_of(files), 'zh': ''})
    # the index of a provider with only unpacked packages
    idx = go_json({'versions': {}})
    out['indexes']['example.com/acme/gamma/index.json'] = {'h1': idx, 'h1zh': idx}
    print(json.dumps(out))


# --- awkward zips for the streaming hasher ------------------------------------------------------

def with_modes(entries):
    """(name, content, method) -> (name, content, method, mode): a name ending in / is a directory
    (0755), others files (0644)."""
    return [(n, c, m, zip_writer.DIR if n.endswith('/') else zip_writer.FILE) for n, c, m in entries]


def zip_bytes(entries, stream=False, force_zip64=False, comment=b''):
    """entries: (name, content, method), as with_modes takes them."""
    return zip_writer.zip_bytes(with_modes(entries), FIXED, stream=stream, zip64=force_zip64, comment=comment)


def zip64_sizes_in_extra_only(data):
    """A zip written without data descriptors whose local headers carry a zip64 extra field,
    rewritten to the spec's form of such a header (APPNOTE.TXT 4.5.3): both size fields of the
    local header 0xFFFFFFFF, the sizes only in the extra field. Python's zipfile writes either
    form, depending on its version; readers must take the sizes from the extra field."""
    out = bytearray(data)
    at = 0
    while out[at:at + 4] == b'PK\x03\x04':
        name_length, extra_length = struct.unpack_from('<HH', out, at + 26)
        extra = at + 30 + name_length
        compressed = None
        field = extra
        while field + 4 <= extra + extra_length:
            tag, size = struct.unpack_from('<HH', out, field)
            if tag == 1 and size >= 16:
                compressed = struct.unpack_from('<Q', out, field + 12)[0]
            field += 4 + size
        if compressed is None:
            raise ValueError('a local header without a zip64 extra field with both sizes')
        out[at + 18:at + 26] = b'\xff' * 8
        at = extra + extra_length + compressed
    return bytes(out)


def make_zips(root):
    D, S = zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED
    binary = os.urandom(300000) + b'A' * 400000 + os.urandom(70000)
    base = [('terraform-provider-x_v1.0.0', binary, D), ('docs/', b'', S), ('docs/README.md', b'readme\n' * 50, D),
            ('LICENSE', b'license text\n', S)]
    cases = {
        **zip_writer.layouts(with_modes(base), FIXED),
        'comment': zip_bytes(base, comment=b'a comment'),
        'comment-with-eocd-signature': zip_bytes(base, comment=b'xxPK\x05\x06yy'),
        'duplicates': zip_bytes(base + [('LICENSE', b'second license\n', D)]),
        'dotdot': zip_bytes(base + [('../evil', b'x', D)]),
        'empty-file': zip_bytes([('empty', b'', D), ('stored-empty', b'', S)]),
        'stored-descriptor-with-signature-in-data': zip_bytes([('a', b'xPK\x07\x08' + b'\0' * 30, S), ('b', b'tail', S)],
                                                             stream=True),
        'zip64-locator-signature-in-data': zip_bytes([('a', b'PK\x06\x07' + b'\0' * 16, S)]),
    }
    cases['zip64-sizes-in-extra-only'] = zip64_sizes_in_extra_only(cases['zip64'])
    cases.update(zip_writer.broken_zips(cases['plain'], 200))
    for name, data in cases.items():
        with open(os.path.join(root, name + '.zip'), 'wb') as f:
            f.write(data)
        print(name)


# --- hostile bundles ----------------------------------------------------------------------------

def tar_add(t, name, data=b'', kind=tarfile.REGTYPE, linkname='', mode=0o644):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.mtime = 1700000000
    info.linkname = linkname
    if kind == tarfile.REGTYPE:
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    else:
        t.addfile(info)


def good_prefix(t):
    tar_add(t, 'registry.terraform.io/', kind=tarfile.DIRTYPE, mode=0o755)
    tar_add(t, 'registry.terraform.io/hashicorp/', kind=tarfile.DIRTYPE, mode=0o755)


def lzop_bytes():
    """An lzop file header (lzop's format: magic, versions, method, level, flags, mode, times, name,
    Adler-32 of the header), then junk: enough for libarchive's lzop bidder."""
    fields = struct.pack('>HHHBBIIIIB', 0x1030, 0x2080, 0x0940, 1, 5, 0, 0o100644, 0, 0, 0)
    return b'\x89LZO\x00\r\n\x1a\n' + fields + struct.pack('>I', zlib.adler32(fields)) + b'\0' * 64


def make_compressed(kind, out):
    """Bundles behind compressions Provender refuses (written from their magic numbers)."""
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode='w', format=tarfile.PAX_FORMAT) as t:
        good_prefix(t)
        tar_add(t, 'registry.terraform.io/hashicorp/x/terraform-provider-x_1.0.0_linux_amd64.zip', b'data')
    data = {
        'bzip2': lambda: bz2.compress(tar.getvalue()),
        'lzop': lzop_bytes,
        'lrzip': lambda: b'LRZI\x00\x06' + b'\0' * 64,   # lrzip magic, major 0, minor 6
        'grzip': lambda: b'GRZipII\x00\x02\x04:)' + b'\0' * 64,
        'lz4': lambda: b'\x04\x22\x4d\x18\x64\x40\xa7' + b'\0' * 64,  # LZ4 frame magic, FLG, BD, HC
    }[kind]()
    with open(out, 'wb') as f:
        f.write(data)


def make_hostile(kind, out, arg):
    if kind in ('bzip2', 'lzop', 'lrzip', 'grzip', 'lz4'):
        make_compressed(kind, out)
        return
    if kind.startswith('zip-'):
        entries = {
            'zip-traversal': [('../' * 4 + arg, b'evil', 0o100644)],
            'zip-absolute': [(arg, b'evil', 0o100644)],
            'zip-duplicate': [('registry.terraform.io/hashicorp/x/a', b'one', 0o100644),
                              ('registry.terraform.io/hashicorp/x/a', b'two', 0o100644)],
            'zip-symlink': [('registry.terraform.io/hashicorp/x', ('../../' + arg).encode(), 0o120777)],
            'zip-case': [('registry.terraform.io/hashicorp/x/README', b'one', 0o100644),
                         ('registry.terraform.io/hashicorp/x/readme', b'two', 0o100644)],
        }[kind]
        with zipfile.ZipFile(out, 'w') as z:
            for n, c, mode in entries:
                info = zipfile.ZipInfo(n, FIXED)
                info.create_system = 3
                info.external_attr = mode << 16
                with warnings_off():
                    z.writestr(info, c)
        return
    # GNU headers keep a name's bytes as they are; libarchive NFC-normalizes pax (UTF-8) names.
    fmt = tarfile.GNU_FORMAT if kind == 'nfc-nfd' else tarfile.PAX_FORMAT
    with tarfile.open(out, 'w:gz', format=fmt) as t:
        good_prefix(t)
        if kind == 'traversal':
            tar_add(t, 'registry.terraform.io/hashicorp/../../../' * 3 + arg, b'evil')
        elif kind == 'absolute':
            tar_add(t, arg, b'evil')
        elif kind == 'symlink-escape':
            tar_add(t, 'registry.terraform.io/hashicorp/x', kind=tarfile.SYMTYPE, linkname='../../' + arg)
            tar_add(t, 'registry.terraform.io/hashicorp/x/terraform-provider-x_1.0.0_linux_amd64.zip', b'evil')
        elif kind == 'symlink-root':
            tar_add(t, './', kind=tarfile.SYMTYPE, linkname='registry.terraform.io')
        elif kind == 'symlink-absolute':
            tar_add(t, 'registry.terraform.io/hashicorp/x', kind=tarfile.SYMTYPE, linkname=arg)
        elif kind == 'hardlink-outside':
            tar_add(t, 'registry.terraform.io/hashicorp/h', kind=tarfile.LNKTYPE, linkname=arg)
        elif kind == 'device':
            tar_add(t, 'registry.terraform.io/hashicorp/dev', kind=tarfile.CHRTYPE)
        elif kind == 'fifo':
            tar_add(t, 'registry.terraform.io/hashicorp/fifo', kind=tarfile.FIFOTYPE)
        elif kind == 'duplicate':
            tar_add(t, 'registry.terraform.io/hashicorp/x/terraform-provider-x_1.0.0_linux_amd64.zip', b'first')
            tar_add(t, 'registry.terraform.io/hashicorp/x/terraform-provider-x_1.0.0_linux_amd64.zip', b'second')
        elif kind == 'file-and-directory':
            tar_add(t, 'registry.terraform.io/hashicorp/x', b'a file')
            tar_add(t, 'registry.terraform.io/hashicorp/x/y', b'below a file')
        elif kind == 'hardlink-missing':
            tar_add(t, 'registry.terraform.io/hashicorp/h/terraform-provider-h_1.0.0_linux_amd64.zip', kind=tarfile.LNKTYPE,
                    linkname='registry.terraform.io/hashicorp/h/not-in-the-bundle.zip')
        elif kind == 'symlink-inside':
            tar_add(t, 'registry.terraform.io/hashicorp/s/terraform-provider-s_1.0.0_linux_amd64.zip', b'the real one')
            tar_add(t, 'registry.terraform.io/hashicorp/s/terraform-provider-s_1.0.0_darwin_arm64.zip', kind=tarfile.SYMTYPE,
                    linkname='terraform-provider-s_1.0.0_linux_amd64.zip')
        elif kind == 'case-directories':   # .../x/... and .../X/...: one directory on macOS and Windows
            tar_add(t, 'registry.terraform.io/hashicorp/x/terraform-provider-x_1.0.0_linux_amd64.zip', b'one')
            tar_add(t, 'registry.terraform.io/hashicorp/X/terraform-provider-x_1.0.0_darwin_arm64.zip', b'two')
        elif kind == 'case-full-folding':  # full case folding: 'ß' is 'ss'
            tar_add(t, 'registry.terraform.io/hashicorp/x/stra\u00dfe.txt', b'one')
            tar_add(t, 'registry.terraform.io/hashicorp/x/STRASSE.txt', b'two')
        elif kind in ('nfc-nfd', 'nfc-nfd-pax'):  # U+00E9 against e + U+0301: one name on macOS
            tar_add(t, 'registry.terraform.io/hashicorp/x/caf\u00e9.txt', b'one')
            tar_add(t, 'registry.terraform.io/hashicorp/x/cafe\u0301.txt', b'two')
        elif kind == 'bidi-override':      # shows as ...linux_amd64.zip but ends in "piz.txt"
            tar_add(t, 'registry.terraform.io/hashicorp/x/terraform-provider-x_1.0.0_linux_amd64\u202etxt.zip', b'evil')
        elif kind == 'bidi-isolate':
            tar_add(t, 'registry.terraform.io/hashicorp/x/\u2067terraform-provider-x_1.0.0_linux_amd64.zip\u2069', b'evil')
        else:
            raise SystemExit('unknown kind ' + kind)


class warnings_off:
    def __enter__(self):
        import warnings
        self.w = warnings.catch_warnings()
        self.w.__enter__()
        warnings.simplefilter('ignore')

    def __exit__(self, *a):
        self.w.__exit__(*a)


# --- bombs --------------------------------------------------------------------------------------

CHUNK = 64 << 20


def deflate_zeros(total):
    """Raw DEFLATE of `total` zero bytes, built from one compressed 64 MiB block repeated."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(b'\0' * CHUNK) + c.flush(zlib.Z_FULL_FLUSH)
    assert total % CHUNK == 0
    return block * (total // CHUNK) + b'\x03\x00'


def tar_header(i, size):
    info = tarfile.TarInfo('registry.terraform.io/hashicorp/bomb/terraform-provider-bomb_1.0.%d_linux_amd64.zip' % i)
    info.size = size
    info.mtime = 1700000000
    return info.tobuf(format=tarfile.GNU_FORMAT)


# Zstandard frames by hand (RFC 8878 §3.1.1): magic, a frame header descriptor with no content size,
# no checksum, no dictionary and a window descriptor (exponent 7: 128 KiB windows), then blocks with
# a 3-byte header (Last_Block, Block_Type: 0 raw / 1 RLE, Block_Size). An RLE block repeats one
# byte up to 128 KiB times from a single byte of content.
ZSTD_MAX_BLOCK = 128 << 10


def zstd_frame_header():
    return b'\x28\xb5\x2f\xfd' + bytes([0x00, 7 << 3])


def zstd_block_header(last, block_type, size):
    v = (1 if last else 0) | (block_type << 1) | (size << 3)
    return v.to_bytes(3, 'little')


def zstd_raw_block(data, last=False):
    assert len(data) <= ZSTD_MAX_BLOCK
    return zstd_block_header(last, 0, len(data)) + data


def zstd_rle_blocks(byte, count, last=False):
    out = []
    while count > 0:
        n = min(count, ZSTD_MAX_BLOCK)
        count -= n
        out.append(zstd_block_header(last and count == 0, 1, n) + bytes([byte]))
    return b''.join(out)


def make_hardlinked(out):
    """A mirror tree with alpha 1.0.0 linux_amd64 as a file and darwin_arm64 as a hard link to it."""
    with tempfile.TemporaryDirectory() as tmp:
        z = os.path.join(tmp, 'a.zip')
        provider_zip(z, 'alpha', '1.0.0', 'linux_amd64')
        with open(z, 'rb') as f:
            data = f.read()
        first = 'registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.0.0_linux_amd64.zip'
        second = 'registry.terraform.io/hashicorp/alpha/terraform-provider-alpha_1.0.0_darwin_arm64.zip'
        with tarfile.open(out, 'w:gz', format=tarfile.GNU_FORMAT) as t:
            good_prefix(t)
            tar_add(t, 'registry.terraform.io/hashicorp/alpha/', kind=tarfile.DIRTYPE, mode=0o755)
            tar_add(t, first, data)
            tar_add(t, second, kind=tarfile.LNKTYPE, linkname=first)
        print(json.dumps({'first': first, 'second': second, 'h1': hash_zip(z), 'zh': zh(z),
                          'sha256': hashlib.sha256(data).hexdigest()}))


def make_bomb(kind, out, gib):
    size = int(gib * (1 << 30))
    name = 'registry.terraform.io/hashicorp/bomb/terraform-provider-bomb_1.0.0_linux_amd64.zip'
    if kind in ('zip-honest', 'zip-lying'):
        data = deflate_zeros(size)
        declared = size if kind == 'zip-honest' else (1 << 20)
        n = name.encode()
        local = b'PK\x03\x04' + (20).to_bytes(2, 'little') + (0).to_bytes(2, 'little') + (8).to_bytes(2, 'little') \
            + (0).to_bytes(4, 'little') + (0).to_bytes(4, 'little') + len(data).to_bytes(4, 'little') \
            + declared.to_bytes(4, 'little') + len(n).to_bytes(2, 'little') + (0).to_bytes(2, 'little') + n
        central = b'PK\x01\x02' + (0x31e).to_bytes(2, 'little') + (20).to_bytes(2, 'little') + (0).to_bytes(2, 'little') \
            + (8).to_bytes(2, 'little') + (0).to_bytes(4, 'little') + (0).to_bytes(4, 'little') \
            + len(data).to_bytes(4, 'little') + declared.to_bytes(4, 'little') + len(n).to_bytes(2, 'little') \
            + (0).to_bytes(6, 'little') + (0).to_bytes(2, 'little') + (0o100644 << 16).to_bytes(4, 'little') \
            + (0).to_bytes(4, 'little') + n
        offset = len(local) + len(data)
        end = b'PK\x05\x06' + (0).to_bytes(4, 'little') + (1).to_bytes(2, 'little') * 2 \
            + len(central).to_bytes(4, 'little') + offset.to_bytes(4, 'little') + (0).to_bytes(2, 'little')
        with open(out, 'wb') as f:
            f.write(local)
            f.write(data)
            f.write(central)
            f.write(end)
        return
    if kind in ('tar-zip-overlap', 'tar-zip-budget'):
        with tempfile.TemporaryDirectory() as tmp:
            z = os.path.join(tmp, 'bomb.zip')
            saved = sys.stdout
            sys.stdout = io.StringIO()  # zipbombs prints its JSON; the bundle test reads none
            try:
                if kind == 'tar-zip-overlap':
                    zipbombs.overlap(z, 64, 32)
                else:
                    zipbombs.budget(z, 3, 3)
            finally:
                sys.stdout = saved
            with tarfile.open(out, 'w:gz', format=tarfile.PAX_FORMAT) as t:
                good_prefix(t)
                with open(z, 'rb') as f:
                    tar_add(t, name, f.read())
        return
    if kind in ('tar-xz', 'tar-zst', 'tar-xz-one', 'tar-zst-one'):
        # `gib` GiB in files of 1 GiB each (-one: in one file), one compressed stream.
        per = size if kind.endswith('-one') else 1 << 30
        count = max(1, size // per)
        kind = kind.replace('-one', '')
        if kind == 'tar-xz':
            c = lzma.LZMACompressor(format=lzma.FORMAT_XZ, preset=0)
            zeros = b'\0' * CHUNK
            with open(out, 'wb') as f:
                for i in range(count):
                    f.write(c.compress(tar_header(i, per)))
                    for _ in range(per // CHUNK):
                        f.write(c.compress(zeros))
                f.write(c.compress(b'\0' * 1024))
                f.write(c.flush())
            return
        with open(out, 'wb') as f:
            f.write(zstd_frame_header())
            for i in range(count):
                f.write(zstd_raw_block(tar_header(i, per)))
                f.write(zstd_rle_blocks(0, per))
            f.write(zstd_rle_blocks(0, 1024, last=True))
        return
    if kind == 'tar-gz':
        # `gib` GiB in files of 1 GiB each; gzip members concatenated (one per piece).
        zeros = gzip.compress(b'\0' * CHUNK, compresslevel=9, mtime=0)
        with open(out, 'wb') as f:
            per = 1 << 30
            count = max(1, size // per)
            for i in range(count):
                info = tarfile.TarInfo('registry.terraform.io/hashicorp/bomb/terraform-provider-bomb_1.0.%d_linux_amd64.zip' % i)
                info.size = per
                info.mtime = 1700000000
                f.write(gzip.compress(info.tobuf(format=tarfile.GNU_FORMAT), mtime=0))
                for _ in range(per // CHUNK):
                    f.write(zeros)
            f.write(gzip.compress(b'\0' * 1024, mtime=0))
        return
    raise SystemExit('unknown bomb ' + kind)


# --- re-packing ---------------------------------------------------------------------------------

def read_entries(src):
    """(name, data or None, is_dir, mode) of every entry of a zip or tar."""
    entries = []
    if zipfile.is_zipfile(src):
        with zipfile.ZipFile(src) as z:
            for i in z.infolist():
                mode = (i.external_attr >> 16) & 0o7777 or 0o644
                entries.append((i.filename, None if i.is_dir() else z.read(i), i.is_dir(), mode))
        return entries
    with tarfile.open(src) as t:
        for m in t.getmembers():
            entries.append((m.name + ('/' if m.isdir() else ''), t.extractfile(m).read() if m.isfile() else None,
                            m.isdir(), m.mode))
    return entries


def retar(src, out, prefix):
    with tarfile.open(out, 'w:gz', format=tarfile.PAX_FORMAT) as t:
        tar_add(t, prefix + '/', kind=tarfile.DIRTYPE, mode=0o755)
        for name, data, is_dir, mode in read_entries(src):
            if is_dir:
                tar_add(t, prefix + '/' + name, kind=tarfile.DIRTYPE, mode=0o755)
            else:
                tar_add(t, prefix + '/' + name, data, mode=mode)


def tamper(src, out, victim):
    with tarfile.open(out, 'w:gz', format=tarfile.PAX_FORMAT) as t:
        for name, data, is_dir, mode in read_entries(src):
            if is_dir:
                tar_add(t, name, kind=tarfile.DIRTYPE, mode=0o755)
                continue
            if name == victim:
                data = data[:-1] + bytes([data[-1] ^ 1])
            tar_add(t, name, data, mode=mode)


def main():
    cmd = sys.argv[1]
    if cmd == 'mirror':
        make_mirror(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif cmd == 'zips':
        make_zips(sys.argv[2])
    elif cmd == 'hostile':
        make_hostile(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else '')
    elif cmd == 'bomb':
        make_bomb(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif cmd == 'hardlinked':
        make_hardlinked(sys.argv[2])
    elif cmd == 'retar':
        retar(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == 'tamper':
        tamper(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
