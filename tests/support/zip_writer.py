"""Zips written with Python's zipfile, for the fixtures whose bytes must not come from Provender:
the bundle tests' awkward zips (tests/bundle/fixtures.py) and the fuzzers' seeds
(tests/fuzz/make-seeds.py). Imported by those scripts (sys.path), never run on its own."""
import io
import zipfile

FILE = 0o100644
DIR = 0o040755


class Unseekable(io.RawIOBase):
    """Makes zipfile write data descriptors (it cannot seek back to patch the local header)."""

    def __init__(self, f):
        self.f = f

    def writable(self):
        return True

    def write(self, b):
        return self.f.write(b)

    def seekable(self):
        return False


def zip_bytes(entries, date_time, stream=False, zip64=False, comment=b'', system=3):
    """entries: (name, content, method, Unix mode), all dated `date_time`. A name ending in / or a
    directory mode also gets the MS-DOS directory attribute. stream: through Unseekable (data
    descriptors); zip64: every entry written with zip64 extra fields; system: the "made by" host
    (3 Unix, 0 MS-DOS)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(Unseekable(buf) if stream else buf, 'w') as z:
        z.comment = comment
        for name, content, method, mode in entries:
            info = zipfile.ZipInfo(name, date_time)
            info.compress_type = method
            info.create_system = system
            info.external_attr = mode << 16
            if name.endswith('/') or (mode & 0o170000) == 0o040000:
                info.external_attr |= 0x10
            if zip64:
                with z.open(info, 'w', force_zip64=True) as w:
                    w.write(content)
            else:
                z.writestr(info, content)
    return buf.getvalue()


def layouts(entries, date_time):
    """`entries` (as zip_bytes takes them) written the four ways a reader must follow: plain,
    streamed (data descriptors), zip64, and streamed zip64."""
    return {
        'plain': zip_bytes(entries, date_time),
        'stream': zip_bytes(entries, date_time, stream=True),
        'zip64': zip_bytes(entries, date_time, zip64=True),
        'stream-zip64': zip_bytes(entries, date_time, stream=True, zip64=True),
    }


def broken_zips(plain, flip_at):
    """The damaged zips both fixture sets derive from a good one, `plain`: an empty archive, junk
    before and after it, its first half, and one byte flipped at `flip_at` (inside an entry's data)."""
    empty = io.BytesIO()
    zipfile.ZipFile(empty, 'w').close()
    damaged = bytearray(plain)
    damaged[flip_at] ^= 0xff
    return {
        'empty-archive': empty.getvalue(),
        'prefixed-junk': b'#!/bin/sh\nexit 0\n' + plain,
        'trailing-junk': plain + b'junk',
        'truncated': plain[:len(plain) // 2],
        'damaged-data': bytes(damaged),
    }
