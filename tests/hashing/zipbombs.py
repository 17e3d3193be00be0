#!/usr/bin/env python3
"""Hostile zips for the hashing limits, assembled record by record from the zip specification
(APPNOTE.TXT 4.3) with Python's zlib for DEFLATE and CRC-32: nothing of Provender's (QuaZip,
minizip, ISA-L) is involved. Each command writes OUT and prints JSON describing what a correct
reader must find, computed here from the records written.

  overlap OUT KERNEL_MIB FILES   D. Fifield's "better zip bomb" (overlapping entries): FILES local
                                 headers, each followed by a non-compressed DEFLATE block that quotes
                                 the next local header, the last followed by a kernel inflating to
                                 KERNEL_MIB MiB of zeros. Entry i's data is everything from the end
                                 of its header to the end of the kernel, so every entry inflates
                                 the kernel. Prints the declared sizes and the first overlapping pair
                                 (by data offset).
  shared OUT KERNEL_MIB FILES    FILES central-directory entries on ONE local header and its data.
  budget OUT FILES GIB           FILES entries of GIB GiB of zeros each, honest and disjoint.
  many OUT FILES                 FILES stored one-byte entries.
"""
import json
import struct
import sys
import zlib

MIB = 1 << 20
DOS_TIME, DOS_DATE = 0x6000, 0x5821  # 2024-01-01 12:00


def deflate_zeros(total):
    """A complete raw DEFLATE stream of `total` zero bytes (multiple of 1 MiB): one 1 MiB block
    compressed with a full flush (independent of what precedes it), repeated, then a final block."""
    assert total % MIB == 0
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(b'\0' * MIB) + c.flush(zlib.Z_FULL_FLUSH)
    return block * (total // MIB) + b'\x03\x00'  # an empty final fixed-Huffman block


def crc_zeros(total, crc=0):
    chunk = b'\0' * MIB
    for _ in range(total // MIB):
        crc = zlib.crc32(chunk, crc)
    return crc


def local_header(name, crc, csize, usize, method=8):
    return struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, method, DOS_TIME, DOS_DATE, crc, csize, usize,
                       len(name), 0) + name


def central_header(name, crc, csize, usize, offset, method=8):
    return struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 0x031e, 20, 0, method, DOS_TIME, DOS_DATE, crc, csize,
                       usize, len(name), 0, 0, 0, 0, 0o100644 << 16, offset) + name


def end_record(count, cd_size, cd_offset):
    return struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, count, count, cd_size, cd_offset, 0)


def write(out, body, centrals):
    cd = b''.join(centrals)
    with open(out, 'wb') as f:
        f.write(body + cd + end_record(len(centrals), len(cd), len(body)))


def names(count):
    return [('file%05d' % i).encode() for i in range(count)]


def overlap(out, kernel_mib, count):
    kernel_size = kernel_mib * MIB
    kernel = deflate_zeros(kernel_size)
    ns = names(count)
    header_len = [30 + len(n) for n in ns]  # a local header's length does not depend on its values
    headers = [b''] * count
    usize = [0] * count
    csize = [0] * count
    crcs = [0] * count
    quoted = b''  # headers i+1 .. count-1: what file i inflates to before the kernel's zeros
    for i in range(count - 1, -1, -1):
        usize[i] = len(quoted) + kernel_size
        csize[i] = sum(5 + header_len[j] for j in range(i + 1, count)) + len(kernel)
        crcs[i] = crc_zeros(kernel_size, zlib.crc32(quoted))
        headers[i] = local_header(ns[i], crcs[i], csize[i], usize[i])
        quoted = headers[i] + quoted
    body = b''
    offsets = []
    data_starts = []
    for i in range(count):
        if i > 0:  # a non-final stored DEFLATE block quoting header i: part of every earlier file's data
            body += b'\x00' + struct.pack('<HH', header_len[i], header_len[i] ^ 0xffff)
        offsets.append(len(body))
        body += headers[i]
        data_starts.append(len(body))
    body += kernel
    for i in range(count):
        assert data_starts[i] + csize[i] == len(body), i
    centrals = [central_header(ns[i], crcs[i], csize[i], usize[i], offsets[i]) for i in range(count)]
    write(out, body, centrals)
    # A standard reader takes it for a valid zip (Python < 3.12 reads it; 3.12 refuses the overlap).
    import zipfile
    try:
        with zipfile.ZipFile(out) as z, z.open(ns[0].decode()) as f:
            assert f.read(header_len[1]) == headers[1]
    except zipfile.BadZipFile as e:
        assert 'verlap' in str(e), e
    order = sorted(range(count), key=lambda i: data_starts[i])
    pair = next((order[k - 1], order[k]) for k in range(1, count)
                if data_starts[order[k]] < data_starts[order[k - 1]] + csize[order[k - 1]])
    print(json.dumps({'declared_total': sum(usize), 'first': ns[pair[0]].decode(), 'second': ns[pair[1]].decode()}))


def shared(out, kernel_mib, count):
    kernel_size = kernel_mib * MIB
    kernel = deflate_zeros(kernel_size)
    crc = crc_zeros(kernel_size)
    ns = names(count)
    body = local_header(ns[0], crc, len(kernel), kernel_size) + kernel
    # Every central entry names the one local header (its name is ns[0]; the central names differ).
    centrals = [central_header(ns[0] if i == 0 else ns[i], crc, len(kernel), kernel_size, 0) for i in range(count)]
    write(out, body, centrals)
    print(json.dumps({'declared_total': kernel_size * count, 'first': ns[0].decode(), 'second': ns[1].decode()}))


def budget(out, count, gib):
    size = gib << 30
    kernel = deflate_zeros(size)
    crc = crc_zeros(size)
    body = b''
    centrals = []
    for n in names(count):
        centrals.append(central_header(n, crc, len(kernel), size, len(body)))
        body += local_header(n, crc, len(kernel), size) + kernel
    # zip64 is not needed: each size fits 32 bits only when gib < 4.
    assert size < (1 << 32)
    write(out, body, centrals)
    print(json.dumps({'declared_total': size * count}))


def many(out, count):
    body = b''
    centrals = []
    crc = zlib.crc32(b'x')
    for n in names(count):
        centrals.append(central_header(n, crc, 1, 1, len(body), method=0))
        body += local_header(n, crc, 1, 1, method=0) + b'x'
    assert count < 0xffff
    write(out, body, centrals)
    print(json.dumps({'entries': count}))


def main():
    cmd = sys.argv[1]
    if cmd == 'overlap':
        overlap(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif cmd == 'shared':
        shared(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif cmd == 'budget':
        budget(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif cmd == 'many':
        many(sys.argv[2], int(sys.argv[3]))
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
